//! Apple Maps' search history of iOS 12 and 13 (`GeoHistory.mapsdata`, in the Maps app's data
//! container `Library/Maps/`, or `mobile/Library/Maps/` on older iOS; iLEAPP's
//! `appleMapsSearchHistory`, which reads `*/GeoHistory.mapsdata` anywhere, as here), read with
//! `parse_plist`'s `protobuf` option on the member `contents`:
//!
//! | key | phenomenon | fields |
//! |---|---|---|
//! | `MSPHistory` › `records` › `<GUID>` (each) | one `locations` per record ("Apple Maps GeoHistory search \"<text>\"", "… directions from <A> to <B>", "… place <name>", or "… record <GUID>") | the record's GUID; when it was last modified (`modificationDate`, a plist date, UTC); of its `contents` — a Protocol Buffers message decoded without its schema —, at the positions iLEAPP reads: the search typed (8 › 2 › 1 › 201 › 2 › 2 › 1, iLEAPP's "Search Not in Protobuf"), the search's result places (8 › 2 › 1 › 4, each result's name at 8 › 1 › 10 › 3), iLEAPP's "Current Location" (8 › 2 › 8 › 3), the place shown (6 › 1 and 6 › 2, iLEAPP's "Location"), the directions' waypoints (7 › 1 › 1, each a place with its name at 1 › 2 › 5 and its address lines at 1 › 2 › 6 — iLEAPP's "Place Name" and "Short Address" —, or a list of results at 2 › 1 › 4); each result's place request (11 › 2, `placeRequest=` and base64) as stored; every other text of the message |
//!
//! What it proves: Maps was asked on this device for that search, place or route (the record's
//! time is when it was last modified: made or made again), not that the device went there. The
//! field positions are iLEAPP's, "established through testing" on iOS 12.4 and 13.3.1 images:
//! Apple documents no schema, so each value is said with its position, and every other text of
//! the message is kept as "another text" (meaning not established) so that a record laid out
//! otherwise still shows what it holds. Not read: the coordinates, the app and iLEAPP's "Search
//! Term 1/2" — iLEAPP takes them from the base64 message inside the `placeRequest=` text, which
//! no tool decodes; that text is cited as stored. The message is decoded without its schema (a
//! length-delimited field is text when it is printable UTF-8, a message otherwise), so a text
//! that parses as a message, or a message whose bytes are all printable, may be read as the
//! other.
//!
//! Schema drift: the history is read under `MSPHistory` or any other top-level dictionary
//! holding `records`; a position a record lacks is left out; a record whose `contents` is no
//! message is noted with its GUID and the rest read; a file with no such records (another
//! store of the same name) is noted; one that is no property list is noted by the call. Later
//! iOS keeps Maps' history in `MapsSync_0.0.1` ([`super::mapssync`]). Identities: none (places
//! and searches, no account).

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Map, Value, json};

use super::plists::parse_with;
use super::{Draft, Run};
use crate::drafts::date_text;
use crate::outputs::in_json;

/// The other texts kept from one record at most.
const OTHERS: usize = 40;

/// The distinct texts of one record's message walked at most (the named ones among them).
const WALKED: usize = 400;

/// Triage of every `GeoHistory.mapsdata` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("GeoHistory.mapsdata", |find, path| file(run, find, path))
}

fn file(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let options = json!({"protobuf": ["contents"]});
    let Some((inv, doc)) = parse_with(run, path, options)? else {
        return Ok(());
    };
    // `MSPHistory` as Maps writes it, or any other top-level dictionary holding the records
    let histories: Vec<(&String, &Map<String, Value>)> = doc
        .as_object()
        .map(|top| {
            top.iter()
                .filter_map(|(k, v)| Some((k, v.get("records")?.as_object()?)))
                .collect()
        })
        .unwrap_or_default();
    if histories.is_empty() {
        run.ctx.unparsed(
            path,
            "could not read Apple Maps' search history because this GeoHistory.mapsdata holds no MSPHistory records (a dictionary of records keyed by GUID under a top-level dictionary)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    for (key, records) in histories {
        for (guid, r) in records {
            record(run, (find, &inv), path, key, guid, r)?;
        }
    }
    Ok(())
}

/// The values at `path` of a decoded message: each step a field number, every value of a
/// repeated field followed.
fn at<'a>(v: &'a Value, path: &[&str]) -> Vec<&'a Value> {
    let mut nodes = vec![v];
    for f in path {
        nodes = nodes
            .into_iter()
            .filter_map(|n| n.get(*f).and_then(Value::as_array))
            .flatten()
            .collect();
    }
    nodes
}

