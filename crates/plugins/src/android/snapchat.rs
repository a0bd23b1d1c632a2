//! Snapchat on Android (`com.snapchat.android/databases/`), the fields of ALEAPP's
//! `get_snapchat_friends` and `get_snapchat_arroyo_messages`:
//!
//! | file, table | phenomenon | fields and identities |
//! |---|---|---|
//! | `main.db` `Friend` | one `contacts` per friend (rows with `addedTimestamp`, as ALEAPP lists them; the others too, said to be without it) | added (Unix ms), user name, user id, display name, phone, birthday; a person `snapchat:<user id>` with `snapchat-username:<user name, lower case>`, the display name and phone |
//! | `arroyo.db` | the messages ([`crate::snapchat`], shared with iOS), the senders named from `Friend` | |
//!
//! Schema drift: each table is read with the columns it has.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe_columns, pages_on};
use crate::outputs::raw;
use crate::snapchat::Friend;

/// Whether `l` is one of Snapchat's databases.
pub fn is_snapchat(l: &Located) -> bool {
    l.path.contains("/com.snapchat.android/databases/")
}

/// The package folder of a Snapchat file (`…/com.snapchat.android`).
fn package(path: &str) -> Option<&str> {
    let at = path.find("/com.snapchat.android/")?;
    Some(&path[..at + "/com.snapchat.android".len()])
}

/// Triage of Snapchat's preferences (the signed-in user), `main.db` (friends first) and
/// `arroyo.db` of each package folder.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let dbs: Vec<&Located> = found.iter().filter(|l| is_snapchat(l)).collect();
    let folder = |l: &Located| l.path.rsplit_once('/').map(|(d, _)| d.to_string());
    // the signed-in user of each package folder, from its preferences
    let mut owners: BTreeMap<(String, String), String> = BTreeMap::new();
    for l in found.iter().filter(|l| {
        l.name() == "user_session_shared_pref.xml"
            && l.path.contains("/com.snapchat.android/shared_prefs/")
    }) {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            if let (Some(id), Some(pkg)) = (session_user(ctx, l)?, package(&l.path)) {
                owners.insert((l.tree.label.clone(), pkg.to_string()), id);
            }
            Ok(())
        })?;
    }
    let owner_of = |l: &Located| {
        package(&l.path).and_then(|p| owners.get(&(l.tree.label.clone(), p.to_string())).cloned())
    };
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
            let owner = owner_of(arroyo);
            ctx.artefact(&artefact_name(&arroyo.tree, &arroyo.path), || {
                crate::snapchat::arroyo(
                    ctx,
                    &arroyo.tree,
                    &arroyo.path,
                    &arroyo.found,
                    &by_id,
                    owner.as_deref(),
                )
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
        let owner = owner_of(arroyo);
        ctx.artefact(&artefact_name(&arroyo.tree, &arroyo.path), || {
            crate::snapchat::arroyo(
                ctx,
                &arroyo.tree,
                &arroyo.path,
                &arroyo.found,
                &BTreeMap::new(),
                owner.as_deref(),
            )
        })?;
    }
    Ok(())
}

/// The signed-in user of `user_session_shared_pref.xml` (`key_user_id`, ALEAPP's first source of
/// the local user): one `accounts` phenomenon and the `owner` as `snapchat:<user id>`, qualified
/// by `read_xml` so it grounds; the id.
fn session_user(ctx: &AgentCtx<'_>, l: &Located) -> Result<Option<String>, RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some(inv) = crate::calls::call_or_note(
        ctx,
        &name,
        "read_xml",
        crate::identity::args_on(
            &l.tree,
            serde_json::json!({"path": l.path, "qualify": {"key_user_id": "snapchat"}}),
        ),
    )?
    else {
        return Ok(None);
    };
    let Some(qualified) = inv
        .output
        .text
        .lines()
        .find_map(|line| line.strip_prefix("# qualified key_user_id: "))
        .map(str::to_string)
    else {
        ctx.unparsed(
            &name,
            "no signed-in Snapchat user: the preferences have no key_user_id",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    };
    let id = qualified
        .strip_prefix("snapchat:")
        .unwrap_or(&qualified)
        .to_string();
    let mut d = Draft::new("accounts", format!("Snapchat account {id}"));
    d.fact(FactType::Path, Some(&l.path), &l.found);
    d.fact(FactType::Account, Some(&id), &inv);
    d.interpretation = format!(
        "{}: the Snapchat account signed in on the device, user id {id} (key_user_id).",
        l.name()
    );
    record_draft(ctx, d)?;
    crate::identity::observe(
        ctx,
        "owner",
        masf_graph::EntityKind::Person,
        "device owner",
        IdType::AccountId,
        &qualified,
        &inv,
        format!(
            "The Snapchat user id of the account signed in on the device ({}, key_user_id).",
            l.name()
        ),
    )?;
    Ok(Some(id))
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
