//! The RongCloud IM SDK's store, `Library/Application Support/RongCloud/<app key>/<user
//! id>/storage` of an app's container, iLEAPP's `Oops` ("Oops: Make New Friends"). RongCloud
//! (融云) is an instant-messaging SDK many Chinese apps embed (Oops among them); the store is
//! found by its folder and read by RongCloud's own tables, whatever app keeps it (the app is
//! named where FrontBoard's application state names the container).
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `RCT_MESSAGE` senders and `RCT_CONVERSATION` private targets | one `contacts` per user ("RongCloud user <id> (<name>)"; the device's user's: "RongCloud account …") | user id, `rongcloud:<app key>:<id>` (qualified in the query), the name their messages carry (`content` `$.user.name`, the latest), the private conversation's title, messages they sent with the first and last send time (Unix ms), why it is the device's user's |
//! | `RCT_CONVERSATION` | one `messages` per conversation ("RongCloud <type> conversation <target> (<title>)") | target id, type (`category_id` decoded in the query), title, draft, pinned (`is_top`), last message and pinned times (Unix ms), messages stored for it (counted in the query) |
//! | `RCT_MESSAGE` | one `messages` per message ("RongCloud message <id> <sent to / from> <who> in <type> conversation <target>") | direction (`message_direction` 1 sent, 2 received, decoded in the query), conversation target and type and its title, sender id and the name it carries, class (`clazz_name`), text (`$.content`), file name, media URL, location (latitude, longitude, place), duration, the app's extra nickname and user id (`$.extra`, JSON text, as iLEAPP reads Oops's), read and send status as stored, sent and received times (Unix ms) |
//!
//! RongCloud keeps one store per app key and signed-in user: the folder above the store is the
//! user id of the device's user, the one above it the app key. A user is the device's user's
//! when their id is that folder or they sent a message stored with `message_direction` 1
//! (RongCloud's `MessageDirection_SEND`; 2 is `RECEIVE`, as iLEAPP's notes cite the SDK's
//! header); both are said. Text is `$.content` except for the classes whose `content` member is
//! media encoded as text (`RC:ImgMsg` and `RC:SightMsg` thumbnails, `RC:VcMsg` audio), which
//! is not read; other message classes (an app's own) are read by the same members where they
//! hold them. iLEAPP keeps only messages whose `$.extra` is JSON (Oops's own): every message is
//! kept here. Columns are taken by name (absent ones NULL: older stores lack `receive_time`,
//! `read_status`, drafts and pinning); a `content` that is no JSON leaves its members out; a
//! store without `RCT_MESSAGE.id`/`target_id`/`sender_id` reads its conversations only, one
//! with neither table is noted, as is one that is no database (a store the app encrypted).
//!
//! Identities: user ids are scoped by the app key (RongCloud keeps each app's users apart), so
//! each is observed as `rongcloud:<app key>:<id>` with the name their messages carry — the
//! device's user's as `owner`; without an app-key folder above the store the ids are facts
//! only. Wallet addresses in a message are claims of its writer.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::json;

use super::{Draft, Run, Schema, file_name};
use crate::calls::{column_expr, json_at, select_columns};
use crate::drafts::unix_millis;
use crate::outputs::raw;

const MESSAGE: &str = "RCT_MESSAGE";
const CONVERSATION: &str = "RCT_CONVERSATION";

/// RongCloud's conversation types (`RCConversationType`) with their names.
const TYPES: [(u8, &str); 9] = [
    (1, "private"),
    (2, "discussion"),
    (3, "group"),
    (4, "chat room"),
    (5, "customer service"),
    (6, "system"),
    (7, "app public service"),
    (8, "public service"),
    (9, "push service"),
];

/// Message classes whose `content` member is media encoded as text, not words.
const MEDIA_CONTENT: [&str; 3] = ["RC:ImgMsg", "RC:SightMsg", "RC:VcMsg"];

/// Where a store sits below its `RongCloud` folder: the app key and the user id folders.
#[derive(Debug, PartialEq)]
struct Layout<'a> {
    app_key: Option<&'a str>,
    user: Option<&'a str>,
}

/// The app key and user folders of `path` below `dir` (`<app key>/<user id>/storage`; a
/// store one level up has its app key only).
fn layout<'a>(dir: &str, path: &'a str) -> Layout<'a> {
    let rest = path
        .strip_prefix(dir)
        .map(|r| r.trim_start_matches('/'))
        .unwrap_or("");
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        [key, user, _] => Layout {
            app_key: Some(*key),
            user: Some(*user),
        },
        [key, _] => Layout {
            app_key: Some(*key),
            user: None,
        },
        _ => Layout {
            app_key: None,
            user: None,
        },
    }
}

