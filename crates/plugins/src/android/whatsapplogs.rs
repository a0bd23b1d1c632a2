//! WhatsApp's own log files (`com.whatsapp/files/Logs/whatsapp*.log`, WhatsApp Business's
//! `com.whatsapp.w4b/files/Logs/`), ALEAPP's `WhatsAppLogFiles` (`get_WhatsAppLogFiles`): the
//! lines that mark messages sent and received, conversations opened and closed, typing,
//! notifications, deletions, connections to WhatsApp's servers and calls, with their times; and
//! per file the zone its header declares and the app version its stack traces name.
//!
//! | file | phenomenon | fields |
//! |---|---|---|
//! | `files/Logs/whatsapp*.log` (`read_text`, in reads of 1 MiB) | one per event line (see below), titled "WhatsApp log: <event>" | the event's tag as logged (`WriterThread/write/send-encrypted`, …), the line whole, each JID it names (`…@s.whatsapp.net`, `@g.us`, `@lid`, `@broadcast`); when (the line's `YYYY-MM-DD HH:MM:SS.mmm`, the phone's local time) |
//! | the same | one `app_usage` per file ("WhatsApp log <file>: <n> events") | each zone its `==== logfile level=<n> tz=±HHMM ====` headers declare and their levels, each app version a `### begin stack trace <version>` line names, the lines read, the events by kind; the first and last line's time |
//!
//! The event lines, by the tag they hold (the first that matches; ALEAPP's eight and two more):
//! `WriterThread/write/send-encrypted` a message sent (`messages`; ALEAPP's "Sent message"),
//! `ConnectionThreadRequestsImpl/message` a message received (`messages`),
//! `conversation/window-focus-changed` a conversation opened (`true`) or left (`false`)
//! (`app_usage`), `HandleMeComposing/sendComposing` the device's user typing (`app_usage`),
//! `ConnectionThreadRequestsImpl/compose/composing` the other party typing (`app_usage`),
//! `messagenotification/postChildNotification` a message notification shown (`notifications`),
//! `msgstore/deletemsgs/mark` messages selected for deletion and
//! `CoreMessageStore/deletemsgs/batches` a batch of messages deleted (`messages`);
//! `xmpp/connection/…` a connection event with WhatsApp's server (`app_usage`) and `voip/call…` a
//! call event (`calls`), each with its own tag. Lines naming `status@broadcast` (status updates)
//! are passed over and counted, as ALEAPP does. The meaning of a tag is WhatsApp's internal
//! wording read by ALEAPP's author, not documented by WhatsApp: the line whole is a fact beside
//! it so the reading can be checked.
//!
//! Times: a line's time is written in the phone's zone when it was written, without a zone; the
//! file's header says which (`tz=+0200`): it is a fact of the file's phenomenon and named in each
//! event's interpretation, but the time is given as written (local text). Logs redact numbers
//! (a JID may keep only its last digits): a JID is a fact as written.
//!
//! A file none of whose lines starts with the log's time (not WhatsApp's format), or an empty
//! one, is noted and gives no phenomenon. A log cut short (the last line unfinished) is read as
//! it is: WhatsApp's own log ends so while the app writes.
//!
//! Size and rotation: each file is read in up to [`MAX_READS`] reads of 1 MiB (the rest noted),
//! at most [`MAX_EVENTS`] events a file as phenomena (the rest counted and noted). WhatsApp rotates
//! its log daily into `whatsapp-<date>.<n>.log.gz`: no tool inflates compressed text, so each
//! `.gz` rotation is noted as not read, naming it; only the plain logs are read.
//!
//! Identities: a complete person JID a message, typing or notification line names (a number JID
//! `…@s.whatsapp.net` or a `…@lid`, without a device part) is the other party's: `handle:<jid>`,
//! as [`super::whatsapp`] observes it; a redacted JID is no valid number and observes nothing;
//! group and broadcast JIDs are no person. The log names no line as the registered account's own
//! number that this reader knows of: no `owner` identity is drawn from it.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::json;

use super::Located;
use crate::drafts::{Draft, record_draft};
use crate::identity::{args_on, artefact_name, jid_type, observe};

/// Bytes of one read (`read_text`'s largest).
const CHUNK: u64 = 1 << 20;
/// Most reads of one file.
pub const MAX_READS: u64 = 8;
/// Most event phenomena of one file.
pub const MAX_EVENTS: usize = 2000;

