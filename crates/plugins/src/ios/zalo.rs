//! Zalo on iOS (`vn.com.vng.zingalo`), the fields of iLEAPP's `zalo_messages` and
//! `zalo_users`, from the app container's `Documents/`:
//!
//! | store | phenomenon | fields |
//! |---|---|---|
//! | `profile.sqlite` `ProfileEntity` with `BuddyEntity` and `GlobalIdEntity` | one `contacts` per user the app knows | user id, display name, phone number, global id |
//! | `chatgroup.sqlite` `GroupEntity` | one `contacts` per group | group id, name |
//! | `chat_dbs/<own user id>/<user id>.db` and `group_<group id>.db` `ChatContent` | one `messages` per message | time (Unix, by its size), sender id and name (from `profile.sqlite`), direction (the sender is the folder's user), the chat (the other user or the group, named), the message id, type id and type (text, voice note, sticker, call, missed call, group call, link, user card, system message, poll, media, file, location — iLEAPP's words; a call's kind and a link read from the markers its `BinNet` holds, in the query), text, the attachment's local path, a location's latitude and longitude (from `BinNet`, in the query), a link or voice note's address where the text is empty (the last web address `BinNet` holds, as the output prints it) |
//!
//! The chat stores are found by listing `Documents/chat_dbs/` (their names are user and group
//! ids); `*_ext` stores are not chats. A `profile.sqlite` without `ProfileEntity` is another
//! app's and is passed over.
//!
//! Identities: a Zalo user is `zalo:<user id>` (computed in the query) with display name and
//! phone number; the folder's user — the sender of the outgoing messages, whose id is computed
//! in the query from the messages themselves — is the device's user (`owner`). Wallet
//! addresses in a message are claims by direction, the other party of a one-to-one chat named.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run};
use crate::calls::Tables;
use crate::drafts::{RowPhenomena, record_rows, unix_by_magnitude};
use crate::identity::{TreeRef, artefact_name, pages_on, schema_on};
use crate::outputs::raw;

/// A user the profile store names: (display name, the call that read it).
type Names = BTreeMap<String, (String, Invoked)>;

/// Triage of every Zalo container (its `Documents/profile.sqlite`).
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let tree = TreeRef {
        partition: None,
        label: "/".into(),
    };
    let groups_found = run.find("chatgroup.sqlite")?;
    run.each("profile.sqlite", |find, path| {
        let Some(docs) = path.strip_suffix("/profile.sqlite") else {
            return Ok(());
        };
        if !docs.ends_with("/Documents") {
            return Ok(());
        }
        let Some(schema) = schema_on(run.ctx, &tree, path)? else {
            return Ok(());
        };
        if !schema.contains_key("ProfileEntity") {
            // another app's profile.sqlite
            return Ok(());
        }
        let mut names = Names::new();
        run.ctx.artefact(&artefact_name(&tree, path), || {
            users(run, &tree, find, path, &schema, &mut names)
        })?;
        let mut groups = Names::new();
        if let Some((ginv, paths)) = &groups_found {
            let g = format!("{docs}/chatgroup.sqlite");
            if paths.contains(&g) {
                run.ctx.artefact(&artefact_name(&tree, &g), || {
                    group_store(run, &tree, ginv, &g, &mut groups)
                })?;
            }
        }
        chats(run, &tree, docs, &names, &groups)
    })
}

