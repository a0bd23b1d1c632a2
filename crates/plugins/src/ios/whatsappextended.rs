//! WhatsApp's reactions, channel reaction tallies, group events and group membership changes
//! (`ChatStorage.sqlite` of the WhatsApp app group), iLEAPP's `whatsAppExtended`
//! (`whatsAppReactions`, `whatsAppChannelReactionTallies`, `whatsAppGroupEvents`,
//! `whatsAppGroupMembershipChanges`): what [`super::whatsapp`] (messages, contacts, groups,
//! calls) does not read.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `ZWAMESSAGEINFO.ZRECEIPTINFO` (Protocol Buffers, decoded by `sqlite_query`'s `protobuf`), field 7.1, with the message (`ZWAMESSAGE.ZMESSAGEINFO`) and its chat | one `messages` per reaction ("WhatsApp reaction <emoji> by <JID> to message <Z_PK>") | the emoji (7.1.3), the reactor's JID (7.1.2), the message key (7.1.1); the chat's JID and name, the message's direction (from `ZISFROMME`, in the query) and text; reacted (7.1.4, Unix ms), the message's time (Core Data seconds) |
//! | the same, field 7.2 | one `messages` per reaction ("WhatsApp reaction <emoji> to message <Z_PK>") | emoji (7.2.2), message key (7.2.1), the message's chat, direction, text; reacted (7.2.3, Unix ms), the message's time — no reactor: the record names none |
//! | the same, field 7.3 | one `messages` per message holding tallies ("WhatsApp channel reactions to message <Z_PK> in <chat>") | each emoji (7.3.1.1) with its count as stored (7.3.1.2); the message's chat, direction, text; its time |
//! | `ZWAMESSAGE` with `ZGROUPEVENTTYPE` set and not 0 (with `ZWACHATSESSION`, `ZWAGROUPMEMBER`) | one `messages` per row ("WhatsApp group event <Z_PK> in <chat>") | event type and message type as stored, text, from JID, the group member's JID, the chat's JID and name; the event's time (Core Data seconds) |
//! | `ZWAGROUPMEMBERSCHANGE` | one `messages` per row ("WhatsApp group membership change <Z_PK> in <group JID>") | change type as stored, group JID, `ZMEMBERJIDS` as stored when text (a binary property list, as a Core Data transformable keeps an array, decoded by `sqlite_query`'s `plists`), each member JID in it; changed (Core Data seconds) |
//!
//! The field meanings of `ZRECEIPTINFO` are iLEAPP's, established on test images (no schema is
//! published): 7.1 carries the reactor's JID, 7.2 does not (which side reacted is not
//! established for it, and is not said); 7.3's counts reach the thousands on channel
//! (`@newsletter`) messages, consistent with channel-wide totals, not reactions of contacts.
//! `ZGROUPEVENTTYPE`, `ZMESSAGETYPE` and `ZCHANGETYPE` have no lookup table in the store: as
//! stored. Only blobs holding the byte of field 7's tag (`x'3a'`) are read (a blob without it
//! has no field 7); a blob that does not decode is counted in one note. The delivery and read
//! receipts the same blob keeps (its other fields) are not read.
//!
//! Schema drift: columns by name (older stores lack `ZGROUPEVENTTYPE`: noted; `ZCHANGETYPE`;
//! `ZWAGROUPMEMBERSCHANGE` itself, passed over when absent); a store with none of
//! `ZWAMESSAGEINFO.ZRECEIPTINFO`, `ZWAMESSAGE.ZGROUPEVENTTYPE` and
//! `ZWAGROUPMEMBERSCHANGE.ZMEMBERJIDS` is noted, as is a table present without the columns read.
//! Paged by `Z_PK` up to the row cap (the rest noted). Nothing secret is selected (media keys and
//! the like are other tables' columns, never read).
//!
//! Identities: a reactor's JID and each member JID of a membership change that names a person
//! (`<digits>@s.whatsapp.net` a phone, `<digits>@lid` a `whatsapp_lid`; groups and channels are
//! not persons) is `handle:<JID>`, as [`super::whatsapp`] observes chat partners and group
//! members — but for the account's own JID (the one address received messages were delivered
//! to, as [`super::whatsapp`] finds the owner): the user's own reaction is said, not a person.

