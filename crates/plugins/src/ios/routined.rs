//! Location history of `routined` (`Library/Caches/com.apple.routined/`), the fields of
//! iLEAPP's `routineD` modules:
//!
//! - `Cache.sqlite`, `ZRTCLLOCATIONMO`: one phenomenon per cached fix — time, latitude,
//!   longitude, horizontal and vertical accuracy, altitude, speed, course.
//! - `Local.sqlite`, `ZRTLEARNEDLOCATIONOFINTERESTVISITMO`: one per significant-location visit
//!   — entry, exit, creation and expiry times, latitude, longitude, uncertainty, confidence,
//!   data point count, the learned location of interest it belongs to.
//! - `Local.sqlite`, `ZRTVEHICLEEVENTMO` (when the device has it: iOS keeps it once the phone
//!   has been connected to a car, by CarPlay or Bluetooth): one per parked-car event — the
//!   time, where (latitude, longitude, uncertainty, the fix's own time), the car's identifier
//!   as the phone knows it, whether the user moved the pin, the user's notes. The table's name
//!   and columns follow Apple's Core Data model as the forensic literature describes it; no
//!   public database holds one, so the generated fixture is the only check (a column missing
//!   from a table that exists is noted, naming it; a missing table is no finding).
//! - `Local.sqlite`, `ZRTLEARNEDLOCATIONOFINTERESTTRANSITIONMO` (iLEAPP's `appleMapsTrips`): one
//!   per trip between significant locations — start, stop, creation and expiry, the visits it
//!   left and reached (joined by their 16-byte identifiers, `ZVISITIDENTIFIERORIGIN` /
//!   `…DESTINATION`, where the table has them) with their coordinates, the location of interest
//!   (`ZLOCATIONOFINTEREST`, as APOLLO joins it) with its coordinates, the predominant motion
//!   activity as stored (iLEAPP's authors observed 1 walking, 4 driving). A negative start is no
//!   time (iLEAPP shows it empty).
//! - `Local.sqlite`, `ZRTLEARNEDPLACEMO` with `ZRTMAPITEMMO` and `ZRTADDRESSMO` (iLEAPP's
//!   significant-location modules): one per place routined learned — the user's label, the map
//!   item's name, category and coordinates, its address, type and type source as stored, the
//!   device row, learned and expiry times. The map item is the row whose `Z_PK` the place's
//!   `ZMAPITEM` holds, or whose `ZPLACE` holds the place's (Core Data's to-one columns; iLEAPP
//!   pairs the map item's `ZPLACE` with the place's `ZMAPITEM`, the same rows when the numbers
//!   agree); the address is the latest of that map item.
//! - `Local.sqlite`, `ZRTLEARNEDLOCATIONOFINTERESTMO`: one per location of interest —
//!   coordinates, uncertainty, place type, identifier, learned and expiry times.
//! - `Cloud-V2.sqlite`, the copy of the same model iCloud syncs between the Apple Account's
//!   devices: its visits, trips, places and locations of interest read the same way, each
//!   finding saying that its row may have been learned by another device of the account.
//!
//! Times are Core Data seconds since 2001. Schema drift: a table lacking `Z_PK`, the latitude,
//! the longitude or its time column is noted, naming them; other columns are read when
//! present (`ZLOCATIONUNCERTAINTY` stands in for `ZLOCATIONHORIZONTALUNCERTAINTY` where
//! that is what the table has). Only files below `com.apple.routined/` are read: other apps'
//! `Cache.sqlite` and `Local.sqlite` are passed over.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photos::{coordinate, fields, times};
use super::{Draft, Run, core_data_encoding, raw, summarise};
use crate::calls::column_or_null;

