//! Viber's messages on Android (`com.viber.voip/databases/viber_messages`), beside its address
//! book and calls (`viber_data`, [`super::databases::viber`]): one phenomenon per `messages` row
//! — time (`msg_date`, Unix milliseconds), conversation, the participant's number and name
//! (`participants` → `participants_info`), the conversation's other numbers, text, direction
//! (`send_type` 1 sent, as ALEAPP reads it), unread, the attached file — the fields of ALEAPP's
//! Viber messages. A received message's sender is observed by number (under the address-book
//! contact holding it, else `handle:`); a sent message's participant is not taken for the
//! device's user (which number Viber files there is not documented). Wallet addresses in a text
//! are claims of its writer.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use super::databases::{Book, counterparty, observe_party, tables_with};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{OwnedParty, artefact_name, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is Viber's messages database.
pub fn is_viber(l: &Located) -> bool {
    l.path.contains("/com.viber.voip/")
}

/// One `viber_messages`.
pub fn messages(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["messages", "participants", "participants_info"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let what = "Viber's viber_messages";
    let m = table_columns(ctx, &l.tree, &l.path, "messages")?;
    let p = table_columns(ctx, &l.tree, &l.path, "participants")?;
    let i = table_columns(ctx, &l.tree, &l.path, "participants_info")?;
    if !require_columns(
        ctx,
        &name,
        what,
        "messages",
        &m,
        &["msg_date", "conversation_id", "participant_id"],
    )? || !require_columns(
        ctx,
        &name,
        what,
        "participants",
        &p,
        &["_id", "participant_info_id"],
    )? || !require_columns(
        ctx,
        &name,
        what,
        "participants_info",
        &i,
        &["_id", "number"],
    )? {
        return Ok(());
    }
    let others = if p.contains("conversation_id") {
        "(SELECT group_concat(i2.number) FROM participants p2 JOIN participants_info i2 ON i2._id = p2.participant_info_id WHERE p2.conversation_id = m.conversation_id AND p2._id != m.participant_id)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.msg_date AS time, m.conversation_id AS conversation, {}, {}, {}, {}, i.number AS number, {}, {others} AS others \
         FROM messages m LEFT JOIN participants p ON p._id = m.participant_id LEFT JOIN participants_info i ON i._id = p.participant_info_id \
         ORDER BY m.msg_date, m.rowid",
        column_or_null(&m, "m.", "body", "body"),
        column_or_null(&m, "m.", "send_type", "send_type"),
        column_or_null(&m, "m.", "unread", "unread"),
        column_or_null(&m, "m.", "extra_uri", "attachment"),
        column_or_null(&i, "i.", "display_name", "display_name"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Viber messages")?;
    for (inv, t, row) in pages.rows() {
        let sent = t.get(row, "send_type") == Some("1");
        let number = t.get(row, "number").filter(|n| !n.is_empty());
        let who = t
            .get(row, "display_name")
            .filter(|n| !n.is_empty())
            .or(number)
            .unwrap_or("an unknown participant");
        let conversation = t.get(row, "conversation").unwrap_or("?");
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Viber message sent in conversation {conversation}")
            } else {
                format!("Viber message from {who}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "conversation").as_deref(),
            inv,
        );
        d.fact(FactType::Phone, raw(t, row, "number").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "display_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "others").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "body").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "attachment").as_deref(), inv);
        let time = t.get(row, "time");
        d.message_time(time, unix_millis(time), sent, inv);
        d.interpretation = format!(
            "messages row {} of {}: a Viber message in conversation {conversation}, {} (send_type {}, unread {}); its participant is {}{}; msg_date is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if sent {
                "sent from this phone"
            } else {
                "received"
            },
            t.get(row, "send_type").unwrap_or("not stored"),
            t.get(row, "unread").unwrap_or("not stored"),
            number.unwrap_or("not recorded"),
            t.get(row, "others")
                .map(|o| format!(", the conversation's other numbers {o}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        if sent {
            continue;
        }
        let Some(number) = number else {
            continue;
        };
        let what_msg = format!(
            "Viber message {} ({})",
            t.get(row, "rid").unwrap_or("?"),
            l.name()
        );
        observe_party(ctx, book, number, inv, &what_msg)?;
        if let Some(text) = t.get(row, "body").filter(|b| !b.is_empty()) {
            let (context, label) = counterparty(ctx, book, number);
            let party = OwnedParty {
                role: format!("{label}, who sent it (send_type 0)"),
                context,
                label,
            };
            crate::identity::message_claims(
                ctx,
                inv,
                text,
                &what_msg,
                false,
                "the device's user, who received it (send_type 0)",
                Some(party.party()),
            )?;
        }
    }
    recovered(ctx, l)
}

/// Messages `messages` no longer shows that earlier page versions hold (deleted since the last
/// checkpoint, or changed): one phenomenon each, the participant's number and name from the live
/// `participants` and `participants_info`.
fn recovered(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, t)) = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, "messages", &[])?
    else {
        return Ok(());
    };
    let ids = crate::recovered::ids(&t, "participant_id");
    let who = if ids.is_empty() {
        None
    } else {
        crate::identity::query_on(
            ctx,
            &l.tree,
            &l.path,
            &format!(
                "SELECT p._id AS id, i.number AS number FROM participants p JOIN participants_info i ON i._id = p.participant_info_id WHERE p._id IN ({})",
                ids.join(",")
            ),
            10_000,
        )?
    };
    for row in &t.rows {
        let sent = t.get(row, "send_type") == Some("1");
        let number = t.get(row, "participant_id").and_then(|pid| {
            who.as_ref().and_then(|(winv, w)| {
                w.rows
                    .iter()
                    .find(|r| w.get(r, "id") == Some(pid))
                    .and_then(|r| w.get(r, "number").filter(|n| !n.is_empty()))
                    .map(|n| (winv, n))
            })
        });
        let conversation = t.get(row, "conversation_id").unwrap_or("?");
        let word = crate::recovered::title_word(t.get(row, "status"));
        let mut d = Draft::new(
            "messages",
            match (sent, number) {
                (true, _) => {
                    format!("{word} Viber message sent in conversation {conversation} (recovered)")
                }
                (false, Some((_, n))) => format!("{word} Viber message from {n} (recovered)"),
                (false, None) => {
                    format!("{word} Viber message in conversation {conversation} (recovered)")
                }
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Text, t.get(row, "status"), &inv);
        d.fact(FactType::Identifier, t.get(row, "conversation_id"), &inv);
        if let Some((winv, n)) = number {
            d.fact(FactType::Phone, Some(n), winv);
        }
        d.fact(FactType::Text, raw(&t, row, "body").as_deref(), &inv);
        d.fact(FactType::Url, raw(&t, row, "extra_uri").as_deref(), &inv);
        let time = t.get(row, "msg_date");
        d.message_time(time, unix_millis(time), sent, &inv);
        d.interpretation = format!(
            "messages row {} of {}: a Viber message in conversation {conversation}, {}: {}; msg_date is Unix milliseconds.",
            crate::recovered::key(&t, row, "rowid"),
            l.name(),
            if sent {
                "sent from this phone"
            } else {
                "received"
            },
            crate::recovered::provenance(&t, row)
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
