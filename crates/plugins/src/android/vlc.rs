//! VLC for Android (`org.videolan.vlc`): its media library `app_db/vlc_media.db` (VideoLAN's
//! medialibrary) and the thumbnails it cached in `files/medialib/`, ALEAPP's `vlcMedia`
//! (`get_vlcMedia`) and `vlcThumbs` (`get_vlcThumbs`, `get_vlcThumbs_data`).
//!
//! | source | phenomenon | fields |
//! |---|---|---|
//! | `Media` (with `File`, `Folder`, `Metadata`) | one `media` per library entry ("VLC media <file name>") | media id, title, file name, type (0 unknown, 1 video, 2 audio, named in the query) and its code, duration (ms), last position as a fraction of the duration and in ms (`last_position`, `last_time`; `progress` of models 27–29; the `Metadata` type 50 value of older models, as stored), times played, favourite, present, the main file's MRL and size (`File`, type 1 first), the folder (`Folder.path`); last played, last accessed (`real_last_played_date`, models before 33), added to the library (Unix s) |
//! | `files/medialib/**.jpg`, `.png` | one `media` per cached thumbnail ("VLC thumbnail <name>") | path, size; written (the listing's modified time) |
//!
//! The library lists every audio and video file VLC indexed on the device, played or not: the
//! times played, last position and last played date say a file was opened in VLC, the rest only
//! that it was on the device when VLC scanned it. medialibrary writes -1 for "no position" and
//! "no duration"; the query turns those into NULL. A position is kept only while a file is
//! part-way through (played to the end, it is reset). Columns are taken by name across the
//! medialibrary's models (absent ones read as NULL); a store without `Media` or its `id_media`
//! column is noted. A thumbnail's name is the library's own id and is not matched to an entry;
//! thumbnails kept on shared storage (`Android/data/org.videolan.vlc/`) are not listed. No
//! identity is observed.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};
use serde_json::json;

use super::{Located, Schema};
use crate::calls::{column_expr, column_or_null, require_columns, table_any_case};
use crate::drafts::{Draft, RowPhenomena, record_draft, title_of, unix_seconds};
use crate::identity::{args_on, artefact_name, schema_on};

/// Whether `l` is a VLC media library.
pub fn is_store(l: &Located) -> bool {
    l.name() == "vlc_media.db"
}

/// `m.<col>` as `<col>` when it holds a value (medialibrary writes -1 for none), else NULL.
fn non_negative(cols: &BTreeSet<String>, col: &str) -> String {
    if cols.contains(col) {
        format!("CASE WHEN m.{col} >= 0 THEN m.{col} END AS {col}")
    } else {
        format!("NULL AS {col}")
    }
}

/// Whether `table` of `schema` has every one of `cols`.
fn has(schema: &Schema, table: &str, cols: &[&str]) -> bool {
    schema
        .get(table)
        .is_some_and(|c| cols.iter().all(|x| c.contains(*x)))
}

/// The query of the `Media` table `table` (columns `cols`), one row per entry.
fn media_sql(schema: &Schema, table: &str, cols: &BTreeSet<String>) -> String {
    let m = |c: &str| column_or_null(cols, "m.", c, c);
    let folder = if cols.contains("folder_id") && has(schema, "Folder", &["id_folder", "path"]) {
        "(SELECT f.path FROM Folder f WHERE f.id_folder = m.folder_id) AS folder".to_string()
    } else {
        "NULL AS folder".to_string()
    };
    // the media's main file (type 1) first, else its first file
    let file = |expr: &str, alias: &str| match schema.get("File") {
        Some(f) if f.contains("media_id") && f.contains(expr) => format!(
            "(SELECT x.{expr} FROM File x WHERE x.media_id = m.id_media ORDER BY {} = 1 DESC, x.rowid LIMIT 1) AS {alias}",
            column_expr(f, "x.", "type")
        ),
        _ => format!("NULL AS {alias}"),
    };
    // playback progress kept as metadata (type 50) before model 27
    let meta = if has(schema, "Metadata", &["id_media", "type", "value"]) {
        let entity = if has(schema, "Metadata", &["entity_type"]) {
            " AND md.entity_type = 1"
        } else {
            ""
        };
        format!(
            "(SELECT md.value FROM Metadata md WHERE md.id_media = m.id_media AND md.type = 50{entity} LIMIT 1) AS progress_meta"
        )
    } else if has(schema, "MediaMetadata", &["id_media", "type", "value"]) {
        "(SELECT md.value FROM MediaMetadata md WHERE md.id_media = m.id_media AND md.type = 50 LIMIT 1) AS progress_meta".to_string()
    } else {
        "NULL AS progress_meta".to_string()
    };
    let select = [
        m("title"),
        m("filename"),
        m("type"),
        format!(
            "CASE {} WHEN 0 THEN 'unknown' WHEN 1 THEN 'video' WHEN 2 THEN 'audio' END AS kind",
            column_expr(cols, "m.", "type")
        ),
        non_negative(cols, "duration"),
        non_negative(cols, "last_position"),
        non_negative(cols, "last_time"),
        non_negative(cols, "progress"),
        meta,
        m("play_count"),
        m("last_played_date"),
        m("real_last_played_date"),
        m("insertion_date"),
        m("is_favorite"),
        m("is_present"),
        folder,
        file("mrl", "mrl"),
        file("size", "size"),
    ];
    format!(
        "SELECT m.rowid AS rid, m.id_media AS id_media, {} FROM {table} m ORDER BY m.rowid",
        select.join(", ")
    )
}

