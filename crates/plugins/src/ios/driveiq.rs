//! The DriveIQ SDK's segments (`Containers/Data/Application/<id>/Library/DriveIQ/segments/
//! current/*`, seen in Microsoft Teams), iLEAPP's `teamsSegment` (`teamsSegmentLocations`,
//! `…Motion`, `…Timezone`, `…Power`, `…StateChange`): files of one JSON array a line,
//! `[<time>, <kind>, {<payload>}]`, read with `read_text` a line at a time.
//!
//! | kind | phenomenon | fields |
//! |---|---|---|
//! | `location` | one `locations` per line ("DriveIQ location <latitude>, <longitude>") | latitude, longitude, speed, altitude, vertical and horizontal accuracy, the fix's time (`sourceTimestamp`) and the line's |
//! | `motion` | one `device` per line ("DriveIQ motion: <activity>") | activity name, the line's time |
//! | `timeCheck` | one `device` per line ("DriveIQ time zone <zone>") | time zone, offset, reason, the line's time |
//! | `power` | one `device` per line ("DriveIQ power: plugged in <flag>, battery <level>") | plugged in, battery level, the line's time |
//! | `stateChange` | one `apps` per line ("DriveIQ state change: <changes>") | every member of the payload (name and value), the line's time |
//!
//! The SDK logs where the phone was (and how it moved) for the app's trip detection, in the
//! background too: a location is the phone's, not a place the user chose (said). Every value is
//! taken as the line writes it (its JSON token), times as ISO 8601 text (or Unix seconds or
//! milliseconds, by size, when a number). Lines of another kind are counted in a note, as are
//! lines that are no such array; a folder without `segments/current` is noted. At most
//! [`super::ENTRY_CAP`] lines a source are recorded (the rest noted). Identities: none.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::drafts::{date_text, unix_by_magnitude};

/// The SDK's folder, searched as a folder.
pub const FOLDER: &str = "DriveIQ";

/// Whether `dir` is an app's DriveIQ folder.
pub fn is_folder(dir: &str) -> bool {
    dir.contains("/Containers/Data/Application/") && dir.ends_with("/Library/DriveIQ")
}

/// A location's payload members: `(key, type, label)`.
const LOCATION: [(&str, FactType, &str); 6] = [
    ("latitude", FactType::Text, "latitude"),
    ("longitude", FactType::Text, "longitude"),
    ("speed", FactType::Text, "speed"),
    ("altitude", FactType::Text, "altitude"),
    ("verticalAccuracy", FactType::Text, "vertical accuracy"),
    ("horizontalAccuracy", FactType::Text, "horizontal accuracy"),
];

/// Triage of every DriveIQ folder the one search found.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((_, dirs)) = run.find_dirs(FOLDER)? else {
        return Ok(());
    };
    let mut count = 0usize;
    for dir in dirs.iter().filter(|d| is_folder(d)) {
        let current = format!("{dir}/segments/current");
        let listed = run.ctx.call("list_dir", json!({ "path": current }))?;
        if !crate::calls::succeeded(&listed) {
            run.ctx.unparsed(
                dir,
                &format!(
                    "the DriveIQ folder holds no segments/current folder to read ({})",
                    crate::calls::failure_reason(&listed)
                ),
                Some(&listed.record.invocation_id),
            )?;
            continue;
        }
        for path in crate::outputs::found_paths(&listed.output.text) {
            if file_name(&path).starts_with('.') {
                continue;
            }
            let mut other = Other::default();
            let mut capped = false;
            super::installlog::each_line(run, &path, "DriveIQ segments", |inv, line| {
                if count >= ENTRY_CAP as usize {
                    capped = true;
                    return Ok(false);
                }
                if one(run, &listed, inv, &path, line, &mut other)? {
                    count += 1;
                }
                Ok(true)
            })?;
            other.note(run, &path)?;
            if capped {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Lines not recorded, by why.
#[derive(Default)]
struct Other {
    kinds: std::collections::BTreeMap<String, usize>,
    unreadable: usize,
}

impl Other {
    fn note(&self, run: &Run<'_, '_>, path: &str) -> Result<(), RuntimeError> {
        let mut why = Vec::new();
        if !self.kinds.is_empty() {
            let kinds: Vec<String> = self
                .kinds
                .iter()
                .map(|(k, n)| format!("{n} of kind {k}"))
                .collect();
            why.push(format!("lines of kinds not read ({})", kinds.join(", ")));
        }
        if self.unreadable > 0 {
            why.push(format!(
                "{} lines that are no [time, kind, payload] array",
                self.unreadable
            ));
        }
        if why.is_empty() {
            return Ok(());
        }
        run.ctx.unparsed(
            path,
            &format!("DriveIQ segment file: {}", why.join("; ")),
            None,
        )
    }
}

/// The JSON text of the value of member `key` in `line` (its first such member) as the line
/// writes it: a string's text between its quotes (escapes as written), or a number or boolean;
/// `None` when absent, null, empty or not a scalar.
fn token<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let name = format!("\"{key}\"");
    let mut from = 0;
    while let Some(i) = line[from..].find(&name) {
        let after = from + i + name.len();
        from = after;
        let Some(rest) = line[after..].trim_start().strip_prefix(':') else {
            continue;
        };
        let rest = rest.trim_start();
        let start = line.len() - rest.len();
        if let Some(body) = rest.strip_prefix('"') {
            let mut escaped = false;
            for (j, c) in body.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        return Some(&line[start + 1..start + 1 + j]).filter(|s| !s.is_empty());
                    }
                    _ => {}
                }
            }
            return None;
        }
        let end = rest
            .find(|c: char| matches!(c, ',' | '}' | ']') || c.is_whitespace())
            .unwrap_or(rest.len());
        // a nested object or array is no scalar token
        return Some(&line[start..start + end])
            .filter(|t| !t.is_empty() && *t != "null" && !t.starts_with(['{', '[']));
    }
    None
}

