//! DuckDuckGo's browser on Android (`com.duckduckgo.mobile.android/databases/`), ALEAPP's
//! `duckduckgo_history` and `duckduckgo_opentabs`:
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `history.db`, `visits_list` with `history_entries` | one `web` per visit | the page's URL and title, whether it was a DuckDuckGo search and the query, the visit's time (`timestamp`, ISO text without a zone: the device's local time) |
//! | `app.db`, `tabs` with `tab_selection` | one `web` per open tab | tab id, URL, title, the preview file, whether it is the selected tab, last accessed (ISO text, local) |
//!
//! Columns are taken by name (absent ones NULL); a store without its table or URL column is
//! noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, date_text, record_draft};
use crate::identity::{artefact_name, pages_on, required_columns, table_columns};
use crate::outputs::raw;

/// The browser's package folder.
const PACKAGE: &str = "/com.duckduckgo.mobile.android/";

/// Whether `l` is DuckDuckGo's history store.
pub fn is_history(l: &Located) -> bool {
    l.name() == "history.db" && l.path.contains(PACKAGE)
}

/// Whether `l` is DuckDuckGo's app store (its tabs).
pub fn is_app(l: &Located) -> bool {
    l.name() == "app.db" && l.path.contains(PACKAGE)
}

/// One `history.db`.
pub fn history(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(entries) = required_columns(
        ctx,
        &l.tree,
        &l.path,
        "DuckDuckGo's history.db",
        "history_entries",
        &["id", "url"],
    )?
    else {
        return Ok(());
    };
    let visits = table_columns(ctx, &l.tree, &l.path, "visits_list")?;
    let e = |c: &str| column_or_null(&entries, "h.", c, c);
    let sql = if visits.contains("historyEntryId") {
        format!(
            "SELECT v.rowid AS rowid, h.url AS url, {}, {} FROM visits_list v LEFT JOIN history_entries h ON v.historyEntryId = h.id ORDER BY v.rowid",
            ["title", "query", "isSerp"].map(e).join(", "),
            column_or_null(&visits, "v.", "timestamp", "visited"),
        )
    } else {
        // no visits: each entry once, without a time
        format!(
            "SELECT h.rowid AS rowid, h.url AS url, {}, NULL AS visited FROM history_entries h ORDER BY h.rowid",
            ["title", "query", "isSerp"].map(e).join(", "),
        )
    };
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "DuckDuckGo visits")?;
    for (inv, t, row) in pages.rows() {
        let url = raw(t, row, "url").unwrap_or_else(|| "a page whose entry is gone".into());
        let search = t.get(row, "isSerp") == Some("1");
        let mut d = Draft::new(
            "web",
            if search {
                format!(
                    "DuckDuckGo search: {}",
                    raw(t, row, "query").unwrap_or_else(|| url.clone())
                )
            } else {
                format!("DuckDuckGo visit: {url}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("url", FactType::Url, "URL"),
                ("title", FactType::Text, "title"),
                ("query", FactType::Text, "search query"),
            ],
        );
        let at = t.get(row, "visited");
        d.time(at, date_text(at), "DuckDuckGo page visited", inv);
        d.interpretation = format!(
            "A {} in DuckDuckGo on the device; {}{}.",
            if search {
                "DuckDuckGo search"
            } else {
                "page visit"
            },
            said.join("; "),
            at.map(|a| format!("; at {a} (the device's local time, as written)"))
                .unwrap_or_default()
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// One `app.db`: its open tabs.
pub fn tabs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = required_columns(
        ctx,
        &l.tree,
        &l.path,
        "DuckDuckGo's app.db",
        "tabs",
        &["tabId", "url"],
    )?
    else {
        return Ok(());
    };
    let selection = table_columns(ctx, &l.tree, &l.path, "tab_selection")?;
    let c = |col: &str| column_or_null(&cols, "t.", col, col);
    let sql = format!(
        "SELECT t.rowid AS rowid, t.tabId AS tabId, t.url AS url, {}, {} AS selected FROM tabs t ORDER BY t.rowid",
        ["title", "tabPreviewFile", "lastAccessTime"]
            .map(c)
            .join(", "),
        if selection.contains("tabId") {
            "(t.tabId IN (SELECT tabId FROM tab_selection))"
        } else {
            "NULL"
        },
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "DuckDuckGo tabs")?;
    for (inv, t, row) in pages.rows() {
        let url = raw(t, row, "url").unwrap_or_else(|| "a blank tab".into());
        let mut d = Draft::new("web", format!("DuckDuckGo open tab: {url}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("tabId", FactType::Identifier, "tab id"),
                ("url", FactType::Url, "URL"),
                ("title", FactType::Text, "title"),
                ("tabPreviewFile", FactType::Path, "preview file"),
            ],
        );
        if let Some(v) = t.get(row, "selected") {
            said.push(format!(
                "selected tab: {}",
                if v == "1" { "yes" } else { "no" }
            ));
        }
        let at = t.get(row, "lastAccessTime");
        d.time(at, date_text(at), "DuckDuckGo tab last accessed", inv);
        d.interpretation = format!(
            "A tab open in DuckDuckGo on the device when it was seized; {}.",
            said.join("; ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
