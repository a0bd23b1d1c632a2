//! Samsung's CMH media store (`com.samsung.cmh/databases/cmh.db`, the Gallery's content
//! provider), ALEAPP's `cmh` (`get_cmh`) and `cmhTags` (`cmh_scene_tags`, `cmh_ocr_text`,
//! `cmh_qr_barcodes`, `cmh_user_tags`): the phone's images with where they were taken and the
//! address the Gallery resolved, and what the phone's own image analysis recorded against each —
//! scene labels, text read in the image, QR and barcode content — with the tags the user added.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `files` (with `location_view`, `tag_map` ⋈ `tags`, `ocr_tag`) | one `media` per image, and per other file with a label or recognised text ("Samsung gallery image <title>", "… video …") | file path, title, album (`bucket_display_name`), MIME type, latitude and longitude as stored, the address and location URI of `location_view`, private, file id; the scene labels (`tag_display_name: tag_data`, with `scene_score` where stored), the QR and barcode content (`scene_qr_barcode_info`, as stored), the recognised text (`image_ocr_tag`, its 0x1F separators shown as ` \| `) and the recogniser's version; taken (`datetaken`, Unix ms), added and modified (Unix s), text recognised (`tag_added_date`, Unix ms) |
//! | `usertag` | one `media` per user tag ("Samsung gallery user tag <tag>") | the tag (`user_tag_data`), the linked file's path and title where the table links one (`fk_sec_media_id`, newer releases); recorded (`timestamp`, Unix ms), the linked file taken |
//!
//! Labels and recognised text are what the phone's own classification and recognition returned
//! for the image — not that the subject was there, nor a verified transcription; a QR code's
//! content is text read from an image, not a link anyone opened. Older releases (Android 10)
//! keep no `ocr_tag`, no `location_view`, no QR column and a `usertag` without link or time:
//! each is read where present, by name (absent columns NULL). Videos and other files without a
//! label or text are left to the media provider's reader. No identity: the store names no
//! account. A store with none of the tables is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::{Located, Schema};
use crate::calls::{column_or_null, require_columns, select_columns};
use crate::drafts::{RowPhenomena, unix_millis, unix_seconds};
use crate::identity::{artefact_name, schema_on};
use crate::outputs::Table;

/// Whether `l` is Samsung's CMH store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "cmh.db" && l.path.contains("/com.samsung.cmh/")
}

/// One `cmh.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let tables = ["files", "tag_map", "ocr_tag", "usertag"];
    if !tables.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            &format!(
                "not Samsung's cmh.db: none of the tables {}",
                tables.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    files(ctx, l, &schema)?;
    user_tags(ctx, l, &schema)
}

/// Whether `schema` has `table` with each of `cols`.
fn has(schema: &Schema, table: &str, cols: &[&str]) -> bool {
    schema
        .get(table)
        .is_some_and(|c| cols.iter().all(|x| c.contains(*x)))
}

