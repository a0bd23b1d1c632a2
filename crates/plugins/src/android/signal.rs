//! Signal for Android (`org.thoughtcrime.securesms`): `databases/signal.db` and
//! `databases/signal-key-value.db` are SQLCipher databases keyed by the app's database secret,
//! which the Android keystore guards. An extraction tool that captured it writes it to the
//! extraction's `Secrets/secrets.json` (`"sqlite db key"` of the app's entry); with it, both
//! databases are read through `sqlite_query`'s `cipher` (profile `signal_android`: the tool
//! reads the key itself, decrypts a working copy and replays the `-wal`; the key never appears
//! in a call or an output). A `signal.db` already decrypted by another tool (a plain SQLite
//! file) is read the same way without the key. Without a key the database is named and noted
//! as encrypted ([`super::wechat::encrypted`]).
//!
//! The fields of ALEAPP's Signal artefacts (messages, calls, contacts, groups, attachments),
//! columns taken by name across releases (`e164`/`phone`, `aci`/`uuid`,
//! `system_joined_name`/`system_display_name`, `profile_joined_name`/`signal_profile_name`;
//! `message.from_recipient_id`/`to_recipient_id` or the older `recipient_id`; before 2023 the
//! `sms` and `mms` tables, the other party in `recipient_id` or `address`, `mms` times in `date`
//! and its type in `msg_box`; `attachment` or the older `part` with `mid`, `ct`, `_data`;
//! `group_membership` or the older `groups.members` list). A call record kept as a message row
//! (its base type one of the call types) is a `calls` phenomenon:
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `recipient` | one `contacts` per person or group recipient | name (profile, system, nickname), phone, username, e-mail, ACI, PNI, type, registered, blocked, hidden, about, note, last profile fetch |
//! | `message`, or `sms` and `mms` (+ `recipient`, `attachment`) | one `messages` per message | sent and received (Unix ms), thread, direction and status (the type's low five bits, as `MessageTypes` defines them), sender and recipient (name, phone, ACI), text, read, remote-deleted, view-once, quoted text, author and time, disappearing timer (ms and s), attachment count |
//! | `call` | one `calls` per call | time, call id, type (audio, video, group, ad hoc), direction, outcome (`CallTable.Event`), peer, read, deletion time |
//! | `groups` (+ `group_membership`) | one `contacts` per group | title, group id, members, created, active, MMS group, revision, last forced update |
//! | `attachment` / `part` | one `media` per attachment | its message's time, sender and direction, file name, content type, size, stored file, transfer state, voice note, GIF, dimensions, caption, upload time |
//! | `key_value` of `signal-key-value.db` | one `accounts` | the account's ACI (`account.aci`, `account.uuid` before 2022), PNI, phone number and username (secrets such as the service password not read) |
//!
//! Identities: every person recipient is `signal:<ACI>` (computed in the query) with their
//! phone number, `signal-user:` username, e-mail and name; the key-value store's account, and
//! the sender of the outgoing messages where the layout stores senders, is the device's user
//! (`owner`). Wallet addresses and accounts written in a message are claims by direction. The
//! attachment files (`app_parts/`) are encrypted with a second key and not decrypted here.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use serde_json::{Map, Value, json};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap};
use crate::drafts::{Draft, RowPhenomena, record_draft, record_rows, unix_millis};
use crate::identity::{artefact_name, observe_columns, pages_on_args, schema_on_args};
use crate::outputs::raw;

const PACKAGE: &str = "/org.thoughtcrime.securesms/databases/";

/// Whether `l` is one of Signal's databases.
pub fn is_store(l: &Located) -> bool {
    l.path.contains(PACKAGE) && matches!(l.name(), "signal.db" | "signal-key-value.db")
}

/// The extraction's key file beside `l` (same file system), when one was found.
pub(super) fn secrets<'a>(l: &Located, found: &'a [Located]) -> Option<&'a Located> {
    found
        .iter()
        .filter(|s| s.tree == l.tree && s.name() == "secrets.json")
        .min_by_key(|s| (!s.path.contains("/Secrets/"), s.path.len()))
}

/// An app's store that may be SQLCipher-encrypted with a passphrase the extraction's
/// `Secrets/secrets.json` holds: its header probed, then its schema read — as it is when it is
/// plain, through `sqlite_query`'s `cipher` with `profile` when it is encrypted and the key
/// file is there. `None` when it cannot be read: named encrypted (naming `app`) when the key
/// file is missing or did not open it, noted otherwise. Returns the extra arguments its
/// queries take (the `cipher`) with the schema.
#[allow(clippy::type_complexity)]
pub(super) fn open_with_key(
    ctx: &AgentCtx<'_>,
    l: &Located,
    found: &[Located],
    profile: &str,
    app: &str,
) -> Result<
    Option<(
        Map<String, serde_json::Value>,
        std::collections::BTreeMap<String, BTreeSet<String>>,
    )>,
    RuntimeError,
> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((inv, header)) = crate::ios::signal::sqlcipher(
        ctx,
        &name,
        crate::identity::args_on(&l.tree, json!({"path": l.path})),
    )?
    else {
        return Ok(None);
    };
    use crate::ios::signal::Header;
    let extra = match (&header, secrets(l, found)) {
        (Header::Sqlite, _) => Map::new(),
        (Header::Encrypted(_), Some(s)) => {
            let mut m = Map::new();
            m.insert(
                "cipher".into(),
                json!({"profile": profile, "secrets": s.path}),
            );
            m
        }
        _ => {
            super::wechat::encrypted_as(
                ctx,
                l,
                app,
                "its key is in the Android keystore and the extraction holds no Secrets/secrets.json",
                &inv,
                header,
            )?;
            return Ok(None);
        }
    };
    let Some(schema) = schema_on_args(ctx, &l.tree, &l.path, &extra)? else {
        // the key did not open it (noted by the failed query): named as encrypted too
        if !extra.is_empty() {
            super::wechat::encrypted_as(
                ctx,
                l,
                app,
                "the extraction's Secrets/secrets.json did not open it",
                &inv,
                header,
            )?;
        }
        return Ok(None);
    };
    Ok(Some((extra, schema)))
}

/// One Signal database.
pub fn store(ctx: &AgentCtx<'_>, l: &Located, found: &[Located]) -> Result<(), RuntimeError> {
    let name = artefact_name(&l.tree, &l.path);
    let Some((extra, schema)) = open_with_key(ctx, l, found, "signal_android", "Signal")? else {
        return Ok(());
    };
    let read = Read {
        ctx,
        l,
        name: &name,
        extra: &extra,
        schema: &schema,
    };
    if l.name() == "signal-key-value.db" {
        return read.account();
    }
    let Some(recipients) = schema.get("recipient").filter(|c| c.contains("_id")) else {
        ctx.unparsed(
            &name,
            "could not parse Signal's signal.db because it has no recipient table with _id",
            None,
        )?;
        return Ok(());
    };
    let r = Recipients { cols: recipients };
    read.recipients(&r)?;
    // one message table (2023 on), else the sms and mms tables of the releases before
    let layouts: Vec<(Layout, &BTreeSet<String>)> = if schema.contains_key("message") {
        vec!["message"]
    } else {
        vec!["sms", "mms"]
    }
    .into_iter()
    .filter_map(|t| schema.get(t).and_then(|c| Layout::of(t, c).map(|l| (l, c))))
    .collect();
    if layouts.is_empty() {
        ctx.unparsed(
            &name,
            "could not parse Signal's messages because signal.db has no message table with _id, date_sent and type (nor sms and mms tables with their times and types)",
            None,
        )?;
    }
    for (lay, cols) in &layouts {
        read.messages(&r, lay, cols)?;
    }
    if let Some(cols) = schema
        .get("call")
        .filter(|c| c.contains("call_id") && c.contains("peer"))
    {
        read.calls(&r, cols)?;
    }
    if let Some(cols) = schema.get("groups").filter(|c| c.contains("group_id")) {
        read.groups(&r, cols)?;
    }
    for (table, message) in [("attachment", "message_id"), ("part", "mid")] {
        if let Some(cols) = schema.get(table).filter(|c| c.contains(message)) {
            read.attachments(&r, table, message, cols)?;
            break;
        }
    }
    Ok(())
}

/// The recipient columns of this release, as SQL over an alias.
struct Recipients<'a> {
    cols: &'a BTreeSet<String>,
}

impl Recipients<'_> {
    /// The first of `names` this release has, over `alias`, or `NULL`.
    fn col(&self, alias: &str, names: &[&str]) -> String {
        names
            .iter()
            .find(|n| self.cols.contains(**n))
            .map(|n| format!("{alias}.{n}"))
            .unwrap_or("NULL".into())
    }

    fn phone(&self, a: &str) -> String {
        self.col(a, &["e164", "phone"])
    }

    fn aci(&self, a: &str) -> String {
        self.col(a, &["aci", "uuid"])
    }

    /// The name Signal shows: nickname, system contact name, profile name, username, number.
    fn shown(&self, a: &str) -> String {
        let parts: Vec<String> = [
            "nickname_joined_name",
            "system_joined_name",
            "system_display_name",
            "profile_joined_name",
            "signal_profile_name",
            "username",
            "e164",
            "phone",
        ]
        .iter()
        .filter(|n| self.cols.contains(**n))
        .map(|n| format!("NULLIF({a}.{n}, '')"))
        .collect();
        // COALESCE needs two arguments or more
        match parts.len() {
            0 => "NULL".into(),
            1 => parts[0].clone(),
            _ => format!("COALESCE({})", parts.join(", ")),
        }
    }

    /// `signal:<ACI>` of `a`, or NULL.
    fn qualified(&self, a: &str) -> String {
        let aci = self.aci(a);
        if aci == "NULL" {
            aci
        } else {
            format!("CASE WHEN {aci} IS NOT NULL AND {aci} != '' THEN 'signal:' || {aci} END")
        }
    }

    /// Name, phone, ACI and `signal:` id of the recipient `id_expr` as `<p>_name`, … columns.
    fn party(&self, id_expr: &str, p: &str) -> String {
        let sub = |e: String| format!("(SELECT {e} FROM recipient q WHERE q._id = {id_expr})");
        format!(
            "{} AS {p}_name, {} AS {p}_phone, {} AS {p}_aci, {} AS {p}",
            sub(self.shown("q")),
            sub(self.phone("q")),
            sub(self.aci("q")),
            sub(self.qualified("q")),
        )
    }
}

