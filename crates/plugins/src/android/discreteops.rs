//! Discrete app-ops history (`/data/system/appops/discrete/<Unix ms>tl`, Android 12+; AOSP's
//! `DiscreteRegistry`, ABX as Android writes it, plain XML read the same; read with `read_xml`),
//! ALEAPP's `discreteNative` (`get_discreteNative`): each access of an app to a protected
//! operation the privacy dashboard shows — location, camera, microphone, contacts, calendar, call
//! log, SMS, phone state, nearby devices, files and media … — with when, for how long, in which
//! of its attribution tags and in which process state. Android keeps a week of history (a new
//! file about every half hour, named by when it was written, older ones deleted).
//!
//! | element | phenomenon | fields |
//! |---|---|---|
//! | `<h>` › `<u ui>` › `<p pn>` › `<o op>` › `<a at>` › `<e>` | one `apps` per access, titled `Discrete app op <OP> by <package> at <UTC time>` | package, uid, operation number (AOSP's name in the title and interpretation, shared with [`super::appops`]), attribution tag, access time `nt` (Unix ms), duration `nd` (ms), uid state `us`, op flags `f`, attribution flags `af`, attribution chain `ci`, as stored |
//! | the same, in a file of more than [`DETAIL_MAX`] accesses | one `apps` per package, uid, operation and UTC day, titled `Discrete app op <OP> by <package> on <day> (UTC): <n> accesses` | package, uid, operation number, first and last access time of the day, the attribution tags and uid states seen; the count and the summed durations in the interpretation |
//!
//! What it proves: that Android noted the app accessing the operation at that time (an access
//! the app was allowed: refusals are not kept here) — e.g. the camera or microphone in use by an
//! app in the foreground (`us` 200 top) or in the background (600). The time is the access as
//! noted (Android quantises it to the minute only when it reads the history); a missing `nd` is
//! an access without duration (a single note), not a zero-length one. The op flags tell whether
//! the app accessed it itself (1) or another app did so on its behalf (8, trusted proxied: e.g.
//! the system's location provider). It does not say what the app did with the data.
//! ALEAPP keeps one row per operation (the last access); every access is read here.
//!
//! Schema drift: each attribute is read by name and absent ones are left out (Android 12's
//! first files have no `af`/`ci`; an `<a>` without `at` is the app's default attribution);
//! an operation number past AOSP's list [`super::appops`] knows is titled `op <n>`. A file
//! whose root is not `<h>` is noted, as is an ABX file that does not decode (`read_xml` fails);
//! a file cut short or damaged after its root is noted and the accesses before the cut are read;
//! the other files are still read. Files with more than [`DETAIL_MAX`] accesses are summarised per
//! package, operation and day (at most [`MAX_ROWS`] groups a file, noted beyond). Only files
//! named `<digits>tl` in an `appops/discrete` folder are read ([`is_file`]).
//!
//! Identities: none (packages are apps).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use quick_xml::events::Event;

use super::{Attrs, Located, MAX_ROWS};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::artefact_name;

/// Most accesses of one file recorded one by one; a file holding more is summarised per
/// package, uid, operation and UTC day.
pub const DETAIL_MAX: usize = 1000;

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// Whether `name` is a discrete history file's name (`<Unix ms>tl`).
pub fn is_name(name: &str) -> bool {
    name.strip_suffix("tl")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `l` is a discrete app-ops history file.
pub fn is_file(l: &Located) -> bool {
    is_path(&l.path)
}

/// Whether `path` is a discrete app-ops history file's (`categorise`'s guard).
pub fn is_path(path: &str) -> bool {
    path.rsplit_once('/')
        .is_some_and(|(dir, name)| dir.ends_with("/system/appops/discrete") && is_name(name))
}

/// One recorded access: the uid, package, operation number and attribution tag it is filed
/// under, and the `<e>` element's attributes (as the text holds them).
#[derive(Debug)]
struct Access {
    uid: String,
    pkg: String,
    op: String,
    tag: Option<String>,
    e: Attrs,
}

impl Access {
    fn get(&self, key: &str) -> Option<&str> {
        get(&self.e, key)
    }
}

fn get<'a>(a: &'a Attrs, key: &str) -> Option<&'a str> {
    a.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

