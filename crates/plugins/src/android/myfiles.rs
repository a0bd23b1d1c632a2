//! Samsung My Files (`com.sec.android.app.myfiles`): the stores [`super::samsungfiles`] does
//! not read — ALEAPP's `smyFiles` (download history and the m-prefixed recent files of
//! `myfiles.db` and `MyFiles*.db`), `smyFiles2` (`FileInfo.db`'s download history and Google
//! Drive entries), `smyfilesStored` and `smyfilescache` (`FileCache.db`), `smyfilesMetadata`
//! (`FileInfo.db`'s local file index, storage analysis and search history, `Frequency.db`,
//! `TrashAppInfo.db`) and `smyfilesTrash` (the app's own trash folder `files/trash`).
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `myfiles.db`, `MyFiles*.db`, `FileInfo.db`: `download_history` | one `files` per download ("My Files download: <name>") | name (`mName`, `name`), path (`mFullPath`, `_data`, `path`), size, MIME type, source (the URL or app it came from), description, hidden, in the trash, from Samsung Internet (flags as stored); downloaded (`mDate`, `date`) or modified (`date_modified`), Unix ms |
//! | `MyFiles*.db`, `myfiles.db`: `recent_files` of the m-prefixed layout only (`mFullPath`, no `_data` or `path`) | one `files` per recent file ("My Files recent file: <name>") | the same fields; handled (`mDate`, Unix ms) |
//! | `FileInfo.db`: `googledrive` | one `files` per Google Drive entry My Files listed ("My Files Google Drive file: <name>") | file id, name, the Drive path (`_data`), size, MIME type, web link, hidden, in the trash; modified (Unix ms) |
//! | `FileInfo.db`: `local_files`, `analyze_storage` | one `files` per indexed file ("My Files local file: <path>", "My Files storage analysis: <path>") | name, extension, MIME type, size, folder (`path`), full path (`_data`), hidden and in the trash, or the analyzer's storage and media type codes (as stored); modified (Unix ms) |
//! | `FileInfo.db`: `search_history` | one `files` per search ("My Files search: <term>") | the term, item and domain type codes (as stored); searched (Unix ms) |
//! | `FileCache.db`: `FileCache` | one `files` per cached file ("My Files cached file: <path>") | path (`_data`, older `path`), size, storage (as stored), the cached preview's index (`<index>.jpg` in the app's `cache/`); modified (`date_modified`, older `date`) and `latest`, Unix ms |
//! | `Frequency.db`: `frequently_folder` | one `files` per folder ("My Files frequent folder: <path>") | path, name, size, how often opened (`mCount`); updated (Unix ms) |
//! | `TrashAppInfo.db`: `trash_apps` | one `files` per app ("My Files trash of <package>") | package, items in the trash, their size, the app data size, the intent action |
//! | `files/trash/<id>/<deleted>/<original folder>/.!%#@$/<item>[/…]` (a listing) | one `files` per file in My Files' own trash ("Deleted to My Files' trash: <item>[/<path within it>]") | the copy's path and size, the folder the item was deleted from, the item (a file, or a folder the file was in); deleted (the folder's name, Unix ms) |
//!
//! What it proves: a download row says My Files listed the file as downloaded (the source is
//! the page or app it came from), not that the file is still there; `googledrive` rows are the
//! Drive entries My Files showed for a signed-in Google account (the account is not stored);
//! `local_files` and `analyze_storage` are the app's index of storage, not user activity; a
//! search term was typed into My Files' search; a frequent folder was opened that often in My
//! Files; `FileCache` rows are files My Files made previews for (the preview is no proof the
//! original still exists; ALEAPP calls the second time "latest", its meaning not verified); a
//! file in `files/trash` was deleted in My Files and can be restored until the trash is
//! emptied (the newer trash under `Android/.Trash/` is the trash provider's, read by
//! [`super::samsungfiles`]). Not read: `HomeItem.db` (the layout of My Files' home screen, not
//! the user's files), the cached preview images themselves, a trashed empty folder (no file to
//! list).
//!
//! Schema drift: columns are taken by name, absent ones NULL (the three `download_history`
//! layouts — m-prefixed, `date`/`_data`, and `FileInfo.db`'s `date_modified`/`path` — are one
//! select list); a table without the column naming its file or entry is noted;
//! `FileCache.db`, `Frequency.db` and `TrashAppInfo.db` without their table are noted (another
//! app's store of the name), `myfiles.db`, `MyFiles*.db` and `FileInfo.db` without these tables
//! passed over (they hold recent files, favourites, settings); a file under `files/trash`
//! outside the trash layout is noted. `recent_files` with `_data` or `path` is
//! [`super::samsungfiles`]'s and not read here. Identities: none (no account is stored).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use serde_json::json;