/// A text as an SQL string literal.
fn literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// `CASE <col> WHEN 1 THEN 'private' … END`.
fn kind(col: &str) -> String {
    let arms: String = TYPES
        .iter()
        .map(|(n, w)| format!(" WHEN {n} THEN '{w}'"))
        .collect();
    format!("CASE {col}{arms} END")
}

/// `'rongcloud:<key>:' || <expr>` where the value is not empty, when the store has an app key.
fn qualified(key: Option<&str>, expr: &str) -> String {
    match key {
        Some(k) => format!(
            "CASE WHEN {expr} IS NOT NULL AND {expr} != '' THEN {} || {expr} END",
            literal(&format!("rongcloud:{k}:"))
        ),
        None => "NULL".into(),
    }
}

/// Triage of every RongCloud store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((_, dirs)) = run.find_dirs("RongCloud")? else {
        return Ok(());
    };
    for dir in dirs
        .iter()
        .filter(|d| d.ends_with("/Library/Application Support/RongCloud"))
    {
        let Some(find) = crate::calls::call_or_note(
            run.ctx,
            dir,
            "find_files",
            json!({"path": dir, "name_glob": "storage", "limit": 1000}),
        )?
        else {
            continue;
        };
        for path in crate::outputs::found_paths(&find.output.text) {
            store(run, &find, &path, layout(dir, &path))?;
        }
    }
    Ok(())
}

/// What every phenomenon of a store says of it: the path, the app and its call.
struct Store<'a> {
    path: &'a str,
    find: &'a Invoked,
    app: Option<(String, Invoked)>,
    layout: Layout<'a>,
}

impl Store<'_> {
    fn start(&self, category: &'static str, title: String) -> Draft {
        let mut d = Draft::new(category, title);
        d.fact(FactType::Path, Some(self.path), self.find);
        if let Some((bundle, inv)) = &self.app {
            d.fact(FactType::Identifier, Some(bundle), inv);
        }
        d
    }

    /// "the RongCloud store (app key K) of <bundle>" for interpretations.
    fn named(&self) -> String {
        format!(
            "the RongCloud store {}{}{}",
            file_name(self.path),
            self.layout
                .app_key
                .map(|k| format!(" of app key {k}"))
                .unwrap_or_default(),
            self.app
                .as_ref()
                .map(|(b, _)| format!(", kept by {b}"))
                .unwrap_or_default()
        )
    }
}

fn store(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    layout: Layout<'_>,
) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[MESSAGE, CONVERSATION])? else {
        return Ok(());
    };
    let (m, c) = (schema.columns(MESSAGE), schema.columns(CONVERSATION));
    if m.is_empty() && c.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse the RongCloud store because it has none of RongCloud's tables RCT_MESSAGE, RCT_CONVERSATION",
            None,
        )?;
        return Ok(());
    }
    let s = Store {
        path,
        find,
        app: run.app_of(path),
        layout,
    };
    let messages =
        !m.is_empty() && schema.require(run, MESSAGE, &["id", "target_id", "sender_id"])?;
    let conversations =
        !c.is_empty() && schema.require(run, CONVERSATION, &["target_id", "category_id"])?;
    if messages || conversations {
        users(run, &s, &schema, messages, conversations)?;
    }
    if conversations {
        conversation_list(run, &s, &schema, messages)?;
    }
    if messages {
        message_list(run, &s, &schema, conversations)?;
    }
    Ok(())
}

