//! Rows an app's database no longer shows but its write-ahead log, its file's replaced pages or
//! its free space (freelist pages, free blocks, unallocated space) still hold
//! (`sqlite_wal_history`): messages since deleted, earlier versions of messages since edited. Shared by the readers of message stores, each of which records a recovered row as it
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
                "the earlier rows of {table} (write-ahead log and free space) were not read: {}",
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
                "more than {RECOVERED_CAP} earlier rows of {table} (write-ahead log and free space): the first {RECOVERED_CAP} were read"
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

/// `SELECT {select} FROM {table} WHERE {key} IN (…)` for the integer ids column `col` of the
/// recovered rows holds ([`ids`]): the query a reader runs on the live tables to name a row's
/// chat or sender; `None` when the rows name none.
pub fn lookup_sql(t: &Table, col: &str, table: &str, key: &str, select: &str) -> Option<String> {
    let ids = ids(t, col);
    (!ids.is_empty()).then(|| {
        format!(
            "SELECT {select} FROM {table} WHERE {key} IN ({})",
            ids.join(",")
        )
    })
}

/// How a recovered row is said: `deleted` → "Deleted", `changed` → "Earlier version of",
/// `freed` (found in free space without its rowid) → "Deleted or earlier version of".
pub fn title_word(status: Option<&str>) -> &'static str {
    match status {
        Some("deleted") => "Deleted",
        Some("freed") => "Deleted or earlier version of",
        _ => "Earlier version of",
    }
}

/// A recovered row's key column `col` (its rowid, `_id`, `Z_PK`) as a title says it: the value,
/// or "(rowid lost)" for a row carved from free space whose cell lost its rowid.
pub fn key(t: &Table, row: &[Option<String>], col: &str) -> String {
    t.get(row, col)
        .map_or_else(|| "(rowid lost)".to_string(), str::to_string)
}

/// Where a recovered row was read, for an interpretation: its status, frame and frame state.
pub fn provenance(t: &Table, row: &[Option<String>]) -> String {
    let status = match t.get(row, "status") {
        Some("deleted") => "is no longer in the table (deleted)",
        Some("freed") => {
            "lost its rowid when SQLite freed its cell, so whether it was deleted or replaced by a later version is not known, and it equals no current row"
        }
        _ => "has changed since (this is its earlier version)",
    };
    let in_page = |what: &str, f: Option<&str>| match f {
        Some("0") | None => format!("{what} of the database file"),
        Some(f) => format!("{what} of the page version in frame {f} of the write-ahead log"),
    };
    let frame = t.get(row, "frame");
    let place = match (frame, t.get(row, "frame_state")) {
        (_, Some("freelist page")) => in_page(
            "a page on the freelist (free pages keep what they held until reused; its records fit this table's columns and no other table's)",
            frame,
        ),
        (_, Some("free block")) => in_page(
            "a free block of one of the table's pages (carved: its last values may be a later cell's bytes)",
            frame,
        ),
        (_, Some("unallocated")) => in_page(
            "the unallocated space of one of the table's pages (carved: its last values may be a later cell's bytes)",
            frame,
        ),
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
