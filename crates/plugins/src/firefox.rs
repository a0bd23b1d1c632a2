//! Firefox-family browsing data (Firefox, Firefox ESR, Tor Browser, LibreWolf, Waterfox on
//! Windows, macOS and Linux; Firefox for Android's `places.sqlite` and Firefox for iOS's
//! `profile.profile/places.db`, Mozilla's Application Services store of the same tables), read
//! by the Android parsers — which the disk and archive plugins run on their trees too — and by
//! the iOS plugin, wherever a profile sits.
//!
//! | file, table | phenomenon | fields |
//! |---|---|---|
//! | `places.sqlite`: `moz_historyvisits` ⋈ `moz_places` | one per visit | time, URL, title, the page's visit count, typed flag, frecency, the visit's type (link, typed, bookmark, embed, permanent or temporary redirect, download, framed link, reload) and the URL it came from |
//! | `places.sqlite`: `moz_bookmarks` ⋈ `moz_places` | one per bookmark | title, URL, its folder, added and last-modified times, GUID |
//! | `places.sqlite`: `moz_annos` (`downloads/destinationFileURI`, `downloads/metaData`) | one per download | the source URL, the saved file's URI, the metadata's state, end time and size, when it was added |
//! | `formhistory.sqlite`: `moz_formhistory` | one per saved form value | field name, value, times used, first and last use |
//!
//! Columns are taken by name (Firefox for Android and older releases lack some). Times are
//! PRTime, microseconds since 1970 (`unix_micros`; 0 is "not set"); `downloads/metaData`'s
//! `endTime` is Unix milliseconds. **Application Services** (the store of Firefox for iOS and
//! of Firefox for Android since Fenix, told by `moz_places.visit_count_local` or
//! `moz_historyvisits.is_local`) keeps its times in Unix milliseconds, splits a page's visit
//! count into this device's and the synced ones, and marks each visit local (made on this
//! device) or not (synced from another device of the Firefox account): both said, with the
//! page's description and GUID, the fields iLEAPP's `firefox_ios_history` and
//! `firefox_ios_bookmarks` report, and a bookmark's position. Each table is read in pages up to [`crate::calls::ROW_CAP`] rows, the rest noted.
//! A database without `moz_places` and `moz_historyvisits` (or without `moz_formhistory`) is
//! noted naming what it lacks. No identity is observed: what a form field held is recorded, but
//! whose it is (the user's own address, or one they typed to reach someone) is not known.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft};
use crate::identity::{TreeRef, artefact_name, columns_on, pages_on, tables_on};
use crate::outputs::raw;

/// Microseconds since 1970, when the value is a positive number.
fn prtime(value: Option<&str>) -> Option<TimeEncoding> {
    value
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|v| *v > 0)
        .map(|_| TimeEncoding::UnixMicros)
}

/// How a store's times are read (PRTime, or Unix milliseconds in Application Services).
type Encoder = fn(Option<&str>) -> Option<TimeEncoding>;

/// The Firefox-family browser a profile path belongs to.
pub fn browser_of(path: &str) -> &'static str {
    let p = path.to_ascii_lowercase();
    [
        ("tor browser", "Tor Browser"),
        ("torbrowser", "Tor Browser"),
        ("librewolf", "LibreWolf"),
        ("waterfox", "Waterfox"),
        ("org.mozilla.fenix", "Firefox for Android"),
        ("org.mozilla.firefox", "Firefox for Android"),
        ("org.mozilla.focus", "Firefox Focus"),
        ("/profile.profile/", "Firefox for iOS"),
        ("org.mozilla.ios", "Firefox for iOS"),
        ("firefox", "Firefox"),
        ("mozilla", "Firefox"),
    ]
    .iter()
    .find(|(k, _)| p.contains(k))
    .map_or("a Firefox-family browser", |(_, b)| b)
}

/// The profile folder holding `path` (`x1y2z3.default-release`; on Android, `files`).
fn profile_of(path: &str) -> &str {
    path.rsplit('/').nth(1).unwrap_or("?")
}

/// The name of a `moz_historyvisits.visit_type`.
pub fn visit_type(value: Option<&str>) -> &'static str {
    match value.and_then(|v| v.parse::<i64>().ok()) {
        Some(1) => "followed a link",
        Some(2) => "typed",
        Some(3) => "opened a bookmark",
        Some(4) => "embedded",
        Some(5) => "permanent redirect",
        Some(6) => "temporary redirect",
        Some(7) => "download",
        Some(8) => "framed link",
        Some(9) => "reload",
        _ => "of unrecorded type",
    }
}

