//! Slack on Android (`com.Slack/databases/`), the fields of ALEAPP's `slack_account`,
//! `slack_users`, `slack_conversations`, `slack_messages` and `slack_files`:
//!
//! | file, table | phenomenon | fields and identities |
//! |---|---|---|
//! | `account_manager` `accounts` | one `accounts` per signed-in account | last accessed, created, e-mail, user id, team id, name (`team_json`) and domain, enterprise id, environment, secondary auth, logged out — never `token_encrypted*` (session credentials); the device's user (`owner`) as `slack:<user id>` with the e-mail |
//! | `org_<team id>` `users` | one `contacts` per cached member | handle, real name, e-mail, phone, title, time zone and its label, admin/owner/primary-owner/bot/restricted/deleted/suspended flags, user id, team id, updated; a person `slack:<user id>` with the e-mail, phone and names |
//! | `org_<team id>` `conversation` | one `messages` per channel or DM | name (a DM's other user by name), kind, member/open/starred flags, last read and latest (Slack timestamps), name without delimiters, id, updated |
//! | `org_<team id>` `messages`, `message_threads` | one `messages` per message or thread reply | time (`ts`, Unix seconds with a fraction, as stored), thread parent time, the sender (user id and name), text (`message_json`/`message_blob` `text`, mentions as stored), the conversation and its kind, attached file names, subtype, edited, reaction count, which table |
//! | `org_<team id>` `files` | one `media` per shared file | name, title, type, size, created, the uploader, the URLs of the file record |
//!
//! The cached members are the ones the client kept, not every member of the workspace. A
//! time whose unit the store does not say (`updated`, `last_accessed`, `created_ts`) is read
//! by its size, as ALEAPP converts it: 10¹² or more milliseconds, else seconds. Schema drift:
//! a workspace store is recognised by its `messages`, `conversation` and `users` tables; each
//! table is read with the columns it has; a JSON cell that does not parse loses only what it
//! held.

use crate::calls::json_at;
use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_expr, column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_by_magnitude, unix_seconds};
use crate::identity::{artefact_name, observe_columns, pages_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is one of Slack's databases (`account_manager` or a workspace store).
pub fn is_slack(l: &Located) -> bool {
    l.path.contains("/com.Slack/databases/")
        && (l.name() == "account_manager" || l.name().starts_with("org_"))
        && !["-wal", "-shm", "-journal"]
            .iter()
            .any(|s| l.name().ends_with(s))
}

/// Each table's columns of a workspace store ([`crate::identity::schema_on`]).
type Schema = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// The columns of `table` (empty when it is absent).
fn cols_of(schema: &Schema, table: &str) -> std::collections::BTreeSet<String> {
    schema.get(table).cloned().unwrap_or_default()
}

/// One Slack database.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if l.name() == "account_manager" {
        return account(ctx, l);
    }
    let Some(tables) = tables_with(ctx, l, &["messages", "conversation", "users"])? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    // the columns of every table, read once
    let Some(schema) = crate::identity::schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    users(ctx, l, &name, &schema)?;
    conversations(ctx, l, &name, &schema)?;
    messages(
        ctx,
        l,
        &name,
        &schema,
        tables.iter().any(|t| t == "message_threads"),
    )?;
    if tables.iter().any(|t| t == "files") {
        files(ctx, l, &name, &schema)?;
    }
    Ok(())
}

