//! Android's usage statistics (`/data/system/usagestats/<user>/{daily,weekly,monthly,yearly}/
//! <begin time>`): which app was used when, for how long, and every activity, screen and
//! keyguard event of the day — ALEAPP's `usagestats`. Android 5 to 9 write each interval as
//! XML (AOSP's `UsageStatsXmlV1`, through `FastXmlSerializer`); the file's name is the
//! interval's begin time (Unix ms) and, since Android 5.1, every time inside it is an offset
//! from that begin time (5.0 wrote absolute times and a `beginTime` attribute).
//!
//! The `android_usage_stats` tool reads one file and prints absolute times, so that each fact
//! grounds in its output as the phenomenon states it: a header (interval, begin, end, counts),
//! then one tab-separated line per screen/keyguard total (`interactive`, `non-interactive`,
//! `keyguard-shown`, `keyguard-hidden`), per package (last time used, time in foreground, last
//! event, launch count, chooser counts), per configuration and per event (time, package, class,
//! type and its name, flags, shortcut, standby bucket, notification channel). Android 11 and
//! later write protocol buffers (`UsageStatsProtoV2`) whose strings are tokens of the user's
//! `mappings` file: the tool reads that file beside the intervals and prints the names ([`proto`]).
//! Android 10's protocol buffers (`UsageStatsProto`: names written out or as indexes into the
//! file's own string pool) are read too; a tokenised file whose `mappings` is missing is
//! refused, saying so, so that the coverage table shows it as not parsed rather than empty.
//!
//! Hand-written over `quick-xml` and a wire-format walker: no crate reads these formats.

use masf_agents::{AgentCtx, PhenomenonDraft, RuntimeError};

use masf_graph::{FactType, TimeEncoding, TimeMark};
use masf_tools::{Applicability, Invoked, SourceCtx, Tool, ToolError, ToolOutput};
use quick_xml::events::Event as XmlEvent;
use serde_json::{Value, json};

use super::MAX_ROWS;
use crate::calls::call_or_note;
use crate::drafts::fact;
use crate::identity::{TreeRef, args_on, artefact_name, record};

/// Largest file read.
pub const FILE_MAX: u64 = 32 << 20;

/// Most events read from one file.
pub const EVENTS_MAX: usize = 500_000;

/// The intervals, by directory name.
pub const INTERVALS: [&str; 4] = ["daily", "weekly", "monthly", "yearly"];

/// The name of an event type (`UsageEvents.Event`).
pub fn event_name(t: i64) -> &'static str {
    match t {
        0 => "NONE",
        1 => "MOVE_TO_FOREGROUND",
        2 => "MOVE_TO_BACKGROUND",
        3 => "END_OF_DAY",
        4 => "CONTINUE_PREVIOUS_DAY",
        5 => "CONFIGURATION_CHANGE",
        6 => "SYSTEM_INTERACTION",
        7 => "USER_INTERACTION",
        8 => "SHORTCUT_INVOCATION",
        9 => "CHOOSER_ACTION",
        10 => "NOTIFICATION_SEEN",
        11 => "STANDBY_BUCKET_CHANGED",
        12 => "NOTIFICATION_INTERRUPTION",
        13 => "SLICE_PINNED_PRIV",
        14 => "SLICE_PINNED",
        15 => "SCREEN_INTERACTIVE",
        16 => "SCREEN_NON_INTERACTIVE",
        17 => "KEYGUARD_SHOWN",
        18 => "KEYGUARD_HIDDEN",
        19 => "FOREGROUND_SERVICE_START",
        20 => "FOREGROUND_SERVICE_STOP",
        21 => "CONTINUING_FOREGROUND_SERVICE",
        22 => "ROLLOVER_FOREGROUND_SERVICE",
        23 => "ACTIVITY_STOPPED",
        24 => "ACTIVITY_DESTROYED",
        25 => "FLUSH_TO_DISK",
        26 => "DEVICE_SHUTDOWN",
        27 => "DEVICE_STARTUP",
        28 => "USER_UNLOCKED",
        29 => "USER_STOPPED",
        30 => "LOCUS_ID_SET",
        31 => "APP_COMPONENT_USED",
        _ => "UNKNOWN",
    }
}

