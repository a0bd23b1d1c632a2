//! Skype for Android (`com.skype.raider/databases/live:<account>`, one store per signed-in
//! account, named after it), the fields of ALEAPP's `skype` module:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | (the file's name) | the account | the Skype id it is named after |
//! | `person` | one per contact | entry id (`8:live:…`), first and last name, mood; a `skype:<id>` person (the id without the `8:` prefix, and the name) |
//! | `particiapnt` (the app's spelling) | one per group conversation | each participant's id |
//! | `chatitem` | one per message (`message_type` other than 3) or call (3) | time (Unix ms), conversation, sender, direction (`is_sender_me`), text, the gallery file sent; a call's duration and its end (the time plus the duration, read as seconds as ALEAPP does: the unit is not documented); wallet addresses in a text are claims of its writer |

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{OwnedParty, artefact_name, pages_on, table_columns};
use crate::outputs::raw;

/// The account a Skype store is named after (`live:<id>`), `None` for another file.
pub fn account_of(l: &Located) -> Option<&str> {
    if !l.path.contains("/com.skype.raider/databases/") {
        return None;
    }
    let name = l.name();
    (name.starts_with("live:")
        && name.len() > 5
        && !name.ends_with("-journal")
        && !name.ends_with("-wal")
        && !name.ends_with("-shm"))
    .then_some(name)
}

/// A Skype id as observed: `skype:` and the id without the `8:` (consumer) prefix, in SQL.
fn skype_id(col: &str) -> String {
    format!("'skype:' || CASE WHEN {col} LIKE '8:%' THEN substr({col}, 3) ELSE {col} END")
}

