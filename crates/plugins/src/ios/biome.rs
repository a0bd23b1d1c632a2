//! Biome (iOS 15+): the SEGB streams of `Library/Biome/streams/{restricted,public}/<stream>/local/`,
//! which on iOS 16+ take the place of KnowledgeC's app usage, read by `read_segb`
//! ([`masf_tools::segb_tool`]: v1 and v2 files, each record's state, times, CRC check and its
//! Protocol Buffers payload decoded without a schema). The fields of iLEAPP's Biome modules:
//!
//! | stream | phenomenon | fields |
//! |---|---|---|
//! | `App.InFocus` | one `app_usage` per record | the app's bundle id, foreground or background (field 3: 1 or 0, as iLEAPP reads it), the time it came to or left the foreground (field 4), the record's time |
//! | `Device.Wireless.Bluetooth` | one `device` per record | the Bluetooth device's address and name, the record's time |
//! | `_DKEvent.Safari.History` | one `web` per record | the address, the page's title, the visit's start and end, the source (bundle id, source and item ids), the event's GUID |
//! | `Device.Display.Backlight` (`public/Backlight` on older releases) | one `device` per record | the screen turned on or off (field 2), its time (field 1) |
//! | `_DKEvent.Device.IsPluggedIn` | one `device` per record | plugged in or not, the interval's start and end, when it was written, the event's GUID |
//! | `Notification` (public) | one `apps` per record | the app's bundle id, the time, the string fields iLEAPP reports unnamed (8, 9, 12, 15, 5, 1: a notification's texts as stored) |
//! | `NowPlaying` (public), `Media.NowPlaying` | one `media` per record | the app's bundle id, the time, the output routes' names, the string fields iLEAPP reports as "Info" (10, 8, 5) |
//! | `App.Installation` | one `apps` per record | the app's bundle id and UUID, version and build, the event type as stored, the two digests, the event's and the app's times (Unix seconds) |
//! | `Location.Visit` | one `locations` per record | latitude, longitude, horizontal and vertical accuracy, altitude, confidence, the matched place (name, address, category, id), the visit id; arrival, departure and detection times (Unix seconds; said to need corroborating, as iLEAPP's module and Mattia Epifani's study of the stream found) |
//!
//! A record marked deleted whose data is still in the file is read the same way and said to be
//! deleted; a CRC that does not match is said so. Dot files and the `tombstone` folder are not
//! read. Times are Cocoa seconds (since 2001). A Bluetooth device's stable address is observed
//! as the device `bluetooth:<address>`, as the Bluetooth pairing readers observe it.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, Run};
use crate::outputs::{Table, proto_text};

/// What a stream holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    InFocus,
    Bluetooth,
    Safari,
    Backlight,
    Plugged,
    Notification,
    NowPlaying,
    LocationVisit,
    AppInstall,
}

/// The streams read, by their folder's name.
const STREAMS: &[(&str, Kind)] = &[
    ("App.InFocus", Kind::InFocus),
    ("Device.Wireless.Bluetooth", Kind::Bluetooth),
    ("_DKEvent.Safari.History", Kind::Safari),
    ("Device.Display.Backlight", Kind::Backlight),
    ("Backlight", Kind::Backlight),
    ("_DKEvent.Device.IsPluggedIn", Kind::Plugged),
    ("Notification", Kind::Notification),
    ("NowPlaying", Kind::NowPlaying),
    ("Media.NowPlaying", Kind::NowPlaying),
    ("Location.Visit", Kind::LocationVisit),
    ("App.Installation", Kind::AppInstall),
];

/// The string fields of a notification record iLEAPP reports without a name (its "Field 1"…
/// "Field 5" and "data"), in its order.
const NOTIFICATION_TEXTS: [&str; 6] = ["8", "9", "12", "15", "5", "1"];

/// The string fields of a now-playing record iLEAPP reports as its "Info" columns.
const NOW_PLAYING_TEXTS: [&str; 3] = ["10", "8", "5"];

