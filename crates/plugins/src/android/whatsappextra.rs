//! WhatsApp for Android's message add-ons (`com.whatsapp`, WhatsApp Business `com.whatsapp.w4b`:
//! `databases/msgstore.db`, the 2021-on layout), ALEAPP's `whatsAppExtended` (reactions, edit
//! history, revoked messages, polls, per-recipient receipts, system events): what the message
//! store keeps beside its messages, which [`super::whatsapp`] does not read. A second reader of
//! the same store: it records no message, call, group, contact or LID mapping again — each row
//! here names the message it belongs to by its key id (`message.key_id`, a fact of that
//! message's phenomenon too) and its chat.
//!
//! | table | phenomenon | fields |
//! |---|---|---|
//! | `message_add_on_reaction` ⋈ `message_add_on` | one `messages` per reaction ("WhatsApp reaction <emoji> sent/received in <chat>") | the emoji (empty: withdrawn), direction, the reacting group member's JID, chat JID and subject, the add-on's key id and type as stored, the reacted-to message's key id and text; when (`message_add_on.timestamp`) and the sender's time (`sender_timestamp`) |
//! | `message_edit_info` | one `messages` per edited message ("WhatsApp message edited in <chat>") | the message's key id and original key id, direction, group sender, chat, the text as now stored; last edited (`edited_timestamp`), the sender's time (`sender_timestamp`) |
//! | `message_revoked` | one `messages` per message deleted for everyone ("WhatsApp message deleted for everyone in <chat>") | the revoked key id, the message's key id and type as stored, direction, group sender, the admin who deleted it (a group's), chat; when (`revoke_timestamp`, newer releases) |
//! | `message_poll` with `message_poll_option` | one `messages` per poll ("WhatsApp poll <question> in <chat>") | the question (the message's text), every option with its stored vote total, the number of options, how many may be chosen, direction, group sender, chat, key id; sent (`message.timestamp`), closes (`end_time`, newer releases) |
//! | `receipt_user` | one `messages` per recipient of a message ("WhatsApp receipt from <recipient> for message <key id> in <chat>") | the recipient's JID, the message's key id, type and chat; delivered (`receipt_timestamp`), read (`read_timestamp`), played (`played_timestamp`) |
//! | `message_system` with `message_system_chat_participant`, `…_number_change`, `…_value_change`, `…_group` | one `messages` per system event ("WhatsApp system event <action> in <chat>") | the action type as stored (WhatsApp keeps no names for it), the participants it concerns, old and new JID of a number change, the prior value (an old subject or description), whether the device's user joined, chat, key id; when (`message.timestamp`) |
//!
//! Times are Unix milliseconds (a poll's `end_time` read by its size). Columns are taken by name
//! (absent ones NULL: older releases lack `revoke_timestamp`, `admin_jid_row_id`, `end_time`); a
//! table of these that lacks its key columns is noted; a store without them (a release before
//! the feature, the layout before 2021) is left to [`super::whatsapp`], which reads or notes it.
//! Not read: per-voter poll votes (`message_add_on_poll_vote`, empty in ALEAPP's test images),
//! pins and keep-in-chat add-ons, newsletter (channel) reactions.
//!
//! Identities (`handle:<jid>`, as [`super::whatsapp`] keys them): a group member who reacted, the
//! recipient of each receipt (a message of the device's user reached them), the admin who deleted
//! a message; both JIDs of a number change on the new one's person (WhatsApp announces "changed
//! their number": one account holder). Groups and broadcast lists name no person.

use std::collections::{BTreeMap, BTreeSet};

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{EntityKind, FactType, IdType};
use masf_tools::Invoked;

use super::Located;
use crate::calls::{column_or_null, require_columns};
use crate::drafts::{RowPhenomena, headline, unix_by_magnitude, unix_millis};
use crate::identity::{artefact_name, jid_type, observe};
use crate::outputs::{Table, raw};

