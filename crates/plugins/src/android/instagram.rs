//! Instagram direct messages on Android (`com.instagram.android/databases/direct.db`): the app's
//! own tables, each row's data a JSON document read with SQLite's JSON functions (a cell that is
//! not JSON gives nothing, the row is still read).
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `session` (else `threads.user_id`) | the account | the signed-in account's id (pk); the device's user (`owner`), `instagram:<pk>` |
//! | `threads` with `thread_info` | one per thread | thread id and v2 id, title, last activity (µs), pinned, the inviter and every recipient (pk, user name, full name); each user an `instagram:<pk>` person (`account_id` `instagram:<pk>`, user name as nickname, full name) |
//! | `messages` with `message` | one per message | item id, server and client ids, thread, type, sender pk (the JSON's `user_id`), time (µs), text — the column, or the JSON's `text`, a reel reply's text, an action's description, a link's text and URL; direction: the sender is the signed-in account or not; wallet addresses in a text are claims of its writer |
//!
//! The pk is Instagram's numeric user id, the one the iOS app names its database after, so a
//! user one phone knows joins the account another phone is signed in with.

use std::collections::BTreeMap;

use crate::calls::json_at;
use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_micros};
use crate::identity::{OwnedParty, artefact_name, observe, pages_on, query_on, table_columns};
use crate::outputs::raw;

/// What the store is called in a note.
const STORE: &str = "Instagram's direct.db";

/// A user's pk in a JSON user object at `obj` of `cell`: `pk_id` (Dec 2022 on), `id`, `pk`.
fn pk(cell: &str, obj: &str) -> String {
    format!(
        "coalesce({}, {}, {})",
        json_at(cell, &format!("{obj}.pk_id")),
        json_at(cell, &format!("{obj}.id")),
        json_at(cell, &format!("{obj}.pk"))
    )
}

/// One `direct.db`.
pub fn direct(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["messages"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let has = |t: &str| tables.iter().any(|x| x == t);
    let me = account(ctx, l, &name, has("session"), has("threads"))?;
    let names = if has("threads") {
        threads(ctx, l, &name, me.as_deref())?
    } else {
        BTreeMap::new()
    };
    messages(ctx, l, &name, me.as_deref(), &names)
}

/// The signed-in account: `session.user_id`, else the one `user_id` of `threads`; recorded
/// and observed as the owner.
fn account(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    session: bool,
    threads: bool,
) -> Result<Option<String>, RuntimeError> {
    let (table, sql) = if session {
        (
            "session",
            "SELECT DISTINCT user_id, 'instagram:' || user_id AS account FROM session WHERE user_id != ''",
        )
    } else if threads {
        (
            "threads",
            "SELECT DISTINCT user_id, 'instagram:' || user_id AS account FROM threads WHERE user_id != ''",
        )
    } else {
        return Ok(None);
    };
    let cols = table_columns(ctx, &l.tree, &l.path, table)?;
    if !cols.contains("user_id") {
        return Ok(None);
    }
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, sql, 10)? else {
        return Ok(None);
    };
    // one account per database: more than one says nothing of which is the device's user
    let [row] = t.rows.as_slice() else {
        return Ok(None);
    };
    let Some(id) = t.get(row, "user_id").map(str::to_string) else {
        return Ok(None);
    };
    let mut d = Draft::new(
        "accounts",
        format!("Instagram account {id} (the device's user)"),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, Some(&id), &inv);
    d.interpretation = format!(
        "{table}.user_id of {name}: the Instagram account (pk {id}) signed in to the app on the device; the database is its direct inbox."
    );
    record_draft(ctx, d)?;
    if let Some(a) = t.get(row, "account") {
        observe(
            ctx,
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AccountId,
            a,
            &inv,
            format!(
                "The Instagram account signed in on the device ({table}.user_id of direct.db)."
            ),
        )?;
    }
    Ok(Some(id))
}

