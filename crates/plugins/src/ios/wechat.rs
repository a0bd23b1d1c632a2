//! WeChat (`com.tencent.xin`): one account folder per signed-in account,
//! `Documents/<md5 of the account's user name>/`, holding
//!
//! - `mmsetting.archive` (an NSKeyedArchiver plist, read with `parse_plist`): the account's user
//!   name `UsrName` (`wxid_…`), `NickName`, `AliasName` (its custom WeChat ID) and `Mobile` —
//!   the owner's identity; the folder name is checked against the md5 of `UsrName`;
//! - `DB/WCDB_Contact.sqlite` `Friend`: every contact, group (`…@chatroom`) and official
//!   account (`gh_…`) with, where the layout keeps it, `dbContactRemark` (a Protocol Buffers
//!   message, decoded by `sqlite_query`: field 1 nickname, 2 alias, 3 the owner's remark);
//! - `DB/MM.sqlite`, and in newer versions `DB/message_1.sqlite` … `message_N.sqlite`, among
//!   which the conversations are spread: one `Chat_<md5 of the peer's user name>` table per
//!   conversation (`MesLocalID`, `MesSvrID`, `CreateTime` in Unix seconds, `Message`, `Type` —
//!   1 text, 3 image, 34 voice, 43 video, 47 sticker, 49 link or file, 10000 system —, `Des`:
//!   0 sent by the account, 1 received). A group's received messages start with `<sender>:\n`.
//!   Every such database of an account folder is read, with the account's owner and contacts
//!   read once.
//!
//! The fields of the public WeChat readers (user names, nickname, alias, remark; local and
//! server id, time, type, direction, text). Chat tables are matched to their peer by the md5
//! of the `Friend` user names (computed here; a table whose md5 matches no contact is still
//! read, its peer unknown). Identities: each contact as `wechat:<user name>` with its user
//! name and alias (`wechat`), nickname and remark; a group as an account `wechat:<…@chatroom>`;
//! the account's own as `owner`. Wallets written in a text message are claims of its writer by
//! `Des` (a group's received message: the sender its text names).

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use md5::{Digest, Md5};
use serde_json::Value;

use super::{Draft, Run, file_name, raw, summarise};
use crate::calls::column_or_null;
use crate::drafts::unix_seconds;
use crate::outputs::{in_json_cell, json_scalar};

/// A contact of the account: its user name and what names it (for titles and labels).
struct Friend {
    user: String,
    label: String,
    inv: Invoked,
}

/// The account folder of a message database: `…/<32 hex digits>/DB/<name>` (another app's
/// database of the same name is passed over).
fn account_of(path: &str) -> Option<&str> {
    let (db_dir, _) = path.rsplit_once('/')?;
    let account = db_dir.strip_suffix("/DB")?;
    let folder = file_name(account);
    (folder.len() == 32 && folder.bytes().all(|b| b.is_ascii_hexdigit())).then_some(account)
}

