//! Telegram for iOS (`ph.telegra.Telegraph`): each account's Postbox database,
//! `telegram-data/account-<id>/postbox/db/db_sqlite` in the app group — a key-value store over
//! SQLite whose records `sqlite_query`'s `postbox` option decodes ([`masf_tools::postbox`]).
//! Telegram keeps it encrypted with SQLCipher (its first 32 bytes in the clear, a raw key and
//! salt) under the key in `telegram-data/.tempkeyEncrypted`, which is itself encrypted under the
//! app's local passcode: when the user set none, the `cipher` profile `telegram_ios` opens it
//! (the tool reads the key, never printed); a copy an extraction tool already decrypted is read
//! as is; with a passcode set the database is named and noted encrypted. Read, every field of
//! iLEAPP's `telegramMessages` and the peers of its `telegramContacts`:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `t0` key 2 (the account state) | one `accounts` | the signed-in user (`peerId`), test environment, master datacenter, the update state's date |
//! | `t2` (peers) with `t16` (contacts) | one `contacts` per user, group, channel or secret chat | the qualified id, first and last name, user name, phone, title, participants, a secret chat's other user and creation time, whether the user is in the contact list |
//! | `t7` (message history) | one `messages` per message | time (the key's Unix seconds), chat (named), message id and namespace, direction (the `incoming` flag), author (named), text, forward (original author and date, source, signature), thread, flags and tags, each medium (a file's name, type and size; a photo's largest size; a location; a web page's address; a service action and its title or members), reply |
//!
//! Identities: a user is `telegram:<user id>` (the id Android's Telegram reader writes; the
//! decoder computes it from Postbox's peer id), with name, user name and phone; a group or
//! channel is `telegram-chat:<id>`. The account's own user (`t0`'s `peerId`, and the author of
//! the messages sent from the device) is the device's user (`owner`). Wallet addresses and
//! contact claims in a message are claims by direction, the other user of a one-to-one chat
//! named. Messages are read in pages by their binary key, up to [`crate::calls::ROW_CAP`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Map, Value, json};

use super::signal::{KeySource, keyed_store_from};
use super::{Draft, PAGE, Run};
use crate::calls::{Paged, ROW_CAP, note_pages_cap};
use crate::drafts::unix_seconds;
use crate::outputs::{Table, in_json_cell};

/// Names of the peers by qualified id (or `peer <raw>` for one without), and a secret chat's
/// other user by its raw peer id.
#[derive(Default)]
struct Peers {
    names: HashMap<String, String>,
    secret: HashMap<i64, String>,
}

/// Triage of every Postbox `db_sqlite` under an `account-<id>/postbox/db/` folder.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let keys = run
        .find(".tempkeyEncrypted")?
        .map(|(_, p)| p)
        .unwrap_or_default();
    run.each("db_sqlite", |find, path| {
        let Some((base, rest)) = path.rsplit_once("/account-") else {
            return Ok(());
        };
        if !rest.ends_with("/postbox/db/db_sqlite") {
            return Ok(());
        }
        let key_file = format!("{base}/.tempkeyEncrypted");
        let files: Vec<String> = keys.iter().filter(|k| **k == key_file).cloned().collect();
        keyed_store_from(
            run,
            find,
            path,
            "Telegram",
            "telegram_ios",
            &KeySource::Files {
                files,
                what: format!(
                    "Telegram's key file {key_file}, encrypted under the app's local passcode (the default one when the user set none)"
                ),
            },
            read,
        )
    })
}

/// The decoded JSON of a `postbox:` cell.
fn decoded(t: &Table, row: &[Option<String>], c: &str) -> Option<Value> {
    t.get(row, c)
        .and_then(|v| v.strip_prefix("postbox:"))
        .and_then(|j| serde_json::from_str(j).ok())
}

/// A string of a decoded value, as it is and as the cell holds it.
fn text_of(v: &Value) -> Option<(String, String)> {
    let s = v.as_str()?.trim();
    (!s.is_empty()).then(|| (s.to_string(), in_json_cell(s)))
}