/// The base types (`MessageTypes`, the type's low five bits) of a message the device received:
/// the other party stored with it is its sender.
const INCOMING: &str = "1, 3, 8, 10, 20";

/// The message type's base (`MessageTypes.BASE_TYPE_MASK`) of `kind` as a direction.
fn direction(kind: &str) -> String {
    format!(
        "CASE WHEN ({kind} & 31) IN ({INCOMING}) THEN 'incoming' WHEN ({kind} & 31) IN (2, 11, 21, 22, 23, 24, 25, 26) THEN 'outgoing' WHEN ({kind} & 31) = 27 THEN 'draft' ELSE 'other (base type ' || ({kind} & 31) || ')' END"
    )
}

/// The base type of `kind` as Signal's status (a call record's kind for the call types).
fn status(kind: &str) -> String {
    format!(
        "CASE ({kind} & 31) WHEN 1 THEN 'incoming audio call' WHEN 2 THEN 'outgoing audio call' WHEN 3 THEN 'missed audio call' WHEN 8 THEN 'missed video call' WHEN 10 THEN 'incoming video call' WHEN 11 THEN 'outgoing video call' WHEN 12 THEN 'group call' WHEN 20 THEN 'received' WHEN 21 THEN 'outbox' WHEN 22 THEN 'sending' WHEN 23 THEN 'sent' WHEN 24 THEN 'failed' WHEN 25 THEN 'pending secure SMS fallback' WHEN 26 THEN 'pending insecure SMS fallback' WHEN 27 THEN 'draft' END"
    )
}

/// Where a release keeps its messages: one `message` table (2023 on), or `sms` and `mms`
/// before it; the sent and received times' and the type's columns of each.
struct Layout {
    table: &'static str,
    sent: &'static str,
    received: &'static str,
    kind: &'static str,
}

impl Layout {
    fn of(table: &str, cols: &BTreeSet<String>) -> Option<Layout> {
        let l = match table {
            "message" => Layout {
                table: "message",
                sent: "date_sent",
                received: "date_received",
                kind: "type",
            },
            "sms" => Layout {
                table: "sms",
                sent: "date_sent",
                received: "date",
                kind: "type",
            },
            "mms" => Layout {
                table: "mms",
                sent: "date",
                received: "date_received",
                kind: "msg_box",
            },
            _ => return None,
        };
        (cols.contains(l.sent) && cols.contains(l.kind) && cols.contains("_id")).then_some(l)
    }

    /// The sender's and the recipient's recipient ids over alias `m`: stored both (2023 on),
    /// or the other party alone (`recipient_id`, or `address` before it), the sender of an
    /// incoming message and the recipient of an outgoing one.
    fn parties(&self, cols: &BTreeSet<String>, m: &str) -> (String, String) {
        if cols.contains("from_recipient_id") && cols.contains("to_recipient_id") {
            return (
                format!("{m}.from_recipient_id"),
                format!("{m}.to_recipient_id"),
            );
        }
        let Some(other) = ["recipient_id", "address"]
            .into_iter()
            .find(|c| cols.contains(*c))
        else {
            return ("NULL".into(), "NULL".into());
        };
        let base = format!("({m}.{} & 31)", self.kind);
        (
            format!("CASE WHEN {base} IN ({INCOMING}) THEN {m}.{other} END"),
            format!("CASE WHEN {base} NOT IN ({INCOMING}) THEN {m}.{other} END"),
        )
    }
}

struct Read<'a, 'c> {
    ctx: &'a AgentCtx<'c>,
    l: &'a Located,
    name: &'a str,
    extra: &'a Map<String, Value>,
    schema: &'a BTreeMap<String, BTreeSet<String>>,
}

