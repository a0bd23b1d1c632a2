//! Helpers the triage agents share: reading `sqlite_query` and entry-listing outputs back into
//! rows (from the logged text, so a cached answer reads the same as a fresh one), and calling a
//! tool with the "could not parse X because Y" bookkeeping done once.

use masf_agents::{AgentCtx, RuntimeError};
use masf_graph::{FactClaim, FactType, TimeEncoding, TimeMark};
use masf_store::InvocationStatus;
use masf_tools::Invoked;
use serde_json::Value;

/// A result table read back from a `sqlite_query` output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Column names, in order.
    pub columns: Vec<String>,
    /// Rows; `None` is SQL NULL.
    pub rows: Vec<Vec<Option<String>>>,
    /// Whether the tool stopped at its row limit.
    pub truncated: bool,
}

impl Table {
    /// Parses the tab-separated text `sqlite_query` logs (header line, one line per row,
    /// `\t \n \r \\` escaped, `NULL` for null, a final `# truncated` line when cut).
    pub fn parse(text: &str) -> Table {
        let mut lines = text.lines();
        let columns = lines
            .next()
            .map(|h| h.split('\t').map(unescape).collect())
            .unwrap_or_default();
        let mut rows = Vec::new();
        let mut truncated = false;
        for line in lines {
            if line.starts_with("# truncated") {
                truncated = true;
                continue;
            }
            rows.push(
                line.split('\t')
                    .map(|c| (c != "NULL").then(|| unescape(c)))
                    .collect(),
            );
        }
        Table {
            columns,
            rows,
            truncated,
        }
    }

    /// The index of a column.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The value of column `name` in row `row` (`None` for NULL, a missing column or an empty
    /// string).
    pub fn get<'a>(&'a self, row: &'a [Option<String>], name: &str) -> Option<&'a str> {
        let i = self.col(name)?;
        row.get(i)?.as_deref().filter(|v| !v.is_empty())
    }
}

/// Undoes the escaping of `sqlite_query` cells.
pub fn unescape(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
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
    let mut args = serde_json::json!({"path": path, "sql": sql, "limit": limit});
    for o in options {
        args[*o] = serde_json::Value::Bool(true);
    }
    Ok(call_or_note(ctx, path, "sqlite_query", args)?.map(|inv| {
        let table = Table::parse(&inv.output.text);
        (inv, table)
    }))
}

/// The JSON of a cell `sqlite_query` rendered from a binary property list (`plist:{…}`).
pub fn plist_cell(cell: &str) -> Option<serde_json::Value> {
    serde_json::from_str(cell.strip_prefix("plist:")?).ok()
}

/// Paths of the files `find_files` found (skipping directories, deleted entries and the
/// header, `# error` and `# truncated` lines).
pub fn found_paths(find_output: &str) -> Vec<String> {
    found_rows(find_output)
        .filter(|cols| cols[0] == "file" && cols[4] != "deleted")
        .map(|cols| cols[6].to_string())
        .collect()
}

/// The entry rows of a `find_files` listing, each split into its seven columns (the header and
/// `#` lines skipped).
fn found_rows(find_output: &str) -> impl Iterator<Item = Vec<&str>> {
    find_output
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.splitn(7, '\t').collect::<Vec<&str>>())
        .filter(|cols| cols.len() == 7)
}

/// The symbolic links a `find_files` listing holds, as (path, target): entries that
/// [`found_paths`] leaves out, since links inside evidence are never followed.
pub fn found_links(find_output: &str) -> Vec<(String, String)> {
    found_rows(find_output)
        .filter(|cols| cols[0] == "symlink")
        .map(|cols| {
            let (path, target) = cols[6].split_once(" -> ").unwrap_or((cols[6], "?"));
            (path.to_string(), target.to_string())
        })
        .collect()
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

/// A fact claim citing `invoked`.
pub fn fact(fact_type: FactType, value: impl Into<String>, invoked: &Invoked) -> FactClaim {
    FactClaim {
        fact_type,
        value: value.into(),
        invocation_id: invoked.record.invocation_id.clone(),
    }
}

/// The detection of a plugin that recognises a tree by the directories it holds: `None`
/// without a marker, else 60 plus 5 for each further marker (at most 90), one reason per
/// marker naming the evidence type and where the marker sits.
pub fn layout_detection(kind: &str, markers: Vec<String>) -> Option<masf_agents::Detection> {
    let extra = u8::try_from(markers.len().checked_sub(1)?).unwrap_or(u8::MAX);
    Some(masf_agents::Detection {
        score: 60u8.saturating_add(extra.saturating_mul(5)).min(90),
        reasons: markers
            .into_iter()
            .map(|m| format!("{kind} whose tree holds {m}"))
            .collect(),
    })
}

/// Directories visited at most when a plugin looks for the directories that mark its tree.
pub const LAYOUT_DIRS: usize = 512;

/// The subdirectories `(name, path)` of `dir` (none when it cannot be listed).
pub fn subdirs(fs: &dyn masf_evidence::fs::FileSystem, dir: &str) -> Vec<(String, String)> {
    fs.list_dir(dir)
        .map(|v| {
            v.into_iter()
                .filter(|e| e.kind == masf_evidence::fs::EntryKind::Dir)
                .map(|e| (e.name, e.path))
                .collect()
        })
        .unwrap_or_default()
}

/// What [`find_markers`] asks of each directory: given the file system, the directory and its
/// subdirectories `(name, path)`, the markers found there and whether to descend into it.
pub type MarkerVisit<'a> = dyn FnMut(&dyn masf_evidence::fs::FileSystem, &str, &[(String, String)]) -> (Vec<String>, bool)
    + 'a;

/// Walks the directories of the first four levels of the first file system of `node` (or of
/// the first scan child) that yields markers, breadth first, within [`LAYOUT_DIRS`]
/// directories: `visit(fs, dir, subdirs)` returns the markers found at `dir` and whether to
/// descend into it.
pub fn find_markers(node: &masf_evidence::scan::Node, visit: &mut MarkerVisit<'_>) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(fs) = &node.fs {
        let fs = fs.as_ref();
        let mut queue = std::collections::VecDeque::from([("/".to_string(), 0usize)]);
        let mut seen = 0usize;
        while let Some((dir, depth)) = queue.pop_front() {
            seen += 1;
            if seen > LAYOUT_DIRS {
                break;
            }
            let children = subdirs(fs, &dir);
            let (markers, descend) = visit(fs, &dir, &children);
            found.extend(markers);
            if descend && depth < 4 {
                queue.extend(children.into_iter().map(|(_, p)| (p, depth + 1)));
            }
        }
    }
    if found.is_empty() {
        for c in &node.children {
            found = find_markers(c, visit);
            if !found.is_empty() {
                break;
            }
        }
    }
    found
}