/// `profile.sqlite`: the users the app knows.
fn users(
    run: &Run<'_, '_>,
    tree: &TreeRef,
    find: &Invoked,
    path: &str,
    schema: &BTreeMap<String, std::collections::BTreeSet<String>>,
    names: &mut Names,
) -> Result<(), RuntimeError> {
    let ctx = run.ctx;
    let name = artefact_name(tree, path);
    let Some(cols) = schema.get("ProfileEntity") else {
        return Ok(());
    };
    if !crate::calls::require_columns(
        ctx,
        &name,
        "Zalo's profile.sqlite",
        "ProfileEntity",
        cols,
        &["userid"],
    )? {
        return Ok(());
    }
    let has = |t: &str, c: &str| schema.get(t).is_some_and(|cs| cs.contains(c));
    let display = crate::calls::column_or_null(cols, "pe.", "displayname", "displayname");
    let (mobile, buddy) = if has("BuddyEntity", "zaloid") && has("BuddyEntity", "mobile") {
        (
            "be.mobile AS mobile",
            " LEFT JOIN BuddyEntity be ON pe.userid = be.zaloid",
        )
    } else {
        ("NULL AS mobile", "")
    };
    let (global, gid) = if has("GlobalIdEntity", "rawid") && has("GlobalIdEntity", "globalid") {
        (
            "ge.globalid AS globalid",
            " LEFT JOIN GlobalIdEntity ge ON pe.userid = ge.rawid",
        )
    } else {
        ("NULL AS globalid", "")
    };
    let sql = format!(
        "SELECT pe.rowid AS rid, pe.userid AS userid, 'zalo:' || pe.userid AS qualified, {display}, {mobile}, {global} FROM ProfileEntity pe{buddy}{gid} WHERE pe.userid IS NOT NULL AND pe.userid != '' ORDER BY pe.rowid"
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(ctx, &name, &pages, "Zalo users")?;
    let file = super::file_name(path).to_string();
    record_rows(
        ctx,
        path,
        find,
        &pages,
        &RowPhenomena {
            table: "ProfileEntity",
            category: "contacts",
            what: "a Zalo user the app knows (with the phone number of its buddy entry and its global id)",
            title: &|t, row| {
                format!(
                    "Zalo user {}",
                    t.get(row, "displayname")
                        .or(t.get(row, "userid"))
                        .unwrap_or("?")
                )
            },
            fields: &[
                ("userid", FactType::Identifier, "user id"),
                ("qualified", FactType::Account, "account"),
                ("displayname", FactType::Name, "display name"),
                ("mobile", FactType::Phone, "phone"),
                ("globalid", FactType::Identifier, "global id"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            let (Some(id), Some(q)) = (t.get(row, "userid"), t.get(row, "qualified")) else {
                return Ok(());
            };
            let label = t.get(row, "displayname").unwrap_or(q).to_string();
            if let Some(n) = raw(t, row, "displayname") {
                names.insert(id.to_string(), (n, inv.clone()));
            }
            run.observe_person(
                q,
                &label,
                inv,
                &|what| format!("{what} of the Zalo user {label} (ProfileEntity of {file})."),
                &[
                    (IdType::AccountId, Some(q), "The Zalo user id"),
                    (
                        IdType::DisplayName,
                        t.get(row, "displayname"),
                        "The display name",
                    ),
                    (IdType::Phone, t.get(row, "mobile"), "The phone number"),
                ],
            )
        },
    )
}

/// `chatgroup.sqlite`: the groups.
fn group_store(
    run: &Run<'_, '_>,
    tree: &TreeRef,
    find: &Invoked,
    path: &str,
    groups: &mut Names,
) -> Result<(), RuntimeError> {
    let ctx = run.ctx;
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Zalo's chatgroup.sqlite",
        &schema,
        "GroupEntity",
        &["groupid"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT g.rowid AS rid, g.groupid AS groupid, {} FROM GroupEntity g ORDER BY g.rowid",
        crate::calls::column_or_null(cols, "g.", "name", "name")
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(ctx, &name, &pages, "Zalo groups")?;
    record_rows(
        ctx,
        path,
        find,
        &pages,
        &RowPhenomena {
            table: "GroupEntity",
            category: "contacts",
            what: "a Zalo group chat the device's user is in",
            title: &|t, row| {
                format!(
                    "Zalo group {}",
                    t.get(row, "name").or(t.get(row, "groupid")).unwrap_or("?")
                )
            },
            fields: &[
                ("groupid", FactType::Identifier, "group id"),
                ("name", FactType::Name, "name"),
            ],
            times: &[],
        },
        &mut |inv, t, row| {
            if let (Some(id), Some(n)) = (t.get(row, "groupid"), raw(t, row, "name")) {
                groups.insert(id.to_string(), (n, inv.clone()));
            }
            Ok(())
        },
    )
}

/// Lists `Documents/chat_dbs/` and reads each chat store.
fn chats(
    run: &Run<'_, '_>,
    tree: &TreeRef,
    docs: &str,
    names: &Names,
    groups: &Names,
) -> Result<(), RuntimeError> {
    let dir = format!("{docs}/chat_dbs");
    let Some(listing) = crate::calls::call_or_note(
        run.ctx,
        &artefact_name(tree, &dir),
        "find_files",
        serde_json::json!({"path": dir, "name_globs": ["*.db"]}),
    )?
    else {
        return Ok(());
    };
    for path in crate::outputs::found_paths(&listing.output.text) {
        // chat_dbs/<own user id>/<chat>.db
        let Some(rest) = path.strip_prefix(&format!("{dir}/")) else {
            continue;
        };
        let Some((own, file)) = rest.split_once('/') else {
            continue;
        };
        if file.contains('/') || file.contains("_ext") {
            continue;
        }
        let stem = file.trim_end_matches(".db");
        let chat = match stem.strip_prefix("group_") {
            Some(g) => Chat::Group(g.to_string()),
            None => Chat::User(stem.to_string()),
        };
        run.ctx.artefact(&artefact_name(tree, &path), || {
            chat_store(run, tree, &listing, &path, own, &chat, names, groups)
        })?;
    }
    Ok(())
}

/// Who a chat store is with.
enum Chat {
    User(String),
    Group(String),
}

/// `value` as an SQL string literal.
fn literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// The last web address in `cell` (the printed text of a `BinNet` cast to text), as printed.
fn last_url(cell: &str) -> Option<&str> {
    let start = cell.rfind("https://").or_else(|| cell.rfind("http://"))?;
    let rest = &cell[start..];
    let end = rest
        .find(|c: char| {
            c.is_whitespace() || c == '"' || c == '\\' || c.is_control() || c == '\u{fffd}'
        })
        .unwrap_or(rest.len());
    Some(&rest[..end]).filter(|u| u.len() > "https://".len())
}

#[allow(clippy::too_many_arguments)]
fn chat_store(
    run: &Run<'_, '_>,
    tree: &TreeRef,
    listing: &Invoked,
    path: &str,
    own: &str,
    chat: &Chat,
    names: &Names,
    groups: &Names,
) -> Result<(), RuntimeError> {
    let ctx = run.ctx;
    let Some(schema) = schema_on(ctx, tree, path)? else {
        return Ok(());
    };
    let name = artefact_name(tree, path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Zalo's chat store",
        &schema,
        "ChatContent",
        &["SenderId", "MsgType", "TimeStamp"],
    )?
    else {
        return Ok(());
    };
    let col = |c: &str, alias: &str| crate::calls::column_or_null(cols, "c.", c, alias);
    let bin = if cols.contains("BinNet") {
        "CAST(c.BinNet AS TEXT)"
    } else {
        "NULL"
    };
    let marker = |m: &str| format!("instr({bin}, '{m}') > 0");
    let number = |key: &str| {
        format!(
            "CASE WHEN c.MsgType = 18 AND instr({bin}, '\"{key}\":') > 0 THEN CAST(substr({bin}, instr({bin}, '\"{key}\":') + {}) AS REAL) END",
            key.len() + 3
        )
    };
    let sql = format!(
        "SELECT c.rowid AS rid, c.SenderId AS sender, 'zalo:' || c.SenderId AS qualified, CASE WHEN c.SenderId = {own_lit} THEN 1 ELSE 0 END AS outgoing, c.TimeStamp AS at, c.MsgType AS type_id, \
CASE WHEN c.MsgType = 0 THEN 'Message' WHEN c.MsgType = 6 THEN 'Voice Note' WHEN c.MsgType = 10 THEN 'Sticker' \
WHEN c.MsgType = 12 THEN CASE WHEN {call} THEN 'Call' WHEN {missed} THEN 'Missed Call' WHEN {group} THEN 'Groupcall' WHEN {link} THEN 'Link' WHEN {user} THEN 'User' ELSE 'Unknown (12)' END \
WHEN c.MsgType IN (15, 20, 24, 36) THEN 'System Message' WHEN c.MsgType = 26 THEN 'Poll' WHEN c.MsgType IN (1, 2, 3, 4, 19, 23) THEN 'Media' WHEN c.MsgType = 22 THEN 'File' WHEN c.MsgType = 18 THEN 'Location' ELSE 'Unknown' END AS type, \
{}, {}, {}, {} AS latitude, {} AS longitude, CASE WHEN (c.MsgType IN (6, 12) OR c.MsgType IN (1, 2, 3, 4, 19, 23)) AND (c.MsgContent IS NULL OR trim(c.MsgContent) = '') THEN {bin} END AS bin_text \
FROM ChatContent c ORDER BY c.TimeStamp, c.rowid",
        col("CliMsgId", "msg_id"),
        col("MsgContent", "text"),
        col("LocalPath", "local_path"),
        number("latitude"),
        number("longitude"),
        own_lit = literal(own),
        call = marker("recommened.calltime"),
        missed = marker("recommened.misscall"),
        group = marker("recommened.groupcall"),
        link = marker("recommened.link"),
        user = marker("recommened.user"),
    );
    let Some(pages) = pages_on(ctx, tree, path, &sql)? else {
        return Ok(());
    };
    crate::calls::note_pages_cap(ctx, &name, &pages, "Zalo messages")?;
    let file = super::file_name(path).to_string();
    let (chat_name, other) = match chat {
        Chat::User(u) => (names.get(u), Some(u.as_str())),
        Chat::Group(g) => (groups.get(g), None),
    };
    let chat_id = match chat {
        Chat::User(u) | Chat::Group(u) => u.as_str(),
    };
    let mut owner_seen = false;
    for (inv, t, row) in pages.rows() {
        let outgoing = t.get(row, "outgoing") == Some("1");
        let sender = t.get(row, "sender").unwrap_or("?");
        let sender_name = names.get(sender);
        let with = chat_name
            .map(|(n, _)| n.as_str())
            .unwrap_or(chat_id)
            .to_string();
        let mut d = Draft::new(
            "messages",
            match (outgoing, chat) {
                (true, Chat::Group(_)) => format!("Zalo message sent in group {with}"),
                (true, Chat::User(_)) => format!("Zalo message to {with}"),
                (false, Chat::Group(_)) => format!(
                    "Zalo message from {} in group {with}",
                    sender_name.map(|(n, _)| n.as_str()).unwrap_or(sender)
                ),
                (false, Chat::User(_)) => format!(
                    "Zalo message from {}",
                    sender_name.map(|(n, _)| n.as_str()).unwrap_or(sender)
                ),
            },
        );
        d.fact(FactType::Path, Some(path), listing);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("text", FactType::Text, "text"),
                ("type", FactType::Text, "type"),
                ("type_id", FactType::Count, "type id"),
                ("sender", FactType::Identifier, "sender id"),
                ("qualified", FactType::Account, "sender"),
                ("msg_id", FactType::Identifier, "message id"),
                ("local_path", FactType::Path, "attachment"),
                ("latitude", FactType::Text, "latitude"),
                ("longitude", FactType::Text, "longitude"),
            ],
        );
        if let Some((n, ninv)) = sender_name {
            d.fact(FactType::Name, Some(n), ninv);
            said.push(format!("sender name {n}"));
        }
        if let Some((n, ninv)) = chat_name.filter(|(n, _)| sender_name.map(|(s, _)| s) != Some(n)) {
            d.fact(FactType::Name, Some(n), ninv);
            said.push(format!("chat {n}"));
        }
        if let Some(u) = raw(t, row, "bin_text").as_deref().and_then(last_url) {
            d.fact(FactType::Url, Some(u), inv);
            said.push(format!("address {u}"));
        }
        let at = t.get(row, "at");
        d.message_time(at, unix_by_magnitude(at), outgoing, inv);
        d.interpretation = format!(
            "ChatContent row {} of {file} (chat_dbs/{own}/): a Zalo {} message {} {}{}: {}; the time is Unix time by its size.",
            t.get(row, "rid").unwrap_or("?"),
            match chat {
                Chat::Group(_) => "group",
                Chat::User(_) => "one-to-one",
            },
            if outgoing {
                "sent by the device's user (its sender is the folder's user)"
            } else {
                "received by the device's user"
            },
            match chat {
                Chat::Group(g) => format!("in group {g}"),
                Chat::User(u) => format!("in the chat with user {u}"),
            },
            if t.get(row, "bin_text").is_some() {
                " (its text empty: the address is the last one its BinNet holds)"
            } else {
                ""
            },
            said.join(", ")
        );
        run.record(d)?;
        if outgoing && !owner_seen {
            owner_seen = true;
            if let Some(q) = t.get(row, "qualified") {
                run.observe(
                    "owner",
                    EntityKind::Person,
                    "device owner",
                    IdType::AccountId,
                    q,
                    inv,
                    format!(
                        "The Zalo user id of the device's user: the sender of the outgoing messages of {file}, whose folder chat_dbs/{own}/ is named after the app's own user."
                    ),
                )?;
            }
        }
        if let Some(text) = t.get(row, "text") {
            let party = other.map(|u| {
                (
                    format!("zalo:{u}"),
                    names
                        .get(u)
                        .map(|(n, _)| n.clone())
                        .unwrap_or_else(|| u.to_string()),
                )
            });
            run.message_claims(
                inv,
                text,
                &format!(
                    "Zalo message (ChatContent row {} of {file})",
                    t.get(row, "rid").unwrap_or("?")
                ),
                outgoing,
                party,
                "its sender is the folder's user",
                "its sender is another user",
            )?;
        }
    }
    Ok(())
}
