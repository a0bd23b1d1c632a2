//! Telegram for Android (`org.telegram.messenger` and the forks that keep its layout):
//! `files/cache4.db`, the client's cache of what the account sees, read with `sqlite_query`'s
//! `telegram` option (`masf_tools::tl`: the TL-serialised `data` objects of `users` and of the
//! messages decoded as JSON in the tool's output, so every value is grounded).
//!
//! - `users` (`uid`, `name` — `display;;;username` in lower case —, `status`, `data`): each user
//!   as a `telegram:<id>` person (the namespace is written by the query or the decoder) with the
//!   first and last name, `telegram_username` and phone number of its stored object (the name
//!   column when the object is of a layer the decoder does not know); the user whose object has
//!   the `self` flag is the account of the device (`owner`: its id, user name and phone).
//! - `user_contacts_v7`/`_v6` with `user_phones_v7`/`_v6`: the phone-book contacts the app
//!   synced, each number observed on its Telegram user.
//! - `chats` (groups and channels: id, title in lower case) and `dialogs` (each conversation, its
//!   last date and unread count) as phenomena.
//! - `enc_chats` (secret chats): id, the other user, the creator (`admin_id`), TTL and layer;
//!   the key columns (`g`, `authkey`, `fauthkey`, `khash`) and the `data` object holding the
//!   key exchange are never selected, so no key reaches a tool's output.
//! - `messages_v2`, else the older `messages`: each message with its dialog, date, direction,
//!   read state and the text of its stored object; the other party of a one-to-one dialog (a
//!   user, or the other user of a secret chat: `enc_chats.user`, or the decoded `to`/`from`);
//!   in a group or channel the sender of an incoming message is the decoded `from` (the
//!   object's `from_id`, read for TL layers 106–214), so what a member claims is theirs.
//!   Wallet addresses and contact claims ("my telegram is @x") in a text are claims by its
//!   direction ([`super::apps::claims_by_direction`]); the sender of an outgoing secret-chat
//!   message is the owner's account.
//!
//! - `shared_prefs/userconfing.xml` ([`userconfing`]): the signed-in account's own user object
//!   (base64 in `<string name="user">`), decoded by `read_xml`'s `telegram` option: the
//!   owner's id, user name, phone and name even when the cache was cleared.
//!
//! Each table is read on its own: a table missing or lacking a column is noted ("could not
//! parse … because …") and the others are still read. At most [`crate::calls::ROW_CAP`] rows per table, read in pages.

use std::collections::HashMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use serde_json::Value;

use super::Located;
use super::databases::tables_with;
use super::line::{col, columns};
use crate::calls::note_pages_cap;
use crate::drafts::{Draft, record_draft, unix_seconds};
use crate::identity::{artefact_name, observe, pages_on, pages_on_with};
use crate::outputs::{Table, in_json_cell, raw};

/// Triage of every `cache4.db` and `userconfing.xml` found.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    for l in found.iter().filter(|l| l.name() == "cache4.db") {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || cache4(ctx, l))?;
    }
    for l in found.iter().filter(|l| l.name() == "userconfing.xml") {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || userconfing(ctx, l))?;
    }
    Ok(())
}

