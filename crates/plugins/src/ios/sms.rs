//! `sms.db`: iMessage and SMS messages with their handle, chat, direction, Apple-epoch time,
//! text and attachments; the counterparties (`handle:<id>`) and the accounts the device
//! itself used (`owner`). Read through `sqlite_query`, so rows only in `sms.db-wal` are included.
//!
//! A message whose `text` is NULL or empty (most messages from iOS 16 on) has its words only in
//! `attributedBody`, an archived `NSAttributedString`: that cell is read with `sqlite_query`'s
//! `typedstream` option and the text, and the links Messages marked in it, come from there.
//!
//! Messages the table no longer shows but earlier page versions hold (deleted since the last
//! checkpoint, or edited) are read with `sqlite_wal_history` and recorded as recovered.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, apple_encoding, file_name, handle_fact_type, raw, summarise};
use crate::outputs::in_json_cell;

/// The message query without its order (the agent reads it in pages by `m.ROWID`).
pub const MESSAGE_SELECT: &str = "SELECT m.ROWID AS rowid, m.guid, m.date, m.is_from_me, m.service, m.account, h.id AS handle, \
(SELECT c.chat_identifier FROM chat_message_join j JOIN chat c ON c.ROWID = j.chat_id WHERE j.message_id = m.ROWID ORDER BY c.ROWID LIMIT 1) AS chat, \
m.text, \
(SELECT group_concat(a.filename, ' | ') FROM message_attachment_join aj JOIN attachment a ON a.ROWID = aj.attachment_id WHERE aj.message_id = m.ROWID) AS attachments \
FROM message m LEFT JOIN handle h ON h.ROWID = m.handle_id";

/// The message query, with `body` (the archived `attributedBody`, only where `text` is empty)
/// when the table has that column.
pub fn message_select(attributed_body: bool) -> String {
    if attributed_body {
        MESSAGE_SELECT.replacen(
            "m.text, ",
            "m.text, CASE WHEN m.text IS NULL OR m.text = '' THEN m.attributedBody END AS body, ",
            1,
        )
    } else {
        MESSAGE_SELECT.to_string()
    }
}

/// The whole message query in ROWID order (what the benchmark times against the sqlite3 CLI).
pub fn message_sql() -> String {
    format!("{MESSAGE_SELECT} ORDER BY m.ROWID")
}

/// The link attribute Messages sets on a run it recognised (an URL, a `tel:` number, …).
const LINK_ATTRIBUTE: &str = "__kIMLinkAttributeName";

const PARTIES_SQL: &str = "SELECT 'handle' AS kind, ROWID AS rowid, id AS value FROM handle \
UNION ALL SELECT 'account_login', ROWID, account_login FROM chat WHERE account_login IS NOT NULL AND account_login != '' \
UNION ALL SELECT 'account', NULL, account FROM (SELECT DISTINCT account FROM message WHERE account IS NOT NULL AND account != '') \
ORDER BY 1 DESC, 2, 3";

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(date, 0)) AS first_time, max(date) AS last_time FROM message";

