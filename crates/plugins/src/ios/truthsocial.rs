//! Truth Social (`…/AppGroup/<UUID>/chat/v1/<account id>/ChatModel.sqlite`, Core Data): the
//! fields of iLEAPP's three `truthSocial*` artefacts.
//!
//! - accounts (`truthSocialAccounts`): every `ZMANAGEDACCOUNT` (server id, handle, display
//!   name, verified flag, avatar, the number of chat events it caused) and the account holder,
//!   who is absent from that table and known only as the owner of the chats
//!   (`ZMANAGEDCHAT.ZOWNEDBYACCOUNTID`, also the name of the folder holding the database);
//! - chats (`truthSocialChats`): creation, last activity and last read times, server id, type
//!   (`channel`, or none for a direct chat), the other party, owner and creator ids, message
//!   and unread counts, message time-to-live, the accepted/blocked/blocking/hidden/silenced
//!   flags, the other party's verified flag and avatar;
//! - chat events (`truthSocialMessages`, `ZMANAGEDEVENTBASE`): messages with their text
//!   (the HTML body flattened in the query, see [`super::mastodon::html_text`], and the raw
//!   HTML), attachments (type, URL), reactions, unread/hidden/failed-to-send flags, and the
//!   housekeeping events (chat created, member joined, message expiration changed) with the
//!   account ids they name.
//!
//! The sender of a message is `ZACCOUNTID1` (`ZACCOUNTID` for membership events); a message is
//! the holder's when its sender owns the chat. Identities: Truth Social account ids are global
//! (one service), observed namespaced in the query as `truthsocial:<id>`: the holder's on
//! `owner`, every other account's on the person context `truthsocial:<id>` with its handle and
//! display name. Wallet addresses written in a message are its sender's claims. Times are Core
//! Data seconds (`apple_seconds`).

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::mastodon::html_text;
use super::{Draft, ENTRY_CAP, Run, Schema, core_data_encoding, file_name, raw, summarise};
use crate::calls::column_or_null;

/// Triage of every Truth Social `ChatModel.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("ChatModel.sqlite", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ZMANAGEDACCOUNT",
        "ZMANAGEDCHAT",
        "ZMANAGEDEVENTBASE",
        "ZMANAGEDATTACHMENT",
        "ZMANAGEDREACTION",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if !schema.require(
        run,
        "ZMANAGEDACCOUNT",
        &["ZSERVERID", "ZACCT", "ZDISPLAYNAME"],
    )? || !schema.require(
        run,
        "ZMANAGEDCHAT",
        &["Z_PK", "ZSERVERID", "ZOTHERACCOUNTID", "ZOWNEDBYACCOUNTID"],
    )? || !schema.require(
        run,
        "ZMANAGEDEVENTBASE",
        &["Z_PK", "ZCHAT", "ZCREATEDAT", "ZTYPE", "ZACCOUNTID"],
    )? {
        return Ok(());
    }
    accounts(run, find, path, &schema)?;
    chats(run, find, path, &schema)?;
    events(run, find, path, &schema)?;
    Ok(())
}

/// The sender of an event of `ZMANAGEDEVENTBASE e` (`ZACCOUNTID1` of a message, else the
/// membership's `ZACCOUNTID`).
fn sender_sql(schema: &Schema) -> &'static str {
    if schema.columns("ZMANAGEDEVENTBASE").contains("ZACCOUNTID1") {
        "COALESCE(e.ZACCOUNTID1, e.ZACCOUNTID)"
    } else {
        "e.ZACCOUNTID"
    }
}

