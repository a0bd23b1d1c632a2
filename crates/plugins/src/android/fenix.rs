//! Firefox for Android's own stores beside its history (`org.mozilla.firefox`, Fenix, and its
//! Beta, Nightly, Focus and forks' packages) and a Firefox profile's site data on any platform:
//! ALEAPP's `firefoxDownloads`, `firefoxRecentlyClosedTabs`, `firefoxTopSites`,
//! `firefoxPermissions` and `firefoxCookies`.
//!
//! | store, table | phenomenon | fields |
//! |---|---|---|
//! | `databases/mozac_downloads_database`, `downloads` | one `web` per download ("Firefox download: <file>") | file name, URL, MIME type, size, status (3 paused, 4 cancelled, 5 failed, 6 finished; as stored), the folder it was saved to, when (Unix ms) |
//! | `databases/recently_closed_tabs`, `recently_closed_tabs` | one `web` per tab the user closed ("Firefox tab closed: <title>") | title, URL, when (Unix ms) |
//! | `databases/top_sites`, `top_sites` | one `web` per pinned or default shortcut ("Firefox top site: <title>") | title, URL, default, added (Unix ms) |
//! | a profile's `permissions.sqlite`, `moz_perms` | one `web` per site permission ("Firefox permission <type> for <origin>") | origin, type (camera, microphone, geo, desktop-notification …), allowed (1) or blocked (2), expiry and modified (Unix ms) |
//! | a profile's `cookies.sqlite`, `moz_cookies` | one `web` per host ("Firefox cookies of <host>") | how many cookies, their names, first set and last used (PRTime µs); **cookie values are never selected** (they are session credentials), as for Chromium |
//!
//! Columns are taken by name (absent ones NULL; the download folder is `directory_path` or,
//! earlier, `destination_directory`); a store without its table is noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, unix_micros, unix_millis};
use crate::identity::table_columns;
use crate::outputs::raw;

/// Whether `path` is in a Firefox for Android package's folder.
fn in_fenix(path: &str) -> bool {
    path.contains("/org.mozilla.") && path.contains("/databases/")
}

/// Whether `l` is one of the stores this module reads.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// Whether `path` is one of the stores this module reads.
pub fn is_store_path(path: &str) -> bool {
    match path.rsplit('/').next().unwrap_or(path) {
        "mozac_downloads_database" | "recently_closed_tabs" | "top_sites" => in_fenix(path),
        "permissions.sqlite" | "cookies.sqlite" => {
            // a Firefox profile folder: `<name>.default…` (Android's files/mozilla, desktops'
            // Profiles)
            path.rsplit('/')
                .nth(1)
                .is_some_and(|d| d.contains(".default") || d.contains(".dev-edition"))
        }
        _ => false,
    }
}

