//! ChatGPT on Android (`com.openai.chatgpt`), the fields of ALEAPP's `get_chatgpt`,
//! `get_chatgpt_conversations`, `get_chatpgt2` and `get_chatgpt_user`:
//!
//! - `databases/<account>_conversations.db`: one `messages` phenomenon per conversation
//!   (`DBConversation`'s JSON: id, remote id, created and modified — ISO 8601 —, title,
//!   moderation results, GPT id, has title) and one per message, of either generation: the
//!   older `DBMessage.messageNode` JSON (role, text, date, role name, attachments, model, and
//!   the complete, blocked, flagged, interrupted, user-system and voice flags) or the newer
//!   `DBMessageChunk` rows, each message's chunks joined in `chunkIndex` order in the query and
//!   read as JSON there (created and modified, conversation, text, references, role);
//! - `files/datastore/<account>_user.preferences_pb` (`read_protobuf`): one `accounts`
//!   phenomenon from the JSON the DataStore keeps at 1 › 2 › 5 (user id, e-mail, name).
//!
//! A message whose role is `user` is the device's user's prompt (sent); wallet addresses in it
//! are their claims. Identities: the account's e-mail is the device's user's (`owner`; the
//! e-mail iOS's ChatGPT account keeps too). Schema drift: each table is read when it has its
//! key columns.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::Value;

use super::Located;
use crate::calls::{note_pages_cap, require_columns};
use crate::drafts::{Draft, date_text, record_draft};
use crate::identity::{artefact_name, pages_on, schema_on};
use crate::outputs::{in_json, json_scalar};

/// Whether `l` is one of ChatGPT's conversation stores.
pub fn is_store(l: &Located) -> bool {
    l.path.contains("/com.openai.chatgpt/databases/") && l.name().ends_with("conversations.db")
}

/// Whether `l` is ChatGPT's user preferences (a DataStore protocol buffer).
pub fn is_user(l: &Located) -> bool {
    l.path.contains("/com.openai.chatgpt/files/datastore/")
        && l.name().ends_with("_user.preferences_pb")
}

/// The JSON of a message: the conversation's title and the message's fields, as aliases.
fn message_columns(json: &str, text: &str) -> String {
    let j = |p: &str, a: &str| format!("json_extract({json}, '$.content.{p}') AS {a}");
    [
        j("role", "role"),
        format!("{text} AS text"),
        j("date", "date"),
        j("created_date", "created"),
        j("modification_date", "modified"),
        j("conversation_id", "conversation"),
        j("role_name", "role_name"),
        j("attachments", "attachments"),
        j("model", "model"),
        j("is_complete", "complete"),
        j("is_blocked", "blocked"),
        j("is_flagged", "flagged"),
        j("is_interrupted", "interrupted"),
        j("is_user_system_message", "user_system"),
        j("is_voice_message", "voice"),
        j("content.references", "refs"),
    ]
    .join(", ")
}

/// One conversations store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("ChatGPT's {}", l.name());
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    if ["DBConversation", "DBMessage", "DBMessageChunk"]
        .iter()
        .all(|t| table(t).is_none())
    {
        ctx.unparsed(
            &name,
            &format!("could not parse {store} because it has none of the tables DBConversation, DBMessage, DBMessageChunk"),
            None,
        )?;
        return Ok(());
    }
    let conversations = match table("DBConversation") {
        Some(c) => require_columns(
            ctx,
            &name,
            &store,
            "DBConversation",
            c,
            &["id", "conversation"],
        )?,
        None => false,
    };
    if conversations {
        read_conversations(ctx, l, &name)?;
    }
    let title = |id: &str| {
        if conversations {
            format!(
                "(SELECT json_extract(k.conversation, '$.title') FROM DBConversation k WHERE k.id = {id} AND json_valid(k.conversation))"
            )
        } else {
            "NULL".into()
        }
    };
    if let Some(c) = table("DBMessage")
        && c.contains("messageNode")
        && require_columns(ctx, &name, &store, "DBMessage", c, &["id"])?
    {
        let conv = if c.contains("conversationId") {
            "m.conversationId"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT m.rowid AS rid, m.id AS message_id, {conv} AS conversation_row, {} AS title, {} FROM DBMessage m WHERE json_valid(m.messageNode) ORDER BY m.rowid",
            title(conv),
            message_columns(
                "m.messageNode",
                "json_extract(m.messageNode, '$.content.content.content')"
            ),
        );
        messages(ctx, l, &name, &sql)?;
    }
    if let Some(c) = table("DBMessageChunk")
        && require_columns(
            ctx,
            &name,
            &store,
            "DBMessageChunk",
            c,
            &["messageId", "chunkIndex", "chunk"],
        )?
    {
        // each message's chunks joined in their order: the message's JSON
        let body = "(SELECT group_concat(p.part, '') FROM (SELECT CAST(x.chunk AS TEXT) AS part FROM DBMessageChunk x WHERE x.messageId = m.messageId ORDER BY x.chunkIndex) p)";
        let text = "CASE WHEN json_type(b.body, '$.content.content') = 'object' THEN COALESCE(json_extract(b.body, '$.content.content.content'), json_extract(b.body, '$.content.content')) ELSE json_extract(b.body, '$.content.content') END";
        let sql = format!(
            "SELECT b.rid, b.message_id, NULL AS conversation_row, {} AS title, {} FROM (SELECT min(m.rowid) AS rid, m.messageId AS message_id, {body} AS body FROM DBMessageChunk m GROUP BY m.messageId) b WHERE json_valid(b.body) ORDER BY b.rid",
            title("json_extract(b.body, '$.content.conversation_id')"),
            message_columns("b.body", text),
        );
        messages(ctx, l, &name, &sql)?;
    }
    Ok(())
}

