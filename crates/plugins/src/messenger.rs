//! Facebook Messenger's store of the current ("msys", Lightspeed) generation, the same SQLite
//! layout on both platforms: Android `com.facebook.orca/databases/msys_database_<uid>` and iOS
//! `…/lightspeed-userDatabases/<uid>.db`, each named after the signed-in user's Facebook id.
//!
//! | table | phenomenon | fields (ALEAPP's `FacebookMessenger` msys reports) and identities |
//! |---|---|---|
//! | `contacts` | one per contact | Facebook id, name, normalised name, user name, profile picture URL, e-mail, phone, Messenger user, friendship status, birthday; each a `facebook:<id>` person (`account_id` `facebook:<id>`, `facebook-user:<user name>`, name, e-mail, phone), the row whose id names the store being the device's user (`owner`) |
//! | `messages` with `attachments`, `attachment_ctas`, `reactions` | one per message | time (Unix ms), sender id and name, direction (the sender is the store's user or not), thread key, text, admin flag, message id; each attachment's title, subtitle, file name, MIME type, URL, link; each reaction and its time; wallet addresses in a text are claims of its writer |
//! | `messages`' earlier page versions and free space (`sqlite_wal_history`) | one per message deleted or changed since | as a live message: time, sender id and name (from the live `contacts`), direction, thread, text, message id; the status and where it was read; wallet addresses in its text are still its writer's claims |
//! | `call_log` | one per call | time (Unix ms), duration, direction, video, seen, thread key and its contact's name |
//!
//! Columns are taken by name; a table lacking its key columns is noted with their names. The
//! store's Facebook id comes from its file name, as Messenger names it; nothing is guessed
//! when the name does not carry one (no `owner`, no direction).

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{
    Party, TreeRef, artefact_name, pages_on, required_columns, table_columns, tables_on,
};
use crate::outputs::raw;

/// What the store is called in a note.
const STORE: &str = "Facebook Messenger's store";

/// The Facebook id a Messenger store's path names (`msys_database_<uid>` on Android,
/// `lightspeed-userDatabases/<uid>.db` on iOS), `None` when `path` is not such a store (its
/// `-wal`, `-shm` or `-journal` included).
pub fn store_uid(path: &str) -> Option<&str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let uid = name.strip_prefix("msys_database_").or_else(|| {
        path.contains("/lightspeed-userDatabases/")
            .then(|| name.strip_suffix(".db"))
            .flatten()
    })?;
    (!uid.is_empty() && uid.bytes().all(|b| b.is_ascii_digit())).then_some(uid)
}

/// Reads one Messenger store at `path` of `tree` (`found`: the call that listed it).
pub fn msys(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    let Some(uid) = store_uid(path) else {
        return Ok(());
    };
    let Some((_, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let has = |t: &str| tables.iter().any(|x| x == t);
    if !has("contacts") || !has("messages") {
        ctx.unparsed(
            &name,
            "not a Facebook Messenger store: no contacts or messages table",
            None,
        )?;
        return Ok(());
    }
    let names = contacts(ctx, tree, path, found, &name, uid)?;
    messages(ctx, tree, path, found, &name, uid, &names, &has)?;
    recovered(ctx, tree, path, found, &name, uid)?;
    if has("call_log") {
        calls(ctx, tree, path, found, &name, uid)?;
    }
    Ok(())
}

/// The entity context of a Facebook id: the device's user for the store's own id.
pub(crate) fn context_of(id: &str, uid: &str) -> String {
    if id == uid {
        "owner".to_string()
    } else {
        format!("facebook:{id}")
    }
}

/// The contacts; returns each id's name.
fn contacts(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    uid: &str,
) -> Result<BTreeMap<String, String>, RuntimeError> {
    let mut names = BTreeMap::new();
    let Some(cols) = required_columns(ctx, tree, path, STORE, "contacts", &["id", "name"])? else {
        return Ok(names);
    };
    let c = |col: &str| column_or_null(&cols, "", col, col);
    // the user name namespaced by the query, so that the account id grounds in its output
    let user_account = if cols.contains("username") {
        "CASE WHEN username != '' THEN 'facebook-user:' || username END"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT id, 'facebook:' || id AS account, name, {}, {}, {user_account} AS user_account, {}, {}, {}, {}, {}, {} FROM contacts ORDER BY rowid",
        c("normalized_name_for_search"),
        c("username"),
        c("profile_picture_large_url"),
        c("email_address"),
        c("phone_number"),
        c("is_messenger_user"),
        c("friendship_status"),
        c("birthday_timestamp"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(names);
    };
    note_pages_cap(ctx, name, &pages, "Messenger contacts")?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "id") else {
            continue;
        };
        let label = t
            .get(row, "name")
            .filter(|n| !n.is_empty())
            .unwrap_or(id)
            .to_string();
        names.insert(id.to_string(), label.clone());
        let own = id == uid;
        let friendship = match t.get(row, "friendship_status") {
            Some("0") => "the user themself",
            Some("1") => "a friend",
            Some("2") => "a friend request received",
            Some("3") => "a friend request sent",
            Some("4") => "not a friend",
            _ => "friendship not stored",
        };
        let mut d = Draft::new(
            if own { "accounts" } else { "contacts" },
            if own {
                format!("Facebook Messenger account {label} (the device's user)")
            } else {
                format!("Facebook Messenger contact {label}")
            },
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Account, raw(t, row, "account").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "username").as_deref(), inv);
        d.fact(
            FactType::Email,
            raw(t, row, "email_address").as_deref(),
            inv,
        );
        d.fact(FactType::Phone, raw(t, row, "phone_number").as_deref(), inv);
        d.fact(
            FactType::Url,
            raw(t, row, "profile_picture_large_url").as_deref(),
            inv,
        );
        d.fact(FactType::Text, t.get(row, "birthday_timestamp"), inv);
        d.interpretation = format!(
            "contacts row {id} of {name}: {} ({friendship}, Messenger user {}); the store is named after Facebook id {uid}.",
            if own {
                "the Facebook account signed in to Messenger on the device".to_string()
            } else {
                format!("a contact of the Messenger user, Facebook id {id}")
            },
            match t.get(row, "is_messenger_user") {
                Some("1") => "yes",
                Some("0") => "no",
                _ => "not stored",
            },
        );
        record_draft(ctx, d)?;
        let context = context_of(id, uid);
        let who = if own {
            "the device owner".to_string()
        } else {
            label.clone()
        };
        let entity_label = if own { "device owner" } else { label.as_str() };
        let why = |what: &str| format!("{what} of the Facebook Messenger contact {label} ({who}).");
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
                ("email_address", IdType::Email, "The e-mail"),
                ("phone_number", IdType::Phone, "The phone number"),
            ],
            &|what| why(what),
        )?;
    }
    Ok(names)
}

