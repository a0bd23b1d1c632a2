//! The device's time zone as two preference files record it, read with `parse_plist`:
//! the App Store's (`mobile/Library/Preferences/com.apple.AppStore.plist`, iLEAPP's
//! `timezoneInfo`, "Timezone Information") and timed's Date & Time preferences
//! (`db/timed/Library/Preferences/com.apple.preferences.datetime.plist`, iLEAPP's `timezoneSet`,
//! "Timezone Set"):
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `com.apple.AppStore.plist` | one `device` per file ("App Store last bootstrap time zone <zone>") | `lastBootstrapTimeZone` (an IANA zone name), `lastBootstrapDate` (Cocoa seconds, or a plist date), every other scalar preference (iLEAPP lists every key) but those whose name says token, secret, password or cookie |
//! | `com.apple.preferences.datetime.plist` | one `device` per file ("Date & Time preference timezoneset <value>") | `timezoneset` as stored, the file's other scalar members |
//!
//! `lastBootstrapTimeZone` is the zone the device was set to when the App Store last
//! bootstrapped (at `lastBootstrapDate`): the device's zone then, not necessarily at
//! extraction, and the examiner's clue to the zone the device's naive local times are written in
//! (said). `timezoneset` is kept as stored (iLEAPP's reading: whether a time zone was set on the
//! device); the file names no zone. Lockdown's `data_ark.plist` time zone is read by
//! [`super::plists`].
//!
//! A file that is no dictionary is noted; a Date & Time file without `timezoneset` is noted; one
//! that does not parse is noted by the call. Identities: none.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, Run};
use crate::drafts::{apple_seconds, date_text};
use crate::outputs::{in_json, json_scalar};

/// Preferences named like a credential: never recorded.
const SECRET_WORDS: [&str; 4] = ["token", "secret", "password", "cookie"];

/// Most other preferences recorded of one file.
const OTHERS_MAX: usize = 100;

/// Triage of every App Store and Date & Time preferences file of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("com.apple.AppStore.plist", |find, path| {
        if path.ends_with("/Library/Preferences/com.apple.AppStore.plist") {
            app_store(run, find, path)
        } else {
            Ok(())
        }
    })?;
    run.each("com.apple.preferences.datetime.plist", |find, path| {
        if path.contains("/db/timed/")
            && path.ends_with("/Library/Preferences/com.apple.preferences.datetime.plist")
        {
            date_time(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// The top-level scalar members of `doc` but `skip` and credential-like names, as `(key, value)`
/// the output prints.
fn others(doc: &Value, skip: &[&str]) -> Vec<(String, String)> {
    let Some(m) = doc.as_object() else {
        return Vec::new();
    };
    m.iter()
        .filter(|(k, _)| !skip.contains(&k.as_str()))
        .filter(|(k, _)| {
            let k = k.to_lowercase();
            !SECRET_WORDS.iter().any(|w| k.contains(w))
        })
        .filter_map(|(k, v)| json_scalar(Some(v)).map(|s| (in_json(k), s)))
        .take(OTHERS_MAX)
        .collect()
}

fn app_store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse(run, path)? else {
        return Ok(());
    };
    if !doc.is_object() {
        run.ctx.unparsed(
            path,
            "could not read the App Store's bootstrap time zone because com.apple.AppStore.plist is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let zone = json_scalar(doc.get("lastBootstrapTimeZone"));
    let date = doc.get("lastBootstrapDate");
    let date_value = json_scalar(date);
    let encoding = match date {
        Some(Value::Number(_)) => apple_seconds(date_value.as_deref()),
        Some(Value::String(_)) => date_text(date_value.as_deref()),
        _ => None,
    };
    let mut d = Draft::new(
        "device",
        match &zone {
            Some(z) => format!("App Store last bootstrap time zone {z}"),
            None => "App Store preferences without a bootstrap time zone".to_string(),
        },
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Text, zone.as_deref(), &inv);
    d.time(
        date_value.as_deref(),
        encoding,
        "App Store last bootstrap",
        &inv,
    );
    let rest = others(&doc, &["lastBootstrapTimeZone", "lastBootstrapDate"]);
    for (_, v) in &rest {
        d.fact(FactType::Text, Some(v.as_str()), &inv);
    }
    d.interpretation = format!(
        "com.apple.AppStore.plist ({path}): {}{}. The zone is the one the device was set to when the App Store last bootstrapped: its zone then, not necessarily at extraction, and a clue to the zone its naive local times are written in.{}",
        match &zone {
            Some(z) => format!("lastBootstrapTimeZone {z}"),
            None => "no lastBootstrapTimeZone".to_string(),
        },
        match (&date_value, encoding) {
            (Some(v), Some(_)) if matches!(date, Some(Value::Number(_))) =>
                format!(", lastBootstrapDate {v} (Cocoa seconds)"),
            (Some(v), Some(_)) => format!(", lastBootstrapDate {v}"),
            (Some(v), None) => format!(", lastBootstrapDate {v} (no time)"),
            _ => String::new(),
        },
        if rest.is_empty() {
            String::new()
        } else {
            format!(
                " Other preferences: {}.",
                rest.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
    );
    run.record(d)
}

fn date_time(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse(run, path)? else {
        return Ok(());
    };
    if !doc.is_object() {
        run.ctx.unparsed(
            path,
            "could not read timed's Date & Time preferences because the file is no dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let Some(set) = json_scalar(doc.get("timezoneset")) else {
        run.ctx.unparsed(
            path,
            "timed's Date & Time preferences hold no timezoneset (nothing read, as iLEAPP)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let mut d = Draft::new(
        "device",
        format!("Date & Time preference timezoneset {set}"),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Text, Some(set.as_str()), &inv);
    let rest = others(&doc, &["timezoneset"]);
    for (_, v) in &rest {
        d.fact(FactType::Text, Some(v.as_str()), &inv);
    }
    d.interpretation = format!(
        "timed's Date & Time preferences ({path}) record timezoneset {set}: as stored, iLEAPP's reading being whether a time zone was set on the device; the file names no zone.{}",
        if rest.is_empty() {
            String::new()
        } else {
            format!(
                " Other members: {}.",
                rest.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
    );
    run.record(d)
}
