//! Apple Mail's message index (`Library/Mail/Envelope Index`): one phenomenon per row of
//! `messages` with the fields iLEAPP's mail modules and the DFIR write-ups report: sender
//! (address and name from `addresses`), recipients (To, Cc, Bcc from `recipients` with their
//! names), subject (with its prefix), the summary (the body's first lines), sent, received and
//! last-viewed times (Unix seconds), the mailbox URL, read, flagged and deleted, flags, size,
//! message, remote and conversation ids.
//!
//! Schema drift: `recipients` links a message and an address by `message`/`address` (current
//! layouts) or `message_id`/`address_id` (older ones), whichever is found; `subject_prefix`,
//! `summary`, `date_last_viewed` are read when present. A `messages` table without `ROWID`,
//! `sender`, `subject` or `date_received` is noted as unparsed, naming them.
//!
//! Identities: the account of a mailbox whose URL names it (`imap://user%40host@server/…`,
//! read from the URL with `%40` decoded by the query) and the sender of a message in a mailbox
//! whose URL names a Sent folder are the owner's; every other sender and recipient is a
//! counterparty (`handle:<e-mail>` unless a card holds it), the user's own addresses excepted. Wallet addresses in a summary are
//! the writer's claims ([`Run::message_claims`]).

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::photos::fields;
use super::{Draft, Run, raw, summarise};
use crate::util::{column_or_null, unix_seconds};

/// Triage of every `Envelope Index` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Envelope Index", |find, path| one(run, find, path))
}

/// The account named in a mailbox URL decoded by the query (`imap://user@host@server/INBOX` →
/// `user@host`), when it is an e-mail address.
fn url_account(decoded: &str) -> Option<&str> {
    let rest = decoded.split_once("://")?.1;
    let authority = rest.split('/').next()?;
    let (user, _server) = authority.rsplit_once('@')?;
    user.contains('@').then_some(user)
}

