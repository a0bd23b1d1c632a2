//! The Google Play Store (`com.android.vending/databases/`): `library.db` — every app and item
//! each Google account on the device acquired (`ownership`: account, document id, library,
//! document and offer type, purchase time), ALEAPP's `installedappsLibrary` — and
//! `suggestions.db` — what was searched for in the store (`suggestions`: query, the text shown,
//! time), ALEAPP's `googlePlaySearches`. Every account that acquired something is a Google
//! account of the device's user (`owner`).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::databases::tables_with;
use super::{Located, MAX_ROWS};
use crate::calls::{column_or_null, note_row_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, columns_on, normalized, observe, query_on};
use crate::outputs::raw;

/// Whether `l` is one of the Play Store's databases (the names are common to other apps).
pub fn is_play_store(l: &Located) -> bool {
    l.path.contains("/com.android.vending/")
}

/// `library.db`: what each account acquired.
pub fn library(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["ownership"])?.is_none() {
        return Ok(());
    }
    let Some((_, cols)) = columns_on(ctx, &l.tree, &l.path, "ownership")? else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &format!("the Play Store's {}", l.name()),
        "ownership",
        &cols,
        &["account", "doc_id"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, account, doc_id, {}, {}, {}, {}, {} FROM ownership ORDER BY {}",
        c("library_id"),
        c("doc_type"),
        c("offer_type"),
        c("purchase_time"),
        c("preordered"),
        if cols.contains("purchase_time") {
            "purchase_time, rowid"
        } else {
            "rowid"
        },
    );
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, MAX_ROWS)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_row_cap(ctx, &name, &t, MAX_ROWS, "Play Store library items")?;
    let mut accounts = BTreeSet::new();
    for row in &t.rows {
        let account = t.get(row, "account").unwrap_or("?");
        let doc = t.get(row, "doc_id").unwrap_or("?");
        let mut d = Draft::new("apps", format!("Google Play: {doc} acquired by {account}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let account_fact = if normalized(ctx, IdType::Email, account).is_some() {
            FactType::Email
        } else {
            FactType::Account
        };
        d.fact(account_fact, raw(&t, row, "account").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "doc_id").as_deref(),
            &inv,
        );
        d.fact(
            FactType::Identifier,
            raw(&t, row, "library_id").as_deref(),
            &inv,
        );
        let time = t.get(row, "purchase_time");
        d.time(time, unix_millis(time), "Acquired in the Play Store", &inv);
        d.interpretation = format!(
            "ownership row {} of {name}: the Google account {account} acquired {doc} in the Play Store (library {}, document type {}, offer type {}{}); purchase_time is Unix milliseconds.",
            t.get(row, "row").unwrap_or("?"),
            t.get(row, "library_id").unwrap_or("not stored"),
            t.get(row, "doc_type").unwrap_or("?"),
            t.get(row, "offer_type").unwrap_or("?"),
            if t.get(row, "preordered") == Some("1") {
                ", pre-ordered"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        if accounts.insert(account.to_string())
            && normalized(ctx, IdType::GoogleAccount, account).is_some()
        {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::GoogleAccount,
                account,
                &inv,
                format!(
                    "{account} acquired apps in the Play Store on the device ({}): a Google account of its user.",
                    l.name()
                ),
            )?;
        }
    }
    Ok(())
}

/// `suggestions.db`: the Play Store searches.
pub fn suggestions(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["suggestions"])?.is_none() {
        return Ok(());
    }
    let Some((_, cols)) = columns_on(ctx, &l.tree, &l.path, "suggestions")? else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        &format!("the Play Store's {}", l.name()),
        "suggestions",
        &cols,
        &["query"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, query, {}, {} FROM suggestions ORDER BY rowid",
        c("display1"),
        c("date"),
    );
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, MAX_ROWS)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_row_cap(ctx, &name, &t, MAX_ROWS, "Play Store searches")?;
    for row in &t.rows {
        let query = raw(&t, row, "query").unwrap_or_default();
        let mut d = Draft::new("web", format!("Google Play search {query}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, Some(&query), &inv);
        d.fact(FactType::Text, raw(&t, row, "display1").as_deref(), &inv);
        let time = t.get(row, "date");
        d.time(time, unix_millis(time), "Searched in the Play Store", &inv);
        d.interpretation = format!(
            "suggestions row {} of {name}: a search typed in the Play Store; date is Unix milliseconds.",
            t.get(row, "row").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
