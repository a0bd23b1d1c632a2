//! Google's unknown tracker alerts (`com.google.android.gms/databases/personalsafety_db`),
//! ALEAPP's `airtagAlerts` and `airtagScans`: Android warns its user when a Bluetooth tracker
//! that is not theirs (an AirTag, a Tile, a SmartTag) travels with them, and keeps what it saw.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `DeviceData` | one `device` per alert ("Unknown tracker alert") | created and last updated (Unix ms), the tracker's Bluetooth address, type, other device data, the alert's life cycle id and status |
//! | `Scan` | one `locations` per sighting of a tracker ("Unknown tracker seen") | created and updated (Unix ms), address, state, the signal strength (`blescan`, a message: field 2) and where the phone was (`locationScan`, a message: fields 4 and 5, degrees × 10⁷) |
//!
//! The two messages are decoded by `sqlite_query`'s `protobuf` option; a coordinate is quoted as
//! the decoding prints it (an unsigned number: a negative one written as a varint or a fixed32
//! is its two's complement) and read as signed degrees in the interpretation. A tracker's
//! address changes every few minutes (AirTags rotate it), so it is kept as a fact, not observed
//! as an identifier. Columns are taken by name (absent ones NULL); a store with neither table's
//! address column is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on_with, table_columns};
use crate::outputs::{proto_field as field, protobuf_cell, raw};

/// Whether `l` is Play services' personal safety store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "personalsafety_db" && l.path.contains("/com.google.android.gms/")
}

/// One `personalsafety_db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let alerts = table_columns(ctx, &l.tree, &l.path, "DeviceData")?;
    let scans = table_columns(ctx, &l.tree, &l.path, "Scan")?;
    if !alerts.contains("macAddress") && !scans.contains("macAddress") {
        ctx.unparsed(
            &name,
            "could not parse Google's unknown tracker store because neither DeviceData nor Scan has a macAddress column",
            None,
        )?;
        return Ok(());
    }
    if alerts.contains("macAddress") {
        let col = |c: &str| column_or_null(&alerts, "", c, c);
        let sql = format!(
            "SELECT rowid AS rowid, macAddress, {} FROM DeviceData ORDER BY rowid",
            [
                "creationTimestampMillis",
                "lastUpdatedTimestampMillis",
                "deviceType",
                "optionalDeviceData",
                "alertLifecycleId",
                "alertStatus",
            ]
            .map(col)
            .join(", ")
        );
        if let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &[])? {
            note_pages_cap(ctx, &name, &pages, "unknown tracker alerts")?;
            for (inv, t, row) in pages.rows() {
                let mut d = Draft::new(
                    "device",
                    format!(
                        "Unknown tracker alert: {}",
                        raw(t, row, "macAddress").unwrap_or_else(|| "tracker".into())
                    ),
                );
                d.fact(FactType::Path, Some(&l.path), &l.found);
                let said = d.fields(
                    t,
                    row,
                    inv,
                    &[
                        ("macAddress", FactType::Identifier, "Bluetooth address"),
                        ("deviceType", FactType::Text, "type"),
                        ("optionalDeviceData", FactType::Text, "other device data"),
                        (
                            "alertLifecycleId",
                            FactType::Identifier,
                            "alert life cycle id",
                        ),
                        ("alertStatus", FactType::Text, "alert status"),
                    ],
                );
                d.times_of(
                    t,
                    row,
                    inv,
                    unix_millis,
                    &[
                        ("creationTimestampMillis", "Unknown tracker alert created"),
                        (
                            "lastUpdatedTimestampMillis",
                            "Unknown tracker alert updated",
                        ),
                    ],
                );
                d.interpretation = format!(
                    "DeviceData row {} of {name}: Android alerted its user that a Bluetooth tracker that is not theirs was travelling with them; {}. The address rotates (a tracker is not identified by it).",
                    raw(t, row, "rowid").unwrap_or_default(),
                    said.join("; "),
                );
                record_draft(ctx, d)?;
            }
        }
    }
    if scans.contains("macAddress") {
        let col = |c: &str| column_or_null(&scans, "", c, c);
        let sql = format!(
            "SELECT rowid AS rowid, macAddress, {} FROM Scan ORDER BY rowid",
            [
                "creationTimestampMillis",
                "lastUpdatedTimestampMillis",
                "state",
                "blescan",
                "locationScan",
            ]
            .map(col)
            .join(", ")
        );
        if let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? {
            note_pages_cap(ctx, &name, &pages, "unknown tracker scans")?;
            for (inv, t, row) in pages.rows() {
                let mac = raw(t, row, "macAddress").unwrap_or_else(|| "tracker".into());
                let mut d = Draft::new("locations", format!("Unknown tracker seen: {mac}"));
                d.fact(FactType::Path, Some(&l.path), &l.found);
                let mut said = d.fields(
                    t,
                    row,
                    inv,
                    &[
                        ("macAddress", FactType::Identifier, "Bluetooth address"),
                        ("state", FactType::Text, "state"),
                    ],
                );
                if let Some((shown, rssi)) = raw(t, row, "blescan")
                    .and_then(|c| protobuf_cell(&c))
                    .and_then(|m| field(&m, "2"))
                {
                    d.fact(FactType::Text, Some(&shown), inv);
                    said.push(format!("signal strength {rssi}"));
                }
                let place = raw(t, row, "locationScan")
                    .and_then(|c| protobuf_cell(&c))
                    .and_then(|m| Some((field(&m, "4")?, field(&m, "5")?)));
                if let Some(((lat_shown, lat), (lon_shown, lon))) = &place {
                    d.fact(FactType::Text, Some(lat_shown), inv);
                    d.fact(FactType::Text, Some(lon_shown), inv);
                    said.push(format!(
                        "the phone at latitude {:.7}, longitude {:.7}",
                        *lat as f64 / 1e7,
                        *lon as f64 / 1e7
                    ));
                }
                d.times_of(
                    t,
                    row,
                    inv,
                    unix_millis,
                    &[
                        ("creationTimestampMillis", "Unknown tracker seen"),
                        (
                            "lastUpdatedTimestampMillis",
                            "Unknown tracker sighting updated",
                        ),
                    ],
                );
                d.interpretation = format!(
                    "Scan row {} of {name}: Android's unknown tracker detection saw a Bluetooth tracker near the phone; {}{}.",
                    raw(t, row, "rowid").unwrap_or_default(),
                    said.join("; "),
                    if place.is_some() {
                        " (locationScan fields 4 and 5, degrees × 10⁷: where the phone was, and so the tracker)"
                    } else {
                        ""
                    },
                );
                record_draft(ctx, d)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_coordinates() {
        let m = serde_json::json!({"4": [387166667u64], "5": [18446744073618151616u64], "6": [4203737296u64]});
        assert_eq!(field(&m, "4"), Some(("387166667".into(), 387_166_667)));
        // a varint of -91400000 and a fixed32 of -91230000
        assert_eq!(field(&m, "5").unwrap().1, -91_400_000);
        assert_eq!(field(&m, "6").unwrap().1, -91_230_000);
        assert_eq!(field(&m, "7"), None);
        assert_eq!(
            protobuf_cell("protobuf:{\"2\":[1]}"),
            Some(serde_json::json!({"2": [1]}))
        );
        assert_eq!(protobuf_cell("x'00'"), None);
    }
}