/// The columns of `table` (empty when the query fails: noted by [`columns_on`]).
fn columns(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    table: &str,
) -> Result<BTreeSet<String>, RuntimeError> {
    Ok(columns_on(ctx, tree, path, table)?
        .map(|(_, c)| c)
        .unwrap_or_default())
}

/// A profile's `places.sqlite`: visits, bookmarks and downloads (see the module documentation).
pub fn places(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some((_, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(tree, path);
    let missing: Vec<&str> = ["moz_places", "moz_historyvisits"]
        .into_iter()
        .filter(|t| !has(t))
        .collect();
    if !missing.is_empty() {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {} as Firefox history because it has no {} table",
                path.rsplit('/').next().unwrap_or(path),
                missing.join(" or ")
            ),
            None,
        )?;
        return Ok(());
    }
    let browser = browser_of(path);
    let where_ = format!("{browser} profile {} ({name})", profile_of(path));
    let q = |sql: &str| pages_on(ctx, tree, path, sql);
    let p = columns(ctx, tree, path, "moz_places")?;
    let v = columns(ctx, tree, path, "moz_historyvisits")?;
    if !["id", "place_id", "visit_date"]
        .iter()
        .all(|c| v.contains(*c))
        || !p.contains("url")
    {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {} because moz_historyvisits lacks id, place_id or visit_date, or moz_places lacks url",
                path.rsplit('/').next().unwrap_or(path)
            ),
            None,
        )?;
        return Ok(());
    }

    // Application Services (Firefox for iOS, Fenix): Unix milliseconds, local and synced visits
    let app_services = p.contains("visit_count_local") || v.contains("is_local");
    let (time_of, unit): (Encoder, &str) = if app_services {
        (crate::drafts::unix_millis, "Unix milliseconds")
    } else {
        (prtime, "PRTime, microseconds since 1970")
    };

    // Visits.
    let from = if v.contains("from_visit") {
        "(SELECT fp.url FROM moz_historyvisits fv JOIN moz_places fp ON fp.id = fv.place_id WHERE fv.id = v.from_visit)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT v.id AS id, v.visit_date AS time, p.url AS url, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {from} AS from_url \
FROM moz_historyvisits v JOIN moz_places p ON p.id = v.place_id ORDER BY v.id",
        column_or_null(&p, "p.", "title", "title"),
        column_or_null(&p, "p.", "visit_count", "visits"),
        column_or_null(&p, "p.", "typed", "typed"),
        column_or_null(&p, "p.", "frecency", "frecency"),
        column_or_null(&v, "v.", "visit_type", "visit_type"),
        column_or_null(&v, "v.", "is_local", "is_local"),
        column_or_null(&p, "p.", "visit_count_local", "visits_local"),
        column_or_null(&p, "p.", "visit_count_remote", "visits_remote"),
        column_or_null(&p, "p.", "description", "description"),
        column_or_null(&p, "p.", "guid", "guid"),
    );
    if let Some(pages) = q(&sql)? {
        for (inv, t, row) in pages.rows() {
            let id = t.get(row, "id").unwrap_or("?");
            let url = raw(t, row, "url");
            let mut d = Draft::new(
                "web",
                format!("{browser} visit {id} to {}", url.as_deref().unwrap_or("?")),
            );
            d.fact(FactType::Path, Some(path), found);
            d.fact(FactType::Url, url.as_deref(), inv);
            d.fact(FactType::Text, raw(t, row, "title").as_deref(), inv);
            d.fact(FactType::Count, t.get(row, "visits"), inv);
            d.fact(FactType::Count, t.get(row, "visits_local"), inv);
            d.fact(FactType::Count, t.get(row, "visits_remote"), inv);
            d.fact(FactType::Text, raw(t, row, "description").as_deref(), inv);
            d.fact(FactType::Identifier, raw(t, row, "guid").as_deref(), inv);
            d.fact(FactType::Url, raw(t, row, "from_url").as_deref(), inv);
            let time = t.get(row, "time");
            d.time(time, time_of(time), "Page visited", inv);
            let counts = if app_services {
                format!(
                    "{} time(s) on this device and {} time(s) on the account's other devices (synced)",
                    t.get(row, "visits_local").unwrap_or("?"),
                    t.get(row, "visits_remote").unwrap_or("?"),
                )
            } else {
                format!("{} time(s)", t.get(row, "visits").unwrap_or("?"))
            };
            let local = match t.get(row, "is_local") {
                Some("1") => " made on this device (is_local 1)",
                Some("0") => {
                    " synced from another device of the Firefox account (is_local 0): it happened there"
                }
                _ => "",
            };
            d.interpretation = format!(
                "moz_historyvisits id {id} in {where_}: a visit{local} ({}, visit_type {}) to a page{}{} visited {counts}{}{}{}; visit_date is {unit}.",
                visit_type(t.get(row, "visit_type")),
                t.get(row, "visit_type").unwrap_or("not recorded"),
                t.get(row, "guid")
                    .map(|g| format!(" (GUID {g})"))
                    .unwrap_or_default(),
                t.get(row, "description")
                    .map(|x| format!(" described {x:?}"))
                    .unwrap_or_default(),
                if t.get(row, "typed") == Some("1") {
                    ", its address typed by the user"
                } else {
                    ""
                },
                t.get(row, "frecency")
                    .map(|f| format!(", frecency {f}"))
                    .unwrap_or_default(),
                t.get(row, "from_url")
                    .map(|u| format!(", coming from {u}"))
                    .unwrap_or_default(),
            );
            record_draft(ctx, d)?;
        }
        note_pages_cap(ctx, &name, &pages, "visits")?;
    }

    // Bookmarks (type 1; folders are type 2).
    if has("moz_bookmarks") {
        let b = columns(ctx, tree, path, "moz_bookmarks")?;
        if ["id", "type", "fk"].iter().all(|c| b.contains(*c)) {
            let folder = if b.contains("parent") && b.contains("title") {
                "(SELECT f.title FROM moz_bookmarks f WHERE f.id = b.parent)"
            } else {
                "NULL"
            };
            let sql = format!(
                "SELECT b.id AS id, p.url AS url, {}, {folder} AS folder, {}, {}, {}, {} \
FROM moz_bookmarks b JOIN moz_places p ON p.id = b.fk WHERE b.type = 1 ORDER BY b.id",
                column_or_null(&b, "b.", "title", "title"),
                column_or_null(&b, "b.", "dateAdded", "added"),
                column_or_null(&b, "b.", "lastModified", "modified"),
                column_or_null(&b, "b.", "guid", "guid"),
                column_or_null(&b, "b.", "position", "position"),
            );
            if let Some(pages) = q(&sql)? {
                for (inv, t, row) in pages.rows() {
                    let id = t.get(row, "id").unwrap_or("?");
                    let title = raw(t, row, "title");
                    let url = raw(t, row, "url");
                    let mut d = Draft::new(
                        "web",
                        format!(
                            "{browser} bookmark {}",
                            title.as_deref().or(url.as_deref()).unwrap_or(id)
                        ),
                    );
                    d.fact(FactType::Path, Some(path), found);
                    d.fact(FactType::Url, url.as_deref(), inv);
                    d.fact(FactType::Text, title.as_deref(), inv);
                    d.fact(FactType::Text, raw(t, row, "folder").as_deref(), inv);
                    d.fact(FactType::Identifier, raw(t, row, "guid").as_deref(), inv);
                    for (c, what) in [
                        ("added", "Bookmark added"),
                        ("modified", "Bookmark last modified"),
                    ] {
                        let val = t.get(row, c);
                        d.time(val, time_of(val), what, inv);
                    }
                    d.interpretation = format!(
                        "moz_bookmarks id {id} in {where_}: a bookmark {} of {} in the folder {}{}; dateAdded and lastModified are {unit}.",
                        t.get(row, "title")
                            .map(|x| format!("{x:?}"))
                            .unwrap_or_default(),
                        t.get(row, "url").unwrap_or("?"),
                        t.get(row, "folder").unwrap_or("(none)"),
                        t.get(row, "position")
                            .map(|x| format!(" at position {x}"))
                            .unwrap_or_default(),
                    );
                    record_draft(ctx, d)?;
                }
                note_pages_cap(ctx, &name, &pages, "bookmarks")?;
            }
        }
    }

    // Downloads (annotations since Firefox 26).
    if has("moz_annos") && has("moz_anno_attributes") {
        let sql = "SELECT a.place_id AS id, p.url AS url, \
(SELECT x.content FROM moz_annos x JOIN moz_anno_attributes n ON n.id = x.anno_attribute_id WHERE x.place_id = a.place_id AND n.name = 'downloads/destinationFileURI') AS target, \
(SELECT x.content FROM moz_annos x JOIN moz_anno_attributes n ON n.id = x.anno_attribute_id WHERE x.place_id = a.place_id AND n.name = 'downloads/metaData') AS meta, \
a.dateAdded AS added \
FROM moz_annos a JOIN moz_anno_attributes an ON an.id = a.anno_attribute_id JOIN moz_places p ON p.id = a.place_id \
WHERE an.name = 'downloads/destinationFileURI' ORDER BY a.place_id";
        if let Some(pages) = q(sql)? {
            for (inv, t, row) in pages.rows() {
                let id = t.get(row, "id").unwrap_or("?");
                let target = raw(t, row, "target");
                let meta = raw(t, row, "meta")
                    .and_then(|m| serde_json::from_str::<serde_json::Value>(&m).ok());
                let mut d = Draft::new(
                    "downloads",
                    format!("{browser} download {}", target.as_deref().unwrap_or("?")),
                );
                d.fact(FactType::Path, Some(path), found);
                d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
                d.fact(FactType::Url, target.as_deref(), inv);
                let added = t.get(row, "added");
                d.time(added, prtime(added), "Download recorded", inv);
                let end = meta
                    .as_ref()
                    .and_then(|m| m["endTime"].as_i64())
                    .map(|e| e.to_string());
                d.time(
                    end.as_deref(),
                    end.as_ref().map(|_| TimeEncoding::UnixMillis),
                    "Download ended",
                    inv,
                );
                let size = meta
                    .as_ref()
                    .and_then(|m| m["fileSize"].as_i64())
                    .map(|s| s.to_string());
                d.fact(FactType::Count, size.as_deref(), inv);
                let state = match meta.as_ref().and_then(|m| m["state"].as_i64()) {
                    Some(0) => "downloading",
                    Some(1) => "finished",
                    Some(2) => "failed",
                    Some(3) => "cancelled",
                    Some(4) => "paused",
                    Some(5) => "queued",
                    Some(6) => "blocked by parental controls",
                    Some(7) => "blocked by security zone policy",
                    Some(8) => "blocked as dirty",
                    _ => "of unrecorded state",
                };
                d.interpretation = format!(
                    "moz_annos of place {id} in {where_}: a download from {}, saved as {}, {state}{}; the annotation's dateAdded is PRTime, the metadata's endTime Unix milliseconds.",
                    t.get(row, "url").unwrap_or("?"),
                    target.as_deref().unwrap_or("?"),
                    size.map(|s| format!(", {s} bytes")).unwrap_or_default(),
                );
                record_draft(ctx, d)?;
            }
            note_pages_cap(ctx, &name, &pages, "downloads")?;
        }
    }
    Ok(())
}

