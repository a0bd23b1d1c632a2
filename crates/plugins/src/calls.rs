//! Calling tools with the bookkeeping done once: whether a call succeeded and why not, "could
//! not parse X because Y" notes, `sqlite_query` calls read back into tables, row caps and parts
//! of a file left unread noted, symbolic links noted as not followed.

use masf_agents::{AgentCtx, RuntimeError};
use masf_store::InvocationStatus;
use masf_tools::Invoked;
use serde_json::Value;

use crate::outputs::{Table, found_links};

/// Row phenomena per table read in pages (iOS `Run::paged`, Android
/// [`crate::identity::pages_on`]) before the rest is summarised: enough for every row iLEAPP
/// reports on a real phone's mail index or Wi-Fi location cache (4,040 and 16,713 rows in its
/// recorded results); each page is a short output, so recording stays linear.
pub const ROW_CAP: u64 = 20_000;

/// One row of a paged read with the call and table that returned it.
pub type PagedRow<'a> = (&'a Invoked, &'a Table, &'a Vec<Option<String>>);

/// The pages of a paged read.
pub struct Paged {
    /// Each page's call and rows.
    pub pages: Vec<(Invoked, Table)>,
    /// Whether rows remain after [`ROW_CAP`].
    pub truncated: bool,
}

impl Paged {
    /// Every row with the call that returned it.
    pub fn rows(&self) -> impl Iterator<Item = PagedRow<'_>> {
        self.pages
            .iter()
            .flat_map(|(inv, t)| t.rows.iter().map(move |r| (inv, t, r)))
    }

    /// The rows in runs of one value of `col` (a query ordered by it), each run with that
    /// value: a group's members, say, across pages. Rows whose `col` is NULL are skipped.
    pub fn runs_by(&self, col: &str) -> Vec<(String, Vec<PagedRow<'_>>)> {
        let mut runs: Vec<(String, Vec<PagedRow<'_>>)> = Vec::new();
        for (inv, t, row) in self.rows() {
            let Some(v) = t.get(row, col) else {
                continue;
            };
            match runs.last_mut() {
                Some((last, rows)) if last == v => rows.push((inv, t, row)),
                _ => runs.push((v.to_string(), vec![(inv, t, row)])),
            }
        }
        runs
    }

    /// How many rows the pages hold.
    pub fn len(&self) -> usize {
        self.pages.iter().map(|(_, t)| t.rows.len()).sum()
    }

    /// Whether the pages hold no row.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first page's call and rows (the columns every page shares).
    pub fn first(&self) -> (&Invoked, &Table) {
        let (inv, t) = &self.pages[0];
        (inv, t)
    }
}

/// Texts of one message read from parts on one or more pages, joined by line into runs of one
/// call each: the claims of a text cite the page that holds it.
pub fn runs_of_texts<'a>(texts: &[(&'a Invoked, &str)]) -> Vec<(&'a Invoked, String)> {
    let mut runs: Vec<(&'a Invoked, String)> = Vec::new();
    for (inv, text) in texts {
        match runs.last_mut() {
            Some((last, joined)) if std::ptr::eq(*last, *inv) => {
                joined.push('\n');
                joined.push_str(text);
            }
            _ => runs.push((inv, text.to_string())),
        }
    }
    runs
}

/// Notes `artefact` as read only in part when the paged read `p` stopped at [`ROW_CAP`].
pub fn note_pages_cap(
    ctx: &AgentCtx<'_>,
    artefact: &str,
    p: &Paged,
    what: &str,
) -> Result<(), RuntimeError> {
    if p.truncated {
        ctx.unparsed(
            artefact,
            &format!("only the first {ROW_CAP} {what} were read"),
            None,
        )?;
    }
    Ok(())
}

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

/// `<prefix><col>` when the table has `col`, `NULL` otherwise: a column used inside an
/// expression, missing in older schemas.
pub fn column_expr(cols: &std::collections::BTreeSet<String>, prefix: &str, col: &str) -> String {
    if cols.contains(col) {
        format!("{prefix}{col}")
    } else {
        "NULL".to_string()
    }
}

/// The `(column, alias)` pairs of `spec` as a select list of the table aliased by `prefix`
/// (each column missing from `cols` selected as NULL): [`column_or_null`] for several.
pub fn select_columns(
    cols: &std::collections::BTreeSet<String>,
    prefix: &str,
    spec: &[(&str, &str)],
) -> String {
    spec.iter()
        .map(|(c, a)| column_or_null(cols, prefix, c, a))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `<service>:<value>` of the column `col` as `alias` (a service-qualified account id computed
/// in the query, so it grounds), NULL where the value is NULL or empty or the table lacks `col`.
pub fn qualified_or_null(
    cols: &std::collections::BTreeSet<String>,
    prefix: &str,
    col: &str,
    service: &str,
    alias: &str,
) -> String {
    if cols.contains(col) {
        format!(
            "CASE WHEN {prefix}{col} IS NOT NULL AND {prefix}{col} != '' THEN '{service}:' || {prefix}{col} END AS {alias}"
        )
    } else {
        format!("NULL AS {alias}")
    }
}

/// `json_extract(<cell>, '<path>')` where the cell is JSON, NULL where it is not (a cut or
/// foreign value): one SQL expression, so that a JSON member read in the query grounds in its
/// output and one bad cell does not fail the whole statement.
pub fn json_at(cell: &str, path: &str) -> String {
    format!("CASE WHEN json_valid({cell}) THEN json_extract({cell}, '{path}') END")
}

/// `'stored' AS <alias>` where one of the columns `held` has a value in the row, else NULL:
/// whether a credential (a login, a password) is kept, never the credential itself.
pub fn stored_flag(prefix: &str, held: &[&str], alias: &str) -> String {
    if held.is_empty() {
        return format!("NULL AS {alias}");
    }
    let any: Vec<String> = held
        .iter()
        .map(|c| format!("({prefix}\"{c}\" IS NOT NULL AND {prefix}\"{c}\" != '')"))
        .collect();
    format!(
        "CASE WHEN {} THEN 'stored' END AS {alias}",
        any.join(" OR ")
    )
}

/// The columns of `cols` whose name holds one of `marks` (any case): a store's credential
/// columns found by their names (`user`, `pass`), for [`stored_flag`].
pub fn columns_marked<'a>(
    cols: &'a std::collections::BTreeSet<String>,
    marks: &[&str],
) -> Vec<&'a str> {
    cols.iter()
        .map(String::as_str)
        .filter(|c| {
            let l = c.to_ascii_lowercase();
            marks.iter().any(|m| l.contains(m))
        })
        .collect()
}

/// The table of `schema` named `want` in any case, with its columns (apps whose releases spell
/// their tables differently: greenDAO's upper case).
pub fn table_any_case<'a>(
    schema: &'a std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    want: &str,
) -> Option<(&'a str, &'a std::collections::BTreeSet<String>)> {
    schema
        .iter()
        .find(|(t, _)| t.eq_ignore_ascii_case(want))
        .map(|(t, c)| (t.as_str(), c))
}

