//! Samsung's power-off and reset log (`/data/log/power_off_reset_reason.txt`, and
//! `power_off_reset_reason_backup.txt`, where its older records are moved when it grows too
//! large — past 10 KiB in the firmware examined), ALEAPP's `oldpowerOffReset`
//! (`get_oldpowerOffReset`: the shutdown requests) and `powerOffReset` (the `REASON:` lines):
//! when the phone was shut down or restarted and why, and — from Android 11 on — when it
//! started again and what its power-management side recorded. Read with `read_text` (the first
//! MiB; the rest noted) and parsed line by line.
//!
//! | record | phenomenon | fields |
//! |---|---|---|
//! | a shutdown request (`yy/MM/dd HH:mm:ss` line, then `caller : …`, `reason : …`, the stack trace) | one `device` per request ("Samsung shutdown request: <reason> (<yy/MM/dd HH:mm:ss>)") | the time line as written (the phone's local time), the reason, the caller (the package that asked, where written), the exception line and up to 12 `at …` frames of the call |
//! | a power-log line (`[<uptime>] YYYY-MM-DD HH:MM:SS±hhmm \| <action> \| <code> \| <details>`) | one `device` per line ("Samsung power log: <action or code> at <time>[ (<reason>)]") | the line, action (`SHUTDOWN`, `ON`, `LPM`), code (`RP`, `NP`), details as written; the reason (`REASON:`), record number (`[n]`), power-off source (`OFFSRC`), power-on source (`ONSRC`), reset status (`RSTSTAT`), build (the first detail of an `ON` line), battery as written (`3401000(0%)`); the time with its offset (ISO 8601; without an offset the phone's local time) |
//!
//! A request says Samsung's system server was asked to shut the phone down or restart it. The
//! reason is quoted as written: AOSP's names (`userrequested` when the user chose it in the power
//! menu, `battery`, `thermal`, `recovery`, `recovery-update` …) are explained, Samsung's own
//! (`no power`, `silent.sec` …) are not interpreted; the stack trace names the code path that
//! asked. The request's time line has a two-digit year (`yy/MM/dd`), a layout the timeline does
//! not read: it is a fact, not a time mark. The same shutdown's `SHUTDOWN` line, where the newer
//! layout writes one, carries the full date with its offset and is marked. `ON` is a start,
//! `LPM` a start into the charge-only (low-power) mode; a line with no action (code `NP`) is a
//! record marked so, with the power-off and power-on sources, reset status and battery as the
//! power-management side writes them (abbreviations kept, not decoded). Lines of init's shutdown
//! steps (`<uptime> volume shutdown start`) are not records and are not read.
//!
//! A shutdown and the next start bracket a time the phone was off only as far as the log is
//! complete: it is rotated, its backup overwritten, and a phone that lost power abruptly may
//! write no shutdown. A file of the name outside a `log` folder is not read; a log with no record
//! is noted. Identities: none (the caller is a package).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// The log's two names: the one written, and the copy its older records are moved to.
const NAMES: [&str; 2] = [
    "power_off_reset_reason.txt",
    "power_off_reset_reason_backup.txt",
];

/// Most stack frames kept as facts per request.
const FRAMES: usize = 12;

/// Shutdown reasons named by AOSP's `PowerManager` (exact values), and what they say.
const REASONS: [(&str, &str); 7] = [
    ("userrequested", "the user chose it (the power menu)"),
    ("battery", "the battery was too low"),
    ("thermal", "the phone was too hot"),
    ("thermal,battery", "the battery was too hot"),
    ("recovery", "a restart into recovery"),
    (
        "recovery-update",
        "a restart into recovery to install an update",
    ),
    ("quiescent", "a restart with the screen kept off"),
];

/// Whether `l` is Samsung's power-off and reset log (either name, in a `log` folder).
pub fn is_log(l: &Located) -> bool {
    is_log_path(&l.path)
}

