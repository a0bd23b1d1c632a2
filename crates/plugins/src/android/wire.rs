//! Wire on Android (`com.wire`), the fields of ALEAPP's `get_wire_profile`, `get_wire_contacts`,
//! `get_wire_messages` and `get_wire_proteus_sessions`:
//!
//! - the legacy app's plain-SQLite store `databases/<account's user id>` (a UUID, no
//!   extension):
//!
//!   | table | phenomenon | fields |
//!   |---|---|---|
//!   | `Users` | one `accounts` (`connection` `self`, the device's user) or `contacts` per user | user id, name, handle, e-mail, phone, connection and its time (Unix ms), picture id, domain |
//!   | `Clients` | one `accounts` per client (a device registered to a user; every client of the JSON list, where ALEAPP reports the self user's first) | client id, label, model, device class, verification, registered (Unix ms), the user's name |
//!   | `Messages` (with `Users`, `Conversations`, `Assets2` or `Assets`, `Likings`) | one `messages` per message | time (Unix ms), message id, type, the first content part's text and the rest, call duration (ms), the asset's name, the sender's name and handle, the conversation and its name, each like (liker, time) |
//!   | `MsgDeletion` | one `messages` per deleted message | message id, deleted (Unix ms) |
//!
//! - the current app's `databases/user-db-…` (SQLCipher, its key in the Android keystore):
//!   detected and noted, not read;
//! - its Proteus session files (`app_accounts/<domain>/<account>/proteus/sessions/<user
//!   id>@<domain>_<client id>`, legacy `files/otr/<account>/sessions/<user id>_<client id>`),
//!   readable whatever the store: one `contacts` per file, naming the other party's user id,
//!   domain and client and the local account (a session says an encrypted channel with that
//!   client exists, not that a message was exchanged).
//!
//! Identities: a user is `wire:<user id>` (the id iOS's Wire keeps, computed in the query) with
//! `wire:@<handle>`, name, e-mail and phone; the user whose `connection` is `self` is the
//! device's user (`owner`), and a message is outgoing when that user sent it. Wallet addresses
//! in a message are claims by direction. A session file's user id is no identity here: it is
//! read from the file's name, which no tool qualifies. Schema drift: each table is read when it
//! has its key columns, the others where present.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on, schema_on};
use crate::outputs::raw;