use super::{Located, MAX_ROWS, Schema};
use crate::calls::column_or_null;
use crate::drafts::{Draft, RowPhenomena, no_identity, record_draft, title_of, unix_millis};
use crate::identity::{TreeRef, args_on, artefact_name, schema_on};

/// The app's data folder name (with its leading slash).
const APP: &str = "/com.sec.android.app.myfiles";

/// The folder its stores lie in.
const DIR: &str = "/com.sec.android.app.myfiles/databases/";

/// The folder name My Files puts between a trashed item's original folder and the item.
const SEPARATOR: &str = ".!%#@$";

/// Whether `name` is one of the stores read here.
fn is_name(name: &str) -> bool {
    matches!(
        name,
        "myfiles.db" | "FileInfo.db" | "FileCache.db" | "Frequency.db" | "TrashAppInfo.db"
    ) || (name.starts_with("MyFiles") && name.ends_with(".db"))
}

/// Whether `l` is one of My Files' stores read here (directly in its `databases/`).
pub fn is_store(l: &Located) -> bool {
    is_name(l.name())
        && l.path
            .strip_suffix(l.name())
            .is_some_and(|dir| dir.ends_with(DIR))
}

/// The one table a single-purpose store is read for (`None`: a store of several tables, any
/// of them read where present).
fn only_table(name: &str) -> Option<&'static str> {
    match name {
        "FileCache.db" => Some("FileCache"),
        "Frequency.db" => Some("frequently_folder"),
        "TrashAppInfo.db" => Some("trash_apps"),
        _ => None,
    }
}

/// The download and m-prefixed recent-file columns (three layouts in one list).
const DOWNLOAD_FIELDS: &[(&str, FactType, &str)] = &[
    ("mName", FactType::Name, "name"),
    ("name", FactType::Name, "name"),
    ("mFullPath", FactType::Path, "path"),
    ("_data", FactType::Path, "path"),
    ("path", FactType::Path, "path"),
    ("size", FactType::Count, "size (bytes)"),
    ("mime_type", FactType::Text, "MIME type"),
    ("_source", FactType::Text, "source"),
    ("_description", FactType::Text, "description"),
    ("mIsHidden", FactType::Text, "hidden (as stored)"),
    ("is_hidden", FactType::Text, "hidden (as stored)"),
    ("mTrashed", FactType::Text, "in the trash (as stored)"),
    ("is_trashed", FactType::Text, "in the trash (as stored)"),
    (
        "_from_s_browser",
        FactType::Text,
        "from Samsung Internet (as stored)",
    ),
];

/// The columns naming a download's file (one is needed).
const DOWNLOAD_KEYS: &[&str] = &["mFullPath", "_data", "path", "mName", "name"];

/// The columns of the local file index and the storage analysis.
const INDEX_FIELDS: &[(&str, FactType, &str)] = &[
    ("_data", FactType::Path, "path"),
    ("path", FactType::Path, "folder"),
    ("name", FactType::Name, "name"),
    ("ext", FactType::Text, "extension"),
    ("mime_type", FactType::Text, "MIME type"),
    ("size", FactType::Count, "size (bytes)"),
    ("is_hidden", FactType::Text, "hidden (as stored)"),
    ("is_trashed", FactType::Text, "in the trash (as stored)"),
    ("as_type", FactType::Text, "storage type (as stored)"),
    ("mediaType", FactType::Text, "media type (as stored)"),
];

