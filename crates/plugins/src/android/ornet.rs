//! Ornet / Tor Browser (`com.ornet.torbrowser`), ALEAPP's `OrnetBrowser` (`ornetbrowser_history`,
//! `_bookmarks`, `_suggestions`, `_opentabs`, `_frequents`, `_searchhistory`, `_downloads`,
//! `_usageinfo`): the pages visited, bookmarked and left open in the browser, what the user
//! searched for and downloaded, and when the app was last closed.
//!
//! | store: table | phenomenon | fields |
//! |---|---|---|
//! | `databases/appDatabase`: `history` | one `web` per visit ("Ornet visited <url>") | URL, title, id, the visit's `date` and `time` joined in the query as stored; visited (local text, no zone) |
//! | `appDatabase`: `bookmarks` (with `folders`) | one `web` per bookmark ("Ornet bookmark <title or url>") | title, URL, id, folder id and the folder's name |
//! | `appDatabase`: `suggestions` | one `web` per entry ("Ornet suggestion <title or url>") | URL, title, id |
//! | `appDatabase`: `tabs` | one `web` per open tab ("Ornet open tab <title or url>") | URL, title, tab id, the preview file's name and the number it is named by; preview named (Unix ms) |
//! | `appDatabase`: `frequents` | one `web` per site ("Ornet frequent site <url>") | URL, title, count as stored |
//! | `appDatabase`: `searchHistory` | one `web` per search ("Ornet search <text>") | the text searched, id |
//! | `databases/kdownloader.db`: `downloads` | one `web` per download ("Ornet download <file or url>") | file name, URL, folder, bytes downloaded and in total, status as stored, id; last modified (Unix ms) |
//! | `shared_prefs/com.ornet.torbrowser_preferences.xml` | one `app_usage` ("Ornet preferences") | current tab, current private tab, search engine; last closed (Unix ms) |
//!
//! A visit's `date` and `time` are text with no zone; they are joined as stored (an older
//! `history` with `date` alone gives that). What fills `suggestions` and what increments a
//! frequent site's `count` is not established: both are reported as stored. A tab's preview file
//! is named by a number that reads as Unix milliseconds (ALEAPP's reading, established by
//! testing, the name its only basis); the number is taken from the name in the query and kept as
//! a fact beside the name. A download's `last_modified_at` is the column's own name; what updates
//! it is not established. Not read here: the tab preview images themselves (`cache/tabPreviews`,
//! files, not a store) and the profile's `cookies.sqlite`, which `android::fenix` reads as it reads
//! any Firefox profile's (host, names; never the values ALEAPP lists). `appDatabase` and
//! `kdownloader.db` are generic names: only the files in Ornet's own folder are read. Columns are
//! taken by name (absent ones NULL; older releases keep fewer); a store with none of the tables
//! read, or a table without its URL, is noted. Identities: none (the browser keeps no account).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_expr, column_or_null};
use crate::drafts::{
    Draft, RowPhenomena, date_text, no_identity, record_draft, title_of, unix_millis,
};
use crate::identity::{artefact_name, schema_on};

/// Ornet's data folder.
const PACKAGE: &str = "/com.ornet.torbrowser/";

/// Ornet's preferences file.
pub const PREFS: &str = "com.ornet.torbrowser_preferences.xml";

/// Whether `path` is one of the files this module reads (in Ornet's own folder).
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name {
        "appDatabase" | "kdownloader.db" => path.ends_with(&format!("{PACKAGE}databases/{name}")),
        PREFS => path.ends_with(&format!("{PACKAGE}shared_prefs/{PREFS}")),
        _ => false,
    }
}

/// Whether `l` is one of the files this module reads.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// One of Ornet's files.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    match l.name() {
        "appDatabase" => app_database(ctx, l),
        "kdownloader.db" => downloads(ctx, l),
        _ => prefs(ctx, l),
    }
}

