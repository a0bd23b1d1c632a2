//! Session (`com.loki-project.loki-messenger`, the Oxen messenger): `database/Session.sqlite`
//! in the app group is a GRDB SQLCipher 4 database like Signal's — 32 bytes of header in the
//! clear, the key and salt the 48-byte `GRDBDatabaseCipherKeySpec` of its keychain access
//! group — opened as Signal's is ([`super::signal::keyed_store`], `sqlite_query`'s `cipher`
//! profile `session_ios`, each keychain export of the extraction tried; a plain, decrypted copy
//! read as is). Every field of iLEAPP's two Session artefacts, columns by name:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `interaction` (+ `thread`, `profile`, `interactionAttachment`) | one `messages` per interaction | sent and received (Unix ms), direction (variant 0 incoming, 1 outgoing; a call's from its body), the kind of the variant (`Interaction.Variant`: message, deleted message, group and disappearing-timer events, screenshot, media saved, request accepted, call), author (Session ID, name), the conversation (its Session ID and name), text, read, server hash, attachments |
//! | `contact` (+ `profile`) | one `contacts` per contact | Session ID, name, nickname, approved, approved me, blocked, last known client version |
//!
//! Identities: a contact or author is `session:<Session ID>` (computed in the query, as Session
//! on Android names its account) with their name; the one author of the outgoing messages is
//! the device's user (`owner`). A message's wallet addresses are claims by direction.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Map, Value};

use super::{Draft, Run};
use crate::calls::column_or_null;
use crate::drafts::{RowPhenomena, unix_millis};
use crate::identity::observe_columns;
use crate::outputs::raw;

/// Triage of every Session `Session.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("Session.sqlite", |find, path| {
        if !path.contains("/database/") {
            return Ok(());
        }
        super::signal::keyed_store(run, find, path, "Session", "session_ios", read)
    })
}

/// A Session ID as `session:<id>`, or NULL.
fn qualified(id: &str) -> String {
    format!("CASE WHEN {id} IS NOT NULL AND {id} != '' THEN 'session:' || {id} END")
}

/// `Interaction.Variant` in words.
const KIND: &str = "CASE i.variant WHEN 0 THEN 'message' WHEN 1 THEN 'message' WHEN 2 THEN 'deleted message' WHEN 3 THEN 'deleted message' WHEN 4 THEN 'deleted message (locally)' WHEN 5 THEN 'deleted message' WHEN 6 THEN 'deleted message (locally)' WHEN 1000 THEN 'group created' WHEN 1001 THEN 'group updated' WHEN 1002 THEN 'you left the group' WHEN 1003 THEN 'group leave error' WHEN 1004 THEN 'leaving the group' WHEN 1005 THEN 'invited to group' WHEN 1006 THEN 'group info updated' WHEN 1007 THEN 'group members updated' WHEN 2000 THEN 'disappearing messages updated' WHEN 3000 THEN 'screenshot taken' WHEN 3001 THEN 'media saved' WHEN 4000 THEN 'message request accepted' WHEN 5000 THEN 'call' ELSE 'variant ' || i.variant END";

