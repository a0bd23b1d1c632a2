//! GroupMe's store (`GroupMe.sqlite` in the app container's `Library/Application Support/` or
//! `Documents/`), with the fields of iLEAPP's `groupMeMessages`, `groupMeChats`,
//! `groupMeGroupMembers` and `groupMeContacts`:
//!
//! - one phenomenon per `ZGMMESSAGE` row: time (`ZCREATEDAT`, Core Data seconds), sender name
//!   and user id, text, the chat (`ZGROUP` or `ZUSER` → `ZGMCHAT`: name, id, type), attachments
//!   (`ZGMATTACHMENT`: types, URLs or file names; a location's latitude, longitude and venue),
//!   system, hidden and favourited flags as stored, the deletion status (`ZMESSAGEDELETIONSTATUS`,
//!   an archived `GMMessageDeletionStatus` read through `plists`: `isSystemDeleted`,
//!   `deletionActor` as stored), reply-to id, message id (`ZDIRECTMESSAGEID` or `ZLINEID`),
//!   source GUID; from the device's user when the sender's id is the `userId` of the container's
//!   `com.groupme.iphone-app.plist` (no direction is given without it, nor for system messages);
//! - one per `ZGMCHAT` row: created, last message, last viewed, name, id, type, group type and
//!   description, the other party's user id, creator id, message count, unread count, muted,
//!   hidden, share and avatar URLs;
//! - one per `ZGMMEMBER` row: the group's name and id, nickname, real name, user id, member id,
//!   state, auto-kicked, avatar URL;
//! - one per `ZGMRELATIONSHIP` row (contacts): created, updated, name, the address-book card's
//!   name and id (`ZGMABCONTACT`), phone number, user id, relationship id, blocked, hidden, app
//!   user, avatar URL.
//!
//! Identities: every user id is `groupme:<id>` (qualified in the query, so it grounds; the id the
//! account plist's reader gives the device's user, who is `owner`), with the names each table
//! gives and a contact's phone number; wallet addresses in a text are claims of its writer.
//! Schema drift: each table is read when it has `Z_PK`, its other columns where present.

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::json;

use super::photos::{fields, times};
use super::{Draft, Run, Schema, file_name, raw};
use crate::calls::column_or_null;
use crate::outputs::plist_cell;

/// The store's name.
pub const NAME: &str = "GroupMe.sqlite";

/// Triage of every GroupMe store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let prefs = run
        .find("com.groupme.iphone-app.plist")?
        .map(|(_, p)| p)
        .unwrap_or_default();
    run.each(NAME, |find, path| {
        let container = path
            .strip_suffix("/Library/Application Support/GroupMe.sqlite")
            .or_else(|| path.strip_suffix("/Documents/GroupMe.sqlite"));
        let Some(container) = container else {
            return Ok(());
        };
        let plist = format!("{container}/Library/Preferences/com.groupme.iphone-app.plist");
        let me = if prefs.contains(&plist) {
            super::plists::parse_with(run, &plist, json!({"qualify": {"userId": "groupme"}}))?
                .and_then(|(_, v)| crate::outputs::json_scalar(v.get("userId")))
        } else {
            None
        };
        one(run, find, path, me.as_deref())
    })
}