/// `appDatabase`: history, bookmarks, suggestions, tabs, frequent sites, searches.
fn app_database(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(tables) = Tables::of(
        ctx,
        &name,
        "Ornet's appDatabase",
        &schema,
        &[
            "history",
            "bookmarks",
            "suggestions",
            "tabs",
            "frequents",
            "searchHistory",
        ],
    )?
    else {
        return Ok(());
    };
    history(ctx, l, &tables)?;
    bookmarks(ctx, l, &tables)?;
    if tables.need("suggestions", &["url"])?.is_some() {
        super::record_table(
            ctx,
            l,
            &schema,
            "url",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "suggestions",
                category: "web",
                what: "an entry of Ornet's suggestions table (what puts a site there is not established; as stored)",
                title: &title_of("Ornet suggestion", &["title", "url"]),
                fields: &[
                    ("url", FactType::Url, "URL"),
                    ("title", FactType::Name, "title"),
                    ("id", FactType::Identifier, "id"),
                ],
                times: &[],
            },
            &mut no_identity,
        )?;
    }
    tabs(ctx, l, &tables)?;
    if tables.need("frequents", &["url"])?.is_some() {
        super::record_table(
            ctx,
            l,
            &schema,
            "url",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "frequents",
                category: "web",
                what: "a site in Ornet's frequents table (count as stored: what increments it is not established)",
                title: &title_of("Ornet frequent site", &["url"]),
                fields: &[
                    ("url", FactType::Url, "URL"),
                    ("title", FactType::Name, "title"),
                    ("count", FactType::Count, "count"),
                ],
                times: &[],
            },
            &mut no_identity,
        )?;
    }
    if tables.need("searchHistory", &["title"])?.is_some() {
        super::record_table(
            ctx,
            l,
            &schema,
            "title",
            &|_| Vec::new(),
            &RowPhenomena {
                table: "searchHistory",
                category: "web",
                what: "a search typed in Ornet's address bar (the text as stored; the table keeps no time)",
                title: &title_of("Ornet search", &["title"]),
                fields: &[
                    ("title", FactType::Text, "searched"),
                    ("id", FactType::Identifier, "id"),
                ],
                times: &[],
            },
            &mut no_identity,
        )?;
    }
    Ok(())
}

/// `history`: one phenomenon per visit, its `date` and `time` joined in the query.
fn history(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("history", &["url"])? else {
        return Ok(());
    };
    let (date, time) = (column_expr(cols, "", "date"), column_expr(cols, "", "time"));
    let sql = format!(
        "SELECT rowid AS rid, url, {}, {}, CASE WHEN {date} IS NOT NULL AND {date} != '' THEN trim({date} || ' ' || coalesce({time}, '')) ELSE NULLIF({time}, '') END AS visited FROM history ORDER BY rowid",
        column_or_null(cols, "", "id", "id"),
        column_or_null(cols, "", "title", "title"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "history",
            category: "web",
            what: "a page visited in Ornet (visited is the stored date and time text joined, no time zone)",
            title: &title_of("Ornet visited", &["url"]),
            fields: &[
                ("url", FactType::Url, "URL"),
                ("title", FactType::Name, "title"),
                ("id", FactType::Identifier, "id"),
                ("visited", FactType::Text, "visited"),
            ],
            times: &[("visited", "Ornet page visited", date_text)],
        },
        &mut no_identity,
    )
}

/// `bookmarks`, each with its folder's name where `folders` names it.
fn bookmarks(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("bookmarks", &["url"])? else {
        return Ok(());
    };
    let (folder, join) = match tables.get("folders") {
        Some(f) if f.contains("id") && f.contains("name") && cols.contains("folderId") => (
            "f.name AS folder",
            " LEFT JOIN folders f ON f.id = b.folderId",
        ),
        _ => ("NULL AS folder", ""),
    };
    let sql = format!(
        "SELECT b.rowid AS rid, b.url AS url, {}, {}, {}, {folder} FROM bookmarks b{join} ORDER BY b.rowid",
        column_or_null(cols, "b.", "id", "id"),
        column_or_null(cols, "b.", "title", "title"),
        column_or_null(cols, "b.", "folderId", "folder_id"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "bookmarks",
            category: "web",
            what: "a page bookmarked in Ornet, with the folder it was filed in",
            title: &title_of("Ornet bookmark", &["title", "url"]),
            fields: &[
                ("title", FactType::Name, "title"),
                ("url", FactType::Url, "URL"),
                ("id", FactType::Identifier, "id"),
                ("folder_id", FactType::Identifier, "folder id"),
                ("folder", FactType::Name, "folder"),
            ],
            times: &[],
        },
        &mut no_identity,
    )
}

