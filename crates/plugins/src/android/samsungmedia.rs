//! Samsung's media provider (`com.samsung.android.providers.media/databases/media.db`), ALEAPP's
//! `samsungMediaProvider` (`samsungMediaFiles`, `samsungMediaLocations`): every file Samsung's
//! own media provider indexed — photos, videos, recordings, downloads, documents — with where it
//! is, which app owns it, where a picture was taken, the page and app a screenshot was captured
//! from, and whether it is hidden, in the trash or deleted; and the places the provider
//! resolved from coordinates. (AOSP's media store `external.db` is read by
//! [`super::system::media_store`]; this is Samsung's separate store.)
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `media.db`: `files` (`media_type` 1, 2, 3, or an image, audio or video MIME type) | one `media` per picture, recording or video ("Samsung media store <image/audio/video> <name>") | media id, path, name, title, kind (from `media_type`, else the MIME type), media type code, MIME type, size, width, height, duration (ms), orientation, bucket, relative path, volume, owning app, latitude and longitude (0/0 is no position: NULL), Samsung's packed address (`addr`, its parts separated by vertical bars), captured from URL and app (`captured_url`, `captured_app`), download and referrer URLs, downloaded, favourite, hidden (`is_hide`), in the trash, deleted, pending as stored; taken (`datetaken`), added, modified, expires (`date_expires`) |
//! | `files` (every other row: documents, downloads, folders) | one `files` per row ("Samsung media store file <name>") | the same |
//! | `location` | one `locations` per place ("Samsung media store place <address or locality>") | latitude, longitude (0/0: NULL), address text, country and its code, admin and sub-admin area, locality, sub-locality, street name and number, postal code, locale |
//!
//! Times: `datetaken` is Unix milliseconds, `date_added`, `date_modified` and `date_expires`
//! Unix seconds; each is read by its size (from 10¹² milliseconds, else seconds), as ALEAPP's
//! converter reads them. The kind is computed in the query from `media_type` (0 none, 1 image,
//! 2 audio, 3 video, 4 playlist, 5 subtitle, 6 document) or, in a table without it, from the
//! MIME type. `captured_url` and `captured_app` are the page and app a captured file (a
//! screenshot) came from, as Samsung stored them; a row in the trash (`is_trashed`, or a path
//! under `.Trash`) is restorable until `date_expires`; `deleted` and `is_hide` are Samsung's
//! flags as stored. The `location` rows are the provider's reverse geocoding of coordinates its
//! files hold: where a picture was taken, not a visit by itself.
//!
//! Schema drift: columns are taken by name (absent ones NULL) — Android 10's store has none of
//! Samsung's columns (`addr`, `captured_*`, `is_hide`, `deleted`) nor the download columns, and
//! a `location` table with fewer columns; a `files` table without `_data`, or a `location`
//! table without `latitude` and `longitude`, is noted, and so is a `media.db` with neither
//! table. Only `media.db` in the provider's own folder is read: other apps name stores
//! `media.db` too. Not read: the `_hash` and `xmp` blobs, the audio tables, thumbnails.
//! Secrets: none kept. Identities: none (an owning app is a package, not a person).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_expr, column_or_null, require_columns};
use crate::drafts::{Encoding, RowPhenomena, unix_by_magnitude};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::raw;

/// The provider's folder.
const DIR: &str = "/com.samsung.android.providers.media/databases/";

/// Whether `path` is Samsung's media provider store.
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/media.db") && path.contains(DIR)
}

/// Whether `l` is Samsung's media provider store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "media.db" && l.path.contains(DIR)
}