/// A thread's title and its users other than the signed-in account (pk, label).
#[derive(Default)]
struct Thread {
    title: Option<String>,
    others: Vec<(String, String)>,
}

/// The threads and their users; returns each thread by id.
fn threads(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    me: Option<&str>,
) -> Result<BTreeMap<String, Thread>, RuntimeError> {
    let mut out = BTreeMap::new();
    let cols = table_columns(ctx, &l.tree, &l.path, "threads")?;
    if !require_columns(
        ctx,
        name,
        STORE,
        "threads",
        &cols,
        &["thread_id", "thread_info"],
    )? {
        return Ok(out);
    }
    let info = "t.thread_info";
    let c = |col: &str| column_or_null(&cols, "t.", col, col);
    let sql = format!(
        "SELECT t.rowid AS rid, t.thread_id AS thread_id, {} AS v2, {} AS title, {}, {}, {} FROM threads t ORDER BY t.rowid",
        json_at(info, "$.thread_v2_id"),
        json_at(info, "$.thread_title"),
        c("last_activity_time"),
        c("is_pinned"),
        c("recipient_ids"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(out);
    };
    note_pages_cap(ctx, name, &pages, "Instagram threads")?;
    // every user of every thread: the recipients, then the inviter
    let safe = format!("CASE WHEN json_valid({info}) THEN {info} ELSE '{{}}' END");
    let usql = format!(
        "SELECT t.thread_id AS thread_id, 'recipient' AS role, {p} AS pk, 'instagram:' || {p} AS account, json_extract(r.value, '$.username') AS username, json_extract(r.value, '$.full_name') AS full_name \
         FROM threads t, json_each({safe}, '$.recipients') r \
         UNION ALL SELECT t.thread_id, 'inviter', {ip}, 'instagram:' || {ip}, {iu}, {if_} FROM threads t WHERE {ip} IS NOT NULL \
         ORDER BY 1, 2, 3",
        p = "coalesce(json_extract(r.value, '$.pk_id'), json_extract(r.value, '$.id'), json_extract(r.value, '$.pk'))",
        ip = pk(info, "$.inviter"),
        iu = json_at(info, "$.inviter.username"),
        if_ = json_at(info, "$.inviter.full_name"),
    );
    let users = pages_on(ctx, &l.tree, &l.path, &usql)?;
    if let Some(u) = &users {
        note_pages_cap(ctx, name, u, "Instagram thread members")?;
    }
    let mut by_thread: BTreeMap<&str, Vec<crate::calls::PagedRow>> = BTreeMap::new();
    for (uinv, ut, row) in users.iter().flat_map(|u| u.rows()) {
        if let Some(th) = ut.get(row, "thread_id") {
            by_thread.entry(th).or_default().push((uinv, ut, row));
        }
    }
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "thread_id") else {
            continue;
        };
        let title = t.get(row, "title").filter(|s| !s.is_empty());
        let mut d = Draft::new(
            "messages",
            format!("Instagram thread {}", title.unwrap_or(id)),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "thread_id").as_deref(),
            inv,
        );
        d.fact(FactType::Identifier, raw(t, row, "v2").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "title").as_deref(), inv);
        let last = t.get(row, "last_activity_time");
        d.time(last, unix_micros(last), "Last activity in the thread", inv);
        let mut thread = Thread {
            title: title.map(str::to_string),
            others: Vec::new(),
        };
        let mut listed = Vec::new();
        for &(uinv, ut, urow) in by_thread.get(id).into_iter().flatten() {
            let Some(pk) = ut.get(urow, "pk").filter(|p| !p.is_empty()) else {
                continue;
            };
            let user_name = ut.get(urow, "username").filter(|s| !s.is_empty());
            let full = ut.get(urow, "full_name").filter(|s| !s.is_empty());
            d.fact(FactType::Account, raw(ut, urow, "pk").as_deref(), uinv);
            d.fact(
                FactType::Account,
                raw(ut, urow, "username").as_deref(),
                uinv,
            );
            d.fact(FactType::Name, raw(ut, urow, "full_name").as_deref(), uinv);
            let role = ut.get(urow, "role").unwrap_or("recipient");
            listed.push(format!(
                "{pk} ({}{}, {role})",
                user_name.unwrap_or("no user name"),
                full.map(|f| format!(", {f}")).unwrap_or_default()
            ));
            let own = Some(pk) == me;
            let label = full.or(user_name).unwrap_or(pk).to_string();
            if !own && role == "recipient" {
                thread.others.push((pk.to_string(), label.clone()));
            }
            let context = if own {
                "owner".to_string()
            } else {
                format!("instagram:{pk}")
            };
            let entity_label = if own { "device owner" } else { label.as_str() };
            crate::identity::observe_columns(
                ctx,
                &context,
                entity_label,
                ut,
                urow,
                uinv,
                &[
                    ("account", IdType::AccountId, "The Instagram id (pk)"),
                    ("username", IdType::Nickname, "The user name"),
                    ("full_name", IdType::DisplayName, "The full name"),
                ],
                &|what| {
                    format!(
                        "{what} of {label}, the {role} of an Instagram direct thread ({}).",
                        if own {
                            "the signed-in account"
                        } else {
                            "a user the account talked with"
                        }
                    )
                },
            )?;
        }
        d.interpretation = format!(
            "threads row {} of {name}: the Instagram direct thread {id}{}{} with {}; last_activity_time is Unix microseconds.",
            t.get(row, "rid").unwrap_or("?"),
            title.map(|n| format!(" titled {n}")).unwrap_or_default(),
            if t.get(row, "is_pinned") == Some("1") {
                ", pinned"
            } else {
                ""
            },
            if listed.is_empty() {
                "no user its thread_info names (not JSON, or none listed)".to_string()
            } else {
                listed.join("; ")
            },
        );
        record_draft(ctx, d)?;
        out.insert(id.to_string(), thread);
    }
    Ok(out)
}