/// Whether a path is an interval file of the usage statistics: `…/usagestats/<user>/<interval>/
/// <digits>`.
pub fn interval_file(path: &str) -> Option<&'static str> {
    let mut parts = path.rsplit('/');
    let name = parts.next()?;
    let interval = parts.next()?;
    let _user = parts.next()?.parse::<u32>().ok()?;
    if parts.next()? != "usagestats" || name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    INTERVALS.iter().copied().find(|i| *i == interval)
}

/// One interval file, read.
#[derive(Debug, Default)]
struct Stats {
    begin: i64,
    end: Option<i64>,
    absolute: bool,
    lines: Vec<String>,
    packages: usize,
    events: usize,
    configs: usize,
}

/// Reads an interval file whose name gives `begin` (Unix ms).
/// `mappings` reads the user's `mappings` file; it is called only for a file that needs it
/// (Android 11+'s tokens), not for every interval.
fn parse(
    data: &[u8],
    begin: i64,
    mappings: impl FnOnce() -> Result<Option<Vec<u8>>, String>,
) -> Result<Stats, String> {
    let start = data
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .ok_or("the file is empty")?;
    if data[start] != b'<' {
        if proto::has_string_pool(data) {
            return proto::interval_v1(data, begin);
        }
        return match mappings()? {
            Some(m) => proto::interval(data, begin, &proto::mappings(&m)?),
            None => Err(
                "protocol buffers without a string pool and no `mappings` file beside them: Android 11 and later name packages by tokens of `usagestats/<user>/mappings`, which is missing, so the packages cannot be named"
                    .into(),
            ),
        };
    }
    let text = std::str::from_utf8(data).map_err(|e| format!("not UTF-8 XML: {e}"))?;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut st = Stats {
        begin,
        ..Stats::default()
    };
    let mut root = false;
    // the package whose chooser counts are being read, and the action
    let mut chooser: Option<String> = None;
    loop {
        let ev = reader
            .read_event()
            .map_err(|e| format!("XML error at byte {}: {e}", reader.error_position()))?;
        let (e, empty) = match ev {
            XmlEvent::Start(e) => (e, false),
            XmlEvent::Empty(e) => (e, true),
            XmlEvent::Eof => break,
            XmlEvent::End(e) if AsRef::<str>::as_ref(&e.name()) == "chosen_action" => {
                chooser = None;
                continue;
            }
            _ => continue,
        };
        let _ = empty;
        let attrs: Vec<(String, String)> = e
            .attributes()
            .flatten()
            .map(|a| {
                (
                    AsRef::<str>::as_ref(&a.key).to_string(),
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map(|v| v.into_owned())
                        .unwrap_or_else(|_| a.value.to_string()),
                )
            })
            .collect();
        let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        let num = |k: &str| -> Result<Option<i64>, String> {
            match get(k) {
                None => Ok(None),
                Some(v) => v.trim().parse::<i64>().map(Some).map_err(|_| {
                    format!(
                        "attribute {k}=\"{v}\" of <{}> at byte {} is not a number",
                        AsRef::<str>::as_ref(&e.name()),
                        reader.buffer_position()
                    )
                }),
            }
        };
        let name = AsRef::<str>::as_ref(&e.name()).to_string();
        if !root {
            if name != "usagestats" {
                return Err(format!("the root element is <{name}>, not <usagestats>"));
            }
            root = true;
            if let Some(b) = num("beginTime")? {
                // Android 5.0: absolute times
                st.absolute = true;
                st.begin = b;
                st.end = num("endTime")?;
            } else {
                st.end = num("endTime")?.map(|o| begin + o);
            }
            continue;
        }
        let at = |offset: Option<i64>| -> String {
            match offset {
                Some(o) if st.absolute => o.to_string(),
                Some(o) => (st.begin + o).to_string(),
                None => String::new(),
            }
        };
        match name.as_str() {
            "interactive" | "non-interactive" | "keyguard-shown" | "keyguard-hidden" => {
                st.lines.push(format!(
                    "{name}\t\t\t\t\t\tcount {}, duration {} ms",
                    get("count").unwrap_or("0"),
                    get("time").unwrap_or("0")
                ));
            }
            "package" => {
                let Some(pkg) = get("package").or(get("name")) else {
                    return Err(format!(
                        "<package> at byte {} has no package attribute",
                        reader.buffer_position()
                    ));
                };
                let last_event = num("lastEvent")?;
                st.packages += 1;
                let mut detail = vec![format!(
                    "time in foreground {} ms",
                    get("timeActive")
                        .or(get("totalTimeActive"))
                        .unwrap_or("not recorded")
                )];
                if let Some(n) = get("appLaunchCount") {
                    detail.push(format!("launches {n}"));
                }
                st.lines.push(format!(
                    "package\t{}\t{pkg}\t\t{}\t{}\t{}",
                    at(num("lastTimeActive")?),
                    last_event.map(|t| t.to_string()).unwrap_or_default(),
                    last_event.map(event_name).unwrap_or(""),
                    detail.join(", ")
                ));
                chooser = None;
                if !empty {
                    chooser = Some(pkg.to_string());
                }
            }
            "chosen_action" => {
                if let Some(p) = &chooser {
                    let action = get("name").unwrap_or("");
                    chooser = Some(format!(
                        "{}\u{1}{action}",
                        p.split('\u{1}').next().unwrap_or(p)
                    ));
                }
            }
            "category" => {
                if let Some(c) = &chooser {
                    let (pkg, action) = c.split_once('\u{1}').unwrap_or((c.as_str(), ""));
                    st.lines.push(format!(
                        "chooser\t\t{pkg}\t\t\t\taction {action}, category {}, count {}",
                        get("name").unwrap_or(""),
                        get("count").unwrap_or("0")
                    ));
                }
            }
            "config" => {
                st.configs += 1;
                let mut rest: Vec<String> = attrs
                    .iter()
                    .filter(|(k, _)| {
                        !matches!(
                            k.as_str(),
                            "lastTimeActive"
                                | "timeActive"
                                | "totalTimeActive"
                                | "count"
                                | "active"
                        )
                    })
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                rest.sort();
                st.lines.push(format!(
                    "config\t{}\t\t\t\t\tactive {} ms, activations {}{}; {}",
                    at(num("lastTimeActive")?),
                    get("timeActive").or(get("totalTimeActive")).unwrap_or("0"),
                    get("count").unwrap_or("0"),
                    if get("active") == Some("true") {
                        ", the active configuration"
                    } else {
                        ""
                    },
                    rest.join(" ")
                ));
            }
            "event" | "event-log" => {
                let pkg = get("package").or(get("name"));
                let Some(pkg) = pkg else {
                    // the <event-log> container of Android 5.1+
                    continue;
                };
                st.events += 1;
                if st.events > EVENTS_MAX {
                    return Err(format!(
                        "more than {EVENTS_MAX} events: not a usage-stats file this tool reads"
                    ));
                }
                let t = num("type")?.unwrap_or(0);
                let mut detail = Vec::new();
                for (k, label) in [
                    ("flags", "flags"),
                    ("shortcutId", "shortcut"),
                    ("standbyBucket", "standby bucket"),
                    ("notificationChannel", "notification channel"),
                ] {
                    if let Some(v) = get(k) {
                        detail.push(format!("{label} {v}"));
                    }
                }
                st.lines.push(format!(
                    "event\t{}\t{pkg}\t{}\t{t}\t{}\t{}",
                    at(num("time")?),
                    get("class").unwrap_or(""),
                    event_name(t),
                    detail.join(", ")
                ));
            }
            _ => {}
        }
    }
    if !root {
        return Err("no <usagestats> element".into());
    }
    Ok(st)
}

