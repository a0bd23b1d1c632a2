//! Google Voice for Android (`com.google.android.apps.googlevoice`), ALEAPP's `googleVoice`
//! (`googlevoice_accounts`, `googlevoice_calls`, `googlevoice_voicemails`,
//! `googlevoice_messages`): the account, its Google Voice and linked numbers, and every text,
//! call and voicemail the app keeps. The stores hold Protocol Buffers messages whose layout is
//! not published; the field numbers below are ALEAPP's (its authors' testing), not a schema.
//!
//! | file: table | phenomenon | fields |
//! |---|---|---|
//! | `files/AccountData.pb` (`read_protobuf`) | one `accounts` per account entry (field 2: "Google Voice account <e-mail>") | account number (2.1), name (2.2.2.2), e-mail (2.2.2.3) |
//! | `files/accounts/<n>/SqliteKeyValueCache:VoiceAccountCache.db`: `cache_table` (`response_data`, `sqlite_query`'s `protobuf`) | one `accounts` per cached response naming a number ("Google Voice number <number> (account <n>)") | cache key when kept, the Google Voice number (3.1.1.1), each linked phone number (3.2.1.1) |
//! | `files/accounts/<n>/LegacyMsgDbInstance.db`: `message_t` (`message_blob`, `sqlite_query`'s `protobuf`; `conversation_id`) | one `messages` per text ("Google Voice text sent to <number>", "… received from …"), per group text ("Google Voice group text sent in <conversation>", "… from <number>"); one `calls` per call ("Google Voice incoming/outgoing/missed call from/to <number>") and per voicemail ("Google Voice voicemail from <number>"); any other record one `messages` ("Google Voice record <id> (type <code>)") | message id (1), conversation id, the account's own Google Voice number (3), the other party's number (4.1), text (10; a group text's 15.1), a group's members (15.4.1) and sender (15.5), read flag (6), type code (13), missed marker (22) and recording marker (23) as present, the voicemail transcript's segments (7.2.1), duration as stored (9); time (2, Unix ms) |
//!
//! Record kinds, as ALEAPP's authors established them by testing (no source is cited): type 5 a
//! text received, 6 a text sent; 0 a call missed or declined without a voicemail, 1 a call
//! answered, 2 a call placed, 3 a voicemail (a call missed with a voicemail left; Google Voice's
//! own welcome voicemail, its id holding `welcome_voicemail`, is said to be no call); a record
//! with field 22 a missed or declined call; a group conversation's record (`conversation_id`
//! starting `g`) is a group text, received when it names a sender (15.5), else sent. Another type
//! is recorded with its code, unnamed. Read flags are as stored (0 unread, 1 read, ALEAPP's
//! reading): what sets them is not established, nor that anyone listened to a voicemail. The
//! transcript is Google's, its segments as stored (ALEAPP joins them with spaces). The duration
//! (field 9) is a 32-bit float of seconds kept as a fixed32: `sqlite_query`'s `protobuf` option
//! prints its bits as an integer, which is given as stored (the seconds are not decoded: the tool
//! has no float option for cells). A message blob that does not decode as a message is counted
//! and noted.
//!
//! Not read: the audio cache (`cache/audio/`, voicemails and recordings) and the MMS image cache
//! (`cache/Photo MMS images/`), files ALEAPP matches to records by message id; the Samsung
//! contacts ALEAPP joins for names. Left in the stores: nothing is filtered out of the cached
//! responses and message blobs, which `sqlite_query` decodes whole (their output holds every
//! field); only the fields above are taken. Schema drift: `message_t` without
//! `conversation_id` is read without it (no group texts); a store without `message_t` (or its
//! `message_blob`), a cache without `cache_table` (or its `response_data`) is noted, and an
//! `AccountData.pb` with no account entry.
//!
//! Identities: the account's e-mail (a Google account where the normaliser takes it) and name,
//! the Google Voice number and the linked numbers, and every record's own number (field 3) are
//! the device's user's (`owner`); every other number is a counterparty (the address-book contact
//! holding it, else `handle:<number>`), as for SMS. Wallet addresses in a text are claims by its
//! direction.

use std::collections::BTreeMap;

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};
use masf_tools::Invoked;
use serde_json::Value;

use super::Located;
use super::databases::{Book, counterparty, observe_party, party_fact};
use crate::calls::{Tables, column_or_null, note_pages_cap};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{
    artefact_name, claims_by_direction, normalized, observe_owner_ids, pages_on_with, schema_on,
};
use crate::outputs::{in_json, json_scalar, proto_text, protobuf_cell};