/// One `vlc_media.db`: the cached thumbnails beside it, then its library.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    thumbnails(ctx, l)?;
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some((table, cols)) = table_any_case(&schema, "Media") else {
        ctx.unparsed(
            &name,
            "could not parse VLC's vlc_media.db because it has no Media table",
            None,
        )?;
        return Ok(());
    };
    if !require_columns(ctx, &name, "VLC's vlc_media.db", table, cols, &["id_media"])? {
        return Ok(());
    }
    super::record_query(
        ctx,
        l,
        &media_sql(&schema, table, cols),
        &RowPhenomena {
            table,
            category: "media",
            what: "a file in VLC's media library (indexed on the device; the times played, last position and last played say it was opened in VLC; durations and positions in ms, a position also as a fraction of the duration; dates in Unix seconds)",
            title: &title_of("VLC media", &["filename", "title", "id_media"]),
            fields: &[
                ("id_media", FactType::Identifier, "media id"),
                ("title", FactType::Text, "title"),
                ("filename", FactType::Name, "file name"),
                ("kind", FactType::Text, "type"),
                ("type", FactType::Text, "type code"),
                ("duration", FactType::Text, "duration (ms)"),
                (
                    "last_position",
                    FactType::Text,
                    "last position (fraction of the duration)",
                ),
                ("last_time", FactType::Text, "last position (ms)"),
                (
                    "progress",
                    FactType::Text,
                    "progress (fraction of the duration)",
                ),
                (
                    "progress_meta",
                    FactType::Text,
                    "playback progress (metadata type 50, as stored)",
                ),
                ("play_count", FactType::Count, "times played"),
                ("is_favorite", FactType::Text, "favourite (1 yes)"),
                ("is_present", FactType::Text, "file present (1 yes)"),
                ("mrl", FactType::Url, "file"),
                ("size", FactType::Count, "file size (bytes)"),
                ("folder", FactType::Url, "folder"),
            ],
            times: &[
                ("last_played_date", "VLC media last played", unix_seconds),
                (
                    "real_last_played_date",
                    "VLC media last accessed",
                    unix_seconds,
                ),
                (
                    "insertion_date",
                    "VLC media added to the library",
                    unix_seconds,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// The thumbnails VLC cached in `files/medialib/` of the app's data folder (the store's
/// grand-parent folder): one phenomenon each, up to [`super::MAX_ROWS`]. No folder, no
/// thumbnails: nothing is noted.
fn thumbnails(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(app) = l.path.strip_suffix("/app_db/vlc_media.db") else {
        return Ok(());
    };
    let dir = format!("{app}/files/medialib");
    let listing = ctx.call(
        "find_files",
        args_on(
            &l.tree,
            json!({"path": dir, "name_globs": ["*.jpg", "*.png"], "limit": super::MAX_ROWS + 1}),
        ),
    )?;
    if !crate::calls::succeeded(&listing) {
        return Ok(());
    }
    let files = crate::outputs::listed_files(&listing.output.text);
    let prefix = format!("{dir}/");
    for (i, f) in files.iter().enumerate() {
        if i as u64 >= super::MAX_ROWS {
            ctx.unparsed(
                &artefact_name(&l.tree, &dir),
                &format!(
                    "more than {} thumbnails; the first {} were recorded",
                    super::MAX_ROWS,
                    super::MAX_ROWS
                ),
                Some(&listing.record.invocation_id),
            )?;
            break;
        }
        let name = f.path.strip_prefix(&prefix).unwrap_or(&f.path);
        let mut d = Draft::new("media", format!("VLC thumbnail {name}"));
        d.fact(FactType::Path, Some(&f.path), &listing);
        d.fact(FactType::Count, Some(&f.size), &listing);
        // UTC times end in Z; a ZIP's local time is marked, and is read as naive local text
        let (value, encoding) = match f.time("modified") {
            Some(m) if m.ends_with('Z') => (Some(m), Some(TimeEncoding::Iso8601)),
            Some(m) => match m.strip_suffix(" (local)") {
                Some(local) => (Some(local), Some(TimeEncoding::LocalText)),
                None => (None, None),
            },
            None => (None, None),
        };
        d.time(value, encoding, "VLC thumbnail written", &listing);
        d.interpretation = format!(
            "{}: an image VLC cached as the thumbnail of a file of its media library ({} bytes); its name is the library's id, not matched to an entry here; the image is not decoded.",
            f.path, f.size
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn older_models_read_with_nulls_and_metadata() {
        let media = cols(&["id_media", "type", "filename", "real_last_played_date"]);
        let mut schema = Schema::new();
        schema.insert("Media".into(), media.clone());
        schema.insert("MediaMetadata".into(), cols(&["id_media", "type", "value"]));
        let sql = media_sql(&schema, "Media", &media);
        assert!(sql.contains("NULL AS last_position"), "{sql}");
        assert!(sql.contains("NULL AS folder"), "{sql}");
        assert!(sql.contains("NULL AS mrl"), "{sql}");
        assert!(sql.contains("FROM MediaMetadata md"), "{sql}");
        assert!(
            sql.contains("m.real_last_played_date AS real_last_played_date"),
            "{sql}"
        );
        assert!(sql.ends_with("FROM Media m ORDER BY m.rowid"), "{sql}");
    }
}
