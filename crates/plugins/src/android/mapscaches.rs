//! Google Maps' recent-history and saved-directions caches on Android
//! (`com.google.android.apps.maps/files/`), ALEAPP's `googleMapsSearches`,
//! `googleInitiatedNav` and `googleLastTrip`: what the user searched for in Maps, the places
//! they started navigating to, and the last trip they asked directions for.
//!
//! Maps writes each cache as one Protocol Buffers message framed by its `ProtoFileHelper`:
//! `<name>.cs` holds an 8-byte big-endian Adler-32 of the message, then the message (the 8 bytes
//! ALEAPP skips); older releases wrote `<name>`, the message alone, beside `<name>.adler32`. Both
//! are read with `read_protobuf` and its `doubles` option (the tool recognises the framing and
//! verifies the checksum; coordinates are doubles). The three recent-history files are one
//! message type (the app parses them with one parser). Field numbers are those ALEAPP reads.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `new_recent_history_cache_search(.cs)` | one `locations` per search ("Google Maps search: <text>") | the text (4 → 1), further texts (4 → 2, 4 → 3, 4 → 4), the coordinates (4 → 5 → 3 latitude, 4 → 5 → 4 longitude; where absent 4 → 6 → 1 → 3 and → 2, as ALEAPP reads them), the URL (11), the time (2, Unix microseconds) |
//! | `new_recent_history_cache_navigated(.cs)` | one `locations` per navigation started ("Google Maps navigation to <text>") | as a search |
//! | `new_recent_history_cache(.cs)` | one `locations` per entry ("Google Maps recent history: <text>") | as a search |
//! | `saved_directions.data(.cs)` | one `locations`, the last trip ("Google Maps last trip: <origin> → <destination>") | each waypoint of the request (2 → 1 → 1 → 1, in order: the origin, any stops, the destination): its name (1 → 1 → 1) or text (1 → 1 → 4), coordinates (1 → 1 → 3 → 3 latitude, → 4 longitude), address lines (1 → 2 → 1 to 5); the request's field 12 (ALEAPP's "Data"); two times (5 → 1 and 4, Unix milliseconds: ALEAPP's start and end) |
//!
//! Not read: the travel mode (neither ALEAPP nor any public reading names its field), the route's
//! steps and the other fields ALEAPP's typedefs list without reading them; the older layout's
//! `.adler32` file is not compared with its message.
//!
//! Noted: a file the tool cannot read (a cut or damaged `.cs` fails its checksum), a
//! recent-history file whose message has no entry list (field 1), a saved-directions file without
//! waypoints. No identity: a searched or visited place is not a person's.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::Located;
use crate::drafts::{Draft, headline, record_draft, unix_micros, unix_millis};
use crate::identity::{args_on, artefact_name};
use crate::outputs::json_scalar;

/// What a cache file holds, by its name (`.cs`, or the older layout without it).
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Searches,
    Navigations,
    History,
    Trip,
}

fn kind(name: &str) -> Option<Kind> {
    match name.strip_suffix(".cs").unwrap_or(name) {
        "new_recent_history_cache_search" => Some(Kind::Searches),
        "new_recent_history_cache_navigated" => Some(Kind::Navigations),
        "new_recent_history_cache" => Some(Kind::History),
        "saved_directions.data" => Some(Kind::Trip),
        _ => None,
    }
}

/// Whether `l` is one of Google Maps' recent-history or saved-directions caches (never an
/// `.adler32` checksum file).
pub fn is_cache(l: &Located) -> bool {
    l.path.contains("/com.google.android.apps.maps/files/") && kind(l.name()).is_some()
}

/// The first value at the field path `path` of a decoded message (`{"4": [{"1": ["…"]}]}`).
fn at<'a>(m: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(m, |v, f| v.get(*f)?.get(0))
}

/// The text or number at `path`, as the output prints it.
fn scalar(m: &Value, path: &[&str]) -> Option<String> {
    json_scalar(at(m, path)).filter(|s| !s.trim().is_empty())
}

/// The text at `path`, as the output prints it: a string field that is printable text (not
/// bytes the tool prints as `x'…'`, not a nested message).
fn text(m: &Value, path: &[&str]) -> Option<String> {
    at(m, path)
        .filter(|v| {
            v.as_str()
                .is_some_and(|s| !(s.starts_with("x'") && s.ends_with('\'')))
        })
        .and_then(|v| json_scalar(Some(v)))
        .filter(|s| !s.trim().is_empty())
}

