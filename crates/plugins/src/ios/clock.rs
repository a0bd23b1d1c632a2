//! The Clock app's preferences, read with `parse_plist`, with every field iLEAPP's `alarms`,
//! `appleTimers`, `appleStopwatch` and `appleWorldClock` report:
//!
//! - `mobile/Library/Preferences/com.apple.mobiletimerd.plist`: one `device` phenomenon per
//!   alarm (`MTAlarms` › `MTAlarms` › `$MTAlarm`: title, hour and minute, enabled, repeat days —
//!   the bitmask Monday 1 … Sunday 64, as iLEAPP reads it —, sound tone or media item, sleep
//!   alarm, bedtime do-not-disturb; its fire date, when it was last dismissed and last
//!   modified on the timeline: a dismissal is someone's hand on the phone), per timer
//!   (`MTTimers` › `$MTTimer`: title, state, duration, fire time, last modified, sound) and per
//!   stopwatch (`MTStopwatches` › `$MTStopwatch`: current interval, state, laps);
//! - `mobile/Library/Preferences/com.apple.mobiletimer.plist`: one `locations` phenomenon per
//!   world clock city (`cities` › `city`: name, country, locale, time zone, latitude,
//!   longitude, identifier, Yahoo code) — places the user chose to keep the time of.
//!
//! A plist without those keys gives nothing; one that is not a dictionary is noted.

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::{Draft, ENTRY_CAP, Run};

/// A scalar as the pretty JSON output writes it (strings bare).
fn scalar(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The objects of `pl[outer][inner][*][key]` (`MTAlarms` › `MTAlarms` › `$MTAlarm`).
fn entries<'a>(pl: &'a Value, outer: &str, key: &str) -> Vec<&'a Value> {
    pl.get(outer)
        .and_then(|o| o.get(outer))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| e.get(key))
        .take(ENTRY_CAP as usize)
        .collect()
}

/// The days of a repeat bitmask (Monday 1 … Sunday 64), as iLEAPP reads it.
fn repeat_days(mask: i64) -> String {
    match mask {
        0 => "never".into(),
        127 => "every day".into(),
        m => [
            "Monday",
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
        ]
        .iter()
        .enumerate()
        .filter(|(i, _)| m & (1 << i) != 0)
        .map(|(_, d)| *d)
        .collect::<Vec<_>>()
        .join(", "),
    }
}

/// Records the scalar `fields` of `o` (key, fact, what) and its `times` (key, mark, what) on `d`.
fn fields_of(
    d: &mut Draft,
    o: &Value,
    inv: &Invoked,
    fields: &[(&str, FactType, &str)],
    times: &[(&str, &str)],
) -> Vec<String> {
    let mut said = Vec::new();
    for (k, ft, what) in fields {
        if let Some(v) = scalar(o.get(*k)) {
            d.fact(*ft, Some(&v), inv);
            said.push(format!("{what} {v}"));
        }
    }
    for (k, mark) in times {
        if let Some(v) = scalar(o.get(*k)) {
            d.time(Some(&v), Some(TimeEncoding::Iso8601), mark, inv);
            said.push(format!("{} {v}", mark.to_lowercase()));
        }
    }
    said
}

/// Triage of the Clock app's two preference plists.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    if let Some((find, paths)) = run.find("com.apple.mobiletimerd.plist")? {
        for path in &paths {
            timers(run, &find, path)?;
        }
    }
    if let Some((find, paths)) = run.find("com.apple.mobiletimer.plist")? {
        for path in &paths {
            world_clock(run, &find, path)?;
        }
    }
    Ok(())
}

