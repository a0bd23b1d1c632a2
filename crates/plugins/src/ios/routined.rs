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
            visits(run, find, path)?;
            vehicles(run, find, path)
        } else {
            Ok(())
        }
    })
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
        let pk = raw(t, row, "pk").unwrap_or_default();
        let mut d = Draft::new(
            "locations",
            format!(
                "Parked car {pk}: {}, {}",
                raw(t, row, "latitude").as_deref().unwrap_or("?"),
                raw(t, row, "longitude").as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
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
        let pk = raw(t, row, "pk").unwrap_or_default();
        let lat = raw(t, row, "latitude");
        let lon = raw(t, row, "longitude");
        let mut d = Draft::new(
            "locations",
            format!(
                "routined location {pk}: {}, {}",
                lat.as_deref().unwrap_or("?"),
                lon.as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
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
        let pk = raw(t, row, "pk").unwrap_or_default();
        let mut d = Draft::new(
            "locations",
            format!(
                "Significant location visit {pk}: {}, {}",
                raw(t, row, "latitude").as_deref().unwrap_or("?"),
                raw(t, row, "longitude").as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
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
            "{T} Z_PK {pk} of {path}: a visit to a significant location routined learned; {}. Times are Core Data seconds since 2001.",
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