/// One store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let (table, key) = match l.name() {
        "mozac_downloads_database" => ("downloads", "url"),
        "recently_closed_tabs" => ("recently_closed_tabs", "url"),
        "top_sites" => ("top_sites", "url"),
        "permissions.sqlite" => ("moz_perms", "origin"),
        _ => ("moz_cookies", "host"),
    };
    if super::databases::tables_with(ctx, l, &[table])?.is_none() {
        return Ok(());
    }
    let cols = table_columns(ctx, &l.tree, &l.path, table)?;
    if !crate::calls::require_columns(
        ctx,
        &crate::identity::artefact_name(&l.tree, &l.path),
        &format!("Firefox's {}", l.name()),
        table,
        &cols,
        &[key],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    match table {
        "downloads" => {
            let folder = if cols.contains("directory_path") {
                "directory_path AS folder"
            } else if cols.contains("destination_directory") {
                "destination_directory AS folder"
            } else {
                "NULL AS folder"
            };
            let sql = format!(
                "SELECT rowid AS rid, url, {}, {}, {}, {}, {folder}, {} FROM downloads ORDER BY rowid",
                c("file_name"),
                c("content_type"),
                c("content_length"),
                c("status"),
                c("created_at"),
            );
            let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
                format!(
                    "Firefox download: {}",
                    raw(t, row, "file_name")
                        .or_else(|| raw(t, row, "url"))
                        .unwrap_or_default()
                )
            };
            super::record_query(
                ctx,
                l,
                &sql,
                &RowPhenomena {
                    table,
                    category: "web",
                    what: "a file downloaded with Firefox (status 3 paused, 4 cancelled, 5 failed, 6 finished, as stored; created_at is Unix milliseconds)",
                    title: &title,
                    fields: &[
                        ("file_name", FactType::Name, "file"),
                        ("url", FactType::Url, "from"),
                        ("content_type", FactType::Text, "MIME type"),
                        ("content_length", FactType::Count, "size"),
                        ("status", FactType::Text, "status"),
                        ("folder", FactType::Path, "saved to"),
                    ],
                    times: &[("created_at", "Download started", unix_millis)],
                },
                &mut |_, _, _| Ok(()),
            )
        }
        "recently_closed_tabs" | "top_sites" => {
            let sql = format!(
                "SELECT rowid AS rid, url, {}, {}, {} FROM {table} ORDER BY rowid",
                c("title"),
                c("is_default"),
                c("created_at"),
            );
            let closed = table == "recently_closed_tabs";
            let title = move |t: &crate::outputs::Table, row: &[Option<String>]| {
                format!(
                    "Firefox {}: {}",
                    if closed { "tab closed" } else { "top site" },
                    raw(t, row, "title")
                        .or_else(|| raw(t, row, "url"))
                        .unwrap_or_default()
                )
            };
            super::record_query(
                ctx,
                l,
                &sql,
                &RowPhenomena {
                    table,
                    category: "web",
                    what: if closed {
                        "a tab the user closed in Firefox, kept so it can be reopened (created_at is Unix milliseconds)"
                    } else {
                        "a shortcut on Firefox's home screen, pinned by the user or a default (is_default 1; created_at is Unix milliseconds)"
                    },
                    title: &title,
                    fields: &[
                        ("title", FactType::Name, "title"),
                        ("url", FactType::Url, "URL"),
                        ("is_default", FactType::Text, "default"),
                    ],
                    times: &[(
                        "created_at",
                        if closed {
                            "Tab closed"
                        } else {
                            "Top site added"
                        },
                        unix_millis,
                    )],
                },
                &mut |_, _, _| Ok(()),
            )
        }
        "moz_perms" => {
            let sql = format!(
                "SELECT rowid AS rid, origin, {}, {}, {}, {} FROM moz_perms ORDER BY rowid",
                c("type"),
                c("permission"),
                c("expireTime"),
                c("modificationTime"),
            );
            let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
                format!(
                    "Firefox permission {} for {}",
                    t.get(row, "type").unwrap_or("?"),
                    t.get(row, "origin").unwrap_or("?")
                )
            };
            super::record_query(
                ctx,
                l,
                &sql,
                &RowPhenomena {
                    table,
                    category: "web",
                    what: "a permission the user gave or refused a site in Firefox (permission 1 allowed, 2 blocked; times Unix milliseconds)",
                    title: &title,
                    fields: &[
                        ("origin", FactType::Url, "site"),
                        ("type", FactType::Text, "permission"),
                        ("permission", FactType::Text, "state"),
                    ],
                    times: &[
                        ("modificationTime", "Site permission set", unix_millis),
                        ("expireTime", "Site permission expires", unix_millis),
                    ],
                },
                &mut |_, _, _| Ok(()),
            )
        }
        _ => {
            // one row per host; the values are never selected
            let name_col = if cols.contains("name") {
                "group_concat(DISTINCT name)"
            } else {
                "NULL"
            };
            let first = if cols.contains("creationTime") {
                "min(creationTime)"
            } else {
                "NULL"
            };
            let last = if cols.contains("lastAccessed") {
                "max(lastAccessed)"
            } else {
                "NULL"
            };
            let sql = format!(
                "SELECT host, count(*) AS cookies, {name_col} AS names, {first} AS first_set, {last} AS last_used FROM moz_cookies GROUP BY host ORDER BY host"
            );
            let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
                format!("Firefox cookies of {}", t.get(row, "host").unwrap_or("?"))
            };
            super::record_query(
                ctx,
                l,
                &sql,
                &RowPhenomena {
                    table,
                    category: "web",
                    what: "the cookies a site set in Firefox (their names, never their values; times are PRTime, microseconds since 1970)",
                    title: &title,
                    fields: &[
                        ("host", FactType::Text, "host"),
                        ("cookies", FactType::Count, "cookies"),
                        ("names", FactType::Text, "names"),
                    ],
                    times: &[
                        ("first_set", "First cookie set", unix_micros),
                        ("last_used", "Cookie last used", unix_micros),
                    ],
                },
                &mut |_, _, _| Ok(()),
            )
        }
    }
}
