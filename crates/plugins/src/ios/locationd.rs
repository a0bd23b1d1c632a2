//! The location daemon's caches (`root/Library/Caches/locationd/`): `cache_encryptedB.db`
//! (iOS 8 on), `cache_encryptedA.db` (iOS 5 to 7) and `consolidated.db` (iOS 4), with the
//! fields of iLEAPP's `locationdWifiLocations`, `locationdWifiHarvest`, `locationdCellLocations`
//! and `locationdWifiTiles`:
//!
//! - one `locations` phenomenon per `WifiLocation` row: time and the ALS query time (iOS 26)
//!   (Core Data seconds), latitude, longitude, the BSSID (`MAC`: an integer on iOS 8 on, written
//!   as `aa:bb:…` in the query so it grounds; text as stored on older copies), horizontal
//!   accuracy, altitude, vertical accuracy, speed, course, channel, confidence, score, reach,
//!   info mask;
//! - one per `WifiAssociatedApWifiHarvestTable` row: time, scan time, position, BSSID, RSSI,
//!   channel, accuracies, altitude, LOI type (a code, as stored);
//! - one per row of each cell table — `CellLocation` (GSM/UMTS), `LteCellLocation`,
//!   `NrCellLocation` (5G NR), `ScdmaCellLocation` (TD-SCDMA), `CdmaCellLocation` and their
//!   `…Local` twins: time, position, MCC, MNC, the area code (LAC or TAC), the cell id (CI or
//!   BSID), channel, physical cell id (PSC, PID or PN offset), CDMA's SID, NID, zone id and band
//!   class, accuracies, altitude, speed, course, confidence;
//! - one per `WifiTileHeader` row: access and generation times, the south-west corner and the
//!   size of the box it covers, tile x/y, altitudes, index entries, input points, expiration
//!   age, version, flags.
//!
//! A row is the position the location service reported for an access point or a cell, not the
//! device's, and says neither that the device joined the network nor that it used the cell; its
//! accuracy is coarse (often a kilometre for a cell). locationd writes -1 where it has no value:
//! a time of -1 is no time (as iLEAPP leaves it blank), a speed or course of -1 is recorded as
//! stored and said to be none. No identity is observed: a cell or an access point names no one.
//! Schema drift: a table is read when it has its time and position columns, its other columns
//! where present; a table lacking those is noted naming them; each table is read in pages by
//! `rowid`, up to [`super::ROW_CAP`] rows, the rest summarised.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, Schema, raw};
use crate::calls::column_or_null;

/// The file names, newest first.
pub const NAMES: [&str; 3] = [
    "cache_encryptedB.db",
    "cache_encryptedA.db",
    "consolidated.db",
];

/// The cell tables: the table, the radio, and the columns of its area code, cell id, channel
/// and physical cell id (`None` where the radio has none), and its radio's other identifiers.
type CellTable = (
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
);

const CDMA_IDS: &[&str] = &["SID", "NID", "ZONEID", "BANDCLASS"];

const CELL_TABLES: [CellTable; 8] = [
    (
        "CellLocation",
        "GSM/UMTS",
        Some("LAC"),
        "CI",
        "UARFCN",
        "PSC",
        &[],
    ),
    (
        "CellLocationLocal",
        "GSM/UMTS (local)",
        Some("LAC"),
        "CI",
        "UARFCN",
        "PSC",
        &[],
    ),
    (
        "LteCellLocation",
        "LTE",
        Some("TAC"),
        "CI",
        "UARFCN",
        "PID",
        &[],
    ),
    (
        "LteCellLocationLocal",
        "LTE (local)",
        Some("TAC"),
        "CI",
        "UARFCN",
        "PID",
        &[],
    ),
    (
        "NrCellLocation",
        "5G NR",
        Some("TAC"),
        "CI",
        "NRARFCN",
        "PID",
        &[],
    ),
    (
        "ScdmaCellLocation",
        "TD-SCDMA",
        Some("LAC"),
        "CI",
        "UARFCN",
        "PSC",
        &[],
    ),
    (
        "CdmaCellLocation",
        "CDMA",
        None,
        "BSID",
        "CHANNEL",
        "PNOFFSET",
        CDMA_IDS,
    ),
    (
        "CdmaCellLocationLocal",
        "CDMA (local)",
        None,
        "BSID",
        "CHANNEL",
        "PNOFFSET",
        CDMA_IDS,
    ),
];