/// Whether a mailbox URL is a Sent folder.
fn is_sent(url: &str) -> bool {
    let last = url.rsplit('/').next().unwrap_or("").to_ascii_lowercase();
    last.starts_with("sent")
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            "messages",
            "addresses",
            "subjects",
            "summaries",
            "recipients",
            "mailboxes",
        ],
    )?
    else {
        return Ok(());
    };
    if !schema.require(
        run,
        "messages",
        &["ROWID", "sender", "subject", "date_received"],
    )? {
        return Ok(());
    }
    let m = schema.columns("messages");
    let addresses = schema.columns("addresses");
    let has_addr = addresses.contains("ROWID") && addresses.contains("address");
    let rc = schema.columns("recipients");

    // Recipients by message.
    type Recipient = (Invoked, String, String);
    let mut recipients: BTreeMap<String, Vec<Recipient>> = BTreeMap::new();
    let link = if rc.contains("message") && rc.contains("address") {
        Some(("message", "address"))
    } else if rc.contains("message_id") && rc.contains("address_id") {
        Some(("message_id", "address_id"))
    } else {
        None
    };
    if let (Some((msg, addr)), true) = (link, has_addr) {
        let sql = format!(
            "SELECT r.ROWID AS rowid, r.{msg} AS message, a.address AS address, {}, {} FROM recipients r LEFT JOIN addresses a ON a.ROWID = r.{addr}",
            column_or_null(&addresses, "a.", "comment", "name"),
            column_or_null(&rc, "r.", "type", "type"),
        );
        if let Some(paged) = run.paged(path, &sql, "r.ROWID")? {
            for (inv, t, row) in paged.rows() {
                let (Some(message), Some(address)) =
                    (raw(t, row, "message"), raw(t, row, "address"))
                else {
                    continue;
                };
                let kind = match raw(t, row, "type").as_deref() {
                    Some("1") => "Cc",
                    Some("2") => "Bcc",
                    _ => "To",
                };
                let who = match raw(t, row, "name").filter(|n| !n.is_empty()) {
                    Some(n) => format!("{kind} {n} <{address}>"),
                    None => format!("{kind} {address}"),
                };
                recipients
                    .entry(message)
                    .or_default()
                    .push((inv.clone(), address, who));
            }
        }
    } else if !rc.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse the recipients because table recipients lacks message/address (or message_id/address_id)",
            None,
        )?;
    }

    let mc = |c: &str, a: &str| column_or_null(&m, "m.", c, a);
    let mut joins = String::new();
    let mut cols = vec![
        "m.ROWID AS rowid".to_string(),
        "m.date_received AS received".to_string(),
    ];
    for (c, a) in [
        ("date_sent", "sent"),
        ("date_last_viewed", "viewed"),
        ("subject_prefix", "prefix"),
        ("read", "read"),
        ("flagged", "flagged"),
        ("deleted", "deleted"),
        ("flags", "flags"),
        ("size", "size"),
        ("message_id", "message_id"),
        ("remote_id", "remote_id"),
        ("conversation_id", "conversation"),
    ] {
        cols.push(mc(c, a));
    }
    if has_addr {
        joins.push_str(" LEFT JOIN addresses sa ON sa.ROWID = m.sender");
        cols.push("sa.address AS sender".into());
        cols.push(column_or_null(&addresses, "sa.", "comment", "sender_name"));
    } else {
        cols.push("NULL AS sender, NULL AS sender_name".into());
    }
    let table_col = |table: &str, col: &str, alias: &str, key: &str| {
        let tc = schema.columns(table);
        if tc.contains("ROWID") && tc.contains(col) && m.contains(key) {
            (
                format!(" LEFT JOIN {table} {alias} ON {alias}.ROWID = m.{key}"),
                format!("{alias}.{col} AS {key}_text"),
            )
        } else {
            (String::new(), format!("NULL AS {key}_text"))
        }
    };
    for (table, col, alias, key) in [
        ("subjects", "subject", "su", "subject"),
        ("summaries", "summary", "sm", "summary"),
    ] {
        let (j, c) = table_col(table, col, alias, key);
        joins.push_str(&j);
        cols.push(c);
    }
    let mb = schema.columns("mailboxes");
    if mb.contains("ROWID") && mb.contains("url") && m.contains("mailbox") {
        joins.push_str(" LEFT JOIN mailboxes mb ON mb.ROWID = m.mailbox");
        cols.push("mb.url AS mailbox".into());
        cols.push("replace(mb.url, '%40', '@') AS mailbox_decoded".into());
    } else {
        cols.push("NULL AS mailbox, NULL AS mailbox_decoded".into());
    }
    let sql = format!("SELECT {} FROM messages m{joins}", cols.join(", "));
    let Some(paged) = run.paged(path, &sql, "m.ROWID")? else {
        return Ok(());
    };
    // The user's own addresses: the accounts mailbox URLs name, the senders of sent mail.
    let mut own: BTreeSet<String> = BTreeSet::new();
    for (_, t, row) in paged.rows() {
        if let Some(a) = raw(t, row, "mailbox_decoded")
            .as_deref()
            .and_then(url_account)
        {
            own.insert(a.to_ascii_lowercase());
        }
        if raw(t, row, "mailbox").as_deref().is_some_and(is_sent)
            && let Some(s) = raw(t, row, "sender")
        {
            own.insert(s.to_ascii_lowercase());
        }
    }
    for (inv, t, row) in paged.rows() {
        let rowid = raw(t, row, "rowid").unwrap_or_default();
        let sender = raw(t, row, "sender");
        let subject = raw(t, row, "subject_text");
        let mailbox = raw(t, row, "mailbox");
        let decoded = raw(t, row, "mailbox_decoded");
        let sent = mailbox.as_deref().is_some_and(is_sent);
        let mut d = Draft::new(
            "mail",
            format!(
                "Mail {rowid} {} {}: {}",
                if sent { "to" } else { "from" },
                if sent {
                    recipients
                        .get(&rowid)
                        .and_then(|r| r.first())
                        .map(|(_, a, _)| a.clone())
                        .unwrap_or_else(|| "(no recipient)".into())
                } else {
                    sender.clone().unwrap_or_else(|| "(unknown sender)".into())
                },
                subject.as_deref().unwrap_or("(no subject)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("sender", FactType::Email, "from"),
                ("sender_name", FactType::Name, "sender name"),
                ("prefix", FactType::Text, "subject prefix"),
                ("subject_text", FactType::Text, "subject"),
                ("summary_text", FactType::Text, "summary"),
                ("mailbox", FactType::Url, "mailbox"),
                ("size", FactType::Count, "size (bytes)"),
                ("flags", FactType::Count, "flags"),
                ("message_id", FactType::Identifier, "message id"),
                ("remote_id", FactType::Identifier, "remote id"),
                ("conversation", FactType::Identifier, "conversation id"),
            ],
        );
        if let Some(list) = recipients.get(&rowid) {
            for (rinv, address, _) in list {
                d.fact(FactType::Email, Some(address), rinv);
            }
            said.push(
                list.iter()
                    .map(|(_, _, w)| w.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        for (alias, desc) in [
            ("sent", "Mail sent"),
            ("received", "Mail received"),
            ("viewed", "Mail last viewed"),
        ] {
            let v = raw(t, row, alias);
            d.time(v.as_deref(), unix_seconds(v.as_deref()), desc, inv);
        }
        let flag = |a: &str| raw(t, row, a).as_deref() == Some("1");
        d.interpretation = format!(
            "messages ROWID {rowid} of {path}: a mail {}; {}; {}, {}{}. Dates are Unix seconds.",
            if sent {
                "in a Sent mailbox, so sent by the user"
            } else {
                "received"
            },
            said.join("; "),
            if flag("read") { "read" } else { "unread" },
            if flag("flagged") {
                "flagged"
            } else {
                "not flagged"
            },
            if flag("deleted") {
                ", marked deleted"
            } else {
                ""
            },
        );
        run.record(d)?;

        // Identities.
        let what = format!("mail {rowid}");
        if let Some(account) = decoded.as_deref().and_then(url_account) {
            run.observe_person(
                "owner",
                "device owner",
                inv,
                &|w| format!("{w}: the account its mailbox URL names ({what})."),
                &[(IdType::Email, Some(account), "the mail account")],
            )?;
        }
        match (&sender, sent) {
            (Some(s), true) => run.observe_person(
                "owner",
                "device owner",
                inv,
                &|w| format!("{w}: the sender of {what}, kept in a Sent mailbox."),
                &[(IdType::Email, Some(s), "the user's sending address")],
            )?,
            (Some(s), false) if !own.contains(&s.to_ascii_lowercase()) => {
                run.observe_handle(s, inv, &what)?;
            }
            (Some(_), false) => {}
            (None, _) => {}
        }
        let mut parties = Vec::new();
        if let Some(list) = recipients.get(&rowid) {
            for (rinv, address, _) in list {
                if !own.contains(&address.to_ascii_lowercase()) {
                    run.observe_handle(address, rinv, &what)?;
                    parties.push(address.clone());
                }
            }
        }
        if let Some(text) = raw(t, row, "summary_text") {
            let other = if sent {
                run.handle_party(parties.first().map(String::as_str))
            } else {
                run.handle_party(sender.as_deref())
            };
            run.message_claims(
                inv,
                &text,
                &what,
                sent,
                other,
                "in a Sent mailbox",
                "in a received mailbox",
            )?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "mail",
            path,
            find,
            "mail messages",
            "SELECT count(*) AS total, min(NULLIF(date_received, 0)) AS first_time, max(date_received) AS last_time FROM messages",
            unix_seconds,
            "First mail received",
            "Last mail received",
        )?;
    }
    Ok(())
}