/// A profile's `formhistory.sqlite`: one phenomenon per value the browser saved for a form
/// field.
pub fn form_history(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, path);
    let c = columns(ctx, tree, path, "moz_formhistory")?;
    if !["fieldname", "value"].iter().all(|x| c.contains(*x)) {
        ctx.unparsed(
            &name,
            "could not parse formhistory.sqlite because it has no moz_formhistory table with fieldname and value",
            None,
        )?;
        return Ok(());
    }
    let browser = browser_of(path);
    let where_ = format!("{browser} profile {} ({name})", profile_of(path));
    let sql = format!(
        "SELECT rowid AS id, fieldname, value, {}, {}, {} FROM moz_formhistory ORDER BY rowid",
        column_or_null(&c, "", "timesUsed", "used"),
        column_or_null(&c, "", "firstUsed", "first"),
        column_or_null(&c, "", "lastUsed", "last"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let field = raw(t, row, "fieldname");
        let value = raw(t, row, "value");
        let mut d = Draft::new(
            "web",
            format!(
                "{browser} form value for {}",
                field.as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Text, field.as_deref(), inv);
        d.fact(FactType::Text, value.as_deref(), inv);
        d.fact(FactType::Count, t.get(row, "used"), inv);
        for (col, what) in [
            ("first", "Form value first used"),
            ("last", "Form value last used"),
        ] {
            let val = t.get(row, col);
            d.time(val, prtime(val), what, inv);
        }
        d.interpretation = format!(
            "moz_formhistory row {id} in {where_}: the browser saved {:?} as typed into form fields named {:?}, used {} time(s); firstUsed and lastUsed are PRTime, microseconds since 1970. Whose value it is (the user's own, or one typed to reach someone) the row does not say.",
            t.get(row, "value").unwrap_or("?"),
            t.get(row, "fieldname").unwrap_or("?"),
            t.get(row, "used").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    note_pages_cap(ctx, &name, &pages, "form values")?;
    Ok(())
}