/// A database's tables and their columns.
type Columns = BTreeMap<String, BTreeSet<String>>;

/// Whether `l` is a WhatsApp (or WhatsApp Business) message store in the app's folder.
pub fn is_store(l: &Located) -> bool {
    l.name() == "msgstore.db"
        && (l.path.contains("/com.whatsapp/") || l.path.contains("/com.whatsapp.w4b/"))
}

/// One `msgstore.db`: its add-on tables, when it has the 2021-on `message`, `chat` and `jid`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = crate::identity::schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let has = |t: &str, cols: &[&str]| {
        schema
            .get(t)
            .is_some_and(|c| cols.iter().all(|x| c.contains(*x)))
    };
    // the older layout, or one the WhatsApp reader notes: nothing of this reader's
    if !(has("message", &["_id", "chat_row_id", "from_me"])
        && has("chat", &["_id", "jid_row_id"])
        && has("jid", &["_id", "raw_string"]))
    {
        return Ok(());
    }
    reactions(ctx, l, &schema)?;
    edits(ctx, l, &schema)?;
    revoked(ctx, l, &schema)?;
    polls(ctx, l, &schema)?;
    receipts(ctx, l, &schema)?;
    system_events(ctx, l, &schema)
}

/// The columns of `table`, when the store has it (else `None`: the release keeps none) and it
/// has every one of `needed` (else noted, naming those missing).
fn table<'s>(
    ctx: &AgentCtx<'_>,
    l: &Located,
    schema: &'s Columns,
    table: &str,
    needed: &[&str],
) -> Result<Option<&'s BTreeSet<String>>, RuntimeError> {
    let Some(cols) = schema.get(table) else {
        return Ok(None);
    };
    let name = artefact_name(&l.tree, &l.path);
    Ok(require_columns(ctx, &name, "WhatsApp's msgstore.db", table, cols, needed)?.then_some(cols))
}

/// The JID a row id column of `alias` points to, as `to` (NULL when the table lacks it).
fn jid_of(cols: &BTreeSet<String>, alias: &str, col: &str, to: &str) -> String {
    if cols.contains(col) {
        format!("(SELECT raw_string FROM jid WHERE _id = {alias}.{col}) AS {to}")
    } else {
        format!("NULL AS {to}")
    }
}

/// The chat's JID and subject (`chat_jid`, `subject`) of the chat row id `row` (an expression).
fn chat_of(schema: &Columns, row: &str) -> String {
    let subject = if schema.get("chat").is_some_and(|c| c.contains("subject")) {
        format!("(SELECT subject FROM chat WHERE _id = {row}) AS subject")
    } else {
        "NULL AS subject".to_string()
    };
    format!(
        "(SELECT j.raw_string FROM chat c JOIN jid j ON j._id = c.jid_row_id WHERE c._id = {row}) AS chat_jid, {subject}"
    )
}

/// The columns of `message` (joined as `m`) a phenomenon names: direction, key id, group sender.
fn message_cols(schema: &Columns) -> String {
    let m = &schema["message"];
    [
        "m.from_me AS from_me".to_string(),
        column_or_null(m, "m.", "key_id", "message_key"),
        jid_of(m, "m", "sender_jid_row_id", "sender"),
        chat_of(schema, "m.chat_row_id"),
    ]
    .join(", ")
}

/// A chat as a title names it: a group by its subject and JID, else the JID.
fn chat_label(t: &Table, row: &[Option<String>]) -> String {
    match (raw(t, row, "chat_jid"), raw(t, row, "subject")) {
        (Some(j), Some(s)) if j.ends_with("@g.us") => format!("group {s} ({j})"),
        (Some(j), _) => j,
        (None, _) => "a chat no longer listed".to_string(),
    }
}

/// Whether the row's message (or add-on) is the device's user's.
fn from_me(t: &Table, row: &[Option<String>]) -> bool {
    t.get(row, "from_me") == Some("1")
}

