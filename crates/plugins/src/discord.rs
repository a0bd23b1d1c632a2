//! Discord's message cache `kv-storage/@account.<user id>/a`, the same SQLite key-value store
//! on both platforms (Android `com.discord/files/kv-storage/…`, iOS `Library/Caches/kv-storage/…`
//! of Discord's container), with the fields of ALEAPP's `get_discordChats` and the KV-storage
//! part of iLEAPP's `discordChats`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `messages0` (`data`: one header byte, then the message's JSON, read with `json_extract` in the query) | one `messages` per record | sent, edited and call-ended times (ISO 8601), the author's id, user name, global name, bot flag and avatar, the channel (`channelId`, `message.channel_id`), the record's and message's ids, type (0 message, 3 call, 7 user joined, 19 reply, as both modules word them), content, pinned, mention roles; each attachment (file name, URL, proxy URL, size, content type), each embed (URL, description, author name, URL and icon, footer text and icon) and each mentioned user (id, user name, global name), read with `json_each`; direction: sent when the author is the account the folder names; the author and the mentioned users `discord:<user id>` persons with `discord-username:<user name>` (qualified in the query) |
//!
//! The device's user is the account the folder names (`@account.<id>`): the author of the
//! messages it sent is `owner`. A record whose data is not JSON after its header byte is counted
//! in a note (both modules skip it). Schema drift: the table must have `data`; a store without
//! `messages0` is noted.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use crate::calls::note_pages_cap;
use crate::drafts::{Draft, date_text, record_draft};
use crate::identity::{
    OwnedParty, TreeRef, artefact_name, observe_columns, pages_on, query_on, table_columns,
    tables_on,
};
use crate::outputs::raw;

/// Whether `path` is Discord's key-value message cache (`…/kv-storage/@account.<id>/a` in
/// Discord's Android files or an iOS container's `Library/Caches`).
pub fn is_kv_storage(path: &str) -> bool {
    path.ends_with("/a")
        && path.contains("/kv-storage/@account.")
        && (path.contains("/com.discord/files/kv-storage/")
            || (path.contains("/Containers/Data/Application/")
                && path.contains("/Library/Caches/kv-storage/")))
}

/// The account id the folder names (`@account.<id>`), when it is a Discord id (digits).
pub fn account_of(path: &str) -> Option<&str> {
    let at = path.find("/@account.")? + "/@account.".len();
    let id = path[at..].split('/').next()?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some(id)
}

/// The message JSON of a record: the data after its header byte, where it is JSON.
const RECORDS: &str = "SELECT rowid AS rid, CAST(substr(data, 2) AS TEXT) AS j FROM messages0";

/// `json_extract` of `path` in the record's JSON as `alias`.
fn j(path: &str, alias: &str) -> String {
    format!("json_extract(j, '{path}') AS {alias}")
}