/// Triage of every `sms.db` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("sms.db")? else {
        return Ok(());
    };
    for path in paths.iter().filter(|p| p.ends_with("/sms.db")) {
        one(run, &find, path)?;
    }
    Ok(())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(
        path,
        &[
            "message",
            "handle",
            "chat",
            "sqlite_sequence",
            "deleted_messages",
        ],
    )?
    else {
        return Ok(());
    };
    let message = [
        "guid",
        "text",
        "handle_id",
        "date",
        "is_from_me",
        "service",
        "account",
    ];
    if !schema.require(run, "message", &message)?
        || !schema.require(run, "handle", &["id", "service"])?
        || !schema.require(run, "chat", &["chat_identifier", "account_login"])?
    {
        return Ok(());
    }
    // Counterparties (handle.id) and the device's own accounts (chat.account_login `E:`/`P:`,
    // message.account `e:`/`p:`), in one call: each call copies the database out of the
    // evidence, and sms.db is the largest artefact.
    let Some((pinv, parties)) = run.query(path, PARTIES_SQL, 100_000)? else {
        return Ok(());
    };
    for row in &parties.rows {
        let (Some(kind), Some(value)) = (parties.get(row, "kind"), parties.get(row, "value"))
        else {
            continue;
        };
        if kind == "handle" {
            run.observe_handle(value, &pinv, &format!("messages in {}", file_name(path)))?;
        } else {
            observe_own_account(run, value, &pinv, path)?;
        }
    }
    // Messages.
    let attributed = schema.columns("message").contains("attributedBody");
    let Some(paged) = run.paged_with(
        path,
        &message_select(attributed),
        "m.ROWID",
        &["typedstream"],
    )?
    else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let rowid = raw(t, row, "rowid").unwrap_or_default();
        let from_me = t.get(row, "is_from_me") == Some("1");
        let handle = raw(t, row, "handle");
        let service = raw(t, row, "service").unwrap_or_else(|| "message".to_string());
        let date = raw(t, row, "date");
        let enc = apple_encoding(date.as_deref());
        let chat = raw(t, row, "chat");
        let mut d = Draft::new(
            "messages",
            format!(
                "{service} {rowid} {} {}",
                if from_me { "sent to" } else { "received from" },
                handle
                    .as_deref()
                    .or(chat.as_deref())
                    .unwrap_or("an unknown party")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, raw(t, row, "guid").as_deref(), inv);
        if let Some(h) = &handle {
            d.fact(handle_fact_type(h), Some(h), inv);
        }
        if chat.is_some() && chat != handle {
            d.fact(FactType::Identifier, chat.as_deref(), inv);
        }
        d.time(
            date.as_deref(),
            enc,
            if from_me {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        let text = t.get(row, "text").filter(|t| !t.is_empty());
        let body = t
            .get(row, "body")
            .and_then(|b| b.strip_prefix("typedstream:"))
            .and_then(|j| serde_json::from_str::<Value>(j).ok());
        let body_text = body
            .as_ref()
            .and_then(|b| b["text"].as_str())
            .filter(|_| text.is_none());
        match body_text {
            Some(b) => d.fact(FactType::Text, Some(&in_json_cell(b)), inv),
            None => d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv),
        };
        let links = body.as_ref().map(links).unwrap_or_default();
        for l in &links {
            d.fact(FactType::Url, Some(&in_json_cell(l)), inv);
        }
        let attachments = raw(t, row, "attachments");
        for a in attachments.iter().flat_map(|a| a.split(" | ")) {
            d.fact(FactType::Path, Some(a), inv);
        }
        let encoding = match enc {
            Some(masf_graph::TimeEncoding::AppleNanos) => {
                "Apple absolute time in nanoseconds since the Apple epoch (start of 2001 UTC) (apple_nanos, iOS 11 and later)"
            }
            Some(_) => {
                "Apple absolute time in seconds since the Apple epoch (start of 2001 UTC) (apple_seconds, before iOS 11)"
            }
            None => "no time recorded",
        };
        d.interpretation = format!(
            "Message ROWID {rowid} of {path} was {} {} over {service}{}; its date is {encoding}.{}",
            if from_me {
                "sent by the device user to"
            } else {
                "received by the device user from"
            },
            handle.as_deref().unwrap_or("an unrecorded handle"),
            chat.as_deref()
                .map(|c| format!(" in chat {c}"))
                .unwrap_or_default(),
            if attachments.is_some() {
                " It has attachments."
            } else {
                ""
            },
        );
        if body_text.is_some() {
            d.interpretation.push_str(
                " Its text column is empty: the text is read from attributedBody, the NSAttributedString Messages archived (typedstream)",
            );
            d.interpretation.push_str(&if links.is_empty() {
                ".".to_string()
            } else {
                format!(", where Messages marked {} as link(s).", links.join(", "))
            });
        } else if text.is_none() && t.get(row, "body").is_some_and(|b| b.starts_with("x'")) {
            d.interpretation.push_str(
                " Its text column is empty and its attributedBody does not read as an archived string (typedstream): the bytes are in the cited output as hex, the text is not known.",
            );
        }
        run.record(d)?;
        // Wallet addresses in the text, each a claim of the side the words before it name:
        // the device's user or the other party (the handle, or the card holding it).
        if let Some(text) = text.or(body_text) {
            run.message_claims(
                inv,
                text,
                &format!("{service} message ROWID {rowid} ({})", file_name(path)),
                from_me,
                run.handle_party(handle.as_deref()),
                "is_from_me 1",
                "is_from_me 0",
            )?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "messages",
            path,
            find,
            "messages",
            SUMMARY_SQL,
            apple_encoding,
            "First message",
            "Last message",
        )?;
    }
    if attributed {
        archive_check(run, find, path)?;
    }
    recovered(run, find, path, &pinv, &parties)?;
    missing(run, find, path, &schema)
}