/// The accounts (iLEAPP's `truthSocialAccounts`).
fn accounts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZMANAGEDACCOUNT");
    let a = |c: &str, alias: &str| column_or_null(&cols, "a.", c, alias);
    let sender = sender_sql(schema);
    let events = |id: &str| {
        format!("(SELECT count(*) FROM ZMANAGEDEVENTBASE e WHERE {sender} = {id}) AS events")
    };
    let sql = format!(
        "SELECT a.ZSERVERID AS account_id, 'truthsocial:' || a.ZSERVERID AS account, a.ZACCT AS handle, \
a.ZDISPLAYNAME AS display, {}, {}, {}, EXISTS(SELECT 1 FROM ZMANAGEDCHAT c WHERE c.ZOWNEDBYACCOUNTID = a.ZSERVERID) AS holder \
FROM ZMANAGEDACCOUNT a WHERE a.ZSERVERID IS NOT NULL \
UNION ALL SELECT DISTINCT c.ZOWNEDBYACCOUNTID, 'truthsocial:' || c.ZOWNEDBYACCOUNTID, NULL, NULL, NULL, NULL, {}, 1 \
FROM ZMANAGEDCHAT c WHERE c.ZOWNEDBYACCOUNTID IS NOT NULL \
AND c.ZOWNEDBYACCOUNTID NOT IN (SELECT ZSERVERID FROM ZMANAGEDACCOUNT WHERE ZSERVERID IS NOT NULL) \
ORDER BY 1",
        a("ZISVERIFIED", "verified"),
        a("ZAVATARSTATIC", "avatar"),
        events("a.ZSERVERID"),
        events("c.ZOWNEDBYACCOUNTID").trim_end_matches(" AS events"),
    );
    let Some((inv, t)) = run.query(path, &sql, ENTRY_CAP)? else {
        return Ok(());
    };
    let where_ = format!("Truth Social ({})", file_name(path));
    for row in &t.rows {
        let Some(id) = raw(&t, row, "account_id") else {
            continue;
        };
        let handle = raw(&t, row, "handle");
        let display = raw(&t, row, "display");
        let holder = t.get(row, "holder") == Some("1");
        let mut d = Draft::new(
            if holder { "accounts" } else { "contacts" },
            format!(
                "Truth Social account {}{}",
                handle.as_deref().unwrap_or(&id),
                if holder { " (account holder)" } else { "" }
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&id), &inv);
        d.fact(FactType::Account, raw(&t, row, "account").as_deref(), &inv);
        d.fact(FactType::Account, handle.as_deref(), &inv);
        d.fact(FactType::Name, display.as_deref(), &inv);
        d.fact(FactType::Count, raw(&t, row, "events").as_deref(), &inv);
        d.fact(FactType::Url, raw(&t, row, "avatar").as_deref(), &inv);
        d.interpretation = format!(
            "Truth Social account {id} in {path}, handle {}, {} chat event(s) \
(account holder {}, verified {}).",
            handle.as_deref().unwrap_or("(not cached)"),
            t.get(row, "events").unwrap_or("?"),
            t.get(row, "holder").unwrap_or("?"),
            t.get(row, "verified").unwrap_or("NULL"),
        );
        run.record(d)?;
        let Some(account) = raw(&t, row, "account") else {
            continue;
        };
        let (context, label, who) = if holder {
            (
                "owner".to_string(),
                "device owner".to_string(),
                "the Truth Social account signed in to the app (the owner of its chats)"
                    .to_string(),
            )
        } else {
            let label = display
                .clone()
                .filter(|s| !s.is_empty())
                .or(handle.clone())
                .unwrap_or_else(|| id.clone());
            (
                account.clone(),
                label.clone(),
                format!("the Truth Social user {label}"),
            )
        };
        run.observe_person(
            &context,
            &label,
            &inv,
            &|what| format!("{what} of {who} ({where_})."),
            &[
                (IdType::AccountId, Some(account.as_str()), "The account id"),
                (IdType::Nickname, handle.as_deref(), "The handle"),
                (IdType::DisplayName, display.as_deref(), "The display name"),
            ],
        )?;
    }
    Ok(())
}

