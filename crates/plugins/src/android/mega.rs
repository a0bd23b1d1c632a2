//! MEGA's chat (`mega.privacy.android.app/karere-<session>.db`, the MEGAchat SDK's cache),
//! ALEAPP's `mega` (`get_mega`): the chat history the app keeps in the clear, its contacts and
//! chats.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `contacts` | one `contacts` per MEGA user ("MEGA contact <e-mail>") | user handle, e-mail, visibility, since (Unix s) |
//! | `chats` | one `messages` per chat ("MEGA chat <title>") | chat id, title, the peer's handle (one-to-one), own privilege, created and last seen (Unix s) |
//! | `history` | one `messages` per history entry ("MEGA message from <e-mail>") | time (Unix s), the sender's handle and e-mail (`contacts`), chat id and title, message id, type (1 message, 2 joined, 6 call ended, 7 call started, 101 attachment — ALEAPP's names; other codes as stored), the text of a message (`data` as text), the name of an attached file (`data` after its two-byte header, JSON, `$[0].name`), updated, encrypted |
//!
//! A row marked `is_encrypted` (not decrypted yet) has no text read. Identities: each contact is
//! a `mega:<handle>` person with the handle as account id and the e-mail address. The sender of
//! a message is named by its e-mail where `contacts` holds it. Columns are taken by name (absent
//! ones NULL); a store without `history` is noted.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_seconds};
use crate::identity::{artefact_name, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is a MEGA chat cache.
pub fn is_store(l: &Located) -> bool {
    l.path.contains("/mega.privacy.android.app/")
        && l.name().starts_with("karere-")
        && l.name().ends_with(".db")
}

/// What a history `type` is (ALEAPP's names).
fn kind(code: Option<&str>) -> &'static str {
    match code {
        Some("1") => "message",
        Some("2") => "joined the group chat",
        Some("6") => "group call ended",
        Some("7") => "group call started",
        Some("101") => "attachment",
        _ => "history entry",
    }
}

