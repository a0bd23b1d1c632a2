//! Google Chat's store `dynamite.db`, the same SQLite layout on both platforms (Android
//! `com.google.android.gm/databases/user_accounts/<e-mail>/dynamite.db` inside Gmail, or
//! `com.google.android.apps.dynamite/databases/…`; iOS `Documents/user_accounts/<user id>/
//! dynamite.db` of the Chat or Gmail container), with the fields of ALEAPP's `get_googleChat`,
//! `get_googleChat_groups`, `get_googleChat_drafts`, `get_googleChat_users` and iLEAPP's
//! `google_chat`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `topic_messages` (with `Groups`, `users`) | one `messages` per message | created (Unix µs), the group or direct message (id, name, type 1 group / 2 one-to-one), the creator (user id, name), text, topic and message ids, and from the protobuf columns (read with `sqlite_query`'s `protobuf`): an image attachment's file name, type, width and height (`annotation` 1›10), a meeting's code and URL (1›12›1) and sender (1›12›1›6›16), a reaction's emoji and user (`reactions` 1›1›1›1, 1›2›1); direction by the account the folder names |
//! | `Groups` | one `contacts` per group or direct message | created and last viewed (Unix µs), name, type, creator (id, name) |
//! | `drafts` | one `messages` per draft | group (id, name), topic, text, group type |
//! | `users` | one `contacts` per user | last updated (Unix µs), user id (the Google account id), name, e-mail, avatar URL, Workspace customer id; a person `gchat:<user id>` with the account id, e-mail and name |
//!
//! The device's user is the account the folder names: on iOS its user id, on Android its e-mail
//! (looked up in `users`, as ALEAPP does); its user row is `owner`. Both modules inner-join a
//! message to its group and creator rows; a message without them is read here too. Schema
//! drift: each table is read when it has its key columns, the others where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_micros};
use crate::identity::{
    TreeRef, artefact_name, observe_columns, pages_on, pages_on_with, query_on, schema_on,
};
use crate::outputs::{in_json_cell, raw};

/// Whether `path` is Google Chat's store (in Gmail's or Chat's Android databases, or an iOS
/// container's `Documents/user_accounts/<id>/`).
pub fn is_dynamite(path: &str) -> bool {
    path.ends_with("/dynamite.db")
        && (path.contains("/com.google.android.gm/databases/user_accounts/")
            || path.contains("/com.google.android.apps.dynamite/databases/")
            || (path.contains("/Containers/Data/Application/")
                && path.contains("/Documents/user_accounts/")))
}

/// The account the store's folder names (`user_accounts/<account>/dynamite.db`): a user id on
/// iOS, an e-mail address in Gmail on Android.
pub fn account_of(path: &str) -> Option<&str> {
    let at = path.find("/user_accounts/")? + "/user_accounts/".len();
    let account = path[at..].split('/').next()?;
    (!account.is_empty() && path[at + account.len()..] == *"/dynamite.db").then_some(account)
}

type Schema = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// One `dynamite.db`; `find` is the call that listed it.
pub fn dynamite(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    find: &Invoked,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, path);
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let tables = ["topic_messages", "Groups", "users", "drafts"];
    if !tables.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &name,
            "could not parse Google Chat's dynamite.db because it has none of the tables topic_messages, Groups, users, drafts",
            None,
        )?;
        return Ok(());
    }
    let users = schema.get("users").cloned().unwrap_or_default();
    let users_ok = !users.is_empty()
        && require_columns(
            ctx,
            &name,
            "Google Chat's dynamite.db",
            "users",
            &users,
            &["user_id"],
        )?;
    let me = if users_ok {
        owner(ctx, tree, path)?
    } else {
        None
    };
    if users_ok {
        users_of(ctx, tree, path, find, &name, &users, me.as_deref())?;
    }
    if let Some(g) = schema.get("Groups")
        && require_columns(
            ctx,
            &name,
            "Google Chat's dynamite.db",
            "Groups",
            g,
            &["group_id"],
        )?
    {
        groups(ctx, tree, path, find, &name, &schema)?;
    }
    if let Some(m) = schema.get("topic_messages")
        && require_columns(
            ctx,
            &name,
            "Google Chat's dynamite.db",
            "topic_messages",
            m,
            &["create_time", "group_id", "creator_id"],
        )?
    {
        messages(ctx, tree, path, find, &name, &schema, me.as_deref())?;
    }
    if let Some(d) = schema.get("drafts")
        && require_columns(
            ctx,
            &name,
            "Google Chat's dynamite.db",
            "drafts",
            d,
            &["group_id"],
        )?
    {
        drafts(ctx, tree, path, find, &name, &schema)?;
    }
    Ok(())
}

