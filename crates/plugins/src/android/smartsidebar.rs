//! The ColorOS / OxygenOS Smart Sidebar's File Dock (OPPO, OnePlus, realme;
//! `com.coloros.smartsidebar`), ALEAPP's `smartSidebarFileDock` (`get_smartSidebarFileDock`:
//! the cached copies on the shared storage) and `get_smartSidebarFileDockDb` (the app's
//! registry): what the user dropped into the dock — media dragged out of an app, text
//! selections, links, files shared to "Save to File Dock".
//!
//! | source | phenomenon | fields |
//! |---|---|---|
//! | `databases/smartSidebar.db`: `transfer_dock_file_info` | one `files` per item ("Smart Sidebar dock item <name, text or link>") | item type (fileType 1 text selection, 2 image, 4 file, 6 shared link, named in the query) and its code, MIME type, the text (`fileContent`'s `content`, or the column as stored when it is no JSON object), whether the text is whole or a preview (`isAll`), file name, original source (`fileOName`), the link, its title, subtitle and image (`linkSource`'s members, or the column as stored), size, MD5, status, the cached copy's path (`localPath`), local file id, group UUID, MediaStore URI, Android user; added and updated (`createTime`, `updateTime`, Unix ms) |
//! | `transfer_dock_deleted_file_info` | one `files` per item removed from the dock ("Smart Sidebar dock item <…> (removed)") | the same, without the cached copy's path |
//! | `Download/.com_coloros_smartsidebar/transferdock/<folder>/<file>` (found by the folder's name, listed with `find_files`) | one `files` per cached copy ("Smart Sidebar dock …: <name>") | path, file name, size, the folder's name as written; for `OPLUSDRAG_<package>_<view>_<YYYY-MM-DD_HH_MM_SS>.<ext>` (media dragged out of an app) the app's package, its view and the capture time as written; for `transferdock_<ms>.txt` (a text selection) and any `.txt` the text (`read_text`); for `link_file_<ms>.link` the link, title, subtitle and image (`read_json`); the time in a text's or link's name (Unix ms, added to the dock); written (the listing's modified time) |
//!
//! The dock keeps a full copy of every item on the shared storage, and the copy stays when the
//! original (a message's photo in an app that deletes it, a file) is gone: a cached copy says the
//! user put that content in the dock, and for a drag which app it came from and when (the
//! capture time in the name is the phone's local wall-clock time in a layout the timeline does
//! not read: a fact, not a time mark). The folder's name is the base64 of `<local file id>|<group
//! UUID>|<added, Unix ms>|<the end of the file name>`: it is quoted as written, not decoded (no
//! tool decodes a path's part); the database, where the extraction holds it, gives the same
//! ids and the time added, with the copy's path in `localPath`. For a text selection the
//! database may keep only a preview (`isAll` false): the cached `.txt` holds it whole.
//! The database's main file is often nearly empty with its rows in the `-wal`, which
//! `sqlite_query` applies.
//!
//! Schema drift: columns are taken by name (absent ones NULL); a database with neither table is
//! noted, as is a table without `createTime`; a `.link` that is no JSON and a listing cut at its
//! limit are noted. The database is read only in the package's `databases/` folder. Identities:
//! none (`userId` is the Android user the item belongs to, not an account).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::json;

use super::Located;
use crate::calls::{call_or_note, column_expr, column_or_null, require_columns};
use crate::drafts::{Draft, RowPhenomena, headline, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name, schema_on};
use crate::outputs::{ListedFile, listed_files};

/// The dock's folder on the shared storage.
pub const DIR: &str = ".com_coloros_smartsidebar";

/// The app's database.
pub const DB: &str = "smartSidebar.db";

/// The tables: items in the dock, items removed from it.
const LIVE: &str = "transfer_dock_file_info";
const DELETED: &str = "transfer_dock_deleted_file_info";

