//! The myAudi app's URL cache (`Library/Caches/de.audi.myaudimobileassistant/` of its
//! container), iLEAPP's `audiTripdata` ("Audi Trip Data"): the trip statistics Audi's servers
//! returned to the app, kept by CFNetwork as files of `fsCachedData/`, and the cache's
//! `Cache.db`, whose request addresses name the vehicle by its VIN.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `fsCachedData/<UUID>` holding `"tripData"` (found by `search_text`, read by `read_json`): `tripDataList.tripData[]` (the list responses), `tripData` (a list, or the newest trip alone on older releases) | one `locations` per trip ("myAudi trip <trip id> (<type>) at <timestamp>") | iLEAPP's members: trip id, type (`shortTerm`, `longTerm` …), report reason, average speed, travel time, start mileage, mileage, overall mileage, average fuel and electric consumption, zero-emission distance, as stored; the timestamp (ISO 8601, the car's report of the trip); from `Cache.db`: the request address and the VIN it names, when the response was cached (Unix seconds from SQL) |
//! | `Cache.db` `cfurl_cache_response` with `cfurl_cache_receiver_data` | one `device` per VIN named in a request address (`…/vehicles/<VIN>/…`, cut in the query) ("myAudi vehicle <VIN>") | the VIN, the number of cached responses about it, the first and last cached (Unix seconds) |
//!
//! The files are the service's JSON: the units are the service's and are not documented
//! publicly (said as stored; iLEAPP reports them so). No position is kept in the trip data. A
//! trip file the cache does not list is read without its vehicle. A file that is no JSON
//! document (cut) is noted by its `read_json` call, one whose `tripData` holds no trip is noted,
//! the others read; a `Cache.db` without the CFNetwork tables and columns, or that cannot be read,
//! is noted and the trips are still read. The other cached responses (vehicle status, profile)
//! are not read here (the URL cache reader, [`super::safari`], lists every cached address). Only
//! the folders of the myAudi bundle are read: another app's `fsCachedData` or `Cache.db` is left
//! to the readers of that app.
//!
//! Identities: none. The VIN identifies the car, not a person: it is a fact (a serial number,
//! searchable), never an identity of the device's user.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run, file_name, raw};
use crate::outputs::json_scalar;

/// The app's cache folder, as a path ends.
const APP_DIR: &str = "/Library/Caches/de.audi.myaudimobileassistant";

/// The app's cache folder of a `Cache.db` of it.
fn base_of_db(path: &str) -> Option<&str> {
    path.strip_suffix("/Cache.db")
        .filter(|b| b.ends_with(APP_DIR))
}

/// The app's cache folder of an `fsCachedData` folder of it.
fn base_of_files(dir: &str) -> Option<&str> {
    dir.strip_suffix("/fsCachedData")
        .filter(|b| b.ends_with(APP_DIR))
}

/// What shows the catalogue that the app's cache was read: a search of its files, a query of
/// its `Cache.db`.
pub fn detectors() -> Vec<String> {
    vec![
        "/de.audi.myaudimobileassistant/fsCachedData\"".to_string(),
        "/de.audi.myaudimobileassistant/Cache.db\"".to_string(),
    ]
}

/// The trip members read, in iLEAPP's order: (member, type, label).
const TRIP: [(&str, FactType, &str); 11] = [
    ("tripID", FactType::Identifier, "trip id"),
    ("tripType", FactType::Text, "type"),
    ("reportReason", FactType::Text, "report reason"),
    ("averageSpeed", FactType::Text, "average speed"),
    ("traveltime", FactType::Text, "travel time"),
    ("startMileage", FactType::Text, "start mileage"),
    ("mileage", FactType::Text, "mileage"),
    ("overallMileage", FactType::Text, "overall mileage"),
    (
        "averageElectricEngineConsumption",
        FactType::Text,
        "average electric consumption",
    ),
    (
        "averageFuelConsumption",
        FactType::Text,
        "average fuel consumption",
    ),
    (
        "zeroEmissionDistance",
        FactType::Text,
        "zero-emission distance",
    ),
];

