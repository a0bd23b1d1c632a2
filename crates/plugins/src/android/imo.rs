//! imo on Android (`com.imo.android.imoim`, and the `imous`, beta and lite builds: every
//! package folder named `com.imo.android.imo*`), the fields of ALEAPP's `imo` module (and
//! Autopsy's IMO analyzer, which reads the same columns):
//!
//! | file, table | phenomenon | fields and identities |
//! |---|---|---|
//! | `accountdb.db` `account` | the account | user id (`uid`), name; the device's user (`owner`) as `imo:<uid>` with the name |
//! | `imofriends.db` `friends` | one per buddy | user id (`buid`), name; a person `imo:<buid>` (the id iOS's `IMODb2.sqlite` keeps as `ZBUID`) with the name |
//! | `imofriends.db` `messages` | one per message | time (`timestamp`, Unix nanoseconds), the chat partner (`buid`, with its buddy's name), direction (`message_type` 1 received, 2 sent — the reading ALEAPP notes is not sourced from the app; any other value is reported as stored and the message is given no writer), read flag, text (`last_message`), the attachment's original or local path from the `imdata` JSON; wallet addresses in a text are claims of its writer |
//!
//! A store of another app under these names (outside an imo package folder) is passed over.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_nanos};
use crate::identity::{artefact_name, observe_columns, pages_on, query_on, table_columns};
use crate::outputs::raw;

/// The imo package folder `l` lies in (`…/com.imo.android.imo…`), `None` for another app's
/// file.
fn package(l: &Located) -> Option<&str> {
    let at = l.path.find("/com.imo.android.imo")?;
    let end = l.path[at + 1..]
        .find('/')
        .map_or(l.path.len(), |e| at + 1 + e);
    Some(&l.path[..end])
}

/// Triage of imo's stores: each package folder's account first, then its buddies and messages.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let mut owners: BTreeMap<String, String> = BTreeMap::new();
    for l in found.iter().filter(|l| l.name() == "accountdb.db") {
        let Some(pkg) = package(l) else { continue };
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            if let Some(uid) = account(ctx, l)? {
                owners.entry(pkg.to_string()).or_insert(uid);
            }
            Ok(())
        })?;
    }
    for l in found.iter().filter(|l| l.name() == "imofriends.db") {
        let Some(pkg) = package(l) else { continue };
        let me = owners.get(pkg).map(String::as_str);
        ctx.artefact(&artefact_name(&l.tree, &l.path), || friends(ctx, l, me))?;
    }
    Ok(())
}

