//! Kik Messenger on Android (`kik.android/databases`), the fields of ALEAPP's `kik` module:
//!
//! | file, table | phenomenon | fields and identities |
//! |---|---|---|
//! | `kikCoreDatabase.db` `CoreTable` | the account | user name, core id, active; the device's user (`owner`) by its user name |
//! | `[<core id>.]kikDatabase.db` `KIKcontactsTable` | one per user or group | JID, display name, user name, local name (the owner's own), group, its size and hashtag, roster, blocked, ignored, verified, description, photo URL and time; a user is `kik:<JID>` (the JID — the id iOS's Kik reader observes too —, user name, display name); a group JID is no person |
//! | `memberTable` | one per group | each member's JID, admin |
//! | `messagesTable` with `KIKContentTable` | one per message | time (Unix ms), direction (`was_me`), partner JID and name, chat (`bin_id`: the group's JID in a group), body, read state, status and system messages, attachment's content id, app, file name, size and URL, message uid; wallet addresses in a body are claims of its writer |

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{Party, artefact_name, observe, pages_on, query_on, table_columns};
use crate::outputs::raw;

/// Whether `l` is one of Kik's stores.
pub fn is_kik(l: &Located) -> bool {
    l.path.contains("/kik.android/")
}

/// Triage of Kik's stores: the core database (the account) first.
pub fn triage(ctx: &AgentCtx<'_>, found: &[Located]) -> Result<(), RuntimeError> {
    let mut owner: Option<String> = None;
    for l in found
        .iter()
        .filter(|l| is_kik(l) && l.name() == "kikCoreDatabase.db")
    {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            owner = owner.take().or(core(ctx, l)?);
            Ok(())
        })?;
    }
    for l in found
        .iter()
        .filter(|l| is_kik(l) && l.name().ends_with("kikDatabase.db"))
    {
        ctx.artefact(&artefact_name(&l.tree, &l.path), || {
            database(ctx, l, owner.as_deref())
        })?;
    }
    Ok(())
}

