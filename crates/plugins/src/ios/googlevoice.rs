//! Google Voice (`…/AppGroup/<UUID>/Library/Application Support/<GAIA id>/threadingStore.sqlite`):
//! every field iLEAPP's `googleVoice` module reports, from one paged read of `ThreadItem`
//! (with its thread's participants, attachment count and voicemail transcript):
//!
//! - texts (`itemType` `SmsIn`/`SmsOut`): time, conversation, thread key, direction, sender,
//!   text, attachment count, unread, deleted, system message;
//! - calls (`IncomingCall`/`OutgoingCall`/`MissedCall`): time, direction, other party,
//!   duration, ring group name and number, transferred from/to, deleted, thread key;
//! - voicemails: time, caller, duration, transcript and its confidence, unread, deleted;
//! - `Participant`: each number with its blocked flag, thread and item counts, last activity.
//!
//! Identities: the sender of an outgoing text is one of the user's own Google Voice numbers
//! (`owner`); the folder holding the database is named by the Google account id (GAIA id, the
//! id Hangouts also keys its participants by), observed on `owner`; every other number is a
//! counterparty (`handle:<E.164>`). Wallet addresses in texts are claims by direction, as in
//! sms.db. `timestamp` is Unix seconds with a fraction (`unix_seconds`).

use masf_agents::RuntimeError;
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::{Draft, Run, file_name, raw, summarise};
use crate::calls::column_or_null;
use crate::drafts::unix_seconds;

const SUMMARY_SQL: &str = "SELECT count(*) AS total, min(NULLIF(timestamp, 0)) AS first_time, max(timestamp) AS last_time FROM ThreadItem";

/// Triage of every `threadingStore.sqlite` of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    run.each("threadingStore.sqlite", |find, path| one(run, find, path))
}