fn read(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &BTreeMap<String, BTreeSet<String>>,
    extra: &Map<String, Value>,
) -> Result<(), RuntimeError> {
    let ctx = run.ctx;
    let table = |t: &str| schema.get(t).filter(|c| c.contains("id"));
    if table("interaction").is_none() && table("contact").is_none() {
        ctx.unparsed(
            path,
            "could not parse Session's database because it has no interaction or contact table (with id)",
            None,
        )?;
        return Ok(());
    }
    // a Session ID's name: the nickname the user gave, else the profile's
    let name = |id: &str| match schema.get("profile") {
        Some(c) if c.contains("id") && c.contains("name") => {
            // COALESCE needs two arguments: an older profile has no nickname
            let shown = if c.contains("nickname") {
                "COALESCE(NULLIF(p.nickname, ''), NULLIF(p.name, ''))"
            } else {
                "NULLIF(p.name, '')"
            };
            format!("(SELECT {shown} FROM profile p WHERE p.id = {id})")
        }
        _ => "NULL".into(),
    };
    if let Some(cols) = table("contact") {
        let c = |col: &str, alias: &str| column_or_null(cols, "c.", col, alias);
        let profile = |col: &str, alias: &str| match schema.get("profile") {
            Some(p) if p.contains(col) => {
                format!("(SELECT p.{col} FROM profile p WHERE p.id = c.id) AS {alias}")
            }
            _ => format!("NULL AS {alias}"),
        };
        let select = format!(
            "SELECT c.rowid AS rid, c.id AS session_id, {} AS qualified, {} AS shown, {}, {}, {}, {}, {}, {} FROM contact c",
            qualified("c.id"),
            name("c.id"),
            profile("name", "name"),
            profile("nickname", "nickname"),
            c("isApproved", "approved"),
            c("didApproveMe", "approved_me"),
            c("isBlocked", "blocked"),
            c("lastKnownClientVersion", "client_version"),
        );
        super::signal::record_paged(
            run,
            find,
            path,
            &select,
            "c.rowid",
            extra,
            "Session contacts",
            &RowPhenomena {
                table: "contact",
                category: "contacts",
                what: "a Session contact (approved, approved me and blocked as stored)",
                title: &|t, row| {
                    format!(
                        "Session contact {}",
                        t.get(row, "shown")
                            .or(t.get(row, "session_id"))
                            .unwrap_or("?")
                    )
                },
                fields: &[
                    ("session_id", FactType::Account, "Session ID"),
                    ("name", FactType::Name, "name"),
                    ("nickname", FactType::Name, "nickname"),
                    ("approved", FactType::Count, "approved"),
                    ("approved_me", FactType::Count, "approved me"),
                    ("blocked", FactType::Count, "blocked"),
                    (
                        "client_version",
                        FactType::Text,
                        "last known client version",
                    ),
                ],
                times: &[],
            },
            &mut |inv, t, row| {
                let Some(q) = t.get(row, "qualified") else {
                    return Ok(());
                };
                let who = t.get(row, "shown").unwrap_or(q).to_string();
                observe_columns(
                    ctx,
                    q,
                    &who,
                    t,
                    row,
                    inv,
                    &[
                        ("qualified", IdType::AccountId, "The Session ID"),
                        ("name", IdType::DisplayName, "The profile name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of {who}, a Session contact (contact of Session's database)."
                        )
                    },
                )
            },
        )?;
    }
    let Some(cols) = table("interaction") else {
        return Ok(());
    };
    let c = |col: &str, alias: &str| column_or_null(cols, "i.", col, alias);
    let has = |col: &str| cols.contains(col);
    let author = if has("authorId") {
        "i.authorId"
    } else {
        "NULL"
    };
    let thread = if has("threadId") {
        "i.threadId"
    } else {
        "NULL"
    };
    let direction = if has("variant") {
        let body = if has("body") {
            "WHEN i.variant = 5000 AND i.body LIKE '%\"outgoing\"%' THEN 'outgoing' WHEN i.variant = 5000 AND i.body LIKE '%\"incoming\"%' THEN 'incoming' "
        } else {
            ""
        };
        format!(
            "CASE WHEN i.variant = 0 THEN 'incoming' WHEN i.variant = 1 THEN 'outgoing' {body}END"
        )
    } else {
        "NULL".into()
    };
    let kind = if has("variant") { KIND } else { "NULL" };
    let attachments = match schema.get("interactionAttachment") {
        Some(a) if a.contains("interactionId") => {
            "(SELECT count(*) FROM interactionAttachment a WHERE a.interactionId = i.id)"
        }
        _ => "NULL",
    };
    let select = format!(
        "SELECT i.id AS id, {}, {}, {direction} AS direction, {kind} AS kind, {}, {author} AS author_id, {} AS author, {} AS author_name, {thread} AS thread, {} AS conversation, {} AS conversation_name, {}, {}, {}, {attachments} AS attachments FROM interaction i",
        c("timestampMs", "sent_at"),
        c("receivedAtTimestampMs", "received_at"),
        c("variant", "variant"),
        qualified(author),
        name(author),
        qualified(thread),
        name(thread),
        c("body", "body"),
        c("wasRead", "read"),
        c("serverHash", "server_hash"),
    );
    let Some(pages) = run.paged_args(path, &select, "i.id", extra)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(ctx, path, &pages, "Session messages")?;
    if has("variant") && has("authorId") {
        crate::identity::sole_owner_args(
            ctx,
            &crate::identity::TreeRef {
                partition: None,
                label: "/".into(),
            },
            path,
            &format!(
                "SELECT DISTINCT {} AS qualified FROM interaction i WHERE i.variant = 1 AND i.authorId IS NOT NULL AND i.authorId != ''",
                qualified("i.authorId")
            ),
            extra,
            "The Session ID",
            "the one author of the outgoing messages (interaction.variant 1) of Session's database",
        )?;
    }
    for (inv, t, row) in pages.rows() {
        let dir = t.get(row, "direction");
        let sent = dir == Some("outgoing");
        let kind = t.get(row, "kind").unwrap_or("message");
        let other = t
            .get(row, "conversation_name")
            .or(t.get(row, "thread"))
            .unwrap_or("a conversation")
            .to_string();
        let from = t
            .get(row, "author_name")
            .or(t.get(row, "author_id"))
            .unwrap_or(&other)
            .to_string();
        let title = match (kind, dir) {
            ("message", Some("outgoing")) => format!("Session message sent to {other}"),
            ("message", _) => format!("Session message from {from}"),
            (k, Some(d)) => format!("Session {k} ({d}) with {other}"),
            (k, None) => format!("Session {k} in {other}"),
        };
        let mut d = Draft::new(if kind == "call" { "calls" } else { "messages" }, title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("direction", FactType::Text, "direction"),
                ("kind", FactType::Text, "kind"),
                ("author_id", FactType::Account, "author"),
                ("author_name", FactType::Name, "author name"),
                ("thread", FactType::Account, "conversation"),
                ("conversation_name", FactType::Name, "conversation name"),
                ("body", FactType::Text, "text"),
                ("read", FactType::Count, "read"),
                ("server_hash", FactType::Identifier, "server hash"),
                ("attachments", FactType::Count, "attachments"),
            ],
        );
        for (col, what) in [
            ("sent_at", "Session message sent"),
            ("received_at", "Session message received"),
        ] {
            let at = t.get(row, col);
            d.time(at, unix_millis(at), what, inv);
        }
        d.interpretation = format!(
            "interaction row {} of Session's database: a {kind} (variant {}); {}. Times are Unix milliseconds.",
            t.get(row, "id").unwrap_or("?"),
            t.get(row, "variant").unwrap_or("?"),
            said.join(", "),
        );
        run.record(d)?;
        if kind == "message"
            && let Some(text) = raw(t, row, "body")
        {
            // a one-to-one conversation's id is the other party's Session ID
            let party = if sent {
                t.get(row, "conversation")
                    .map(|q| (q.to_string(), other.clone()))
            } else {
                t.get(row, "author").map(|q| (q.to_string(), from.clone()))
            };
            crate::identity::claims_by_direction(
                ctx,
                inv,
                &text,
                &format!("a Session message ({})", dir.unwrap_or("no direction")),
                sent,
                party.as_ref().map(|(c, l)| (c.as_str(), l.as_str())),
            )?;
        }
    }
    Ok(())
}
