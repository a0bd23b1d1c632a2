//! TikTok (`com.zhiliaoapp.musically`, `com.ss.android.ugc.trill`) and Douyin
//! (`com.ss.android.ugc.aweme`) direct messages on Android — the fields of ALEAPP's `tikTok`
//! messages and contacts reports:
//!
//! | file, table | phenomenon | fields and identities |
//! |---|---|---|
//! | `databases/db_im_contact*` `IM_USER_BASE_INFO`, `databases/db_im_xx` `SIMPLE_USER` | one per user | uid, nickname, unique id (the @handle), initial, avatar URL, follow status; update time, blocked, deleted where stored; a `tiktok:<uid>` person (`douyin:` for Douyin: another service, other ids) with `tiktok-user:<unique id>` and the nickname; the device's user when the uid is the account's |
//! | `databases/<uid>_im.db` `msg` | the account (the uid its name carries); one per message | time (Unix ms), sender uid, conversation, the content's text, GIF or link name and URL, type, deleted, read; direction: the sender is the account or not; wallet addresses in a text are claims of its writer |
//!
//! Columns are taken by name; the content is JSON, read with SQLite's JSON functions (content
//! that is not JSON gives nothing, the row is still read).

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{OwnedParty, artefact_name, observe, pages_on, table_columns};
use crate::outputs::raw;

/// The service of an app folder in `path`: (id namespace, name), `None` for another app.
fn service(path: &str) -> Option<(&'static str, &'static str)> {
    if path.contains("/com.ss.android.ugc.aweme/") {
        Some(("douyin", "Douyin"))
    } else if path.contains("/com.zhiliaoapp.musically/")
        || path.contains("/com.ss.android.ugc.trill/")
    {
        Some(("tiktok", "TikTok"))
    } else {
        None
    }
}

/// The account uid a `<uid>_im.db` is named after.
fn account_of(path: &str) -> Option<&str> {
    let name = path.rsplit('/').next()?;
    let uid = name.strip_suffix("_im.db")?;
    (!uid.is_empty() && uid.bytes().all(|b| b.is_ascii_digit())).then_some(uid)
}

/// Whether `name` is one of the stores this module reads.
pub fn is_store(name: &str) -> bool {
    account_of(name).is_some()
        || name == "db_im_xx"
        || (name.starts_with("db_im_contact")
            && !name.ends_with("-wal")
            && !name.ends_with("-shm")
            && !name.ends_with("-journal"))
}

/// Triage of every TikTok and Douyin store found, contacts first (their names label the
/// messages), per app folder.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let mine: Vec<&Located> = found
        .iter()
        .filter(|l| service(&l.path).is_some() && is_store(l.name()))
        .collect();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for l in mine.iter().filter(|l| account_of(&l.path).is_none()) {
        let accounts: Vec<&str> = mine.iter().filter_map(|m| account_of(&m.path)).collect();
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            users(ctx, l, &accounts, &mut names)
        })?;
    }
    for l in mine.iter().filter(|l| account_of(&l.path).is_some()) {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            messages(ctx, l, &names)
        })?;
    }
    Ok(())
}

