//! Google Photos (`Containers/Data/Application/<id>/Library/Application Support/store/
//! photos-<account>.db`, with `photos-shared.db` beside it), iLEAPP's `googlePhotos`
//! (`googlePhotosLibrary`, `googlePhotosAlbums`, `googlePhotosSharedAlbums`,
//! `googlePhotosSharedItems`, `googlePhotosRecentSearches`): the photos and videos of the
//! Google account's library, when and where each was taken, its albums, the shared albums the
//! account is in and who contributed to them, what the user searched for.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ServerPhotos` (with `ExtendedPhotos` by `mediaKey`; `photos-shared.db`'s `LocalAssets` by `localDedupKey`) | one `media` per library item ("Google Photos item <file name>") | media key, file name, camera make and model (the zlib-compressed `mcMediaItem` message, read by `sqlite_query`'s `protobuf`: fields 2.4, 5.2.1.9.5.1 and .2), taken (`timestampMs`) and created on the client (Unix ms), time-zone offset in minutes (`timeZoneOffsetHoursTimes4` × 15), latitude and longitude (the signed halves of `latitudeLongitudeE7`, latitude high, unpacked in the query), width and height (`widthAndHeight` = width << 16 \| height), size, video duration (ms), local dedup key, album key, storage policy, flags and content version (as stored); the device's asset identifier and view count where `LocalAssets` holds its dedup key |
//! | `photos-shared.db` `LocalAssets` | one `media` per device item the app indexed ("Google Photos device item <asset id>") | the iOS local identifier (`assetID`), dedup key, view and share counts, caption; `localDedupKeyTimeMs` |
//! | `Collections` | one `media` per album ("Google Photos album <title>") | album key, from `mcCollection`: title (2.5), item count (2.7), earliest, latest and last-modified item times (2.10.1, .2, .10, Unix ms), owner's actor key (2.3.1), cover URL (2.15) |
//! | `SharedCollections` (with `SharedRecipients`) | one `media` per shared album ("Google Photos shared album <title>") | album key, owner's actor key, cover item, pin, joined, live and suggested-add states (as stored), recipient count and their first and last invitation; title (2.5) and share link (2.18.1) of the zlib-compressed `mcCollection`; last activity, sort and last-viewed times (Unix ms) |
//! | `SharedServerPhotos` (with `SharedExtendedPhotos`) | one `media` per shared-album item ("Google Photos shared album item <file name> in <album>") | media key, the album (key and title), the contributor's actor key, file name, position, dimensions, size, video duration, allowed actions; taken and added to the album (Unix ms) |
//! | `OnDeviceRecentSearchesFullTextSearch_content` | one `media` per recent search ("Google Photos recent search <label>") | the label searched, ranking score, the byte sizes of the search entry and of its result keys (not decoded) |
//!
//! A coordinate is where the item was taken (the camera's position), not where the device
//! was when the app stored it; the actor keys name accounts without naming them. Codes are
//! said as stored (iLEAPP found no value list). Columns and tables are taken by name (older
//! stores lack the client creation time, the time-zone offset and the shared and search
//! tables); a `photos-*.db` of the store folder without `ServerPhotos` is noted. Not read:
//! the on-device search clusters, the app's caches and preferences, the rows only the
//! committed file holds (iLEAPP's pre-checkpoint comparison). No identities: the store names
//! accounts only by opaque actor keys.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, Schema, file_name};
use crate::calls::{column_or_null, note_pages_cap, select_columns};
use crate::drafts::unix_millis;
use crate::identity::{TreeRef, pages_on, pages_on_with};
use crate::outputs::{Table, json_cell_scalar, protobuf_cell, raw};

/// The folder of the app's stores.
const STORE: &str = "/Library/Application Support/store/";
/// The store of the device's items, shared by the accounts' libraries.
const SHARED: &str = "photos-shared.db";

const TABLES: [&str; 8] = [
    "ServerPhotos",
    "ExtendedPhotos",
    "Collections",
    "SharedCollections",
    "SharedRecipients",
    "SharedServerPhotos",
    "SharedExtendedPhotos",
    "OnDeviceRecentSearchesFullTextSearch_content",
];

