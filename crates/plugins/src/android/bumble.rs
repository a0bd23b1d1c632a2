//! Bumble on Android (`com.bumble.app/databases/ChatComDatabase`), the fields of ALEAPP's
//! `get_bumble_messages` and `get_bumble_matches`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `message` (with `conversation_info`) | one `messages` per message | created and modified (Unix ms), direction (`is_incoming`), sender and recipient ids, the text and URL of the JSON `payload` (read with `json_extract` in the query), payload type, conversation and message ids, the match's user name |
//! | `conversation_info` | one `contacts` per match | user name, age, gender, mode (0 Bumble Date, 1 Bumble Friends, 5 Bumble Bizz, as ALEAPP words them), profile image URL, user id, encrypted user id; a `bumble:<user id>` person with the name |
//!
//! The device's user is the one sender of the outgoing messages (`owner`, `bumble:<user id>`,
//! the id iOS's Bumble keeps); ALEAPP reads the user's own name, e-mail and phone from the
//! `files/c2V0dGluZ3M=` settings protobuf (at field paths its type hints choose among
//! alternatives), not read yet. Schema drift: each
//! table is read when it has its key columns, the others where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is Bumble's chat store.
pub fn is_bumble(l: &Located) -> bool {
    l.path.contains("/com.bumble.app/databases/") && l.name() == "ChatComDatabase"
}

/// Whether `l` is Bumble's settings file (`files/c2V0dGluZ3M=`, "settings" in base64).
pub fn is_settings(l: &Located) -> bool {
    l.path.ends_with("/com.bumble.app/files/c2V0dGluZ3M=")
}

/// The settings file: the signed-in user (see the module documentation).
pub fn settings(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    use crate::outputs::json_scalar;
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_protobuf",
        crate::identity::args_on(&l.tree, serde_json::json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let doc = inv
        .output
        .text
        .split_once('\n')
        .and_then(|(_, body)| serde_json::from_str::<serde_json::Value>(body).ok());
    // ALEAPP's path: 2 > 1 (third entry) > 2 > 2
    let user = doc.as_ref().and_then(|d| {
        d.get("2")?
            .get(0)?
            .get("1")?
            .get(2)?
            .get("2")?
            .get(0)?
            .get("2")?
            .get(0)
    });
    let Some(user) = user.filter(|u| u.is_object()) else {
        ctx.unparsed(
            &name,
            "could not parse Bumble's settings because no user is at 2 > 1 (third entry) > 2 > 2, where ALEAPP reads it",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let at = |path: &[&str]| {
        path.iter()
            .try_fold(user, |node, field| node.get(field)?.get(0))
            .and_then(|v| json_scalar(Some(v)))
    };
    let section = |i: usize| {
        user.get("490")
            .and_then(|s| s.get(i))
            .and_then(|s| json_scalar(s.get("4")?.get(0)))
    };
    let mut d = Draft::new("accounts", "Bumble account (settings)");
    d.fact(FactType::Path, Some(&l.path), &l.found);
    let mut said = Vec::new();
    let mut owner = Vec::new();
    for (path, ft, what, id) in [
        (&["1"][..], FactType::Account, "user id", None),
        (
            &["200"][..],
            FactType::Name,
            "name",
            Some(IdType::DisplayName),
        ),
        (&["11"][..], FactType::Email, "e-mail", Some(IdType::Email)),
        (
            &["100", "2", "4"][..],
            FactType::Phone,
            "phone",
            Some(IdType::Phone),
        ),
        (&["210"][..], FactType::Count, "age", None),
        (&["220"][..], FactType::Text, "birth date", None),
        (&["91", "2"][..], FactType::Text, "country", None),
        (&["93", "2"][..], FactType::Text, "city", None),
    ] {
        if let Some(v) = at(path) {
            d.fact(ft, Some(&v), &inv);
            said.push(format!("{what} {v}"));
            if let Some(id) = id {
                owner.push((id, v, what));
            }
        }
    }
    for (i, what) in [(0, "occupation"), (1, "education"), (3, "about")] {
        if let Some(v) = section(i) {
            d.fact(FactType::Text, Some(&v), &inv);
            said.push(format!("{what} {v}"));
        }
    }
    d.interpretation = format!(
        "Bumble's settings file {} (read raw as Protocol Buffers, at the field paths ALEAPP reads): the signed-in user: {}.",
        l.name(),
        said.join(", ")
    );
    record_draft(ctx, d)?;
    for (id_type, value, what) in owner {
        crate::identity::observe(
            ctx,
            "owner",
            masf_graph::EntityKind::Person,
            "device owner",
            id_type,
            &value,
            &inv,
            format!(
                "The {what} of the Bumble account signed in on the device (its settings file), the device's user."
            ),
        )?;
    }
    Ok(())
}

const STORE: &str = "Bumble's ChatComDatabase";

/// One `ChatComDatabase`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key("message") && !schema.contains_key("conversation_info") {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {STORE} because it has neither message nor conversation_info"
            ),
            None,
        )?;
        return Ok(());
    }
    let matches = schema
        .get("conversation_info")
        .filter(|c| !c.is_empty())
        .cloned()
        .unwrap_or_default();
    let has_matches = !matches.is_empty()
        && require_columns(
            ctx,
            &name,
            STORE,
            "conversation_info",
            &matches,
            &["user_id"],
        )?;
    if let Some(cols) = schema.get("message")
        && require_columns(
            ctx,
            &name,
            STORE,
            "message",
            cols,
            &["created_timestamp", "sender_id", "is_incoming"],
        )?
    {
        owner(ctx, l)?;
        messages(
            ctx,
            l,
            &name,
            cols,
            has_matches && matches.contains("user_name"),
        )?;
    }
    if has_matches {
        conversations(ctx, l, &name, &matches)?;
    }
    Ok(())
}

