//! Rows an app's database no longer shows but its write-ahead log or its file's replaced pages
//! still hold (`sqlite_wal_history`): messages since deleted, earlier versions of messages since
//! edited. Shared by the readers of message stores, each of which records a recovered row as it
//! records a live one, titled and interpreted as recovered.

use masf_agents::{AgentCtx, RuntimeError};
use masf_tools::Invoked;
use serde_json::json;

use crate::outputs::Table;

/// Most recovered rows read per table.
pub const RECOVERED_CAP: u64 = 20_000;

/// The rows of `table` of the database `at` names (`{"path": …}`, with its `partition` where
/// the source has several file systems) that only earlier page versions hold, with the tool's
/// extra options (`typedstream_text`); `None` when there are none. A call that fails (a damaged
/// log) is noted on `artefact` as the history not read, naming why: the live rows stand.
pub fn wal_rows(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    at: serde_json::Value,
    table: &str,
    options: &[&str],
) -> Result<Option<(Invoked, Table)>, RuntimeError> {
    let mut args = at;
    args["table"] = json!(table);
    args["limit"] = json!(RECOVERED_CAP);
    for o in options {
        args[*o] = json!(true);
    }
    let path = artefact;
    let inv = ctx.call("sqlite_wal_history", args)?;
    if !crate::calls::succeeded(&inv) {
        ctx.unparsed(
            path,
            &format!(
                "the write-ahead log's earlier rows of {table} were not read: {}",
                crate::calls::failure_reason(&inv)
            ),
            Some(&inv.record.invocation_id),
        )?;
        return Ok(None);
    }
    let t = Table::parse(&inv.output.text);
    if t.truncated {
        ctx.unparsed(
            path,
            &format!(
                "more than {RECOVERED_CAP} earlier rows of {table} in the write-ahead log: the first {RECOVERED_CAP} were read"
            ),
            Some(&inv.record.invocation_id),
        )?;
    }
    Ok((!t.rows.is_empty()).then_some((inv, t)))
}

/// [`wal_rows`] for the database at `path` of the file system `tree` (an Android reader's
/// `Located`): the artefact named and the call's `partition` set as the readers' other calls do.
pub fn wal_rows_on(
    ctx: &AgentCtx<'_>,
    tree: &crate::identity::TreeRef,
    path: &str,
    table: &str,
    options: &[&str],
) -> Result<Option<(Invoked, Table)>, RuntimeError> {
    wal_rows(
        ctx,
        &crate::identity::artefact_name(tree, path),
        crate::identity::args_on(tree, json!({"path": path})),
        table,
        options,
    )
}

/// The integer ids column `col` of the recovered rows holds, sorted and each once: the keys a
/// reader looks up in the live tables (`… WHERE _id IN (…)`) to name a row's chat or sender.
pub fn ids(t: &Table, col: &str) -> Vec<String> {
    let mut v: Vec<String> = t
        .rows
        .iter()
        .filter_map(|r| t.get(r, col))
        .filter(|x| x.parse::<i64>().is_ok())
        .map(str::to_string)
        .collect();
    v.sort();
    v.dedup();
    v
}

/// How a recovered row is said: `deleted` → "Deleted", `changed` → "Earlier version of".
pub fn title_word(status: Option<&str>) -> &'static str {
    match status {
        Some("deleted") => "Deleted",
        _ => "Earlier version of",
    }
}

/// Where a recovered row was read, for an interpretation: its status, frame and frame state.
pub fn provenance(t: &Table, row: &[Option<String>]) -> String {
    let status = match t.get(row, "status") {
        Some("deleted") => "is no longer in the table (deleted)",
        _ => "has changed since (this is its earlier version)",
    };
    let place = match (t.get(row, "frame"), t.get(row, "frame_state")) {
        (Some("0"), _) => {
            "the database file's own version of a page the write-ahead log has since replaced"
                .to_string()
        }
        (Some(f), Some(s)) => format!("frame {f} of the write-ahead log ({s})"),
        _ => "an earlier page version".to_string(),
    };
    format!(
        "it {status}; {place} still holds it, as sqlite_wal_history read the page itself{}",
        match t.get(row, "frame_state") {
            Some("uncommitted") => " (an uncommitted frame: the row may never have been committed)",
            _ => "",
        }
    )
}
