//! Facebook's `threads_db2`, the store Messenger (`com.facebook.orca`) and the Facebook app
//! (`com.facebook.katana`) kept on Android before the msys store ([`crate::messenger`]), with
//! its sibling `threads_db2-uid` (the signed-in user's Facebook id, one line) — the fields of
//! ALEAPP's `FacebookMessenger` threads_db2 reports, and more:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `threads_db2-uid` | the account | the Facebook id Messenger was signed in with |
//! | `thread_users` | one per user | Facebook id (`user_key` `FACEBOOK:<id>`, or the oldest `user_id`), first and last name, name, user name, profile picture (`profile_pic_square` JSON or `pic_square`), Messenger user, friend, friendship and relationship status; a `facebook:<id>` person (`account_id` `facebook:<id>`, `facebook-user:<user name>`, name) — the device's user (`owner`) when the id is the uid file's —, a `PHONE_NUMBER:` key's number a phone |
//! | `messages` (`thread_key`, or the older `thread_id`) with `threads`, `message_reactions` | one per message | time, sent time, sender id and name (the `sender` JSON), thread and its name, text, snippet, first attachment's name and MIME type and the attachment count, first share's name, description and link, coordinates, message type, each reaction and its time; the sender a `facebook:<id>` person; wallet addresses in a text are claims of its writer |
//! | `messages` with a call's `generic_admin_message_extensible_data` | one per call | start (the message's time less the duration), duration, caller, video or voice, thread; direction from the caller and the uid |
//!
//! Columns are taken by name; JSON cells are read with SQLite's own JSON functions (a cell that
//! is not JSON gives nothing, the row is still read). Without the uid file nothing is guessed:
//! no `owner`, no direction.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use crate::calls::{Paged, column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{OwnedParty, artefact_name, pages_on, tables_on};
use crate::messenger::context_of;
use crate::outputs::raw;

/// What the store is called in a note.
const STORE: &str = "Facebook's threads_db2";