/// The app's folder of account data.
const FILES: &str = "/com.google.android.apps.googlevoice/files/";

/// Whether `l` is Google Voice's `AccountData.pb`.
pub fn is_account_data(l: &Located) -> bool {
    l.path.ends_with(&format!("{FILES}AccountData.pb"))
}

/// Whether `path` is one of Google Voice's per-account stores read here.
pub fn is_store_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.contains(&format!("{FILES}accounts/"))
        && (name == "LegacyMsgDbInstance.db" || name.ends_with("VoiceAccountCache.db"))
}

/// Whether `l` is one of Google Voice's per-account stores read here.
pub fn is_store(l: &Located) -> bool {
    is_store_path(&l.path)
}

/// Whether `l` is a file this reader reads.
pub fn is_file(l: &Located) -> bool {
    is_account_data(l) || is_store(l)
}

/// The account folder a store lies in (`accounts/<n>/`), as its path names it.
fn account_folder(path: &str) -> &str {
    let mut up = path.rsplit('/');
    let _ = up.next();
    match (up.next(), up.next()) {
        (Some(n), Some("accounts")) => n,
        _ => "?",
    }
}

/// One Google Voice file.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    if is_account_data(l) {
        return account_data(ctx, l);
    }
    if l.name().ends_with("VoiceAccountCache.db") {
        return numbers(ctx, l);
    }
    messages(ctx, l, book)
}

/// The value at `path` of a decoded message: each field's first value, in turn.
fn at<'a>(m: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut node = m;
    for f in path {
        node = node.get(f)?.get(0)?;
    }
    Some(node)
}

/// Every value of the repeated field `f` of `m`.
fn all<'a>(m: &'a Value, f: &str) -> impl Iterator<Item = &'a Value> {
    m.get(f)
        .and_then(Value::as_array)
        .into_iter()
        .flat_map(|a| a.iter())
}

/// A string at `path` of a `protobuf:` cell's message: (the text, its form in the cell).
fn cell_text(m: &Value, path: &[&str]) -> Option<(String, String)> {
    proto_text(m, path).filter(|(t, _)| !t.trim().is_empty())
}

/// A number at `path` of a `protobuf:` cell's message, as the cell prints it.
fn cell_number(m: &Value, path: &[&str]) -> Option<String> {
    at(m, path)
        .filter(|v| v.is_number())
        .and_then(|v| json_scalar(Some(v)))
}

