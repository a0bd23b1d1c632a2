//! Google Messages (`com.google.android.apps.messaging`): `databases/bugle_db`, the store of
//! the SMS, MMS and RCS app most phones ship since Android 10, grown from AOSP Messaging's
//! schema (`conversations`, `messages`, `parts`, `participants`).
//!
//! Every field of ALEAPP's `googleMessages` — each part's time, type, text, attachment size
//! and cached file, its message's sender, direction and conversation name and id — and what
//! AOSP's schema adds: the sent and received times, the message's protocol (SMS, MMS, MMS
//! notification), status, read and seen flags, MMS subject and the platform message URI. One
//! phenomenon per message with all of its parts; the self participants' numbers (the SIMs the
//! app sends from) are the device user's phones; a counterparty is attributed to the contact
//! holding its number, as for SMS; wallet addresses in a text are claims by direction.
//!
//! Direction as ALEAPP and AOSP read it: a sender whose `sub_id` is not -2
//! (`ParticipantData.OTHER_THAN_SELF_SUB_ID`) is a self participant, so the message is
//! outgoing; a NULL `sub_id` leaves it to `message_status` (AOSP's `getIsIncoming`: 100 and
//! above is incoming).

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use super::databases::{Book, counterparty, observe_party, party_fact, tables_with};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{Party, artefact_name, columns_on, normalized, observe, pages_on};
use crate::outputs::raw;

/// AOSP's `sub_id` of every participant other than the device's own.
const OTHER_THAN_SELF: &str = "-2";

/// The name of a `message_protocol` value (AOSP `MessageData.PROTOCOL_*`).
fn protocol(v: Option<&str>) -> String {
    match v {
        Some("0") => "SMS".into(),
        Some("1") => "MMS".into(),
        Some("2") => "MMS notification".into(),
        Some(other) => format!("protocol {other}"),
        None => "protocol not stored".into(),
    }
}

/// The name of a `message_status` value (AOSP `MessageData.BUGLE_STATUS_*`).
fn status(v: Option<&str>) -> String {
    let name = match v {
        Some("0") => "unknown",
        Some("1") => "sent",
        Some("2") => "delivered",
        Some("3") => "draft",
        Some("4") => "yet to send",
        Some("5") => "sending",
        Some("6") => "resending",
        Some("7") => "awaiting retry",
        Some("8") => "failed",
        Some("9") => "failed (emergency number)",
        Some("100") => "received",
        Some("101") => "awaiting manual download",
        Some("102") => "retrying manual download",
        Some("103") => "downloading (manual)",
        Some("104") => "retrying automatic download",
        Some("105") => "downloading (automatic)",
        Some("106") => "download failed",
        Some("107") => "expired or not available",
        Some(other) => return format!("status {other}"),
        None => return "status not stored".into(),
    };
    format!("{name} (status {})", v.unwrap_or_default())
}

/// One part of a message, as the parts query printed it.
struct Part<'a> {
    /// The page of `parts` the row came from.
    inv: &'a Invoked,
    text: Option<String>,
    content_type: Option<String>,
    uri: Option<String>,
    size: Option<String>,
    cached: Option<String>,
}

