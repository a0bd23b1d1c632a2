//! Chromium's offline pages on Android, ALEAPP's `chromeOfflinePages` and `offlinePages`: the
//! store a Chromium profile keeps of the pages it saved for reading offline
//! (`<profile>/Offline Pages/metadata/OfflinePages.db` — Chrome's `app_chrome/Default`, Samsung
//! Internet's `app_sbrowser/Default`, a WebView's `app_webview/Default`, and the Chromium browsers
//! that keep the same folders, Brave and Edge under `app_chrome`), and the saved pages
//! themselves: MHTML archives (`*.mhtml`, `*.mht`, wherever they lie — the profile's private
//! `Offline Pages/archives/`, the shared `Download/` folder a page the user downloaded is
//! published to).
//!
//! | store | phenomenon | fields |
//! |---|---|---|
//! | `OfflinePages.db`: `offlinepages_v1` | one `web` per saved page ("<browser> offline page <URL>") | URL, original URL (before redirects), title, the archive's path and size, the client namespace it was saved under and what that means (computed in the query), client id, the app that asked for it (`request_origin`), the Android download id, the archive's SHA-256 (`digest`, raw bytes, lower-case hex in the query), snippet, attribution, times opened, offline id; saved, last opened, the archive found missing (WebKit µs) |
//! | `*.mhtml`, `*.mht` (`read_text`, the first 1024 bytes) | one `web` per archive ("Saved web page <URL>", else "… <file name>") | the page's address (`Snapshot-Content-Location`), its title (`Subject`, as written: an RFC 2047 encoded word where it is not ASCII, decoded in the interpretation), `Date` as written, the program that wrote it (`From`: `<Saved by Blink>` for a Chromium browser), the file's size and last modification (from the listing that found it) |
//!
//! The client namespace says how the page came to be saved: `download`, `async_loading`,
//! `ntp_suggestions`, `browser_actions` and `live_page_sharing` are pages the user asked for
//! (a download, a shared page); `last_n` (recent tabs), `bookmark`, `custom_tabs`,
//! `suggested_articles` and `auto_async_loading` are pages the browser kept by itself, which
//! prove a visit (`last_n`, `custom_tabs`) or not even that (`suggested_articles`, prefetched).
//! `request_origin` names the app (and its signing certificates' hashes) another app saved the
//! page through. The digest is the SHA-256 of the archive when it was saved: a file at
//! `file_path` with the same hash is that archive, unchanged. Times are WebKit microseconds
//! (since 1601); 0 is "not set" (`file_missing_time` of an archive still there).
//!
//! An archive's header is all that is read of it: Blink writes a few hundred bytes
//! (`From`, `Snapshot-Content-Location`, `Subject`, `Date`, `MIME-Version`, `Content-Type`)
//! before the page's parts, which are not read (the file is the examiner's to open). Folded
//! header lines are joined by one space (so the value grounds by white-space collapse). The
//! `Date` header is kept as written (RFC 5322 text, no time encoding reads it); the file's
//! modification time stands for when it was written. ALEAPP takes the file's modification time
//! alone.
//!
//! Schema drift: columns are taken by name; the store's layout grew from Chromium 52
//! (`title`, `original_url`, `request_origin`, `digest`, `system_download_id`,
//! `file_missing_time`, then `snippet` and `attribution` in version 4), the absent ones read as
//! NULL. A store without `offlinepages_v1`, or whose table lacks `online_url`, is noted; a file
//! named `.mhtml` or `.mht` with no MIME header naming a page (`Snapshot-Content-Location`) or
//! `multipart/related` content is noted, as is a header running past the bytes read. The
//! thumbnails table (`page_thumbnails`: images) is not read. No identity is observed (a saved
//! page names no person; the requesting app is an app).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::browsers::browser_of;
use crate::calls::{Tables, column_or_null};
use crate::drafts::{RowPhenomena, no_identity, webkit};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// Whether `l` is a Chromium profile's offline pages store.
pub fn is_store(l: &Located) -> bool {
    l.path.ends_with("/Offline Pages/metadata/OfflinePages.db")
}

/// Whether `l` is a saved web page (an MHTML archive).
pub fn is_archive(l: &Located) -> bool {
    let name = l.name().to_ascii_lowercase();
    name.ends_with(".mhtml") || name.ends_with(".mht")
}