/// One message's attachments, links and reactions, gathered from their tables.
#[derive(Default)]
struct Extras {
    /// (fact type, value, index of the call that printed it)
    facts: Vec<(FactType, String, usize)>,
    /// (reaction time, index of the call)
    reaction_times: Vec<(String, usize)>,
    attachments: usize,
    reactions: usize,
}

/// The messages, with their attachments, links and reactions.
#[allow(clippy::too_many_arguments)]
fn messages(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    uid: &str,
    names: &BTreeMap<String, String>,
    has: &dyn Fn(&str) -> bool,
) -> Result<(), RuntimeError> {
    let Some(cols) = required_columns(
        ctx,
        tree,
        path,
        STORE,
        "messages",
        &["message_id", "thread_key", "timestamp_ms", "sender_id"],
    )?
    else {
        return Ok(());
    };
    // attachments, links and reactions by message
    let mut calls: Vec<Invoked> = Vec::new();
    let mut extras: BTreeMap<String, Extras> = BTreeMap::new();
    for (table, wanted) in [
        (
            "attachments",
            &[
                ("title_text", FactType::Text),
                ("subtitle_text", FactType::Text),
                ("filename", FactType::Name),
                ("playable_url_mime_type", FactType::Identifier),
                ("playable_url", FactType::Url),
            ][..],
        ),
        ("attachment_ctas", &[("native_url", FactType::Url)][..]),
        ("reactions", &[("reaction", FactType::Text)][..]),
    ] {
        if !has(table) {
            continue;
        }
        let tcols = table_columns(ctx, tree, path, table)?;
        if !tcols.contains("message_id") {
            continue;
        }
        let mut select: Vec<String> = wanted
            .iter()
            .map(|(c, _)| column_or_null(&tcols, "", c, c))
            .collect();
        if table == "reactions" {
            select.push(column_or_null(
                &tcols,
                "",
                "reaction_creation_timestamp_ms",
                "reaction_time",
            ));
        }
        let sql = format!(
            "SELECT message_id, {} FROM {table} ORDER BY rowid",
            select.join(", ")
        );
        let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
            continue;
        };
        for (inv, t) in pages.pages {
            let at = calls.len();
            for row in &t.rows {
                let Some(m) = t.get(row, "message_id") else {
                    continue;
                };
                let e = extras.entry(m.to_string()).or_default();
                match table {
                    "attachments" => e.attachments += 1,
                    "reactions" => e.reactions += 1,
                    _ => {}
                }
                for (c, ft) in wanted {
                    if let Some(v) = raw(&t, row, c).filter(|v| !v.is_empty()) {
                        e.facts.push((*ft, v, at));
                    }
                }
                if let Some(v) = t.get(row, "reaction_time").filter(|v| *v != "0") {
                    e.reaction_times.push((v.to_string(), at));
                }
            }
            calls.push(inv);
        }
    }
    let sql = format!(
        "SELECT m.message_id AS message_id, m.thread_key AS thread_key, m.timestamp_ms AS time, m.sender_id AS sender_id, {}, {}, c.name AS sender_name FROM messages m LEFT JOIN contacts c ON c.id = m.sender_id ORDER BY m.timestamp_ms, m.rowid",
        column_or_null(&cols, "m.", "text", "text"),
        column_or_null(&cols, "m.", "is_admin_message", "admin"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Messenger messages")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "message_id").unwrap_or("?");
        let sender = t.get(row, "sender_id").unwrap_or("?");
        let thread = t.get(row, "thread_key").unwrap_or("?");
        let sent = sender == uid;
        let who = t
            .get(row, "sender_name")
            .filter(|n| !n.is_empty())
            .unwrap_or(sender);
        let thread_label = names.get(thread).map_or(thread, String::as_str);
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Facebook Messenger message sent in thread {thread_label}")
            } else {
                format!("Facebook Messenger message from {who}")
            },
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "message_id").as_deref(),
            inv,
        );
        d.fact(FactType::Account, Some(sender), inv);
        d.fact(FactType::Name, raw(t, row, "sender_name").as_deref(), inv);
        d.fact(FactType::Identifier, Some(thread), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        let time = t.get(row, "time");
        d.message_time(time, unix_millis(time), sent, inv);
        let e = extras.get(id);
        if let Some(e) = e {
            for (ft, v, at) in &e.facts {
                d.fact(*ft, Some(v), &calls[*at]);
            }
            for (v, at) in &e.reaction_times {
                d.time(Some(v), unix_millis(Some(v)), "Reaction added", &calls[*at]);
            }
        }
        d.interpretation = format!(
            "messages row {id} of {name}: a Facebook Messenger message in thread {thread} {} (sender id {sender}{}){}, with {} attachment(s) and {} reaction(s); timestamp_ms is Unix milliseconds.",
            if sent {
                "sent by the device's user".to_string()
            } else {
                format!("from {who}")
            },
            if sent {
                ", the id the store is named after"
            } else {
                ""
            },
            if t.get(row, "admin") == Some("1") {
                ", an admin message (the app's own notice)"
            } else {
                ""
            },
            e.map_or(0, |e| e.attachments),
            e.map_or(0, |e| e.reactions),
        );
        record_draft(ctx, d)?;
        let Some(text) = t.get(row, "text").filter(|s| !s.is_empty()) else {
            continue;
        };
        let context = context_of(sender, uid);
        let role = format!("{who}, who sent it (sender_id {sender})");
        let other = (!sent).then(|| Party {
            context: &context,
            label: who,
            role: &role,
        });
        crate::identity::message_claims(
            ctx,
            inv,
            text,
            &format!("Facebook Messenger message {id}"),
            sent,
            &owner_role(sent, uid, sender),
            other,
        )?;
    }
    Ok(())
}