/// Whether a name is a UUID (the legacy store is named by the account's user id).
fn uuid_named(name: &str) -> bool {
    name.len() == 36
        && name.char_indices().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

/// Whether `l` is the legacy app's store.
pub fn is_store(l: &Located) -> bool {
    l.path.contains("/com.wire/databases/") && uuid_named(l.name())
}

/// Whether `l` is the current app's encrypted store (not its journal files).
pub fn is_encrypted(l: &Located) -> bool {
    let n = l.name();
    l.path.contains("/com.wire/databases/")
        && n.starts_with("user-db-")
        && !["-wal", "-shm", "-journal"].iter().any(|s| n.ends_with(s))
}

/// The session of a Proteus session file: (local account, other user id, domain, client id).
fn session(path: &str) -> Option<(&str, &str, Option<&str>, &str)> {
    let (dir, name) = path.rsplit_once('/')?;
    let account = if let Some(d) = dir.strip_suffix("/proteus/sessions") {
        d.rsplit('/').next()?
    } else if let Some(d) = dir.strip_suffix("/sessions") {
        let (parent, account) = d.rsplit_once('/')?;
        parent.ends_with("/files/otr").then_some(account)?
    } else {
        return None;
    };
    if !path.contains("/com.wire/") {
        return None;
    }
    let (user, client) = name.rsplit_once('_')?;
    let (user, domain) = match user.split_once('@') {
        Some((u, d)) => (u, Some(d)),
        None => (user, None),
    };
    (uuid_named(user) && !client.is_empty()).then_some((account, user, domain, client))
}

/// Whether `l` is a Proteus session file.
pub fn is_session(l: &Located) -> bool {
    session(&l.path).is_some()
}

/// The current app's store: detected and said.
pub fn encrypted(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    super::wechat::encrypted(
        ctx,
        l,
        "Wire",
        "its key is kept in the Android keystore (the app's Proteus session files are read instead)",
    )
}

/// One Proteus session file.
pub fn proteus(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((account, user, domain, client)) = session(&l.path) else {
        return Ok(());
    };
    let mut d = Draft::new(
        "contacts",
        format!("Wire encryption session with user {user}"),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    for v in [Some(user), Some(client), Some(account)] {
        d.fact(FactType::Identifier, v, &l.found);
    }
    d.fact(FactType::Text, domain, &l.found);
    d.interpretation = format!(
        "{}: a Proteus session file of Wire's account {account}: the device holds an end-to-end encryption session with client {client} of the user {user}{}. It says the channel exists, not that a message was exchanged.",
        l.name(),
        domain.map(|d| format!(" of {d}")).unwrap_or_default(),
    );
    record_draft(ctx, d)
}

/// One legacy store.
pub fn store(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let store = format!("Wire's {}", l.name());
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    if table("Users").is_none() && table("Messages").is_none() {
        ctx.unparsed(
            &name,
            &format!("could not parse {store} because it has neither a Users nor a Messages table"),
            None,
        )?;
        return Ok(());
    }
    let users_ok = match table("Users") {
        Some(cols) => require_columns(ctx, &name, &store, "Users", cols, &["_id", "connection"])?,
        None => false,
    };
    let empty = BTreeSet::new();
    let user_cols = table("Users").unwrap_or(&empty);
    if users_ok {
        users(ctx, l, &name, user_cols)?;
    }
    if let Some(cols) = table("Clients")
        && require_columns(ctx, &name, &store, "Clients", cols, &["_id", "data"])?
    {
        clients(ctx, l, &name, users_ok)?;
    }
    if let Some(cols) = table("Messages")
        && require_columns(ctx, &name, &store, "Messages", cols, &["_id", "time"])?
    {
        messages(ctx, l, &name, &schema, cols, users_ok.then_some(user_cols))?;
    }
    if let Some(cols) = table("MsgDeletion")
        && require_columns(ctx, &name, &store, "MsgDeletion", cols, &["message_id"])?
    {
        deletions(ctx, l, &name, cols)?;
    }
    Ok(())
}

fn users(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let handle = if cols.contains("handle") {
        "handle"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT _id AS id, 'wire:' || _id AS user, connection, {}, {}, {}, {}, {}, {}, {}, CASE WHEN {handle} != '' THEN 'wire:@' || {handle} END AS at FROM Users ORDER BY rowid",
        c("name"),
        c("handle"),
        c("email"),
        c("phone"),
        c("conn_timestamp"),
        c("picture"),
        c("domain"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Wire users")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?").to_string();
        let own = t.get(row, "connection") == Some("self");
        let who = t
            .get(row, "name")
            .or(t.get(row, "handle"))
            .unwrap_or(&id)
            .to_string();
        let mut d = if own {
            Draft::new("accounts", format!("Wire account {who}"))
        } else {
            Draft::new("contacts", format!("Wire user {who}"))
        };
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(&id), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "handle").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
        d.fact(FactType::Phone, raw(t, row, "phone").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "connection").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "picture").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "domain").as_deref(), inv);
        let at = t.get(row, "conn_timestamp");
        d.time(at, unix_millis(at), "Wire connection", inv);
        d.interpretation = format!(
            "Users row {id} of {}: {} (connection {}); the connection time is Unix milliseconds.",
            l.name(),
            if own {
                format!("the Wire account of the device's user, {who}")
            } else {
                format!("the Wire user {who}, whom the account knows")
            },
            t.get(row, "connection").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        let (context, label) = if own {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (format!("wire:{id}"), who.clone())
        };
        crate::identity::observe_columns(
            ctx,
            &context,
            &label,
            t,
            row,
            inv,
            &[
                ("user", IdType::AccountId, "The Wire user id"),
                ("at", IdType::AccountId, "The Wire handle"),
                ("name", IdType::DisplayName, "The name"),
                ("email", IdType::Email, "The e-mail address"),
                ("phone", IdType::Phone, "The phone number"),
            ],
            &|what| {
                format!(
                    "{what} of {} (Users row {id} of Wire's store).",
                    if own {
                        "the Wire account of the device's user".to_string()
                    } else {
                        format!("the Wire user {who}")
                    }
                )
            },
        )?;
    }
    Ok(())
}

