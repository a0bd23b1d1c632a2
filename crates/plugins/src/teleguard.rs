//! TeleGuard (Swisscows) keeps the same Flutter store on both platforms: Android
//! `ch.swisscows.messenger.teleguardapp/app_flutter/teleguard_database.db`, iOS
//! `Shared/AppGroup/<id>/Library/teleguard_database.db`, with its drafts in
//! `teleguard_temp.db` beside it. The fields of iLEAPP's and ALEAPP's `teleguard` artefacts:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `service` (`user`, `settings`) | one `accounts` | server id, alias, user id, personal id, avatar ref id, the phone (`currentPhone`, Android `_currentPhone`), whether a public and a private key are stored (never copied) |
//! | `messages` | one `messages` per message, service event and media message; one `calls` per call (`type` CALL) | created and user time (Unix ms), type, sender and receiver (with their aliases), direction (the sender is the account's server id), text, metadata as stored, status, edited, chat id, message id; a call's type, connected, duration or result and members as its metadata stores them |
//! | `contacts` | one `contacts` per contact | server id, alias, personal id, type, colour, options, info, whether an avatar is stored, last activity and last visit (Unix ms) |
//! | `posts` | one `messages` per channel post | created, channel, header, text, type, local status, views, likes, dislikes, metadata, media |
//! | `channels` | one `contacts` per channel | every column as stored (iLEAPP reads `SELECT *`) |
//! | `draft` (`teleguard_temp.db`) | one `messages` per unsent draft | the recipient's server id and alias, the text |
//!
//! Identities: every server id is `teleguard:<server id>` (computed in the query), the same on
//! both platforms: the account's is the device's user's (`owner`, with its alias and phone), a
//! contact's and a sender's their person's (with the alias). Wallet addresses in a message are
//! claims by direction. Schema drift: each table is read when it has its key columns.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{TreeRef, artefact_name, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `path` is TeleGuard's store (the Android app's `app_flutter/` or an iOS app group's
/// `Library/`).
pub fn is_store(path: &str) -> bool {
    path.ends_with("/teleguard_database.db")
        && (path.contains("/ch.swisscows.messenger.teleguardapp/app_flutter/")
            || (path.contains("/Shared/AppGroup/") && path.contains("/Library/")))
}

/// `'teleguard:' || <expr>` when the value is not empty.
fn qualified(expr: &str) -> String {
    format!("CASE WHEN {expr} IS NOT NULL AND {expr} != '' THEN 'teleguard:' || {expr} END")
}

/// The account's server id, as a SQL expression.
const OWN_ID: &str = "(SELECT json_extract(s.data, '$.serverId') FROM service s WHERE s.id = 'user' AND json_valid(s.data))";

type Schema = BTreeMap<String, BTreeSet<String>>;

