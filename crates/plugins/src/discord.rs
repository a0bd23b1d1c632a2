//! Discord's message cache `kv-storage/@account.<user id>/a`, the same SQLite key-value store
//! on both platforms (Android `com.discord/files/kv-storage/…`, iOS `Library/Caches/kv-storage/…`
//! of Discord's container), with the fields of ALEAPP's `get_discordChats` and the KV-storage
//! part of iLEAPP's `discordChats`:
//!
//! | table | phenomenon | fields and identities |
//! |---|---|---|
//! | `messages0` (`data`: one header byte, then the message's JSON, read with `json_extract` in the query) | one `messages` per record | sent, edited and call-ended times (ISO 8601), the author's id, user name, global name, bot flag and avatar, the channel (`channelId`, `message.channel_id`), the record's and message's ids, type (0 message, 3 call, 7 user joined, 19 reply, as both modules word them), content, pinned, mention roles; each attachment (file name, URL, proxy URL, size, content type), each embed (URL, description, author name, URL and icon, footer text and icon) and each mentioned user (id, user name, global name), read with `json_each`; direction: sent when the author is the account the folder names; the author and the mentioned users `discord:<user id>` persons with `discord-username:<user name>` (qualified in the query) |
//!
//! On iOS the API responses Discord cached (`…/com.hammerandchisel.discord/fsCachedData/`, JSON
//! text, the other source of iLEAPP's module) are read too ([`url_cache`]): the same fields, as
//! `read_json` prints them (user ids and names qualified by its `qualify`).
//!
//! The device's user is the account the folder names (`@account.<id>`; for a URL cache, the
//! kv-storage folder of the same container): the author of the messages it sent is `owner`. A record whose data is not JSON after its header byte is counted
//! in a note (both modules skip it). Schema drift: the table must have `data`; a store without
//! `messages0` is noted.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use crate::calls::note_pages_cap;
use crate::drafts::{Draft, date_text, record_draft};
use crate::identity::{TreeRef, artefact_name, pages_on, query_on};
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
    // every table's columns in one query
    let Some(schema) = crate::identity::schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let Some(cols) = schema.get("messages0") else {
        ctx.unparsed(
            &name,
            "could not parse Discord's kv-storage because it has no messages0 table",
            None,
        )?;
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Discord's kv-storage",
        "messages0",
        cols,
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
CASE WHEN json_extract(j, '$.message.author.username') IS NOT NULL THEN 'discord-username:' || json_extract(j, '$.message.author.username') END AS qusername, \
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
    let mut by_record: BTreeMap<&str, Vec<Part<'_>>> = BTreeMap::new();
    for (pinv, pt, prow) in parts.iter().flat_map(|p| p.rows()) {
        let (Some(rid), Some(kind)) = (pt.get(prow, "rid"), pt.get(prow, "kind")) else {
            continue;
        };
        let names = match kind {
            "attachment" => ATTACHMENT,
            "embed" => EMBED,
            _ => MENTION,
        };
        let fields = names
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let col = format!("a{}", i + 1);
                Some((*n, (pt.get(prow, &col)?.to_string(), raw(pt, prow, &col)?)))
            })
            .collect();
        by_record.entry(rid).or_default().push(Part {
            inv: pinv,
            kind: kind_of(kind),
            fields,
        });
    }
    let folder = path.rsplit('/').nth(1).unwrap_or(path);
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let fields = MESSAGE
            .iter()
            .filter_map(|n| Some((*n, (t.get(row, n)?.to_string(), raw(t, row, n)?))))
            .collect();
        let m = Message {
            inv,
            whence: format!("messages0 record {rid} of {folder} (Discord's kv-storage)"),
            sent: crate::drafts::stored_flag(t.get(row, "sent")),
            fields,
            extra: Vec::new(),
            parts: by_record.remove(rid).unwrap_or_default(),
        };
        record(ctx, path, find, account, &m)?;
    }
    Ok(())
}

/// A message's fields by name (see [`record`]).
const MESSAGE: &[&str] = &[
    "time",
    "edited",
    "call_ended",
    "channel_key",
    "channel",
    "guild",
    "key_id",
    "id",
    "type",
    "content",
    "author",
    "username",
    "global_name",
    "bot",
    "avatar",
    "pinned",
    "mention_roles",
    "qualified",
    "qusername",
];
/// An attachment's, an embed's and a mentioned user's fields, in the order of the parts query's
/// `a1…a7`.
const ATTACHMENT: &[&str] = &["filename", "url", "proxy_url", "size", "content_type"];
const EMBED: &[&str] = &[
    "url",
    "description",
    "author_name",
    "author_url",
    "author_icon",
    "footer_text",
    "footer_icon",
];
const MENTION: &[&str] = &[
    "id",
    "username",
    "global_name",
    "",
    "",
    "qualified",
    "qusername",
];