/// `shared_prefs/userconfing.xml` (the client's `UserConfig`; `userconfig1.xml`… for further
/// accounts are named otherwise and not read here): the signed-in account's own user, kept as
/// the base64 of its stored object in `<string name="user">`, decoded by `read_xml`'s
/// `telegram` option. Present even when `cache4.db` was cleared.
pub fn userconfing(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_xml",
        crate::identity::args_on(
            &l.tree,
            serde_json::json!({"path": l.path, "telegram": true}),
        ),
    )?
    else {
        return Ok(());
    };
    let user = inv.output.text.lines().find_map(|line| {
        let json = line.strip_prefix("# decoded user: tl:")?;
        serde_json::from_str::<Value>(json).ok()
    });
    let Some(user) = user.filter(|u| u["read"] == "user") else {
        ctx.unparsed(
            &name,
            &format!("could not parse {name}: it holds no Telegram user object in <string name=\"user\"> (signed out, or a layout not read)"),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let Some(account) = user["id"].as_str() else {
        return Ok(());
    };
    let first = field(Some(&user), "first_name");
    let last = field(Some(&user), "last_name");
    let username = field(Some(&user), "username");
    let phone = field(Some(&user), "phone");
    let mut d = Draft::new(
        "accounts",
        format!("Telegram account {account} (signed in)"),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, Some(account), &inv);
    for f in [&first, &last] {
        d.fact(FactType::Name, f.as_ref().map(|(_, c)| c.as_str()), &inv);
    }
    d.fact(
        FactType::Account,
        username.as_ref().map(|(_, c)| c.as_str()),
        &inv,
    );
    d.fact(
        FactType::Phone,
        phone.as_ref().map(|(_, c)| c.as_str()),
        &inv,
    );
    d.interpretation = format!(
        "{name}: the account signed in to Telegram on the device, {account}, user name {}, phone {} — its own user object ({}, self flag {}) kept base64-encoded in the `user` preference.",
        username
            .as_ref()
            .map(|(u, _)| format!("@{u}"))
            .as_deref()
            .unwrap_or("(none)"),
        phone
            .as_ref()
            .map(|(p, _)| p.as_str())
            .unwrap_or("(not kept)"),
        user["constructor"].as_str().unwrap_or("?"),
        user["self"],
    );
    record_draft(ctx, d)?;
    let why = |what: &str| {
        format!("{what} of the Telegram account signed in on the device ({name}, `user`).")
    };
    for (id_type, value, what) in [
        (
            IdType::AccountId,
            Some(account.to_string()),
            "The namespaced user id",
        ),
        (
            IdType::TelegramUsername,
            username.map(|(u, _)| u),
            "The user name",
        ),
        (IdType::Phone, phone.map(|(p, _)| p), "The phone number"),
        // the name as one field holds it (the object keeps first and last apart)
        (
            IdType::DisplayName,
            first.or(last).map(|(n, _)| n),
            "The name",
        ),
    ] {
        if let Some(v) = value {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                id_type,
                &v,
                &inv,
                why(what),
            )?;
        }
    }
    Ok(())
}

/// The decoded object of a `tl:` cell.
fn decoded(t: &Table, row: &[Option<String>], c: &str) -> Option<Value> {
    t.get(row, c)
        .and_then(|v| v.strip_prefix("tl:"))
        .and_then(|j| serde_json::from_str(j).ok())
}

/// A string field of a decoded object, as it is (the value) and as the cell holds it (the fact).
fn field(v: Option<&Value>, k: &str) -> Option<(String, String)> {
    let s = v?.get(k)?.as_str()?.trim();
    (!s.is_empty()).then(|| (s.to_string(), in_json_cell(s)))
}

/// Notes `l` unparsed because `table` lacks some of `needed`; returns whether all are there.
fn has_columns(
    ctx: &AgentCtx<'_>,
    l: &Located,
    table: &str,
    cols: &[String],
    needed: &[&str],
) -> Result<bool, RuntimeError> {
    super::require_all(
        ctx,
        l,
        None,
        needed,
        |c| cols.iter().any(|x| x == c),
        |missing| {
            format!(
                "could not parse Telegram's {table} table because it lacks {missing} (unexpected schema)"
            )
        },
    )
}

/// The peer of a dialog id: `telegram:<user id>`, `telegram-chat:<id>` for a group or channel,
/// or the id of a secret chat (`(id << 32)` in the older clients, `0x4000000000000000 | id` in
/// the newer ones).
enum Dialog {
    User(String),
    Chat(String),
    Secret(i32),
}

