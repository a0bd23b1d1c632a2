//! Potato Chat (`Containers/Shared/AppGroup/<id>/Documents/tgdata.db`, the store of Telegram's
//! legacy iOS client that Potato forked), iLEAPP's `potatoChat` (`potatochat_chats`,
//! `potatochat_users`): who the user knows and what they wrote to each other.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `users_v<n>` (with `contacts_v<n>`) | one `contacts` per user ("Potato Chat user <name> (<uid>)") | user id, first and last name, the name in the device's address book (`local_first_name`, `local_last_name`), phone number (stored without `+`: given with it), user name, in the user's contacts, the account's own; last seen (Unix s; 0 and 1 are no time, as iLEAPP reads them) |
//! | `messages_v<n>` (with `users_v<n>` by `from_id`, `to_id`, `cid`) | one `messages` per message ("Potato Chat message to <chat>: …", "… from <sender>: …") | message id, chat id and the user it names, sender's and recipient's ids and names, direction (`outgoing`), text; for a message without text, a document's file name (the `TGDocumentAttributeFilename` of `media`, as iLEAPP cuts it) or the media's size; time (Unix s) |
//!
//! The tables carry the store's version in their names (`messages_v29`; iLEAPP finds them by
//! pattern): the newest of each is read. A chat id that names no user is a secret chat or a
//! group (said; iLEAPP names a secret chat's peer from the conversations table's participants
//! blob, not read here). Not read: the media blobs beyond a document's name (locations,
//! contacts, calls, captions: iLEAPP's byte-pattern heuristics), the group and channel
//! messages of `channel_messages_v<n>` (a key-value blob per message: counted in a note), the
//! attachment files. A `tgdata.db` without a `messages_v<n>` table is noted.
//!
//! Identities: each user as `potato:<uid>` (computed in the query) with their name, the name
//! the device's address book gives them, user name and phone number; the sender of outgoing
//! messages (`outgoing` 1, iLEAPP's "Local User") is the device's user (`owner`), with their
//! own user row. Wallet addresses in a message are claims of its writer.

use std::collections::BTreeMap;

use masf_agents::RuntimeError;
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, file_name};
use crate::calls::select_columns;
use crate::drafts::{headline, unix_seconds};
use crate::outputs::raw;

/// The version-numbered tables read, by kind.
const KINDS: [&str; 4] = ["users", "contacts", "messages", "channel_messages"];

/// Whether `path` is Potato Chat's `tgdata.db` (an app group's `Documents`).
pub fn is_store(path: &str) -> bool {
    path.contains("/Containers/Shared/AppGroup/") && path.ends_with("/Documents/tgdata.db")
}

/// Triage of every Potato Chat store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("tgdata.db", |find, path| {
        if is_store(path) {
            one(run, find, path)
        } else {
            Ok(())
        }
    })
}

/// The newest table of each kind (`<kind>_v<number>`) with its columns.
type Tables = BTreeMap<&'static str, (String, std::collections::BTreeSet<String>)>;