/// The messages.
fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    me: Option<&str>,
    threads: &BTreeMap<String, Thread>,
) -> Result<(), RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "messages")?;
    if !require_columns(
        ctx,
        name,
        STORE,
        "messages",
        &cols,
        &["thread_id", "timestamp", "message"],
    )? {
        return Ok(());
    }
    let m = "m.message";
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    let sender = json_at(m, "$.user_id");
    let sql = format!(
        "SELECT m.rowid AS rid, m.thread_id AS thread_id, m.timestamp AS time, {}, {}, {}, {}, \
         {} AS item_id, {} AS item_type, {sender} AS sender, 'instagram:' || {sender} AS sender_account, \
         {} AS json_text, {} AS reel_text, {} AS action, {} AS link_text, {} AS link_url \
         FROM messages m ORDER BY m.timestamp, m.rowid",
        c("server_item_id"),
        c("client_item_id"),
        c("message_type"),
        c("text"),
        json_at(m, "$.item_id"),
        json_at(m, "$.item_type"),
        json_at(m, "$.text"),
        json_at(m, "$.reel_share.text"),
        json_at(m, "$.action_log.description"),
        json_at(m, "$.link.text"),
        json_at(m, "$.link.link_context.link_url"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Instagram messages")?;
    for (inv, t, row) in pages.rows() {
        let id = t
            .get(row, "item_id")
            .or(t.get(row, "server_item_id"))
            .or(t.get(row, "rid"))
            .unwrap_or("?");
        let thread_id = t.get(row, "thread_id").unwrap_or("?");
        let thread = threads.get(thread_id);
        let thread_label = thread.and_then(|t| t.title.as_deref()).unwrap_or(thread_id);
        let from = t.get(row, "sender").filter(|s| !s.is_empty());
        let sent = match (from, me) {
            (Some(f), Some(me)) => Some(f == me),
            _ => None,
        };
        let from_label = from.map(|f| {
            thread
                .and_then(|t| t.others.iter().find(|(pk, _)| pk == f))
                .map_or(f.to_string(), |(_, l)| l.clone())
        });
        let kind = t
            .get(row, "item_type")
            .or(t.get(row, "message_type"))
            .unwrap_or("message");
        let mut d = Draft::new(
            "messages",
            match (sent, &from_label) {
                (Some(true), _) => format!("Instagram {kind} sent in {thread_label}"),
                (_, Some(f)) => format!("Instagram {kind} from {f}"),
                _ => format!("Instagram {kind} in {thread_label}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["item_id", "server_item_id", "client_item_id", "thread_id"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Account, raw(t, row, "sender").as_deref(), inv);
        let texts: Vec<String> = ["text", "json_text", "reel_text", "action", "link_text"]
            .into_iter()
            .filter_map(|c| raw(t, row, c).filter(|s| !s.is_empty()))
            .fold(Vec::new(), |mut v, s| {
                if !v.contains(&s) {
                    v.push(s);
                }
                v
            });
        for s in &texts {
            d.fact(FactType::Text, Some(s), inv);
        }
        d.fact(FactType::Url, raw(t, row, "link_url").as_deref(), inv);
        let time = t.get(row, "time");
        d.time(
            time,
            unix_micros(time),
            match sent {
                Some(true) => "Message sent",
                Some(false) => "Message received",
                None => "Message time",
            },
            inv,
        );
        d.interpretation = format!(
            "messages row {} of {name}: an Instagram {kind} in the thread {thread_id} {}; timestamp is Unix microseconds.",
            t.get(row, "rid").unwrap_or("?"),
            match (sent, from) {
                (Some(true), _) =>
                    "sent by the signed-in account (its user_id is the account's pk)".to_string(),
                (Some(false), Some(f)) => format!("from pk {f}, received"),
                (None, Some(f)) => format!("from pk {f} (the signed-in account is not known)"),
                (_, None) => "whose message JSON names no sender (not JSON)".to_string(),
            },
        );
        record_draft(ctx, d)?;
        observe_sender(ctx, t, row, inv, me, from_label.as_deref())?;
        let (Some(sent), Some(from)) = (sent, from) else {
            continue;
        };
        // the reader of a sent message: the one other user of its thread
        let reader = thread.and_then(|t| match t.others.as_slice() {
            [one] => Some(one),
            _ => None,
        });
        let other = if sent {
            reader.map(|(pk, label)| OwnedParty {
                context: format!("instagram:{pk}"),
                label: label.clone(),
                role: format!("{label} (pk {pk}), who received it, the thread's one other user"),
            })
        } else {
            let label = from_label.clone().unwrap_or_else(|| from.to_string());
            Some(OwnedParty {
                context: format!("instagram:{from}"),
                role: format!("{label}, who sent it (user_id {from})"),
                label,
            })
        };
        for text in &texts {
            crate::identity::message_claims(
                ctx,
                inv,
                text,
                &format!("Instagram message {id}"),
                sent,
                &format!(
                    "the device's user, who {} it (the signed-in account {})",
                    if sent { "wrote" } else { "received" },
                    me.unwrap_or("?")
                ),
                other.as_ref().map(OwnedParty::party),
            )?;
        }
    }
    Ok(())
}

/// The sender of a message, by the pk its JSON names.
fn observe_sender(
    ctx: &AgentCtx<'_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    me: Option<&str>,
    label: Option<&str>,
) -> Result<(), RuntimeError> {
    let (Some(from), Some(account)) = (t.get(row, "sender"), t.get(row, "sender_account")) else {
        return Ok(());
    };
    let own = Some(from) == me;
    observe(
        ctx,
        &if own {
            "owner".to_string()
        } else {
            format!("instagram:{from}")
        },
        EntityKind::Person,
        if own {
            "device owner"
        } else {
            label.unwrap_or(from)
        },
        IdType::AccountId,
        account,
        inv,
        "The Instagram id (pk) a direct message's JSON names as its sender.".to_string(),
    )?;
    Ok(())
}