/// The columns every location row shares after its identifiers: (column, alias, type, label).
const MOTION: [(&str, &str, FactType, &str); 6] = [
    (
        "HorizontalAccuracy",
        "h_acc",
        FactType::Count,
        "horizontal accuracy",
    ),
    ("Altitude", "altitude", FactType::Count, "altitude"),
    (
        "VerticalAccuracy",
        "v_acc",
        FactType::Count,
        "vertical accuracy",
    ),
    ("Speed", "speed", FactType::Count, "speed"),
    ("Course", "course", FactType::Count, "course"),
    ("Confidence", "confidence", FactType::Count, "confidence"),
];

/// Triage of every locationd cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for name in NAMES {
        run.each(name, |find, path| {
            if path.contains("/locationd/") {
                one(run, find, path, name)
            } else {
                Ok(())
            }
        })?;
    }
    Ok(())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str, name: &str) -> Result<(), RuntimeError> {
    let mut tables = vec![
        "WifiLocation",
        "WifiAssociatedApWifiHarvestTable",
        "WifiTileHeader",
    ];
    tables.extend(CELL_TABLES.iter().map(|c| c.0));
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if tables.iter().all(|t| schema.columns(t).is_empty()) {
        run.ctx.unparsed(
            path,
            &format!(
                "could not parse {name} because it has none of the tables {}",
                tables.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    wifi(run, find, path, &schema)?;
    harvest(run, find, path, &schema)?;
    for cell in &CELL_TABLES {
        cells(run, find, path, &schema, cell)?;
    }
    tiles(run, find, path, &schema)
}

/// The BSSID of an integer `MAC` as `aa:bb:cc:dd:ee:ff` (computed in the query, so it
/// grounds); a text `MAC` (older copies) as stored.
fn bssid(prefix: &str) -> String {
    let m = format!("{prefix}MAC");
    format!(
        "CASE WHEN typeof({m}) = 'integer' THEN printf('%02x:%02x:%02x:%02x:%02x:%02x', ({m} >> 40) & 255, ({m} >> 32) & 255, ({m} >> 24) & 255, ({m} >> 16) & 255, ({m} >> 8) & 255, {m} & 255) ELSE {m} END AS bssid"
    )
}

/// Whether `table` can be read: present with each of `needed` (noted naming the missing ones).
fn readable(
    run: &Run<'_, '_>,
    schema: &Schema,
    table: &str,
    needed: &[&str],
) -> Result<bool, RuntimeError> {
    Ok(!schema.columns(table).is_empty() && schema.require(run, table, needed)?)
}

/// Records a row's latitude and longitude and says them.
fn position(
    d: &mut Draft,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
) -> String {
    let (la, lo) = (raw(t, row, "lat"), raw(t, row, "lon"));
    d.fact(FactType::Text, la.as_deref(), inv);
    d.fact(FactType::Text, lo.as_deref(), inv);
    format!(
        "reported at {}, {}",
        la.as_deref().unwrap_or("?"),
        lo.as_deref().unwrap_or("?")
    )
}

/// What a -1 speed or course says.
fn sentinels(t: &crate::outputs::Table, row: &[Option<String>]) -> String {
    let none = |a: &str| {
        t.get(row, a)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .is_some_and(|v| v < 0.0)
    };
    match (none("speed"), none("course")) {
        (true, true) => "; speed and course -1: none recorded".into(),
        (true, false) => "; speed -1: none recorded".into(),
        (false, true) => "; course -1: none recorded".into(),
        _ => String::new(),
    }
}

/// One paged read of `table`: the rows of `select` (which starts `SELECT rowid AS rid`), one
/// phenomenon each made by `each`; past the cap, a summary by `time`.
#[allow(clippy::too_many_arguments)]
fn read(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    table: &str,
    select: &str,
    what: &str,
    time: &str,
    mut each: impl FnMut(&Invoked, &crate::outputs::Table, &[Option<String>]) -> Draft,
) -> Result<(), RuntimeError> {
    let Some(paged) = run.paged(path, select, "rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let mut d = each(inv, t, row);
        d.fact(FactType::Path, Some(path), find);
        run.record(d)?;
    }
    if paged.truncated {
        super::summarise_core_data(
            run,
            "locations",
            path,
            find,
            what,
            (table, time),
            &format!("First {what}"),
            &format!("Last {what}"),
        )?;
    }
    Ok(())
}

fn wifi(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    const T: &str = "WifiLocation";
    if !readable(
        run,
        schema,
        T,
        &["MAC", "Timestamp", "Latitude", "Longitude"],
    )? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let mut cols = vec![
        col("AlsQueryTimestamp", "als_time"),
        "MAC AS mac".to_string(),
        bssid(""),
    ];
    cols.extend(MOTION.iter().map(|(n, a, ..)| col(n, a)));
    for (n, a) in [
        ("Channel", "channel"),
        ("Score", "score"),
        ("Reach", "reach"),
        ("InfoMask", "info_mask"),
    ] {
        cols.push(col(n, a));
    }
    let select = format!(
        "SELECT rowid AS rid, Timestamp AS time, Latitude AS lat, Longitude AS lon, {} FROM {T}",
        cols.join(", ")
    );
    read(
        run,
        find,
        path,
        T,
        &select,
        "Wi-Fi locations",
        "Timestamp",
        |inv, t, row| {
            let rid = raw(t, row, "rid").unwrap_or_default();
            let b = raw(t, row, "bssid");
            let mut d = Draft::new(
                "locations",
                format!("locationd Wi-Fi location {}", b.as_deref().unwrap_or(&rid)),
            );
            let mut said = vec![position(&mut d, t, row, inv)];
            let mut spec = vec![
                ("mac", FactType::Identifier, "MAC as stored"),
                ("bssid", FactType::Identifier, "BSSID"),
            ];
            spec.extend(MOTION.iter().map(|(_, a, ft, l)| (*a, *ft, *l)));
            spec.extend([
                ("channel", FactType::Count, "channel"),
                ("score", FactType::Count, "score"),
                ("reach", FactType::Count, "reach"),
                ("info_mask", FactType::Count, "info mask"),
            ]);
            said.extend(fields(&mut d, t, row, inv, &spec));
            times(
                &mut d,
                t,
                row,
                inv,
                &[
                    ("time", "Access point position cached"),
                    ("als_time", "ALS query"),
                ],
            );
            d.interpretation = format!(
                "{T} rowid {rid} of {path}: the position the location service reported for the access point {} (not the device's position; the device need not have joined it; coarse: an area rather than a point); {}{}. Times are Core Data seconds since 2001 (-1: none).",
                b.as_deref().unwrap_or("?"),
                said.join("; "),
                sentinels(t, row)
            );
            d
        },
    )
}

fn harvest(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    const T: &str = "WifiAssociatedApWifiHarvestTable";
    if !readable(
        run,
        schema,
        T,
        &["MAC", "Timestamp", "Latitude", "Longitude"],
    )? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let select = format!(
        "SELECT rowid AS rid, Timestamp AS time, Latitude AS lat, Longitude AS lon, {}, MAC AS mac, {}, {}, {}, {}, {}, {}, {} FROM {T}",
        col("ScanTimestamp", "scan_time"),
        bssid(""),
        col("Rssi", "rssi"),
        col("Channel", "channel"),
        col("HorizontalAccuracy", "h_acc"),
        col("Altitude", "altitude"),
        col("VerticalAccuracy", "v_acc"),
        col("LoiType", "loi"),
    );
    read(
        run,
        find,
        path,
        T,
        &select,
        "harvested Wi-Fi access points",
        "Timestamp",
        |inv, t, row| {
            let rid = raw(t, row, "rid").unwrap_or_default();
            let b = raw(t, row, "bssid");
            let mut d = Draft::new(
                "locations",
                format!(
                    "locationd harvested access point {}",
                    b.as_deref().unwrap_or(&rid)
                ),
            );
            let mut said = vec![position(&mut d, t, row, inv)];
            said.extend(fields(
                &mut d,
                t,
                row,
                inv,
                &[
                    ("mac", FactType::Identifier, "MAC as stored"),
                    ("bssid", FactType::Identifier, "BSSID"),
                    ("rssi", FactType::Count, "RSSI"),
                    ("channel", FactType::Count, "channel"),
                    ("h_acc", FactType::Count, "horizontal accuracy"),
                    ("altitude", FactType::Count, "altitude"),
                    ("v_acc", FactType::Count, "vertical accuracy"),
                    ("loi", FactType::Count, "LOI type (undocumented code)"),
                ],
            ));
            times(
                &mut d,
                t,
                row,
                inv,
                &[
                    ("time", "Access point harvested"),
                    ("scan_time", "Wi-Fi scan"),
                ],
            );
            d.interpretation = format!(
                "{T} rowid {rid} of {path}: an access point the device associated with ({}), harvested by locationd with a position and the signal at the scan (whether the position is the device's or the access point's is not documented); {}. Times are Core Data seconds since 2001 (-1: none).",
                b.as_deref().unwrap_or("?"),
                said.join("; ")
            );
            d
        },
    )
}

fn cells(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    &(table, radio, area, cell, channel, physical, extras): &CellTable,
) -> Result<(), RuntimeError> {
    if !readable(run, schema, table, &["Timestamp", "Latitude", "Longitude"])? {
        return Ok(());
    }
    let c = schema.columns(table);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let mut cols = vec![
        col("MCC", "mcc"),
        col("MNC", "mnc"),
        area.map_or("NULL AS area".to_string(), |a| col(a, "area")),
        col(cell, "cell"),
        col(channel, "channel"),
        col(physical, "physical"),
    ];
    cols.extend(extras.iter().map(|e| col(e, &e.to_lowercase())));
    cols.extend(MOTION.iter().map(|(n, a, ..)| col(n, a)));
    let select = format!(
        "SELECT rowid AS rid, Timestamp AS time, Latitude AS lat, Longitude AS lon, {} FROM {table}",
        cols.join(", ")
    );
    let what = format!("{radio} cell locations");
    read(
        run,
        find,
        path,
        table,
        &select,
        &what,
        "Timestamp",
        |inv, t, row| {
            let rid = raw(t, row, "rid").unwrap_or_default();
            let id = ["mcc", "mnc", "area", "cell"]
                .iter()
                .map(|a| raw(t, row, a).unwrap_or_else(|| "?".into()))
                .collect::<Vec<_>>()
                .join("/");
            let mut d = Draft::new("locations", format!("locationd {radio} cell {id}"));
            let mut said = vec![position(&mut d, t, row, inv)];
            let area_label = format!("area code ({})", area.unwrap_or("none"));
            let cell_label = format!("cell id ({cell})");
            let channel_label = format!("channel ({channel})");
            let physical_label = format!("physical cell id ({physical})");
            let mut spec = vec![
                ("mcc", FactType::Count, "MCC"),
                ("mnc", FactType::Count, "MNC"),
                ("area", FactType::Identifier, area_label.as_str()),
                ("cell", FactType::Identifier, cell_label.as_str()),
                ("channel", FactType::Count, channel_label.as_str()),
                ("physical", FactType::Count, physical_label.as_str()),
            ];
            let extra: Vec<(String, &str)> =
                extras.iter().map(|e| (e.to_lowercase(), *e)).collect();
            spec.extend(extra.iter().map(|(a, l)| (a.as_str(), FactType::Count, *l)));
            spec.extend(MOTION.iter().map(|(_, a, ft, l)| (*a, *ft, *l)));
            said.extend(fields(&mut d, t, row, inv, &spec));
            times(&mut d, t, row, inv, &[("time", "Cell position cached")]);
            d.interpretation = format!(
                "{table} rowid {rid} of {path}: the position the location service reported for the {radio} cell {id} (MCC/MNC/area/cell; not the device's position, and not a sign the device used the cell; coarse, often a kilometre or more); {}{}. Times are Core Data seconds since 2001 (-1: none).",
                said.join("; "),
                sentinels(t, row)
            );
            d
        },
    )
}

fn tiles(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    const T: &str = "WifiTileHeader";
    if !readable(
        run,
        schema,
        T,
        &["AccessTimestamp", "SouthwestLatitude", "SouthwestLongitude"],
    )? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let spec: [(&str, &str, FactType, &str); 12] = [
        ("DeltaLatitude", "d_lat", FactType::Text, "latitude span"),
        ("DeltaLongitude", "d_lon", FactType::Text, "longitude span"),
        ("TileX", "x", FactType::Identifier, "tile x"),
        ("TileY", "y", FactType::Identifier, "tile y"),
        ("Altitude", "altitude", FactType::Count, "altitude"),
        (
            "MinimumAltitude",
            "min_alt",
            FactType::Count,
            "minimum altitude",
        ),
        (
            "MaximumAltitude",
            "max_alt",
            FactType::Count,
            "maximum altitude",
        ),
        (
            "NumberOfIndexEntries",
            "entries",
            FactType::Count,
            "index entries",
        ),
        (
            "NumberOfInputPoints",
            "points",
            FactType::Count,
            "input points",
        ),
        ("ExpirationAge", "expiry", FactType::Count, "expiration age"),
        ("Version", "version", FactType::Count, "version"),
        ("Flags", "flags", FactType::Count, "flags"),
    ];
    let select = format!(
        "SELECT rowid AS rid, AccessTimestamp AS time, {}, SouthwestLatitude AS lat, SouthwestLongitude AS lon, {} FROM {T}",
        col("GenerationTimestamp", "generated"),
        spec.iter()
            .map(|(n, a, ..)| col(n, a))
            .collect::<Vec<_>>()
            .join(", ")
    );
    read(
        run,
        find,
        path,
        T,
        &select,
        "Wi-Fi tiles",
        "AccessTimestamp",
        |inv, t, row| {
            let rid = raw(t, row, "rid").unwrap_or_default();
            let tile = format!(
                "{}/{}",
                raw(t, row, "x").unwrap_or_else(|| "?".into()),
                raw(t, row, "y").unwrap_or_else(|| "?".into())
            );
            let mut d = Draft::new("locations", format!("locationd Wi-Fi tile {tile}"));
            let corner = position(&mut d, t, row, inv).replace("reported at", "south-west corner");
            let mut said = vec![corner];
            let fs: Vec<(&str, FactType, &str)> =
                spec.iter().map(|(_, a, ft, l)| (*a, *ft, *l)).collect();
            said.extend(fields(&mut d, t, row, inv, &fs));
            times(
                &mut d,
                t,
                row,
                inv,
                &[
                    ("time", "Wi-Fi tile last used"),
                    ("generated", "Wi-Fi tile generated"),
                ],
            );
            d.interpretation = format!(
                "{T} rowid {rid} of {path}: a tile of Wi-Fi location data the device held, covering the box from its south-west corner by the latitude and longitude spans, and when it last used it; {}. Times are Core Data seconds since 2001 (-1: none).",
                said.join("; ")
            );
            d
        },
    )
}
