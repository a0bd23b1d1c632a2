//! Knuddels (`com.knuddels.android/databases/knuddels<nickname>`, the account's nickname
//! URL-encoded in the file's name), ALEAPP's `knuddels` (`knuddels_chats`, `knuddels_contacts`):
//! the German chat community's messages and the users the app knows.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `users` | one `contacts` per user ("Knuddels user <nickname>") | nickname, user id (`uid`), internal id, age, sex and friend-list type as stored, image version, online status, profile image hidden, distance, last active (Unix ms) |
//! | `thread` (⟕ `users` on `sender` = `id`, ⟕ `conversations` on `cid` = `id`) | one `messages` per message ("Knuddels message from <nickname> in chat <cid>") | the text, when (Unix ms), the sender's nickname, user id and internal id, the chat, its participants, message id, snap expired; a text carrying the app's snap marker (`°>{Snap}`) or GIF marker (`°>…<°`) is said to be a snap or a GIF |
//!
//! Identities: the file's name is the account's nickname (`knuddels` and the nickname
//! URL-encoded, as ALEAPP reads it): the `users` row of that nickname is the device's user
//! (`owner`: the nickname, and `knuddels:<uid>` where the table keeps `uid`), and a message
//! whose sender has it is the user's (sent), any other received. Every other user is a
//! `knuddels:<uid>` person (`knuddels-nick:<nickname>` where the older table keeps no `uid`)
//! with the nickname. The qualified id is written by the query, so it grounds. Sex and the
//! friend-list type are said as stored (ALEAPP reads sex 1 as male, 2 as female, from its own
//! tests). Wallet addresses in a text are claims by its direction. A file with neither
//! `thread` nor `users` is noted, and so is a `thread` without `cid`, `sender`, `message` or
//! `timestamp` or a `users` without `id` or `nickname`.

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, qualified_or_null, require_columns};
use crate::drafts::{Draft, RowPhenomena, record_draft, unix_millis};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};

/// The folder the stores are in.
const DIR: &str = "/com.knuddels.android/databases/";

/// The prefix of a store's name (the nickname follows).
const PREFIX: &str = "knuddels";

/// Whether `l` is a Knuddels chat store (not its journal or write-ahead log).
pub fn is_store(l: &Located) -> bool {
    let name = l.name();
    l.path.contains(DIR)
        && name
            .get(..PREFIX.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(PREFIX))
        && !name.ends_with("-wal")
        && !name.ends_with("-shm")
        && !name.ends_with("-journal")
}

/// The nickname a store is named after (`knuddels<nickname>`, `+` and `%XX` decoded), `None`
/// when the name carries none.
fn owner_nickname(file: &str) -> Option<String> {
    let rest = file.get(PREFIX.len()..).filter(|r| !r.is_empty())?;
    let nick = percent_encoding::percent_decode_str(&rest.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned();
    (!nick.trim().is_empty()).then_some(nick)
}

/// The entity a user row names: the owner's, else `knuddels:<uid>`, else by nickname.
fn context_of(
    t: &crate::outputs::Table,
    row: &[Option<String>],
    me: Option<&str>,
) -> Option<String> {
    let nick = t.get(row, "nickname");
    if me.is_some() && nick == me {
        return Some("owner".into());
    }
    t.get(row, "qualified")
        .map(str::to_string)
        .or_else(|| nick.map(|n| format!("knuddels-nick:{n}")))
}

/// What a message's text is, by the app's markers.
fn kind(text: Option<&str>) -> &'static str {
    match text {
        Some(x) if x.contains("\u{b0}>{Snap}") => "a snap (a picture that expires; its marker)",
        Some(x) if x.contains("\u{b0}>") && x.contains("<\u{b0}") => "a GIF (its marker)",
        _ => "a text",
    }
}

/// One `knuddels<nickname>` store.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let (users, thread) = (schema.get("users"), schema.get("thread"));
    if users.is_none() && thread.is_none() {
        ctx.unparsed(
            &name,
            "not a Knuddels chat store: neither thread nor users",
            None,
        )?;
        return Ok(());
    }
    let me = owner_nickname(l.name());
    let users = match users {
        Some(u) => require_columns(
            ctx,
            &name,
            "Knuddels' chat store",
            "users",
            u,
            &["id", "nickname"],
        )?
        .then_some(u),
        None => None,
    };
    if let Some(u) = users {
        known_users(ctx, l, u, me.as_deref())?;
    }
    let Some(thread) = thread else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &name,
        "Knuddels' chat store",
        "thread",
        thread,
        &["cid", "sender", "message", "timestamp"],
    )? {
        return Ok(());
    }
    messages(
        ctx,
        l,
        thread,
        users,
        schema.get("conversations"),
        me.as_deref(),
    )
}

