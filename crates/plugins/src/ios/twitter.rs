//! Twitter/X direct messages (`Containers/Data/Application/<uuid>/Library/Caches/
//! com.atebits.tweetie.direct-message.cache/<account>`): one NSKeyedArchiver archive per
//! signed-in account, read with `parse_plist` (the archive unwrapped into its object graph,
//! every `userID` member qualified as `twitter:<id>`), with the fields of iLEAPP's
//! `twitterDMUsers` and `twitterDirectMessages`:
//!
//! - one phenomenon per user of `root.cachedUserByUserID`: full name, user name, user id, bio,
//!   profile image URL, created and updated times, and the flags (account holder, verified,
//!   blue verified, protected, blocking);
//! - one per entry of each conversation of the inbox's three timelines (trusted, untrusted,
//!   low quality): time, conversation id and name, participants, sender (name, user name,
//!   id), text, attachment media and display URLs, reply target, message id, the archive's
//!   account id, spam and abuse marks, and the direction (sent when the sender is the inbox's
//!   `context.userID`).
//!
//! Identities: `inbox.context.userID` is the device's user (`owner`: `twitter:<id>`, with the
//! user name and name of its cached user); every other user is a person `twitter:<id>` (the
//! form the Android Twitter parser writes, so an account joins across devices). Wallet
//! addresses written in a message are claims of its writer. A file that is no archive of this
//! shape is noted as unparsed, naming what it lacks.

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType, TimeEncoding};
use masf_tools::Invoked;
use serde_json::{Value, json};

use super::{Draft, ENTRY_CAP, Run, file_name};

/// The directory of the caches.
const CACHE_DIR: &str = "com.atebits.tweetie.direct-message.cache";

/// The inbox timelines, with the name iLEAPP gives them.
const TIMELINES: &[(&str, &str)] = &[
    ("trusted_conversations_timeline", "Trusted"),
    ("untrusted_conversations_timeline", "Untrusted"),
    ("low_quality_conversations_timeline", "Low Quality"),
];

/// Triage of every direct-message cache of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some(dirs) = crate::calls::call_or_note(
        run.ctx,
        &format!("directories named {CACHE_DIR}"),
        "find_files",
        json!({"name_glob": CACHE_DIR, "limit": 1000}),
    )?
    else {
        return Ok(());
    };
    let dirs: Vec<String> = dirs
        .output
        .text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.splitn(7, '\t').collect();
            (cols.len() == 7 && cols[0] == "dir" && cols[4] != "deleted")
                .then(|| cols[6].to_string())
        })
        .collect();
    for dir in &dirs {
        let Some(find) = crate::calls::call_or_note(
            run.ctx,
            dir,
            "find_files",
            json!({"path": dir, "limit": 1000}),
        )?
        else {
            continue;
        };
        for path in crate::outputs::found_paths(&find.output.text) {
            // sidecars (`.DS_Store`-like hidden entries) are no cache
            if file_name(&path).starts_with('.') {
                continue;
            }
            one(run, &find, &path)?;
        }
    }
    Ok(())
}

/// A string as the pretty JSON output holds it (JSON-escaped, no quotes), so it grounds.
pub fn in_json(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    json.get(1..json.len().saturating_sub(1))
        .unwrap_or_default()
        .to_string()
}