/// Observes the person `jid` names on `handle:<context>` (not a group or broadcast list).
fn observe_jid(
    ctx: &AgentCtx<'_>,
    context: &str,
    jid: &str,
    inv: &Invoked,
    why: String,
) -> Result<(), RuntimeError> {
    if jid.is_empty()
        || jid_type(jid) == IdType::AccountId
        || jid_type(context) == IdType::AccountId
    {
        return Ok(());
    }
    observe(
        ctx,
        &format!("handle:{context}"),
        EntityKind::Person,
        context,
        jid_type(jid),
        jid,
        inv,
        why,
    )?;
    Ok(())
}

/// `message_add_on_reaction` ⋈ `message_add_on`: emoji reactions.
fn reactions(ctx: &AgentCtx<'_>, l: &Located, schema: &Columns) -> Result<(), RuntimeError> {
    let Some(r) = table(
        ctx,
        l,
        schema,
        "message_add_on_reaction",
        &["message_add_on_row_id", "reaction"],
    )?
    else {
        return Ok(());
    };
    let Some(a) = table(ctx, l, schema, "message_add_on", &["_id", "from_me"])? else {
        return Ok(());
    };
    let m = &schema["message"];
    let parent = |col: &str, to: &str| {
        if a.contains("parent_message_row_id") && m.contains(col) {
            format!("(SELECT {col} FROM message WHERE _id = a.parent_message_row_id) AS {to}")
        } else {
            format!("NULL AS {to}")
        }
    };
    let chat_row = match (
        a.contains("chat_row_id"),
        a.contains("parent_message_row_id"),
    ) {
        (true, true) => {
            "COALESCE(a.chat_row_id, (SELECT chat_row_id FROM message WHERE _id = a.parent_message_row_id))"
        }
        (true, false) => "a.chat_row_id",
        (false, true) => "(SELECT chat_row_id FROM message WHERE _id = a.parent_message_row_id)",
        (false, false) => "NULL",
    };
    let sql = format!(
        "SELECT r.rowid AS rid, r.reaction AS reaction, a.from_me AS from_me, {}, {}, {}, {}, {}, {}, {}, {} \
FROM message_add_on_reaction r JOIN message_add_on a ON a._id = r.message_add_on_row_id ORDER BY r.rowid",
        column_or_null(r, "r.", "sender_timestamp", "sender_timestamp"),
        column_or_null(a, "a.", "timestamp", "time"),
        column_or_null(a, "a.", "key_id", "key_id"),
        column_or_null(a, "a.", "message_add_on_type", "add_on_type"),
        jid_of(a, "a", "sender_jid_row_id", "sender"),
        chat_of(schema, chat_row),
        parent("key_id", "message_key"),
        parent("text_data", "message_text"),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        let emoji = raw(t, row, "reaction")
            .filter(|e| !e.is_empty())
            .unwrap_or_else(|| "(withdrawn)".to_string());
        let chat = chat_label(t, row);
        if from_me(t, row) {
            format!("WhatsApp reaction {emoji} sent in {chat}")
        } else {
            match raw(t, row, "sender").filter(|s| jid_type(s) != IdType::AccountId) {
                Some(s) => format!("WhatsApp reaction {emoji} received in {chat} from {s}"),
                None => format!("WhatsApp reaction {emoji} received in {chat}"),
            }
        }
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "message_add_on_reaction",
            category: "messages",
            what: "an emoji reaction to a WhatsApp message (from_me 1: the device's user reacted; an empty reaction is one withdrawn; the sender is stored for a group's members only, in a one-to-one chat the other party is the chat's JID), with the key id and text of the message it reacts to",
            title: &title,
            fields: &[
                ("reaction", FactType::Text, "reaction"),
                ("from_me", FactType::Text, "from_me"),
                ("sender", FactType::Account, "reacting member"),
                ("chat_jid", FactType::Account, "chat"),
                ("subject", FactType::Name, "group subject"),
                ("key_id", FactType::Identifier, "add-on key id"),
                ("add_on_type", FactType::Text, "add-on type as stored"),
                (
                    "message_key",
                    FactType::Identifier,
                    "reacted-to message key id",
                ),
                ("message_text", FactType::Text, "reacted-to message"),
            ],
            times: &[
                ("time", "WhatsApp reaction", unix_millis),
                (
                    "sender_timestamp",
                    "WhatsApp reaction (sender's time)",
                    unix_millis,
                ),
            ],
        },
        &mut |inv, t, row| {
            if from_me(t, row) {
                return Ok(());
            }
            let sender = raw(t, row, "sender").filter(|s| jid_type(s) != IdType::AccountId);
            let chat = raw(t, row, "chat_jid").filter(|c| jid_type(c) != IdType::AccountId);
            if let Some(j) = sender.or(chat) {
                observe_jid(
                    ctx,
                    &j,
                    &j,
                    inv,
                    format!(
                        "The WhatsApp account {j}, who reacted {} to a message ({file}, message_add_on_reaction row {}).",
                        t.get(row, "reaction").unwrap_or(""),
                        t.get(row, "rid").unwrap_or("?")
                    ),
                )?;
            }
            Ok(())
        },
    )
}

