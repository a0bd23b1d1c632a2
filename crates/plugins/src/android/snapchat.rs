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

/// Triage of Snapchat's `main.db` (friends first) and `arroyo.db` of each package folder.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let dbs: Vec<&Located> = found.iter().filter(|l| is_snapchat(l)).collect();
    let folder = |l: &Located| l.path.rsplit_once('/').map(|(d, _)| d.to_string());
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
            ctx.artefact(&artefact_name(&arroyo.tree, &arroyo.path), || {
                crate::snapchat::arroyo(ctx, &arroyo.tree, &arroyo.path, &arroyo.found, &by_id)
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
        ctx.artefact(&artefact_name(&arroyo.tree, &arroyo.path), || {
            crate::snapchat::arroyo(
                ctx,
                &arroyo.tree,
                &arroyo.path,
                &arroyo.found,
                &BTreeMap::new(),
            )
        })?;
    }
    Ok(())
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