/// `CoreTable`: the account's user name (the active one first).
fn core(ctx: &AgentCtx<'_>, l: &Located) -> Result<Option<String>, RuntimeError> {
    if tables_with(ctx, l, &["CoreTable"])?.is_none() {
        return Ok(None);
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "CoreTable")?;
    if !require_columns(
        ctx,
        &name,
        "Kik's kikCoreDatabase.db",
        "CoreTable",
        &cols,
        &["username"],
    )? {
        return Ok(None);
    }
    let sql = format!(
        "SELECT rowid AS rid, username, {}, {} FROM CoreTable WHERE username != '' ORDER BY {} DESC, rowid",
        column_or_null(&cols, "", "core_id", "core_id"),
        column_or_null(&cols, "", "is_active", "is_active"),
        if cols.contains("is_active") {
            "is_active"
        } else {
            "rowid"
        },
    );
    let Some((inv, t)) = query_on(ctx, &l.tree, &l.path, &sql, 100)? else {
        return Ok(None);
    };
    let mut owner = None;
    for row in &t.rows {
        let Some(user) = t.get(row, "username") else {
            continue;
        };
        let active = t.get(row, "is_active") == Some("1") || t.rows.len() == 1;
        let mut d = Draft::new("accounts", format!("Kik account {user}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(&t, row, "username").as_deref(), &inv);
        d.fact(
            FactType::Identifier,
            raw(&t, row, "core_id").as_deref(),
            &inv,
        );
        d.interpretation = format!(
            "CoreTable row {} of {}: the Kik account {user}{}{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "core_id")
                .map(|c| format!(" (core id {c}, the prefix of its other databases' names)"))
                .unwrap_or_default(),
            if active {
                ", the one signed in"
            } else {
                ", not the active one"
            },
        );
        record_draft(ctx, d)?;
        if active && owner.is_none() {
            observe(
                ctx,
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Nickname,
                user,
                &inv,
                "The Kik user name signed in on the device (CoreTable).".to_string(),
            )?;
            owner = Some(user.to_string());
        }
    }
    Ok(owner)
}

/// One `kikDatabase.db`.
fn database(ctx: &AgentCtx<'_>, l: &Located, owner: Option<&str>) -> Result<(), RuntimeError> {
    let Some(tables) = tables_with(ctx, l, &["messagesTable"])? else {
        return Ok(());
    };
    let has = |t: &str| tables.iter().any(|x| x == t);
    let name = artefact_name(&l.tree, &l.path);
    // a user's name by the name columns the layout has: the owner's own name first
    let named = if has("KIKcontactsTable") {
        users(ctx, l, &name)?
    } else {
        Vec::new()
    };
    let name_of = |jid: &str, cols: &[&str]| -> String {
        let cols: Vec<String> = cols
            .iter()
            .filter(|c| named.iter().any(|n| n == *c))
            .map(|c| format!("k.{c}"))
            .collect();
        match cols.len() {
            0 => "NULL".to_string(),
            1 => format!(
                "(SELECT {} FROM KIKcontactsTable k WHERE k.jid = {jid})",
                cols[0]
            ),
            _ => format!(
                "(SELECT coalesce({}) FROM KIKcontactsTable k WHERE k.jid = {jid})",
                cols.join(", ")
            ),
        }
    };
    if has("memberTable") {
        groups(ctx, l, &name, &name_of)?;
    }
    messages(ctx, l, &name, owner, &name_of, has("KIKContentTable"))
}

/// The SQL naming a user (or group) by its JID expression, from the name columns given (in
/// order of preference) that `KIKcontactsTable` has.
type NameOf<'a> = dyn Fn(&str, &[&str]) -> String + 'a;

/// `KIKcontactsTable`; returns its columns (none when it cannot be read).
fn users(ctx: &AgentCtx<'_>, l: &Located, name: &str) -> Result<Vec<String>, RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "KIKcontactsTable")?;
    if !require_columns(
        ctx,
        name,
        "Kik's kikDatabase.db",
        "KIKcontactsTable",
        &cols,
        &["jid"],
    )? {
        return Ok(Vec::new());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, jid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM KIKcontactsTable ORDER BY rowid",
        c("display_name"),
        c("user_name"),
        c("local_name"),
        c("is_group"),
        c("group_size"),
        c("group_hashtag"),
        c("in_roster"),
        c("is_blocked"),
        c("is_ignored"),
        c("verified"),
        c("description"),
        c("photo_url"),
        c("photo_timestamp"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(Vec::new());
    };
    note_pages_cap(ctx, name, &pages, "Kik users")?;
    for (inv, t, row) in pages.rows() {
        let Some(jid) = t.get(row, "jid").filter(|j| !j.is_empty()) else {
            continue;
        };
        let group = t.get(row, "is_group").is_some_and(|g| g != "0") || jid.contains("@groups.");
        let label = t
            .get(row, "local_name")
            .or(t.get(row, "display_name"))
            .or(t.get(row, "user_name"))
            .filter(|s| !s.is_empty())
            .unwrap_or(jid)
            .to_string();
        let mut d = Draft::new(
            "contacts",
            format!("Kik {} {label}", if group { "group" } else { "user" }),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "jid").as_deref(), inv);
        d.fact(FactType::Account, raw(t, row, "user_name").as_deref(), inv);
        for col in ["display_name", "local_name"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Text, raw(t, row, "group_hashtag").as_deref(), inv);
        d.fact(
            FactType::Count,
            t.get(row, "group_size").filter(|_| group),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "description").as_deref(), inv);
        d.fact(FactType::Url, raw(t, row, "photo_url").as_deref(), inv);
        let photo = t.get(row, "photo_timestamp");
        d.time(photo, unix_millis(photo), "Profile photo set", inv);
        let flag = |col: &str| match t.get(row, col) {
            Some("0") | None => None,
            Some(_) => Some(col.trim_start_matches("is_").replace('_', " ")),
        };
        let flags: Vec<String> = ["in_roster", "is_blocked", "is_ignored", "verified"]
            .into_iter()
            .filter_map(flag)
            .collect();
        d.interpretation = format!(
            "KIKcontactsTable row {} of {}: the Kik {} {jid}{}{}.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if group { "group" } else { "user" },
            t.get(row, "local_name")
                .map(|n| format!(", named {n} by the account's user"))
                .unwrap_or_default(),
            if flags.is_empty() {
                String::new()
            } else {
                format!(" ({})", flags.join(", "))
            },
        );
        record_draft(ctx, d)?;
        if group {
            continue;
        }
        let context = format!("kik:{jid}");
        crate::identity::observe_columns(
            ctx,
            &context,
            &label,
            t,
            row,
            inv,
            &[
                ("jid", IdType::AccountId, "The Kik JID"),
                ("user_name", IdType::Nickname, "The Kik user name"),
                ("display_name", IdType::DisplayName, "The display name"),
                (
                    "local_name",
                    IdType::Nickname,
                    "The name the account's user gave",
                ),
            ],
            &|what| format!("{what} of the Kik user {label} (KIKcontactsTable)."),
        )?;
    }
    Ok(cols.into_iter().collect())
}

/// `memberTable`: one phenomenon per group with its members.
fn groups(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    name_of: &NameOf<'_>,
) -> Result<(), RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "memberTable")?;
    if !require_columns(
        ctx,
        name,
        "Kik's kikDatabase.db",
        "memberTable",
        &cols,
        &["group_id", "member_jid"],
    )? {
        return Ok(());
    }
    let names = format!(
        "{} AS group_name, {} AS member_name",
        name_of("m.group_id", &["display_name", "user_name"]),
        name_of("m.member_jid", &["display_name", "user_name"]),
    );
    let sql = format!(
        "SELECT m.group_id AS group_id, m.member_jid AS member_jid, {}, {names} FROM memberTable m ORDER BY m.group_id, m.rowid",
        column_or_null(&cols, "m.", "is_admin", "is_admin"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Kik group members")?;
    for (group, rows) in pages.runs_by("group_id") {
        let label = rows
            .iter()
            .find_map(|(_, t, r)| t.get(r, "group_name"))
            .unwrap_or(&group)
            .to_string();
        let mut d = Draft::new("contacts", format!("Kik group {label} members"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        // every run has a row
        d.fact(FactType::Account, Some(&group), rows[0].0);
        let mut members = Vec::new();
        for &(inv, t, r) in &rows {
            d.fact(FactType::Account, raw(t, r, "member_jid").as_deref(), inv);
            d.fact(FactType::Name, raw(t, r, "member_name").as_deref(), inv);
            if let Some(m) = t.get(r, "member_jid") {
                members.push(format!(
                    "{m}{}{}",
                    t.get(r, "member_name")
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_default(),
                    if t.get(r, "is_admin") == Some("1") {
                        ", admin"
                    } else {
                        ""
                    }
                ));
            }
        }
        d.interpretation = format!(
            "memberTable rows of {group} in {}: the Kik group {label} with {} member(s) besides the account's user: {}.",
            l.name(),
            members.len(),
            members.join(", ")
        );
        record_draft(ctx, d)?;
    }
    Ok(())
}

/// `messagesTable`, with each attachment's properties from `KIKContentTable`.
fn messages(
    ctx: &AgentCtx<'_>,
    l: &Located,
    name: &str,
    owner: Option<&str>,
    name_of: &NameOf<'_>,
    content: bool,
) -> Result<(), RuntimeError> {
    let cols = table_columns(ctx, &l.tree, &l.path, "messagesTable")?;
    if !require_columns(
        ctx,
        name,
        "Kik's kikDatabase.db",
        "messagesTable",
        &cols,
        &["partner_jid", "was_me", "timestamp"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "m.", col, col);
    let partner = format!(
        "{} AS partner_name, {} AS partner_display",
        name_of(
            "m.partner_jid",
            &["local_name", "display_name", "user_name"]
        ),
        name_of("m.partner_jid", &["display_name"]),
    );
    let property = |p: &str, alias: &str| {
        if content && cols.contains("content_id") {
            format!(
                "(SELECT c.content_string FROM KIKContentTable c WHERE c.content_id = m.content_id AND c.content_name = '{p}' LIMIT 1) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.partner_jid AS partner_jid, m.was_me AS was_me, m.timestamp AS time, {}, {}, {}, {}, {}, {}, {}, {}, {partner}, {}, {}, {}, {} FROM messagesTable m ORDER BY m.timestamp, m.rowid",
        c("body"),
        c("read_state"),
        c("bin_id"),
        c("sys_msg"),
        c("stat_msg"),
        c("content_id"),
        c("app_id"),
        c("uid"),
        property("file-name", "file_name"),
        property("file-size", "file_size"),
        property("file-url", "file_url"),
        property("app-name", "app_name"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, name, &pages, "Kik messages")?;
    for (inv, t, row) in pages.rows() {
        let partner = t.get(row, "partner_jid").unwrap_or("?");
        let who = t.get(row, "partner_name").unwrap_or(partner);
        let sent = t.get(row, "was_me") == Some("1");
        let chat = t.get(row, "bin_id").unwrap_or(partner);
        let in_group = chat.contains("@groups.");
        let mut d = Draft::new(
            "messages",
            if sent {
                format!("Kik message sent to {who}")
            } else {
                format!("Kik message from {who}")
            },
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Account,
            raw(t, row, "partner_jid").as_deref(),
            inv,
        );
        d.fact(FactType::Name, raw(t, row, "partner_name").as_deref(), inv);
        d.fact(
            FactType::Name,
            raw(t, row, "partner_display").as_deref(),
            inv,
        );
        d.fact(FactType::Account, raw(t, row, "bin_id").as_deref(), inv);
        for col in ["body", "sys_msg", "stat_msg"] {
            d.fact(FactType::Text, raw(t, row, col).as_deref(), inv);
        }
        for col in ["content_id", "app_id", "uid"] {
            d.fact(FactType::Identifier, raw(t, row, col).as_deref(), inv);
        }
        d.fact(FactType::Name, raw(t, row, "file_name").as_deref(), inv);
        d.fact(FactType::Count, t.get(row, "file_size"), inv);
        d.fact(FactType::Url, raw(t, row, "file_url").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "app_name").as_deref(), inv);
        let time = t.get(row, "time");
        d.message_time(time, unix_millis(time), sent, inv);
        d.interpretation = format!(
            "messagesTable row {} of {}: a Kik message {}{} (was_me {}, read state {}){}; timestamp is Unix milliseconds.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            if sent {
                format!(
                    "sent by the account's user{} to {who}",
                    owner.map(|o| format!(" ({o})")).unwrap_or_default()
                )
            } else {
                format!("from {who} ({partner})")
            },
            if in_group {
                format!(" in the group {chat}")
            } else {
                String::new()
            },
            t.get(row, "was_me").unwrap_or("?"),
            t.get(row, "read_state").unwrap_or("not stored"),
            match (t.get(row, "content_id"), t.get(row, "file_name")) {
                (Some(c), Some(f)) => format!(", with the attachment {f} (content id {c})"),
                (Some(c), None) => format!(", with the attachment content id {c}"),
                _ => String::new(),
            },
        );
        record_draft(ctx, d)?;
        let Some(body) = t.get(row, "body").filter(|b| !b.is_empty()) else {
            continue;
        };
        // the other side: the partner, unless a sent message went to a group
        let context = format!("kik:{partner}");
        let role = if sent {
            format!("{who}, to whom it was sent (partner_jid, was_me 1)")
        } else {
            format!("{who}, who sent it (partner_jid, was_me 0)")
        };
        let other = (!(partner.contains("@groups.") || sent && in_group)).then(|| Party {
            context: &context,
            label: who,
            role: &role,
        });
        crate::identity::message_claims(
            ctx,
            inv,
            body,
            &format!("Kik message {}", t.get(row, "rid").unwrap_or("?")),
            sent,
            &format!(
                "the device's user, who {} it (was_me {})",
                if sent { "wrote" } else { "received" },
                if sent { 1 } else { 0 }
            ),
            other,
        )?;
    }
    Ok(())
}