fn one(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let tables = [
        "ThreadItem",
        "Thread",
        "ThreadParticipant",
        "Participant",
        "Transcript",
        "MMSAttachmentInfo",
    ];
    let Some(schema) = run.schema(path, &tables)? else {
        return Ok(());
    };
    let required = [
        "threadItemKey",
        "threadItemType",
        "itemType",
        "timestamp",
        "senderPhoneNumber",
        "messageText",
        "threadKey",
        "isUnread",
        "isDeleted",
        "duration",
    ];
    if !schema.require(run, "ThreadItem", &required)? {
        return Ok(());
    }
    observe_account(run, find, path)?;
    let cols = schema.columns("ThreadItem");
    let has = |t: &str| !schema.columns(t).is_empty();
    let conversation = if has("ThreadParticipant") && has("Thread") {
        "COALESCE(th.groupName, (SELECT group_concat(tp.phoneNumberE164, ', ') FROM ThreadParticipant tp \
WHERE tp.threadKey = ti.threadKey AND tp.threadType = ti.threadType), ti.threadKey)"
    } else {
        "ti.threadKey"
    };
    let thread_join = if has("Thread") {
        " LEFT JOIN Thread th ON th.threadKey = ti.threadKey AND th.threadType = ti.threadType"
    } else {
        ""
    };
    let attachments = if has("MMSAttachmentInfo") {
        "(SELECT count(*) FROM MMSAttachmentInfo ma WHERE ma.threadItemKey = ti.threadItemKey \
AND ma.threadItemType = ti.threadItemType)"
    } else {
        "NULL"
    };
    let (transcript, confidence) = if has("Transcript") {
        (
            "(SELECT tr.text FROM Transcript tr WHERE tr.threadItemKey = ti.threadItemKey AND tr.threadItemType = ti.threadItemType LIMIT 1)",
            "(SELECT tr.confidence FROM Transcript tr WHERE tr.threadItemKey = ti.threadItemKey AND tr.threadItemType = ti.threadItemType LIMIT 1)",
        )
    } else {
        ("NULL", "NULL")
    };
    let column = |c: &str, alias: &str| column_or_null(&cols, "ti.", c, alias);
    let select = format!(
        "SELECT ti.rowid AS rid, ti.threadItemKey AS item_key, ti.itemType AS item_type, \
ti.timestamp AS ts, ti.senderPhoneNumber AS number, ti.messageText AS text, ti.duration AS duration, \
ti.isUnread AS unread, ti.isDeleted AS deleted, {}, {}, {}, {}, {}, ti.threadKey AS thread, \
{conversation} AS conversation, {attachments} AS attachments, {transcript} AS transcript, \
{confidence} AS confidence FROM ThreadItem ti{thread_join}",
        column("isSystemMessage", "system"),
        column("ringGroupName", "ring_group"),
        column("ringGroupPhoneNumber", "ring_group_number"),
        column("transferredFromE164", "transferred_from"),
        column("transferredToE164", "transferred_to"),
    );
    let Some(paged) = run.paged(path, &select, "ti.rowid")? else {
        return Ok(());
    };
    let where_ = format!("Google Voice ({})", file_name(path));
    for (inv, t, row) in paged.rows() {
        let kind = raw(t, row, "item_type").unwrap_or_default();
        let number = raw(t, row, "number");
        let ts = raw(t, row, "ts");
        let key = raw(t, row, "item_key").unwrap_or_default();
        let flags = format!(
            "unread {}, deleted {}",
            t.get(row, "unread").unwrap_or("?"),
            t.get(row, "deleted").unwrap_or("?")
        );
        let mut d = match kind.as_str() {
            "SmsIn" | "SmsOut" => {
                let sent = kind == "SmsOut";
                let conversation = raw(t, row, "conversation");
                let mut d = Draft::new(
                    "messages",
                    format!(
                        "Google Voice text {} {}",
                        if sent { "sent to" } else { "received from" },
                        conversation.as_deref().unwrap_or("an unknown party")
                    ),
                );
                d.fact(FactType::Phone, number.as_deref(), inv);
                d.fact(FactType::Text, raw(t, row, "text").as_deref(), inv);
                d.fact(FactType::Identifier, conversation.as_deref(), inv);
                d.fact(FactType::Count, raw(t, row, "attachments").as_deref(), inv);
                d.time(
                    ts.as_deref(),
                    unix_seconds(ts.as_deref()),
                    if sent { "Text sent" } else { "Text received" },
                    inv,
                );
                d.interpretation = format!(
                    "ThreadItem {key} ({kind}) of {path}: a text {} in the conversation {}, \
from {} ({flags}, system message {}, {} attachment(s)); timestamp is Unix seconds (unix_seconds).",
                    if sent {
                        "sent by the device's user"
                    } else {
                        "received by the device's user"
                    },
                    conversation.as_deref().unwrap_or("?"),
                    number.as_deref().unwrap_or("an unrecorded number"),
                    t.get(row, "system").unwrap_or("?"),
                    t.get(row, "attachments").unwrap_or("?"),
                );
                d
            }
            "IncomingCall" | "OutgoingCall" | "MissedCall" => {
                let direction = match kind.as_str() {
                    "IncomingCall" => "incoming",
                    "OutgoingCall" => "outgoing",
                    _ => "missed",
                };
                let mut d = Draft::new(
                    "calls",
                    format!(
                        "Google Voice {direction} call {} {}",
                        if direction == "outgoing" {
                            "to"
                        } else {
                            "from"
                        },
                        number.as_deref().unwrap_or("an unknown number")
                    ),
                );
                d.fact(FactType::Phone, number.as_deref(), inv);
                d.fact(FactType::Count, raw(t, row, "duration").as_deref(), inv);
                for (c, ty) in [
                    ("ring_group", FactType::Name),
                    ("ring_group_number", FactType::Phone),
                    ("transferred_from", FactType::Phone),
                    ("transferred_to", FactType::Phone),
                ] {
                    d.fact(ty, raw(t, row, c).as_deref(), inv);
                }
                d.time(ts.as_deref(), unix_seconds(ts.as_deref()), "Call", inv);
                d.interpretation = format!(
                    "ThreadItem {key} ({kind}) of {path}: a {direction} Google Voice call with {}, \
lasting {} seconds ({flags}); timestamp is Unix seconds (unix_seconds).",
                    number.as_deref().unwrap_or("an unrecorded number"),
                    t.get(row, "duration").unwrap_or("?"),
                );
                d
            }
            "Voicemail" => {
                let mut d = Draft::new(
                    "calls",
                    format!(
                        "Google Voice voicemail from {}",
                        number.as_deref().unwrap_or("an unknown number")
                    ),
                );
                d.fact(FactType::Phone, number.as_deref(), inv);
                d.fact(FactType::Count, raw(t, row, "duration").as_deref(), inv);
                d.fact(FactType::Text, raw(t, row, "transcript").as_deref(), inv);
                d.fact(FactType::Count, raw(t, row, "confidence").as_deref(), inv);
                d.time(
                    ts.as_deref(),
                    unix_seconds(ts.as_deref()),
                    "Voicemail left",
                    inv,
                );
                d.interpretation = format!(
                    "ThreadItem {key} of {path}: a voicemail of {} seconds left by {} ({flags}); \
{}; timestamp is Unix seconds (unix_seconds).",
                    t.get(row, "duration").unwrap_or("?"),
                    number.as_deref().unwrap_or("an unrecorded number"),
                    if t.get(row, "transcript").is_some() {
                        "Google's transcript is given with its confidence"
                    } else {
                        "no transcript"
                    },
                );
                d
            }
            _ => continue,
        };
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Identifier, Some(&key), inv);
        d.fact(FactType::Identifier, raw(t, row, "thread").as_deref(), inv);
        run.record(d)?;
        let Some(n) = number.as_deref() else {
            continue;
        };
        if kind == "SmsOut" {
            run.observe(
                "owner",
                EntityKind::Person,
                "device owner",
                IdType::Phone,
                n,
                inv,
                format!(
                    "{n} sent texts from the device through Google Voice (itemType SmsOut): one \
of the user's own Google Voice numbers."
                ),
            )?;
        } else {
            run.observe_handle(n, inv, &where_)?;
        }
        if let Some(text) = t.get(row, "text").filter(|_| kind.starts_with("Sms")) {
            // The other side of a text is its conversation's number (a one-to-one thread key
            // is `t.<number>`).
            let other = raw(t, row, "thread")
                .and_then(|k| k.strip_prefix("t.").map(str::to_string))
                .filter(|o| !o.contains(','));
            let other = if kind == "SmsIn" {
                Some(n.to_string())
            } else {
                other
            };
            run.message_claims(
                inv,
                text,
                &format!("Google Voice text {key} ({})", file_name(path)),
                kind == "SmsOut",
                run.handle_party(other.as_deref()),
                "itemType SmsOut",
                "itemType SmsIn",
            )?;
        }
    }
    if paged.truncated {
        summarise(
            run,
            "messages",
            path,
            find,
            "Google Voice items",
            SUMMARY_SQL,
            unix_seconds,
            "First item",
            "Last item",
        )?;
    }
    if !schema.columns("Participant").is_empty() {
        participants(run, find, path, &schema)?;
    }
    Ok(())
}