/// Whether `path` is an account's Google Photos library store (`photos-<account>.db` of the
/// app's `store` folder, not the shared one).
pub fn is_library(path: &str) -> bool {
    let name = file_name(path);
    name.starts_with("photos-") && name.ends_with(".db") && name != SHARED && path.contains(STORE)
}

/// A device item of `LocalAssets`: the call that read it and its cells as printed.
struct Asset {
    inv: Invoked,
    id: Option<String>,
    views: Option<String>,
}

/// Triage of every Google Photos library store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("photos-*.db")? else {
        return Ok(());
    };
    let mut shared_read = BTreeSet::new();
    for path in paths.iter().filter(|p| is_library(p)) {
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        let shared = format!("{dir}/{SHARED}");
        let assets = if paths.contains(&shared) {
            let first = shared_read.insert(shared.clone());
            local_assets(run, &find, &shared, first)?
        } else {
            BTreeMap::new()
        };
        one(run, &find, path, &assets)?;
    }
    Ok(())
}

/// The source's one tree (for the readers shared with Android's paging).
fn root() -> TreeRef {
    TreeRef {
        partition: None,
        label: "/".into(),
    }
}

/// The value at `path` (field numbers joined by `.`) of a decoded message (each field an
/// array: the first value taken at each step).
fn at<'a>(m: &'a Value, path: &str) -> Option<&'a Value> {
    let mut node = m;
    for field in path.split('.') {
        node = node.get(field)?.get(0)?;
    }
    Some(node)
}

/// The scalar at `path` of a message as its `protobuf:` cell holds it (a string escaped).
fn cell_at(m: &Value, path: &str) -> Option<String> {
    json_cell_scalar(at(m, path))
}

/// The latitude and longitude of a `latitudeLongitudeE7` column (two signed E7 halves, the
/// latitude high, as iLEAPP unpacks them), NULL for none, 0 or a value out of range.
fn coordinates(cols: &BTreeSet<String>, p: &str) -> String {
    if !cols.contains("latitudeLongitudeE7") {
        return "NULL AS latitude, NULL AS longitude".into();
    }
    let v = format!("{p}latitudeLongitudeE7");
    let lat = format!("(({v} >> 32) / 1e7)");
    let low = format!("({v} & 4294967295)");
    let lon =
        format!("((CASE WHEN {low} >= 2147483648 THEN {low} - 4294967296 ELSE {low} END) / 1e7)");
    let ok = format!(
        "{v} IS NOT NULL AND {v} != 0 AND {lat} BETWEEN -90 AND 90 AND {lon} BETWEEN -180 AND 180"
    );
    format!("CASE WHEN {ok} THEN {lat} END AS latitude, CASE WHEN {ok} THEN {lon} END AS longitude")
}

/// The width and height of a `widthAndHeight` column (`width << 16 | height`).
fn dimensions(cols: &BTreeSet<String>, p: &str) -> String {
    if !cols.contains("widthAndHeight") {
        return "NULL AS width, NULL AS height".into();
    }
    let v = format!("{p}widthAndHeight");
    format!(
        "CASE WHEN {v} IS NOT NULL THEN ({v} >> 16) & 65535 END AS width, CASE WHEN {v} IS NOT NULL THEN {v} & 65535 END AS height"
    )
}

/// Adds the fact of each present scalar `(path, type, label)` of message `m` (as its cell
/// holds it); returns `"label value"` of each, for the interpretation.
fn proto_fields(
    d: &mut Draft,
    m: &Value,
    inv: &Invoked,
    spec: &[(&str, FactType, &str)],
) -> Vec<String> {
    let mut said = Vec::new();
    for (path, ft, label) in spec {
        if let Some(v) = cell_at(m, path) {
            d.fact(*ft, Some(&v), inv);
            said.push(format!("{label} {v}"));
        }
    }
    said
}

/// Adds each Unix-millisecond time `(path, description)` of message `m`.
fn proto_times(d: &mut Draft, m: &Value, inv: &Invoked, spec: &[(&str, &str)]) {
    for (path, what) in spec {
        let v = cell_at(m, path);
        d.time(v.as_deref(), unix_millis(v.as_deref()), what, inv);
    }
}

/// The decoded message of a cell, `Null` when the cell holds none.
fn message(t: &Table, row: &[Option<String>], col: &str) -> Value {
    t.get(row, col)
        .and_then(protobuf_cell)
        .unwrap_or(Value::Null)
}

