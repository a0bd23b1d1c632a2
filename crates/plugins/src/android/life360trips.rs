//! Life360's driver-behaviour trips (`com.life360.android.safetymapd/files/DriverBehavior/
//! trips/*.json`), ALEAPP's `life360DriverBehavior` (`get_TripEvents`, `get_TripWaypoints`): the
//! trips the app's driving SDK cut out of the phone's motion, each a JSON file whose `events`
//! array holds what happened on the trip (hard braking, speeding, phone use, a crash …), where,
//! how fast, and the route around it. The `DriverBehavior` folder is found by its name (an app
//! folder of [`super::APP_DIRS`]) and read only under Life360's package; its `trips/` folder is
//! listed with `find_files` and each `*.json` read with `read_json`.
//!
//! | file: member | phenomenon | fields |
//! |---|---|---|
//! | `trips/<trip>.json` | one `locations` per file ("Life360 trip file <name>") | path, size, every scalar member of the top level as stored (a later layout's `tripId`, `startTime`, `endTime` …), the trip ids of its events; the events counted by type in the interpretation; the first and last event's time, any top-level member named like a time (`*time*`, `*Time*`, `*date*`, `*Date*`), the file's modified time |
//! | `events[]` | one `locations` per event ("Life360 trip event <eventType> of trip <tripId>") | event type, trip id, `location.lat` and `.lon`, `speed`, `topSpeed`, `averageSpeed`, `distance` (as stored: the file writes no unit; ALEAPP's MPH columns assume metres per second), every other scalar member as stored; when (`timestamp`) |
//! | `events[].waypoints[]` | one `locations` per event with waypoints ("Life360 trip route of trip <tripId>: <n> waypoints") | trip id, the first and last waypoint's latitude, longitude and accuracy (as stored); the number of waypoints in the title and interpretation; the first and last waypoint's time when they carry one |
//!
//! The route is summarised, never one phenomenon per waypoint (ALEAPP lists each): the points
//! stay in the file, whose `read_json` output holds every one of them. Times: ALEAPP reads
//! `timestamp` as Unix seconds; a value from 10¹² on is read as milliseconds (a later layout
//! writes them so), [`crate::drafts::unix_by_magnitude`]. Numbers are the facts as `read_json`
//! prints them; the units are not written in the file and are not said.
//!
//! Schema drift: members are taken by name, absent ones left out (an event without `location`,
//! without `topSpeed` …). A file that is not JSON (cut, damaged) is noted by the failed call; one
//! without an `events` array (another layout) is noted and no event is made of it; events past
//! [`super::MAX_ROWS`] are noted. `trips/*.json` of other apps (another app's `DriverBehavior`
//! folder, any other `trips` folder) are neither read nor noted.
//!
//! What it proves: that Life360's SDK recorded a trip with these events on the phone; a trip is
//! the app's reading of the phone's motion — it does not say who drove (said). Nothing secret is
//! kept in these files. Identities: none (no account is named; the trip ids are the app's).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::Located;
use super::fishingnet::listed_modified;
use crate::calls::call_or_note;
use crate::drafts::{Draft, record_draft, unix_by_magnitude};
use crate::identity::{args_on, artefact_name};
use crate::outputs::{ListedFile, json_document, json_scalar, listed_files};

/// The folder the driving SDK keeps its trips under, found by its name.
pub const DIR: &str = "DriverBehavior";

/// Life360's package, as a path component.
const PACKAGE: &str = "/com.life360.android.safetymapd/";

/// Most trip files listed in one folder.
const LIST_LIMIT: u64 = 20_000;

/// The event members read by name (the rest of its scalars are read as "other").
const EVENT_FIELDS: &[(&str, FactType, &str)] = &[
    ("eventType", FactType::Text, "type"),
    ("tripId", FactType::Identifier, "trip"),
    ("speed", FactType::Text, "speed (as stored)"),
    ("topSpeed", FactType::Text, "top speed (as stored)"),
    ("averageSpeed", FactType::Text, "average speed (as stored)"),
    ("distance", FactType::Text, "distance (as stored)"),
];

/// Whether `l` is Life360's `DriverBehavior` folder.
pub fn is_app_dir(l: &Located) -> bool {
    l.path.rsplit('/').next() == Some(DIR) && l.path.contains(PACKAGE)
}

/// Whether `path` is one of Life360's trip files.
pub fn is_trip_path(path: &str) -> bool {
    path.contains(PACKAGE) && path.contains("/DriverBehavior/trips/") && path.ends_with(".json")
}