use std::collections::BTreeSet;

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::{Draft, Run, Schema, core_data_encoding, raw};
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::unix_millis;
use crate::identity::jid_type;
use crate::outputs::{Table, in_json_cell, protobuf_cell};

const MESSAGE: &str = "ZWAMESSAGE";
const SESSION: &str = "ZWACHATSESSION";
const INFO: &str = "ZWAMESSAGEINFO";
const MEMBER: &str = "ZWAGROUPMEMBER";
const CHANGES: &str = "ZWAGROUPMEMBERSCHANGE";

/// Whether a JID names one person (not a group, a channel, a broadcast list or a status).
fn is_person(jid: &str) -> bool {
    jid_type(jid) != IdType::AccountId
}

/// Triage of every WhatsApp `ChatStorage.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    if let Some((find, paths)) = run.find("ChatStorage.sqlite")? {
        for path in &paths {
            one(run, &find, path)?;
        }
    }
    Ok(())
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(schema) = run.schema(path, &[MESSAGE, SESSION, INFO, MEMBER, CHANGES])? else {
        return Ok(());
    };
    let (m, info, changes) = (
        schema.columns(MESSAGE),
        schema.columns(INFO),
        schema.columns(CHANGES),
    );
    let receipts = info.contains("ZRECEIPTINFO");
    let events = m.contains("ZGROUPEVENTTYPE");
    let members = changes.contains("ZMEMBERJIDS");
    if !receipts && !events && !members {
        run.ctx.unparsed(
            path,
            "could not parse WhatsApp's reactions, group events and membership changes because the store has none of ZWAMESSAGEINFO.ZRECEIPTINFO, ZWAMESSAGE.ZGROUPEVENTTYPE, ZWAGROUPMEMBERSCHANGE.ZMEMBERJIDS",
            None,
        )?;
        return Ok(());
    }
    let own = own_jid(run, path, &m)?;
    if !info.is_empty()
        && require_columns(
            run.ctx,
            path,
            "WhatsApp's reactions",
            INFO,
            &info,
            &["Z_PK", "ZRECEIPTINFO"],
        )?
    {
        reactions(run, find, path, &schema, own.as_deref())?;
    }
    if !m.is_empty() {
        if !events {
            run.ctx.unparsed(
                path,
                "could not parse WhatsApp's group events because table ZWAMESSAGE lacks ZGROUPEVENTTYPE (an older store: it keeps no group event type)",
                None,
            )?;
        } else if require_columns(
            run.ctx,
            path,
            "WhatsApp's group events",
            MESSAGE,
            &m,
            &["Z_PK"],
        )? {
            group_events(run, find, path, &schema)?;
        }
    }
    if !changes.is_empty()
        && require_columns(
            run.ctx,
            path,
            "WhatsApp's group membership changes",
            CHANGES,
            &changes,
            &["Z_PK", "ZMEMBERJIDS"],
        )?
    {
        membership(run, find, path, &changes, own.as_deref())?;
    }
    Ok(())
}

/// The account's own JID: the one address received messages were delivered to (`ZTOJID` of
/// `ZISFROMME` 0), as [`super::whatsapp`] finds it; `None` when the store names none or
/// several.
fn own_jid(
    run: &Run<'_, '_>,
    path: &str,
    m: &BTreeSet<String>,
) -> Result<Option<String>, RuntimeError> {
    if !m.contains("ZISFROMME") || !m.contains("ZTOJID") {
        return Ok(None);
    }
    let Some((_, t)) = run.query(
        path,
        "SELECT ZTOJID AS jid, count(*) AS n FROM ZWAMESSAGE WHERE ZISFROMME = 0 AND ZTOJID LIKE '%@s.whatsapp.net' \
GROUP BY ZTOJID ORDER BY ZTOJID",
        100,
    )?
    else {
        return Ok(None);
    };
    Ok(match t.rows.as_slice() {
        [row] => t.get(row, "jid").map(str::to_string),
        _ => None,
    })
}