/// Triage of every Biome stream folder the one search found.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    for (folder, kind) in STREAMS {
        let Some((find, dirs)) = run.find_dirs(folder)? else {
            continue;
        };
        for dir in dirs
            .iter()
            .filter(|d| d.to_ascii_lowercase().contains("/biome/streams/"))
        {
            run.ctx.artefact(&format!("{dir}/local"), || {
                stream(run, &find, dir, folder, *kind)
            })?;
        }
    }
    Ok(())
}

/// The JSON of a `protobuf:` cell.
fn payload(t: &Table, row: &[Option<String>]) -> Option<Value> {
    t.get(row, "data")
        .and_then(|d| d.strip_prefix("protobuf:"))
        .and_then(|j| serde_json::from_str(j).ok())
}

/// The first value of field path `path` (`["4", "3"]`).
fn at<'a>(m: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut node = m;
    for f in path {
        node = node.get(f)?.get(0)?;
    }
    Some(node)
}

/// A time kept as a double field (`{"fixed64", "double"}`), as the output writes it; `None`
/// unless positive.
fn double(m: &Value, path: &[&str]) -> Option<String> {
    measure(m, path).filter(|v| v.parse::<f64>().is_ok_and(|v| v > 0.0))
}

/// Any double field (a coordinate, an accuracy), as the output writes it.
fn measure(m: &Value, path: &[&str]) -> Option<String> {
    at(m, path)?
        .get("double")
        .filter(|d| d.is_number())
        .map(Value::to_string)
}

/// An integer field, as the output writes it.
fn int(m: &Value, path: &[&str]) -> Option<i64> {
    at(m, path)?.as_i64()
}