/// What each client namespace a page is saved under means (Chromium's client policies):
/// whether the user asked for the page or the browser kept it by itself.
const HOW_SAVED: &[(&str, &str)] = &[
    ("download", "a page the user downloaded"),
    (
        "async_loading",
        "a page the user asked to download, fetched in the background",
    ),
    ("ntp_suggestions", "a suggested article the user downloaded"),
    (
        "browser_actions",
        "a page downloaded from another app's link menu",
    ),
    ("live_page_sharing", "a page saved to be shared"),
    ("last_n", "a recent tab the browser kept by itself"),
    ("bookmark", "a bookmarked page the browser kept by itself"),
    (
        "custom_tabs",
        "a page opened in another app's Custom Tab, kept by the browser",
    ),
    (
        "suggested_articles",
        "an article the browser prefetched by itself",
    ),
    (
        "auto_async_loading",
        "a page the browser fetched by itself once online, after it failed to load offline",
    ),
];

/// `how_saved`: the meaning of `client_namespace` ([`HOW_SAVED`]), NULL for another namespace
/// or where the table lacks the column.
fn how_saved(cols: &BTreeSet<String>) -> String {
    if !cols.contains("client_namespace") {
        return "NULL AS how_saved".to_string();
    }
    let arms: Vec<String> = HOW_SAVED
        .iter()
        .map(|(ns, what)| format!("WHEN '{ns}' THEN '{}'", what.replace('\'', "''")))
        .collect();
    format!("CASE client_namespace {} END AS how_saved", arms.join(" "))
}

/// `<expr> AS <col>`, `expr` with the column for its `{}`, where the table has `col`; NULL
/// otherwise: a value computed in the query from a column older layouts lack.
fn computed(cols: &BTreeSet<String>, col: &str, expr: &str) -> String {
    if cols.contains(col) {
        format!("{} AS {col}", expr.replace("{}", col))
    } else {
        format!("NULL AS {col}")
    }
}

/// One `OfflinePages.db`.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Chromium's offline pages store",
        &schema,
        "offlinepages_v1",
        &["online_url"],
    )?
    else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, online_url, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM offlinepages_v1 ORDER BY rowid",
        c("original_url"),
        c("title"),
        c("file_path"),
        c("file_size"),
        c("client_namespace"),
        how_saved(cols),
        c("client_id"),
        c("request_origin"),
        computed(cols, "system_download_id", "NULLIF({}, 0)"),
        computed(cols, "digest", "NULLIF(lower(hex({})), '')"),
        c("snippet"),
        c("attribution"),
        c("access_count"),
        c("offline_id"),
        c("creation_time"),
        c("last_access_time"),
        c("file_missing_time"),
    );
    let browser = browser_of(&l.path);
    let what = format!(
        "a web page {browser} saved for reading offline (how it was saved: the client namespace and its meaning; the archive, an MHTML file, is the file at its path, the digest its SHA-256 when saved; times WebKit microseconds since 1601)"
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "offlinepages_v1",
            category: "web",
            what: &what,
            title: &|t, row| {
                format!(
                    "{browser} offline page {}",
                    raw(t, row, "online_url").unwrap_or_else(|| "?".into())
                )
            },
            fields: &[
                ("online_url", FactType::Url, "URL"),
                ("original_url", FactType::Url, "original URL"),
                ("title", FactType::Text, "title"),
                ("file_path", FactType::Path, "archive"),
                ("file_size", FactType::Count, "archive size (bytes)"),
                ("client_namespace", FactType::Text, "saved under"),
                ("how_saved", FactType::Text, "that is"),
                ("client_id", FactType::Identifier, "client id"),
                ("request_origin", FactType::Text, "requested by"),
                (
                    "system_download_id",
                    FactType::Identifier,
                    "Android download id",
                ),
                ("digest", FactType::Hash, "archive SHA-256"),
                ("snippet", FactType::Text, "snippet"),
                ("attribution", FactType::Text, "attribution"),
                ("access_count", FactType::Count, "times opened"),
                ("offline_id", FactType::Identifier, "offline id"),
            ],
            times: &[
                ("creation_time", "Offline page saved", webkit),
                ("last_access_time", "Offline page last opened", webkit),
                (
                    "file_missing_time",
                    "Offline page's archive found missing",
                    webkit,
                ),
            ],
        },
        &mut no_identity,
    )
}

/// One saved web page (`.mhtml`, `.mht`): its MIME header ([`crate::mhtml`]).
pub fn archive(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    crate::mhtml::archive(ctx, &l.tree, &l.path, &l.found)
}