/// The first element of the line's array as the line writes it (a string's text, or a
/// number), with its time encoding.
fn line_time(line: &str) -> Option<(&str, Option<TimeEncoding>)> {
    let rest = line.trim_start().strip_prefix('[')?.trim_start();
    let start = line.len() - rest.len();
    if let Some(body) = rest.strip_prefix('"') {
        let end = body.find('"')?;
        let t = &line[start + 1..start + 1 + end];
        return Some((t, date_text(Some(t))));
    }
    let end = rest.find([',', ']'])?;
    let t = line[start..start + end].trim_end();
    Some((t, unix_by_magnitude(Some(t))))
}

/// A time as the line writes it: ISO 8601 text, else a number read by its size.
fn time_encoding(v: &str) -> Option<TimeEncoding> {
    date_text(Some(v)).or_else(|| unix_by_magnitude(Some(v)))
}

/// One line: recorded (`true`) when it is a segment of a kind read.
fn one(
    run: &Run<'_, '_>,
    listed: &Invoked,
    inv: &Invoked,
    path: &str,
    line: &str,
    other: &mut Other,
) -> Result<bool, RuntimeError> {
    if line.trim().is_empty() {
        return Ok(false);
    }
    let parsed = serde_json::from_str::<Value>(line).ok();
    let Some((kind, payload)) = parsed.as_ref().and_then(|v| {
        let a = v.as_array()?;
        Some((
            a.get(1)?.as_str()?.to_string(),
            a.get(2)?.as_object()?.clone(),
        ))
    }) else {
        other.unreadable += 1;
        return Ok(false);
    };
    let t = |k: &str| token(line, k).map(str::to_string);
    let shown = |k: &str| t(k).unwrap_or_else(|| "?".into());
    let (category, title, what) = match kind.as_str() {
        "location" => (
            "locations",
            format!(
                "DriveIQ location {}, {}",
                shown("latitude"),
                shown("longitude")
            ),
            "a location fix the DriveIQ SDK logged (where the phone was, for the app's trip detection, in the background too)",
        ),
        "motion" => (
            "device",
            format!("DriveIQ motion: {}", shown("activityName")),
            "the motion activity the phone reported (walking, driving …)",
        ),
        "timeCheck" => (
            "device",
            format!("DriveIQ time zone {}", shown("timezone")),
            "a check of the phone's time zone",
        ),
        "power" => (
            "device",
            format!(
                "DriveIQ power: plugged in {}, battery {}",
                shown("isPluggedIn"),
                shown("batteryLevel")
            ),
            "the phone's power state",
        ),
        "stateChange" => (
            "apps",
            format!(
                "DriveIQ state change: {}",
                payload
                    .keys()
                    .map(|k| format!("{k}: {}", shown(k.as_str())))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            "a change of the SDK's state",
        ),
        _ => {
            *other.kinds.entry(kind.clone()).or_default() += 1;
            return Ok(false);
        }
    };
    let mut d = Draft::new(category, title);
    d.fact(FactType::Path, Some(path), listed);
    let mut said = Vec::new();
    let fields: Vec<(String, FactType, String)> = match kind.as_str() {
        "location" => LOCATION
            .iter()
            .map(|(k, ft, l)| (k.to_string(), *ft, l.to_string()))
            .collect(),
        "motion" => vec![("activityName".into(), FactType::Text, "activity".into())],
        "timeCheck" => vec![
            ("timezone".into(), FactType::Text, "time zone".into()),
            ("offset".into(), FactType::Text, "offset".into()),
            ("reason".into(), FactType::Text, "reason".into()),
        ],
        "power" => vec![
            ("isPluggedIn".into(), FactType::Text, "plugged in".into()),
            (
                "batteryLevel".into(),
                FactType::Text,
                "battery level".into(),
            ),
        ],
        _ => payload
            .keys()
            .map(|k| (k.clone(), FactType::Text, k.clone()))
            .collect(),
    };
    for (key, ft, label) in &fields {
        if let Some(v) = token(line, key) {
            d.fact(*ft, Some(v), inv);
            said.push(format!("{label} {v}"));
        }
    }
    if kind == "location" {
        let at = token(line, "sourceTimestamp");
        d.time(at, at.and_then(time_encoding), "DriveIQ location fix", inv);
    }
    if let Some((v, enc)) = line_time(line) {
        d.time(Some(v), enc, "DriveIQ segment logged", inv);
    }
    d.interpretation = format!(
        "A {kind} line of the DriveIQ segment file {path}: {what} ({}); values as the line writes them.",
        said.join("; ")
    );
    run.record(d)?;
    Ok(true)
}