/// The message columns of a query joined to `ZWAMESSAGE m` and `ZWACHATSESSION s`: direction,
/// time, text, the chat's JID and name (NULL where the table lacks the column).
fn message_columns(schema: &Schema) -> String {
    let m = schema.columns(MESSAGE);
    let s = schema.columns(SESSION);
    let direction = if m.contains("ZISFROMME") {
        "CASE m.ZISFROMME WHEN 1 THEN 'outgoing' WHEN 0 THEN 'incoming' END AS direction"
            .to_string()
    } else {
        "NULL AS direction".to_string()
    };
    [
        direction,
        column_or_null(&m, "m.", "ZMESSAGEDATE", "date"),
        column_or_null(&m, "m.", "ZTEXT", "text"),
        column_or_null(&s, "s.", "ZCONTACTJID", "chat_jid"),
        column_or_null(&s, "s.", "ZPARTNERNAME", "chat_name"),
    ]
    .join(", ")
}

/// `LEFT JOIN ZWACHATSESSION s` of the message `m`, when both have what it takes.
fn session_join(schema: &Schema) -> String {
    if schema.columns(MESSAGE).contains("ZCHATSESSION") && schema.columns(SESSION).contains("Z_PK")
    {
        format!(" LEFT JOIN {SESSION} s ON s.Z_PK = m.ZCHATSESSION")
    } else {
        // a join that matches nothing, so that `s.` columns (then NULL) still resolve
        " LEFT JOIN (SELECT NULL AS ZCONTACTJID, NULL AS ZPARTNERNAME) s ON 0".to_string()
    }
}

/// The first value of field `f` of a decoded message.
fn first<'a>(m: &'a Value, f: &str) -> Option<&'a Value> {
    m.get(f)?.as_array()?.first()
}

/// The text at field `f`, as the output writes it.
fn text_at(m: &Value, f: &str) -> Option<(String, String)> {
    let s = first(m, f)?.as_str()?;
    Some((s.to_string(), in_json_cell(s)))
}

/// The number at field `f`, as the output writes it.
fn number_at(m: &Value, f: &str) -> Option<String> {
    match first(m, f)? {
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The submessages of field `f` of a decoded message.
fn messages_at<'a>(m: &'a Value, f: &str) -> Vec<&'a Value> {
    m.get(f)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter(|v| v.is_object()).collect())
        .unwrap_or_default()
}

/// The facts of the reacted-to message shared by every phenomenon of a row; its words for the
/// interpretation.
fn message_facts(d: &mut Draft, t: &Table, row: &[Option<String>], inv: &Invoked) -> Vec<String> {
    let said = d.fields(
        t,
        row,
        inv,
        &[
            ("chat_jid", FactType::Account, "chat"),
            ("chat_name", FactType::Name, "chat name"),
            ("direction", FactType::Text, "message direction"),
            ("text", FactType::Text, "message text"),
        ],
    );
    d.times_of(
        t,
        row,
        inv,
        core_data_encoding,
        &[("date", "WhatsApp message reacted to")],
    );
    said
}

