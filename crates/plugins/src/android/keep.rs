//! Google Keep (`com.google.android.keep/databases/keep.db`): the notes and lists of each
//! Google account (`account` ⋈ `tree_entity`, the note, ⋈ `list_item`, its text or list items)
//! and with whom each note is shared (`sharing`) — the fields of ALEAPP's `googleKeepNotes`
//! and `googleKeepNotes_sharing`: creation and last-update times (Unix ms), parent, account,
//! title, text, synced text, deleted flag, last modifier, shared time, sync status, the
//! e-mail shared with. The accounts are the owner's Google accounts; whoever a note is shared
//! with or was last changed by is a `handle:<e-mail>` person; wallet addresses in a note are
//! claims of its account's user.
//!
//! ALEAPP joins `tree_entity` to `list_item` on their own ids; a list item belongs to the note
//! its `list_parent_id` names, which is the join here (the two agree where a note's first item
//! shares its id, as Keep writes single-text notes).

use std::collections::BTreeSet;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, observe, pages_on, required_columns, table_columns};
use crate::outputs::raw;

const WHAT: &str = "Google Keep's keep.db";

/// One `keep.db`.
pub fn keep_db(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["account", "list_item", "tree_entity"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let cols = |t: &str| table_columns(ctx, &l.tree, &l.path, t);
    let (acols, icols, tcols) = (cols("account")?, cols("list_item")?, cols("tree_entity")?);
    if !require_columns(ctx, &name, WHAT, "account", &acols, &["_id", "name"])?
        || !require_columns(
            ctx,
            &name,
            WHAT,
            "list_item",
            &icols,
            &["_id", "account_id", "list_parent_id"],
        )?
        || !require_columns(ctx, &name, WHAT, "tree_entity", &tcols, &["_id"])?
    {
        return Ok(());
    }
    let i = |c: &str| column_or_null(&icols, "i.", c, c);
    let t = |c: &str| column_or_null(&tcols, "t.", c, c);
    let sql = format!(
        "SELECT i._id AS item, i.list_parent_id AS parent, a.name AS account, {}, {}, {}, {}, {}, {}, {} \
         FROM list_item i JOIN account a ON a._id = i.account_id LEFT JOIN tree_entity t ON t._id = i.list_parent_id ORDER BY i._id",
        i("time_created"),
        i("time_last_updated"),
        i("text"),
        i("synced_text"),
        i("is_deleted"),
        t("title"),
        t("last_modifier_email"),
    );
    let Some(rows_pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &rows_pages, "Keep list items")?;
    let mut accounts = BTreeSet::new();
    let mut people = BTreeSet::new();
    for (inv, rows, row) in rows_pages.rows() {
        let item = rows.get(row, "item").unwrap_or("?");
        let account = rows.get(row, "account").unwrap_or("?");
        let title = raw(rows, row, "title").filter(|t| !t.is_empty());
        let deleted = rows.get(row, "is_deleted") == Some("1");
        let mut d = Draft::new(
            "notes",
            format!(
                "Google Keep note {}{}",
                title.clone().unwrap_or_else(|| format!("item {item}")),
                if deleted { " (deleted)" } else { "" }
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Email, raw(rows, row, "account").as_deref(), inv);
        d.fact(FactType::Text, title.as_deref(), inv);
        d.fact(FactType::Text, raw(rows, row, "text").as_deref(), inv);
        d.fact(
            FactType::Text,
            raw(rows, row, "synced_text").as_deref(),
            inv,
        );
        d.fact(FactType::Identifier, rows.get(row, "parent"), inv);
        let modifier = rows
            .get(row, "last_modifier_email")
            .filter(|e| !e.is_empty());
        d.fact(FactType::Email, modifier, inv);
        for (col, what) in [
            ("time_created", "Note created"),
            ("time_last_updated", "Note last changed"),
        ] {
            let v = rows.get(row, col);
            d.time(v, unix_millis(v), what, inv);
        }
        d.interpretation = format!(
            "list_item {item} of {name}: {} of the Google account {account} in the note {} (parent {}){}; times are Unix milliseconds.",
            if rows.get(row, "text").is_some_and(|t| !t.is_empty()) {
                "text"
            } else {
                "an empty item"
            },
            title.as_deref().unwrap_or("without a title"),
            rows.get(row, "parent").unwrap_or("?"),
            if deleted { ", deleted" } else { "" },
        );
        record_draft(ctx, d)?;
        super::playstore::owner_google_account(ctx, &mut accounts, account, inv, || {
            format!(
                "{account} keeps notes in Google Keep on the device: a Google account of its user."
            )
        })?;
        if let Some(m) = modifier.filter(|m| *m != account)
            && people.insert(m.to_string())
        {
            observe(
                ctx,
                &format!("handle:{m}"),
                EntityKind::Person,
                m,
                IdType::Email,
                m,
                inv,
                format!("{m} last changed a Google Keep note of {account}."),
            )?;
        }
        if let Some(text) = rows.get(row, "text").filter(|t| !t.is_empty()) {
            crate::identity::message_claims(
                ctx,
                inv,
                text,
                &format!("Google Keep item {item}"),
                true,
                &format!("the device's user, who keeps the note in the account {account}"),
                None,
            )?;
        }
    }
    if tables.iter().any(|t| t == "sharing") {
        sharing(ctx, l, &name, &tcols)?;
    }
    Ok(())
}

/// With whom each note is shared.
fn sharing(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    tcols: &BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let Some(scols) = required_columns(
        ctx,
        &l.tree,
        &l.path,
        WHAT,
        "sharing",
        &["tree_entity_id", "email"],
    )?
    else {
        return Ok(());
    };
    let t = |c: &str| column_or_null(tcols, "t.", c, c);
    let sql = format!(
        "SELECT s.rowid AS share, s.tree_entity_id AS note, s.email AS email, {}, {}, {}, {} FROM sharing s LEFT JOIN tree_entity t ON t._id = s.tree_entity_id ORDER BY s.rowid",
        column_or_null(&scols, "s.", "is_deleted", "is_deleted"),
        t("title"),
        t("shared_timestamp"),
        t("sync_status"),
    );
    let Some(rows_pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    for (inv, rows, row) in rows_pages.rows() {
        let email = rows.get(row, "email").unwrap_or("?");
        let note = rows.get(row, "note").unwrap_or("?");
        let title = raw(rows, row, "title").filter(|t| !t.is_empty());
        let mut d = Draft::new(
            "notes",
            format!(
                "Google Keep note {} shared with {email}",
                title.clone().unwrap_or_else(|| note.to_string())
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Email, raw(rows, row, "email").as_deref(), inv);
        d.fact(FactType::Text, title.as_deref(), inv);
        d.fact(FactType::Identifier, Some(note), inv);
        let shared = rows.get(row, "shared_timestamp");
        d.time(shared, unix_millis(shared), "Note shared", inv);
        d.interpretation = format!(
            "sharing row {} of {name}: the note {note} is shared with {email} ({}{}); shared_timestamp is Unix milliseconds.",
            rows.get(row, "share").unwrap_or("?"),
            match rows.get(row, "sync_status") {
                Some("1") => "synced",
                Some(_) => "not synced",
                None => "sync status not stored",
            },
            if rows.get(row, "is_deleted") == Some("1") {
                ", the sharing deleted"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        observe(
            ctx,
            &format!("handle:{email}"),
            EntityKind::Person,
            email,
            IdType::Email,
            email,
            inv,
            format!("A Google Keep note of the device's user is shared with {email}."),
        )?;
    }
    Ok(())
}