fn dialog(uid: i64) -> Option<Dialog> {
    if uid == 0 {
        None
    } else if uid & 0xffff_ffff == 0 {
        Some(Dialog::Secret((uid >> 32) as i32))
    } else if uid > 0 && uid & 0x4000_0000_0000_0000 != 0 {
        Some(Dialog::Secret((uid & 0xffff_ffff) as u32 as i32))
    } else if uid > 0 {
        Some(Dialog::User(format!("telegram:{uid}")))
    } else {
        Some(Dialog::Chat(format!(
            "telegram-chat:{}",
            uid.unsigned_abs()
        )))
    }
}

/// One `cache4.db`.
pub fn cache4(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["users"])? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(&l.tree, &l.path);
    let mut labels: HashMap<String, String> = HashMap::new();
    users(ctx, l, &name, &mut labels)?;
    contacts(ctx, l, &name, &has)?;
    if has("chats") {
        chats(ctx, l, &name, &mut labels)?;
    }
    let secret = if has("enc_chats") {
        secret_chats(ctx, l, &name, &labels)?
    } else {
        HashMap::new()
    };
    if has("dialogs") {
        dialogs(ctx, l, &name, &labels, &secret)?;
    }
    let table = if has("messages_v2") {
        "messages_v2"
    } else if has("messages") {
        "messages"
    } else {
        return ctx.unparsed(
            &name,
            "could not parse Telegram's messages because neither messages_v2 nor messages is present (unexpected schema)",
            None,
        );
    };
    messages(ctx, l, &name, table, &labels, &secret)
}

