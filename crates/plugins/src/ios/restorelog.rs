//! The software update's restore log (`/private/var/MobileSoftwareUpdate/restore.log`), iLEAPP's
//! `restore_log` ("Mobile Software Update"): the updater writes its analytics events as JSON
//! after `data = ` on a line; an event with `originalOSVersion` or `currentOSVersion` is an OS
//! update of this device.
//!
//! One `device` phenomenon per such event (every event of a line's `events`, where iLEAPP reads
//! the first): the update's time (`eventTime`, Unix seconds or ms by magnitude), the build before
//! and after, the event, device class, board id (`deviceModel`), battery level and charging, and
//! every other plain value of the event, each quoted as the line writes it (a value the line
//! writes otherwise — a number JSON would print differently — is said, not quoted). A line whose
//! JSON does not parse is counted and noted. At most [`ENTRY_CAP`] events a source. Identities:
//! none.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, ENTRY_CAP, Run, file_name};
use crate::drafts::unix_by_magnitude;

/// Whether `path` is the updater's restore log.
pub fn is_log(path: &str) -> bool {
    file_name(path) == "restore.log" && path.contains("/MobileSoftwareUpdate/")
}

/// Triage of every restore log of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut count = 0usize;
    run.each("restore.log", |find, path| {
        if is_log(path) {
            one(run, find, path, &mut count)?;
        }
        Ok(())
    })
}

/// A plain JSON value as text.
fn plain(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    count: &mut usize,
) -> Result<(), RuntimeError> {
    let mut bad: Option<(usize, Invoked)> = None;
    super::installlog::each_line(run, path, "update events", |inv, line| {
        let Some((_, json)) = line.split_once("data = ") else {
            return Ok(true);
        };
        let Ok(doc) = serde_json::from_str::<Value>(json.trim()) else {
            let n = bad.as_ref().map_or(0, |b| b.0);
            bad = Some((n + 1, inv.clone()));
            return Ok(true);
        };
        for event in doc["events"].as_array().into_iter().flatten() {
            let Some(e) = event.as_object() else {
                continue;
            };
            if !e.contains_key("originalOSVersion") && !e.contains_key("currentOSVersion") {
                continue;
            }
            if *count >= ENTRY_CAP as usize {
                return Ok(false);
            }
            *count += 1;
            record(run, find, path, inv, line, e)?;
        }
        Ok(true)
    })?;
    if let Some((n, inv)) = bad {
        run.ctx.unparsed(
            path,
            &format!("{n} lines with `data = ` hold no JSON that parses: not read"),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    inv: &Invoked,
    line: &str,
    e: &serde_json::Map<String, Value>,
) -> Result<(), RuntimeError> {
    let get = |k: &str| e.get(k).and_then(plain);
    let (from, to) = (get("originalOSVersion"), get("currentOSVersion"));
    let title = match (&from, &to) {
        (Some(f), Some(t)) if f != t => format!("OS updated from {f} to {t} (restore.log)"),
        (_, Some(t)) => format!("OS update event, build {t} (restore.log)"),
        (Some(f), None) => format!("OS update event from build {f} (restore.log)"),
        (None, None) => "OS update event (restore.log)".to_string(),
    };
    let mut d = Draft::new("device", title);
    d.fact(FactType::Path, Some(path), find);
    let time = get("eventTime");
    if time.as_deref().is_some_and(|t| line.contains(t)) {
        d.time(
            time.as_deref(),
            unix_by_magnitude(time.as_deref()),
            "OS update event",
            inv,
        );
    }
    let labels = [
        ("originalOSVersion", "build before"),
        ("currentOSVersion", "build after"),
        ("event", "event"),
        ("deviceClass", "device class"),
        ("deviceModel", "board id"),
        ("batteryLevel", "battery level"),
        ("batteryIsCharging", "charging"),
    ];
    let mut said = Vec::new();
    let mut keys: Vec<&String> = e.keys().collect();
    // iLEAPP's fields first, in its order, then the rest by name
    keys.sort_by_key(|k| {
        (
            labels
                .iter()
                .position(|(l, _)| l == k)
                .unwrap_or(labels.len()),
            k.as_str(),
        )
    });
    for k in keys {
        if k == "eventTime" {
            continue;
        }
        let Some(v) = get(k) else {
            continue;
        };
        let label = labels
            .iter()
            .find(|(l, _)| l == k)
            .map_or(k.as_str(), |(_, l)| *l);
        if line.contains(&v) {
            let ft = if matches!(
                k.as_str(),
                "originalOSVersion" | "currentOSVersion" | "deviceModel"
            ) {
                FactType::Identifier
            } else {
                FactType::Text
            };
            d.fact(ft, Some(&v), inv);
        }
        said.push(format!("{label} {v}"));
    }
    d.interpretation = format!(
        "{}: the software updater recorded an OS update event{}: {}. The builds are Apple's build numbers (the version each names is Apple's list, not read here).",
        file_name(path),
        time.map(|t| format!(" at {t} (Unix time)"))
            .unwrap_or_default(),
        said.join("; ")
    );
    run.record(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_log("/private/var/MobileSoftwareUpdate/restore.log"));
        assert!(!is_log("/private/var/mobile/Library/x/restore.log"));
        assert_eq!(plain(&serde_json::json!(0.5)).as_deref(), Some("0.5"));
        assert_eq!(plain(&serde_json::json!(true)).as_deref(), Some("true"));
        assert_eq!(plain(&serde_json::json!([1])), None);
    }
}