/// The users of a store: every sender, every private conversation's target, the user folder.
fn users(
    run: &Run<'_, '_>,
    s: &Store<'_>,
    schema: &Schema,
    messages: bool,
    conversations: bool,
) -> Result<(), RuntimeError> {
    let m = schema.columns(MESSAGE);
    let folder = s.layout.user.map(literal);
    let mut ids = Vec::new();
    if messages {
        ids.push(format!(
            "SELECT sender_id AS uid FROM {MESSAGE} WHERE sender_id IS NOT NULL AND sender_id != ''"
        ));
    }
    if conversations {
        ids.push(format!(
            "SELECT target_id FROM {CONVERSATION} WHERE category_id = 1 AND target_id IS NOT NULL AND target_id != ''"
        ));
    }
    if let Some(f) = &folder {
        ids.push(format!("SELECT {f}"));
    }
    let name = format!(
        "(SELECT {n} FROM {MESSAGE} x WHERE x.sender_id = u.uid AND {n} IS NOT NULL ORDER BY {}, x.id DESC LIMIT 1)",
        if m.contains("send_time") {
            "x.send_time DESC"
        } else {
            "x.id DESC"
        },
        n = json_at("x.content", "$.user.name"),
    );
    let name = if messages && m.contains("content") {
        name
    } else {
        "NULL".into()
    };
    let (sent, first, last) = if messages {
        let send = column_expr(&m, "x.", "send_time");
        (
            format!("(SELECT count(*) FROM {MESSAGE} x WHERE x.sender_id = u.uid)"),
            format!("(SELECT min({send}) FROM {MESSAGE} x WHERE x.sender_id = u.uid)"),
            format!("(SELECT max({send}) FROM {MESSAGE} x WHERE x.sender_id = u.uid)"),
        )
    } else {
        ("NULL".into(), "NULL".into(), "NULL".into())
    };
    let title = if conversations && schema.columns(CONVERSATION).contains("conversation_title") {
        format!(
            "(SELECT c.conversation_title FROM {CONVERSATION} c WHERE c.target_id = u.uid AND c.category_id = 1 LIMIT 1)"
        )
    } else {
        "NULL".into()
    };
    let sends = if messages && m.contains("message_direction") {
        format!(
            "EXISTS (SELECT 1 FROM {MESSAGE} x WHERE x.sender_id = u.uid AND x.message_direction = 1)"
        )
    } else {
        "0".into()
    };
    let own = match &folder {
        Some(f) => format!(
            "CASE WHEN u.uid = {f} AND {sends} THEN 'the user folder above the store, and it sent messages stored with message_direction 1' WHEN u.uid = {f} THEN 'the user folder above the store' WHEN {sends} THEN 'it sent messages stored with message_direction 1' END"
        ),
        None => {
            format!("CASE WHEN {sends} THEN 'it sent messages stored with message_direction 1' END")
        }
    };
    let sql = format!(
        "SELECT * FROM (SELECT row_number() OVER (ORDER BY u.uid) AS k, u.uid AS user_id, {} AS qualified, {name} AS name, {title} AS title, {sent} AS sent, {first} AS first_sent, {last} AS last_sent, {own} AS own FROM ({}) u)",
        qualified(s.layout.app_key, "u.uid"),
        ids.join(" UNION "),
    );
    let Some(paged) = run.paged(s.path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let Some(id) = get("user_id") else {
            continue;
        };
        let own = get("own");
        let who = get("name").or_else(|| get("title"));
        let shown = format!(
            "{id}{}",
            who.as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        );
        let mut d = s.start(
            if own.is_some() {
                "accounts"
            } else {
                "contacts"
            },
            if own.is_some() {
                format!("RongCloud account {shown}")
            } else {
                format!("RongCloud user {shown}")
            },
        );
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("user_id", FactType::Account, "user id"),
                ("qualified", FactType::Account, "qualified id"),
                ("name", FactType::Name, "name their messages carry"),
                ("title", FactType::Name, "private conversation title"),
                ("sent", FactType::Count, "messages sent"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            unix_millis,
            &[
                ("first_sent", "RongCloud user's first stored message sent"),
                ("last_sent", "RongCloud user's last stored message sent"),
            ],
        );
        d.interpretation = format!(
            "A user of {} ({}){}; the times are Unix milliseconds.",
            s.named(),
            said.join(", "),
            match &own {
                Some(why) => format!(", the device's user: {why}"),
                None => ", another user the device's user exchanged messages with or who wrote in a conversation the device's user is in".to_string(),
            },
        );
        run.record(d)?;
        let Some(q) = get("qualified") else {
            continue;
        };
        let (context, label) = if own.is_some() {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (q.clone(), who.clone().unwrap_or_else(|| id.clone()))
        };
        let why = |what: &str| {
            format!(
                "{what} of the RongCloud user {id} of {}{}.",
                s.named(),
                if own.is_some() {
                    ", the device's user"
                } else {
                    ""
                }
            )
        };
        run.observe(
            &context,
            EntityKind::Person,
            &label,
            IdType::AccountId,
            &q,
            inv,
            why("The user id (qualified by the app key in the query)"),
        )?;
        if let Some(n) = get("name") {
            run.observe(
                &context,
                EntityKind::Person,
                &label,
                IdType::DisplayName,
                &n,
                inv,
                why("The name the messages carry"),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, s.path, &paged, "RongCloud users")
}

fn conversation_list(
    run: &Run<'_, '_>,
    s: &Store<'_>,
    schema: &Schema,
    messages: bool,
) -> Result<(), RuntimeError> {
    let c = schema.columns(CONVERSATION);
    let count = if messages && schema.columns(MESSAGE).contains("category_id") {
        format!(
            "(SELECT count(*) FROM {MESSAGE} m WHERE m.target_id = c.target_id AND m.category_id = c.category_id)"
        )
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT c.rowid AS k, c.target_id AS target, c.category_id AS category, {} AS conversation_type, {}, {count} AS messages FROM {CONVERSATION} c",
        kind("c.category_id"),
        select_columns(
            &c,
            "c.",
            &[
                ("conversation_title", "title"),
                ("draft_message", "draft"),
                ("is_top", "pinned"),
                ("last_time", "last_time"),
                ("top_time", "top_time"),
            ],
        ),
    );
    let Some(paged) = run.paged(s.path, &sql, "k")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let target = get("target").unwrap_or_else(|| "?".into());
        let kind = get("conversation_type")
            .or_else(|| get("category").map(|c| format!("type {c}")))
            .unwrap_or_else(|| "unknown".into());
        let mut d = s.start(
            "messages",
            format!(
                "RongCloud {kind} conversation {target}{}",
                get("title").map(|n| format!(" ({n})")).unwrap_or_default()
            ),
        );
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("target", FactType::Account, "target id"),
                ("category", FactType::Text, "category_id"),
                ("conversation_type", FactType::Text, "type"),
                ("title", FactType::Name, "title"),
                ("draft", FactType::Text, "draft"),
                ("pinned", FactType::Text, "is_top"),
                ("messages", FactType::Count, "messages stored"),
            ],
        );
        d.time(
            t.get(row, "last_time"),
            unix_millis(t.get(row, "last_time")),
            "RongCloud conversation's last message",
            inv,
        );
        d.time(
            t.get(row, "top_time"),
            unix_millis(t.get(row, "top_time")),
            "RongCloud conversation pinned",
            inv,
        );
        d.interpretation = format!(
            "A conversation of {} ({}); a private conversation's target is the other user's id, a group's the group's; a draft is text the device's user typed and did not send; the times are Unix milliseconds.",
            s.named(),
            said.join(", "),
        );
        run.record(d)?;
    }
    crate::calls::note_pages_cap(run.ctx, s.path, &paged, "RongCloud conversations")
}