/// Whether `path` lies in a WhatsApp app's log folder.
fn in_logs(path: &str) -> bool {
    path.contains("/com.whatsapp/files/Logs/") || path.contains("/com.whatsapp.w4b/files/Logs/")
}

/// Whether `name` is WhatsApp's log file name (plain or a gzip rotation).
pub fn is_name(name: &str) -> bool {
    name.starts_with("whatsapp") && (name.ends_with(".log") || name.ends_with(".log.gz"))
}

/// Whether `path` is a WhatsApp log file (plain or a rotation) in a WhatsApp app's log folder.
pub fn is_log_path(path: &str) -> bool {
    in_logs(path) && is_name(path.rsplit('/').next().unwrap_or(path))
}

/// Whether `l` is one of WhatsApp's plain logs.
pub fn is_log(l: &Located) -> bool {
    in_logs(&l.path) && l.name().starts_with("whatsapp") && l.name().ends_with(".log")
}

/// Whether `l` is one of WhatsApp's gzip-compressed log rotations.
pub fn is_rotation(l: &Located) -> bool {
    in_logs(&l.path) && l.name().starts_with("whatsapp") && l.name().ends_with(".log.gz")
}

/// Whether `l` is a file of this reader's (plain log or rotation).
pub fn is_file(l: &Located) -> bool {
    is_log(l) || is_rotation(l)
}

/// An event kind: the tag it is found by, its category, its title and what a line of it is.
struct Kind {
    tag: &'static str,
    category: &'static str,
    title: &'static str,
    what: &'static str,
    /// Whether the JIDs it names are the other parties of the device's user.
    parties: bool,
}

/// The event kinds, the first matching a line taken (more specific tags first).
const KINDS: &[Kind] = &[
    Kind {
        tag: "WriterThread/write/send-encrypted",
        category: "messages",
        title: "message sent",
        what: "the app wrote an encrypted message to WhatsApp's server: a message the device's user sent (or a retry of it; ALEAPP's \"Sent message\")",
        parties: true,
    },
    Kind {
        tag: "ConnectionThreadRequestsImpl/compose/composing",
        category: "app_usage",
        title: "other party typing",
        what: "the server told the app that another party was typing (ALEAPP's \"Party typing\")",
        parties: true,
    },
    Kind {
        tag: "ConnectionThreadRequestsImpl/message",
        category: "messages",
        title: "message received",
        what: "the app handled a message stanza from WhatsApp's server: a message received (ALEAPP's \"Received message\")",
        parties: true,
    },
    Kind {
        tag: "conversation/window-focus-changed",
        category: "app_usage",
        title: "conversation focus changed",
        what: "a conversation's window gained (true) or lost (false) focus: the device's user opened or left a chat (ALEAPP's \"Enter/Exit conversation\")",
        parties: false,
    },
    Kind {
        tag: "HandleMeComposing/sendComposing",
        category: "app_usage",
        title: "device's user typing",
        what: "the app told the server the device's user was typing (ALEAPP's \"Owner typing\")",
        parties: true,
    },
    Kind {
        tag: "messagenotification/postChildNotification",
        category: "notifications",
        title: "message notification",
        what: "the app posted a notification of a message received (ALEAPP's \"Message received notification\")",
        parties: true,
    },
    Kind {
        tag: "msgstore/deletemsgs/mark",
        category: "messages",
        title: "messages marked for deletion",
        what: "messages selected and marked for deletion in the app (ALEAPP's \"Selected message deletion\")",
        parties: false,
    },
    Kind {
        tag: "CoreMessageStore/deletemsgs/batches",
        category: "messages",
        title: "message batch deleted",
        what: "a batch of messages deleted from the message store (ALEAPP's \"Batch message deletion\")",
        parties: false,
    },
    Kind {
        tag: "xmpp/connection/",
        category: "app_usage",
        title: "connection event",
        what: "an event of the app's connection to WhatsApp's server (connecting, closing, a timeout: the tag says which)",
        parties: false,
    },
    Kind {
        tag: "voip/call",
        category: "calls",
        title: "call event",
        what: "an event of a WhatsApp voice or video call as the app logged it (the tag says which; not a call record)",
        parties: false,
    },
];

