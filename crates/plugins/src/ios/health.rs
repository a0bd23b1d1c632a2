//! Apple Health (`Library/Health/healthdb.sqlite` and `healthdb_secure.sqlite`), the fields of
//! iLEAPP's `Health - Source Devices`, `Health - Workouts` and `Connected Device Information`:
//!
//! - `healthdb.sqlite`, `source_devices`: one `device` phenomenon per device that gave Health
//!   data — name, manufacturer, model, hardware (the model identifier, `Watch6,2`), firmware,
//!   software, local identifier (less a `-tacl` suffix, as iLEAPP shows it), sync provenance
//!   and identity, and when Health first met it (Core Data seconds). The watch, the headphones,
//!   the scales and the phone itself: each a device of the person. A row whose name and local
//!   identifier are both `__NONE__` is Health's placeholder and is passed over (iLEAPP passes
//!   over a row with either one `__NONE__`; a named device with no local identifier is reported
//!   here).
//! - `healthdb_secure.sqlite`, the workouts: one `health` phenomenon per activity of
//!   `workout_activities` (iOS 16 on), or per `workouts` row before — start and end (the
//!   workout's sample, and the activity's own), activity type (HealthKit's
//!   `HKWorkoutActivityType` raw values, named), indoor or outdoor, duration, distance, goal
//!   type and goal, active and resting energy (the activity's statistics, data types 10 and 9,
//!   or the workout's totals), average METs, minimum, maximum and average heart rate (stored per
//!   second; per minute is the value × 60), weather temperature and humidity, where the weather
//!   was read (latitude, longitude), the ground's lowest and highest elevation, the source app
//!   and its version, the time zone, when the workout was added to Health, and the device that
//!   recorded it (from `healthdb.sqlite`, in the same folder).
//! - `healthdb.sqlite`, `device_context`: one `device` phenomenon per device of the Apple
//!   Account sharing the Health data (product type, OS and version, modified): iLEAPP's
//!   `Connected Device Information - Current Device Information`.
//! - `healthdb_secure.sqlite`, every `objects` row's `data_provenances`: one `device`
//!   phenomenon per product type, and per product type and OS build, that wrote Health
//!   objects — first and last object (Core Data seconds), object count, the sources (named from
//!   `healthdb.sqlite`): iLEAPP's `Connected Device and OS History` and `Consolidated Connected
//!   Device History`. Earlier iPhones whose data the store kept appear here. Health's
//!   placeholder product types (`iPhone0,0`, `UnknownDevice`) are left out, as iLEAPP leaves
//!   them; a build with a single object is kept (iLEAPP's `HAVING MIN != MAX` drops it).
//!
//! Identities: a device's local identifier that is a Bluetooth address is observed as
//! `bluetooth:<address>` (the pairing the phone's Bluetooth stores names the same device); a
//! device's name is what its owner typed, a fact and the label, never a person's identifier.
//! Schema drift: a `source_devices` without `name`, or a workout table without its start or
//! activity type, is noted naming them; every other column is read where the release has it.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::photos::{fields, times};
use super::{Draft, Run, raw};
use crate::calls::column_or_null;