/// The accesses a discrete history file records, in document order, and what cut the file
/// short, if anything (the accesses before the cut or the damage are read).
fn parse(xml: &str) -> Result<(Vec<Access>, Option<String>), String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut seen_root, mut closed) = (false, false);
    let mut damage = None;
    let (mut uid, mut pkg, mut op) = (String::from("?"), String::from("?"), String::from("?"));
    let mut tag: Option<String> = None;
    let mut out = Vec::new();
    loop {
        let (e, empty) = match reader.read_event() {
            Ok(Event::Start(e)) => (e, false),
            Ok(Event::Empty(e)) => (e, true),
            Ok(Event::End(e)) => {
                closed |= AsRef::<str>::as_ref(&e.name()) == "h";
                continue;
            }
            Ok(Event::Eof) => break,
            Ok(_) => continue,
            Err(e) if seen_root => {
                damage = Some(format!(
                    "it is damaged at byte {}: {e}",
                    reader.error_position()
                ));
                break;
            }
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        };
        let name = AsRef::<str>::as_ref(&e.name()).to_string();
        let a = super::xml_attrs(&e);
        let val = |k: &str, a: &Attrs| get(a, k).unwrap_or("?").to_string();
        match name.as_str() {
            "h" if !seen_root => {
                seen_root = true;
                // `<h … />`: no access at all
                closed = empty;
            }
            _ if !seen_root => return Err(format!("its root element is <{name}>, not <h>")),
            "u" => {
                uid = val("ui", &a);
                (pkg, op, tag) = ("?".into(), "?".into(), None);
            }
            "p" => {
                pkg = val("pn", &a);
                (op, tag) = ("?".into(), None);
            }
            "o" => {
                op = val("op", &a);
                tag = None;
            }
            "a" => tag = get(&a, "at").map(str::to_string),
            "e" => out.push(Access {
                uid: uid.clone(),
                pkg: pkg.clone(),
                op: op.clone(),
                tag: tag.clone(),
                e: a,
            }),
            _ => {}
        }
    }
    if !seen_root {
        return Err("it holds no XML element".into());
    }
    let cut = damage.or_else(|| (!closed).then(|| "it ends before </h> (cut short)".into()));
    Ok((out, cut))
}

/// AOSP's name of operation `n` (shared with `appops.xml`'s reader), or `op <n>` for a number
/// past the names known, and what the interpretation calls it.
fn op_name(n: &str) -> (String, &'static str) {
    match n
        .parse::<usize>()
        .ok()
        .and_then(|i| super::appops::OPS.get(i).copied())
    {
        Some(name) => (name.to_string(), name),
        None => (format!("op {n}"), "an operation this release does not name"),
    }
}

/// AOSP's `AppOpsManager.UID_STATE_*` (Android 10+ values).
fn uid_state(v: &str) -> &'static str {
    match v {
        "100" => "persistent (a system process)",
        "200" => "top (on screen)",
        "300" => "foreground service (location)",
        "400" => "foreground service",
        "500" => "foreground",
        "600" => "background",
        "700" => "cached",
        _ => "a state this release does not name",
    }
}

/// The names of the bits of `v` in `names` (bit value, name), or `None` when `v` is no number.
fn bits(v: &str, names: &[(u32, &str)]) -> Option<String> {
    let n: u32 = v.parse().ok()?;
    let set: Vec<&str> = names
        .iter()
        .filter(|(b, _)| n & b != 0)
        .map(|(_, s)| *s)
        .collect();
    Some(if set.is_empty() {
        "none".to_string()
    } else {
        set.join(", ")
    })
}

/// AOSP's `OP_FLAG_*`.
const OP_FLAGS: &[(u32, &str)] = &[
    (1, "by the app itself"),
    (2, "as a trusted proxy for another app"),
    (4, "as an untrusted proxy for another app"),
    (8, "by a trusted app on its behalf"),
    (16, "by an untrusted app on its behalf"),
];

/// AOSP's `ATTRIBUTION_FLAG_*`.
const ATTRIBUTION_FLAGS: &[(u32, &str)] = &[
    (1, "accessor"),
    (2, "intermediary"),
    (4, "receiver"),
    (8, "trusted"),
];

/// `(year, month, day)` of the day `days` after 1970-01-01 (proleptic Gregorian calendar).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Unix ms as stored, when it is a time (a positive number of a plausible size).
fn millis(v: Option<&str>) -> Option<i64> {
    v?.parse::<i64>()
        .ok()
        .filter(|ms| *ms > 0 && *ms < 253_402_300_800_000)
}

/// The UTC day of Unix ms (`2024-11-30`).
fn utc_day(ms: i64) -> String {
    let (y, m, d) = civil(ms.div_euclid(DAY_MS));
    format!("{y:04}-{m:02}-{d:02}")
}

