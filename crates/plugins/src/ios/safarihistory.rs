//! Safari's browsing history (`…/Safari/History.db`, also `Safari/Profiles/<name>/History.db`):
//! one phenomenon per visit (`history_visits` joined to `history_items`) with the fields of
//! iLEAPP's `safariHistory` and plaso's `safari_historydb` — visit time, title, URL, the item's
//! visit count, the redirect source and destination (resolved to their URLs), whether the
//! request was not a GET, the visit id, its origin (0 this device, 1 a device synced through
//! iCloud) and the profile. `visit_time` is Core Data seconds since 2001 (`apple_seconds`).
//!
//! Safari's downloads (`…/Safari/Downloads/Downloads.plist`): one phenomenon per entry of
//! `DownloadHistory` with the fields of iLEAPP's `safariDownloads` — date added, URL, path,
//! bytes so far and total, identifier, sandbox identifier, remove-when-done, and every other
//! key (the bookmark blobs left out) —, read with `parse_plist`; an empty history is one
//! phenomenon saying so.
//!
//! Safari's bookmarks and reading list (`…/Safari/Bookmarks.db`, table `bookmarks`): one
//! phenomenon per bookmark with a URL — title, URL, the folder it is in (`parent`'s title;
//! `com.apple.ReadingList` is the reading list), hidden, read (reading list), deleted, the
//! sync UUID and the last-modified time (Core Data seconds) — iLEAPP's `safariBookmarks`
//! fields (title, URL, hidden) and more; `id`, `title` and `url` are required (else noted),
//! the other columns read when present.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, apple_encoding, summarise};

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(visit_time, 0)) AS first_time, max(visit_time) AS last_time FROM history_visits";