/// The device's user: the `users` row of the account the folder names (its user id, or its
/// e-mail), observed as `owner`; its user id.
fn owner(ctx: &AgentCtx<'_>, tree: &TreeRef, path: &str) -> Result<Option<String>, RuntimeError> {
    let Some(account) = account_of(path) else {
        return Ok(None);
    };
    let quoted = account.replace('\'', "''");
    let sql = format!(
        "SELECT user_id, name, email FROM users WHERE user_id = '{quoted}' OR lower(email) = lower('{quoted}') LIMIT 2"
    );
    let Some((inv, t)) = query_on(ctx, tree, path, &sql, 2)? else {
        return Ok(None);
    };
    let [row] = t.rows.as_slice() else {
        return Ok(None);
    };
    let Some(id) = t.get(row, "user_id").map(str::to_string) else {
        return Ok(None);
    };
    observe_columns(
        ctx,
        "owner",
        "device owner",
        &t,
        row,
        &inv,
        &[
            ("user_id", IdType::AccountId, "The Google account id"),
            ("email", IdType::Email, "The e-mail"),
            ("name", IdType::DisplayName, "The name"),
        ],
        &|what| {
            format!(
                "{what} of the Google Chat account {account} the store's folder names, the device's user."
            )
        },
    )?;
    Ok(Some(id))
}