/// `files`: every image, and every other file with a label or recognised text, with what the
/// Gallery recorded against it.
fn files(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let table = "files";
    let Some(cols) = schema.get(table) else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "Samsung's cmh.db",
        table,
        cols,
        &["_id", "_data"],
    )? {
        return Ok(());
    }
    let tagged = has(schema, "tag_map", &["fk_file_id", "fk_tag_id"])
        && has(schema, "tags", &["tags_id", "tag_data"]);
    let read = has(schema, "ocr_tag", &["fk_file_id", "image_ocr_tag"]);
    let mut extra: Vec<String> = Vec::new();
    if has(schema, "location_view", &["_id", "address_text"]) {
        extra.push(
            "(SELECT v.address_text FROM location_view v WHERE v._id = f._id LIMIT 1) AS address"
                .into(),
        );
    } else {
        extra.push("NULL AS address".into());
    }
    if has(schema, "location_view", &["_id", "uri"]) {
        extra.push("(SELECT v.uri FROM location_view v WHERE v._id = f._id LIMIT 1) AS uri".into());
    } else {
        extra.push("NULL AS uri".into());
    }
    if tagged {
        let kind = if has(schema, "tags", &["tag_display_name"]) {
            "COALESCE(t.tag_display_name || ': ', '') || "
        } else {
            ""
        };
        let score = if has(schema, "tag_map", &["scene_score"]) {
            " || CASE WHEN m.scene_score IS NOT NULL AND m.scene_score != '' THEN ' (' || m.scene_score || ')' ELSE '' END"
        } else {
            ""
        };
        extra.push(format!(
            "(SELECT group_concat(label, '; ') FROM (SELECT {kind}t.tag_data{score} AS label FROM tag_map m JOIN tags t ON t.tags_id = m.fk_tag_id WHERE m.fk_file_id = f._id AND t.tag_data IS NOT NULL ORDER BY m.rowid)) AS labels"
        ));
    } else {
        extra.push("NULL AS labels".into());
    }
    if has(schema, "tag_map", &["fk_file_id", "scene_qr_barcode_info"]) {
        extra.push("(SELECT group_concat(q, ' | ') FROM (SELECT DISTINCT m.scene_qr_barcode_info AS q FROM tag_map m WHERE m.fk_file_id = f._id AND m.scene_qr_barcode_info IS NOT NULL AND m.scene_qr_barcode_info != '')) AS codes".into());
    } else {
        extra.push("NULL AS codes".into());
    }
    if read {
        extra.push("(SELECT group_concat(replace(o.image_ocr_tag, char(31), ' | '), ' || ') FROM ocr_tag o WHERE o.fk_file_id = f._id) AS ocr_text".into());
    } else {
        extra.push("NULL AS ocr_text".into());
    }
    for (col, expr, alias) in [
        (
            "version",
            "(SELECT group_concat(DISTINCT o.version) FROM ocr_tag o WHERE o.fk_file_id = f._id)",
            "ocr_version",
        ),
        (
            "tag_added_date",
            "(SELECT max(o.tag_added_date) FROM ocr_tag o WHERE o.fk_file_id = f._id)",
            "ocr_added",
        ),
    ] {
        if read && has(schema, "ocr_tag", &[col]) {
            extra.push(format!("{expr} AS {alias}"));
        } else {
            extra.push(format!("NULL AS {alias}"));
        }
    }
    // images, and the other files something was recorded against
    let mut wanted: Vec<&str> = Vec::new();
    if cols.contains("media_type") {
        wanted.push("f.media_type = 1");
        if tagged {
            wanted.push("EXISTS (SELECT 1 FROM tag_map m WHERE m.fk_file_id = f._id)");
        }
        if read {
            wanted.push("EXISTS (SELECT 1 FROM ocr_tag o WHERE o.fk_file_id = f._id)");
        }
    }
    let filter = if wanted.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", wanted.join(" OR "))
    };
    let sql = format!(
        "SELECT f.rowid AS rid, f._id AS file_id, f._data AS path, {}, {} FROM {table} f{filter} ORDER BY f.rowid",
        select_columns(
            cols,
            "f.",
            &[
                ("title", "title"),
                ("bucket_display_name", "bucket"),
                ("mime_type", "mime_type"),
                ("media_type", "media_type"),
                ("latitude", "latitude"),
                ("longitude", "longitude"),
                ("isprivate", "private"),
                ("datetaken", "taken"),
                ("date_added", "added"),
                ("date_modified", "modified"),
            ]
        ),
        extra.join(", "),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        let kind = match t.get(row, "media_type") {
            Some("1") => "image",
            Some("3") => "video",
            _ => "file",
        };
        let shown = t
            .get(row, "title")
            .or_else(|| t.get(row, "path").and_then(|p| p.rsplit('/').next()))
            .or_else(|| t.get(row, "file_id"))
            .unwrap_or("?");
        format!("Samsung gallery {kind} {shown}")
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "media",
            what: "a file of Samsung's Gallery store with what the phone recorded against it (latitude and longitude as stored, 0 or none where the file has no position; the address and location URI the Gallery resolved; the scene labels and recognised text are the output of the phone's own classification and recognition, not verified; QR and barcode content as stored, not opened; taken Unix ms, added and modified Unix s, text recognised Unix ms)",
            title: &title,
            fields: &[
                ("path", FactType::Path, "file"),
                ("title", FactType::Text, "title"),
                ("bucket", FactType::Text, "album"),
                ("mime_type", FactType::Text, "type"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("address", FactType::Text, "address"),
                ("uri", FactType::Text, "location URI"),
                ("private", FactType::Text, "private"),
                ("labels", FactType::Text, "scene labels"),
                ("codes", FactType::Text, "QR or barcode content"),
                ("ocr_text", FactType::Text, "text recognised"),
                ("ocr_version", FactType::Text, "recogniser version"),
                ("file_id", FactType::Identifier, "file id"),
            ],
            times: &[
                ("taken", "Samsung gallery item taken", unix_millis),
                ("added", "Samsung gallery item added", unix_seconds),
                ("modified", "Samsung gallery item modified", unix_seconds),
                ("ocr_added", "Samsung gallery text recognised", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `usertag`: the tags the user added, with the linked file where the table links one.
fn user_tags(ctx: &AgentCtx<'_>, l: &Located, schema: &Schema) -> Result<(), RuntimeError> {
    let table = "usertag";
    let Some(cols) = schema.get(table) else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &artefact_name(&l.tree, &l.path),
        "Samsung's cmh.db",
        table,
        cols,
        &["user_tag_data"],
    )? {
        return Ok(());
    }
    let linked = cols.contains("fk_sec_media_id") && has(schema, "files", &["_id", "_data"]);
    let file = |col: &str, alias: &str| {
        if linked && has(schema, "files", &[col]) {
            format!(
                "(SELECT f.{col} FROM files f WHERE f._id = u.fk_sec_media_id LIMIT 1) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT u.rowid AS rid, u.user_tag_data AS tag, {}, {}, {}, {} FROM {table} u ORDER BY u.rowid",
        column_or_null(cols, "u.", "timestamp", "recorded"),
        file("_data", "path"),
        file("title", "file_title"),
        file("datetaken", "taken"),
    );
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table,
            category: "media",
            what: "a tag in Samsung's Gallery user-tag table (consistent with a tag the user added in the Gallery; the store does not say how a row was made; the linked file where newer releases link one; recorded and taken Unix ms)",
            title: &|t: &Table, row: &[Option<String>]| {
                format!(
                    "Samsung gallery user tag {}",
                    t.get(row, "tag").unwrap_or("?")
                )
            },
            fields: &[
                ("tag", FactType::Text, "tag"),
                ("path", FactType::Path, "file"),
                ("file_title", FactType::Text, "file title"),
            ],
            times: &[
                ("recorded", "Samsung gallery user tag recorded", unix_millis),
                ("taken", "Samsung gallery tagged item taken", unix_millis),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}