/// `files/AccountData.pb`: one account per entry of field 2.
fn account_data(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some((inv, doc)) = super::protobuf_message(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let entries: Vec<&Value> = all(&doc, "2").filter(|e| e.is_object()).collect();
    if entries.is_empty() {
        ctx.unparsed(
            &artefact_name(&l.tree, &l.path),
            "could not parse Google Voice's AccountData.pb because its message has no account entry (field 2)",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    }
    for e in entries {
        let number = at(e, &["1"]).and_then(|v| json_scalar(Some(v)));
        let name = at(e, &["2", "2", "2"]).and_then(Value::as_str);
        let email = at(e, &["2", "2", "3"]).and_then(Value::as_str);
        let shown = email
            .or(name)
            .map(str::to_string)
            .or_else(|| number.clone())
            .unwrap_or_else(|| "?".into());
        let mut d = Draft::new("accounts", format!("Google Voice account {shown}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, number.as_deref(), &inv);
        d.fact(FactType::Name, name.map(in_json).as_deref(), &inv);
        d.fact(FactType::Email, email.map(in_json).as_deref(), &inv);
        d.interpretation = format!(
            "{}: an account entry of Google Voice's account data (field 2; the field numbers are ALEAPP's, the layout is not published): account number {}, name {}, e-mail {} — the Google account the app is signed in with.",
            l.name(),
            number.as_deref().unwrap_or("not stored"),
            name.unwrap_or("not stored"),
            email.unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        let email_type = match email {
            Some(x) if normalized(ctx, IdType::GoogleAccount, x).is_some() => IdType::GoogleAccount,
            _ => IdType::Email,
        };
        observe_owner_ids(
            ctx,
            &inv,
            vec![
                (email.map(str::to_string), email_type, "e-mail"),
                (name.map(str::to_string), IdType::DisplayName, "name"),
            ],
            &|what| {
                format!(
                    "The {what} of the Google account Google Voice is signed in with (AccountData.pb): the device's user."
                )
            },
        )?;
    }
    Ok(())
}

/// `SqliteKeyValueCache:VoiceAccountCache.db`: the Google Voice and linked numbers of the
/// cached account responses.
fn numbers(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Google Voice's account cache",
        &schema,
        "cache_table",
        &["response_data"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS rid, {}, response_data FROM cache_table ORDER BY rowid",
        column_or_null(cols, "", "key", "cache_key")
    );
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "cached responses")?;
    let folder = account_folder(&l.path);
    for (inv, t, row) in pages.rows() {
        let Some(m) = t.get(row, "response_data").and_then(protobuf_cell) else {
            continue;
        };
        let Some(account) = at(&m, &["3"]) else {
            continue;
        };
        let voice: Vec<(String, String)> = all(account, "1")
            .filter_map(|v| cell_text(v, &["1", "1"]))
            .collect();
        let linked: Vec<(String, String)> = all(account, "2")
            .filter_map(|v| cell_text(v, &["1", "1"]))
            .collect();
        let Some((shown, _)) = voice.first().or(linked.first()) else {
            continue;
        };
        let mut d = Draft::new(
            "accounts",
            format!("Google Voice number {shown} (account {folder})"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            crate::outputs::raw(t, row, "cache_key").as_deref(),
            inv,
        );
        for (_, cited) in voice.iter().chain(&linked) {
            d.fact(FactType::Phone, Some(cited), inv);
        }
        d.interpretation = format!(
            "cache_table row {} of {}: the account response Google Voice cached for account folder {folder} (fields 3.1.1.1 and 3.2.1.1, ALEAPP's reading): Google Voice number {}, linked phone number {} — the numbers of the device's user.",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            join(&voice),
            join(&linked),
        );
        record_draft(ctx, d)?;
        let mut ids = Vec::new();
        for (text, _) in &voice {
            ids.push((Some(text.clone()), IdType::Phone, "Google Voice number"));
        }
        for (text, _) in &linked {
            ids.push((Some(text.clone()), IdType::Phone, "linked phone number"));
        }
        observe_owner_ids(ctx, inv, ids, &|what| {
            format!(
                "The {what} of the account Google Voice cached ({} of account folder {folder}): the device's user's.",
                l.name()
            )
        })?;
    }
    Ok(())
}

/// The texts of a list, for an interpretation ("not stored" when empty).
fn join(v: &[(String, String)]) -> String {
    if v.is_empty() {
        "not stored".to_string()
    } else {
        v.iter()
            .map(|(t, _)| t.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What a `message_t` record is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text { sent: bool },
    GroupText { sent: bool },
    Call,
    Voicemail,
    Other,
}

/// `LegacyMsgDbInstance.db`: every record of `message_t`.
fn messages(ctx: &AgentCtx<'_>, l: &Located, book: &Book) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = Tables::one(
        ctx,
        &name,
        "Google Voice's message store",
        &schema,
        "message_t",
        &["message_blob"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT rowid AS rid, {}, message_blob FROM message_t ORDER BY rowid",
        column_or_null(cols, "", "conversation_id", "conversation_id")
    );
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Google Voice records")?;
    let folder = account_folder(&l.path);
    let file = l.name();
    // the account's own numbers (field 3), each with the first record naming it
    let mut own: BTreeMap<String, &Invoked> = BTreeMap::new();
    let mut undecoded = 0usize;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let Some(m) = t.get(row, "message_blob").and_then(protobuf_cell) else {
            undecoded += 1;
            continue;
        };
        let conversation = t.get(row, "conversation_id");
        let id = cell_text(&m, &["1"]);
        let id_text = id.as_ref().map_or(rid, |(x, _)| x.as_str()).to_string();
        let time = cell_number(&m, &["2"]);
        let mine = cell_text(&m, &["3"]);
        let other = cell_text(&m, &["4", "1"]);
        let code = at(&m, &["13"]).and_then(Value::as_u64);
        let missed = m.get("22").is_some();
        let recorded = m.get("23").is_some();
        let group = at(&m, &["15"]).filter(|g| g.is_object());
        let kind = match (
            conversation.is_some_and(|c| c.starts_with('g')),
            group,
            code,
        ) {
            (true, Some(g), _) => Kind::GroupText {
                sent: g.get("5").is_none(),
            },
            (_, _, Some(5)) => Kind::Text { sent: false },
            (_, _, Some(6)) => Kind::Text { sent: true },
            (_, _, Some(3)) => Kind::Voicemail,
            (_, _, Some(0..=2)) => Kind::Call,
            _ if missed => Kind::Call,
            _ => Kind::Other,
        };
        if let Some((n, _)) = &mine {
            own.entry(n.clone()).or_insert(inv);
        }
        let number = other.as_ref().map(|(n, _)| n.as_str());
        let who = number.unwrap_or("an unrecorded number");
        let mut d = match kind {
            Kind::Text { sent } => Draft::new(
                "messages",
                if sent {
                    format!("Google Voice text sent to {who}")
                } else {
                    format!("Google Voice text received from {who}")
                },
            ),
            Kind::GroupText { sent } => Draft::new(
                "messages",
                if sent {
                    format!(
                        "Google Voice group text sent in {}",
                        conversation.unwrap_or("?")
                    )
                } else {
                    format!(
                        "Google Voice group text from {}",
                        group
                            .and_then(|g| cell_text(g, &["5"]))
                            .map_or_else(|| "an unrecorded number".to_string(), |(n, _)| n)
                    )
                },
            ),
            Kind::Call => {
                let (direction, word) = match code {
                    Some(2) => ("outgoing", "to"),
                    Some(1) if !missed => ("incoming", "from"),
                    _ => ("missed", "from"),
                };
                Draft::new(
                    "calls",
                    format!("Google Voice {direction} call {word} {who}"),
                )
            }
            Kind::Voicemail => Draft::new("calls", format!("Google Voice voicemail from {who}")),
            Kind::Other => Draft::new(
                "messages",
                format!(
                    "Google Voice record {id_text} (type {})",
                    code.map_or_else(|| "not stored".to_string(), |c| c.to_string())
                ),
            ),
        };
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(
            FactType::Identifier,
            id.as_ref().map(|(_, c)| c.as_str()),
            inv,
        );
        d.fact(
            FactType::Identifier,
            crate::outputs::raw(t, row, "conversation_id").as_deref(),
            inv,
        );
        if let Some((_, cited)) = &mine {
            d.fact(FactType::Phone, Some(cited), inv);
        }
        if let Some((n, cited)) = &other {
            let mut f = party_fact(ctx, n, inv);
            f.value = cited.clone();
            d.claim(f);
        }
        let text = match kind {
            Kind::GroupText { .. } => group.and_then(|g| cell_text(g, &["1"])),
            _ => cell_text(&m, &["10"]),
        };
        if let Some((_, cited)) = &text {
            d.fact(FactType::Text, Some(cited), inv);
        }
        // a group's members and sender
        let members: Vec<(String, String)> = group
            .map(|g| {
                all(g, "4")
                    .filter_map(|x| cell_text(x, &["1"]))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let sender = group.and_then(|g| cell_text(g, &["5"]));
        for (n, cited) in members.iter().chain(sender.iter()) {
            let mut f = party_fact(ctx, n, inv);
            f.value = cited.clone();
            d.claim(f);
        }
        // the voicemail transcript's segments, in order
        let segments: Vec<(String, String)> = at(&m, &["7"])
            .map(|t7| {
                all(t7, "2")
                    .filter_map(|s| cell_text(s, &["1"]))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        for (_, cited) in &segments {
            d.fact(FactType::Text, Some(cited), inv);
        }
        let read = cell_number(&m, &["6"]);
        let type_code = cell_number(&m, &["13"]);
        let duration = cell_number(&m, &["9"]);
        d.fact(FactType::Text, read.as_deref(), inv);
        d.fact(FactType::Text, type_code.as_deref(), inv);
        d.fact(FactType::Text, duration.as_deref(), inv);
        let sent = match kind {
            Kind::Text { sent } | Kind::GroupText { sent } => Some(sent),
            Kind::Call => Some(code == Some(2)),
            _ => None,
        };
        d.time(
            time.as_deref(),
            unix_millis(time.as_deref()),
            match (kind, sent) {
                (Kind::Text { .. } | Kind::GroupText { .. }, Some(true)) => "Message sent",
                (Kind::Text { .. } | Kind::GroupText { .. }, _) => "Message received",
                (Kind::Call, _) => "Google Voice call",
                (Kind::Voicemail, _) => "Google Voice voicemail left",
                (Kind::Other, _) => "Google Voice record",
            },
            inv,
        );
        let what = match kind {
            Kind::Text { sent: true } => format!("a text the device's user sent to {who} (type 6)"),
            Kind::Text { sent: false } => format!("a text received from {who} (type 5)"),
            Kind::GroupText { sent: true } => format!(
                "a group text the device's user sent to {} (no sender in field 15.5)",
                join(&members)
            ),
            Kind::GroupText { sent: false } => format!(
                "a group text from {} (field 15.5) to the group {}",
                sender.as_ref().map_or("?", |(n, _)| n.as_str()),
                join(&members)
            ),
            Kind::Call => match code {
                Some(2) => format!("a call the device's user placed to {who} (type 2)"),
                Some(1) if !missed => format!("a call from {who} that was answered (type 1)"),
                _ => format!(
                    "a call from {who} missed or declined, no voicemail left (type {}{})",
                    code.map_or_else(|| "not stored".to_string(), |c| c.to_string()),
                    if missed { ", field 22 present" } else { "" }
                ),
            },
            Kind::Voicemail if id_text.contains("welcome_voicemail") => {
                "Google Voice's own welcome voicemail (no call)".to_string()
            }
            Kind::Voicemail => format!(
                "a voicemail {who} left: a call missed with a voicemail (type 3); its transcript {}",
                if segments.is_empty() {
                    "is not stored".to_string()
                } else {
                    format!(
                        "(Google's, segments joined here): {}",
                        segments
                            .iter()
                            .map(|(s, _)| s.as_str())
                            .collect::<Vec<_>>()
                            .join(" ")
                    )
                }
            ),
            Kind::Other => format!(
                "a record of a type ALEAPP does not name ({})",
                code.map_or_else(|| "no type stored".to_string(), |c| format!("type {c}"))
            ),
        };
        d.interpretation = format!(
            "message_t row {rid} of {file} (account folder {folder}), message {id_text}: {what}; the account's own Google Voice number {}; conversation {}; read flag {} (as stored); duration field {} (a float's bits as stored, not decoded){}; time Unix milliseconds. Field numbers and kinds are ALEAPP's reading, established by testing.",
            mine.as_ref().map_or("not stored", |(n, _)| n.as_str()),
            conversation.unwrap_or("not stored"),
            read.as_deref().unwrap_or("not stored"),
            duration.as_deref().unwrap_or("not stored"),
            if recorded {
                "; the call was recorded (field 23)"
            } else {
                ""
            },
        );
        record_draft(ctx, d)?;
        // the other parties by number; wallet addresses in a text by its direction
        let where_ = format!("Google Voice record {id_text} ({file})");
        for n in number
            .into_iter()
            .chain(members.iter().map(|(n, _)| n.as_str()))
            .chain(sender.iter().map(|(n, _)| n.as_str()))
            .filter(|n| {
                !own.contains_key(*n) && mine.as_ref().is_none_or(|(m, _)| m.as_str() != *n)
            })
        {
            observe_party(ctx, book, n, inv, &where_)?;
        }
        if let (Some((body, _)), Some(sent)) = (&text, sent) {
            let party = match kind {
                Kind::Text { .. } => number,
                Kind::GroupText { sent: false } => sender.as_ref().map(|(n, _)| n.as_str()),
                _ => None,
            }
            .map(|n| counterparty(ctx, book, n));
            claims_by_direction(
                ctx,
                inv,
                body,
                &where_,
                sent,
                party.as_ref().map(|(c, lb)| (c.as_str(), lb.as_str())),
            )?;
        }
    }
    for (n, inv) in &own {
        observe_owner_ids(
            ctx,
            inv,
            vec![(Some(n.clone()), IdType::Phone, "Google Voice number")],
            &|what| {
                format!(
                    "The {what} {n} that Google Voice's records name as the account's own (field 3 of {file}, account folder {folder}): the device's user's."
                )
            },
        )?;
    }
    if undecoded > 0 {
        ctx.unparsed(
            &name,
            &format!(
                "{undecoded} records of message_t hold a message_blob that does not decode as a Protocol Buffers message; they were not read"
            ),
            pages.pages.first().map(|(i, _)| i.record.invocation_id.as_str()),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_folders() {
        let p = "/data/data/com.google.android.apps.googlevoice/files/accounts/0/LegacyMsgDbInstance.db";
        assert!(is_store_path(p));
        assert_eq!(account_folder(p), "0");
        assert!(is_store_path(
            "/data/data/com.google.android.apps.googlevoice/files/accounts/1/SqliteKeyValueCache:VoiceAccountCache.db"
        ));
        assert!(!is_store_path(
            "/data/data/com.example.other/files/accounts/0/LegacyMsgDbInstance.db"
        ));
    }
}
