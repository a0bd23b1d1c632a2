//! Claude on iOS (`com.anthropic.claude`), the fields of iLEAPP's `iOSclaude` artefacts:
//!
//! - `Library/Application Support/ClaudeCache/cache_*.sqlite` of its container: one `messages`
//!   phenomenon per conversation (`conversations`: started and updated — ISO 8601 —, id, name,
//!   model, incognito, starred), per message (`messages`: created, sender, the text parts joined
//!   as iLEAPP joins them, the first file's name, the conversation's name and id) and per
//!   project (`projects` with its `projectDocuments`: created, updated, name, description,
//!   creator, starred, documents and their file names);
//! - `Library/Caches/bootstrap/*.json` (`read_json`): the account ([`crate::claude`]).
//!
//! A message whose sender is `human` is the device's user's prompt (sent; wallet addresses in it
//! are their claims). The account's e-mail and names are the device's user's (`owner`; the
//! e-mail Android's Claude keeps too). Schema drift: each table is read when it has its key
//! columns, the others where present.

use masf_agents::RuntimeError;
use masf_graph::FactType;
use masf_tools::Invoked;
use serde_json::json;

use super::{Draft, Run, Schema, raw};
use crate::drafts::date_text;

/// Triage of Claude's cache stores and start-up caches.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("cache_*.sqlite", |find, path| {
        if path.contains("/Library/Application Support/ClaudeCache/") {
            store(run, find, path)
        } else {
            Ok(())
        }
    })?;
    // the start-up caches: the JSON files of each container's `Library/Caches/bootstrap/`
    let Some((_, dirs)) = run.find_dirs("bootstrap")? else {
        return Ok(());
    };
    for dir in dirs.iter().filter(|d| {
        d.contains("/Containers/Data/Application/") && d.ends_with("/Library/Caches/bootstrap")
    }) {
        let Some(listing) = crate::calls::call_or_note(
            run.ctx,
            dir,
            "find_files",
            json!({"path": dir, "name_glob": "*.json", "limit": 100}),
        )?
        else {
            continue;
        };
        for path in crate::outputs::found_paths(&listing.output.text) {
            bootstrap(run, &listing, &path)?;
        }
    }
    Ok(())
}

fn bootstrap(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(run.ctx, path, "read_json", json!({"path": path}))?
    else {
        return Ok(());
    };
    let doc = crate::outputs::json_document(&inv.output.text);
    // another start-up cache of the folder: no account in it
    let Some(account) = doc
        .as_ref()
        .and_then(|d| d.get("account"))
        .filter(|a| a.is_object())
    else {
        return Ok(());
    };
    crate::claude::account(run.ctx, path, find, &inv, account)
}

fn store(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = ["conversations", "messages", "projects", "projectDocuments"];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if tables[..3].iter().all(|t| schema.columns(t).is_empty()) {
        run.ctx.unparsed(
            path,
            "could not parse Claude's cache because it has none of the tables conversations, messages, projects",
            None,
        )?;
        return Ok(());
    }
    let file = path.rsplit('/').next().unwrap_or(path);
    if !schema.columns("conversations").is_empty()
        && schema.require(run, "conversations", &["id"])?
    {
        conversations(run, find, path, &schema)?;
    }
    if !schema.columns("messages").is_empty() && schema.require(run, "messages", &["content"])? {
        messages(run, find, path, &schema, file)?;
    }
    if !schema.columns("projects").is_empty() && schema.require(run, "projects", &["id"])? {
        projects(run, find, path, &schema)?;
    }
    Ok(())
}