/// The chats (iLEAPP's `truthSocialChats`).
fn chats(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZMANAGEDCHAT");
    let c = |col: &str, alias: &str| column_or_null(&cols, "c.", col, alias);
    let verified = if schema.columns("ZMANAGEDACCOUNT").contains("ZISVERIFIED") {
        "other.ZISVERIFIED AS verified"
    } else {
        "NULL AS verified"
    };
    let sql = format!(
        "SELECT c.Z_PK AS pk, {}, {}, {}, c.ZSERVERID AS chat_id, {}, other.ZDISPLAYNAME AS other_display, \
other.ZACCT AS other_handle, c.ZOTHERACCOUNTID AS other_id, c.ZOWNEDBYACCOUNTID AS owner_id, {}, \
(SELECT count(*) FROM ZMANAGEDEVENTBASE e WHERE e.ZCHAT = c.Z_PK AND e.ZTYPE = 'message') AS messages, \
{}, {}, {}, {}, {}, {}, {}, {verified}, {} \
FROM ZMANAGEDCHAT c LEFT JOIN ZMANAGEDACCOUNT other ON other.ZSERVERID = c.ZOTHERACCOUNTID",
        c("ZCREATEDAT", "created"),
        c("ZLASTACTIVITYDATE", "last_activity"),
        c("ZLASTREADAT", "last_read"),
        c("ZTYPE", "chat_type"),
        c("ZCREATEDBYACCOUNT", "created_by"),
        c("ZUNREADCOUNT", "unread"),
        c("ZMESSAGETTL", "ttl"),
        c("ZISACCEPTED", "accepted"),
        c("ZISBLOCKED", "blocked"),
        c("ZISBLOCKING", "blocking"),
        c("ZISHIDDEN", "hidden"),
        c("ZISSILENCED", "silenced"),
        c("ZAVATARURL", "avatar"),
    );
    let Some(paged) = run.paged(path, &sql, "c.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let chat = raw(t, row, "chat_id").unwrap_or_default();
        let other = raw(t, row, "other_handle").or_else(|| raw(t, row, "other_id"));
        let kind = match t.get(row, "chat_type") {
            Some(k) => format!("a chat of type {k}"),
            None => "a direct chat (no type)".to_string(),
        };
        let mut d = Draft::new(
            "messages",
            format!(
                "Truth Social chat {chat} with {}",
                other.as_deref().unwrap_or("?")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&chat), inv);
        d.fact(FactType::Text, raw(t, row, "chat_type").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "other_display").as_deref(), inv);
        d.fact(
            FactType::Account,
            raw(t, row, "other_handle").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "other_id").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "owner_id").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "created_by").as_deref(),
            inv,
        );
        for col in ["messages", "unread", "ttl"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Url, raw(t, row, "avatar").as_deref(), inv);
        for (col, what) in [
            ("created", "Chat created"),
            ("last_activity", "Last activity in the chat"),
            ("last_read", "Chat last read"),
        ] {
            let v = raw(t, row, col);
            d.time(v.as_deref(), core_data_encoding(v.as_deref()), what, inv);
        }
        let flag = |col: &str| t.get(row, col).unwrap_or("NULL");
        d.interpretation = format!(
            "ZMANAGEDCHAT Z_PK {} of {path}: {kind} (server id {chat}) of the account {} with {}, \
{} message(s), {} unread, messages kept {} seconds (accepted {}, blocked {}, blocking {}, hidden {}, \
silenced {}, other party verified {}); times are Core Data seconds since the Apple epoch (apple_seconds).",
            t.get(row, "pk").unwrap_or("?"),
            t.get(row, "owner_id").unwrap_or("?"),
            other.as_deref().unwrap_or("?"),
            t.get(row, "messages").unwrap_or("?"),
            t.get(row, "unread").unwrap_or("?"),
            t.get(row, "ttl").unwrap_or("?"),
            flag("accepted"),
            flag("blocked"),
            flag("blocking"),
            flag("hidden"),
            flag("silenced"),
            flag("verified"),
        );
        run.record(d)?;
    }
    Ok(())
}

