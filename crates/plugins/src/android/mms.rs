//! MMS in the telephony provider's `mmssms.db` (AOSP's `MmsSmsDatabaseHelper`): each message
//! of `pdu` (the MMS headers: box, dates, subject, message id, size, read and seen), its parts
//! of `part` (content type, name, file name, content location, the stored file `_data`, the
//! text of text parts; the SMIL layout part is passed over) and its addresses of `addr` (from,
//! to, cc, bcc by the PDU header codes of the MMS encapsulation: 137, 151, 130, 129).
//!
//! One phenomenon per MMS with every address, part and attachment; `date` and `date_sent`
//! are Unix **seconds** (`sms.date` is milliseconds). The other party — the sender of a
//! received MMS, each recipient of a sent one — is attributed as for SMS (the contact holding
//! the number, else `handle:<number>`); wallet addresses in the text are claims by direction
//! (one-to-one only: in a group MMS the user's words name no one other party). The device's
//! own number in the `from` of a sent MMS is the placeholder `insert-address-token`, passed
//! over. Delivery and read reports (`m_type` 134, 136) are counted, not listed.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use super::databases::{Book, counterparty, observe_party, party_fact};
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_seconds};
use crate::identity::{Party, artefact_name, columns_on, normalized, pages_on};
use crate::outputs::raw;

/// The placeholder AOSP writes for the device's own address.
const OWN_ADDRESS: &str = "insert-address-token";

/// The name of an `addr.type` (PDU header field codes).
fn role(kind: Option<&str>) -> &'static str {
    match kind {
        Some("137") => "from",
        Some("151") => "to",
        Some("130") => "cc",
        Some("129") => "bcc",
        _ => "address",
    }
}

/// The name of a `pdu.msg_box`.
fn mailbox(v: Option<&str>) -> &'static str {
    match v {
        Some("1") => "inbox",
        Some("2") => "sent",
        Some("3") => "drafts",
        Some("4") => "outbox",
        Some("5") => "failed",
        _ => "unknown box",
    }
}

/// One part of an MMS.
struct Part<'a> {
    /// The page of `part` the row came from.
    inv: &'a Invoked,
    ct: Option<String>,
    name: Option<String>,
    data: Option<String>,
    text: Option<String>,
}

