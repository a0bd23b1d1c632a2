//! Skout (`com.skout.android/databases/skoutDatabase`), the fields of ALEAPP's
//! `get_skout_messages` and `get_skout_users`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `skoutMessagesTable` (with `skoutUsersTable`) | one `messages` per message | time (Unix ms), the sender's id and user name, text, type, picture and gift URLs, thread id; a sender with no cached user row is the device's user, as ALEAPP reads it ("(local user)") |
//! | `skoutUsersTable` | one `contacts` per user | last message (Unix ms), user name, picture URL, user id; a `skout:<user id>` person |
//!
//! The device's user is the one sender without a cached user row (`owner`, `skout:<user id>`).
//! Schema drift: each table is read when it has its key columns, the others where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is Skout's store.
pub fn is_skout(l: &Located) -> bool {
    l.path.contains("/com.skout.android/databases/") && l.name() == "skoutDatabase"
}

const STORE: &str = "Skout's skoutDatabase";

/// One `skoutDatabase`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !schema.contains_key("skoutMessagesTable") && !schema.contains_key("skoutUsersTable") {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {STORE} because it has neither skoutMessagesTable nor skoutUsersTable"
            ),
            None,
        )?;
        return Ok(());
    }
    let users = match schema.get("skoutUsersTable") {
        Some(cols) => {
            require_columns(ctx, &name, STORE, "skoutUsersTable", cols, &["userId"])?
                && users_of(ctx, l, &name, cols)?
        }
        None => false,
    };
    if let Some(cols) = schema.get("skoutMessagesTable")
        && require_columns(
            ctx,
            &name,
            STORE,
            "skoutMessagesTable",
            cols,
            &["timestamp", "fromUserID"],
        )?
    {
        if users {
            crate::identity::sole_owner(
                ctx,
                &l.tree,
                &l.path,
                "SELECT DISTINCT fromUserID, 'skout:' || fromUserID AS qualified FROM skoutMessagesTable WHERE fromUserID IS NOT NULL AND fromUserID NOT IN (SELECT userId FROM skoutUsersTable WHERE userId IS NOT NULL) LIMIT 2",
                "The Skout user id",
                &format!(
                    "the one sender in {} without a cached user row (ALEAPP's local user)",
                    l.name()
                ),
            )?;
        }
        messages(ctx, l, &name, cols, users)?;
    }
    Ok(())
}

/// The cached users; whether they could be read.
fn users_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<bool, RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, userId, {}, {}, {}, CASE WHEN userId IS NOT NULL AND userId != '' THEN 'skout:' || userId END AS qualified FROM skoutUsersTable ORDER BY rowid",
        c("userName"),
        c("picUrl"),
        c("lastMessageTimestamp"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(false);
    };
    note_pages_cap(ctx, name, &pages, "Skout users")?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "userId") else {
            continue;
        };
        let label = t.get(row, "userName").unwrap_or(id).to_string();
        let mut d = Draft::new("contacts", format!("Skout user {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "userId").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "userName").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "picUrl").as_deref(), inv);
        let last = t.get(row, "lastMessageTimestamp");
        d.time(last, unix_millis(last), "Last Skout message", inv);
        d.interpretation = format!(
            "skoutUsersTable row {} of {}: {label} (user {id}), a Skout user the device's user exchanged messages with; lastMessageTimestamp is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            &format!("skout:{id}"),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Skout user id"),
                ("userName", IdType::DisplayName, "The user name"),
            ],
            &|what| format!("{what} of {label}, a Skout user ({}).", l.name()),
        )?;
    }
    Ok(true)
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    users: bool,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let (sender_name, local) = if users {
        (
            "(SELECT u.userName FROM skoutUsersTable u WHERE u.userId = m.fromUserID LIMIT 1)",
            "CASE WHEN EXISTS (SELECT 1 FROM skoutUsersTable u WHERE u.userId = m.fromUserID) THEN 0 ELSE 1 END",
        )
    } else {
        ("NULL", "NULL")
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.timestamp AS time, m.fromUserID AS sender, {sender_name} AS sender_name, {local} AS sent, {}, {}, {}, {}, {}, \
CASE WHEN m.fromUserID IS NOT NULL AND m.fromUserID != '' THEN 'skout:' || m.fromUserID END AS qualified FROM skoutMessagesTable m ORDER BY m.timestamp, m.rowid",
        c("message"),
        c("type"),
        c("pictureUrl"),
        c("giftUrl"),
        c("chatId"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Skout messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let sender = t.get(row, "sender");
        let who = t
            .get(row, "sender_name")
            .or(sender)
            .unwrap_or("an unknown sender")
            .to_string();
        let chat = t
            .get(row, "chatId")
            .unwrap_or("an unknown thread")
            .to_string();
        let sent = crate::drafts::stored_flag(t.get(row, "sent"));
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Skout message sent in thread {chat}"),
                _ => format!("Skout message from {who} in thread {chat}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "sender").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "message").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "type").as_deref(), inv);
        for col in ["pictureUrl", "giftUrl"] {
            d.fact(FactType::Url, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Identifier, raw(t, row, "chatId").as_deref(), inv);
        let time = t.get(row, "time");
        match sent {
            Some(s) => d.message_time(time, unix_millis(time), s, inv),
            None => d.time(time, unix_millis(time), "Skout message", inv),
        };
        d.interpretation = format!(
            "skoutMessagesTable row {rid} of {}: a Skout message in thread {chat}, {}; timestamp is Unix milliseconds.",
            l.name(),
            match sent {
                Some(true) => "sent by the device's user (its sender has no cached user row, ALEAPP's local user)".to_string(),
                Some(false) => format!("received from {who}"),
                None => "direction unknown (no users table)".to_string(),
            },
        );
        record_draft(ctx, d)?;
        if sent == Some(false)
            && let Some(id) = sender
        {
            observe_columns(
                ctx,
                &format!("skout:{id}"),
                &who,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Skout user id"),
                    ("sender_name", IdType::DisplayName, "The user name"),
                ],
                &|what| format!("{what} of the sender of a Skout message ({}).", l.name()),
            )?;
        }
        let (Some(text), Some(s)) = (t.get(row, "message"), sent) else {
            continue;
        };
        let context = sender.map(|id| format!("skout:{id}"));
        crate::identity::claims_by_direction(
            ctx,
            inv,
            text,
            &format!("Skout message row {rid} ({})", l.name()),
            s,
            context.as_deref().filter(|_| !s).map(|c| (c, who.as_str())),
        )?;
    }
    Ok(())
}