/// Whether `path` is Samsung's power-off and reset log (for `categorise`).
pub fn is_log_path(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    parts.next().is_some_and(|n| NAMES.contains(&n)) && parts.next() == Some("log")
}

/// Whether `s` is exactly a `yy/MM/dd HH:mm:ss` time (the head of a shutdown request).
fn short_stamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 17
        && b.iter().enumerate().all(|(i, c)| match i {
            2 | 5 => *c == b'/',
            8 => *c == b' ',
            11 | 14 => *c == b':',
            _ => c.is_ascii_digit(),
        })
}

/// The first `YYYY-MM-DD HH:MM:SS` in `s` (with a fraction and the offset written right after
/// it, `+0100` or `+01:00`, when there are), and whether it carries an offset.
pub(super) fn dated(s: &str) -> Option<(&str, bool)> {
    let b = s.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let start = (0..b.len().saturating_sub(18)).find(|&i| {
        (0..19).all(|j| match j {
            4 | 7 => b.get(i + j) == Some(&b'-'),
            10 => b.get(i + j) == Some(&b' '),
            13 | 16 => b.get(i + j) == Some(&b':'),
            _ => digit(i + j),
        }) && (i == 0 || !digit(i - 1))
    })?;
    let mut end = start + 19;
    if b.get(end) == Some(&b'.') && digit(end + 1) {
        end += 1;
        while digit(end) {
            end += 1;
        }
    }
    let zoned = if matches!(b.get(end), Some(b'+' | b'-')) && digit(end + 1) && digit(end + 2) {
        if digit(end + 3) && digit(end + 4) {
            end += 5;
            true
        } else if b.get(end + 3) == Some(&b':') && digit(end + 4) && digit(end + 5) {
            end += 6;
            true
        } else {
            false
        }
    } else {
        false
    };
    Some((s.get(start..end)?, zoned))
}

/// The first `[<digits>]` of `s`: the log's record number.
pub(super) fn record_number(s: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(i) = s.get(from..)?.find('[') {
        let start = from + i + 1;
        let tail = s.get(start..)?;
        let end = tail.find(']')?;
        let n = tail.get(..end)?;
        if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
            return Some(n);
        }
        from = start;
    }
    None
}

/// `s` without a trailing ` [<digits>]` (the record number), trimmed.
pub(super) fn without_number(s: &str) -> &str {
    let s = s.trim();
    if let Some(body) = s.strip_suffix(']')
        && let Some((before, n)) = body.rsplit_once('[')
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        return before.trim_end();
    }
    s
}

/// The value of `key` (`OFFSRC: PWRON`, `OFFSRC:: PWRON`) among the `/`-separated details, the
/// record number cut; none where it is `-` or empty.
fn detail<'a>(details: &'a str, key: &str) -> Option<&'a str> {
    details.split('/').find_map(|p| {
        let v = p.trim().strip_prefix(key)?;
        v.starts_with(':')
            .then(|| without_number(v.trim_start_matches(':')))
            .filter(|v| !v.is_empty() && *v != "-")
    })
}

/// The build an `ON` line names first (letters and digits, no key).
fn build_of(details: &str) -> Option<&str> {
    let first = details.split('/').next()?.trim();
    (first.len() >= 6
        && first.bytes().all(|b| b.is_ascii_alphanumeric())
        && first.bytes().any(|b| b.is_ascii_digit())
        && first.bytes().any(|b| b.is_ascii_alphabetic()))
    .then_some(first)
}

