//! Apple Mail's messages as stored (`Library/Mail/MessageData/<global message id>/*.emlx`, and
//! the `.emlx` of any other `Mail` folder; `.partial.emlx` for a message only partly
//! downloaded), read with `read_email`, as iLEAPP's `mailHeaders` reads them: one phenomenon per
//! message with every address of From, Sender, To, Cc, Bcc and Reply-To (each with its display
//! name), the subject, the Date header (UTC), the message id, In-Reply-To and References,
//! Return-Path, List-Unsubscribe, the attachments' names, sizes and types, the first text body
//! (at most 64 KiB), and Mail's own property list after the message (received and last-viewed
//! times, Unix seconds; flags; remote and conversation ids).
//!
//! The `Envelope Index` ([`super::mail`]) lists the same messages with To recipients only and
//! the body's first lines; the `.emlx` adds Cc and Bcc, the whole body and the attachments' names.
//! Its folder name is the Envelope Index's global message id, which ties the two together.
//!
//! Identities: none observed here — the Envelope Index reader observes the senders and
//! recipients with the mailbox that says whose they are; a `.emlx` alone does not say which
//! addresses are the user's. A message that does not parse is noted; at most [`MESSAGE_CAP`]
//! messages a source are read (the rest noted).

use masf_agents::RuntimeError;
use masf_graph::{FactType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::json;

use super::{Draft, Run};
use crate::outputs::unescape;

/// Most `.emlx` files read per source.
pub const MESSAGE_CAP: usize = 20_000;

/// The address headers, with how a line names them and how the interpretation says them.
const ADDRESSES: [(&str, &str); 6] = [
    ("from", "from"),
    ("sender", "sender"),
    ("to", "to"),
    ("cc", "cc"),
    ("bcc", "bcc"),
    ("reply_to", "reply to"),
];

/// Triage of every `.emlx` in a `Mail` folder of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("*.emlx")? else {
        return Ok(());
    };
    let paths: Vec<&String> = paths.iter().filter(|p| p.contains("/Mail/")).collect();
    for (i, path) in paths.iter().enumerate() {
        if i == MESSAGE_CAP {
            run.ctx.unparsed(
                path,
                &format!(
                    "more than {MESSAGE_CAP} .emlx messages: the first {MESSAGE_CAP} were read, {} not",
                    paths.len() - MESSAGE_CAP
                ),
                Some(&find.record.invocation_id),
            )?;
            break;
        }
        one(run, &find, path)?;
    }
    Ok(())
}

/// The cells after `key\t` of each line of `text` so keyed (escaped, as the output holds them).
fn keyed<'a>(text: &'a str, key: &str) -> Vec<Vec<&'a str>> {
    text.lines()
        .filter_map(|l| l.strip_prefix(key)?.strip_prefix('\t'))
        .map(|l| l.split('\t').collect())
        .collect()
}