/// `message_edit_info`: messages edited after they were sent.
fn edits(ctx: &AgentCtx<'_>, l: &Located, schema: &Columns) -> Result<(), RuntimeError> {
    let Some(e) = table(ctx, l, schema, "message_edit_info", &["message_row_id"])? else {
        return Ok(());
    };
    let sql = format!(
        "SELECT e.rowid AS rid, {}, {}, {}, {}, {} FROM message_edit_info e \
LEFT JOIN message m ON m._id = e.message_row_id ORDER BY e.rowid",
        column_or_null(e, "e.", "original_key_id", "original_key_id"),
        column_or_null(e, "e.", "edited_timestamp", "edited"),
        column_or_null(e, "e.", "sender_timestamp", "sender_timestamp"),
        column_or_null(&schema["message"], "m.", "text_data", "text"),
        message_cols(schema),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        format!(
            "WhatsApp message {} {}",
            if from_me(t, row) {
                "edited by the device's user in"
            } else {
                "edited in"
            },
            chat_label(t, row)
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "message_edit_info",
            category: "messages",
            what: "a WhatsApp message edited after it was sent (from_me 1: by the device's user); the text is the one now stored, the earlier text is not kept here",
            title: &title,
            fields: &[
                ("message_key", FactType::Identifier, "message key id"),
                ("original_key_id", FactType::Identifier, "original key id"),
                ("from_me", FactType::Text, "from_me"),
                ("sender", FactType::Account, "group sender"),
                ("chat_jid", FactType::Account, "chat"),
                ("subject", FactType::Name, "group subject"),
                ("text", FactType::Text, "text as now stored"),
            ],
            times: &[
                ("edited", "WhatsApp message last edited", unix_millis),
                (
                    "sender_timestamp",
                    "WhatsApp message edited (sender's time)",
                    unix_millis,
                ),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `message_revoked`: messages deleted for everyone (by their sender or a group admin).
fn revoked(ctx: &AgentCtx<'_>, l: &Located, schema: &Columns) -> Result<(), RuntimeError> {
    let Some(r) = table(ctx, l, schema, "message_revoked", &["message_row_id"])? else {
        return Ok(());
    };
    let sql = format!(
        "SELECT r.rowid AS rid, {}, {}, {}, {}, {} FROM message_revoked r \
LEFT JOIN message m ON m._id = r.message_row_id ORDER BY r.rowid",
        column_or_null(r, "r.", "revoked_key_id", "revoked_key_id"),
        column_or_null(r, "r.", "revoke_timestamp", "revoked"),
        jid_of(r, "r", "admin_jid_row_id", "admin"),
        column_or_null(&schema["message"], "m.", "message_type", "message_type"),
        message_cols(schema),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        let chat = chat_label(t, row);
        match raw(t, row, "admin").filter(|a| jid_type(a) != IdType::AccountId) {
            Some(a) => format!("WhatsApp message deleted for everyone in {chat} by admin {a}"),
            None if from_me(t, row) => {
                format!("WhatsApp message deleted for everyone by the device's user in {chat}")
            }
            None => format!("WhatsApp message deleted for everyone in {chat}"),
        }
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "message_revoked",
            category: "messages",
            what: "a WhatsApp message deleted for everyone (from_me 1: the device's user's; in a group, by its sender or the admin named); its text is no longer stored",
            title: &title,
            fields: &[
                ("revoked_key_id", FactType::Identifier, "revoked key id"),
                ("message_key", FactType::Identifier, "message key id"),
                ("message_type", FactType::Text, "message type as stored"),
                ("from_me", FactType::Text, "from_me"),
                ("sender", FactType::Account, "group sender"),
                ("admin", FactType::Account, "deleting admin"),
                ("chat_jid", FactType::Account, "chat"),
                ("subject", FactType::Name, "group subject"),
            ],
            times: &[(
                "revoked",
                "WhatsApp message deleted for everyone",
                unix_millis,
            )],
        },
        &mut |inv, t, row| {
            if let Some(a) = raw(t, row, "admin") {
                observe_jid(
                    ctx,
                    &a,
                    &a,
                    inv,
                    format!(
                        "The WhatsApp account {a}, the group admin who deleted a message for everyone ({file}, message_revoked row {}).",
                        t.get(row, "rid").unwrap_or("?")
                    ),
                )?;
            }
            Ok(())
        },
    )
}

/// `message_poll` with its `message_poll_option`s: polls and their stored vote totals.
fn polls(ctx: &AgentCtx<'_>, l: &Located, schema: &Columns) -> Result<(), RuntimeError> {
    let Some(p) = table(ctx, l, schema, "message_poll", &["message_row_id"])? else {
        return Ok(());
    };
    let (options, count) = match schema.get("message_poll_option") {
        Some(o) if o.contains("message_row_id") && o.contains("option_name") => {
            let each = if o.contains("vote_total") {
                "option_name || ' (' || IFNULL(vote_total, '?') || ')'"
            } else {
                "option_name"
            };
            (
                format!(
                    "(SELECT group_concat(o, '; ') FROM (SELECT {each} AS o FROM message_poll_option WHERE message_row_id = p.message_row_id ORDER BY rowid)) AS options"
                ),
                "(SELECT count(*) FROM message_poll_option WHERE message_row_id = p.message_row_id) AS option_count".to_string(),
            )
        }
        _ => (
            "NULL AS options".to_string(),
            "NULL AS option_count".to_string(),
        ),
    };
    let m = &schema["message"];
    let sql = format!(
        "SELECT p.rowid AS rid, {}, {options}, {count}, {}, {}, {}, {} FROM message_poll p \
LEFT JOIN message m ON m._id = p.message_row_id ORDER BY p.rowid",
        column_or_null(m, "m.", "text_data", "question"),
        column_or_null(p, "p.", "selectable_options_count", "selectable"),
        column_or_null(p, "p.", "end_time", "end_time"),
        column_or_null(m, "m.", "timestamp", "time"),
        message_cols(schema),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        format!(
            "WhatsApp poll {} {} {}",
            raw(t, row, "question")
                .map(|q| headline(&q))
                .unwrap_or_else(|| "(question not stored)".to_string()),
            if from_me(t, row) {
                "sent in"
            } else {
                "received in"
            },
            chat_label(t, row)
        )
    };
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "message_poll",
            category: "messages",
            what: "a WhatsApp poll (from_me 1: the device's user's): its question is the message's text, each option with the vote total the phone stored (who voted is not read), selectable options 0 for any number",
            title: &title,
            fields: &[
                ("question", FactType::Text, "question"),
                ("options", FactType::Text, "options (votes)"),
                ("option_count", FactType::Count, "options"),
                ("selectable", FactType::Count, "selectable options"),
                ("message_key", FactType::Identifier, "message key id"),
                ("from_me", FactType::Text, "from_me"),
                ("sender", FactType::Account, "group sender"),
                ("chat_jid", FactType::Account, "chat"),
                ("subject", FactType::Name, "group subject"),
            ],
            times: &[
                ("time", "WhatsApp poll sent", unix_millis),
                ("end_time", "WhatsApp poll closes", unix_by_magnitude),
            ],
        },
        &mut |_, _, _| Ok(()),
    )
}

/// `receipt_user`: when each recipient got, read and played a message of the device's user.
fn receipts(ctx: &AgentCtx<'_>, l: &Located, schema: &Columns) -> Result<(), RuntimeError> {
    let Some(r) = table(
        ctx,
        l,
        schema,
        "receipt_user",
        &["message_row_id", "receipt_user_jid_row_id"],
    )?
    else {
        return Ok(());
    };
    let sql = format!(
        "SELECT r.rowid AS rid, {}, {}, {}, {}, {}, {} FROM receipt_user r \
LEFT JOIN message m ON m._id = r.message_row_id ORDER BY r.rowid",
        jid_of(r, "r", "receipt_user_jid_row_id", "recipient"),
        column_or_null(r, "r.", "receipt_timestamp", "delivered"),
        column_or_null(r, "r.", "read_timestamp", "read"),
        column_or_null(r, "r.", "played_timestamp", "played"),
        column_or_null(&schema["message"], "m.", "message_type", "message_type"),
        message_cols(schema),
    );
    let title = |t: &Table, row: &[Option<String>]| {
        format!(
            "WhatsApp receipt from {} for {} in {}",
            raw(t, row, "recipient").unwrap_or_else(|| "a recipient not listed".to_string()),
            raw(t, row, "message_key")
                .map(|k| format!("message {k}"))
                .unwrap_or_else(|| "a message no longer stored".to_string()),
            chat_label(t, row)
        )
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "receipt_user",
            category: "messages",
            what: "a recipient's receipt of a WhatsApp message of the device's user: delivered to their phone (receipt_timestamp), read (read_timestamp), played (played_timestamp, a voice note or video); a message no longer stored leaves its chat and key empty",
            title: &title,
            fields: &[
                ("recipient", FactType::Account, "recipient"),
                ("message_key", FactType::Identifier, "message key id"),
                ("message_type", FactType::Text, "message type as stored"),
                ("chat_jid", FactType::Account, "chat"),
                ("subject", FactType::Name, "group subject"),
            ],
            times: &[
                (
                    "delivered",
                    "WhatsApp message delivered to recipient",
                    unix_millis,
                ),
                ("read", "WhatsApp message read by recipient", unix_millis),
                (
                    "played",
                    "WhatsApp message played by recipient",
                    unix_millis,
                ),
            ],
        },
        &mut |inv, t, row| {
            if let Some(j) = raw(t, row, "recipient") {
                observe_jid(
                    ctx,
                    &j,
                    &j,
                    inv,
                    format!(
                        "The WhatsApp account {j}, a recipient of a message of the device's user ({file}, receipt_user row {}).",
                        t.get(row, "rid").unwrap_or("?")
                    ),
                )?;
            }
            Ok(())
        },
    )
}