/// Messages `messages` no longer shows that the write-ahead log, the file's replaced pages or
/// its free space still hold (deleted, or an earlier version of an edited or unsent message):
/// one phenomenon each, the sender named from the live `contacts`.
fn recovered(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    uid: &str,
) -> Result<(), RuntimeError> {
    let Some((inv, t)) = crate::recovered::wal_rows_on(ctx, tree, path, "messages", &[])? else {
        return Ok(());
    };
    let who = match crate::recovered::lookup_sql(&t, "sender_id", "contacts", "id", "id, name") {
        Some(sql) => crate::identity::query_on(ctx, tree, path, &sql, 10_000)?,
        None => None,
    };
    for row in &t.rows {
        let sender = t.get(row, "sender_id");
        let sent = sender == Some(uid);
        let named = sender.and_then(|s| {
            let (winv, w) = who.as_ref()?;
            let r = w.rows.iter().find(|r| w.get(r, "id") == Some(s))?;
            w.get(r, "name")
                .filter(|n| !n.is_empty())
                .map(|n| (winv, n))
        });
        let thread = t.get(row, "thread_key").unwrap_or("?");
        let word = crate::recovered::title_word(t.get(row, "status"));
        let mut d = Draft::new(
            "messages",
            match (sent, named, sender) {
                (true, _, _) => {
                    format!("{word} Facebook Messenger message sent in thread {thread} (recovered)")
                }
                (false, Some((_, n)), _) => {
                    format!("{word} Facebook Messenger message from {n} (recovered)")
                }
                (false, None, Some(s)) => {
                    format!("{word} Facebook Messenger message from {s} (recovered)")
                }
                (false, None, None) => {
                    format!("{word} Facebook Messenger message in thread {thread} (recovered)")
                }
            },
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Text, t.get(row, "status"), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "message_id").as_deref(),
            &inv,
        );
        d.fact(FactType::Account, sender, &inv);
        if let Some((winv, n)) = named {
            d.fact(FactType::Name, Some(n), winv);
        }
        d.fact(FactType::Identifier, t.get(row, "thread_key"), &inv);
        d.fact(FactType::Text, raw(&t, row, "text").as_deref(), &inv);
        let time = t.get(row, "timestamp_ms");
        d.message_time(time, unix_millis(time), sent, &inv);
        d.interpretation = format!(
            "messages row {} of {name}: a Facebook Messenger message in thread {thread} {}: {}; timestamp_ms is Unix milliseconds.",
            crate::recovered::key(&t, row, "rowid"),
            match (sent, sender) {
                (true, _) =>
                    "sent by the device's user (the id the store is named after)".to_string(),
                (false, Some(s)) => format!("from sender id {s}"),
                (false, None) => "whose sender is not kept".to_string(),
            },
            crate::recovered::provenance(&t, row)
        );
        record_draft(ctx, d)?;
        // a deleted message's wallet addresses are still its writer's claims
        let (Some(text), Some(sender)) = (t.get(row, "text").filter(|s| !s.is_empty()), sender)
        else {
            continue;
        };
        let context = context_of(sender, uid);
        let label = named.map_or(sender, |(_, n)| n);
        let role = format!("{label}, who sent it (sender_id {sender})");
        let other = (!sent).then(|| Party {
            context: &context,
            label,
            role: &role,
        });
        crate::identity::message_claims(
            ctx,
            &inv,
            text,
            &format!(
                "recovered Facebook Messenger message {}",
                t.get(row, "message_id").unwrap_or("?")
            ),
            sent,
            &owner_role(sent, uid, sender),
            other,
        )?;
    }
    Ok(())
}

