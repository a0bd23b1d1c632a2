//! TikTok on iOS, what [`super::tiktok`] does not read: the copies of quoted messages kept with
//! replies (iLEAPP's `tikTokReplied`, "TikTok - Replied Messages") and the search history
//! (iLEAPP's `AWESearch`).
//!
//! | store / table | phenomenon | fields |
//! |---|---|---|
//! | `Library/Application Support/ChatFiles/<account uid>/db.sqlite` `TIMMessageKVORM` (with `TIMMessageORM` by `belongingMessageID = identifier`) | one `messages` per reply ("TikTok reply quoting <sender>") | the reply message's id, `ref_msg_type`, the quoted message's id (`ref_msg_id`), its sender (`hint.refmsg_uid`) and text (`hint.content.text`), all read from the value JSON in the query; the reply's server time (`serverCreatedAt`, Unix), sender, text, deleted flag (labelled) and conversation from `TIMMessageORM`; the nickname and custom id (@handle) of both senders from `AwemeIM.db` of the same app container |
//! | the same store's `TIMMessageNewPropertyORM` (when it has no `TIMMessageKVORM`) | the same | the row's `createdTime` (Unix, read by its size), sender, conversation (`belongingConversationID`), the reference read from its value JSON; the reply's text and deleted flag from `TIMMessageORM` where it holds the reply |
//! | `Documents/search_history/history_words/AWESearchHistory*` (a property list: a list of searches, a dictionary with `historyList`, or a keyed archive of either) | one `web` per search ("TikTok search <keyword>") | keyword, time (`time`, Cocoa seconds; a date as `parse_plist` prints it) |
//!
//! A reply row is the app's copy of the message a reply quoted, kept with the reply: it may
//! remain after the quoted message or the reply itself is deleted (iLEAPP's note), so its text
//! can be the only trace of a message gone from `TIMMessageORM`. Only key-value rows whose value
//! names a quoted message (`ref_msg_id`, or a hint with its sender or text) are read: the table
//! also keeps other per-message values. As iLEAPP, `TIMMessageKVORM` is read when the store has
//! it, else `TIMMessageNewPropertyORM`. The direction is the reply sender against the account
//! the ChatFiles folder is named after. A search entry is a term the user typed into TikTok's
//! search at that time.
//!
//! Schema drift: columns are taken by name (absent ones NULL); the JSON is read with
//! `json_valid` guards, so a value that is no JSON reads as NULL; a chat store with neither
//! reply table, or whose reply table lacks `value`, is noted, as is a search-history file that
//! holds no list of searches, or is no property list.
//!
//! Identities: the quoted message's sender and the reply's sender as `tiktok:<uid>` persons
//! (the account's own uid: `owner`), with the ids [`super::tiktok`] gives them; wallet
//! addresses in a quoted text as claims of its writer.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::plists::parse;
use super::tiktok::account_of;
use super::{Draft, Run, container_of, file_name};
use crate::calls::{column_or_null, json_at};
use crate::drafts::{apple_seconds, date_text, unix_by_magnitude};
use crate::outputs::{json_scalar, raw};

const ORM: &str = "TIMMessageORM";
const KV: &str = "TIMMessageKVORM";
const NEWPROP: &str = "TIMMessageNewPropertyORM";

/// A TikTok user as `AwemeIM.db` names them, with the call that read it.
struct User {
    nickname: Option<String>,
    handle: Option<String>,
    inv: Invoked,
}

/// Triage of the reply copies of every TikTok chat store and every search-history file.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let chats: Vec<(Invoked, String)> = match run.find("db.sqlite")? {
        Some((find, paths)) => paths
            .into_iter()
            .filter(|p| account_of(p).is_some())
            .map(|p| (find.clone(), p))
            .collect(),
        None => Vec::new(),
    };
    if !chats.is_empty() {
        let mut users: BTreeMap<String, BTreeMap<String, User>> = BTreeMap::new();
        run.each("AwemeIM.db", |_, path| {
            let app = app_root(path).to_string();
            contacts(run, path, users.entry(app).or_default())
        })?;
        let none = BTreeMap::new();
        for (find, path) in &chats {
            let known = users.get(app_root(path)).unwrap_or(&none);
            replies(run, find, path, known)?;
        }
    }
    run.each("AWESearchHistory*", |find, path| {
        if !path.contains("/search_history/history_words/") {
            return Ok(());
        }
        searches(run, find, path)
    })
}

/// The app's folder a file sits in: its data container, else (a backup's domain folder) what
/// comes before its `Library` or `Documents` folder.
fn app_root(path: &str) -> &str {
    container_of(path)
        .or_else(|| {
            ["/Library/", "/Documents/"]
                .iter()
                .filter_map(|m| path.find(m))
                .min()
                .map(|i| &path[..i])
        })
        .unwrap_or("")
}

