//! Samsung's file traces: the trash provider (`com.samsung.android.providers.trash/databases/
//! trash.db`, ALEAPP's `samsungTrash`) and My Files' recent files (`com.sec.android.app.myfiles/
//! databases/myfiles.db` and, on newer releases, `FileInfo.db`, ALEAPP's `smyfilesRecents`).
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `trash.db`, `trashes` | one `files` per file in the trash ("Deleted to the trash: <name>") | deleted and expires (Unix ms), the original path, the path of the copy in the trash (`…/Android/.Trash/…`, under `data/media/<user>/` in a full extraction), title, display name, size, MIME type, the app it was deleted from, the user, the extra JSON |
//! | `myfiles.db` or `FileInfo.db`, `recent_files` | one `files` per recent file ("Recent file in My Files: <name>") | recent and modified (Unix ms), name, path (`_data` or `path`), size, extension, source, description, file id, app, whether downloaded, hidden, trashed |
//!
//! Columns are taken by name (absent ones NULL); a table without its path column is noted. A
//! file in the trash was deleted by the user in that app and can be restored until it expires;
//! a recent file was opened or handled through My Files. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, required_columns};
use crate::outputs::raw;

/// Whether `l` is Samsung's trash provider's store.
pub fn is_trash(l: &Located) -> bool {
    l.name() == "trash.db" && l.path.contains("/com.samsung.android.providers.trash/")
}

/// Whether `l` is one of My Files' stores of recent files.
pub fn is_myfiles(l: &Located) -> bool {
    matches!(l.name(), "myfiles.db" | "FileInfo.db")
        && l.path.contains("/com.sec.android.app.myfiles/")
}

/// The last part of a path.
fn base(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// One `trash.db`.
pub fn trash(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((name, pages)) = super::table_rows(
        ctx,
        l,
        &super::TableSpec {
            what: "Samsung's trash provider trash.db",
            table: "trashes",
            required: &["_data"],
            optional: &[
                "_id",
                "original_path",
                "title",
                "_display_name",
                "_size",
                "mime_type",
                "delete_package_name",
                "user_id",
                "date_deleted",
                "date_expires",
                "extra",
            ],
            rows: "files in Samsung's trash",
        },
        |_| Vec::new(),
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let shown = raw(t, row, "_display_name")
            .or_else(|| raw(t, row, "original_path").map(|p| base(&p).to_string()))
            .or_else(|| raw(t, row, "_data").map(|p| base(&p).to_string()))
            .unwrap_or_else(|| "a file".into());
        let mut d = Draft::new("files", format!("Deleted to the trash: {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("original_path", FactType::Path, "original path"),
                ("_data", FactType::Path, "copy in the trash"),
                ("title", FactType::Name, "title"),
                ("_display_name", FactType::Name, "file name"),
                ("_size", FactType::Count, "size (bytes)"),
                ("mime_type", FactType::Text, "MIME type"),
                (
                    "delete_package_name",
                    FactType::Identifier,
                    "deleted from the app",
                ),
                ("user_id", FactType::Count, "Android user"),
                ("_id", FactType::Identifier, "id"),
                ("extra", FactType::Text, "extra"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("date_deleted", "File deleted to the trash"),
                ("date_expires", "File expires from the trash"),
            ],
        );
        d.interpretation = format!(
            "trashes row {} of {name}: the device's user deleted this file to Samsung's trash (it can be restored until it expires; its copy stays in the trash folder until then); {}.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// One of My Files' stores of recent files.
pub fn myfiles(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "recent_files")?;
    let path_col = ["_data", "path"].into_iter().find(|c| cols.contains(*c));
    let Some(path_col) = path_col else {
        // the store has other tables (settings, favourites): a recent_files table without a path
        // is noted, a store without the table passed over
        if !cols.is_empty() {
            required_columns(
                ctx,
                &l.tree,
                &l.path,
                "My Files' recent files",
                "recent_files",
                &["_data"],
            )?;
        }
        return Ok(());
    };
    let col = |c: &str| column_or_null(&cols, "", c, c);
    let sql = format!(
        "SELECT rowid AS rowid, {path_col} AS file_path, {} FROM recent_files ORDER BY rowid",
        [
            "name",
            "size",
            "ext",
            "_source",
            "_description",
            "file_id",
            "package_name",
            "is_download",
            "is_hidden",
            "is_trashed",
            "date_modified",
            "recent_date",
        ]
        .map(col)
        .join(", ")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "My Files' recent files")?;
    for (inv, t, row) in pages.rows() {
        let shown = raw(t, row, "name")
            .or_else(|| raw(t, row, "file_path").map(|p| base(&p).to_string()))
            .unwrap_or_else(|| "a file".into());
        let mut d = Draft::new("files", format!("Recent file in My Files: {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("file_path", FactType::Path, "path"),
                ("name", FactType::Name, "name"),
                ("size", FactType::Count, "size (bytes)"),
                ("ext", FactType::Text, "extension"),
                ("_source", FactType::Text, "source"),
                ("_description", FactType::Text, "description"),
                ("file_id", FactType::Identifier, "file id"),
                ("package_name", FactType::Identifier, "app"),
            ],
        );
        for (c, what) in [
            ("is_download", "downloaded"),
            ("is_hidden", "hidden"),
            ("is_trashed", "in the trash"),
        ] {
            if let Some(v) = t.get(row, c) {
                said.push(format!("{what}: {}", if v == "1" { "yes" } else { "no" }));
            }
        }
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("recent_date", "File handled in My Files"),
                ("date_modified", "File modified"),
            ],
        );
        d.interpretation = format!(
            "recent_files row {} of {name}: a file the device's user opened or handled through Samsung's My Files; {}.",
            raw(t, row, "rowid").unwrap_or_default(),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