/// The device's user: the one sender of the outgoing messages, observed as `owner`.
fn owner(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    crate::identity::sole_owner(
        ctx,
        &l.tree,
        &l.path,
        "SELECT DISTINCT sender_id, 'bumble:' || sender_id AS qualified FROM message WHERE is_incoming = 0 AND sender_id IS NOT NULL AND sender_id != '' LIMIT 2",
        "The Bumble user id",
        &format!("the one sender of the outgoing messages in {}", l.name()),
    )
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    names: bool,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let payload = |path: &str| {
        if cols.contains("payload") {
            format!("CASE WHEN json_valid(m.payload) THEN json_extract(m.payload, '{path}') END")
        } else {
            "NULL".into()
        }
    };
    let other = if names && cols.contains("conversation_id") {
        "(SELECT i.user_name FROM conversation_info i WHERE i.user_id = m.conversation_id LIMIT 1)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.created_timestamp AS created, m.sender_id AS sender_id, m.is_incoming AS is_incoming, {}, {}, {}, {}, {}, {} AS text, {} AS url, {other} AS match_name, \
CASE WHEN m.sender_id IS NOT NULL AND m.sender_id != '' THEN 'bumble:' || m.sender_id END AS qualified FROM message m ORDER BY m.created_timestamp, m.rowid",
        c("modified_timestamp"),
        c("recipient_id"),
        c("payload_type"),
        c("conversation_id"),
        c("id"),
        payload("$.text"),
        payload("$.url"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Bumble messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let with = t
            .get(row, "match_name")
            .or(t.get(row, "conversation_id"))
            .unwrap_or("an unknown match")
            .to_string();
        let sent = crate::drafts::stored_flag(t.get(row, "is_incoming")).map(|incoming| !incoming);
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Bumble message sent to {with}"),
                _ => format!("Bumble message from {with}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["sender_id", "recipient_id"] {
            d.fact(FactType::Account, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Name, raw(t, row, "match_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "payload_type").as_deref(), inv);
        for col in ["conversation_id", "id"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        let created = t.get(row, "created");
        match sent {
            Some(s) => d.message_time(created, unix_millis(created), s, inv),
            None => d.time(created, unix_millis(created), "Bumble message created", inv),
        };
        let modified = t.get(row, "modified_timestamp");
        d.time(modified, unix_millis(modified), "Message modified", inv);
        d.interpretation = format!(
            "message row {rid} of {}: a Bumble message in the conversation with {with}, {}; times are Unix milliseconds.",
            l.name(),
            match sent {
                Some(true) => "sent by the device's user (is_incoming 0)",
                Some(false) => "received (is_incoming 1)",
                None => "direction not stored",
            },
        );
        record_draft(ctx, d)?;
        let sender = t.get(row, "sender_id");
        if sent == Some(false)
            && let Some(id) = sender
        {
            observe_columns(
                ctx,
                &format!("bumble:{id}"),
                &with,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Bumble user id"),
                    ("match_name", IdType::DisplayName, "The user name"),
                ],
                &|what| format!("{what} of the sender of a Bumble message ({}).", l.name()),
            )?;
        }
        let (Some(text), Some(s)) = (t.get(row, "text"), sent) else {
            continue;
        };
        let context = if s {
            t.get(row, "recipient_id")
        } else {
            sender
        }
        .map(|id| format!("bumble:{id}"));
        crate::identity::claims_by_direction(
            ctx,
            inv,
            text,
            &format!("Bumble message row {rid} ({})", l.name()),
            s,
            context.as_deref().map(|c| (c, with.as_str())),
        )?;
    }
    Ok(())
}

fn conversations(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, user_id, {}, {}, {}, {}, {}, {}, 'bumble:' || user_id AS qualified FROM conversation_info WHERE user_id IS NOT NULL AND user_id != '' ORDER BY user_id",
        c("user_name"),
        c("age"),
        c("gender"),
        c("game_mode"),
        c("user_image_url"),
        c("encrypted_user_id"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Bumble matches")?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "user_id") else {
            continue;
        };
        let label = t.get(row, "user_name").unwrap_or(id).to_string();
        let mode = match t.get(row, "game_mode") {
            Some("0") => "Bumble Date".to_string(),
            Some("1") => "Bumble Friends".to_string(),
            Some("5") => "Bumble Bizz".to_string(),
            Some(v) => format!("mode {v}"),
            None => "mode not stored".to_string(),
        };
        let mut d = Draft::new("contacts", format!("Bumble match {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "user_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "user_name").as_deref(), inv);
        for col in ["age", "gender", "game_mode"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Url, raw(t, row, "user_image_url").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "encrypted_user_id").as_deref(),
            inv,
        );
        d.interpretation = format!(
            "conversation_info row {} of {}: {label} (user {id}), a person the device's user matched with on Bumble ({mode}); age {}, gender {} (as stored).",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "age").unwrap_or("not stored"),
            t.get(row, "gender").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            &format!("bumble:{id}"),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Bumble user id"),
                ("user_name", IdType::DisplayName, "The user name"),
            ],
            &|what| format!("{what} of {label}, a Bumble match ({}).", l.name()),
        )?;
    }
    Ok(())
}
