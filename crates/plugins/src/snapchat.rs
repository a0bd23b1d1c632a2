//! Snapchat's chat store `arroyo.db`, the same SQLite layout on both platforms: Android
//! `com.snapchat.android/databases/arroyo.db` and iOS
//! `…/Documents/user_scoped/<id>/arroyo/arroyo.db`, with the fields of ALEAPP's and iLEAPP's
//! arroyo message artefacts:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `conversation_message` (with `feed_entry`) | one `messages` per message (and one per message the write-ahead log, the file's replaced pages or its free space still hold, recorded as recovered, read as a live one is) | created and read (Unix ms), the sender (id; user name and display name from the friends the platform's reader gives), the conversation (id, title), content type as stored, the text of a chat message (`message_content` protobuf 4 › 4 › 2 › 1 where `content_type` is 1, the structure both modules observed; no schema is published), message state, saved, viewed, created on device, remote media count, replies, quoted and client/server message ids; direction by the device's user; the sender `snapchat:<user id>` (the id both platforms keep); wallet addresses in a text are claims of its writer |
//!
//! The device's user is the account the app's preferences name where the platform's reader
//! finds it (Android's `key_user_id` of `user_session_shared_pref.xml`, both modules' first
//! source), else the one sender of the messages created on the device (`created_on_device`, or
//! on older builds `local_message_content_id` set), their last fallback; iOS's
//! `Documents/user.plist` is not read. With no single such sender no direction is given. Media is not decrypted;
//! write-ahead-log rows are read as the database gives them (the WAL applied). Schema drift:
//! the table is read with the columns it has; a `message_content` that does not parse loses
//! only its text.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{
    OwnedParty, TreeRef, artefact_name, observe_columns, pages_on_with, query_on, table_columns,
    tables_on,
};
use crate::outputs::{proto_text, raw};

/// A friend of the platform's friend list: the call that returned it, user name and display
/// name.
pub type Friend<'a> = (&'a Invoked, Option<String>, Option<String>);

