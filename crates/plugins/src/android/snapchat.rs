//! Snapchat on Android (`com.snapchat.android/databases/`), the fields of ALEAPP's
//! `get_snapchat_friends` and `get_snapchat_arroyo_messages`:
//!
//! | file, table | phenomenon | fields and identities |
//! |---|---|---|
//! | `main.db` `Friend` | one `contacts` per friend (rows with `addedTimestamp`, as ALEAPP lists them; the others too, said to be without it) | added (Unix ms), user name, user id, display name, phone, birthday; a person `snapchat:<user id>` with `snapchat-username:<user name, lower case>`, the display name and phone |
//! | `arroyo.db` `conversation_message` (with `feed_entry`) | one `messages` per message | created and read (Unix ms), the sender (id; user name and display name from `Friend`), the conversation (id, title), content type as stored, the text of a chat message (`message_content` protobuf 4 › 4 › 2 › 1 where `content_type` is 1, the structure ALEAPP observed; no schema is published), message state, saved, viewed, created on device, remote media count, replies, quoted and client/server message ids; direction by the device's user |
//!
//! The device's user is the one sender of the messages created on the device
//! (`created_on_device`, or on older builds `local_message_content_id` set): ALEAPP's last
//! fallback; its first, `key_user_id` of `user_session_shared_pref.xml`, is not read here. With
//! no single such sender no direction is given. Media is not decrypted; write-ahead-log rows are
//! read as the database gives them (the WAL applied). Schema drift: each table is read with the
//! columns it has; a `message_content` that does not parse loses only its text.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{OwnedParty, artefact_name, observe_columns, pages_on, pages_on_with};
use crate::outputs::{proto_text, raw};

/// Whether `l` is one of Snapchat's databases.
pub fn is_snapchat(l: &Located) -> bool {
    l.path.contains("/com.snapchat.android/databases/")
}

/// A friend: the call that returned it, user name and display name.
type Friend<'a> = (&'a Invoked, Option<String>, Option<String>);

/// Triage of Snapchat's `main.db` (friends first) and `arroyo.db` of each package folder.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let dbs: Vec<&Located> = found.iter().filter(|l| is_snapchat(l)).collect();
    let folder = |l: &Located| l.path.rsplit_once('/').map(|(d, _)| d.to_string());
    for main in dbs.iter().filter(|l| l.name() == "main.db") {
        let mut pages = None;
        ctx.artefact(&artefact_name(&main.tree, &main.path), || {
            pages = friends(ctx, main)?;
            Ok(())
        })?;
        let mut by_id: BTreeMap<String, Friend> = BTreeMap::new();
        for (inv, t, row) in pages.iter().flat_map(|p: &crate::calls::Paged| p.rows()) {
            if let Some(id) = t.get(row, "userId") {
                by_id.insert(
                    id.to_string(),
                    (inv, raw(t, row, "username"), raw(t, row, "displayName")),
                );
            }
        }
        for arroyo in dbs
            .iter()
            .filter(|l| l.name() == "arroyo.db" && l.tree == main.tree && folder(l) == folder(main))
        {
            ctx.artefact(&artefact_name(&arroyo.tree, &arroyo.path), || {
                messages(ctx, arroyo, &by_id)
            })?;
        }
    }
    // an arroyo.db without a main.db beside it
    for arroyo in dbs.iter().filter(|l| {
        l.name() == "arroyo.db"
            && !dbs
                .iter()
                .any(|m| m.name() == "main.db" && m.tree == l.tree && folder(m) == folder(l))
    }) {
        ctx.artefact(&artefact_name(&arroyo.tree, &arroyo.path), || {
            messages(ctx, arroyo, &BTreeMap::new())
        })?;
    }
    Ok(())
}