/// One `kv-storage` store; `find` is the call that listed it.
pub fn kv_storage(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
    find: &Invoked,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, path);
    let Some((tables_inv, tables)) = tables_on(ctx, tree, path)? else {
        return Ok(());
    };
    if !tables.iter().any(|t| t == "messages0") {
        ctx.unparsed(
            &name,
            "could not parse Discord's kv-storage because it has no messages0 table",
            Some(&tables_inv.record.invocation_id),
        )?;
        return Ok(());
    }
    let cols = table_columns(ctx, tree, path, "messages0")?;
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Discord's kv-storage",
        "messages0",
        &cols,
        &["data"],
    )? {
        return Ok(());
    }
    let account = account_of(path);
    // records whose data is no JSON after the header byte
    let bad = format!("SELECT count(*) AS bad FROM ({RECORDS}) WHERE NOT json_valid(j)");
    if let Some((inv, t)) = query_on(ctx, tree, path, &bad, 1)?
        && let Some(n) = t.rows.first().and_then(|r| t.get(r, "bad"))
        && n != "0"
    {
        ctx.unparsed(
            &name,
            &format!("{n} records of Discord's kv-storage hold no JSON after their header byte (not read)"),
            Some(&inv.record.invocation_id),
        )?;
    }
    let sent = match account {
        Some(id) => format!(
            "CASE WHEN json_extract(j, '$.message.author.id') = '{id}' THEN 1 ELSE 0 END AS sent"
        ),
        None => "NULL AS sent".to_string(),
    };
    let sql = format!(
        "SELECT rid, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, \
coalesce(json_extract(j, '$.message.author.global_name'), json_extract(j, '$.message.author.globalName'), json_extract(j, '$.message.author.display_name')) AS global_name, \
CASE WHEN json_extract(j, '$.message.author.id') IS NOT NULL THEN 'discord:' || json_extract(j, '$.message.author.id') END AS qualified, \
CASE WHEN json_extract(j, '$.message.author.username') IS NOT NULL THEN 'discord-username:' || lower(json_extract(j, '$.message.author.username')) END AS qusername, \
{sent} FROM ({RECORDS}) WHERE json_valid(j) ORDER BY rid",
        j("$.message.timestamp", "time"),
        j("$.message.edited_timestamp", "edited"),
        j("$.message.call.ended_timestamp", "call_ended"),
        j("$.channelId", "channel_key"),
        j("$.message.channel_id", "channel"),
        j("$.id", "key_id"),
        j("$.message.id", "id"),
        j("$.message.type", "type"),
        j("$.message.content", "content"),
        j("$.message.author.id", "author"),
        j("$.message.author.username", "username"),
        j("$.message.author.bot", "bot"),
        j("$.message.author.avatar", "avatar"),
        j("$.message.pinned", "pinned"),
        j("$.message.mention_roles", "mention_roles"),
        j("$.message.guild_id", "guild"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Discord messages")?;
    let parts = parts(ctx, tree, path)?;
    let mut by_record: BTreeMap<&str, Vec<crate::calls::PagedRow<'_>>> = BTreeMap::new();
    for (pinv, pt, prow) in parts.iter().flat_map(|p| p.rows()) {
        if let Some(rid) = pt.get(prow, "rid") {
            by_record.entry(rid).or_default().push((pinv, pt, prow));
        }
    }
    let no_parts = Vec::new();
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let own = t.get(row, "sent") == Some("1");
        let direction = match t.get(row, "sent") {
            Some("1") => Some(true),
            Some("0") => Some(false),
            _ => None,
        };
        let author = t.get(row, "author");
        let who = t
            .get(row, "global_name")
            .or(t.get(row, "username"))
            .or(author)
            .unwrap_or("an unknown author")
            .to_string();
        let chat = t
            .get(row, "channel")
            .or(t.get(row, "channel_key"))
            .unwrap_or("an unknown channel")
            .to_string();
        let kind = match t.get(row, "type") {
            Some("0") | None => "message".to_string(),
            Some("3") => "call".to_string(),
            Some("7") => "user joined".to_string(),
            Some("19") => "reply".to_string(),
            Some(v) => format!("message of type {v}"),
        };
        let mut d = Draft::new(
            "messages",
            if own {
                format!("Discord {kind} sent in channel {chat}")
            } else {
                format!("Discord {kind} from {who} in channel {chat}")
            },
        );
        d.fact(FactType::Path, Some(path), find);
        for (col, ft) in [
            ("author", FactType::Account),
            ("username", FactType::Account),
            ("global_name", FactType::Name),
            ("channel_key", FactType::Identifier),
            ("channel", FactType::Identifier),
            ("guild", FactType::Identifier),
            ("key_id", FactType::Identifier),
            ("id", FactType::Identifier),
            ("type", FactType::Count),
            ("content", FactType::Text),
            ("bot", FactType::Text),
            ("avatar", FactType::Identifier),
            ("pinned", FactType::Text),
            ("mention_roles", FactType::Text),
        ] {
            if col == "channel_key" && t.get(row, "channel_key") == t.get(row, "channel") {
                continue;
            }
            if col == "key_id" && t.get(row, "key_id") == t.get(row, "id") {
                continue;
            }
            d.fact(ft, raw(t, row, col).as_deref(), inv);
        }
        let time = t.get(row, "time");
        match direction {
            Some(s) => d.message_time(time, date_text(time), s, inv),
            None => d.time(time, date_text(time), "Discord message posted", inv),
        };
        for (col, what) in [("edited", "Message edited"), ("call_ended", "Call ended")] {
            let v = t.get(row, col);
            d.time(v, date_text(v), what, inv);
        }
        let mine = by_record.get(rid).unwrap_or(&no_parts);
        let mut said = Vec::new();
        for &(pinv, pt, prow) in mine {
            let spec: &[(&str, FactType)] = match pt.get(prow, "kind") {
                Some("attachment") => &[
                    ("a1", FactType::Name),
                    ("a2", FactType::Url),
                    ("a3", FactType::Url),
                    ("a4", FactType::Count),
                    ("a5", FactType::Text),
                ],
                Some("embed") => &[
                    ("a1", FactType::Url),
                    ("a2", FactType::Text),
                    ("a3", FactType::Name),
                    ("a4", FactType::Url),
                    ("a5", FactType::Url),
                    ("a6", FactType::Text),
                    ("a7", FactType::Url),
                ],
                _ => &[
                    ("a1", FactType::Account),
                    ("a2", FactType::Account),
                    ("a3", FactType::Name),
                ],
            };
            for (col, ft) in spec {
                d.fact(*ft, raw(pt, prow, col).as_deref(), pinv);
            }
            said.push(match pt.get(prow, "kind") {
                Some("attachment") => format!(
                    "attachment {}",
                    pt.get(prow, "a1").or(pt.get(prow, "a2")).unwrap_or("?")
                ),
                Some("embed") => format!(
                    "embed {}",
                    pt.get(prow, "a1").or(pt.get(prow, "a3")).unwrap_or("?")
                ),
                _ => format!(
                    "mention of {}",
                    pt.get(prow, "a2").or(pt.get(prow, "a1")).unwrap_or("?")
                ),
            });
        }
        d.interpretation = format!(
            "messages0 record {rid} of {} (Discord's kv-storage of the account {}): a Discord {kind} by {who}{} in channel {chat}, {}{}; times are ISO 8601.",
            path.rsplit('/').nth(1).unwrap_or(path),
            account.unwrap_or("the folder does not name"),
            author
                .filter(|a| *a != who)
                .map(|a| format!(" ({a})"))
                .unwrap_or_default(),
            match direction {
                Some(true) => "sent by the device's user (the author is the folder's account)",
                Some(false) => "received (the author is not the folder's account)",
                None => "direction unknown (the folder names no account)",
            },
            if said.is_empty() {
                String::new()
            } else {
                format!("; {}", said.join(", "))
            },
        );
        record_draft(ctx, d)?;
        if author.is_some() {
            let (context, label) = if own {
                ("owner".to_string(), "device owner".to_string())
            } else {
                (format!("discord:{}", author.unwrap_or("?")), who.clone())
            };
            observe_columns(
                ctx,
                &context,
                &label,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The Discord user id"),
                    ("qusername", IdType::AccountId, "The Discord user name"),
                    ("global_name", IdType::DisplayName, "The global name"),
                ],
                &|what| {
                    format!(
                        "{what} of the author of a Discord message in channel {chat}{}.",
                        if own {
                            ", the account the kv-storage folder names (the device's user)"
                        } else {
                            ""
                        }
                    )
                },
            )?;
        }
        for &(pinv, pt, prow) in mine {
            if pt.get(prow, "kind") != Some("mention") {
                continue;
            }
            let Some(id) = pt.get(prow, "a1") else {
                continue;
            };
            let label = pt
                .get(prow, "a3")
                .or(pt.get(prow, "a2"))
                .unwrap_or(id)
                .to_string();
            let context = if account == Some(id) {
                "owner".to_string()
            } else {
                format!("discord:{id}")
            };
            observe_columns(
                ctx,
                &context,
                &label,
                pt,
                prow,
                pinv,
                &[
                    ("a6", IdType::AccountId, "The Discord user id"),
                    ("a7", IdType::AccountId, "The Discord user name"),
                    ("a3", IdType::DisplayName, "The global name"),
                ],
                &|what| {
                    format!("{what} of a user mentioned in a Discord message in channel {chat}.")
                },
            )?;
        }
        // wallet claims: a received message's writer is its author; a sent one's reader is
        // not known in a channel, so only the writer's side is said
        let (Some(text), Some(_)) = (t.get(row, "content").filter(|x| !x.is_empty()), direction)
        else {
            continue;
        };
        let party = (!own).then(|| OwnedParty {
            context: format!("discord:{}", author.unwrap_or("?")),
            label: who.clone(),
            role: format!("{who}, who wrote it"),
        });
        crate::identity::message_claims(
            ctx,
            inv,
            text,
            &format!("Discord message record {rid}"),
            own,
            &format!(
                "the device's user, who {} it",
                if own { "wrote" } else { "received" }
            ),
            party
                .as_ref()
                .filter(|_| author.is_some())
                .map(OwnedParty::party),
        )?;
    }
    Ok(())
}