/// Reads one store at `path` of `tree` (`found`: the call that listed it), then its drafts in
/// `teleguard_temp.db` beside it when `temp` names one.
pub fn store(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    temp: Option<(&str, &Invoked)>,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let table = |t: &str| schema.get(t).filter(|c| !c.is_empty());
    let known = ["service", "messages", "contacts", "posts", "channels"];
    if !known.iter().any(|t| table(t).is_some()) {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse TeleGuard's teleguard_database.db because it has none of the tables {}",
                known.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let store = "TeleGuard's teleguard_database.db";
    let has_service = match table("service") {
        Some(c) => require_columns(ctx, &name, store, "service", c, &["id", "data"])?,
        None => false,
    };
    if has_service {
        account(ctx, tree, path, found, &name)?;
    }
    let mut aliases = None;
    if let Some(c) = table("contacts")
        && require_columns(ctx, &name, store, "contacts", c, &["serverId"])?
    {
        aliases = contacts(ctx, tree, path, found, &name, c)?;
    }
    if let Some(c) = table("messages")
        && require_columns(ctx, &name, store, "messages", c, &["createDate"])?
    {
        messages(ctx, tree, path, found, &name, &schema, c, has_service)?;
    }
    if let Some(c) = table("posts")
        && require_columns(ctx, &name, store, "posts", c, &["createDate"])?
    {
        posts(ctx, tree, path, found, &name, c)?;
    }
    if table("channels").is_some() {
        channels(ctx, tree, path, found, &name)?;
    }
    if let Some((temp, listed)) = temp {
        drafts(ctx, tree, temp, listed, aliases.as_ref())?;
    }
    Ok(())
}

fn account(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
) -> Result<(), RuntimeError> {
    let f = |k: &str, alias: &str| format!("json_extract(s.data, '$.{k}') AS {alias}");
    let key = |k: &str, alias: &str| {
        format!(
            "CASE WHEN json_extract(s.data, '$.{k}') IS NOT NULL AND json_extract(s.data, '$.{k}') != '' THEN 'stored' END AS {alias}"
        )
    };
    let sql = format!(
        "SELECT * FROM (SELECT {}, {} AS qualified, {}, {}, {}, {}, (SELECT COALESCE(json_extract(t.data, '$.currentPhone'), json_extract(t.data, '$._currentPhone')) FROM service t WHERE t.id = 'settings' AND json_valid(t.data)) AS phone, {}, {} FROM service s WHERE s.id = 'user' AND json_valid(s.data))",
        f("serverId", "server_id"),
        qualified("json_extract(s.data, '$.serverId')"),
        f("alias", "alias"),
        f("userId", "user_id"),
        f("personalId", "personal_id"),
        f("avatarRefId", "avatar"),
        key("publicKey", "public_key"),
        key("privateKey", "private_key"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "TeleGuard accounts")?;
    for (inv, t, row) in pages.rows() {
        let id = t
            .get(row, "server_id")
            .unwrap_or("(no server id)")
            .to_string();
        let mut d = Draft::new("accounts", format!("TeleGuard account {id}"));
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("server_id", FactType::Account, "server id"),
                ("alias", FactType::Name, "alias"),
                ("user_id", FactType::Identifier, "user id"),
                ("personal_id", FactType::Account, "personal id"),
                ("avatar", FactType::Identifier, "avatar ref id"),
                ("phone", FactType::Phone, "phone"),
            ],
        );
        let keys: Vec<&str> = [("public_key", "public"), ("private_key", "private")]
            .iter()
            .filter(|(c, _)| t.get(row, c).is_some())
            .map(|(_, w)| *w)
            .collect();
        d.interpretation = format!(
            "service row 'user' of {}: the TeleGuard account of the device's user: {}; {}.",
            file_name(path),
            said.join(", "),
            if keys.is_empty() {
                "no key pair stored".to_string()
            } else {
                format!("a {} key is stored (not copied)", keys.join(" and a "))
            }
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            "owner",
            "device owner",
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The TeleGuard server id"),
                ("alias", IdType::DisplayName, "The alias"),
                ("phone", IdType::Phone, "The phone number"),
            ],
            &|what| {
                format!(
                    "{what} of the TeleGuard account of the device's user (service 'user' of teleguard_database.db)."
                )
            },
        )?;
    }
    Ok(())
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The contacts; answers their aliases by server id (with the page that holds each) for the
/// drafts.
#[allow(clippy::type_complexity)]
fn contacts(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    cols: &BTreeSet<String>,
) -> Result<Option<BTreeMap<String, (String, Invoked)>>, RuntimeError> {
    let c = |col: &str, alias: &str| column_or_null(cols, "c.", col, alias);
    let avatar = if cols.contains("avatar") {
        "CASE WHEN c.avatar IS NOT NULL AND length(c.avatar) > 0 THEN length(c.avatar) END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT c.serverId AS server_id, {} AS qualified, {}, {}, {}, {}, {}, {}, {avatar} AS avatar_bytes, {}, {} FROM contacts c ORDER BY c.rowid",
        qualified("c.serverId"),
        c("alias", "alias"),
        c("personalId", "personal_id"),
        c("type", "type"),
        c("color", "color"),
        c("options", "options"),
        c("info", "info"),
        c("lastActivityTime", "active"),
        c("lastVisitTime", "visited"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(None);
    };
    note_pages_cap(ctx, name, &pages, "TeleGuard contacts")?;
    let mut aliases = BTreeMap::new();
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "server_id").unwrap_or("?").to_string();
        let who = t.get(row, "alias").unwrap_or(&id).to_string();
        let mut d = Draft::new("contacts", format!("TeleGuard contact {who}"));
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("server_id", FactType::Account, "server id"),
                ("alias", FactType::Name, "alias"),
                ("personal_id", FactType::Account, "personal id"),
                ("type", FactType::Text, "type"),
                ("color", FactType::Text, "colour"),
                ("options", FactType::Text, "options"),
                ("info", FactType::Text, "info"),
                ("avatar_bytes", FactType::Count, "avatar bytes"),
            ],
        );
        for (col, what) in [
            ("active", "TeleGuard contact last active"),
            ("visited", "TeleGuard contact last visited"),
        ] {
            let v = t.get(row, col);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "contacts row of {}: a TeleGuard contact: {}; the times are Unix milliseconds.",
            file_name(path),
            said.join(", ")
        );
        record_draft(ctx, d)?;
        if let Some(q) = t.get(row, "qualified") {
            observe_columns(
                ctx,
                q,
                &who,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The TeleGuard server id"),
                    ("alias", IdType::DisplayName, "The alias"),
                ],
                &|what| {
                    format!(
                        "{what} of {who}, a TeleGuard contact (contacts of teleguard_database.db)."
                    )
                },
            )?;
        }
        if let Some(a) = raw(t, row, "alias") {
            aliases.insert(id, (a, inv.clone()));
        }
    }
    Ok(Some(aliases))
}

