//! The RCS chats LG phones keep in the telephony provider's `mmssms.db`, beside AOSP's SMS and MMS
//! tables (read by [`super::databases::sms`] and [`super::mms`]; not here): ALEAPP's `lgRCS`.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `message` ⟕ `file_info` (on `message_id`) | one `messages` per message row ("LG RCS message <rowid> with <address>", "…: file <name>" for a file transfer) | the other party's address, text, thread, message id; a file's name, path, size, thumbnail path and size, descriptor (XML) path; when (Unix ms); read and is-file flags (said) |
//! | `message` grouped by `thread_id` | one `messages` per chat ("LG RCS chat <thread> with <addresses>") | thread, the distinct addresses its messages carry, message count; first and last message (Unix ms) |
//!
//! `date` is Unix milliseconds (ALEAPP reads it so). The columns read do not say who wrote a
//! message — ALEAPP reports no direction either — so a message is "with" its address, the text
//! is nobody's claim, and no wallet claims are made. A chat whose messages carry more than one
//! address is a group chat (or a party whose number was written two ways: the addresses are
//! listed as stored). A file transfer's files (`file_path`, the thumbnail, the XML descriptor
//! the RCS file-transfer protocol carries) are named, not read.
//!
//! Schema drift: `message` and `file_info` columns are taken by name, absent ones NULL (an older
//! `message` without `read` or `is_file`; a store without `file_info` or without `message_id`
//! to join on reads no files); a `message` table without `date` or `address` is noted. A
//! `mmssms.db` without `message` (any phone not LG's) is passed over silently.
//!
//! Identities: each address that is a phone number is the other party of the message, observed
//! as SMS parties are (the contact holding the number, else `handle:<number>`).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;

use super::Located;
use super::databases::{Book, observe_party, party_fact};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, columns_on, pages_on};
use crate::outputs::raw;

