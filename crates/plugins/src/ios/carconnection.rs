//! The last car connection locationd keeps (`root/Library/Caches/locationd/cache.plist`), read
//! with `parse_plist`, as iLEAPP's `carCD` reads it: `LastVehicleConnection` (and
//! `LastVehicleConnectionV2` on later releases) is an array of the connection's start, its end
//! (Cocoa seconds) and the connection's type; `CalibrationUDID` an identifier locationd
//! calibrates with. One `device` phenomenon per plist holding any of them: both times on the
//! timeline, the type and the identifier as stored.
//!
//! Which of the two times is the connection and which the disconnection is iLEAPP's reading
//! (Josh Hickman's CarPlay study documents that both are kept, not their order): the
//! interpretation says so. `CalibrationUDID` is recorded, not observed as the device's UDID:
//! nothing documents that it is one.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run};

/// The plist's name; only the one under `/locationd/` is read.
pub const NAME: &str = "cache.plist";

/// Triage of every locationd `cache.plist` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find(NAME)? else {
        return Ok(());
    };
    for path in paths.iter().filter(|p| p.contains("/locationd/")) {
        let Some((inv, v)) = parse(run, path)? else {
            continue;
        };
        let udid = v.get("CalibrationUDID").and_then(Value::as_str);
        let connections: Vec<(&str, &Vec<Value>)> =
            ["LastVehicleConnection", "LastVehicleConnectionV2"]
                .into_iter()
                .filter_map(|k| Some((k, v.get(k)?.as_array()?)))
                .collect();
        if udid.is_none() && connections.is_empty() {
            continue;
        }
        let mut d = Draft::new("device", "Last car connection (locationd)");
        d.fact(FactType::Path, Some(path), &find);
        let mut said = Vec::new();
        for (key, c) in &connections {
            let time = |i: usize| c.get(i).filter(|t| t.is_number()).map(Value::to_string);
            let (start, end) = (time(0), time(1));
            for (t, mark) in [(&start, "car connected"), (&end, "car disconnected")] {
                d.time(t.as_deref(), Some(TimeEncoding::AppleSeconds), mark, &inv);
            }
            let kind = c.get(2).and_then(|k| match k {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            });
            d.fact(FactType::Text, kind.as_deref(), &inv);
            said.push(format!(
                "{key}: connected {}, disconnected {}, type {}",
                start.as_deref().unwrap_or("not recorded"),
                end.as_deref().unwrap_or("not recorded"),
                kind.as_deref().unwrap_or("not recorded")
            ));
        }
        if let Some(u) = udid {
            d.fact(FactType::Identifier, Some(u), &inv);
            said.push(format!("CalibrationUDID {u}"));
        }
        d.interpretation = format!(
            "{path} keeps the device's last connection to a car (CarPlay or the car's Bluetooth) as locationd recorded it: {}. The times are Cocoa seconds; which is the connection and which the disconnection is iLEAPP's reading (the first and second values), and the type is kept as stored. The calibration identifier is not known to be the device's UDID and is not used as one.",
            said.join("; ")
        );
        run.record(d)?;
    }
    Ok(())
}