fn local_assets(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    record: bool,
) -> Result<BTreeMap<String, Asset>, RuntimeError> {
    let mut assets = BTreeMap::new();
    let Some(schema) = run.schema(path, &["LocalAssets"])? else {
        return Ok(assets);
    };
    if !schema.require(run, "LocalAssets", &["localDedupKey", "assetID"])? {
        return Ok(assets);
    }
    let c = schema.columns("LocalAssets");
    let sql = format!(
        "SELECT a.localDedupKey AS dedup_key, a.assetID AS asset_id, {} FROM LocalAssets a ORDER BY a.localDedupKey",
        select_columns(
            &c,
            "a.",
            &[
                ("viewCount", "views"),
                ("shareCount", "shares"),
                ("caption", "caption"),
                ("localDedupKeyTimeMs", "key_time"),
            ],
        ),
    );
    let Some(pages) = pages_on(run.ctx, &root(), path, &sql)? else {
        return Ok(assets);
    };
    for (inv, t, row) in pages.rows() {
        let Some(key) = t.get(row, "dedup_key") else {
            continue;
        };
        let id = raw(t, row, "asset_id");
        assets.insert(
            key.to_string(),
            Asset {
                inv: inv.clone(),
                id: id.clone(),
                views: raw(t, row, "views"),
            },
        );
        if !record {
            continue;
        }
        let mut d = Draft::new(
            "media",
            format!("Google Photos device item {}", id.as_deref().unwrap_or(key)),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("asset_id", FactType::Identifier, "asset identifier"),
                ("dedup_key", FactType::Identifier, "dedup key"),
                ("views", FactType::Count, "view count"),
                ("shares", FactType::Count, "share count"),
                ("caption", FactType::Text, "caption"),
            ],
        );
        let kt = t.get(row, "key_time");
        d.time(
            kt,
            unix_millis(kt),
            "Google Photos device item time (localDedupKeyTimeMs)",
            inv,
        );
        d.interpretation = format!(
            "LocalAssets row of {path}: a photo or video of the device's own library that Google Photos indexed, by its iOS local identifier ({}); counts as stored.",
            said.join("; ")
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &pages, "Google Photos device items")?;
    Ok(assets)
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    assets: &BTreeMap<String, Asset>,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &TABLES)? else {
        return Ok(());
    };
    if !schema.require(run, "ServerPhotos", &["mediaKey", "timestampMs"])? {
        return Ok(());
    }
    items(run, find, path, &schema, assets)?;
    if schema.columns("Collections").contains("mcCollection") {
        albums(run, find, path)?;
    }
    let titles = if schema
        .columns("SharedCollections")
        .contains("envelopeMediaKey")
    {
        shared_albums(run, find, path, &schema)?
    } else {
        BTreeMap::new()
    };
    let sp = schema.columns("SharedServerPhotos");
    if sp.contains("mediaKey") && sp.contains("envelopeMediaKey") {
        shared_items(run, find, path, &schema, &titles)?;
    }
    let fts = schema.columns("OnDeviceRecentSearchesFullTextSearch_content");
    if fts.contains("c0label") {
        searches(run, find, path, &fts)?;
    }
    Ok(())
}