/// The first cell of the first line keyed `key`.
fn first<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    keyed(text, key)
        .into_iter()
        .next()
        .and_then(|c| c.first().copied())
        .filter(|v| !v.is_empty())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "read_email",
        json!({"path": path, "body": true}),
    )?
    else {
        return Ok(());
    };
    let text = inv.output.text.as_str();
    let subject = first(text, "subject");
    let mut d = Draft::new(
        "mail",
        match subject {
            Some(s) => format!("E-mail: {}", unescape(s)),
            None => "E-mail (no subject)".to_string(),
        },
    );
    d.fact(FactType::Path, Some(path), find);
    let mut said = Vec::new();
    for (key, label) in ADDRESSES {
        let mut shown = Vec::new();
        for cells in keyed(text, key) {
            let (name, address) = (cells.first().copied(), cells.get(1).copied());
            let name = name.filter(|n| !n.is_empty());
            let address = address.filter(|a| !a.is_empty());
            d.fact(FactType::Name, name, &inv);
            d.fact(FactType::Email, address, &inv);
            shown.push(match (name, address) {
                (Some(n), Some(a)) => format!("{} <{}>", unescape(n), unescape(a)),
                (None, Some(a)) => unescape(a),
                (Some(n), None) => unescape(n),
                (None, None) => continue,
            });
        }
        if !shown.is_empty() {
            said.push(format!("{label} {}", shown.join(", ")));
        }
    }
    d.fact(FactType::Text, subject, &inv);
    if let Some(date) = keyed(text, "date").into_iter().next() {
        let unix = date.get(1).copied();
        d.time(
            unix,
            unix.map(|_| TimeEncoding::UnixSeconds),
            "E-mail date (Date header)",
            &inv,
        );
        if let Some(written) = date.get(2).filter(|w| !w.is_empty()) {
            d.fact(FactType::Text, Some(written), &inv);
            said.push(format!("dated {} as written", unescape(written)));
        }
    }
    for (key, t, label) in [
        ("message_id", FactType::Identifier, "message id"),
        ("in_reply_to", FactType::Identifier, "in reply to"),
        ("return_path", FactType::Email, "return path"),
        ("list_unsubscribe", FactType::Url, "unsubscribe at"),
    ] {
        let values: Vec<&str> = keyed(text, key)
            .into_iter()
            .filter_map(|c| c.first().copied())
            .filter(|v| !v.is_empty())
            .collect();
        for v in &values {
            d.fact(t, Some(v), &inv);
        }
        if !values.is_empty() {
            said.push(format!("{label} {}", values.join(", ")));
        }
    }
    let references = keyed(text, "references").len();
    if references > 0 {
        said.push(format!("{references} earlier message(s) in References"));
    }
    for cells in keyed(text, "attachment") {
        let name = cells.first().copied().filter(|n| !n.is_empty());
        let bytes = cells.get(1).copied();
        d.fact(FactType::Name, name, &inv);
        d.fact(FactType::Count, bytes, &inv);
        d.fact(FactType::Identifier, cells.get(2).copied(), &inv);
        said.push(format!(
            "attachment {} ({} bytes, {})",
            name.map(unescape).unwrap_or_else(|| "(unnamed)".into()),
            bytes.unwrap_or("?"),
            cells.get(2).copied().unwrap_or("?")
        ));
    }
    if let Some(body) = first(text, "body") {
        d.fact(FactType::Text, Some(body), &inv);
        said.push(if text.contains("\n# body cut at ") {
            "the body's first 64 KiB".to_string()
        } else {
            "the body".to_string()
        });
    }
    // Mail's property list after the message
    let plist = keyed(text, "emlx");
    for cells in &plist {
        let (Some(key), Some(value)) = (cells.first().copied(), cells.get(1).copied()) else {
            continue;
        };
        match key {
            "date-received" => d.time(
                Some(value),
                Some(TimeEncoding::UnixSeconds),
                "E-mail received (Mail)",
                &inv,
            ),
            "date-last-viewed" => d.time(
                Some(value),
                Some(TimeEncoding::UnixSeconds),
                "E-mail last viewed (Mail)",
                &inv,
            ),
            "date-sent" => d.time(
                Some(value),
                Some(TimeEncoding::UnixSeconds),
                "E-mail sent (Mail)",
                &inv,
            ),
            "remote-id" | "conversation-id" | "original-mailbox" => {
                d.fact(FactType::Identifier, Some(value), &inv)
            }
            "flags" => d.fact(FactType::Text, Some(value), &inv),
            _ => continue,
        };
        said.push(format!("Mail's {key} {}", unescape(value)));
    }
    let header = text.lines().next().unwrap_or_default();
    let cut = header.contains(", cut short at ");
    let global = path
        .rsplit('/')
        .nth(1)
        .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    d.interpretation = format!(
        "{path}: an e-mail message as Apple Mail stored it{}{}: {}. Times: the Date header as the sender's mailer wrote it (converted to UTC), Mail's own dates in Unix seconds.",
        global
            .map(|g| format!(" (global message id {g}, as the Envelope Index names it)"))
            .unwrap_or_default(),
        if cut {
            ", only partly downloaded (the file ends before the message's announced length)"
        } else {
            ""
        },
        if said.is_empty() {
            "no field".to_string()
        } else {
            said.join("; ")
        }
    );
    run.record(d)
}