/// The MMS of `mmssms.db`, when it has the `pdu` table (older copies and other databases
/// named so have not: passed over).
pub fn mms(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some((_, pdu)) = columns_on(ctx, &l.tree, &l.path, "pdu")? else {
        return Ok(());
    };
    if pdu.is_empty() || !pdu.contains("_id") {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let c = |col: &str| column_or_null(&pdu, "", col, col);
    let sql = format!(
        "SELECT _id, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM pdu WHERE m_type IS NULL OR m_type NOT IN (134, 136) ORDER BY _id",
        c("thread_id"),
        c("date"),
        c("date_sent"),
        c("msg_box"),
        c("read"),
        c("seen"),
        c("sub"),
        c("m_id"),
        c("m_type"),
        c("m_size"),
        c("ct_t"),
        c("sub_id"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "MMS")?;
    if pages.is_empty() {
        return Ok(());
    }
    // addresses and parts, each one query, grouped by message
    let mut addr_pages = None;
    if let Some((_, ac)) = columns_on(ctx, &l.tree, &l.path, "addr")?
        && ac.contains("msg_id")
        && ac.contains("address")
    {
        let sql = format!(
            "SELECT msg_id, address, {} FROM addr ORDER BY msg_id, _id",
            column_or_null(&ac, "", "type", "type")
        );
        addr_pages = pages_on(ctx, &l.tree, &l.path, &sql)?;
    }
    let mut addrs: BTreeMap<&str, Vec<(&Invoked, String, &'static str)>> = BTreeMap::new();
    for (ainv, at, row) in addr_pages.iter().flat_map(|p| p.rows()) {
        if let (Some(m), Some(a)) = (at.get(row, "msg_id"), raw(at, row, "address")) {
            addrs
                .entry(m)
                .or_default()
                .push((ainv, a, role(at.get(row, "type"))));
        }
    }
    let mut part_pages = None;
    if let Some((_, pc)) = columns_on(ctx, &l.tree, &l.path, "part")?
        && pc.contains("mid")
    {
        let p = |col: &str| column_or_null(&pc, "", col, col);
        // with the message's addresses, so that the claims of a text cite a call holding
        // both the words and the numbers
        let with_addresses = if addr_pages.is_some() {
            "(SELECT group_concat(a.address, ' ') FROM addr a WHERE a.msg_id = part.mid) AS addresses"
        } else {
            "NULL AS addresses"
        };
        let sql = format!(
            "SELECT mid, {}, {}, {}, {}, {}, {}, {with_addresses} FROM part WHERE ct IS NULL OR ct != 'application/smil' ORDER BY mid, seq, _id",
            p("ct"),
            p("name"),
            p("fn"),
            p("cl"),
            p("_data"),
            p("text"),
        );
        part_pages = pages_on(ctx, &l.tree, &l.path, &sql)?;
    }
    let mut parts: BTreeMap<&str, Vec<Part>> = BTreeMap::new();
    for (pinv, pt, row) in part_pages.iter().flat_map(|p| p.rows()) {
        let Some(mid) = pt.get(row, "mid") else {
            continue;
        };
        parts.entry(mid).or_default().push(Part {
            inv: pinv,
            ct: raw(pt, row, "ct"),
            name: raw(pt, row, "name")
                .or_else(|| raw(pt, row, "fn"))
                .or_else(|| raw(pt, row, "cl")),
            data: raw(pt, row, "_data"),
            text: raw(pt, row, "text"),
        });
    }
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "_id") else {
            continue;
        };
        let boxed = t.get(row, "msg_box");
        let received = boxed == Some("1");
        let outgoing = matches!(boxed, Some("2" | "3" | "4" | "5"));
        let mine = addrs.get(id).map(Vec::as_slice).unwrap_or_default();
        let side = |from: bool| -> Vec<(&Invoked, &str)> {
            mine.iter()
                .filter(|(_, a, r)| (*r == "from") == from && a != OWN_ADDRESS)
                .map(|(i, a, _)| (*i, a.as_str()))
                .collect()
        };
        let (from_at, to_at) = (side(true), side(false));
        let from: Vec<&str> = from_at.iter().map(|(_, a)| *a).collect();
        let to: Vec<&str> = to_at.iter().map(|(_, a)| *a).collect();
        // the other parties: the sender of a received MMS; the recipients of a sent one
        let others_at = if received { &from_at } else { &to_at };
        let others: Vec<&str> = if received { from.clone() } else { to.clone() };
        let shown = if others.is_empty() {
            "no address stored".to_string()
        } else {
            others.join(", ")
        };
        let title = match (received, outgoing) {
            (true, _) => format!("MMS {id} received from {shown}"),
            (_, true) => format!("MMS {id} {} to {shown}", mailbox(boxed)),
            _ => format!("MMS {id} with {shown}"),
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for (ai, a, _) in mine.iter().filter(|(_, a, _)| a != OWN_ADDRESS) {
            d.claim(party_fact(ctx, a, ai));
        }
        d.fact(FactType::Text, raw(t, row, "sub").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "m_id").as_deref(), inv);
        let date = t.get(row, "date");
        d.time(
            date,
            unix_seconds(date),
            if received { "MMS received" } else { "MMS sent" },
            inv,
        );
        let sent_at = t.get(row, "date_sent").filter(|v| *v != "0");
        if received {
            d.time(sent_at, unix_seconds(sent_at), "MMS sent", inv);
        }
        let list = parts.get(id).map(Vec::as_slice).unwrap_or_default();
        let mut texts = Vec::new();
        let mut attached = Vec::new();
        for p in list {
            d.fact(FactType::Text, p.text.as_deref(), p.inv);
            d.fact(FactType::Identifier, p.ct.as_deref(), p.inv);
            d.fact(FactType::Name, p.name.as_deref(), p.inv);
            d.fact(FactType::Path, p.data.as_deref(), p.inv);
            if let Some(text) = p.text.as_deref().filter(|s| !s.is_empty()) {
                texts.push((p.inv, text));
            }
            if p.ct.as_deref() != Some("text/plain") {
                attached.push(format!(
                    "{} ({})",
                    p.name.as_deref().unwrap_or("unnamed"),
                    p.ct.as_deref().unwrap_or("no content type")
                ));
            }
        }
        d.interpretation = format!(
            "pdu row {id} of {name}: an MMS in the {} (thread {}; from {}, to {}){}, {} part(s){}; read {}, seen {}; date and date_sent are Unix seconds.",
            mailbox(boxed),
            t.get(row, "thread_id").unwrap_or("?"),
            if from.is_empty() {
                if outgoing {
                    "the device's user".to_string()
                } else {
                    "no address stored".to_string()
                }
            } else {
                from.join(", ")
            },
            if to.is_empty() {
                "no address stored".to_string()
            } else {
                to.join(", ")
            },
            raw(t, row, "sub")
                .map(|s| format!(", subject \"{s}\""))
                .unwrap_or_default(),
            list.len(),
            if attached.is_empty() {
                String::new()
            } else {
                format!(", attached: {}", attached.join(", "))
            },
            match t.get(row, "read") {
                Some("1") => "yes",
                Some("0") => "no",
                _ => "not stored",
            },
            match t.get(row, "seen") {
                Some("1") => "yes",
                Some("0") => "no",
                _ => "not stored",
            },
        );
        record_draft(ctx, d)?;
        let what = format!("MMS {id} ({})", l.name());
        for (ai, a) in others_at {
            observe_party(ctx, book, a, ai, &what)?;
        }
        // claims only where one other party is known (not a group MMS)
        let ([one], false) = (others.as_slice(), texts.is_empty()) else {
            continue;
        };
        if !(received || outgoing) || normalized(ctx, IdType::Phone, one).is_none() {
            continue;
        }
        let (context, label) = counterparty(ctx, book, one);
        let party_role = if received {
            format!("{one}, who sent it (msg_box 1)")
        } else {
            format!(
                "{one}, to whom it was written (msg_box {})",
                boxed.unwrap_or("?")
            )
        };
        let owner_role = if received {
            "the device's user, who received it (msg_box 1)".to_string()
        } else {
            format!(
                "the device's user, who wrote it (msg_box {})",
                boxed.unwrap_or("?")
            )
        };
        // the claims cite the parts' call, which holds the text and the message's addresses
        // (each page of parts its own texts)
        for (pi, text) in crate::calls::runs_of_texts(&texts) {
            crate::identity::message_claims(
                ctx,
                pi,
                &text,
                &what,
                !received,
                &owner_role,
                Some(Party {
                    context: &context,
                    label: &label,
                    role: &party_role,
                }),
            )?;
        }
    }
    Ok(())
}
