//! The GPS routes of Apple Health's workouts (`Library/Health/healthdb_secure.sqlite`): iLEAPP's
//! `FitnessWorkoutsLocationData` (its per-point list `fitnessWorkoutsLocation` and its per-route
//! analysis `fitnessWorkoutsAnalysis`), read here as one summary per route — never one
//! phenomenon per point. The workouts themselves are [`super::health`]'s: a route names its
//! workout as that reader titles it ("Workout <row>: <activity>", the row of the workout's
//! primary activity in `workout_activities`, or of `workouts` before iOS 16) and repeats none of
//! its fields.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `location_series_data` grouped by series ⋈ `data_series` (`hfd_key`) ⋈ `associations` ⋈ the workout | one `locations` per route ("Workout route <series> of workout <row>: <activity>", "Workout route <series>" when no workout is linked) | series, points (counted in the query) and the count Health kept, finished or not (`frozen`), first and last point (latitude, longitude, time: Core Data seconds), the seconds between them, the bounding box (southmost and northmost latitude, westmost and eastmost longitude), lowest and highest altitude (m), top speed (m/s), mean horizontal accuracy (m, rounded to 0.1), the route's object id and when it was added to Health (`objects.creation_date`), the workout's object id, row and activity type with its name |
//!
//! A route is a Health object (a sample of data type 102) whose points `location_series_data`
//! files under the series `data_series.hfd_key` names (not under the object's `data_id`); the
//! route is tied to its workout by an `associations` row: `source_object_id` the route and
//! `destination_object_id` the workout on recent releases (a row marked `deleted` is passed over),
//! `child_id` the route and `parent_id` the workout before — as iLEAPP joins them. Only an
//! associated object that is a workout (`workouts.data_id`, else `workout_activities.owner_id`)
//! is taken, the first by row order. Every summary value is computed by the query (aggregates
//! over the series, the first and last point by time through the table's key).
//!
//! Schema drift, keyed on the columns found: altitude, speed and horizontal accuracy are read
//! where present (the vertical, speed and course accuracies and the signal environment iLEAPP
//! leaves out too); `data_series` joined by `hfd_key`, else by `data_id`; `frozen` and the
//! objects' creation date where present; the workout named from `workout_activities` when the
//! store has that table, else from `workouts.activity_type`. A store without
//! `location_series_data` holds no route and gives nothing; one whose table lacks
//! `series_identifier`, `timestamp`, `latitude` or `longitude` is noted naming them; one that does
//! not open is noted by the call. Routes are read in pages up to the row cap, the rest noted. Not
//! read: the points themselves one by one (iLEAPP's per-point list: their summary is here), and
//! routes whose points an older release kept outside the database (`healthdb_secure.hfd`). No
//! identities: a route names no person.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;

use super::{Draft, Run, core_data_encoding, raw};
use crate::calls::{column_expr, require_columns};
use crate::outputs::Table;

const POINTS: &str = "location_series_data";

/// The tables read (one schema query per store).
const TABLES: [&str; 6] = [
    POINTS,
    "data_series",
    "associations",
    "workouts",
    "workout_activities",
    "objects",
];

/// Triage of the workout routes of every Health store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("healthdb_secure.sqlite", |find, path| {
        if path.contains("/Health/") {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &TABLES)? else {
        return Ok(());
    };
    let l = schema.columns(POINTS);
    // a store without the table holds no route
    if l.is_empty() {
        return Ok(());
    }
    if !require_columns(
        run.ctx,
        path,
        "the workout routes of Apple Health",
        POINTS,
        &l,
        &["series_identifier", "timestamp", "latitude", "longitude"],
    )? {
        return Ok(());
    }
    let sql = select(&schema);
    let Some(paged) = run.paged(path, &sql, "series")? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &paged, "workout routes")?;
    for (inv, t, row) in paged.rows() {
        route(run, find, path, inv, t, row)?;
    }
    Ok(())
}

/// `CASE <expr> WHEN <type> THEN '<name>' … END AS kind`: the name of a `HKWorkoutActivityType`
/// as the Health reader names it, computed in the query.
fn kind(expr: &str) -> String {
    let mut s = format!("CASE {expr}");
    for n in (1..=100u32).chain([3000]) {
        if let Some(name) = super::health::activity(&n.to_string()) {
            s.push_str(&format!(" WHEN {n} THEN '{name}'"));
        }
    }
    s.push_str(" END AS kind");
    s
}