/// `(column, type, label)` of a `files` row; `kind`, `latitude` and `longitude` are computed in
/// the query, the other columns taken by name (absent ones NULL).
const FILE_FIELDS: &[(&str, FactType, &str)] = &[
    ("_id", FactType::Identifier, "media id"),
    ("_data", FactType::Path, "path"),
    ("_display_name", FactType::Name, "name"),
    ("title", FactType::Text, "title"),
    ("kind", FactType::Text, "kind"),
    ("media_type", FactType::Text, "media type code"),
    ("mime_type", FactType::Text, "MIME type"),
    ("_size", FactType::Count, "size (bytes)"),
    ("width", FactType::Count, "width"),
    ("height", FactType::Count, "height"),
    ("duration", FactType::Count, "duration (ms)"),
    ("orientation", FactType::Text, "orientation"),
    ("bucket_display_name", FactType::Name, "bucket"),
    ("relative_path", FactType::Path, "relative path"),
    ("volume_name", FactType::Text, "volume"),
    (
        "owner_package_name",
        FactType::Identifier,
        "owned by the app",
    ),
    ("latitude", FactType::Text, "latitude"),
    ("longitude", FactType::Text, "longitude"),
    ("addr", FactType::Text, "address (packed)"),
    ("captured_url", FactType::Url, "captured from the page"),
    (
        "captured_app",
        FactType::Identifier,
        "captured from the app",
    ),
    ("download_uri", FactType::Url, "downloaded from"),
    ("referer_uri", FactType::Url, "download referrer"),
    ("is_download", FactType::Text, "downloaded"),
    ("is_favorite", FactType::Text, "favourite"),
    ("is_hide", FactType::Text, "hidden"),
    ("is_trashed", FactType::Text, "in the trash"),
    ("deleted", FactType::Text, "deleted"),
    ("is_pending", FactType::Text, "pending"),
];

/// The columns of [`FILE_FIELDS`] computed in the query rather than taken by name.
const COMPUTED: &[&str] = &["kind", "latitude", "longitude"];

/// `(column, description, encoding)` of a `files` row's times.
const FILE_TIMES: &[(&str, &str, Encoding)] = &[
    (
        "datetaken",
        "Samsung media store item taken",
        unix_by_magnitude,
    ),
    (
        "date_added",
        "Samsung media store item added",
        unix_by_magnitude,
    ),
    (
        "date_modified",
        "Samsung media store file modified",
        unix_by_magnitude,
    ),
    (
        "date_expires",
        "Samsung media store item expires (trash or pending)",
        unix_by_magnitude,
    ),
];

/// `(column, type, label)` of a `location` row; `latitude` and `longitude` computed (0/0 NULL).
const PLACE_FIELDS: &[(&str, FactType, &str)] = &[
    ("latitude", FactType::Text, "latitude"),
    ("longitude", FactType::Text, "longitude"),
    ("address_text", FactType::Text, "address"),
    ("country_name", FactType::Text, "country"),
    ("country_code", FactType::Text, "country code"),
    ("admin_area", FactType::Text, "admin area"),
    ("sub_admin_area", FactType::Text, "sub-admin area"),
    ("locality", FactType::Text, "locality"),
    ("sub_locality", FactType::Text, "sub-locality"),
    ("street_name", FactType::Text, "street"),
    ("street_number", FactType::Text, "street number"),
    ("postal_code", FactType::Text, "postal code"),
    ("locale", FactType::Text, "locale"),
];

/// `latitude` and `longitude` of a table with columns `cols`, NULL both when the position is
/// 0/0 (no position) or a column is missing.
fn position(cols: &std::collections::BTreeSet<String>) -> String {
    let (lat, lon) = (
        column_expr(cols, "", "latitude"),
        column_expr(cols, "", "longitude"),
    );
    format!(
        "CASE WHEN {lat} = 0 AND {lon} = 0 THEN NULL ELSE {lat} END AS latitude, CASE WHEN {lat} = 0 AND {lon} = 0 THEN NULL ELSE {lon} END AS longitude"
    )
}

/// The kind of a `files` row (from `media_type`, else from the MIME type) and whether the row is
/// a picture, recording or video, as SQL expressions over the table's columns `cols`.
fn kind(cols: &std::collections::BTreeSet<String>) -> (String, String) {
    if cols.contains("media_type") {
        (
            "CASE media_type WHEN 1 THEN 'image' WHEN 2 THEN 'audio' WHEN 3 THEN 'video' WHEN 4 THEN 'playlist' WHEN 5 THEN 'subtitle' WHEN 6 THEN 'document' END AS kind".to_string(),
            "coalesce(media_type, 0) IN (1, 2, 3)".to_string(),
        )
    } else if cols.contains("mime_type") {
        (
            "CASE WHEN mime_type GLOB 'image/*' THEN 'image' WHEN mime_type GLOB 'audio/*' THEN 'audio' WHEN mime_type GLOB 'video/*' THEN 'video' END AS kind".to_string(),
            "(coalesce(mime_type, '') GLOB 'image/*' OR coalesce(mime_type, '') GLOB 'audio/*' OR coalesce(mime_type, '') GLOB 'video/*')".to_string(),
        )
    } else {
        ("NULL AS kind".to_string(), "0".to_string())
    }
}