/// One of My Files' stores.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    if let Some(table) = only_table(l.name())
        && schema.get(table).is_none_or(|c| c.is_empty())
    {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "could not parse My Files' {} because it has none of the tables {table}",
                l.name()
            ),
            None,
        )?;
        return Ok(());
    }
    rows(
        ctx,
        l,
        &schema,
        DOWNLOAD_KEYS,
        &RowPhenomena {
            table: "download_history",
            category: "files",
            what: "a file Samsung's My Files lists as downloaded (its source the page or app it came from; the flags as stored)",
            title: &title_of(
                "My Files download:",
                &["mName", "name", "mFullPath", "_data", "path"],
            ),
            fields: DOWNLOAD_FIELDS,
            times: &[
                ("mDate", "File downloaded (My Files)", unix_millis),
                ("date", "File downloaded (My Files)", unix_millis),
                (
                    "date_modified",
                    "Downloaded file modified (My Files)",
                    unix_millis,
                ),
            ],
        },
    )?;
    // the m-prefixed recent files only: those with `_data` or `path` are samsungfiles's
    if schema
        .get("recent_files")
        .is_some_and(|c| c.contains("mFullPath") && !c.contains("_data") && !c.contains("path"))
    {
        rows(
            ctx,
            l,
            &schema,
            &["mFullPath"],
            &RowPhenomena {
                table: "recent_files",
                category: "files",
                what: "a file the device's user opened or handled through Samsung's My Files (the older m-prefixed layout; the flags as stored)",
                title: &title_of("My Files recent file:", &["mName", "mFullPath"]),
                fields: DOWNLOAD_FIELDS,
                times: &[("mDate", "File handled in My Files", unix_millis)],
            },
        )?;
    }
    rows(
        ctx,
        l,
        &schema,
        &["file_id"],
        &RowPhenomena {
            table: "googledrive",
            category: "files",
            what: "a Google Drive file or folder Samsung's My Files listed for the Google account signed in to it (the account itself is not stored; the flags as stored)",
            title: &title_of("My Files Google Drive file:", &["name", "_data", "file_id"]),
            fields: &[
                ("file_id", FactType::Identifier, "Drive file id"),
                ("name", FactType::Name, "name"),
                ("_data", FactType::Path, "Drive path"),
                ("size", FactType::Count, "size (bytes)"),
                ("mime_type", FactType::Text, "MIME type"),
                ("weblink", FactType::Url, "web link"),
                ("is_hidden", FactType::Text, "hidden (as stored)"),
                ("is_trashed", FactType::Text, "in the trash (as stored)"),
            ],
            times: &[(
                "date_modified",
                "Google Drive file modified (as My Files listed it)",
                unix_millis,
            )],
        },
    )?;
    rows(
        ctx,
        l,
        &schema,
        &["_data", "path"],
        &RowPhenomena {
            table: "local_files",
            category: "files",
            what: "a file of the phone's storage in Samsung My Files' index (the app's view of storage, not an action of the user; the flags as stored)",
            title: &title_of("My Files local file:", &["_data", "path", "name"]),
            fields: INDEX_FIELDS,
            times: &[(
                "date_modified",
                "File modified (My Files' index)",
                unix_millis,
            )],
        },
    )?;
    rows(
        ctx,
        l,
        &schema,
        &["_data", "path"],
        &RowPhenomena {
            table: "analyze_storage",
            category: "files",
            what: "a file Samsung My Files' storage analysis listed (the codes as stored)",
            title: &title_of("My Files storage analysis:", &["_data", "path", "name"]),
            fields: INDEX_FIELDS,
            times: &[(
                "date_modified",
                "File modified (My Files' storage analysis)",
                unix_millis,
            )],
        },
    )?;
    rows(
        ctx,
        l,
        &schema,
        &["name"],
        &RowPhenomena {
            table: "search_history",
            category: "files",
            what: "a term typed into Samsung My Files' search (the type codes as stored)",
            title: &title_of("My Files search:", &["name"]),
            fields: &[
                ("name", FactType::Text, "search term"),
                ("item_type", FactType::Text, "item type (as stored)"),
                ("domain_type", FactType::Text, "domain type (as stored)"),
            ],
            times: &[("date_modified", "Searched in My Files", unix_millis)],
        },
    )?;
    rows(
        ctx,
        l,
        &schema,
        &["_data", "path"],
        &RowPhenomena {
            table: "FileCache",
            category: "files",
            what: "a file Samsung's My Files cached a preview of (the preview is the app's cache/<index>.jpg; it does not prove the original still exists; `latest` as ALEAPP names it, its meaning not verified)",
            title: &title_of("My Files cached file:", &["_data", "path"]),
            fields: &[
                ("_data", FactType::Path, "path"),
                ("path", FactType::Path, "path"),
                ("size", FactType::Count, "size (bytes)"),
                ("storage", FactType::Text, "storage (as stored)"),
                ("_index", FactType::Identifier, "preview index"),
            ],
            times: &[
                (
                    "date_modified",
                    "File modified (My Files' cache)",
                    unix_millis,
                ),
                ("date", "File modified (My Files' cache)", unix_millis),
                ("latest", "Latest in My Files' cache", unix_millis),
            ],
        },
    )?;
    rows(
        ctx,
        l,
        &schema,
        &["path"],
        &RowPhenomena {
            table: "frequently_folder",
            category: "files",
            what: "a folder the device's user opens often in Samsung's My Files (mCount: how often)",
            title: &title_of("My Files frequent folder:", &["path"]),
            fields: &[
                ("path", FactType::Path, "folder"),
                ("name", FactType::Name, "name"),
                ("mCount", FactType::Count, "times opened"),
                ("size", FactType::Count, "size (as stored)"),
            ],
            times: &[(
                "date_modified",
                "Frequent folder updated (My Files)",
                unix_millis,
            )],
        },
    )?;
    rows(
        ctx,
        l,
        &schema,
        &["package_name"],
        &RowPhenomena {
            table: "trash_apps",
            category: "files",
            what: "how many items an app has in Samsung's trash as My Files counts them, and their size",
            title: &title_of("My Files trash of", &["package_name"]),
            fields: &[
                ("package_name", FactType::Identifier, "app"),
                ("item_count", FactType::Count, "items in the trash"),
                ("size", FactType::Count, "size (bytes)"),
                ("app_data_size", FactType::Count, "app data size (bytes)"),
                ("intent_action", FactType::Text, "intent action"),
            ],
            times: &[],
        },
    )
}

