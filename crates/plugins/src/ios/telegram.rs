//! Telegram for iOS (`ph.telegra.Telegraph`): each account's Postbox database,
//! `telegram-data/account-<id>/postbox/db/db_sqlite` in the app group — a key-value store over
//! SQLite whose records `sqlite_query`'s `postbox` option decodes ([`masf_tools::postbox`]).
//! Telegram keeps it encrypted with SQLCipher (its first 32 bytes in the clear, a raw key and
//! salt); on iOS the key and salt are `telegram-data/.tempkey`, 48 bytes in the clear
//! (Telegram-iOS's `deviceSpecificEncryptionParameters`), which an extraction of the app group
//! holds; Telegram for macOS keeps them in `.tempkeyEncrypted` under the app's local passcode.
//! The `cipher` profile `telegram_postbox` opens it with either (the tool reads the key, never
//! printed; `.tempkeyEncrypted` under the default passcode); a copy an extraction tool already
//! decrypted is read as is; without a key file that opens it the database is named and noted
//! encrypted. Read, every field of iLEAPP's `telegramMessages` and the peers of its
//! `telegramContacts`, and the chat list and read states iLEAPP does not read:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `t0` key 2 (the account state) | one `accounts` | the signed-in user (`peerId`), test environment, master datacenter, the update state's date |
//! | `t2` (peers) with `t16` (contacts) | one `contacts` per user, group, channel or secret chat | the qualified id, first and last name, user name, phone, title, participants, a secret chat's other user and creation time, whether the user is in the contact list |
//! | `t7` (message history) | one `messages` per message | time (the key's Unix seconds), chat (named), message id and namespace, direction (the `incoming` flag), author (named), text, forward (original author and date, source, signature), thread, flags and tags, each medium (a file's name, type and size; a photo's sizes; a location; a web page's address; a contact; a service action and its title or members) with its stored file in `postbox/media/` (`telegram-cloud-document-…`, `telegram-cloud-photo-size-…`, a `_partial` download said so) cited from the folder's listing, reply |
//! | `t54` (device contact import) | one `contacts` per number | the address book's number (the key after its 0 byte) and name, import state, how many users saved it (the server's count), the user the server resolved it to |
//! | `t20` (peer presence) | one `contacts` per user | the status Telegram last received (online until, recently, within a week or month, the hidden flag) and the last activity the client recorded |
//! | `t18` (cached peer data) | one `contacts` per profile opened | the about text, blocked, groups in common |
//! | `t14` (read states) | one `messages` per chat | per message namespace: how far the account's user read the incoming messages and the other side the outgoing ones (message ids, or message indexes in a secret chat), the unread count, marked unread; and on each `t7` message its read receipt (read or not by the user, or by the other side as the device last knew) |
//! | `t9` (chat list) | one `messages` per chat listed | the main list or the archive, the pinning slot, the top message ordering it (id, namespace, Unix time; the stored top message where it differs); holes of the list left out |
//!
//! Identities: a user is `telegram:<user id>` (the id Android's Telegram reader writes; the
//! decoder computes it from Postbox's peer id), with name, user name and phone, and the phone
//! number of the address book the server resolved to it; a group or channel is
//! `telegram-chat:<id>`. The account's own user (`t0`'s `peerId`, and the author of
//! the messages sent from the device) is the device's user (`owner`). Wallet addresses and
//! contact claims in a message are claims by direction, the other user of a one-to-one chat
//! named; so are those of a cached profile's about text, by its user. Tables are read in pages
//! by their key, whatever its type (`quote(key)`, [`Run::paged_args`]), up to
//! [`crate::calls::ROW_CAP`] rows each.
//!
//! Not read: `accounts-metadata/atomic-state` (the account roster; it also keeps each account's
//! MTProto auth key and, in older releases, the app passcode itself, which no tool here may
//! print).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;
use serde_json::{Map, Value, json};

use super::signal::{KeySource, keyed_store_from};
use super::{Draft, Run};
use crate::calls::note_pages_cap;
use crate::drafts::unix_seconds;
use crate::outputs::{Table, in_json_cell};

