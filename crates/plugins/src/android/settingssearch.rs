//! The Settings search index (`search_index.db` of `com.android.settings.intelligence`, Google's
//! `com.google.android.settings.intelligence`, and before Android 8 the Settings app's own
//! `com.android.settings`), ALEAPP's `settingsSearch` (`get_settingsSearch`): what the user typed
//! into the search box of the Settings app, and when.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/search_index.db`: `saved_queries` | one `app_usage` per saved search ("Settings search <query>") | the query as typed; when (`timestamp`, Unix ms) |
//!
//! A saved query is a search the user ran in Settings (Settings keeps the recent ones to offer
//! them again), so it shows what the user looked for — Wi-Fi, developer options, a factory reset
//! — not that a setting was changed. The interpretation names the app folder the index is in.
//! Schema drift: `timestamp` is taken by name (NULL where absent or unset: the search is read
//! without a time); an index without `saved_queries`, or whose table lacks `query`, is noted.
//! Not read: `prefs_index`, `meta_index` and `site_map`, the index of the settings themselves
//! (what can be found, not what was searched). Only the index in the three Settings folders is
//! read: other apps name databases `search_index.db` too. Secrets: none kept. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, require_columns};
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// The folders of the apps that keep the Settings search index.
const DIRS: &[&str] = &[
    "/com.android.settings.intelligence/databases/",
    "/com.google.android.settings.intelligence/databases/",
    "/com.android.settings/databases/",
];

/// Whether `path` is the Settings search index.
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/search_index.db") && DIRS.iter().any(|d| path.contains(d))
}

/// Whether `l` is the Settings search index.
pub fn is_store(l: &Located) -> bool {
    l.name() == "search_index.db" && is_store_path(&l.path)
}

/// The app whose folder holds the index at `path`.
fn app_of(path: &str) -> &'static str {
    DIRS.iter()
        .copied()
        .find(|d| path.contains(*d))
        .map(|d| d.trim_start_matches('/').trim_end_matches("/databases/"))
        .unwrap_or("Settings")
}

/// One `search_index.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let what = "the Settings search index search_index.db";
    let Some(cols) = schema.get("saved_queries") else {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {what} because it has no saved_queries table (another layout)"
            ),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(ctx, &name, what, "saved_queries", cols, &["query"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, query, {} FROM saved_queries ORDER BY rowid",
        column_or_null(cols, "", "timestamp", "timestamp")
    );
    let app = app_of(&l.path);
    let row_what = format!(
        "a search the user ran in the Settings app's search box, as {app} saved it (what was looked for, not a setting changed; timestamp Unix ms)"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "saved_queries",
            category: "app_usage",
            what: &row_what,
            title: &|t, row| {
                format!(
                    "Settings search {}",
                    raw(t, row, "query").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[("query", FactType::Text, "query")],
            times: &[("timestamp", "Searched in Settings", unix_millis)],
        },
        &mut |_, _, _| Ok(()),
    )
}
