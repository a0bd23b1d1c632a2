//! TextNow on Android (`com.enflick.android.TextNow/databases/textnow_data.db`), the fields of
//! ALEAPP's `get_textnow_messages`, `get_textnow_call_logs` and `get_textnow_contacts`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `contacts` | one per contact | the number or handle (`contact_value`), name (the value where none) ; a person `textnow:<value>` with the number and name |
//! | `messages` (`message_type` other than 100, 102), with `groups`/`group_members` | one per message | time (`date`, Unix ms), the thread, from and to (by `message_direction`: 1 received, 2 sent, as ALEAPP reads it; any other value as stored, no direction given), a group's members, text, read flag, attachment; the other party of a one-to-one message observed by its number; wallet addresses in a text are claims of its writer |
//! | `messages` (`message_type` 100 or 102) | one `calls` per call | start (`date`, Unix ms), the number, direction, `message_text` as stored, and the end ALEAPP computes as the start plus `message_text` read as seconds (computed in the query and said to be ALEAPP's reading: the column is not established to hold a duration) |
//!
//! ALEAPP's message query joins `messages` to `contacts` and `groups`, so a message whose
//! `contact_value` is in neither is dropped there; it is read here with what it has. The
//! device's user is the TextNow account (its own number is in the app's preferences, not
//! here). Schema drift: each table is read when it has its key columns, its other columns
//! where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::{Book, observe_party, party_fact, tables_with};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis, unix_seconds};
use crate::identity::{artefact_name, observe_columns, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is TextNow's store.
pub fn is_textnow(l: &Located) -> bool {
    l.path.contains("/com.enflick.android.TextNow/")
}

const STORE: &str = "TextNow's textnow_data.db";

/// The call rows' `message_type`s, as ALEAPP selects them.
const CALL_TYPES: &str = "100, 102";

/// One `textnow_data.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["messages"])? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(&l.tree, &l.path);
    let contact_cols = if has("contacts") {
        table_columns(ctx, &l.tree, &l.path, "contacts")?
    } else {
        Default::default()
    };
    let contacts_ok = has("contacts")
        && require_columns(
            ctx,
            &name,
            STORE,
            "contacts",
            &contact_cols,
            &["contact_value"],
        )?;
    if contacts_ok {
        contacts(ctx, l, &name, &contact_cols)?;
    }
    let groups = has("group_members") && {
        let g = table_columns(ctx, &l.tree, &l.path, "group_members")?;
        g.contains("contact_value") && g.contains("member_contact_value")
    };
    let cols = table_columns(ctx, &l.tree, &l.path, "messages")?;
    if !require_columns(
        ctx,
        &name,
        STORE,
        "messages",
        &cols,
        &["contact_value", "date"],
    )? {
        return Ok(());
    }
    messages(ctx, l, &name, &cols, book, groups, contacts_ok)?;
    calls(ctx, l, &name, &cols, book)
}

