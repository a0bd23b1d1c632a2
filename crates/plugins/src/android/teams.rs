//! Microsoft Teams on Android (`com.microsoft.teams/databases/SkypeTeams.db`), the fields of
//! ALEAPP's `get_teams`, `get_teams_users`, `get_teams_calllog`, `get_teams_activity` and
//! `get_teams_fileinfo`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `Message` (with `Conversation`) | one `messages` per message | arrival, compose and delete times (Unix ms), the sender's name and MRI (`from`, where stored), content as stored (Teams' HTML), the conversation's id and topic, message id; the sender a `teams:<MRI>` person |
//! | `User` | one `contacts` per user | last sync (Unix ms), given name, surname, display name, e-mails (three), telephone and home numbers, account enabled, type, user type, Teams user and private-chat flags, MRI and user principal name where stored; a `teams:<MRI>` person (or by e-mail when no MRI is stored) with every e-mail, number and name |
//! | `MessagePropertyAttribute` (`propertyId` `CallLog`) | one `calls` per call log | connect and end times (Unix ms), state, type, direction, session type, the originator's name and MRI, the target's MRI and the name `User` gives it (read with `json_extract` in the query; ALEAPP drops a call whose target is no cached user, read here too); both parties `teams:<MRI>` persons |
//! | `ActivityFeed` | one `messages` per activity | time (Unix ms), the source user's name (and MRI where stored), preview, type, subtype, read flag |
//! | `FileInfo` | one `files` per file reference | last modified (ISO 8601 text), file name, type, object URL, folder flag, last modified by |
//!
//! Schema drift: each table is read when it has its key columns, its other columns where
//! present (absent ones as NULL, as ALEAPP reads them).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, qualified_or_null, require_columns};
use crate::drafts::{Draft, date_text, record_draft, unix_millis};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is Teams' own store.
pub fn is_teams(l: &Located) -> bool {
    l.path.contains("/com.microsoft.teams/") && l.name() == "SkypeTeams.db"
}

const STORE: &str = "Microsoft Teams' SkypeTeams.db";
const TABLES: [&str; 5] = [
    "Message",
    "User",
    "MessagePropertyAttribute",
    "ActivityFeed",
    "FileInfo",
];

type Schema = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// A flag as the interpretation words it.
fn flag(v: Option<&str>) -> String {
    match v {
        Some("1") => "yes".to_string(),
        Some("0") => "no".to_string(),
        Some(v) => format!("{v} (as stored)"),
        None => "not stored".to_string(),
    }
}

