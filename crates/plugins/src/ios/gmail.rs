//! Gmail's offline search index (`…/Library/Application Support/data/<account e-mail>/searchsqlitedb`):
//! one phenomenon per indexed message with the fields of iLEAPP's `gmailOfflineSearch` — time,
//! sender name and address, receivers, CC, BCC, subject, body text, thread and message ids,
//! whether it has attachments — read from the FTS5 content table `offline_search_content`
//! (columns `c0`…`c9`), which needs no FTS5 module.
//!
//! Identities: the folder is named by the signed-in Google account (`owner`); every other
//! address of a message is a correspondent (`handle:<e-mail>`). A wallet address in a body is
//! the sender's claim, as in a text message (the owner's when the owner sent it). `c0` (the
//! index's score) is the message time in Unix milliseconds (`unix_millis`).

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, file_name, raw, summarise};
use crate::drafts::unix_millis;

const COLUMNS: [&str; 10] = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"];

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(c0, 0)) AS first_time, max(c0) AS last_time FROM offline_search_content";

/// Triage of every Gmail `searchsqlitedb` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("searchsqlitedb", |find, path| one(run, find, path))
}

/// The e-mail addresses of an address field (`Name, address[, Name, address…]`) with the name
/// written before each, if any.
pub fn addresses(field: &str) -> Vec<(Option<String>, String)> {
    let parts: Vec<&str> = field.split(',').map(str::trim).collect();
    let mut out: Vec<(Option<String>, String)> = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if p.contains('@') {
            let name = i
                .checked_sub(1)
                .map(|j| parts[j])
                .filter(|n| !n.is_empty() && !n.contains('@'))
                .map(str::to_string);
            if !out.iter().any(|(_, a)| a.eq_ignore_ascii_case(p)) {
                out.push((name, (*p).to_string()));
            }
        }
    }
    out
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &["offline_search_content"])? else {
        return Ok(());
    };
    if !schema.require(run, "offline_search_content", &COLUMNS)? {
        return Ok(());
    }
    // The account the index belongs to: the folder holding it.
    let account = path
        .rsplit('/')
        .nth(1)
        .filter(|f| f.contains('@'))
        .map(str::to_string);
    if let Some(a) = &account {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::GoogleAccount,
            a,
            find,
            format!(
                "Gmail keeps its offline search index in a folder named by the signed-in \
Google account {a}."
            ),
        )?;
    }
    let select = "SELECT id AS rid, c0 AS time, c1 AS thread, c2 AS message, c3 AS sender, \
c4 AS receivers, c5 AS cc, c6 AS bcc, c7 AS subject, c8 AS body, c9 AS has FROM offline_search_content";
    let Some(paged) = run.paged(path, select, "id")? else {
        return Ok(());
    };
    let is_owner = |a: &str| {
        account
            .as_deref()
            .is_some_and(|o| o.eq_ignore_ascii_case(a))
    };
    for (inv, t, row) in paged.rows() {
        let rid = raw(t, row, "rid").unwrap_or_default();
        let sender_field = raw(t, row, "sender").unwrap_or_default();
        let sender = addresses(&sender_field).into_iter().next();
        let from_owner = sender.as_ref().is_some_and(|(_, a)| is_owner(a));
        let subject = raw(t, row, "subject");
        let mut d = Draft::new(
            "mail",
            format!(
                "Gmail message {} {}: {}",
                if from_owner { "sent by" } else { "from" },
                sender
                    .as_ref()
                    .map_or(sender_field.as_str(), |(_, a)| a.as_str()),
                subject.as_deref().unwrap_or("(no subject)")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let time = raw(t, row, "time");
        d.time(
            time.as_deref(),
            unix_millis(time.as_deref()),
            "Message time",
            inv,
        );
        let mut everyone = Vec::new();
        for (col, what) in [
            ("sender", "from"),
            ("receivers", "to"),
            ("cc", "cc"),
            ("bcc", "bcc"),
        ] {
            let field = raw(t, row, col).unwrap_or_default();
            for (name, a) in addresses(&field) {
                d.fact(FactType::Name, name.as_deref(), inv);
                d.fact(FactType::Email, Some(&a), inv);
                everyone.push((what, name, a));
            }
        }
        d.fact(FactType::Text, subject.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "body").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "thread").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "message").as_deref(), inv);
        let attachments = t.get(row, "has").is_some_and(|h| h.contains("attachment"));
        d.interpretation = format!(
            "Row {rid} of the Gmail offline search index {path}: a message {}; {}; {}attachments; \
c0 is the message time in Unix milliseconds (unix_millis).",
            if from_owner {
                "sent by the signed-in account"
            } else {
                "received by the signed-in account"
            },
            everyone
                .iter()
                .map(|(w, n, a)| match n {
                    Some(n) => format!("{w} {n} <{a}>"),
                    None => format!("{w} {a}"),
                })
                .collect::<Vec<_>>()
                .join(", "),
            if attachments { "with " } else { "no " },
        );
        run.record(d)?;
        for (_, _, a) in &everyone {
            if !is_owner(a) {
                run.observe_handle(a, inv, &format!("Gmail ({})", file_name(path)))?;
            }
        }
        if let Some(body) = t.get(row, "body") {
            // The other side: the sender of a received message, the first other receiver of a
            // sent one.
            let other = if from_owner {
                everyone
                    .iter()
                    .find(|(w, _, a)| *w != "from" && !is_owner(a))
                    .map(|(_, _, a)| a.clone())
            } else {
                sender.as_ref().map(|(_, a)| a.clone())
            };
            run.message_claims(
                inv,
                body,
                &format!("Gmail message {rid} ({})", file_name(path)),
                from_owner,
                run.handle_party(other.as_deref()),
                "sent by the account",
                "received by the account",
            )?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "mail",
            path,
            find,
            "Gmail messages",
            SUMMARY_SQL,
            unix_millis,
            "First message",
            "Last message",
        )?;
    }
    Ok(())
}
