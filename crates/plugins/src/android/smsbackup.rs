//! The telephony provider's backup of SMS and MMS (`com.android.providers.telephony/d_f/
//! <n>_sms_backup`, `<n>_mms_backup`, as an Android backup — `adb backup`, a device transfer —
//! leaves them: zlib-compressed JSON arrays written by AOSP's `TelephonyBackupAgent`), ALEAPP's
//! `smsmmsBackup`. A message kept here may be gone from `mmssms.db` since the backup.
//!
//! One `messages` phenomenon per message ("SMS from <address> (backup)", "SMS sent to <address>
//! (backup)", "MMS … (backup)"), read with `read_json` (which inflates the file) in pages of JSON
//! pointers, one per message:
//! - SMS: address, body, date and date sent (Unix ms), type (1 received, 2 sent, 3 draft, 4
//!   outbox, 5 failed, 6 queued), read, status, the recipients of a group message;
//! - MMS: the recipients, the text (`mms_body`), subject, message box (1 inbox, 2 sent, …), read,
//!   content location, transaction id, message type, the addresses with their types, date and
//!   date sent (Unix s).
//!
//! Identities: each address is observed as the other party (the contact holding the number,
//! else `handle:<number>`), as the SMS readers observe it. A file `read_json` cannot read is
//! noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::{Value, json};

use super::Located;
use super::databases::{Book, observe_party};
use crate::drafts::{Draft, record_draft, unix_millis, unix_seconds};
use crate::identity::{args_on, artefact_name};
use crate::outputs::json_scalar;

/// JSON pointers per `read_json` call.
const PAGE: usize = 64;
/// Most messages read from one file.
const CAP: usize = 100_000;

/// Whether `l` is one of the telephony backup's message files.
pub fn is_backup(l: &Located) -> bool {
    l.path.contains("/com.android.providers.telephony/d_f/")
        && (l.name().ends_with("sms_backup") || l.name().ends_with("mms_backup"))
}

/// What an SMS `type` is.
fn sms_type(t: Option<&str>) -> Option<&'static str> {
    Some(match t? {
        "1" => "received",
        "2" => "sent",
        "3" => "a draft",
        "4" => "in the outbox",
        "5" => "failed",
        "6" => "queued",
        _ => return None,
    })
}

/// One backup file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let mms = l.name().ends_with("mms_backup");
    let mut at = 0usize;
    loop {
        let pointers: Vec<String> = (at..at + PAGE).map(|i| format!("/{i}")).collect();
        let Some(inv) = crate::calls::call_or_note(
            ctx,
            &name,
            "read_json",
            args_on(&l.tree, json!({"path": l.path, "pointers": pointers})),
        )?
        else {
            return Ok(());
        };
        let mut more = false;
        for (i, part) in parts(&inv.output.text) {
            let Some(m) = part.filter(Value::is_object) else {
                continue;
            };
            more = true;
            if mms {
                one_mms(ctx, l, book, &inv, i, &m)?;
            } else {
                one_sms(ctx, l, book, &inv, i, &m)?;
            }
        }
        // a page whose last pointer is absent is the file's last
        if !more
            || parts(&inv.output.text)
                .last()
                .is_none_or(|(_, p)| p.is_none())
        {
            return Ok(());
        }
        at += PAGE;
        if at >= CAP {
            ctx.unparsed(
                &name,
                &format!("the backup holds more than {CAP} messages: those past the first {CAP} were not read"),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
    }
}

/// The parts of a `read_json` output with pointers: (index, the part or `None` when absent).
fn parts(text: &str) -> Vec<(usize, Option<Value>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    let flush = |c: Option<(usize, String)>, out: &mut Vec<(usize, Option<Value>)>| {
        if let Some((i, body)) = c {
            out.push((i, serde_json::from_str(&body).ok()));
        }
    };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# at /") {
            flush(current.take(), &mut out);
            if let Some(i) = rest.strip_suffix(": not present") {
                if let Ok(i) = i.parse() {
                    out.push((i, None));
                }
            } else if let Ok(i) = rest.parse() {
                current = Some((i, String::new()));
            }
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(current, &mut out);
    out
}

/// The values of a JSON array (of its members' `member` when named), as printed.
fn list(v: &Value, member: Option<&str>) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| json_scalar(member.map_or(Some(x), |k| x.get(k))))
        .collect()
}

fn s(m: &Value, k: &str) -> Option<String> {
    json_scalar(m.get(k)).filter(|v| !v.is_empty())
}