/// The `files` query: the rows where `media` is `true` (pictures, recordings, videos) or
/// `false` (every other row).
pub(crate) fn files_sql(cols: &std::collections::BTreeSet<String>, media: bool) -> String {
    let (kind, is_media) = kind(cols);
    let mut select = vec!["rowid AS rid".to_string()];
    select.extend(
        FILE_FIELDS
            .iter()
            .map(|f| f.0)
            .chain(FILE_TIMES.iter().map(|t| t.0))
            .filter(|c| !COMPUTED.contains(c))
            .map(|c| column_or_null(cols, "", c, c)),
    );
    select.push(kind);
    select.push(position(cols));
    let filter = if media {
        is_media
    } else {
        format!("NOT {is_media}")
    };
    format!(
        "SELECT {} FROM files WHERE {filter} ORDER BY rowid",
        select.join(", ")
    )
}

/// The `location` query.
pub(crate) fn places_sql(cols: &std::collections::BTreeSet<String>) -> String {
    let mut select = vec!["rowid AS rid".to_string(), position(cols)];
    select.extend(
        PLACE_FIELDS
            .iter()
            .map(|f| f.0)
            .filter(|c| !COMPUTED.contains(c))
            .map(|c| column_or_null(cols, "", c, c)),
    );
    format!("SELECT {} FROM location ORDER BY rowid", select.join(", "))
}

/// The name a `files` row is shown by: its display name, else its path's last part, else its
/// row id.
fn shown(t: &crate::outputs::Table, row: &[Option<String>]) -> String {
    raw(t, row, "_display_name")
        .or_else(|| raw(t, row, "_data").map(|p| p.rsplit('/').next().unwrap_or(&p).to_string()))
        .unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string())
}

/// One Samsung `media.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let what = "Samsung's media provider store media.db";
    if !schema.contains_key("files") && !schema.contains_key("location") {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {what} because it has neither a files nor a location table (another layout)"
            ),
            None,
        )?;
        return Ok(());
    }
    if let Some(cols) = schema.get("files")
        && require_columns(ctx, &name, what, "files", cols, &["_data"])?
    {
        super::record_query(
            ctx,
            l,
            &files_sql(cols, true),
            &RowPhenomena {
                table: "files",
                category: "media",
                what: "a picture, recording or video Samsung's media provider indexed (kind from media_type or the MIME type; 0/0 is no position; addr is Samsung's packed address; captured_url and captured_app the page and app a screenshot was taken of; flags as stored; times read by their size: datetaken Unix ms, the others Unix s)",
                title: &|t, row| {
                    format!(
                        "Samsung media store {} {}",
                        t.get(row, "kind").unwrap_or("item"),
                        shown(t, row)
                    )
                },
                fields: FILE_FIELDS,
                times: FILE_TIMES,
            },
            &mut |_, _, _| Ok(()),
        )?;
        super::record_query(
            ctx,
            l,
            &files_sql(cols, false),
            &RowPhenomena {
                table: "files",
                category: "files",
                what: "a file or folder Samsung's media provider indexed that is no picture, recording or video (a document, a download: download_uri and referer_uri where it came from; flags as stored; times read by their size, Unix s)",
                title: &|t, row| format!("Samsung media store file {}", shown(t, row)),
                fields: FILE_FIELDS,
                times: FILE_TIMES,
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    if let Some(cols) = schema.get("location")
        && require_columns(
            ctx,
            &name,
            what,
            "location",
            cols,
            &["latitude", "longitude"],
        )?
    {
        super::record_query(
            ctx,
            l,
            &places_sql(cols),
            &RowPhenomena {
                table: "location",
                category: "locations",
                what: "a place Samsung's media provider resolved from the coordinates its files hold (where a picture or video was taken, reverse-geocoded; 0/0 is no position)",
                title: &|t, row| {
                    let place = raw(t, row, "address_text")
                        .or_else(|| raw(t, row, "locality"))
                        .or_else(|| {
                            t.get(row, "latitude")
                                .zip(t.get(row, "longitude"))
                                .map(|(a, b)| format!("{a}, {b}"))
                        })
                        .unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string());
                    format!("Samsung media store place {place}")
                },
                fields: PLACE_FIELDS,
                times: &[],
            },
            &mut |_, _, _| Ok(()),
        )?;
    }
    Ok(())
}