/// Android 11+'s usage statistics (AOSP's `UsageStatsProtoV2`): an `IntervalStatsObfuscatedProto`
/// per interval file whose package, class and other strings are tokens of the user's `mappings`
/// file (`ObfuscatedPackagesProto`: per package token, written + 1, the list of its strings —
/// the package name first, then its classes, shortcuts, channels, actions —, every other token,
/// also written + 1, an index into the list of the event's or package's own package). Times are
/// offsets from the file's begin time, as in the XML. Read with a small wire-format walker: no
/// crate decodes a message without generated code for its schema.
mod proto {
    use std::collections::HashMap;

    use super::{Stats, event_name};

    /// One field's value.
    enum W<'a> {
        V(u64),
        B(&'a [u8]),
        F,
    }

    fn varint(b: &[u8], pos: &mut usize) -> Result<u64, String> {
        let start = *pos;
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *b
                .get(*pos)
                .ok_or_else(|| format!("a varint at byte {start} runs past the end"))?;
            *pos += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(format!("a varint at byte {start} is longer than 10 bytes"))
    }

    /// The fields of a message (`base` is its offset in the file, for errors).
    fn fields(b: &[u8], base: usize) -> Result<Vec<(u64, W<'_>)>, String> {
        let mut out = Vec::new();
        let mut pos = 0usize;
        while pos < b.len() {
            let at = base + pos;
            let key = varint(b, &mut pos).map_err(|e| format!("{e} (message at byte {base})"))?;
            let (number, wire) = (key >> 3, key & 7);
            let value = match wire {
                0 => W::V(varint(b, &mut pos)?),
                1 | 5 => {
                    let n = if wire == 1 { 8 } else { 4 };
                    if pos + n > b.len() {
                        return Err(format!("a fixed field at byte {at} runs past the end"));
                    }
                    pos += n;
                    W::F
                }
                2 => {
                    let len = usize::try_from(varint(b, &mut pos)?).unwrap_or(usize::MAX);
                    let end = pos
                        .checked_add(len)
                        .filter(|e| *e <= b.len())
                        .ok_or_else(|| format!("field {number} at byte {at} runs past the end"))?;
                    let s = &b[pos..end];
                    pos = end;
                    W::B(s)
                }
                _ => {
                    return Err(format!(
                        "wire type {wire} at byte {at}: not a protocol buffer"
                    ));
                }
            };
            out.push((number, value));
        }
        Ok(out)
    }