fn tables(run: &Run<'_, '_>, path: &str) -> Result<Option<Tables>, RuntimeError> {
    let globs = KINDS
        .iter()
        .map(|k| format!("m.name GLOB '{k}_v[0-9]*'"))
        .collect::<Vec<_>>()
        .join(" OR ");
    let sql = format!(
        "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND ({globs}) ORDER BY m.name, p.cid"
    );
    let Some((_, t)) = run.query(path, &sql, 10_000)? else {
        return Ok(None);
    };
    let mut newest: Tables = BTreeMap::new();
    for (table, cols) in crate::outputs::columns_by_table(&t) {
        let Some((kind, version)) = KINDS.iter().find_map(|k| {
            let v: u32 = table.strip_prefix(*k)?.strip_prefix("_v")?.parse().ok()?;
            Some((*k, v))
        }) else {
            continue;
        };
        let older = newest.get(kind).is_some_and(|(name, _)| {
            name.rsplit("_v")
                .next()
                .and_then(|n| n.parse::<u32>().ok())
                .is_some_and(|n| n > version)
        });
        if !older {
            newest.insert(kind, (table, cols));
        }
    }
    Ok(Some(newest))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(tables) = tables(run, path)? else {
        return Ok(());
    };
    let Some((messages, m)) = tables.get("messages") else {
        run.ctx.unparsed(
            path,
            "unexpected schema: the database has no messages_v<n> table (Telegram's legacy tgdata.db, as Potato Chat keeps it)",
            None,
        )?;
        return Ok(());
    };
    let missing: Vec<&str> = ["mid", "cid", "from_id", "to_id", "outgoing", "date"]
        .into_iter()
        .filter(|c| !m.contains(*c))
        .collect();
    if !missing.is_empty() {
        run.ctx.unparsed(
            path,
            &format!(
                "unexpected schema: table {messages} lacks {}",
                missing.join(", ")
            ),
            None,
        )?;
        return Ok(());
    }
    let users = tables
        .get("users")
        .filter(|(_, c)| c.contains("uid") && c.contains("first_name"));
    if let Some((name, cols)) = users {
        let contacts = tables
            .get("contacts")
            .filter(|(_, c)| c.contains("uid"))
            .map(|(n, _)| n.as_str());
        read_users(run, find, path, name, cols, contacts, messages)?;
    }
    read_messages(
        run,
        find,
        path,
        messages,
        m,
        users.map(|(n, c)| (n.as_str(), c.contains("last_name"))),
    )?;
    if let Some((channel, _)) = tables.get("channel_messages") {
        let sql = format!("SELECT count(*) AS n FROM {channel}");
        if let Some((inv, t)) = run.query(path, &sql, 1)?
            && let Some(n) = t.rows.first().and_then(|r| t.get(r, "n"))
            && n != "0"
        {
            run.ctx.unparsed(
                path,
                &format!(
                    "{n} group and channel messages of {channel} (a key-value blob per message) were not read"
                ),
                Some(&inv.record.invocation_id),
            )?;
        }
    }
    Ok(())
}

/// `trim(first || ' ' || last)` of two name columns of `alias`, NULL when both are empty.
fn full_name(alias: &str, first: &str, last: &str) -> String {
    format!(
        "nullif(trim(coalesce({alias}.{first}, '') || ' ' || coalesce({alias}.{last}, '')), '')"
    )
}

/// A user's name (`first_name`, with `last_name` where the table has it) of `alias`.
fn name_of(alias: &str, last: bool) -> String {
    if last {
        full_name(alias, "first_name", "last_name")
    } else {
        format!("nullif(trim({alias}.first_name), '')")
    }
}

/// Observes the user of `qualified` (`owner` when `own`) with the identifiers of `ids`.
fn observe_user(
    run: &Run<'_, '_>,
    inv: &Invoked,
    qualified: &str,
    label: Option<&str>,
    own: bool,
    file: &str,
    ids: &[(IdType, Option<&str>, &str)],
) -> Result<(), RuntimeError> {
    let (context, label) = if own {
        ("owner".to_string(), "device owner".to_string())
    } else {
        (
            qualified.to_string(),
            label.unwrap_or(qualified).to_string(),
        )
    };
    let whose = if own {
        "the Potato Chat account of the device's user (the sender of its outgoing messages)"
    } else {
        "a Potato Chat user"
    };
    let why = |what: &str| format!("{what} of {whose} ({file}).");
    let mut all = vec![(
        IdType::AccountId,
        Some(qualified),
        "The Potato Chat user id",
    )];
    all.extend_from_slice(ids);
    run.observe_person(&context, &label, inv, &why, &all)
}