/// The battery as a power-off line writes it (`<digits>(<digits>%)`).
fn battery_of(details: &str) -> Option<&str> {
    details.split('/').map(str::trim).find(|p| {
        p.ends_with("%)")
            && p.split_once('(')
                .is_some_and(|(v, _)| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// One record of the log.
enum Entry<'a> {
    /// A shutdown request: its time line (line number, text) and the lines after it.
    Request {
        at: usize,
        stamp: &'a str,
        lines: Vec<&'a str>,
    },
    /// A power-log `|` line (line number, text).
    Event { at: usize, line: &'a str },
}

/// Whether `line` is a power-log line: `|`-separated, a date in its first field.
fn is_event(line: &str) -> bool {
    line.split_once('|')
        .is_some_and(|(head, _)| dated(head).is_some())
}

/// One power-off and reset log: a phenomenon per shutdown request and per power-log line.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for (i, raw) in inv.output.text.lines().enumerate() {
        let line = raw.trim();
        if short_stamp(line) {
            entries.push(Entry::Request {
                at: i + 1,
                stamp: line,
                lines: Vec::new(),
            });
        } else if is_event(line) {
            entries.push(Entry::Event { at: i + 1, line });
        } else if let Some(Entry::Request { lines, .. }) = entries.last_mut()
            && !line.is_empty()
        {
            lines.push(line);
        }
    }
    if entries.is_empty() {
        ctx.unparsed(
            &name,
            "no record: no yy/MM/dd HH:mm:ss line (a shutdown request) and no '|' line with a date (a power-log record)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    for e in entries.iter().take(super::MAX_ROWS as usize) {
        let d = match e {
            Entry::Request { at, stamp, lines } => request(&name, l, &inv, *at, stamp, lines),
            Entry::Event { at, line } => event(&name, l, &inv, *at, line),
        };
        record_draft(ctx, d)?;
    }
    if entries.len() > super::MAX_ROWS as usize {
        ctx.unparsed(
            &name,
            &format!(
                "{} records; the first {} were recorded",
                entries.len(),
                super::MAX_ROWS
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

/// The value after `key` and a colon on one of `lines` (`reason : no power`).
fn keyed<'a>(lines: &[&'a str], key: &str) -> Option<&'a str> {
    lines.iter().find_map(|l| {
        l.strip_prefix(key)?
            .trim_start()
            .strip_prefix(':')
            .map(str::trim)
            .filter(|v| !v.is_empty())
    })
}

/// What AOSP's name for a shutdown reason says, when it is one.
fn reason_meaning(reason: &str) -> Option<&'static str> {
    REASONS.iter().find(|(r, _)| *r == reason).map(|(_, m)| *m)
}

/// A shutdown request's phenomenon.
fn request(
    name: &str,
    l: &Located,
    inv: &masf_tools::Invoked,
    at: usize,
    stamp: &str,
    lines: &[&str],
) -> Draft {
    let reason = keyed(lines, "reason");
    let caller = keyed(lines, "caller");
    let exception = lines.iter().find(|x| x.contains("Exception")).copied();
    let frames: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|x| x.starts_with("at "))
        .collect();
    let title = match reason {
        Some(r) => format!("Samsung shutdown request: {r} ({stamp})"),
        None => format!("Samsung shutdown request ({stamp})"),
    };
    let mut d = Draft::new("device", title);
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Text, Some(stamp), inv);
    d.fact(FactType::Text, reason, inv);
    d.fact(FactType::Identifier, caller, inv);
    d.fact(FactType::Text, exception, inv);
    for f in frames.iter().take(FRAMES) {
        d.fact(FactType::Text, Some(*f), inv);
    }
    d.interpretation = format!(
        "{name}, line {at}: Samsung's system server was asked to shut the phone down or restart it at {stamp} (yy/MM/dd HH:mm:ss, the phone's local time; a two-digit year the timeline does not read, so no time is marked){}{}{}.",
        match reason {
            Some(r) => format!(
                "; reason {r}{}",
                reason_meaning(r)
                    .map(|m| format!(" ({m}, as AOSP names the reason)"))
                    .unwrap_or_default()
            ),
            None => "; no reason written".to_string(),
        },
        caller
            .map(|c| format!("; asked by {c}"))
            .unwrap_or_default(),
        match (frames.first(), frames.len()) {
            (Some(first), n) => format!(
                "; the call's stack trace ({n} frames{}) starts {first}",
                if n > FRAMES {
                    format!(", the first {FRAMES} kept")
                } else {
                    String::new()
                }
            ),
            (None, _) => String::new(),
        }
    );
    d
}

/// What a power-log line's action (or code) says, and the time's description.
fn meaning(label: &str) -> (String, String) {
    match label {
        "SHUTDOWN" => (
            "the phone shut down or restarted".into(),
            "Device shut down (Samsung power log)".into(),
        ),
        "ON" => (
            "the phone started".into(),
            "Device started (Samsung power log)".into(),
        ),
        "LPM" => (
            "the phone started in its charge-only (low-power) mode".into(),
            "Device started in charge-only mode (Samsung power log)".into(),
        ),
        other => (
            format!(
                "a record marked {other} (the power-management side's sources, status and battery as written, not decoded)"
            ),
            format!("Samsung power log record {other}"),
        ),
    }
}

/// `f` trimmed, none when blank.
pub(super) fn nonblank(f: Option<&str>) -> Option<&str> {
    f.map(str::trim).filter(|v| !v.is_empty())
}

/// A power-log line's phenomenon.
fn event(name: &str, l: &Located, inv: &masf_tools::Invoked, at: usize, line: &str) -> Draft {
    let mut fields = line.splitn(4, '|');
    let head = fields.next().unwrap_or("");
    let action = nonblank(fields.next());
    let code = nonblank(fields.next());
    let details = nonblank(fields.next());
    let (time, zoned) = dated(head).unwrap_or(("", false));
    let label = action.or(code).unwrap_or("record");
    let reason = details
        .and_then(|d| d.split_once("REASON:"))
        .map(|(_, r)| without_number(r))
        .filter(|r| !r.is_empty());
    let number = details.and_then(record_number);
    let offsrc = details.and_then(|d| detail(d, "OFFSRC"));
    let onsrc = details.and_then(|d| detail(d, "ONSRC"));
    let rststat = details.and_then(|d| detail(d, "RSTSTAT"));
    let build = details.filter(|_| reason.is_none()).and_then(build_of);
    let battery = details.and_then(battery_of);
    let mut title = format!("Samsung power log: {label} at {time}");
    if let Some(r) = reason {
        title.push_str(&format!(" ({r})"));
    }
    let (what, description) = meaning(label);
    let mut d = Draft::new("device", title);
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Text, Some(line), inv);
    d.time(
        Some(time).filter(|t| !t.is_empty()),
        Some(if zoned {
            TimeEncoding::Iso8601
        } else {
            TimeEncoding::LocalText
        }),
        &description,
        inv,
    );
    d.fact(FactType::Text, action, inv);
    d.fact(FactType::Text, code, inv);
    d.fact(FactType::Text, details, inv);
    d.fact(FactType::Text, reason, inv);
    d.fact(FactType::Count, number, inv);
    d.fact(FactType::Text, offsrc, inv);
    d.fact(FactType::Text, onsrc, inv);
    d.fact(FactType::Text, rststat, inv);
    d.fact(FactType::Identifier, build, inv);
    d.fact(FactType::Text, battery, inv);
    let mut said = Vec::new();
    for (key, v) in [
        ("record", number),
        ("build", build),
        ("power-off source (OFFSRC)", offsrc),
        ("power-on source (ONSRC)", onsrc),
        ("reset status (RSTSTAT)", rststat),
        ("battery as written", battery),
    ] {
        if let Some(v) = v {
            said.push(format!("{key} {v}"));
        }
    }
    d.interpretation = format!(
        "{name}, line {at}: {what} at {time} ({}){}{}.",
        if zoned {
            "the phone's local time with the offset written"
        } else {
            "the phone's local time, no offset written"
        },
        match reason {
            Some(r) => format!(
                "; reason {r}{}",
                reason_meaning(r)
                    .map(|m| format!(" ({m}, as AOSP names the reason)"))
                    .unwrap_or_default()
            ),
            None => String::new(),
        },
        if said.is_empty() {
            String::new()
        } else {
            format!("; {} (as written)", said.join(", "))
        }
    );
    d
}
