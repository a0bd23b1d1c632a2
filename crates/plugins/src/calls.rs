//! Calling tools with the bookkeeping done once: whether a call succeeded and why not, "could
//! not parse X because Y" notes, `sqlite_query` calls read back into tables, row caps and parts
//! of a file left unread noted, symbolic links noted as not followed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_store::InvocationStatus;
use masf_tools::Invoked;
use serde_json::Value;

use crate::outputs::{Table, found_links};

/// Whether a call produced an output to read (`ok` or `cached`).
pub fn succeeded(invoked: &Invoked) -> bool {
    matches!(
        invoked.record.status,
        InvocationStatus::Ok | InvocationStatus::Cached
    )
}

/// Why a call produced no output (its status and reason), for "could not parse" notes.
pub fn failure_reason(invoked: &Invoked) -> String {
    format!(
        "{} {}: {}",
        invoked.record.tool,
        invoked.record.status.as_str(),
        invoked
            .record
            .reason
            .as_deref()
            .unwrap_or("no reason given")
    )
}

/// Calls `tool` and returns its output text; when the call did not succeed, notes
/// `artefact` as unparsed with the call's reason and returns `None`.
pub fn call_or_note(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    tool: &str,
    args: Value,
) -> Result<Option<Invoked>, RuntimeError> {
    let invoked = ctx.call(tool, args)?;
    if succeeded(&invoked) {
        Ok(Some(invoked))
    } else {
        let reason = failure_reason(&invoked);
        ctx.unparsed(artefact, &reason, Some(&invoked.record.invocation_id))?;
        Ok(None)
    }
}

/// After a `read_text` of the first part of a file: when the file goes on past what was read,
/// notes the rest as not read (a "not read" entry of the report), so that a skip is never
/// silent.
pub fn note_unread_rest(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    read: &Invoked,
    purpose: &str,
) -> Result<(), RuntimeError> {
    let Some(s) = read.output.structured.as_ref() else {
        return Ok(());
    };
    if s.get("more").and_then(Value::as_bool) != Some(true) {
        return Ok(());
    }
    let end = s["offset"].as_u64().unwrap_or(0) + s["length"].as_u64().unwrap_or(0);
    let size = s["size"].as_u64().unwrap_or(0);
    ctx.unparsed(
        artefact,
        &format!(
            "bytes {end}–{size} of its {size} were not read: only the first {end} bytes are \
             {purpose}"
        ),
        Some(&read.record.invocation_id),
    )
}

/// Runs `sql` on the database at `path` (through `sqlite_query` on a working copy) and reads
/// the rows back; `None` (with the artefact noted as unparsed) when the query fails.
pub fn query(
    ctx: &AgentCtx<'_>,
    path: &str,
    sql: &str,
    limit: u64,
) -> Result<Option<(Invoked, Table)>, RuntimeError> {
    query_with(ctx, path, sql, limit, &[])
}

/// [`query`] with `sqlite_query`'s boolean decoding options set (`plists`: binary property
/// lists in BLOB cells as `plist:<JSON>`, see [`plist_cell`]; `protobuf`: Protocol Buffers
/// messages as `protobuf:<JSON>`).
pub fn query_with(
    ctx: &AgentCtx<'_>,
    path: &str,
    sql: &str,
    limit: u64,
    options: &[&str],
) -> Result<Option<(Invoked, Table)>, RuntimeError> {
    query_args(ctx, path, sql, limit, &flags(options))
}

/// `sqlite_query`'s boolean options as the members of an arguments object.
pub fn flags(options: &[&str]) -> serde_json::Map<String, serde_json::Value> {
    options
        .iter()
        .map(|o| (o.to_string(), serde_json::Value::Bool(true)))
        .collect()
}

/// [`query`] with more of `sqlite_query`'s arguments (`plists` with its `qualify`, …).
pub fn query_args(
    ctx: &AgentCtx<'_>,
    path: &str,
    sql: &str,
    limit: u64,
    options: &serde_json::Map<String, serde_json::Value>,
) -> Result<Option<(Invoked, Table)>, RuntimeError> {
    let mut args = serde_json::json!({"path": path, "sql": sql, "limit": limit});
    if let Some(a) = args.as_object_mut() {
        a.extend(options.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    Ok(call_or_note(ctx, path, "sqlite_query", args)?.map(|inv| {
        let table = Table::parse(&inv.output.text);
        (inv, table)
    }))
}

/// Notes every symbolic link a `find_files` call found as not read, naming its target: an
/// artefact that is a link (an `sms.db` pointing elsewhere) is never skipped in silence.
pub fn note_links(
    ctx: &AgentCtx<'_>,
    name: impl Fn(&str) -> String,
    found: &Invoked,
) -> Result<(), RuntimeError> {
    for (path, target) in found_links(&found.output.text) {
        ctx.unparsed(
            &name(&path),
            &format!(
                "a symbolic link to {target}: links inside evidence are not followed, so it was \
                 not read (a target inside the evidence is read where it lies)"
            ),
            Some(&found.record.invocation_id),
        )?;
    }
    Ok(())
}

/// `<prefix><col> AS <alias>` when the table has `col`, `NULL AS <alias>` otherwise: a column
/// taken by name, missing in older schemas.
pub fn column_or_null(
    cols: &std::collections::BTreeSet<String>,
    prefix: &str,
    col: &str,
    alias: &str,
) -> String {
    if cols.contains(col) {
        format!("{prefix}{col} AS {alias}")
    } else {
        format!("NULL AS {alias}")
    }
}

/// Notes `artefact` unparsed — "could not parse {what} because table {table} lacks {columns}
/// (unexpected schema)" — when `cols` lacks one of `needed`; returns whether all are there.
pub fn require_columns(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    what: &str,
    table: &str,
    cols: &std::collections::BTreeSet<String>,
    needed: &[&str],
) -> Result<bool, RuntimeError> {
    let missing: Vec<&str> = needed
        .iter()
        .filter(|c| !cols.contains(**c))
        .copied()
        .collect();
    if missing.is_empty() {
        return Ok(true);
    }
    ctx.unparsed(
        artefact,
        &format!(
            "could not parse {what} because table {table} lacks {} (unexpected schema)",
            missing.join(", ")
        ),
        None,
    )?;
    Ok(false)
}

/// Notes `artefact` as read only in part when the one-call read `t` stopped at its limit.
pub fn note_row_cap(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    t: &Table,
    limit: u64,
    what: &str,
) -> Result<(), RuntimeError> {
    if t.truncated {
        ctx.unparsed(
            artefact,
            &format!("only the first {limit} {what} were read"),
            None,
        )?;
    }
    Ok(())
}

/// The file system and normalised `path` a plugin tool's arguments name (`partition`: the
/// file system when the source holds several; `path`: required), the one argument reading the
/// plugins' file tools share; errors as `masf_tools` tools give them.
pub fn tree_file(
    ctx: &masf_tools::SourceCtx,
    a: &serde_json::Value,
) -> Result<(std::sync::Arc<dyn masf_evidence::fs::FileSystem>, String), masf_tools::ToolError> {
    use masf_tools::ToolError;
    use serde_json::Value;
    let partition = match a.get("partition") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(ToolError::InvalidArgs("partition must be a string".into())),
    };
    let path = match a.get("path") {
        Some(Value::String(s)) => masf_evidence::fs::normalize_path(s),
        _ => return Err(ToolError::InvalidArgs("path is required".into())),
    };
    let fs = ctx
        .scan
        .file_system(partition)
        .map_err(|e| ToolError::Other(ctx.scrub(&e.to_string())))?;
    Ok((fs, path))
}
