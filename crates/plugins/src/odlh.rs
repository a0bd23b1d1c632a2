//! Google's on-device location history (`odlh-storage.db`: Play services' on Android, Google
//! Maps' on iOS — one schema), read for both platforms: `android::odlh` and `ios::googlemapsios`
//! say whose store it is ([`Keeper`]); the module doc of `android::odlh` says what is read.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis, unix_seconds};
use crate::identity::{TreeRef, artefact_name, pages_on_args, schema_on};
use crate::outputs::{protobuf_cell, raw};

/// Who keeps one `odlh-storage.db`: the words of its notes, titles and interpretations.
pub struct Keeper<'a> {
    /// The app, for the notes ("Play services", "Google Maps").
    pub app: &'a str,
    /// The titles' first words ("Timeline segment": "Timeline segment from <start>",
    /// "Timeline segment edited: <id>").
    pub title: &'a str,
    /// Whose Timeline it is, for the interpretations ("the phone's on-device Timeline").
    pub whose: &'a str,
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
    let lat = crate::outputs::proto_field(p, "1")?;
    let lng = crate::outputs::proto_field(p, "2")?;
    ((lat.1 as f64 / 1e7).abs() <= 90.0 && (lng.1 as f64 / 1e7).abs() <= 180.0)
        .then_some((lat, lng))
}

/// One `odlh-storage.db` at `path` of `tree` (found by `found`), kept by `keeper`.
pub fn read(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    keeper: &Keeper<'_>,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let Some(cols) = schema.get("semantic_segment_table") else {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {}'s odlh-storage.db because it has no semantic_segment_table (not Google's on-device location history)",
                keeper.app
            ),
            None,
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        &format!("{}'s on-device location history", keeper.app),
        "semantic_segment_table",
        cols,
        &["start_timestamp_seconds"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS row, start_timestamp_seconds, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM semantic_segment_table ORDER BY start_timestamp_seconds, rowid",
        c("end_timestamp_seconds"),
        c("timestamp_millis"),
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
    let Some(pages) = pages_on_args(ctx, tree, path, &sql, &extra)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Timeline segments")?;
    for (inv, t, row) in pages.rows() {
        let start = t.get(row, "start_timestamp_seconds");
        let mut d = Draft::new(
            "locations",
            format!("{} from {}", keeper.title, start.unwrap_or("?")),
        );
        d.fact(FactType::Path, Some(path), found);
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
        let written = t.get(row, "timestamp_millis");
        if unix_millis(written).is_some() {
            d.time(
                written,
                unix_millis(written),
                "Timeline segment record time",
                inv,
            );
            said.push(format!(
                "record time {} (timestamp_millis, Unix ms; iLEAPP reads it as when the record was written)",
                written.unwrap_or("?")
            ));
        }
        d.interpretation = format!(
            "semantic_segment_table row {} of {name}: a segment of {}, where the device was or how it moved over that time ({}); start and end are Unix seconds.",
            t.get(row, "row").unwrap_or("?"),
            keeper.whose,
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
        "SELECT rowid AS row, start_timestamp_seconds, {}, {}, {}, {}, {}, {}, {}, {} FROM edited_segment_table ORDER BY start_timestamp_seconds, rowid",
        c("end_timestamp_seconds"),
        c("block_start_timestamp_seconds"),
        c("block_end_timestamp_seconds"),
        c("segment_type"),
        c("is_edit_uploaded"),
        c("hierarchy_level"),
        c("segment_id"),
        c("obfuscated_gaia_id"),
    );
    let Some(pages) = pages_on_args(ctx, tree, path, &sql, &serde_json::Map::new())? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "edited Timeline segments")?;
    for (inv, t, row) in pages.rows() {
        let mut d = Draft::new(
            "locations",
            format!(
                "{} edited: {}",
                keeper.title,
                raw(t, row, "segment_id")
                    .or_else(|| t.get(row, "start_timestamp_seconds").map(str::to_string))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("segment_type", FactType::Text, "segment type"),
                ("is_edit_uploaded", FactType::Text, "uploaded"),
                ("hierarchy_level", FactType::Text, "hierarchy level"),
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
            "edited_segment_table row {} of {name}: a segment of {} the user corrected by hand ({}); times are Unix seconds.",
            t.get(row, "row").unwrap_or("?"),
            keeper.whose,
            said.join("; "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