fn items(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    assets: &BTreeMap<String, Asset>,
) -> Result<(), RuntimeError> {
    let c = schema.columns("ServerPhotos");
    let tz = if c.contains("timeZoneOffsetHoursTimes4") {
        "S.timeZoneOffsetHoursTimes4 * 15 AS tz_minutes"
    } else {
        "NULL AS tz_minutes"
    };
    let e = schema.columns("ExtendedPhotos");
    let (item, join) = if e.contains("mediaKey") && e.contains("mcMediaItem") {
        (
            "E.mcMediaItem AS item",
            " LEFT JOIN ExtendedPhotos E ON E.mediaKey = S.mediaKey",
        )
    } else {
        ("NULL AS item", "")
    };
    let sql = format!(
        "SELECT S.mediaKey AS media_key, S.timestampMs AS taken, {}, {tz}, {}, {}, {}, {item} FROM ServerPhotos S{join} ORDER BY S.timestampMs, S.mediaKey",
        column_or_null(&c, "S.", "clientCreationTimestampMs", "client_created"),
        coordinates(&c, "S."),
        dimensions(&c, "S."),
        select_columns(
            &c,
            "S.",
            &[
                ("size", "size"),
                ("videoDurationMs", "video_ms"),
                ("localDedupKey", "dedup_key"),
                ("collectionMediaKey", "album_key"),
                ("storagePolicy", "storage_policy"),
                ("flags", "flags"),
                ("contentVersion", "content_version"),
            ],
        ),
    );
    let Some(pages) = pages_on_with(run.ctx, &root(), path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let m = message(t, row, "item");
        let name = at(&m, "2.4").and_then(Value::as_str);
        let key = t.get(row, "media_key").unwrap_or("?");
        let mut d = Draft::new(
            "media",
            format!("Google Photos item {}", name.unwrap_or(key)),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("media_key", FactType::Identifier, "media key"),
                ("tz_minutes", FactType::Text, "time-zone offset (minutes)"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("width", FactType::Count, "width"),
                ("height", FactType::Count, "height"),
                ("size", FactType::Count, "size (bytes)"),
                ("video_ms", FactType::Count, "video duration (ms)"),
                ("dedup_key", FactType::Identifier, "local dedup key"),
                ("album_key", FactType::Identifier, "album key"),
                ("storage_policy", FactType::Text, "storage policy"),
                ("flags", FactType::Text, "flags"),
                ("content_version", FactType::Text, "content version"),
            ],
        );
        said.extend(proto_fields(
            &mut d,
            &m,
            inv,
            &[
                ("2.4", FactType::Name, "file name"),
                ("5.2.1.9.5.1", FactType::Text, "camera make"),
                ("5.2.1.9.5.2", FactType::Text, "camera model"),
            ],
        ));
        if let Some(a) = t.get(row, "dedup_key").and_then(|k| assets.get(k)) {
            if let Some(id) = &a.id {
                d.fact(FactType::Identifier, Some(id), &a.inv);
                said.push(format!("device asset {id}"));
            }
            if let Some(v) = &a.views {
                d.fact(FactType::Count, Some(v), &a.inv);
                said.push(format!("viewed {v} times"));
            }
        }
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("taken", "Google Photos item taken"),
                ("client_created", "Google Photos item created on the client"),
            ],
        );
        d.interpretation = format!(
            "ServerPhotos row of {path}: a photo or video of the Google Photos library of the account ({}); the file name and camera are read from ExtendedPhotos' compressed message, the position unpacked from latitudeLongitudeE7 (where the item was taken, not necessarily where the device was), the device asset from photos-shared.db's LocalAssets; times are Unix milliseconds.",
            said.join("; ")
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &pages, "Google Photos library items")
}