/// The `DriverBehavior` folder: each `trips/*.json` in it.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let dir = format!("{}/trips", l.path.trim_end_matches('/'));
    let listing = ctx.call(
        "find_files",
        args_on(
            &l.tree,
            json!({"path": dir, "name_globs": ["*.json"], "limit": LIST_LIMIT}),
        ),
    )?;
    // no trips folder: nothing recorded yet
    if !crate::calls::succeeded(&listing) {
        return Ok(());
    }
    if listing.output.text.contains("\n# truncated") {
        ctx.unparsed(
            &artefact_name(&l.tree, &dir),
            &format!(
                "more than {LIST_LIMIT} trip files; those past the first {LIST_LIMIT} were not read"
            ),
            Some(&listing.record.invocation_id),
        )?;
    }
    let prefix = format!("{dir}/");
    for f in listed_files(&listing.output.text) {
        let direct = f
            .path
            .strip_prefix(&prefix)
            .is_some_and(|rest| !rest.contains('/'));
        if direct && is_trip_path(&f.path) {
            trip(ctx, l, &listing, &f)?;
        }
    }
    Ok(())
}

/// A number member as a float, for ordering times.
fn number(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64)
        .filter(|x| x.is_finite() && *x > 0.0)
}

/// Whether a top-level member's name says it holds a time.
fn time_named(key: &str) -> bool {
    key.contains("time") || key.contains("Time") || key.contains("date") || key.contains("Date")
}

