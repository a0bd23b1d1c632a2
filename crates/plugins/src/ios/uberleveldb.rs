//! Uber's LevelDB message store (`Containers/Data/Application/<id>/Library/Application Support/
//! com.ubercab.UberClient/storagev2/`), iLEAPP's `uberLeveldb` (`uber_locations`, "Uber -
//! Locations (LevelDB)"): the rider app's queued analytics messages, each a JSON value whose
//! `jsonConformingObject` holds `meta` (when the message was made and where the phone was) and
//! `data` (the screen shown, the trips active). [`super::uberplaces`] reads the app's other
//! stores (`database.db`, `ur_message.db`, the rider state files); this reader keeps to
//! `storagev2`.
//!
//! Read with `leveldb_records` (every record version, its sequence number; JSON values with
//! secret-named members redacted by the tool), in pages of [`PAGE`] records, a store being the
//! folder itself or any folder below it holding LevelDB files (`*.log`, `*.ldb`, `*.sst`):
//!
//! | member of `jsonConformingObject` | phenomenon | fields |
//! |---|---|---|
//! | `meta.location` (`latitude`, `longitude`, `speed`, `course`, `altitude`, `horizontal_accuracy`, `vertical_accuracy`, `city`, `gps_time_ms`) | one `locations` per record holding a position, else one `apps` ("Uber storagev2 record <seq>") | latitude, longitude, speed, course, altitude, accuracies, city; the fix's time (`gps_time_ms`, Unix ms) |
//! | `meta.time_ms` | | when the app made the message (Unix ms) |
//! | `data.ui_state` (`scene`, `metadata`, `timestamp_ms`) | | the screen shown (scene), its metadata's values, when (Unix ms) |
//! | `data.active_trips`, `data.app_type_value_map` | | each of their values (the first 50 a member), with its key path in the interpretation |
//! | the record | | the key, the sequence number, whether a later deletion of the key is recorded |
//!
//! Every put version is one phenomenon (a key written twice gives two); a deleted key's
//! earlier value, which LevelDB keeps until it compacts the file, is read and said deleted.
//! Values are quoted as the tool shows them (JSON string escapes kept, `\/` as the app's JSON
//! writer may put it). A record whose value is no JSON object with `jsonConformingObject` is
//! counted in one note a store; damage the tool reports (`# problem`) is noted, the records
//! before it read. At most [`ROW_CAP`] records a store (noted beyond).
//!
//! What it proves: the phone's position (latitude, longitude, accuracy) when the Uber app made
//! the message, and what the app showed; not that a ride was taken. Identities: none (the
//! account signed in is read by [`super::uberplaces`] from the `client` file: `owner`, the
//! e-mail and `uber:<UUID>`).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run, file_name};
use crate::calls::{ROW_CAP, call_or_note};
use crate::drafts::unix_millis;
use crate::outputs::unescape;

/// The store's folder name, searched as a folder.
pub const FOLDER: &str = "storagev2";

/// Records a `leveldb_records` page shows.
pub const PAGE: u64 = 250;

/// Values recorded of each of `active_trips` and `app_type_value_map`.
const MAX_LEAVES: usize = 50;

/// The `meta.location` members read: (key, type, label).
const LOCATION: [(&str, FactType, &str); 8] = [
    ("latitude", FactType::Text, "latitude"),
    ("longitude", FactType::Text, "longitude"),
    (
        "horizontal_accuracy",
        FactType::Text,
        "horizontal accuracy (m)",
    ),
    ("vertical_accuracy", FactType::Text, "vertical accuracy (m)"),
    ("altitude", FactType::Text, "altitude (m)"),
    ("speed", FactType::Text, "speed"),
    ("course", FactType::Text, "course"),
    ("city", FactType::Name, "city"),
];

/// Whether `dir` is Uber's `storagev2` folder.
pub fn is_store(dir: &str) -> bool {
    dir.contains("/Library/Application Support/")
        && dir.ends_with(&format!("/com.ubercab.UberClient/{FOLDER}"))
}

/// Triage of every Uber `storagev2` folder the one search found.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((_, dirs)) = run.find_dirs(FOLDER)? else {
        return Ok(());
    };
    for dir in dirs.iter().filter(|d| is_store(d)) {
        let Some(found) = call_or_note(
            run.ctx,
            dir,
            "find_files",
            json!({"path": dir, "name_globs": ["*.log", "*.ldb", "*.sst"], "limit": 10_000}),
        )?
        else {
            continue;
        };
        // every folder holding record files is one store
        let stores: BTreeSet<String> = crate::outputs::found_paths(&found.output.text)
            .into_iter()
            .filter(|p| masf_tools::leveldb_tool::is_store_file(file_name(p)))
            .filter_map(|p| p.rsplit_once('/').map(|(d, _)| d.to_string()))
            .collect();
        for store in &stores {
            read_store(run, store)?;
        }
    }
    Ok(())
}