/// Whether a file name is one of WeChat's message databases: `MM.sqlite` or `message_<n>.sqlite`.
fn is_message_db(name: &str) -> bool {
    name == "MM.sqlite"
        || name
            .strip_prefix("message_")
            .and_then(|r| r.strip_suffix(".sqlite"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Triage of every WeChat account folder of the source (found by its message databases,
/// `<md5>/DB/MM.sqlite` or `<md5>/DB/message_<n>.sqlite`).
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut accounts: BTreeMap<String, Vec<(Invoked, String)>> = BTreeMap::new();
    for glob in ["MM.sqlite", "message_*.sqlite"] {
        let Some((find, paths)) = run.find(glob)? else {
            continue;
        };
        for path in paths.iter().filter(|p| is_message_db(file_name(p))) {
            if let Some(account) = account_of(path) {
                accounts
                    .entry(account.to_string())
                    .or_default()
                    .push((find.clone(), path.clone()));
            }
        }
    }
    if accounts.is_empty() {
        return Ok(());
    }
    let settings = run.find("mmsetting.archive")?;
    let contacts = run.find("WCDB_Contact.sqlite")?;
    for (account, dbs) in &accounts {
        if let Some((sfind, paths)) = &settings {
            let want = format!("{account}/mmsetting.archive");
            if paths.contains(&want) {
                owner(run, sfind, &want, account)?;
            }
        }
        let mut friends = BTreeMap::new();
        if let Some((cfind, paths)) = &contacts {
            let want = format!("{account}/DB/WCDB_Contact.sqlite");
            if paths.contains(&want) {
                friends = contacts_of(run, cfind, &want)?;
            }
        }
        for (find, path) in dbs {
            messages(run, find, path, &friends)?;
        }
    }
    Ok(())
}

fn md5_hex(s: &str) -> String {
    Md5::digest(s.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether a user name is a group's.
fn is_group(user: &str) -> bool {
    user.ends_with("@chatroom")
}

/// The account's own identity from `mmsetting.archive`.
fn owner(run: &Run<'_, '_>, find: &Invoked, path: &str, account: &str) -> Result<(), RuntimeError> {
    let Some((inv, v)) = super::plists::parse(run, path)? else {
        return Ok(());
    };
    // unwrapped under the archive's `$top` key (`root`), or a plain dictionary
    let root = v
        .get("root")
        .filter(|r| r.is_object())
        .unwrap_or(&v)
        .clone();
    let get = |k: &str| json_scalar(root.get(k));
    let user = get("UsrName");
    let Some(user_name) = user.clone() else {
        run.ctx.unparsed(
            path,
            "could not parse the WeChat account settings because UsrName is missing",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let nick = get("NickName");
    let alias = get("AliasName");
    let mobile = get("Mobile");
    let folder = file_name(account);
    let matches = root
        .get("UsrName")
        .and_then(Value::as_str)
        .is_some_and(|u| md5_hex(u) == folder.to_ascii_lowercase());
    let mut d = Draft::new("accounts", format!("WeChat account {user_name}"));
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, Some(&user_name), &inv);
    d.fact(FactType::Name, nick.as_deref(), &inv);
    d.fact(FactType::Account, alias.as_deref(), &inv);
    d.fact(FactType::Phone, mobile.as_deref(), &inv);
    d.interpretation = format!(
        "The WeChat account signed in on the device: user name {user_name}, nickname {}, WeChat ID {}, mobile {}. {}",
        nick.as_deref().unwrap_or("(none)"),
        alias.as_deref().unwrap_or("(none)"),
        mobile.as_deref().unwrap_or("(none)"),
        if matches {
            "Its folder is named by the md5 of the user name, so the folder's chats are this account's."
        } else {
            "Its folder is not named by the md5 of this user name."
        }
    );
    run.record(d)?;
    let label = nick.as_deref().unwrap_or(&user_name);
    let why = |what: &str| format!("{what} of the WeChat account signed in on the device.");
    run.observe_person(
        "owner",
        label,
        &inv,
        &why,
        &[
            (IdType::Wechat, Some(&user_name), "The WeChat user name"),
            (IdType::Wechat, alias.as_deref(), "The WeChat ID (alias)"),
            (IdType::DisplayName, nick.as_deref(), "The WeChat nickname"),
            (IdType::Phone, mobile.as_deref(), "The mobile number"),
        ],
    )
}

/// The strings of a decoded `dbContactRemark` (`protobuf:{"1":["…"],…}`) field.
fn remark_field(cell: Option<&str>, field: &str) -> Option<String> {
    let v: Value = serde_json::from_str(cell?.strip_prefix("protobuf:")?).ok()?;
    let s = v.get(field)?.as_array()?.first()?.as_str()?;
    (!s.trim().is_empty()).then(|| s.to_string())
}

/// Every `Friend` row of `WCDB_Contact.sqlite`, recorded and observed; the contacts by the md5
/// of their user name.
fn contacts_of(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
) -> Result<BTreeMap<String, Friend>, RuntimeError> {
    let mut out = BTreeMap::new();
    let Some(schema) = run.schema(path, &["Friend"])? else {
        return Ok(out);
    };
    if !schema.require(run, "Friend", &["userName"])? {
        return Ok(out);
    }
    let cols = schema.columns("Friend");
    let sql = format!(
        "SELECT rowid AS rid, userName AS user, {}, {} FROM Friend",
        column_or_null(&cols, "", "type", "type"),
        column_or_null(&cols, "", "dbContactRemark", "remark"),
    );
    let Some(paged) = run.paged_with(path, &sql, "rowid", &["protobuf"])? else {
        return Ok(out);
    };
    for (inv, t, row) in paged.rows() {
        let Some(user) = t.get(row, "user").filter(|u| !u.is_empty()) else {
            continue;
        };
        let remark = t.get(row, "remark");
        let nick = remark_field(remark, "1");
        let alias = remark_field(remark, "2");
        let given = remark_field(remark, "3");
        let group = is_group(user);
        let official = user.starts_with("gh_");
        let kind = if group {
            "group"
        } else if official {
            "official account"
        } else {
            "contact"
        };
        let mut d = Draft::new("contacts", format!("WeChat {kind} {user}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, raw(t, row, "user").as_deref(), inv);
        d.fact(
            FactType::Name,
            nick.as_deref().map(in_json_cell).as_deref(),
            inv,
        );
        d.fact(
            FactType::Account,
            alias.as_deref().map(in_json_cell).as_deref(),
            inv,
        );
        d.fact(
            FactType::Name,
            given.as_deref().map(in_json_cell).as_deref(),
            inv,
        );
        d.interpretation = format!(
            "A WeChat {kind} of the account ({}): user name {user}, nickname {}, WeChat ID {}, remark {} (Friend type {}).",
            file_name(path),
            nick.as_deref().unwrap_or("(not kept)"),
            alias.as_deref().unwrap_or("(none)"),
            given.as_deref().unwrap_or("(none)"),
            t.get(row, "type").unwrap_or("?"),
        );
        run.record(d)?;
        let label = given
            .clone()
            .or_else(|| nick.clone())
            .unwrap_or_else(|| user.to_string());
        let context = format!("wechat:{user}");
        let why = |what: &str| format!("{what} of the WeChat {kind} {user} ({}).", file_name(path));
        if group {
            run.observe(
                &context,
                EntityKind::Account,
                &label,
                IdType::Wechat,
                user,
                inv,
                why("The group id"),
            )?;
        } else if !official {
            run.observe_person(
                &context,
                &label,
                inv,
                &why,
                &[
                    (IdType::Wechat, Some(user), "The user name"),
                    (IdType::Wechat, alias.as_deref(), "The WeChat ID (alias)"),
                    (IdType::DisplayName, nick.as_deref(), "The nickname"),
                    (IdType::Nickname, given.as_deref(), "The remark"),
                ],
            )?;
        }
        out.insert(
            md5_hex(user),
            Friend {
                user: user.to_string(),
                label,
                inv: inv.clone(),
            },
        );
    }
    Ok(out)
}

/// Whether a table name is a conversation's (`Chat_` and 32 hex digits): only such names are
/// put in a query.
fn chat_hash(name: &str) -> Option<&str> {
    let h = name.strip_prefix("Chat_")?;
    (h.len() == 32 && h.bytes().all(|b| b.is_ascii_hexdigit())).then_some(h)
}

/// The sender a group message names (`wxid_…:\n…`), if it does.
fn group_sender(body: &str) -> Option<&str> {
    let (who, _) = body.split_once(":\n")?;
    (!who.is_empty()
        && who.len() <= 64
        && who
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c)))
    .then_some(who)
}

fn type_name(t: &str) -> &'static str {
    match t {
        "1" => "text",
        "3" => "image",
        "34" => "voice",
        "42" => "contact card",
        "43" => "video",
        "47" => "sticker",
        "48" => "location",
        "49" => "link or file",
        "50" => "call",
        "10000" | "10002" => "system",
        _ => "other",
    }
}

/// Every `Chat_<md5>` table of `MM.sqlite`.
fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    friends: &BTreeMap<String, Friend>,
) -> Result<(), RuntimeError> {
    let list = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Chat\\_%' ESCAPE '\\' ORDER BY name";
    let Some((tinv, tables)) = run.query(path, list, 100_000)? else {
        return Ok(());
    };
    let names: Vec<String> = tables
        .rows
        .iter()
        .filter_map(|r| tables.get(r, "name"))
        .filter(|n| chat_hash(n).is_some())
        .map(str::to_string)
        .collect();
    if names.is_empty() {
        run.ctx.unparsed(
            path,
            "could not parse WeChat MM.sqlite because it has no Chat_<md5> table",
            Some(&tinv.record.invocation_id),
        )?;
        return Ok(());
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let Some(schema) = run.schema(path, &refs)? else {
        return Ok(());
    };
    for table in &names {
        let Some(hash) = chat_hash(table) else {
            continue;
        };
        if !schema.require(run, table, &["MesLocalID", "CreateTime", "Message", "Des"])? {
            continue;
        }
        let cols = schema.columns(table);
        let sql = format!(
            "SELECT MesLocalID AS id, {}, CreateTime AS ts, {}, Des AS des, {}, Message AS body FROM {table}",
            column_or_null(&cols, "", "MesSvrID", "server_id"),
            column_or_null(&cols, "", "Type", "type"),
            column_or_null(&cols, "", "Status", "status"),
        );
        let Some(paged) = run.paged(path, &sql, "MesLocalID")? else {
            continue;
        };
        let peer = friends.get(&hash.to_ascii_lowercase());
        for (inv, t, row) in paged.rows() {
            one_message(run, find, path, table, &tinv, peer, inv, t, row)?;
        }
        if paged.truncated {
            summarise(
                run,
                "messages",
                path,
                find,
                &format!("WeChat messages of {table}"),
                &format!(
                    "SELECT count(*) AS total, min(NULLIF(CreateTime, 0)) AS first_time, max(CreateTime) AS last_time FROM {table}"
                ),
                unix_seconds,
                "First message",
                "Last message",
            )?;
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn one_message(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    table: &str,
    tinv: &Invoked,
    peer: Option<&Friend>,
    inv: &Invoked,
    t: &crate::outputs::Table,
    row: &[Option<String>],
) -> Result<(), RuntimeError> {
    let id = t.get(row, "id").unwrap_or("?");
    let des = t.get(row, "des").unwrap_or("?");
    let sent = des == "0";
    let kind = t.get(row, "type").unwrap_or("?");
    let body = t.get(row, "body").unwrap_or("");
    let group = peer.is_some_and(|p| is_group(&p.user));
    let sender = (group && !sent).then(|| group_sender(body)).flatten();
    let with = peer.map(|p| p.label.as_str()).unwrap_or("an unknown peer");
    let title = match (sent, sender) {
        (true, _) => format!("WeChat {} message {id} sent to {with}", type_name(kind)),
        (false, Some(s)) => format!("WeChat {} message {id} from {s} in {with}", type_name(kind)),
        (false, None) => format!("WeChat {} message {id} from {with}", type_name(kind)),
    };
    let mut d = Draft::new("messages", title);
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Identifier, Some(table), tinv);
    if let Some(p) = peer {
        d.fact(
            FactType::Account,
            Some(&crate::outputs::escape(&p.user)),
            &p.inv,
        );
    }
    d.fact(FactType::Account, sender, inv);
    d.fact(FactType::Text, raw(t, row, "body").as_deref(), inv);
    d.fact(
        FactType::Identifier,
        raw(t, row, "server_id").as_deref(),
        inv,
    );
    let ts = raw(t, row, "ts");
    d.time(
        ts.as_deref(),
        unix_seconds(ts.as_deref()),
        if sent {
            "Message sent"
        } else {
            "Message received"
        },
        inv,
    );
    d.interpretation = format!(
        "Row MesLocalID {id} of {table} in {}: a {} message (Type {kind}) {} (Des {des}); {}CreateTime is Unix seconds.",
        file_name(path),
        type_name(kind),
        if sent {
            "sent by the account"
        } else {
            "received by the account"
        },
        match peer {
            Some(p) => format!(
                "the table is named by the md5 of {}, the conversation's {}; ",
                p.user,
                if group { "group" } else { "peer" }
            ),
            None => "no contact's user name has the table's md5, so the peer is unknown; ".into(),
        },
    );
    run.record(d)?;
    if kind != "1" {
        return Ok(());
    }
    // the other side of the message: a one-to-one peer, or the sender a group message names
    let other = match (group, sender, peer) {
        (false, _, Some(p)) => Some((format!("wechat:{}", p.user), p.label.clone())),
        (true, Some(s), _) => {
            run.observe(
                &format!("wechat:{s}"),
                EntityKind::Person,
                s,
                IdType::Wechat,
                s,
                inv,
                format!("{s} wrote message {id} in the WeChat group {with} ({table})."),
            )?;
            Some((format!("wechat:{s}"), s.to_string()))
        }
        _ => None,
    };
    run.message_claims(
        inv,
        body,
        &format!("WeChat message {id} of {table}"),
        sent,
        other,
        "Des 0",
        "Des 1",
    )
}
