//! The Wi-Fi daemon's ThreeBars cache (`root/Library/Caches/com.apple.wifid/ThreeBars.sqlite`):
//! tiles of Wi-Fi location data the device downloaded for the area it was in, with the fields
//! of iLEAPP's `threeBarsNetworks`, `threeBarsAccessPoints` and `threeBarsTiles`:
//!
//! - one phenomenon per `ZNETWORK` row: created (Core Data seconds), the network's centroid
//!   latitude and longitude, name, identifier, access-point count, the captive, public, moving,
//!   suspicious and low-quality flags, quality and popularity scores, authentication mask, type,
//!   venue group and type (integer codes, as stored), tile key, record id;
//! - one per `ZACCESSPOINT` row: created, latitude, longitude, BSSID, its network's name and
//!   identifier (joined by `ZNETWORK` where that table is there), edge, TCP good, quality and
//!   popularity scores, record id;
//! - one per `ZTILE` row: created (the download), key, network count, ETag, record id.
//!
//! A row records what the location service reported about a network near the device, not that
//! the device joined or saw it; its coordinates are the network's, not the device's. A row whose
//! latitude and longitude are both exactly 0 holds no position: no coordinate is recorded for it
//! (as iLEAPP leaves them blank). No identity is observed: a nearby access point names no one.
//! Schema drift: each table is read when it has `Z_PK` and `ZCREATED`, its other columns where
//! present; a table lacking those is noted naming them.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, Schema, raw};
use crate::calls::column_or_null;

/// The file's name.
pub const NAME: &str = "ThreeBars.sqlite";

/// Triage of every ThreeBars cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each(NAME, |find, path| {
        if path.contains("/com.apple.wifid/") {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["ZNETWORK", "ZACCESSPOINT", "ZTILE"])? else {
        return Ok(());
    };
    if schema.columns("ZNETWORK").is_empty()
        && schema.columns("ZACCESSPOINT").is_empty()
        && schema.columns("ZTILE").is_empty()
    {
        run.ctx.unparsed(
            path,
            "could not parse ThreeBars.sqlite because it has none of the tables ZNETWORK, ZACCESSPOINT, ZTILE",
            None,
        )?;
        return Ok(());
    }
    networks(run, find, path, &schema)?;
    access_points(run, find, path, &schema)?;
    tiles(run, find, path, &schema)
}

/// The position of a row as said, and whether it is one (both coordinates exactly 0: none).
fn position(lat: Option<&str>, lng: Option<&str>) -> Option<(String, String)> {
    let zero = |v: Option<&str>| v.and_then(|v| v.trim().parse::<f64>().ok()) == Some(0.0);
    match (lat, lng) {
        (Some(la), Some(lo)) if !(zero(Some(la)) && zero(Some(lo))) => {
            Some((la.to_string(), lo.to_string()))
        }
        _ => None,
    }
}

/// Records a row's `lat`/`lng` unless they hold no position, and says which.
fn located(
    d: &mut Draft,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    what: &str,
) -> String {
    match position(t.get(row, "lat"), t.get(row, "lng")) {
        Some((la, lo)) => {
            d.fact(FactType::Text, Some(&la), inv);
            d.fact(FactType::Text, Some(&lo), inv);
            format!("{what} {la}, {lo}")
        }
        None => "no position (latitude and longitude 0 or missing)".to_string(),
    }
}

/// Whether `table` can be read: `Z_PK` and `ZCREATED` (noted when it is there without them).
fn readable(run: &Run<'_, '_>, schema: &Schema, table: &str) -> Result<bool, RuntimeError> {
    Ok(!schema.columns(table).is_empty() && schema.require(run, table, &["Z_PK", "ZCREATED"])?)
}

fn networks(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    const T: &str = "ZNETWORK";
    if !readable(run, schema, T)? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let select = format!(
        "SELECT Z_PK AS pk, ZCREATED AS created, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM {T}",
        col("ZCENTROIDLAT", "lat"),
        col("ZCENTROIDLNG", "lng"),
        col("ZNAME", "name"),
        col("ZIDENTIFIER", "identifier"),
        col("ZACCESSPOINTCOUNT", "aps"),
        col("ZCAPTIVE", "captive"),
        col("ZPUBLIC", "public"),
        col("ZMOVING", "moving"),
        col("ZSUSPICIOUS", "suspicious"),
        col("ZLOWQUALITY", "low_quality"),
        col("ZQUALITYSCOREVALUE", "quality"),
        col("ZPOPULARITYSCOREVALUE", "popularity"),
        col("ZAUTHMASK", "auth_mask"),
        col("ZTYPE", "type"),
        col("ZVENUEGROUP", "venue_group"),
        col("ZVENUETYPE", "venue_type"),
        col("ZTILEKEY", "tile"),
    );
    let Some(paged) = run.paged(path, &select, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let id = raw(t, row, "identifier");
        let name = raw(t, row, "name").filter(|n| !n.is_empty());

        let mut d = Draft::new(
            "wifi",
            format!(
                "Wi-Fi location cache network {}{}",
                id.as_deref().unwrap_or(&pk),
                name.as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = vec![located(&mut d, t, row, inv, "centroid")];
        said.extend(fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("identifier", FactType::Identifier, "identifier"),
                ("aps", FactType::Count, "access points"),
                ("captive", FactType::Count, "captive"),
                ("public", FactType::Count, "public"),
                ("moving", FactType::Count, "moving"),
                ("suspicious", FactType::Count, "suspicious"),
                ("low_quality", FactType::Count, "low quality"),
                ("quality", FactType::Count, "quality score"),
                ("popularity", FactType::Count, "popularity score"),
                ("auth_mask", FactType::Count, "authentication mask"),
                ("type", FactType::Count, "type"),
                ("venue_group", FactType::Count, "venue group"),
                ("venue_type", FactType::Count, "venue type"),
                ("tile", FactType::Identifier, "tile key"),
            ],
        ));
        d.fact(FactType::Identifier, Some(&pk), inv);
        times(&mut d, t, row, inv, &[("created", "Network cached")]);
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a Wi-Fi network the location service reported for the area the device was in (not one it joined or saw; the centroid is the network's position, not the device's); {}. Flags are 1/0, codes as stored; times are Core Data seconds since 2001.",
            said.join("; ")
        );
        run.record(d)?;
    }
    if paged.truncated {
        super::summarise_core_data(
            run,
            "wifi",
            path,
            find,
            "Wi-Fi location cache networks",
            (T, "ZCREATED"),
            "First network cached",
            "Last network cached",
        )?;
    }
    Ok(())
}