/// One stream folder: its `local/` files read by `read_segb`.
fn stream(
    run: &Run<'_, '_>,
    find: &Invoked,
    dir: &str,
    name: &str,
    kind: Kind,
) -> Result<(), RuntimeError> {
    let local = format!("{dir}/local");
    let Some(inv) =
        crate::calls::call_or_note(run.ctx, &local, "read_segb", json!({ "path": local }))?
    else {
        return Ok(());
    };
    // one note per stream (a note per artefact stands): every problem the tool named
    let problems: Vec<&str> = inv
        .output
        .text
        .lines()
        .filter_map(|l| l.strip_prefix("# problem "))
        .collect();
    if !problems.is_empty() {
        run.ctx.unparsed(
            &local,
            &format!(
                "could not parse all of Biome's {name} stream (the rest was read): {}",
                problems.join("; ")
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let t = Table::parse(&inv.output.text);
    if inv.output.text.contains("\n# truncated") {
        run.ctx.unparsed(
            &local,
            &format!(
                "only the first {} records of Biome's {name} stream were read",
                t.rows.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    for row in &t.rows {
        let state = t.get(row, "state").unwrap_or("?");
        if state == "empty" {
            continue;
        }
        let Some(m) = payload(&t, row) else {
            if state == "written" {
                run.ctx.unparsed(
                    &local,
                    &format!(
                        "could not parse the Biome {name} record at offset {} of {} because its data is no Protocol Buffers message",
                        t.get(row, "offset").unwrap_or("?"),
                        t.get(row, "file").unwrap_or("?")
                    ),
                    Some(&inv.record.invocation_id),
                )?;
            }
            continue;
        };
        record(run, find, &inv, dir, name, kind, &t, row, &m)?;
    }
    Ok(())
}

/// One record's phenomenon.
#[allow(clippy::too_many_arguments)]
fn record(
    run: &Run<'_, '_>,
    find: &Invoked,
    inv: &Invoked,
    dir: &str,
    name: &str,
    kind: Kind,
    t: &Table,
    row: &[Option<String>],
    m: &Value,
) -> Result<(), RuntimeError> {
    let state = t.get(row, "state").unwrap_or("?");
    let deleted = if state == "written" {
        ""
    } else {
        " (a deleted record)"
    };
    let text = |path: &[&str]| proto_text(m, path);
    let (category, title, what) = match kind {
        Kind::InFocus => {
            let bundle = text(&["6"]).map(|(b, _)| b).unwrap_or_else(|| "?".into());
            let fg = int(m, &["3"]);
            (
                "app_usage",
                format!(
                    "{} {bundle}{deleted}",
                    if fg == Some(0) {
                        "App left the foreground:"
                    } else {
                        "App in focus:"
                    }
                ),
                format!(
                    "the app {bundle} {} (field 3 {})",
                    match fg {
                        Some(1) => "came to the foreground",
                        Some(0) => "went to the background",
                        _ => "changed focus",
                    },
                    fg.map(|v| v.to_string()).unwrap_or_else(|| "absent".into())
                ),
            )
        }
        Kind::Bluetooth => {
            let addr = text(&["1"]).map(|(a, _)| a).unwrap_or_else(|| "?".into());
            let dev = text(&["2"]).map(|(n, _)| n);
            (
                "device",
                format!(
                    "Bluetooth device {}{deleted}",
                    dev.as_ref()
                        .map(|n| format!("{n} ({addr})"))
                        .unwrap_or(addr.clone())
                ),
                format!(
                    "the Bluetooth device {addr}{} was connected",
                    dev.map(|n| format!(", named {n}")).unwrap_or_default()
                ),
            )
        }
        Kind::Safari => {
            let url = text(&["4", "3"])
                .map(|(u, _)| u)
                .unwrap_or_else(|| "?".into());
            let page = text(&["7", "2", "3"]).map(|(p, _)| p);
            (
                "web",
                format!(
                    "Safari visit: {}{deleted}",
                    page.clone().unwrap_or_else(|| url.clone())
                ),
                format!(
                    "Safari history event ({}): {url}{}; source {}, {}, {}; GUID {}",
                    text(&["1", "1"]).map(|(s, _)| s).unwrap_or_default(),
                    page.map(|p| format!(", titled {p}")).unwrap_or_default(),
                    text(&["6", "1"]).map(|(s, _)| s).unwrap_or_default(),
                    text(&["6", "2"]).map(|(s, _)| s).unwrap_or_default(),
                    text(&["6", "4"]).map(|(s, _)| s).unwrap_or_default(),
                    text(&["5"]).map(|(s, _)| s).unwrap_or_default(),
                ),
            )
        }
        Kind::Backlight => {
            let on = int(m, &["2"]);
            (
                "device",
                format!(
                    "Screen {}{deleted}",
                    match on {
                        Some(1) => "on",
                        Some(0) => "off",
                        _ => "state changed",
                    }
                ),
                format!(
                    "the screen's backlight state became {}",
                    on.map(|v| v.to_string()).unwrap_or_else(|| "?".into())
                ),
            )
        }
        Kind::Plugged => {
            let plugged = int(m, &["4", "4"]);
            (
                "device",
                format!(
                    "Device {}{deleted}",
                    if plugged == Some(1) {
                        "plugged in"
                    } else {
                        "unplugged"
                    }
                ),
                format!(
                    "the device was {} (field 4.4 {}) over the interval; GUID {}",
                    if plugged == Some(1) {
                        "plugged in"
                    } else {
                        "not plugged in"
                    },
                    plugged.map(|v| v.to_string()).unwrap_or_else(|| "?".into()),
                    text(&["5"]).map(|(s, _)| s).unwrap_or_default(),
                ),
            )
        }
        Kind::Notification => {
            let bundle = text(&["14"]).map(|(b, _)| b).unwrap_or_else(|| "?".into());
            let texts: Vec<String> = NOTIFICATION_TEXTS
                .iter()
                .filter_map(|f| text(&[f]).map(|(v, _)| format!("field {f}: {v}")))
                .collect();
            (
                "apps",
                format!("Notification of {bundle}{deleted}"),
                format!(
                    "a notification of {bundle}{}",
                    if texts.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", its texts as stored (fields whose meaning is not public; iLEAPP names them Field 1–5): {}",
                            texts.join("; ")
                        )
                    }
                ),
            )
        }
        Kind::NowPlaying => {
            let bundle = text(&["15"]).map(|(b, _)| b).unwrap_or_else(|| "?".into());
            let outputs: Vec<String> = m
                .get("14")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|o| o.get("3")?.get(0)?.as_str().map(str::to_string))
                .collect();
            let infos: Vec<String> = NOW_PLAYING_TEXTS
                .iter()
                .filter_map(|f| text(&[f]).map(|(v, _)| v))
                .collect();
            (
                "media",
                format!(
                    "Now playing in {bundle}{}{deleted}",
                    infos.first().map(|i| format!(": {i}")).unwrap_or_default()
                ),
                format!(
                    "{bundle} played media{}{}",
                    if infos.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", infos.join("; "))
                    },
                    if outputs.is_empty() {
                        String::new()
                    } else {
                        format!(", output to {}", outputs.join(" and "))
                    }
                ),
            )
        }
        Kind::LocationVisit => {
            let geo = |f: &str| measure(m, &["3", f]);
            let place = text(&["8", "5", "2"]).map(|(p, _)| p);
            let at = match (geo("1"), geo("2")) {
                (Some(la), Some(lo)) => format!("{la}, {lo}"),
                _ => "?".into(),
            };
            (
                "locations",
                format!(
                    "Visit at {}{deleted}",
                    place.clone().unwrap_or_else(|| at.clone())
                ),
                format!(
                    "a visit iOS detected at latitude/longitude {at} (horizontal accuracy {} m, altitude {}, vertical accuracy {}, confidence {}){}; arrival, departure and detection are Unix seconds, which iLEAPP and Mattia Epifani's study found need corroborating (records are written in batches long after the visit)",
                    geo("3").unwrap_or_else(|| "?".into()),
                    geo("4").unwrap_or_else(|| "?".into()),
                    geo("5").unwrap_or_else(|| "?".into()),
                    measure(m, &["6"]).unwrap_or_else(|| "?".into()),
                    match &place {
                        Some(p) => format!(
                            ", the place {p}{}{} (place id {}, visit id {})",
                            text(&["8", "5", "3"])
                                .map(|(a, _)| format!(", {a}"))
                                .unwrap_or_default(),
                            text(&["8", "5", "4"])
                                .map(|(c, _)| format!(", category {c}"))
                                .unwrap_or_default(),
                            text(&["8", "5", "1"]).map(|(i, _)| i).unwrap_or_default(),
                            text(&["8", "1"]).map(|(i, _)| i).unwrap_or_default(),
                        ),
                        None => ", no place matched".to_string(),
                    }
                ),
            )
        }
        Kind::AppInstall => {
            let bundle = text(&["1", "1"])
                .map(|(b, _)| b)
                .unwrap_or_else(|| "?".into());
            let version = text(&["3", "3"]).map(|(v, _)| v);
            (
                "apps",
                format!(
                    "App installation event: {bundle}{}{deleted}",
                    version
                        .as_ref()
                        .map(|v| format!(" {v}"))
                        .unwrap_or_default()
                ),
                format!(
                    "an installation event of {bundle} (event type {} as stored; iLEAPP reports it raw), app UUID {}, version {}, build {}, digests {} and {}; the event and app times are Unix seconds",
                    int(m, &["2"])
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "?".into()),
                    text(&["1", "2"])
                        .map(|(u, _)| u)
                        .unwrap_or_else(|| "?".into()),
                    version.unwrap_or_else(|| "?".into()),
                    text(&["3", "2"])
                        .map(|(b, _)| b)
                        .unwrap_or_else(|| "?".into()),
                    text(&["3", "4"])
                        .map(|(h, _)| h)
                        .unwrap_or_else(|| "none".into()),
                    text(&["3", "5"])
                        .map(|(h, _)| h)
                        .unwrap_or_else(|| "none".into()),
                ),
            )
        }
    };
    let mut d = Draft::new(category, title);
    d.fact(FactType::Path, Some(dir), find);
    let cited = |path: &[&str]| text(path).map(|(_, c)| c);
    match kind {
        Kind::InFocus => {
            d.fact(FactType::Identifier, cited(&["6"]).as_deref(), inv);
            let start = double(m, &["4"]);
            d.time(
                start.as_deref(),
                super::apple_encoding(start.as_deref()),
                if int(m, &["3"]) == Some(0) {
                    "App went to the background"
                } else {
                    "App came to the foreground"
                },
                inv,
            );
        }
        Kind::Bluetooth => {
            d.fact(FactType::Identifier, cited(&["1"]).as_deref(), inv);
            d.fact(FactType::Name, cited(&["2"]).as_deref(), inv);
        }
        Kind::Safari => {
            d.fact(FactType::Url, cited(&["4", "3"]).as_deref(), inv);
            d.fact(FactType::Text, cited(&["7", "2", "3"]).as_deref(), inv);
            for (f, what) in [("2", "Safari page visited"), ("3", "Safari visit ended")] {
                let v = double(m, &[f]);
                d.time(v.as_deref(), super::apple_encoding(v.as_deref()), what, inv);
            }
        }
        Kind::Backlight => {
            let v = double(m, &["1"]);
            d.time(
                v.as_deref(),
                super::apple_encoding(v.as_deref()),
                "Screen backlight changed",
                inv,
            );
        }
        Kind::Plugged => {
            for (f, what) in [
                ("2", "Plugged-in state began"),
                ("3", "Plugged-in state ended"),
            ] {
                let v = double(m, &[f]);
                d.time(v.as_deref(), super::apple_encoding(v.as_deref()), what, inv);
            }
        }
        Kind::Notification => {
            d.fact(FactType::Identifier, cited(&["14"]).as_deref(), inv);
            for f in NOTIFICATION_TEXTS {
                d.fact(FactType::Text, cited(&[f]).as_deref(), inv);
            }
            let v = double(m, &["2"]);
            d.time(
                v.as_deref(),
                super::apple_encoding(v.as_deref()),
                "Notification delivered",
                inv,
            );
        }
        Kind::NowPlaying => {
            d.fact(FactType::Identifier, cited(&["15"]).as_deref(), inv);
            for f in NOW_PLAYING_TEXTS {
                d.fact(FactType::Text, cited(&[f]).as_deref(), inv);
            }
            let v = double(m, &["2"]);
            d.time(
                v.as_deref(),
                super::apple_encoding(v.as_deref()),
                "Media playing",
                inv,
            );
        }
        Kind::LocationVisit => {
            for f in ["1", "2"] {
                d.fact(FactType::Text, measure(m, &["3", f]).as_deref(), inv);
            }
            d.fact(FactType::Name, cited(&["8", "5", "2"]).as_deref(), inv);
            d.fact(FactType::Text, cited(&["8", "5", "3"]).as_deref(), inv);
            for (f, what) in [
                ("4", "Visit arrival (to be corroborated)"),
                ("5", "Visit departure (to be corroborated)"),
                ("1", "Visit detected (to be corroborated)"),
            ] {
                let v = double(m, &[f]);
                d.time(
                    v.as_deref(),
                    crate::drafts::unix_seconds(v.as_deref()),
                    what,
                    inv,
                );
            }
        }
        Kind::AppInstall => {
            d.fact(FactType::Identifier, cited(&["1", "1"]).as_deref(), inv);
            d.fact(FactType::Identifier, cited(&["1", "2"]).as_deref(), inv);
            d.fact(FactType::Text, cited(&["3", "3"]).as_deref(), inv);
            for (path, what) in [
                (&["4"][..], "App installation event"),
                (&["3", "1"][..], "App time of the installation event"),
            ] {
                let v = double(m, path);
                d.time(
                    v.as_deref(),
                    crate::drafts::unix_seconds(v.as_deref()),
                    what,
                    inv,
                );
            }
        }
    }
    let time = t.get(row, "time");
    d.time(
        time,
        super::apple_encoding(time),
        "Biome record written",
        inv,
    );
    d.interpretation = format!(
        "Biome {name} record at offset {} of {} ({state}{}): {what}; times are Cocoa seconds (since 2001).",
        t.get(row, "offset").unwrap_or("?"),
        t.get(row, "file").unwrap_or("?"),
        if t.get(row, "crc") == Some("bad") {
            ", its data does not match its stored CRC-32"
        } else {
            ""
        },
    );
    run.record(d)?;
    if kind == Kind::Bluetooth
        && state == "written"
        && let Some(addr) = cited(&["1"])
    {
        super::bluetooth::peer(
            run,
            &addr,
            text(&["2"]).map(|(n, _)| n).as_deref(),
            inv,
            &format!("{dir}/local"),
        )?;
    }
    Ok(())
}
