//! Samsung Notes (`com.samsung.android.app.notes/databases/sdoc.db`), ALEAPP's `snotes`: one
//! `notes` phenomenon per `sdoc` row — title, text (`content`, a UTF-8 BLOB read as text),
//! created, last modified, first, second and last opened (Unix ms), whether it is in the recycle
//! bin and since when, and the note's own file (`filePath`, the `.sdocx` its media sit beside).
//! Wallet addresses and amounts written in a note are the claims of the phone's user (as for
//! Google Keep). Schema drift: an `sdoc` without `createdAt` is noted; the other columns are
//! read where present. Identities: none observed beyond the claims.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is Samsung Notes' store.
pub fn is_store(l: &Located) -> bool {
    l.path
        .ends_with("/com.samsung.android.app.notes/databases/sdoc.db")
}

/// One `sdoc.db`.
pub fn notes(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["sdoc"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "sdoc")?;
    if !require_columns(
        ctx,
        &name,
        "Samsung Notes' sdoc.db",
        "sdoc",
        &cols,
        &["createdAt"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let content = if cols.contains("content") {
        "CAST(content AS TEXT) AS content"
    } else {
        "NULL AS content"
    };
    let sql = format!(
        "SELECT rowid AS rid, createdAt, {}, {}, {content}, {}, {}, {}, {}, {}, {} FROM sdoc ORDER BY createdAt, rowid",
        c("lastModifiedAt"),
        c("title"),
        c("isDeleted"),
        c("recycle_bin_time_moved"),
        c("firstOpendAt"),
        c("secondOpenedAt"),
        c("lastOpenedAt"),
        c("filePath"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Samsung notes")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let title = t.get(row, "title").filter(|s| !s.trim().is_empty());
        let deleted = t.get(row, "isDeleted").is_some_and(|v| v != "0");
        let mut d = Draft::new(
            "notes",
            format!("Samsung note {rid}: {}", title.unwrap_or("untitled")),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, raw(t, row, "title").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "content").as_deref(), inv);
        d.fact(FactType::Path, raw(t, row, "filePath").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "isDeleted").as_deref(), inv);
        for (col, what) in [
            ("createdAt", "Samsung note created"),
            ("lastModifiedAt", "Samsung note modified"),
            ("firstOpendAt", "Samsung note first opened"),
            ("secondOpenedAt", "Samsung note opened a second time"),
            ("lastOpenedAt", "Samsung note last opened"),
            (
                "recycle_bin_time_moved",
                "Samsung note moved to the recycle bin",
            ),
        ] {
            // Samsung Notes writes 0 for a time it never had (a note never deleted)
            let v = t.get(row, col).filter(|v| *v != "0");
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "sdoc row {rid} of {}: a note of Samsung Notes{}{}; times are Unix ms (a 0, no time, is left out).",
            l.name(),
            title.map(|t| format!(" titled {t}")).unwrap_or_default(),
            if deleted {
                ", deleted: in the recycle bin since recycle_bin_time_moved"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        if let Some(text) = t.get(row, "content").filter(|s| !s.trim().is_empty()) {
            crate::identity::message_claims(
                ctx,
                inv,
                text,
                &format!("Samsung note {rid}"),
                true,
                "the device's user, who wrote the note",
                None,
            )?;
        }
    }
    Ok(())
}