/// Most entries the dock folder's listing returns.
const LIST_LIMIT: u64 = 20_000;

/// Whether `path` is the Smart Sidebar's database in its package's `databases/` folder.
pub fn is_store_path(path: &str) -> bool {
    path.ends_with(&format!("/com.coloros.smartsidebar/databases/{DB}"))
}

/// Whether `l` is the Smart Sidebar's database.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// Whether `l` is the dock's folder on the shared storage.
pub fn is_app_dir(l: &Located) -> bool {
    l.path.rsplit('/').next() == Some(DIR)
}

/// Whether `path` is a cached copy in the dock's folder (for `categorise`).
pub fn is_dock_path(path: &str) -> bool {
    path.contains(&format!("/{DIR}/transferdock/"))
}

/// `member` of the JSON object in column `col` (NULL when the column is absent or holds no
/// JSON object); with `or_raw`, the column as stored when it holds no JSON object.
fn member(cols: &BTreeSet<String>, col: &str, key: &str, or_raw: bool) -> String {
    let e = column_expr(cols, "", col);
    if e == "NULL" {
        return e;
    }
    let other = if or_raw {
        e.clone()
    } else {
        "NULL".to_string()
    };
    format!(
        "CASE WHEN json_valid({e}) THEN (CASE WHEN json_type({e}) = 'object' THEN json_extract({e}, '$.{key}') ELSE {other} END) ELSE {other} END"
    )
}

/// The query of one of the two tables (columns `cols`).
pub(crate) fn items_sql(table: &str, cols: &BTreeSet<String>) -> String {
    let c = |col: &str, alias: &str| column_or_null(cols, "", col, alias);
    let file_type = column_expr(cols, "", "fileType");
    let select = [
        "rowid AS rid".to_string(),
        c("createTime", "created"),
        c("updateTime", "updated"),
        c("fileType", "file_type"),
        format!(
            "CASE {file_type} WHEN 1 THEN 'text selection' WHEN 2 THEN 'image' WHEN 4 THEN 'file' WHEN 6 THEN 'shared link' END AS kind"
        ),
        c("mimeType", "mime"),
        format!(
            "{} AS content",
            member(cols, "fileContent", "content", true)
        ),
        format!(
            "CASE {} WHEN 1 THEN 'whole' WHEN 0 THEN 'a preview only' END AS complete",
            member(cols, "fileContent", "isAll", false)
        ),
        c("fileName", "file_name"),
        c("fileOName", "source"),
        format!("{} AS link", member(cols, "linkSource", "link", true)),
        format!(
            "{} AS link_title",
            member(cols, "linkSource", "title", false)
        ),
        format!(
            "{} AS link_subtitle",
            member(cols, "linkSource", "subTitle", false)
        ),
        format!(
            "{} AS link_image",
            member(cols, "linkSource", "imgUrl", false)
        ),
        c("fileSize", "size"),
        c("md5", "md5"),
        c("status", "status"),
        c("localPath", "local_path"),
        c("localFileId", "local_file_id"),
        c("groupUUId", "group_uuid"),
        c("mediaStoreUri", "media_store_uri"),
        c("userId", "user_id"),
    ];
    format!("SELECT {} FROM {table} ORDER BY rowid", select.join(", "))
}

/// The facts of a row (see the module table).
const FIELDS: &[(&str, FactType, &str)] = &[
    ("kind", FactType::Text, "item type"),
    ("file_type", FactType::Text, "type code"),
    ("mime", FactType::Text, "MIME type"),
    ("content", FactType::Text, "text"),
    ("complete", FactType::Text, "text kept"),
    ("file_name", FactType::Name, "file name"),
    ("source", FactType::Text, "original source"),
    ("link", FactType::Url, "link"),
    ("link_title", FactType::Text, "link title"),
    ("link_subtitle", FactType::Text, "link subtitle"),
    ("link_image", FactType::Url, "link image"),
    ("size", FactType::Count, "size (bytes)"),
    ("md5", FactType::Hash, "MD5"),
    ("status", FactType::Text, "status"),
    ("local_path", FactType::Path, "cached copy"),
    ("local_file_id", FactType::Identifier, "local file id"),
    ("group_uuid", FactType::Identifier, "group UUID"),
    ("media_store_uri", FactType::Url, "MediaStore URI"),
    ("user_id", FactType::Text, "Android user"),
];

