//! Samsung's file traces: the trash provider (`com.samsung.android.providers.trash/databases/
//! trash.db`, ALEAPP's `samsungTrash`), My Files' recent files (`com.sec.android.app.myfiles/
//! databases/myfiles.db` and, on newer releases, `FileInfo.db`, ALEAPP's `smyfilesRecents`) and
//! My Files' operation history (`com.sec.android.app.myfiles/databases/OperationHistory.db`,
//! ALEAPP's `smyfilesOpHistory`).
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `trash.db`, `trashes` | one `files` per file in the trash ("Deleted to the trash: <name>") | deleted and expires (Unix ms), the original path, the path of the copy in the trash (`…/Android/.Trash/…`, under `data/media/<user>/` in a full extraction), title, display name, size, MIME type, the app it was deleted from, the user, the extra JSON |
//! | `myfiles.db` or `FileInfo.db`, `recent_files` | one `files` per recent file ("Recent file in My Files: <name>") | recent and modified (Unix ms), name, path (`_data` or `path`), size, extension, source, description, file id, app, whether downloaded, hidden, trashed |
//! | `OperationHistory.db`, `operation_history` | one `files` per copy, move, delete … ("My Files operation <type>, <date>") | operation type, the item path as stored and, where it is the older releases' obfuscated path (it starts with `7`, the swapped `/`), that path decoded in the query with ALEAPP's swap table, items, folders, page, result, storage capacity note, id; when (`mDate`: date text, or Unix s or ms by magnitude) |
//! | `OperationHistory.db`, `operation_history_data` (newer releases) | one `files` per item of an operation ("My Files <type>: <source path>") | source and destination paths and file ids, the operation's id, type, page and result; when (the operation's `mDate`) |
//!
//! Columns are taken by name (absent ones NULL); a table without its path column is noted. A
//! file in the trash was deleted by the user in that app and can be restored until it expires;
//! a recent file was opened or handled through My Files; an operation was run in My Files by
//! the device's user. Newer releases write the item path `#G$…` (not decoded; the items' paths
//! are then in `operation_history_data`). Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, RowPhenomena, date_text, record_draft, unix_by_magnitude, unix_millis};
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

/// Whether `l` is My Files' operation history.
pub fn is_operations(l: &Located) -> bool {
    l.name() == "OperationHistory.db" && l.path.contains("/com.sec.android.app.myfiles/")
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
        // is noted, a store without the table passed over, and the older m-prefixed layout
        // (`mFullPath`) left to `android::myfiles`, which reads it
        if !cols.is_empty() && !cols.contains("mFullPath") {
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

/// The characters older My Files releases exchange in `mItemPath` (ALEAPP's
/// `smyfilesOpHistory` table, established by testing on Android 10 to 12; an exchange, so the
/// same swaps decode): each character of the first string becomes the one at its place in the
/// second; a character in neither stays as it is (ALEAPP writes `?` for those).
const SWAPPED_FROM: &str = "abefhijklmnopqrstuvwyz012345679(*)+,.-/:]^&%\"!ABEFHIJKLMNOPQRSTUVWYZ";
/// What each character of [`SWAPPED_FROM`] becomes.
const SWAPPED_TO: &str = "bafeprqstvuwhjiklnmozy(*)+,.-/:012345679^]%&!\"BAFEPRQSTVUWHJIKLNMOZY";

/// `mDate` as stored: Unix seconds or milliseconds (by magnitude) when it is a number, else a
/// date-time text.
fn operation_date(value: Option<&str>) -> Option<masf_graph::TimeEncoding> {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            unix_by_magnitude(Some(v))
        }
        _ => date_text(value),
    }
}

