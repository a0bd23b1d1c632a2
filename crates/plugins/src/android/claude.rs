//! Claude on Android (`com.anthropic.claude`), the fields of ALEAPP's `claude` artefacts:
//!
//! - `databases/acc_<account>_claude_cache.db`, its JSON columns read with `json_extract` in the
//!   query: one `messages` phenomenon per conversation (`cachedConversations`: started and
//!   updated — ISO 8601 —, id, name, model, incognito, starred), per message (`cachedMessages`:
//!   created, sender, the text parts joined as ALEAPP joins them, the first file's name, the
//!   conversation's name and id) and per project (`cachedProjects`: created, updated, name,
//!   description, creator, starred, documents and files);
//! - `cache/app_start/acc_<account>/org_<org>/cache.json` (`read_json`): one `accounts`
//!   phenomenon (created, updated, full and display name, e-mail).
//!
//! A message whose sender is `human` is the device's user's prompt (sent; wallet addresses in it
//! are their claims). Identities: the account's e-mail and names are the device's user's
//! (`owner`; the e-mail iOS's Claude account keeps too).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::json;

use super::Located;
use crate::calls::{note_pages_cap, require_columns};
use crate::drafts::{date_text, record_rows};
use crate::identity::{artefact_name, pages_on, schema_on};

/// Whether `l` is one of Claude's cache stores.
pub fn is_store(l: &Located) -> bool {
    l.path.contains("/com.anthropic.claude/databases/")
        && l.name().starts_with("acc_")
        && l.name().ends_with("_claude_cache.db")
}

/// Whether `l` is Claude's start-up cache (the account).
pub fn is_account(l: &Located) -> bool {
    l.path.contains("/com.anthropic.claude/cache/app_start/") && l.name() == "cache.json"
}

/// `json_extract(<col>, '$.<path>') AS <alias>` of each `(path, alias)`.
fn extract(col: &str, spec: &[(&str, &str)]) -> String {
    spec.iter()
        .map(|(p, a)| format!("json_extract({col}, '$.{p}') AS {a}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One cache store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("Claude's {}", l.name());
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    let tables = ["cachedConversations", "cachedMessages", "cachedProjects"];
    if tables.iter().all(|t| table(t).is_none()) {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {store} because it has none of the tables {}",
                tables.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let conversations = match table("cachedConversations") {
        Some(c) => require_columns(
            ctx,
            &name,
            &store,
            "cachedConversations",
            c,
            &["uuid", "conversation_json"],
        )?,
        None => false,
    };
    if conversations {
        let sql = format!(
            "SELECT k.rowid AS rid, k.uuid AS id, {} FROM cachedConversations k WHERE json_valid(k.conversation_json) ORDER BY k.rowid",
            extract(
                "k.conversation_json",
                &[
                    ("created_at", "created"),
                    ("updated_at", "updated"),
                    ("name", "name"),
                    ("model", "model"),
                    ("is_temporary", "incognito"),
                    ("is_starred", "starred")
                ]
            ),
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_pages_cap(ctx, &name, &pages, "Claude conversations")?;
            record_rows(
                ctx,
                &l.path,
                &l.found,
                &pages,
                &crate::claude::conversations("cachedConversations"),
                &mut |_, _, _| Ok(()),
            )?;
        }
    }
    if let Some(c) = table("cachedMessages")
        && require_columns(ctx, &name, &store, "cachedMessages", c, &["message_json"])?
    {
        let conv = |p: &str| {
            if conversations && c.contains("conversation_uuid") {
                format!(
                    "(SELECT json_extract(k.conversation_json, '$.{p}') FROM cachedConversations k WHERE k.uuid = m.conversation_uuid AND json_valid(k.conversation_json))"
                )
            } else {
                "NULL".into()
            }
        };
        let sql = format!(
            "SELECT m.rowid AS rid, {}, (SELECT group_concat(json_extract(je.value, '$.text'), ' ') FROM json_each(m.message_json, '$.content') je WHERE json_extract(je.value, '$.type') = 'text') AS text, {} AS title, {} AS conversation FROM cachedMessages m WHERE json_valid(m.message_json) ORDER BY m.rowid",
            extract(
                "m.message_json",
                &[
                    ("created_at", "created"),
                    ("files[0].file_name", "file"),
                    ("sender", "role"),
                    ("uuid", "id")
                ]
            ),
            conv("name"),
            if c.contains("conversation_uuid") {
                "m.conversation_uuid"
            } else {
                "NULL"
            },
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_pages_cap(ctx, &name, &pages, "Claude messages")?;
            crate::assistants::record(
                ctx,
                &l.path,
                &l.found,
                l.name(),
                &pages,
                &crate::assistants::Messages {
                    app: "Claude",
                    user_role: "human",
                    untitled: "a conversation",
                    fields: &[
                        ("role", FactType::Text, "sender"),
                        ("id", FactType::Identifier, "message id"),
                        ("file", FactType::Name, "file"),
                        ("title", FactType::Text, "conversation"),
                        ("conversation", FactType::Identifier, "conversation id"),
                    ],
                    texts: &["text"],
                    at: &["created"],
                    times: &[],
                    encoding: (date_text, "ISO 8601"),
                    row: &|t, row| {
                        format!("cachedMessages row {}", t.get(row, "rid").unwrap_or("?"))
                    },
                },
            )?;
        }
    }
    if let Some(c) = table("cachedProjects")
        && require_columns(ctx, &name, &store, "cachedProjects", c, &["project_json"])?
    {
        let sql = format!(
            "SELECT p.rowid AS rid, {} FROM cachedProjects p WHERE json_valid(p.project_json) ORDER BY p.rowid",
            extract(
                "p.project_json",
                &[
                    ("created_at", "created"),
                    ("updated_at", "updated"),
                    ("name", "name"),
                    ("description", "description"),
                    ("creator.full_name", "creator"),
                    ("is_starred", "starred"),
                    ("docs_count", "docs"),
                    ("files_count", "files")
                ]
            ),
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_pages_cap(ctx, &name, &pages, "Claude projects")?;
            record_rows(
                ctx,
                &l.path,
                &l.found,
                &pages,
                &crate::claude::projects(
                    "cachedProjects",
                    &[
                        ("name", FactType::Text, "name"),
                        ("description", FactType::Text, "description"),
                        ("creator", FactType::Name, "creator"),
                        ("starred", FactType::Count, "starred"),
                        ("docs", FactType::Count, "documents"),
                        ("files", FactType::Count, "files"),
                    ],
                ),
                &mut |_, _, _| Ok(()),
            )?;
        }
    }
    Ok(())
}

/// The account of the start-up cache (see the module documentation).
pub fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_json",
        crate::identity::args_on(&l.tree, json!({"path": l.path})),
    )?
    else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text);
    let Some(account) = doc
        .as_ref()
        .and_then(|d| d.get("response")?.get("account"))
        .filter(|a| a.is_object())
    else {
        ctx.unparsed(
            &name,
            "could not parse Claude's start-up cache because it has no response.account",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    crate::claude::account(ctx, &l.path, &l.found, &inv, account)
}