impl Read<'_, '_> {
    fn pages(&self, sql: &str, what: &str) -> Result<Option<crate::calls::Paged>, RuntimeError> {
        let pages = pages_on_args(self.ctx, &self.l.tree, &self.l.path, sql, self.extra)?;
        if let Some(p) = &pages {
            note_pages_cap(self.ctx, self.name, p, what)?;
        }
        Ok(pages)
    }

    /// One phenomenon per row of `sql` as `spec` says (see [`record_rows`]), then `after`.
    fn record(
        &self,
        sql: &str,
        what: &str,
        spec: &RowPhenomena<'_>,
        after: &mut crate::drafts::AfterRow<'_>,
    ) -> Result<(), RuntimeError> {
        let Some(pages) = self.pages(sql, what)? else {
            return Ok(());
        };
        record_rows(self.ctx, &self.l.path, &self.l.found, &pages, spec, after)
    }

    fn has(&self, table: &str, col: &str) -> bool {
        self.schema.get(table).is_some_and(|c| c.contains(col))
    }

    /// The account of `signal-key-value.db`.
    fn account(&self) -> Result<(), RuntimeError> {
        if !self.has("key_value", "key") || !self.has("key_value", "value") {
            self.ctx.unparsed(
                self.name,
                "could not parse Signal's signal-key-value.db because it has no key_value table with key and value",
                None,
            )?;
            return Ok(());
        }
        // `account.aci` was `account.uuid` before 2022
        let v = |k: &str| {
            let keys: String = if k == "account.aci" {
                "'account.aci', 'account.uuid'".into()
            } else {
                format!("'{k}'")
            };
            format!(
                "(SELECT k.value FROM key_value k WHERE k.key IN ({keys}) ORDER BY k.key LIMIT 1)"
            )
        };
        let sql = format!(
            "SELECT {} AS aci, {} AS pni, {} AS phone, {} AS username, CASE WHEN {} != '' THEN 'signal:' || {} END AS qualified, CASE WHEN {} != '' THEN 'signal-user:' || {} END AS user",
            v("account.aci"),
            v("account.pni"),
            v("account.e164"),
            v("account.username"),
            v("account.aci"),
            v("account.aci"),
            v("account.username"),
            v("account.username"),
        );
        let Some(pages) = self.pages(&sql, "Signal account")? else {
            return Ok(());
        };
        for (inv, t, row) in pages.rows() {
            if t.get(row, "aci").is_none() && t.get(row, "phone").is_none() {
                continue;
            }
            let who = t
                .get(row, "phone")
                .or(t.get(row, "username"))
                .or(t.get(row, "aci"))
                .unwrap_or("?")
                .to_string();
            let mut d = Draft::new("accounts", format!("Signal account {who}"));
            d.fact(FactType::Path, Some(&self.l.path), &self.l.found);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("aci", FactType::Account, "ACI"),
                    ("pni", FactType::Identifier, "PNI"),
                    ("phone", FactType::Phone, "phone number"),
                    ("username", FactType::Account, "username"),
                ],
            );
            d.interpretation = format!(
                "key_value rows account.* of signal-key-value.db: the Signal account registered on the device: {}.",
                said.join(", ")
            );
            record_draft(self.ctx, d)?;
            observe_columns(
                self.ctx,
                "owner",
                "device owner",
                t,
                row,
                inv,
                &[
                    (
                        "qualified",
                        IdType::AccountId,
                        "The Signal account id (ACI)",
                    ),
                    ("phone", IdType::Phone, "The phone number"),
                    ("username", IdType::SignalUsername, "The Signal username"),
                ],
                &|what| {
                    format!(
                        "{what} Signal is registered with on the device (key_value of signal-key-value.db)."
                    )
                },
            )?;
        }
        Ok(())
    }

    fn recipients(&self, r: &Recipients) -> Result<(), RuntimeError> {
        let c = |col: &str, alias: &str| column_or_null(r.cols, "r.", col, alias);
        let user = if r.cols.contains("username") {
            "CASE WHEN r.username != '' THEN 'signal-user:' || r.username END"
        } else {
            "NULL"
        };
        let kind = if r.cols.contains("type") {
            "CASE r.type WHEN 0 THEN 'individual' WHEN 1 THEN 'MMS group' WHEN 2 THEN 'group' WHEN 3 THEN 'distribution list' WHEN 4 THEN 'call link' ELSE 'type ' || r.type END"
        } else if r.cols.contains("group_type") {
            "CASE WHEN r.group_id IS NOT NULL THEN 'group' ELSE 'individual' END"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT r._id AS id, {} AS shown, {} AS phone, {} AS aci, {} AS qualified, {user} AS user, {kind} AS kind, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} AS system_name, {} AS profile_name, {}, {}, {}, {}, {} FROM recipient r ORDER BY r._id",
            r.shown("r"),
            r.phone("r"),
            r.aci("r"),
            r.qualified("r"),
            c("pni", "pni"),
            c("username", "username"),
            c("email", "email"),
            c("group_id", "group_id"),
            c("profile_given_name", "given"),
            c("profile_family_name", "family"),
            c("system_given_name", "system_given"),
            c("system_family_name", "system_family"),
            c("nickname_joined_name", "nickname"),
            c("about", "about"),
            c("note", "note"),
            r.col("r", &["system_joined_name", "system_display_name"]),
            r.col("r", &["profile_joined_name", "signal_profile_name"]),
            c("registered", "registered"),
            c("blocked", "blocked"),
            c("hidden", "hidden"),
            c("last_profile_fetch", "fetched"),
            c("distribution_list_id", "list"),
        );
        self.record(
            &sql,
            "Signal recipients",
            &RowPhenomena {
                table: "recipient",
                category: "contacts",
                what: "a Signal recipient: a person the account has met (or a group); registered, blocked and hidden are the stored flags, the last profile fetch Unix milliseconds",
                title: &|t, row| match t.get(row, "group_id") {
                    Some(g) => format!("Signal recipient {}", t.get(row, "shown").unwrap_or(g)),
                    None => format!(
                        "Signal contact {}",
                        t.get(row, "shown")
                            .unwrap_or(t.get(row, "id").unwrap_or("?"))
                    ),
                },
                fields: &[
                    ("shown", FactType::Name, "name"),
                    ("phone", FactType::Phone, "phone"),
                    ("username", FactType::Account, "username"),
                    ("email", FactType::Email, "e-mail"),
                    ("aci", FactType::Account, "ACI"),
                    ("pni", FactType::Identifier, "PNI"),
                    ("kind", FactType::Text, "type"),
                    ("group_id", FactType::Identifier, "group id"),
                    ("profile_name", FactType::Name, "profile name"),
                    ("given", FactType::Name, "profile given name"),
                    ("family", FactType::Name, "profile family name"),
                    ("system_name", FactType::Name, "contact name"),
                    ("system_given", FactType::Name, "contact given name"),
                    ("system_family", FactType::Name, "contact family name"),
                    ("nickname", FactType::Name, "nickname"),
                    ("registered", FactType::Count, "registered"),
                    ("blocked", FactType::Count, "blocked"),
                    ("hidden", FactType::Count, "hidden"),
                    ("about", FactType::Text, "about"),
                    ("note", FactType::Text, "note"),
                ],
                times: &[("fetched", "Signal profile fetched", unix_millis)],
            },
            &mut |inv, t, row| {
                let Some(q) = t.get(row, "qualified") else {
                    return Ok(());
                };
                let who = t.get(row, "shown").unwrap_or(q).to_string();
                observe_columns(
                    self.ctx,
                    q,
                    &who,
                    t,
                    row,
                    inv,
                    &[
                        (
                            "qualified",
                            IdType::AccountId,
                            "The Signal account id (ACI)",
                        ),
                        ("phone", IdType::Phone, "The phone number"),
                        ("user", IdType::SignalUsername, "The Signal username"),
                        ("email", IdType::Email, "The e-mail address"),
                        ("profile_name", IdType::DisplayName, "The profile name"),
                    ],
                    &|what| {
                        format!(
                            "{what} of {who}, a Signal recipient (recipient row {} of signal.db).",
                            t.get(row, "id").unwrap_or("?")
                        )
                    },
                )
            },
        )
    }

    fn messages(
        &self,
        r: &Recipients,
        lay: &Layout,
        cols: &BTreeSet<String>,
    ) -> Result<(), RuntimeError> {
        let m = |col: &str, alias: &str| column_or_null(cols, "m.", col, alias);
        let (from, to) = lay.parties(cols, "m");
        let quote_author = if cols.contains("quote_author") && cols.contains("quote_id") {
            format!(
                "CASE WHEN m.quote_id > 0 THEN (SELECT {} FROM recipient q WHERE q._id = m.quote_author) END",
                r.shown("q")
            )
        } else {
            "NULL".into()
        };
        let attachments = match lay.table {
            "sms" => "NULL".to_string(),
            _ => [("attachment", "message_id"), ("part", "mid")]
                .into_iter()
                .find(|(t, c)| self.has(t, c))
                .map(|(t, c)| format!("(SELECT COUNT(*) FROM {t} a WHERE a.{c} = m._id)"))
                .unwrap_or("NULL".into()),
        };
        let expires = if cols.contains("expires_in") {
            "CASE WHEN m.expires_in > 0 THEN m.expires_in / 1000 END"
        } else {
            "NULL"
        };
        let quoted_at = if cols.contains("quote_id") {
            "CASE WHEN m.quote_id > 0 THEN m.quote_id END"
        } else {
            "NULL"
        };
        let kind = format!("m.{}", lay.kind);
        let sql = format!(
            "SELECT m._id AS id, '{table}' AS tbl, m.{sent} AS sent_at, {}, {}, {kind} AS type, {} AS direction, {} AS status, {}, {}, {}, {}, {}, {}, {}, {quoted_at} AS quoted_at, {quote_author} AS quote_author, {}, {}, {expires} AS expires_s, {attachments} AS attachments FROM {table} m ORDER BY m.{sent}, m._id",
            m(lay.received, "received_at"),
            m("thread_id", "thread"),
            direction(&kind),
            status(&kind),
            r.party(&from, "sender"),
            r.party(&to, "recipient"),
            m("body", "body"),
            m("read", "read"),
            m("remote_deleted", "remote_deleted"),
            m("view_once", "view_once"),
            m("quote_body", "quote_body"),
            m("quote_missing", "quote_missing"),
            m("expires_in", "expires_ms"),
            table = lay.table,
            sent = lay.sent,
        );
        let Some(pages) = self.pages(&sql, "Signal messages")? else {
            return Ok(());
        };
        if cols.contains("from_recipient_id") && lay.table == "message" {
            // the one sender of the outgoing messages is the device's user
            let q = r.qualified("s");
            if q != "NULL" {
                crate::identity::sole_owner_args(
                    self.ctx,
                    &self.l.tree,
                    &self.l.path,
                    &format!(
                        "SELECT DISTINCT {q} AS qualified FROM message m JOIN recipient s ON s._id = m.from_recipient_id WHERE (m.type & 31) BETWEEN 21 AND 26"
                    ),
                    self.extra,
                    "The Signal account id (ACI)",
                    "the one sender of the outgoing messages (message.type's base 21–26) of Signal's signal.db",
                )?;
            }
        }
        for (inv, t, row) in pages.rows() {
            let dir = t.get(row, "direction").unwrap_or("other");
            let sent = dir == "outgoing";
            let other = if sent { "recipient" } else { "sender" };
            let other_name = t
                .get(row, &format!("{other}_name"))
                .unwrap_or("a party not stored")
                .to_string();
            // a call record kept as a message row (its base type one of the call types)
            let call = t.get(row, "status").filter(|s| s.ends_with(" call"));
            let mut d = match call {
                Some(c) => Draft::new(
                    "calls",
                    format!(
                        "Signal {c} {} {other_name}",
                        if sent { "to" } else { "from" }
                    ),
                ),
                None if sent => {
                    Draft::new("messages", format!("Signal message sent to {other_name}"))
                }
                None => Draft::new("messages", format!("Signal message from {other_name}")),
            };
            d.fact(FactType::Path, Some(&self.l.path), &self.l.found);
            let said = d.fields(
                t,
                row,
                inv,
                &[
                    ("id", FactType::Identifier, "message id"),
                    ("thread", FactType::Identifier, "thread"),
                    ("direction", FactType::Text, "direction"),
                    ("status", FactType::Text, "status"),
                    ("sender_name", FactType::Name, "sender"),
                    ("sender_phone", FactType::Phone, "sender phone"),
                    ("sender_aci", FactType::Account, "sender ACI"),
                    ("recipient_name", FactType::Name, "recipient"),
                    ("recipient_phone", FactType::Phone, "recipient phone"),
                    ("recipient_aci", FactType::Account, "recipient ACI"),
                    ("body", FactType::Text, "text"),
                    ("read", FactType::Count, "read"),
                    ("remote_deleted", FactType::Count, "remote deleted"),
                    ("view_once", FactType::Count, "view once"),
                    ("quote_body", FactType::Text, "quoted text"),
                    ("quote_author", FactType::Name, "quoted author"),
                    ("quote_missing", FactType::Count, "quoted original missing"),
                    ("expires_ms", FactType::Count, "disappearing timer (ms)"),
                    ("expires_s", FactType::Count, "disappearing timer (s)"),
                    ("attachments", FactType::Count, "attachments"),
                ],
            );
            for (col, what) in [
                ("sent_at", "Signal message sent"),
                ("received_at", "Signal message received"),
                ("quoted_at", "Signal quoted message sent"),
            ] {
                let at = t.get(row, col);
                d.time(at, unix_millis(at), what, inv);
            }
            d.interpretation = format!(
                "{} row {} of Signal's signal.db: a {dir} message (type {}: base {}); {}. Times are Unix milliseconds; a quote's time is the quoted message's sent time.",
                t.get(row, "tbl").unwrap_or("message"),
                t.get(row, "id").unwrap_or("?"),
                t.get(row, "type").unwrap_or("?"),
                t.get(row, "status").unwrap_or("not a message base type"),
                said.join(", "),
            );
            record_draft(self.ctx, d)?;
            if let Some(text) = raw(t, row, "body") {
                let party = t.get(row, other).map(|q| (q, other_name.as_str()));
                // a group message's reader is the group, not a person
                let party = party.filter(|_| !sent || t.get(row, "recipient_aci").is_some());
                crate::identity::claims_by_direction(
                    self.ctx,
                    inv,
                    &text,
                    &format!("a Signal message ({dir})"),
                    sent,
                    party,
                )?;
            }
        }
        Ok(())
    }

    fn calls(&self, r: &Recipients, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let c = |col: &str, alias: &str| column_or_null(cols, "c.", col, alias);
        let word = |col: &str, cases: &str| {
            if cols.contains(col) {
                format!("CASE c.{col} {cases} ELSE 'code ' || c.{col} END")
            } else {
                "NULL".into()
            }
        };
        // an older call row has no timestamp: its message's
        let at = if cols.contains("timestamp") {
            "c.timestamp".to_string()
        } else if cols.contains("message_id") && self.has("message", "date_sent") {
            "(SELECT x.date_sent FROM message x WHERE x._id = c.message_id)".to_string()
        } else {
            "NULL".into()
        };
        let sql = format!(
            "SELECT c._id AS id, {at} AS at, c.call_id AS call_id, {} AS kind, {} AS direction, {} AS outcome, {}, {}, {}, {} FROM call c ORDER BY {at}, c._id",
            word(
                "type",
                "WHEN 0 THEN 'audio' WHEN 1 THEN 'video' WHEN 3 THEN 'group' WHEN 4 THEN 'ad hoc'"
            ),
            word("direction", "WHEN 0 THEN 'incoming' WHEN 1 THEN 'outgoing'"),
            word(
                "event",
                "WHEN 0 THEN 'ongoing' WHEN 1 THEN 'accepted' WHEN 2 THEN 'not accepted' WHEN 3 THEN 'missed' WHEN 4 THEN 'deleted' WHEN 5 THEN 'generic group call' WHEN 6 THEN 'joined' WHEN 7 THEN 'ringing' WHEN 8 THEN 'declined' WHEN 9 THEN 'outgoing ring' WHEN 10 THEN 'missed (notification profile)'"
            ),
            r.party("c.peer", "peer"),
            c("read", "read"),
            c("deletion_timestamp", "deleted_at"),
            c("message_id", "message"),
        );
        self.record(
            &sql,
            "Signal calls",
            &RowPhenomena {
                table: "call",
                category: "calls",
                what: "a Signal call (type, direction and outcome as CallTable defines them; times Unix milliseconds)",
                title: &|t, row| {
                    format!(
                        "Signal call: {} {} call {} {}",
                        t.get(row, "outcome").unwrap_or(""),
                        t.get(row, "kind").unwrap_or(""),
                        if t.get(row, "direction") == Some("outgoing") {
                            "to"
                        } else {
                            "with"
                        },
                        t.get(row, "peer_name").unwrap_or("a peer not stored")
                    )
                },
                fields: &[
                    ("call_id", FactType::Identifier, "call id"),
                    ("kind", FactType::Text, "type"),
                    ("direction", FactType::Text, "direction"),
                    ("outcome", FactType::Text, "outcome"),
                    ("peer_name", FactType::Name, "peer"),
                    ("peer_phone", FactType::Phone, "peer phone"),
                    ("peer_aci", FactType::Account, "peer ACI"),
                    ("read", FactType::Count, "read"),
                    ("message", FactType::Identifier, "message"),
                ],
                times: &[
                    ("at", "Signal call", unix_millis),
                    ("deleted_at", "Signal call deleted", unix_millis),
                ],
            },
            &mut |_, _, _| Ok(()),
        )
    }

    fn groups(&self, r: &Recipients, cols: &BTreeSet<String>) -> Result<(), RuntimeError> {
        let c = |col: &str, alias: &str| column_or_null(cols, "g.", col, alias);
        let shown = r.shown("p");
        // the members' names and their count, from group_membership or the older list of ids
        let over = |agg: &str| {
            if self.has("group_membership", "recipient_id") {
                format!(
                    "(SELECT {agg} FROM group_membership gm JOIN recipient p ON p._id = gm.recipient_id WHERE gm.group_id = g.group_id)"
                )
            } else if cols.contains("members") {
                format!(
                    "(SELECT {agg} FROM recipient p WHERE instr(',' || g.members || ',', ',' || p._id || ',') > 0)"
                )
            } else {
                "NULL".into()
            }
        };
        let members = over(&format!("group_concat({shown}, ', ')"));
        let count = over("count(*)");
        let sql = format!(
            "SELECT g._id AS id, g.group_id AS group_id, {}, {members} AS members, {count} AS member_count, {}, {}, {}, {}, {} FROM groups g ORDER BY g._id",
            c("title", "title"),
            c("timestamp", "created"),
            c("active", "active"),
            c("mms", "mms"),
            c("revision", "revision"),
            c("last_force_update_timestamp", "forced"),
        );
        self.record(
            &sql,
            "Signal groups",
            &RowPhenomena {
                table: "groups",
                category: "contacts",
                what: "a Signal group and its members (active and MMS as stored; times Unix milliseconds)",
                title: &|t, row| {
                    format!(
                        "Signal group {}",
                        t.get(row, "title")
                            .unwrap_or(t.get(row, "group_id").unwrap_or("?"))
                    )
                },
                fields: &[
                    ("group_id", FactType::Identifier, "group id"),
                    ("title", FactType::Name, "title"),
                    ("members", FactType::Text, "members"),
                    ("member_count", FactType::Count, "member count"),
                    ("active", FactType::Count, "active"),
                    ("mms", FactType::Count, "MMS group"),
                    ("revision", FactType::Count, "revision"),
                ],
                times: &[
                    ("created", "Signal group created", unix_millis),
                    ("forced", "Signal group last forced update", unix_millis),
                ],
            },
            &mut |_, _, _| Ok(()),
        )
    }

    fn attachments(
        &self,
        r: &Recipients,
        table: &str,
        message: &str,
        cols: &BTreeSet<String>,
    ) -> Result<(), RuntimeError> {
        let a = |names: &[&str], alias: &str| {
            names
                .iter()
                .find(|n| cols.contains(**n))
                .map(|n| format!("a.{n} AS {alias}"))
                .unwrap_or(format!("NULL AS {alias}"))
        };
        // the message an attachment belongs to: in message, or in mms before it
        let lay = ["message", "mms"].into_iter().find_map(|t| {
            self.schema
                .get(t)
                .and_then(|c| Layout::of(t, c).map(|l| (l, c)))
        });
        let (mt, sent, kind, from) = match &lay {
            Some((l, c)) => (
                l.table,
                l.sent,
                format!("x.{}", l.kind),
                l.parties(c, "x").0,
            ),
            None => (
                "message",
                "date_sent",
                "NULL".to_string(),
                "NULL".to_string(),
            ),
        };
        let m = |e: &str| format!("(SELECT {e} FROM {mt} x WHERE x._id = a.{message})");
        let dims = if cols.contains("width") && cols.contains("height") {
            "CASE WHEN a.width > 0 AND a.height > 0 THEN a.width || 'x' || a.height END"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT a._id AS id, a.{message} AS message, {} AS message_sent, {} AS thread, {} AS direction, {} AS sender_name, {}, {}, {}, {}, {}, {}, {}, {}, {dims} AS dimensions, {}, {} FROM {table} a ORDER BY a._id",
            m(&format!("x.{sent}")),
            m("x.thread_id"),
            m(&direction(&kind)),
            m(&format!(
                "(SELECT {} FROM recipient q WHERE q._id = {from})",
                r.shown("q")
            )),
            a(&["file_name"], "file_name"),
            a(&["content_type", "ct"], "content_type"),
            a(&["data_size"], "size"),
            a(&["data_file", "_data"], "stored"),
            a(&["transfer_state"], "transfer"),
            a(&["voice_note"], "voice_note"),
            a(&["video_gif"], "gif"),
            a(&["caption"], "caption"),
            a(&["upload_timestamp"], "uploaded"),
            a(&["width"], "width"),
        );
        self.record(
            &sql,
            "Signal attachments",
            &RowPhenomena {
                table,
                category: "media",
                what: "an attachment of a Signal message (its file under app_parts is encrypted with the attachment key, not decrypted here; times Unix milliseconds)",
                title: &|t, row| {
                    format!(
                        "Signal attachment {}",
                        t.get(row, "file_name")
                            .or(t.get(row, "content_type"))
                            .unwrap_or("?")
                    )
                },
                fields: &[
                    ("message", FactType::Identifier, "message"),
                    ("thread", FactType::Identifier, "thread"),
                    ("direction", FactType::Text, "direction"),
                    ("sender_name", FactType::Name, "sender"),
                    ("file_name", FactType::Name, "file name"),
                    ("content_type", FactType::Text, "content type"),
                    ("size", FactType::Count, "size (bytes)"),
                    ("stored", FactType::Path, "stored file"),
                    ("transfer", FactType::Count, "transfer state"),
                    ("voice_note", FactType::Count, "voice note"),
                    ("gif", FactType::Count, "GIF"),
                    ("dimensions", FactType::Text, "dimensions"),
                    ("caption", FactType::Text, "caption"),
                ],
                times: &[
                    ("message_sent", "Signal message sent", unix_millis),
                    ("uploaded", "Signal attachment uploaded", unix_millis),
                ],
            },
            &mut |_, _, _| Ok(()),
        )
    }
}