/// Triage of every Safari `History.db` and `Downloads.plist` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("History.db", |find, path| {
        if path.contains("/Safari/") {
            one(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("Downloads.plist", |find, path| {
        if path.contains("/Safari/") {
            downloads(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("Bookmarks.db", |find, path| {
        if path.contains("/Safari/") {
            bookmarks(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// Safari's `Bookmarks.db`: every bookmark with a URL, with its folder.
fn bookmarks(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    const T: &str = "bookmarks";
    let Some(schema) = run.schema(path, &[T])? else {
        return Ok(());
    };
    if !schema.require(run, T, &["id", "title", "url"])? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| crate::calls::column_or_null(&c, "b.", n, a);
    let folder = if c.contains("parent") {
        "(SELECT f.title FROM bookmarks f WHERE f.id = b.parent) AS folder"
    } else {
        "NULL AS folder"
    };
    let select = format!(
        "SELECT * FROM (SELECT b.id AS id, b.title AS title, b.url AS url, {folder}, {}, {}, {}, {}, {} FROM {T} b WHERE b.url IS NOT NULL AND b.url != '') q",
        col("hidden", "hidden"),
        col("read", "read"),
        col("deleted", "deleted"),
        col("external_uuid", "uuid"),
        col("last_modified", "modified"),
    );
    let Some(paged) = run.paged(path, &select, "id")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let id = super::raw(t, row, "id").unwrap_or_default();
        let title = super::raw(t, row, "title");
        let url = super::raw(t, row, "url");
        let folder = super::raw(t, row, "folder");
        let reading = folder.as_deref() == Some("com.apple.ReadingList");
        let mut d = Draft::new(
            "web",
            format!(
                "Safari {} {id}: {}",
                if reading {
                    "reading list item"
                } else {
                    "bookmark"
                },
                title
                    .as_deref()
                    .filter(|t| !t.is_empty())
                    .or(url.as_deref())
                    .unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Url, url.as_deref(), inv);
        d.fact(FactType::Text, title.as_deref(), inv);
        d.fact(FactType::Text, folder.as_deref(), inv);
        let mut said = Vec::new();
        for (col, fact_type, label) in [
            ("hidden", FactType::Count, "hidden"),
            ("read", FactType::Count, "read"),
            ("deleted", FactType::Count, "deleted"),
            ("uuid", FactType::Identifier, "sync UUID"),
        ] {
            if let Some(v) = super::raw(t, row, col) {
                d.fact(fact_type, Some(&v), inv);
                said.push(format!("{label} {v}"));
            }
        }
        let modified = super::raw(t, row, "modified").filter(|v| v != "0" && v != "0.0");
        d.time(
            modified.as_deref(),
            super::core_data_encoding(modified.as_deref()),
            "Safari bookmark modified",
            inv,
        );
        d.interpretation = format!(
            "bookmarks id {id} of {path}: {} {} ({}) in the folder {}; {}.",
            if reading {
                "a reading-list item"
            } else {
                "a bookmark of"
            },
            url.as_deref().unwrap_or("?"),
            title.as_deref().unwrap_or("no title"),
            folder.as_deref().unwrap_or("(top level)"),
            if said.is_empty() {
                "no other field".to_string()
            } else {
                said.join(", ")
            }
        );
        run.record(d)?;
    }
    Ok(())
}

/// The keys of a download entry that iLEAPP names, with how each is recorded.
const DOWNLOAD_KEYS: &[(&str, FactType)] = &[
    ("DownloadEntryURL", FactType::Url),
    ("DownloadEntryPath", FactType::Path),
    ("DownloadEntryProgressBytesSoFar", FactType::Count),
    ("DownloadEntryProgressTotalToLoad", FactType::Count),
    ("DownloadEntryIdentifier", FactType::Identifier),
    ("DownloadEntrySandboxIdentifier", FactType::Identifier),
];

fn downloads(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = super::plists::parse(run, path)? else {
        return Ok(());
    };
    let entries = v
        .get("DownloadHistory")
        .and_then(serde_json::Value::as_array)
        .cloned()
        .unwrap_or_default();
    if entries.is_empty() {
        let mut d = Draft::new("web", "Safari downloads: none recorded".to_string());
        d.fact(FactType::Path, Some(path), find);
        d.interpretation = format!("{path}: Safari's download history is empty.");
        return run.record(d);
    }
    for (i, e) in entries.iter().enumerate() {
        let text = |k: &str| -> Option<String> {
            match e.get(k)? {
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                serde_json::Value::Bool(b) => Some(b.to_string()),
                _ => None,
            }
        };
        let url = text("DownloadEntryURL");
        let mut d = Draft::new(
            "web",
            format!(
                "Safari download {} of {}",
                i + 1,
                url.as_deref().unwrap_or("an unrecorded URL")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        for (k, ty) in DOWNLOAD_KEYS {
            d.fact(*ty, text(k).as_deref(), &inv);
        }
        let added = text("DownloadEntryDateAddedKey");
        d.time(
            added.as_deref(),
            added.as_ref().map(|_| masf_graph::TimeEncoding::Iso8601),
            "Download added",
            &inv,
        );
        let others: Vec<String> = e
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| {
                !DOWNLOAD_KEYS.iter().any(|(n, _)| n == k)
                    && !k.contains("BookmarkBlob")
                    && *k != "DownloadEntryDateAddedKey"
            })
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        d.interpretation = format!(
            "Entry {} of DownloadHistory in {path}: Safari downloaded {} to {} ({} of {} bytes){}{}.",
            i + 1,
            url.as_deref().unwrap_or("?"),
            text("DownloadEntryPath").as_deref().unwrap_or("?"),
            text("DownloadEntryProgressBytesSoFar")
                .as_deref()
                .unwrap_or("?"),
            text("DownloadEntryProgressTotalToLoad")
                .as_deref()
                .unwrap_or("?"),
            if text("DownloadEntryRemoveWhenDoneKey").as_deref() == Some("true") {
                "; to be removed when done"
            } else {
                ""
            },
            if others.is_empty() {
                String::new()
            } else {
                format!("; other fields: {}", others.join(", "))
            },
        );
        run.record(d)?;
    }
    Ok(())
}

/// `Default`, or the name of the profile folder (`Safari/Profiles/<name>/History.db`).
fn profile(path: &str) -> String {
    path.split("/Profiles/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .map_or_else(|| "Default".to_string(), str::to_string)
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["history_visits", "history_items"])? else {
        return Ok(());
    };
    if !schema.require(run, "history_items", &["id", "url", "visit_count"])?
        || !schema.require(
            run,
            "history_visits",
            &["id", "history_item", "visit_time", "title"],
        )?
    {
        return Ok(());
    }
    let cols = schema.columns("history_visits");
    let opt = |c: &str| crate::calls::column_or_null(&cols, "v.", c, c);
    let redirect = |c: &str| {
        if cols.contains(c) {
            format!(
                "(SELECT i2.url FROM history_visits v2 JOIN history_items i2 ON i2.id = v2.history_item WHERE v2.id = v.{c}) AS {c}_url"
            )
        } else {
            format!("NULL AS {c}_url")
        }
    };
    let select = format!(
        "SELECT v.id AS visit_id, v.visit_time AS time, v.title AS title, i.url AS url, i.visit_count AS visits, \
{}, {}, {}, {}, {}, {} FROM history_visits v LEFT JOIN history_items i ON i.id = v.history_item",
        opt("http_non_get"),
        opt("origin"),
        opt("redirect_source"),
        opt("redirect_destination"),
        redirect("redirect_source"),
        redirect("redirect_destination"),
    );
    let Some(paged) = run.paged(path, &select, "v.id")? else {
        return Ok(());
    };
    let profile = profile(path);
    for (inv, t, row) in paged.rows() {
        let id = t.get(row, "visit_id").unwrap_or("?").to_string();
        let url = t.get(row, "url").map(str::to_string);
        let mut d = Draft::new(
            "web",
            format!(
                "Safari visit {id} to {}",
                url.as_deref().unwrap_or("an unrecorded URL")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Url, url.as_deref(), inv);
        d.fact(FactType::Text, t.get(row, "title"), inv);
        d.fact(FactType::Count, t.get(row, "visits"), inv);
        d.fact(FactType::Url, t.get(row, "redirect_source_url"), inv);
        d.fact(FactType::Url, t.get(row, "redirect_destination_url"), inv);
        let time = t.get(row, "time");
        d.time(time, apple_encoding(time), "Page visited", inv);
        let origin = match t.get(row, "origin") {
            Some("1") => "a device synced through iCloud (origin 1)",
            Some("0") | None => "this device (origin 0)",
            Some(_) => "an origin of unknown meaning",
        };
        d.interpretation = format!(
            "history_visits id {id} of {path} (profile {profile}): a visit from {origin} to a page \
visited {} time(s) in all{}{}{}; visit_time is Core Data seconds since the Apple epoch (apple_seconds).",
            t.get(row, "visits").unwrap_or("?"),
            t.get(row, "redirect_source_url")
                .map(|u| format!(", redirected from {u}"))
                .unwrap_or_default(),
            t.get(row, "redirect_destination_url")
                .map(|u| format!(", redirected to {u}"))
                .unwrap_or_default(),
            if t.get(row, "http_non_get") == Some("1") {
                ", by a request other than GET (a form sent)"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "web",
            path,
            find,
            "Safari visits",
            SUMMARY_SQL,
            apple_encoding,
            "First visit",
            "Last visit",
        )?;
    }
    recovered(run, find, path)
}

/// Visits and pages `history_visits`/`history_items` no longer show that earlier page versions
/// hold (history cleared or a page removed since the last checkpoint): one phenomenon per
/// recovered visit, its URL from the recovered page row or the live one; one per recovered page
/// none of whose visits came back.
fn recovered(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let at = serde_json::json!({"path": path});
    let visits = crate::recovered::wal_rows(run.ctx, path, at.clone(), "history_visits", &[])?;
    let items = crate::recovered::wal_rows(run.ctx, path, at, "history_items", &[])?;
    let item_url = |id: &str| {
        items.as_ref().and_then(|(iinv, it)| {
            it.rows
                .iter()
                .find(|r| it.get(r, "id") == Some(id))
                .and_then(|r| it.get(r, "url").map(|u| (iinv, u.to_string())))
        })
    };
    // the live pages of recovered visits whose page row is still there
    let missing: Vec<&str> = visits
        .as_ref()
        .map(|(_, v)| {
            v.rows
                .iter()
                .filter_map(|r| v.get(r, "history_item"))
                .filter(|i| i.parse::<i64>().is_ok() && item_url(i).is_none())
                .collect()
        })
        .unwrap_or_default();
    let live = if missing.is_empty() {
        None
    } else {
        run.query(
            path,
            &format!(
                "SELECT id, url FROM history_items WHERE id IN ({})",
                missing.join(",")
            ),
            10_000,
        )?
    };
    let profile = profile(path);
    let mut pages_with_visits = Vec::new();
    if let Some((inv, v)) = &visits {
        for row in &v.rows {
            let id = crate::recovered::key(v, row, "id");
            let item = v.get(row, "history_item").unwrap_or("?");
            pages_with_visits.push(item.to_string());
            let url = item_url(item).or_else(|| {
                live.as_ref().and_then(|(linv, l)| {
                    l.rows
                        .iter()
                        .find(|r| l.get(r, "id") == Some(item))
                        .and_then(|r| l.get(r, "url").map(|u| (linv, u.to_string())))
                })
            });
            let mut d = Draft::new(
                "web",
                format!(
                    "{} Safari visit {id} to {} (recovered)",
                    crate::recovered::title_word(v.get(row, "status")),
                    url.as_ref()
                        .map(|(_, u)| u.as_str())
                        .unwrap_or("a page no longer listed")
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Text, v.get(row, "status"), inv);
            if let Some((uinv, u)) = &url {
                d.fact(FactType::Url, Some(u), uinv);
            }
            d.fact(FactType::Text, v.get(row, "title"), inv);
            let time = v.get(row, "visit_time");
            d.time(time, apple_encoding(time), "Page visited", inv);
            d.interpretation = format!(
                "history_visits id {id} of {path} (profile {profile}), a visit to page {item}: {}; visit_time is Core Data seconds since the Apple epoch (apple_seconds).",
                crate::recovered::provenance(v, row)
            );
            run.record(d)?;
        }
    }
    if let Some((inv, it)) = &items {
        for row in &it.rows {
            let id = crate::recovered::key(it, row, "id");
            if pages_with_visits.contains(&id) {
                continue;
            }
            let mut d = Draft::new(
                "web",
                format!(
                    "{} Safari history page {id}: {} (recovered)",
                    crate::recovered::title_word(it.get(row, "status")),
                    it.get(row, "url").unwrap_or("?")
                ),
            );
            d.fact(FactType::Path, Some(path), find);
            d.fact(FactType::Text, it.get(row, "status"), inv);
            d.fact(FactType::Url, it.get(row, "url"), inv);
            d.fact(FactType::Count, it.get(row, "visit_count"), inv);
            d.interpretation = format!(
                "history_items id {id} of {path} (profile {profile}), a page visited {} time(s): {}.",
                it.get(row, "visit_count").unwrap_or("?"),
                crate::recovered::provenance(it, row)
            );
            run.record(d)?;
        }
    }
    Ok(())
}
