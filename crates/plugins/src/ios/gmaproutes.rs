//! Google Maps' cached routes
//! (`Containers/Data/Application/<id>/Library/Application Support/CachedRoutes/<ms>.plist`),
//! iLEAPP's `cacheRoutesGmap`: the routes Google Maps computed, kept as NSKeyedArchiver
//! archives named after a time.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `CachedRoutes/<ms>.plist` | one `locations` per file ("Google Maps cached route <ms> (<n> points)") | each point of the route — every object of the archive with `_coordinateLat` and `_coordinateLong` (latitude, longitude and the object's other plain values: a title, an address where the archive keeps one) —, the file name read as Unix milliseconds |
//!
//! Read with `parse_plist`, which unwraps the archive into the object graph under its `$top`:
//! an object the archive references twice (a route's end, also a point of its path) appears
//! twice there, so identical points are kept once, in the order met (the output's keys are
//! sorted: the order says nothing of the route's direction, and which points are its ends is
//! not read: said). The time is the file name as Unix milliseconds — iLEAPP's reading of the
//! values seen, what event it marks not established (said) —, cited from the artefact search
//! that listed the file. A route is a way Google Maps planned, not a trip the phone made
//! (said). Up to [`POINTS`] points a file, the rest noted; a file whose name is not a number
//! is passed over (as iLEAPP); a file that does not parse is noted (by `parse_plist`'s
//! failure), one holding no such object noted. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Map, Value};

use super::plists::parse;
use super::{Draft, Run};
use crate::drafts::unix_millis;
use crate::outputs::json_scalar;

/// The folder the route files sit in.
const FOLDER: &str = "/Library/Application Support/CachedRoutes/";

/// Points recorded from one file at most.
pub const POINTS: usize = 500;

/// The members of a route point, as iLEAPP reads them.
const LAT: &str = "_coordinateLat";
const LON: &str = "_coordinateLong";

/// How deep the archive's graph is walked.
const DEPTH: usize = 64;

/// The file name's time, when `path` is a route file (`…/CachedRoutes/<digits>.plist`).
fn millis(path: &str) -> Option<&str> {
    let (_, name) = path.rsplit_once(FOLDER)?;
    let stem = name.strip_suffix(".plist")?;
    (!stem.is_empty() && stem.bytes().all(|b| b.is_ascii_digit())).then_some(stem)
}

/// Every object under `v` holding both coordinates, depth first, each distinct one once.
fn points<'a>(v: &'a Value, depth: usize, out: &mut Vec<&'a Map<String, Value>>) {
    if depth > DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            if m.contains_key(LAT) && m.contains_key(LON) {
                if !out.contains(&m) {
                    out.push(m);
                }
                return;
            }
            m.values().for_each(|x| points(x, depth + 1, out));
        }
        Value::Array(a) => a.iter().for_each(|x| points(x, depth + 1, out)),
        _ => {}
    }
}

/// Triage of every Google Maps route file of the source: the search's name for them is a
/// 13-digit millisecond time (every date from 2001 to 2286) and `.plist`.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("?????????????.plist", |find, path| match millis(path) {
        Some(ms) => route(run, find, path, ms),
        None => Ok(()),
    })
}

fn route(run: &Run<'_, '_>, find: &Invoked, path: &str, ms: &str) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse(run, path)? else {
        return Ok(());
    };
    let mut found = Vec::new();
    points(&doc, 0, &mut found);
    if found.is_empty() {
        run.ctx.unparsed(
            path,
            &format!(
                "the file holds no object with {LAT} and {LON} (no route point read; not a route archive as iLEAPP reads one)"
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let total = found.len();
    found.truncate(POINTS);
    let mut d = Draft::new(
        "locations",
        format!(
            "Google Maps cached route {ms} ({total} point{})",
            if total == 1 { "" } else { "s" }
        ),
    );
    d.fact(FactType::Path, Some(path), find);
    d.time(
        Some(ms),
        unix_millis(Some(ms)),
        "Google Maps route cached (file name)",
        find,
    );
    let mut said = Vec::new();
    for p in &found {
        let lat = json_scalar(p.get(LAT));
        let lon = json_scalar(p.get(LON));
        d.fact(FactType::Text, lat.as_deref(), &inv);
        d.fact(FactType::Text, lon.as_deref(), &inv);
        let mut more = Vec::new();
        for (k, v) in p.iter().filter(|(k, _)| *k != LAT && *k != LON) {
            if let Some(s) = json_scalar(Some(v)) {
                d.fact(FactType::Text, Some(&s), &inv);
                more.push(format!("{k} {s}"));
            }
        }
        if said.len() < 20 {
            said.push(format!(
                "({}, {}{})",
                lat.as_deref().unwrap_or("?"),
                lon.as_deref().unwrap_or("?"),
                more.iter().map(|m| format!(", {m}")).collect::<String>()
            ));
        }
    }
    d.interpretation = format!(
        "{path}: an archive Google Maps keeps of a route it computed — a way it planned, not a trip the phone made; its {total} distinct points (objects with {LAT} and {LON}, as iLEAPP reads them; latitude, longitude and the object's other values): {}{}; which are the route's start and end is not read (the points are in the order of the unwrapped archive); the file name {ms} read as Unix milliseconds (iLEAPP's reading of the values seen; what event it marks is not established).",
        said.join("; "),
        if total > said.len() {
            format!(" and {} more", total - said.len())
        } else {
            String::new()
        },
    );
    run.record(d)?;
    if total > POINTS {
        run.ctx.unparsed(
            path,
            &format!("only the first {POINTS} of the route's {total} points were recorded"),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn files_and_points() {
        let f = "/private/var/mobile/Containers/Data/Application/X/Library/Application Support/CachedRoutes/1717405200123.plist";
        assert_eq!(millis(f), Some("1717405200123"));
        assert_eq!(
            millis("/private/var/mobile/Library/Preferences/1717405200123.plist"),
            None
        );
        assert_eq!(millis(&f.replace("1717405200123", "routes_index_1")), None);
        let p = json!({"_coordinateLat": 47.1, "_coordinateLong": 8.5, "_title": "A"});
        let doc = json!({"root": {"destination": p, "path": [p, {"_coordinateLat": 47.2, "_coordinateLong": 8.6}], "summary": "A1"}});
        let mut out = Vec::new();
        points(&doc, 0, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].get("_title"), Some(&json!("A")));
    }
}