/// Whether a decoded string is text: not blank, not hex (`x'…'`: bytes that were neither text
/// nor a message).
fn is_text(s: &str) -> bool {
    !(s.trim().is_empty() || s.starts_with("x'") && s.ends_with('\''))
}

/// The texts at `path` of a decoded message.
fn texts(v: &Value, path: &[&str]) -> Vec<String> {
    at(v, path)
        .into_iter()
        .filter_map(Value::as_str)
        .filter(|s| is_text(s))
        .map(str::to_string)
        .collect()
}

/// The results at `path` (8 › 2 › 1 › 4, or a waypoint's 2 › 1 › 4): each one's place names
/// (8 › 1 › 10 › 3) and request texts (11 › 2).
fn results(v: &Value, path: &[&str]) -> Vec<(Vec<String>, Vec<String>)> {
    at(v, path)
        .into_iter()
        .map(|r| (texts(r, &["8", "1", "10", "3"]), texts(r, &["11", "2"])))
        .collect()
}

/// Every text of a decoded message, once each, in the output's order (up to [`WALKED`]).
fn every_text(v: &Value, out: &mut Vec<String>) {
    if out.len() >= WALKED {
        return;
    }
    match v {
        Value::String(s) if is_text(s) && !out.contains(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| every_text(x, out)),
        Value::Object(m) => m.values().for_each(|x| every_text(x, out)),
        _ => {}
    }
}