/// Every page of `leveldb_records` of the store `dir`, read before any record is interpreted
/// (a key's deletion may be recorded in a later file); damage the first page names is noted.
fn pages(run: &Run<'_, '_>, dir: &str) -> Result<Option<Vec<Invoked>>, RuntimeError> {
    let mut pages: Vec<Invoked> = Vec::new();
    let mut skip = 0u64;
    loop {
        let args = json!({"path": dir, "skip": skip, "limit": PAGE});
        let Some(inv) = call_or_note(run.ctx, dir, "leveldb_records", args)? else {
            return Ok((!pages.is_empty()).then_some(pages));
        };
        let s = inv.output.structured.clone().unwrap_or_default();
        let shown = s["shown"].as_u64().unwrap_or(0);
        let matched = s["matched"].as_u64().unwrap_or(0);
        if skip == 0 {
            let problems: Vec<&str> = inv
                .output
                .text
                .lines()
                .filter_map(|x| x.strip_prefix("# problem "))
                .collect();
            if !problems.is_empty() {
                run.ctx.unparsed(
                    dir,
                    &format!(
                        "part of Uber's storagev2 LevelDB is damaged, the records before the damage were read: {}",
                        problems.join("; ")
                    ),
                    Some(&inv.record.invocation_id),
                )?;
            }
        }
        pages.push(inv);
        skip += shown;
        if shown == 0 || skip >= matched || skip >= ROW_CAP {
            if skip < matched {
                run.ctx.unparsed(
                    dir,
                    &format!(
                        "{} records past the first {skip} were not read (the cap of a store)",
                        matched - skip
                    ),
                    pages.last().map(|i| i.record.invocation_id.as_str()),
                )?;
            }
            return Ok(Some(pages));
        }
    }
}

/// One record line of a page: (sequence, put, key, value as shown).
fn line(l: &str) -> Option<(&str, bool, &str, &str)> {
    if l.starts_with('#') {
        return None;
    }
    let c: Vec<&str> = l.splitn(8, '\t').collect();
    (c.len() == 8 && c[3].bytes().all(|b| b.is_ascii_digit()) && !c[3].is_empty())
        .then(|| (c[3], c[4] == "put", c[6], c[7]))
}

/// A string as the record's line shows it, when it does: JSON-escaped then escaped by the
/// tool, with `/` as is or as `\/` (Apple's JSON writer escapes it).
fn cited(shown: &str, s: &str) -> Option<String> {
    let json = serde_json::to_string(s).ok()?;
    let inner = &json[1..json.len().saturating_sub(1).max(1)];
    [inner.to_string(), inner.replace('/', "\\/")]
        .iter()
        .map(|c| masf_tools::leveldb_tool::escape(c.as_bytes()))
        .find(|c| !c.is_empty() && shown.contains(c.as_str()))
}

/// A scalar as the record's line shows it (a string: [`cited`]; a number or boolean as
/// written), `None` when the line does not hold it so.
fn scalar(shown: &str, v: Option<&Value>) -> Option<String> {
    let text = match v? {
        Value::String(s) if !s.trim().is_empty() => return cited(shown, s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => return None,
    };
    shown.contains(text.as_str()).then_some(text)
}

/// Every scalar under `v` with its key path (`a.b`; array items share their array's path).
fn leaves<'a>(v: &'a Value, prefix: &str, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                leaves(x, &p, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| leaves(x, prefix, out)),
        other => out.push((prefix.to_string(), other)),
    }
}