/// Names of the peers by qualified id (or `peer <raw>` for one without), and a secret chat's
/// other user by its raw peer id.
#[derive(Default)]
struct Peers {
    names: HashMap<String, String>,
    secret: HashMap<i64, String>,
}

impl Peers {
    /// A rendered peer id (`postbox`'s `{peer, kind, id, qualified}`) in words: its name and
    /// qualified id, a secret chat's other user, or its kind and id.
    fn named(&self, p: &Value) -> String {
        match p["qualified"].as_str() {
            Some(q) => match self.names.get(q) {
                Some(n) => format!("{n} ({q})"),
                None => q.to_string(),
            },
            None => match p["peer"].as_i64().and_then(|r| self.secret.get(&r)) {
                Some(o) => format!(
                    "a secret chat with {}",
                    self.names
                        .get(o)
                        .map(|n| format!("{n} ({o})"))
                        .unwrap_or(o.clone())
                ),
                None => format!("{} {}", p["kind"].as_str().unwrap_or("peer"), p["id"]),
            },
        }
    }
}

/// Triage of every Postbox `db_sqlite` under an `account-<id>/postbox/db/` folder.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let mut keys = Vec::new();
    for glob in [".tempkey", ".tempkeyEncrypted"] {
        keys.extend(run.find(glob)?.map(|(_, p)| p).unwrap_or_default());
    }
    run.each("db_sqlite", |find, path| {
        let Some((base, rest)) = path.rsplit_once("/account-") else {
            return Ok(());
        };
        if !rest.ends_with("/postbox/db/db_sqlite") {
            return Ok(());
        }
        let files: Vec<String> = [".tempkey", ".tempkeyEncrypted"]
            .iter()
            .map(|n| format!("{base}/{n}"))
            .filter(|f| keys.contains(f))
            .collect();
        keyed_store_from(
            run,
            find,
            path,
            "Telegram",
            "telegram_postbox",
            &KeySource::Files {
                files,
                what: format!(
                    "Telegram's key file {base}/.tempkey (on macOS .tempkeyEncrypted, under the app's local passcode)"
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
    let reads = if kv("t14") {
        read_states(run, find, path, extra, &peers)?
    } else {
        HashMap::new()
    };
    if kv("t7") {
        messages(run, find, path, extra, &peers, &reads)?;
    }
    if kv("t9") {
        chat_list(run, find, path, extra, &peers)?;
    }
    if kv("t54") {
        device_contacts(run, find, path, extra, &peers)?;
    }
    if kv("t20") {
        presence(run, find, path, extra, &peers)?;
    }
    if kv("t18") {
        cached_data(run, find, path, extra, &peers)?;
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
        "(SELECT 1 FROM t16 c WHERE c.key = t2.key)"
    } else {
        "NULL"
    };
    let a = args(extra, json!({"peer": "peer_id", "value": "object"}));
    let cols = format!("key AS peer, {contact} AS contact, value");
    let Some(pages) = run.paged_args(
        path,
        &format!("SELECT quote(key) AS k, {cols} FROM t2"),
        "key",
        &a,
    )?
    else {
        return Ok(());
    };
    note_pages_cap(ctx, path, &pages, "Telegram peers")?;
    let file = super::file_name(path).to_string();
    // the rows first: a secret chat names a user who may come after it
    let rows: Vec<(&Invoked, Value, Value, bool)> = pages
        .rows()
        .filter_map(|(inv, t, row)| {
            let peer = decoded(t, row, "peer")?;
            let obj = decoded(t, row, "value").map(root)?;
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

/// The root object of a decoded key-value stream (`{"_": object}`), or the stream itself.
fn root(v: Value) -> Value {
    match v.get("_") {
        Some(o) if o.is_object() => o.clone(),
        _ => v,
    }
}

/// `t7`: every stored message.
fn messages(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
    peers: &Peers,
    reads: &HashMap<i64, Vec<Value>>,
) -> Result<(), RuntimeError> {
    let ctx = run.ctx;
    let a = args(extra, json!({"idx": "message_index", "msg": "message"}));
    let Some(pages) = run.paged_args(
        path,
        "SELECT quote(key) AS k, key AS idx, value AS msg FROM t7",
        "key",
        &a,
    )?
    else {
        return Ok(());
    };
    note_pages_cap(ctx, path, &pages, "Telegram messages")?;
    let media = MediaDir::list(run, path)?;
    let file = super::file_name(path).to_string();
    let named = |p: &Value| peers.named(p);
    for (inv, t, row) in pages.rows() {
        let (Some(idx), Some(msg)) = (decoded(t, row, "idx"), decoded(t, row, "msg")) else {
            ctx.unparsed(
                path,
                &format!(
                    "could not parse the Telegram message of t7 key {} because its key or value is not a Postbox message (see the call's x'…' cell)",
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
            notes.push(medium(&mut d, m, inv, &named, &media));
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
        if let Some(read) = read_receipt(reads, &idx, incoming) {
            notes.push(read);
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

/// Whether a message was read, by the chat's read state (`t14`) for its namespace: an incoming
/// message by the account's user, an outgoing one by the other side (as far as the device last
/// knew: the server's read receipts); `None` without a state for the chat.
fn read_receipt(reads: &HashMap<i64, Vec<Value>>, idx: &Value, incoming: bool) -> Option<String> {
    let states = reads.get(&idx["peer"]["peer"].as_i64()?)?;
    let st = states.iter().find(|s| s["namespace"] == idx["namespace"])?;
    let (id, ts) = (idx["id"].as_i64()?, idx["timestamp"].as_i64()?);
    let side = if incoming {
        "max_incoming_read"
    } else {
        "max_outgoing_read"
    };
    // id-based states compare ids; index-based ones (secret chats) compare (timestamp, id)
    let (read, bound) = match st[&format!("{side}_id")].as_i64() {
        Some(max) => (id <= max, format!("id {max}")),
        None => {
            let max = &st[side];
            let (mts, mid) = (max["timestamp"].as_i64()?, max["id"].as_i64()?);
            (
                (ts, id) <= (mts, mid),
                format!("the message of {mts} (id {mid})"),
            )
        }
    };
    Some(match (incoming, read) {
        (true, true) => {
            format!("read by the account's user (t14: incoming messages read up to {bound})")
        }
        (true, false) => format!(
            "not read by the account's user when the store was last written (t14: incoming messages read up to {bound})"
        ),
        (false, true) => format!(
            "read by the other side, as the device last knew (t14: outgoing messages read up to {bound})"
        ),
        (false, false) => format!(
            "not read by the other side as far as the device knew (t14: outgoing messages read up to {bound})"
        ),
    })
}

/// `t14` (read states): per chat, how far the account's user read the incoming messages and the
/// other side the outgoing ones, and the unread count; one phenomenon per chat, and each chat's
/// states by raw peer id for the messages' read receipts.
fn read_states(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
    peers: &Peers,
) -> Result<HashMap<i64, Vec<Value>>, RuntimeError> {
    let file = super::file_name(path).to_string();
    let mut reads = HashMap::new();
    for (inv, peer, rec) in peer_records(
        run,
        path,
        extra,
        "t14",
        "read_state",
        "Telegram read states",
    )? {
        let inv = &inv;
        let who = peers.named(&peer);
        let states: Vec<Value> = rec["namespaces"].as_array().cloned().unwrap_or_default();
        let mut d = Draft::new(
            "messages",
            format!("Telegram read state of the chat with {who}"),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, peer["qualified"].as_str(), inv);
        let mut said = Vec::new();
        for st in &states {
            let unread = st["unread_count"].as_i64().unwrap_or(0);
            let marked = st["marked_unread"].as_bool().unwrap_or(false);
            let (incoming, outgoing) = match st["kind"].as_str() {
                Some("id_based") => (
                    format!("id {}", st["max_incoming_read_id"]),
                    format!("id {}", st["max_outgoing_read_id"]),
                ),
                _ => {
                    for side in ["max_incoming_read", "max_outgoing_read"] {
                        let t = st[side]["timestamp"]
                            .as_i64()
                            .filter(|t| *t > 0)
                            .map(|t| t.to_string());
                        d.time(
                            t.as_deref(),
                            unix_seconds(t.as_deref()),
                            if side == "max_incoming_read" {
                                "Latest incoming message the account's user read"
                            } else {
                                "Latest outgoing message the other side read"
                            },
                            inv,
                        );
                    }
                    (
                        format!(
                            "the message of {} (id {})",
                            st["max_incoming_read"]["timestamp"], st["max_incoming_read"]["id"]
                        ),
                        format!(
                            "the message of {} (id {})",
                            st["max_outgoing_read"]["timestamp"], st["max_outgoing_read"]["id"]
                        ),
                    )
                }
            };
            d.fact(
                FactType::Count,
                st["unread_count"]
                    .as_i64()
                    .map(|v| v.to_string())
                    .as_deref(),
                inv,
            );
            said.push(format!(
                "namespace {}: the account's user read the incoming messages up to {incoming}, the other side the outgoing ones up to {outgoing}; {unread} unread{}",
                st["namespace"],
                if marked { ", marked unread by the user" } else { "" },
            ));
        }
        d.interpretation = format!(
            "t14 (read states) of {file}: the chat with {who}: {}; outgoing read states are the read receipts the server last gave the device.",
            if said.is_empty() {
                "no state".to_string()
            } else {
                said.join("; ")
            },
        );
        run.record(d)?;
        if let Some(raw) = peer["peer"].as_i64() {
            reads.insert(raw, states);
        }
    }
    Ok(reads)
}

/// `t9` (the chat list): each chat's place — the main list or the archive, pinned or not — and
/// the time of the top message that orders it; holes (parts of the list not loaded) are not
/// chats.
fn chat_list(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
    peers: &Peers,
) -> Result<(), RuntimeError> {
    let file = super::file_name(path).to_string();
    let a = args(
        extra,
        json!({"chat": "chat_list_key", "top": "chat_list_value"}),
    );
    let Some(pages) = run.paged_args(
        path,
        "SELECT quote(key) AS k, key AS chat, value AS top FROM t9",
        "key",
        &a,
    )?
    else {
        return Ok(());
    };
    note_pages_cap(run.ctx, path, &pages, "Telegram chat list entries")?;
    for (inv, t, row) in pages.rows() {
        let Some(k) = decoded(t, row, "chat").filter(|k| k["entry"] == "chat") else {
            continue;
        };
        let peer = &k["peer"];
        let who = peers.named(peer);
        let list = k["list"].as_str().unwrap_or("?");
        let pinned = k["pinned"].as_i64();
        let mut d = Draft::new(
            "messages",
            format!(
                "Telegram chat list: {who}{}{}",
                if list == "main" {
                    String::new()
                } else {
                    format!(" ({list})")
                },
                if pinned.is_some() { " (pinned)" } else { "" },
            ),
        );
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, peer["qualified"].as_str(), inv);
        let ts = k["timestamp"].as_i64().map(|v| v.to_string());
        d.time(
            ts.as_deref(),
            unix_seconds(ts.as_deref()),
            "Chat's top message (its place in the chat list)",
            inv,
        );
        let top = decoded(t, row, "top");
        d.interpretation = format!(
            "t9 (chat list) of {file}: {who} is in the {} list{}, ordered by its top message (id {}, namespace {}) at {} (Unix seconds){}.",
            match list {
                "main" => "main chat",
                "archive" => "archived chats' (the user moved it to the archive)",
                other => other,
            },
            pinned
                .map(|p| format!(", pinned in slot {p}"))
                .unwrap_or_default(),
            k["id"],
            k["namespace"],
            k["timestamp"],
            top.as_ref()
                .and_then(|v| v.get("top_message"))
                .filter(|m| m["id"] != k["id"] || m["timestamp"] != k["timestamp"])
                .map(|m| format!(
                    "; the stored top message is id {} at {}",
                    m["id"], m["timestamp"]
                ))
                .unwrap_or_default(),
        );
        run.record(d)?;
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

/// The account's `postbox/media/` folder as listed: the listing and the files it holds.
struct MediaDir {
    dir: String,
    listing: Option<(Invoked, BTreeSet<String>)>,
}

impl MediaDir {
    /// Lists `postbox/media/` beside the database at `path` (absent: nothing listed).
    fn list(run: &Run<'_, '_>, path: &str) -> Result<MediaDir, RuntimeError> {
        let dir = match path.strip_suffix("/db/db_sqlite") {
            Some(postbox) => format!("{postbox}/media"),
            None => {
                return Ok(MediaDir {
                    dir: String::new(),
                    listing: None,
                });
            }
        };
        let listed = run.ctx.call("list_dir", json!({ "path": dir }))?;
        let listing = crate::calls::succeeded(&listed).then(|| {
            let files = crate::outputs::found_paths(&listed.output.text)
                .into_iter()
                .collect();
            (listed, files)
        });
        Ok(MediaDir { dir, listing })
    }

    /// The stored file of a medium named `name` (Telegram's resource id) on `d`, cited from the
    /// listing, with its description: downloaded, only in part (`_partial`), or not on the device.
    fn link(&self, d: &mut Draft, name: &str) -> String {
        let Some((listed, files)) = &self.listing else {
            return format!(
                "stored as {name} in postbox/media when downloaded (the folder was not listed)"
            );
        };
        let whole = format!("{}/{name}", self.dir);
        let partial = format!("{whole}_partial");
        if files.contains(&whole) {
            d.fact(FactType::Path, Some(&whole), listed);
            format!("downloaded: {whole}")
        } else if files.contains(&partial) {
            d.fact(FactType::Path, Some(&partial), listed);
            format!("only partly downloaded: {partial}")
        } else {
            format!("not on the device ({name} is not in postbox/media)")
        }
    }
}

/// One embedded medium's facts on `d`, and its description.
fn medium(
    d: &mut Draft,
    m: &Value,
    inv: &Invoked,
    named: &dyn Fn(&Value) -> String,
    media: &MediaDir,
) -> String {
    match m["@class"].as_str().unwrap_or("") {
        "TelegramMediaFile" => {
            let name = text_of(&m["r"]["fn"]);
            let mime = text_of(&m["mt"]);
            d.fact(FactType::Name, name.as_ref().map(|(_, c)| c.as_str()), inv);
            d.fact(FactType::Text, mime.as_ref().map(|(_, c)| c.as_str()), inv);
            let stored = media.link(
                d,
                &format!("telegram-cloud-document-{}-{}", m["r"]["d"], m["r"]["f"]),
            );
            format!(
                "a file {} ({}, {} bytes; {stored})",
                name.map(|(n, _)| n)
                    .unwrap_or_else(|| "without a name".into()),
                mime.map(|(n, _)| n).unwrap_or_else(|| "no type".into()),
                m["s"],
            )
        }
        "TelegramMediaImage" => {
            let reps = m["r"].as_array().cloned().unwrap_or_default();
            let largest = reps
                .iter()
                .max_by_key(|r| r["dx"].as_i64().unwrap_or(0) * r["dy"].as_i64().unwrap_or(0));
            // each size the device downloaded is its own file
            let stored: Vec<String> = reps
                .iter()
                .filter(|r| r["r"]["@class"] == "CloudPhotoSizeMediaResource")
                .map(|r| {
                    let name = format!(
                        "telegram-cloud-photo-size-{}-{}-{}",
                        r["r"]["d"],
                        r["r"]["i"],
                        r["r"]["s"].as_str().unwrap_or("?")
                    );
                    format!("{}×{} {}", r["dx"], r["dy"], media.link(d, &name))
                })
                .collect();
            format!(
                "a photo in {} size(s){}{}",
                reps.len(),
                largest
                    .map(|r| format!(", the largest {}×{}", r["dx"], r["dy"]))
                    .unwrap_or_default(),
                if stored.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", stored.join("; "))
                }
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

/// `t54` (device contact import info): the numbers of the device's address book that Telegram
/// imported, with the name the address book gives and the user the server resolved each to.
fn device_contacts(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
    peers: &Peers,
) -> Result<(), RuntimeError> {
    let a = args(extra, json!({"value": "object"}));
    // phone-number entries: a 0 byte, then the number
    let Some(pages) = run.paged_args(
        path,
        "SELECT quote(key) AS k, CAST(substr(key, 2) AS TEXT) AS phone, value FROM (SELECT key, value FROM t54 WHERE substr(key, 1, 1) = x'00')",
        "key",
        &a,
    )?
    else {
        return Ok(());
    };
    note_pages_cap(run.ctx, path, &pages, "Telegram device contacts")?;
    let file = super::file_name(path).to_string();
    for (inv, t, row) in pages.rows() {
        let Some(phone) = crate::outputs::raw(t, row, "phone").filter(|p| !p.trim().is_empty())
        else {
            continue;
        };
        let rec = decoded(t, row, "value").map(root).unwrap_or(Value::Null);
        let d = &rec["d"];
        let first = text_of(&d["f"]);
        let last = text_of(&d["l"]);
        let name = [&first, &last]
            .iter()
            .filter_map(|n| n.as_ref().map(|(v, _)| v.clone()))
            .collect::<Vec<_>>()
            .join(" ");
        let user = &rec["pid.peer"];
        let q = user["qualified"].as_str();
        let state = match rec["_t"].as_i64() {
            Some(0) => "imported",
            Some(1) => "to be retried (the import had not gone through)",
            _ => "of an unknown state",
        };
        let label = if name.is_empty() {
            phone.clone()
        } else {
            format!("{name} ({phone})")
        };
        let mut dr = Draft::new("contacts", format!("Telegram device contact {label}"));
        dr.fact(FactType::Path, Some(path), find);
        dr.fact(FactType::Phone, Some(&phone), inv);
        dr.fact(FactType::Name, first.as_ref().map(|(_, c)| c.as_str()), inv);
        dr.fact(FactType::Name, last.as_ref().map(|(_, c)| c.as_str()), inv);
        dr.fact(FactType::Account, q, inv);
        dr.interpretation = format!(
            "t54 (device contact import) entry of {file}: the number {phone} of the device's address book{}, which Telegram {state}; {}{}.",
            if name.is_empty() {
                String::new()
            } else {
                format!(", named {name} there")
            },
            match rec["c"].as_i64() {
                Some(c) => format!("{c} Telegram users have it saved (the server's count)"),
                None => "no count of users who saved it".to_string(),
            },
            if q.is_some() {
                format!("; the server resolved it to the user {}", peers.named(user))
            } else {
                "; it resolved to no Telegram user".to_string()
            },
        );
        run.record(dr)?;
        if let Some(q) = q {
            let who = peers.names.get(q).cloned().unwrap_or(q.to_string());
            run.observe_person(
                q,
                &who,
                inv,
                &|what| {
                    format!(
                        "{what} of the Telegram user {who}: Telegram's server resolved the device's address-book number {phone} to this user (t54 of {file})."
                    )
                },
                &[(IdType::Phone, Some(&phone), "The phone number")],
            )?;
        }
    }
    Ok(())
}

/// The records of a Postbox table keyed by peer id (`t14`, `t18`, `t20`): each with the call
/// that read it, the rendered peer id and the root object of its value decoded as `kind`; rows
/// that do not decode are passed over. `what` names the rows in a row-cap note.
fn peer_records(
    run: &Run<'_, '_>,
    path: &str,
    extra: &Map<String, Value>,
    table: &str,
    kind: &str,
    what: &str,
) -> Result<Vec<(Invoked, Value, Value)>, RuntimeError> {
    let a = args(extra, json!({"peer": "peer_id", "value": kind}));
    let Some(pages) = run.paged_args(
        path,
        &format!("SELECT quote(key) AS k, key AS peer, value FROM {table}"),
        "key",
        &a,
    )?
    else {
        return Ok(Vec::new());
    };
    note_pages_cap(run.ctx, path, &pages, what)?;
    Ok(pages
        .rows()
        .filter_map(|(inv, t, row)| {
            let peer = decoded(t, row, "peer")?;
            let rec = decoded(t, row, "value")?;
            Some((inv.clone(), peer, root(rec)))
        })
        .collect())
}

/// `t20` (peer presence): the last-seen status Telegram last received for each user.
fn presence(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
    peers: &Peers,
) -> Result<(), RuntimeError> {
    let file = super::file_name(path).to_string();
    for (inv, peer, rec) in peer_records(run, path, extra, "t20", "object", "Telegram presences")? {
        let inv = &inv;
        let who = peers.named(&peer);
        let status = rec["v"].as_i64().unwrap_or(0);
        let hidden =
            rec["h"].as_bool().unwrap_or(false) || rec["h"].as_i64().is_some_and(|h| h != 0);
        let mut d = Draft::new("contacts", format!("Telegram last seen of {who}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, peer["qualified"].as_str(), inv);
        let until = rec["t"]
            .as_i64()
            .filter(|_| status == 1)
            .map(|v| v.to_string());
        d.time(
            until.as_deref(),
            unix_seconds(until.as_deref()),
            "Online until (Telegram's last status of the user)",
            inv,
        );
        let la = rec["la"].as_i64().filter(|v| *v > 0).map(|v| v.to_string());
        d.time(
            la.as_deref(),
            unix_seconds(la.as_deref()),
            "Last activity the client recorded for the user",
            inv,
        );
        d.interpretation = format!(
            "t20 (peer presence) of {file}: the last status Telegram's server gave for {who}: {}{}; times are Unix seconds.",
            match status {
                0 => "none".to_string(),
                1 => format!("online until {}", rec["t"]),
                2 => "last seen recently".to_string(),
                3 => "last seen within a week".to_string(),
                4 => "last seen within a month".to_string(),
                v => format!("status {v}"),
            },
            if hidden {
                " (the user hides their exact last-seen time: a privacy setting of theirs, not a measurement)"
            } else {
                ""
            },
        );
        run.record(d)?;
    }
    Ok(())
}

/// `t18` (cached peer data): the profile details Telegram cached when a profile was opened.
fn cached_data(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    extra: &Map<String, Value>,
    peers: &Peers,
) -> Result<(), RuntimeError> {
    let file = super::file_name(path).to_string();
    for (inv, peer, rec) in peer_records(
        run,
        path,
        extra,
        "t18",
        "object",
        "Telegram cached profiles",
    )? {
        let inv = &inv;
        let class = rec["@class"].as_str().unwrap_or("an unknown class");
        let who = peers.named(&peer);
        let about = text_of(&rec["a"]);
        let mut d = Draft::new("contacts", format!("Telegram profile details of {who}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Account, peer["qualified"].as_str(), inv);
        d.fact(FactType::Text, about.as_ref().map(|(_, c)| c.as_str()), inv);
        let user = class == "CachedUserData";
        d.interpretation = format!(
            "t18 (cached peer data, {class}) of {file}: the details Telegram cached for {who} when the profile was opened{}{}{}.",
            about
                .as_ref()
                .map(|(a, _)| format!("; about: {a}"))
                .unwrap_or_default(),
            match (user, rec["b"].as_i64()) {
                (true, Some(b)) if b != 0 => "; blocked by the account",
                (true, Some(_)) => "; not blocked",
                _ => "",
            },
            rec["cg"]
                .as_i64()
                .filter(|_| user)
                .map(|c| format!("; {c} groups in common"))
                .unwrap_or_default(),
        );
        run.record(d)?;
        if let Some((a, _)) = &about {
            run.message_claims(
                inv,
                a,
                &format!("the Telegram profile of {who} ({file})"),
                false,
                peer["qualified"]
                    .as_str()
                    .map(|q| (q.to_string(), who.clone())),
                "its own profile",
                "its own profile",
            )?;
        }
    }
    Ok(())
}
