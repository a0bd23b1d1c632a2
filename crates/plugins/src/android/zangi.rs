//! Zangi on Android (`com.beint.zangi`): the message store among `databases/*.db` (any but
//! `settings.db`, as ALEAPP finds it: found by listing the app's folder, its name not being
//! fixed), with the fields of ALEAPP's `zangichats`: one `messages` phenomenon per `message`
//! row — time (Unix ms), direction (`isIncoming`), the chat (`chatWith`, its `user_profile`
//! name), message ids (`message_id`, `msgId`), text, attachment (`extra`), the sender's and
//! recipient's numbers and names. ALEAPP leaves out a message without `chatWith`; read here too.
//!
//! Identities: each number is `zangi:<number>` (computed in the query; the id iOS's Zangi
//! keeps), with its profile name; the one sender of the outgoing messages is the device's user
//! (`owner`); wallet addresses in a message are claims by direction. A `.db` of the folder
//! without a `message` table is passed over (the app keeps other stores there).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::json;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{args_on, artefact_name, pages_on, schema_on};
use crate::outputs::raw;

/// The app's data folder name.
pub const PACKAGE: &str = "com.beint.zangi";

/// Whether `l` is Zangi's data folder.
pub fn is_app_dir(l: &Located) -> bool {
    l.path.rsplit('/').next() == Some(PACKAGE)
}

/// Lists the folder's `databases/*.db` and reads each message store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let dir = format!("{}/databases", l.path);
    let Some(listing) = crate::calls::call_or_note(
        ctx,
        &artefact_name(&l.tree, &dir),
        "find_files",
        args_on(&l.tree, json!({"path": dir, "name_globs": ["*.db"]})),
    )?
    else {
        return Ok(());
    };
    for path in crate::outputs::found_paths(&listing.output.text) {
        if path.ends_with("/settings.db") || !path.starts_with(&dir) {
            continue;
        }
        let db = Located {
            tree: l.tree.clone(),
            path,
            found: listing.clone(),
        };
        ctx.artefact(&artefact_name(&db.tree, &db.path), || store(ctx, &db))?;
    }
    Ok(())
}

fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let Some(cols) = schema.get("message").filter(|c| !c.is_empty()) else {
        // another of the app's stores
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("Zangi's {}", l.name());
    if !require_columns(ctx, &name, &store, "message", cols, &["date"])? {
        return Ok(());
    }
    let m = |c: &str, alias: &str| column_or_null(cols, "m.", c, alias);
    let profiles = schema
        .get("user_profile")
        .is_some_and(|p| p.contains("id") && p.contains("first_name"));
    let name_of = |col: &str| {
        if profiles && cols.contains(col) {
            format!(
                "(SELECT CASE WHEN p.last_name IS NULL OR p.last_name = '' THEN p.first_name ELSE p.first_name || ' ' || p.last_name END FROM user_profile p WHERE p.id = m.{col} LIMIT 1)"
            )
        } else {
            "NULL".into()
        }
    };
    let q = |col: &str| {
        if cols.contains(col) {
            format!("CASE WHEN m.{col} IS NOT NULL AND m.{col} != '' THEN 'zangi:' || m.{col} END")
        } else {
            "NULL".into()
        }
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.\"date\" AS at, {}, {}, {} AS chat, {}, {}, {}, {}, {}, {} AS from_name, {} AS from_id, {}, {} AS to_name, {} AS to_id FROM message m ORDER BY m.rowid",
        m("isIncoming", "incoming"),
        m("chatWith", "chat_with"),
        name_of("chatWith"),
        m("message_id", "message_id"),
        m("msgId", "msg_id"),
        m("message_msg", "text"),
        m("extra", "attachment"),
        m("msgFrom", "from_number"),
        name_of("msgFrom"),
        q("msgFrom"),
        m("msgTo", "to_number"),
        name_of("msgTo"),
        q("msgTo"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Zangi messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?").to_string();
        let sent = t.get(row, "incoming") == Some("0");
        let (party, party_name, party_id) = if sent {
            ("to_number", "to_name", "to_id")
        } else {
            ("from_number", "from_name", "from_id")
        };
        let with = t
            .get(row, party_name)
            .or(t.get(row, party))
            .or(t.get(row, "chat"))
            .unwrap_or("an unknown party")
            .to_string();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Zangi message to {with}")
            } else {
                format!("Zangi message from {with}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for (col, ft) in [
            ("chat_with", FactType::Account),
            ("chat", FactType::Name),
            ("message_id", FactType::Identifier),
            ("msg_id", FactType::Identifier),
            ("text", FactType::Text),
            ("attachment", FactType::Text),
            ("from_number", FactType::Account),
            ("from_name", FactType::Name),
            ("to_number", FactType::Account),
            ("to_name", FactType::Name),
            ("incoming", FactType::Count),
        ] {
            d.fact(ft, raw(t, row, col).as_deref(), inv);
        }
        let at = t.get(row, "at");
        d.message_time(at, unix_millis(at), sent, inv);
        d.interpretation = format!(
            "message row {rid} of {}: a Zangi message {} {with} (isIncoming {}){}; the time is Unix milliseconds.",
            l.name(),
            if sent {
                "sent by the device's user to"
            } else {
                "to the device's user from"
            },
            t.get(row, "incoming").unwrap_or("not stored"),
            t.get(row, "attachment")
                .map(|a| format!(", attachment {a}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        let other = t.get(row, party_id).map(|id| (id, with.as_str()));
        if let Some(id) = other.map(|(id, _)| id) {
            crate::identity::observe_columns(
                ctx,
                id,
                &with,
                t,
                row,
                inv,
                &[
                    (party_id, IdType::AccountId, "The Zangi number"),
                    (party_name, IdType::DisplayName, "The profile name"),
                ],
                &|what| {
                    format!(
                        "{what} of {with}, the other party of a Zangi message (message row {rid} of {}).",
                        l.name()
                    )
                },
            )?;
        }
        if let Some(text) = t.get(row, "text") {
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!("Zangi message row {rid} ({})", l.name()),
                sent,
                other,
            )?;
        }
    }
    if cols.contains("msgFrom") && cols.contains("isIncoming") {
        crate::identity::sole_owner(
            ctx,
            &l.tree,
            &l.path,
            "SELECT DISTINCT 'zangi:' || msgFrom AS qualified FROM message WHERE isIncoming = 0 AND msgFrom IS NOT NULL AND msgFrom != ''",
            "The Zangi number",
            "the one sender of the store's outgoing messages (isIncoming 0)",
        )?;
    }
    Ok(())
}