/// The plist at `path`, when it is a dictionary (else noted).
fn dictionary(run: &Run<'_, '_>, path: &str) -> Result<Option<(Invoked, Value)>, RuntimeError> {
    let Some((inv, pl)) = parse(run, path)? else {
        return Ok(None);
    };
    if !pl.is_object() {
        run.ctx.unparsed(
            path,
            "unexpected format: the plist is not a dictionary",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    }
    Ok(Some((inv, pl)))
}

fn timers(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, pl)) = dictionary(run, path)? else {
        return Ok(());
    };
    for a in entries(&pl, "MTAlarms", "$MTAlarm") {
        let title = scalar(a.get("MTAlarmTitle"));
        let at = match (
            a.get("MTAlarmHour").and_then(Value::as_i64),
            a.get("MTAlarmMinute").and_then(Value::as_i64),
        ) {
            (Some(h), Some(m)) => format!("{h:02}:{m:02}"),
            _ => "a time not kept".into(),
        };
        let mut d = Draft::new(
            "device",
            match &title {
                Some(t) => format!("Alarm {t} at {at}"),
                None => format!("Alarm at {at}"),
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields_of(
            &mut d,
            a,
            &inv,
            &[
                ("MTAlarmTitle", FactType::Text, "title"),
                ("MTAlarmHour", FactType::Count, "hour"),
                ("MTAlarmMinute", FactType::Count, "minute"),
                ("MTAlarmEnabled", FactType::Text, "enabled"),
                ("MTAlarmRepeatSchedule", FactType::Count, "repeat schedule"),
                ("MTAlarmIsSleep", FactType::Text, "sleep alarm"),
                (
                    "MTAlarmBedtimeDoNotDisturb",
                    FactType::Text,
                    "bedtime do not disturb",
                ),
            ],
            &[
                ("MTAlarmFireDate", "Alarm fire date"),
                ("MTAlarmDismissDate", "Alarm dismissed"),
                ("MTAlarmLastModifiedDate", "Alarm modified"),
            ],
        );
        if let Some(m) = a.get("MTAlarmRepeatSchedule").and_then(Value::as_i64) {
            said.push(format!("repeats {}", repeat_days(m)));
        }
        let sound = a.get("MTAlarmSound").and_then(|s| s.get("$MTSound"));
        if let Some(s) = sound {
            said.extend(fields_of(
                &mut d,
                s,
                &inv,
                &[
                    ("MTSoundToneID", FactType::Identifier, "tone"),
                    ("MTSoundMediaItemID", FactType::Identifier, "media item"),
                ],
                &[],
            ));
        }
        d.interpretation = format!(
            "{path} keeps the Clock alarm {}at {at}: {}. A dismissal time is when someone stopped the alarm on the phone.",
            title.map(|t| format!("{t} ")).unwrap_or_default(),
            said.join("; ")
        );
        run.record(d)?;
    }
    for t in entries(&pl, "MTTimers", "$MTTimer") {
        let mut d = Draft::new(
            "device",
            format!(
                "Timer {}",
                scalar(t.get("MTTimerTitle")).unwrap_or_else(|| "(untitled)".into())
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields_of(
            &mut d,
            t,
            &inv,
            &[
                ("MTTimerTitle", FactType::Text, "title"),
                ("MTTimerState", FactType::Text, "state"),
                ("MTTimerDuration", FactType::Text, "duration (s)"),
            ],
            &[("MTTimerLastModifiedDate", "Timer modified")],
        );
        if let Some(f) = t.get("MTTimerFireTime").and_then(|f| f.get("$MTTimerDate")) {
            said.extend(fields_of(
                &mut d,
                f,
                &inv,
                &[],
                &[("MTTimerTimeDate", "Timer fire time")],
            ));
        }
        if let Some(s) = t.get("MTTimerSound").and_then(|s| s.get("$MTSound")) {
            said.extend(fields_of(
                &mut d,
                s,
                &inv,
                &[("MTSoundToneID", FactType::Identifier, "tone")],
                &[],
            ));
        }
        d.interpretation = format!("{path} keeps a Clock timer: {}.", said.join("; "));
        run.record(d)?;
    }
    for s in entries(&pl, "MTStopwatches", "$MTStopwatch") {
        let mut d = Draft::new("device", "Stopwatch");
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields_of(
            &mut d,
            s,
            &inv,
            &[
                (
                    "MTStopwatchCurrentInterval",
                    FactType::Text,
                    "current interval (s)",
                ),
                ("MTStopwatchState", FactType::Text, "state"),
            ],
            &[],
        );
        let laps = s
            .get("MTStopwatchLaps")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        said.push(format!("{laps} lap(s)"));
        d.interpretation = format!("{path} keeps a Clock stopwatch: {}.", said.join("; "));
        run.record(d)?;
    }
    Ok(())
}

fn world_clock(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, pl)) = dictionary(run, path)? else {
        return Ok(());
    };
    for c in pl
        .get("cities")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("city"))
        .take(ENTRY_CAP as usize)
    {
        let name = scalar(c.get("unlocalizedName")).unwrap_or_else(|| "(unnamed)".into());
        let mut d = Draft::new("locations", format!("World clock city {name}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields_of(
            &mut d,
            c,
            &inv,
            &[
                ("unlocalizedName", FactType::Name, "city"),
                ("unlocalizedCountryName", FactType::Text, "country"),
                ("localeCode", FactType::Text, "locale"),
                ("timeZone", FactType::Text, "time zone"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("identifier", FactType::Identifier, "identifier"),
                ("yahooCode", FactType::Identifier, "Yahoo code"),
            ],
            &[],
        );
        d.interpretation = format!(
            "{path} lists {name} among the Clock app's world clocks, a place whose time the user chose to keep: {}.",
            said.join("; ")
        );
        run.record(d)?;
    }
    Ok(())
}