/// `Friend`: one phenomenon per row; the pages, for the messages' names.
fn friends(ctx: &AgentCtx<'_>, l: &Located) -> Result<Option<crate::calls::Paged>, RuntimeError> {
    if tables_with(ctx, l, &["Friend"])?.is_none() {
        return Ok(None);
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "Friend")?;
    if !require_columns(
        ctx,
        &name,
        "Snapchat's main.db",
        "Friend",
        &cols,
        &["userId"],
    )? {
        return Ok(None);
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let handle = if cols.contains("username") {
        "CASE WHEN username IS NOT NULL AND username != '' THEN 'snapchat-username:' || lower(username) END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT rowid AS rid, userId, 'snapchat:' || userId AS qualified, {handle} AS handle, {}, {}, {}, {}, {} FROM Friend WHERE userId IS NOT NULL AND userId != '' ORDER BY rowid",
        c("username"),
        c("displayName"),
        c("phone"),
        c("birthday"),
        c("addedTimestamp"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(None);
    };
    note_pages_cap(ctx, &name, &pages, "Snapchat friends")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "userId").unwrap_or("?");
        let label = t
            .get(row, "displayName")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "username"))
            .unwrap_or(id)
            .to_string();
        let added = t.get(row, "addedTimestamp");
        let mut d = Draft::new("contacts", format!("Snapchat friend {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "userId").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "username").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "displayName").as_deref(), inv);
        d.fact(FactType::Phone, raw(t, row, "phone").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "birthday").as_deref(), inv);
        d.time(added, unix_millis(added), "Snapchat friend added", inv);
        d.interpretation = format!(
            "Friend row {} of {}: the Snapchat user {label} (user id {id}{}){}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "username")
                .map(|u| format!(", user name {u}"))
                .unwrap_or_default(),
            if added.is_some() {
                "; addedTimestamp is Unix milliseconds"
            } else {
                "; no addedTimestamp (ALEAPP lists only rows with one: the account itself and users the app knows without having added them have none)"
            },
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
                ("displayName", IdType::DisplayName, "The display name"),
                ("phone", IdType::Phone, "The phone"),
            ],
            &|what| {
                format!(
                    "{what} of the Snapchat user {label} ({}, Friend).",
                    l.name()
                )
            },
        )?;
    }
    Ok(Some(pages))
}

/// The device's user: the one sender of the messages created on the device, with the call.
fn local_user(
    ctx: &AgentCtx<'_>,
    l: &Located,
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
    let Some((inv, t)) = crate::identity::query_on(ctx, &l.tree, &l.path, &sql, 2)? else {
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
                l.name()
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

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    friends: &BTreeMap<String, Friend>,
) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["conversation_message"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "conversation_message")?;
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
    let me = local_user(ctx, l, &cols)?;
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    let title = if tables.iter().any(|t| t == "feed_entry")
        && crate::identity::table_columns(ctx, &l.tree, &l.path, "feed_entry")?
            .contains("conversation_title")
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
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Snapchat messages")?;
    for (inv, t, row) in pages.rows() {
        let sender = t.get(row, "sender_id").unwrap_or("?");
        let friend = friends.get(sender);
        let who = friend
            .and_then(|(_, u, d)| d.clone().filter(|d| !d.is_empty()).or(u.clone()))
            .unwrap_or_else(|| sender.to_string());
        let chat = t
            .get(row, "title")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "conversation"))
            .unwrap_or("?");
        let sent = me.as_ref().map(|(_, id)| id == sender);
        let content: Option<serde_json::Value> = t
            .get(row, "message_content")
            .and_then(|p| p.strip_prefix("protobuf:"))
            .and_then(|j| serde_json::from_str(j).ok());
        let text = content
            .as_ref()
            .filter(|_| t.get(row, "content_type") == Some("1"))
            .and_then(|c| proto_text(c, &["4", "4", "2", "1"]));
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Snapchat message sent in {chat}"),
                Some(false) => format!("Snapchat message from {who} in {chat}"),
                None => format!("Snapchat message by {who} in {chat}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
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
            l.name(),
            t.get(row, "content_type").unwrap_or("not stored"),
            match &text {
                Some((x, _)) => format!(", text {x:?} (message_content 4 › 4 › 2 › 1)"),
                None if t.get(row, "content_type") == Some("1") => {
                    ", no text found in message_content".to_string()
                }
                None => ", no text (media or another kind; media is not decrypted)".to_string(),
            },
            match (&me, sent) {
                (Some(_), Some(true)) => "sent by the device's user (the one sender of the messages created on the device)".to_string(),
                (Some(_), _) => "received by the device's user".to_string(),
                (None, _) => "no single sender of the messages created on the device: no direction given".to_string(),
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
                l.name()
            ),
            own,
            &format!(
                "the device's user, who {} it",
                if own { "wrote" } else { "received" }
            ),
            party.as_ref().map(OwnedParty::party),
        )?;
    }
    Ok(())
}
