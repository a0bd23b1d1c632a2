//! Google Call Screen (the Phone app `com.google.android.dialer` answering a call for its user
//! and transcribing it): `databases/callscreen_transcripts`, ALEAPP's `googleCallScreen` — one
//! `calls` phenomenon per `Transcript` row: its id, when it was last modified (Unix ms), the
//! screened call's audio recording (`files/callscreenrecordings/…`), and the conversation — a
//! Protocol Buffers message (decoded by `sqlite_query`'s `protobuf` option) whose field 1 is each
//! utterance: its time (1, Unix ms) and its text (3), field 2 kept as stored (ALEAPP does not
//! name it). Every utterance's text is a fact; the first and last utterance are times of the
//! timeline. What a caller said to the assistant before the user picked up (or did not) is
//! often the only record of the call's purpose.
//!
//! Schema drift: a `Transcript` without `conversation` is noted; the other columns are read
//! where present. Identities: none observed (the transcript names no number).

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::FactType;
use serde_json::Value;

use super::Located;
use super::databases::tables_with;
use crate::calls::{column_or_null, note_pages_cap, require_columns};
use crate::drafts::{Draft, record_draft, unix_millis};
use crate::identity::{artefact_name, pages_on_with, table_columns};
use crate::outputs::{in_json_cell, raw};

/// Whether `l` is the Phone app's Call Screen store.
pub fn is_store(l: &Located) -> bool {
    l.path
        .ends_with("/com.google.android.dialer/databases/callscreen_transcripts")
}

/// One `callscreen_transcripts`.
pub fn transcripts(ctx: &AgentCtx<'_>, l: &Located) -> Result<(), RuntimeError> {
    if tables_with(ctx, l, &["Transcript"])?.is_none() {
        return Ok(());
    }
    let name = artefact_name(&l.tree, &l.path);
    let cols = table_columns(ctx, &l.tree, &l.path, "Transcript")?;
    if !require_columns(
        ctx,
        &name,
        "Call Screen's callscreen_transcripts",
        "Transcript",
        &cols,
        &["conversation"],
    )? {
        return Ok(());
    }
    let c = |col: &str| column_or_null(&cols, "", col, col);
    let sql = format!(
        "SELECT rowid AS rid, {}, {}, {}, conversation FROM Transcript ORDER BY rowid",
        c("id"),
        c("lastModifiedMillis"),
        c("audioRecordingFilePath"),
    );
    let Some(pages) = pages_on_with(ctx, &l.tree, &l.path, &sql, &["protobuf"])? else {
        return Ok(());
    };
    note_pages_cap(ctx, &name, &pages, "Call Screen transcripts")?;
    for (inv, t, row) in pages.rows() {
        let id = t.get(row, "id").or(t.get(row, "rid")).unwrap_or("?");
        let message = t
            .get(row, "conversation")
            .and_then(|c| c.strip_prefix("protobuf:"))
            .and_then(|j| serde_json::from_str::<Value>(j).ok());
        let utterances: Vec<(Option<String>, Option<String>, Option<String>)> = message
            .as_ref()
            .and_then(|m| m.get("1"))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|u| {
                        let first = |f: &str| u.get(f).and_then(|v| v.get(0));
                        let number =
                            |f: &str| first(f).filter(|v| v.is_number()).map(|v| v.to_string());
                        (
                            number("1"),
                            first("3").and_then(Value::as_str).map(str::to_string),
                            number("2"),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut d = Draft::new("calls", format!("Call Screen transcript {id}"));
        d.fact(FactType::Path, Some(&l.path), &l.found);
        d.fact(FactType::Identifier, raw(t, row, "id").as_deref(), inv);
        d.fact(
            FactType::Path,
            raw(t, row, "audioRecordingFilePath").as_deref(),
            inv,
        );
        let modified = raw(t, row, "lastModifiedMillis");
        d.time(
            modified.as_deref(),
            unix_millis(modified.as_deref()),
            "Call Screen transcript modified",
            inv,
        );
        let mut said = Vec::new();
        let last = utterances.len().saturating_sub(1);
        for (i, (at, text, field2)) in utterances.iter().enumerate() {
            if let Some(s) = text {
                d.fact(FactType::Text, Some(&in_json_cell(s)), inv);
            }
            if i == 0 || i == last {
                d.time(
                    at.as_deref(),
                    unix_millis(at.as_deref()),
                    if i == 0 {
                        "Call Screen first utterance"
                    } else {
                        "Call Screen last utterance"
                    },
                    inv,
                );
            } else {
                d.fact(FactType::Timestamp, at.as_deref(), inv);
            }
            said.push(format!(
                "[{}{}] {}",
                at.as_deref().unwrap_or("no time"),
                field2
                    .as_deref()
                    .map(|f| format!(", field 2 = {f}"))
                    .unwrap_or_default(),
                text.as_deref().unwrap_or("(no text)")
            ));
        }
        d.interpretation = format!(
            "Transcript row {} of {}: the Phone app's Call Screen answered a call and transcribed it{}; {} utterance(s) (times Unix ms){}{}",
            t.get(row, "rid").unwrap_or("?"),
            l.name(),
            t.get(row, "audioRecordingFilePath")
                .map(|p| format!(", recording {p}"))
                .unwrap_or_default(),
            utterances.len(),
            if said.is_empty() { "" } else { ": " },
            said.join(" "),
        );
        if message.is_none() {
            d.interpretation.push_str(
                " The conversation cell is not a Protocol Buffers message: no utterance read.",
            );
        }
        record_draft(ctx, d)?;
    }
    Ok(())
}