fn account(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["accounts"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "accounts")?;
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Slack's account_manager",
        "accounts",
        &cols,
        &["user_id"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let team = if cols.contains("team_json") {
        json_at("team_json", "$.name")
    } else {
        "NULL".into()
    };
    // never token_encrypted, token_encrypted_ext1: session credentials
    let sql = format!(
        "SELECT rowid AS rid, user_id, 'slack:' || user_id AS qualified, {}, {}, {}, {}, {}, {}, {}, {}, {}, {team} AS team_name FROM accounts ORDER BY rowid",
        c("email"),
        c("team_id"),
        c("team_domain"),
        c("enterprise_id"),
        c("environment_variant"),
        c("secondary_auth_enabled"),
        c("is_logged_out"),
        c("last_accessed"),
        c("created_ts"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    for (inv, t, row) in pages.rows() {
        let user = t.get(row, "user_id").unwrap_or("?");
        let team = t
            .get(row, "team_name")
            .or(t.get(row, "team_domain"))
            .unwrap_or("an unnamed workspace");
        let mut d = Draft::new("accounts", format!("Slack account {user} in {team}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "user_id").as_deref(), inv);
        d.fact(FactType::Email, raw(t, row, "email").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "team_name").as_deref(), inv);
        for col in [
            "team_id",
            "team_domain",
            "enterprise_id",
            "environment_variant",
        ] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        for col in ["secondary_auth_enabled", "is_logged_out"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        d.times_of(
            t,
            row,
            inv,
            unix_by_magnitude,
            &[
                ("last_accessed", "Slack account last accessed"),
                ("created_ts", "Slack account added"),
            ],
        );
        d.interpretation = format!(
            "accounts row {} of {}: the Slack account {user}{} signed in to the workspace {team} ({}); logged out {}; times read as Unix seconds or, from 10^12, milliseconds. The session tokens the table holds are not read.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "email")
                .map(|e| format!(" ({e})"))
                .unwrap_or_default(),
            t.get(row, "team_domain").unwrap_or("no domain stored"),
            match t.get(row, "is_logged_out") {
                Some("1") => "yes",
                Some("0") => "no",
                _ => "not stored",
            },
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            "owner",
            "device owner",
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Slack user id"),
                ("email", IdType::Email, "The e-mail"),
            ],
            &|what| {
                format!(
                    "{what} of the Slack account signed in on the device ({}, workspace {team}).",
                    l.name()
                )
            },
        )?;
    }
    Ok(())
}

const USER_COLUMNS: &[&str] = &[
    "name",
    "profile_real_name",
    "profile_email",
    "profile_phone",
    "profile_title",
    "tz",
    "tz_label",
    "is_admin",
    "is_owner",
    "is_primary_owner",
    "is_bot",
    "is_restricted",
    "deleted",
    "is_suspended",
    "team_id",
    "updated",
];

fn users(ctx: &AgentCtx<'_>, l: &Located, name: &str, schema: &Schema) -> Result<(), RuntimeError> {
    let cols = cols_of(schema, "users");
    if !crate::calls::require_columns(
        ctx,
        name,
        "Slack's workspace store",
        "users",
        &cols,
        &["id"],
    )? {
        return Ok(());
    }
    let sql = format!(
        "SELECT rowid AS rid, id, 'slack:' || id AS qualified, {} FROM users ORDER BY rowid",
        USER_COLUMNS
            .iter()
            .map(|c| column_or_null(&cols, "", c, c))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Slack users")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let label = t
            .get(row, "profile_real_name")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "name"))
            .unwrap_or(id)
            .to_string();
        let mut d = Draft::new("contacts", format!("Slack user {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "id").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "name").as_deref(), inv);
        d.fact(
            FactType::Name,
            raw(t, row, "profile_real_name").as_deref(),
            inv,
        );
        d.fact(
            FactType::Email,
            raw(t, row, "profile_email").as_deref(),
            inv,
        );
        d.fact(
            FactType::Phone,
            raw(t, row, "profile_phone").as_deref(),
            inv,
        );
        for col in ["profile_title", "tz", "tz_label"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Identifier, raw(t, row, "team_id").as_deref(), inv);
        let flags = [
            ("is_admin", "admin"),
            ("is_owner", "owner"),
            ("is_primary_owner", "primary owner"),
            ("is_bot", "bot"),
            ("is_restricted", "restricted"),
            ("deleted", "deleted"),
            ("is_suspended", "suspended"),
        ];
        for (col, _) in flags {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        let updated = t.get(row, "updated");
        d.time(
            updated,
            unix_by_magnitude(updated),
            "Slack user updated",
            inv,
        );
        let set: Vec<&str> = flags
            .iter()
            .filter(|(c, _)| t.get(row, c) == Some("1"))
            .map(|(_, w)| *w)
            .collect();
        d.interpretation = format!(
            "users row {} of {}: the Slack workspace member {label} (user id {id}{}{}{}){}; a member the client cached, not every member of the workspace.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "name")
                .map(|n| format!(", handle {n}"))
                .unwrap_or_default(),
            t.get(row, "profile_email")
                .filter(|e| !e.is_empty())
                .map(|e| format!(", e-mail {e}"))
                .unwrap_or_default(),
            t.get(row, "profile_phone")
                .filter(|p| !p.is_empty())
                .map(|p| format!(", phone {p}"))
                .unwrap_or_default(),
            if set.is_empty() {
                String::new()
            } else {
                format!("; {}", set.join(", "))
            },
        );
        record_draft(ctx, d)?;
        observe_columns(
            ctx,
            &format!("slack:{id}"),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Slack user id"),
                ("profile_email", IdType::Email, "The e-mail"),
                ("profile_phone", IdType::Phone, "The phone"),
                ("profile_real_name", IdType::DisplayName, "The real name"),
                ("name", IdType::DisplayName, "The handle"),
            ],
            &|what| {
                format!(
                    "{what} of the Slack workspace member {label} ({}).",
                    l.name()
                )
            },
        )?;
    }
    Ok(())
}

/// A DM's other user's name (or the stored value), in SQL, from `conversation` alias `c`.
const CONVERSATION_NAME: &str = "coalesce((SELECT coalesce(nullif(u.profile_real_name, ''), nullif(u.name, '')) FROM users u WHERE u.id = c.name_or_user), c.name_or_user)";

fn conversations(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let cols = cols_of(schema, "conversation");
    if !crate::calls::require_columns(
        ctx,
        name,
        "Slack's workspace store",
        "conversation",
        &cols,
        &["conversation_id"],
    )? {
        return Ok(());
    }
    let users = cols_of(schema, "users");
    let label = if cols.contains("name_or_user")
        && ["id", "name", "profile_real_name"]
            .iter()
            .all(|c| users.contains(*c))
    {
        CONVERSATION_NAME.to_string()
    } else {
        column_expr(&cols, "c.", "name_or_user")
    };
    let c = |col: &str| column_or_null(&cols, "c.", col, col);
    let sql = format!(
        "SELECT c.rowid AS rid, c.conversation_id AS conversation_id, {label} AS label, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM conversation c ORDER BY c.rowid",
        c("name_or_user"),
        c("type"),
        c("is_member"),
        c("is_open"),
        c("is_starred"),
        c("lastRead"),
        c("latest"),
        c("name_normalized_no_delimiter"),
        c("updated"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Slack conversations")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "conversation_id").unwrap_or("?");
        let label = t.get(row, "label").filter(|n| !n.is_empty()).unwrap_or(id);
        let kind = t.get(row, "type").unwrap_or("not stored");
        let mut d = Draft::new("messages", format!("Slack conversation {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            raw(t, row, "conversation_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "label").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "name_or_user").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "type").as_deref(), inv);
        d.fact(
            FactType::Name,
            raw(t, row, "name_normalized_no_delimiter").as_deref(),
            inv,
        );
        for col in ["is_member", "is_open", "is_starred"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        for (col, what) in [
            ("lastRead", "Conversation read up to"),
            ("latest", "Latest message in conversation"),
        ] {
            let v = t
                .get(row, col)
                .filter(|v| !v.trim_start_matches(['0', '.']).is_empty());
            d.time(v, unix_seconds(v), what, inv);
        }
        let updated = t.get(row, "updated");
        d.time(
            updated,
            unix_by_magnitude(updated),
            "Conversation updated",
            inv,
        );
        d.interpretation = format!(
            "conversation row {} of {}: the Slack {kind} conversation {label} ({id}); member {}, open {}, starred {}; lastRead and latest are Slack message timestamps (Unix seconds with a fraction), lastRead a marker of the last message read, not a time of reading.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            match t.get(row, "is_member") {
                Some("1") => "yes",
                Some("0") => "no",
                // documented by the app's schema as NULL for DMs and group DMs
                _ => "not stored (as for DMs)",
            },
            if t.get(row, "is_open") == Some("1") {
                "yes"
            } else {
                "no"
            },
            if t.get(row, "is_starred") == Some("1") {
                "yes"
            } else {
                "no"
            },
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    schema: &Schema,
    threads: bool,
) -> Result<(), RuntimeError> {
    let users = cols_of(schema, "users");
    let conv = cols_of(schema, "conversation");
    let sender = |user: &str| {
        if users.contains("id") && users.contains("name") && users.contains("profile_real_name") {
            format!(
                "(SELECT coalesce(nullif(u.profile_real_name, ''), nullif(u.name, '')) FROM users u WHERE u.id = {user})"
            )
        } else {
            "NULL".into()
        }
    };
    let conversation = |channel: &str| {
        if conv.contains("conversation_id") && conv.contains("name_or_user") {
            format!(
                "(SELECT {CONVERSATION_NAME} FROM conversation c WHERE c.conversation_id = {channel})"
            )
        } else {
            "NULL".into()
        }
    };
    let kind = |channel: &str| {
        if conv.contains("conversation_id") && conv.contains("type") {
            format!("(SELECT c.type FROM conversation c WHERE c.conversation_id = {channel})")
        } else {
            "NULL".into()
        }
    };
    let body = |blob: &str| {
        format!(
            "{} AS text, CASE WHEN json_valid({blob}) THEN (SELECT group_concat(json_extract(f.value, '$.name'), ', ') FROM json_each({blob}, '$.files') f) END AS file_names, \
             CASE WHEN json_valid({blob}) THEN coalesce(json_array_length({blob}, '$.reactions'), 0) END AS reactions, \
             CASE WHEN json_valid({blob}) THEN json_type({blob}, '$.edited') IS NOT NULL END AS edited",
            json_at(blob, "$.text")
        )
    };
    let cols = cols_of(schema, "messages");
    if !crate::calls::require_columns(
        ctx,
        name,
        "Slack's workspace store",
        "messages",
        &cols,
        &["ts", "channel_id"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    let blob = if cols.contains("message_json") {
        "m.message_json"
    } else {
        "NULL"
    };
    let user = column_expr(&cols, "m.", "user_id");
    let sql = format!(
        "SELECT m.rowid AS rid, 'messages' AS origin, m.ts AS ts, m.channel_id AS channel_id, {user} AS user_id, {} AS sender, {} AS conversation, {} AS kind, {}, {}, {} FROM messages m ORDER BY m.ts, m.rowid",
        sender(&user),
        conversation("m.channel_id"),
        kind("m.channel_id"),
        c("subtype"),
        c("thread_ts"),
        body(blob),
    );
    read_messages(ctx, l, name, &sql, "Slack messages")?;
    if !threads {
        return Ok(());
    }
    let tcols = cols_of(schema, "message_threads");
    if !crate::calls::require_columns(
        ctx,
        name,
        "Slack's workspace store",
        "message_threads",
        &tcols,
        &["ts", "channel_id"],
    )? {
        return Ok(());
    }
    let blob = if tcols.contains("message_blob") {
        "m.message_blob"
    } else {
        "NULL"
    };
    let user = json_at(blob, "$.user");
    let sql = format!(
        "SELECT m.rowid AS rid, 'message_threads' AS origin, m.ts AS ts, m.channel_id AS channel_id, {user} AS user_id, {} AS sender, {} AS conversation, {} AS kind, {} AS subtype, {}, {} FROM message_threads m ORDER BY m.ts, m.rowid",
        sender(&user),
        conversation("m.channel_id"),
        kind("m.channel_id"),
        column_expr(&tcols, "m.", "event_sub_type"),
        column_or_null(&tcols, "m.", "thread_ts", "thread_ts"),
        body(blob),
    );
    read_messages(ctx, l, name, &sql, "Slack thread replies")
}

fn read_messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    sql: &str,
    what: &str,
) -> Result<(), RuntimeError> {
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, what)?;
    for (inv, t, row) in pages.rows() {
        let origin = t.get(row, "origin").unwrap_or("messages");
        let user = t.get(row, "user_id").filter(|u| !u.is_empty());
        let who = t
            .get(row, "sender")
            .filter(|n| !n.is_empty())
            .or(user)
            .unwrap_or("an unknown sender");
        let chat = t
            .get(row, "conversation")
            .filter(|n| !n.is_empty())
            .or(t.get(row, "channel_id"))
            .unwrap_or("?");
        let reply = origin == "message_threads";
        let mut d = Draft::new(
            "messages",
            format!(
                "Slack {} from {who} in {chat}",
                if reply { "thread reply" } else { "message" }
            ),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, user, inv);
        d.fact(FactType::Name, raw(t, row, "sender").as_deref(), inv);
        d.fact(
            FactType::Identifier,
            raw(t, row, "channel_id").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "conversation").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "kind").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "file_names").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "subtype").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "reactions").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "edited").as_deref(), inv);
        let ts = t.get(row, "ts");
        d.time(ts, unix_seconds(ts), "Slack message posted", inv);
        let parent = t
            .get(row, "thread_ts")
            .filter(|v| !v.trim_start_matches(['0', '.']).is_empty() && Some(*v) != ts);
        d.time(parent, unix_seconds(parent), "Thread started", inv);
        d.interpretation = format!(
            "{origin} row {} of {}: a Slack {} by {who}{} in the {} conversation {chat}{}{}{}{}; ts is Unix seconds with a fraction (Slack's message id), mentions kept as stored <@U…> tokens.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if reply { "thread reply" } else { "message" },
            user.filter(|u| Some(*u) != Some(who))
                .map(|u| format!(" ({u})"))
                .unwrap_or_default(),
            t.get(row, "kind").unwrap_or("unknown kind of"),
            t.get(row, "subtype")
                .filter(|s| !s.is_empty())
                .map(|s| format!(", subtype {s} (an event the client recorded, as stored)"))
                .unwrap_or_default(),
            t.get(row, "file_names")
                .map(|f| format!(", files {f}"))
                .unwrap_or_default(),
            if t.get(row, "edited") == Some("1") {
                ", edited"
            } else {
                ""
            },
            t.get(row, "reactions")
                .filter(|r| *r != "0")
                .map(|r| format!(", {r} reaction(s)"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

fn files(ctx: &AgentCtx<'_>, l: &Located, name: &str, schema: &Schema) -> Result<(), RuntimeError> {
    let cols = cols_of(schema, "files");
    if !crate::calls::require_columns(
        ctx,
        name,
        "Slack's workspace store",
        "files",
        &cols,
        &["id", "file_blob"],
    )? {
        return Ok(());
    }
    let users = cols_of(schema, "users");
    let uploader = if users.contains("id") && users.contains("name") {
        format!(
            "(SELECT coalesce(nullif(u.profile_real_name, ''), nullif(u.name, '')) FROM users u WHERE u.id = {})",
            json_at("f.file_blob", "$.user")
        )
    } else {
        "NULL".into()
    };
    let fields = [
        ("$.name", "file_name"),
        ("$.title", "title"),
        ("$.mimetype", "mimetype"),
        ("$.filetype", "filetype"),
        ("$.size", "size"),
        ("$.created", "created"),
        ("$.user", "user"),
        ("$.url_private", "url_private"),
        ("$.permalink", "permalink"),
    ];
    let sql = format!(
        "SELECT f.rowid AS rid, f.id AS id, {}, {uploader} AS uploader FROM files f ORDER BY f.rowid",
        fields
            .iter()
            .map(|(p, a)| format!("{} AS {a}", json_at("f.file_blob", p)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Slack files")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").unwrap_or("?");
        let file = t.get(row, "file_name").unwrap_or(id);
        let mut d = Draft::new("media", format!("Slack file {file}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "file_name").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "title").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "mimetype").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "filetype").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "size").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "user").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "uploader").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "url_private").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "permalink").as_deref(), inv);
        let created = t.get(row, "created");
        d.time(created, unix_seconds(created), "Slack file shared", inv);
        d.interpretation = format!(
            "files row {} of {}: the file {file} ({}, {} bytes) shared in the Slack workspace by {}; created is Unix seconds. Whether a copy is in the app's image cache is not checked here.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "mimetype").unwrap_or("type not stored"),
            t.get(row, "size").unwrap_or("?"),
            t.get(row, "uploader")
                .or(t.get(row, "user"))
                .unwrap_or("an unknown user"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