#[allow(clippy::too_many_arguments)]
fn messages(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    schema: &Schema,
    cols: &BTreeSet<String>,
    service: bool,
) -> Result<(), RuntimeError> {
    let m = |col: &str, alias: &str| column_or_null(cols, "m.", col, alias);
    let alias_of = |col: &str| {
        if cols.contains(col) && schema.get("contacts").is_some_and(|c| c.contains("alias")) {
            format!("(SELECT c.alias FROM contacts c WHERE c.serverId = m.{col} LIMIT 1)")
        } else {
            "NULL".into()
        }
    };
    let own = if service && cols.contains("sender") {
        format!(
            "CASE WHEN m.sender = {OWN_ID} THEN 1 WHEN m.sender IS NOT NULL AND m.sender != '' AND {OWN_ID} IS NOT NULL THEN 0 END"
        )
    } else {
        "NULL".into()
    };
    let meta = |k: &str, alias: &str| {
        if cols.contains("metadata") {
            format!(
                "CASE WHEN m.type = 'CALL' AND json_valid(m.metadata) THEN json_extract(m.metadata, '$.{k}') END AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.createDate AS at, {}, {}, {}, {}, {} AS sender_id, {} AS sender_alias, {}, {} AS receiver_alias, {}, {}, {}, {}, {}, {own} AS own, {}, {}, {}, {} FROM messages m ORDER BY m.rowid",
        m("userTime", "user_time"),
        m("type", "type"),
        m("id", "message_id"),
        m("sender", "sender"),
        if cols.contains("sender") {
            qualified("m.sender")
        } else {
            "NULL".into()
        },
        alias_of("sender"),
        m("receiver", "receiver"),
        alias_of("receiver"),
        m("content", "content"),
        m("metadata", "metadata"),
        m("status", "status"),
        m("isEdited", "edited"),
        m("chatId", "chat"),
        meta("callType", "call_type"),
        meta("isSuccessfull", "connected"),
        meta("subtext", "subtext"),
        meta("membersText", "members"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "TeleGuard messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?").to_string();
        let kind = t.get(row, "type").unwrap_or("");
        let sent = t.get(row, "own") == Some("1");
        let from = t
            .get(row, "sender_alias")
            .or(t.get(row, "sender"))
            .unwrap_or("no sender")
            .to_string();
        let (category, noun) = match kind {
            "CALL" => ("calls", "TeleGuard call"),
            "SERVICE" => ("messages", "TeleGuard chat event"),
            _ => ("messages", "TeleGuard message"),
        };
        let title = match (kind, sent, t.get(row, "own")) {
            ("SERVICE", _, _) => format!("{noun} in chat {}", t.get(row, "chat").unwrap_or("?")),
            (_, true, _) => format!(
                "{noun} to {}",
                t.get(row, "receiver_alias")
                    .or(t.get(row, "receiver"))
                    .unwrap_or("a party not stored")
            ),
            _ => format!("{noun} from {from}"),
        };
        let mut d = Draft::new(category, title);
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("type", FactType::Text, "type"),
                ("sender", FactType::Account, "sender"),
                ("sender_alias", FactType::Name, "sender's alias"),
                ("receiver", FactType::Account, "receiver"),
                ("receiver_alias", FactType::Name, "receiver's alias"),
                ("content", FactType::Text, "content"),
                ("status", FactType::Text, "status"),
                ("edited", FactType::Count, "edited"),
                ("chat", FactType::Identifier, "chat"),
                ("message_id", FactType::Identifier, "message id"),
                ("call_type", FactType::Text, "call type"),
                ("connected", FactType::Count, "connected"),
                ("subtext", FactType::Text, "duration or result"),
                ("members", FactType::Text, "members"),
            ],
        );
        // the metadata as stored: a fact, too long to say
        d.fact(FactType::Text, raw(t, row, "metadata").as_deref(), inv);
        let at = t.get(row, "at");
        if kind == "SERVICE" || t.get(row, "own").is_none() {
            d.time(at, unix_millis(at), "TeleGuard message created", inv);
        } else {
            d.message_time(at, unix_millis(at), sent, inv);
        }
        let user_time = t.get(row, "user_time");
        d.time(
            user_time,
            unix_millis(user_time),
            "TeleGuard message user time",
            inv,
        );
        d.interpretation = format!(
            "messages row {rid} of {}: a {noun}{}: {}; the times are Unix milliseconds.",
            file_name(path),
            match t.get(row, "own") {
                Some("1") => " sent by the device's user (its sender is the account's server id)",
                Some("0") => " received by the device's user",
                _ => "",
            },
            said.join(", ")
        );
        record_draft(ctx, d)?;
        let other = match (t.get(row, "own"), t.get(row, "sender_id")) {
            (Some("0"), Some(q)) => {
                observe_columns(
                    ctx,
                    q,
                    &from,
                    t,
                    row,
                    inv,
                    &[
                        ("sender_id", IdType::AccountId, "The TeleGuard server id"),
                        ("sender_alias", IdType::DisplayName, "The alias"),
                    ],
                    &|what| {
                        format!(
                            "{what} of {from}, who sent a TeleGuard message (messages row {rid})."
                        )
                    },
                )?;
                Some((q, from.as_str()))
            }
            _ => None,
        };
        if let (Some(text), Some(_)) = (
            t.get(row, "content")
                .filter(|_| kind != "SERVICE" && kind != "CALL"),
            t.get(row, "own"),
        ) {
            crate::identity::claims_by_direction(
                ctx,
                inv,
                text,
                &format!("TeleGuard message row {rid} ({})", file_name(path)),
                sent,
                other,
            )?;
        }
    }
    Ok(())
}