/// The users the app knows, the account's own among them.
fn known_users(
    ctx: &AgentCtx<'_>,
    l: &Located,
    users: &BTreeSet<String>,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(users, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, id, nickname, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM users ORDER BY rowid",
        c("uid"),
        qualified_or_null(users, "", "uid", "knuddels", "qualified"),
        c("age"),
        c("sex"),
        c("img_version"),
        c("friedlisttype"),
        c("onlinestatus"),
        c("lastactivetime"),
        c("profileimagehidden"),
        c("distance"),
    );
    let title = |t: &crate::outputs::Table, row: &[Option<String>]| {
        format!(
            "Knuddels user {}",
            t.get(row, "nickname")
                .or(t.get(row, "id"))
                .unwrap_or_default()
        )
    };
    let file = l.name();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "users",
            category: "contacts",
            what: "a Knuddels user the app knows (sex and friend-list type as stored; last active Unix milliseconds)",
            title: &title,
            fields: &[
                ("nickname", FactType::Account, "nickname"),
                ("uid", FactType::Account, "user id"),
                ("id", FactType::Identifier, "internal id"),
                ("age", FactType::Text, "age"),
                ("sex", FactType::Text, "sex"),
                ("img_version", FactType::Text, "image version"),
                ("friedlisttype", FactType::Text, "friend-list type"),
                ("onlinestatus", FactType::Text, "online status"),
                ("profileimagehidden", FactType::Text, "profile image hidden"),
                ("distance", FactType::Text, "distance"),
            ],
            times: &[("lastactivetime", "Last active on Knuddels", unix_millis)],
        },
        &mut |inv, t, row| {
            let Some(context) = context_of(t, row, me) else {
                return Ok(());
            };
            let own = context == "owner";
            let label = if own {
                "device owner"
            } else {
                t.get(row, "nickname").unwrap_or(context.as_str())
            };
            observe_columns(
                ctx,
                &context,
                label,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Knuddels user id"),
                    ("nickname", IdType::Nickname, "The Knuddels nickname"),
                ],
                &|what| {
                    if own {
                        format!(
                            "{what} of the account the store is named after ({file}: knuddels and the nickname), the device's user."
                        )
                    } else {
                        format!("{what} of a Knuddels user the app knows (users of {file}).")
                    }
                },
            )
        },
    )
}

/// One phenomenon per message of `thread`.
fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    thread: &BTreeSet<String>,
    users: Option<&BTreeSet<String>>,
    conversations: Option<&BTreeSet<String>>,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let (who, ujoin) = match users {
        Some(u) => (
            format!(
                "u.nickname AS nickname, {}, {}",
                column_or_null(u, "u.", "uid", "uid"),
                qualified_or_null(u, "u.", "uid", "knuddels", "qualified"),
            ),
            " LEFT JOIN users u ON u.id = t.sender",
        ),
        None => (
            "NULL AS nickname, NULL AS uid, NULL AS qualified".to_string(),
            "",
        ),
    };
    let (participants, cjoin) = match conversations {
        Some(c) if c.contains("id") && c.contains("participants") => (
            "c.participants AS participants",
            " LEFT JOIN conversations c ON c.id = t.cid",
        ),
        _ => ("NULL AS participants", ""),
    };
    let sql = format!(
        "SELECT t.rowid AS rid, {}, t.cid AS cid, t.sender AS sender, {who}, t.message AS message, t.timestamp AS timestamp, {}, {participants} FROM thread t{ujoin}{cjoin} ORDER BY t.timestamp, t.rowid",
        column_or_null(thread, "t.", "id", "message_id"),
        column_or_null(thread, "t.", "snapExpired", "snap_expired"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Knuddels messages")?;
    for (inv, t, row) in pages.rows() {
        let nick = t.get(row, "nickname");
        let from = nick.or(t.get(row, "sender")).unwrap_or("?");
        let chat = t.get(row, "cid").unwrap_or("?");
        // known only where the store's name gives the account and the sender is named
        let sent = me.zip(nick).map(|(m, n)| m == n);
        let text = t.get(row, "message");
        let mut d = Draft::new(
            "messages",
            format!("Knuddels message from {from} in chat {chat}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("message", FactType::Text, "text"),
                ("nickname", FactType::Account, "sender"),
                ("uid", FactType::Account, "sender's user id"),
                ("sender", FactType::Identifier, "sender's internal id"),
                ("cid", FactType::Identifier, "chat"),
                ("participants", FactType::Text, "participants"),
                ("message_id", FactType::Identifier, "message id"),
                ("snap_expired", FactType::Text, "snap expired"),
            ],
        );
        let at = t.get(row, "timestamp");
        match sent {
            Some(s) => d.message_time(at, unix_millis(at), s, inv),
            None => d.time(at, unix_millis(at), "Knuddels message", inv),
        };
        d.interpretation = format!(
            "thread row {} of {name}: {} in the Knuddels chat {chat} ({}); {}. The time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            kind(text),
            said.join("; "),
            match (sent, me) {
                (Some(true), Some(m)) => format!(
                    "sent by the device's user: its sender is {m}, the nickname the store is named after"
                ),
                (Some(false), Some(m)) => format!(
                    "received: its sender is not {m}, the nickname the store is named after"
                ),
                _ => "who wrote it is not known to be the device's user: the store's name gives no nickname or the sender is not in users".to_string(),
            },
        );
        record_draft(ctx, d)?;
        if let (Some(x), Some(s)) = (text, sent) {
            let other = if s { None } else { context_of(t, row, me) };
            crate::identity::claims_by_direction(
                ctx,
                inv,
                x,
                &format!("Knuddels message in chat {chat} ({name})"),
                s,
                other.as_deref().map(|c| (c, from)),
            )?;
        }
    }
    Ok(())
}