/// The device's user's part in a message, for its wallet claims.
fn owner_role(sent: bool, uid: &str, sender: &str) -> String {
    format!(
        "the device's user, who {} it (sender_id {})",
        if sent { "wrote" } else { "received" },
        if sent { uid } else { sender }
    )
}

/// The call log.
fn calls(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    found: &Invoked,
    name: &str,
    uid: &str,
) -> Result<(), RuntimeError> {
    let Some(cols) = required_columns(
        ctx,
        tree,
        path,
        STORE,
        "call_log",
        &["call_timestamp_ms", "thread_key"],
    )?
    else {
        return Ok(());
    };
    let c = |col: &str| column_or_null(&cols, "l.", col, col);
    let sql = format!(
        "SELECT l.rowid AS call, l.call_timestamp_ms AS time, l.thread_key AS thread_key, {}, {}, {}, {}, c.name AS party FROM call_log l LEFT JOIN contacts c ON c.id = l.thread_key ORDER BY l.call_timestamp_ms",
        c("call_duration"),
        c("call_direction"),
        c("call_media_type"),
        c("has_been_seen"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Messenger calls")?;
    for (inv, t, row) in pages.rows() {
        let thread = t.get(row, "thread_key").unwrap_or("?");
        let party = t
            .get(row, "party")
            .filter(|p| !p.is_empty())
            .unwrap_or(thread);
        let direction = match t.get(row, "call_direction") {
            Some("1") => "Outgoing",
            Some("2") => "Incoming",
            _ => "Direction not stored:",
        };
        let video = t.get(row, "call_media_type") == Some("2");
        let mut d = Draft::new(
            "calls",
            format!(
                "Facebook Messenger {} {}call with {party}",
                direction.to_lowercase().trim_end_matches(':'),
                if video { "video " } else { "" }
            ),
        );
        d.fact(FactType::Path, Some(path), found);
        d.fact(FactType::Identifier, Some(thread), inv);
        d.fact(FactType::Name, raw(t, row, "party").as_deref(), inv);
        d.fact(FactType::Count, t.get(row, "call_duration"), inv);
        let time = t.get(row, "time");
        d.time(time, unix_millis(time), "Call started", inv);
        d.interpretation = format!(
            "call_log row {} of {name}: a Messenger {}call in thread {thread} of the user with Facebook id {uid}, lasting {} s, {}.",
            t.get(row, "call").unwrap_or("?"),
            if video { "video " } else { "" },
            t.get(row, "call_duration").unwrap_or("?"),
            match t.get(row, "has_been_seen") {
                Some("1") => "seen",
                Some("0") => "not seen",
                _ => "seen flag not stored",
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