/// One Google Messages `bugle_db`.
pub fn bugle_db(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let tables = ["conversations", "messages", "parts", "participants"];
    if tables_with(ctx, l, &tables)?.is_none() {
        return Ok(());
    }
    let mut cols = BTreeMap::new();
    for table in tables {
        let Some((_, c)) = columns_on(ctx, &l.tree, &l.path, table)? else {
            return Ok(());
        };
        cols.insert(table, c);
    }
    let (conv, msg, part, who) = (
        &cols["conversations"],
        &cols["messages"],
        &cols["parts"],
        &cols["participants"],
    );
    for (table, c, needed) in [
        ("conversations", conv, &["_id"][..]),
        (
            "messages",
            msg,
            &["_id", "conversation_id", "sender_id", "received_timestamp"][..],
        ),
        ("parts", part, &["_id", "message_id"][..]),
        ("participants", who, &["_id"][..]),
    ] {
        let name = artefact_name(&l.tree, &l.path);
        if !require_columns(ctx, &name, "Google Messages' bugle_db", table, c, needed)? {
            return Ok(());
        }
    }
    self_participants(ctx, l, who)?;

    // every part, grouped by message, with the numbers of its message's two sides (the
    // wallet claims of a text cite this call, which must hold them)
    let sql = format!(
        "SELECT t._id AS part, t.message_id, {}, {}, {}, {}, {}, {}, {} FROM parts t \
         LEFT JOIN messages m ON m._id = t.message_id LEFT JOIN participants p ON p._id = m.sender_id \
         LEFT JOIN conversations c ON c._id = m.conversation_id ORDER BY t.message_id, t._id",
        column_or_null(part, "t.", "text", "text"),
        column_or_null(part, "t.", "content_type", "content_type"),
        column_or_null(part, "t.", "uri", "uri"),
        column_or_null(part, "t.", "file_size_bytes", "size"),
        column_or_null(part, "t.", "local_cache_path", "cached"),
        column_or_null(who, "p.", "normalized_destination", "sender"),
        column_or_null(conv, "c.", "participant_normalized_destination", "other"),
    );
    let Some(pt_pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    note_pages_cap(ctx, &name, &pt_pages, "Google Messages parts")?;
    let mut parts: BTreeMap<String, Vec<Part>> = BTreeMap::new();
    for (pinv, pt, row) in pt_pages.rows() {
        let Some(m) = pt.get(row, "message_id") else {
            continue;
        };
        parts.entry(m.to_string()).or_default().push(Part {
            inv: pinv,
            text: raw(pt, row, "text"),
            content_type: raw(pt, row, "content_type"),
            uri: raw(pt, row, "uri"),
            // -1: no size known (ALEAPP's "N/A")
            size: raw(pt, row, "size").filter(|s| s != "-1"),
            cached: raw(pt, row, "cached"),
        });
    }

    let sql = format!(
        "SELECT m._id AS id, m.conversation_id AS conversation, m.received_timestamp AS received, {}, {}, {}, {}, {}, {}, {}, \
         p.sub_id AS sub_id, {}, {}, {}, {}, {}, {} \
         FROM messages m LEFT JOIN participants p ON p._id = m.sender_id \
         LEFT JOIN conversations c ON c._id = m.conversation_id ORDER BY m._id",
        column_or_null(msg, "m.", "sent_timestamp", "sent"),
        column_or_null(msg, "m.", "message_protocol", "protocol"),
        column_or_null(msg, "m.", "message_status", "status"),
        column_or_null(msg, "m.", "read", "read"),
        column_or_null(msg, "m.", "seen", "seen"),
        column_or_null(msg, "m.", "mms_subject", "subject"),
        column_or_null(msg, "m.", "sms_message_uri", "message_uri"),
        column_or_null(who, "p.", "normalized_destination", "sender"),
        column_or_null(who, "p.", "display_destination", "sender_display"),
        column_or_null(who, "p.", "full_name", "sender_name"),
        column_or_null(conv, "c.", "name", "conversation_name"),
        column_or_null(conv, "c.", "participant_normalized_destination", "other"),
        column_or_null(conv, "c.", "participant_count", "members"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Google Messages messages")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let sub_id = t.get(row, "sub_id");
        let status_v = t.get(row, "status");
        let (sent, how) = match (sub_id, status_v.and_then(|s| s.parse::<i64>().ok())) {
            (Some(s), _) => (
                Some(s != OTHER_THAN_SELF),
                format!("the sender's sub_id is {s}"),
            ),
            (None, Some(s)) if s > 0 => (Some(s < 100), format!("message_status {s}")),
            _ => (
                None,
                "neither the sender's sub_id nor the status tells".into(),
            ),
        };
        let sender = t.get(row, "sender").filter(|s| !s.is_empty());
        let other_one = t.get(row, "other").filter(|s| !s.is_empty());
        let conversation = t.get(row, "conversation").unwrap_or("?");
        let conv_name = raw(t, row, "conversation_name");
        // the other party: the sender of a received message; of a sent one, the only other
        // participant of a one-to-one conversation
        let party = match sent {
            Some(true) => other_one,
            Some(false) => sender,
            None => None,
        };
        let party_label = party
            .map(str::to_string)
            .or_else(|| conv_name.clone())
            .unwrap_or_else(|| format!("conversation {conversation}"));
        // an outgoing message that never left: a draft, still queued, or failed (AOSP's
        // outgoing statuses 3 to 9)
        let (verb, mark) = match status_v {
            Some("3") => ("draft", "Draft saved"),
            Some("4" | "5" | "6" | "7") => ("queued", "Message queued"),
            Some("8" | "9") => ("failed", "Message failed"),
            _ => ("sent", "Message sent"),
        };
        let title = match sent {
            Some(true) if verb == "sent" => {
                format!("Google Messages message {id} sent to {party_label}")
            }
            Some(true) => format!("Google Messages message {id} ({verb}) to {party_label}"),
            Some(false) => format!("Google Messages message {id} from {party_label}"),
            None => format!("Google Messages message {id} in {party_label}"),
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for s in [sender, t.get(row, "sender_display")].into_iter().flatten() {
            d.claim(party_fact(ctx, s, inv));
        }
        if sent == Some(true)
            && let Some(o) = other_one
        {
            d.claim(party_fact(ctx, o, inv));
        }
        d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
        d.fact(FactType::Name, conv_name.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "subject").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "message_uri").as_deref(),
            inv,
        );
        let received = t.get(row, "received");
        d.time(
            received,
            unix_millis(received),
            if sent == Some(true) {
                mark
            } else {
                "Message received"
            },
            inv,
        );
        let sent_at = t.get(row, "sent");
        if sent == Some(false) {
            d.time(sent_at, unix_millis(sent_at), "Message sent", inv);
        }
        let mine = parts.get(id).map(Vec::as_slice).unwrap_or_default();
        let mut texts = Vec::new();
        let mut attachments = 0;
        for p in mine {
            d.fact(FactType::Text, p.text.as_deref(), p.inv);
            d.fact(FactType::Identifier, p.content_type.as_deref(), p.inv);
            d.fact(FactType::Identifier, p.uri.as_deref(), p.inv);
            d.fact(FactType::Count, p.size.as_deref(), p.inv);
            d.fact(FactType::Path, p.cached.as_deref(), p.inv);
            if let Some(text) = p.text.as_deref().filter(|s| !s.is_empty()) {
                texts.push((p.inv, text));
            }
            if p.uri.is_some() || p.cached.is_some() {
                attachments += 1;
            }
        }
        let flag = |c: &str| match t.get(row, c) {
            Some("1") => "yes",
            Some("0") => "no",
            _ => "not stored",
        };
        d.interpretation = format!(
            "messages._id {id} of {name}: a Google Messages {} {} in conversation {conversation}{} ({}, {}; read {}, seen {}), {} part{} of which {attachments} an attachment; received_timestamp and sent_timestamp are Unix milliseconds.",
            protocol(t.get(row, "protocol")),
            match sent {
                Some(true) => format!("sent by the device's user ({how})"),
                Some(false) => format!(
                    "received from {} ({how})",
                    sender.unwrap_or("a sender not stored")
                ),
                None => format!("of unknown direction ({how})"),
            },
            t.get(row, "members")
                .map(|m| format!(" with {m} other participant(s)"))
                .unwrap_or_default(),
            status(status_v),
            match sent_at.filter(|s| *s != "0") {
                Some(s) => format!("sent_timestamp {s}"),
                None => "no sent_timestamp".into(),
            },
            flag("read"),
            flag("seen"),
            mine.len(),
            if mine.len() == 1 { "" } else { "s" },
        );
        record_draft(ctx, d)?;
        let what = format!("Google Messages message {id} ({})", l.name());
        if let Some(p) = party {
            observe_party(ctx, book, p, inv, &what)?;
        }
        let (Some(sent), false) = (sent, texts.is_empty()) else {
            continue;
        };
        let party = party
            .filter(|p| normalized(ctx, IdType::Phone, p).is_some())
            .map(|p| (counterparty(ctx, book, p), p));
        let role = party.as_ref().map(|(_, p)| {
            if sent {
                format!("{p}, to whom it was written ({how})")
            } else {
                format!("{p}, who sent it ({how})")
            }
        });
        let other = party
            .as_ref()
            .zip(role.as_deref())
            .map(|(((context, label), _), role)| Party {
                context,
                label,
                role,
            });
        let owner_role = format!(
            "the device's user, who {} it ({how})",
            if sent { "wrote" } else { "received" }
        );
        // a message's parts may sit on two pages of `parts`: each page's texts are claimed
        // from the page that holds them
        for (inv, text) in crate::calls::runs_of_texts(&texts) {
            crate::identity::message_claims(ctx, inv, &text, &what, sent, &owner_role, other)?;
        }
    }
    recovered(ctx, l)
}

/// Messages and parts `messages`/`parts` no longer show that earlier page versions hold
/// (deleted since the last checkpoint, or changed): one phenomenon per message, its texts from
/// the recovered parts, its time and conversation from the recovered message row (or the live
/// one, for a part removed from a message still there), the sender's number from the live
/// participants.
fn recovered(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let messages = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, "messages", &[])?;
    let parts = crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, "parts", &[])?;
    // message id → (status, row of `messages`)
    let mut ids: BTreeMap<i64, Option<usize>> = BTreeMap::new();
    if let Some((_, m)) = &messages {
        for (i, row) in m.rows.iter().enumerate() {
            if let Some(id) = m.get(row, "_id").and_then(|v| v.parse().ok()) {
                ids.entry(id).or_insert(Some(i));
            }
        }
    }
    if let Some((_, p)) = &parts {
        for row in &p.rows {
            if let Some(id) = p.get(row, "message_id").and_then(|v| v.parse().ok()) {
                ids.entry(id).or_insert(None);
            }
        }
    }
    if ids.is_empty() {
        return Ok(());
    }
    // the senders' numbers, for the senders the recovered messages name
    let senders = messages
        .as_ref()
        .map(|(_, m)| crate::recovered::ids(m, "sender_id"))
        .unwrap_or_default();
    let who = if senders.is_empty() {
        None
    } else {
        crate::identity::query_on(
            ctx,
            &l.tree,
            &l.path,
            &format!(
                "SELECT _id, normalized_destination AS number, sub_id FROM participants WHERE _id IN ({})",
                senders.join(",")
            ),
            10_000,
        )?
    };
    for (id, row) in ids {
        let id_s = id.to_string();
        let m_row = row.and_then(|i| messages.as_ref().map(|(inv, m)| (inv, m, &m.rows[i])));
        let status = m_row.and_then(|(_, m, r)| m.get(r, "status")).or_else(|| {
            parts.as_ref().and_then(|(_, p)| {
                p.rows
                    .iter()
                    .find(|r| p.get(r, "message_id") == Some(id_s.as_str()))
                    .and_then(|r| p.get(r, "status"))
            })
        });
        let sender = m_row
            .and_then(|(_, m, r)| m.get(r, "sender_id"))
            .and_then(|s| {
                who.as_ref().and_then(|(winv, w)| {
                    w.rows
                        .iter()
                        .find(|x| w.get(x, "_id") == Some(s))
                        .map(|x| (winv, w.get(x, "number"), w.get(x, "sub_id")))
                })
            });
        let from_me = sender.is_some_and(|(_, _, sub)| sub.is_some_and(|v| v != OTHER_THAN_SELF));
        let number = sender.and_then(|(_, n, _)| n).filter(|n| !n.is_empty());
        let title = format!(
            "{} Google Messages message {id} {} (recovered)",
            crate::recovered::title_word(status),
            match (from_me, number) {
                (true, _) => "sent by the device's user".to_string(),
                (false, Some(n)) => format!("from {n}"),
                (false, None) => m_row
                    .and_then(|(_, m, r)| m.get(r, "conversation_id"))
                    .map(|c| format!("in conversation {c}"))
                    .unwrap_or_else(|| "of a message still listed".to_string()),
            }
        );
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(&l.path), &l.found);
        if let Some((inv, m, r)) = m_row {
            d.fact(FactType::Text, raw(m, r, "status").as_deref(), inv);
            let received = m.get(r, "received_timestamp");
            d.time(
                received,
                unix_millis(received),
                if from_me {
                    "Message sent"
                } else {
                    "Message received"
                },
                inv,
            );
            d.fact(
                FactType::Identifier,
                raw(m, r, "sms_message_uri").as_deref(),
                inv,
            );
        }
        if let (Some((winv, _, _)), Some(n)) = (sender, number) {
            d.claim(party_fact(ctx, n, winv));
        }
        let mut texts = 0;
        if let Some((pinv, p)) = &parts {
            for r in p
                .rows
                .iter()
                .filter(|r| p.get(r, "message_id") == Some(id_s.as_str()))
            {
                d.fact(FactType::Text, raw(p, r, "text").as_deref(), pinv);
                d.fact(
                    FactType::Identifier,
                    raw(p, r, "content_type").as_deref(),
                    pinv,
                );
                texts += 1;
            }
        }
        let provenance = m_row
            .map(|(_, m, r)| crate::recovered::provenance(m, r))
            .or_else(|| {
                parts.as_ref().and_then(|(_, p)| {
                    p.rows
                        .iter()
                        .find(|r| p.get(r, "message_id") == Some(id_s.as_str()))
                        .map(|r| crate::recovered::provenance(p, r))
                })
            })
            .unwrap_or_default();
        d.interpretation = format!(
            "messages._id {id} of {name}: a Google Messages message with {texts} recovered part(s); {provenance}. received_timestamp is Unix milliseconds."
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The self participants (`sub_id` other than -2) with a number: the SIMs the app sends from,
/// one phenomenon each, their numbers observed as the device user's.
fn self_participants(
    ctx: &AgentCtx<'_>,
    l: &Located,
    who: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    if !who.contains("sub_id") || !who.contains("normalized_destination") {
        return Ok(());
    }
    let sql = format!(
        "SELECT _id, sub_id, normalized_destination AS number, {}, {}, {} FROM participants \
         WHERE sub_id IS NOT NULL AND sub_id != {OTHER_THAN_SELF} AND normalized_destination IS NOT NULL \
         AND normalized_destination != '' ORDER BY _id",
        column_or_null(who, "", "sim_slot_id", "slot"),
        column_or_null(who, "", "subscription_name", "subscription"),
        column_or_null(who, "", "display_destination", "display"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    for (inv, t, row) in pages.rows() {
        let Some(number) = t.get(row, "number") else {
            continue;
        };
        let sub = t.get(row, "sub_id").unwrap_or("?");
        let mut d = Draft::new(
            "accounts",
            format!("Google Messages sends from {number} (SIM subscription {sub})"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.claim(party_fact(ctx, number, inv));
        d.fact(FactType::Name, raw(t, row, "subscription").as_deref(), inv);
        d.interpretation = format!(
            "participants._id {} of {name} is a self participant (sub_id {sub}, SIM slot {}): the number the device's user sends messages from.",
            t.get(row, "_id").unwrap_or("?"),
            t.get(row, "slot").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        if normalized(ctx, IdType::Phone, number).is_some() {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Phone,
                number,
                inv,
                format!(
                    "{number} is the number of a self participant (sub_id {sub}) of Google Messages ({}): a SIM the device's user sends from.",
                    l.name()
                ),
            )?;
        }
    }
    Ok(())
}