fn posts(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    cols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "p.", col, col);
    let spec = [
        ("channelId", FactType::Identifier, "channel"),
        ("header", FactType::Text, "header"),
        ("content", FactType::Text, "content"),
        ("type", FactType::Text, "type"),
        ("localStatus", FactType::Text, "local status"),
        ("viewsCount", FactType::Count, "views"),
        ("likesCount", FactType::Count, "likes"),
        ("dislikesCount", FactType::Count, "dislikes"),
        ("metadata", FactType::Text, "metadata"),
        ("media", FactType::Text, "media"),
    ];
    let sql = format!(
        "SELECT p.rowid AS rid, p.createDate AS at, {} FROM posts p ORDER BY p.rowid",
        spec.iter()
            .map(|(col, _, _)| c(col))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "TeleGuard posts")?;
    for (inv, t, row) in pages.rows() {
        let mut d = Draft::new(
            "messages",
            format!(
                "TeleGuard channel post in {}",
                t.get(row, "channelId").unwrap_or("a channel not stored")
            ),
        );
        d.fact(FactType::Path, Some(path), found);
        let said = d.fields(t, row, inv, &spec);
        let at = t.get(row, "at");
        d.time(at, unix_millis(at), "TeleGuard post created", inv);
        d.interpretation = format!(
            "posts row {} of {}: a post of a TeleGuard channel: {}; the time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            file_name(path),
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn channels(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
) -> Result<(), RuntimeError> {
    let Some(pages) = pages_on(ctx, tree, path, "SELECT * FROM channels ORDER BY rowid")? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "TeleGuard channels")?;
    for (inv, t, row) in pages.rows() {
        let label = t
            .get(row, "alias")
            .or(t.get(row, "name"))
            .or(t.get(row, "id"))
            .unwrap_or("not named")
            .to_string();
        let mut d = Draft::new("contacts", format!("TeleGuard channel {label}"));
        d.fact(FactType::Path, Some(path), found);
        let mut said = Vec::new();
        for (i, col) in t.columns.iter().enumerate() {
            if let Some(v) = row
                .get(i)
                .cloned()
                .flatten()
                .filter(|v| !v.is_empty() && !v.starts_with("x'"))
                .map(|v| crate::outputs::escape(&v))
            {
                d.fact(FactType::Text, Some(&v), inv);
                said.push(format!("{col} {v}"));
            }
        }
        d.interpretation = format!(
            "channels row of {}: a TeleGuard channel the account knows: {}.",
            file_name(path),
            said.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn drafts(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    aliases: Option<&BTreeMap<String, (String, Invoked)>>,
) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let Some(cols) = schema.get("draft").filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    if !require_columns(
        ctx,
        &name,
        "TeleGuard's teleguard_temp.db",
        "draft",
        cols,
        &["serverId", "text"],
    )? {
        return Ok(());
    }
    let Some(pages) = pages_on(
        ctx,
        tree,
        path,
        "SELECT d.rowid AS rid, d.serverId AS server_id, d.text AS text FROM draft d ORDER BY d.rowid",
    )?
    else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "TeleGuard drafts")?;
    for (inv, t, row) in pages.rows() {
        let to = t.get(row, "server_id").unwrap_or("?").to_string();
        let alias = aliases.and_then(|a| a.get(&to));
        let mut d = Draft::new(
            "messages",
            format!(
                "TeleGuard draft to {}",
                alias.map(|(a, _)| a.as_str()).unwrap_or(&to)
            ),
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Account, Some(&to), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        if let Some((a, cited)) = alias {
            d.fact(FactType::Name, Some(a), cited);
        }
        d.interpretation = format!(
            "draft row {} of teleguard_temp.db: an unsent TeleGuard message to {to}{} (the recipient's alias from the contacts of teleguard_database.db).",
            t.get(row, "rid").unwrap_or("?"),
            alias.map(|(a, _)| format!(" ({a})")).unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