/// The users of a `db_im_contact` or `db_im_xx` store; each uid's nickname into `names`.
fn users(
    ctx: &AgentCtx<'_>,
    l: &Located,
    accounts: &[&str],
    names: &mut BTreeMap<String, String>,
) -> Result<(), RuntimeError> {
    let Some((ns, app)) = service(&l.path) else {
        return Ok(());
    };
    let table = if l.name() == "db_im_xx" {
        "SIMPLE_USER"
    } else {
        "IM_USER_BASE_INFO"
    };
    if tables_with(ctx, l, &[table])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, table)?;
    if !require_columns(
        ctx,
        &name,
        &format!("{app}'s {}", l.name()),
        table,
        &cols,
        &["UID"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let avatar = if cols.contains("AVATAR_THUMB") {
        "CASE WHEN json_valid(AVATAR_THUMB) THEN json_extract(AVATAR_THUMB, '$.url_list[0]') END AS avatar"
    } else {
        "NULL AS avatar"
    };
    let handle = if cols.contains("UNIQUE_ID") {
        format!("CASE WHEN UNIQUE_ID != '' THEN '{ns}-user:' || UNIQUE_ID END AS handle")
    } else {
        "NULL AS handle".to_string()
    };
    let sql = format!(
        "SELECT rowid AS rid, UID, '{ns}:' || UID AS account, {}, {}, {handle}, {}, {avatar}, {}, {}, {}, {} FROM {table} ORDER BY rowid",
        c("NICK_NAME"),
        c("UNIQUE_ID"),
        c("INITIAL_LETTER"),
        c("FOLLOW_STATUS"),
        c("UPDATE_TIME"),
        c("BLOCK"),
        c("DELETED"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, &format!("{app} users"))?;
    for (inv, t, row) in pages.rows() {
        let Some(uid) = t.get(row, "UID") else {
            continue;
        };
        let nick = t.get(row, "NICK_NAME").filter(|s| !s.is_empty());
        let label = nick
            .or(t.get(row, "UNIQUE_ID").filter(|s| !s.is_empty()))
            .unwrap_or(uid)
            .to_string();
        names
            .entry(uid.to_string())
            .or_insert_with(|| label.clone());
        let own = accounts.contains(&uid);
        let mut d = Draft::new(
            if own { "accounts" } else { "contacts" },
            if own {
                format!("{app} account {label} (the device's user)")
            } else {
                format!("{app} user {label}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "UID").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "NICK_NAME").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "UNIQUE_ID").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "avatar").as_deref(), inv);
        let updated = t.get(row, "UPDATE_TIME");
        d.time(updated, unix_millis(updated), "User record updated", inv);
        d.interpretation = format!(
            "{table} row {} of {name}: {} uid {uid}{} (follow status {}, blocked {}, deleted {}, all as stored).",
            t.get(row, "rid").unwrap_or("?"),
            if own {
                format!(
                    "the {app} account signed in on the device (its messages store is named after it),"
                )
            } else {
                format!("a {app} user the account's messages name,")
            },
            t.get(row, "UNIQUE_ID")
                .filter(|s| !s.is_empty())
                .map(|u| format!(", @{u}"))
                .unwrap_or_default(),
            t.get(row, "FOLLOW_STATUS").unwrap_or("not stored"),
            t.get(row, "BLOCK").unwrap_or("not stored"),
            t.get(row, "DELETED").unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        let context = if own {
            "owner".to_string()
        } else {
            format!("{ns}:{uid}")
        };
        let entity_label = if own { "device owner" } else { label.as_str() };
        crate::identity::observe_columns(
            ctx,
            &context,
            entity_label,
            t,
            row,
            inv,
            &[
                ("account", IdType::AccountId, "The uid"),
                ("handle", IdType::AccountId, "The unique id (@handle)"),
                ("NICK_NAME", IdType::DisplayName, "The nickname"),
            ],
            &|what| {
                format!(
                    "{what} of the {app} user {label} ({table} of {}).",
                    l.name()
                )
            },
        )?;
    }
    Ok(())
}

/// The messages of a `<uid>_im.db`.
fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    names: &BTreeMap<String, String>,
) -> Result<(), RuntimeError> {
    let (Some((ns, app)), Some(me)) = (service(&l.path), account_of(&l.path)) else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let mut d = Draft::new(
        "accounts",
        format!("{app} account {me} (its messages store)"),
    );
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, Some(me), &l.found);
    d.interpretation = format!(
        "{}: {app} keeps one messages store per signed-in account, named after its uid ({me}).",
        l.name()
    );
    record_draft(ctx, d)?;
    if tables_with(ctx, l, &["msg"])?.is_none() {
        return Ok(());
    }
    let cols = table_columns(ctx, &l.tree, &l.path, "msg")?;
    if !require_columns(
        ctx,
        &name,
        &format!("{app}'s {}", l.name()),
        "msg",
        &cols,
        &["created_time", "sender", "content"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let j = |path: &str, alias: &str| {
        format!("CASE WHEN json_valid(content) THEN json_extract(content, '{path}') END AS {alias}")
    };
    let sql = format!(
        "SELECT rowid AS rid, created_time, sender, '{ns}:' || sender AS sender_account, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM msg ORDER BY created_time, rowid",
        c("msg_uuid"),
        c("msg_server_id"),
        c("conversation_id"),
        c("type"),
        c("deleted"),
        c("read_status"),
        j("$.text", "text"),
        j("$.display_name", "display_name"),
        j("$.url.url_list[0]", "url"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, &format!("{app} messages"))?;
    for (inv, t, row) in pages.rows() {
        let sender = t.get(row, "sender").unwrap_or("?");
        let sent = sender == me;
        let who = names.get(sender).map_or(sender, String::as_str);
        let conversation = t.get(row, "conversation_id").unwrap_or("?");
        let other = crate::identity::tiktok_one_to_one_other(conversation, me);
        let mut d = Draft::new(
            "messages",
            if sent {
                format!(
                    "{app} message sent to {}",
                    other.map_or(conversation, |o| names.get(o).map_or(o, String::as_str))
                )
            } else {
                format!("{app} message from {who}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["msg_uuid", "msg_server_id", "conversation_id"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Account, raw(t, row, "sender").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "display_name").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url").as_deref(), inv);
        let time = t.get(row, "created_time");
        d.message_time(time, unix_millis(time), sent, inv);
        d.interpretation = format!(
            "msg row {} of {name}: a {app} message in the conversation {conversation} {} (type {}, deleted {}, read {}; as stored); created_time is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            if sent {
                format!(
                    "sent by the account's user (sender {me}, the uid the store is named after)"
                )
            } else {
                format!("from {who} (uid {sender})")
            },
            t.get(row, "type").unwrap_or("not stored"),
            t.get(row, "deleted").unwrap_or("not stored"),
            match t.get(row, "read_status") {
                Some("1") => "yes",
                Some("0") => "no",
                _ => "not stored",
            },
        );
        record_draft(ctx, d)?;
        observe_sender(ctx, t, row, inv, ns, app, sent, who)?;
        let Some(text) = t.get(row, "text").filter(|s| !s.is_empty()) else {
            continue;
        };
        let party = if sent {
            other.map(|o| OwnedParty {
                context: format!("{ns}:{o}"),
                label: names.get(o).cloned().unwrap_or_else(|| o.to_string()),
                role: format!("uid {o}, who received it (the other uid of {conversation})"),
            })
        } else {
            Some(OwnedParty {
                context: format!("{ns}:{sender}"),
                label: who.to_string(),
                role: format!("{who}, who sent it (sender {sender})"),
            })
        };
        crate::identity::message_claims(
            ctx,
            inv,
            text,
            &format!("{app} message {}", t.get(row, "rid").unwrap_or("?")),
            sent,
            &format!(
                "the device's user, who {} it (account {me})",
                if sent { "wrote" } else { "received" }
            ),
            party.as_ref().map(OwnedParty::party),
        )?;
    }
    Ok(())
}

/// The sender of a message as a person of the service (the owner for the account's own).
#[allow(clippy::too_many_arguments)]
fn observe_sender(
    ctx: &AgentCtx<'_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    ns: &str,
    app: &str,
    sent: bool,
    who: &str,
) -> Result<(), RuntimeError> {
    let (Some(sender), Some(account)) = (t.get(row, "sender"), t.get(row, "sender_account")) else {
        return Ok(());
    };
    observe(
        ctx,
        &if sent {
            "owner".to_string()
        } else {
            format!("{ns}:{sender}")
        },
        EntityKind::Person,
        if sent { "device owner" } else { who },
        IdType::AccountId,
        account,
        inv,
        format!("The uid of a {app} message's sender ({who})."),
    )?;
    Ok(())
}