fn read_conversations(ctx: &AgentCtx<'_>, l: &Located, name: &str) -> Result<(), RuntimeError> {
    let j = |p: &str, a: &str| format!("json_extract(k.conversation, '$.{p}') AS {a}");
    let sql = format!(
        "SELECT k.rowid AS rid, k.id AS row_id, {}, {}, {}, {}, {}, {}, {}, {} FROM DBConversation k WHERE json_valid(k.conversation) ORDER BY k.rowid",
        j("id", "id"),
        j("remote_id", "remote_id"),
        j("creation_date", "created"),
        j("modification_date", "modified"),
        j("title", "title"),
        j("moderation_results", "moderation"),
        j("gizmo_id", "gizmo"),
        j("has_title", "has_title"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "ChatGPT conversations")?;
    for (inv, t, row) in pages.rows() {
        let topic = t
            .get(row, "title")
            .unwrap_or("an untitled conversation")
            .to_string();
        let mut d = Draft::new("messages", format!("ChatGPT conversation {topic}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("title", FactType::Text, "title"),
                ("row_id", FactType::Identifier, "row id"),
                ("id", FactType::Identifier, "id"),
                ("remote_id", FactType::Identifier, "remote id"),
                ("moderation", FactType::Text, "moderation results"),
                ("gizmo", FactType::Identifier, "GPT id"),
                ("has_title", FactType::Count, "has title"),
            ],
        );
        for (col, what) in [
            ("created", "ChatGPT conversation created"),
            ("modified", "ChatGPT conversation modified"),
        ] {
            let v = t.get(row, col);
            d.time(v, date_text(v), what, inv);
        }
        d.interpretation = format!(
            "DBConversation row {} of {}: a ChatGPT conversation: {}; the times are ISO 8601.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn messages(ctx: &AgentCtx<'_>, l: &Located, name: &str, sql: &str) -> Result<(), RuntimeError> {
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "ChatGPT messages")?;
    crate::assistants::record(
        ctx,
        &l.path,
        &l.found,
        l.name(),
        &pages,
        &crate::assistants::Messages {
            app: "ChatGPT",
            user_role: "user",
            untitled: "a conversation",
            fields: &[
                ("message_id", FactType::Identifier, "message id"),
                ("conversation_row", FactType::Identifier, "conversation"),
                ("conversation", FactType::Identifier, "conversation"),
                ("title", FactType::Text, "conversation title"),
                ("role", FactType::Text, "role"),
                ("role_name", FactType::Text, "role name"),
                ("model", FactType::Text, "model"),
                ("complete", FactType::Count, "complete"),
                ("blocked", FactType::Count, "blocked"),
                ("flagged", FactType::Count, "flagged"),
                ("interrupted", FactType::Count, "interrupted"),
                ("user_system", FactType::Count, "user system message"),
                ("voice", FactType::Count, "voice message"),
            ],
            // the text, attachments and references as stored: facts, too long to say
            texts: &["text", "attachments", "refs"],
            at: &["date", "created"],
            times: &[("modified", "ChatGPT message modified")],
            encoding: (date_text, "ISO 8601"),
            row: &|t, row| {
                format!(
                    "A message of the conversation \"{}\"",
                    t.get(row, "title").unwrap_or("not titled")
                )
            },
        },
    )
}

/// The user preferences (see the module documentation).
pub fn user(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
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
    let info = crate::outputs::protobuf_document(&inv.output.text).and_then(|d| {
        let value = d.get("1")?.get(0)?.get("2")?.get(0)?;
        let s = match value {
            Value::Object(_) => value.get("5")?.get(0)?.as_str()?.to_string(),
            // a short value message is printable as a whole, so the tool prints it as text:
            // field 5's tag ('*'), its one-byte length, then the JSON
            Value::String(t) => {
                let b = t.as_bytes();
                (b.len() > 2 && b[0] == b'*' && usize::from(b[1]) == b.len() - 2)
                    .then(|| t[2..].to_string())?
            }
            _ => return None,
        };
        serde_json::from_str::<Value>(&s).ok()
    });
    let Some(info) = info.filter(Value::is_object) else {
        ctx.unparsed(
            &name,
            "could not parse ChatGPT's user preferences because no JSON is at 1 > 2 > 5, where ALEAPP reads it",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    // a value of the JSON text the protocol buffer holds, as the output prints it (escaped twice)
    let v = |k: &str| json_scalar(info.get(k)).map(|x| in_json(&x));
    let (id, email, full) = (v("id"), v("email"), v("name"));
    let mut d = Draft::new(
        "accounts",
        format!(
            "ChatGPT account {}",
            email.as_deref().or(id.as_deref()).unwrap_or("not named")
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, id.as_deref(), &inv);
    d.fact(FactType::Email, email.as_deref(), &inv);
    d.fact(FactType::Name, full.as_deref(), &inv);
    d.interpretation = format!(
        "{}: the ChatGPT account signed in on the device (the JSON its DataStore keeps at 1 > 2 > 5): user id {}, e-mail {}, name {}.",
        l.name(),
        id.as_deref().unwrap_or("not stored"),
        email.as_deref().unwrap_or("not stored"),
        full.as_deref().unwrap_or("not stored"),
    );
    record_draft(ctx, d)?;
    crate::identity::observe_owner_ids(
        ctx,
        &inv,
        vec![
            (email, IdType::Email, "e-mail"),
            (full, IdType::DisplayName, "name"),
        ],
        &|what| {
            format!(
                "The {what} of the ChatGPT account signed in on the device ({}).",
                l.name()
            )
        },
    )
}