/// What a part of a message is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Attachment,
    Embed,
    Mention,
}

fn kind_of(kind: &str) -> Kind {
    match kind {
        "attachment" => Kind::Attachment,
        "embed" => Kind::Embed,
        _ => Kind::Mention,
    }
}

/// A field's value as decoded and as the cited output holds it (the fact's value).
type Field = (String, String);

/// An attachment, embed or mentioned user of a message, with the call that read it.
struct Part<'a> {
    inv: &'a Invoked,
    kind: Kind,
    fields: BTreeMap<&'static str, Field>,
}

impl Part<'_> {
    fn plain(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(|(p, _)| p.as_str())
    }
}

/// One message as either store gives it: its fields by name, per-value facts the store lists
/// (a cached response's mention roles), its parts, direction, and where it was read.
struct Message<'a> {
    inv: &'a Invoked,
    whence: String,
    sent: Option<bool>,
    fields: BTreeMap<&'static str, Field>,
    extra: Vec<(FactType, String)>,
    parts: Vec<Part<'a>>,
}

impl Message<'_> {
    fn plain(&self, name: &str) -> Option<&str> {
        self.fields
            .get(name)
            .map(|(p, _)| p.as_str())
            .filter(|p| !p.is_empty())
    }
    fn written(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(|(_, w)| w.as_str())
    }
}

/// Observes the ids of `fields` (qualified id, qualified user name, global name) under
/// `context`.
fn observe_user(
    ctx: &AgentCtx<'_>,
    inv: &Invoked,
    context: &str,
    label: &str,
    fields: &BTreeMap<&'static str, Field>,
    why: &dyn Fn(&str) -> String,
) -> Result<(), RuntimeError> {
    for (name, id_type, what) in [
        ("qualified", IdType::AccountId, "The Discord user id"),
        ("qusername", IdType::AccountId, "The Discord user name"),
        ("global_name", IdType::DisplayName, "The global name"),
    ] {
        if let Some((_, v)) = fields.get(name) {
            crate::identity::observe(
                ctx,
                context,
                masf_graph::EntityKind::Person,
                label,
                id_type,
                v,
                inv,
                why(what),
            )?;
        }
    }
    Ok(())
}