fn users_of(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    find: &Invoked,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, user_id, {}, {}, {}, {}, {} FROM users ORDER BY rowid",
        c("name"),
        c("email"),
        c("avatar_url"),
        c("dasher_customer_id"),
        c("last_updated_time_micros"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Google Chat users")?;
    for (inv, t, row) in pages.rows() {
        let Some(id) = t.get(row, "user_id") else {
            continue;
        };
        let label = t
            .get(row, "name")
            .or(t.get(row, "email"))
            .unwrap_or(id)
            .to_string();
        let own = me == Some(id);
        let mut d = Draft::new(
            if own { "accounts" } else { "contacts" },
            format!("Google Chat user {label}"),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, raw(t, row, "user_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "avatar_url").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "dasher_customer_id").as_deref(),
            inv,
        );
        let updated = t.get(row, "last_updated_time_micros");
        d.time(
            updated,
            unix_micros(updated),
            "Google Chat user updated",
            inv,
        );
        d.interpretation = format!(
            "users row {} of Google Chat's dynamite.db: {label}, user id {id} (the Google account id){}{}{}.",
            t.get(row, "rid").unwrap_or("?"),
            t.get(row, "email")
                .map(|e| format!(", e-mail {e}"))
                .unwrap_or_default(),
            t.get(row, "dasher_customer_id")
                .map(|c| format!(", Workspace customer {c}"))
                .unwrap_or_default(),
            if own {
                "; the account the store's folder names (the device's user)"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        if own {
            continue;
        }
        observe_columns(
            ctx,
            &format!("gchat:{id}"),
            &label,
            t,
            row,
            inv,
            &[
                ("user_id", IdType::AccountId, "The Google account id"),
                ("email", IdType::Email, "The e-mail"),
                ("name", IdType::DisplayName, "The name"),
            ],
            &|what| format!("{what} of {label}, a Google Chat user."),
        )?;
    }
    Ok(())
}

/// A subquery of `col` of the `users` row of `id` (NULL without the column).
fn user_col(schema: &Schema, col: &str, id: &str) -> String {
    if schema
        .get("users")
        .is_some_and(|u| u.contains(col) && u.contains("user_id"))
    {
        format!("(SELECT u.{col} FROM users u WHERE u.user_id = {id} LIMIT 1)")
    } else {
        "NULL".into()
    }
}

/// A subquery of `col` of the `Groups` row of `id` (NULL without the column).
fn group_col(schema: &Schema, col: &str, id: &str) -> String {
    if schema
        .get("Groups")
        .is_some_and(|g| g.contains(col) && g.contains("group_id"))
    {
        format!("(SELECT g.{col} FROM Groups g WHERE g.group_id = {id} LIMIT 1)")
    } else {
        "NULL".into()
    }
}

/// A group type as both modules word it.
fn group_type(v: Option<&str>) -> String {
    match v {
        Some("1") => "group".into(),
        Some("2") => "one-to-one".into(),
        Some(v) => format!("type {v}"),
        None => "type not stored".into(),
    }
}

fn groups(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    find: &Invoked,
    name: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = &schema["Groups"];
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, group_id, {}, {}, {}, {}, {}, {} AS creator_name FROM Groups ORDER BY rowid",
        c("name"),
        c("group_type"),
        c("creator_id"),
        c("create_time"),
        c("last_view_time"),
        if cols.contains("creator_id") {
            user_col(schema, "name", "Groups.creator_id")
        } else {
            "NULL".into()
        },
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Google Chat groups")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "group_id").unwrap_or("?");
        let label = t.get(row, "name").unwrap_or(id).to_string();
        let kind = group_type(t.get(row, "group_type"));
        let mut d = Draft::new(
            "contacts",
            format!("Google Chat {kind} conversation {label}"),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(
            FactType::Identifier,
            raw(t, row, "group_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "name").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "group_type").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "creator_id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "creator_name").as_deref(), inv);
        d.times_of(
            t,
            row,
            inv,
            unix_micros,
            &[
                ("create_time", "Conversation created"),
                ("last_view_time", "Conversation last viewed"),
            ],
        );
        d.interpretation = format!(
            "Groups row {} of Google Chat's dynamite.db: the {kind} conversation {label} ({id}), created by {}; times are Unix microseconds.",
            t.get(row, "rid").unwrap_or("?"),
            t.get(row, "creator_name")
                .or(t.get(row, "creator_id"))
                .unwrap_or("no one stored"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// The string or number at `path` of a `protobuf:` cell's JSON, as decoded and as the cell
/// holds it.
fn proto_at(cell: Option<&str>, path: &[&str]) -> Option<(String, String)> {
    let v: serde_json::Value = serde_json::from_str(cell?.strip_prefix("protobuf:")?).ok()?;
    let mut node = &v;
    for field in path {
        node = node.get(field)?.get(0)?;
    }
    match node {
        serde_json::Value::String(s) if !s.is_empty() => Some((s.clone(), in_json_cell(s))),
        serde_json::Value::Number(n) => Some((n.to_string(), n.to_string())),
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn messages(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    find: &Invoked,
    name: &str,
    schema: &Schema,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let cols = &schema["topic_messages"];
    let c = |col: &str| column_or_null(cols, "t.", col, col);
    let sent = match me {
        Some(id) => format!(
            "CASE WHEN t.creator_id = '{}' THEN 1 ELSE 0 END AS sent",
            id.replace('\'', "''")
        ),
        None => "NULL AS sent".into(),
    };
    let sql = format!(
        "SELECT t.rowid AS rid, t.create_time AS time, t.group_id AS group_id, t.creator_id AS creator, {} AS group_name, {} AS group_type, {} AS creator_name, {} AS creator_email, {}, {}, {}, {}, {}, {}, {sent} FROM topic_messages t ORDER BY t.create_time, t.rowid",
        group_col(schema, "name", "t.group_id"),
        group_col(schema, "group_type", "t.group_id"),
        user_col(schema, "name", "t.creator_id"),
        user_col(schema, "email", "t.creator_id"),
        c("text_body"),
        c("topic_id"),
        c("message_id"),
        c("annotation"),
        c("reactions"),
        c("last_edit_time"),
    );
    let Some(pages) = pages_on_with(ctx, tree, path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Google Chat messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let creator = t.get(row, "creator").unwrap_or("?");
        let who = t.get(row, "creator_name").unwrap_or(creator).to_string();
        let chat = t
            .get(row, "group_name")
            .or(t.get(row, "group_id"))
            .unwrap_or("an unknown conversation")
            .to_string();
        let direction = crate::drafts::stored_flag(t.get(row, "sent"));
        let own = direction == Some(true);
        let mut d = Draft::new(
            "messages",
            if own {
                format!("Google Chat message sent in {chat}")
            } else {
                format!("Google Chat message from {who} in {chat}")
            },
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, raw(t, row, "creator").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "creator_name").as_deref(), inv);
        d.fact(
            FactType::Email,
            raw(t, row, "creator_email").as_deref(),
            inv,
        );
        d.fact(
            FactType::Identifier,
            raw(t, row, "group_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "group_name").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "group_type").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text_body").as_deref(), inv);
        for col in ["topic_id", "message_id"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        // the annotation (attachment, meeting) and reaction protobufs
        let annotation = t.get(row, "annotation");
        let reactions = t.get(row, "reactions");
        let mut said = Vec::new();
        for (cell, path, ft, what) in [
            (
                annotation,
                &["1", "10", "3"][..],
                FactType::Name,
                "attachment",
            ),
            (
                annotation,
                &["1", "10", "4"][..],
                FactType::Text,
                "attachment type",
            ),
            (
                annotation,
                &["1", "10", "5", "1"][..],
                FactType::Count,
                "width",
            ),
            (
                annotation,
                &["1", "10", "5", "2"][..],
                FactType::Count,
                "height",
            ),
            (
                annotation,
                &["1", "12", "1", "3"][..],
                FactType::Text,
                "meeting code",
            ),
            (
                annotation,
                &["1", "12", "1", "2"][..],
                FactType::Url,
                "meeting URL",
            ),
            (
                annotation,
                &["1", "12", "1", "6", "16", "1"][..],
                FactType::Url,
                "meeting URL",
            ),
            (
                annotation,
                &["1", "12", "1", "6", "16", "2"][..],
                FactType::Name,
                "meeting sender",
            ),
            (
                reactions,
                &["1", "1", "1", "1"][..],
                FactType::Text,
                "reaction",
            ),
            (
                reactions,
                &["1", "2", "1"][..],
                FactType::Account,
                "reaction by",
            ),
        ] {
            if let Some((plain, cited)) = proto_at(cell, path) {
                d.fact(ft, Some(&cited), inv);
                said.push(format!("{what} {plain}"));
            }
        }
        let time = t.get(row, "time");
        match direction {
            Some(s) => d.message_time(time, unix_micros(time), s, inv),
            None => d.time(time, unix_micros(time), "Google Chat message posted", inv),
        };
        let edited = t.get(row, "last_edit_time");
        d.time(edited, unix_micros(edited), "Message edited", inv);
        d.interpretation = format!(
            "topic_messages row {rid} of Google Chat's dynamite.db: a message by {who} ({creator}) in the {} conversation {chat}, {}{}; times are Unix microseconds.",
            group_type(t.get(row, "group_type")),
            match direction {
                Some(true) =>
                    "sent by the device's user (the creator is the account the store's folder names)",
                Some(false) => "received (the creator is not the account the store's folder names)",
                None => "direction unknown (the store's folder names no account it holds)",
            },
            if said.is_empty() {
                String::new()
            } else {
                format!("; {}", said.join(", "))
            },
        );
        record_draft(ctx, d)?;
        if !own && creator != "?" {
            observe_columns(
                ctx,
                &format!("gchat:{creator}"),
                &who,
                t,
                row,
                inv,
                &[
                    ("creator", IdType::AccountId, "The Google account id"),
                    ("creator_email", IdType::Email, "The e-mail"),
                    ("creator_name", IdType::DisplayName, "The name"),
                ],
                &|what| format!("{what} of the creator of a Google Chat message in {chat}."),
            )?;
        }
        // wallet claims: the writer by the direction; a one-to-one conversation's reader is
        // not named by the row, so only the writer's side is said
        let (Some(text), Some(_)) = (t.get(row, "text_body"), direction) else {
            continue;
        };
        let context = format!("gchat:{creator}");
        crate::identity::claims_by_direction(
            ctx,
            inv,
            text,
            &format!("Google Chat message row {rid}"),
            own,
            (!own).then_some((context.as_str(), who.as_str())),
        )?;
    }
    Ok(())
}

fn drafts(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    find: &Invoked,
    name: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = &schema["drafts"];
    let c = |col: &str| column_or_null(cols, "d.", col, col);
    let sql = format!(
        "SELECT d.rowid AS rid, d.group_id AS group_id, {}, {}, {}, {} AS group_name FROM drafts d ORDER BY d.rowid",
        c("topic_id"),
        c("text"),
        c("group_type"),
        group_col(schema, "name", "d.group_id"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Google Chat drafts")?;
    for (inv, t, row) in pages.rows() {
        let chat = t
            .get(row, "group_name")
            .or(t.get(row, "group_id"))
            .unwrap_or("an unknown conversation")
            .to_string();
        let mut d = Draft::new("messages", format!("Google Chat draft in {chat}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(
            FactType::Identifier,
            raw(t, row, "group_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "group_name").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "topic_id").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "group_type").as_deref(), inv);
        d.interpretation = format!(
            "drafts row {} of Google Chat's dynamite.db: a message the device's user drafted and had not sent, in the {} conversation {chat}.",
            t.get(row, "rid").unwrap_or("?"),
            group_type(t.get(row, "group_type")),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