/// The attachments, embeds and mentions of every record (one row each, `kind` saying which),
/// in record order.
fn parts(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    path: &str,
) -> Result<Option<crate::calls::Paged>, RuntimeError> {
    let each = |list: &str| {
        format!(
            "FROM ({RECORDS}) m, json_each(CASE WHEN json_valid(m.j) THEN m.j ELSE '{{}}' END, '$.message.{list}') e"
        )
    };
    let v = |p: &str| format!("json_extract(e.value, '{p}')");
    let global = format!("coalesce({}, {})", v("$.global_name"), v("$.globalName"));
    let sql = format!(
        "SELECT * FROM (\
SELECT m.rid AS rid, 'attachment' AS kind, e.key AS n, {} AS a1, {} AS a2, {} AS a3, {} AS a4, {} AS a5, NULL AS a6, NULL AS a7 {} \
UNION ALL SELECT m.rid, 'embed', e.key, {}, {}, {}, {}, {}, {}, {} {} \
UNION ALL SELECT m.rid, 'mention', e.key, {}, {}, {}, NULL, NULL, \
CASE WHEN {} IS NOT NULL THEN 'discord:' || {} END, CASE WHEN {} IS NOT NULL THEN 'discord-username:' || lower({}) END {}\
) ORDER BY rid, kind, n",
        v("$.filename"),
        v("$.url"),
        v("$.proxy_url"),
        v("$.size"),
        v("$.content_type"),
        each("attachments"),
        v("$.url"),
        v("$.description"),
        v("$.author.name"),
        v("$.author.url"),
        v("$.author.icon_url"),
        v("$.footer.text"),
        v("$.footer.icon_url"),
        each("embeds"),
        v("$.id"),
        v("$.username"),
        global,
        v("$.id"),
        v("$.id"),
        v("$.username"),
        v("$.username"),
        each("mentions"),
    );
    pages_on(ctx, tree, path, &sql)
}