/// One store.
pub fn live(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(me) = account_of(l) else {
        return Ok(());
    };
    let mut d = Draft::new("accounts", format!("Skype account {me}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, Some(me), &l.found);
    d.interpretation = format!(
        "{}: Skype keeps one store per signed-in account, named after its Skype id ({me}).",
        l.name()
    );
    record_draft(ctx, d)?;
    let Some(tables) = tables_with(ctx, l, &["chatitem"])? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(&l.tree, &l.path);
    let people = if has("person") {
        persons(ctx, l, &name, me)?
    } else {
        false
    };
    if has("particiapnt") {
        groups(ctx, l, &name)?;
    }
    chat(ctx, l, &name, me, people)
}

/// The entity context of a Skype id (with or without `8:`): the owner for the account's own.
fn context_of(id: &str, me: &str) -> String {
    let bare = id.strip_prefix("8:").unwrap_or(id);
    if bare == me {
        "owner".to_string()
    } else {
        format!("skype:{bare}")
    }
}

/// `person`; whether it could be read with names.
fn persons(ctx: &AgentCtx<'_>, l: &Located, name: &str, me: &str) -> Result<bool, RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "person")?;
    if !require_columns(ctx, name, "Skype's store", "person", &cols, &["entry_id"])? {
        return Ok(false);
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, entry_id, {} AS account, {}, {}, {}, trim(coalesce({}, '') || ' ' || coalesce({}, '')) AS full_name FROM person ORDER BY rowid",
        skype_id("entry_id"),
        c("first_name"),
        c("last_name"),
        c("mood"),
        if cols.contains("first_name") {
            "first_name"
        } else {
            "NULL"
        },
        if cols.contains("last_name") {
            "last_name"
        } else {
            "NULL"
        },
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(false);
    };
    note_pages_cap(ctx, name, &pages, "Skype contacts")?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "entry_id") else {
            continue;
        };
        let label = t
            .get(row, "full_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(id)
            .to_string();
        let context = context_of(id, me);
        let own = context == "owner";
        let mut d = Draft::new(
            if own { "accounts" } else { "contacts" },
            format!("Skype contact {label}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "entry_id").as_deref(), inv);
        for col in ["first_name", "last_name"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Text, raw(t, row, "mood").as_deref(), inv);
        d.interpretation = format!(
            "person row {} of {}: the Skype {} {id}{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if own {
                "account of the store,"
            } else {
                "contact"
            },
            t.get(row, "mood")
                .map(|m| format!(" (mood: {m})"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        crate::identity::observe_columns(
            ctx,
            &context,
            if own { "device owner" } else { &label },
            t,
            row,
            inv,
            &[
                ("account", IdType::AccountId, "The Skype id"),
                ("full_name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of the Skype contact {label} (person)."),
        )?;
    }
    Ok(true)
}

/// `particiapnt`: one phenomenon per group conversation with its participants.
fn groups(ctx: &AgentCtx<'_>, l: &Located, name: &str) -> Result<(), RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "particiapnt")?;
    if !require_columns(
        ctx,
        name,
        "Skype's store",
        "particiapnt",
        &cols,
        &["conversation_id", "person_id"],
    )? {
        return Ok(());
    }
    let sql = "SELECT conversation_id, person_id FROM particiapnt ORDER BY conversation_id, rowid";
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Skype participants")?;
    for (conversation, rows) in pages.runs_by("conversation_id") {
        let mut d = Draft::new("contacts", format!("Skype group {conversation}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        // every run has a row
        d.fact(FactType::Identifier, Some(&conversation), rows[0].0);
        let members: Vec<&str> = rows
            .iter()
            .filter_map(|(_, t, r)| t.get(r, "person_id"))
            .collect();
        for &(inv, t, r) in &rows {
            d.fact(FactType::Account, raw(t, r, "person_id").as_deref(), inv);
        }
        d.interpretation = format!(
            "particiapnt rows of {conversation} in {}: a Skype group conversation with {} participant(s): {}.",
            l.name(),
            members.len(),
            members.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `chatitem`: messages and calls.
fn chat(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    me: &str,
    people: bool,
) -> Result<(), RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "chatitem")?;
    if !require_columns(
        ctx,
        name,
        "Skype's store",
        "chatitem",
        &cols,
        &["conversation_link", "time", "is_sender_me"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    let end = if cols.contains("duration") {
        "CASE WHEN m.duration > 0 THEN m.time + 1000 * m.duration END"
    } else {
        "NULL"
    };
    let sender_name = if people {
        "(SELECT trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')) FROM person p WHERE p.entry_id = m.person_id)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.conversation_link AS conversation, m.time AS time, m.is_sender_me AS mine, {}, {} AS sender_account, {}, {}, {}, {}, {end} AS end_time, {sender_name} AS sender_name FROM chatitem m ORDER BY m.time, m.rowid",
        c("person_id"),
        if cols.contains("person_id") {
            skype_id("m.person_id")
        } else {
            "NULL".to_string()
        },
        c("content"),
        c("device_gallery_path"),
        c("duration"),
        c("message_type"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Skype messages")?;
    for (inv, t, row) in pages.rows() {
        let conversation = t.get(row, "conversation").unwrap_or("?");
        let sent = t.get(row, "mine") == Some("1");
        let sender = t.get(row, "person_id").unwrap_or("?");
        let who = t
            .get(row, "sender_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(sender);
        let call = t.get(row, "message_type") == Some("3");
        let group = conversation.starts_with("19:");
        let mut d = Draft::new(
            if call { "calls" } else { "messages" },
            match (call, sent) {
                (true, true) => format!("Skype outgoing call to {conversation}"),
                (true, false) => format!("Skype incoming call from {who}"),
                (false, true) => format!("Skype message sent to {conversation}"),
                (false, false) => format!("Skype message from {who}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Account,
            raw(t, row, "conversation").as_deref(),
            inv,
        );
        d.fact(FactType::Account, raw(t, row, "person_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "content").as_deref(), inv);
        d.fact(
            FactType::Path,
            raw(t, row, "device_gallery_path").as_deref(),
            inv,
        );
        d.fact(
            FactType::Count,
            t.get(row, "duration").filter(|_| call),
            inv,
        );
        let time = t.get(row, "time");
        d.time(
            time,
            unix_millis(time),
            match (call, sent) {
                (true, _) => "Call started",
                (false, true) => "Message sent",
                (false, false) => "Message received",
            },
            inv,
        );
        if call {
            let end = t.get(row, "end_time");
            d.time(
                end,
                unix_millis(end),
                "Call ended (the start plus the duration, read as seconds)",
                inv,
            );
        }
        d.interpretation = format!(
            "chatitem row {} of {}: a Skype {} in the conversation {conversation}{}, {} (is_sender_me {}); time is Unix milliseconds{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if call { "call" } else { "message" },
            if group { " (a group)" } else { "" },
            if sent {
                format!("by the account's user ({me})")
            } else {
                format!("by {who} ({sender})")
            },
            t.get(row, "mine").unwrap_or("?"),
            if call {
                format!(
                    ", the duration {} read as seconds as ALEAPP reads it (the unit is not documented)",
                    t.get(row, "duration").unwrap_or("?")
                )
            } else {
                String::new()
            },
        );
        record_draft(ctx, d)?;
        // the sender: the device's user when it is the account the store is named after
        let sender_context = context_of(sender, me);
        crate::identity::observe_columns(
            ctx,
            &sender_context,
            if sender_context == "owner" {
                "device owner"
            } else {
                who
            },
            t,
            row,
            inv,
            &[("sender_account", IdType::AccountId, "The Skype id")],
            &|what| format!("{what} of the sender of a Skype message or call ({who})."),
        )?;
        let Some(text) = t.get(row, "content").filter(|s| !s.is_empty() && !call) else {
            continue;
        };
        let party = if sent {
            (!group).then(|| OwnedParty {
                context: context_of(conversation, me),
                label: conversation.to_string(),
                role: format!("{conversation}, to whom it was sent (is_sender_me 1)"),
            })
        } else {
            Some(OwnedParty {
                context: context_of(sender, me),
                label: who.to_string(),
                role: format!("{who}, who sent it (person_id {sender}, is_sender_me 0)"),
            })
        };
        crate::identity::message_claims(
            ctx,
            inv,
            text,
            &format!("Skype message {}", t.get(row, "rid").unwrap_or("?")),
            sent,
            &format!(
                "the device's user, who {} it ({me})",
                if sent { "wrote" } else { "received" }
            ),
            party.as_ref().map(OwnedParty::party),
        )?;
    }
    Ok(())
}
