//! Apple Mail's message index (`Library/Mail/Envelope Index`): one phenomenon per row of
//! `messages` with the fields iLEAPP's mail modules and the DFIR write-ups report: sender
//! (address and name from `addresses`), recipients (from `recipients` with their names; `type`
//! 1 is To, as iLEAPP reads it on real iOS 17 mail, other types are said as stored), subject (with its prefix), the summary (the body's first lines), sent, received and
//! last-viewed times (Unix seconds), the mailbox URL, read, flagged and deleted, flags, size,
//! message, remote, conversation and global message ids, the attachments' names and sizes
//! (`message_attachments` by global message id with `attachments`' sizes, or the iOS 13/14
//! `attachments` by message, as iLEAPP's `mailprotect` reads them).
//!
//! Schema drift: from iOS 13 the `addresses`, `subjects` and `summaries` tables are in the
//! `Protected Index` beside the `Envelope Index` (iLEAPP's `mailprotect` attaches it): each is
//! read from the Envelope Index when it has it, else from the Protected Index, by the ROWIDs
//! the messages name (250 a call); when neither has one, the Envelope Index is noted ("could not
//! resolve …", naming the tables) and the messages are still recorded with their dates, mailbox
//! and flags. `recipients` links a message and an address by `message`/`address` (current
//! layouts) or `message_id`/`address_id` (older ones), whichever is found; `subject_prefix`,
//! `summary`, `date_last_viewed` are read when present. A `messages` table without `ROWID`,
//! `sender`, `subject` or `date_received` is noted as unparsed, naming them. Dates are Unix
//! seconds, as iLEAPP reads them.
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
use crate::calls::column_or_null;
use crate::drafts::unix_seconds;

/// Triage of every `Envelope Index` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut protected: Option<Vec<String>> = None;
    run.each("Envelope Index", |find, path| {
        // The Protected Index files, looked for once, when there is an Envelope Index.
        if protected.is_none() {
            protected = Some(
                run.find("Protected Index")?
                    .map(|(_, p)| p)
                    .unwrap_or_default(),
            );
        }
        one(run, find, path, protected.as_deref().unwrap_or_default())
    })
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

/// A resolved row of a lookup table: the call that printed it, the value, its comment.
type Looked = BTreeMap<String, (Invoked, String, Option<String>)>;

/// Rows of `select` (`SELECT … FROM … WHERE`) whose `key` is one of `ids`, 250 ids a call.
fn by_ids(
    run: &Run<'_, '_>,
    path: &str,
    select: &str,
    key: &str,
    ids: &BTreeSet<String>,
) -> Result<Vec<(Invoked, crate::outputs::Table)>, RuntimeError> {
    let ids: Vec<&String> = ids.iter().filter(|i| i.parse::<i64>().is_ok()).collect();
    let mut out = Vec::new();
    for chunk in ids.chunks(250) {
        let list = chunk
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!("{select} {key} IN ({list}) ORDER BY {key}");
        if let Some(r) = run.query(path, &sql, 10_000)? {
            out.push(r);
        }
    }
    Ok(out)
}

/// The `value` (and `comment`, when the table has it) of the rows of `table` with these
/// ROWIDs, in the database at `path`.
fn lookup(
    run: &Run<'_, '_>,
    path: &str,
    table: &str,
    value: &str,
    cols: &BTreeSet<String>,
    ids: &BTreeSet<String>,
) -> Result<Looked, RuntimeError> {
    let select = format!(
        "SELECT ROWID AS rowid, {value} AS value, {} FROM {table} WHERE",
        column_or_null(cols, "", "comment", "comment")
    );
    let mut out = Looked::new();
    for (inv, t) in by_ids(run, path, &select, "ROWID", ids)? {
        for row in &t.rows {
            if let (Some(id), Some(v)) = (raw(&t, row, "rowid"), raw(&t, row, "value")) {
                let comment = raw(&t, row, "comment").filter(|c| !c.is_empty());
                out.insert(id, (inv.clone(), v, comment));
            }
        }
    }
    Ok(out)
}