/// One `smartSidebar.db`: the items in the dock, then those removed from it.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key(LIVE) && !schema.contains_key(DELETED) {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse the Smart Sidebar's {DB} because it has neither {LIVE} nor {DELETED} (another layout)"
            ),
            None,
        )?;
        return Ok(());
    }
    for (table, removed) in [(LIVE, false), (DELETED, true)] {
        let Some(cols) = schema.get(table) else {
            continue;
        };
        if !require_columns(
            ctx,
            &name,
            &format!("the Smart Sidebar's {DB}"),
            table,
            cols,
            &["createTime"],
        )? {
            continue;
        }
        let suffix = if removed { " (removed)" } else { "" };
        let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
            let shown = ["file_name", "link", "content"]
                .iter()
                .find_map(|c| t.get(row, c).filter(|v| !v.trim().is_empty()))
                .map(headline)
                .unwrap_or_else(|| format!("row {}", t.get(row, "rid").unwrap_or("?")));
            format!("Smart Sidebar dock item {shown}{suffix}")
        };
        let what = if removed {
            "an item the user had put in the Smart Sidebar's File Dock and removed from it (type, text, file, link as the app kept them; added and updated in Unix ms)"
        } else {
            "an item the user put in the Smart Sidebar's File Dock (dragged out of an app, a text selection, a link or a shared file; the cached copy's path; added and updated in Unix ms)"
        };
        super::record_query(
            ctx,
            l,
            &items_sql(table, cols),
            &RowPhenomena {
                table,
                category: "files",
                what,
                title: &title,
                fields: FIELDS,
                times: &[
                    (
                        "created",
                        "Smart Sidebar item added to the dock",
                        unix_millis,
                    ),
                    ("updated", "Smart Sidebar dock item updated", unix_millis),
                ],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}

/// What a cached copy is, by its name.
enum Kind<'a> {
    /// `OPLUSDRAG_<package>_<view>_<YYYY-MM-DD_HH_MM_SS>.<ext>`: media dragged out of an app.
    Drag {
        package: &'a str,
        view: &'a str,
        captured: &'a str,
    },
    /// `transferdock_<ms>.txt`: a text selection.
    Text { ms: &'a str },
    /// `link_file_<ms>.link`: a link.
    Link { ms: &'a str },
    /// Any other name: a file added with its own name.
    File,
}

/// The 13 digits of `<prefix><ms><ext>`.
fn stamped<'a>(file: &'a str, prefix: &str, ext: &str) -> Option<&'a str> {
    let ms = file.strip_prefix(prefix)?.strip_suffix(ext)?;
    (ms.len() == 13 && ms.bytes().all(|b| b.is_ascii_digit())).then_some(ms)
}

/// Whether `s` is `YYYY-MM-DD_HH_MM_SS`.
fn capture_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 19
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 | 13 | 16 => *c == b'_',
            _ => c.is_ascii_digit(),
        })
}

/// The package, view and capture time of an `OPLUSDRAG_` name.
fn drag_parts(file: &str) -> Option<(&str, &str, &str)> {
    let rest = file.strip_prefix("OPLUSDRAG_")?;
    let (stem, ext) = rest.rsplit_once('.')?;
    if ext.is_empty() || !ext.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let cut = stem.len().checked_sub(19)?;
    let captured = stem.get(cut..)?;
    let head = stem.get(..cut)?.strip_suffix('_')?;
    if !capture_time(captured) {
        return None;
    }
    let (package, view) = head.rsplit_once('_')?;
    (!package.is_empty()
        && !view.is_empty()
        && view.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'$'))
    .then_some((package, view, captured))
}

