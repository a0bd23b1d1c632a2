//! SQLite tools: sqlite_tables and sqlite_query.
//!
//! A database is never opened where it lies. The file and its `-wal` and `-shm` siblings (when
//! present in the same directory) are copied into a fresh temporary directory and the copy is
//! opened read-only, so rows that exist only in the WAL are seen and the evidence is never
//! touched (opening a WAL database in place would checkpoint it on close).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use masf_evidence::bytes::Reader;
use masf_evidence::fs::{EntryKind, FileSystem, normalize_path};
use rusqlite::fallible_iterator::FallibleIterator as _;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};
use serde_json::{Value, json};

use crate::fs_tools::file_system;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Default and largest row count of `sqlite_query`.
pub const QUERY_DEFAULT_LIMIT: u64 = 1000;
pub const QUERY_MAX_LIMIT: u64 = 100_000;

/// Name the copy is given inside its temporary directory.
const COPY_NAME: &str = "db.sqlite";

/// A read-only connection to a working copy of a database of the evidence. The copy is deleted
/// when this is dropped.
pub struct WorkingCopy {
    /// The connection (declared first: closed before the directory is removed).
    pub conn: Connection,
    /// Which siblings were copied (`-wal`, `-shm`).
    pub siblings: Vec<String>,
    _watch: Option<std::sync::mpsc::Sender<()>>,
    _dir: tempfile::TempDir,
}

fn copy_out(fs: &dyn FileSystem, path: &str, dest: &Path) -> Result<(), ToolError> {
    let bytes = fs.open(path)?;
    let mut reader = Reader::new(bytes);
    let mut file = std::fs::File::create(dest)
        .map_err(|e| ToolError::Other(format!("working copy of {path}: {e}")))?;
    std::io::copy(&mut reader, &mut file)
        .and_then(|_| file.flush())
        .map_err(|e| ToolError::Other(format!("working copy of {path}: {e}")))?;
    Ok(())
}

/// Copies the database at `path` (with its `-wal` and `-shm`) out of `fs` and opens the copy
/// read-only.
pub fn working_copy(fs: &dyn FileSystem, path: &str) -> Result<WorkingCopy, ToolError> {
    let entry = fs.stat(path)?;
    if entry.kind != EntryKind::File {
        return Err(ToolError::InvalidArgs(format!("{path} is not a file")));
    }
    let dir = tempfile::Builder::new()
        .prefix("masf-sqlite-")
        .tempdir()
        .map_err(|e| ToolError::Other(format!("temporary directory: {e}")))?;
    let db = dir.path().join(COPY_NAME);
    copy_out(fs, path, &db)?;
    let mut siblings = Vec::new();
    for suffix in ["-wal", "-shm"] {
        let sib = format!("{path}{suffix}");
        if fs.stat(&sib).is_ok_and(|e| e.kind == EntryKind::File) {
            copy_out(fs, &sib, &dir.path().join(format!("{COPY_NAME}{suffix}")))?;
            siblings.push(suffix.to_string());
        }
    }
    let conn = Connection::open_with_flags(
        &db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
    conn.pragma_update(None, "query_only", true)
        .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
    // Interrupt statements once the call's time limit has passed (see `crate::deadline`): a
    // watcher waits until then, unless the copy is dropped first (its sender goes away).
    let watch = crate::deadline::get().map(|at| {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let handle = conn.get_interrupt_handle();
        let _ = std::thread::Builder::new()
            .name("masf-sqlite-deadline".to_string())
            .spawn(move || {
                let wait = at.saturating_duration_since(std::time::Instant::now());
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(wait) {
                    handle.interrupt();
                }
            });
        tx
    });
    Ok(WorkingCopy {
        conn,
        siblings,
        _watch: watch,
        _dir: dir,
    })
}

/// A value as canonical text: `NULL`, decimal integers, reals as Rust prints them, text with
/// `\\`, tab, newline and carriage return escaped, blobs as `x'hex'`.
pub fn render(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => "NULL".to_string(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => format!("{f:?}"),
        ValueRef::Text(t) => escape_cell(&String::from_utf8_lossy(t)),
        ValueRef::Blob(b) => format!("x'{}'", hex::encode(b)),
    }
}

/// Escapes a cell the way `sqlite_query` prints it (`\\`, `\t`, `\n`, `\r`): the form of a
/// value that occurs verbatim in the output.
pub fn escape_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

fn to_json(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => json!(i),
        ValueRef::Real(f) => json!(f),
        ValueRef::Text(t) => json!(String::from_utf8_lossy(t)),
        ValueRef::Blob(b) => json!(format!("x'{}'", hex::encode(b))),
    }
}

fn sql_err(path: &str) -> impl Fn(rusqlite::Error) -> ToolError + '_ {
    move |e| ToolError::Other(format!("{path}: {e}"))
}

fn db_props() -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("partition".into(), json!({"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."}));
    m.insert("path".into(), json!({"type": "string", "description": "Absolute path of the SQLite database inside the evidence."}));
    m
}

/// `sqlite_tables`: the schema of a database.
pub struct SqliteTables;