fn users(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    labels: &mut HashMap<String, String>,
) -> Result<(), RuntimeError> {
    let Some(cols) = columns(ctx, l, "users")? else {
        return Ok(());
    };
    if !has_columns(ctx, l, "users", &cols, &["uid"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT uid, 'telegram:' || uid AS account, {}, {}, {} FROM users ORDER BY uid",
        col(&cols, "name", "name"),
        col(&cols, "status", "status"),
        col(&cols, "data", "data"),
    );
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["telegram"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Telegram users")?;
    for (inv, t, row) in pages.rows() {
        let Some(account) = t.get(row, "account") else {
            continue;
        };
        // the stored object, when it is the same user's
        let obj = decoded(t, row, "data")
            .filter(|v| v["read"] == "user" && v["id"].as_str() == Some(account));
        let obj = obj.as_ref();
        let me = obj.is_some_and(|v| v["self"] == true);
        let full = t.get(row, "name").unwrap_or_default();
        let (col_display, col_user) = match full.split_once(";;;") {
            Some((d, u)) => (d.trim(), u.trim()),
            None => (full.trim(), ""),
        };
        let first = field(obj, "first_name");
        let last = field(obj, "last_name");
        let username = field(obj, "username").or_else(|| {
            (!col_user.is_empty()).then(|| {
                (
                    col_user.to_string(),
                    raw(t, row, "name").unwrap_or_default(),
                )
            })
        });
        let phone = field(obj, "phone");
        let display = match (&first, &last) {
            (Some((f, _)), Some((s, _))) => format!("{f} {s}"),
            (Some((f, _)), None) => f.clone(),
            (None, Some((s, _))) => s.clone(),
            (None, None) => col_display.to_string(),
        };
        let label = if display.is_empty() {
            account.to_string()
        } else {
            display.clone()
        };
        labels.insert(account.to_string(), label.clone());
        let mut d = Draft::new(
            if me { "accounts" } else { "contacts" },
            if me {
                format!("Telegram account {account} (this device's)")
            } else {
                format!("Telegram user {account}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, Some(account), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        for f in [&first, &last] {
            d.fact(FactType::Name, f.as_ref().map(|(_, c)| c.as_str()), inv);
        }
        if obj.is_some() {
            d.fact(
                FactType::Account,
                username.as_ref().map(|(_, c)| c.as_str()),
                inv,
            );
        }
        d.fact(
            FactType::Phone,
            phone.as_ref().map(|(_, c)| c.as_str()),
            inv,
        );
        let flags: Vec<&str> = ["contact", "deleted", "bot"]
            .into_iter()
            .filter(|k| obj.is_some_and(|v| v[*k] == true))
            .collect();
        d.interpretation = format!(
            "users uid {} of {name}: {} {account}, name {label:?}, user name {}, phone {}{}{}.",
            t.get(row, "uid").unwrap_or("?"),
            if me {
                "the account signed in to Telegram on the device (its stored user has the self flag),"
            } else {
                "the Telegram user"
            },
            username.as_ref().map(|(u, _)| format!("@{u}")).as_deref().unwrap_or("(none)"),
            phone.as_ref().map(|(p, _)| p.as_str()).unwrap_or("(not kept)"),
            if flags.is_empty() {
                String::new()
            } else {
                format!(" ({})", flags.join(", "))
            },
            match obj {
                Some(v) => format!(
                    "; read from its stored object ({})",
                    v["constructor"].as_str().unwrap_or("?")
                ),
                None => "; from the lower-case name column only (its stored object is of a layer not read)".to_string(),
            },
        );
        record_draft(ctx, d)?;
        let (context, who) = if me {
            ("owner", "the Telegram account of the device".to_string())
        } else {
            (account, format!("the Telegram user {account}"))
        };
        let why = |what: &str| format!("{what} of {who} ({name}, users uid {account}).");
        let mut ids = vec![(
            IdType::AccountId,
            Some(account.to_string()),
            "The namespaced user id",
        )];
        ids.push((
            IdType::TelegramUsername,
            username.map(|(u, _)| u),
            "The user name",
        ));
        ids.push((IdType::Phone, phone.map(|(p, _)| p), "The phone number"));
        // the name as one cell holds it: the name column (lower case), else one name field
        let shown = if col_display.is_empty() {
            first.or(last).map(|(n, _)| n)
        } else {
            Some(col_display.to_string())
        };
        ids.push((IdType::DisplayName, shown, "The name"));
        for (id_type, value, what) in ids {
            if let Some(v) = value {
                observe(
                    ctx,
                    context,
                    EntityKind::Person,
                    if me { "device owner" } else { label.as_str() },
                    id_type,
                    &v,
                    inv,
                    why(what),
                )?;
            }
        }
    }
    Ok(())
}

/// Contacts synced from the phone book, with their numbers.
fn contacts(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    has: &dyn Fn(&str) -> bool,
) -> Result<(), RuntimeError> {
    let sql = if has("user_contacts_v7") && has("user_phones_v7") {
        "SELECT 'telegram:' || c.uid AS account, c.fname, c.sname, p.phone FROM user_contacts_v7 c JOIN user_phones_v7 p ON p.key = c.key WHERE c.uid > 0 AND ifnull(p.deleted, 0) = 0 ORDER BY c.uid"
    } else if has("user_contacts_v6") && has("user_phones_v6") {
        "SELECT 'telegram:' || c.uid AS account, c.fname, c.sname, p.phone FROM user_contacts_v6 c JOIN user_phones_v6 p ON p.uid = c.uid WHERE ifnull(p.deleted, 0) = 0 ORDER BY c.uid"
    } else {
        return Ok(());
    };
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Telegram phone-book contacts")?;
    for (inv, t, row) in pages.rows() {
        let (Some(account), Some(phone)) = (t.get(row, "account"), t.get(row, "phone")) else {
            continue;
        };
        let who = format!(
            "{} {}",
            t.get(row, "fname").unwrap_or_default(),
            t.get(row, "sname").unwrap_or_default()
        );
        let who = who.trim();
        let mut d = Draft::new("contacts", format!("Telegram contact {who}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, Some(account), inv);
        d.fact(FactType::Name, raw(t, row, "fname").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "sname").as_deref(), inv);
        d.fact(FactType::Phone, Some(phone), inv);
        d.interpretation = format!(
            "The phone-book contact {who} of the Telegram app ({name}) is the Telegram user {account} with the number {phone}."
        );
        record_draft(ctx, d)?;
        observe(
            ctx,
            account,
            EntityKind::Person,
            who,
            IdType::Phone,
            phone,
            inv,
            format!("The phone-book number of the Telegram user {account} ({name})."),
        )?;
    }
    Ok(())
}

/// Groups and channels (`chats`: id and lower-case title).
fn chats(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    labels: &mut HashMap<String, String>,
) -> Result<(), RuntimeError> {
    let Some(cols) = columns(ctx, l, "chats")? else {
        return Ok(());
    };
    if !has_columns(ctx, l, "chats", &cols, &["uid"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT uid, 'telegram-chat:' || uid AS chat, {} FROM chats ORDER BY uid",
        col(&cols, "name", "name")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Telegram groups and channels")?;
    for (inv, t, row) in pages.rows() {
        let Some(chat) = t.get(row, "chat") else {
            continue;
        };
        let title = t.get(row, "name").unwrap_or("?");
        labels.insert(chat.to_string(), title.to_string());
        let mut d = Draft::new("messages", format!("Telegram group or channel {title}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, Some(chat), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.interpretation = format!(
            "chats uid {} of {name}: a Telegram group or channel the account sees, {chat}, title {title:?} (kept in lower case).",
            t.get(row, "uid").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// Secret chats: their id → the other user (`telegram:<id>`). The key material is never read.
fn secret_chats(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    labels: &HashMap<String, String>,
) -> Result<HashMap<i32, String>, RuntimeError> {
    let mut out = HashMap::new();
    let Some(cols) = columns(ctx, l, "enc_chats")? else {
        return Ok(out);
    };
    if !has_columns(ctx, l, "enc_chats", &cols, &["uid", "user"])? {
        return Ok(out);
    }
    // never `data`, `g`, `authkey`, `fauthkey`, `khash`: the key exchange and the keys
    let sql = format!(
        "SELECT uid, 'telegram:' || user AS peer, {}, {}, {}, {} FROM enc_chats ORDER BY uid",
        col(&cols, "name", "name"),
        col(&cols, "ttl", "ttl"),
        col(&cols, "layer", "layer"),
        col(&cols, "admin_id", "admin"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(out);
    };
    note_pages_cap(ctx, name, &pages, "Telegram secret chats")?;
    for (inv, t, row) in pages.rows() {
        let (Some(id), Some(peer)) = (
            t.get(row, "uid").and_then(|u| u.parse::<i32>().ok()),
            t.get(row, "peer"),
        ) else {
            continue;
        };
        out.insert(id, peer.to_string());
        let who = labels.get(peer).map(String::as_str).unwrap_or(peer);
        let admin = t.get(row, "admin").filter(|a| *a != "0");
        let mut d = Draft::new("messages", format!("Telegram secret chat {id} with {peer}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, t.get(row, "uid"), inv);
        d.fact(FactType::Account, Some(peer), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.interpretation = format!(
            "enc_chats uid {id} of {name}: an end-to-end encrypted (secret) chat with {who} ({peer}){}, message TTL {} s, layer {}. Its key columns are not read.",
            admin
                .map(|a| format!(", started by user {a}"))
                .unwrap_or_default(),
            t.get(row, "ttl").unwrap_or("?"),
            t.get(row, "layer").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(out)
}

/// The other party of a dialog, as an entity context when it is one user.
fn peer_of(uid: Option<i64>, secret: &HashMap<i32, String>) -> (Option<String>, String) {
    match uid.and_then(dialog) {
        Some(Dialog::User(u)) => (Some(u.clone()), u),
        Some(Dialog::Chat(c)) => (None, c),
        Some(Dialog::Secret(id)) => match secret.get(&id) {
            Some(u) => (Some(u.clone()), format!("{u} (secret chat {id})")),
            None => (None, format!("secret chat {id}")),
        },
        None => (None, "?".to_string()),
    }
}

fn dialogs(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    labels: &HashMap<String, String>,
    secret: &HashMap<i32, String>,
) -> Result<(), RuntimeError> {
    let Some(cols) = columns(ctx, l, "dialogs")? else {
        return Ok(());
    };
    if !has_columns(ctx, l, "dialogs", &cols, &["did"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT did, {}, {}, {} FROM dialogs ORDER BY did",
        col(&cols, "date", "date"),
        col(&cols, "unread_count", "unread"),
        col(&cols, "last_mid", "last_mid"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Telegram dialogs")?;
    for (inv, t, row) in pages.rows() {
        let did = t.get(row, "did");
        let (_, with) = peer_of(did.and_then(|d| d.parse().ok()), secret);
        let shown = labels
            .get(with.split(' ').next().unwrap_or(""))
            .map(|n| format!("{n} ({with})"))
            .unwrap_or(with.clone());
        let mut d = Draft::new("messages", format!("Telegram dialog with {with}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, did, inv);
        let date = t.get(row, "date");
        d.time(date, unix_seconds(date), "Last message of the dialog", inv);
        d.interpretation = format!(
            "dialogs did {} of {name}: the conversation with {shown}, {} unread, last message id {}; date is Unix seconds.",
            did.unwrap_or("?"),
            t.get(row, "unread").unwrap_or("?"),
            t.get(row, "last_mid").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    table: &str,
    labels: &HashMap<String, String>,
    secret: &HashMap<i32, String>,
) -> Result<(), RuntimeError> {
    let Some(cols) = columns(ctx, l, table)? else {
        return Ok(());
    };
    if !has_columns(ctx, l, table, &cols, &["mid", "uid", "date", "out", "data"])? {
        return Ok(());
    }
    let sql = format!(
        "SELECT mid, uid, date, out, {}, {}, data FROM {table} ORDER BY date, mid",
        col(&cols, "read_state", "read_state"),
        col(&cols, "send_state", "send_state"),
    );
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["telegram"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Telegram messages")?;
    let at = MessageAt {
        l,
        name,
        table,
        labels,
        secret,
    };
    for (inv, t, row) in pages.rows() {
        message(ctx, &at, inv, t, row)?;
    }
    // the messages the table no longer shows that earlier page versions hold
    if let Some((inv, t)) =
        crate::recovered::wal_rows_on(ctx, &l.tree, &l.path, table, &["telegram"])?
    {
        for row in &t.rows {
            message(ctx, &at, &inv, &t, row)?;
        }
    }
    Ok(())
}

/// Where a message row was read: the store, its table, and the names and secret chats the
/// messages' peers are labelled by.
struct MessageAt<'a> {
    l: &'a Located,
    name: &'a str,
    table: &'a str,
    labels: &'a HashMap<String, String>,
    secret: &'a HashMap<i32, String>,
}

/// One message row, live or recovered by `sqlite_wal_history` (its `status` column then says
/// deleted or changed, and the phenomenon is titled and interpreted as recovered).
fn message(
    ctx: &AgentCtx<'_>,
    at: &MessageAt<'_>,
    inv: &masf_tools::Invoked,
    t: &Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let MessageAt {
        l,
        name,
        table,
        labels,
        secret,
    } = *at;
    let recovered = t.get(row, "frame_state").is_some();
    {
        let mid = t.get(row, "mid").unwrap_or("?");
        let sent = t.get(row, "out") == Some("1");
        let uid = t.get(row, "uid").and_then(|u| u.parse::<i64>().ok());
        let obj = decoded(t, row, "data");
        let text = obj
            .as_ref()
            .and_then(|v| v["text"].as_str())
            .map(str::to_string);
        let (mut other, with) = peer_of(uid, secret);
        if let Some(named) = obj
            .as_ref()
            .filter(|v| v["read"] == "message_secret")
            .and_then(|v| v[if sent { "to" } else { "from" }].as_str())
            .filter(|p| p.starts_with("telegram:"))
        {
            // a secret-chat message names its peer itself
            other = Some(named.to_string());
        }
        // in a group or channel the conversation is no person: the sender is the one its stored
        // object names (`from_id`), when the decoder read the header
        let mut with = other.clone().unwrap_or(with);
        let in_group = other.is_none() && matches!(uid.and_then(dialog), Some(Dialog::Chat(_)));
        if in_group
            && !sent
            && let Some(from) = obj
                .as_ref()
                .and_then(|v| v["from"].as_str())
                .filter(|p| p.starts_with("telegram:"))
        {
            with = format!("{from} in {with}");
            other = Some(from.to_string());
        }
        let mut d = Draft::new(
            "messages",
            if recovered {
                format!(
                    "{} Telegram message {mid} {} {with} (recovered)",
                    crate::recovered::title_word(t.get(row, "status")),
                    if sent { "sent to" } else { "received from" },
                )
            } else {
                format!(
                    "Telegram message {mid} {} {with}",
                    if sent { "sent to" } else { "received from" },
                )
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        if recovered {
            d.fact(FactType::Text, t.get(row, "status"), inv);
        }
        d.fact(FactType::Identifier, t.get(row, "uid"), inv);
        // as the decoder wrote it into the cell: a JSON string, escaped as a cell
        d.fact(
            FactType::Text,
            text.as_deref().map(in_json_cell).as_deref(),
            inv,
        );
        for k in ["from", "to"] {
            d.fact(
                FactType::Account,
                obj.as_ref().and_then(|v| v[k].as_str()),
                inv,
            );
        }
        let date = t.get(row, "date");
        d.time(
            date,
            unix_seconds(date),
            if sent {
                "Message sent"
            } else {
                "Message received"
            },
            inv,
        );
        d.interpretation = format!(
            "{table} mid {mid} of {name}: a message {} the dialog {}{} (out {}, read state {}, send state {}){}; date is Unix seconds (unix_seconds).",
            if sent {
                "sent by the device's user in"
            } else {
                "received by the device's user in"
            },
            t.get(row, "uid").unwrap_or("?"),
            other
                .as_deref()
                .and_then(|o| labels.get(o))
                .map(|n| if in_group {
                    format!(", sent by {n}")
                } else {
                    format!(" with {n}")
                })
                .unwrap_or_default(),
            t.get(row, "out").unwrap_or("?"),
            t.get(row, "read_state").unwrap_or("?"),
            t.get(row, "send_state").unwrap_or("?"),
            match obj.as_ref().and_then(|v| v["read"].as_str()) {
                Some("message_secret") =>
                    "; a secret-chat message, its stored object read field by field",
                Some(_) => "; its text read after the message date in the stored object",
                None => "; its stored object was not read (media or an unknown form)",
            },
        );
        if recovered {
            d.interpretation
                .push_str(&format!(" {}.", crate::recovered::provenance(t, row)));
        }
        record_draft(ctx, d)?;
        if sent && let Some(from) = obj.as_ref().and_then(|v| v["from"].as_str()) {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::AccountId,
                from,
                inv,
                format!(
                    "{from} sent a message from the device ({table} mid {mid}, out 1): the account of the Telegram app on the device."
                ),
            )?;
        }
        if let Some(text) = &text {
            super::apps::claims_by_direction(
                ctx,
                inv,
                text,
                &format!("Telegram message {mid} ({name})"),
                sent,
                other.as_deref(),
                if sent { "out 1" } else { "out 0" },
            )?;
        }
    }
    Ok(())
}