/// The values shown of one device or source (value, type, what it is), and the index of the
/// query citing them.
type Shown = (Vec<(String, FactType, &'static str)>, usize);

/// What `healthdb.sqlite` says of a device or a source, by ROWID.
#[derive(Default)]
pub(super) struct Names {
    devices: BTreeMap<String, Shown>,
    sources: BTreeMap<String, Shown>,
    invs: Vec<Invoked>,
}

impl Names {
    /// The device and app that recorded a row (its `device_id` and `source_id` columns),
    /// added to `d` as facts citing `healthdb.sqlite`'s queries; what was said of them.
    pub(super) fn recorded_by(
        &self,
        d: &mut Draft,
        t: &crate::outputs::Table,
        row: &[Option<String>],
    ) -> Vec<String> {
        let mut from = Vec::new();
        for (key, map) in [("device_id", &self.devices), ("source_id", &self.sources)] {
            if let Some((shown, at)) = t.get(row, key).and_then(|k| map.get(k)) {
                for (v, ty, what) in shown {
                    d.fact(*ty, Some(v), &self.invs[*at]);
                    from.push(format!("{what} {v}"));
                }
            }
        }
        from
    }
}

/// What [`Names::recorded_by`] found, as an interpretation's last clause (empty when nothing).
pub(super) fn recorded_said(from: &[String]) -> String {
    if from.is_empty() {
        String::new()
    } else {
        format!("; recorded by {} (healthdb.sqlite)", from.join(", "))
    }
}

/// The folder of a database.
fn folder(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or(path)
}

/// Triage of every Health store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut names: BTreeMap<String, Names> = BTreeMap::new();
    run.each("healthdb.sqlite", |find, path| {
        if path.contains("/Health/") {
            names.insert(folder(path).to_string(), devices(run, find, path)?);
        }
        Ok(())
    })?;
    let none = Names::default();
    run.each("healthdb_secure.sqlite", |find, path| {
        if !path.contains("/Health/") {
            return Ok(());
        }
        let names = names.get(folder(path)).unwrap_or(&none);
        // one read of the store's schema serves the workouts, the device history and the samples
        let tables: Vec<&str> = SECURE_TABLES
            .iter()
            .chain(&super::healthsamples::TABLES)
            .copied()
            .collect();
        let Some(schema) = run.schema(path, &tables)? else {
            return Ok(());
        };
        workouts(run, find, path, names, &schema)?;
        history(run, find, path, names, &schema)?;
        super::healthsamples::triage(run, find, path, names, &schema)
    })
}

fn devices(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<Names, RuntimeError> {
    let mut n = Names::default();
    let Some(schema) = run.schema(path, &["source_devices", "sources", "device_context"])? else {
        return Ok(n);
    };
    let dc = schema.columns("device_context");
    if !dc.is_empty() && schema.require(run, "device_context", &["product_type_name"])? {
        let col = |name: &str| column_or_null(&dc, "", name, name);
        let sql = format!(
            "SELECT ROWID AS rid, product_type_name, {}, {}, {} FROM device_context",
            col("currentOS_name"),
            col("currentOS_version"),
            col("date_modified"),
        );
        if let Some(pages) = run.paged(path, &sql, "ROWID")? {
            for (inv, t, row) in pages.rows() {
                let rid = raw(t, row, "rid").unwrap_or_default();
                let product = t.get(row, "product_type_name").unwrap_or("?");
                let mut d = Draft::new("device", format!("Health device context {rid}: {product}"));
                d.fact(FactType::Path, Some(path), find);
                let said = fields(
                    &mut d,
                    t,
                    row,
                    inv,
                    &[
                        ("product_type_name", FactType::Identifier, "product type"),
                        ("currentOS_name", FactType::Text, "OS"),
                        ("currentOS_version", FactType::Text, "OS version"),
                    ],
                );
                times(
                    &mut d,
                    t,
                    row,
                    inv,
                    &[("date_modified", "Health device context modified")],
                );
                d.interpretation = format!(
                    "device_context row {rid} of {path}: a device of the Apple Account that shares this Health data, with the OS it last ran; {}. date_modified is Core Data seconds since 2001.",
                    said.join("; ")
                );
                run.record(d)?;
            }
        }
    }

    let s = schema.columns("sources");
    if s.contains("name") {
        let sql = format!(
            "SELECT ROWID AS rid, name, {} FROM sources",
            column_or_null(&s, "", "bundle_id", "bundle_id")
        );
        if let Some(pages) = run.paged(path, &sql, "ROWID")? {
            for (inv, t) in &pages.pages {
                let at = n.invs.len();
                n.invs.push(inv.clone());
                for row in &t.rows {
                    let Some(rid) = t.get(row, "rid") else {
                        continue;
                    };
                    let mut shown = Vec::new();
                    for (col, ty, what) in [
                        ("name", FactType::Name, "source"),
                        ("bundle_id", FactType::Identifier, "source's bundle id"),
                    ] {
                        if let Some(v) = raw(t, row, col) {
                            shown.push((v, ty, what));
                        }
                    }
                    n.sources.insert(rid.to_string(), (shown, at));
                }
            }
        }
    }
    if schema.columns("source_devices").is_empty()
        || !schema.require(run, "source_devices", &["name"])?
    {
        return Ok(n);
    }
    let c = schema.columns("source_devices");
    let col = |name: &str| column_or_null(&c, "", name, name);
    let sql = format!(
        "SELECT ROWID AS rid, name, {} FROM source_devices",
        [
            "manufacturer",
            "model",
            "hardware",
            "firmware",
            "software",
            "localIdentifier",
            "creation_date",
            "sync_provenance",
            "sync_identity",
        ]
        .map(col)
        .join(", ")
    );
    let Some(pages) = run.paged(path, &sql, "ROWID")? else {
        return Ok(n);
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Health source devices")?;
    for (inv, t) in &pages.pages {
        let at = n.invs.len();
        n.invs.push(inv.clone());
        for row in &t.rows {
            let rid = raw(t, row, "rid").unwrap_or_default();
            let real = |col: &str| t.get(row, col).filter(|v| *v != "__NONE__");
            let name = real("name");
            let local = real("localIdentifier");
            if name.is_none() && local.is_none() {
                continue;
            }
            let mut shown = Vec::new();
            for (col, ty, what) in [
                ("name", FactType::Name, "device"),
                ("hardware", FactType::Identifier, "device model identifier"),
            ] {
                if let Some(v) = real(col) {
                    shown.push((raw(t, row, col).unwrap_or_else(|| v.to_string()), ty, what));
                }
            }
            n.devices.insert(rid.clone(), (shown, at));
            let label = name.unwrap_or("a device");
            let mut d = Draft::new("device", format!("Health source device {rid}: {label}"));
            d.fact(FactType::Path, Some(path), find);
            let mut said = Vec::new();
            for (col, ty, what) in [
                ("name", FactType::Name, "name"),
                ("manufacturer", FactType::Name, "manufacturer"),
                ("model", FactType::Name, "model"),
                ("hardware", FactType::Identifier, "hardware"),
                ("firmware", FactType::Text, "firmware"),
                ("software", FactType::Text, "software"),
                ("localIdentifier", FactType::Identifier, "local identifier"),
                ("sync_provenance", FactType::Text, "sync provenance"),
                ("sync_identity", FactType::Identifier, "sync identity"),
            ] {
                if real(col).is_some()
                    && let Some(v) = raw(t, row, col)
                {
                    d.fact(ty, Some(&v), inv);
                    said.push(format!("{what} {v}"));
                }
            }
            times(
                &mut d,
                t,
                row,
                inv,
                &[("creation_date", "Health first met the device")],
            );
            let address = local.map(|l| l.strip_suffix("-tacl").unwrap_or(l));
            d.interpretation = format!(
                "source_devices row {rid} of {path}: a device that gave Apple Health data on this phone (a watch, headphones, a scale, an app's sensor or the phone itself); {}{}. creation_date is Core Data seconds since 2001.",
                said.join("; "),
                match (local, address) {
                    (Some(l), Some(a)) if l != a =>
                        format!("; shown without its -tacl suffix: {a}"),
                    _ => String::new(),
                }
            );
            run.record(d)?;
            if let Some(a) = address {
                super::bluetooth::peer(run, a, name, inv, path)?;
            }
        }
    }
    Ok(n)
}

/// The name of a `HKWorkoutActivityType` raw value (Apple's HealthKit enumeration).
pub(super) fn activity(v: &str) -> Option<&'static str> {
    Some(match v.parse::<u32>().ok()? {
        1 => "American football",
        2 => "archery",
        3 => "Australian football",
        4 => "badminton",
        5 => "baseball",
        6 => "basketball",
        7 => "bowling",
        8 => "boxing",
        9 => "climbing",
        10 => "cricket",
        11 => "cross training",
        12 => "curling",
        13 => "cycling",
        14 => "dance",
        15 => "dance-inspired training",
        16 => "elliptical",
        17 => "equestrian sports",
        18 => "fencing",
        19 => "fishing",
        20 => "functional strength training",
        21 => "golf",
        22 => "gymnastics",
        23 => "handball",
        24 => "hiking",
        25 => "hockey",
        26 => "hunting",
        27 => "lacrosse",
        28 => "martial arts",
        29 => "mind and body",
        30 => "mixed metabolic cardio training",
        31 => "paddle sports",
        32 => "play",
        33 => "preparation and recovery",
        34 => "racquetball",
        35 => "rowing",
        36 => "rugby",
        37 => "running",
        38 => "sailing",
        39 => "skating sports",
        40 => "snow sports",
        41 => "soccer",
        42 => "softball",
        43 => "squash",
        44 => "stair climbing",
        45 => "surfing sports",
        46 => "swimming",
        47 => "table tennis",
        48 => "tennis",
        49 => "track and field",
        50 => "traditional strength training",
        51 => "volleyball",
        52 => "walking",
        53 => "water fitness",
        54 => "water polo",
        55 => "water sports",
        56 => "wrestling",
        57 => "yoga",
        58 => "barre",
        59 => "core training",
        60 => "cross-country skiing",
        61 => "downhill skiing",
        62 => "flexibility",
        63 => "high-intensity interval training",
        64 => "jump rope",
        65 => "kickboxing",
        66 => "Pilates",
        67 => "snowboarding",
        68 => "stairs",
        69 => "step training",
        70 => "wheelchair walk pace",
        71 => "wheelchair run pace",
        72 => "tai chi",
        73 => "mixed cardio",
        74 => "hand cycling",
        75 => "disc sports",
        76 => "fitness gaming",
        77 => "cardio dance",
        78 => "social dance",
        79 => "pickleball",
        80 => "cooldown",
        82 => "swim bike run",
        83 => "transition",
        84 => "underwater diving",
        3000 => "other",
        _ => return None,
    })
}

/// The metadata a workout carries: (key, alias, what).
const METADATA: [(&str, &str, &str); 10] = [
    ("HKAverageMETs", "mets", "average METs"),
    (
        "_HKPrivateWorkoutMinHeartRate",
        "hr_min",
        "minimum heart rate (per second)",
    ),
    (
        "_HKPrivateWorkoutMaxHeartRate",
        "hr_max",
        "maximum heart rate (per second)",
    ),
    (
        "_HKPrivateWorkoutAverageHeartRate",
        "hr_avg",
        "average heart rate (per second)",
    ),
    (
        "HKWeatherTemperature",
        "temperature",
        "weather temperature (°F, as iLEAPP assumes)",
    ),
    ("HKWeatherHumidity", "humidity", "humidity (%)"),
    (
        "_HKPrivateWorkoutWeatherLocationCoordinatesLatitude",
        "latitude",
        "weather latitude",
    ),
    (
        "_HKPrivateWorkoutWeatherLocationCoordinatesLongitude",
        "longitude",
        "weather longitude",
    ),
    (
        "_HKPrivateWorkoutMinGroundElevation",
        "elev_min",
        "lowest ground elevation (m)",
    ),
    (
        "_HKPrivateWorkoutMaxGroundElevation",
        "elev_max",
        "highest ground elevation (m)",
    ),
];

/// The tables of `healthdb_secure.sqlite` read.
const SECURE_TABLES: [&str; 8] = [
    "workouts",
    "workout_activities",
    "workout_statistics",
    "samples",
    "metadata_values",
    "metadata_keys",
    "objects",
    "data_provenances",
];

fn workouts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    names: &Names,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let w = schema.columns("workouts");
    let a = schema.columns("workout_activities");
    let s = schema.columns("samples");
    let activities = !a.is_empty();
    let (table, owner) = if activities {
        if !schema.require(
            run,
            "workout_activities",
            &["owner_id", "activity_type", "start_date"],
        )? {
            return Ok(());
        }
        ("workout_activities", "a.owner_id")
    } else {
        if !schema.require(run, "workouts", &["data_id", "activity_type"])? {
            return Ok(());
        }
        ("workouts", "a.data_id")
    };
    let wj = activities && w.contains("data_id");
    let wcol = |c: &str, alias: &str| {
        if !activities {
            column_or_null(&w, "a.", c, alias)
        } else if wj {
            column_or_null(&w, "w.", c, alias)
        } else {
            format!("NULL AS {alias}")
        }
    };
    let acol = |c: &str, alias: &str| {
        if activities {
            column_or_null(&a, "a.", c, alias)
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sample = |c: &str, alias: &str| {
        if s.contains("data_id") && s.contains(c) {
            format!("(SELECT s.{c} FROM samples s WHERE s.data_id = {owner}) AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let stat = |ty: u32, alias: &str| {
        let st = schema.columns("workout_statistics");
        if activities
            && st.contains("workout_activity_id")
            && st.contains("data_type")
            && st.contains("quantity")
        {
            format!(
                "(SELECT MAX(st.quantity) FROM workout_statistics st WHERE st.workout_activity_id = a.ROWID AND st.data_type = {ty}) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let mv = schema.columns("metadata_values");
    let mk = schema.columns("metadata_keys");
    let meta = mv.contains("object_id")
        && mv.contains("key_id")
        && mv.contains("numerical_value")
        && mk.contains("key");
    let o = schema.columns("objects");
    let p = schema.columns("data_provenances");
    let prov = o.contains("data_id") && o.contains("provenance");
    let pcol = |c: &str, alias: &str| {
        if prov && p.contains(c) {
            format!(
                "(SELECT p.{c} FROM objects o JOIN data_provenances p ON p.ROWID = o.provenance WHERE o.data_id = {owner}) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let mut cols = vec![
        "a.ROWID AS rid".to_string(),
        format!("{owner} AS workout"),
        "a.activity_type AS activity_type".to_string(),
        acol("start_date", "activity_start"),
        acol("end_date", "activity_end"),
        acol("location_type", "location_type"),
        acol("duration", "activity_duration"),
        sample("start_date", "start"),
        sample("end_date", "end"),
        wcol("duration", "duration"),
        wcol("total_distance", "distance"),
        wcol("goal_type", "goal_type"),
        wcol("goal", "goal"),
        wcol("total_energy_burned", "energy"),
        wcol("total_basal_energy_burned", "basal_energy"),
        stat(10, "active_energy"),
        stat(9, "resting_energy"),
        pcol("device_id", "device_id"),
        pcol("source_id", "source_id"),
        pcol("source_version", "source_version"),
        pcol("tz_name", "tz_name"),
        if prov && o.contains("creation_date") {
            format!("(SELECT o.creation_date FROM objects o WHERE o.data_id = {owner}) AS added")
        } else {
            "NULL AS added".to_string()
        },
    ];
    for (key, alias, _) in METADATA {
        cols.push(if meta {
            format!(
                "(SELECT MAX(v.numerical_value) FROM metadata_values v JOIN metadata_keys k ON k.ROWID = v.key_id WHERE v.object_id = {owner} AND k.key = '{key}') AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        });
    }
    let sql = format!(
        "SELECT {} FROM {table} a{}",
        cols.join(", "),
        if wj {
            " LEFT JOIN workouts w ON w.data_id = a.owner_id"
        } else {
            ""
        }
    );
    let Some(pages) = run.paged(path, &sql, "a.ROWID")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Health workouts")?;
    for (inv, t, row) in pages.rows() {
        let rid = raw(t, row, "rid").unwrap_or_default();
        let ty = t.get(row, "activity_type").unwrap_or("?");
        let kind = activity(ty)
            .map(str::to_string)
            .unwrap_or_else(|| format!("activity type {ty}"));
        let located = t.get(row, "latitude").is_some() && t.get(row, "longitude").is_some();
        let mut d = Draft::new(
            if located { "locations" } else { "health" },
            format!("Workout {rid}: {kind}"),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("activity_type", FactType::Text, "activity type (raw)"),
                (
                    "location_type",
                    FactType::Text,
                    "location type (2 indoor, 3 outdoor)",
                ),
                ("activity_duration", FactType::Text, "activity duration (s)"),
                ("duration", FactType::Text, "duration (s)"),
                (
                    "distance",
                    FactType::Text,
                    "distance (km, as iLEAPP reads it)",
                ),
                (
                    "goal_type",
                    FactType::Text,
                    "goal type (0 open, 1 distance, 2 time, 3 energy)",
                ),
                ("goal", FactType::Text, "goal"),
                ("energy", FactType::Text, "active energy (kcal)"),
                ("basal_energy", FactType::Text, "resting energy (kcal)"),
                (
                    "active_energy",
                    FactType::Text,
                    "active energy (kcal, the activity's statistic)",
                ),
                (
                    "resting_energy",
                    FactType::Text,
                    "resting energy (kcal, the activity's statistic)",
                ),
                ("source_version", FactType::Text, "source version"),
                ("tz_name", FactType::Text, "time zone"),
            ],
        );
        let meta: Vec<(&str, FactType, &str)> = METADATA
            .iter()
            .map(|(_, alias, what)| (*alias, FactType::Text, *what))
            .collect();
        said.extend(fields(&mut d, t, row, inv, &meta));
        for (alias, what) in [
            ("hr_min", "minimum"),
            ("hr_max", "maximum"),
            ("hr_avg", "average"),
        ] {
            if let Some(bpm) = t.get(row, alias).and_then(|v| v.parse::<f64>().ok()) {
                said.push(format!("{what} heart rate {:.0} per minute", bpm * 60.0));
            }
        }
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("start", "Workout started"),
                ("end", "Workout ended"),
                ("activity_start", "Workout activity started"),
                ("activity_end", "Workout activity ended"),
                ("added", "Workout added to Health"),
            ],
        );
        let from = names.recorded_by(&mut d, t, row);
        d.interpretation = format!(
            "{table} row {rid} of {path} (workout {}): a {kind} workout recorded in Apple Health{}; {}{}. Times are Core Data seconds since 2001.",
            t.get(row, "workout").unwrap_or("?"),
            match t.get(row, "location_type") {
                Some("2") => ", indoors",
                Some("3") => ", outdoors",
                _ => "",
            },
            said.join("; "),
            recorded_said(&from)
        );
        run.record(d)?;
    }
    Ok(())
}

/// The Apple devices and OS builds that wrote Health's objects (each `objects` row's
/// `data_provenances`), first and last: iLEAPP's `Connected Device and OS History` (by product
/// type and build) and `Consolidated Connected Device History` (by product type).
fn history(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    names: &Names,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    if !schema.require(run, "objects", &["provenance", "creation_date"])?
        || !schema.require(run, "data_provenances", &["origin_product_type"])?
    {
        return Ok(());
    }
    let p = schema.columns("data_provenances");
    let build = p.contains("origin_build");
    let sources = if p.contains("source_id") {
        "GROUP_CONCAT(DISTINCT p.source_id) AS sources"
    } else {
        "NULL AS sources"
    };
    for by_build in [false, true] {
        if by_build && !build {
            continue;
        }
        let sql = format!(
            "SELECT p.origin_product_type AS product, {} AS build, MIN(o.creation_date) AS first, MAX(o.creation_date) AS last, COUNT(*) AS objects, {sources} FROM objects o JOIN data_provenances p ON p.ROWID = o.provenance WHERE o.creation_date > 0 AND p.origin_product_type NOT IN ('iPhone0,0', 'UnknownDevice') GROUP BY p.origin_product_type{} ORDER BY first",
            if by_build { "p.origin_build" } else { "NULL" },
            if by_build { ", p.origin_build" } else { "" },
        );
        let Some((inv, t)) = run.query(path, &sql, 2000)? else {
            return Ok(());
        };
        for row in &t.rows {
            let Some(product) = t.get(row, "product") else {
                continue;
            };
            let title = match t.get(row, "build") {
                Some(b) => format!("Health data written by {product} on build {b}"),
                None => format!("Health data written by {product}"),
            };
            let mut d = Draft::new("device", title);
            d.fact(FactType::Path, Some(path), find);
            let mut said = fields(
                &mut d,
                &t,
                row,
                &inv,
                &[
                    ("product", FactType::Identifier, "product type"),
                    ("build", FactType::Text, "OS build"),
                    ("objects", FactType::Count, "objects"),
                ],
            );
            let mut from = Vec::new();
            for id in t.get(row, "sources").into_iter().flat_map(|s| s.split(',')) {
                d.fact(FactType::Identifier, Some(id), &inv);
                match names.sources.get(id) {
                    Some((shown, at)) => {
                        for (v, ty, _) in shown.iter().take(1) {
                            d.fact(*ty, Some(v), &names.invs[*at]);
                            from.push(format!("{id} ({v})"));
                        }
                    }
                    None => from.push(id.to_string()),
                }
            }
            if !from.is_empty() {
                said.push(format!("sources {}", from.join(", ")));
            }
            times(
                &mut d,
                &t,
                row,
                &inv,
                &[
                    ("first", "First Health object from the device"),
                    ("last", "Last Health object from the device"),
                ],
            );
            d.interpretation = format!(
                "objects of {path} grouped by their provenance's product type{}: a device of this model{} wrote Health data (the phone itself, a paired watch, or an earlier device whose data this store kept); {}. Times are Core Data seconds since 2001 (objects.creation_date, first and last).",
                if by_build { " and OS build" } else { "" },
                if by_build { ", on this OS build," } else { "" },
                said.join("; ")
            );
            run.record(d)?;
        }
    }
    Ok(())
}