/// Triage of every myAudi cache folder: its `Cache.db` (found by the one search) and its
/// `fsCachedData` (found by the one search as a folder).
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let dbs: Vec<(Invoked, String)> = run
        .find("Cache.db")?
        .map(|(inv, paths)| {
            paths
                .into_iter()
                .filter(|p| base_of_db(p).is_some())
                .map(|p| (inv.clone(), p))
                .collect()
        })
        .unwrap_or_default();
    let dirs: Vec<(Invoked, String)> = run
        .find_dirs("fsCachedData")?
        .map(|(inv, paths)| {
            paths
                .into_iter()
                .filter(|p| base_of_files(p).is_some())
                .map(|p| (inv.clone(), p))
                .collect()
        })
        .unwrap_or_default();
    let bases: BTreeSet<String> = dbs
        .iter()
        .filter_map(|(_, p)| base_of_db(p))
        .chain(dirs.iter().filter_map(|(_, d)| base_of_files(d)))
        .map(str::to_string)
        .collect();
    for base in &bases {
        let db = dbs
            .iter()
            .find(|(_, p)| base_of_db(p) == Some(base.as_str()));
        let files = dirs
            .iter()
            .find(|(_, d)| base_of_files(d) == Some(base.as_str()));
        run.ctx.artefact(base, || {
            let mut cached = BTreeMap::new();
            if let Some((find, path)) = db {
                cache_db(run, find, path, &mut cached)?;
            }
            if let Some((_, dir)) = files {
                trip_files(run, dir, &cached)?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// What `Cache.db` says of a response kept in a file: the query that read it, its entry, the
/// request address and the VIN it names (as the output holds them), when it was cached.
struct Cached {
    inv: Invoked,
    entry: Option<String>,
    url: Option<String>,
    vin: Option<String>,
    unix: Option<String>,
}

/// The entries of the cache with the VIN their address names (`…/vehicles/<VIN>/…`, up to the
/// next `/` or `?`): the inner query of the reads of `Cache.db`.
const ENTRIES: &str = "SELECT r.entry_ID AS entry, r.request_key AS url, \
strftime('%s', r.time_stamp) AS cached, d.isDataOnFS AS on_fs, \
CASE WHEN d.isDataOnFS = 1 THEN CAST(d.receiver_data AS TEXT) END AS fs_name, \
CASE WHEN instr(r.rest, '/') > 0 THEN substr(r.rest, 1, instr(r.rest, '/') - 1) \
WHEN instr(r.rest, '?') > 0 THEN substr(r.rest, 1, instr(r.rest, '?') - 1) ELSE r.rest END AS vin \
FROM (SELECT entry_ID, request_key, time_stamp, CASE WHEN instr(request_key, '/vehicles/') > 0 \
THEN substr(request_key, instr(request_key, '/vehicles/') + 10) END AS rest \
FROM cfurl_cache_response) r JOIN cfurl_cache_receiver_data d ON d.entry_ID = r.entry_ID";

/// The app's `Cache.db`: the vehicles its requests name, and (into `cached`, by file name) what
/// it says of each response kept in a file.
fn cache_db(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    cached: &mut BTreeMap<String, Cached>,
) -> Result<(), RuntimeError> {
    let tables = ["cfurl_cache_response", "cfurl_cache_receiver_data"];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    let what = "myAudi's URL cache Cache.db";
    for (table, needed) in [
        (
            "cfurl_cache_response",
            &["entry_ID", "request_key", "time_stamp"][..],
        ),
        (
            "cfurl_cache_receiver_data",
            &["entry_ID", "isDataOnFS", "receiver_data"][..],
        ),
    ] {
        if !crate::calls::require_columns(
            run.ctx,
            path,
            what,
            table,
            &schema.columns(table),
            needed,
        )? {
            return Ok(());
        }
    }
    let Some(paged) = run.paged(path, &format!("SELECT * FROM ({ENTRIES})"), "entry")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        if t.get(row, "on_fs") != Some("1") {
            continue;
        }
        let Some(name) = t.get(row, "fs_name") else {
            continue;
        };
        cached.insert(
            name.to_string(),
            Cached {
                inv: inv.clone(),
                entry: raw(t, row, "entry"),
                url: raw(t, row, "url"),
                vin: raw(t, row, "vin"),
                unix: raw(t, row, "cached"),
            },
        );
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "cached responses")?;
    let sql = format!(
        "SELECT vin, count(*) AS responses, min(CAST(cached AS INTEGER)) AS first_cached, \
max(CAST(cached AS INTEGER)) AS last_cached FROM ({ENTRIES}) WHERE vin IS NOT NULL AND vin <> '' \
GROUP BY vin ORDER BY vin"
    );
    let Some((inv, t)) = run.query(path, &sql, ENTRY_CAP)? else {
        return Ok(());
    };
    for row in &t.rows {
        let Some(vin) = raw(&t, row, "vin") else {
            continue;
        };
        let mut d = Draft::new("device", format!("myAudi vehicle {vin}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Serial, Some(&vin), &inv);
        let count = raw(&t, row, "responses");
        d.fact(FactType::Count, count.as_deref(), &inv);
        for (col, what) in [
            (
                "first_cached",
                "myAudi response about the vehicle first cached",
            ),
            (
                "last_cached",
                "myAudi response about the vehicle last cached",
            ),
        ] {
            let v = raw(&t, row, col);
            d.time(
                v.as_deref(),
                crate::drafts::unix_seconds(v.as_deref()),
                what,
                &inv,
            );
        }
        d.interpretation = format!(
            "{path}, the myAudi app's URL cache, holds {} responses of Audi's servers to requests whose address names the vehicle {vin} (the segment after vehicles in the address, cut in the query): a car the account signed in to the app was asked about; time_stamp is UTC, as Unix seconds from SQL. The VIN identifies the car, not its driver.",
            count.as_deref().unwrap_or("?"),
        );
        run.record(d)?;
    }
    Ok(())
}

/// The trips of a JSON document: under its own `tripData` or under a member's (`tripDataList`),
/// a list of trip objects or one; each with where it is.
fn trips_of(doc: &Value) -> Vec<(String, &Value)> {
    let mut holders: Vec<(String, &Value)> = Vec::new();
    if let Some(v) = doc.get("tripData") {
        holders.push(("tripData".into(), v));
    }
    if let Some(o) = doc.as_object() {
        for (k, v) in o {
            if let Some(inner) = v.get("tripData") {
                holders.push((format!("{k}.tripData"), inner));
            }
        }
    }
    let mut trips = Vec::new();
    for (at, v) in holders {
        match v {
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate().filter(|(_, x)| x.is_object()) {
                    trips.push((format!("{at}[{i}]"), x));
                }
            }
            Value::Object(_) => trips.push((at, v)),
            _ => {}
        }
    }
    trips
}

/// A member as shown in a title (a text or a number), or `?`.
fn shown(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "?".into(),
    }
}

/// The app's cached responses that hold trips (`"tripData"`), each read by `read_json`.
fn trip_files(
    run: &Run<'_, '_>,
    dir: &str,
    cached: &BTreeMap<String, Cached>,
) -> Result<(), RuntimeError> {
    let Some(found) = crate::calls::call_or_note(
        run.ctx,
        dir,
        "search_text",
        json!({"path": dir, "patterns": ["\"tripData\""], "limit": 10_000}),
    )?
    else {
        return Ok(());
    };
    let mut files: Vec<String> = found
        .output
        .text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .filter(|p| p.starts_with('/'))
        .map(str::to_string)
        .collect();
    files.sort();
    files.dedup();
    let mut recorded = 0u64;
    let mut left = 0u64;
    for file in &files {
        let Some(inv) =
            crate::calls::call_or_note(run.ctx, file, "read_json", json!({"path": file}))?
        else {
            continue;
        };
        let Some(doc) = crate::outputs::json_document(&inv.output.text) else {
            run.ctx.unparsed(
                file,
                "could not parse this cached myAudi response because read_json printed no document",
                Some(&inv.record.invocation_id),
            )?;
            continue;
        };
        let trips = trips_of(&doc);
        if trips.is_empty() {
            run.ctx.unparsed(
                file,
                "could not parse this cached myAudi response because its tripData holds no trip (an object, or a list of them)",
                Some(&inv.record.invocation_id),
            )?;
            continue;
        }
        let name = file_name(file);
        let source = cached.get(name);
        for (at, trip) in trips {
            if recorded >= ENTRY_CAP {
                left += 1;
                continue;
            }
            recorded += 1;
            record_trip(run, &found, &inv, file, &at, trip, source)?;
        }
    }
    if left > 0 {
        run.ctx.unparsed(
            dir,
            &format!("only the first {ENTRY_CAP} myAudi trips were recorded; {left} more were not"),
            Some(&found.record.invocation_id),
        )?;
    }
    Ok(())
}

/// One trip of a cached response.
fn record_trip(
    run: &Run<'_, '_>,
    found: &Invoked,
    inv: &Invoked,
    file: &str,
    at: &str,
    trip: &Value,
    source: Option<&Cached>,
) -> Result<(), RuntimeError> {
    let mut d = Draft::new(
        "locations",
        format!(
            "myAudi trip {} ({}) at {}",
            shown(trip, "tripID"),
            shown(trip, "tripType"),
            shown(trip, "timestamp")
        ),
    );
    d.fact(FactType::Path, Some(file), found);
    let said = d.json_fields(trip, inv, &TRIP);
    let stamp = json_scalar(trip.get("timestamp"));
    d.time(
        stamp.as_deref(),
        crate::drafts::date_text(stamp.as_deref()),
        "myAudi trip reported",
        inv,
    );
    let mut whence = String::from(
        "; the cache's Cache.db lists no request for this file, so the vehicle is not named",
    );
    if let Some(c) = source {
        d.fact(FactType::Serial, c.vin.as_deref(), &c.inv);
        d.fact(FactType::Url, c.url.as_deref(), &c.inv);
        d.time(
            c.unix.as_deref(),
            c.unix.as_ref().map(|_| TimeEncoding::UnixSeconds),
            "myAudi trip response cached",
            &c.inv,
        );
        whence = format!(
            "; Cache.db entry {} fetched it from {}{}",
            c.entry.as_deref().unwrap_or("?"),
            c.url.as_deref().unwrap_or("?"),
            match &c.vin {
                Some(v) => format!(", whose address names the vehicle's VIN {v}"),
                None => ", an address naming no vehicle".to_string(),
            }
        );
    }
    d.interpretation = format!(
        "Trip {at} of {file}, a response of Audi's trip statistics service the myAudi app cached: {}; its timestamp ({}) is the car's report of the trip, as written (ISO 8601){whence}. Distances, speeds, times and consumptions are in the service's units, not documented publicly (as stored).",
        said.join(", "),
        stamp.as_deref().unwrap_or("none kept"),
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_trips() {
        let base = "/private/var/mobile/Containers/Data/Application/X/Library/Caches/de.audi.myaudimobileassistant";
        assert_eq!(base_of_db(&format!("{base}/Cache.db")), Some(base));
        assert_eq!(base_of_files(&format!("{base}/fsCachedData")), Some(base));
        assert_eq!(
            base_of_files("/private/var/mobile/Library/Caches/com.example.cars/fsCachedData"),
            None
        );
        let list: Value =
            serde_json::from_str(r#"{"tripDataList":{"tripData":[{"tripID":1},{"tripID":2}]}}"#)
                .unwrap();
        let t = trips_of(&list);
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].0, "tripDataList.tripData[1]");
        let one: Value = serde_json::from_str(r#"{"tripData":{"tripID":7}}"#).unwrap();
        assert_eq!(trips_of(&one)[0].0, "tripData");
        let none: Value = serde_json::from_str(r#"{"tripData":"unavailable"}"#).unwrap();
        assert!(trips_of(&none).is_empty());
    }
}