/// The LG RCS tables of `mmssms.db` `l`, when it has `message`.
pub fn lgrcs(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some((_, cols)) = columns_on(ctx, &l.tree, &l.path, "message")? else {
        return Ok(());
    };
    if cols.is_empty() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    if !require_columns(
        ctx,
        &name,
        "LG's RCS table of mmssms.db",
        "message",
        &cols,
        &["date", "address"],
    )? {
        return Ok(());
    }
    let files = if cols.contains("message_id") {
        columns_on(ctx, &l.tree, &l.path, "file_info")?
            .map(|(_, c)| c)
            .filter(|c| c.contains("message_id"))
    } else {
        None
    };
    let m = |c: &str| column_or_null(&cols, "m.", c, c);
    let f = |c: &str| match &files {
        Some(fc) => column_or_null(fc, "f.", c, c),
        None => format!("NULL AS {c}"),
    };
    let (join, order) = if files.is_some() {
        (
            " LEFT JOIN file_info f ON f.message_id = m.message_id",
            "m.rowid, f.rowid",
        )
    } else {
        ("", "m.rowid")
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.date AS date, m.address AS address, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM message m{join} ORDER BY {order}",
        m("message_id"),
        m("thread_id"),
        m("body"),
        m("read"),
        m("is_file"),
        f("file_name"),
        f("file_path"),
        f("file_size"),
        f("thumb_file_path"),
        f("thumb_file_size"),
        f("file_xml_path"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "LG RCS messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let address = raw(t, row, "address").filter(|a| !a.trim().is_empty());
        let party = address.as_deref().unwrap_or("no address stored");
        let file = raw(t, row, "file_name").filter(|n| !n.trim().is_empty());
        let mut d = Draft::new(
            "messages",
            match &file {
                Some(n) => format!("LG RCS message {rid} with {party}: file {n}"),
                None => format!("LG RCS message {rid} with {party}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        if let Some(a) = &address {
            d.claim(party_fact(ctx, a, inv));
        }
        let body = raw(t, row, "body");
        d.fact(FactType::Text, body.as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "thread_id").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "message_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, file.as_deref(), inv);
        for (col, ft) in [
            ("file_path", FactType::Path),
            ("file_size", FactType::Count),
            ("thumb_file_path", FactType::Path),
            ("thumb_file_size", FactType::Count),
            ("file_xml_path", FactType::Path),
        ] {
            d.fact(ft, raw(t, row, col).as_deref(), inv);
        }
        let date = t.get(row, "date");
        d.time(date, unix_millis(date), "LG RCS message time", inv);
        d.interpretation = format!(
            "message row {rid} of {name}: an RCS chat message LG's messaging kept with {party} (thread {}, message id {}) at {} (Unix ms){}{}; read {}, is-file {}. The columns read do not say who wrote it.",
            t.get(row, "thread_id").unwrap_or("not stored"),
            t.get(row, "message_id").unwrap_or("not stored"),
            date.unwrap_or("an unknown time"),
            match body.as_deref().filter(|b| !b.trim().is_empty()) {
                Some(b) => format!(", text \"{}\"", crate::drafts::headline(b)),
                None => String::new(),
            },
            match &file {
                Some(n) => format!(
                    "; a file transfer of {n} ({} bytes, kept at {}; thumbnail {}; descriptor {})",
                    t.get(row, "file_size").unwrap_or("size not stored"),
                    t.get(row, "file_path").unwrap_or("no path stored"),
                    t.get(row, "thumb_file_path").unwrap_or("none stored"),
                    t.get(row, "file_xml_path").unwrap_or("none stored"),
                ),
                None => String::new(),
            },
            flag(t.get(row, "read")),
            flag(t.get(row, "is_file")),
        );
        record_draft(ctx, d)?;
        if let Some(a) = &address {
            observe_party(
                ctx,
                book,
                a,
                inv,
                &format!("LG RCS message {rid} ({})", l.name()),
            )?;
        }
    }
    if cols.contains("thread_id") {
        chats(ctx, l)?;
    }
    Ok(())
}

/// A stored 0/1 flag as words.
fn flag(v: Option<&str>) -> &'static str {
    match v {
        Some("1") => "yes",
        Some("0") => "no",
        Some(_) => "as stored",
        None => "not stored",
    }
}

/// One phenomenon per chat (`thread_id`): its addresses, message count, first and last time,
/// computed in the query.
fn chats(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let sql = "SELECT m.thread_id AS thread_id, count(*) AS messages, count(DISTINCT m.address) AS parties, group_concat(DISTINCT m.address) AS addresses, min(CASE WHEN m.date > 0 THEN m.date END) AS first, max(CASE WHEN m.date > 0 THEN m.date END) AS last FROM message m WHERE m.thread_id IS NOT NULL GROUP BY m.thread_id ORDER BY m.thread_id";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "LG RCS chats")?;
    for (inv, t, row) in pages.rows() {
        let thread = t.get(row, "thread_id").unwrap_or("?");
        let addresses: Vec<String> = raw(t, row, "addresses")
            .map(|a| {
                a.split(',')
                    .filter(|x| !x.trim().is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let shown = if addresses.is_empty() {
            "no address stored".to_string()
        } else {
            addresses.join(", ")
        };
        let parties = t.get(row, "parties").unwrap_or("0");
        let mut d = Draft::new("messages", format!("LG RCS chat {thread} with {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "thread_id").as_deref(),
            inv,
        );
        for a in &addresses {
            d.claim(party_fact(ctx, a, inv));
        }
        d.fact(FactType::Count, raw(t, row, "messages").as_deref(), inv);
        for (col, what) in [
            ("first", "First LG RCS message of the chat"),
            ("last", "Last LG RCS message of the chat"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "thread {thread} of {name}'s LG RCS messages: {} message(s) from {} to {} (Unix ms), carrying {parties} distinct address(es): {shown}{}.",
            t.get(row, "messages").unwrap_or("?"),
            t.get(row, "first").unwrap_or("an unknown time"),
            t.get(row, "last").unwrap_or("an unknown time"),
            if parties.parse::<u64>().is_ok_and(|p| p > 1) {
                " — a group chat (or one party's number written in more than one way)"
            } else {
                ""
            }
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