/// `"a", "b"` of texts, for the interpretation.
fn quoted(v: &[String]) -> String {
    v.iter()
        .map(|s| format!("\"{s}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Adds each text of `values` not cited yet as a fact, as the output writes it.
fn cite_once(
    d: &mut Draft,
    cited: &mut BTreeSet<String>,
    t: FactType,
    values: &[String],
    inv: &Invoked,
) {
    for v in values {
        if cited.insert(v.clone()) {
            d.fact(t, Some(in_json(v).as_str()), inv);
        }
    }
}

/// One waypoint of directions: its place's names and address lines, and its results.
struct Waypoint {
    names: Vec<String>,
    lines: Vec<String>,
    results: Vec<(Vec<String>, Vec<String>)>,
}

impl Waypoint {
    /// The name the waypoint goes by: its place's, else its first result's.
    fn name(&self) -> Option<&String> {
        self.names
            .first()
            .or_else(|| self.results.iter().find_map(|(n, _)| n.first()))
    }
}

fn record(
    run: &Run<'_, '_>,
    (find, inv): (&Invoked, &Invoked),
    path: &str,
    key: &str,
    guid: &str,
    r: &Value,
) -> Result<(), RuntimeError> {
    let Some(m) = r.get("contents").and_then(|c| c.get("$data_protobuf")) else {
        run.ctx.unparsed(
            path,
            &format!(
                "record {guid} of {key} was not read: its contents is no Protocol Buffers message (or it has none)"
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let typed = texts(m, &["8", "2", "1", "201", "2", "2", "1"]);
    let here = texts(m, &["8", "2", "8", "3"]);
    let found = results(m, &["8", "2", "1", "4"]);
    let mut location = texts(m, &["6", "1"]);
    location.extend(texts(m, &["6", "2"]));
    let waypoints: Vec<Waypoint> = at(m, &["7", "1", "1"])
        .into_iter()
        .map(|w| Waypoint {
            names: texts(w, &["1", "2", "5"]),
            lines: texts(w, &["1", "2", "6"]),
            results: results(w, &["2", "1", "4"]),
        })
        .collect();
    let found_names: Vec<String> = found.iter().flat_map(|(n, _)| n.clone()).collect();
    let named: Vec<&String> = waypoints.iter().filter_map(Waypoint::name).collect();

    let title = if let Some(q) = typed.first() {
        format!("Apple Maps GeoHistory search \"{q}\"")
    } else if let (Some(first), Some(last)) = (named.first(), named.last()) {
        if named.len() > 1 {
            format!("Apple Maps GeoHistory directions from {first} to {last}")
        } else {
            format!("Apple Maps GeoHistory directions to {last}")
        }
    } else if let Some(p) = found_names.first().or(location.first()) {
        format!("Apple Maps GeoHistory place {p}")
    } else {
        format!("Apple Maps GeoHistory record {guid}")
    };
    let mut d = Draft::new("locations", title);
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, Some(in_json(guid).as_str()), inv);

    let mut cited: BTreeSet<String> = BTreeSet::new();
    let mut said = Vec::new();
    if !typed.is_empty() {
        cite_once(&mut d, &mut cited, FactType::Text, &typed, inv);
        said.push(format!("search typed {}", quoted(&typed)));
    }
    if !found_names.is_empty() {
        cite_once(&mut d, &mut cited, FactType::Name, &found_names, inv);
        said.push(format!("the search's results {}", quoted(&found_names)));
    }
    if !here.is_empty() {
        cite_once(&mut d, &mut cited, FactType::Text, &here, inv);
        said.push(format!(
            "iLEAPP's current location (8 › 2 › 8 › 3) {}",
            quoted(&here)
        ));
    }
    if !location.is_empty() {
        cite_once(&mut d, &mut cited, FactType::Text, &location, inv);
        said.push(format!(
            "the place shown (6 › 1, 6 › 2) {}",
            quoted(&location)
        ));
    }
    let mut requests: Vec<String> = found.iter().flat_map(|(_, q)| q.clone()).collect();
    let mut steps = Vec::new();
    for (i, w) in waypoints.iter().enumerate() {
        let names: Vec<String> = w
            .names
            .iter()
            .chain(w.results.iter().flat_map(|(n, _)| n))
            .cloned()
            .collect();
        cite_once(&mut d, &mut cited, FactType::Name, &names, inv);
        cite_once(&mut d, &mut cited, FactType::Text, &w.lines, inv);
        requests.extend(w.results.iter().flat_map(|(_, q)| q.clone()));
        let mut step = format!("waypoint {}", i + 1);
        if !w.names.is_empty() {
            step.push_str(&format!(" the place {}", quoted(&w.names)));
        }
        if !w.lines.is_empty() {
            step.push_str(&format!(" at {}", quoted(&w.lines)));
        }
        let picked: Vec<String> = w.results.iter().flat_map(|(n, _)| n.clone()).collect();
        if !picked.is_empty() {
            step.push_str(&format!(" the result {}", quoted(&picked)));
        }
        steps.push(step);
    }
    if !steps.is_empty() {
        said.push(format!("directions: {}", steps.join("; ")));
    }
    if !requests.is_empty() {
        cite_once(&mut d, &mut cited, FactType::Text, &requests, inv);
        said.push(format!(
            "{} place request text(s) (11 › 2) kept as stored: iLEAPP decodes the base64 after `placeRequest=` for the coordinates, the app and two search terms, which are not decoded here",
            requests.len()
        ));
    }
    let mut others = Vec::new();
    every_text(m, &mut others);
    let others: Vec<String> = others
        .into_iter()
        .filter(|s| !cited.contains(s))
        .take(OTHERS)
        .collect();
    if !others.is_empty() {
        cite_once(&mut d, &mut cited, FactType::Text, &others, inv);
        said.push(format!(
            "other texts of the record (at positions iLEAPP does not read; meaning not established) {}",
            quoted(&others)
        ));
    }
    let modified = r.get("modificationDate").and_then(Value::as_str);
    let when = match modified.and_then(|t| date_text(Some(t)).map(|e| (t, e))) {
        Some((t, enc)) => {
            let t = in_json(t);
            d.time(
                Some(t.as_str()),
                Some(enc),
                "Apple Maps history record modified",
                inv,
            );
            format!("last modified {t} (modificationDate, UTC)")
        }
        None => "with no modification date (no time)".to_string(),
    };
    d.interpretation = format!(
        "Record {guid} of {key} in {path} (Apple Maps' search history; its contents a Protocol Buffers message decoded without its schema), {when}: {}. The positions read are iLEAPP's (appleMapsSearchHistory, established by testing on iOS 12 and 13; Apple documents none). The record says Maps was asked on this device for this search, place or route, not that the device went there.",
        if said.is_empty() {
            "no text".to_string()
        } else {
            said.join("; ")
        }
    );
    run.record(d)
}