/// The Google account id (GAIA id) naming the folder that holds the database.
fn observe_account(run: &Run<'_, '_>, find: &Invoked, path: &str) -> Result<(), RuntimeError> {
    let Some(folder) = path.rsplit('/').nth(1) else {
        return Ok(());
    };
    if !(15..=25).contains(&folder.len()) || !folder.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(());
    }
    run.observe(
        "owner",
        EntityKind::Person,
        "device owner",
        IdType::AccountId,
        folder,
        find,
        format!(
            "The Google Voice database lies in a folder named by the Google account id \
{folder} (GAIA id) of the account signed in to the app."
        ),
    )?;
    Ok(())
}

/// `Participant`: each number with its blocked flag, thread and item counts, last activity
/// (as iLEAPP's `googleVoiceContacts`).
fn participants(
    run: &Run<'_, '_>,
    find: &Invoked,
    path: &str,
    schema: &super::Schema,
) -> Result<(), RuntimeError> {
    let threads = if schema.columns("ThreadParticipant").is_empty() {
        "NULL"
    } else {
        "(SELECT count(DISTINCT tp.threadKey) FROM ThreadParticipant tp WHERE tp.phoneNumberE164 = p.phoneNumberE164)"
    };
    let sql = format!(
        "SELECT p.rowid AS rid, p.phoneNumberE164 AS number, p.isBlocked AS blocked, {threads} AS threads, \
(SELECT count(*) FROM ThreadItem ti WHERE ti.senderPhoneNumber = p.phoneNumberE164) AS items, \
(SELECT max(ti.timestamp) FROM ThreadItem ti WHERE ti.senderPhoneNumber = p.phoneNumberE164) AS last_seen \
FROM Participant p"
    );
    let Some(paged) = run.paged(path, &sql, "p.rowid")? else {
        return Ok(());
    };
    for (inv, t, row) in paged.rows() {
        let Some(number) = raw(t, row, "number") else {
            continue;
        };
        let last = raw(t, row, "last_seen");
        let mut d = Draft::new("contacts", format!("Google Voice participant {number}"));
        d.fact(FactType::Path, Some(path), find);
        d.fact(FactType::Phone, Some(&number), inv);
        d.fact(FactType::Count, raw(t, row, "threads").as_deref(), inv);
        d.fact(FactType::Count, raw(t, row, "items").as_deref(), inv);
        d.time(
            last.as_deref(),
            unix_seconds(last.as_deref()),
            "Last item sent by the participant",
            inv,
        );
        d.interpretation = format!(
            "{number} takes part in {} Google Voice thread(s) of {path} and sent {} item(s); \
blocked: {}.",
            t.get(row, "threads").unwrap_or("?"),
            t.get(row, "items").unwrap_or("?"),
            if t.get(row, "blocked") == Some("1") {
                "yes"
            } else {
                "no"
            },
        );
        run.record(d)?;
        run.observe_handle(&number, inv, &format!("Google Voice ({})", file_name(path)))?;
    }
    Ok(())
}