/// `tabs`: the open tabs, the number a preview file is named by taken in the query.
fn tabs(ctx: &AgentCtx<'_>, l: &Located, tables: &Tables<'_, '_>) -> Result<(), RuntimeError> {
    let Some(cols) = tables.need("tabs", &["url"])? else {
        return Ok(());
    };
    let file = column_expr(cols, "", "tabPreviewFile");
    let stem = format!("substr({file}, 1, length({file}) - 4)");
    let sql = format!(
        "SELECT rowid AS rid, url, {}, {}, {file} AS preview_file, CASE WHEN {file} LIKE '%.jpg' AND length({file}) > 4 AND {stem} NOT GLOB '*[^0-9]*' THEN {stem} END AS preview_ms FROM tabs ORDER BY rowid",
        column_or_null(cols, "", "tabid", "tabid"),
        column_or_null(cols, "", "title", "title"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "tabs",
            category: "web",
            what: "a tab open in Ornet (its preview file is named by a number read as Unix milliseconds, ALEAPP's reading, the name its only basis)",
            title: &title_of("Ornet open tab", &["title", "url"]),
            fields: &[
                ("url", FactType::Url, "URL"),
                ("title", FactType::Name, "title"),
                ("tabid", FactType::Identifier, "tab id"),
                ("preview_file", FactType::Name, "preview file"),
                ("preview_ms", FactType::Text, "preview file number"),
            ],
            times: &[(
                "preview_ms",
                "Ornet tab preview named (from its file name)",
                unix_millis,
            )],
        },
        &mut no_identity,
    )
}

/// `kdownloader.db`: the downloads.
fn downloads(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if Tables::one(
        ctx,
        &name,
        "Ornet's kdownloader.db",
        &schema,
        "downloads",
        &["url"],
    )?
    .is_none()
    {
        return Ok(());
    }
    super::record_table(
        ctx,
        l,
        &schema,
        "url",
        &|_| Vec::new(),
        &RowPhenomena {
            table: "downloads",
            category: "web",
            what: "a file downloaded with Ornet (status as stored; last_modified_at is Unix milliseconds, what updates it not established)",
            title: &title_of("Ornet download", &["file_name", "url"]),
            fields: &[
                ("file_name", FactType::Name, "file"),
                ("url", FactType::Url, "from"),
                ("dir_path", FactType::Path, "saved to"),
                ("downloaded_bytes", FactType::Count, "bytes downloaded"),
                ("total_bytes", FactType::Count, "bytes in total"),
                ("status", FactType::Text, "status"),
                ("id", FactType::Identifier, "id"),
            ],
            times: &[(
                "last_modified_at",
                "Ornet download last modified",
                unix_millis,
            )],
        },
        &mut no_identity,
    )
}

/// The preferences read: `(key, label)`; `last_app_close_time` is the time.
const PREF_KEYS: &[(&str, &str)] = &[
    ("currentTab", "current tab"),
    ("privateCurrentTab", "current private tab"),
    ("selectedSearchEngine", "search engine"),
];

/// `com.ornet.torbrowser_preferences.xml`: one phenomenon when it holds a key read.
fn prefs(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, prefs)) = super::prefs::prefs_xml(ctx, l, "Ornet", None)? else {
        return Ok(());
    };
    if prefs.is_empty() && !inv.output.text.contains("<map") {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse Ornet's preferences because they hold no <map> of preferences",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let get = |k: &str| super::prefs::pref(&prefs, k);
    let closed = get("last_app_close_time");
    if closed.is_none() && PREF_KEYS.iter().all(|&(k, _)| get(k).is_none()) {
        return Ok(());
    }
    let mut d = Draft::new("app_usage", "Ornet preferences");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for &(k, label) in PREF_KEYS {
        if let Some(v) = get(k) {
            d.fact(FactType::Text, Some(&v), &inv);
            said.push(format!("{label} {v}"));
        }
    }
    d.time(
        closed.as_deref(),
        unix_millis(closed.as_deref()),
        "Ornet last closed",
        &inv,
    );
    if let Some(v) = &closed {
        said.push(format!("last_app_close_time {v}"));
    }
    d.interpretation = format!(
        "{}: Ornet's own preferences — {} (last_app_close_time is Unix milliseconds).",
        l.path,
        said.join(", ")
    );
    record_draft(ctx, d)
}