/// The line's time as written (`YYYY-MM-DD HH:MM:SS` and its milliseconds when present).
fn stamp(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let shape: [(usize, u8); 5] = [(4, b'-'), (7, b'-'), (10, b' '), (13, b':'), (16, b':')];
    let ok = (0..19usize)
        .filter(|i| !shape.iter().any(|(p, _)| p == i))
        .all(digit)
        && shape.iter().all(|(p, c)| b.get(*p) == Some(c));
    if !ok {
        return None;
    }
    if b.get(19) == Some(&b'.') && digit(20) && digit(21) && digit(22) {
        line.get(..23)
    } else {
        line.get(..19)
    }
}

/// The tag as logged: from `tag`'s place in the line to the next white space (a `;`, `,` or
/// `:` ending it left out).
fn tag_in<'a>(line: &'a str, tag: &str) -> Option<&'a str> {
    let at = line.find(tag)?;
    let rest = &line[at..];
    let word = rest.split(char::is_whitespace).next().unwrap_or(rest);
    Some(word.trim_end_matches([';', ',', ':']))
}

/// The JIDs a line names (as written, each once).
fn jids(line: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for server in ["@s.whatsapp.net", "@g.us", "@lid", "@broadcast"] {
        let mut from = 0;
        while let Some(i) = line[from..].find(server).map(|i| i + from) {
            let end = i + server.len();
            from = end;
            // the server ends the JID (no letter or digit after it)
            if line[end..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
            {
                continue;
            }
            let start = line[..i]
                .char_indices()
                .rev()
                .take_while(|(_, c)| {
                    c.is_ascii_alphanumeric() || matches!(*c, ':' | '-' | '.' | '_')
                })
                .last()
                .map_or(i, |(k, _)| k);
            if start < i {
                let jid = &line[start..end];
                if !out.contains(&jid) {
                    out.push(jid);
                }
            }
        }
    }
    out
}

/// The zone a header declares (`tz=+0200`) and its level (`level=3`).
fn header(line: &str) -> Option<(Option<&str>, Option<&str>)> {
    let at = line.find("==== logfile ")?;
    let rest = &line[at..];
    let word = |key: &str| {
        rest.find(key).map(|i| {
            let v = &rest[i + key.len()..];
            v.split(|c: char| c.is_whitespace()).next().unwrap_or(v)
        })
    };
    let tz = word("tz=").filter(|z| {
        z.len() == 5 && z.starts_with(['+', '-']) && z[1..].bytes().all(|b| b.is_ascii_digit())
    });
    Some((tz, word("level=")))
}

/// What one file's reads gave: the calls, the zones and versions declared (with the call that
/// read each), the events by kind, the lines.
#[derive(Default)]
struct Summary {
    zones: Vec<(String, usize)>,
    levels: Vec<(String, usize)>,
    versions: Vec<(String, usize)>,
    first: Option<(String, usize)>,
    last: Option<(String, usize)>,
    counts: BTreeMap<&'static str, usize>,
    events: usize,
    over_cap: usize,
    stamped: usize,
    statuses: usize,
    lines: usize,
    split: usize,
}

/// A gzip rotation: noted, not read.
pub fn rotation(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    ctx.unparsed(
        &artefact_name(&l.tree, &l.path),
        &format!(
            "could not read WhatsApp's rotated log {} because it is gzip-compressed: no tool inflates compressed text (only the plain logs are read)",
            l.name()
        ),
        None,
    )?;
    Ok(())
}

/// One plain WhatsApp log.
pub fn log(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let file = l.name();
    let mut calls: Vec<Invoked> = Vec::new();
    let mut sum = Summary::default();
    let mut zone: Option<String> = None;
    let mut offset: u64 = 0;
    let mut skip_first = false;
    let mut more = false;
    for _ in 0..MAX_READS {
        let Some(inv) = crate::calls::call_or_note(
            ctx,
            &name,
            "read_text",
            args_on(
                &l.tree,
                json!({"path": l.path, "offset": offset, "length": CHUNK}),
            ),
        )?
        else {
            break;
        };
        let text = inv.output.text.clone();
        let structured = inv.output.structured.as_ref();
        more = match structured {
            Some(s) => s.get("more").and_then(serde_json::Value::as_bool) == Some(true),
            None => text.len() as u64 >= CHUNK,
        };
        // bytes this read returned (a cached call keeps no structured form: a whole read)
        let read = structured
            .and_then(|s| s.get("length"))
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(CHUNK);
        calls.push(inv);
        let k = calls.len() - 1;
        let mut body: &str = &text;
        if skip_first {
            // the chunk begins inside a line whose start the last read did not keep
            body = body.split_once('\n').map_or("", |(_, rest)| rest);
            sum.split += 1;
            sum.lines += 1;
        }
        let consumed = if more {
            body.rfind('\n').map_or(0, |i| i + 1)
        } else {
            body.len()
        };
        for line in body[..consumed].lines() {
            sum.lines += 1;
            let line = line.trim_end_matches('\r');
            line_of(ctx, l, &calls[k], k, line, sum.lines, &mut zone, &mut sum)?;
        }
        if !more {
            break;
        }
        // the next read starts after the last whole line, when the partial line after it holds
        // no invalid byte (shown as U+FFFD: its length in bytes then known), else after this
        // read, the next read's first line skipped
        let tail = &body[consumed..];
        if consumed > 0 && !tail.contains('\u{FFFD}') && (tail.len() as u64) < read {
            offset += read - tail.len() as u64;
            skip_first = false;
        } else {
            offset += read;
            skip_first = true;
        }
    }
    if more {
        ctx.unparsed(
            &name,
            &format!(
                "WhatsApp's log {file} was read in its first {offset} bytes ({MAX_READS} reads): the rest was not read"
            ),
            calls.last().map(|i| i.record.invocation_id.as_str()),
        )?;
    }
    if sum.over_cap > 0 {
        ctx.unparsed(
            &name,
            &format!(
                "{} event lines of WhatsApp's log {file} past the first {MAX_EVENTS} were counted, not recorded one by one",
                sum.over_cap
            ),
            calls.last().map(|i| i.record.invocation_id.as_str()),
        )?;
    }
    let Some(last) = calls.last() else {
        return Ok(());
    };
    if sum.stamped == 0 {
        // nothing of WhatsApp's log format: noted, no phenomenon
        ctx.unparsed(
            &name,
            &format!(
                "could not parse WhatsApp's log {file} because {}",
                if sum.lines == 0 {
                    "it is empty".to_string()
                } else {
                    format!(
                        "none of its {} lines starts with the log's time (YYYY-MM-DD HH:MM:SS.mmm)",
                        sum.lines
                    )
                }
            ),
            Some(&last.record.invocation_id),
        )?;
        return Ok(());
    }
    summary(ctx, l, &calls, &sum)
}

/// One line of a log: a header, a stack trace's version, an event, or nothing read.
#[allow(clippy::too_many_arguments)]
fn line_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
    inv: &Invoked,
    k: usize,
    line: &str,
    n: usize,
    zone: &mut Option<String>,
    sum: &mut Summary,
) -> Result<(), RuntimeError> {
    if let Some(at) = line.find("### begin stack trace ") {
        let v = line[at + "### begin stack trace ".len()..].trim();
        if !v.is_empty() && !sum.versions.iter().any(|(x, _)| x == v) {
            sum.versions.push((v.to_string(), k));
        }
        return Ok(());
    }
    // WhatsApp writes each line after its time: a line without one continues the line before
    // (a stack trace, a multi-line message)
    let Some(when) = stamp(line) else {
        return Ok(());
    };
    sum.stamped += 1;
    if sum.first.is_none() {
        sum.first = Some((when.to_string(), k));
    }
    sum.last = Some((when.to_string(), k));
    if let Some((tz, level)) = header(line) {
        if let Some(z) = tz {
            *zone = Some(z.to_string());
            if !sum.zones.iter().any(|(v, _)| v == z) {
                sum.zones.push((z.to_string(), k));
            }
        }
        if let Some(v) = level.filter(|v| !v.is_empty())
            && !sum.levels.iter().any(|(x, _)| x == v)
        {
            sum.levels.push((v.to_string(), k));
        }
        return Ok(());
    }
    let Some(kind) = KINDS.iter().find(|kind| line.contains(kind.tag)) else {
        return Ok(());
    };
    if line.contains("status@broadcast") {
        sum.statuses += 1;
        return Ok(());
    }
    *sum.counts.entry(kind.title).or_default() += 1;
    sum.events += 1;
    if sum.events > MAX_EVENTS {
        sum.over_cap += 1;
        return Ok(());
    }
    let tag = tag_in(line, kind.tag).unwrap_or(kind.tag);
    let title = if kind.tag == "conversation/window-focus-changed" {
        match line.split_whitespace().last() {
            Some("true") => "conversation opened",
            Some("false") => "conversation left",
            _ => kind.title,
        }
    } else {
        kind.title
    };
    let shown = match kind.tag {
        "xmpp/connection/" | "voip/call" => format!("WhatsApp log: {title} {tag}"),
        _ => format!("WhatsApp log: {title}"),
    };
    let mut d = Draft::new(kind.category, shown.clone());
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Text, Some(tag), inv);
    d.fact(FactType::Text, Some(line), inv);
    let named = jids(line);
    for j in &named {
        d.fact(FactType::Account, Some(j), inv);
    }
    d.time(Some(when), Some(TimeEncoding::LocalText), &shown, inv);
    d.interpretation = format!(
        "line {n} of {}: {} ({tag}){}; the time is the line's own, the phone's local time when written{}. The tag's meaning is WhatsApp's internal wording as ALEAPP reads it: the line is given whole.",
        l.path,
        kind.what,
        if named.is_empty() {
            String::new()
        } else {
            format!(", naming {}", named.join(", "))
        },
        match zone {
            Some(z) => format!(" (the file's header declares tz={z})"),
            None => " (no header before it declares the zone)".to_string(),
        },
    );
    record_draft(ctx, d)?;
    if kind.parties {
        for j in named {
            let person = j.ends_with("@s.whatsapp.net") || j.ends_with("@lid");
            // a device part (`<number>:<device>@…`) is no person's own JID as written
            if !person || j.contains(':') || jid_type(j) == IdType::AccountId {
                continue;
            }
            observe(
                ctx,
                &format!("handle:{j}"),
                EntityKind::Person,
                j,
                jid_type(j),
                j,
                inv,
                format!(
                    "The JID {j} named by a WhatsApp log line ({title}, line {n} of {}): the other party of the device's user.",
                    l.name()
                ),
            )?;
        }
    }
    Ok(())
}