/// The UTC time of Unix ms (`2024-11-30 21:08:43 UTC`).
fn utc_time(ms: i64) -> String {
    let s = ms.rem_euclid(DAY_MS) / 1000;
    format!(
        "{} {:02}:{:02}:{:02} UTC",
        utc_day(ms),
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

/// The Android user of a uid (`uid / 100000`), as text; `?` when the uid is no number.
fn android_user(uid: &str) -> String {
    uid.parse::<u64>()
        .map(|u| (u / 100_000).to_string())
        .unwrap_or_else(|_| "?".into())
}

/// One discrete history file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, format, (accesses, cut))) =
        super::read_xml(ctx, l, "discrete app-ops history", parse)?
    else {
        return Ok(());
    };
    if let Some(why) = cut {
        ctx.unparsed(
            &name,
            &format!("{why}: the {} accesses before it were read", accesses.len()),
            Some(&inv.record.invocation_id),
        )?;
    }
    let written = l.name().strip_suffix("tl").unwrap_or("?");
    if accesses.len() > DETAIL_MAX {
        return summarise(ctx, l, &name, &inv, &format, written, &accesses);
    }
    for a in &accesses {
        let (op, named) = op_name(&a.op);
        let nt = a.get("nt");
        let when = millis(nt).map_or("an unrecorded time".to_string(), utc_time);
        let mut d = Draft::new(
            "apps",
            format!("Discrete app op {op} by {} at {when}", a.pkg),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            Some(a.pkg.as_str()).filter(|v| *v != "?"),
            &inv,
        );
        d.fact(
            FactType::Identifier,
            Some(a.uid.as_str()).filter(|v| *v != "?"),
            &inv,
        );
        d.fact(
            FactType::Identifier,
            Some(a.op.as_str()).filter(|v| *v != "?"),
            &inv,
        );
        d.fact(FactType::Identifier, a.tag.as_deref(), &inv);
        d.time(
            nt,
            unix_millis(nt),
            &format!("{op} accessed by the app"),
            &inv,
        );
        let mut said = vec![format!("at {} (Unix ms)", nt.unwrap_or("?"))];
        match a.get("nd") {
            Some(nd) => {
                d.fact(FactType::Text, Some(nd), &inv);
                said.push(format!("for {nd} ms"));
            }
            None => said.push("without a duration (a single access)".into()),
        }
        if let Some(t) = &a.tag {
            said.push(format!("attribution tag {t}"));
        }
        if let Some(us) = a.get("us") {
            d.fact(FactType::Text, Some(us), &inv);
            said.push(format!("uid state {us} ({})", uid_state(us)));
        }
        if let Some(f) = a.get("f") {
            d.fact(FactType::Text, Some(f), &inv);
            said.push(format!(
                "op flags {f} ({})",
                bits(f, OP_FLAGS).unwrap_or_else(|| "not a number".into())
            ));
        }
        if let Some(af) = a.get("af") {
            d.fact(FactType::Text, Some(af), &inv);
            said.push(format!(
                "attribution flags {af} ({})",
                bits(af, ATTRIBUTION_FLAGS).unwrap_or_else(|| "not a number".into())
            ));
        }
        if let Some(ci) = a.get("ci") {
            d.fact(FactType::Identifier, Some(ci), &inv);
            said.push(format!("attribution chain {ci}"));
        }
        d.interpretation = format!(
            "{name} ({format}, the discrete app-ops history file written at {written} Unix ms): Android noted that {} (uid {}, Android user {}) accessed operation {} ({named}): {}.",
            a.pkg,
            a.uid,
            android_user(&a.uid),
            a.op,
            said.join(", "),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The accesses of one package, uid and operation on one UTC day.
#[derive(Default)]
struct Group<'a> {
    count: usize,
    first: Option<(i64, &'a str)>,
    last: Option<(i64, &'a str)>,
    timed: usize,
    duration: i64,
    tags: BTreeSet<&'a str>,
    states: BTreeSet<&'a str>,
}

/// A file of more than [`DETAIL_MAX`] accesses: one phenomenon per package, uid, operation and
/// UTC day (at most [`MAX_ROWS`], noted beyond).
fn summarise(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    inv: &masf_tools::Invoked,
    format: &str,
    written: &str,
    accesses: &[Access],
) -> Result<(), RuntimeError> {
    let mut groups: BTreeMap<(&str, &str, &str, String), Group<'_>> = BTreeMap::new();
    for a in accesses {
        let nt = a.get("nt");
        let at = millis(nt);
        let day = at.map_or_else(|| "an unrecorded day".to_string(), utc_day);
        let g = groups
            .entry((a.pkg.as_str(), a.uid.as_str(), a.op.as_str(), day))
            .or_default();
        g.count += 1;
        if let (Some(ms), Some(raw)) = (at, nt) {
            if g.first.is_none_or(|(f, _)| ms < f) {
                g.first = Some((ms, raw));
            }
            if g.last.is_none_or(|(x, _)| ms > x) {
                g.last = Some((ms, raw));
            }
        }
        if let Some(nd) = a.get("nd").and_then(|v| v.parse::<i64>().ok()) {
            g.timed += 1;
            g.duration = g.duration.saturating_add(nd.max(0));
        }
        if let Some(t) = &a.tag {
            g.tags.insert(t.as_str());
        }
        if let Some(us) = a.get("us") {
            g.states.insert(us);
        }
    }
    for (i, ((pkg, uid, n, day), g)) in groups.iter().enumerate() {
        if i as u64 >= MAX_ROWS {
            ctx.unparsed(
                name,
                &format!(
                    "{} accesses in {} groups of package, operation and day: those past the first {MAX_ROWS} groups were not read",
                    accesses.len(),
                    groups.len()
                ),
                Some(&inv.record.invocation_id),
            )?;
            break;
        }
        let (op, named) = op_name(n);
        let mut d = Draft::new(
            "apps",
            format!(
                "Discrete app op {op} by {pkg} on {day} (UTC): {} accesses",
                g.count
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(*pkg).filter(|v| *v != "?"), inv);
        d.fact(FactType::Identifier, Some(*uid).filter(|v| *v != "?"), inv);
        d.fact(FactType::Identifier, Some(*n).filter(|v| *v != "?"), inv);
        let first = g.first.map(|(_, raw)| raw);
        let last = g.last.map(|(_, raw)| raw).filter(|x| Some(*x) != first);
        d.time(
            first,
            unix_millis(first),
            &format!("first {op} access of the day"),
            inv,
        );
        d.time(
            last,
            unix_millis(last),
            &format!("last {op} access of the day"),
            inv,
        );
        for t in &g.tags {
            d.fact(FactType::Identifier, Some(*t), inv);
        }
        for s in &g.states {
            d.fact(FactType::Text, Some(*s), inv);
        }
        let states: Vec<String> = g
            .states
            .iter()
            .map(|s| format!("{s} ({})", uid_state(s)))
            .collect();
        d.interpretation = format!(
            "{name} ({format}, the discrete app-ops history file written at {written} Unix ms) holds {} accesses, more than the {DETAIL_MAX} recorded one by one, so they are summarised: {pkg} (uid {uid}, Android user {}) accessed operation {n} ({named}) {} times that day, first at {} and last at {} (Unix ms); {} of them with a duration, together {} ms; uid states {}{}.",
            accesses.len(),
            android_user(uid),
            g.count,
            first.unwrap_or("an unrecorded time"),
            g.last.map_or("an unrecorded time", |(_, raw)| raw),
            g.timed,
            g.duration,
            if states.is_empty() {
                "not recorded".to_string()
            } else {
                states.join(", ")
            },
            if g.tags.is_empty() {
                String::new()
            } else {
                format!(
                    "; attribution tags {}",
                    g.tags.iter().copied().collect::<Vec<_>>().join(", ")
                )
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discreteops_names_days_and_flags() {
        assert!(is_name("1733000400000tl"));
        assert!(!is_name("tl"));
        assert!(!is_name("1733000400000tl.bak"));
        assert!(!is_name("Rentl"));
        assert!(is_path("/data/system/appops/discrete/1733000400000tl"));
        assert!(!is_path("/data/data/com.example/files/1733000400000tl"));
        assert_eq!(utc_time(1_733_000_123_456), "2024-11-30 20:55:23 UTC");
        assert_eq!(utc_day(0), "1970-01-01");
        assert_eq!(utc_day(951_782_400_000), "2000-02-29");
        assert_eq!(
            bits("9", OP_FLAGS).unwrap(),
            "by the app itself, by a trusted app on its behalf"
        );
        assert_eq!(bits("x", OP_FLAGS), None);
        assert_eq!(millis(Some("-5")), None);
        assert_eq!(android_user("1010123"), "10");
    }

    #[test]
    fn discreteops_parse_nesting() {
        let xml = "<h v=\"1\"><u ui=\"10123\"><p pn=\"com.a\"><o op=\"26\"><a at=\"t\"><e nt=\"5\" us=\"200\" f=\"1\" /></a><a><e nt=\"6\" nd=\"60000\" us=\"600\" f=\"8\" /></a></o></p></u></h>";
        let (acc, cut) = parse(xml).unwrap();
        assert_eq!(cut, None);
        assert_eq!(acc.len(), 2);
        assert_eq!(acc[0].tag.as_deref(), Some("t"));
        assert_eq!(acc[1].tag, None);
        assert_eq!(
            (acc[1].uid.as_str(), acc[1].pkg.as_str(), acc[1].op.as_str()),
            ("10123", "com.a", "26")
        );
        assert!(
            parse("<app-ops v=\"1\" />")
                .unwrap_err()
                .contains("not <h>")
        );
        let (acc, cut) = parse(&xml[..xml.find("<a>").unwrap()]).unwrap();
        assert_eq!(acc.len(), 1);
        assert!(cut.unwrap().contains("cut short"));
        assert_eq!(parse("<h v=\"1\" />").unwrap().1, None);
    }
}