/// A scalar member as the output writes it (strings JSON-escaped, numbers as they are).
fn text(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(in_json(s)),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A string member as it reads (unescaped).
fn plain<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn yes(v: &Value, key: &str, label: &str) -> String {
    let on = v.get(key).and_then(Value::as_bool).unwrap_or(false);
    format!("{label}: {}", if on { "yes" } else { "no" })
}

/// A time member (RFC 3339 text the tool made of an `NSDate`).
fn time(d: &mut Draft, v: &Value, key: &str, what: &str, inv: &Invoked) {
    // The tool writes an NSDate as RFC 3339 UTC text (`2024-07-07T19:42:48Z`).
    let t = plain(v, key).filter(|t| t.len() >= 20 && t.as_bytes().get(10) == Some(&b'T'));
    d.time(t, t.map(|_| TimeEncoding::Iso8601), what, inv);
}

/// `Full Name (@username)`, as the app shows a user.
fn label(user: &Value) -> String {
    match (plain(user, "fullName"), plain(user, "username")) {
        (Some(n), Some(u)) => format!("{n} (@{u})"),
        (None, Some(u)) => format!("@{u}"),
        (Some(n), None) => n.to_string(),
        (None, None) => text(user, "userID").unwrap_or_else(|| "?".into()),
    }
}

/// The users of a conversation's `participants` (an `NSMutableSet`, unwrapped as an object of
/// `NS.object.<n>` members, or an array).
fn participants(conversation: &Value) -> Vec<&Value> {
    let items: Vec<&Value> = match conversation.get("participants") {
        Some(Value::Object(m)) => m.values().collect(),
        Some(Value::Array(a)) => a.iter().collect(),
        _ => Vec::new(),
    };
    items
        .into_iter()
        .filter_map(|p| p.get("participatingUser"))
        .filter(|u| u.is_object())
        .collect()
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(inv) = crate::calls::call_or_note(
        run.ctx,
        path,
        "parse_plist",
        json!({"path": path, "qualify": {"userID": "twitter"}}),
    )?
    else {
        return Ok(());
    };
    let value: Value = match serde_json::from_str(&inv.output.text) {
        Ok(v) => v,
        Err(e) => {
            run.ctx.unparsed(
                path,
                &format!("parse_plist output is not JSON: {e}"),
                Some(&inv.record.invocation_id),
            )?;
            return Ok(());
        }
    };
    let root = value.get("root").unwrap_or(&value);
    let Some(inbox) = root.get("inbox").filter(|i| i.is_object()) else {
        run.ctx.unparsed(
            path,
            "not a Twitter direct-message cache: the archive lacks root.inbox",
            Some(&inv.record.invocation_id),
        )?;
        return Ok(());
    };
    let context = inbox.get("context").cloned().unwrap_or(Value::Null);
    let me = text(&context, "userID");
    let account_id = text(&context, "accountID");
    let where_ = format!("Twitter direct-message cache {}", file_name(path));
    if let Some(q) = plain(&context, "userID.qualified") {
        run.observe(
            "owner",
            EntityKind::Person,
            "device owner",
            IdType::AccountId,
            q,
            &inv,
            format!(
                "The Twitter account signed in on the device (inbox.context.userID of the {where_})."
            ),
        )?;
    } else {
        run.ctx.unparsed(
            path,
            "the archive's inbox lacks context.userID: messages are read without their direction",
            Some(&inv.record.invocation_id),
        )?;
    }

    // The users of the inbox.
    let users = root
        .get("cachedUserByUserID")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (key, user) in users.iter().take(ENTRY_CAP as usize) {
        if !user.is_object() {
            continue;
        }
        let id = text(user, "userID").unwrap_or_else(|| in_json(key));
        let holder = me.as_deref() == Some(id.as_str());
        let mut d = Draft::new("contacts", format!("Twitter user {}", label(user)));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&id), &inv);
        d.fact(
            FactType::Account,
            text(user, "userID.qualified").as_deref(),
            &inv,
        );
        d.fact(FactType::Name, text(user, "fullName").as_deref(), &inv);
        d.fact(FactType::Account, text(user, "username").as_deref(), &inv);
        d.fact(FactType::Text, text(user, "bio").as_deref(), &inv);
        let image = user.get("profileImageMediaEntity").unwrap_or(&Value::Null);
        d.fact(FactType::Url, text(image, "url").as_deref(), &inv);
        time(
            &mut d,
            user,
            "kUpdatedTimestampCodingKey",
            "Twitter user cached (updated)",
            &inv,
        );
        time(&mut d, user, "createdAt", "Twitter account created", &inv);
        d.interpretation = format!(
            "cachedUserByUserID {id} of {path}: {} the Twitter user {} (id {id}); {}, {}, {}, {}, {}.",
            if holder {
                "the account signed in on the device,"
            } else {
                "a user of the direct-message inbox,"
            },
            label(user),
            if holder {
                "account holder: yes"
            } else {
                "account holder: no"
            },
            yes(user, "verified", "verified"),
            yes(user, "isBlueVerified", "blue verified"),
            yes(user, "protected", "protected"),
            yes(user, "blocking", "blocking"),
        );
        run.record(d)?;
        observe_user(run, user, holder, &inv, &where_)?;
    }

    // The messages of every conversation.
    let mut recorded = 0u64;
    let mut total = 0u64;
    for (key, timeline) in TIMELINES {
        let conversations = inbox
            .get(key)
            .and_then(|t| t.get("conversations"))
            .and_then(Value::as_array);
        for conversation in conversations.into_iter().flatten() {
            let ident = conversation.get("identifier").unwrap_or(&Value::Null);
            let conversation_id = text(ident, "canonicalID").or_else(|| text(ident, "localID"));
            let people = participants(conversation);
            let others: Vec<&Value> = people
                .iter()
                .copied()
                .filter(|u| text(u, "userID") != me)
                .collect();
            for u in &people {
                let holder = me.is_some() && text(u, "userID") == me;
                observe_user(run, u, holder, &inv, &where_)?;
            }
            let name = text(conversation, "conversationName");
            let shown = plain(conversation, "conversationName")
                .map(str::to_string)
                .unwrap_or_else(|| {
                    others
                        .iter()
                        .map(|u| label(u))
                        .collect::<Vec<_>>()
                        .join(", ")
                });
            for entry in conversation
                .get("entries")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !entry.is_object() {
                    continue;
                }
                total += 1;
                if recorded >= ENTRY_CAP {
                    continue;
                }
                recorded += 1;
                let sender = entry.get("sender").filter(|s| s.is_object());
                let sender_id = sender.and_then(|s| text(s, "userID"));
                let sent = me.is_some() && sender_id == me;
                let message_id = entry.get("identifier").and_then(|i| text(i, "canonicalID"));
                let body = plain(entry, "displayText").or_else(|| plain(entry, "originalText"));
                let mut d = Draft::new(
                    "messages",
                    format!(
                        "Twitter direct message {} {} {}",
                        message_id.as_deref().unwrap_or("?"),
                        if sent { "sent to" } else { "from" },
                        if sent {
                            shown.clone()
                        } else {
                            sender.map(label).unwrap_or_else(|| "no sender".into())
                        }
                    ),
                );
                d.fact(FactType::Path, Some(path), find);
                d.fact(FactType::Identifier, message_id.as_deref(), &inv);
                d.fact(FactType::Identifier, conversation_id.as_deref(), &inv);
                d.fact(FactType::Name, name.as_deref(), &inv);
                for u in &others {
                    d.fact(FactType::Name, text(u, "fullName").as_deref(), &inv);
                    d.fact(FactType::Account, text(u, "username").as_deref(), &inv);
                }
                if let Some(s) = sender {
                    d.fact(FactType::Name, text(s, "fullName").as_deref(), &inv);
                    d.fact(FactType::Account, text(s, "username").as_deref(), &inv);
                    d.fact(FactType::Identifier, sender_id.as_deref(), &inv);
                    d.fact(
                        FactType::Account,
                        text(s, "userID.qualified").as_deref(),
                        &inv,
                    );
                }
                d.fact(FactType::Text, body.map(in_json).as_deref(), &inv);
                let media = entry
                    .get("attachment")
                    .and_then(|a| a.get("entityMedia"))
                    .unwrap_or(&Value::Null);
                d.fact(FactType::Url, text(media, "mediaURL").as_deref(), &inv);
                d.fact(FactType::Url, text(media, "displayURL").as_deref(), &inv);
                d.fact(FactType::Url, text(media, "expandedURL").as_deref(), &inv);
                let reply = entry
                    .get("inReplyToMessageEntry")
                    .and_then(|r| r.get("identifier"))
                    .and_then(|i| text(i, "canonicalID"));
                d.fact(FactType::Identifier, reply.as_deref(), &inv);
                d.fact(FactType::Identifier, account_id.as_deref(), &inv);
                time(&mut d, entry, "time", "Twitter direct message time", &inv);
                d.interpretation = format!(
                    "Entry {} of the conversation {} ({shown}) in the {timeline} timeline ({key}) of {path}: a direct message {} {}; from me: {}, {}, {}{}.",
                    message_id.as_deref().unwrap_or("?"),
                    conversation_id.as_deref().unwrap_or("?"),
                    if sent {
                        "sent by the account holder"
                    } else {
                        "received"
                    },
                    sender
                        .map(|s| format!("(sender {})", label(s)))
                        .unwrap_or_else(|| "(no sender recorded: a conversation event)".into()),
                    if sent { "yes" } else { "no" },
                    yes(entry, "marked_as_spam", "marked as spam"),
                    yes(entry, "marked_as_abuse", "marked as abuse"),
                    reply
                        .as_deref()
                        .map(|r| format!(", in reply to {r}"))
                        .unwrap_or_default(),
                );
                run.record(d)?;
                let Some(body) = body else {
                    continue;
                };
                let party = |u: &Value| {
                    text(u, "userID").map(|id| {
                        (
                            format!("twitter:{id}"),
                            format!("the Twitter user {}", label(u)),
                        )
                    })
                };
                let other = if sent {
                    match others.as_slice() {
                        [one] => party(one),
                        _ => None,
                    }
                } else {
                    sender.and_then(party)
                };
                run.message_claims(
                    &inv,
                    body,
                    &format!(
                        "Twitter direct message {} ({})",
                        message_id.as_deref().unwrap_or("?"),
                        file_name(path)
                    ),
                    sent,
                    other,
                    "the sender is inbox.context.userID",
                    "the sender is another user",
                )?;
            }
        }
    }
    if total > recorded {
        run.ctx.unparsed(
            path,
            &format!("only the first {ENTRY_CAP} of {total} direct messages were recorded"),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok(())
}

/// Observes a user of the archive: the owner's ids when `holder`, else a person
/// `twitter:<id>` (namespaced id, user name, name).
fn observe_user(
    run: &Run<'_, '_>,
    user: &Value,
    holder: bool,
    inv: &Invoked,
    where_: &str,
) -> Result<(), RuntimeError> {
    let Some(account) = plain(user, "userID.qualified") else {
        return Ok(());
    };
    let shown = label(user);
    let (context, name, whose) = if holder {
        (
            "owner".to_string(),
            "device owner".to_string(),
            "the Twitter account signed in on the device".to_string(),
        )
    } else {
        (
            account.to_string(),
            shown.clone(),
            format!("the Twitter user {shown}"),
        )
    };
    // A value the output holds JSON-escaped (a quote, a backslash) would not ground as it
    // reads: left to the phenomenon's facts, which cite it escaped.
    fn plain_only(v: Option<&str>) -> Option<&str> {
        v.filter(|v| in_json(v) == *v)
    }
    run.observe_person(
        &context,
        &name,
        inv,
        &|what| format!("{what} of {whose} ({where_})."),
        &[
            (
                IdType::AccountId,
                plain_only(Some(account)),
                "The namespaced user id",
            ),
            (
                IdType::Nickname,
                plain_only(plain(user, "username")),
                "The user name",
            ),
            (
                IdType::DisplayName,
                plain_only(plain(user, "fullName")),
                "The name",
            ),
        ],
    )
}