/// The column of `cols` named `want` in any case.
pub fn column_any_case<'a>(
    cols: &'a std::collections::BTreeSet<String>,
    want: &str,
) -> Option<&'a str> {
    cols.iter()
        .map(String::as_str)
        .find(|c| c.eq_ignore_ascii_case(want))
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

/// A store's tables as a reader takes them (`schema`: table → columns, as
/// `identity::schema_on` reads it): those it reads, each only with the columns it needs.
pub struct Tables<'a, 's> {
    ctx: &'a AgentCtx<'s>,
    artefact: &'a str,
    what: &'a str,
    schema: &'a std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
}

impl<'a, 's> Tables<'a, 's> {
    /// The store's tables, `None` when it has none of `tables` (noted: "could not parse
    /// {what} because it has none of the tables …" — another app's store of the same name).
    pub fn of(
        ctx: &'a AgentCtx<'s>,
        artefact: &'a str,
        what: &'a str,
        schema: &'a std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        tables: &[&str],
    ) -> Result<Option<Self>, RuntimeError> {
        let t = Self {
            ctx,
            artefact,
            what,
            schema,
        };
        if tables.iter().all(|x| t.get(x).is_none()) {
            ctx.unparsed(
                artefact,
                &format!(
                    "could not parse {what} because it has none of the tables {}",
                    tables.join(", ")
                ),
                None,
            )?;
            return Ok(None);
        }
        Ok(Some(t))
    }

    /// The one table a store is read for, with each of `needed`: `None` when the store lacks
    /// it (noted as [`Tables::of`] notes it) or a column (noted as [`Tables::need`] notes it).
    pub fn one(
        ctx: &'a AgentCtx<'s>,
        artefact: &'a str,
        what: &'a str,
        schema: &'a std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        table: &str,
        needed: &[&str],
    ) -> Result<Option<&'a std::collections::BTreeSet<String>>, RuntimeError> {
        match Self::of(ctx, artefact, what, schema, &[table])? {
            Some(t) => t.need(table, needed),
            None => Ok(None),
        }
    }

    /// The columns of `table`, when the store has it (with any column).
    pub fn get(&self, table: &str) -> Option<&'a std::collections::BTreeSet<String>> {
        self.schema.get(table).filter(|c| !c.is_empty())
    }

    /// The columns of `table` when it is there with each of `needed`; a table there without
    /// one is noted ([`require_columns`]), one not there passed over.
    pub fn need(
        &self,
        table: &str,
        needed: &[&str],
    ) -> Result<Option<&'a std::collections::BTreeSet<String>>, RuntimeError> {
        let Some(c) = self.get(table) else {
            return Ok(None);
        };
        Ok(require_columns(self.ctx, self.artefact, self.what, table, c, needed)?.then_some(c))
    }
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