fn message_list(
    run: &Run<'_, '_>,
    s: &Store<'_>,
    schema: &Schema,
    conversations: bool,
) -> Result<(), RuntimeError> {
    let m = schema.columns(MESSAGE);
    let has = |col: &str| m.contains(col);
    let content = if has("content") { "m.content" } else { "NULL" };
    let member = |p: &str| {
        if has("content") {
            json_at(content, p)
        } else {
            "NULL".into()
        }
    };
    let class = column_expr(&m, "m.", "clazz_name");
    let media: Vec<String> = MEDIA_CONTENT.iter().map(|c| literal(c)).collect();
    let text = format!(
        "CASE WHEN {class} IS NULL OR {class} NOT IN ({}) THEN {} END",
        media.join(", "),
        member("$.content")
    );
    let extra = |k: &str| {
        if has("content") {
            format!(
                "CASE WHEN json_valid({content}) AND json_valid(json_extract({content}, '$.extra')) THEN json_extract(json_extract({content}, '$.extra'), '$.{k}') END"
            )
        } else {
            "NULL".into()
        }
    };
    let direction = column_expr(&m, "m.", "message_direction");
    let category = column_expr(&m, "m.", "category_id");
    let title = if conversations && schema.columns(CONVERSATION).contains("conversation_title") {
        format!(
            "(SELECT c.conversation_title FROM {CONVERSATION} c WHERE c.target_id = m.target_id AND c.category_id = {category} LIMIT 1)"
        )
    } else {
        "NULL".into()
    };
    let sql = format!(
        "SELECT m.id AS pk, m.target_id AS target, {category} AS category, {} AS conversation_type, {title} AS conversation_title, m.sender_id AS sender, {} AS sender_qualified, CASE WHEN {category} = 1 THEN {} END AS target_qualified, CASE {direction} WHEN 1 THEN 'sent' WHEN 2 THEN 'received' END AS direction, {direction} AS direction_code, {}, {text} AS text, {} AS sender_name, {} AS file_name, COALESCE({}, {}, {}) AS media_url, {} AS latitude, {} AS longitude, {} AS place, {} AS duration, {} AS extra_nickname, {} AS extra_user FROM {MESSAGE} m",
        kind(&category),
        qualified(s.layout.app_key, "m.sender_id"),
        qualified(s.layout.app_key, "m.target_id"),
        select_columns(
            &m,
            "m.",
            &[
                ("clazz_name", "class"),
                ("read_status", "read_status"),
                ("send_status", "send_status"),
                ("send_time", "send_time"),
                ("receive_time", "receive_time"),
            ],
        ),
        member("$.user.name"),
        member("$.name"),
        member("$.imageUri"),
        member("$.remoteUrl"),
        member("$.fileUrl"),
        member("$.latitude"),
        member("$.longitude"),
        member("$.poi"),
        member("$.duration"),
        extra("nickName"),
        extra("userId"),
    );
    let Some(paged) = run.paged(s.path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let pk = t.get(row, "pk").unwrap_or("?");
        let sent = t.get(row, "direction") == Some("sent");
        let target = get("target").unwrap_or_else(|| "?".into());
        let kind = get("conversation_type").unwrap_or_else(|| "unknown".into());
        let sender = get("sender_name").or_else(|| get("sender"));
        let private = t.get(row, "category") == Some("1");
        let other = if sent {
            get("conversation_title").unwrap_or_else(|| target.clone())
        } else {
            sender.clone().unwrap_or_else(|| "an unnamed sender".into())
        };
        let mut d = s.start(
            "messages",
            format!(
                "RongCloud message {pk} {} {other} in {kind} conversation {target}",
                if sent { "sent to" } else { "from" }
            ),
        );
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("direction", FactType::Text, "direction"),
                ("target", FactType::Account, "conversation target"),
                ("conversation_type", FactType::Text, "conversation type"),
                ("conversation_title", FactType::Name, "conversation title"),
                ("sender", FactType::Account, "sender id"),
                ("sender_name", FactType::Name, "sender's name"),
                ("class", FactType::Text, "class"),
                ("text", FactType::Text, "text"),
                ("file_name", FactType::Name, "file name"),
                ("media_url", FactType::Url, "media URL"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
                ("place", FactType::Name, "place"),
                ("duration", FactType::Text, "duration"),
                ("extra_nickname", FactType::Name, "extra nickname"),
                ("extra_user", FactType::Account, "extra user id"),
                ("read_status", FactType::Text, "read_status"),
                ("send_status", FactType::Text, "send_status"),
            ],
        );
        let at = t.get(row, "send_time");
        d.message_time(at, unix_millis(at), sent, inv);
        let received = t.get(row, "receive_time");
        d.time(
            received,
            unix_millis(received),
            "RongCloud message stored on the device",
            inv,
        );
        d.interpretation = format!(
            "RCT_MESSAGE id {pk} of {}: a message {} (message_direction {}) in the {kind} conversation {target} ({}); send_time is when it was sent and receive_time when this device stored it, both Unix milliseconds; a location message's position is the one its sender shared, not the phone's.",
            s.named(),
            if sent {
                "the device's user sent"
            } else {
                "the device's user received"
            },
            t.get(row, "direction_code").unwrap_or("not stored"),
            said.join(", "),
        );
        run.record(d)?;
        if let Some(text) = t.get(row, "text") {
            let party = if sent {
                get("target_qualified").filter(|_| private).map(|q| {
                    (
                        q,
                        get("conversation_title").unwrap_or_else(|| target.clone()),
                    )
                })
            } else {
                get("sender_qualified").map(|q| (q, sender.clone().unwrap_or_else(|| "?".into())))
            };
            run.message_claims(
                inv,
                text,
                &format!("a RongCloud message (RCT_MESSAGE id {pk} of {})", s.named()),
                sent,
                party,
                "message_direction 1",
                "message_direction 2",
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, s.path, &paged, "RongCloud messages")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_layout_and_queries() {
        let dir = "/x/Library/Application Support/RongCloud";
        assert_eq!(
            layout(dir, &format!("{dir}/8luwapkv8rtcl/10045821/storage")),
            Layout {
                app_key: Some("8luwapkv8rtcl"),
                user: Some("10045821")
            }
        );
        assert_eq!(
            layout(dir, &format!("{dir}/key/storage")),
            Layout {
                app_key: Some("key"),
                user: None
            }
        );
        assert_eq!(
            layout(dir, &format!("{dir}/storage")),
            Layout {
                app_key: None,
                user: None
            }
        );
        assert_eq!(literal("a'b"), "'a''b'");
        assert!(kind("c.x").starts_with("CASE c.x WHEN 1 THEN 'private'"));
        assert_eq!(qualified(None, "u.uid"), "NULL");
        assert_eq!(
            qualified(Some("k"), "u.uid"),
            "CASE WHEN u.uid IS NOT NULL AND u.uid != '' THEN 'rongcloud:k:' || u.uid END"
        );
    }
}