/// `account`: the signed-in user (the first row's uid is returned).
fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<Option<String>, RuntimeError> {
    if tables_with(ctx, l, &["account"])?.is_none() {
        return Ok(None);
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "account")?;
    if !require_columns(ctx, &name, "imo's accountdb.db", "account", &cols, &["uid"])? {
        return Ok(None);
    }
    let sql = format!(
        "SELECT rowid AS rid, uid, 'imo:' || uid AS qualified, {} FROM account WHERE uid IS NOT NULL AND uid != '' ORDER BY rowid",
        column_or_null(&cols, "", "name", "name"),
    );
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, 100)? else {
        return Ok(None);
    };
    let mut owner = None;
    for row in &t.rows {
        let Some(uid) = t.get(row, "uid") else {
            continue;
        };
        let mut d = Draft::new("accounts", format!("imo account {uid}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(&t, row, "uid").as_deref(), &inv);
        d.fact(FactType::Name, raw(&t, row, "name").as_deref(), &inv);
        d.interpretation = format!(
            "account row {} of {}: the imo account signed in on the device, user id {uid}{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "name")
                .map(|n| format!(", name {n}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            "owner",
            "device owner",
            &t,
            row,
            &inv,
            &[
                ("qualified", IdType::AccountId, "The imo user id"),
                ("name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of the imo account signed in on the device (account)."),
        )?;
        owner = owner.or(Some(uid.to_string()));
    }
    Ok(owner)
}

/// The entity context of an imo user id: the owner for the signed-in account's own.
fn context_of(buid: &str, me: Option<&str>) -> String {
    if Some(buid) == me {
        "owner".to_string()
    } else {
        format!("imo:{buid}")
    }
}

/// `friends` and `messages` of one `imofriends.db`.
fn friends(ctx: &AgentCtx<'_>, l: &Located, me: Option<&str>) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["messages"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let buddies = tables.iter().any(|t| t == "friends")
        && require_columns(
            ctx,
            &name,
            "imo's imofriends.db",
            "friends",
            &table_columns(ctx, &l.tree, &l.path, "friends")?,
            &["buid"],
        )?;
    let mut names = false;
    if buddies {
        names = buddy_list(ctx, l, &name, me)?;
    }
    messages(ctx, l, &name, me, names)
}

/// `friends`: one phenomenon per buddy; whether their names can be joined to messages.
fn buddy_list(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    me: Option<&str>,
) -> Result<bool, RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "friends")?;
    let sql = format!(
        "SELECT rowid AS rid, buid, 'imo:' || buid AS qualified, {} FROM friends WHERE buid IS NOT NULL AND buid != '' ORDER BY rowid",
        column_or_null(&cols, "", "name", "name"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(false);
    };
    note_pages_cap(ctx, name, &pages, "imo buddies")?;
    for (inv, t, row) in pages.rows() {
        let Some(buid) = t.get(row, "buid") else {
            continue;
        };
        let label = t.get(row, "name").unwrap_or(buid).to_string();
        let context = context_of(buid, me);
        let own = context == "owner";
        let mut d = Draft::new(
            if own { "accounts" } else { "contacts" },
            format!("imo buddy {label}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "buid").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.interpretation = format!(
            "friends row {} of {}: {} imo user id {buid}{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if own {
                "the signed-in account's own entry,"
            } else {
                "a buddy of the signed-in account,"
            },
            t.get(row, "name")
                .map(|n| format!(", name {n}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            &context,
            if own { "device owner" } else { &label },
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The imo user id"),
                ("name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of the imo buddy {label} (friends)."),
        )?;
    }
    Ok(cols.contains("name"))
}

/// `messages`: one phenomenon per message.
fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    me: Option<&str>,
    names: bool,
) -> Result<(), RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "messages")?;
    if !require_columns(
        ctx,
        name,
        "imo's imofriends.db",
        "messages",
        &cols,
        &["buid", "timestamp"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    // the attachment's path: ALEAPP's reading of imdata (original_path, else local_path); a
    // cell that is no JSON loses only these two values
    let attachment = if cols.contains("imdata") {
        "CASE WHEN json_valid(m.imdata) THEN coalesce(json_extract(m.imdata, '$.original_path'), json_extract(m.imdata, '$.local_path')) END"
    } else {
        "NULL"
    };
    let partner = if names {
        "(SELECT f.name FROM friends f WHERE f.buid = m.buid LIMIT 1)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.buid AS buid, 'imo:' || m.buid AS qualified, m.timestamp AS timestamp, {}, {}, {}, {attachment} AS attachment, {partner} AS partner FROM messages m ORDER BY m.timestamp, m.rowid",
        c("message_type"),
        c("message_read"),
        c("last_message"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "imo messages")?;
    for (inv, t, row) in pages.rows() {
        let buid = t.get(row, "buid").unwrap_or("?");
        let who = t
            .get(row, "partner")
            .filter(|n| !n.is_empty())
            .unwrap_or(buid);
        let kind = t.get(row, "message_type");
        let sent = kind == Some("2");
        let received = kind == Some("1");
        let mut d = Draft::new(
            "messages",
            match (sent, received) {
                (true, _) => format!("imo message sent to {who}"),
                (_, true) => format!("imo message from {who}"),
                _ => format!("imo message with {who}"),
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "buid").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "partner").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "last_message").as_deref(), inv);
        d.fact(FactType::Path, raw(t, row, "attachment").as_deref(), inv);
        let time = t.get(row, "timestamp");
        if sent || received {
            d.message_time(time, unix_nanos(time), sent, inv);
        } else {
            d.time(time, unix_nanos(time), "Message recorded", inv);
        }
        d.interpretation = format!(
            "messages row {} of {}: an imo message in the chat with {who} ({buid}), {}; read flag {}{}; timestamp is Unix nanoseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            match kind {
                Some("1") => "message_type 1: received, as ALEAPP and Autopsy read it".to_string(),
                Some("2") => "message_type 2: sent, as ALEAPP reads it".to_string(),
                Some(v) => format!("message_type {v}, not documented: no direction given"),
                None => "no message_type stored: no direction given".to_string(),
            },
            t.get(row, "message_read").unwrap_or("not stored"),
            t.get(row, "attachment")
                .map(|a| format!("; attachment {a}"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        let context = context_of(buid, me);
        if context != "owner" {
            observe_columns(
                ctx,
                &context,
                who,
                t,
                row,
                inv,
                &[("qualified", IdType::AccountId, "The imo user id")],
                &|what| format!("{what} of the chat partner {who} of an imo message."),
            )?;
        }
        let Some(text) = t.get(row, "last_message").filter(|s| !s.is_empty()) else {
            continue;
        };
        if !(sent || received) {
            continue;
        }
        crate::identity::direction_claims(
            ctx,
            inv,
            text,
            &format!("imo message {}", t.get(row, "rid").unwrap_or("?")),
            sent,
            (&context, who, &format!("{who} ({buid})")),
            &format!("message_type {}", kind.unwrap_or("?")),
        )?;
    }
    Ok(())
}