fn access_points(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    const T: &str = "ZACCESSPOINT";
    if !readable(run, schema, T)? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "a.", n, a);
    let n = schema.columns("ZNETWORK");
    let joined = c.contains("ZNETWORK") && n.contains("Z_PK");
    let net = |col: &str, alias: &str| {
        if joined && n.contains(col) {
            format!("(SELECT x.{col} FROM ZNETWORK x WHERE x.Z_PK = a.ZNETWORK) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let select = format!(
        "SELECT a.Z_PK AS pk, a.ZCREATED AS created, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM {T} a",
        col("ZLAT", "lat"),
        col("ZLNG", "lng"),
        col("ZBSSID", "bssid"),
        col("ZEDGE", "edge"),
        col("ZTCPGOOD", "tcp_good"),
        col("ZQUALITYSCOREVALUE", "quality"),
        col("ZPOPULARITYSCOREVALUE", "popularity"),
        net("ZNAME", "network_name"),
        net("ZIDENTIFIER", "network"),
    );
    let Some(paged) = run.paged(path, &select, "a.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let bssid = raw(t, row, "bssid");

        let mut d = Draft::new(
            "wifi",
            format!(
                "Wi-Fi location cache access point {}",
                bssid.as_deref().unwrap_or(&pk)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = vec![located(&mut d, t, row, inv, "position")];
        said.extend(fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("bssid", FactType::Identifier, "BSSID"),
                ("network_name", FactType::Name, "network name"),
                ("network", FactType::Identifier, "network"),
                ("edge", FactType::Count, "edge"),
                ("tcp_good", FactType::Count, "TCP good"),
                ("quality", FactType::Count, "quality score"),
                ("popularity", FactType::Count, "popularity score"),
            ],
        ));
        d.fact(FactType::Identifier, Some(&pk), inv);
        times(&mut d, t, row, inv, &[("created", "Access point cached")]);
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: an access point the location service reported for the area the device was in (not one it joined or saw; the position is the access point's); {}. Times are Core Data seconds since 2001.",
            said.join("; ")
        );
        run.record(d)?;
    }
    if paged.truncated {
        super::summarise_core_data(
            run,
            "wifi",
            path,
            find,
            "Wi-Fi location cache access points",
            (T, "ZCREATED"),
            "First access point cached",
            "Last access point cached",
        )?;
    }
    Ok(())
}

fn tiles(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    const T: &str = "ZTILE";
    if !readable(run, schema, T)? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let select = format!(
        "SELECT Z_PK AS pk, ZCREATED AS created, {}, {}, {} FROM {T}",
        col("ZKEY", "tile"),
        col("ZNETWORKCOUNT", "networks"),
        col("ZETAG", "etag"),
    );
    let Some(paged) = run.paged(path, &select, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let key = raw(t, row, "tile");
        let mut d = Draft::new(
            "wifi",
            format!(
                "Wi-Fi location cache tile {}",
                key.as_deref().unwrap_or(&pk)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("tile", FactType::Identifier, "tile key"),
                ("networks", FactType::Count, "networks"),
                ("etag", FactType::Identifier, "ETag"),
            ],
        );
        d.fact(FactType::Identifier, Some(&pk), inv);
        times(&mut d, t, row, inv, &[("created", "Tile downloaded")]);
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a tile of Wi-Fi location data the device downloaded (the key's area is not documented; its networks carry the coordinates); {}. Times are Core Data seconds since 2001.",
            if said.is_empty() {
                "no other field stored".to_string()
            } else {
                said.join("; ")
            }
        );
        run.record(d)?;
    }
    if paged.truncated {
        super::summarise_core_data(
            run,
            "wifi",
            path,
            find,
            "Wi-Fi location cache tiles",
            (T, "ZCREATED"),
            "First tile downloaded",
            "Last tile downloaded",
        )?;
    }
    Ok(())
}
