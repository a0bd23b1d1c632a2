//! Sideline, the second-number app (`com.sideline.phone.number/databases/textfree`, Pinger's
//! Text Free engine), ALEAPP's `sChats` (`get_schats`): the texts, calls and voicemails of the
//! second number, each with the other party's number and the name the app's contact record
//! gives it.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `conversation_item` (with `contact_address` by `address_e164`) | one per item: `calls` for a call ("Sideline call with <name or number>"), `messages` otherwise ("Sideline text with …", "Sideline voicemail with …", "Sideline item with …") | the other party's number (`address`), the contact's first and last names and the name they make (computed in the query), method as stored and its kind (computed in the query: 1 text, 3 call, 8 voicemail — ALEAPP's names, established by its author's testing; any other value stays unnamed), text, duration; when (`timestamp`, Unix ms) |
//!
//! ALEAPP joins `contact_address` to each item, so a number with two contact records gives the
//! item twice there; here the first record (by rowid) names it, once. The columns ALEAPP reads
//! say nothing of direction — who sent a text or placed a call — so none is given: each time
//! is the item's as recorded, and the text is no claim of either side. Schema drift: columns
//! are taken by name (absent ones NULL: an older table without `duration`); a store without
//! `contact_address` (or without its `address_e164`) gives the items without names; a table
//! without `timestamp` is noted, a store without `conversation_item` too.
//!
//! Identities: each other party's number is observed as a phone (the address-book contact
//! holding it, else `handle:<number>`), with the name Sideline's contact record gives it. The
//! account's own second number is not among the columns read (ALEAPP reads none), so the owner
//! is not observed here.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use super::databases::{Book, counterparty, observe_party, party_fact};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is Sideline's store.
pub fn is_store(l: &Located) -> bool {
    l.name() == "textfree" && l.path.contains("/com.sideline.phone.number/")
}

const STORE: &str = "Sideline's textfree";

/// One `textfree`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = schema.get("conversation_item") else {
        ctx.unparsed(
            &name,
            "not Sideline's textfree store: no conversation_item table",
            None,
        )?;
        return Ok(());
    };
    if !require_columns(ctx, &name, STORE, "conversation_item", cols, &["timestamp"])? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(cols, "c.", col, col);
    // the contact record of the item's number: the first by rowid
    let contact = schema
        .get("contact_address")
        .filter(|a| a.contains("address_e164") && cols.contains("address"));
    let of_contact = |expr: &str| match contact {
        Some(_) => format!(
            "(SELECT {expr} FROM contact_address a WHERE a.address_e164 = c.address ORDER BY a.rowid LIMIT 1)"
        ),
        None => "NULL".to_string(),
    };
    let a = |col: &str| {
        if contact.is_some_and(|x| x.contains(col)) {
            format!("a.{col}")
        } else {
            "NULL".to_string()
        }
    };
    let (first, last) = (a("native_first_name"), a("native_last_name"));
    let method = if cols.contains("method") {
        "CASE CAST(c.method AS TEXT) WHEN '1' THEN 'text' WHEN '3' THEN 'call' WHEN '8' THEN 'voicemail' END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT c.rowid AS rid, c.timestamp AS at, {}, {method} AS kind, {}, {}, {}, {} AS first_name, {} AS last_name, {} AS contact_name FROM conversation_item c ORDER BY c.timestamp, c.rowid",
        c("method"),
        c("message_text"),
        c("duration"),
        c("address"),
        of_contact(&first),
        of_contact(&last),
        of_contact(&format!(
            "NULLIF(trim(coalesce({first}, '') || ' ' || coalesce({last}, '')), '')"
        )),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Sideline items")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let number = t.get(row, "address").filter(|n| !n.is_empty());
        let contact_name = t.get(row, "contact_name").filter(|n| !n.is_empty());
        let who = contact_name.or(number).unwrap_or("an unknown party");
        let kind = t.get(row, "kind");
        let (category, noun) = match kind {
            Some("call") => ("calls", "call"),
            Some("text") => ("messages", "text"),
            Some("voicemail") => ("messages", "voicemail"),
            _ => ("messages", "item"),
        };
        let mut d = Draft::new(category, format!("Sideline {noun} with {who}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        if let Some(n) = raw(t, row, "address").filter(|n| !n.is_empty()) {
            d.claim(party_fact(ctx, &n, inv));
        }
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("contact_name", FactType::Name, "contact"),
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("method", FactType::Text, "method"),
                ("kind", FactType::Text, "kind"),
                ("message_text", FactType::Text, "text"),
                ("duration", FactType::Count, "duration"),
            ],
        );
        let at = t.get(row, "at");
        d.time(
            at,
            unix_millis(at),
            &format!("Sideline {noun} recorded"),
            inv,
        );
        d.interpretation = format!(
            "conversation_item row {rid} of {}: a Sideline {} with {}{} ({}); the app's columns give no direction (who sent or called is not said); timestamp is Unix milliseconds.",
            l.name(),
            match kind {
                Some(k) => k.to_string(),
                None => format!(
                    "item of method {} (a value ALEAPP does not name)",
                    t.get(row, "method").unwrap_or("not stored")
                ),
            },
            number.unwrap_or("no number stored"),
            contact_name
                .map(|n| format!(", named {n} by Sideline's contact record"))
                .unwrap_or_default(),
            said.join(", "),
        );
        record_draft(ctx, d)?;
        let Some(n) = number else {
            continue;
        };
        let what = format!("Sideline item {rid} ({})", l.name());
        observe_party(ctx, book, n, inv, &what)?;
        if let Some(cn) = contact_name
            && crate::identity::normalized(ctx, IdType::Phone, n).is_some()
        {
            let (context, label) = counterparty(ctx, book, n);
            observe(
                ctx,
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                cn,
                inv,
                format!(
                    "{cn} is the name Sideline's contact record gives {n}, the other party of {what}."
                ),
            )?;
        }
    }
    Ok(())
}