/// The chat events (iLEAPP's `truthSocialMessages`).
fn events(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = schema.columns("ZMANAGEDEVENTBASE");
    let e = |c: &str, alias: &str| column_or_null(&cols, "e.", c, alias);
    let sender = sender_sql(schema);
    let attachments = schema.columns("ZMANAGEDATTACHMENT");
    let (attachment_type, attachment_url) = if attachments.contains("ZMESSAGE")
        && attachments.contains("ZTYPE")
    {
        let url = match (
            attachments.contains("ZURL"),
            attachments.contains("ZREMOTEURL"),
        ) {
            (true, true) => "COALESCE(a.ZURL, a.ZREMOTEURL)",
            (true, false) => "a.ZURL",
            (false, true) => "a.ZREMOTEURL",
            (false, false) => "NULL",
        };
        (
                "(SELECT group_concat(a.ZTYPE, ', ') FROM ZMANAGEDATTACHMENT a WHERE a.ZMESSAGE = e.Z_PK)"
                    .to_string(),
                format!(
                    "(SELECT group_concat({url}, ', ') FROM ZMANAGEDATTACHMENT a WHERE a.ZMESSAGE = e.Z_PK)"
                ),
            )
    } else {
        ("NULL".to_string(), "NULL".to_string())
    };
    let reactions = schema.columns("ZMANAGEDREACTION");
    let reactions = if reactions.contains("ZMESSAGE") && reactions.contains("ZNAME") {
        "(SELECT group_concat(r.ZNAME, ' ') FROM ZMANAGEDREACTION r WHERE r.ZMESSAGE = e.Z_PK)"
    } else {
        "NULL"
    };
    let (text, html) = if cols.contains("ZCONTENT") {
        (html_text("e.ZCONTENT"), "e.ZCONTENT")
    } else {
        ("NULL".to_string(), "NULL")
    };
    let sql = format!(
        "SELECT e.Z_PK AS pk, e.ZCREATEDAT AS created, e.ZTYPE AS event, c.ZSERVERID AS chat_id, c.ZTYPE AS chat_type, \
COALESCE(NULLIF(other.ZDISPLAYNAME, ''), NULLIF(other.ZACCT, ''), c.ZOTHERACCOUNTID, c.ZSERVERID) AS conversation, \
c.ZOTHERACCOUNTID AS other_id, other.ZACCT AS other_handle, \
{sender} AS sender_id, 'truthsocial:' || {sender} AS sender_account, \
COALESCE(NULLIF(s.ZDISPLAYNAME, '') || ' (@' || s.ZACCT || ')', '@' || s.ZACCT) AS sender, \
{text} AS text, {} , {html} AS html, {attachment_type} AS attachment_type, {attachment_url} AS attachment_url, \
{reactions} AS reactions, {}, {}, {}, {}, {}, e.ZACCOUNTID AS member, {}, {}, {}, {}, \
c.ZOWNEDBYACCOUNTID AS owner_id, ({sender} = c.ZOWNEDBYACCOUNTID) AS from_me \
FROM ZMANAGEDEVENTBASE e LEFT JOIN ZMANAGEDCHAT c ON c.Z_PK = e.ZCHAT \
LEFT JOIN ZMANAGEDACCOUNT other ON other.ZSERVERID = c.ZOTHERACCOUNTID \
LEFT JOIN ZMANAGEDACCOUNT s ON s.ZSERVERID = {sender}",
        e("ZTEXT", "event_text"),
        e("ZISUNREAD", "unread"),
        e("ZISHIDDEN", "hidden"),
        e("ZFAILEDTOSEND", "failed"),
        e("ZMESSAGEEXPIRATION", "expiration"),
        e("ZURL", "url"),
        e("ZCHANGEDBYACCOUNTID", "changed_by"),
        e("ZINVITEDACCOUNTID", "invited"),
        e("ZINVITEDBYACCOUNTID", "invited_by"),
        e("ZMESSAGEID", "message_id"),
    );
    let Some(paged) = run.paged(path, &sql, "e.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let event = raw(t, row, "event").unwrap_or_else(|| "?".into());
        let chat = raw(t, row, "chat_id");
        let conversation = raw(t, row, "conversation");
        let sender_id = raw(t, row, "sender_id");
        let from_me = t.get(row, "from_me");
        let message = event == "message";
        let mut d = Draft::new(
            "messages",
            if message {
                format!(
                    "Truth Social message {} {}",
                    if from_me == Some("1") {
                        "sent to"
                    } else {
                        "received from"
                    },
                    conversation.as_deref().unwrap_or("?")
                )
            } else {
                format!(
                    "Truth Social chat event {event} in {}",
                    conversation.as_deref().unwrap_or("?")
                )
            },
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, Some(&event), inv);
        d.fact(FactType::Identifier, chat.as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "chat_type").as_deref(), inv);
        d.fact(FactType::Name, conversation.as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "sender").as_deref(), inv);
        d.fact(FactType::Identifier, sender_id.as_deref(), inv);
        d.fact(
            FactType::Account,
            raw(t, row, "sender_account").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "event_text").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "html").as_deref(), inv);
        d.fact(
            FactType::Text,
            raw(t, row, "attachment_type").as_deref(),
            inv,
        );
        d.fact(FactType::Url, raw(t, row, "attachment_url").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "reactions").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "expiration").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        for c in [
            "member",
            "changed_by",
            "invited",
            "invited_by",
            "message_id",
        ] {
            d.fact(FactType::Identifier, raw(t, row, c).as_deref(), inv);
        }
        let created = raw(t, row, "created");
        d.time(
            created.as_deref(),
            core_data_encoding(created.as_deref()),
            if message {
                "Message sent"
            } else {
                "Chat event"
            },
            inv,
        );
        let flag = |c: &str| t.get(row, c).unwrap_or("NULL");
        d.interpretation = format!(
            "ZMANAGEDEVENTBASE Z_PK {pk} of {path}: a chat event of type {event} in the chat {} with {} \
(sender {}, from me {}, unread {}, hidden {}, failed to send {}); times are Core Data seconds since the \
Apple epoch (apple_seconds).",
            chat.as_deref().unwrap_or("?"),
            conversation.as_deref().unwrap_or("?"),
            sender_id.as_deref().unwrap_or("none"),
            flag("from_me"),
            flag("unread"),
            flag("hidden"),
            flag("failed"),
        );
        run.record(d)?;
        let (true, Some(body), Some(me)) = (message, t.get(row, "text"), from_me) else {
            continue;
        };
        let sent = me == "1";
        let other = if sent {
            raw(t, row, "other_id").map(|o| {
                (
                    format!("truthsocial:{o}"),
                    format!(
                        "the Truth Social user {}",
                        raw(t, row, "other_handle").unwrap_or(o)
                    ),
                )
            })
        } else {
            raw(t, row, "sender_account").map(|a| {
                (
                    a,
                    format!(
                        "the Truth Social user {}",
                        sender_id.as_deref().unwrap_or("?")
                    ),
                )
            })
        };
        run.message_claims(
            inv,
            body,
            &format!("Truth Social message {pk} ({})", file_name(path)),
            sent,
            other,
            "sender owns the chat",
            "sender is the other party",
        )?;
    }
    if paged.truncated {
        summarise(
            run,
            "messages",
            path,
            find,
            "Truth Social chat events",
            "SELECT count(*) AS total, min(NULLIF(ZCREATEDAT, 0)) AS first_time, max(ZCREATEDAT) AS last_time FROM ZMANAGEDEVENTBASE",
            core_data_encoding,
            "First event",
            "Last event",
        )?;
    }
    Ok(())
}