/// Records one message: its phenomenon, its author and mentioned users, the wallet claims of
/// its text.
fn record(
    ctx: &AgentCtx<'_>,
    path: &str,
    find: &Invoked,
    account: Option<&str>,
    m: &Message<'_>,
) -> Result<(), RuntimeError> {
    let inv = m.inv;
    let own = m.sent == Some(true);
    let author = m.plain("author");
    let who = m
        .plain("global_name")
        .or(m.plain("username"))
        .or(author)
        .unwrap_or("an unknown author")
        .to_string();
    let chat = m
        .plain("channel")
        .or(m.plain("channel_key"))
        .unwrap_or("an unknown channel")
        .to_string();
    let kind = match m.plain("type") {
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
    for (name, ft) in [
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
        if (name == "channel_key" && m.plain(name) == m.plain("channel"))
            || (name == "key_id" && m.plain(name) == m.plain("id"))
        {
            continue;
        }
        d.fact(ft, m.written(name), inv);
    }
    for (ft, v) in &m.extra {
        d.fact(*ft, Some(v), inv);
    }
    let time = m.written("time");
    match m.sent {
        Some(s) => d.message_time(time, date_text(time), s, inv),
        None => d.time(time, date_text(time), "Discord message posted", inv),
    };
    for (name, what) in [("edited", "Message edited"), ("call_ended", "Call ended")] {
        let v = m.written(name);
        d.time(v, date_text(v), what, inv);
    }
    let mut said = Vec::new();
    for part in &m.parts {
        let spec: &[(&str, FactType)] = match part.kind {
            Kind::Attachment => &[
                ("filename", FactType::Name),
                ("url", FactType::Url),
                ("proxy_url", FactType::Url),
                ("size", FactType::Count),
                ("content_type", FactType::Text),
            ],
            Kind::Embed => &[
                ("url", FactType::Url),
                ("description", FactType::Text),
                ("author_name", FactType::Name),
                ("author_url", FactType::Url),
                ("author_icon", FactType::Url),
                ("footer_text", FactType::Text),
                ("footer_icon", FactType::Url),
            ],
            Kind::Mention => &[
                ("id", FactType::Account),
                ("username", FactType::Account),
                ("global_name", FactType::Name),
            ],
        };
        for (name, ft) in spec {
            d.fact(
                *ft,
                part.fields.get(name).map(|(_, w)| w.as_str()),
                part.inv,
            );
        }
        let shown = |a: &str, b: &str| part.plain(a).or(part.plain(b)).unwrap_or("?").to_string();
        said.push(match part.kind {
            Kind::Attachment => format!("attachment {}", shown("filename", "url")),
            Kind::Embed => format!("embed {}", shown("url", "author_name")),
            Kind::Mention => format!("mention of {}", shown("username", "id")),
        });
    }
    d.interpretation = format!(
        "{}: a Discord {kind} by {who}{} in channel {chat}, {}{}; times are ISO 8601.",
        m.whence,
        author
            .filter(|a| *a != who)
            .map(|a| format!(" ({a})"))
            .unwrap_or_default(),
        match (m.sent, account) {
            (Some(true), Some(a)) => format!(
                "sent by the device's user (the author is the account {a} its kv-storage folder names)"
            ),
            (Some(false), Some(a)) =>
                format!("received (the author is not the account {a} its kv-storage folder names)"),
            _ => "direction unknown (no kv-storage folder names the account)".to_string(),
        },
        if said.is_empty() {
            String::new()
        } else {
            format!("; {}", said.join(", "))
        },
    );
    record_draft(ctx, d)?;
    if let Some(a) = author {
        let (context, label) = if own {
            ("owner".to_string(), "device owner".to_string())
        } else {
            (format!("discord:{a}"), who.clone())
        };
        observe_user(ctx, inv, &context, &label, &m.fields, &|what| {
            format!(
                "{what} of the author of a Discord message in channel {chat}{}.",
                if own {
                    ", the account its kv-storage folder names (the device's user)"
                } else {
                    ""
                }
            )
        })?;
    }
    for part in m.parts.iter().filter(|p| p.kind == Kind::Mention) {
        let Some(id) = part.plain("id") else {
            continue;
        };
        let label = part
            .plain("global_name")
            .or(part.plain("username"))
            .unwrap_or(id)
            .to_string();
        let context = if account == Some(id) {
            "owner".to_string()
        } else {
            format!("discord:{id}")
        };
        observe_user(ctx, part.inv, &context, &label, &part.fields, &|what| {
            format!("{what} of a user mentioned in a Discord message in channel {chat}.")
        })?;
    }
    // wallet claims: a received message's writer is its author; a sent one's reader is not
    // known in a channel, so only the writer's side is said
    let (Some(text), Some(_)) = (m.plain("content"), m.sent) else {
        return Ok(());
    };
    let context = author.map(|a| format!("discord:{a}"));
    crate::identity::claims_by_direction(
        ctx,
        inv,
        text,
        &format!("Discord message ({})", m.whence),
        own,
        context
            .as_deref()
            .filter(|_| !own)
            .map(|c| (c, who.as_str())),
    )?;
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
CASE WHEN {} IS NOT NULL THEN 'discord:' || {} END, CASE WHEN {} IS NOT NULL THEN 'discord-username:' || {} END {}\
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

/// Whether `dir` is Discord's URL cache on iOS (`…/com.hammerandchisel.discord/fsCachedData`).
pub fn is_url_cache(dir: &str) -> bool {
    dir.ends_with("/com.hammerandchisel.discord/fsCachedData")
}

/// The API responses Discord cached on iOS (`fsCachedData/<UUID>`, JSON text, the other part of
/// iLEAPP's `discordChats`): the files below `dir` that hold a message (found by `search_text`
/// for `"channel_id"`), each read by `read_json` with the user ids qualified, every message in
/// them (an object with a `timestamp` and an `author`, alone or in a list) recorded as the
/// kv-storage's are. A file that is no single JSON document is counted in a note.
pub fn url_cache(
    ctx: &AgentCtx<'_>,
    tree: &TreeRef,
    dir: &str,
    account: Option<&str>,
) -> Result<(), RuntimeError> {
    let name = artefact_name(tree, dir);
    let Some(found) = crate::calls::call_or_note(
        ctx,
        &name,
        "search_text",
        crate::identity::args_on(
            tree,
            serde_json::json!({"path": dir, "patterns": ["\"channel_id\""], "limit": 100_000}),
        ),
    )?
    else {
        return Ok(());
    };
    let mut files: Vec<&str> = found
        .output
        .text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .filter(|p| p.starts_with('/'))
        .collect();
    files.dedup();
    let mut unread = Vec::new();
    let mut count = 0usize;
    for file in files {
        let inv = ctx.call(
            "read_json",
            crate::identity::args_on(
                tree,
                serde_json::json!({"path": file, "qualify": {"id": "discord", "username": "discord-username"}}),
            ),
        )?;
        let doc = crate::calls::succeeded(&inv)
            .then(|| crate::outputs::json_document(&inv.output.text))
            .flatten();
        let Some(doc) = doc else {
            unread.push(inv.record.invocation_id.clone());
            continue;
        };
        let items: Vec<&serde_json::Value> = match &doc {
            serde_json::Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        let file_name = file.rsplit('/').next().unwrap_or(file);
        for (n, item) in items.into_iter().enumerate() {
            if count >= crate::calls::ROW_CAP as usize {
                break;
            }
            let Some(m) = from_json(
                &inv,
                item,
                &format!("item {n} of the cached API response {file_name}"),
                account,
            ) else {
                continue;
            };
            count += 1;
            record(ctx, file, &found, account, &m)?;
        }
    }
    if let Some(first) = unread.first() {
        ctx.unparsed(
            &name,
            &format!(
                "{} cached files of Discord that mention a channel_id are no single JSON document (not read)",
                unread.len()
            ),
            Some(first),
        )?;
    }
    Ok(())
}

/// A message of a cached API response: its fields as `read_json` prints them.
fn from_json<'a>(
    inv: &'a Invoked,
    v: &serde_json::Value,
    whence: &str,
    account: Option<&str>,
) -> Option<Message<'a>> {
    use crate::outputs::json_scalar;
    let author = v.get("author").filter(|a| a.is_object())?;
    v.get("timestamp")?;
    let plain = |x: Option<&serde_json::Value>| match x? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let field = |x: Option<&serde_json::Value>| Some((plain(x)?, json_scalar(x)?));
    let global = ["global_name", "globalName", "display_name"]
        .iter()
        .find_map(|k| author.get(*k).filter(|g| g.is_string()));
    let mut fields: BTreeMap<&'static str, Field> = BTreeMap::new();
    for (name, value) in [
        ("time", v.get("timestamp")),
        ("edited", v.get("edited_timestamp")),
        (
            "call_ended",
            v.get("call").and_then(|c| c.get("ended_timestamp")),
        ),
        ("channel", v.get("channel_id")),
        ("guild", v.get("guild_id")),
        ("id", v.get("id")),
        ("type", v.get("type")),
        ("content", v.get("content")),
        ("author", author.get("id")),
        ("username", author.get("username")),
        ("global_name", global),
        ("bot", author.get("bot")),
        ("avatar", author.get("avatar")),
        ("pinned", v.get("pinned")),
        ("qualified", author.get("id.qualified")),
        ("qusername", author.get("username.qualified")),
    ] {
        if let Some(f) = field(value) {
            fields.insert(name, f);
        }
    }
    let extra = v
        .get("mention_roles")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| json_scalar(Some(r)))
        .map(|r| (FactType::Text, r))
        .collect();
    let list = |k: &str| {
        v.get(k)
            .and_then(serde_json::Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut parts = Vec::new();
    for a in list("attachments") {
        let fields = [
            ("filename", a.get("filename")),
            ("url", a.get("url")),
            ("proxy_url", a.get("proxy_url")),
            ("size", a.get("size")),
            ("content_type", a.get("content_type")),
        ]
        .into_iter()
        .filter_map(|(n, x)| Some((n, field(x)?)))
        .collect();
        parts.push(Part {
            inv,
            kind: Kind::Attachment,
            fields,
        });
    }
    for e in list("embeds") {
        let au = e.get("author");
        let fo = e.get("footer");
        let fields = [
            ("url", e.get("url")),
            ("description", e.get("description")),
            ("author_name", au.and_then(|a| a.get("name"))),
            ("author_url", au.and_then(|a| a.get("url"))),
            ("author_icon", au.and_then(|a| a.get("icon_url"))),
            ("footer_text", fo.and_then(|f| f.get("text"))),
            ("footer_icon", fo.and_then(|f| f.get("icon_url"))),
        ]
        .into_iter()
        .filter_map(|(n, x)| Some((n, field(x)?)))
        .collect();
        parts.push(Part {
            inv,
            kind: Kind::Embed,
            fields,
        });
    }
    for u in list("mentions") {
        let global = ["global_name", "globalName"]
            .iter()
            .find_map(|k| u.get(*k).filter(|g| g.is_string()));
        let fields = [
            ("id", u.get("id")),
            ("username", u.get("username")),
            ("global_name", global),
            ("qualified", u.get("id.qualified")),
            ("qusername", u.get("username.qualified")),
        ]
        .into_iter()
        .filter_map(|(n, x)| Some((n, field(x)?)))
        .collect();
        parts.push(Part {
            inv,
            kind: Kind::Mention,
            fields,
        });
    }
    let sent = account.map(|a| plain(author.get("id")).as_deref() == Some(a));
    Some(Message {
        inv,
        whence: whence.to_string(),
        sent,
        fields,
        extra,
        parts,
    })
}