/// The file's phenomenon.
fn summary(
    ctx: &AgentCtx<'_>,
    l: &Located,
    calls: &[Invoked],
    sum: &Summary,
) -> Result<(), RuntimeError> {
    let file = l.name();
    let mut d = Draft::new(
        "app_usage",
        format!("WhatsApp log {file}: {} events", sum.events),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    for (z, k) in &sum.zones {
        d.fact(FactType::Text, Some(z), &calls[*k]);
    }
    for (v, k) in &sum.levels {
        d.fact(FactType::Text, Some(v), &calls[*k]);
    }
    for (v, k) in &sum.versions {
        d.fact(FactType::Text, Some(v), &calls[*k]);
    }
    if let Some((w, k)) = &sum.first {
        d.time(
            Some(w),
            Some(TimeEncoding::LocalText),
            "WhatsApp log first line",
            &calls[*k],
        );
    }
    if let Some((w, k)) = &sum.last
        && sum.first.as_ref().map(|(f, _)| f) != Some(w)
    {
        d.time(
            Some(w),
            Some(TimeEncoding::LocalText),
            "WhatsApp log last line",
            &calls[*k],
        );
    }
    let list = |v: &[(String, usize)]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|(x, _)| x.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    d.interpretation = format!(
        "{}: WhatsApp's own log, {} lines read in {} reads{}; zones its headers declare {} (level {}); app versions its stack traces name {}; {} event lines{}{}; {} status lines passed over; the times are the lines' own (the phone's local time when written).",
        l.path,
        sum.lines,
        calls.len(),
        if sum.split > 0 {
            format!(" ({} lines split across two reads not read)", sum.split)
        } else {
            String::new()
        },
        list(sum.zones.as_slice()),
        list(sum.levels.as_slice()),
        list(sum.versions.as_slice()),
        sum.events,
        if sum.counts.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                sum.counts
                    .iter()
                    .map(|(k, n)| format!("{k} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        if sum.over_cap > 0 {
            format!(", {} past the cap counted only", sum.over_cap)
        } else {
            String::new()
        },
        sum.statuses,
    );
    record_draft(ctx, d)
}