impl Tool for SqliteTables {
    fn name(&self) -> &str {
        "sqlite_tables"
    }
    fn description(&self) -> &str {
        "List the tables, views, indexes and triggers (in that order, each by name) of a SQLite database of the evidence, with each table's row count and CREATE statement. Works on a copy that includes the -wal and -shm files, so rows still only in the write-ahead log are counted; the evidence is never modified."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": db_props(), "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability {
            tree: true,
            image: false,
        }
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let copy = working_copy(fs.as_ref(), &path)?;
        let err = sql_err(&path);
        let mut stmt = copy
            .conn
            .prepare("SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, name")
            .map_err(&err)?;
        let objects: Vec<(String, String, String, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(&err)?
            .collect::<rusqlite::Result<_>>()
            .map_err(&err)?;
        let mut text = String::new();
        let mut rows = Vec::new();
        for (kind, name, table, sql) in &objects {
            let count: Option<i64> = if kind == "table" {
                let q = format!("SELECT COUNT(*) FROM \"{}\"", name.replace('"', "\"\""));
                copy.conn.query_row(&q, [], |r| r.get(0)).ok()
            } else {
                None
            };
            let _ = write!(text, "{kind}\t{name}");
            if table != name {
                let _ = write!(text, "\ton {table}");
            }
            if let Some(c) = count {
                let _ = write!(text, "\t{c} rows");
            }
            text.push('\n');
            if !sql.is_empty() {
                let _ = writeln!(text, "  {}", escape_cell(sql));
            }
            rows.push(
                json!({"type": kind, "name": name, "table": table, "rows": count, "sql": sql}),
            );
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({"path": path, "copied": copy.siblings, "objects": rows})),
        })
    }
}

/// Refuses anything but one read-only SELECT (or WITH … SELECT) statement.
pub fn check_select<'c>(
    conn: &'c Connection,
    sql: &str,
) -> Result<rusqlite::Statement<'c>, ToolError> {
    let trimmed = sql.trim_start();
    let first: String = trimmed
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_lowercase();
    if first != "select" && first != "with" {
        return Err(ToolError::InvalidArgs(format!(
            "only a single SELECT statement is allowed (got {:?})",
            first
        )));
    }
    // Count the statements: a tail after the first one is refused, even a harmless one.
    let mut batch = rusqlite::Batch::new(conn, sql);
    let mut count = 0;
    loop {
        match batch.next() {
            Ok(Some(_)) => count += 1,
            Ok(None) => break,
            Err(e) => {
                return Err(ToolError::InvalidArgs(format!(
                    "only a single SELECT statement is allowed ({e})"
                )));
            }
        }
    }
    if count != 1 {
        return Err(ToolError::InvalidArgs(format!(
            "only a single SELECT statement is allowed (got {count} statements)"
        )));
    }
    let stmt = conn.prepare(sql).map_err(|e| match e {
        rusqlite::Error::MultipleStatement => {
            ToolError::InvalidArgs("only a single SELECT statement is allowed".to_string())
        }
        e => ToolError::InvalidArgs(format!("sql: {e}")),
    })?;
    if !stmt.readonly() {
        return Err(ToolError::InvalidArgs(
            "only a read-only SELECT statement is allowed".to_string(),
        ));
    }
    Ok(stmt)
}

/// `sqlite_query`: one read-only SELECT.
pub struct SqliteQuery;

impl Tool for SqliteQuery {
    fn name(&self) -> &str {
        "sqlite_query"
    }
    fn description(&self) -> &str {
        "Run one read-only SELECT on a SQLite database of the evidence and return the rows as tab-separated text with a header line (NULL as NULL, blobs as x'hex', tabs/newlines in text escaped as \\t/\\n). Runs on a copy including the -wal and -shm files, so rows still only in the write-ahead log are returned; any statement other than a single SELECT is refused. At most limit rows (default 1000, at most 100000); add ORDER BY for a stable order."
    }
    fn args_schema(&self) -> Value {
        let mut p = db_props();
        p.insert(
            "sql".into(),
            json!({"type": "string", "description": "One SELECT statement."}),
        );
        p.insert("limit".into(), json!({"type": "integer", "minimum": 1, "description": "Most rows returned (default 1000, at most 100000)."}));
        json!({"type": "object", "properties": p, "required": ["path", "sql"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability {
            tree: true,
            image: false,
        }
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let sql = args::str(a, "sql")?;
        let limit = args::opt_u64(a, "limit")?
            .unwrap_or(QUERY_DEFAULT_LIMIT)
            .clamp(1, QUERY_MAX_LIMIT) as usize;
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let copy = working_copy(fs.as_ref(), &path)?;
        let err = sql_err(&path);
        let mut stmt = check_select(&copy.conn, sql)?;
        let columns: Vec<String> = stmt.column_names().map(|c| c.to_string()).collect();
        let mut text = columns
            .iter()
            .map(|c| escape_cell(c))
            .collect::<Vec<_>>()
            .join("\t");
        text.push('\n');
        let mut out_rows = Vec::new();
        let mut truncated = false;
        let mut rows = stmt.query([]).map_err(&err)?;
        while let Some(row) = rows.next().map_err(&err)? {
            if out_rows.len() == limit {
                truncated = true;
                break;
            }
            let mut cells = Vec::with_capacity(columns.len());
            let mut json_cells = Vec::with_capacity(columns.len());
            for i in 0..columns.len() {
                let v = row.get_ref(i).map_err(&err)?;
                cells.push(render(v));
                json_cells.push(to_json(v));
            }
            text.push_str(&cells.join("\t"));
            text.push('\n');
            out_rows.push(Value::Array(json_cells));
        }
        if truncated {
            let _ = writeln!(text, "# truncated at limit {limit}");
        }
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "copied": copy.siblings, "columns": columns, "rows": out_rows, "truncated": truncated}),
            ),
        })
    }
}