/// Triage of routined's `Cache.sqlite` and `Local.sqlite`.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Cache.sqlite", |find, path| {
        if path.contains("/com.apple.routined/") {
            fixes(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("Local.sqlite", |find, path| {
        if path.contains("/com.apple.routined/") {
            learned(run, find, path)?;
            vehicles(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("Cloud-V2.sqlite", |find, path| {
        if path.contains("/com.apple.routined/") {
            learned(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// A `locations` draft of row `row` titled `<what> <Z_PK>: <latitude>, <longitude>`, with the
/// store's path; and the row's key.
fn located(
    what: &str,
    path: &str,
    find: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
) -> (String, Draft) {
    let pk = raw(t, row, "pk").unwrap_or_default();
    let mut d = Draft::new(
        "locations",
        format!(
            "{what} {pk}: {}, {}",
            raw(t, row, "latitude").as_deref().unwrap_or("?"),
            raw(t, row, "longitude").as_deref().unwrap_or("?")
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    (pk, d)
}

/// What routined learned (`Local.sqlite`, and the copy iCloud syncs, `Cloud-V2.sqlite`): visits,
/// trips, places and locations of interest.
fn learned(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    visits(run, find, path)?;
    transitions(run, find, path)?;
    places(run, find, path)?;
    interests(run, find, path)
}

/// What an interpretation adds of a row of the store iCloud syncs.
fn synced(path: &str) -> &'static str {
    if path.ends_with("/Cloud-V2.sqlite") {
        " This store is the copy iCloud syncs between the devices of the Apple Account: the row may have been learned by another of its devices."
    } else {
        ""
    }
}

/// `hex(<prefix>column) AS name` when `cols` has the column, else `NULL AS name`.
fn hex_or_null(
    cols: &std::collections::BTreeSet<String>,
    prefix: &str,
    col: &str,
    name: &str,
) -> String {
    if cols.contains(col) {
        format!("hex({prefix}{col}) AS {name}")
    } else {
        format!("NULL AS {name}")
    }
}

/// The travel mode iLEAPP's authors observed for `ZPREDOMINANTMOTIONACTIVITYTYPE`.
fn motion(v: Option<&str>) -> &'static str {
    match v {
        Some("1") => " (walking, as iLEAPP's authors observed the value)",
        Some("4") => " (driving, as iLEAPP's authors observed the value)",
        _ => "",
    }
}

/// Trips between significant locations (`ZRTLEARNEDLOCATIONOFINTERESTTRANSITIONMO`), when the
/// table is there: each with the visits it left and reached (joined by their identifiers, iOS 13
/// on) and the location of interest it belongs to.
fn transitions(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    const T: &str = "ZRTLEARNEDLOCATIONOFINTERESTTRANSITIONMO";
    const V: &str = "ZRTLEARNEDLOCATIONOFINTERESTVISITMO";
    const L: &str = "ZRTLEARNEDLOCATIONOFINTERESTMO";
    let Some(schema) = run.schema(path, &[T, V, L])? else {
        return Ok(());
    };
    if schema.columns(T).is_empty()
        || !schema.require(run, T, &["Z_PK", "ZSTARTDATE", "ZSTOPDATE"])?
    {
        return Ok(());
    }
    let (c, v, l) = (schema.columns(T), schema.columns(V), schema.columns(L));
    let col = |n: &str, a: &str| column_or_null(&c, "t.", n, a);
    let mut joins = String::new();
    let mut ends = Vec::new();
    for (alias, column) in [
        ("o", "ZVISITIDENTIFIERORIGIN"),
        ("d", "ZVISITIDENTIFIERDESTINATION"),
    ] {
        if c.contains(column) && v.contains("ZIDENTIFIER") {
            joins.push_str(&format!(
                " LEFT JOIN {V} {alias} ON {alias}.ZIDENTIFIER = t.{column}"
            ));
            ends.push(format!(
                "{alias}.Z_PK AS {alias}_pk, {}, {}",
                column_or_null(
                    &v,
                    &format!("{alias}."),
                    "ZLOCATIONLATITUDE",
                    &format!("{alias}_lat")
                ),
                column_or_null(
                    &v,
                    &format!("{alias}."),
                    "ZLOCATIONLONGITUDE",
                    &format!("{alias}_lon")
                ),
            ));
        } else {
            ends.push(format!(
                "NULL AS {alias}_pk, NULL AS {alias}_lat, NULL AS {alias}_lon"
            ));
        }
        ends.push(hex_or_null(&c, "t.", column, &format!("{alias}_id")));
    }
    if c.contains("ZLOCATIONOFINTEREST") && l.contains("Z_PK") {
        joins.push_str(&format!(
            " LEFT JOIN {L} l ON l.Z_PK = t.ZLOCATIONOFINTEREST"
        ));
        ends.push(format!(
            "{}, {}",
            column_or_null(&l, "l.", "ZLOCATIONLATITUDE", "loi_lat"),
            column_or_null(&l, "l.", "ZLOCATIONLONGITUDE", "loi_lon"),
        ));
    } else {
        ends.push("NULL AS loi_lat, NULL AS loi_lon".into());
    }
    let select = format!(
        "SELECT t.Z_PK AS pk, t.ZSTARTDATE AS start, t.ZSTOPDATE AS stop, {}, {}, {}, {}, {} FROM {T} t{joins}",
        col("ZCREATIONDATE", "created"),
        col("ZEXPIRATIONDATE", "expires"),
        col("ZPREDOMINANTMOTIONACTIVITYTYPE", "motion"),
        col("ZLOCATIONOFINTEREST", "loi"),
        ends.join(", "),
    );
    let Some(paged) = run.paged(path, &select, "t.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let get = |a: &str| raw(t, row, a);
        let place = |lat: &str, lon: &str| match (get(lat), get(lon)) {
            (Some(a), Some(b)) => Some(format!("{a}, {b}")),
            _ => None,
        };
        let (from, to) = (place("o_lat", "o_lon"), place("d_lat", "d_lon"));
        let mut d = Draft::new(
            "locations",
            format!(
                "Trip {pk}: {} to {}",
                from.as_deref().unwrap_or("?"),
                to.as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("o_lat", FactType::Text, "origin latitude"),
                ("o_lon", FactType::Text, "origin longitude"),
                ("o_pk", FactType::Identifier, "origin visit"),
                ("o_id", FactType::Identifier, "origin visit identifier"),
                ("d_lat", FactType::Text, "destination latitude"),
                ("d_lon", FactType::Text, "destination longitude"),
                ("d_pk", FactType::Identifier, "destination visit"),
                ("d_id", FactType::Identifier, "destination visit identifier"),
                ("motion", FactType::Text, "predominant motion activity"),
                ("loi", FactType::Identifier, "location of interest"),
                ("loi_lat", FactType::Text, "location of interest latitude"),
                ("loi_lon", FactType::Text, "location of interest longitude"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("start", "Trip started"),
                ("stop", "Trip ended"),
                ("created", "Trip recorded"),
                ("expires", "Trip record expires"),
            ],
        );
        let unmatched = get("d_id").is_some() && get("d_pk").is_none();
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a trip routined learned between two significant locations{}; {}{}. Times are Core Data seconds since 2001 (a negative start is no time).{}",
            motion(get("motion").as_deref()),
            said.join("; "),
            if unmatched {
                "; its destination visit is no longer in the store"
            } else {
                ""
            },
            synced(path),
        );
        run.record(d)?;
    }
    Ok(())
}

/// Places routined learned (`ZRTLEARNEDPLACEMO`), when the table is there: each with its map
/// item (name, category, coordinates: the row whose `Z_PK` the place's `ZMAPITEM` holds, or
/// whose `ZPLACE` holds the place's) and that map item's address.
fn places(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    const P: &str = "ZRTLEARNEDPLACEMO";
    const M: &str = "ZRTMAPITEMMO";
    const A: &str = "ZRTADDRESSMO";
    let Some(schema) = run.schema(path, &[P, M, A])? else {
        return Ok(());
    };
    if schema.columns(P).is_empty() || !schema.require(run, P, &["Z_PK"])? {
        return Ok(());
    }
    let (p, m, a) = (schema.columns(P), schema.columns(M), schema.columns(A));
    let mut joins = String::new();
    if !m.is_empty() {
        let by_item = p.contains("ZMAPITEM").then_some("m2.Z_PK = p.ZMAPITEM");
        let by_place = m.contains("ZPLACE").then_some("m2.ZPLACE = p.Z_PK");
        let on: Vec<&str> = by_item.into_iter().chain(by_place).collect();
        if !on.is_empty() {
            joins.push_str(&format!(
                " LEFT JOIN {M} m ON m.Z_PK = (SELECT m2.Z_PK FROM {M} m2 WHERE {} ORDER BY m2.Z_PK LIMIT 1)",
                on.join(" OR ")
            ));
        }
    }
    if !a.is_empty() && a.contains("ZMAPITEM") && !joins.is_empty() {
        joins.push_str(&format!(
            " LEFT JOIN {A} a ON a.Z_PK = (SELECT a2.Z_PK FROM {A} a2 WHERE a2.ZMAPITEM = m.Z_PK ORDER BY a2.Z_PK DESC LIMIT 1)"
        ));
    }
    let joined_m = joins.contains(" m ON");
    let joined_a = joins.contains(" a ON");
    let pc = |n: &str, al: &str| column_or_null(&p, "p.", n, al);
    let mc = |n: &str, al: &str| {
        if joined_m {
            column_or_null(&m, "m.", n, al)
        } else {
            format!("NULL AS {al}")
        }
    };
    let ac = |n: &str, al: &str| {
        if joined_a {
            column_or_null(&a, "a.", n, al)
        } else {
            format!("NULL AS {al}")
        }
    };
    let select = format!(
        "SELECT p.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM {P} p{joins}",
        pc("ZTYPE", "type"),
        pc("ZTYPESOURCE", "type_source"),
        pc("ZCUSTOMLABEL", "label"),
        pc("ZDEVICE", "device"),
        pc("ZCREATIONDATE", "created"),
        pc("ZEXPIRATIONDATE", "expires"),
        mc("ZNAME", "name"),
        mc("ZCATEGORY", "category"),
        mc("ZLATITUDE", "latitude"),
        mc("ZLONGITUDE", "longitude"),
        ac("ZSUBTHOROUGHFARE", "number"),
        ac("ZTHOROUGHFARE", "street"),
        ac("ZSUBLOCALITY", "sublocality"),
        ac("ZLOCALITY", "city"),
        ac("ZPOSTALCODE", "postcode"),
        ac("ZADMINISTRATIVEAREA", "state"),
        ac("ZADMINISTRATIVEAREACODE", "state_code"),
        ac("ZCOUNTRY", "country"),
        ac("ZCOUNTRYCODE", "country_code"),
        ac("ZAREASOFINTEREST", "areas"),
    );
    let Some(paged) = run.paged(path, &select, "p.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let name = t
            .get(row, "label")
            .or(t.get(row, "name"))
            .unwrap_or("unnamed");
        let mut d = Draft::new("locations", format!("Significant place {pk}: {name}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("label", FactType::Name, "the user's label"),
                ("name", FactType::Name, "name"),
                ("category", FactType::Text, "category"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("number", FactType::Text, "number"),
                ("street", FactType::Text, "street"),
                ("sublocality", FactType::Text, "sublocality"),
                ("city", FactType::Text, "city"),
                ("postcode", FactType::Text, "postcode"),
                ("state", FactType::Text, "state"),
                ("state_code", FactType::Text, "state code"),
                ("country", FactType::Text, "country"),
                ("country_code", FactType::Text, "country code"),
                ("areas", FactType::Text, "areas of interest"),
                ("type", FactType::Text, "type (as stored)"),
                ("type_source", FactType::Text, "type source (as stored)"),
                ("device", FactType::Identifier, "device row"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("created", "Significant place learned"),
                ("expires", "Significant place record expires"),
            ],
        );
        d.interpretation = format!(
            "{P} Z_PK {pk} of {path}: a place routined learned the user goes to (Significant Locations); {}. Times are Core Data seconds since 2001.{}",
            said.join("; "),
            synced(path),
        );
        run.record(d)?;
    }
    Ok(())
}

/// Locations of interest (`ZRTLEARNEDLOCATIONOFINTERESTMO`), the learned locations visits and
/// trips belong to: coordinates, uncertainty, place type, creation and expiry.
fn interests(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    const L: &str = "ZRTLEARNEDLOCATIONOFINTERESTMO";
    let Some(schema) = run.schema(path, &[L])? else {
        return Ok(());
    };
    if schema.columns(L).is_empty()
        || !schema.require(run, L, &["Z_PK", "ZLOCATIONLATITUDE", "ZLOCATIONLONGITUDE"])?
    {
        return Ok(());
    }
    let c = schema.columns(L);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let created = if c.contains("ZCREATIONDATE") {
        "ZCREATIONDATE AS created".to_string()
    } else {
        col("ZPLACECREATIONDATE", "created")
    };
    let select = format!(
        "SELECT Z_PK AS pk, ZLOCATIONLATITUDE AS latitude, ZLOCATIONLONGITUDE AS longitude, {}, {}, {created}, {}, {} FROM {L}",
        col("ZLOCATIONHORIZONTALUNCERTAINTY", "uncertainty"),
        col("ZPLACETYPE", "type"),
        col("ZEXPIRATIONDATE", "expires"),
        hex_or_null(&c, "", "ZIDENTIFIER", "identifier"),
    );
    let Some(paged) = run.paged(path, &select, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let (pk, mut d) = located("Location of interest", path, find, t, row);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("uncertainty", FactType::Text, "uncertainty (m)"),
                ("type", FactType::Text, "place type (as stored)"),
                ("identifier", FactType::Identifier, "identifier"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("created", "Location of interest learned"),
                ("expires", "Location of interest expires"),
            ],
        );
        d.interpretation = format!(
            "{L} Z_PK {pk} of {path}: a location of interest routined learned from the device's visits; {}. Times are Core Data seconds since 2001.{}",
            said.join("; "),
            synced(path),
        );
        run.record(d)?;
    }
    Ok(())
}

/// Parked-car events of `Local.sqlite` (`ZRTVEHICLEEVENTMO`), when the table is there.
fn vehicles(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    const T: &str = "ZRTVEHICLEEVENTMO";
    let Some(schema) = run.schema(path, &[T])? else {
        return Ok(());
    };
    if schema.columns(T).is_empty()
        || !schema.require(run, T, &["Z_PK", "ZDATE", "ZLOCLATITUDE", "ZLOCLONGITUDE"])?
    {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let select = format!(
        "SELECT Z_PK AS pk, ZDATE AS time, ZLOCLATITUDE AS latitude, ZLOCLONGITUDE AS longitude, {}, {}, {}, {}, {}, {} FROM {T}",
        col("ZLOCUNCERTAINTY", "uncertainty"),
        col("ZLOCDATE", "located"),
        col("ZVEHICLEIDENTIFIER", "vehicle"),
        col("ZUSERSETLOCATION", "user_set"),
        col("ZNOTES", "notes"),
        if c.contains("ZIDENTIFIER") {
            "hex(ZIDENTIFIER) AS event_id".to_string()
        } else {
            "NULL AS event_id".to_string()
        },
    );
    let Some(paged) = run.paged(path, &select, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let (pk, mut d) = located("Parked car", path, find, t, row);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("uncertainty", FactType::Text, "uncertainty (m)"),
                ("vehicle", FactType::Identifier, "vehicle identifier"),
                ("user_set", FactType::Count, "location set by the user"),
                ("notes", FactType::Text, "notes"),
                ("event_id", FactType::Identifier, "event identifier"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[("time", "Car parked"), ("located", "Parked car located")],
        );
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: routined recorded where the car the phone was connected to was parked; {}. Times are Core Data seconds since 2001.",
            said.join("; ")
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "locations",
            path,
            find,
            "parked-car events",
            &format!(
                "SELECT count(*) AS total, min(ZDATE) AS first_time, max(ZDATE) AS last_time FROM {T}"
            ),
            core_data_encoding,
            "First parked-car event",
            "Last parked-car event",
        )?;
    }
    Ok(())
}

fn fixes(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    const T: &str = "ZRTCLLOCATIONMO";
    let Some(schema) = run.schema(path, &[T])? else {
        return Ok(());
    };
    if !schema.require(run, T, &["Z_PK", "ZTIMESTAMP", "ZLATITUDE", "ZLONGITUDE"])? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let select = format!(
        "SELECT Z_PK AS pk, ZTIMESTAMP AS time, ZLATITUDE AS latitude, ZLONGITUDE AS longitude, {}, {}, {}, {}, {} FROM {T}",
        col("ZHORIZONTALACCURACY", "h_accuracy"),
        col("ZVERTICALACCURACY", "v_accuracy"),
        col("ZALTITUDE", "altitude"),
        col("ZSPEED", "speed"),
        col("ZCOURSE", "course"),
    );
    let Some(paged) = run.paged(path, &select, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let (pk, mut d) = located("routined location", path, find, t, row);
        let lat = raw(t, row, "latitude");
        let lon = raw(t, row, "longitude");
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("h_accuracy", FactType::Text, "horizontal accuracy (m)"),
                ("v_accuracy", FactType::Text, "vertical accuracy (m)"),
                ("altitude", FactType::Text, "altitude (m)"),
                ("speed", FactType::Text, "speed (m/s, -1 unknown)"),
                ("course", FactType::Text, "course (degrees, -1 unknown)"),
            ],
        );
        times(&mut d, t, row, inv, &[("time", "Device located")]);
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a location fix routined cached{}; {}. ZTIMESTAMP is Core Data seconds since 2001.",
            if coordinate(lat.as_deref()).is_some() && coordinate(lon.as_deref()).is_some() {
                ""
            } else {
                " without valid coordinates"
            },
            said.join("; ")
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "locations",
            path,
            find,
            "routined location fixes",
            &format!(
                "SELECT count(*) AS total, min(ZTIMESTAMP) AS first_time, max(ZTIMESTAMP) AS last_time FROM {T}"
            ),
            core_data_encoding,
            "First location fix",
            "Last location fix",
        )?;
    }
    Ok(())
}

fn visits(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    const T: &str = "ZRTLEARNEDLOCATIONOFINTERESTVISITMO";
    let Some(schema) = run.schema(path, &[T])? else {
        return Ok(());
    };
    if !schema.require(
        run,
        T,
        &[
            "Z_PK",
            "ZENTRYDATE",
            "ZLOCATIONLATITUDE",
            "ZLOCATIONLONGITUDE",
        ],
    )? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "", n, a);
    let uncertainty = if c.contains("ZLOCATIONHORIZONTALUNCERTAINTY") {
        "ZLOCATIONHORIZONTALUNCERTAINTY AS uncertainty".to_string()
    } else {
        col("ZLOCATIONUNCERTAINTY", "uncertainty")
    };
    let select = format!(
        "SELECT Z_PK AS pk, ZENTRYDATE AS entry, ZLOCATIONLATITUDE AS latitude, ZLOCATIONLONGITUDE AS longitude, {uncertainty}, {}, {}, {}, {}, {}, {}, {} FROM {T}",
        col("ZEXITDATE", "exit"),
        col("ZCREATIONDATE", "created"),
        col("ZEXPIRATIONDATE", "expires"),
        col("ZCONFIDENCE", "confidence"),
        col("ZLOCATIONOFINTERESTCONFIDENCE", "loi_confidence"),
        col("ZDATAPOINTCOUNT", "points"),
        col("ZLOCATIONOFINTEREST", "loi"),
    );
    let Some(paged) = run.paged(path, &select, "Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let (pk, mut d) = located("Significant location visit", path, find, t, row);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("uncertainty", FactType::Text, "uncertainty (m)"),
                ("confidence", FactType::Text, "confidence"),
                (
                    "loi_confidence",
                    FactType::Text,
                    "location-of-interest confidence",
                ),
                ("points", FactType::Count, "data points"),
                ("loi", FactType::Identifier, "location of interest"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("entry", "Significant location entered"),
                ("exit", "Significant location left"),
                ("created", "Significant location visit recorded"),
                ("expires", "Significant location visit expires"),
            ],
        );
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a visit to a significant location routined learned; {}. Times are Core Data seconds since 2001.{}",
            said.join("; "),
            synced(path),
        );
        run.record(d)?;
    }
    if paged.truncated {
        summarise(
            run,
            "locations",
            path,
            find,
            "significant location visits",
            &format!(
                "SELECT count(*) AS total, min(ZENTRYDATE) AS first_time, max(ZENTRYDATE) AS last_time FROM {T}"
            ),
            core_data_encoding,
            "First visit",
            "Last visit",
        )?;
    }
    Ok(())
}