fn conversations(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let c = |x: &str| schema.col("c", "conversations", x);
    let sql = format!(
        "SELECT * FROM (SELECT c.rowid AS rid, c.id AS id, {} AS created, {} AS updated, {} AS name, {} AS model, {} AS incognito, {} AS starred FROM conversations c)",
        c("createdAT"),
        c("updatedAT"),
        c("name"),
        c("model"),
        c("isTemporary"),
        c("isStarred"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    crate::drafts::record_rows(
        run.ctx,
        path,
        find,
        &paged,
        &crate::claude::conversations("conversations"),
        &mut |_, _, _| Ok(()),
    )
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    file: &str,
) -> Result<(), RuntimeError> {
    let m = |x: &str| schema.col("m", "messages", x);
    let cols = schema.columns("messages");
    let conv = |x: &str| {
        if cols.contains("conversationId") && schema.columns("conversations").contains(x) {
            format!("(SELECT c.{x} FROM conversations c WHERE c.id = m.conversationId)")
        } else {
            "NULL".into()
        }
    };
    let file_name = if cols.contains("files") {
        "CASE WHEN json_valid(m.files) THEN json_extract(m.files, '$[0].fileName') END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.rowid AS rid, {} AS created, CASE WHEN json_valid(m.content) THEN (SELECT group_concat(json_extract(je.value, '$.text'), ' ') FROM json_each(m.content) je WHERE json_extract(je.value, '$.type') = 'text') END AS text, {file_name} AS file, {} AS sender, {} AS conversation_name, {} AS conversation FROM messages m)",
        m("createdAT"),
        m("sender"),
        conv("name"),
        m("conversationId"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let sent = t.get(row, "sender") == Some("human");
        let topic = t
            .get(row, "conversation_name")
            .unwrap_or("a conversation")
            .to_string();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Claude prompt in {topic}")
            } else {
                format!(
                    "Claude {} message in {topic}",
                    t.get(row, "sender").unwrap_or("unattributed")
                )
            },
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("sender", FactType::Text, "sender"),
                ("file", FactType::Name, "file"),
                ("conversation_name", FactType::Text, "conversation"),
                ("conversation", FactType::Identifier, "conversation id"),
            ],
        );
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        let at = raw(t, row, "created");
        d.message_time(at.as_deref(), date_text(at.as_deref()), sent, inv);
        d.interpretation = format!(
            "messages row {rid} of {file}: a Claude message {}: {}; the time is ISO 8601.",
            if sent {
                "written by the device's user (sender human)".to_string()
            } else {
                format!(
                    "from the {}",
                    t.get(row, "sender").unwrap_or("sender not stored")
                )
            },
            said.join(", ")
        );
        run.record(d)?;
        if let (true, Some(text)) = (sent, t.get(row, "text")) {
            run.message_claims(
                inv,
                text,
                &format!("a Claude prompt (messages row {rid} of {file})"),
                true,
                None,
                "sender human",
                "sender assistant",
            )?;
        }
    }
    Ok(())
}

fn projects(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let p = |x: &str| schema.col("p", "projects", x);
    let docs = schema.columns("projectDocuments");
    let documents = if docs.contains("projectID") && docs.contains("fileName") {
        "(SELECT group_concat(d.fileName, ', ') FROM projectDocuments d WHERE d.projectID = p.id)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT * FROM (SELECT p.rowid AS rid, {} AS created, {} AS updated, {} AS name, {} AS description, {} AS creator, {} AS starred, {} AS docs, {documents} AS documents FROM projects p)",
        p("createdAt"),
        p("updatedAt"),
        p("name"),
        p("description"),
        p("creatorFullName"),
        p("isStarred"),
        p("docsCount"),
    );
    let Some(paged) = run.paged(path, &sql, "rid")? else {
        return Ok(());
    };
    crate::drafts::record_rows(
        run.ctx,
        path,
        find,
        &paged,
        &crate::claude::projects(
            "projects",
            &[
                ("name", FactType::Text, "name"),
                ("description", FactType::Text, "description"),
                ("creator", FactType::Name, "creator"),
                ("starred", FactType::Count, "starred"),
                ("docs", FactType::Count, "documents"),
                ("documents", FactType::Text, "document file names"),
            ],
        ),
        &mut |_, _, _| Ok(()),
    )
}