/// One `SkypeTeams.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    if !TABLES.iter().any(|t| schema.contains_key(*t)) {
        ctx.unparsed(
            &name,
            &format!(
                "could not parse {STORE} because it has none of the tables {}",
                TABLES.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let users = match schema.get("User") {
        Some(cols) => {
            require_columns(ctx, &name, STORE, "User", cols, &["displayName"])?
                && users_of(ctx, l, &name, cols)?
        }
        None => false,
    };
    if let Some(cols) = schema.get("Message")
        && require_columns(
            ctx,
            &name,
            STORE,
            "Message",
            cols,
            &["arrivalTime", "conversationId"],
        )?
    {
        messages(ctx, l, &name, cols, &schema)?;
    }
    if let Some(cols) = schema.get("MessagePropertyAttribute")
        && require_columns(
            ctx,
            &name,
            STORE,
            "MessagePropertyAttribute",
            cols,
            &["propertyId", "attributeValue"],
        )?
    {
        calls(ctx, l, &name, users.then(|| &schema["User"]))?;
    }
    if let Some(cols) = schema.get("ActivityFeed")
        && require_columns(
            ctx,
            &name,
            STORE,
            "ActivityFeed",
            cols,
            &["activityTimestamp"],
        )?
    {
        activity(ctx, l, &name, cols)?;
    }
    if let Some(cols) = schema.get("FileInfo")
        && require_columns(ctx, &name, STORE, "FileInfo", cols, &["fileName"])?
    {
        files(ctx, l, &name, cols)?;
    }
    Ok(())
}

/// The `User` rows; whether the table has the `mri` a call's target is looked up by.
fn users_of(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<bool, RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let fields = [
        "lastSyncTime",
        "givenName",
        "surname",
        "email",
        "secondaryEmail",
        "alternativeEmail",
        "telephoneNumber",
        "homeNumber",
        "accountEnabled",
        "type",
        "userType",
        "isSkypeTeamsUser",
        "isPrivateChatEnabled",
        "mri",
        "userPrincipalName",
    ];
    let sql = format!(
        "SELECT rowid AS rid, displayName, {}, {} FROM User ORDER BY rowid",
        fields.iter().map(|f| c(f)).collect::<Vec<_>>().join(", "),
        qualified_or_null(cols, "", "mri", "teams", "qualified"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(false);
    };
    note_pages_cap(ctx, name, &pages, "Teams users")?;
    for (inv, t, row) in pages.rows() {
        let label = t
            .get(row, "displayName")
            .or(t.get(row, "email"))
            .or(t.get(row, "mri"))
            .unwrap_or("an unnamed user")
            .to_string();
        let mut d = Draft::new("contacts", format!("Teams user {label}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["givenName", "surname", "displayName"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        for col in [
            "email",
            "secondaryEmail",
            "alternativeEmail",
            "userPrincipalName",
        ] {
            let v = raw(t, row, col);
            let kind = if v.as_deref().is_some_and(|v| v.contains('@')) {
                FactType::Email
            } else {
                FactType::Account
            };
            d.fact(kind, v.as_deref(), inv);
        }
        for col in ["telephoneNumber", "homeNumber"] {
            d.fact(FactType::Phone, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Account, raw(t, row, "mri").as_deref(), inv);
        for col in ["type", "userType"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        for col in ["accountEnabled", "isSkypeTeamsUser", "isPrivateChatEnabled"] {
            d.fact(FactType::Count, raw(t, row, col).as_deref(), inv);
        }
        let sync = t.get(row, "lastSyncTime");
        d.time(sync, unix_millis(sync), "Teams user last synced", inv);
        d.interpretation = format!(
            "User row {} of {}: {label}, a user Microsoft Teams cached from the organisation's directory ({}{}); account enabled {}, Teams user {}, private chat enabled {}; lastSyncTime is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "mri")
                .map(|m| format!("MRI {m}"))
                .unwrap_or_else(|| "no MRI stored".to_string()),
            t.get(row, "email")
                .map(|e| format!(", e-mail {e}"))
                .unwrap_or_default(),
            flag(t.get(row, "accountEnabled")),
            flag(t.get(row, "isSkypeTeamsUser")),
            flag(t.get(row, "isPrivateChatEnabled")),
        );
        record_draft(ctx, d)?;
        let Some(key) = t.get(row, "mri").or(t.get(row, "email")) else {
            continue;
        };
        observe_columns(
            ctx,
            &format!("teams:{key}"),
            &label,
            t,
            row,
            inv,
            &[
                ("qualified", IdType::AccountId, "The Teams user id (MRI)"),
                ("email", IdType::Email, "The e-mail address"),
                (
                    "secondaryEmail",
                    IdType::Email,
                    "A secondary e-mail address",
                ),
                (
                    "alternativeEmail",
                    IdType::Email,
                    "An alternative e-mail address",
                ),
                ("telephoneNumber", IdType::Phone, "The telephone number"),
                ("homeNumber", IdType::Phone, "The home number"),
                ("displayName", IdType::DisplayName, "The display name"),
            ],
            &|what| {
                format!(
                    "{what} of {label}, a user Microsoft Teams cached ({}).",
                    l.name()
                )
            },
        )?;
    }
    Ok(cols.contains("mri"))
}

fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let topic = match schema.get("Conversation") {
        Some(conv) if conv.contains("conversationId") && conv.contains("displayName") => {
            "(SELECT v.displayName FROM Conversation v WHERE v.conversationId = m.conversationId LIMIT 1)"
        }
        _ => "NULL",
    };
    let sender = if cols.contains("from") {
        "m.\"from\" AS sender, CASE WHEN m.\"from\" IS NOT NULL AND m.\"from\" != '' THEN 'teams:' || m.\"from\" END AS qualified"
    } else {
        "NULL AS sender, NULL AS qualified"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.arrivalTime AS arrivalTime, m.conversationId AS conversationId, {}, {}, {}, {}, {}, {sender}, {topic} AS topic FROM Message m ORDER BY m.conversationId, m.arrivalTime, m.rowid",
        c("userDisplayName"),
        c("content"),
        c("deleteTime"),
        c("composeTime"),
        c("messageId"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Teams messages")?;
    for (inv, t, row) in pages.rows() {
        let who = t
            .get(row, "userDisplayName")
            .or(t.get(row, "sender"))
            .unwrap_or("an unnamed sender")
            .to_string();
        let chat = t
            .get(row, "topic")
            .or(t.get(row, "conversationId"))
            .unwrap_or("an unknown conversation")
            .to_string();
        let mut d = Draft::new("messages", format!("Teams message from {who} in {chat}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Name,
            raw(t, row, "userDisplayName").as_deref(),
            inv,
        );
        d.fact(FactType::Account, raw(t, row, "sender").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "content").as_deref(), inv);
        d.fact(FactType::Name, raw(t, row, "topic").as_deref(), inv);
        for col in ["conversationId", "messageId"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("arrivalTime", "Message arrived"),
                ("composeTime", "Message composed"),
                ("deleteTime", "Message deleted"),
            ],
        );
        let deleted = t
            .get(row, "deleteTime")
            .and_then(|v| v.parse::<f64>().ok())
            .is_some_and(|v| v > 0.0);
        d.interpretation = format!(
            "Message row {} of {}: a Microsoft Teams message from {who}{} in the conversation {chat}{}{}; the content is Teams' HTML as stored; times are Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "sender")
                .filter(|s| *s != who)
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            t.get(row, "topic")
                .and(t.get(row, "conversationId"))
                .map(|id| format!(" ({id})"))
                .unwrap_or_default(),
            if deleted {
                "; deleted (deleteTime set)"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        if let Some(mri) = t.get(row, "sender") {
            observe_columns(
                ctx,
                &format!("teams:{mri}"),
                &who,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Teams user id (MRI)"),
                    ("userDisplayName", IdType::DisplayName, "The display name"),
                ],
                &|what| format!("{what} of the sender of a Teams message in {chat}."),
            )?;
        }
    }
    Ok(())
}

/// `json_extract` of `path` from the call log's JSON, NULL where it is no JSON.
fn json(path: &str) -> String {
    crate::calls::json_at("a.attributeValue", path)
}

fn calls(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    users: Option<&std::collections::BTreeSet<String>>,
) -> Result<(), RuntimeError> {
    let target = json("$.target");
    let originator = json("$.originator");
    let target_name = match users {
        Some(cols) if cols.contains("givenName") => {
            format!("(SELECT u.givenName FROM User u WHERE u.mri = {target} LIMIT 1)")
        }
        _ => "NULL".to_string(),
    };
    let sql = format!(
        "SELECT a.rowid AS rid, {} AS connect, {} AS ended, {} AS state, {} AS type, {} AS originatorName, {} AS direction, {} AS session, {originator} AS originator, {target} AS target, {target_name} AS targetName, \
CASE WHEN {originator} IS NOT NULL AND {originator} != '' THEN 'teams:' || {originator} END AS qoriginator, \
CASE WHEN {target} IS NOT NULL AND {target} != '' THEN 'teams:' || {target} END AS qtarget \
FROM MessagePropertyAttribute a WHERE a.propertyId = 'CallLog' ORDER BY a.rowid",
        json("$.connectTimeMillis"),
        json("$.endTimeMillis"),
        json("$.callState"),
        json("$.callType"),
        json("$.originatorDisplayName"),
        json("$.callDirection"),
        json("$.sessionType"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Teams call logs")?;
    for (inv, t, row) in pages.rows() {
        let caller = t
            .get(row, "originatorName")
            .or(t.get(row, "originator"))
            .unwrap_or("an unknown caller")
            .to_string();
        let callee = t
            .get(row, "targetName")
            .or(t.get(row, "target"))
            .unwrap_or("an unknown participant")
            .to_string();
        let mut d = Draft::new("calls", format!("Teams call from {caller} to {callee}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        for col in ["originatorName", "targetName"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        for col in ["originator", "target"] {
            d.fact(FactType::Account, raw(t, row, col).as_deref(), inv);
        }
        for col in ["state", "type", "direction", "session"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[("connect", "Call connected"), ("ended", "Call ended")],
        );
        d.interpretation = format!(
            "MessagePropertyAttribute row {} of {} (CallLog): a Microsoft Teams {} call, direction {}, state {}, session type {}, from {caller}{} to {callee}{}; connectTimeMillis and endTimeMillis are Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "type").unwrap_or("(type not stored)"),
            t.get(row, "direction").unwrap_or("not stored"),
            t.get(row, "state").unwrap_or("not stored"),
            t.get(row, "session").unwrap_or("not stored"),
            t.get(row, "originator")
                .filter(|o| *o != caller)
                .map(|o| format!(" ({o})"))
                .unwrap_or_default(),
            t.get(row, "target")
                .filter(|o| *o != callee)
                .map(|o| format!(" ({o})"))
                .unwrap_or_default(),
        );
        record_draft(ctx, d)?;
        for (id, qualified, shown, who) in [
            ("originator", "qoriginator", "originatorName", "the caller"),
            ("target", "qtarget", "targetName", "the called participant"),
        ] {
            let Some(mri) = t.get(row, id) else {
                continue;
            };
            let label = t.get(row, shown).unwrap_or(mri).to_string();
            observe_columns(
                ctx,
                &format!("teams:{mri}"),
                &label,
                t,
                row,
                inv,
                &[
                    (qualified, IdType::AccountId, "The Teams user id (MRI)"),
                    (shown, IdType::DisplayName, "The name"),
                ],
                &|what| format!("{what} of {who} of a Teams call ({}).", l.name()),
            )?;
        }
    }
    Ok(())
}

fn activity(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let fields = [
        "sourceUserImDisplayName",
        "messagePreview",
        "activityType",
        "activitySubtype",
        "isRead",
        "sourceUserMri",
    ];
    let sql = format!(
        "SELECT rowid AS rid, activityTimestamp, {}, {} FROM ActivityFeed ORDER BY activityTimestamp, rowid",
        fields.iter().map(|f| c(f)).collect::<Vec<_>>().join(", "),
        qualified_or_null(cols, "", "sourceUserMri", "teams", "qualified"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Teams activity feed")?;
    for (inv, t, row) in pages.rows() {
        let who = t
            .get(row, "sourceUserImDisplayName")
            .or(t.get(row, "sourceUserMri"))
            .unwrap_or("an unnamed user")
            .to_string();
        let kind = t.get(row, "activityType").unwrap_or("activity");
        let mut d = Draft::new("messages", format!("Teams activity ({kind}) from {who}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Name,
            raw(t, row, "sourceUserImDisplayName").as_deref(),
            inv,
        );
        d.fact(
            FactType::Account,
            raw(t, row, "sourceUserMri").as_deref(),
            inv,
        );
        for col in ["messagePreview", "activityType", "activitySubtype"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Count, raw(t, row, "isRead").as_deref(), inv);
        let time = t.get(row, "activityTimestamp");
        d.time(time, unix_millis(time), "Teams activity", inv);
        d.interpretation = format!(
            "ActivityFeed row {} of {}: a Microsoft Teams activity-feed entry ({kind}{}) from {who}; read {}; activityTimestamp is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "activitySubtype")
                .map(|s| format!(", {s}"))
                .unwrap_or_default(),
            flag(t.get(row, "isRead")),
        );
        record_draft(ctx, d)?;
        if let Some(mri) = t.get(row, "sourceUserMri") {
            observe_columns(
                ctx,
                &format!("teams:{mri}"),
                &who,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Teams user id (MRI)"),
                    (
                        "sourceUserImDisplayName",
                        IdType::DisplayName,
                        "The display name",
                    ),
                ],
                &|what| format!("{what} of the source of a Teams activity ({}).", l.name()),
            )?;
        }
    }
    Ok(())
}

fn files(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    cols: &std::collections::BTreeSet<String>,
) -> Result<(), RuntimeError> {
    let c = |col: &str| column_or_null(cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, fileName, {}, {}, {}, {}, {} FROM FileInfo ORDER BY rowid",
        c("lastModifiedTime"),
        c("type"),
        c("objectUrl"),
        c("isFolder"),
        c("lastModifiedBy"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Teams file references")?;
    for (inv, t, row) in pages.rows() {
        let file = t
            .get(row, "fileName")
            .unwrap_or("an unnamed file")
            .to_string();
        let mut d = Draft::new("files", format!("Teams file {file}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Name, raw(t, row, "fileName").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "type").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "objectUrl").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "isFolder").as_deref(), inv);
        d.fact(
            FactType::Name,
            raw(t, row, "lastModifiedBy").as_deref(),
            inv,
        );
        let modified = t.get(row, "lastModifiedTime");
        d.time(modified, date_text(modified), "File last modified", inv);
        d.interpretation = format!(
            "FileInfo row {} of {}: a file Microsoft Teams references ({}{}), folder {}, last modified by {}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "type").unwrap_or("type not stored"),
            t.get(row, "objectUrl")
                .map(|u| format!(", at {u}"))
                .unwrap_or_default(),
            flag(t.get(row, "isFolder")),
            t.get(row, "lastModifiedBy").unwrap_or("no one stored"),
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}