/// Reads a `threads_db2-uid` file (its first line, digits only: the user's Facebook id) and
/// records the account; `None` when it cannot be read or holds no id (noted).
pub fn uid(ctx: &AgentCtx<'_>, l: &Located) -> Result<Option<String>, RuntimeError> {
    let Some(read) = super::files::read(ctx, l)? else {
        return Ok(None);
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(id) = read
        .output
        .text
        .lines()
        .map(str::trim)
        .find(|s| !s.is_empty())
        .filter(|s| s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
    else {
        ctx.unparsed(
            &name,
            "could not parse Facebook's threads_db2-uid because its first line is not a Facebook id (digits)",
            None,
        )?;
        return Ok(None);
    };
    let mut d = Draft::new(
        "accounts",
        format!("Facebook account {id} (threads_db2-uid)"),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, Some(&id), &read);
    d.interpretation = format!(
        "{}: the Facebook id ({id}) Messenger or the Facebook app was signed in with; its threads_db2 store is that user's.",
        l.name()
    );
    record_draft(ctx, d)?;
    Ok(Some(id))
}

/// `CASE WHEN json_valid(cell) THEN json_extract(cell, path) END AS alias`, or `NULL AS alias`
/// when the table has no such column.
fn json_col(cols: &BTreeSet<String>, col: &str, path: &str, alias: &str) -> String {
    if cols.contains(col) {
        format!("CASE WHEN json_valid(m.{col}) THEN json_extract(m.{col}, '{path}') END AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

/// One `threads_db2` database; `uid` from its sibling `threads_db2-uid`, when found.
pub fn threads_db2(ctx: &AgentCtx<'_>, l: &Located, me: Option<&str>) -> Result<(), RuntimeError> {
    let Some((_, tables)) = tables_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let has = |t: &str| tables.iter().any(|x| x == t);
    if !has("messages") {
        ctx.unparsed(
            &name,
            "not a Facebook threads_db2 store: no messages table",
            None,
        )?;
        return Ok(());
    }
    let names = if has("thread_users") {
        users(ctx, l, &name, me)?
    } else {
        BTreeMap::new()
    };
    messages(ctx, l, &name, me, &names, &has)
}

/// The `thread_users`; returns each Facebook id's name.
fn users(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    me: Option<&str>,
) -> Result<BTreeMap<String, String>, RuntimeError> {
    let mut names = BTreeMap::new();
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "thread_users")?;
    let key = ["user_key", "user_id"]
        .into_iter()
        .find(|k| cols.contains(*k));
    let Some(key) = key else {
        crate::calls::require_columns(ctx, name, STORE, "thread_users", &cols, &["user_key"])?;
        return Ok(names);
    };
    let c = |col: &str| column_or_null(&cols, "", col, col);
    // the ids namespaced by the query, so that the accounts ground in its output
    let id = format!(
        "CASE WHEN {key} LIKE 'FACEBOOK:%' THEN substr({key}, 10) WHEN {key} GLOB '[0-9]*' AND NOT {key} GLOB '*[^0-9]*' THEN {key} END"
    );
    let picture = if cols.contains("profile_pic_square") {
        "CASE WHEN json_valid(profile_pic_square) THEN json_extract(profile_pic_square, '$[0].url') END AS picture"
            .to_string()
    } else {
        column_or_null(&cols, "", "pic_square", "picture")
    };
    let user_account = if cols.contains("username") {
        "CASE WHEN username != '' THEN 'facebook-user:' || username END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT rowid AS rid, {key} AS user_key, {id} AS id, 'facebook:' || ({id}) AS account, CASE WHEN {key} LIKE 'PHONE_NUMBER:%' THEN substr({key}, 14) END AS phone, {}, {}, {}, {}, {user_account} AS user_account, {picture}, {}, {}, {}, {} FROM thread_users ORDER BY rowid",
        c("first_name"),
        c("last_name"),
        c("name"),
        c("username"),
        c("is_messenger_user"),
        c("is_friend"),
        c("friendship_status"),
        c("contact_relationship_status"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(names);
    };
    note_pages_cap(ctx, name, &pages, "threads_db2 users")?;
    for (inv, t, row) in pages.rows() {
        let key_value = t.get(row, "user_key").unwrap_or("?");
        let id = t.get(row, "id");
        let full = [t.get(row, "first_name"), t.get(row, "last_name")]
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let label = t
            .get(row, "name")
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .or_else(|| (!full.is_empty()).then(|| full.clone()))
            .unwrap_or_else(|| key_value.to_string());
        if let Some(id) = id {
            names.insert(id.to_string(), label.clone());
        }
        let own = id.is_some() && id == me;
        let mut d = Draft::new(
            if own { "accounts" } else { "contacts" },
            if own {
                format!("Facebook account {label} (the device's user)")
            } else {
                format!("Facebook Messenger user {label}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "user_key").as_deref(), inv);
        for col in ["first_name", "last_name", "name"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Account, raw(t, row, "username").as_deref(), inv);
        d.fact(FactType::Phone, raw(t, row, "phone").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "picture").as_deref(), inv);
        for col in ["friendship_status", "contact_relationship_status"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        let flag = |col: &str| match t.get(row, col) {
            Some("0") => "no",
            Some(v) if !v.is_empty() => "yes",
            _ => "not stored",
        };
        d.interpretation = format!(
            "thread_users row {} of {name} ({key} {key_value}): {} (Messenger user {}, friend {}, friendship status {}).",
            t.get(row, "rid").unwrap_or("?"),
            match (own, id) {
                (true, Some(id)) => format!(
                    "the Facebook account signed in on the device (Facebook id {id}, the id threads_db2-uid holds)"
                ),
                (false, Some(id)) =>
                    format!("a Facebook user the account talked with, Facebook id {id}"),
                _ =>
                    "a participant known by a phone number or e-mail, not a Facebook id".to_string(),
            },
            flag("is_messenger_user"),
            flag("is_friend"),
            t.get(row, "friendship_status").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        let context = match id {
            Some(id) => me.map_or_else(|| format!("facebook:{id}"), |me| context_of(id, me)),
            None => match t.get(row, "phone") {
                Some(phone) => format!(
                    "handle:{}",
                    crate::identity::normalized(ctx, IdType::Phone, phone)
                        .unwrap_or_else(|| phone.to_string())
                ),
                None => format!("facebook-user-key:{key_value}"),
            },
        };
        let entity_label = if own { "device owner" } else { label.as_str() };
        let why =
            |what: &str| format!("{what} of the Facebook user {label} (threads_db2 thread_users).");
        crate::identity::observe_columns(
            ctx,
            &context,
            entity_label,
            t,
            row,
            inv,
            &[
                ("account", IdType::AccountId, "The Facebook id"),
                ("user_account", IdType::AccountId, "The Facebook user name"),
                ("name", IdType::DisplayName, "The name"),
                ("phone", IdType::Phone, "The phone number"),
            ],
            &|what| why(what),
        )?;
    }
    Ok(names)
}

/// (reaction, reaction time) by message id.
/// Each message's reactions: the page that holds each, the reaction and its time.
type Reactions<'a> = BTreeMap<String, Vec<(&'a Invoked, String, Option<String>)>>;

/// The rows of `message_reactions`.
fn reactions(ctx: &AgentCtx<'_>, l: &Located) -> Result<Option<Paged>, RuntimeError> {
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "message_reactions")?;
    if !cols.contains("msg_id") || !cols.contains("reaction") {
        return Ok(None);
    }
    // four spellings of the time are known across the store's versions
    let time = [
        "reaction_timestamp",
        "reaction_timestamp_ms",
        "reaction_creation_timestamp_ms",
        "reaction_creation_time_ms",
    ]
    .into_iter()
    .find(|c| cols.contains(*c))
    .map_or("NULL AS time".to_string(), |c| format!("{c} AS time"));
    let sql = format!("SELECT msg_id, reaction, {time} FROM message_reactions ORDER BY rowid");
    pages_on(ctx, &l.tree, &l.path, &sql)
}

/// The reactions of [`reactions`]' rows by message.
fn by_message(pages: &Paged) -> Reactions<'_> {
    let mut by = Reactions::new();
    for (inv, t, row) in pages.rows() {
        if let (Some(m), Some(r)) = (t.get(row, "msg_id"), raw(t, row, "reaction")) {
            by.entry(m.to_string()).or_default().push((
                inv,
                r,
                t.get(row, "time").map(str::to_string),
            ));
        }
    }
    by
}

/// The other party of a one-to-one thread key (`ONE_TO_ONE:<a>:<b>`): the id that is not `me`.
fn other_of<'a>(thread: &'a str, me: Option<&str>) -> Option<&'a str> {
    let mut ids = thread.strip_prefix("ONE_TO_ONE:")?.split(':');
    let (a, b) = (ids.next()?, ids.next()?);
    match me {
        Some(me) if a == me => Some(b),
        Some(me) if b == me => Some(a),
        _ => None,
    }
}

/// The messages, and the calls among them.
fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    me: Option<&str>,
    names: &BTreeMap<String, String>,
    has: &dyn Fn(&str) -> bool,
) -> Result<(), RuntimeError> {
    let cols = crate::identity::table_columns(ctx, &l.tree, &l.path, "messages")?;
    let thread = ["thread_key", "thread_id"]
        .into_iter()
        .find(|k| cols.contains(*k));
    let Some(thread) = thread else {
        crate::calls::require_columns(
            ctx,
            name,
            STORE,
            "messages",
            &cols,
            &["msg_id", "thread_key", "timestamp_ms", "sender"],
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        name,
        STORE,
        "messages",
        &cols,
        &["msg_id", "timestamp_ms", "sender"],
    )? {
        return Ok(());
    }
    let reaction_rows = if has("message_reactions") {
        reactions(ctx, l)?
    } else {
        None
    };
    let reactions = reaction_rows.as_ref().map(by_message);
    let thread_name = if has("threads") {
        let tcols = crate::identity::table_columns(ctx, &l.tree, &l.path, "threads")?;
        (tcols.contains(thread) && tcols.contains("name")).then(|| {
            format!("(SELECT t.name FROM threads t WHERE t.{thread} = m.{thread}) AS thread_name")
        })
    } else {
        None
    };
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    let sender_key = "CASE WHEN json_valid(m.sender) THEN json_extract(m.sender, '$.user_key') END";
    let sql = format!(
        "SELECT m.msg_id AS msg_id, m.{thread} AS thread, m.timestamp_ms AS time, {}, {}, {}, {}, \
         CASE WHEN json_valid(m.sender) THEN json_extract(m.sender, '$.name') END AS sender_name, \
         {sender_key} AS sender_key, \
         CASE WHEN {sender_key} LIKE 'FACEBOOK:%' THEN substr({sender_key}, 10) END AS sender_id, \
         CASE WHEN {sender_key} LIKE 'FACEBOOK:%' THEN 'facebook:' || substr({sender_key}, 10) END AS sender_account, \
         {}, {}, CASE WHEN json_valid(m.attachments) THEN json_array_length(m.attachments) END AS attachment_count, \
         {}, {}, {}, {}, {}, {}, {}, \
         m.timestamp_ms - 1000 * ({}) AS call_start, {}, {}",
        c("timestamp_sent_ms"),
        c("text"),
        c("snippet"),
        c("msg_type"),
        json_col(&cols, "attachments", "$[0].filename", "attachment_name"),
        json_col(&cols, "attachments", "$[0].mime_type", "attachment_mime"),
        json_col(&cols, "shares", "$[0].name", "share_name"),
        json_col(&cols, "shares", "$[0].description", "share_description"),
        json_col(&cols, "shares", "$[0].href", "share_link"),
        json_col(&cols, "coordinates", "$.latitude", "latitude"),
        json_col(&cols, "coordinates", "$.longitude", "longitude"),
        json_col(
            &cols,
            "generic_admin_message_extensible_data",
            "$.call_duration",
            "call_duration"
        ),
        json_col(
            &cols,
            "generic_admin_message_extensible_data",
            "$.caller_id",
            "caller_id"
        ),
        if cols.contains("generic_admin_message_extensible_data") {
            "CASE WHEN json_valid(m.generic_admin_message_extensible_data) THEN json_extract(m.generic_admin_message_extensible_data, '$.call_duration') END"
        } else {
            "NULL"
        },
        if cols.contains("generic_admin_message_extensible_data") {
            "CASE WHEN json_valid(m.generic_admin_message_extensible_data) THEN json_extract(m.generic_admin_message_extensible_data, '$.video') END AS video"
        } else {
            "NULL AS video"
        },
        thread_name.as_deref().unwrap_or("NULL AS thread_name"),
    );
    let sql = format!("{sql} FROM messages m ORDER BY m.timestamp_ms, m.rowid");
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "threads_db2 messages")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "msg_id").unwrap_or("?");
        let thread_key = t.get(row, "thread").unwrap_or("?");
        let sender = t.get(row, "sender_id");
        let sender_name = t.get(row, "sender_name").filter(|n| !n.is_empty());
        let who = sender_name
            .or_else(|| sender.and_then(|s| names.get(s)).map(String::as_str))
            .or(sender)
            .unwrap_or("an unnamed sender");
        let other = other_of(thread_key, me);
        let thread_label = t
            .get(row, "thread_name")
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .or_else(|| other.map(|o| names.get(o).cloned().unwrap_or_else(|| o.to_string())))
            .unwrap_or_else(|| thread_key.to_string());
        let sent = match (sender, me) {
            (Some(s), Some(me)) => Some(s == me),
            _ => None,
        };
        if t.get(row, "call_duration").is_some() {
            call(ctx, l, name, inv, t, row, me, &thread_label)?;
            observe_sender(ctx, t, row, inv, me, who)?;
            continue;
        }
        let mut d = Draft::new(
            "messages",
            match sent {
                Some(true) => format!("Facebook Messenger message sent in {thread_label}"),
                _ => format!("Facebook Messenger message from {who}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "msg_id").as_deref(), inv);
        d.fact(FactType::Identifier, raw(t, row, "thread").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "thread_name").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "sender_key").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "sender_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
        for col in ["text", "snippet", "share_name", "share_description"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(
            FactType::Name,
            raw(t, row, "attachment_name").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "attachment_mime").as_deref(),
            inv,
        );
        d.fact(FactType::Url, raw(t, row, "share_link").as_deref(), inv);
        for col in ["latitude", "longitude"] {
            d.fact(FactType::Text, t.get(row, col), inv);
        }
        let time = t.get(row, "time");
        d.time(
            time,
            unix_millis(time),
            match sent {
                Some(true) => "Message sent",
                Some(false) => "Message received",
                None => "Message time",
            },
            inv,
        );
        let sent_time = t.get(row, "timestamp_sent_ms");
        d.time(
            sent_time,
            unix_millis(sent_time),
            "Sent time the sender's app gave",
            inv,
        );
        let mut reaction_count = 0;
        if let Some(by) = &reactions
            && let Some(rs) = by.get(id)
        {
            for (rinv, r, time) in rs {
                reaction_count += 1;
                d.fact(FactType::Text, Some(r), rinv);
                d.time(
                    time.as_deref(),
                    unix_millis(time.as_deref()),
                    "Reaction added",
                    rinv,
                );
            }
        }
        d.interpretation = format!(
            "messages row {id} of {name}: a Facebook Messenger message in {thread} {thread_key}{} {} (msg_type {}), with {} attachment(s) and {reaction_count} reaction(s); timestamp_ms is Unix milliseconds.",
            t.get(row, "thread_name")
                .map(|n| format!(" (named {n})"))
                .unwrap_or_default(),
            match (sent, sender) {
                (Some(true), _) =>
                    "sent by the device's user (its sender is the id threads_db2-uid holds)"
                        .to_string(),
                (Some(false), Some(s)) => format!("from {who} (Facebook id {s}), received"),
                (None, Some(s)) => format!(
                    "from {who} (Facebook id {s}; no threads_db2-uid was found, so the direction is not known)"
                ),
                (_, None) => "whose sender JSON names no Facebook id".to_string(),
            },
            t.get(row, "msg_type").unwrap_or("not stored"),
            t.get(row, "attachment_count").unwrap_or("0"),
        );
        record_draft(ctx, d)?;
        observe_sender(ctx, t, row, inv, me, who)?;
        let (Some(text), Some(sent), Some(sender)) =
            (t.get(row, "text").filter(|s| !s.is_empty()), sent, sender)
        else {
            continue;
        };
        let party = if sent {
            other.map(|o| OwnedParty {
                context: format!("facebook:{o}"),
                label: names.get(o).cloned().unwrap_or_else(|| o.to_string()),
                role: format!("Facebook id {o}, who received it (the other id of {thread_key})"),
            })
        } else {
            Some(OwnedParty {
                context: format!("facebook:{sender}"),
                label: who.to_string(),
                role: format!("{who}, who sent it (sender user_key FACEBOOK:{sender})"),
            })
        };
        crate::identity::message_claims(
            ctx,
            inv,
            text,
            &format!("Facebook Messenger message {id}"),
            sent,
            &format!(
                "the device's user, who {} it (threads_db2-uid {})",
                if sent { "wrote" } else { "received" },
                me.unwrap_or("?")
            ),
            party.as_ref().map(OwnedParty::party),
        )?;
    }
    Ok(())
}

/// The person a message's `sender` JSON names.
fn observe_sender(
    ctx: &AgentCtx<'_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    me: Option<&str>,
    who: &str,
) -> Result<(), RuntimeError> {
    let Some(sender) = t.get(row, "sender_id") else {
        return Ok(());
    };
    let context = me.map_or_else(|| format!("facebook:{sender}"), |me| context_of(sender, me));
    let label = if context == "owner" {
        "device owner"
    } else {
        who
    };
    crate::identity::observe_columns(
        ctx,
        &context,
        label,
        t,
        row,
        inv,
        &[
            ("sender_account", IdType::AccountId, "The Facebook id"),
            ("sender_name", IdType::DisplayName, "The name"),
        ],
        &|what| format!("{what} a threads_db2 message's sender JSON gives ({who})."),
    )?;
    Ok(())
}

/// A call: a message carrying `generic_admin_message_extensible_data`'s `call_duration`.
#[allow(clippy::too_many_arguments)]
fn call(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    inv: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    me: Option<&str>,
    thread_label: &str,
) -> Result<(), RuntimeError> {
    let caller = t.get(row, "caller_id");
    let direction = match (caller, me) {
        (Some(c), Some(me)) if c == me => "outgoing",
        (Some(_), Some(_)) => "incoming",
        _ => "direction not known:",
    };
    let video = matches!(t.get(row, "video"), Some("1") | Some("true"));
    let mut d = Draft::new(
        "calls",
        format!(
            "Facebook Messenger {direction} {}call with {thread_label}",
            if video { "video " } else { "" }
        ),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Identifier, raw(t, row, "msg_id").as_deref(), inv);
    d.fact(FactType::Identifier, raw(t, row, "thread").as_deref(), inv);
    d.fact(FactType::Account, raw(t, row, "caller_id").as_deref(), inv);
    d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
    d.fact(FactType::Count, t.get(row, "call_duration"), inv);
    let start = t.get(row, "call_start");
    d.time(
        start,
        unix_millis(start),
        "Call started (the message's time less the duration)",
        inv,
    );
    let end = t.get(row, "time");
    d.time(
        end,
        unix_millis(end),
        "Call ended (the message's time)",
        inv,
    );
    d.interpretation = format!(
        "messages row {} of {name}: a Messenger {}call in {} lasting {} s, made by Facebook id {}{}; the store logs a call as a message when it ends.",
        t.get(row, "msg_id").unwrap_or("?"),
        if video { "video " } else { "voice " },
        t.get(row, "thread").unwrap_or("?"),
        t.get(row, "call_duration").unwrap_or("?"),
        caller.unwrap_or("?"),
        match direction {
            "outgoing" => ", the device's user (threads_db2-uid)",
            "incoming" => ", not the device's user (threads_db2-uid)",
            _ => " (no threads_db2-uid was found)",
        },
    );
    record_draft(ctx, d)
}
