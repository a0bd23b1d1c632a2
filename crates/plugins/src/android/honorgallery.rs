//! Honor's media library (`com.hihonor.medialibrary/databases/gallery.db`), ALEAPP's
//! `honorMediaLibrary`: the pictures and videos the Honor Gallery indexed — where each file is,
//! when it was added, changed and taken, where it was taken, and whether it sits in the Gallery's
//! recycle bin with the path it was deleted from.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `gallery_media` | one `media` per item ("Honor Gallery <display name or path>", "… (recycled)" when in the recycle bin) | path, display name, title, MIME type, size, id, latitude and longitude (none when both are 0), the time zone from `expand` (JSON), album (bucket) name, duration (none when 0), resolution, hash as stored, recycle flag as stored and "in the recycle bin (recycleFlag n)" when it is not 0, the original path and file name; added, modified, taken, recycled |
//!
//! Times are Unix seconds (`date_added`, `date_modified`) or milliseconds (`datetaken`,
//! `recycledTime`), each read by its size as ALEAPP reads them; a recycled time of 0 is none.
//! Every non-zero `recycleFlag` is reported as in the recycle bin, as ALEAPP reports it; what the
//! individual non-zero values mean is not established, so the flag is kept as stored beside it.
//! The `hash` column's algorithm is not recorded in the store and not established: reported as
//! stored. A position of latitude 0 and longitude 0 is the media store's "none" and is left out;
//! any other is reported as stored (where the file says it was taken, not where the phone was
//! when it was indexed). The time zone is read from the `expand` JSON by SQLite's JSON functions
//! (`json_valid` guarding: a cut document yields no zone and the row is still read). `gallery.db`
//! is a generic name: only the file in the media library's own folder is read. Columns are taken
//! by name (absent ones NULL: older releases have no `expand`, `hash` or recycle columns); a store
//! without `gallery_media`, or a table without `_data`, is noted. Paged: a large library is read
//! in pages, a read stopped at the row cap noted. Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{Tables, column_expr, column_or_null, json_at};
use crate::drafts::{RowPhenomena, no_identity, unix_by_magnitude};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::{Table, raw};

/// Whether `path` is the media library's `gallery.db`.
pub fn is_store_path(path: &str) -> bool {
    path.ends_with("/com.hihonor.medialibrary/databases/gallery.db")
}

/// Whether `l` is the media library's `gallery.db`.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// The columns read as they are, absent ones as NULL: `(column, alias)`.
const PLAIN: &[(&str, &str)] = &[
    ("_id", "id"),
    ("title", "title"),
    ("_display_name", "display_name"),
    ("mime_type", "mime_type"),
    ("_size", "size"),
    ("bucket_display_name", "album"),
    ("resolution", "resolution"),
    ("hash", "hash"),
    ("recycleFlag", "recycle_flag"),
    ("sourcePath", "source_path"),
    ("sourceFileName", "source_name"),
    ("date_added", "added"),
    ("date_modified", "modified"),
    ("datetaken", "taken"),
];

/// One `gallery.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Honor's media library gallery.db",
        &schema,
        "gallery_media",
        &["_data"],
    )?
    else {
        return Ok(());
    };
    let c = |col: &str| column_expr(cols, "", col);
    let (lat, lon, flag) = (c("latitude"), c("longitude"), c("recycleFlag"));
    let zone = if cols.contains("expand") {
        format!("{} AS time_zone", json_at("expand", "$.time_zone"))
    } else {
        "NULL AS time_zone".to_string()
    };
    let sql = format!(
        "SELECT rowid AS rid, _data AS path, {}, CASE WHEN {lat} = 0 AND {lon} = 0 THEN NULL ELSE {lat} END AS latitude, CASE WHEN {lat} = 0 AND {lon} = 0 THEN NULL ELSE {lon} END AS longitude, {zone}, NULLIF({}, 0) AS duration, CASE WHEN {flag} IS NOT NULL AND {flag} != 0 THEN 'in the recycle bin (recycleFlag ' || {flag} || ')' END AS recycled, NULLIF({}, 0) AS recycled_time FROM gallery_media ORDER BY rowid",
        PLAIN
            .iter()
            .map(|(col, alias)| column_or_null(cols, "", col, alias))
            .collect::<Vec<_>>()
            .join(", "),
        c("duration"),
        c("recycledTime"),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        let shown = raw(t, row, "display_name")
            .or_else(|| raw(t, row, "path"))
            .unwrap_or_else(|| t.get(row, "rid").unwrap_or("?").to_string());
        if t.get(row, "recycled").is_some() {
            format!("Honor Gallery {shown} (recycled)")
        } else {
            format!("Honor Gallery {shown}")
        }
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "gallery_media",
            category: "media",
            what: "a picture or video Honor's Gallery indexed (position as stored in the file's record, none when 0,0; hash as stored, its algorithm not established; every non-zero recycleFlag read as in the recycle bin, its values' meanings not established; added and modified Unix seconds, taken and recycled Unix milliseconds, each read by its size)",
            title: &title,
            fields: &[
                ("path", FactType::Path, "path"),
                ("display_name", FactType::Name, "display name"),
                ("title", FactType::Text, "title"),
                ("mime_type", FactType::Text, "MIME type"),
                ("size", FactType::Count, "size"),
                ("id", FactType::Identifier, "id"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("time_zone", FactType::Text, "time zone"),
                ("album", FactType::Name, "album"),
                ("duration", FactType::Count, "duration"),
                ("resolution", FactType::Text, "resolution"),
                ("hash", FactType::Hash, "hash as stored"),
                ("recycle_flag", FactType::Text, "recycle flag"),
                ("recycled", FactType::Text, "state"),
                ("source_path", FactType::Path, "deleted from"),
                ("source_name", FactType::Name, "original name"),
            ],
            times: &[
                ("added", "Honor Gallery item added", unix_by_magnitude),
                ("modified", "Honor Gallery item modified", unix_by_magnitude),
                ("taken", "Honor Gallery item taken", unix_by_magnitude),
                (
                    "recycled_time",
                    "Honor Gallery item moved to the recycle bin",
                    unix_by_magnitude,
                ),
            ],
        },
        &mut no_identity,
    )
}