/// Whether `path` is a Snapchat chat store (`arroyo.db` in Snapchat's Android databases or an
/// iOS container's `user_scoped/<id>/arroyo/`).
pub fn is_arroyo(path: &str) -> bool {
    path.ends_with("/arroyo.db")
        && (path.contains("/com.snapchat.android/databases/")
            || (path.contains("/Documents/user_scoped/") && path.ends_with("/arroyo/arroyo.db")))
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The device's user: the one sender of the messages created on the device, with the call.
fn local_user(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<Option<(Invoked, String)>, RuntimeError> {
    let mine = if cols.contains("created_on_device") {
        "created_on_device = 1"
    } else if cols.contains("local_message_content_id") {
        "local_message_content_id IS NOT NULL"
    } else {
        return Ok(None);
    };
    let sql = format!(
        "SELECT DISTINCT sender_id, 'snapchat:' || sender_id AS qualified FROM conversation_message WHERE {mine} AND sender_id IS NOT NULL AND sender_id != ''"
    );
    let Some((inv, t)) = query_on(ctx, tree, path, &sql, 2)? else {
        return Ok(None);
    };
    let [row] = t.rows.as_slice() else {
        return Ok(None);
    };
    let Some(id) = t.get(row, "sender_id").map(str::to_string) else {
        return Ok(None);
    };
    observe_columns(
        ctx,
        "owner",
        "device owner",
        &t,
        row,
        &inv,
        &[("qualified", IdType::AccountId, "The Snapchat user id")],
        &|what| {
            format!(
                "{what} of the device's user: the one sender of the messages created on the device ({}, conversation_message {mine}).",
                file_name(path)
            )
        },
    )?;
    Ok(Some((inv, id)))
}

const MESSAGE_COLUMNS: &[&str] = &[
    "read_timestamp",
    "content_type",
    "message_state_type",
    "is_saved",
    "is_viewed_by_user",
    "created_on_device",
    "remote_media_count",
    "replies_count",
    "quoted_server_message_id",
    "client_message_id",
    "server_message_id",
];

/// How a sender is named: the friend's display name, else user name, else the id.
fn friend_name(friend: Option<&Friend>, sender: &str) -> String {
    friend
        .and_then(|(_, u, d)| d.clone().filter(|d| !d.is_empty()).or(u.clone()))
        .unwrap_or_else(|| sender.to_string())
}

/// The text of a chat message (`content_type` 1): `message_content`, written by the `protobuf`
/// option, at 4 › 4 › 2 › 1 — the text and the cell it is cited from.
fn chat_text(t: &crate::outputs::Table, row: &[Option<String>]) -> Option<(String, String)> {
    if t.get(row, "content_type") != Some("1") {
        return None;
    }
    let content: serde_json::Value = t
        .get(row, "message_content")
        .and_then(|p| p.strip_prefix("protobuf:"))
        .and_then(|j| serde_json::from_str(j).ok())?;
    proto_text(&content, &["4", "4", "2", "1"])
}

pub fn arroyo(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    friends: &BTreeMap<String, Friend>,
    owner: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some((tinv, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    if !tables.iter().any(|t| t == "conversation_message") {
        ctx.unparsed(
            &name,
            &format!(
                "unexpected schema: no table conversation_message (tables: {})",
                if tables.is_empty() {
                    "none".to_string()
                } else {
                    tables.join(", ")
                }
            ),
            Some(&tinv.record.invocation_id),
        )?;
        return Ok(());
    }
    let cols = table_columns(ctx, tree, path, "conversation_message")?;
    if !require_columns(
        ctx,
        &name,
        "Snapchat's arroyo.db",
        "conversation_message",
        &cols,
        &["client_conversation_id", "sender_id", "creation_timestamp"],
    )? {
        return Ok(());
    }
    // the device's user: as the app's preferences name it (observed by the platform's reader),
    // else the one sender of the messages created on the device
    let (me, how) = match owner {
        Some(id) => (
            Some(id.to_string()),
            "the account the app's preferences name",
        ),
        None => (
            local_user(ctx, tree, path, &cols)?.map(|(_, id)| id),
            "the one sender of the messages created on the device",
        ),
    };
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    let title = if tables.iter().any(|t| t == "feed_entry")
        && table_columns(ctx, tree, path, "feed_entry")?.contains("conversation_title")
    {
        "(SELECT f.conversation_title FROM feed_entry f WHERE f.client_conversation_id = m.client_conversation_id)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.client_conversation_id AS conversation, m.sender_id AS sender_id, 'snapchat:' || m.sender_id AS qualified, m.creation_timestamp AS created, {}, {}, {title} AS title FROM conversation_message m ORDER BY m.creation_timestamp, m.rowid",
        MESSAGE_COLUMNS
            .iter()
            .map(|col| c(col))
            .collect::<Vec<_>>()
            .join(", "),
        c("message_content"),
    );
    let Some(pages) = pages_on_with(ctx, tree, path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Snapchat messages")?;
    for (inv, t, row) in pages.rows() {
        let sender = t.get(row, "sender_id").unwrap_or("?");
        let friend = friends.get(sender);
        let who = friend_name(friend, sender);
        let chat = t
            .get(row, "title")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "conversation"))
            .unwrap_or("?");
        let sent = me.as_ref().map(|id| id == sender);
        let text = chat_text(t, row);
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Snapchat message sent in {chat}"),
                Some(false) => format!("Snapchat message from {who} in {chat}"),
                None => format!("Snapchat message by {who} in {chat}"),
            },
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Account, raw(t, row, "sender_id").as_deref(), inv);
        if let Some((finv, username, display)) = friend {
            d.fact(FactType::Account, username.as_deref(), finv);
            d.fact(FactType::Name, display.as_deref(), finv);
        }
        d.fact(
            FactType::Identifier,
            raw(t, row, "conversation").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "title").as_deref(), inv);
        if let Some((_, cited)) = &text {
            d.fact(FactType::Text, Some(cited), inv);
        }
        d.fact(
            FactType::Text,
            raw(t, row, "message_state_type").as_deref(),
            inv,
        );
        for col in [
            "content_type",
            "is_saved",
            "is_viewed_by_user",
            "created_on_device",
            "remote_media_count",
            "replies_count",
        ] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        for col in [
            "quoted_server_message_id",
            "client_message_id",
            "server_message_id",
        ] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        let created = t.get(row, "created");
        match sent {
            Some(s) => d.message_time(created, unix_millis(created), s, inv),
            None => d.time(created, unix_millis(created), "Message created", inv),
        };
        let read = t.get(row, "read_timestamp");
        d.time(read, unix_millis(read), "Message read", inv);
        d.interpretation = format!(
            "conversation_message row {} of {}: a Snapchat message by {who} ({sender}) in the conversation {chat}, content type {} (as stored){}; {}; saved {}, viewed {}; times are Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            file_name(path),
            t.get(row, "content_type").unwrap_or("not stored"),
            match &text {
                Some((x, _)) => format!(", text {x:?} (message_content 4 › 4 › 2 › 1)"),
                None if t.get(row, "content_type") == Some("1") => {
                    ", no text found in message_content".to_string()
                }
                None => ", no text (media or another kind; media is not decrypted)".to_string(),
            },
            match (&me, sent) {
                (Some(_), Some(true)) => format!("sent by the device's user ({how})"),
                (Some(_), _) => format!("received by the device's user ({how})"),
                (None, _) => "no account named by the app's preferences and no single sender of the messages created on the device: no direction given".to_string(),
            },
            t.get(row, "is_saved").unwrap_or("not stored"),
            t.get(row, "is_viewed_by_user").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        let own = sent == Some(true);
        if !own {
            observe_columns(
                ctx,
                &format!("snapchat:{sender}"),
                &who,
                t,
                row,
                inv,
                &[("qualified", IdType::AccountId, "The Snapchat user id")],
                &|what| format!("{what} of the sender of a Snapchat message in {chat}."),
            )?;
        }
        // wallet claims: a received message's writer is its sender; a sent one's reader is
        // unknown in a group, so only the sender's side is said
        let Some((text, _)) = text.filter(|(x, _)| !x.is_empty()) else {
            continue;
        };
        if sent.is_none() {
            continue;
        }
        let party = (!own).then(|| OwnedParty {
            context: format!("snapchat:{sender}"),
            label: who.clone(),
            role: format!("{who}, who sent it"),
        });
        crate::identity::message_claims(
            ctx,
            inv,
            &text,
            &format!(
                "Snapchat message {} ({})",
                t.get(row, "rid").unwrap_or("?"),
                file_name(path)
            ),
            own,
            &format!(
                "the device's user, who {} it",
                if own { "wrote" } else { "received" }
            ),
            party.as_ref().map(OwnedParty::party),
        )?;
    }
    recovered(ctx, tree, path, found, friends, me.as_deref())
}

/// The messages `conversation_message` no longer shows that the write-ahead log, the file's
/// replaced pages or its free space still hold (`sqlite_wal_history` with its `protobuf`
/// option): each recorded as recovered with its sender (named from the friends), conversation,
/// the text of a chat message, state and times, as a live one is read.
fn recovered(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    friends: &BTreeMap<String, Friend>,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let Some((inv, t)) =
        crate::recovered::wal_rows_on(ctx, tree, path, "conversation_message", &["protobuf"])?
    else {
        return Ok(());
    };
    for row in &t.rows {
        let sender = t.get(row, "sender_id").unwrap_or("?");
        let friend = friends.get(sender);
        let who = friend_name(friend, sender);
        let chat = t.get(row, "client_conversation_id").unwrap_or("?");
        let sent = me.map(|id| id == sender);
        let text = chat_text(&t, row);
        let key = crate::recovered::key(&t, row, "rowid");
        let mut d = Draft::new(
            "messages",
            format!(
                "{} Snapchat message {key} {} (recovered)",
                crate::recovered::title_word(t.get(row, "status")),
                match sent {
                    Some(true) => format!("sent in {chat}"),
                    _ => format!("from {who} in {chat}"),
                }
            ),
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Text, raw(&t, row, "status").as_deref(), &inv);
        d.fact(
            FactType::Account,
            raw(&t, row, "sender_id").as_deref(),
            &inv,
        );
        if let Some((finv, username, display)) = friend {
            d.fact(FactType::Account, username.as_deref(), finv);
            d.fact(FactType::Name, display.as_deref(), finv);
        }
        d.fact(
            FactType::Identifier,
            raw(&t, row, "client_conversation_id").as_deref(),
            &inv,
        );
        if let Some((_, cited)) = &text {
            d.fact(FactType::Text, Some(cited), &inv);
        }
        d.fact(
            FactType::Text,
            raw(&t, row, "message_state_type").as_deref(),
            &inv,
        );
        for col in ["client_message_id", "server_message_id"] {
            d.fact(FactType::Identifier, raw(&t, row, col).as_deref(), &inv);
        }
        let created = t.get(row, "creation_timestamp");
        match sent {
            Some(s) => d.message_time(created, unix_millis(created), s, &inv),
            None => d.time(created, unix_millis(created), "Message created", &inv),
        };
        let read = t.get(row, "read_timestamp");
        d.time(read, unix_millis(read), "Message read", &inv);
        d.interpretation = format!(
            "conversation_message row {key} of {}: a Snapchat message by {who} ({sender}) in the conversation {chat}, content type {}{}: {}; times are Unix milliseconds.",
            file_name(path),
            t.get(row, "content_type").unwrap_or("not stored"),
            match &text {
                Some((x, _)) => format!(", text {x:?} (message_content 4 › 4 › 2 › 1)"),
                None => String::new(),
            },
            crate::recovered::provenance(&t, row)
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// Whether `path` is an iOS Snapchat account's document store
/// (`…/Documents/user_scoped/<id>/DocObjects/primary.docobjects`).
pub fn is_docobjects(path: &str) -> bool {
    path.ends_with("/DocObjects/primary.docobjects") && path.contains("/user_scoped/")
}

/// The friends an iOS Snapchat account keeps (`primary.docobjects`, iLEAPP's Snapchat
/// "Friends"): one `contacts` phenomenon per `snapchatter` row — the user id and the user names
/// the store's own index tables hold (`index_snapchatterusername`, `…mutableUsername`,
/// `…legacyUsername`, joined on rowid; an older store has only the first, absent ones NULL) —
/// observed as `snapchat:<user id>` with `snapchat-username:<name>`, as Android's friends are.
/// The display name sits in the row's FlatBuffers document (`p`), which is not read. The pages,
/// for the messages' senders; `None` when the store has no `snapchatter` table (noted: stores
/// of iOS 12 and 13 predate it).
pub fn docobjects_friends(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<Option<crate::calls::Paged>, RuntimeError> {
    let Some((_, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(None);
    };
    let name = artefact_name(tree, path);
    if !tables.iter().any(|t| t == "snapchatter") {
        ctx.unparsed(
            &name,
            "no snapchatter table: Snapchat's document store of this generation (iOS 12 and 13 era) keeps no friends table",
            None,
        )?;
        return Ok(None);
    }
    let cols = table_columns(ctx, tree, path, "snapchatter")?;
    if !require_columns(
        ctx,
        &name,
        "Snapchat's primary.docobjects",
        "snapchatter",
        &cols,
        &["userId"],
    )? {
        return Ok(None);
    }
    let mut selects = Vec::new();
    let mut joins = Vec::new();
    for (table, col) in [
        ("index_snapchatterusername", "username"),
        ("index_snapchattermutableUsername", "mutableUsername"),
        ("index_snapchatterlegacyUsername", "legacyUsername"),
    ] {
        if tables.iter().any(|t| t == table) {
            selects.push(format!("{table}.{col} AS {col}"));
            joins.push(format!(
                " LEFT JOIN {table} ON {table}.rowid = snapchatter.rowid"
            ));
        } else {
            selects.push(format!("NULL AS {col}"));
        }
    }
    let user = if selects[0].starts_with("NULL") {
        "NULL"
    } else {
        "index_snapchatterusername.username"
    };
    let sql = format!(
        "SELECT snapchatter.rowid AS rid, snapchatter.userId AS userId, 'snapchat:' || snapchatter.userId AS qualified, CASE WHEN {user} IS NOT NULL AND {user} != '' THEN 'snapchat-username:' || lower({user}) END AS handle, NULL AS displayName, {} FROM snapchatter{} WHERE snapchatter.userId IS NOT NULL AND snapchatter.userId != '' ORDER BY snapchatter.rowid",
        selects.join(", "),
        joins.concat(),
    );
    let Some(pages) = crate::identity::pages_on(ctx, tree, path, &sql)? else {
        return Ok(None);
    };
    note_pages_cap(ctx, &name, &pages, "Snapchat friends")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "userId").unwrap_or("?");
        let label = t
            .get(row, "username")
            .filter(|n| !n.is_empty())
            .unwrap_or(id)
            .to_string();
        let mut d = Draft::new("contacts", format!("Snapchat friend {label}"));
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("userId", FactType::Account, "user id"),
                ("username", FactType::Account, "user name"),
                ("mutableUsername", FactType::Account, "changeable user name"),
                ("legacyUsername", FactType::Account, "former user name"),
            ],
        );
        d.interpretation = format!(
            "snapchatter row {} of {name}: a Snapchat user the account knows, a friend or the account itself ({}); the display name is in the row's FlatBuffers document, not read; no time is kept.",
            t.get(row, "rid").unwrap_or("?"),
            said.join("; "),
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            &format!("snapchat:{id}"),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Snapchat user id"),
                ("handle", IdType::AccountId, "The Snapchat user name"),
            ],
            &|what| format!("{what} of the Snapchat user {label} (snapchatter of {name})."),
        )?;
    }
    Ok(Some(pages))
}
