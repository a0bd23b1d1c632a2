//! MeetMe (`com.myyearbook.m/databases/chats.db`), the fields of ALEAPP's `get_meetmechats`: one
//! `messages` phenomenon per `messages` row with its sender's `members` row — sent (Unix
//! seconds or milliseconds by magnitude, or a date-time text as stored), thread, sender id,
//! first and last name, body, type, attachment path — and the sender a `meetme:<member id>`
//! person with the name. Which member is the device's user the store does not say; no
//! direction is given. Schema drift: `messages` must have `sent_at` and `sent_by`, its other
//! columns and `members` where present.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactType, IdType};

use super::Located;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, date_text, record_draft, unix_by_magnitude};
use crate::identity::{artefact_name, observe_columns, pages_on, schema_on};
use crate::outputs::raw;

/// Whether `l` is MeetMe's chat store.
pub fn is_meetme(l: &Located) -> bool {
    l.path.contains("/com.myyearbook.m/databases/") && l.name() == "chats.db"
}

const STORE: &str = "MeetMe's chats.db";

/// One `chats.db`.
pub fn triage(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    let Some(schema) = schema_on(ctx, &l.tree, &l.path)? else {
        return Ok(());
    };
    let name = artefact_name(&l.tree, &l.path);
    let Some(cols) = schema.get("messages") else {
        ctx.unparsed(
            &name,
            &format!("could not parse {STORE} because it has no messages table"),
            None,
        )?;
        return Ok(());
    };
    if !require_columns(ctx, &name, STORE, "messages", cols, &["sent_at", "sent_by"])? {
        return Ok(());
    }
    let members = schema
        .get("members")
        .filter(|m| m.contains("member_id"))
        .cloned()
        .unwrap_or_default();
    let member = |col: &str| {
        if members.contains(col) {
            format!(
                "(SELECT p.{col} FROM members p WHERE p.member_id = m.sent_by LIMIT 1) AS {col}"
            )
        } else {
            format!("NULL AS {col}")
        }
    };
    let c = |col: &str| column_or_null(cols, "m.", col, col);
    let order = if cols.contains("thread_id") {
        "m.thread_id, m.sent_at, m.rowid"
    } else {
        "m.sent_at, m.rowid"
    };
    let sql = format!(
        "SELECT m.rowid AS rid, m.sent_at AS sent_at, m.sent_by AS sent_by, {}, {}, {}, {}, {}, {}, \
CASE WHEN m.sent_by IS NOT NULL AND m.sent_by != '' THEN 'meetme:' || m.sent_by END AS qualified FROM messages m ORDER BY {order}",
        c("thread_id"),
        c("body"),
        c("type"),
        c("local_path"),
        member("first_name"),
        member("last_name"),
    );
    let Some(pages) = pages_on(ctx, &l.tree, &l.path, &sql)? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "MeetMe messages")?;
    for (inv, t, row) in pages.rows() {
        let rid = t.get(row, "rid").unwrap_or("?");
        let sender = t.get(row, "sent_by");
        let full = match (t.get(row, "first_name"), t.get(row, "last_name")) {
            (Some(f), Some(l)) => Some(format!("{f} {l}")),
            (Some(f), None) => Some(f.to_string()),
            (None, Some(l)) => Some(l.to_string()),
            (None, None) => None,
        };
        let who = full
            .clone()
            .or(sender.map(str::to_string))
            .unwrap_or_else(|| "an unknown member".into());
        let thread = t.get(row, "thread_id").unwrap_or("an unknown thread");
        let mut d = Draft::new(
            "messages",
            format!("MeetMe message from {who} in thread {thread}"),
        );
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Account, raw(t, row, "sent_by").as_deref(), inv);
        for col in ["first_name", "last_name"] {
            d.fact(FactType::Name, raw(t, row, col).as_deref(), inv);
        }
        d.fact(
            FactType::Identifier,
            raw(t, row, "thread_id").as_deref(),
            inv,
        );
        d.fact(FactType::Text, raw(t, row, "body").as_deref(), inv);
        d.fact(FactType::Text, raw(t, row, "type").as_deref(), inv);
        d.fact(FactType::Path, raw(t, row, "local_path").as_deref(), inv);
        let time = t.get(row, "sent_at");
        let enc = unix_by_magnitude(time).or(date_text(time));
        d.time(time, enc, "MeetMe message sent", inv);
        d.interpretation = format!(
            "messages row {rid} of {}: a MeetMe message by {who} (member {}) in thread {thread}; the store does not say which member is the device's user.",
            l.name(),
            sender.unwrap_or("not stored"),
        );
        record_draft(ctx, d)?;
        if let Some(id) = sender {
            observe_columns(
                ctx,
                &format!("meetme:{id}"),
                &who,
                t,
                row,
                inv,
                &[
                    ("qualified", IdType::AccountId, "The MeetMe member id"),
                    ("first_name", IdType::DisplayName, "The first name"),
                ],
                &|what| format!("{what} of the sender of a MeetMe message ({}).", l.name()),
            )?;
        }
    }
    Ok(())
}