    fn int(f: &[(u64, W<'_>)], n: u64) -> Option<i64> {
        f.iter().rev().find_map(|(k, w)| match w {
            W::V(v) if *k == n => Some(*v as i64),
            _ => None,
        })
    }

    fn sub<'a>(f: &'a [(u64, W<'a>)], n: u64) -> impl Iterator<Item = &'a [u8]> + 'a {
        f.iter().filter_map(move |(k, w)| match w {
            W::B(b) if *k == n => Some(*b),
            _ => None,
        })
    }

    /// Package token (as read, before the − 1) → its strings.
    pub type Mappings = HashMap<i64, Vec<String>>;

    /// The `mappings` file.
    pub fn mappings(b: &[u8]) -> Result<Mappings, String> {
        let mut out = HashMap::new();
        for m in sub(&fields(b, 0).map_err(|e| format!("mappings: {e}"))?, 2) {
            let f = fields(m, 0).map_err(|e| format!("mappings: {e}"))?;
            let Some(token) = int(&f, 1) else { continue };
            let strings = sub(&f, 2)
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect();
            out.insert(token, strings);
        }
        Ok(out)
    }

    /// A token's string in the list of `package` (both as written, + 1).
    fn string(map: &Mappings, package: Option<i64>, token: Option<i64>) -> Option<String> {
        let list = map.get(&package?)?;
        list.get(usize::try_from(token? - 1).ok()?).cloned()
    }

    /// A package's name, or what the file holds when the mappings lack it.
    fn package(map: &Mappings, token: Option<i64>) -> String {
        match token {
            Some(t) => map
                .get(&t)
                .and_then(|l| l.first().cloned())
                .unwrap_or_else(|| format!("(package token {} not in mappings)", t - 1)),
            None => "(no package)".into(),
        }
    }

    /// The screen and keyguard totals (fields 10 to 13, `CountAndTime`), the same in both
    /// layouts.
    fn trackers(top: &[(u64, W<'_>)], st: &mut Stats) -> Result<(), String> {
        for (n, tag) in [
            (10, "interactive"),
            (11, "non-interactive"),
            (12, "keyguard-shown"),
            (13, "keyguard-hidden"),
        ] {
            for m in sub(top, n) {
                let f = fields(m, 0)?;
                st.lines.push(format!(
                    "{tag}\t\t\t\t\t\tcount {}, duration {} ms",
                    int(&f, 1).unwrap_or(0),
                    int(&f, 2).unwrap_or(0)
                ));
            }
        }
        Ok(())
    }

    /// The configurations (field 21: last active, total active, count, active), the same in
    /// both layouts.
    fn configurations(top: &[(u64, W<'_>)], st: &mut Stats) -> Result<(), String> {
        for m in sub(top, 21) {
            let f = fields(m, 0)?;
            st.configs += 1;
            st.lines.push(format!(
                "config\t{}\t\t\t\t\tactive {} ms, activations {}{}",
                int(&f, 2)
                    .map(|o| (st.begin + o).to_string())
                    .unwrap_or_default(),
                int(&f, 3).unwrap_or(0),
                int(&f, 4).unwrap_or(0),
                if int(&f, 5) == Some(1) {
                    ", the active configuration"
                } else {
                    ""
                }
            ));
        }
        Ok(())
    }

    /// A package's line: its times and counts have the same field numbers in both layouts.
    fn package_line(f: &[(u64, W<'_>)], pkg: &str, begin: i64, st: &mut Stats) {
        let abs = |o: Option<i64>| o.map(|o| (begin + o).to_string()).unwrap_or_default();
        st.packages += 1;
        let last_event = int(f, 5);
        let mut detail = vec![format!("time in foreground {} ms", int(f, 4).unwrap_or(0))];
        if let Some(n) = int(f, 6).filter(|n| *n > 0) {
            detail.push(format!("launches {n}"));
        }
        if let Some(v) = int(f, 11).filter(|v| *v > 0) {
            detail.push(format!("time visible {v} ms"));
        }
        if let Some(v) = int(f, 9).filter(|v| *v > 0) {
            detail.push(format!(
                "foreground service {v} ms, last used {}",
                abs(int(f, 8))
            ));
        }
        st.lines.push(format!(
            "package\t{}\t{pkg}\t\t{}\t{}\t{}",
            abs(int(f, 3)),
            last_event.map(|t| t.to_string()).unwrap_or_default(),
            last_event.map(event_name).unwrap_or(""),
            detail.join(", ")
        ));
    }

    /// Whether a file is Android 10's `IntervalStatsProto` (field 2 a string pool message; in
    /// Android 11's layout field 2 is the major version, a number).
    pub fn has_string_pool(b: &[u8]) -> bool {
        fields(b, 0).is_ok_and(|f| f.iter().any(|(k, w)| *k == 2 && matches!(w, W::B(_))))
    }

    fn text(f: &[(u64, W<'_>)], n: u64) -> Option<String> {
        sub(f, n)
            .last()
            .map(|s| String::from_utf8_lossy(s).into_owned())
    }

    /// Android 10's interval file (AOSP's `UsageStatsProto`): names written out or as index + 1
    /// into the file's string pool; times offsets from the begin time.
    pub fn interval_v1(b: &[u8], begin: i64) -> Result<Stats, String> {
        let top = fields(b, 0)?;
        let pool: Vec<String> = match sub(&top, 2).last() {
            Some(p) => sub(&fields(p, 0)?, 2)
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect(),
            None => Vec::new(),
        };
        // a name written out (`text_field`) or as index + 1 into the pool (`index_field`)
        let name = |f: &[(u64, W<'_>)], text_field: u64, index_field: u64| -> Option<String> {
            text(f, text_field).or_else(|| {
                int(f, index_field)
                    .and_then(|i| usize::try_from(i - 1).ok())
                    .and_then(|i| pool.get(i).cloned())
            })
        };
        let mut st = Stats {
            begin,
            end: int(&top, 1).map(|o| begin + o),
            ..Stats::default()
        };
        trackers(&top, &mut st)?;
        for m in sub(&top, 20) {
            let f = fields(m, 0)?;
            let Some(pkg) = name(&f, 1, 2) else { continue };
            package_line(&f, &pkg, begin, &mut st);
            for c in sub(&f, 7) {
                let cf = fields(c, 0)?;
                let action = text(&cf, 1).unwrap_or_default();
                for cc in sub(&cf, 3) {
                    let ccf = fields(cc, 0)?;
                    st.lines.push(format!(
                        "chooser\t\t{pkg}\t\t\t\taction {action}, category {}, count {}",
                        text(&ccf, 1).unwrap_or_default(),
                        int(&ccf, 3).unwrap_or(0)
                    ));
                }
            }
        }
        configurations(&top, &mut st)?;
        for m in sub(&top, 22) {
            let f = fields(m, 0)?;
            let Some(pkg) = name(&f, 1, 2) else { continue };
            st.events += 1;
            if st.events > super::EVENTS_MAX {
                return Err(format!(
                    "more than {} events: not a usage-stats file this tool reads",
                    super::EVENTS_MAX
                ));
            }
            let t = int(&f, 7).unwrap_or(0);
            let mut detail = vec![format!("flags {}", int(&f, 6).unwrap_or(0))];
            if let Some(v) = text(&f, 9) {
                detail.push(format!("shortcut {v}"));
            }
            if let Some(v) = int(&f, 11) {
                detail.push(format!("standby bucket {v}"));
            }
            if let Some(v) = name(&f, 12, 13) {
                detail.push(format!("notification channel {v}"));
            }
            if let Some(v) = int(&f, 14) {
                detail.push(format!("instance {v}"));
            }
            if let Some(v) = name(&f, 0, 15) {
                detail.push(format!("task root package {v}"));
            }
            if let Some(v) = name(&f, 0, 16) {
                detail.push(format!("task root class {v}"));
            }
            st.lines.push(format!(
                "event\t{}\t{pkg}\t{}\t{t}\t{}\t{}",
                begin + int(&f, 5).unwrap_or(0),
                name(&f, 3, 4).unwrap_or_default(),
                event_name(t),
                detail.join(", ")
            ));
        }
        Ok(st)
    }

    /// One interval file.
    pub fn interval(b: &[u8], begin: i64, map: &Mappings) -> Result<Stats, String> {
        let top = fields(b, 0)?;
        let mut st = Stats {
            begin,
            end: int(&top, 1).map(|o| begin + o),
            ..Stats::default()
        };
        trackers(&top, &mut st)?;
        for m in sub(&top, 20) {
            let f = fields(m, 0)?;
            let token = int(&f, 1);
            let pkg = package(map, token);
            package_line(&f, &pkg, begin, &mut st);
            for c in sub(&f, 7) {
                let cf = fields(c, 0)?;
                let action = string(map, token, int(&cf, 1)).unwrap_or_default();
                for cc in sub(&cf, 2) {
                    let ccf = fields(cc, 0)?;
                    st.lines.push(format!(
                        "chooser\t\t{pkg}\t\t\t\taction {action}, category {}, count {}",
                        string(map, token, int(&ccf, 1)).unwrap_or_default(),
                        int(&ccf, 2).unwrap_or(0)
                    ));
                }
            }
        }
        configurations(&top, &mut st)?;
        for m in sub(&top, 22) {
            let f = fields(m, 0)?;
            let token = int(&f, 1);
            if token.is_none() {
                continue;
            }
            st.events += 1;
            if st.events > super::EVENTS_MAX {
                return Err(format!(
                    "more than {} events: not a usage-stats file this tool reads",
                    super::EVENTS_MAX
                ));
            }
            let t = int(&f, 5).unwrap_or(0);
            let mut detail = vec![format!("flags {}", int(&f, 4).unwrap_or(0))];
            for (n, label) in [(7, "shortcut"), (9, "notification channel")] {
                if let Some(v) = string(map, token, int(&f, n)) {
                    detail.push(format!("{label} {v}"));
                }
            }
            if let Some(b) = int(&f, 8) {
                detail.push(format!("standby bucket {b}"));
            }
            if let Some(v) = int(&f, 10) {
                detail.push(format!("instance {v}"));
            }
            if let Some(v) = string(map, token, int(&f, 11)) {
                detail.push(format!("task root package {v}"));
            }
            if let Some(v) = string(map, token, int(&f, 12)) {
                detail.push(format!("task root class {v}"));
            }
            st.lines.push(format!(
                "event\t{}\t{}\t{}\t{t}\t{}\t{}",
                begin + int(&f, 3).unwrap_or(0),
                package(map, token),
                string(map, token, int(&f, 2)).unwrap_or_default(),
                event_name(t),
                detail.join(", ")
            ));
        }
        Ok(st)
    }
}

/// The tool.
pub struct UsageStatsTool;

impl Tool for UsageStatsTool {
    fn name(&self) -> &str {
        "android_usage_stats"
    }
    fn description(&self) -> &str {
        "Read one interval file of Android's usage statistics (/data/system/usagestats/<user>/{daily,weekly,monthly,yearly}/<begin time in Unix ms>; XML of Android 5 to 9, protocol buffers of Android 10, protocol buffers of Android 11+ with the user's usagestats/<user>/mappings file read for the package and class names). Times in the file are offsets from the begin time its name gives (absolute in Android 5.0); the output prints them as absolute Unix ms. First line: `# usagestats <path>: <interval> from <begin> to <end> (Unix ms); <n> packages, <m> events, <c> configurations`; then a header and one tab-separated line per record: kind (interactive, non-interactive, keyguard-shown, keyguard-hidden, package, chooser, config, event), time_ms, package, class, type, type_name (MOVE_TO_FOREGROUND, SCREEN_INTERACTIVE, …), detail (time in foreground, launches, flags, shortcut, standby bucket, counts). Android 10's protocol buffers (a string pool in the file) are read as well; a tokenised file without its mappings file is refused, saying so."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the interval file (its name is its begin time)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let (fs, path) = crate::calls::tree_file(ctx, a)?;
        let begin: i64 = path
            .rsplit('/')
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| {
                ToolError::InvalidArgs(format!(
                    "{path}: the file name is no begin time (Unix ms digits)"
                ))
            })?;
        let interval = path
            .rsplit('/')
            .nth(1)
            .filter(|i| INTERVALS.contains(i))
            .unwrap_or("interval");
        let bytes = fs.open(&path)?;
        if bytes.len() > FILE_MAX {
            return Err(ToolError::Other(format!(
                "{path}: {} bytes exceeds the limit of {FILE_MAX}",
                bytes.len()
            )));
        }
        let mut data = vec![0u8; bytes.len() as usize];
        bytes.read_exact_at(0, &mut data)?;
        // Android 11+: the user's token mappings, `usagestats/<user>/mappings`
        let mappings = || -> Result<Option<Vec<u8>>, String> {
            let Some(user) = path.rsplitn(3, '/').nth(2) else {
                return Ok(None);
            };
            match fs.open(&format!("{user}/mappings")) {
                Ok(m) if m.len() <= FILE_MAX => {
                    let mut buf = vec![0u8; m.len() as usize];
                    m.read_exact_at(0, &mut buf).map_err(|e| e.to_string())?;
                    Ok(Some(buf))
                }
                _ => Ok(None),
            }
        };
        let st =
            parse(&data, begin, mappings).map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
        let mut text = format!(
            "# usagestats {path}: {interval} from {} to {} (Unix ms); {} packages, {} events, {} configurations\nkind\ttime_ms\tpackage\tclass\ttype\ttype_name\tdetail\n",
            st.begin,
            st.end.map(|e| e.to_string()).unwrap_or_else(|| "?".into()),
            st.packages,
            st.events,
            st.configs
        );
        for l in &st.lines {
            text.push_str(l);
            text.push('\n');
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": path, "interval": interval, "begin": st.begin, "end": st.end,
                "packages": st.packages, "events": st.events, "configurations": st.configs,
            })),
        })
    }
}

/// Reads the usage-statistics interval files of one tree: per file a summary (interval,
/// begin and end, screen and keyguard totals), one phenomenon per package (last used, time
/// in foreground, launches) and one per event (up to [`MAX_ROWS`] per file, the rest noted).
pub fn triage(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    files: &[(String, Invoked)],
) -> Result<(), RuntimeError> {
    for (path, found) in files {
        let Some(interval) = interval_file(path) else {
            continue;
        };
        let name = artefact_name(tree, path);
        let Some(out) = call_or_note(
            ctx,
            &name,
            "android_usage_stats",
            args_on(tree, json!({"path": path})),
        )?
        else {
            continue;
        };
        let text = &out.output.text;
        let head = text.lines().next().unwrap_or_default().to_string();
        let rows: Vec<Vec<&str>> = text
            .lines()
            .skip(2)
            .map(|l| l.splitn(7, '\t').collect::<Vec<_>>())
            .filter(|c| c.len() == 7)
            .collect();
        let begin = path.rsplit('/').next().unwrap_or_default();
        // the summary of the interval
        let totals: Vec<String> = rows
            .iter()
            .filter(|c| {
                matches!(
                    c[0],
                    "interactive" | "non-interactive" | "keyguard-shown" | "keyguard-hidden"
                )
            })
            .map(|c| format!("{}: {}", c[0], c[6]))
            .collect();
        // records of packages the mappings do not name (the tool prints their token)
        let unnamed = rows
            .iter()
            .filter(|c| c[2].starts_with("(package token "))
            .count();
        record(
            ctx,
            PhenomenonDraft {
                category: "app_usage".into(),
                title: format!("Usage statistics, {interval} interval from {begin}"),
                facts: vec![
                    fact(FactType::Path, path.as_str(), found),
                    fact(FactType::Timestamp, begin, &out),
                ],
                interpretation: format!(
                    "{} — the {interval} usage statistics kept by Android's UsageStatsService{}{}.",
                    head.trim_start_matches("# "),
                    if totals.is_empty() {
                        String::new()
                    } else {
                        format!("; {}", totals.join("; "))
                    },
                    if unnamed > 0 {
                        format!(
                            "; {unnamed} record(s) of packages the user's mappings file does not name were not recorded"
                        )
                    } else {
                        String::new()
                    }
                ),
                times: vec![TimeMark {
                    fact: 1,
                    encoding: TimeEncoding::UnixMillis,
                    description: format!("Usage-statistics {interval} interval began"),
                }],
            },
        )?;
        let mut events = 0u64;
        for c in rows.iter().filter(|c| !c[2].starts_with("(package token ")) {
            match c[0] {
                "package" => {
                    let mut facts = vec![
                        fact(FactType::Path, path.as_str(), found),
                        fact(FactType::Identifier, c[2], &out),
                    ];
                    let mut times = Vec::new();
                    if !c[1].is_empty() && c[1] != "0" {
                        facts.push(fact(FactType::Timestamp, c[1], &out));
                        times.push(TimeMark {
                            fact: 2,
                            encoding: TimeEncoding::UnixMillis,
                            description: "App last used".into(),
                        });
                    }
                    record(
                        ctx,
                        PhenomenonDraft {
                            category: "app_usage".into(),
                            title: format!("App {} used ({interval} interval from {begin})", c[2]),
                            facts,
                            interpretation: format!(
                                "In the {interval} usage statistics from {begin} (Unix ms) of {path}, the app {} was last used at {} (Unix ms), last event {} {}; {}.",
                                c[2],
                                if c[1].is_empty() {
                                    "an unrecorded time"
                                } else {
                                    c[1]
                                },
                                c[4],
                                c[5],
                                c[6]
                            ),
                            times,
                        },
                    )?;
                }
                "event" => {
                    events += 1;
                    if events > MAX_ROWS {
                        continue;
                    }
                    let mut facts = vec![
                        fact(FactType::Path, path.as_str(), found),
                        fact(FactType::Identifier, c[2], &out),
                        fact(FactType::Timestamp, c[1], &out),
                    ];
                    if !c[3].is_empty() {
                        facts.push(fact(FactType::Identifier, c[3], &out));
                    }
                    record(
                        ctx,
                        PhenomenonDraft {
                            category: "app_usage".into(),
                            title: format!("Usage event {} of {}", c[5], c[2]),
                            facts,
                            interpretation: format!(
                                "Android's usage statistics ({path}) record the event {} (type {}) of {}{} at {} (Unix ms){}.",
                                c[5],
                                c[4],
                                c[2],
                                if c[3].is_empty() {
                                    String::new()
                                } else {
                                    format!(", class {}", c[3])
                                },
                                c[1],
                                if c[6].is_empty() {
                                    String::new()
                                } else {
                                    format!(" ({})", c[6])
                                }
                            ),
                            times: vec![TimeMark {
                                fact: 2,
                                encoding: TimeEncoding::UnixMillis,
                                description: format!("App usage event {}", c[5]),
                            }],
                        },
                    )?;
                }
                _ => {}
            }
        }
        if events > MAX_ROWS {
            ctx.unparsed(
                &name,
                &format!("{events} usage events; the first {MAX_ROWS} were recorded"),
                Some(&out.record.invocation_id),
            )?;
        }
    }
    Ok(())
}

/// Finds the `usagestats` directories of `tree` and reads their interval files ([`triage`]).
pub fn locate_and_triage(ctx: &AgentCtx<'_>, tree: &TreeRef) -> Result<(), RuntimeError> {
    let files: Vec<(String, Invoked)> =
        crate::identity::files_in_dirs_named(ctx, tree, "usagestats")?
            .into_iter()
            .filter(|(p, _)| interval_file(p).is_some())
            .collect();
    triage(ctx, tree, &files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_files_and_refusals() {
        assert_eq!(
            interval_file("/data/system/usagestats/0/daily/1546300800000"),
            Some("daily")
        );
        assert_eq!(
            interval_file("/data/system/usagestats/0/daily/1546300800000.bak"),
            None
        );
        assert_eq!(interval_file("/data/system/usagestats/0/version"), None);
        assert!(
            parse(b"\x0a\x08\x10\x01", 0, || Ok(None))
                .unwrap_err()
                .contains("protocol buffers")
        );
        assert!(
            parse(b"<other/>", 0, || Ok(None))
                .unwrap_err()
                .contains("not <usagestats>")
        );
        let e = parse(b"<usagestats endTime=\"x\"/>", 0, || Ok(None)).unwrap_err();
        assert!(e.contains("is not a number"), "{e}");
    }
}