fn albums(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let sql = "SELECT C.mediaKey AS media_key, C.mcCollection AS collection FROM Collections C ORDER BY C.mediaKey";
    let Some(pages) = pages_on_with(run.ctx, &root(), path, sql, &["protobuf"])? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let m = message(t, row, "collection");
        let title = at(&m, "2.5").and_then(Value::as_str);
        let mut d = Draft::new(
            "media",
            format!(
                "Google Photos album {}",
                title.unwrap_or(t.get(row, "media_key").unwrap_or("?"))
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[("media_key", FactType::Identifier, "album key")],
        );
        said.extend(proto_fields(
            &mut d,
            &m,
            inv,
            &[
                ("2.5", FactType::Name, "title"),
                ("2.7", FactType::Count, "items"),
                ("2.3.1", FactType::Identifier, "owner's actor key"),
                ("2.15", FactType::Url, "cover"),
            ],
        ));
        proto_times(
            &mut d,
            &m,
            inv,
            &[
                ("2.10.1", "Google Photos album's earliest item"),
                ("2.10.2", "Google Photos album's latest item"),
                ("2.10.10", "Google Photos album last modified"),
            ],
        );
        d.interpretation = format!(
            "Collections row of {path}: an album of the Google Photos library ({}); its fields are read from the mcCollection message; times are Unix milliseconds.",
            said.join("; ")
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &pages, "Google Photos albums")
}

/// Each shared album; returns each album's title (as its cell holds it, and as text) with the
/// call that read it, by album key.
fn shared_albums(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<BTreeMap<String, (Invoked, String, String)>, RuntimeError> {
    let mut titles = BTreeMap::new();
    let c = schema.columns("SharedCollections");
    let r = schema.columns("SharedRecipients");
    let recipients = if r.contains("envelopeMediaKey") {
        let invites = if r.contains("inviteTimeMs") {
            "(SELECT min(R.inviteTimeMs) FROM SharedRecipients R WHERE R.envelopeMediaKey = C.envelopeMediaKey) AS first_invite, (SELECT max(R.inviteTimeMs) FROM SharedRecipients R WHERE R.envelopeMediaKey = C.envelopeMediaKey) AS last_invite"
        } else {
            "NULL AS first_invite, NULL AS last_invite"
        };
        format!(
            "(SELECT count(*) FROM SharedRecipients R WHERE R.envelopeMediaKey = C.envelopeMediaKey) AS recipients, {invites}"
        )
    } else {
        "NULL AS recipients, NULL AS first_invite, NULL AS last_invite".into()
    };
    let sql = format!(
        "SELECT C.envelopeMediaKey AS media_key, {}, {recipients}, {} FROM SharedCollections C ORDER BY C.envelopeMediaKey",
        select_columns(
            &c,
            "C.",
            &[
                ("ownerMediaKey", "owner"),
                ("coverItemMediaKey", "cover_item"),
                ("lastActivityTimeMs", "last_activity"),
                ("sortTimeMs", "sort_time"),
                ("lastViewTimeMs", "last_view"),
                ("pinState", "pin_state"),
                ("isJoined", "joined"),
                ("isLive", "live"),
                ("suggestedAddViewStatus", "suggested_add"),
            ],
        ),
        column_or_null(&c, "C.", "mcCollection", "collection"),
    );
    let Some(pages) = pages_on_with(run.ctx, &root(), path, &sql, &["protobuf"])? else {
        return Ok(titles);
    };
    for (inv, t, row) in pages.rows() {
        let m = message(t, row, "collection");
        let key = t.get(row, "media_key").unwrap_or("?");
        let title = at(&m, "2.5").and_then(Value::as_str);
        if let (Some(cited), Some(text)) = (cell_at(&m, "2.5"), title) {
            titles.insert(key.to_string(), (inv.clone(), cited, text.to_string()));
        }
        let mut d = Draft::new(
            "media",
            format!("Google Photos shared album {}", title.unwrap_or(key)),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("media_key", FactType::Identifier, "album key"),
                ("owner", FactType::Identifier, "owner's actor key"),
                ("cover_item", FactType::Identifier, "cover item"),
                ("recipients", FactType::Count, "recipients"),
                ("pin_state", FactType::Text, "pin state"),
                ("joined", FactType::Text, "joined"),
                ("live", FactType::Text, "live"),
                ("suggested_add", FactType::Text, "suggested-add status"),
            ],
        );
        said.extend(proto_fields(
            &mut d,
            &m,
            inv,
            &[
                ("2.5", FactType::Name, "title"),
                ("2.18.1", FactType::Url, "share link"),
            ],
        ));
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("last_activity", "Google Photos shared album last activity"),
                ("sort_time", "Google Photos shared album sort time"),
                ("last_view", "Google Photos shared album last viewed"),
                (
                    "first_invite",
                    "Google Photos shared album first invitation",
                ),
                ("last_invite", "Google Photos shared album last invitation"),
            ],
        );
        d.interpretation = format!(
            "SharedCollections row of {path}: a shared album the Google Photos account owns or joined ({}); the title and share link are read from the compressed mcCollection message, the recipients counted in SharedRecipients; states as stored; times are Unix milliseconds.",
            said.join("; ")
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &pages, "Google Photos shared albums")?;
    Ok(titles)
}