/// A phenomenon being drafted: facts are added only when their value is present.
pub struct Draft {
    category: &'static str,
    title: String,
    facts: Vec<masf_graph::FactClaim>,
    times: Vec<TimeMark>,
    /// The templated interpretation.
    pub interpretation: String,
}

impl Draft {
    /// The phenomenon request it drafts (`None` when no fact was found: nothing to record).
    pub fn into_request(self) -> Option<masf_agents::PhenomenonDraft> {
        (!self.facts.is_empty()).then(|| masf_agents::PhenomenonDraft {
            category: self.category.to_string(),
            title: self.title,
            facts: self.facts,
            interpretation: self.interpretation,
            times: self.times,
        })
    }

    /// A draft in `category` titled `title`.
    pub fn new(category: &'static str, title: impl Into<String>) -> Self {
        Self {
            category,
            title: title.into(),
            facts: Vec::new(),
            times: Vec::new(),
            interpretation: String::new(),
        }
    }

    /// Adds a fact when `value` is present and non-empty.
    pub fn fact(&mut self, t: FactType, value: Option<&str>, inv: &Invoked) -> &mut Self {
        if let Some(v) = value.filter(|v| !v.trim().is_empty()) {
            self.facts.push(fact(t, v, inv));
        }
        self
    }

    /// Adds a timestamp fact marked as the time of `description`, when `value` is a time.
    pub fn time(
        &mut self,
        value: Option<&str>,
        encoding: Option<TimeEncoding>,
        description: &str,
        inv: &Invoked,
    ) -> &mut Self {
        if let (Some(v), Some(enc)) = (value, encoding) {
            self.times.push(TimeMark {
                fact: self.facts.len(),
                encoding: enc,
                description: description.to_string(),
            });
            self.facts.push(fact(FactType::Timestamp, v, inv));
        }
        self
    }
}

/// A cell as it appears in the `sqlite_query` text (escaped), so that it grounds verbatim.
pub fn raw(table: &Table, row: &[Option<String>], col: &str) -> Option<String> {
    table.get(row, col).map(escape)
}

/// Escapes a cell the way `sqlite_query` prints it.
pub fn escape(s: &str) -> String {
    masf_tools::sqlite::escape_cell(s)
}

/// A string as the `sqlite_query` text holds it inside a JSON cell (`plist:`, `protobuf:`,
/// `tl:`: JSON-escaped, then cell-escaped), so that it grounds verbatim.
pub fn in_json_cell(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    escape(&json[1..json.len().saturating_sub(1)])
}

/// A string as it appears inside a JSON string of a tool's JSON output (`parse_plist`,
/// `read_json`), so that it grounds verbatim: quotes, backslashes and control characters
/// escaped.
pub fn in_json(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    json[1..json.len().saturating_sub(1)].to_string()
}

/// A JSON scalar as a tool's pretty JSON output prints it (`parse_plist`): a non-empty string
/// escaped ([`in_json`]), a number or boolean as written; `None` for anything else.
pub fn json_scalar(v: Option<&serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::String(s) if !s.is_empty() => Some(in_json(s)),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
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

/// `encoding` when `value` is a positive number (0, negative or missing: no time recorded).
fn positive(value: Option<&str>, encoding: TimeEncoding) -> Option<TimeEncoding> {
    value
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(|_| encoding)
}

/// Unix seconds, when the value is one (see [`positive`]).
pub fn unix_seconds(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::UnixSeconds)
}

/// Unix milliseconds (Java time), when the value is one.
pub fn unix_millis(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::UnixMillis)
}

/// WebKit/Chrome microseconds since 1601, when the value is one.
pub fn webkit(value: Option<&str>) -> Option<TimeEncoding> {
    positive(value, TimeEncoding::Webkit)
}

/// Records a drafted phenomenon (nothing when it has no fact); a rejection is logged.
pub fn record_draft(ctx: &AgentCtx<'_>, d: Draft) -> Result<(), RuntimeError> {
    if let Some(r) = d.into_request() {
        crate::identity::record(ctx, r)?;
    }
    Ok(())
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