fn reactions(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
    own: Option<&str>,
) -> Result<(), RuntimeError> {
    let m = schema.columns(MESSAGE);
    // the message holding the receipt record (the first, should two name it), and its chat;
    // without the link every message column is NULL
    let (columns, joins) = if m.contains("ZMESSAGEINFO") && m.contains("Z_PK") {
        (
            format!("m.Z_PK AS message, {}", message_columns(schema)),
            format!(
                " LEFT JOIN {MESSAGE} m ON m.Z_PK = (SELECT x.Z_PK FROM {MESSAGE} x WHERE x.ZMESSAGEINFO = i.Z_PK ORDER BY x.Z_PK LIMIT 1){}",
                session_join(schema)
            ),
        )
    } else {
        (
            "NULL AS message, NULL AS direction, NULL AS date, NULL AS text, NULL AS chat_jid, NULL AS chat_name"
                .to_string(),
            String::new(),
        )
    };
    let sql = format!(
        "SELECT * FROM (SELECT i.Z_PK AS pk, {columns}, i.ZRECEIPTINFO AS receipt FROM {INFO} i{joins} \
WHERE i.ZRECEIPTINFO IS NOT NULL AND instr(i.ZRECEIPTINFO, x'3a') > 0)"
    );
    let Some(paged) = run.paged_with(path, &sql, "pk", &["protobuf"])? else {
        return Ok(());
    };
    let mut undecoded = 0usize;
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let Some(decoded) = t.get(row, "receipt").and_then(protobuf_cell) else {
            undecoded += 1;
            continue;
        };
        let target = t
            .get(row, "message")
            .map(|x| format!("message {x}"))
            .unwrap_or_else(|| format!("the message of ZWAMESSAGEINFO {pk}"));
        for seven in messages_at(&decoded, "7") {
            for r in messages_at(seven, "1") {
                let emoji = text_at(r, "3");
                let jid = text_at(r, "2");
                let shown = emoji.as_ref().map(|e| e.0.as_str()).unwrap_or("(no emoji)");
                let mut d = Draft::new(
                    "messages",
                    match &jid {
                        Some((j, _)) => format!("WhatsApp reaction {shown} by {j} to {target}"),
                        None => format!("WhatsApp reaction {shown} to {target}"),
                    },
                );
                d.fact(FactType::Path, Some(path), find);
                d.fact(FactType::Text, emoji.as_ref().map(|e| e.1.as_str()), inv);
                d.fact(FactType::Account, jid.as_ref().map(|j| j.1.as_str()), inv);
                d.fact(
                    FactType::Identifier,
                    text_at(r, "1").as_ref().map(|k| k.1.as_str()),
                    inv,
                );
                let ms = number_at(r, "4");
                d.time(
                    ms.as_deref(),
                    unix_millis(ms.as_deref()),
                    "WhatsApp reaction made",
                    inv,
                );
                let said = message_facts(&mut d, t, row, inv);
                let mine = jid.as_ref().is_some_and(|(j, _)| Some(j.as_str()) == own);
                d.interpretation = format!(
                    "ZWAMESSAGEINFO Z_PK {pk} of {path}, field 7.1 of its ZRECEIPTINFO (Protocol Buffers): the reaction {shown} {} to WhatsApp {target} ({}); 7.1.4 is Unix milliseconds, the message's ZMESSAGEDATE Core Data seconds. The field meanings are iLEAPP's, established on test images.",
                    match (&jid, mine) {
                        (Some((j, _)), true) => format!(
                            "by {j}, the account's own JID (the address received messages were delivered to): the device's user reacted"
                        ),
                        (Some((j, _)), false) => format!("by {j}"),
                        (None, _) => "by a JID the record does not hold".to_string(),
                    },
                    said.join(", "),
                );
                run.record(d)?;
                if let Some((j, cited)) = &jid
                    && is_person(j)
                    && !mine
                {
                    run.observe(
                        &format!("handle:{j}"),
                        EntityKind::Person,
                        j,
                        jid_type(j),
                        cited,
                        inv,
                        format!("{j} reacted with {shown} to WhatsApp {target}."),
                    )?;
                }
            }
            for r in messages_at(seven, "2") {
                let emoji = text_at(r, "2");
                let shown = emoji.as_ref().map(|e| e.0.as_str()).unwrap_or("(no emoji)");
                let mut d =
                    Draft::new("messages", format!("WhatsApp reaction {shown} to {target}"));
                d.fact(FactType::Path, Some(path), find);
                d.fact(FactType::Text, emoji.as_ref().map(|e| e.1.as_str()), inv);
                d.fact(
                    FactType::Identifier,
                    text_at(r, "1").as_ref().map(|k| k.1.as_str()),
                    inv,
                );
                let ms = number_at(r, "3");
                d.time(
                    ms.as_deref(),
                    unix_millis(ms.as_deref()),
                    "WhatsApp reaction made",
                    inv,
                );
                let said = message_facts(&mut d, t, row, inv);
                d.interpretation = format!(
                    "ZWAMESSAGEINFO Z_PK {pk} of {path}, field 7.2 of its ZRECEIPTINFO (Protocol Buffers): the reaction {shown} to WhatsApp {target} ({}); this record names no reactor, and which side reacted is not established (iLEAPP saw it on sent and received messages); 7.2.3 is Unix milliseconds, the message's ZMESSAGEDATE Core Data seconds. The field meanings are iLEAPP's, established on test images.",
                    said.join(", "),
                );
                run.record(d)?;
            }
            let tallies: Vec<&Value> = messages_at(seven, "3")
                .into_iter()
                .flat_map(|g| messages_at(g, "1"))
                .collect();
            if tallies.is_empty() {
                continue;
            }
            let chat = t
                .get(row, "chat_name")
                .or_else(|| t.get(row, "chat_jid"))
                .unwrap_or("an unknown chat");
            let mut d = Draft::new(
                "messages",
                format!("WhatsApp channel reactions to {target} in {chat}"),
            );
            d.fact(FactType::Path, Some(path), find);
            let mut each = Vec::new();
            for e in tallies {
                let emoji = text_at(e, "1");
                let count = number_at(e, "2");
                d.fact(FactType::Text, emoji.as_ref().map(|x| x.1.as_str()), inv);
                d.fact(FactType::Count, count.as_deref(), inv);
                each.push(format!(
                    "{} × {}",
                    emoji.as_ref().map(|x| x.0.as_str()).unwrap_or("(no emoji)"),
                    count.as_deref().unwrap_or("?")
                ));
            }
            let said = message_facts(&mut d, t, row, inv);
            d.interpretation = format!(
                "ZWAMESSAGEINFO Z_PK {pk} of {path}, field 7.3 of its ZRECEIPTINFO (Protocol Buffers): reaction counts on WhatsApp {target} ({}): {}; counts as stored, which iLEAPP found on channel (@newsletter) messages in the thousands: channel-wide totals, not reactions of the user's contacts (iLEAPP's observation, not a documented meaning).",
                said.join(", "),
                each.join(", "),
            );
            run.record(d)?;
        }
    }
    if undecoded > 0 {
        run.ctx.unparsed(
            path,
            &format!(
                "{undecoded} ZWAMESSAGEINFO.ZRECEIPTINFO blob(s) holding field 7's tag byte are no Protocol Buffers message: their reactions (if any) were not read"
            ),
            None,
        )?;
    }
    note_pages_cap(run.ctx, path, &paged, "WhatsApp receipt records")
}