/// The tables an Envelope Index may keep in its `Protected Index` (iOS 13 and later).
const PROTECTED: [(&str, &str); 3] = [
    ("addresses", "address"),
    ("subjects", "subject"),
    ("summaries", "summary"),
];

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    protected: &[String],
) -> Result<(), RuntimeError> {
    let tables = [
        "messages",
        "addresses",
        "subjects",
        "summaries",
        "recipients",
        "mailboxes",
        "message_attachments",
        "attachments",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
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
    // Where each lookup table is: this database, else the Protected Index beside it.
    let beside = format!(
        "{}/Protected Index",
        path.rsplit_once('/').map_or("", |(d, _)| d)
    );
    let needs_protected = PROTECTED
        .iter()
        .any(|(t, c)| !schema.columns(t).contains(*c))
        || !schema.columns("recipients").contains("ROWID");
    let pschema = if needs_protected && protected.contains(&beside) {
        run.schema(&beside, &tables)?
    } else {
        None
    };
    let home = |table: &str, col: &str| -> Option<(String, BTreeSet<String>)> {
        let here = schema.columns(table);
        if here.contains("ROWID") && here.contains(col) {
            return Some((path.to_string(), here));
        }
        let there = pschema.as_ref()?.columns(table);
        (there.contains("ROWID") && there.contains(col)).then(|| (beside.clone(), there))
    };
    let missing: Vec<&str> = PROTECTED
        .iter()
        .filter(|(t, c)| home(t, c).is_none())
        .map(|(t, _)| *t)
        .collect();
    if !missing.is_empty() {
        run.ctx.unparsed(
            path,
            &format!(
                "could not resolve senders, subjects or summaries because the tables {} are in neither the Envelope Index nor a Protected Index beside it",
                missing.join(", ")
            ),
            None,
        )?;
    }

    let mc = |c: &str, a: &str| column_or_null(&m, "m.", c, a);
    let mut joins = String::new();
    let mut cols = vec![
        "m.ROWID AS rowid".to_string(),
        "m.date_received AS received".to_string(),
        "m.sender AS sender_id".to_string(),
        "m.subject AS subject_id".to_string(),
        mc("summary", "summary_id"),
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
        ("global_message_id", "global_id"),
    ] {
        cols.push(mc(c, a));
    }
    // Attachments (iLEAPP's mailprotect): `message_attachments` by global message id, sized
    // from `attachments`; the iOS 13/14 generation's `attachments` by message, without sizes.
    let ma = schema.columns("message_attachments");
    let at = schema.columns("attachments");
    let (names, sizes) = if ma.contains("global_message_id")
        && ma.contains("name")
        && m.contains("global_message_id")
    {
        (
            "(SELECT GROUP_CONCAT(ma.name, ', ') FROM message_attachments ma WHERE ma.global_message_id = m.global_message_id)".to_string(),
            if ma.contains("attachment") && at.contains("ROWID") && at.contains("size") {
                "(SELECT GROUP_CONCAT(att.size, ', ') FROM message_attachments ma JOIN attachments att ON att.ROWID = ma.attachment WHERE ma.global_message_id = m.global_message_id)".to_string()
            } else {
                "NULL".to_string()
            },
        )
    } else if at.contains("message") && at.contains("name") {
        (
            "(SELECT GROUP_CONCAT(a.name, ', ') FROM attachments a WHERE a.message = m.ROWID)"
                .to_string(),
            if at.contains("size") {
                "(SELECT GROUP_CONCAT(a.size, ', ') FROM attachments a WHERE a.message = m.ROWID)"
                    .to_string()
            } else {
                "NULL".to_string()
            },
        )
    } else {
        ("NULL".to_string(), "NULL".to_string())
    };
    cols.push(format!(
        "{names} AS attachments, {sizes} AS attachment_sizes"
    ));
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
    let ids = |alias: &str| -> BTreeSet<String> {
        paged
            .rows()
            .filter_map(|(_, t, row)| raw(t, row, alias))
            .collect()
    };
    let message_ids = ids("rowid");
    // Recipients of the messages read, from whichever database has them.
    type Recipient = (Invoked, String, String);
    let mut recipient_rows: Vec<(String, String, String)> = Vec::new();
    let rhome = home("recipients", "ROWID");
    if let Some((rpath, rc)) = &rhome {
        let link = if rc.contains("message") && rc.contains("address") {
            Some(("message", "address"))
        } else if rc.contains("message_id") && rc.contains("address_id") {
            Some(("message_id", "address_id"))
        } else {
            None
        };
        match link {
            Some((msg, addr)) => {
                let select = format!(
                    "SELECT r.ROWID AS rowid, r.{msg} AS message, r.{addr} AS address_id, {} FROM recipients r WHERE",
                    column_or_null(rc, "r.", "type", "type"),
                );
                for (_, t) in by_ids(run, rpath, &select, &format!("r.{msg}"), &message_ids)? {
                    for row in &t.rows {
                        if let (Some(mid), Some(aid)) =
                            (raw(&t, row, "message"), raw(&t, row, "address_id"))
                        {
                            // type 1 is To, as iLEAPP reads it on real iOS 17 mail (where it
                            // found no other type); what the other values are is not
                            // documented, so they are said as stored
                            let kind = match raw(&t, row, "type").as_deref() {
                                Some("1") => "To".to_string(),
                                Some(n) => format!("type-{n} recipient"),
                                None => "recipient".to_string(),
                            };
                            recipient_rows.push((mid, aid, kind));
                        }
                    }
                }
            }
            None => run.ctx.unparsed(
                rpath,
                "could not parse the recipients because table recipients lacks message/address (or message_id/address_id)",
                None,
            )?,
        }
    }
    let mut address_ids = ids("sender_id");
    address_ids.extend(recipient_rows.iter().map(|(_, a, _)| a.clone()));
    let resolve =
        |table: &str, col: &str, wanted: &BTreeSet<String>| -> Result<Looked, RuntimeError> {
            match home(table, col) {
                Some((p, c)) => lookup(run, &p, table, col, &c, wanted),
                None => Ok(Looked::new()),
            }
        };
    let addresses = resolve("addresses", "address", &address_ids)?;
    let subjects = resolve("subjects", "subject", &ids("subject_id"))?;
    let summaries = resolve("summaries", "summary", &ids("summary_id"))?;
    let mut recipients: BTreeMap<String, Vec<Recipient>> = BTreeMap::new();
    for (mid, aid, kind) in &recipient_rows {
        let Some((ainv, address, name)) = addresses.get(aid) else {
            continue;
        };
        let who = match name {
            Some(n) => format!("{kind} {n} <{address}>"),
            None => format!("{kind} {address}"),
        };
        recipients
            .entry(mid.clone())
            .or_default()
            .push((ainv.clone(), address.clone(), who));
    }
    let sender_of = |t: &crate::outputs::Table, row: &[Option<String>]| {
        raw(t, row, "sender_id").and_then(|id| addresses.get(&id))
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
            && let Some((_, s, _)) = sender_of(t, row)
        {
            own.insert(s.to_ascii_lowercase());
        }
    }
    for (inv, t, row) in paged.rows() {
        let rowid = raw(t, row, "rowid").unwrap_or_default();
        let sender_row = sender_of(t, row);
        let sender = sender_row.map(|(_, a, _)| a.clone());
        let subject_row = raw(t, row, "subject_id").and_then(|id| subjects.get(&id));
        let summary_row = raw(t, row, "summary_id").and_then(|id| summaries.get(&id));
        let subject = subject_row.map(|(_, s, _)| s.clone());
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
        let mut said = Vec::new();
        if let Some((sinv, address, name)) = sender_row {
            d.fact(FactType::Email, Some(address), sinv);
            d.fact(FactType::Name, name.as_deref(), sinv);
            said.push(match name {
                Some(n) => format!("from {n} <{address}>"),
                None => format!("from {address}"),
            });
        }
        for (looked, what) in [(subject_row, "subject"), (summary_row, "summary")] {
            if let Some((linv, v, _)) = looked {
                d.fact(FactType::Text, Some(v), linv);
                said.push(format!("{what} {v}"));
            }
        }
        said.extend(fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("prefix", FactType::Text, "subject prefix"),
                ("mailbox", FactType::Url, "mailbox"),
                ("size", FactType::Count, "size (bytes)"),
                ("flags", FactType::Count, "flags"),
                ("message_id", FactType::Identifier, "message id"),
                ("remote_id", FactType::Identifier, "remote id"),
                ("conversation", FactType::Identifier, "conversation id"),
                ("global_id", FactType::Identifier, "global message id"),
                ("attachments", FactType::Name, "attachments"),
                (
                    "attachment_sizes",
                    FactType::Text,
                    "attachment sizes (bytes)",
                ),
                ("read", FactType::Count, "read"),
                ("flagged", FactType::Count, "flagged"),
                ("deleted", FactType::Count, "deleted"),
            ],
        ));
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
        match (sender_row, sent) {
            (Some((sinv, s, _)), true) => run.observe_person(
                "owner",
                "device owner",
                sinv,
                &|w| format!("{w}: the sender of {what}, kept in a Sent mailbox."),
                &[(IdType::Email, Some(s), "the user's sending address")],
            )?,
            (Some((sinv, s, _)), false) if !own.contains(&s.to_ascii_lowercase()) => {
                run.observe_handle(s, sinv, &what)?;
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
        if let Some((sinv, text, _)) = summary_row {
            let other = if sent {
                run.handle_party(parties.first().map(String::as_str))
            } else {
                run.handle_party(sender.as_deref())
            };
            run.message_claims(
                sinv,
                text,
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