/// `message_system` and its companion tables: group and chat events.
fn system_events(ctx: &AgentCtx<'_>, l: &Located, schema: &Columns) -> Result<(), RuntimeError> {
    let Some(_) = table(
        ctx,
        l,
        schema,
        "message_system",
        &["message_row_id", "action_type"],
    )?
    else {
        return Ok(());
    };
    let with = |t: &str, cols: &[&str]| {
        schema
            .get(t)
            .is_some_and(|c| c.contains("message_row_id") && cols.iter().all(|x| c.contains(*x)))
    };
    let participants = if with("message_system_chat_participant", &["user_jid_row_id"]) {
        "(SELECT group_concat(j, ', ') FROM (SELECT pj.raw_string AS j FROM message_system_chat_participant p \
JOIN jid pj ON pj._id = p.user_jid_row_id WHERE p.message_row_id = s.message_row_id ORDER BY p.rowid)) AS participants"
    } else {
        "NULL AS participants"
    };
    let mut joins = String::new();
    let number = if with(
        "message_system_number_change",
        &["old_jid_row_id", "new_jid_row_id"],
    ) {
        joins.push_str(
            " LEFT JOIN message_system_number_change n ON n.message_row_id = s.message_row_id",
        );
        "(SELECT raw_string FROM jid WHERE _id = n.old_jid_row_id) AS old_jid, (SELECT raw_string FROM jid WHERE _id = n.new_jid_row_id) AS new_jid"
    } else {
        "NULL AS old_jid, NULL AS new_jid"
    };
    let value = if with("message_system_value_change", &["old_data"]) {
        joins.push_str(
            " LEFT JOIN message_system_value_change v ON v.message_row_id = s.message_row_id",
        );
        "v.old_data AS old_value"
    } else {
        "NULL AS old_value"
    };
    let group = if with("message_system_group", &["is_me_joined"]) {
        joins.push_str(" LEFT JOIN message_system_group g ON g.message_row_id = s.message_row_id");
        "g.is_me_joined AS me_joined"
    } else {
        "NULL AS me_joined"
    };
    let m = &schema["message"];
    let sql = format!(
        "SELECT s.rowid AS rid, s.action_type AS action_type, {participants}, {number}, {value}, {group}, {}, {}, {} \
FROM message_system s LEFT JOIN message m ON m._id = s.message_row_id{joins} ORDER BY s.rowid",
        column_or_null(m, "m.", "text_data", "text"),
        column_or_null(m, "m.", "timestamp", "time"),
        message_cols(schema),
    );
    let title = |t: &Table, row: &[Option<String>]| match (
        raw(t, row, "old_jid"),
        raw(t, row, "new_jid"),
    ) {
        (Some(o), Some(n)) => format!("WhatsApp number change {o} to {n}"),
        _ => format!(
            "WhatsApp system event {} in {}",
            t.get(row, "action_type").unwrap_or("?"),
            chat_label(t, row)
        ),
    };
    let file = l.name().to_string();
    super::record_query(
        ctx,
        l,
        &sql,
        &RowPhenomena {
            table: "message_system",
            category: "messages",
            what: "a WhatsApp system event (a group's or chat's change: members added or removed, subject, description or photo changed, a number change, security code, disappearing messages); its action type is WhatsApp's number, as stored",
            title: &title,
            fields: &[
                ("action_type", FactType::Text, "action type as stored"),
                ("participants", FactType::Text, "participants concerned"),
                ("old_jid", FactType::Account, "old JID"),
                ("new_jid", FactType::Account, "new JID"),
                ("old_value", FactType::Text, "prior value"),
                ("me_joined", FactType::Text, "is_me_joined"),
                ("text", FactType::Text, "text"),
                ("message_key", FactType::Identifier, "message key id"),
                ("sender", FactType::Account, "group sender"),
                ("chat_jid", FactType::Account, "chat"),
                ("subject", FactType::Name, "group subject"),
            ],
            times: &[("time", "WhatsApp system event", unix_millis)],
        },
        &mut |inv, t, row| {
            if let (Some(o), Some(n)) = (raw(t, row, "old_jid"), raw(t, row, "new_jid")) {
                let why = format!(
                    "WhatsApp's system event ({file}, message_system row {}) says {o} changed their number to {n}: one account holder.",
                    t.get(row, "rid").unwrap_or("?")
                );
                observe_jid(ctx, &n, &n, inv, why.clone())?;
                observe_jid(ctx, &n, &o, inv, why)?;
            }
            Ok(())
        },
    )
}