/// The query: each series' points summarised, its route object and workout, the workout's row
/// and activity named. Paged by the series (the first column).
fn select(schema: &super::Schema) -> String {
    let l = schema.columns(POINTS);
    let lc = |c: &str| column_expr(&l, "l.", c);
    let points = format!(
        "SELECT l.series_identifier AS series, count(*) AS points, min(l.timestamp) AS first_time, \
max(l.timestamp) AS last_time, round(max(l.timestamp) - min(l.timestamp), 1) AS span, \
min(l.latitude) AS south, max(l.latitude) AS north, min(l.longitude) AS west, max(l.longitude) AS east, \
min({alt}) AS alt_min, max({alt}) AS alt_max, max({speed}) AS speed_max, round(avg({accuracy}), 1) AS accuracy_avg \
FROM {POINTS} l GROUP BY l.series_identifier",
        alt = lc("altitude"),
        speed = lc("speed"),
        accuracy = lc("horizontal_accuracy"),
    );
    let end = |col: &str, order: &str, alias: &str| {
        format!(
            "(SELECT e.{col} FROM {POINTS} e WHERE e.series_identifier = p.series ORDER BY e.timestamp {order} LIMIT 1) AS {alias}"
        )
    };
    let mut q = vec![
        "p.*".to_string(),
        end("latitude", "ASC", "first_lat"),
        end("longitude", "ASC", "first_lon"),
        end("latitude", "DESC", "last_lat"),
        end("longitude", "DESC", "last_lon"),
    ];
    let ds = schema.columns("data_series");
    let on = if ds.contains("hfd_key") {
        Some("ds.hfd_key = p.series")
    } else if ds.contains("data_id") {
        Some("ds.data_id = p.series")
    } else {
        None
    };
    let route = on.is_some() && ds.contains("data_id");
    let dcol = |c: &str, alias: &str| {
        if on.is_some() && ds.contains(c) {
            format!("ds.{c} AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    q.push(dcol("data_id", "route"));
    q.push(dcol("count", "stored_count"));
    q.push(if on.is_some() && ds.contains("frozen") {
        "CASE ds.frozen WHEN 1 THEN 'finished' WHEN 0 THEN 'not finished' END AS frozen".to_string()
    } else {
        "NULL AS frozen".to_string()
    });
    let o = schema.columns("objects");
    q.push(
        if route && o.contains("data_id") && o.contains("creation_date") {
            "(SELECT o.creation_date FROM objects o WHERE o.data_id = ds.data_id) AS added"
                .to_string()
        } else {
            "NULL AS added".to_string()
        },
    );
    q.push(workout_link(schema, route));
    let mut from = format!("FROM ({points}) p");
    if let Some(on) = on {
        from.push_str(&format!(" LEFT JOIN data_series ds ON {on}"));
    }
    let q = format!("SELECT {} {from}", q.join(", "));

    // the workout's row and activity type, as the Health reader reads them
    let a = schema.columns("workout_activities");
    let w = schema.columns("workouts");
    let (rid, ty) = if !a.is_empty() {
        let order = if a.contains("is_primary_activity") {
            "a.is_primary_activity DESC, a.ROWID"
        } else {
            "a.ROWID"
        };
        let of = |col: &str| {
            if a.contains("owner_id") && (col == "ROWID" || a.contains(col)) {
                format!(
                    "(SELECT a.{col} FROM workout_activities a WHERE a.owner_id = q.workout ORDER BY {order} LIMIT 1)"
                )
            } else {
                "NULL".to_string()
            }
        };
        (of("ROWID"), of("activity_type"))
    } else {
        let of = |col: &str| {
            if w.contains("data_id") && (col == "ROWID" || w.contains(col)) {
                format!("(SELECT w.{col} FROM workouts w WHERE w.data_id = q.workout)")
            } else {
                "NULL".to_string()
            }
        };
        (of("ROWID"), of("activity_type"))
    };
    let r = format!("SELECT q.*, {rid} AS workout_rid, {ty} AS activity_type FROM ({q}) q");
    format!(
        "SELECT * FROM (SELECT r.*, {} FROM ({r}) r)",
        kind("r.activity_type")
    )
}

/// The workout a route's object is associated with: `source_object_id` → `destination_object_id`
/// (a `deleted` row passed over), else `child_id` → `parent_id`; only an object that is a
/// workout, the first by row order.
fn workout_link(schema: &super::Schema, route: bool) -> String {
    let x = schema.columns("associations");
    let ends = if x.contains("source_object_id") && x.contains("destination_object_id") {
        Some(("source_object_id", "destination_object_id"))
    } else if x.contains("child_id") && x.contains("parent_id") {
        Some(("child_id", "parent_id"))
    } else {
        None
    };
    let Some((from, to)) = ends.filter(|_| route) else {
        return "NULL AS workout".to_string();
    };
    let live = if x.contains("deleted") {
        " AND ifnull(x.deleted, 0) = 0"
    } else {
        ""
    };
    let w: BTreeSet<String> = schema.columns("workouts");
    let a: BTreeSet<String> = schema.columns("workout_activities");
    let workout = if w.contains("data_id") {
        format!(" AND x.{to} IN (SELECT data_id FROM workouts)")
    } else if a.contains("owner_id") {
        format!(" AND x.{to} IN (SELECT owner_id FROM workout_activities)")
    } else {
        String::new()
    };
    format!(
        "(SELECT x.{to} FROM associations x WHERE x.{from} = ds.data_id{live}{workout} ORDER BY x.rowid LIMIT 1) AS workout"
    )
}

fn route(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let series = raw(t, row, "series").unwrap_or_default();
    let points = raw(t, row, "points").unwrap_or_default();
    let workout = raw(t, row, "workout");
    let named = raw(t, row, "workout_rid").map(|rid| {
        let kind = raw(t, row, "kind").unwrap_or_else(|| {
            format!(
                "activity type {}",
                t.get(row, "activity_type").unwrap_or("?")
            )
        });
        format!("Workout {rid}: {kind}")
    });
    let title = match &named {
        Some(n) => format!(
            "Workout route {series} of {}",
            n.replacen("Workout ", "workout ", 1)
        ),
        None => format!("Workout route {series}"),
    };
    let mut d = Draft::new("locations", title);
    d.fact(FactType::Path, Some(path), find);
    let said = d.fields(
        t,
        row,
        inv,
        &[
            ("series", FactType::Identifier, "series"),
            ("points", FactType::Count, "points"),
            ("stored_count", FactType::Count, "points Health counted"),
            ("frozen", FactType::Text, "route"),
            ("first_lat", FactType::Text, "first point latitude"),
            ("first_lon", FactType::Text, "first point longitude"),
            ("last_lat", FactType::Text, "last point latitude"),
            ("last_lon", FactType::Text, "last point longitude"),
            (
                "span",
                FactType::Text,
                "seconds from the first to the last point",
            ),
            ("south", FactType::Text, "southmost latitude"),
            ("north", FactType::Text, "northmost latitude"),
            ("west", FactType::Text, "westmost longitude"),
            ("east", FactType::Text, "eastmost longitude"),
            ("alt_min", FactType::Text, "lowest altitude (m)"),
            ("alt_max", FactType::Text, "highest altitude (m)"),
            ("speed_max", FactType::Text, "top speed (m/s)"),
            (
                "accuracy_avg",
                FactType::Text,
                "mean horizontal accuracy (m)",
            ),
            ("route", FactType::Identifier, "route object (data_id)"),
            ("workout", FactType::Identifier, "workout object (data_id)"),
            ("workout_rid", FactType::Identifier, "workout row"),
            ("activity_type", FactType::Text, "activity type (raw)"),
            ("kind", FactType::Text, "activity"),
        ],
    );
    d.times_of(
        t,
        row,
        inv,
        core_data_encoding,
        &[
            ("first_time", "Workout route's first point"),
            ("last_time", "Workout route's last point"),
            ("added", "Workout route added to Health"),
        ],
    );
    d.interpretation = format!(
        "location_series_data of {path}, series {series}: the GPS route Health kept {}, {points} point(s) summarised in the query (the first and last point with their times, the bounding box, altitude, speed and accuracy); {}. The workout's own fields and times are the Health reader's; times are Core Data seconds since 2001.",
        match (&named, &workout) {
            (Some(n), _) => format!("of the workout \"{n}\""),
            (None, Some(w)) => format!("of the workout object {w}"),
            (None, None) =>
                "with no workout linked to it (no live association to a workout)".to_string(),
        },
        said.join("; ")
    );
    run.record(d)
}
