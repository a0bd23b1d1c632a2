//! Google Maps' navigation destinations on Android
//! (`com.google.android.apps.maps/databases/da_destination_history`, table
//! `destination_history`): one phenomenon per destination — time (Unix milliseconds), title,
//! address, the destination's and the start's coordinates — the fields of ALEAPP's
//! `googlemaplocation` and Autopsy's Google Maps analyser. The coordinates are stored as
//! integers in millionths of a degree (E6, as Autopsy reads them); the query prints both the
//! stored integers and the degrees it divides out, so each grounds in its output.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `path` is Google Maps' destinations database.
pub fn is_destinations(path: &str) -> bool {
    path.contains("/com.google.android.apps.maps/")
}

/// `column / 1e6 AS alias` when the table has the column, else `NULL AS alias`.
fn degrees(cols: &std::collections::BTreeSet<String>, col: &str, alias: &str) -> String {
    if cols.contains(col) {
        format!("round({col} / 1e6, 6) AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

/// One `da_destination_history`.
pub fn destinations(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["destination_history"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "destination_history")?;
    if !require_columns(
        ctx,
        &name,
        "Google Maps' da_destination_history",
        "destination_history",
        &cols,
        &["time", "dest_lat", "dest_lng"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, time, dest_lat, dest_lng, {}, {}, {}, {}, {}, {}, {}, {} FROM destination_history ORDER BY time, rowid",
        degrees(&cols, "dest_lat", "dest_latitude"),
        degrees(&cols, "dest_lng", "dest_longitude"),
        c("dest_title"),
        c("dest_address"),
        c("source_lat"),
        c("source_lng"),
        degrees(&cols, "source_lat", "source_latitude"),
        degrees(&cols, "source_lng", "source_longitude"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Google Maps destinations")?;
    for (inv, t, row) in pages.rows() {
        let title = t
            .get(row, "dest_title")
            .or(t.get(row, "dest_address"))
            .filter(|s| !s.is_empty());
        let at = format!(
            "{}, {}",
            t.get(row, "dest_latitude").unwrap_or("?"),
            t.get(row, "dest_longitude").unwrap_or("?")
        );
        let mut d = Draft::new(
            "locations",
            format!("Google Maps destination {}", title.unwrap_or(&at)),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, raw(t, row, "dest_title").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "dest_address").as_deref(), inv);
        for col in [
            "dest_lat",
            "dest_lng",
            "dest_latitude",
            "dest_longitude",
            "source_lat",
            "source_lng",
            "source_latitude",
            "source_longitude",
        ] {
            d.fact(FactType::Text, t.get(row, col), inv);
        }
        let time = t.get(row, "time");
        d.time(
            time,
            unix_millis(time),
            "Navigation to the destination",
            inv,
        );
        let start = match (
            t.get(row, "source_latitude"),
            t.get(row, "source_longitude"),
        ) {
            (Some(a), Some(o)) => format!(", starting from latitude {a}, longitude {o}"),
            _ => String::new(),
        };
        d.interpretation = format!(
            "destination_history row {} of {}: Google Maps was asked for directions to {}{} (latitude {}, longitude {}: dest_lat and dest_lng are millionths of a degree){start}; time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            title.unwrap_or("an untitled place"),
            t.get(row, "dest_address")
                .filter(|a| Some(*a) != title)
                .map(|a| format!(", {a}"))
                .unwrap_or_default(),
            t.get(row, "dest_latitude").unwrap_or("?"),
            t.get(row, "dest_longitude").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// Whether `l` is Google Maps' store of labelled and saved places (`gmm_myplaces.db`).
pub fn is_myplaces(l: &Located) -> bool {
    l.name() == "gmm_myplaces.db" && is_destinations(&l.path)
}

/// The first string of field `field` of a decoded message (`{"6": [{…}]}` style).
fn pb_text<'a>(m: &'a serde_json::Value, field: &str) -> Option<&'a str> {
    m.get(field)?.as_array()?.first()?.as_str()
}

/// `gmm_myplaces.db`, table `sync_item` (ALEAPP's `get_googleMapsGmm_places`): one `locations`
/// phenomenon per labelled or saved place — the label (the keys `0:0` and `1:0` are the places
/// the user labelled Home and Work; another's label is the message's field 6 → 7), the address
/// (6 → 2), the Maps URL (6 → 6), the coordinates as stored (E6) and in degrees (divided in
/// the query), when it was synced (Unix ms). The `sync_item` message is decoded by
/// `sqlite_query`'s `protobuf` option. A label says what the user called the place; it does not
/// prove they live or work there (said).
pub fn labelled_places(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["sync_item"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "sync_item")?;
    if !require_columns(
        ctx,
        &name,
        "Google Maps' gmm_myplaces.db",
        "sync_item",
        &cols,
        &["key_string", "sync_item"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, key_string, {}, {}, {}, {}, {}, {}, sync_item FROM sync_item ORDER BY rowid",
        c("corpus"),
        c("latitude"),
        c("longitude"),
        degrees(&cols, "latitude", "lat_degrees"),
        degrees(&cols, "longitude", "lng_degrees"),
        c("timestamp"),
    );
    let mut extra = serde_json::Map::new();
    extra.insert("protobuf".into(), serde_json::json!(true));
    let Some(pages) = crate::identity::pages_on_args(ctx, &l.tree, &l.path, &sql, &extra)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Google Maps labelled places")?;
    for (inv, t, row) in pages.rows() {
        let key = t.get(row, "key_string").unwrap_or_default();
        let place = t
            .get(row, "sync_item")
            .and_then(crate::outputs::protobuf_cell)
            .and_then(|m| m.get("6")?.as_array()?.first().cloned());
        let stored_label = place.as_ref().and_then(|p| pb_text(p, "7"));
        let label = match key {
            "0:0" => Some("Home"),
            "1:0" => Some("Work"),
            _ => stored_label,
        };
        let address = place.as_ref().and_then(|p| pb_text(p, "2"));
        let url = place.as_ref().and_then(|p| pb_text(p, "6"));
        let shown = match (label, address) {
            (Some(la), Some(a)) => format!("{la}: {a}"),
            (Some(la), None) => la.to_string(),
            (None, Some(a)) => a.to_string(),
            (None, None) => format!("key {key}"),
        };
        let mut d = Draft::new("locations", format!("Google Maps labelled place {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(key), inv);
        d.fact(FactType::Name, stored_label, inv);
        d.fact(FactType::Text, address, inv);
        d.fact(FactType::Url, url, inv);
        for col in ["latitude", "longitude", "lat_degrees", "lng_degrees"] {
            d.fact(FactType::Text, t.get(row, col), inv);
        }
        let time = t.get(row, "timestamp");
        d.time(time, unix_millis(time), "Labelled place synced", inv);
        d.interpretation = format!(
            "sync_item row {} of {}: a place the user {} in Google Maps{}{} (latitude {}, longitude {}: stored as millionths of a degree); timestamp is Unix milliseconds. A label says what the user called the place, not that they live or work there.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            match (key, label) {
                ("0:0", _) | ("1:0", _) => format!("labelled {} (key {key})", label.unwrap_or("?")),
                (_, Some(la)) => format!("labelled {la:?}"),
                _ => "saved".to_string(),
            },
            address.map(|a| format!(", at {a}")).unwrap_or_default(),
            url.map(|u| format!(" ({u})")).unwrap_or_default(),
            t.get(row, "lat_degrees").unwrap_or("?"),
            t.get(row, "lng_degrees").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