fn clients(ctx: &AgentCtx<'_>, l: &Located, name: &str, users: bool) -> Result<(), RuntimeError> {
    let owner = if users {
        "(SELECT u.name FROM Users u WHERE u._id = c._id)"
    } else {
        "NULL"
    };
    let f = |k: &str| format!("json_extract(j.value, '$.{k}')");
    let sql = format!(
        "SELECT c._id AS user_id, {owner} AS user_name, {} AS client, {} AS label, {} AS model, {} AS class, {} AS verification, {} AS registered FROM Clients c, json_each(CASE WHEN json_valid(c.data) THEN c.data ELSE '{{}}' END, '$.clients') j ORDER BY c.rowid, j.key",
        f("id"),
        f("label"),
        f("model"),
        f("devType"),
        f("verification"),
        f("regTime"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Wire clients")?;
    for (inv, t, row) in pages.rows() {
        let of = t
            .get(row, "user_name")
            .or(t.get(row, "user_id"))
            .unwrap_or("a user")
            .to_string();
        let device = t
            .get(row, "model")
            .or(t.get(row, "label"))
            .or(t.get(row, "client"))
            .unwrap_or("a client")
            .to_string();
        let mut d = Draft::new("accounts", format!("Wire client {device} of {of}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for (col, ft) in [
            ("client", FactType::Identifier),
            ("user_id", FactType::Identifier),
            ("user_name", FactType::Name),
            ("label", FactType::Name),
            ("model", FactType::Text),
            ("class", FactType::Text),
            ("verification", FactType::Text),
        ] {
            d.fact(ft, raw(t, row, col).as_deref(), inv);
        }
        let at = t.get(row, "registered");
        d.time(at, unix_millis(at), "Wire client registered", inv);
        d.interpretation = format!(
            "Clients row of {of} in {}: a device registered as a Wire client (id {}, verification {}); the registration time is Unix milliseconds.",
            l.name(),
            t.get(row, "client").unwrap_or("not stored"),
            t.get(row, "verification").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &BTreeMap<String, BTreeSet<String>>,
    cols: &BTreeSet<String>,
    users: Option<&BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let m = |col: &str, alias: &str| column_or_null(cols, "m.", col, alias);
    let has = |t: &str, c: &str| schema.get(t).is_some_and(|cols| cols.contains(c));
    let (sender, outgoing, user_join) = match users {
        Some(u) if cols.contains("user_id") => (
            format!(
                "u.name AS sender_name, {}, 'wire:' || m.user_id AS sender",
                column_or_null(u, "u.", "handle", "sender_handle")
            ),
            "CASE WHEN m.user_id IN (SELECT _id FROM Users WHERE connection = 'self') THEN 1 ELSE 0 END",
            "LEFT JOIN Users u ON u._id = m.user_id",
        ),
        _ => (
            "NULL AS sender_name, NULL AS sender_handle, NULL AS sender".to_string(),
            "NULL",
            "",
        ),
    };
    let asset = ["Assets2", "Assets"]
        .into_iter()
        .find(|t| cols.contains("asset_id") && has(t, "_id") && has(t, "name"))
        .map(|t| format!("(SELECT a.name FROM {t} a WHERE a._id = m.asset_id)"))
        .unwrap_or("NULL".into());
    let conversation = if cols.contains("conv_id")
        && has("Conversations", "_id")
        && has("Conversations", "name")
    {
        "(SELECT c.name FROM Conversations c WHERE c._id = m.conv_id)"
    } else {
        "NULL"
    };
    let content = if cols.contains("content") {
        "CASE WHEN json_valid(m.content) THEN json_extract(m.content, '$[0].content') END AS text, CASE WHEN json_valid(m.content) THEN (SELECT group_concat(json_extract(p.value, '$.content'), ' ') FROM json_each(m.content) p WHERE p.key > 0) END AS more"
    } else {
        "NULL AS text, NULL AS more"
    };
    let sql = format!(
        "SELECT m._id AS id, m.time AS at, {}, {content}, {}, {asset} AS asset, {}, {conversation} AS conversation_name, {sender}, {outgoing} AS outgoing FROM Messages m {user_join} ORDER BY m.rowid",
        m("msg_type", "type"),
        m("duration", "duration"),
        m("conv_id", "conversation"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Wire messages")?;
    let likes = likes(ctx, l, name, schema)?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?").to_string();
        let sent = t.get(row, "outgoing") == Some("1");
        let from = t
            .get(row, "sender_name")
            .or(t.get(row, "sender_handle"))
            .unwrap_or("a sender not stored")
            .to_string();
        let place = t
            .get(row, "conversation_name")
            .map(|n| format!(" in {n}"))
            .unwrap_or_default();
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Wire message sent{place}")
            } else {
                format!("Wire message from {from}{place}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(&id), inv);
        for (col, ft) in [
            ("type", FactType::Text),
            ("text", FactType::Text),
            ("more", FactType::Text),
            ("duration", FactType::Count),
            ("asset", FactType::Name),
            ("conversation", FactType::Identifier),
            ("conversation_name", FactType::Name),
            ("sender_name", FactType::Name),
            ("sender_handle", FactType::Account),
        ] {
            d.fact(ft, raw(t, row, col).as_deref(), inv);
        }
        let mut liked = Vec::new();
        if let Some((linv, lt, rows)) = likes.as_ref().map(|(i, t, m)| (i, t, m.get(&id))) {
            for lrow in rows.into_iter().flatten() {
                let lrow = &lt.rows[*lrow];
                d.fact(FactType::Text, raw(lt, lrow, "action").as_deref(), linv);
                d.fact(FactType::Name, raw(lt, lrow, "liker").as_deref(), linv);
                let at = lt.get(lrow, "at");
                d.time(at, unix_millis(at), "Wire message liked", linv);
                liked.push(lt.get(lrow, "liker").unwrap_or("a user").to_string());
            }
        }
        let at = t.get(row, "at");
        d.message_time(at, unix_millis(at), sent, inv);
        d.interpretation = format!(
            "Messages row {id} of {}: a Wire {} message {}{}{}; times are Unix milliseconds{}.",
            l.name(),
            t.get(row, "type").unwrap_or("(type not stored)"),
            if sent {
                "sent by the device's user (its sender is the self user)".to_string()
            } else {
                format!("from {from}")
            },
            t.get(row, "conversation")
                .map(|c| format!(" in conversation {c}"))
                .unwrap_or_default(),
            if liked.is_empty() {
                String::new()
            } else {
                format!(", liked by {}", liked.join(", "))
            },
            if t.get(row, "duration").is_some() {
                ", the call duration milliseconds as ALEAPP reads it"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        let other = if sent {
            None
        } else {
            t.get(row, "sender").map(|s| (s, from.as_str()))
        };
        if let Some(text) = t.get(row, "text") {
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!("Wire message {id} ({})", l.name()),
                sent,
                other,
            )?;
        }
    }
    Ok(())
}

/// Every like of the store, by message id (one query; `None` without a `Likings` table).
#[allow(clippy::type_complexity)]
fn likes(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &BTreeMap<String, BTreeSet<String>>,
) -> Result<Option<(Invoked, crate::outputs::Table, BTreeMap<String, Vec<usize>>)>, RuntimeError> {
    let Some(cols) = schema.get("Likings").filter(|c| c.contains("message_id")) else {
        return Ok(None);
    };
    let liker =
        if cols.contains("user_id") && schema.get("Users").is_some_and(|u| u.contains("name")) {
            "(SELECT u.name FROM Users u WHERE u._id = k.user_id)"
        } else {
            "NULL"
        };
    let sql = format!(
        "SELECT k.message_id AS message, CASE k.\"action\" WHEN 1 THEN 'Liked' ELSE k.\"action\" END AS action, {}, {liker} AS liker FROM Likings k ORDER BY k.rowid",
        column_or_null(cols, "k.", "timestamp", "at"),
    );
    let sql = if cols.contains("action") {
        sql
    } else {
        sql.replace(
            "CASE k.\"action\" WHEN 1 THEN 'Liked' ELSE k.\"action\" END",
            "NULL",
        )
    };
    let Some((inv, t)) =
        crate::identity::query_on(ctx, &l.tree, &l.path, &sql, crate::calls::ROW_CAP)?
    else {
        return Ok(None);
    };
    if t.truncated {
        ctx.unparsed(
            name,
            &format!(
                "more than {} likes: those past the cap were not read",
                crate::calls::ROW_CAP
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    let mut by: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, row) in t.rows.iter().enumerate() {
        if let Some(m) = t.get(row, "message") {
            by.entry(m.to_string()).or_default().push(i);
        }
    }
    Ok(Some((inv, t, by)))
}

fn deletions(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT message_id, {} FROM MsgDeletion ORDER BY rowid",
        column_or_null(cols, "", "timestamp", "timestamp")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Wire deletions")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "message_id").unwrap_or("?").to_string();
        let mut d = Draft::new("messages", format!("Wire message {id} deleted"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, Some(&id), inv);
        let at = t.get(row, "timestamp");
        d.time(at, unix_millis(at), "Wire message deleted", inv);
        d.interpretation = format!(
            "MsgDeletion row of {}: the Wire message {id} was deleted on the device; the time is the deletion's (Unix milliseconds), not the message's.",
            l.name()
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