fn one_sms(
    ctx: &AgentCtx<'_>,
    l: &Located,
    book: &Book,
    inv: &masf_tools::Invoked,
    i: usize,
    m: &Value,
) -> Result<(), RuntimeError> {
    let address = s(m, "address");
    let kind = s(m, "type");
    let sent = kind.as_deref() == Some("2");
    let who = address
        .clone()
        .unwrap_or_else(|| "an unknown address".into());
    let mut d = Draft::new(
        "messages",
        if sent {
            format!("SMS sent to {who} (backup)")
        } else {
            format!("SMS from {who} (backup)")
        },
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    if let Some(a) = &address {
        d.claim(super::databases::party_fact(ctx, a, inv));
    }
    let said = d.json_fields(
        m,
        inv,
        &[
            ("body", FactType::Text, "text"),
            ("type", FactType::Text, "type"),
            ("read", FactType::Text, "read"),
            ("status", FactType::Text, "status"),
        ],
    );
    let recipients = list(&m["recipients"], None);
    for r in &recipients {
        d.claim(super::databases::party_fact(ctx, r, inv));
    }
    let date = s(m, "date");
    d.message_time(date.as_deref(), unix_millis(date.as_deref()), sent, inv);
    let date_sent = s(m, "date_sent");
    d.time(
        date_sent.as_deref(),
        unix_millis(date_sent.as_deref()),
        "SMS sent (by the sender's clock)",
        inv,
    );
    d.interpretation = format!(
        "message {i} of the telephony provider's SMS backup {}: an SMS {} {who}{} ({}); dates are Unix milliseconds. A message kept in the backup may be gone from mmssms.db since.",
        l.path,
        match sms_type(kind.as_deref()) {
            Some("sent") => "sent to".to_string(),
            Some(k) => format!("{k}, from"),
            None => "from".to_string(),
        },
        if recipients.is_empty() {
            String::new()
        } else {
            format!(" with {}", recipients.join(", "))
        },
        said.join("; "),
    );
    record_draft(ctx, d)?;
    let what = format!("an SMS of the telephony backup ({})", l.path);
    for a in address.iter().chain(&recipients) {
        observe_party(ctx, book, a, inv, &what)?;
    }
    Ok(())
}

fn one_mms(
    ctx: &AgentCtx<'_>,
    l: &Located,
    book: &Book,
    inv: &masf_tools::Invoked,
    i: usize,
    m: &Value,
) -> Result<(), RuntimeError> {
    let recipients = list(&m["recipients"], None);
    let addresses = list(&m["mms_addresses"], Some("address"));
    let sent = s(m, "msg_box").as_deref() == Some("2");
    let who = recipients
        .first()
        .or(addresses.first())
        .cloned()
        .unwrap_or_else(|| "an unknown address".into());
    let mut d = Draft::new(
        "messages",
        if sent {
            format!("MMS sent to {who} (backup)")
        } else {
            format!("MMS from {who} (backup)")
        },
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    for a in recipients.iter().chain(&addresses) {
        d.claim(super::databases::party_fact(ctx, a, inv));
    }
    let said = d.json_fields(
        m,
        inv,
        &[
            ("mms_body", FactType::Text, "text"),
            ("sub", FactType::Text, "subject"),
            ("msg_box", FactType::Text, "box"),
            ("read", FactType::Text, "read"),
            ("ct_l", FactType::Url, "content location"),
            ("tr_id", FactType::Identifier, "transaction"),
            ("m_type", FactType::Text, "message type"),
        ],
    );
    let date = s(m, "date");
    d.message_time(date.as_deref(), unix_seconds(date.as_deref()), sent, inv);
    let date_sent = s(m, "date_sent");
    d.time(
        date_sent.as_deref(),
        unix_seconds(date_sent.as_deref()),
        "MMS sent (by the sender's clock)",
        inv,
    );
    d.interpretation = format!(
        "message {i} of the telephony provider's MMS backup {}: an MMS {} (recipients {}; addresses {}; {}); dates are Unix seconds. A message kept in the backup may be gone from mmssms.db since.",
        l.path,
        if sent { "sent" } else { "received" },
        if recipients.is_empty() {
            "none listed".to_string()
        } else {
            recipients.join(", ")
        },
        if addresses.is_empty() {
            "none listed".to_string()
        } else {
            addresses.join(", ")
        },
        said.join("; "),
    );
    record_draft(ctx, d)?;
    let what = format!("an MMS of the telephony backup ({})", l.path);
    for a in recipients.iter().chain(&addresses) {
        observe_party(ctx, book, a, inv, &what)?;
    }
    Ok(())
}