impl<'a> Kind<'a> {
    fn of(file: &'a str) -> Kind<'a> {
        if let Some((package, view, captured)) = drag_parts(file) {
            Kind::Drag {
                package,
                view,
                captured,
            }
        } else if let Some(ms) = stamped(file, "transferdock_", ".txt") {
            Kind::Text { ms }
        } else if let Some(ms) = stamped(file, "link_file_", ".link") {
            Kind::Link { ms }
        } else {
            Kind::File
        }
    }
}

/// The members of a cached `.link` read: `(member, type, label)`.
const LINK: &[(&str, FactType, &str)] = &[
    ("link", FactType::Url, "link"),
    ("title", FactType::Text, "title"),
    ("subTitle", FactType::Text, "subtitle"),
    ("imgUrl", FactType::Url, "image"),
];

/// The dock's folder on the shared storage: one phenomenon per cached copy.
pub fn dock(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(listing) = super::list_folder(ctx, l, LIST_LIMIT, "the Smart Sidebar's dock folder")?
    else {
        return Ok(());
    };
    let prefix = format!("{}/transferdock/", l.path.trim_end_matches('/'));
    let mut seen = 0u64;
    for f in listed_files(&listing.output.text) {
        let Some(rest) = f.path.strip_prefix(&prefix) else {
            continue;
        };
        let Some((folder, file)) = rest.split_once('/') else {
            continue;
        };
        if folder.is_empty() || file.is_empty() || file.contains('/') {
            continue;
        }
        seen += 1;
        if seen > super::MAX_ROWS {
            ctx.unparsed(
                &name,
                &format!(
                    "more than {} cached dock items; the first {} were recorded",
                    super::MAX_ROWS,
                    super::MAX_ROWS
                ),
                Some(&listing.record.invocation_id),
            )?;
            break;
        }
        item(ctx, l, &listing, &f, folder, file)?;
    }
    Ok(())
}

/// One cached copy.
fn item(
    ctx: &AgentCtx<'_>,
    l: &Located,
    listing: &Invoked,
    f: &ListedFile,
    folder: &str,
    file: &str,
) -> Result<(), RuntimeError> {
    let kind = Kind::of(file);
    let copy = Located {
        tree: l.tree.clone(),
        path: f.path.clone(),
        found: listing.clone(),
    };
    // the text of a text selection (and of any .txt), the members of a link
    let text = if file.to_ascii_lowercase().ends_with(".txt") {
        super::files::read(ctx, &copy)?
    } else {
        None
    };
    let content = text
        .as_ref()
        .map(|inv| inv.output.text.trim().to_string())
        .filter(|t| !t.is_empty());
    let link = match kind {
        Kind::Link { .. } => call_or_note(
            ctx,
            &artefact_name(&l.tree, &f.path),
            "read_json",
            args_on(&l.tree, json!({"path": f.path})),
        )?
        .and_then(|inv| {
            crate::outputs::json_document(&inv.output.text)
                .filter(|d| d.is_object())
                .map(|d| (inv, d))
        }),
        _ => None,
    };
    let title = match &kind {
        Kind::Drag { package, .. } => {
            format!("Smart Sidebar dock: {file} (dragged from {package})")
        }
        Kind::Text { .. } => format!(
            "Smart Sidebar dock text: {}",
            content
                .as_deref()
                .map(headline)
                .unwrap_or_else(|| file.to_string())
        ),
        Kind::Link { .. } => format!(
            "Smart Sidebar dock link: {}",
            link.as_ref()
                .and_then(|(_, d)| d.get("link").and_then(|v| v.as_str()))
                .filter(|v| !v.is_empty())
                .unwrap_or(file)
        ),
        Kind::File => format!("Smart Sidebar dock file: {file}"),
    };
    let mut d = Draft::new("files", title);
    d.fact(FactType::Path, Some(&f.path), listing);
    d.fact(FactType::Name, Some(file), listing);
    d.fact(FactType::Count, Some(&f.size), listing);
    d.fact(FactType::Identifier, Some(folder), listing);
    let mut said = vec![format!("{} bytes", f.size)];
    let what = match &kind {
        Kind::Drag {
            package,
            view,
            captured,
        } => {
            d.fact(FactType::Identifier, Some(*package), listing);
            d.fact(FactType::Text, Some(*view), listing);
            d.fact(FactType::Text, Some(*captured), listing);
            said.push(format!(
                "dragged out of the app {package} (view {view}), captured {captured} (the phone's local time, as the name writes it)"
            ));
            "media the user dragged out of an app"
        }
        Kind::Text { ms } => {
            d.time(
                Some(*ms),
                unix_millis(Some(*ms)),
                "Smart Sidebar text added to the dock",
                listing,
            );
            "a text selection"
        }
        Kind::Link { ms } => {
            d.time(
                Some(*ms),
                unix_millis(Some(*ms)),
                "Smart Sidebar link added to the dock",
                listing,
            );
            "a link"
        }
        Kind::File => "a file added with its own name (from a file manager or the share sheet)",
    };
    if let (Some(inv), Some(c)) = (&text, &content) {
        d.fact(FactType::Text, Some(c.as_str()), inv);
        said.push(format!("text {}", headline(c)));
    }
    if let Some((inv, doc)) = &link {
        said.extend(d.json_fields(doc, inv, LINK));
    }
    let (value, encoding) = super::fishingnet::listed_modified(f);
    d.time(value, encoding, "Smart Sidebar dock copy written", listing);
    d.interpretation = format!(
        "{}: the copy the Smart Sidebar's File Dock keeps of {what}, put in the dock by the user (it stays when the original is deleted); {}. Its folder {folder} is base64 of the item's local file id, group UUID, the time it was added (Unix ms) and the end of its name, quoted as written, not decoded (the app's {DB} gives them where it is at hand).",
        f.path,
        said.join("; ")
    );
    record_draft(ctx, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_names() {
        assert_eq!(
            drag_parts("OPLUSDRAG_com.snapchat.android_ImageView_2024-06-28_19_06_00.jpg"),
            Some(("com.snapchat.android", "ImageView", "2024-06-28_19_06_00"))
        );
        assert_eq!(
            drag_parts("OPLUSDRAG_com.whatsapp_Chat$Row_2024-06-28_19_06_00.mp4"),
            Some(("com.whatsapp", "Chat$Row", "2024-06-28_19_06_00"))
        );
        assert_eq!(drag_parts("OPLUSDRAG_x.jpg"), None);
        assert_eq!(
            stamped("transferdock_1719594360000.txt", "transferdock_", ".txt"),
            Some("1719594360000")
        );
        assert_eq!(
            stamped("transferdock_17.txt", "transferdock_", ".txt"),
            None
        );
        assert!(matches!(Kind::of("holiday.pdf"), Kind::File));
        assert!(is_store_path(
            "/data/data/com.coloros.smartsidebar/databases/smartSidebar.db"
        ));
        assert!(!is_store_path(
            "/data/data/com.example/databases/smartSidebar.db"
        ));
    }

    #[test]
    fn older_tables_read_with_nulls() {
        let cols: BTreeSet<String> = ["createTime", "fileType", "fileName", "fileContent"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let sql = items_sql(LIVE, &cols);
        assert!(sql.contains("NULL AS link,"), "{sql}");
        assert!(sql.contains("NULL AS local_path"), "{sql}");
        assert!(
            sql.contains("json_extract(fileContent, '$.content')"),
            "{sql}"
        );
    }
}