/// One store: a phenomenon per message record, the others counted.
fn read_store(run: &Run<'_, '_>, dir: &str) -> Result<(), RuntimeError> {
    let Some(pages) = pages(run, dir)? else {
        return Ok(());
    };
    // the newest sequence at which each key was deleted
    let mut deleted: BTreeMap<&str, u64> = BTreeMap::new();
    for (seq, put, key, _) in pages
        .iter()
        .flat_map(|p| p.output.text.lines())
        .filter_map(line)
    {
        if !put {
            let n = deleted.entry(key).or_default();
            *n = (*n).max(seq.parse().unwrap_or(0));
        }
    }
    let mut other = 0usize;
    for inv in &pages {
        for (seq, put, key, shown) in inv.output.text.lines().filter_map(line) {
            if !put {
                continue;
            }
            let value = serde_json::from_str::<Value>(&unescape(shown)).ok();
            let Some(obj) = value
                .as_ref()
                .and_then(|v| v.get("jsonConformingObject"))
                .filter(|o| o.is_object())
            else {
                other += 1;
                continue;
            };
            let later_delete = deleted
                .get(key)
                .is_some_and(|d| *d > seq.parse::<u64>().unwrap_or(0));
            record(run, dir, inv, seq, key, shown, obj, later_delete)?;
        }
    }
    if other > 0 {
        run.ctx.unparsed(
            dir,
            &format!(
                "{other} records of Uber's storagev2 LevelDB are no Uber message (no JSON with jsonConformingObject): not read"
            ),
            pages.first().map(|i| i.record.invocation_id.as_str()),
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn record(
    run: &Run<'_, '_>,
    dir: &str,
    inv: &Invoked,
    seq: &str,
    key: &str,
    shown: &str,
    obj: &Value,
    deleted: bool,
) -> Result<(), RuntimeError> {
    let meta = obj.get("meta");
    let data = obj.get("data");
    let location = meta
        .and_then(|m| m.get("location"))
        .filter(|l| l.is_object());
    let at = |v: Option<&Value>, k: &str| scalar(shown, v.and_then(|x| x.get(k)));
    let located = at(location, "latitude").is_some() && at(location, "longitude").is_some();
    let mut d = Draft::new(
        if located { "locations" } else { "apps" },
        format!("Uber storagev2 record {seq}"),
    );
    d.fact(FactType::Path, Some(dir), inv);
    d.fact(FactType::Identifier, Some(key), inv);
    let mut said = Vec::new();
    for (k, ft, label) in LOCATION {
        if let Some(v) = at(location, k) {
            d.fact(ft, Some(&v), inv);
            said.push(format!("{label} {v}"));
        }
    }
    let gps = at(location, "gps_time_ms");
    d.time(
        gps.as_deref(),
        unix_millis(gps.as_deref()),
        "Uber GPS fix",
        inv,
    );
    let made = at(meta, "time_ms");
    d.time(
        made.as_deref(),
        unix_millis(made.as_deref()),
        "Uber message made",
        inv,
    );
    let ui = data
        .and_then(|x| x.get("ui_state"))
        .filter(|u| u.is_object());
    if let Some(scene) = at(ui, "scene") {
        d.fact(FactType::Text, Some(&scene), inv);
        said.push(format!("scene {scene}"));
    }
    let ui_time = at(ui, "timestamp_ms");
    d.time(
        ui_time.as_deref(),
        unix_millis(ui_time.as_deref()),
        "Uber screen state",
        inv,
    );
    for (member, what) in [
        ("ui_state.metadata", "screen metadata"),
        ("active_trips", "active trips"),
        ("app_type_value_map", "app type value map"),
    ] {
        let v = member
            .split('.')
            .try_fold(data, |v, k| Some(v?.get(k)))
            .flatten();
        let Some(v) = v.filter(|v| !v.is_null()) else {
            continue;
        };
        let mut all = Vec::new();
        leaves(v, "", &mut all);
        let mut parts = Vec::new();
        for (path, x) in all.iter().take(MAX_LEAVES) {
            if let Some(s) = scalar(shown, Some(*x)) {
                d.fact(FactType::Text, Some(&s), inv);
                parts.push(if path.is_empty() {
                    s
                } else {
                    format!("{path} {s}")
                });
            }
        }
        if all.len() > MAX_LEAVES {
            parts.push(format!(
                "{} more values not recorded",
                all.len() - MAX_LEAVES
            ));
        }
        if !parts.is_empty() {
            said.push(format!("{what}: {}", parts.join(", ")));
        }
    }
    d.interpretation = format!(
        "Record {seq} (key {key}) of Uber's storagev2 LevelDB in {dir}: a message the rider app made{} ({}); {}. {}Times are Unix ms.",
        made.as_deref()
            .map(|m| format!(" at {m} (meta.time_ms)"))
            .unwrap_or_default(),
        if said.is_empty() {
            "none of the members read".to_string()
        } else {
            said.join("; ")
        },
        if located {
            "meta.location is where the phone was when the app made it (gps_time_ms the fix's time), not a place booked"
        } else {
            "it holds no position"
        },
        if deleted {
            "A later deletion of its key is recorded: the app removed it (sent or discarded); LevelDB kept the value until compaction. "
        } else {
            ""
        },
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_citations() {
        assert!(is_store(
            "/private/var/mobile/Containers/Data/Application/X/Library/Application Support/com.ubercab.UberClient/storagev2"
        ));
        assert!(!is_store(
            "/private/var/mobile/Containers/Data/Application/X/Library/storagev2"
        ));
        let l = "000005.log\tlog\t7\t12\tput\tutf8\tmsg-1\t{\"a\":\"Z\\\\u00fcrich\"}";
        assert_eq!(
            line(l).map(|r| (r.0, r.1, r.2)),
            Some(("12", true, "msg-1"))
        );
        assert_eq!(line("# page: records 1 to 2 of 2 shown"), None);
        // the value {"city":"Zürich","url":"https:\/\/x.y\/z","q":"a \"b\"","n":47.37} as the
        // tool shows it (its backslashes doubled)
        let raw = r#"{"city":"Zürich","url":"https:\/\/x.y\/z","q":"a \"b\"","n":47.37}"#;
        let shown = masf_tools::leveldb_tool::escape(raw.as_bytes());
        assert_eq!(cited(&shown, "Zürich").as_deref(), Some("Zürich"));
        assert_eq!(
            cited(&shown, "https://x.y/z").as_deref(),
            Some(r#"https:\\/\\/x.y\\/z"#)
        );
        assert_eq!(cited(&shown, "a \"b\"").as_deref(), Some(r#"a \\"b\\""#));
        assert_eq!(
            scalar(&shown, Some(&json!(47.37))).as_deref(),
            Some("47.37")
        );
        assert_eq!(scalar(&shown, Some(&json!(1.5))), None);
    }
}