fn read_users(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    table: &str,
    c: &std::collections::BTreeSet<String>,
    contacts: Option<&str>,
    messages: &str,
) -> Result<(), RuntimeError> {
    let col = |name: &str| c.contains(name);
    let name = name_of("u", col("last_name"));
    let local = if col("local_first_name") && col("local_last_name") {
        full_name("u", "local_first_name", "local_last_name")
    } else {
        "NULL".into()
    };
    let phone = if col("phone_number") {
        "CASE WHEN u.phone_number GLOB '[0-9]*' AND u.phone_number NOT GLOB '*[^0-9]*' AND length(u.phone_number) >= 7 THEN '+' || u.phone_number ELSE nullif(u.phone_number, '') END"
    } else {
        "NULL"
    };
    let seen = if col("last_seen") {
        "CASE WHEN u.last_seen > 1 THEN u.last_seen END"
    } else {
        "NULL"
    };
    let contact = match contacts {
        Some(t) => {
            format!("CASE WHEN EXISTS (SELECT 1 FROM {t} k WHERE k.uid = u.uid) THEN 1 ELSE 0 END")
        }
        None => "NULL".into(),
    };
    let sql = format!(
        "SELECT u.uid AS uid, 'potato:' || u.uid AS qualified, {}, {name} AS name, {local} AS local_name, {phone} AS phone, {seen} AS last_seen, {contact} AS contact, CASE WHEN u.uid IN (SELECT m.from_id FROM {messages} m WHERE m.outgoing = 1) THEN 1 ELSE 0 END AS own FROM {table} u",
        select_columns(
            c,
            "u.",
            &[
                ("first_name", "first_name"),
                ("last_name", "last_name"),
                ("username", "username"),
            ],
        ),
    );
    let Some(pages) = run.paged(path, &sql, "u.uid")? else {
        return Ok(());
    };
    let file = file_name(path);
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let uid = get("uid").unwrap_or_else(|| "?".into());
        let own = t.get(row, "own") == Some("1");
        let (name, username, local, phone) = (
            get("name"),
            get("username"),
            get("local_name"),
            get("phone"),
        );
        let label = name.clone().or_else(|| username.clone());
        let mut d = Draft::new(
            "contacts",
            format!(
                "Potato Chat user {} ({uid})",
                label.as_deref().unwrap_or("without a name")
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        let mut said = d.fields(
            t,
            row,
            inv,
            &[
                ("uid", FactType::Account, "user id"),
                ("first_name", FactType::Name, "first name"),
                ("last_name", FactType::Name, "last name"),
                ("local_name", FactType::Name, "name in the address book"),
                ("phone", FactType::Phone, "phone"),
                ("username", FactType::Account, "user name"),
            ],
        );
        match t.get(row, "contact") {
            Some("1") => said.push("in the user's contacts".into()),
            Some("0") => said.push("not in the user's contacts".into()),
            _ => {}
        }
        let seen = t.get(row, "last_seen");
        d.time(seen, unix_seconds(seen), "Potato Chat user last seen", inv);
        d.interpretation = format!(
            "{table} row of {path}: {} ({}); last seen is Unix seconds.",
            if own {
                "the device user's own Potato Chat account (the sender of the store's outgoing messages)"
            } else {
                "a Potato Chat user the app knows"
            },
            said.join("; ")
        );
        run.record(d)?;
        if let Some(q) = get("qualified") {
            observe_user(
                run,
                inv,
                &q,
                label.as_deref(),
                own,
                file,
                &[
                    (IdType::DisplayName, name.as_deref(), "The name"),
                    (
                        IdType::DisplayName,
                        local.as_deref(),
                        "The name the device's address book gives",
                    ),
                    (IdType::Nickname, username.as_deref(), "The user name"),
                    (IdType::Phone, phone.as_deref(), "The phone number"),
                ],
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Potato Chat users")
}

fn read_messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    table: &str,
    c: &std::collections::BTreeSet<String>,
    users: Option<(&str, bool)>,
) -> Result<(), RuntimeError> {
    let (names, joins) = match users {
        Some((u, last)) => (
            format!(
                "{} AS from_name, {} AS to_name, {} AS chat_name",
                name_of("uf", last),
                name_of("ut", last),
                name_of("cn", last),
            ),
            format!(
                " LEFT JOIN {u} uf ON uf.uid = m.from_id LEFT JOIN {u} ut ON ut.uid = m.to_id LEFT JOIN {u} cn ON cn.uid = m.cid"
            ),
        ),
        None => (
            "NULL AS from_name, NULL AS to_name, NULL AS chat_name".to_string(),
            String::new(),
        ),
    };
    // a document's name: after `TGDocumentAttributeFilename` and 5 bytes, up to 6 zero bytes
    let (media, file) = if c.contains("media") {
        let at = "instr(m.media, CAST('TGDocumentAttributeFilename' AS BLOB))";
        let rest = format!("substr(m.media, {at} + 32)");
        (
            "length(m.media) AS media_bytes".to_string(),
            format!(
                "CASE WHEN {at} > 0 AND instr({rest}, x'000000000000') > 1 THEN CAST(substr({rest}, 1, instr({rest}, x'000000000000') - 1) AS TEXT) END AS file_name"
            ),
        )
    } else {
        (
            "NULL AS media_bytes".to_string(),
            "NULL AS file_name".to_string(),
        )
    };
    let sql = format!(
        "SELECT m.mid AS mid, m.cid AS cid, {}, m.from_id AS from_id, m.to_id AS to_id, m.outgoing AS outgoing, m.date AS date, CASE WHEN m.from_id IS NOT NULL THEN 'potato:' || m.from_id END AS from_q, CASE WHEN m.to_id IS NOT NULL THEN 'potato:' || m.to_id END AS to_q, {names}, {media}, {file} FROM {table} m{joins}",
        select_columns(c, "m.", &[("message", "text")]),
    );
    let Some(pages) = run.paged(path, &sql, "m.mid")? else {
        return Ok(());
    };
    let file_n = file_name(path);
    for (inv, t, row) in pages.rows() {
        let get = |c: &str| raw(t, row, c).filter(|v| !v.is_empty());
        let sent = t.get(row, "outgoing") == Some("1");
        let mid = get("mid").unwrap_or_else(|| "?".into());
        let cid = get("cid").unwrap_or_else(|| "?".into());
        let chat = get("chat_name");
        let from = get("from_name").or_else(|| get("from_id"));
        let to = chat
            .clone()
            .or_else(|| get("to_name"))
            .or_else(|| get("to_id"));
        let text = t.get(row, "text").filter(|s| !s.trim().is_empty());
        let what = match (text, t.get(row, "file_name"), t.get(row, "media_bytes")) {
            (Some(s), _, _) => headline(s),
            (None, Some(f), _) => format!("file {f}"),
            (None, None, Some(n)) => format!("media of {n} bytes (not decoded)"),
            _ => "(no text)".into(),
        };
        let title = if sent {
            format!(
                "Potato Chat message to {}: {what}",
                to.as_deref().unwrap_or("an unknown chat")
            )
        } else {
            format!(
                "Potato Chat message from {}: {what}",
                from.as_deref().unwrap_or("an unknown user")
            )
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(path), find);
        let said = d.fields(
            t,
            row,
            inv,
            &[
                ("mid", FactType::Identifier, "message id"),
                ("cid", FactType::Identifier, "chat"),
                ("chat_name", FactType::Name, "chat with"),
                ("from_id", FactType::Account, "sender"),
                ("from_name", FactType::Name, "sender's name"),
                ("to_id", FactType::Account, "recipient"),
                ("to_name", FactType::Name, "recipient's name"),
                ("text", FactType::Text, "text"),
                ("file_name", FactType::Name, "document"),
                ("media_bytes", FactType::Count, "media (bytes)"),
            ],
        );
        let date = t.get(row, "date");
        d.message_time(date, unix_seconds(date), sent, inv);
        d.interpretation = format!(
            "{table} mid {mid} of {path}: a Potato Chat message {} in chat {cid}{} ({}); the time is Unix seconds.",
            if sent {
                "sent by the device's user (outgoing 1)"
            } else {
                "received (outgoing 0)"
            },
            if chat.is_none() {
                ", a chat the users table does not name (a secret chat or a group)"
            } else {
                ""
            },
            said.join("; ")
        );
        run.record(d)?;
        // the sender of an outgoing message is the device's user; the other side a user
        let (me, other) = if sent {
            (get("from_q"), get("to_q").map(|q| (q, get("to_name"))))
        } else {
            (None, get("from_q").map(|q| (q, get("from_name"))))
        };
        if let Some(q) = &me {
            observe_user(run, inv, q, None, true, file_n, &[])?;
        }
        if let Some((q, name)) = &other {
            observe_user(
                run,
                inv,
                q,
                name.as_deref(),
                false,
                file_n,
                &[(IdType::DisplayName, name.as_deref(), "The name")],
            )?;
        }
        if let Some(text) = text {
            run.message_claims(
                inv,
                text,
                &format!("Potato Chat message {mid} ({file_n})"),
                sent,
                other.map(|(q, name)| {
                    let label = name.unwrap_or_else(|| q.clone());
                    (q, format!("the Potato Chat user {label}"))
                }),
                "outgoing 1",
                "outgoing 0",
            )?;
        }
    }
    crate::calls::note_pages_cap(run.ctx, path, &pages, "Potato Chat messages")
}

#[cfg(test)]
mod tests {
    use super::is_store;

    #[test]
    fn the_store_of_an_app_group() {
        assert!(is_store(
            "/private/var/mobile/Containers/Shared/AppGroup/X/Documents/tgdata.db"
        ));
        assert!(!is_store(
            "/private/var/mobile/Containers/Data/Application/X/Documents/tgdata.db"
        ));
    }
}
