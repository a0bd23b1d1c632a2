//! Apple Maps' preferences: where the map was last looked at.
//!
//! - `com.apple.Maps.plist` (the Maps app's container `Library/Preferences/`, or
//!   `Library/Preferences/` of the user on older iOS): `__internal__LastActivityCamera`, a
//!   Protocol Buffers message whose fields 1 and 2 are the latitude and longitude of the map's
//!   camera when Maps was last left (iLEAPP's `appleMapsApplication`);
//! - `group.com.apple.Maps.plist` (Maps' app group): `MapsActivity`, whose message 1 › 5 holds
//!   the same camera position (iLEAPP's `appleMapsGroup`).
//!
//! Both read with `parse_plist`'s `protobuf` option (the message decoded without its schema,
//! fixed64 values also as doubles). The field meanings are iLEAPP's reading of observed values
//! (coordinates in range), and neither message holds a time: one `locations` phenomenon per
//! position, said to be where the map was shown, not where the device was. The other fields of
//! the camera message (3 and 5 doubles, 4 a fixed64: altitude, heading or pitch, undocumented)
//! are kept as stored; the plist's modification time, as the file listing gives it, is put on
//! the timeline as the latest the camera can have been saved. A position out of range, or data
//! that is no message, is noted.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::plists::parse_with;
use super::{Draft, Run};

/// The plists read: file name, key of the message, path of the camera inside it, what it is.
const PLISTS: [(&str, &str, &[&str], &str); 2] = [
    (
        "com.apple.Maps.plist",
        "__internal__LastActivityCamera",
        &[],
        "the Maps app's last map camera",
    ),
    (
        "group.com.apple.Maps.plist",
        "MapsActivity",
        &["1", "5"],
        "the Maps app group's last activity",
    ),
];

/// Triage of Apple Maps' preference plists.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for (name, key, camera, what) in PLISTS {
        let Some((find, paths)) = run.find(name)? else {
            continue;
        };
        for path in &paths {
            let options = json!({"protobuf": [key]});
            let Some((inv, v)) = parse_with(run, path, options)? else {
                continue;
            };
            let Some(data) = v.get(key) else {
                continue;
            };
            let message = data
                .get("$data_protobuf")
                .and_then(|m| camera.iter().try_fold(m, |m, f| m.get(f)?.get(0)));
            match message.and_then(position) {
                Some(p) => record(run, (&find, &inv), path, (key, what), others(message), p)?,
                None => run.ctx.unparsed(
                    path,
                    &format!(
                        "{key} holds no camera position (a Protocol Buffers message {} with a latitude and a longitude in range in fields 1 and 2)",
                        if camera.is_empty() {
                            String::new()
                        } else {
                            format!("at field {}", camera.join(" › "))
                        }
                    ),
                    Some(&inv.record.invocation_id),
                )?,
            }
        }
    }
    Ok(())
}

/// The double of field `n` of a decoded message, as the output writes it.
fn double(m: &Value, n: &str) -> Option<(f64, String)> {
    let d = m.get(n)?.get(0)?.get("double")?;
    Some((d.as_f64()?, d.to_string()))
}

/// Latitude and longitude (fields 1 and 2), when both are in range and not both zero.
fn position(m: &Value) -> Option<(String, String)> {
    let (lat, lat_s) = double(m, "1")?;
    let (lon, lon_s) = double(m, "2")?;
    ((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon) && (lat, lon) != (0.0, 0.0))
        .then_some((lat_s, lon_s))
}

/// The camera message's other fields as iLEAPP types them (3 and 5 doubles, 4 a fixed64), as
/// the output writes them.
fn others(m: Option<&Value>) -> Vec<(&'static str, String)> {
    let Some(m) = m else {
        return Vec::new();
    };
    [("3", "double"), ("4", "fixed64"), ("5", "double")]
        .into_iter()
        .filter_map(|(n, as_)| {
            let v = m.get(n)?.get(0)?;
            Some((n, v.get(as_).unwrap_or(v).to_string()))
        })
        .collect()
}

fn record(
    run: &Run<'_, '_>,
    (find, inv): (&Invoked, &Invoked),
    path: &str,
    (key, what): (&str, &str),
    others: Vec<(&str, String)>,
    (lat, lon): (String, String),
) -> Result<(), RuntimeError> {
    let mut d = Draft::new("locations", format!("Apple Maps last viewed {lat}, {lon}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Text, Some(&lat), inv);
    d.fact(FactType::Text, Some(&lon), inv);
    let mut said = Vec::new();
    for (n, v) in &others {
        d.fact(FactType::Text, Some(v), inv);
        said.push(format!("field {n} {v}"));
    }
    // the plist's modification time as the listing gives it: the camera was saved no later
    let (entries, _) = crate::tree::parse_listing(&find.output.text);
    let written = entries
        .iter()
        .find(|e| e.path == path)
        .and_then(|e| e.times.iter().find(|(role, _)| role == "modified"))
        .and_then(|(role, raw)| crate::outputs::time_mark(role, raw).map(|(enc, _)| (raw, enc)));
    if let Some((raw, enc)) = written {
        d.time(Some(raw), Some(enc), "Maps preferences last written", find);
    }
    d.interpretation = format!(
        "{path} keeps in {key} {what}: latitude {lat}, longitude {lon}{}. It is where the map was shown when Maps was last used (a place looked at, searched or navigated to, or the device's own position), not a recorded position of the device, and it carries no time: {}.",
        if said.is_empty() {
            String::new()
        } else {
            format!(
                " (its other values as stored, meaning undocumented: {})",
                said.join(", ")
            )
        },
        match written {
            Some((raw, _)) => format!(
                "the plist was last written {raw} (its modification time in the listing), so the camera was saved no later"
            ),
            None => "the listing keeps no modification time for the plist to bound it".to_string(),
        }
    );
    run.record(d)
}
