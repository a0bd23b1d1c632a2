//! GroupMe on Android (`com.groupme.android/databases/groupme.db`), the fields of ALEAPP's
//! `get_groupMe` and `get_groupMe_chat`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `groups` (with the creator's `members` row) | one per group | created, name, type, the creator's name and role, the stored message and attachment counters, last message, last updated (Unix seconds), group id, creator id; ALEAPP's INNER JOIN drops a group whose creator has no member row, read here with what it has |
//! | `members` | one per group, listing its members | each member's name (`user_real_name`, `nickname` where kept), role, user id; a person `groupme:<user id>` (the id iOS's `GroupMe.sqlite` keeps) with the names |
//! | `messages` (with `groups`) | one per message | time, deletion time (0: none, not a date) and actor as stored, the group's name, the sender's name and type, system, hidden (as stored: it takes values beyond 0/1), read flags, text, picture URL and local URI with its size and GIF flag, video URL, location (latitude, longitude, name); the sender `groupme:<id>` where the table keeps `user_id` or `sender_id` |
//!
//! Who the device's user is is not in this database (no direction is given); wallet addresses
//! in a text are not claimed for that reason. Schema drift: `deleted_at` and `deletion_actor`
//! came with a later migration (ALEAPP reads them as NULL when absent, as here); each table is
//! read when it has its key columns, its other columns where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_seconds};
use crate::identity::{artefact_name, observe_columns, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is GroupMe's store.
pub fn is_groupme(l: &Located) -> bool {
    l.path.contains("/com.groupme.android/")
}

/// The store's name.
const STORE: &str = "GroupMe's groupme.db";

/// One `groupme.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["messages"])? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(&l.tree, &l.path);
    let members_cols = if has("members") {
        table_columns(ctx, &l.tree, &l.path, "members")?
    } else {
        Default::default()
    };
    let members_ok = has("members")
        && require_columns(
            ctx,
            &name,
            STORE,
            "members",
            &members_cols,
            &["group_id", "user_id"],
        )?;
    let groups_cols = if has("groups") {
        table_columns(ctx, &l.tree, &l.path, "groups")?
    } else {
        Default::default()
    };
    let groups_ok =
        has("groups") && require_columns(ctx, &name, STORE, "groups", &groups_cols, &["group_id"])?;
    if groups_ok {
        groups(
            ctx,
            l,
            &name,
            &groups_cols,
            members_ok.then_some(&members_cols),
        )?;
    }
    if members_ok {
        members(
            ctx,
            l,
            &name,
            &members_cols,
            groups_ok && groups_cols.contains("name"),
        )?;
    }
    messages(ctx, l, &name, groups_ok && groups_cols.contains("name"))
}

