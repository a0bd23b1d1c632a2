//! Kijiji's recent searches (`com.ebay.kijiji.ca/databases/searches.db`), ALEAPP's
//! `kijijiRecentSearches` (`get_kijijiRecentSearches`): what the device's user searched for in
//! the classifieds app, where and with which filters. The messages and the signed-in user are
//! [`super::kijiji`]'s.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/searches.db`: `recent_searches` | one `web` per search ("Kijiji search <keyword>") | keyword, thumbnail, address, latitude, longitude, search distance, ad type, price type, minimum and maximum price (the app's `-1`, no limit, read as none: computed in the query); when (`time`, Unix ms) |
//!
//! A row is a search the app kept in its recent list (the app may drop older ones): it says the
//! user looked for the keyword around the address, not that any ad was opened or bought. The
//! address and coordinates are the search's area as the user set it (often near home), not a
//! position of the phone. Columns are taken by name (absent ones NULL); a store without
//! `recent_searches(keyword)` is noted. `searches.db` is a generic name: only Kijiji's own
//! `databases/` folder is read. Identities: none (a search names no account).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// The store's file name.
pub const STORE: &str = "searches.db";

/// Whether `l` is Kijiji's search store.
pub fn is_store(l: &Located) -> bool {
    l.name() == STORE && l.path.contains("/com.ebay.kijiji.ca/databases/")
}

/// The searches query (`-1` prices, the app's "no limit", as NULL).
pub(crate) fn searches_sql(cols: &std::collections::BTreeSet<String>) -> String {
    let c = |col: &str, alias: &str| column_or_null(cols, "x.", col, alias);
    let price = |col: &str| {
        if cols.contains(col) {
            format!("CASE WHEN x.{col} = -1 THEN NULL ELSE x.{col} END AS {col}")
        } else {
            format!("NULL AS {col}")
        }
    };
    let order = if cols.contains("time") {
        "x.time, x.rowid"
    } else {
        "x.rowid"
    };
    format!(
        "SELECT x.rowid AS rid, {}, x.keyword AS keyword, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM recent_searches x ORDER BY {order}",
        c("time", "searched"),
        c("thumbnail", "thumbnail"),
        c("address", "address"),
        c("latitude", "latitude"),
        c("longitude", "longitude"),
        c("distance", "distance"),
        c("ad_type", "ad_type"),
        c("price_type", "price_type"),
        price("min_price"),
        price("max_price"),
    )
}

/// One `searches.db` of Kijiji's.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = schema.get("recent_searches").filter(|c| !c.is_empty()) else {
        ctx.unparsed(
            &name,
            "could not parse Kijiji's searches.db because it has no recent_searches table",
            None,
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Kijiji's searches.db",
        "recent_searches",
        cols,
        &["keyword"],
    )? {
        return Ok(());
    }
    super::record_query(
        ctx,
        l,
        &searches_sql(cols),
        &RowPhenomena {
            table: "recent_searches",
            category: "web",
            what: "a search the Kijiji app kept in its recent searches (what the user looked for, where and with which filters; the area is the search's, not the phone's position; -1 prices, no limit, read as none; time Unix ms)",
            title: &|t, row| {
                format!(
                    "Kijiji search {}",
                    raw(t, row, "keyword").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("keyword", FactType::Text, "keyword"),
                ("thumbnail", FactType::Url, "thumbnail"),
                ("address", FactType::Text, "address"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("distance", FactType::Text, "search distance as stored"),
                ("ad_type", FactType::Text, "ad type"),
                ("price_type", FactType::Text, "price type"),
                ("min_price", FactType::Text, "minimum price"),
                ("max_price", FactType::Text, "maximum price"),
            ],
            times: &[("searched", "Kijiji search made", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}