fn contacts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT rowid AS rid, contact_value, 'textnow:' || contact_value AS qualified, {} FROM contacts WHERE contact_value IS NOT NULL AND contact_value != '' ORDER BY rowid",
        column_or_null(cols, "", "contact_name", "contact_name"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "TextNow contacts")?;
    for (inv, t, row) in pages.rows() {
        let value = t.get(row, "contact_value").unwrap_or("?");
        let label = t
            .get(row, "contact_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(value)
            .to_string();
        let mut d = Draft::new("contacts", format!("TextNow contact {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.claim(party_fact(ctx, value, inv));
        d.fact(FactType::Name, raw(t, row, "contact_name").as_deref(), inv);
        d.interpretation = format!(
            "contacts row {} of {}: a TextNow contact {value}{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "contact_name")
                .filter(|n| !n.is_empty())
                .map(|n| format!(" named {n}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        let phone = crate::identity::normalized(ctx, IdType::Phone, value).is_some();
        observe_columns(
            ctx,
            &format!("textnow:{value}"),
            &label,
            t,
            row,
            inv,
            &[
                if phone {
                    ("contact_value", IdType::Phone, "The number")
                } else {
                    ("qualified", IdType::AccountId, "The TextNow handle")
                },
                ("contact_name", IdType::DisplayName, "The name"),
            ],
            &|what| {
                format!(
                    "{what} of the contact {label} in TextNow's contacts ({}).",
                    l.name()
                )
            },
        )?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    book: &Book,
    groups: bool,
    contacts: bool,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let members = if groups {
        "(SELECT group_concat(g.member_contact_value, ',') FROM group_members g WHERE g.contact_value = m.contact_value)"
    } else {
        "NULL"
    };
    let contact_name = if contacts {
        "(SELECT c.contact_name FROM contacts c WHERE c.contact_value = m.contact_value LIMIT 1)"
    } else {
        "NULL"
    };
    let kind = if cols.contains("message_type") {
        format!("WHERE m.message_type IS NULL OR m.message_type NOT IN ({CALL_TYPES}) ")
    } else {
        String::new()
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.contact_value AS contact_value, m.date AS date, {}, {}, {}, {}, {}, {members} AS members, {contact_name} AS contact_name FROM messages m {kind}ORDER BY m.date, m.rowid",
        c("message_direction"),
        c("message_type"),
        c("message_text"),
        c("read"),
        c("attach"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "TextNow messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let value = t.get(row, "contact_value").unwrap_or("?");
        let members = t.get(row, "members").filter(|m| !m.is_empty());
        let who = t
            .get(row, "contact_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(value);
        let direction = t.get(row, "message_direction");
        let (sent, received) = (direction == Some("2"), direction == Some("1"));
        let mut d = Draft::new(
            "messages",
            match (sent, received, members.is_some()) {
                (true, _, false) => format!("TextNow message sent to {who}"),
                (_, true, false) => format!("TextNow message from {who}"),
                (true, _, true) => format!("TextNow message sent to the group {who}"),
                (_, true, true) => format!("TextNow message in the group {who}"),
                _ => format!("TextNow message with {who}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.claim(party_fact(ctx, value, inv));
        d.fact(FactType::Name, raw(t, row, "contact_name").as_deref(), inv);
        if let Some(ms) = members {
            for m in ms.split(',').filter(|m| !m.is_empty()) {
                d.claim(party_fact(ctx, m, inv));
            }
        }
        d.fact(FactType::Text, raw(t, row, "message_text").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "read").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "message_type").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "attach").as_deref(), inv);
        let time = t.get(row, "date");
        if sent || received {
            d.message_time(time, unix_millis(time), sent, inv);
        } else {
            d.time(time, unix_millis(time), "Message recorded", inv);
        }
        d.interpretation = format!(
            "messages row {rid} of {}: a TextNow message {} {who}{} ({}); read {}{}; date is Unix milliseconds.",
            l.name(),
            if sent {
                "to"
            } else if received {
                "from"
            } else {
                "with"
            },
            members
                .map(|m| format!(", the group {value} of {m}"))
                .unwrap_or_default(),
            match direction {
                Some("1") => "message_direction 1: received, as ALEAPP reads it".to_string(),
                Some("2") => "message_direction 2: sent, as ALEAPP reads it".to_string(),
                Some(v) => format!("message_direction {v}, not documented: no direction given"),
                None => "no direction stored".to_string(),
            },
            t.get(row, "read").unwrap_or("not stored"),
            t.get(row, "attach")
                .filter(|a| !a.is_empty())
                .map(|a| format!("; attachment {a}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        let what = format!("TextNow message {rid} ({})", l.name());
        if members.is_some() {
            for m in members
                .unwrap_or_default()
                .split(',')
                .filter(|m| !m.is_empty())
            {
                observe_party(ctx, book, m, inv, &what)?;
            }
            continue;
        }
        observe_party(ctx, book, value, inv, &what)?;
        let Some(text) = t.get(row, "message_text").filter(|s| !s.is_empty()) else {
            continue;
        };
        if !(sent || received) || crate::identity::normalized(ctx, IdType::Phone, value).is_none() {
            continue;
        }
        let (context, label) = super::databases::counterparty(ctx, book, value);
        crate::identity::direction_claims(
            ctx,
            inv,
            text,
            &what,
            sent,
            (&context, &label, value),
            &format!("message_direction {}", direction.unwrap_or("?")),
        )?;
    }
    Ok(())
}

fn calls(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    book: &Book,
) -> Result<(), RuntimeError> {
    if !cols.contains("message_type") {
        return Ok(());
    }
    let c = |col: &str| column_or_null(cols, "", col, col);
    let end = if cols.contains("message_text") {
        "CASE WHEN message_text GLOB '[0-9]*' AND NOT message_text GLOB '*[^0-9]*' THEN date / 1000 + message_text END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT rowid AS rid, contact_value, date, {}, message_type, {}, {end} AS end_s FROM messages WHERE message_type IN ({CALL_TYPES}) ORDER BY date, rowid",
        c("message_direction"),
        c("message_text"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "TextNow calls")?;
    for (inv, t, row) in pages.rows() {
        let number = t.get(row, "contact_value").unwrap_or("?");
        let direction = t.get(row, "message_direction");
        let mut d = Draft::new(
            "calls",
            match direction {
                Some("1") => format!("TextNow call from {number}"),
                Some("2") => format!("TextNow call to {number}"),
                _ => format!("TextNow call with {number}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.claim(party_fact(ctx, number, inv));
        d.fact(FactType::Count, raw(t, row, "message_type").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "message_text").as_deref(), inv);
        let start = t.get(row, "date");
        d.time(start, unix_millis(start), "Call started", inv);
        let end = t.get(row, "end_s");
        d.time(
            end,
            unix_seconds(end),
            "Call end as ALEAPP computes it (start + message_text seconds)",
            inv,
        );
        d.interpretation = format!(
            "messages row {} of {}: a TextNow call (message_type {}) {} {number}; message_text {} as stored — ALEAPP reads it as the duration in seconds and computes the end from it, which the app's schema does not establish; date is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "message_type").unwrap_or("?"),
            match direction {
                Some("1") => "from".to_string(),
                Some("2") => "to".to_string(),
                Some(v) => format!("(message_direction {v}, not documented) with"),
                None => "with".to_string(),
            },
            t.get(row, "message_text").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        observe_party(
            ctx,
            book,
            number,
            inv,
            &format!("a TextNow call ({})", l.name()),
        )?;
    }
    Ok(())
}
