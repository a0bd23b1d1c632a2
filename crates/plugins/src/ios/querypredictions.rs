//! The keyboard's message query predictions (`query_predictions.db`), iLEAPP's
//! `queryPredictions`: a store of messages' text the keyboard learned predictions from. One
//! `messages` phenomenon per `messages` row — the text (`content`), sent by the device's user or
//! received (`isSent`), the conversation, ids and the time (`creationTimestamp`, Unix seconds).
//! A copy kept by the keyboard, not the Messages store: a message deleted from `sms.db` may
//! remain here (said). iLEAPP notes the file is absent from every recent public extraction it
//! checked; it is read where it is. A store without the table or `content` is noted.
//! Identities: none (the conversation id names no party).

use masf_agents::RuntimeError;
use masf_graph::FactType;

use super::{Draft, Run};
use crate::drafts::unix_seconds;

/// Triage of every query predictions store of the source.
pub fn triage(run: &Run<'_, '_>) -> Result<(), RuntimeError> {
    let Some((find, paths)) = run.find("query_predictions.db")? else {
        return Ok(());
    };
    for path in &paths {
        let Some(schema) = run.schema(path, &["messages"])? else {
            continue;
        };
        if !schema.require(run, "messages", &["content"])? {
            continue;
        }
        let c = |col: &str| format!("{} AS {col}", schema.col("m", "messages", col));
        let sql = format!(
            "SELECT m.rowid AS row_id, m.content, {} FROM messages m",
            [
                "creationTimestamp",
                "isSent",
                "conversationId",
                "id",
                "uuid"
            ]
            .map(c)
            .join(", ")
        );
        let Some(paged) = run.paged(path, &sql, "row_id")? else {
            continue;
        };
        for (inv, t, row) in paged.rows() {
            let get = |c: &str| crate::outputs::raw(t, row, c);
            let Some(content) = get("content").filter(|s| !s.trim().is_empty()) else {
                continue;
            };
            let sent = get("isSent").as_deref() == Some("1");
            let mut d = Draft::new(
                "messages",
                format!(
                    "Keyboard prediction store: message {}",
                    if sent { "sent" } else { "received" }
                ),
            );
            d.fact(FactType::Path, Some(path), &find);
            d.fact(FactType::Text, Some(&content), inv);
            for c in ["conversationId", "id", "uuid"] {
                d.fact(FactType::Identifier, get(c).as_deref(), inv);
            }
            let at = get("creationTimestamp");
            d.message_time(at.as_deref(), unix_seconds(at.as_deref()), sent, inv);
            d.interpretation = format!(
                "The keyboard's query predictions store kept the text of a message {} in conversation {}: {content}. It is the keyboard's copy, not the Messages store: a message deleted there may remain here.",
                if sent {
                    "the device's user sent"
                } else {
                    "the device's user received"
                },
                get("conversationId").unwrap_or_else(|| "?".into()),
            );
            run.record(d)?;
        }
        crate::calls::note_pages_cap(run.ctx, path, &paged, "prediction messages")?;
    }
    Ok(())
}