/// The users of every `AwemeContacts…` table of an `AwemeIM.db` (the first table naming a uid
/// wins, as iLEAPP's de-duplication by table name).
fn contacts(
    run: &Run<'_, '_>,
    path: &str,
    users: &mut BTreeMap<String, User>,
) -> Result<(), RuntimeError> {
    let Some(tables) = super::tiktok::contact_tables(run, path)? else {
        return Ok(());
    };
    if tables.is_empty() {
        // noted by the TikTok messages reader
        return Ok(());
    }
    let Some(schema) = run.schema(path, &tables.iter().map(String::as_str).collect::<Vec<_>>())?
    else {
        return Ok(());
    };
    for table in &tables {
        let cols = schema.columns(table);
        if !cols.contains("uid") {
            continue;
        }
        let sql = format!(
            "SELECT rowid AS rk, uid, {}, {} FROM {table}",
            column_or_null(&cols, "", "customID", "custom_id"),
            column_or_null(&cols, "", "nickname", "nickname"),
        );
        let Some(paged) = run.paged(path, &sql, "rk")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let Some(uid) = t.get(row, "uid") else {
                continue;
            };
            users.entry(uid.to_string()).or_insert_with(|| User {
                nickname: raw(t, row, "nickname").filter(|s| !s.is_empty()),
                handle: raw(t, row, "custom_id").filter(|s| !s.is_empty()),
                inv: inv.clone(),
            });
        }
    }
    Ok(())
}

/// The reference a reply's value JSON holds (`value` the column's expression): the quoted
/// message's type and id, its sender and text.
fn reference(value: &str) -> String {
    let hint = json_at(value, "$.hint");
    format!(
        "{} AS ref_type, {} AS ref_id, {} AS ref_sender, {} AS ref_text",
        json_at(value, "$.ref_msg_type"),
        json_at(value, "$.ref_msg_id"),
        json_at(&hint, "$.refmsg_uid"),
        json_at(&json_at(&hint, "$.content"), "$.text"),
    )
}

/// The reply message's own fields from `TIMMessageORM` aliased `m` (`joined`: whether the query
/// joins it); the time, sender and conversation from `own` where the reply table has them.
fn message_fields(
    orm: &std::collections::BTreeSet<String>,
    joined: bool,
    own: [Option<&str>; 3],
) -> String {
    let m = |col: &str, alias: &str| {
        if joined && orm.contains(col) {
            format!("m.{col} AS {alias}")
        } else {
            format!("NULL AS {alias}")
        }
    };
    let [time, sender, conversation] = own;
    let text = if joined && orm.contains("content") {
        format!("{} AS reply_text", json_at("m.content", "$.text"))
    } else {
        "NULL AS reply_text".to_string()
    };
    let deleted = if joined && orm.contains("deleted") {
        "CASE m.deleted WHEN 1 THEN 'deleted' WHEN 0 THEN 'not deleted' END AS deleted".to_string()
    } else {
        "NULL AS deleted".to_string()
    };
    [
        time.map_or_else(
            || m("serverCreatedAt", "reply_time"),
            |c| format!("{c} AS reply_time"),
        ),
        sender.map_or_else(|| m("sender", "sender"), |c| format!("{c} AS sender")),
        text,
        deleted,
        conversation.map_or_else(
            || m("belongingConversationIdentifier", "conversation"),
            |c| format!("{c} AS conversation"),
        ),
    ]
    .join(", ")
}

/// The paged query of a store's reply rows: `TIMMessageKVORM` (`kv` true) or
/// `TIMMessageNewPropertyORM`, each with `TIMMessageORM` where it has `identifier`; only the
/// rows whose value names a quoted message.
fn replies_sql(
    kv: bool,
    table: &std::collections::BTreeSet<String>,
    orm: &std::collections::BTreeSet<String>,
) -> String {
    let join = orm.contains("identifier") && table.contains("belongingMessageID");
    let own = |col: &str| table.contains(col).then(|| format!("r.{col}"));
    let (time, sender, conversation) = if kv {
        (None, None, None)
    } else {
        (
            own("createdTime"),
            own("sender"),
            own("belongingConversationID"),
        )
    };
    let inner = format!(
        "SELECT r.rowid AS rk, {}, {}, {} FROM {} r{}",
        column_or_null(table, "r.", "belongingMessageID", "message_id"),
        reference("r.value"),
        message_fields(
            orm,
            join,
            [time.as_deref(), sender.as_deref(), conversation.as_deref()]
        ),
        if kv { KV } else { NEWPROP },
        if join {
            format!(" LEFT JOIN {ORM} m ON m.identifier = r.belongingMessageID")
        } else {
            String::new()
        },
    );
    format!(
        "SELECT rk, message_id, ref_type, ref_id, ref_sender, CASE WHEN ref_sender != '' THEN 'tiktok:' || ref_sender END AS ref_account, ref_text, reply_time, sender, CASE WHEN sender != '' THEN 'tiktok:' || sender END AS sender_account, reply_text, deleted, conversation FROM ({inner} WHERE ref_id IS NOT NULL OR ref_sender IS NOT NULL OR ref_text IS NOT NULL)"
    )
}