/// The messages deleted that the table's keys and `deleted_messages` still show, their content
/// gone or not: the gaps in `message`'s ROWIDs (an `AUTOINCREMENT` table: `sqlite_sequence`
/// keeps the largest ever given out; iLEAPP's `SMS - Missing ROWIDs`), and one phenomenon per
/// `deleted_messages` row — the GUID of a message Messages deleted, in the order of deletion.
fn missing(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let spec = crate::gaps::Spec {
        table: "message",
        key: "ROWID",
        time: "date",
        label: "guid",
        sequence: crate::gaps::Sequence::Sqlite,
        what: ("message", "messages"),
        category: "messages",
        encoding: apple_encoding,
        time_said: "Apple absolute time, seconds or nanoseconds by size",
        pruned_by: Some("Messages itself when it keeps messages for 30 days or a year only"),
    };
    let sequence = schema.columns("sqlite_sequence").contains("seq");
    run.gaps(find, path, &spec, sequence)?;
    if !schema.columns("deleted_messages").contains("guid") {
        return Ok(());
    }
    let Some(paged) = run.paged(
        path,
        "SELECT ROWID AS rowid, guid FROM deleted_messages",
        "ROWID",
    )?
    else {
        return Ok(());
    };
    crate::calls::note_pages_cap(run.ctx, path, &paged, "deleted_messages rows")?;
    for (inv, t, row) in paged.rows() {
        let rowid = raw(t, row, "rowid").unwrap_or_default();
        let Some(guid) = raw(t, row, "guid") else {
            continue;
        };
        let mut d = Draft::new("messages", format!("Deleted message {guid}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&guid), inv);
        d.fact(FactType::Identifier, Some(&rowid), inv);
        d.interpretation = format!(
            "deleted_messages row {rowid} of {path}: Messages keeps there the GUID of a message it deleted, {guid}; the rows are numbered in the order of the deletions. The message's content is not kept in this table; a recovered message of that GUID, if any, is recorded apart."
        );
        run.record(d)?;
    }
    Ok(())
}

/// Messages the table no longer shows that earlier page versions hold (deleted, or edited
/// since): one phenomenon each, as a live message is recorded, said recovered and from where.
fn recovered(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    pinv: &Invoked,
    parties: &crate::outputs::Table,
) -> Result<(), RuntimeError> {
    let Some((inv, t)) = run.wal_rows(path, "message", &["typedstream_text"])? else {
        return Ok(());
    };
    let handles: std::collections::HashMap<&str, String> = parties
        .rows
        .iter()
        .filter(|r| parties.get(r, "kind") == Some("handle"))
        .filter_map(|r| Some((parties.get(r, "rowid")?, raw(parties, r, "value")?)))
        .collect();
    for row in &t.rows {
        let rowid = crate::recovered::key(&t, row, "rowid");
        let from_me = t.get(row, "is_from_me") == Some("1");
        let handle = t.get(row, "handle_id").and_then(|h| handles.get(h));
        let mut d = Draft::new(
            "messages",
            format!(
                "{} message {rowid} {} {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                if from_me { "sent to" } else { "received from" },
                handle.map(String::as_str).unwrap_or("an unknown party")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        d.fact(FactType::Identifier, raw(&t, row, "guid").as_deref(), &inv);
        if let Some(h) = handle {
            d.fact(handle_fact_type(h), Some(h), pinv);
        }
        let date = raw(&t, row, "date");
        d.time(
            date.as_deref(),
            apple_encoding(date.as_deref()),
            if from_me {
                "Message sent"
            } else {
                "Message received"
            },
            &inv,
        );
        let text = raw(&t, row, "text").filter(|x| !x.is_empty());
        let archived = raw(&t, row, "attributedBody")
            .and_then(|b| b.strip_prefix("typedstream-text:").map(str::to_string));
        let words = text.or(archived);
        d.fact(FactType::Text, words.as_deref(), &inv);
        d.interpretation = format!(
            "Message ROWID {rowid} of {path}, {} {}: {}. Its date is Apple absolute time (apple_seconds or apple_nanos by its size).",
            if from_me {
                "sent by the device user to"
            } else {
                "received by the device user from"
            },
            handle
                .map(String::as_str)
                .unwrap_or("a handle no longer in the handle table"),
            crate::recovered::provenance(&t, row)
        );
        run.record(d)?;
        if let Some(w) = t.get(row, "text").filter(|x| !x.is_empty()) {
            run.message_claims(
                &inv,
                w,
                &format!("recovered message ROWID {rowid} ({})", file_name(path)),
                from_me,
                run.handle_party(handle.map(String::as_str)),
                "is_from_me 1",
                "is_from_me 0",
            )?;
        }
    }
    Ok(())
}

/// The rows whose text column and archived text (`attributedBody`) are both there, read back
/// with the archive's text only (paged by `rowid`).
const ARCHIVED_SELECT: &str = "SELECT * FROM (SELECT m.ROWID AS rowid, m.guid, m.text, m.attributedBody AS archived \
FROM message m WHERE m.text IS NOT NULL AND m.text != '' AND m.attributedBody IS NOT NULL) q";

/// Messages writes a message's text twice, in `text` and archived in `attributedBody` (an
/// edit in Messages rewrites both): a row whose two copies differ had one of them changed
/// afterwards (most simply the text column, by an edit of the database or a tool that
/// rewrote it), which an examiner must know before quoting it. One phenomenon per such row,
/// citing both copies.
fn archive_check(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(paged) = run.paged_with(path, ARCHIVED_SELECT, "rowid", &["typedstream_text"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let (Some(text), Some(archived)) = (
            t.get(row, "text"),
            t.get(row, "archived")
                .and_then(|a| a.strip_prefix("typedstream-text:")),
        ) else {
            continue;
        };
        if text == archived {
            continue;
        }
        let rowid = raw(t, row, "rowid").unwrap_or_default();
        let mut d = Draft::new(
            "messages",
            format!("Message ROWID {rowid}: its text column differs from its archived text"),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, raw(t, row, "guid").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Text, Some(&crate::outputs::escape(archived)), inv);
        d.interpretation = format!(
            "Message ROWID {rowid} of {path}: its text column reads \"{text}\" but the NSAttributedString Messages archived in attributedBody when it wrote the row reads \"{archived}\". Messages writes the two together (an edit in Messages rewrites both), so one of them was changed after the row was written, most simply the text column by an edit of the database or a tool that rewrote it. Quote the message with both."
        );
        run.record(d)?;
    }
    Ok(())
}

/// The links Messages marked in an archived attributed string (its runs' link attribute), in
/// order, each once.
fn links(body: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for run in body["runs"].as_array().into_iter().flatten() {
        if let Some(l) = run["attributes"][LINK_ATTRIBUTE].as_str()
            && !out.iter().any(|o| o == l)
        {
            out.push(l.to_string());
        }
    }
    out
}

/// `E:fung@example.org`, `e:…`, `P:+852…`, `p:…`: an account the device itself messaged from.
fn observe_own_account(
    run: &Run<'_, '_>,
    value: &str,
    inv: &Invoked,
    path: &str,
) -> Result<(), RuntimeError> {
    let bare = value
        .strip_prefix(['E', 'e', 'P', 'p'])
        .and_then(|v| v.strip_prefix(':'))
        .unwrap_or(value);
    let id_type = if bare.contains('@') {
        IdType::AppleId
    } else {
        IdType::Phone
    };
    run.observe(
        "owner",
        EntityKind::Person,
        "device owner",
        id_type,
        bare,
        inv,
        format!(
            "{} sent and received messages through the device's own account {bare}.",
            file_name(path)
        ),
    )?;
    Ok(())
}