fn group_events(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &Schema,
) -> Result<(), RuntimeError> {
    let m = schema.columns(MESSAGE);
    let gm = schema.columns(MEMBER);
    let member = if m.contains("ZGROUPMEMBER") && gm.contains("ZMEMBERJID") && gm.contains("Z_PK") {
        format!("(SELECT gm.ZMEMBERJID FROM {MEMBER} gm WHERE gm.Z_PK = m.ZGROUPMEMBER) AS member")
    } else {
        "NULL AS member".to_string()
    };
    let sql = format!(
        "SELECT * FROM (SELECT m.Z_PK AS pk, m.ZGROUPEVENTTYPE AS event_type, {}, {}, {member}, {} FROM {MESSAGE} m{} \
WHERE m.ZGROUPEVENTTYPE IS NOT NULL AND m.ZGROUPEVENTTYPE != 0)",
        column_or_null(&m, "m.", "ZMESSAGETYPE", "message_type"),
        column_or_null(&m, "m.", "ZFROMJID", "from_jid"),
        message_columns(schema),
        session_join(schema),
    );
    let Some(paged) = run.paged(path, &sql, "pk")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let chat = raw(t, row, "chat_name")
            .or_else(|| raw(t, row, "chat_jid"))
            .unwrap_or_else(|| "an unknown chat".into());
        let mut d = Draft::new("messages", format!("WhatsApp group event {pk} in {chat}"));
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("event_type", FactType::Text, "ZGROUPEVENTTYPE (as stored)"),
                ("message_type", FactType::Text, "ZMESSAGETYPE (as stored)"),
                ("text", FactType::Text, "text"),
                ("from_jid", FactType::Account, "from"),
                ("member", FactType::Account, "group member"),
                ("chat_jid", FactType::Account, "chat"),
                ("chat_name", FactType::Name, "chat name"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            core_data_encoding,
            &[("date", "WhatsApp group event")],
        );
        d.interpretation = format!(
            "ZWAMESSAGE Z_PK {pk} of {path}: a row WhatsApp keeps in the chat {chat} for a group event ({}); the event type is an integer with no lookup table in the store, given as stored; ZMESSAGEDATE is Core Data seconds.",
            said.join(", "),
        );
        run.record(d)?;
    }
    note_pages_cap(run.ctx, path, &paged, "WhatsApp group events")
}

/// The JIDs written in a cell (text, or a decoded property list's JSON): its words holding an
/// `@`, as the output writes them.
fn jids_in(cell: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in cell.split(|c: char| !(c.is_ascii_alphanumeric() || "@._:-".contains(c))) {
        let w = w.trim_matches(|c: char| c == '.' || c == ':' || c == '-');
        if w.contains('@')
            && !w.starts_with('@')
            && !w.ends_with('@')
            && !out.iter().any(|o| o == w)
        {
            out.push(w.to_string());
        }
    }
    out
}

