//! Google's On-Device Location History (`com.google.android.gms/databases/odlh-storage.db`),
//! the Timeline Google moved onto the phone in 2024 — ALEAPP's `googleOdlh`
//! (`gmsOdlhSemanticSegments`, `gmsOdlhEditedSegments`).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `semantic_segment_table` | one `locations` per Timeline segment ("Timeline segment from <start>") | start and end (Unix s), segment type (a stored integer, as stored), the place's latitude and longitude where the `semantic_segment` message holds them (field 3 → 1 → 4 → 5, fields 1 and 2, degrees × 10⁷ — a negative coordinate stored as its two's complement — decoded by `sqlite_query`'s `protobuf` option and read as signed degrees in the interpretation, as ALEAPP and Cellebrite's location booklet read them), shown in the Timeline, finalised, hierarchy level, segment id, the obfuscated Google account id |
//! | `edited_segment_table` | one `locations` per segment the user edited ("Timeline segment edited") | start and end, the block's start and end (Unix s), segment type, uploaded, segment id, obfuscated account id |
//!
//! A segment is the phone's own account of where it was (a visit) or how it moved (an activity)
//! over that time; an edited one was corrected by the user (said). Columns are taken by name
//! (absent ones NULL); a store without `semantic_segment_table` is noted. Identities: none (the
//! obfuscated Google account id is a fact: no identifier type links it to an account).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_seconds};
use crate::identity::{artefact_name, pages_on_args, schema_on};
use crate::outputs::{protobuf_cell, raw};

/// Whether `l` is Play services' on-device location history.
pub fn is_store(l: &Located) -> bool {
    l.name() == "odlh-storage.db" && l.path.contains("/com.google.android.gms/")
}

/// The point a `semantic_segment` message holds (3 → 1 → 4 → 5), as printed and signed.
fn point(m: &serde_json::Value) -> Option<((String, i64), (String, i64))> {
    let p = m
        .get("3")?
        .get(0)?
        .get("1")?
        .get(0)?
        .get("4")?
        .get(0)?
        .get("5")?
        .get(0)?;
    let lat = super::trackers::field(p, "1")?;
    let lng = super::trackers::field(p, "2")?;
    ((lat.1 as f64 / 1e7).abs() <= 90.0 && (lng.1 as f64 / 1e7).abs() <= 180.0)
        .then_some((lat, lng))
}

/// One `odlh-storage.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = schema.get("semantic_segment_table") else {
        ctx.unparsed(
            &name,
            "not Google's on-device location history: no semantic_segment_table",
            None,
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Google's on-device location history",
        "semantic_segment_table",
        cols,
        &["start_timestamp_seconds"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, start_timestamp_seconds, {}, {}, {}, {}, {}, {}, {}, {} FROM semantic_segment_table ORDER BY start_timestamp_seconds, rowid",
        c("end_timestamp_seconds"),
        c("segment_type"),
        c("shown_in_timeline"),
        c("is_finalized"),
        c("hierarchy_level"),
        c("segment_id"),
        c("obfuscated_gaia_id"),
        c("semantic_segment"),
    );
    let mut extra = serde_json::Map::new();
    extra.insert("protobuf".into(), serde_json::json!(true));
    let Some(pages) = pages_on_args(ctx, &l.tree, &l.path, &sql, &extra)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Timeline segments")?;
    for (inv, t, row) in pages.rows() {
        let start = t.get(row, "start_timestamp_seconds");
        let mut d = Draft::new(
            "locations",
            format!("Timeline segment from {}", start.unwrap_or("?")),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("segment_type", FactType::Text, "segment type"),
                ("shown_in_timeline", FactType::Text, "shown in the Timeline"),
                ("is_finalized", FactType::Text, "finalised"),
                ("hierarchy_level", FactType::Text, "hierarchy level"),
                ("segment_id", FactType::Identifier, "segment id"),
                (
                    "obfuscated_gaia_id",
                    FactType::Identifier,
                    "obfuscated Google account id",
                ),
            ],
        );
        if let Some(((lat_raw, lat), (lng_raw, lng))) = t
            .get(row, "semantic_segment")
            .and_then(protobuf_cell)
            .as_ref()
            .and_then(point)
        {
            d.fact(FactType::Text, Some(&lat_raw), inv);
            d.fact(FactType::Text, Some(&lng_raw), inv);
            said.push(format!(
                "at latitude {}, longitude {} (the semantic_segment message's field 3 → 1 → 4 → 5, fields 1 and 2, degrees × 10⁷)",
                lat as f64 / 1e7,
                lng as f64 / 1e7
            ));
        }
        d.time(start, unix_seconds(start), "Timeline segment started", inv);
        let end = t.get(row, "end_timestamp_seconds");
        d.time(end, unix_seconds(end), "Timeline segment ended", inv);
        d.interpretation = format!(
            "semantic_segment_table row {} of {name}: a segment of the phone's on-device Timeline, where it was or how it moved over that time ({}); times are Unix seconds.",
            t.get(row, "row").unwrap_or("?"),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    let Some(edited) = schema.get("edited_segment_table") else {
        return Ok(());
    };
    if !edited.contains("start_timestamp_seconds") {
        return Ok(());
    }
    let c = |col: &str| column_or_null(edited, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, start_timestamp_seconds, {}, {}, {}, {}, {}, {}, {} FROM edited_segment_table ORDER BY start_timestamp_seconds, rowid",
        c("end_timestamp_seconds"),
        c("block_start_timestamp_seconds"),
        c("block_end_timestamp_seconds"),
        c("segment_type"),
        c("is_edit_uploaded"),
        c("segment_id"),
        c("obfuscated_gaia_id"),
    );
    let Some(pages) = pages_on_args(ctx, &l.tree, &l.path, &sql, &serde_json::Map::new())? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "edited Timeline segments")?;
    for (inv, t, row) in pages.rows() {
        let mut d = Draft::new(
            "locations",
            format!(
                "Timeline segment edited: {}",
                raw(t, row, "segment_id")
                    .or_else(|| t.get(row, "start_timestamp_seconds").map(str::to_string))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("segment_type", FactType::Text, "segment type"),
                ("is_edit_uploaded", FactType::Text, "uploaded"),
                ("segment_id", FactType::Identifier, "segment id"),
                (
                    "obfuscated_gaia_id",
                    FactType::Identifier,
                    "obfuscated Google account id",
                ),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("start_timestamp_seconds", "Edited Timeline segment started"),
                ("end_timestamp_seconds", "Edited Timeline segment ended"),
                ("block_start_timestamp_seconds", "Edited block started"),
                ("block_end_timestamp_seconds", "Edited block ended"),
            ],
        );
        d.interpretation = format!(
            "edited_segment_table row {} of {name}: a Timeline segment the user corrected by hand ({}); times are Unix seconds.",
            t.get(row, "row").unwrap_or("?"),
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