/// One `karere-*.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(history) = schema.get("history") else {
        ctx.unparsed(&name, "not MEGA's chat cache: no history table", None)?;
        return Ok(());
    };
    if let Some(contacts) = schema.get("contacts")
        && contacts.contains("userid")
    {
        let c = |col: &str| column_or_null(contacts, "", col, col);
        let sql = format!(
            "SELECT rowid AS row, userid, {}, {}, {} FROM contacts ORDER BY rowid",
            c("email"),
            c("visibility"),
            c("since"),
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_pages_cap(ctx, &name, &pages, "MEGA contacts")?;
            for (inv, t, row) in pages.rows() {
                let Some(user) = raw(t, row, "userid") else {
                    continue;
                };
                let email = raw(t, row, "email");
                let label = email.clone().unwrap_or_else(|| user.clone());
                let mut d = Draft::new("contacts", format!("MEGA contact {label}"));
                d.fact(FactType::Path, Some(&l.path), &l.found);
                d.fact(FactType::Account, Some(&user), inv);
                d.fact(FactType::Email, email.as_deref(), inv);
                d.fact(FactType::Text, t.get(row, "visibility"), inv);
                let since = t.get(row, "since");
                d.time(since, unix_seconds(since), "MEGA contact since", inv);
                d.interpretation = format!(
                    "contacts row {} of {name}: a MEGA user the account knows from its chats (handle {user}{}, visibility {} as stored); since is Unix seconds.",
                    t.get(row, "row").unwrap_or("?"),
                    email
                        .as_deref()
                        .map(|e| format!(", {e}"))
                        .unwrap_or_default(),
                    t.get(row, "visibility").unwrap_or("?"),
                );
                record_draft(ctx, d)?;
                crate::identity::observe_columns(
                    ctx,
                    &format!("mega:{user}"),
                    &label,
                    t,
                    row,
                    inv,
                    &[
                        ("userid", IdType::AccountId, "The MEGA user handle"),
                        ("email", IdType::Email, "The e-mail address"),
                    ],
                    &|what| format!("{what} of the MEGA user {label} (contacts of {name})."),
                )?;
            }
        }
    }
    let chats = schema
        .get("chats")
        .filter(|c| c.contains("chatid"))
        .cloned();
    if let Some(cols) = &chats {
        let c = |col: &str| column_or_null(cols, "", col, col);
        let sql = format!(
            "SELECT rowid AS row, chatid, {}, {}, {}, {}, {} FROM chats ORDER BY rowid",
            c("title"),
            c("peer"),
            c("own_priv"),
            c("ts_created"),
            c("last_seen"),
        );
        if let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? {
            note_pages_cap(ctx, &name, &pages, "MEGA chats")?;
            for (inv, t, row) in pages.rows() {
                let id = t.get(row, "chatid").unwrap_or_default();
                let shown = raw(t, row, "title").unwrap_or_else(|| id.to_string());
                let mut d = Draft::new("messages", format!("MEGA chat {shown}"));
                d.fact(FactType::Path, Some(&l.path), &l.found);
                let said = d.fields(
                    t,
                    row,
                    inv,
                    &[
                        ("chatid", FactType::Identifier, "chat id"),
                        ("title", FactType::Name, "title"),
                        ("peer", FactType::Account, "peer"),
                        ("own_priv", FactType::Text, "own privilege"),
                    ],
                );
                d.times_of(
                    t,
                    row,
                    inv,
                    unix_seconds,
                    &[
                        ("ts_created", "MEGA chat created"),
                        ("last_seen", "MEGA chat last seen"),
                    ],
                );
                d.interpretation = format!(
                    "chats row {} of {name}: a MEGA chat of the account ({}); times are Unix seconds.",
                    t.get(row, "row").unwrap_or("?"),
                    said.join("; "),
                );
                record_draft(ctx, d)?;
            }
        }
    }
    if !crate::calls::require_columns(
        ctx,
        &name,
        "MEGA's chat cache",
        "history",
        history,
        &["ts", "type", "data"],
    )? {
        return Ok(());
    }
    let h = |col: &str| column_or_null(history, "h.", col, col);
    let contacts_join = schema
        .get("contacts")
        .is_some_and(|c| c.contains("userid") && c.contains("email"))
        && history.contains("userid");
    let (email, join) = if contacts_join {
        (
            "c.email AS email",
            " LEFT JOIN contacts c ON c.userid = h.userid",
        )
    } else {
        ("NULL AS email", "")
    };
    let (title, chat_join) = match &chats {
        Some(cols) if cols.contains("title") && history.contains("chatid") => (
            "ch.title AS chat_title",
            " LEFT JOIN chats ch ON ch.chatid = h.chatid",
        ),
        _ => ("NULL AS chat_title", ""),
    };
    let clear = if history.contains("is_encrypted") {
        "coalesce(h.is_encrypted, 0) = 0"
    } else {
        "1"
    };
    let sql = format!(
        "SELECT h.rowid AS row, h.ts, h.type, {}, {email}, {}, {title}, {}, {}, {}, CASE WHEN h.type = 1 AND {clear} THEN CAST(h.data AS TEXT) END AS text, CASE WHEN h.type = 101 AND {clear} AND json_valid(CAST(substr(h.data, 3) AS TEXT)) THEN json_extract(CAST(substr(h.data, 3) AS TEXT), '$[0].name') END AS attachment FROM history h{join}{chat_join} ORDER BY h.ts, h.rowid",
        h("userid"),
        h("chatid"),
        h("msgid"),
        h("updated"),
        h("is_encrypted"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "MEGA chat history")?;
    for (inv, t, row) in pages.rows() {
        let what = kind(t.get(row, "type"));
        let from = raw(t, row, "email").or_else(|| raw(t, row, "userid"));
        let mut d = Draft::new(
            "messages",
            format!(
                "MEGA {what}{}",
                from.as_deref()
                    .map(|f| format!(" from {f}"))
                    .unwrap_or_default()
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("userid", FactType::Account, "sender handle"),
                ("email", FactType::Email, "sender"),
                ("chatid", FactType::Identifier, "chat"),
                ("chat_title", FactType::Name, "chat title"),
                ("msgid", FactType::Identifier, "message id"),
                ("text", FactType::Text, "text"),
                ("attachment", FactType::Name, "attached file"),
                ("updated", FactType::Text, "updated"),
            ],
        );
        d.fact(FactType::Text, t.get(row, "type"), inv);
        let ts = t.get(row, "ts");
        d.time(ts, unix_seconds(ts), "MEGA chat entry", inv);
        d.interpretation = format!(
            "history row {} of {name}: a MEGA chat {what} (type {}) ({}){}; ts is Unix seconds.",
            t.get(row, "row").unwrap_or("?"),
            t.get(row, "type").unwrap_or("?"),
            said.join("; "),
            if t.get(row, "is_encrypted").is_some_and(|e| e != "0") {
                "; still encrypted in the cache, so no text is read"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