fn membership(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    cols: &BTreeSet<String>,
    own: Option<&str>,
) -> Result<(), RuntimeError> {
    let sql = format!(
        "SELECT Z_PK AS pk, {}, {}, {}, ZMEMBERJIDS AS members FROM {CHANGES}",
        column_or_null(cols, "", "ZCHANGEDATE", "date"),
        column_or_null(cols, "", "ZCHANGETYPE", "change_type"),
        column_or_null(cols, "", "ZGROUPJID", "group_jid"),
    );
    let Some(paged) = run.paged_with(path, &sql, "Z_PK", &["plists"])? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let pk = t.get(row, "pk").unwrap_or("?");
        let group = raw(t, row, "group_jid");
        let mut d = Draft::new(
            "messages",
            format!(
                "WhatsApp group membership change {pk} in {}",
                group.as_deref().unwrap_or("an unknown group")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("change_type", FactType::Text, "ZCHANGETYPE (as stored)"),
                ("group_jid", FactType::Account, "group"),
            ],
        );
        d.times_of(
            t,
            row,
            inv,
            core_data_encoding,
            &[("date", "WhatsApp group membership changed")],
        );
        let members = raw(t, row, "members");
        let decoded = members.as_deref().is_some_and(|m| m.starts_with("plist:"));
        if !decoded {
            d.fact(FactType::Text, members.as_deref(), inv);
        }
        let jids = members.as_deref().map(jids_in).unwrap_or_default();
        for j in &jids {
            d.fact(FactType::Account, Some(j), inv);
        }
        d.interpretation = format!(
            "ZWAGROUPMEMBERSCHANGE Z_PK {pk} of {path}: a change of the members of the WhatsApp group {} ({}); the members it names (ZMEMBERJIDS, {}): {}; the change type is an integer with no lookup table in the store, given as stored; ZCHANGEDATE is Core Data seconds.",
            group.as_deref().unwrap_or("(no group JID)"),
            said.join(", "),
            if decoded {
                "a property list decoded by the query"
            } else {
                "as stored"
            },
            if jids.is_empty() {
                "none readable".to_string()
            } else {
                jids.join(", ")
            },
        );
        run.record(d)?;
        for j in jids
            .iter()
            .filter(|j| is_person(j) && Some(j.as_str()) != own)
        {
            run.observe(
                &format!("handle:{j}"),
                EntityKind::Person,
                j,
                jid_type(j),
                j,
                inv,
                format!(
                    "{j} is named by a membership change of the WhatsApp group {}.",
                    group.as_deref().unwrap_or("(no group JID)")
                ),
            )?;
        }
    }
    note_pages_cap(run.ctx, path, &paged, "WhatsApp group membership changes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jids_in_text_and_property_lists() {
        assert_eq!(
            jids_in("4741234567@s.whatsapp.net,4790012345@s.whatsapp.net"),
            vec!["4741234567@s.whatsapp.net", "4790012345@s.whatsapp.net"]
        );
        assert_eq!(
            jids_in(r#"plist:{"root":["41765554488@s.whatsapp.net","80001234567890@lid"]}"#),
            vec!["41765554488@s.whatsapp.net", "80001234567890@lid"]
        );
        assert!(jids_in("plist:{\"root\":[]}").is_empty());
    }

    #[test]
    fn receipt_fields() {
        let v: Value = serde_json::from_str(
            r#"{"7":[{"1":[{"1":["K1"],"2":["41795550123@s.whatsapp.net"],"3":["👍"],"4":[1718100055123]}],"3":[{"1":[{"1":["😮"],"2":[87]}]}]}]}"#,
        )
        .unwrap();
        let seven = messages_at(&v, "7");
        assert_eq!(seven.len(), 1);
        let r = messages_at(seven[0], "1");
        assert_eq!(text_at(r[0], "3").unwrap().0, "👍");
        assert_eq!(number_at(r[0], "4").as_deref(), Some("1718100055123"));
        let t = messages_at(messages_at(seven[0], "3")[0], "1");
        assert_eq!(number_at(t[0], "2").as_deref(), Some("87"));
    }
}