/// The double at `path` (a fixed64 the `doubles` option prints with the double it encodes), as
/// the output prints it.
fn double(m: &Value, path: &[&str]) -> Option<String> {
    json_scalar(at(m, path)?.get("double"))
}

/// One cache file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(k) = kind(l.name()) else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_protobuf",
        args_on(&l.tree, json!({"path": l.path.as_str(), "doubles": true})),
    )?
    else {
        return Ok(());
    };
    let Some(doc) = crate::outputs::protobuf_document(&inv.output.text) else {
        ctx.unparsed(
            &name,
            "read_protobuf's output holds no message",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    if k == Kind::Trip {
        trip(ctx, l, &name, &inv, &doc)
    } else {
        entries(ctx, l, k, &name, &inv, &doc)
    }
}

/// The entries of a recent-history file: one phenomenon each.
fn entries(
    ctx: &AgentCtx<'_>,
    l: &Located,
    k: Kind,
    name: &str,
    inv: &Invoked,
    doc: &Value,
) -> Result<(), RuntimeError> {
    let Some(items) = doc
        .get("1")
        .and_then(Value::as_array)
        .filter(|a| a.iter().all(Value::is_object))
    else {
        ctx.unparsed(
            name,
            "could not parse Google Maps' recent history because its message has no list of entries (field 1)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let (what, time_what) = match k {
        Kind::Searches => (
            "a search the user made in Google Maps",
            "Searched in Google Maps",
        ),
        Kind::Navigations => (
            "a place the user started navigating to in Google Maps",
            "Navigation started in Google Maps",
        ),
        _ => (
            "an entry of Google Maps' recent history",
            "Google Maps recent history entry",
        ),
    };
    for (i, item) in items.iter().enumerate() {
        let place = text(item, &["4", "1"]);
        let (lat, lng, from) = match at(item, &["4", "5"]) {
            Some(c) => (double(c, &["3"]), double(c, &["4"]), "4 → 5 → 3 and 4"),
            None => {
                let c = at(item, &["4", "6", "1"]);
                (
                    c.and_then(|c| double(c, &["3"])),
                    c.and_then(|c| double(c, &["2"])),
                    "4 → 6 → 1 → 3 and 2",
                )
            }
        };
        let coords = match (&lat, &lng) {
            (Some(a), Some(o)) => Some(format!("{a}, {o}")),
            _ => None,
        };
        let shown = place
            .as_deref()
            .map(headline)
            .or(coords.clone())
            .unwrap_or_else(|| format!("entry {}", i + 1));
        let mut d = Draft::new(
            "locations",
            match k {
                Kind::Searches => format!("Google Maps search: {shown}"),
                Kind::Navigations => format!("Google Maps navigation to {shown}"),
                _ => format!("Google Maps recent history: {shown}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let mut said = Vec::new();
        if let Some(t) = &place {
            d.fact(FactType::Name, Some(t), inv);
            said.push(format!("the text \"{t}\" (field 4 → 1)"));
        }
        for f in ["2", "3", "4"] {
            if let Some(t) = text(item, &["4", f]) {
                d.fact(FactType::Text, Some(&t), inv);
                said.push(format!("\"{t}\" (field 4 → {f})"));
            }
        }
        d.fact(FactType::Text, lat.as_deref(), inv);
        d.fact(FactType::Text, lng.as_deref(), inv);
        if let Some(c) = &coords {
            said.push(format!(
                "latitude and longitude {c} (fields {from}, doubles, in degrees)"
            ));
        }
        let url = text(item, &["11"]);
        if let Some(u) = &url {
            d.fact(FactType::Url, Some(u), inv);
            said.push(format!("the URL {u} (field 11)"));
        }
        let time = scalar(item, &["2"]);
        d.time(
            time.as_deref(),
            unix_micros(time.as_deref()),
            time_what,
            inv,
        );
        d.interpretation = format!(
            "Entry {} of {} ({}): {what}: {}; field 2 is the entry's time in Unix microseconds, as ALEAPP reads it.",
            i + 1,
            l.name(),
            l.path,
            if said.is_empty() {
                "no text or coordinates".to_string()
            } else {
                said.join(", ")
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// A waypoint of the saved directions, its values as the output prints them.
struct Waypoint {
    place: Option<String>,
    text: Option<String>,
    lat: Option<String>,
    lng: Option<String>,
    lines: Vec<String>,
}

impl Waypoint {
    fn of(w: &Value) -> Self {
        let loc = at(w, &["1", "1"]);
        let address = at(w, &["1", "2"]);
        Self {
            place: loc.and_then(|x| text(x, &["1"])),
            text: loc.and_then(|x| text(x, &["4"])),
            lat: loc.and_then(|x| double(x, &["3", "3"])),
            lng: loc.and_then(|x| double(x, &["3", "4"])),
            lines: ["1", "2", "3", "4", "5"]
                .iter()
                .filter_map(|f| address.and_then(|a| text(a, &[*f])))
                .collect(),
        }
    }

    fn coords(&self) -> Option<String> {
        Some(format!("{}, {}", self.lat.as_ref()?, self.lng.as_ref()?))
    }

    /// Its name, else its text, else its coordinates.
    fn label(&self, i: usize) -> String {
        self.place
            .clone()
            .or(self.text.clone())
            .or(self.coords())
            .unwrap_or_else(|| format!("waypoint {}", i + 1))
    }
}

/// The last trip of `saved_directions.data`: one phenomenon.
fn trip(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    inv: &Invoked,
    doc: &Value,
) -> Result<(), RuntimeError> {
    let request = at(doc, &["2", "1", "1"]);
    let waypoints: Vec<Waypoint> = request
        .and_then(|r| r.get("1"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter(|w| w.is_object())
                .map(Waypoint::of)
                .collect()
        })
        .unwrap_or_default();
    let (Some(first), Some(final_)) = (waypoints.first(), waypoints.last()) else {
        ctx.unparsed(
            name,
            "could not parse Google Maps' saved directions because its message has no waypoints (field 2 → 1 → 1 → 1)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let last = waypoints.len() - 1;
    let mut d = Draft::new(
        "locations",
        format!(
            "Google Maps last trip: {} → {}",
            headline(&first.label(0)),
            headline(&final_.label(last))
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    for (i, w) in waypoints.iter().enumerate() {
        d.fact(FactType::Name, w.place.as_deref(), inv);
        d.fact(FactType::Text, w.text.as_deref(), inv);
        d.fact(FactType::Text, w.lat.as_deref(), inv);
        d.fact(FactType::Text, w.lng.as_deref(), inv);
        for line in &w.lines {
            d.fact(FactType::Text, Some(line), inv);
        }
        let mut parts = Vec::new();
        if let Some(p) = &w.place {
            parts.push(format!("\"{p}\" (1 → 1 → 1)"));
        }
        if let Some(t) = &w.text {
            parts.push(format!("\"{t}\" (1 → 1 → 4)"));
        }
        if !w.lines.is_empty() {
            parts.push(format!("address {} (1 → 2)", w.lines.join(", ")));
        }
        if let Some(c) = w.coords() {
            parts.push(format!(
                "latitude and longitude {c} (1 → 1 → 3 → 3 and 4, doubles, in degrees)"
            ));
        }
        let role = match i {
            0 => "the origin".to_string(),
            i if i == last => "the destination".to_string(),
            i => format!("stop {i}"),
        };
        said.push(format!(
            "{role} (waypoint {}): {}",
            i + 1,
            if parts.is_empty() {
                "no name or coordinates".to_string()
            } else {
                parts.join(", ")
            }
        ));
    }
    let data = request.and_then(|r| text(r, &["12"]));
    if let Some(v) = &data {
        d.fact(FactType::Text, Some(v), inv);
        said.push(format!("the request's field 12 (ALEAPP's \"Data\") {v}"));
    }
    let start = scalar(doc, &["5", "1"]);
    let end = scalar(doc, &["4"]);
    d.time(
        start.as_deref(),
        unix_millis(start.as_deref()),
        "Google Maps last trip: start (field 5 → 1, as ALEAPP reads it)",
        inv,
    );
    d.time(
        end.as_deref(),
        unix_millis(end.as_deref()),
        "Google Maps last trip: end (field 4, as ALEAPP reads it)",
        inv,
    );
    d.interpretation = format!(
        "{} ({}): the last directions asked for in Google Maps, its {} waypoints in order (field 2 → 1 → 1 → 1) — {}; fields 5 → 1 and 4 are Unix milliseconds, ALEAPP's start and end of the trip. The travel mode is not read: which field holds it is not established.",
        l.name(),
        l.path,
        waypoints.len(),
        said.join("; "),
    );
    record_draft(ctx, d)?;
    Ok(())
}