/// One trip file.
fn trip(
    ctx: &AgentCtx<'_>,
    l: &Located,
    listing: &Invoked,
    f: &ListedFile,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &f.path);
    let file = f.path.rsplit('/').next().unwrap_or(&f.path).to_string();
    let Some(inv) = call_or_note(
        ctx,
        &name,
        "read_json",
        args_on(&l.tree, json!({"path": f.path})),
    )?
    else {
        return Ok(());
    };
    let Some(doc) = json_document(&inv.output.text) else {
        ctx.unparsed(
            &name,
            "could not parse Life360's trip file because read_json's output holds no document",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let Some(events) = doc.get("events").and_then(Value::as_array) else {
        ctx.unparsed(
            &name,
            "could not parse Life360's trip file because it has no events array (not the DriverBehavior trip layout ALEAPP reads)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };

    // the file: its top-level scalars, the trips and types of its events, first and last event
    let mut d = Draft::new("locations", format!("Life360 trip file {file}"));
    d.fact(FactType::Path, Some(&f.path), listing);
    d.fact(FactType::Count, Some(&f.size), listing);
    let mut said = Vec::new();
    let mut timed = Vec::new();
    if let Some(top) = doc.as_object() {
        for (k, v) in top {
            let Some(x) = json_scalar(Some(v)) else {
                continue;
            };
            let t = if k.as_str() == "tripId" {
                FactType::Identifier
            } else {
                FactType::Text
            };
            d.fact(t, Some(&x), &inv);
            said.push(format!("{k} {x}"));
            if time_named(k) && number(Some(v)).is_some() {
                timed.push((k.clone(), x));
            }
        }
    }
    for (k, x) in &timed {
        d.time(
            Some(x),
            unix_by_magnitude(Some(x)),
            &format!("Life360 trip {k}"),
            &inv,
        );
    }
    let mut trips: Vec<String> = Vec::new();
    let mut types: Vec<(String, usize)> = Vec::new();
    let mut first: Option<(f64, String)> = None;
    let mut last: Option<(f64, String)> = None;
    for ev in events {
        if let Some(t) = json_scalar(ev.get("tripId"))
            && !trips.contains(&t)
        {
            trips.push(t);
        }
        let ty = json_scalar(ev.get("eventType")).unwrap_or_else(|| "?".into());
        match types.iter_mut().find(|(t, _)| *t == ty) {
            Some((_, n)) => *n += 1,
            None => types.push((ty, 1)),
        }
        if let (Some(n), Some(raw)) = (
            number(ev.get("timestamp")),
            json_scalar(ev.get("timestamp")),
        ) {
            if first.as_ref().is_none_or(|(f, _)| n < *f) {
                first = Some((n, raw.clone()));
            }
            if last.as_ref().is_none_or(|(x, _)| n > *x) {
                last = Some((n, raw));
            }
        }
    }
    for t in &trips {
        d.fact(FactType::Identifier, Some(t), &inv);
    }
    let first_raw = first.map(|(_, r)| r);
    let last_raw = last.map(|(_, r)| r);
    d.time(
        first_raw.as_deref(),
        unix_by_magnitude(first_raw.as_deref()),
        "First Life360 trip event",
        &inv,
    );
    if last_raw != first_raw {
        d.time(
            last_raw.as_deref(),
            unix_by_magnitude(last_raw.as_deref()),
            "Last Life360 trip event",
            &inv,
        );
    }
    let (at, enc) = listed_modified(f);
    d.time(at, enc, "Life360 trip file written", listing);
    d.interpretation = format!(
        "{}: a trip Life360's driving SDK recorded from the phone's motion ({} bytes), {} events{}{}{}{}; a trip does not say who drove. Event times are Unix seconds (milliseconds from 10^12 on).",
        f.path,
        f.size,
        events.len(),
        if types.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                types
                    .iter()
                    .map(|(t, n)| format!("{n} {t}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        if trips.is_empty() {
            String::new()
        } else {
            format!(", trip {}", trips.join(", "))
        },
        match (&first_raw, &last_raw) {
            (Some(a), Some(b)) if a != b => format!(", from {a} to {b}"),
            (Some(a), _) => format!(", at {a}"),
            _ => String::new(),
        },
        if said.is_empty() {
            String::new()
        } else {
            format!("; top level: {}", said.join(", "))
        }
    );
    record_draft(ctx, d)?;

    for (i, ev) in events.iter().enumerate() {
        if i as u64 >= super::MAX_ROWS {
            ctx.unparsed(
                &name,
                &format!(
                    "{} events: the first {} were recorded, the rest not",
                    events.len(),
                    super::MAX_ROWS
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        event(ctx, f, &inv, i, ev)?;
    }
    Ok(())
}

/// One event of a trip, and its route when it carries waypoints.
fn event(
    ctx: &AgentCtx<'_>,
    f: &ListedFile,
    inv: &Invoked,
    i: usize,
    ev: &Value,
) -> Result<(), RuntimeError> {
    let ty = json_scalar(ev.get("eventType")).unwrap_or_else(|| "?".into());
    let trip = json_scalar(ev.get("tripId"));
    let of_trip = trip
        .as_deref()
        .map(|t| format!(" of trip {t}"))
        .unwrap_or_default();
    let mut d = Draft::new("locations", format!("Life360 trip event {ty}{of_trip}"));
    d.fact(FactType::Path, Some(&f.path), inv);
    let mut said = d.json_fields(ev, inv, EVENT_FIELDS);
    if let Some(loc) = ev.get("location") {
        said.extend(d.json_fields(
            loc,
            inv,
            &[
                ("lat", FactType::Text, "latitude"),
                ("lon", FactType::Text, "longitude"),
            ],
        ));
    }
    // every other scalar member, as stored
    if let Some(obj) = ev.as_object() {
        for (k, v) in obj {
            if k == "timestamp" || EVENT_FIELDS.iter().any(|(c, _, _)| *c == k.as_str()) {
                continue;
            }
            if let Some(x) = json_scalar(Some(v)) {
                d.fact(FactType::Text, Some(&x), inv);
                said.push(format!("{k} {x}"));
            }
        }
    }
    let at = json_scalar(ev.get("timestamp"));
    d.time(
        at.as_deref(),
        unix_by_magnitude(at.as_deref()),
        "Life360 trip event",
        inv,
    );
    let points = ev
        .get("waypoints")
        .and_then(Value::as_array)
        .map(Vec::len)
        .unwrap_or(0);
    d.interpretation = format!(
        "event {} of {}: an event Life360's driving SDK recorded on a trip ({ty}): {}{}; speeds and distance as stored (the file writes no unit), when in Unix seconds (milliseconds from 10^12 on).",
        i + 1,
        f.path,
        said.join(", "),
        if points > 0 {
            format!("; its route holds {points} waypoints (summarised apart)")
        } else {
            String::new()
        }
    );
    record_draft(ctx, d)?;
    if points > 0 {
        route(ctx, f, inv, i, ev, trip.as_deref())?;
    }
    Ok(())
}

/// The waypoints of an event, summarised: how many, the first and the last.
fn route(
    ctx: &AgentCtx<'_>,
    f: &ListedFile,
    inv: &Invoked,
    i: usize,
    ev: &Value,
    trip: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some(points) = ev.get("waypoints").and_then(Value::as_array) else {
        return Ok(());
    };
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return Ok(());
    };
    let n = points.len();
    let mut d = Draft::new(
        "locations",
        format!(
            "Life360 trip route of trip {}: {n} waypoints",
            trip.unwrap_or("?")
        ),
    );
    d.fact(FactType::Path, Some(&f.path), inv);
    d.fact(FactType::Identifier, trip, inv);
    let mut said = d.json_fields(
        first,
        inv,
        &[
            ("lat", FactType::Text, "first latitude"),
            ("lon", FactType::Text, "first longitude"),
            ("accuracy", FactType::Text, "first accuracy"),
        ],
    );
    if n > 1 {
        said.extend(d.json_fields(
            last,
            inv,
            &[
                ("lat", FactType::Text, "last latitude"),
                ("lon", FactType::Text, "last longitude"),
                ("accuracy", FactType::Text, "last accuracy"),
            ],
        ));
    }
    let time_of = |p: &Value| json_scalar(p.get("timestamp").or_else(|| p.get("time")));
    let t0 = time_of(first);
    d.time(
        t0.as_deref(),
        unix_by_magnitude(t0.as_deref()),
        "First Life360 trip waypoint",
        inv,
    );
    if n > 1 {
        let t1 = time_of(last);
        d.time(
            t1.as_deref(),
            unix_by_magnitude(t1.as_deref()),
            "Last Life360 trip waypoint",
            inv,
        );
    }
    d.interpretation = format!(
        "the waypoints of event {} of {}: the route Life360's driving SDK kept around the event, {n} points summarised here (the points stay in the file): {}; coordinates in decimal degrees and accuracy as stored.",
        i + 1,
        f.path,
        said.join(", ")
    );
    record_draft(ctx, d)
}