/// The `sqlite_query` arguments: the `cipher` (if any) and the `postbox` kinds.
fn args(extra: &Map<String, Value>, kinds: Value) -> Map<String, Value> {
    let mut a = extra.clone();
    a.insert("postbox".into(), kinds);
    a
}

/// A Postbox database's tables.
fn read(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &BTreeMap<String, BTreeSet<String>>,
    extra: &Map<String, Value>,
) -> Result<(), RuntimeError> {
    let kv = |t: &str| {
        schema
            .get(t)
            .is_some_and(|c| c.contains("key") && c.contains("value"))
    };
    if !kv("t7") && !kv("t2") {
        run.ctx.unparsed(
            path,
            "could not parse Telegram's Postbox because it has no t7 (message history) or t2 (peers) table with key and value columns",
            None,
        )?;
        return Ok(());
    }
    if kv("t0") {
        account(run, find, path, extra)?;
    }
    let mut peers = Peers::default();
    if kv("t2") {
        peer_table(
            run,
            find,
            path,
            extra,
            schema.contains_key("t16"),
            &mut peers,
        )?;
    }
    if kv("t7") {
        messages(run, find, path, extra, &peers)?;
    }
    Ok(())
}

/// `t0` key 2: the signed-in account.
fn account(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
) -> Result<(), RuntimeError> {
    let a = args(extra, json!({"value": "object"}));
    let Some((inv, t)) = crate::calls::query_args(
        run.ctx,
        path,
        "SELECT key, value FROM t0 WHERE key = 2",
        10,
        &a,
    )?
    else {
        return Ok(());
    };
    let Some(row) = t.rows.first() else {
        return Ok(());
    };
    let Some(state) = decoded(&t, row, "value").map(|v| v["_"].clone()) else {
        run.ctx.unparsed(
            path,
            "could not parse Telegram's account state (t0 key 2) because its value is no Postbox object",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let me = state["peerId.peer"]["qualified"]
        .as_str()
        .map(str::to_string);
    let mut d = Draft::new(
        "accounts",
        format!("Telegram account {}", me.as_deref().unwrap_or("?")),
    );
    d.fact(FactType::Path, Some(path), find);
    d.fact(FactType::Account, me.as_deref(), &inv);
    let date = state["state"]["date"].as_i64().map(|v| v.to_string());
    d.time(
        date.as_deref(),
        unix_seconds(date.as_deref()),
        "Telegram account state last updated",
        &inv,
    );
    d.interpretation = format!(
        "t0 key 2 (AuthorizedAccountState) of {}: the account signed in to Telegram on the device is the user {} (test environment {}, master datacenter {}); the update state's date is Unix seconds.",
        super::file_name(path),
        me.as_deref().unwrap_or("?"),
        state["isTestingEnvironment"],
        state["masterDatacenterId"],
    );
    run.record(d)?;
    if let Some(me) = &me {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AccountId,
            me,
            &inv,
            format!(
                "{me} is the user signed in to Telegram on the device (t0 key 2, AuthorizedAccountState's peerId, of {})",
                super::file_name(path)
            ),
        )?;
    }
    Ok(())
}

/// `t2`: the peers (users, groups, channels, secret chats), with `t16`'s contact list.
fn peer_table(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
    contacts: bool,
    peers: &mut Peers,
) -> Result<(), RuntimeError> {
    let ctx = run.ctx;
    let contact = if contacts {
        "(SELECT 1 FROM t16 c WHERE c.key = p.key)"
    } else {
        "NULL"
    };
    let select = format!(
        "SELECT p.key AS k, p.key AS peer, {contact} AS contact, p.value AS value FROM t2 p"
    );
    let a = args(extra, json!({"peer": "peer_id", "value": "object"}));
    let Some(pages) = run.paged_args(path, &select, "p.key", &a)? else {
        return Ok(());
    };
    note_pages_cap(ctx, path, &pages, "Telegram peers")?;
    let file = super::file_name(path).to_string();
    // the rows first: a secret chat names a user who may come after it
    let rows: Vec<(&Invoked, Value, Value, bool)> = pages
        .rows()
        .filter_map(|(inv, t, row)| {
            let peer = decoded(t, row, "peer")?;
            let obj = decoded(t, row, "value").map(|v| v["_"].clone())?;
            Some((inv, peer, obj, t.get(row, "contact") == Some("1")))
        })
        .collect();
    for (_, peer, obj, _) in &rows {
        let name = display_name(obj);
        if let (Some(q), Some(n)) = (peer["qualified"].as_str(), &name) {
            peers.names.insert(q.to_string(), n.clone());
        }
        if obj["@class"] == "TelegramSecretChat"
            && let (Some(raw), Some(other)) =
                (peer["peer"].as_i64(), obj["r.peer"]["qualified"].as_str())
        {
            peers.secret.insert(raw, other.to_string());
        }
    }
    for (inv, peer, obj, in_contacts) in rows {
        let class = obj["@class"].as_str().unwrap_or("an unknown class");
        let q = peer["qualified"].as_str();
        let kind = peer["kind"].as_str().unwrap_or("other");
        let name = display_name(&obj);
        let label = name
            .clone()
            .or(q.map(str::to_string))
            .unwrap_or_else(|| format!("peer {}", peer["peer"]));
        let mut d = Draft::new("contacts", format!("Telegram {kind} {label}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, q, inv);
        let field = |k: &str| text_of(&obj[k]);
        for (k, t) in [
            ("fn", FactType::Name),
            ("ln", FactType::Name),
            ("t", FactType::Name),
            ("un", FactType::Account),
            ("p", FactType::Phone),
        ] {
            d.fact(t, field(k).map(|(_, c)| c).as_deref(), inv);
        }
        let other = obj["r.peer"]["qualified"].as_str();
        d.fact(FactType::Account, other, inv);
        let created = obj["c"].as_i64().filter(|_| kind == "secret_chat");
        let created_s = created.map(|c| c.to_string());
        d.time(
            created_s.as_deref(),
            unix_seconds(created_s.as_deref()),
            "Telegram secret chat created",
            inv,
        );
        d.interpretation = format!(
            "t2 peer {} of {file}: a {kind} ({class}) the account knows{}{}{}{}{}.",
            peer["peer"],
            q.map(|q| format!(", {q}")).unwrap_or_default(),
            field("un")
                .map(|(u, _)| format!(", user name @{u}"))
                .unwrap_or_default(),
            field("p")
                .map(|(p, _)| format!(", phone {p}"))
                .unwrap_or_default(),
            other
                .map(|o| format!(
                    ", a secret chat with {}{}",
                    peers
                        .names
                        .get(o)
                        .map(|n| format!("{n} "))
                        .unwrap_or_default(),
                    o
                ))
                .unwrap_or_default(),
            if in_contacts {
                "; in the account's contact list (t16)"
            } else if kind == "user" {
                "; not in the contact list (a peer Telegram cached)"
            } else {
                ""
            },
        );
        run.record(d)?;
        if kind == "user"
            && let Some(q) = q
        {
            let first = field("fn").map(|(_, c)| c);
            let last = field("ln").map(|(_, c)| c);
            let user = field("un").map(|(u, _)| u);
            let phone = field("p").map(|(p, _)| p);
            run.observe_person(
                q,
                &label,
                inv,
                &|what| format!("{what} of the Telegram user {label} (t2 peer of {file})."),
                &[
                    (IdType::AccountId, Some(q), "The Telegram user id"),
                    (IdType::DisplayName, first.as_deref(), "The first name"),
                    (IdType::DisplayName, last.as_deref(), "The last name"),
                    (IdType::TelegramUsername, user.as_deref(), "The user name"),
                    (IdType::Phone, phone.as_deref(), "The phone number"),
                ],
            )?;
        }
    }
    Ok(())
}

/// A peer's name: a user's first and last name, a group's or channel's title.
fn display_name(obj: &Value) -> Option<String> {
    let s = |k: &str| obj[k].as_str().map(str::trim).filter(|s| !s.is_empty());
    match (s("fn"), s("ln"), s("t")) {
        (Some(f), Some(l), _) => Some(format!("{f} {l}")),
        (Some(n), None, _) | (None, Some(n), _) | (None, None, Some(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// `t7` in pages by its binary key (its rows have no integer key to page by).
fn message_pages(
    run: &Run<'_, '_>,
    path: &str,
    extra: &Map<String, Value>,
) -> Result<Option<Paged>, RuntimeError> {
    let a = args(extra, json!({"idx": "message_index", "msg": "message"}));
    let mut pages: Vec<(Invoked, Table)> = Vec::new();
    let mut got = 0u64;
    let mut after: Option<String> = None;
    loop {
        let filter = after
            .as_ref()
            .map(|h| format!(" WHERE key > x'{h}'"))
            .unwrap_or_default();
        let sql =
            format!("SELECT hex(key) AS k, key AS idx, value AS msg FROM t7{filter} ORDER BY key");
        let limit = PAGE.min(ROW_CAP - got);
        let Some((inv, t)) = crate::calls::query_args(run.ctx, path, &sql, limit, &a)? else {
            return Ok((!pages.is_empty()).then_some(Paged {
                pages,
                truncated: false,
            }));
        };
        got += t.rows.len() as u64;
        let more = t.truncated;
        let last = t
            .rows
            .last()
            .and_then(|r| r.first().cloned().flatten())
            .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
        pages.push((inv, t));
        match (more, last) {
            (true, Some(last)) if got < ROW_CAP => after = Some(last),
            (more, _) => {
                return Ok(Some(Paged {
                    pages,
                    truncated: more,
                }));
            }
        }
    }
}

/// `t7`: every stored message.
fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
    peers: &Peers,
) -> Result<(), RuntimeError> {
    let ctx = run.ctx;
    let Some(pages) = message_pages(run, path, extra)? else {
        return Ok(());
    };
    note_pages_cap(ctx, path, &pages, "Telegram messages")?;
    let file = super::file_name(path).to_string();
    let named = |p: &Value| -> String {
        match p["qualified"].as_str() {
            Some(q) => match peers.names.get(q) {
                Some(n) => format!("{n} ({q})"),
                None => q.to_string(),
            },
            None => match p["peer"].as_i64().and_then(|r| peers.secret.get(&r)) {
                Some(o) => format!(
                    "a secret chat with {}",
                    peers
                        .names
                        .get(o)
                        .map(|n| format!("{n} ({o})"))
                        .unwrap_or(o.clone())
                ),
                None => format!("{} {}", p["kind"].as_str().unwrap_or("peer"), p["id"]),
            },
        }
    };
    for (inv, t, row) in pages.rows() {
        let (Some(idx), Some(msg)) = (decoded(t, row, "idx"), decoded(t, row, "msg")) else {
            ctx.unparsed(
                path,
                &format!(
                    "could not parse the Telegram message of t7 key x'{}' because its key or value is not a Postbox message (see the call's x'…' cell)",
                    t.get(row, "k").unwrap_or("?")
                ),
                Some(&inv.record.invocation_id),
            )?;
            continue;
        };
        let chat = &idx["peer"];
        let chat_kind = chat["kind"].as_str().unwrap_or("other");
        let incoming = msg["flag_names"]
            .as_array()
            .is_some_and(|f| f.iter().any(|n| n == "incoming"));
        let author = &msg["author"];
        // the other user of a one-to-one or secret chat
        let other = match chat_kind {
            "user" => chat["qualified"].as_str().map(str::to_string),
            "secret_chat" => chat["peer"]
                .as_i64()
                .and_then(|r| peers.secret.get(&r).cloned()),
            _ => None,
        };
        let id = &idx["id"];
        let where_ = match chat_kind {
            "user" | "secret_chat" => named(chat),
            k => format!("the {k} {}", named(chat)),
        };
        let title = match (incoming, chat_kind) {
            (false, "user" | "secret_chat") => format!("Telegram message {id} sent to {where_}"),
            (false, _) => format!("Telegram message {id} sent in {where_}"),
            (true, "user" | "secret_chat") => {
                format!("Telegram message {id} received from {where_}")
            }
            (true, _) => format!(
                "Telegram message {id} received in {where_}{}",
                author["qualified"]
                    .as_str()
                    .map(|_| format!(" from {}", named(author)))
                    .unwrap_or_default()
            ),
        };
        let mut d = Draft::new("messages", title);
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, chat["qualified"].as_str(), inv);
        d.fact(FactType::Account, author["qualified"].as_str(), inv);
        let text = text_of(&msg["text"]);
        d.fact(FactType::Text, text.as_ref().map(|(_, c)| c.as_str()), inv);
        let ts = idx["timestamp"].as_i64().map(|v| v.to_string());
        d.time(
            ts.as_deref(),
            unix_seconds(ts.as_deref()),
            if incoming {
                "Message received"
            } else {
                "Message sent"
            },
            inv,
        );
        let fwd = &msg["forward"];
        let mut notes: Vec<String> = Vec::new();
        if fwd.is_object() {
            d.fact(FactType::Account, fwd["author"]["qualified"].as_str(), inv);
            let date = fwd["date"].as_i64().map(|v| v.to_string());
            d.time(
                date.as_deref(),
                unix_seconds(date.as_deref()),
                "Forwarded message first sent",
                inv,
            );
            notes.push(format!(
                "forwarded from {}{}{}",
                named(&fwd["author"]),
                if fwd["source"].is_object() {
                    format!(" via {}", named(&fwd["source"]))
                } else {
                    String::new()
                },
                text_of(&fwd["signature"])
                    .map(|(s, _)| format!(", signed {s}"))
                    .unwrap_or_default()
            ));
        }
        if let Some(th) = msg["thread_id"].as_i64() {
            notes.push(format!("in thread {th}"));
        }
        for m in msg["embedded_media"].as_array().into_iter().flatten() {
            notes.push(medium(&mut d, m, inv, &named));
        }
        if let Some(n) = msg["referenced_media"]
            .as_array()
            .map(Vec::len)
            .filter(|n| *n > 0)
        {
            notes.push(format!("{n} medium/media kept apart (referenced)"));
        }
        for a in msg["attributes"].as_array().into_iter().flatten() {
            if a["@class"] == "ReplyMessageAttribute" {
                notes.push(format!("a reply to message {}", a["i"]));
            }
        }
        d.interpretation = format!(
            "t7 message {id} (namespace {}) of {file}: a message {} {}{}; flags {} ({}), tags {} ({}){}; the key's timestamp is Unix seconds.",
            idx["namespace"],
            if incoming {
                "received by the account in"
            } else {
                "sent by the account in"
            },
            where_,
            author["qualified"]
                .as_str()
                .map(|_| format!(", written by {}", named(author)))
                .unwrap_or_default(),
            msg["flags"],
            names_of(&msg["flag_names"]),
            msg["tags"],
            names_of(&msg["tag_names"]),
            if notes.is_empty() {
                String::new()
            } else {
                format!("; {}", notes.join("; "))
            },
        );
        run.record(d)?;
        if !incoming && let Some(me) = author["qualified"].as_str() {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::AccountId,
                me,
                inv,
                format!(
                    "{me} wrote a message the device sent (t7 message {id} of {file}, without the incoming flag): the account of the Telegram app on the device."
                ),
            )?;
        }
        if let Some((text, _)) = &text {
            let party = other.map(|o| {
                let label = peers.names.get(&o).cloned().unwrap_or(o.clone());
                (o, label)
            });
            run.message_claims(
                inv,
                text,
                &format!("Telegram message {id} ({file})"),
                !incoming,
                party,
                "flags without incoming",
                "flags with incoming",
            )?;
        }
    }
    Ok(())
}

/// Flag or tag names as a list in words.
fn names_of(v: &Value) -> String {
    let n: Vec<&str> = v
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if n.is_empty() {
        "none".into()
    } else {
        n.join(", ")
    }
}

/// One embedded medium's facts on `d`, and its description.
fn medium(d: &mut Draft, m: &Value, inv: &Invoked, named: &dyn Fn(&Value) -> String) -> String {
    match m["@class"].as_str().unwrap_or("") {
        "TelegramMediaFile" => {
            let name = text_of(&m["r"]["fn"]);
            let mime = text_of(&m["mt"]);
            d.fact(FactType::Name, name.as_ref().map(|(_, c)| c.as_str()), inv);
            d.fact(FactType::Text, mime.as_ref().map(|(_, c)| c.as_str()), inv);
            format!(
                "a file {} ({}, {} bytes; stored as telegram-cloud-document-{}-{} in postbox/media when downloaded)",
                name.map(|(n, _)| n)
                    .unwrap_or_else(|| "without a name".into()),
                mime.map(|(n, _)| n).unwrap_or_else(|| "no type".into()),
                m["s"],
                m["r"]["d"],
                m["r"]["f"],
            )
        }
        "TelegramMediaImage" => {
            let reps = m["r"].as_array().cloned().unwrap_or_default();
            let largest = reps
                .iter()
                .max_by_key(|r| r["dx"].as_i64().unwrap_or(0) * r["dy"].as_i64().unwrap_or(0));
            format!(
                "a photo in {} size(s){}",
                reps.len(),
                largest
                    .map(|r| format!(
                        ", the largest {}×{} (stored as telegram-cloud-photo-size-{}-{}-{} in postbox/media when downloaded)",
                        r["dx"], r["dy"], r["r"]["d"], r["r"]["i"],
                        r["r"]["s"].as_str().unwrap_or("?")
                    ))
                    .unwrap_or_default()
            )
        }
        "TelegramMediaMap" => {
            let (la, lo) = (m["la"].to_string(), m["lo"].to_string());
            if m["la"].is_number() && m["lo"].is_number() {
                d.fact(FactType::Text, Some(&la), inv);
                d.fact(FactType::Text, Some(&lo), inv);
            }
            let venue = text_of(&m["venue"]["t"]).map(|(v, _)| format!(", venue {v}"));
            format!(
                "a location, latitude {la}, longitude {lo}{}{}",
                venue.unwrap_or_default(),
                if m.get("lp").is_some() || m.get("bt").is_some() {
                    " (a live location)"
                } else {
                    ""
                }
            )
        }
        "TelegramMediaWebpage" => {
            let url = text_of(&m["u"]).or_else(|| text_of(&m["pendingUrl"]));
            d.fact(FactType::Url, url.as_ref().map(|(_, c)| c.as_str()), inv);
            format!(
                "a web page {}",
                url.map(|(u, _)| u)
                    .unwrap_or_else(|| "without an address".into())
            )
        }
        "TelegramMediaAction" => {
            let title = text_of(&m["title"]);
            d.fact(FactType::Text, title.as_ref().map(|(_, c)| c.as_str()), inv);
            let members: Vec<String> = m["peerIds.peer"]
                .as_array()
                .into_iter()
                .flatten()
                .map(named)
                .collect();
            format!(
                "a service message, action {} ({}){}{}{}",
                m["_rawValue"],
                action_name(m["_rawValue"].as_i64().unwrap_or(-1)),
                title
                    .map(|(t, _)| format!(", title {t}"))
                    .unwrap_or_default(),
                if members.is_empty() {
                    String::new()
                } else {
                    format!(", members {}", members.join(", "))
                },
                m["d"]
                    .as_i64()
                    .filter(|_| m["_rawValue"] == 14)
                    .map(|s| format!(", {s} seconds"))
                    .unwrap_or_default(),
            )
        }
        "TelegramMediaContact" => {
            let phone = text_of(&m["pn"]);
            d.fact(
                FactType::Phone,
                phone.as_ref().map(|(_, c)| c.as_str()),
                inv,
            );
            format!(
                "a shared contact {} {}",
                text_of(&m["fn"]).map(|(v, _)| v).unwrap_or_default(),
                phone.map(|(v, _)| v).unwrap_or_default()
            )
        }
        c if !c.is_empty() => format!("a medium of class {c}"),
        _ => format!("a medium of type hash {}", m["@type"]),
    }
}

/// Telegram's `TelegramMediaActionType` by its stored raw value (the common ones).
fn action_name(v: i64) -> &'static str {
    match v {
        1 => "group created",
        2 => "members added",
        3 => "members removed",
        4 => "photo updated",
        5 => "title updated",
        6 => "message pinned",
        7 => "joined by link",
        8 => "channel migrated from a group",
        9 => "group migrated to a channel",
        10 => "history cleared",
        11 => "screenshot taken",
        12 => "auto-delete timer changed",
        14 => "phone call",
        15 => "payment sent",
        16 => "custom text",
        19 => "peer joined",
        22 => "group call",
        _ => "another action",
    }
}