/// One phenomenon per row of `spec.table` when the store has it: `rowid` as `rid` and every
/// column of the spec's fields and times (NULL where the table lacks it); a table with none of
/// `keys` (the columns naming its file or entry) is noted.
fn rows(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &Schema,
    keys: &[&str],
    spec: &RowPhenomena<'_>,
) -> Result<(), RuntimeError> {
    let Some(cols) = schema.get(spec.table).filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    if !keys.iter().any(|k| cols.contains(*k)) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "could not parse My Files' {} because table {} lacks {} (unexpected schema)",
                l.name(),
                spec.table,
                keys.join(" or ")
            ),
            None,
        )?;
        return Ok(());
    }
    let mut seen = BTreeSet::new();
    let select: Vec<String> = spec
        .fields
        .iter()
        .map(|f| f.0)
        .chain(spec.times.iter().map(|t| t.0))
        .filter(|c| seen.insert(*c))
        .map(|c| column_or_null(cols, "", c, c))
        .collect();
    let sql = format!(
        "SELECT rowid AS rid, {} FROM {} ORDER BY rowid",
        select.join(", "),
        spec.table
    );
    super::record_query(ctx, l, &sql, spec, &mut no_identity)
}

/// My Files' own trash folder (`files/trash` of the app's data folder) of each data folder
/// holding one of its stores, listed once.
pub fn trash_folders(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let mut seen = BTreeSet::new();
    for l in found.iter().filter(|l| is_store(l)) {
        let Some(at) = l.path.find(DIR) else {
            continue;
        };
        let Some(root) = l.path.get(..at + APP.len()) else {
            continue;
        };
        if !seen.insert((l.tree.label.clone(), root.to_string())) {
            continue;
        }
        let dir = format!("{root}/files/trash");
        ctx.artefact(&artefact_name(&l.tree, &dir), || trash(ctx, &l.tree, &dir))?;
    }
    Ok(())
}

/// A file below `files/trash` in My Files' trash layout:
/// `<id>/<deleted, Unix ms>/<original folder>/.!%#@$/<item>[/<path within the item>]`.
struct Trashed<'a> {
    deleted: &'a str,
    /// The original folder, with its leading `/` (as the path holds it).
    folder: &'a str,
    /// The item deleted (a file, or the folder the file was in).
    item: &'a str,
    /// The item and the file's path within it.
    shown: &'a str,
}