/// My Files' `OperationHistory.db`: each operation, and (newer releases) each item of one.
pub fn operations(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = crate::identity::schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = crate::calls::Tables::of(
        ctx,
        &name,
        "My Files' OperationHistory.db",
        &schema,
        &["operation_history", "operation_history_data"],
    )?
    else {
        return Ok(());
    };
    let history = tables.need("operation_history", &["mOperationType"])?;
    if let Some(c) = history {
        let col = |x: &str| column_or_null(c, "h.", x, x);
        // the obfuscated path decoded a character at a time (a recursive query: SQLite has no
        // translate), only where it starts with the swapped `/`
        let (with, decoded) = if c.contains("mItemPath") {
            let ch = "substr(o.mItemPath, s.i, 1)";
            (
                format!(
                    "WITH RECURSIVE swapped(rid, i, acc) AS (SELECT rowid, 1, '' FROM operation_history WHERE mItemPath LIKE '7%' \
                     UNION ALL SELECT s.rid, s.i + 1, s.acc || CASE WHEN instr('{from}', {ch}) > 0 THEN substr('{to}', instr('{from}', {ch}), 1) ELSE {ch} END \
                     FROM swapped s JOIN operation_history o ON o.rowid = s.rid WHERE s.i <= length(o.mItemPath)) ",
                    from = SWAPPED_FROM,
                    to = SWAPPED_TO,
                ),
                "(SELECT acc FROM swapped WHERE swapped.rid = h.rowid AND swapped.i = length(h.mItemPath) + 1) AS decoded_path".to_string(),
            )
        } else {
            (String::new(), "NULL AS decoded_path".to_string())
        };
        let sql = format!(
            "{with}SELECT h.rowid AS rid, {}, {}, {decoded}, {}, {}, {}, {}, {}, {}, {} FROM operation_history h ORDER BY h.rowid",
            col("_id"),
            col("mItemPath"),
            col("mOperationType"),
            col("mDate"),
            col("mItemCount"),
            col("mFolderCount"),
            col("mPageType"),
            col("mOperationResult"),
            col("mMemoryFullCapacity"),
        );
        super::record_query(
            ctx,
            l,
            &sql,
            &RowPhenomena {
                table: "operation_history",
                category: "files",
                what: "a file operation (copy, move, delete …) the device's user ran in Samsung's My Files (mItemPath as stored; decoded_path that path with ALEAPP's swap table undone, where it is the older releases' obfuscated form; the date as stored, its time zone unverified)",
                title: &|t, row| {
                    format!(
                        "My Files operation {}, {}",
                        t.get(row, "mOperationType").unwrap_or("?"),
                        t.get(row, "mDate").unwrap_or("?")
                    )
                },
                fields: &[
                    ("mOperationType", FactType::Text, "operation"),
                    ("decoded_path", FactType::Path, "item path (decoded)"),
                    ("mItemPath", FactType::Text, "item path as stored"),
                    ("mItemCount", FactType::Count, "items"),
                    ("mFolderCount", FactType::Count, "folders"),
                    ("mPageType", FactType::Text, "page"),
                    ("mOperationResult", FactType::Text, "result"),
                    ("mMemoryFullCapacity", FactType::Text, "storage capacity"),
                    ("_id", FactType::Identifier, "operation id"),
                ],
                times: &[("mDate", "File operation in My Files", operation_date)],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    let Some(d) = tables.need("operation_history_data", &["src_path"])? else {
        return Ok(());
    };
    // the operation each item belongs to, when both tables carry the link
    let joined = match history {
        Some(h) if h.contains("_id") && d.contains("operation_id") => Some(h),
        _ => None,
    };
    let op = |x: &str| match joined {
        Some(h) => column_or_null(h, "h.", x, x),
        None => format!("NULL AS {x}"),
    };
    let sql = format!(
        "SELECT d.rowid AS rid, d.src_path AS src_path, {}, {}, {}, {}, {}, {}, {}, {} FROM operation_history_data d{} ORDER BY d.rowid",
        column_or_null(d, "d.", "src_file_id", "src_file_id"),
        column_or_null(d, "d.", "dst_path", "dst_path"),
        column_or_null(d, "d.", "dst_file_id", "dst_file_id"),
        column_or_null(d, "d.", "operation_id", "operation_id"),
        op("mOperationType"),
        op("mDate"),
        op("mPageType"),
        op("mOperationResult"),
        if joined.is_some() {
            " LEFT JOIN operation_history h ON h._id = d.operation_id"
        } else {
            ""
        },
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "operation_history_data",
            category: "files",
            what: "an item of a file operation the device's user ran in Samsung's My Files (its source and, for a copy or move, destination; the operation's type and date as stored)",
            title: &|t, row| {
                format!(
                    "My Files {}: {}",
                    t.get(row, "mOperationType").unwrap_or("operation"),
                    t.get(row, "src_path").unwrap_or("?")
                )
            },
            fields: &[
                ("src_path", FactType::Path, "source"),
                ("dst_path", FactType::Path, "destination"),
                ("src_file_id", FactType::Identifier, "source file id"),
                ("dst_file_id", FactType::Identifier, "destination file id"),
                ("operation_id", FactType::Identifier, "operation id"),
                ("mOperationType", FactType::Text, "operation"),
                ("mPageType", FactType::Text, "page"),
                ("mOperationResult", FactType::Text, "result"),
            ],
            times: &[("mDate", "File operation in My Files", operation_date)],
        },
        &mut |_, _, _| Ok(()),
    )
}