fn shared_items(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    titles: &BTreeMap<String, (Invoked, String, String)>,
) -> Result<(), RuntimeError> {
    let c = schema.columns("SharedServerPhotos");
    let e = schema.columns("SharedExtendedPhotos");
    let (item, join) = if e.contains("mediaKey") && e.contains("mcMediaItem") {
        (
            "E.mcMediaItem AS item",
            " LEFT JOIN SharedExtendedPhotos E ON E.mediaKey = P.mediaKey",
        )
    } else {
        ("NULL AS item", "")
    };
    let sql = format!(
        "SELECT P.mediaKey AS media_key, P.envelopeMediaKey AS album_key, {}, {}, {}, {item} FROM SharedServerPhotos P{join} ORDER BY P.envelopeMediaKey, P.mediaKey",
        select_columns(
            &c,
            "P.",
            &[
                ("actorMediaKey", "actor"),
                ("timestampMs", "taken"),
                ("creationTimestampMs", "added"),
                ("size", "size"),
                ("videoDurationMs", "video_ms"),
                ("allowedActions", "allowed_actions"),
            ],
        ),
        coordinates(&c, "P."),
        dimensions(&c, "P."),
    );
    let Some(pages) = pages_on_with(run.ctx, &root(), path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let m = message(t, row, "item");
        let name = at(&m, "2.4").and_then(Value::as_str);
        let key = t.get(row, "media_key").unwrap_or("?");
        let album_key = t.get(row, "album_key").unwrap_or("?");
        let album = titles.get(album_key);
        let album_title = album.map_or(album_key, |(_, _, text)| text.as_str());
        let mut d = Draft::new(
            "media",
            format!(
                "Google Photos shared album item {} in {album_title}",
                name.unwrap_or(key)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("media_key", FactType::Identifier, "media key"),
                ("album_key", FactType::Identifier, "album key"),
                ("actor", FactType::Identifier, "contributor's actor key"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("width", FactType::Count, "width"),
                ("height", FactType::Count, "height"),
                ("size", FactType::Count, "size (bytes)"),
                ("video_ms", FactType::Count, "video duration (ms)"),
                ("allowed_actions", FactType::Text, "allowed actions"),
            ],
        );
        said.extend(proto_fields(
            &mut d,
            &m,
            inv,
            &[("2.4", FactType::Name, "file name")],
        ));
        if let Some((ainv, cited, _)) = album {
            d.fact(FactType::Name, Some(cited), ainv);
            said.push(format!("album {cited}"));
        }
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("taken", "Google Photos shared item taken"),
                ("added", "Google Photos shared item added to the album"),
            ],
        );
        d.interpretation = format!(
            "SharedServerPhotos row of {path}: an item of a shared album, credited to the contributor's actor key ({}); the file name is read from SharedExtendedPhotos' compressed message, the position unpacked from latitudeLongitudeE7; times are Unix milliseconds.",
            said.join("; ")
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &pages, "Google Photos shared-album items")
}

fn searches(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    c: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let length = |col: &str, alias: &str| {
        if c.contains(col) {
            format!("length(s.{col}) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT s.c0label AS label, {}, {}, {} FROM OnDeviceRecentSearchesFullTextSearch_content s ORDER BY s.rowid",
        column_or_null(c, "s.", "c3rankingScore", "score"),
        length("c1searchEntryBlob", "entry_bytes"),
        length("c2localDedupKeysBlob", "keys_bytes"),
    );
    let Some(pages) = pages_on(run.ctx, &root(), path, &sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let Some(label) = t.get(row, "label") else {
            continue;
        };
        let mut d = Draft::new("media", format!("Google Photos recent search {label}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("label", FactType::Text, "searched"),
                ("score", FactType::Text, "ranking score"),
                ("entry_bytes", FactType::Count, "search entry (bytes)"),
                ("keys_bytes", FactType::Count, "result keys (bytes)"),
            ],
        );
        d.interpretation = format!(
            "OnDeviceRecentSearchesFullTextSearch_content row of {path}: a recent search of the Google Photos app ({}); the store does not say whether the user typed it or the app suggested it; the entry and its result keys are not decoded.",
            said.join("; ")
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &pages, "Google Photos recent searches")
}

#[cfg(test)]
mod tests {
    use super::is_library;

    #[test]
    fn library_stores_by_name_and_folder() {
        let dir =
            "/private/var/mobile/Containers/Data/Application/X/Library/Application Support/store/";
        assert!(is_library(&format!("{dir}photos-a1b2.db")));
        assert!(!is_library(&format!("{dir}photos-shared.db")));
        assert!(!is_library("/private/var/mobile/Documents/photos-a1b2.db"));
    }
}