/// `path` (below `dir`, My Files' `files/trash`) read as [`Trashed`]; `None` when it is not
/// in that layout.
fn trashed<'a>(dir: &str, path: &'a str) -> Option<Trashed<'a>> {
    let rest = path.strip_prefix(dir)?.strip_prefix('/')?;
    let sep = format!("/{SEPARATOR}/");
    let (before, shown) = rest.split_once(sep.as_str())?;
    let mut parts = before.splitn(3, '/');
    let id = parts.next().filter(|i| !i.is_empty())?;
    let deleted = parts
        .next()
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))?;
    parts.next().filter(|f| !f.is_empty())?;
    let folder = before.get(id.len() + 1 + deleted.len()..)?;
    let item = shown.split('/').next().filter(|i| !i.is_empty())?;
    Some(Trashed {
        deleted,
        folder,
        item,
        shown,
    })
}

/// One `files` phenomenon per file of My Files' trash folder `dir` (a folder not there is passed
/// over); files outside the layout, and files past [`MAX_ROWS`], noted.
fn trash(ctx: &AgentCtx<'_>, tree: &TreeRef, dir: &str) -> Result<(), RuntimeError> {
    let listed = ctx.call(
        "find_files",
        args_on(tree, json!({"path": dir, "limit": MAX_ROWS})),
    )?;
    if !crate::calls::succeeded(&listed) {
        // no trash folder on this phone
        return Ok(());
    }
    let name = artefact_name(tree, dir);
    let mut outside = 0usize;
    for f in crate::outputs::listed_files(&listed.output.text) {
        let Some(t) = trashed(dir, &f.path) else {
            outside += 1;
            continue;
        };
        let mut d = Draft::new("files", format!("Deleted to My Files' trash: {}", t.shown));
        d.fact(FactType::Path, Some(&f.path), &listed);
        d.fact(FactType::Path, Some(t.folder), &listed);
        d.fact(FactType::Name, Some(t.item), &listed);
        d.fact(FactType::Count, Some(&f.size), &listed);
        d.time(
            Some(t.deleted),
            Some(TimeEncoding::UnixMillis),
            "File deleted to My Files' trash",
            &listed,
        );
        let within = if t.shown == t.item {
            String::new()
        } else {
            format!(" (a folder; this file is {} within it)", t.shown)
        };
        d.interpretation = format!(
            "{}: a copy kept in Samsung My Files' own trash ({} bytes): the device's user deleted {}{within} from the folder {} in My Files at {} (Unix ms, the name of the folder above it); it can be restored until the trash is emptied.",
            f.path, f.size, t.item, t.folder, t.deleted,
        );
        record_draft(ctx, d)?;
    }
    if outside > 0 {
        ctx.unparsed(
            &name,
            &format!(
                "{outside} files below {dir} are not in My Files' trash layout (<id>/<deleted, Unix ms>/<original folder>/{SEPARATOR}/<item>) and were not read"
            ),
            Some(&listed.record.invocation_id),
        )?;
    }
    if listed.output.text.contains("\n# truncated") {
        ctx.unparsed(
            &name,
            &format!("more than {MAX_ROWS} entries below {dir}; those past the first {MAX_ROWS} were not read"),
            Some(&listed.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trash_paths() {
        let dir = "/data/data/com.sec.android.app.myfiles/files/trash";
        let p = format!(
            "{dir}/2/1717560000000/storage/emulated/0/Documents/.!%#@$/Tax 2023/return.pdf"
        );
        let t = trashed(dir, &p).unwrap();
        assert_eq!(t.deleted, "1717560000000");
        assert_eq!(t.folder, "/storage/emulated/0/Documents");
        assert_eq!(t.item, "Tax 2023");
        assert_eq!(t.shown, "Tax 2023/return.pdf");
        assert!(trashed(dir, &format!("{dir}/junk.bin")).is_none());
        assert!(trashed(dir, &format!("{dir}/1/x/storage/a/.!%#@$/f")).is_none());
        assert!(trashed(dir, &format!("{dir}/1/17/.!%#@$/f")).is_none());
    }
}
