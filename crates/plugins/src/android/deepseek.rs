//! DeepSeek on Android (`com.deepseek.chat`), the fields of ALEAPP's `deepseek_user_info`,
//! `deepseek_chat_info` and `deepseek_chat_messages`, from `databases/deepseek_chat.db` (the
//! signed-in user) and `databases/deepseek_chat_<user>.db` (the chats), each table read where
//! present:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `app_user_info` | one `accounts` | user id, e-mail, mobile number; whether a token is stored (never copied) |
//! | `chat_session_list` | one `messages` per chat | id, title, updated (Unix seconds) |
//! | `chat_session_messages_<chat id>` (one table per chat) | one `messages` per message | inserted (Unix seconds), role, the `REQUEST` and `RESPONSE` fragments' text joined as ALEAPP joins them, the chat's title |
//!
//! A message whose role is `USER` is the device's user's prompt (sent; wallet addresses in it
//! are their claims). Identities: the account's e-mail and mobile number are the device's
//! user's (`owner`).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, record_rows, unix_seconds};
use crate::identity::{artefact_name, pages_on, schema_on};

/// Whether `l` is one of DeepSeek's stores.
pub fn is_store(l: &Located) -> bool {
    l.path.contains("/com.deepseek.chat/databases/")
        && l.name().starts_with("deepseek_chat")
        && l.name().ends_with(".db")
}

/// The prefix of the tables that hold one chat's messages each.
const MESSAGES: &str = "chat_session_messages_";

/// One DeepSeek store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("DeepSeek's {}", l.name());
    let chats: Vec<&String> = schema.keys().filter(|t| t.starts_with(MESSAGES)).collect();
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    if table("app_user_info").is_none() && table("chat_session_list").is_none() && chats.is_empty()
    {
        ctx.unparsed(
            &name,
            &format!("could not parse {store} because it has no app_user_info, chat_session_list or {MESSAGES}* table"),
            None,
        )?;
        return Ok(());
    }
    if let Some(cols) = table("app_user_info")
        && require_columns(ctx, &name, &store, "app_user_info", cols, &["id"])?
    {
        let c = |col: &str, alias: &str| column_or_null(cols, "u.", col, alias);
        let token = if cols.contains("token") {
            "CASE WHEN u.token IS NOT NULL AND u.token != '' THEN 'stored' END"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT u.rowid AS rid, u.id AS user_id, {}, {}, {token} AS token FROM app_user_info u ORDER BY u.rowid",
            c("email", "email"),
            c("mobile_number", "mobile"),
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_pages_cap(ctx, &name, &pages, "DeepSeek users")?;
            for (inv, t, row) in pages.rows() {
                let who = t
                    .get(row, "email")
                    .or(t.get(row, "mobile"))
                    .or(t.get(row, "user_id"))
                    .unwrap_or("?")
                    .to_string();
                let mut d = Draft::new("accounts", format!("DeepSeek account {who}"));
                d.fact(FactType::Path, Some(&l.path), &l.found);
                let said = d.fields(
                    t,
                    row,
                    inv,
                    &[
                        ("user_id", FactType::Account, "user id"),
                        ("email", FactType::Email, "e-mail"),
                        ("mobile", FactType::Phone, "mobile number"),
                    ],
                );
                d.interpretation = format!(
                    "app_user_info row {} of {}: the DeepSeek account signed in on the device: {}; {}.",
                    t.get(row, "rid").unwrap_or("?"),
                    l.name(),
                    said.join(", "),
                    if t.get(row, "token").is_some() {
                        "a login token is stored (not copied)"
                    } else {
                        "no login token stored"
                    },
                );
                record_draft(ctx, d)?;
                crate::identity::observe_columns(
                    ctx,
                    "owner",
                    "device owner",
                    t,
                    row,
                    inv,
                    &[
                        ("email", IdType::Email, "The e-mail address"),
                        ("mobile", IdType::Phone, "The mobile number"),
                    ],
                    &|what| {
                        format!(
                            "{what} of the DeepSeek account signed in on the device (app_user_info of {}).",
                            l.name()
                        )
                    },
                )?;
            }
        }
    }
    let titled =
        table("chat_session_list").is_some_and(|c| c.contains("id") && c.contains("title"));
    if let Some(cols) = table("chat_session_list")
        && require_columns(ctx, &name, &store, "chat_session_list", cols, &["id"])?
    {
        let sql = format!(
            "SELECT k.rowid AS rid, k.id AS id, {}, {} FROM chat_session_list k ORDER BY k.rowid",
            column_or_null(cols, "k.", "title", "title"),
            column_or_null(cols, "k.", "updated_at", "updated"),
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_pages_cap(ctx, &name, &pages, "DeepSeek chats")?;
            record_rows(
                ctx,
                &l.path,
                &l.found,
                &pages,
                &RowPhenomena {
                    table: "chat_session_list",
                    category: "messages",
                    what: "a DeepSeek chat (its update time Unix seconds)",
                    title: &|t, row| {
                        format!(
                            "DeepSeek chat {}",
                            t.get(row, "title").unwrap_or("not titled")
                        )
                    },
                    fields: &[
                        ("id", FactType::Identifier, "id"),
                        ("title", FactType::Text, "title"),
                    ],
                    times: &[("updated", "DeepSeek chat updated", unix_seconds)],
                },
                &mut |_, _, _| Ok(()),
            )?;
        }
    }
    for chat_table in chats {
        let cols = &schema[chat_table];
        if !require_columns(ctx, &name, &store, chat_table, cols, &["role", "fragments"])? {
            continue;
        }
        // the chat's id is the table's suffix; its title from the chat list
        let chat = &chat_table[MESSAGES.len()..];
        let title = if titled {
            format!(
                "(SELECT k.title FROM chat_session_list k WHERE k.id = '{}')",
                chat.replace('\'', "''")
            )
        } else {
            "NULL".into()
        };
        let sql = format!(
            "SELECT m.rowid AS rid, m.role AS role, {}, CASE WHEN json_valid(m.fragments) THEN (SELECT group_concat(json_extract(f.value, '$.content'), char(10) || char(10)) FROM json_each(m.fragments) f WHERE json_extract(f.value, '$.type') IN ('REQUEST', 'RESPONSE')) ELSE m.fragments END AS content, {title} AS title FROM \"{}\" m ORDER BY m.rowid",
            column_or_null(cols, "m.", "inserted_at", "inserted"),
            chat_table.replace('"', "\"\""),
        );
        let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
            continue;
        };
        note_pages_cap(
            ctx,
            &name,
            &pages,
            &format!("DeepSeek messages of {chat_table}"),
        )?;
        crate::assistants::record(
            ctx,
            &l.path,
            &l.found,
            l.name(),
            &pages,
            &crate::assistants::Messages {
                app: "DeepSeek",
                user_role: "USER",
                untitled: chat,
                fields: &[
                    ("role", FactType::Text, "role"),
                    ("title", FactType::Text, "chat"),
                ],
                texts: &["content"],
                at: &["inserted"],
                times: &[],
                encoding: (unix_seconds, "Unix seconds"),
                row: &|t, row| format!("{chat_table} row {}", t.get(row, "rid").unwrap_or("?")),
            },
        )?;
    }
    Ok(())
}