fn replies(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    users: &BTreeMap<String, User>,
) -> Result<(), RuntimeError> {
    let Some(me) = account_of(path) else {
        return Ok(());
    };
    let Some(schema) = run.schema(path, &[ORM, KV, NEWPROP])? else {
        return Ok(());
    };
    let kv = !schema.columns(KV).is_empty();
    if !kv && schema.columns(NEWPROP).is_empty() {
        run.ctx.unparsed(
            path,
            "no TikTok replies read: the chat store has neither TIMMessageKVORM nor TIMMessageNewPropertyORM",
            None,
        )?;
        return Ok(());
    }
    let table = if kv { KV } else { NEWPROP };
    if !schema.require(run, table, &["value"])? {
        return Ok(());
    }
    let sql = replies_sql(kv, &schema.columns(table), &schema.columns(ORM));
    let Some(paged) = run.paged(path, &sql, "rk")? else {
        return Ok(());
    };
    let file = file_name(path);
    let name_of = |uid: &str| -> String {
        users
            .get(uid)
            .and_then(|u| u.nickname.clone())
            .unwrap_or_else(|| uid.to_string())
    };
    for (inv, t, row) in paged.rows() {
        let rk = t.get(row, "rk").unwrap_or("?");
        let quoted = t.get(row, "ref_sender");
        let sender = t.get(row, "sender");
        let sent = sender.map(|s| s == me);
        let who = quoted.map_or_else(|| "an unknown sender".to_string(), name_of);
        let mut d = Draft::new("messages", format!("TikTok reply quoting {who}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("ref_id", FactType::Identifier, "quoted message"),
                ("ref_type", FactType::Text, "ref_msg_type"),
                ("ref_sender", FactType::Account, "quoted sender"),
                ("ref_text", FactType::Text, "quoted text"),
                ("message_id", FactType::Identifier, "reply message"),
                ("sender", FactType::Account, "reply sender"),
                ("reply_text", FactType::Text, "reply text"),
                ("deleted", FactType::Text, "reply"),
                ("conversation", FactType::Identifier, "conversation"),
            ],
        );
        for uid in [quoted, sender].into_iter().flatten() {
            if let Some(u) = users.get(uid) {
                d.fact(FactType::Name, u.nickname.as_deref(), &u.inv);
                d.fact(FactType::Account, u.handle.as_deref(), &u.inv);
            }
        }
        let at = t.get(row, "reply_time");
        match sent {
            Some(s) => d.message_time(at, unix_by_magnitude(at), s, inv),
            None => d.time(at, unix_by_magnitude(at), "TikTok reply", inv),
        };
        d.interpretation = format!(
            "{} row {rk} of {file} (the ChatFiles store of the account {me}): {}, quoting a message of {} ({}). TikTok keeps this copy of the quoted message with the reply; it may remain after the quoted message or the reply is deleted.{}",
            if kv { KV } else { NEWPROP },
            match (sender, sent) {
                (Some(_), Some(true)) =>
                    format!("a reply sent by the account's user (sender {me})"),
                (Some(s), _) => format!("a reply from {} (uid {s})", name_of(s)),
                (None, _) => "a reply whose message TIMMessageORM no longer holds".to_string(),
            },
            if quoted == Some(me) {
                "the account's user".to_string()
            } else {
                who.clone()
            },
            said.join(", "),
            at.map(|a| format!(" The reply's time {a} is a Unix time read by its size."))
                .unwrap_or_default(),
        );
        run.record(d)?;
        for (uid, account, what) in [
            (
                quoted,
                t.get(row, "ref_account"),
                "the sender of a message a TikTok reply quotes",
            ),
            (
                sender,
                t.get(row, "sender_account"),
                "the sender of a TikTok reply",
            ),
        ] {
            let (Some(uid), Some(account)) = (uid, account) else {
                continue;
            };
            let own = uid == me;
            let label = name_of(uid);
            run.observe(
                &if own {
                    "owner".to_string()
                } else {
                    format!("tiktok:{uid}")
                },
                EntityKind::Person,
                if own { "device owner" } else { &label },
                IdType::AccountId,
                account,
                inv,
                format!("The uid of {what} ({label}; {file}, row {rk})."),
            )?;
        }
        if let (Some(text), Some(q)) = (t.get(row, "ref_text"), quoted) {
            let written_by_me = q == me;
            let conversation = t.get(row, "conversation").unwrap_or("");
            let party = if written_by_me {
                crate::identity::tiktok_one_to_one_other(conversation, me)
                    .map(|o| (format!("tiktok:{o}"), name_of(o)))
            } else {
                Some((format!("tiktok:{q}"), name_of(q)))
            };
            run.message_claims(
                inv,
                text,
                &format!("TikTok message quoted in reply row {rk} ({file})"),
                written_by_me,
                party,
                &format!("refmsg_uid {me}, the account"),
                &format!("refmsg_uid {q}"),
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &paged, "TikTok reply rows")
}

/// The searches of a search-history document: a list at the top, a dictionary's
/// `historyList`, or either under a keyed archive's `root`.
fn entries(doc: &Value) -> Option<&Vec<Value>> {
    match doc {
        Value::Array(a) => Some(a),
        Value::Object(o) => o
            .get("historyList")
            .and_then(Value::as_array)
            .or_else(|| o.get("root").and_then(entries)),
        _ => None,
    }
}

fn searches(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = parse(run, path)? else {
        return Ok(());
    };
    let Some(list) = entries(&doc) else {
        run.ctx.unparsed(
            path,
            "could not read TikTok's search history because the file holds neither a list of searches nor historyList",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let file = file_name(path);
    for e in list.iter().filter(|e| e.is_object()) {
        let Some(keyword) = json_scalar(e.get("keyword")) else {
            continue;
        };
        let mut d = Draft::new("web", format!("TikTok search {keyword}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Text, Some(keyword.as_str()), &inv);
        let time = json_scalar(e.get("time"));
        let encoding = match e.get("time") {
            Some(Value::String(_)) => date_text(time.as_deref()),
            _ => apple_seconds(time.as_deref()),
        };
        d.time(time.as_deref(), encoding, "TikTok search made", &inv);
        d.interpretation = format!(
            "An entry of TikTok's search history ({file}): the user searched TikTok for \"{keyword}\"{}.",
            time.as_deref()
                .map(|t| format!(" at {t} (Cocoa seconds, or a date as printed)"))
                .unwrap_or_default(),
        );
        run.record(d)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(names: &[&str]) -> std::collections::BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn chat_stores_and_app_folders() {
        let p = "/private/var/mobile/Containers/Data/Application/A/Library/Application Support/ChatFiles/68/db.sqlite";
        assert_eq!(account_of(p), Some("68"));
        assert_eq!(account_of("/x/Other/68/db.sqlite"), None);
        assert_eq!(
            app_root(p),
            "/private/var/mobile/Containers/Data/Application/A"
        );
        assert_eq!(
            app_root("/AppDomain-com.zhiliaoapp.musically/Library/Application Support/AwemeIM.db"),
            "/AppDomain-com.zhiliaoapp.musically"
        );
    }

    #[test]
    fn reply_queries_follow_the_schema() {
        let orm = cols(&["identifier", "sender", "content", "serverCreatedAt"]);
        let q = replies_sql(true, &cols(&["belongingMessageID", "value"]), &orm);
        assert!(
            q.contains("LEFT JOIN TIMMessageORM m ON m.identifier = r.belongingMessageID"),
            "{q}"
        );
        assert!(q.contains("m.serverCreatedAt AS reply_time"), "{q}");
        assert!(q.contains("NULL AS deleted"), "{q}");
        assert!(q.ends_with(
            "WHERE ref_id IS NOT NULL OR ref_sender IS NOT NULL OR ref_text IS NOT NULL)"
        ));
        let q = replies_sql(
            false,
            &cols(&["value", "createdTime", "sender", "belongingConversationID"]),
            &cols(&[]),
        );
        assert!(!q.contains("JOIN"), "{q}");
        assert!(q.contains("r.createdTime AS reply_time"), "{q}");
        assert!(q.contains("NULL AS message_id"), "{q}");
    }

    #[test]
    fn search_lists_in_every_layout() {
        let a = serde_json::json!([{"keyword": "x"}]);
        assert_eq!(entries(&a).map(Vec::len), Some(1));
        let b = serde_json::json!({"root": {"historyList": [{}, {}]}});
        assert_eq!(entries(&b).map(Vec::len), Some(2));
        assert!(entries(&serde_json::json!({"version": 3})).is_none());
    }
}
