//! Samsung's `eRR.p` (`system/users/service/data/eRR.p`, and `system/users/service/eRR.p` on
//! older releases), ALEAPP's `errp` (`get_errp`): a log of the phone's power events — shut
//! down, restarted, started, started into charge-only mode — one `|`-separated line each. Read
//! with `read_text` (the first MiB; the rest noted) and parsed line by line.
//!
//! | record | phenomenon | fields |
//! |---|---|---|
//! | a line `YYYY-MM-DD HH:MM:SS±hhmm \| <event> \| <code> \| <details>` | one `device` per line ("Samsung eRR.p: <event or code> at <time>[ (<reason>)]") | the line as written, the event (`SHUTDOWN`, `ON`, `LPM` …), the code (`RP`, `NP` …), the details as written, the reason (`REASON:`), the record number (`[n]`); the time with the offset it carries (ISO 8601; without an offset the phone's local time) |
//!
//! The file opens with a binary `LOGM` header whose NUL padding some phones write in front of
//! the first record on the same line: a line is read from the last control (or undecodable)
//! character of its first field, so the record after the padding is read and cited as the
//! output holds it. Lines without a `|` (the header, blank lines) are not records and are not
//! read; a `|` line whose first field holds no date is not a record either, and those are noted
//! (how many, the first quoted). `ON` is a start, `LPM` a start into charge-only (low-power) mode,
//! `SHUTDOWN` a shutdown or restart, as Samsung's power-off and reset log marks the same
//! events ([`super::poweroffreset`]); other events and the codes and details are quoted as
//! written, not decoded. The time is the phone's wall-clock time with the offset it was in; the
//! log says the phone was off between a shutdown and the next start only as far as it is
//! complete (a phone that lost power abruptly may write no shutdown).
//!
//! A file of the name outside `system/users/service/` is not read; a log with no record is noted.
//! Identities: none.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, TimeEncoding};

use super::Located;
use super::poweroffreset::{dated, nonblank, record_number, without_number};
use crate::drafts::{Draft, record_draft};
use crate::identity::artefact_name;

/// The file's name.
pub const NAME: &str = "eRR.p";

/// Whether `path` is Samsung's `eRR.p` in its folder (`system/users/service/` or its `data/`).
pub fn is_log_path(path: &str) -> bool {
    path.ends_with("/system/users/service/eRR.p")
        || path.ends_with("/system/users/service/data/eRR.p")
}

/// Whether `l` is Samsung's `eRR.p` in its folder.
pub fn is_log(l: &Located) -> bool {
    is_log_path(&l.path)
}

/// The record a line holds, from just after the last control or undecodable character of its
/// first field (the header's padding written in front of the first record), trimmed; `None`
/// when the line has no `|`.
fn record_of(line: &str) -> Option<&str> {
    let bar = line.find('|')?;
    let head = line.get(..bar)?;
    let start = head
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_control() || *c == '\u{FFFD}')
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(0);
    Some(line.get(start..)?.trim())
}

/// What an event (or code) says, and the description of its time.
fn meaning(label: &str) -> (String, String) {
    match label {
        "SHUTDOWN" => (
            "the phone shut down or restarted".into(),
            "Device shut down (Samsung eRR.p)".into(),
        ),
        "ON" => (
            "the phone started".into(),
            "Device started (Samsung eRR.p)".into(),
        ),
        "LPM" => (
            "the phone started in its charge-only (low-power) mode".into(),
            "Device started in charge-only mode (Samsung eRR.p)".into(),
        ),
        other => (
            format!("a power event marked {other} (quoted as written, not decoded)"),
            format!("Samsung eRR.p record {other}"),
        ),
    }
}

/// One `eRR.p`: a phenomenon per record line.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = super::files::read(ctx, l)? else {
        return Ok(());
    };
    let mut records: Vec<(usize, &str)> = Vec::new();
    let mut undated: Vec<(usize, &str)> = Vec::new();
    for (i, raw) in inv.output.text.lines().enumerate() {
        let Some(line) = record_of(raw) else {
            continue;
        };
        let head = line.split('|').next().unwrap_or("");
        if dated(head).is_some() {
            records.push((i + 1, line));
        } else if !line.starts_with("LOGM") {
            undated.push((i + 1, line));
        }
    }
    if records.is_empty() {
        ctx.unparsed(
            &name,
            "no record: no '|' line with a YYYY-MM-DD HH:MM:SS time in its first field",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    if let Some((at, first)) = undated.first() {
        ctx.unparsed(
            &name,
            &format!(
                "{} '|' line(s) without a YYYY-MM-DD HH:MM:SS time in their first field were not read (the first, line {at}: {first})",
                undated.len()
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    for (at, line) in records.iter().take(super::MAX_ROWS as usize) {
        record_draft(ctx, event(&name, l, &inv, *at, line))?;
    }
    if records.len() > super::MAX_ROWS as usize {
        ctx.unparsed(
            &name,
            &format!(
                "{} records; the first {} were recorded",
                records.len(),
                super::MAX_ROWS
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

/// A record line's phenomenon.
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
    let mut title = format!("Samsung eRR.p: {label} at {time}");
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
    let mut said = Vec::new();
    for (key, v) in [
        ("event", action),
        ("code", code),
        ("details", details),
        ("record", number),
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
            Some(r) => format!("; reason {r} as written"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_after_the_header_padding_and_their_fields() {
        let first = "LOGM\u{1}\u{0}\u{0}\u{0}2024-03-02 08:15:00+0100 | ON | RP | G991BXXU5 [3]";
        assert_eq!(
            record_of(first),
            Some("2024-03-02 08:15:00+0100 | ON | RP | G991BXXU5 [3]")
        );
        assert_eq!(record_of("LOGM header only"), None);
        assert_eq!(
            dated("2024-03-02 08:15:00+0100 "),
            Some(("2024-03-02 08:15:00+0100", true))
        );
        assert_eq!(
            dated("2019-11-30 23:59:01 "),
            Some(("2019-11-30 23:59:01", false))
        );
        assert_eq!(record_number("REASON: userrequested [12]"), Some("12"));
        assert_eq!(without_number(" userrequested [12]"), "userrequested");
        assert!(is_log_path("/data/system/users/service/data/eRR.p"));
        assert!(is_log_path("/data/system/users/service/eRR.p"));
        assert!(!is_log_path("/data/media/0/Download/eRR.p"));
    }
}