fn one(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    let tables = [
        "ZGMMESSAGE",
        "ZGMCHAT",
        "ZGMATTACHMENT",
        "ZGMMEMBER",
        "ZGMRELATIONSHIP",
        "ZGMABCONTACT",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    if ["ZGMMESSAGE", "ZGMCHAT", "ZGMMEMBER", "ZGMRELATIONSHIP"]
        .iter()
        .all(|t| schema.columns(t).is_empty())
    {
        run.ctx.unparsed(
            path,
            "could not parse GroupMe.sqlite because it has none of the tables ZGMMESSAGE, ZGMCHAT, ZGMMEMBER, ZGMRELATIONSHIP",
            None,
        )?;
        return Ok(());
    }
    messages(run, find, path, &schema, me)?;
    chats(run, find, path, &schema, me)?;
    members(run, find, path, &schema, me)?;
    contacts(run, find, path, &schema, me)
}

/// `groupme:<id>` of the column `col` (its table aliased `alias`) as `name`, or `NULL` when the
/// table lacks the column; the `system` sender is no user.
fn qualified(
    cols: &std::collections::BTreeSet<String>,
    alias: &str,
    col: &str,
    name: &str,
) -> String {
    if cols.contains(col) {
        format!(
            "CASE WHEN {alias}.{col} IS NOT NULL AND {alias}.{col} != 'system' THEN 'groupme:' || {alias}.{col} END AS {name}"
        )
    } else {
        format!("NULL AS {name}")
    }
}

/// Whether `table` is there with `Z_PK` (noted when it is there without it).
fn readable(run: &Run<'_, '_>, schema: &Schema, table: &str) -> Result<bool, RuntimeError> {
    Ok(!schema.columns(table).is_empty() && schema.require(run, table, &["Z_PK"])?)
}

/// Observes the user `id_col` of a row as `groupme:<id>` (the `owner` for the device's user)
/// with the identifiers of `ids`.
#[allow(clippy::too_many_arguments)]
fn observe_user(
    run: &Run<'_, '_>,
    t: &crate::outputs::Table,
    row: &[Option<String>],
    inv: &Invoked,
    id_col: &str,
    me: Option<&str>,
    label: &str,
    ids: &[(&str, IdType, &str)],
    why: &dyn Fn(&str) -> String,
) -> Result<(), RuntimeError> {
    let Some(id) = t
        .get(row, id_col)
        .filter(|v| !v.is_empty() && *v != "system")
    else {
        return Ok(());
    };
    let own = Some(id) == me;
    let context = if own {
        "owner".to_string()
    } else {
        format!("groupme:{id}")
    };
    crate::identity::observe_columns(
        run.ctx,
        &context,
        if own { "device owner" } else { label },
        t,
        row,
        inv,
        ids,
        why,
    )
}

fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    const T: &str = "ZGMMESSAGE";
    if !readable(run, schema, T)? {
        return Ok(());
    }
    let c = schema.columns(T);
    let m = |n: &str, a: &str| column_or_null(&c, "m.", n, a);
    let chat_cols = schema.columns("ZGMCHAT");
    let link: Vec<&str> = ["ZGROUP", "ZUSER"]
        .into_iter()
        .filter(|l| c.contains(*l))
        .collect();
    let chat = |col: &str, alias: &str| {
        if chat_cols.contains("Z_PK") && chat_cols.contains(col) && !link.is_empty() {
            format!(
                "(SELECT x.{col} FROM ZGMCHAT x WHERE x.Z_PK = COALESCE({})) AS {alias}",
                link.iter()
                    .map(|l| format!("m.{l}"))
                    .chain(std::iter::once("NULL".into()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let a = schema.columns("ZGMATTACHMENT");
    let att = |expr: &str, filter: &str, alias: &str, needs: &[&str]| {
        if a.contains("ZMESSAGE") && needs.iter().all(|n| a.contains(*n)) {
            format!(
                "(SELECT GROUP_CONCAT({expr}, ', ') FROM ZGMATTACHMENT a WHERE a.ZMESSAGE = m.Z_PK{filter}) AS {alias}"
            )
        } else {
            format!("NULL AS {alias}")
        }
    };
    let url = match (a.contains("ZURL"), a.contains("ZFILENAME")) {
        (true, true) => "COALESCE(a.ZURL, a.ZFILENAME)",
        (true, false) => "a.ZURL",
        (false, true) => "a.ZFILENAME",
        (false, false) => "NULL",
    };
    let id = match (c.contains("ZDIRECTMESSAGEID"), c.contains("ZLINEID")) {
        (true, true) => "COALESCE(m.ZDIRECTMESSAGEID, m.ZLINEID) AS message_id",
        (true, false) => "m.ZDIRECTMESSAGEID AS message_id",
        (false, true) => "m.ZLINEID AS message_id",
        (false, false) => "NULL AS message_id",
    };
    let select = format!(
        "SELECT m.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {id}, {}, {}, {}, {}, {}, {}, {}, {} FROM {T} m",
        m("ZCREATEDAT", "created"),
        m("ZNAME", "sender"),
        m("ZUSERID", "sender_id"),
        qualified(&c, "m", "ZUSERID", "sender_q"),
        m("ZMESSAGE", "text"),
        m("ZSYSTEM", "system"),
        m("ZHIDDEN", "hidden"),
        m("ZFAVORITEDBY", "favorited"),
        m("ZMESSAGEDELETIONSTATUS", "deletion"),
        m("ZREPLYMESSAGEID", "reply_to"),
        m("ZSOURCEGUID", "guid"),
        chat("ZNAME", "chat_name"),
        chat("ZCHATID", "chat_id"),
        chat("ZCHATTYPE", "chat_type"),
        att("a.ZTYPE", "", "att_type", &["ZTYPE"]),
        att(url, &format!(" AND {url} IS NOT NULL"), "att_url", &[]),
        att(
            "a.ZLAT",
            " AND a.ZTYPE = 'location'",
            "lat",
            &["ZLAT", "ZTYPE"]
        ),
        att(
            "a.ZLNG",
            " AND a.ZTYPE = 'location'",
            "lng",
            &["ZLNG", "ZTYPE"]
        ),
        att(
            "a.ZVENUENAME",
            " AND a.ZTYPE = 'location'",
            "venue",
            &["ZVENUENAME", "ZTYPE"]
        ),
    );
    let Some(paged) = run.paged_with(path, &select, "m.Z_PK", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let sender = raw(t, row, "sender");
        let sender_id = t.get(row, "sender_id");
        let system = t.get(row, "system").is_some_and(|s| s != "0");
        let mine = (!system && me.is_some()).then(|| sender_id == me);
        let conversation = raw(t, row, "chat_name")
            .filter(|n| !n.is_empty())
            .or(raw(t, row, "chat_id"));
        let mut d = Draft::new(
            "messages",
            format!(
                "GroupMe message {pk} {} {}",
                if mine == Some(true) { "sent in" } else { "in" },
                conversation.as_deref().unwrap_or("an unknown chat")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("sender", FactType::Name, "sender"),
                ("sender_id", FactType::Account, "sender id"),
                ("text", FactType::Text, "text"),
                ("chat_name", FactType::Name, "chat"),
                ("chat_id", FactType::Identifier, "chat id"),
                ("chat_type", FactType::Text, "chat type"),
                ("att_type", FactType::Text, "attachment types"),
                ("att_url", FactType::Url, "attachments"),
                ("venue", FactType::Name, "venue"),
                ("lat", FactType::Text, "latitude"),
                ("lng", FactType::Text, "longitude"),
                ("system", FactType::Count, "system"),
                ("hidden", FactType::Count, "hidden"),
                ("favorited", FactType::Text, "favourited by"),
                ("reply_to", FactType::Identifier, "reply to"),
                ("message_id", FactType::Identifier, "message id"),
                ("guid", FactType::Identifier, "source GUID"),
            ],
        );
        if let Some(status) = t
            .get(row, "deletion")
            .and_then(plist_cell)
            .map(|v| v.get("root").cloned().unwrap_or(v))
        {
            let mut parts = vec!["a deletion status is recorded".to_string()];
            for key in ["isSystemDeleted", "deletionActor"] {
                if let Some(v) = crate::outputs::json_scalar(status.get(key)) {
                    d.fact(FactType::Text, Some(&v), inv);
                    parts.push(format!("{key} {v}"));
                }
            }
            said.push(parts.join(", "));
        }
        times(&mut d, t, row, inv, &[("created", "Message created")]);
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a GroupMe message{}; {}. Times are Core Data seconds since 2001.",
            match mine {
                Some(true) =>
                    " sent by the device's user (the sender is the account plist's userId)",
                Some(false) => " received (the sender is not the account plist's userId)",
                None if system => " from GroupMe itself (a system message)",
                None => ", direction not known (no account plist beside the store)",
            },
            said.join("; ")
        );
        run.record(d)?;
        if system {
            continue;
        }
        let label = sender.clone().unwrap_or_else(|| "GroupMe user".into());
        observe_user(
            run,
            t,
            row,
            inv,
            "sender_id",
            me,
            &label,
            &[
                ("sender_q", IdType::AccountId, "The GroupMe user id"),
                ("sender", IdType::DisplayName, "The sender's name"),
            ],
            &|what| {
                format!(
                    "{what} of the sender of GroupMe message {pk} ({}).",
                    file_name(path)
                )
            },
        )?;
        if let (Some(text), Some(mine)) = (t.get(row, "text").filter(|s| !s.is_empty()), mine) {
            let other = (!mine)
                .then(|| sender_id.map(|s| (format!("groupme:{s}"), label.clone())))
                .flatten();
            run.message_claims(
                inv,
                text,
                &format!("GroupMe message {pk} ({})", file_name(path)),
                mine,
                other,
                "sender is the account plist's userId",
                "sender is another user",
            )?;
        }
    }
    if paged.truncated {
        super::summarise_core_data(
            run,
            "messages",
            path,
            find,
            "GroupMe messages",
            (T, "ZCREATEDAT"),
            "First message",
            "Last message",
        )?;
    }
    Ok(())
}

fn chats(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    const T: &str = "ZGMCHAT";
    if !readable(run, schema, T)? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "c.", n, a);
    let mc = schema.columns("ZGMMESSAGE");
    let link: Vec<String> = ["ZGROUP", "ZUSER"]
        .into_iter()
        .filter(|l| mc.contains(*l))
        .map(|l| format!("x.{l}"))
        .collect();
    let count = if link.is_empty() {
        "NULL AS messages".to_string()
    } else {
        format!(
            "(SELECT COUNT(*) FROM ZGMMESSAGE x WHERE COALESCE({}, NULL) = c.Z_PK) AS messages",
            link.join(", ")
        )
    };
    let other_q = qualified(&c, "c", "ZUSERID", "other_q");
    let select = format!(
        "SELECT c.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {other_q}, {}, {count}, {}, {}, {}, {}, {} FROM {T} c",
        col("ZCREATEDAT", "created"),
        col("ZLASTMESSAGEDATE", "last_message"),
        col("ZLASTVIEWED", "last_viewed"),
        col("ZNAME", "name"),
        col("ZCHATID", "chat_id"),
        col("ZCHATTYPE", "chat_type"),
        col("ZGROUPTYPE", "group_type"),
        col("ZGROUPDESCRIPTION", "description"),
        col("ZUSERID", "other"),
        col("ZUPDATEDAT", "updated"),
        col("ZCREATORID", "creator"),
        col("ZUNREADCOUNT", "unread"),
        col("ZMUTED", "muted"),
        col("ZHIDDEN", "hidden"),
        col("ZSHAREURL", "share_url"),
        col("ZAVATARURL", "avatar"),
    );
    let Some(paged) = run.paged(path, &select, "c.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let name = raw(t, row, "name").or(raw(t, row, "chat_id"));
        let group = t.get(row, "chat_type") == Some("group");
        let mut d = Draft::new(
            "contacts",
            format!(
                "GroupMe {} {}",
                if group { "group" } else { "direct chat" },
                name.as_deref().unwrap_or(&pk)
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("chat_id", FactType::Identifier, "chat id"),
                ("chat_type", FactType::Text, "type"),
                ("group_type", FactType::Text, "group type"),
                ("description", FactType::Text, "description"),
                ("other", FactType::Account, "other party's user id"),
                ("creator", FactType::Account, "creator id"),
                ("messages", FactType::Count, "messages"),
                ("unread", FactType::Count, "unread"),
                ("muted", FactType::Count, "muted"),
                ("hidden", FactType::Count, "hidden"),
                ("share_url", FactType::Url, "share URL"),
                ("avatar", FactType::Url, "avatar URL"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("created", "Chat created"),
                ("updated", "Chat updated"),
                ("last_message", "Last message"),
                ("last_viewed", "Chat last viewed"),
            ],
        );
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a GroupMe {}; {}. Times are Core Data seconds since 2001.",
            if group {
                "group"
            } else {
                "direct-message thread"
            },
            said.join("; ")
        );
        run.record(d)?;
        if !group {
            let label = name.clone().unwrap_or_else(|| "GroupMe user".into());
            observe_user(
                run,
                t,
                row,
                inv,
                "other",
                me,
                &label,
                &[("other_q", IdType::AccountId, "The GroupMe user id")],
                &|what| {
                    format!(
                        "{what} of the other party of a GroupMe direct chat ({}).",
                        file_name(path)
                    )
                },
            )?;
        }
    }
    Ok(())
}

fn members(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    const T: &str = "ZGMMEMBER";
    if !readable(run, schema, T)? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "mem.", n, a);
    let chat = schema.columns("ZGMCHAT");
    let group = |n: &str, a: &str| {
        if c.contains("ZGROUP") && chat.contains("Z_PK") && chat.contains(n) {
            format!("(SELECT x.{n} FROM ZGMCHAT x WHERE x.Z_PK = mem.ZGROUP) AS {a}")
        } else {
            format!("NULL AS {a}")
        }
    };
    let q = qualified(&c, "mem", "ZGLOBALUSERID", "user_q");
    let select = format!(
        "SELECT mem.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {}, {}, {}, {q} FROM {T} mem",
        group("ZNAME", "group_name"),
        group("ZCHATID", "group_id"),
        col("ZNAME", "nickname"),
        col("ZREALNAME", "real_name"),
        col("ZGLOBALUSERID", "user_id"),
        col("ZMEMBERID", "member_id"),
        col("ZSTATE", "state"),
        col("ZISAUTOKICKED", "kicked"),
        col("ZAVATARURL", "avatar"),
    );
    let Some(paged) = run.paged(path, &select, "mem.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let who = raw(t, row, "nickname")
            .or(raw(t, row, "real_name"))
            .or(raw(t, row, "user_id"))
            .unwrap_or_else(|| pk.clone());
        let mut d = Draft::new(
            "contacts",
            format!(
                "GroupMe member {who} of {}",
                raw(t, row, "group_name")
                    .or(raw(t, row, "group_id"))
                    .as_deref()
                    .unwrap_or("a group")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("group_name", FactType::Name, "group"),
                ("group_id", FactType::Identifier, "group id"),
                ("nickname", FactType::Name, "nickname"),
                ("real_name", FactType::Name, "real name"),
                ("user_id", FactType::Account, "user id"),
                ("member_id", FactType::Identifier, "member id"),
                ("state", FactType::Text, "state"),
                ("kicked", FactType::Count, "auto-kicked"),
                ("avatar", FactType::Url, "avatar URL"),
            ],
        );
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a member of a GroupMe group; {}.",
            said.join("; ")
        );
        run.record(d)?;
        observe_user(
            run,
            t,
            row,
            inv,
            "user_id",
            me,
            &who,
            &[
                ("user_q", IdType::AccountId, "The GroupMe user id"),
                ("real_name", IdType::DisplayName, "The real name"),
                ("nickname", IdType::Nickname, "The nickname in the group"),
            ],
            &|what| {
                format!(
                    "{what} of a member of a GroupMe group ({}).",
                    file_name(path)
                )
            },
        )?;
    }
    Ok(())
}

fn contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    me: Option<&str>,
) -> Result<(), RuntimeError> {
    const T: &str = "ZGMRELATIONSHIP";
    if !readable(run, schema, T)? {
        return Ok(());
    }
    let c = schema.columns(T);
    let col = |n: &str, a: &str| column_or_null(&c, "r.", n, a);
    let ab = schema.columns("ZGMABCONTACT");
    let card = |n: &str, a: &str| {
        if ab.contains("ZRELATIONSHIP") && ab.contains(n) {
            format!(
                "(SELECT GROUP_CONCAT(x.{n}, ', ') FROM ZGMABCONTACT x WHERE x.ZRELATIONSHIP = r.Z_PK) AS {a}"
            )
        } else {
            format!("NULL AS {a}")
        }
    };
    let q = qualified(&c, "r", "ZUSERID", "user_q");
    let select = format!(
        "SELECT r.Z_PK AS pk, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {q} FROM {T} r",
        col("ZCREATEDAT", "created"),
        col("ZUPDATEDAT", "updated"),
        col("ZNAME", "name"),
        card("ZFULLNAME", "card_name"),
        col("ZPHONENUMBER", "phone"),
        col("ZUSERID", "user_id"),
        col("ZRELATIONSHIPID", "relationship"),
        col("ZBLOCKED", "blocked"),
        col("ZHIDDEN", "hidden"),
        col("ZISAPPUSER", "app_user"),
        card("ZCONTACTSID", "card_id"),
        col("ZAVATARURL", "avatar"),
    );
    let Some(paged) = run.paged(path, &select, "r.Z_PK")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = raw(t, row, "pk").unwrap_or_default();
        let who = raw(t, row, "name")
            .or(raw(t, row, "card_name"))
            .or(raw(t, row, "user_id"))
            .unwrap_or_else(|| pk.clone());
        let mut d = Draft::new("contacts", format!("GroupMe contact {who}"));
        d.fact(FactType::Path, Some(path), find);
        let said = fields(
            &mut d,
            t,
            row,
            inv,
            &[
                ("name", FactType::Name, "name"),
                ("card_name", FactType::Name, "address-book name"),
                ("phone", FactType::Phone, "phone number"),
                ("user_id", FactType::Account, "user id"),
                ("relationship", FactType::Identifier, "relationship id"),
                ("blocked", FactType::Count, "blocked"),
                ("hidden", FactType::Count, "hidden"),
                ("app_user", FactType::Count, "GroupMe user"),
                ("card_id", FactType::Identifier, "address-book id"),
                ("avatar", FactType::Url, "avatar URL"),
            ],
        );
        times(
            &mut d,
            t,
            row,
            inv,
            &[
                ("created", "Contact created"),
                ("updated", "Contact updated"),
            ],
        );
        d.interpretation = format!(
            "{T} Z_PK {pk} of {path}: a GroupMe contact (relationship); {}. Times are Core Data seconds since 2001.",
            said.join("; ")
        );
        run.record(d)?;
        observe_user(
            run,
            t,
            row,
            inv,
            "user_id",
            me,
            &who,
            &[
                ("user_q", IdType::AccountId, "The GroupMe user id"),
                ("name", IdType::DisplayName, "The name"),
                ("phone", IdType::Phone, "The phone number"),
            ],
            &|what| format!("{what} of a GroupMe contact ({}).", file_name(path)),
        )?;
    }
    Ok(())
}