fn groups(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    members: Option<&std::collections::BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "g.", col, col);
    let creator = match members {
        Some(m) if cols.contains("creator_user_id") => format!(
            "{}, {}",
            column_or_null(m, "m.", "user_real_name", "creator_name"),
            column_or_null(m, "m.", "role", "creator_role"),
        ),
        _ => "NULL AS creator_name, NULL AS creator_role".to_string(),
    };
    let join = match members {
        Some(_) if cols.contains("creator_user_id") => {
            " LEFT JOIN members m ON m.user_id = g.creator_user_id AND m.group_id = g.group_id"
        }
        _ => "",
    };
    let order = if cols.contains("created_at") {
        "g.created_at, g.rowid"
    } else {
        "g.rowid"
    };
    let sql = format!(
        "SELECT g.rowid AS rid, g.group_id AS group_id, {}, {}, {}, {}, {creator}, {}, {}, {}, {} FROM groups g{join} ORDER BY {order}",
        c("created_at"),
        c("name"),
        c("group_type"),
        c("creator_user_id"),
        c("message_count"),
        c("attachment_count"),
        c("last_message_created_at"),
        c("updated_at"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "GroupMe groups")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "group_id").unwrap_or("?");
        let label = t.get(row, "name").filter(|n| !n.is_empty()).unwrap_or(id);
        let mut d = Draft::new("contacts", format!("GroupMe group {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "group_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "group_type").as_deref(), inv);
        d.fact(
            FactType::Account,
            raw(t, row, "creator_user_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "creator_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "creator_role").as_deref(), inv);
        d.fact(
            FactType::Count,
            raw(t, row, "message_count").as_deref(),
            inv,
        );
        d.fact(
            FactType::Count,
            raw(t, row, "attachment_count").as_deref(),
            inv,
        );
        d.times_of(
            t,
            row,
            inv,
            unix_seconds,
            &[
                ("created_at", "Group created"),
                ("last_message_created_at", "Last message in group"),
                ("updated_at", "Group last updated"),
            ],
        );
        d.interpretation = format!(
            "groups row {} of {}: the GroupMe group {label} ({id}), type {}, created by {}{}; the stored counters say {} messages and {} attachments (counters, not the rows recovered); times are Unix seconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "group_type").unwrap_or("not stored"),
            t.get(row, "creator_name")
                .or(t.get(row, "creator_user_id"))
                .unwrap_or("no one stored"),
            t.get(row, "creator_role")
                .map(|r| format!(" (role {r})"))
                .unwrap_or_default(),
            t.get(row, "message_count").unwrap_or("?"),
            t.get(row, "attachment_count").unwrap_or("?"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn members(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    group_names: bool,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let group = if group_names {
        "(SELECT g.name FROM groups g WHERE g.group_id = m.group_id LIMIT 1)"
    } else {
        "NULL"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.group_id AS group_id, m.user_id AS user_id, {}, {}, {}, {}, {group} AS group_name FROM members m ORDER BY m.group_id, m.rowid",
        crate::calls::qualified_or_null(cols, "m.", "user_id", "groupme", "qualified"),
        c("user_real_name"),
        c("nickname"),
        c("role"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "GroupMe group members")?;
    for (group, rows) in pages.runs_by("group_id") {
        let label = rows
            .iter()
            .find_map(|(_, t, r)| t.get(r, "group_name").filter(|n| !n.is_empty()))
            .unwrap_or(&group)
            .to_string();
        let mut d = Draft::new("contacts", format!("GroupMe group {label} members"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        // every run has a row
        d.fact(FactType::Identifier, Some(&group), rows[0].0);
        let mut listed = Vec::new();
        for &(inv, t, r) in &rows {
            d.fact(FactType::Account, raw(t, r, "user_id").as_deref(), inv);
            d.fact(FactType::Name, raw(t, r, "user_real_name").as_deref(), inv);
            d.fact(FactType::Name, raw(t, r, "nickname").as_deref(), inv);
            d.fact(FactType::Text, raw(t, r, "role").as_deref(), inv);
            let shown = t
                .get(r, "nickname")
                .or(t.get(r, "user_real_name"))
                .unwrap_or("no name");
            listed.push(format!(
                "{shown} ({}{})",
                t.get(r, "user_id").unwrap_or("no user id"),
                t.get(r, "role")
                    .map(|role| format!(", {role}"))
                    .unwrap_or_default()
            ));
        }
        d.interpretation = format!(
            "members rows of group {group} in {}: the GroupMe group {label} with {} member(s): {}.",
            l.name(),
            rows.len(),
            listed.join(", ")
        );
        record_draft(ctx, d)?;
        for &(inv, t, r) in &rows {
            let Some(id) = t.get(r, "user_id").filter(|v| !v.is_empty()) else {
                continue;
            };
            let who = t
                .get(r, "user_real_name")
                .or(t.get(r, "nickname"))
                .unwrap_or(id)
                .to_string();
            observe_columns(
                ctx,
                &format!("groupme:{id}"),
                &who,
                t,
                r,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The GroupMe user id"),
                    ("user_real_name", IdType::DisplayName, "The name"),
                    ("nickname", IdType::DisplayName, "The nickname in the group"),
                ],
                &|what| format!("{what} of {who}, a member of the GroupMe group {label}."),
            )?;
        }
    }
    Ok(())
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    group_names: bool,
) -> Result<(), RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "messages")?;
    if !require_columns(ctx, name, STORE, "messages", &cols, &["created_at"])? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    let sender = ["user_id", "sender_id"]
        .into_iter()
        .find(|s| cols.contains(*s))
        .map_or("NULL AS sender_id, NULL AS qualified".to_string(), |s| {
            format!(
                "m.{s} AS sender_id, CASE WHEN m.{s} IS NOT NULL AND m.{s} != '' AND m.{s} != 'system' THEN 'groupme:' || m.{s} END AS qualified"
            )
        });
    let group = if group_names && cols.contains("conversation_id") {
        "(SELECT g.name FROM groups g WHERE g.group_id = m.conversation_id LIMIT 1)"
    } else {
        "NULL"
    };
    let fields = [
        "conversation_id",
        "deleted_at",
        "name",
        "sender_type",
        "is_system",
        "hidden",
        "read",
        "deletion_actor",
        "message_text",
        "photo_url",
        "photo_uri",
        "photo_width",
        "photo_height",
        "photo_is_gif",
        "video_url",
        "location_lat",
        "location_lng",
        "location_name",
    ];
    let sql = format!(
        "SELECT m.rowid AS rid, m.created_at AS created_at, {sender}, {}, {group} AS group_name FROM messages m ORDER BY m.created_at, m.rowid",
        fields.iter().map(|f| c(f)).collect::<Vec<_>>().join(", "),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "GroupMe messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let sender = t
            .get(row, "name")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "sender_id"))
            .unwrap_or("an unnamed sender");
        let chat = t
            .get(row, "group_name")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "conversation_id"))
            .unwrap_or("an unknown chat");
        let mut d = Draft::new(
            "messages",
            format!("GroupMe message from {sender} in {chat}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "sender_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "group_name").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "conversation_id").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "message_text").as_deref(), inv);
        for col in ["sender_type", "deletion_actor", "location_name"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        for col in ["photo_url", "photo_uri", "video_url"] {
            d.fact(FactType::Url, raw(t, row, col).as_deref(), inv);
        }
        for col in [
            "is_system",
            "hidden",
            "read",
            "photo_width",
            "photo_height",
            "photo_is_gif",
        ] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        for col in ["location_lat", "location_lng"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        let time = t.get(row, "created_at");
        d.time(time, unix_seconds(time), "Message created", inv);
        let deleted = t.get(row, "deleted_at").filter(|v| *v != "0");
        d.time(deleted, unix_seconds(deleted), "Message deleted", inv);
        let flag = |col: &str| match t.get(row, col) {
            Some("1") => "yes".to_string(),
            Some("0") => "no".to_string(),
            Some(v) => format!("{v} (as stored)"),
            None => "not stored".to_string(),
        };
        d.interpretation = format!(
            "messages row {rid} of {}: a GroupMe message from {sender}{} (sender type {}) in {chat}; system {}, hidden {}, read {}{}{}{}; times are Unix seconds (deleted_at 0: not deleted).",
            l.name(),
            t.get(row, "sender_id")
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            t.get(row, "sender_type").unwrap_or("not stored"),
            flag("is_system"),
            flag("hidden"),
            flag("read"),
            deleted
                .map(|_| format!(
                    "; deleted (actor {})",
                    t.get(row, "deletion_actor").unwrap_or("not stored")
                ))
                .unwrap_or_default(),
            t.get(row, "photo_url")
                .or(t.get(row, "video_url"))
                .map(|u| format!("; attachment {u}"))
                .unwrap_or_default(),
            match (t.get(row, "location_lat"), t.get(row, "location_lng")) {
                (Some(a), Some(o)) => format!(
                    "; location {a}, {o}{}",
                    t.get(row, "location_name")
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default()
                ),
                _ => String::new(),
            },
        );
        record_draft(ctx, d)?;
        if let Some(id) = t
            .get(row, "sender_id")
            .filter(|_| t.get(row, "qualified").is_some())
        {
            observe_columns(
                ctx,
                &format!("groupme:{id}"),
                sender,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The GroupMe user id"),
                    ("name", IdType::DisplayName, "The name"),
                ],
                &|what| format!("{what} of the sender of a GroupMe message in {chat}."),
            )?;
        }
    }
    Ok(())
}
