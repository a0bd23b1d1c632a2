//! SQLite tools: sqlite_tables and sqlite_query.
//!
//! A database is never opened where it lies. The file and its `-wal` and `-shm` siblings (when
//! present in the same directory) are copied into a temporary directory and the copy is opened
//! read-only, so rows that exist only in the WAL are seen and the evidence is never touched
//! (opening a WAL database in place would checkpoint it on close).
//!
//! Evidence does not change while a source is open, so each source keeps its working copies
//! in a [`CopyCache`] (keyed by file system and path, bounded in bytes, least recently used
//! evicted): a database queried ten times is copied out once. A read-only connection never
//! checkpoints, so the copied WAL stays as it was copied and every call sees the same rows as
//! a fresh copy would.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

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

/// Most rows `sqlite_query` also returns as JSON in its structured output; a larger result
/// has its rows in the text only (the text is what is logged, cached and grounded against).
pub const STRUCTURED_ROWS_MAX: usize = 1000;

/// Default bound of the bytes a source's [`CopyCache`] keeps on disk.
pub const COPY_CACHE_DEFAULT_BYTES: u64 = 1 << 30;

/// Name the copy is given inside its temporary directory.
const COPY_NAME: &str = "db.sqlite";

/// The copied files of one database (the file and its `-wal`/`-shm`), removed from disk when
/// the last holder lets go.
struct CopyFiles {
    dir: tempfile::TempDir,
    /// Which siblings were copied (`-wal`, `-shm`).
    siblings: Vec<String>,
    /// Bytes on disk (all copied files).
    bytes: u64,
    /// How a SQLCipher database was decrypted into this copy (the `cipher` argument).
    decrypted: Option<String>,
    /// How a gzip-compressed database was inflated into this copy.
    inflated: Option<String>,
}

impl CopyFiles {
    fn db(&self) -> PathBuf {
        self.dir.path().join(COPY_NAME)
    }
}

/// A read-only connection to a working copy of a database of the evidence. The copy is deleted
/// once this is dropped and no cache keeps it.
pub struct WorkingCopy {
    /// The connection (declared first: closed before the directory can be removed).
    pub conn: Connection,
    /// Which siblings were copied (`-wal`, `-shm`).
    pub siblings: Vec<String>,
    /// How a SQLCipher database was decrypted into this copy (where its key was read, the
    /// settings, the pages authenticated, the log's frames replayed).
    pub decrypted: Option<String>,
    /// How a gzip-compressed database was inflated into this copy (compressed and inflated
    /// sizes): iOS rotates PowerLog into `*.PLSQL.gz` archives.
    pub inflated: Option<String>,
    _watch: Option<std::sync::mpsc::Sender<()>>,
    _files: Arc<CopyFiles>,
}

/// Most bytes a gzip-compressed database inflates to (in memory, then written to the copy).
pub const MAX_INFLATED_DB: u64 = 512 << 20;

/// Copies the file at `path` of `fs` to `dest`: as stored, or inflated when it is a gzip stream
/// (magic `1f 8b 08`; at most [`MAX_INFLATED_DB`] bytes, a damaged stream an error naming its
/// offset). Returns the bytes written and, for a gzip stream, how it was inflated.
fn copy_out(
    fs: &dyn FileSystem,
    path: &str,
    dest: &Path,
) -> Result<(u64, Option<String>), ToolError> {
    let bytes = fs.open(path)?;
    let mut magic = [0u8; 3];
    let gzip =
        bytes.len() >= 3 && bytes.read_at(0, &mut magic).is_ok() && magic == [0x1f, 0x8b, 0x08];
    let (bytes, inflated) = if gzip {
        let packed = bytes.len();
        let inner = masf_evidence::archive::gunzip(bytes, MAX_INFLATED_DB)
            .map_err(|e| ToolError::Other(format!("{path}: not inflated: {e}")))?;
        let how = format!(
            "inflated from gzip: {packed} compressed bytes to {} bytes",
            inner.len()
        );
        (inner, Some(how))
    } else {
        (bytes, None)
    };
    let mut reader = Reader::new(bytes);
    let mut file = std::fs::File::create(dest)
        .map_err(|e| ToolError::Other(format!("working copy of {path}: {e}")))?;
    let n = std::io::copy(&mut reader, &mut file)
        .and_then(|n| file.flush().map(|()| n))
        .map_err(|e| ToolError::Other(format!("working copy of {path}: {e}")))?;
    Ok((n, inflated))
}

/// Copies the database at `path` (with its `-wal` and `-shm`) out of `fs`.
fn copy_files(fs: &dyn FileSystem, path: &str) -> Result<CopyFiles, ToolError> {
    let entry = fs.stat(path)?;
    if entry.kind != EntryKind::File {
        return Err(ToolError::InvalidArgs(format!("{path} is not a file")));
    }
    let dir = tempfile::Builder::new()
        .prefix("masf-sqlite-")
        .tempdir()
        .map_err(|e| ToolError::Other(format!("temporary directory: {e}")))?;
    let (mut bytes, inflated) = copy_out(fs, path, &dir.path().join(COPY_NAME))?;
    let mut siblings = Vec::new();
    for suffix in ["-wal", "-shm"] {
        let sib = format!("{path}{suffix}");
        if fs.stat(&sib).is_ok_and(|e| e.kind == EntryKind::File) {
            bytes += copy_out(fs, &sib, &dir.path().join(format!("{COPY_NAME}{suffix}")))?.0;
            siblings.push(suffix.to_string());
        }
    }
    Ok(CopyFiles {
        dir,
        siblings,
        bytes,
        decrypted: None,
        inflated,
    })
}

/// Largest `-wal` of a SQLCipher database read (it is replayed in memory).
const MAX_CIPHER_WAL: u64 = 512 << 20;

/// Whether page 1's b-tree header (after the 100-byte file header; `byte(at)` reads the file) is
/// that of a plain database's table page: type 0x0d (leaf) or 0x05 (interior), the first
/// freeblock 0 or within the page, the cell content area within the page, at most 60 fragmented
/// bytes (SQLite's own limit). A file too short to hold it counts as plain (a new, empty
/// database). Ciphertext passes all four about once in 150,000 files, where the type byte alone
/// passed once in 128. Shared by `sqlite_query` (which refuses to decrypt a plain file) and the
/// plugins' SQLCipher detection, so both judge a file alike.
pub fn plain_btree(byte: &dyn Fn(usize) -> Option<u8>) -> bool {
    let Some(kind) = byte(100) else {
        return true;
    };
    let word = |at: usize| Some(u16::from_be_bytes([byte(at)?, byte(at + 1)?]) as u32);
    let page = match word(16) {
        Some(1) => 65536,
        Some(p) if p >= 512 => p,
        _ => return false,
    };
    let (Some(free), Some(content), Some(fragmented)) = (word(101), word(105), byte(107)) else {
        return matches!(kind, 0x05 | 0x0d);
    };
    let content = if content == 0 { 65536 } else { content };
    matches!(kind, 0x05 | 0x0d)
        && (free == 0 || (108..page).contains(&free))
        && (108..=page).contains(&content)
        && fragmented <= 60
}

/// Decrypts the SQLCipher database at `path` of `fs` (its `-wal` replayed) with the key
/// `cipher` names into a new temporary directory.
fn decrypt_files(
    fs: &dyn FileSystem,
    path: &str,
    cipher: &crate::cipher::Cipher,
) -> Result<CopyFiles, ToolError> {
    let entry = fs.stat(path)?;
    if entry.kind != EntryKind::File {
        return Err(ToolError::InvalidArgs(format!("{path} is not a file")));
    }
    let bytes = fs.open(path)?;
    let settings = cipher.profile.settings();
    // a plain file: the SQLite header and page 1's b-tree header (after the 100-byte file
    // header) readable; a profile that keeps the header in the clear has ciphertext there, which
    // the type byte alone took for a table page twice in 256 files (an intermittent refusal)
    let mut head = [0u8; 108];
    let got = (bytes.len() as usize).min(head.len());
    if got >= 101 {
        bytes.read_at(0, &mut head[..got])?;
        let byte = |at: usize| (at < got).then(|| head[at]);
        if head.starts_with(b"SQLite format 3\0")
            && (settings.plaintext_header == 0 || plain_btree(&byte))
        {
            return Err(ToolError::InvalidArgs(format!(
                "{path} is not encrypted (it begins with the SQLite header and its first page reads): query it without cipher"
            )));
        }
    }
    let (key, salt) = cipher.key(fs)?;
    let wal_path = format!("{path}-wal");
    let wal = match fs.stat(&wal_path) {
        Ok(e) if e.kind == EntryKind::File && e.size <= MAX_CIPHER_WAL => {
            let mut log = Vec::new();
            std::io::Read::read_to_end(&mut Reader::new(fs.open(&wal_path)?), &mut log)
                .map_err(|e| ToolError::Other(format!("{wal_path}: {e}")))?;
            Some(log)
        }
        Ok(e) if e.kind == EntryKind::File => {
            return Err(ToolError::Other(format!(
                "{wal_path}: {} bytes, more than the {MAX_CIPHER_WAL} a SQLCipher log is replayed from",
                e.size
            )));
        }
        _ => None,
    };
    let dir = tempfile::Builder::new()
        .prefix("masf-sqlcipher-")
        .tempdir()
        .map_err(|e| ToolError::Other(format!("temporary directory: {e}")))?;
    let mut out = std::fs::File::create(dir.path().join(COPY_NAME))
        .map_err(|e| ToolError::Other(format!("working copy of {path}: {e}")))?;
    let report = masf_evidence::sqlcipher::decrypt(
        &format!("SQLCipher {path}"),
        &mut Reader::new(bytes.clone()),
        bytes.len(),
        wal.as_deref(),
        &key,
        salt,
        &settings,
        &mut out,
    )?;
    let written = out
        .metadata()
        .map(|m| m.len())
        .map_err(|e| ToolError::Other(format!("working copy of {path}: {e}")))?;
    Ok(CopyFiles {
        dir,
        siblings: Vec::new(),
        bytes: written,
        decrypted: Some(format!(
            "decrypted with {}; {}",
            cipher.describe(),
            report.describe(settings.hmac.is_some())
        )),
        inflated: None,
    })
}

/// How often a working copy past its call's deadline is interrupted again.
const INTERRUPT_AGAIN: std::time::Duration = std::time::Duration::from_millis(20);

/// Opens copied files read-only, with the call's deadline armed.
fn open_copy(files: Arc<CopyFiles>, path: &str) -> Result<WorkingCopy, ToolError> {
    let conn = Connection::open_with_flags(
        files.db(),
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
    conn.pragma_update(None, "query_only", true)
        .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
    // Interrupt statements once the call's time limit has passed (see `crate::deadline`): a
    // watcher waits until then, unless the copy is dropped first (its sender goes away). An
    // interrupt stops only the statements running when it is sent, and on a loaded machine the
    // limit can pass before the query has begun: from then on the watcher interrupts again
    // every few milliseconds until the copy is dropped.
    let watch = crate::deadline::get().map(|at| {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let handle = conn.get_interrupt_handle();
        let _ = std::thread::Builder::new()
            .name("masf-sqlite-deadline".to_string())
            .spawn(move || {
                use std::sync::mpsc::RecvTimeoutError::Timeout;
                let mut wait = at.saturating_duration_since(std::time::Instant::now());
                while let Err(Timeout) = rx.recv_timeout(wait) {
                    handle.interrupt();
                    wait = INTERRUPT_AGAIN;
                }
            });
        tx
    });
    Ok(WorkingCopy {
        conn,
        siblings: files.siblings.clone(),
        decrypted: files.decrypted.clone(),
        inflated: files.inflated.clone(),
        _watch: watch,
        _files: files,
    })
}

/// Copies the database at `path` (with its `-wal` and `-shm`) out of `fs` into a new temporary
/// directory and opens the copy read-only (no cache: see [`CopyCache::open`]).
pub fn working_copy(fs: &dyn FileSystem, path: &str) -> Result<WorkingCopy, ToolError> {
    let files = copy_files(fs, path)?;
    open_copy(Arc::new(files), path)
}

/// One cached database: filled once (other callers of the same key wait meanwhile).
#[derive(Default)]
struct Slot {
    files: Mutex<Option<Arc<CopyFiles>>>,
    last_used: AtomicU64,
}

/// A source's working copies of its SQLite databases, keyed by (file system, path), kept for
/// the life of the source (evidence is immutable) up to a bound on their total bytes, least
/// recently used evicted first. A copy larger than the bound is used once and not kept. An
/// evicted copy is removed from disk once no call uses it any more.
pub struct CopyCache {
    max_bytes: u64,
    slots: Mutex<HashMap<(usize, String), Arc<Slot>>>,
    tick: AtomicU64,
    copies: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Default for CopyCache {
    fn default() -> Self {
        Self::new(COPY_CACHE_DEFAULT_BYTES)
    }
}

impl CopyCache {
    /// A cache keeping at most `max_bytes` of copies (0: every call copies afresh).
    pub fn new(max_bytes: u64) -> Self {
        Self {
            max_bytes,
            slots: Mutex::new(HashMap::new()),
            tick: AtomicU64::new(0),
            copies: AtomicU64::new(0),
        }
    }

    /// How many working copies were made out of the evidence so far.
    pub fn copies_made(&self) -> u64 {
        self.copies.load(Ordering::Relaxed)
    }

    /// Bytes of the copies the cache keeps now.
    pub fn cached_bytes(&self) -> u64 {
        lock(&self.slots)
            .values()
            .filter_map(|s| {
                s.files
                    .try_lock()
                    .ok()
                    .and_then(|f| f.as_ref().map(|f| f.bytes))
            })
            .sum()
    }

    /// A read-only connection to a working copy of the database at `path` of `fs`, copied out
    /// of the evidence on first use only.
    pub fn open(&self, fs: &Arc<dyn FileSystem>, path: &str) -> Result<WorkingCopy, ToolError> {
        self.open_with(fs, path, None)
    }

    /// [`CopyCache::open`], or with `cipher` a decrypted copy of a SQLCipher database (cached
    /// apart from a plain copy of the same path).
    pub fn open_with(
        &self,
        fs: &Arc<dyn FileSystem>,
        path: &str,
        cipher: Option<&crate::cipher::Cipher>,
    ) -> Result<WorkingCopy, ToolError> {
        let make = || match cipher {
            Some(c) => decrypt_files(fs.as_ref(), path, c),
            None => copy_files(fs.as_ref(), path),
        };
        if self.max_bytes == 0 {
            let files = make()?;
            self.copies.fetch_add(1, Ordering::Relaxed);
            return open_copy(Arc::new(files), path);
        }
        // The file system's identity: the scan owns it for the life of the source.
        let name = match cipher {
            Some(c) => format!("{path}{}", c.cache_key()),
            None => path.to_string(),
        };
        let key = (Arc::as_ptr(fs) as *const () as usize, name);
        let slot = lock(&self.slots).entry(key).or_default().clone();
        let files = {
            let mut held = lock(&slot.files);
            match held.as_ref() {
                Some(f) => f.clone(),
                None => {
                    let f = Arc::new(make()?);
                    self.copies.fetch_add(1, Ordering::Relaxed);
                    *held = Some(f.clone());
                    f
                }
            }
        };
        slot.last_used.store(
            self.tick.fetch_add(1, Ordering::Relaxed) + 1,
            Ordering::Relaxed,
        );
        self.evict();
        open_copy(files, path)
    }

    /// Drops failed slots and the least recently used copies until the bound holds. Slots
    /// being filled (locked) are left alone.
    fn evict(&self) {
        let mut slots = lock(&self.slots);
        let mut kept: Vec<(u64, u64, (usize, String))> = Vec::new();
        let mut failed = Vec::new();
        for (key, slot) in slots.iter() {
            let Ok(files) = slot.files.try_lock() else {
                continue;
            };
            match files.as_ref() {
                Some(f) => {
                    kept.push((slot.last_used.load(Ordering::Relaxed), f.bytes, key.clone()))
                }
                None => failed.push(key.clone()),
            }
        }
        for key in failed {
            slots.remove(&key);
        }
        let mut total: u64 = kept.iter().map(|k| k.1).sum();
        kept.sort();
        for (_, bytes, key) in kept {
            if total <= self.max_bytes {
                break;
            }
            slots.remove(&key);
            total -= bytes;
        }
    }
}

/// A value as canonical text: `NULL`, decimal integers, reals as Rust prints them, text with
/// `\\`, tab, newline and carriage return escaped, blobs as `x'hex'`.
pub fn render(v: ValueRef<'_>) -> String {
    let mut out = String::new();
    push_cell(&mut out, v);
    out
}

/// Appends [`render`]'s text of a value to `out`.
pub fn push_cell(out: &mut String, v: ValueRef<'_>) {
    match v {
        ValueRef::Null => out.push_str("NULL"),
        ValueRef::Integer(i) => {
            let _ = write!(out, "{i}");
        }
        ValueRef::Real(f) => {
            let _ = write!(out, "{f:?}");
        }
        ValueRef::Text(t) => push_escaped(out, &String::from_utf8_lossy(t)),
        ValueRef::Blob(b) => {
            out.push_str("x'");
            out.push_str(&hex::encode(b));
            out.push('\'');
        }
    }
}

/// A base64 cell decoded (`base64` option): `b64:<text>` when it is base64 of printable UTF-8
/// text, `protobuf:<json>` (with `protobuf`) when it is base64 of a Protocol Buffers message;
/// `None` otherwise (the cell is written as usual).
pub fn base64_cell(b: &[u8], protobuf: bool) -> Option<String> {
    use base64::Engine as _;
    if b.is_empty()
        || !b.len().is_multiple_of(4)
        || !b
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
    {
        return None;
    }
    let bytes = base64::engine::general_purpose::STANDARD.decode(b).ok()?;
    if let Ok(s) = std::str::from_utf8(&bytes)
        && !s.is_empty()
        && s.chars()
            .all(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
    {
        return Some(format!("b64:{s}"));
    }
    if protobuf && let Some(j) = crate::protobuf::cell(&bytes) {
        return Some(format!("protobuf:{j}"));
    }
    None
}

/// Escapes a cell the way `sqlite_query` prints it (`\\`, `\t`, `\n`, `\r`): the form of a
/// value that occurs verbatim in the output.
pub fn escape_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends [`escape_cell`]'s form of `s` to `out`.
fn push_escaped(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(at) = rest.find(['\\', '\t', '\n', '\r']) {
        out.push_str(&rest[..at]);
        out.push_str(match rest.as_bytes()[at] {
            b'\\' => "\\\\",
            b'\t' => "\\t",
            b'\n' => "\\n",
            _ => "\\r",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
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
    m.insert("path".into(), json!({"type": "string", "description": "Absolute path of the SQLite database inside the evidence. A gzip-compressed database (iOS rotates PowerLog into Archives/*.PLSQL.gz) is inflated into the working copy (at most 512 MiB) and a last line `# gzip: …` gives its compressed and inflated sizes."}));
    m.insert("cipher".into(), crate::cipher::schema());
    m
}

/// The last lines of an output on a decrypted or inflated copy: how it was decrypted
/// (`# sqlcipher: …`) or inflated (`# gzip: …`).
fn push_decrypted(text: &mut String, copy: &WorkingCopy) {
    if let Some(d) = &copy.decrypted {
        let _ = writeln!(text, "# sqlcipher: {d}");
    }
    if let Some(i) = &copy.inflated {
        let _ = writeln!(text, "# gzip: {i}");
    }
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
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let cipher = crate::cipher::arg(a)?;
        let copy = ctx.sqlite_copies().open_with(&fs, &path, cipher.as_ref())?;
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
        push_decrypted(&mut text, &copy);
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "copied": copy.siblings, "decrypted": copy.decrypted, "inflated": copy.inflated, "objects": rows}),
            ),
        })
    }
}

/// True when SQLite failed on the database file itself (not a database, malformed, unreadable),
/// not on the statement: preparing a statement reads the schema, so a damaged file fails there.
fn is_database_error(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode as C;
    matches!(
        e.sqlite_error_code(),
        Some(
            C::NotADatabase
                | C::DatabaseCorrupt
                | C::CannotOpen
                | C::SystemIoFailure
                | C::FileLockingProtocolFailed
                | C::DatabaseBusy
                | C::DatabaseLocked
                | C::PermissionDenied
                | C::OutOfMemory
        )
    )
}

/// An error of preparing `sql` on the database at `path`: the database's own failure named as
/// such (`ToolError::Other`), a bad statement as invalid arguments.
fn statement_error(path: &str, e: rusqlite::Error) -> ToolError {
    if is_database_error(&e) {
        ToolError::Other(format!("SQLite database {path} cannot be read: {e}"))
    } else {
        ToolError::InvalidArgs(format!(
            "sql: {e} (only a single read-only SELECT statement is allowed)"
        ))
    }
}

/// Refuses anything but one read-only SELECT (or WITH … SELECT) statement on the database at
/// `path` (named in errors). A database that cannot be read is said so, never blamed on the
/// statement.
pub fn check_select<'c>(
    conn: &'c Connection,
    path: &str,
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
            // A statement after a first one that prepared: a batch, whatever it holds.
            Err(e) if count > 0 => {
                return Err(ToolError::InvalidArgs(format!(
                    "only a single SELECT statement is allowed (a further statement follows: {e})"
                )));
            }
            Err(e) => return Err(statement_error(path, e)),
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
        e => statement_error(path, e),
    })?;
    if !stmt.readonly() {
        return Err(ToolError::InvalidArgs(
            "only a read-only SELECT statement is allowed".to_string(),
        ));
    }
    Ok(stmt)
}

/// The `postbox` argument: result column → kind (at most 16).
fn postbox_arg(a: &Value) -> Result<Vec<(String, crate::postbox::Kind)>, ToolError> {
    let Some(v) = a.get("postbox").filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let Some(m) = v.as_object() else {
        return Err(ToolError::InvalidArgs(
            "postbox: an object {\"<result column>\": \"<kind>\"}".into(),
        ));
    };
    if m.len() > 16 {
        return Err(ToolError::InvalidArgs(format!(
            "postbox: {} columns, at most 16",
            m.len()
        )));
    }
    m.iter()
        .map(|(c, k)| {
            k.as_str()
                .and_then(crate::postbox::Kind::parse)
                .map(|k| (c.clone(), k))
                .ok_or_else(|| {
                    ToolError::InvalidArgs(format!(
                        "postbox.{c}: {k} is not a kind (one of {})",
                        crate::postbox::Kind::NAMES.join(", ")
                    ))
                })
        })
        .collect()
}

/// The kind of each result column the `postbox` argument names; a named column the result
/// lacks is refused.
fn postbox_columns(
    postbox: &[(String, crate::postbox::Kind)],
    columns: &[String],
) -> Result<Vec<Option<crate::postbox::Kind>>, ToolError> {
    if let Some((c, _)) = postbox.iter().find(|(c, _)| !columns.contains(c)) {
        return Err(ToolError::InvalidArgs(format!(
            "postbox.{c}: the result has no column {c} (its columns: {})",
            columns.join(", ")
        )));
    }
    Ok(columns
        .iter()
        .map(|c| postbox.iter().find(|(n, _)| n == c).map(|(_, k)| *k))
        .collect())
}

/// `sqlite_query`: one read-only SELECT.
pub struct SqliteQuery;

impl Tool for SqliteQuery {
    fn name(&self) -> &str {
        "sqlite_query"
    }
    fn description(&self) -> &str {
        "Run one read-only SELECT on a SQLite database of the evidence and return the rows as tab-separated text with a header line (NULL as NULL, blobs as x'hex', tabs/newlines in text escaped as \\t/\\n). Runs on a copy including the -wal and -shm files, so rows still only in the write-ahead log are returned; any statement other than a single SELECT is refused. At most limit rows (default 1000, at most 100000); add ORDER BY for a stable order. The structured output lists the rows as JSON only for results of at most 1000 rows (row_count always); the text always holds every row. Repeated calls on the same database reuse its working copy."
    }
    fn args_schema(&self) -> Value {
        let mut p = db_props();
        p.insert(
            "sql".into(),
            json!({"type": "string", "description": "One SELECT statement."}),
        );
        p.insert("limit".into(), json!({"type": "integer", "minimum": 1, "description": "Most rows returned (default 1000, at most 100000)."}));
        p.insert("protobuf".into(), json!({"type": "boolean", "description": "Render BLOB cells that are Protocol Buffers messages — gzip-compressed ones inflated first, and zlib streams, whole or after one leading byte as Gmail's bigTopDataDB keeps messages (at most 16 MiB) — as `protobuf:` followed by their raw decoding as JSON (like protoc --decode_raw): an object of field numbers, each an array of values (varints and fixed numbers as numbers, length-delimited fields as text when they are printable UTF-8 (unless they start with a newline, return or tab and parse completely as a message: then as that message), else as a nested message when they parse as one, else \"x'hex'\"). A blob that does not parse stays x'hex'. Apple Notes keep note text this way (ZICNOTEDATA.ZDATA: field 2 → 3 → 2)."}));
        p.insert("base64".into(), json!({"type": "boolean", "description": "Render TEXT or BLOB cells that are base64 (length a multiple of 4, base64 alphabet only) of UTF-8 text as `b64:` followed by the text; with `protobuf` also set, base64 of a Protocol Buffers message as `protobuf:` followed by its JSON. Any other cell is written as usual. Tango keeps names and messages this way."}));
        p.insert("java".into(), json!({"type": "boolean", "description": "Render TEXT or BLOB cells that are a Java serialization stream (ObjectOutputStream, magic AC ED 00 05), or the Base64 of one (starting rO0AB), as `java:` followed by its JSON on one line (see read_java: {\"@class\", fields…}, java.util lists as \"@elements\", maps as \"@entries\", boxed numbers as numbers). A cell that does not decode completely is written as usual. Proton Mail's first Android app keeps its recipient lists this way (messagev3.ToList)."}));
        p.insert("twitter_serial".into(), json!({"type": "boolean", "description": "Render BLOB cells that are one object of Twitter's Serial format (com.twitter.serial, as X for Android keeps direct messages in conversation_entries.data) as `tserial:` followed by its JSON on one line: an object as {\"@version\", \"@values\": [...]} (its fields unnamed, in the order written; a debug object's class as \"@class\"), strings, numbers, booleans, null, byte arrays as {\"@bytes\": hex}. A blob that is not one such object, first byte to last, stays x'hex'."}));
        p.insert("postbox".into(), json!({"type": "object", "additionalProperties": {"type": "string", "enum": crate::postbox::Kind::NAMES}, "description": "Telegram's Postbox (Telegram for iOS and macOS: telegram-data/account-<id>/postbox/db/db_sqlite, tables t<n> of key and value): {\"<result column>\": \"<kind>\"} (at most 16) renders that column's cells as `postbox:` followed by JSON on one line. Kinds: peer_id (an integer peer id, or 8 big-endian bytes: {peer, namespace, kind user/group/channel/secret_chat, id, qualified telegram:<user id> or telegram-chat:<id>}), message_index (t7's 20-byte key: {peer, namespace, timestamp (Unix seconds), id}), message (t7's value: {stable_id, flags, flag_names (incoming …), tags, tag_names, forward {author, date, source, source_message, signature, psa_type}, author (a peer), text, attributes, embedded_media, referenced_media, thread_id, globally_unique_id …}), object (a key-value stream such as t2's peers: {\"_\": {\"@type\", \"@class\" (TelegramUser …), its stored keys (fn, ln, un, p …)}}; bytes as {\"@bytes\": hex}, a user's or channel's access hash left out), chat_list_key (t9's 24-byte key: {group, list main/archive/folder <n>, pinned (slot or null), timestamp, namespace, id, peer, entry chat/hole/group_reference}), chat_list_value (t9's value: {} or {top_message {namespace, id, timestamp}}), read_state (t14's value: {namespaces: [{namespace, kind id_based (max_incoming_read_id: the user read the incoming messages up to it; max_outgoing_read_id: the other side read the outgoing ones up to it; max_known_id) or index_based (max_incoming_read, max_outgoing_read as {timestamp, peer, namespace, id}), unread_count, marked_unread}]}). A cell that does not decode as its kind, first byte to last, stays as usual."}));
        p.insert("telegram".into(), json!({"type": "boolean", "description": "Render BLOB cells that hold a Telegram for Android stored message (cache4.db messages/messages_v2 `data`, TL-serialised) as `tl:` followed by JSON: constructor, date, text, and for the client's secret-chat messages also id, out, ttl, from and to as `telegram:<user id>` / `telegram-chat:<id>`; a stored user (users.data) as `tl:` followed by JSON: id as `telegram:<user id>`, the self/contact/deleted/bot flags, first_name, last_name, username, phone as kept (never its access hash). A blob that reads as neither stays x'hex'."}));
        p.insert("typedstream".into(), json!({"type": "boolean", "description": "Render BLOB cells that hold an NSArchiver typedstream (starting 04 0B `streamtyped`) as `typedstream:` followed by its JSON (sorted keys, one line): NSString as a string, NSAttributedString as {\"$class\", \"text\", \"runs\": [{\"from\", \"length\" (UTF-16 units), \"attributes\"}]}, NSDictionary as an object, NSArray as an array, NSNumber as a number, NSURL as its string, NSData as {\"$data_hex\"} or, holding a binary plist, {\"$data_plist\"}, NSDate as {\"$date\": RFC 3339}, any other object as {\"$class\", \"$version\", \"fields\"}. Apple Messages keeps a message's text this way in message.attributedBody (from iOS 16 often the only copy: text is NULL). A blob that does not read stays x'hex'."}));
        p.insert("typedstream_text".into(), json!({"type": "boolean", "description": "Like typedstream, but render only the archived string's text, as `typedstream-text:` followed by it (an NSAttributedString's text or an NSString; any other archive stays x'hex'). Takes precedence over typedstream."}));
        p.insert("der".into(), json!({"type": "boolean", "description": "Render BLOB cells that are one DER SEQUENCE or SET, first byte to last, as `der:` followed by JSON on one line: Apple's DER property lists (a dictionary is a SET of SEQUENCE {key, value} pairs → an object with sorted keys; an array a SEQUENCE → an array; strings, integers (beyond 64 bits {\"$int_hex\"}), booleans, null; a GeneralizedTime as RFC 3339; data (OCTET STRING) as {\"$data_hex\"}; any other element {\"$tag\", \"$value\"}) and what wraps them (an SOSPeerInfo: its gestalt dictionary, then its signature). iOS keeps a trusted peer's device name, model, OS version and serial number this way (TrustedPeersHelper.db ZESCROWMETADATA.ZPEERINFO). A blob that does not decode stays x'hex'."}));
        p.insert("plists".into(), json!({"type": "boolean", "description": "Render BLOB cells that hold a binary property list (bplist00…) as `plist:` followed by its JSON (sorted keys, one line, NSKeyedArchiver unwrapped, dates RFC 3339), instead of x'hex'. A blob that does not decode stays x'hex'."}));
        p.insert("json".into(), json!({"type": "boolean", "description": "Render BLOB cells that hold a JSON object or array — UTF-8 text, or gzip-compressed (inflated first, at most 16 MiB) — as `json:` followed by it on one line (keys sorted), instead of x'hex'. A blob that is neither stays x'hex'. X (Twitter) for iOS keeps its cached posts, users and notifications this way (modelCache.sqlite3 Items.archivedObjectData)."}));
        p.insert("decode_nested".into(), json!({"type": "boolean", "description": "With plists or json: in every decoded plist or JSON blob, string values that are themselves JSON objects or arrays (JSON text an app keeps inside a property list, e.g. Microsoft Teams' call-log and cards in ZMESSAGEPROPERTIES) are decoded too (up to 4 levels of text inside text), so their values print once, unescaped, and qualify reaches their members. Default false."}));
        p.insert("qualify".into(), json!({"type": "object", "additionalProperties": {"type": "string"}, "description": "With plists or json: {\"<member>\": \"<service>\"} (at most 16). In every decoded plist or JSON blob (and, with decode_nested, the JSON texts inside it), every string or integer member named <member> gains a sibling \"<member>.qualified\": \"<service>:<value>\" (a service-qualified account id, e.g. instagram:123), as parse_plist's qualify does."}));
        json!({"type": "object", "properties": p, "required": ["path", "sql"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let sql = args::str(a, "sql")?;
        let plists = args::opt_bool(a, "plists")?.unwrap_or(false);
        let protobuf = args::opt_bool(a, "protobuf")?.unwrap_or(false);
        let telegram = args::opt_bool(a, "telegram")?.unwrap_or(false);
        let base64 = args::opt_bool(a, "base64")?.unwrap_or(false);
        let typedstream = args::opt_bool(a, "typedstream")?.unwrap_or(false);
        let typedstream_text = args::opt_bool(a, "typedstream_text")?.unwrap_or(false);
        let json_blobs = args::opt_bool(a, "json")?.unwrap_or(false);
        let java = args::opt_bool(a, "java")?.unwrap_or(false);
        let twitter_serial = args::opt_bool(a, "twitter_serial")?.unwrap_or(false);
        let der = args::opt_bool(a, "der")?.unwrap_or(false);
        let postbox = postbox_arg(a)?;
        let qualify = crate::content_tools::qualify_arg(a)?;
        if !qualify.is_empty() && !plists && !json_blobs {
            return Err(ToolError::InvalidArgs(
                "qualify applies to decoded property lists and JSON blobs: set plists or json true as well".into(),
            ));
        }
        let nested = args::opt_bool(a, "decode_nested")?.unwrap_or(false);
        if nested && !plists && !json_blobs {
            return Err(ToolError::InvalidArgs(
                "decode_nested applies to decoded property lists and JSON blobs: set plists or json true as well".into(),
            ));
        }
        let decoding = Decoding { qualify, nested };
        let limit = args::opt_u64(a, "limit")?
            .unwrap_or(QUERY_DEFAULT_LIMIT)
            .clamp(1, QUERY_MAX_LIMIT) as usize;
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let cipher = crate::cipher::arg(a)?;
        let copy = ctx.sqlite_copies().open_with(&fs, &path, cipher.as_ref())?;
        let err = sql_err(&path);
        let mut stmt = check_select(&copy.conn, &path, sql)?;
        let columns: Vec<String> = stmt.column_names().map(|c| c.to_string()).collect();
        let postbox_kinds = postbox_columns(&postbox, &columns)?;
        let mut text = columns
            .iter()
            .map(|c| escape_cell(c))
            .collect::<Vec<_>>()
            .join("\t");
        text.push('\n');
        // Cells are rendered straight into the text; JSON rows are built alongside only while
        // the result is small enough for the structured output (see STRUCTURED_ROWS_MAX).
        let mut json_rows = Some(Vec::new());
        let mut count = 0usize;
        let mut truncated = false;
        let mut rows = stmt.query([]).map_err(&err)?;
        while let Some(row) = rows.next().map_err(&err)? {
            if count == limit {
                truncated = true;
                break;
            }
            count += 1;
            if count > STRUCTURED_ROWS_MAX {
                json_rows = None;
            }
            let mut json_cells = json_rows
                .as_ref()
                .map(|_| Vec::with_capacity(columns.len()));
            for (i, postbox_kind) in postbox_kinds.iter().enumerate() {
                let v = row.get_ref(i).map_err(&err)?;
                if i > 0 {
                    text.push('\t');
                }
                let json_text = match v {
                    ValueRef::Blob(b) if json_blobs => json_blob(b, &decoding),
                    _ => None,
                };
                let decoded = match v {
                    ValueRef::Text(b) | ValueRef::Blob(b) if base64 => base64_cell(b, protobuf),
                    _ => None,
                };
                let java_text = match v {
                    ValueRef::Text(b) | ValueRef::Blob(b) if java => crate::javaser::cell(b),
                    _ => None,
                };
                let tserial = match v {
                    ValueRef::Blob(b) if twitter_serial => crate::twserial::cell(b),
                    _ => None,
                };
                let postbox_cell = postbox_kind.and_then(|k| crate::postbox::cell(k, v));
                let der_cell = match v {
                    ValueRef::Blob(b) if der => crate::derplist::cell(b),
                    _ => None,
                };
                match v {
                    _ if postbox_cell.is_some() => {
                        text.push_str("postbox:");
                        push_escaped(&mut text, postbox_cell.as_deref().unwrap_or_default());
                    }
                    _ if der_cell.is_some() => {
                        text.push_str("der:");
                        push_escaped(&mut text, der_cell.as_deref().unwrap_or_default());
                    }
                    _ if java_text.is_some() => {
                        text.push_str("java:");
                        push_escaped(&mut text, java_text.as_deref().unwrap_or_default());
                    }
                    _ if decoded.is_some() => {
                        push_escaped(&mut text, decoded.as_deref().unwrap_or_default());
                    }
                    ValueRef::Blob(b) if protobuf && !b.starts_with(b"bplist00") => {
                        match crate::protobuf::cell(b) {
                            Some(j) => {
                                text.push_str("protobuf:");
                                push_escaped(&mut text, &j);
                            }
                            None => push_cell(&mut text, v),
                        }
                    }
                    _ if tserial.is_some() => {
                        text.push_str("tserial:");
                        push_escaped(&mut text, tserial.as_deref().unwrap_or_default());
                    }
                    ValueRef::Blob(b) if telegram => match crate::tl::cell(b) {
                        Some(j) => {
                            text.push_str("tl:");
                            push_escaped(&mut text, &j);
                        }
                        None => push_cell(&mut text, v),
                    },
                    ValueRef::Blob(b)
                        if typedstream_text && crate::typedstream::is_typedstream(b) =>
                    {
                        match crate::typedstream::text_cell(b) {
                            Some(t) => {
                                text.push_str("typedstream-text:");
                                push_escaped(&mut text, &t);
                            }
                            None => push_cell(&mut text, v),
                        }
                    }
                    ValueRef::Blob(b) if typedstream && crate::typedstream::is_typedstream(b) => {
                        match crate::typedstream::cell(b) {
                            Some(j) => {
                                text.push_str("typedstream:");
                                push_escaped(&mut text, &j);
                            }
                            None => push_cell(&mut text, v),
                        }
                    }
                    ValueRef::Blob(_) if json_text.is_some() => {
                        text.push_str("json:");
                        push_escaped(&mut text, json_text.as_deref().unwrap_or_default());
                    }
                    ValueRef::Blob(b) if plists && b.starts_with(b"bplist00") => {
                        match plist_cell(b, &path, &decoding) {
                            Some(j) => {
                                text.push_str("plist:");
                                push_escaped(&mut text, &j);
                            }
                            None => push_cell(&mut text, v),
                        }
                    }
                    _ => push_cell(&mut text, v),
                }
                if let Some(cells) = json_cells.as_mut() {
                    cells.push(to_json(v));
                }
            }
            text.push('\n');
            if let (Some(rows), Some(cells)) = (json_rows.as_mut(), json_cells) {
                rows.push(Value::Array(cells));
            }
        }
        if truncated {
            let _ = writeln!(text, "# truncated at limit {limit}");
        }
        push_decrypted(&mut text, &copy);
        let mut structured = json!({"path": path, "copied": copy.siblings, "decrypted": copy.decrypted, "inflated": copy.inflated, "columns": columns, "row_count": count, "truncated": truncated});
        if let Some(rows) = json_rows {
            structured["rows"] = Value::Array(rows);
        }
        Ok(ToolOutput {
            text,
            structured: Some(structured),
        })
    }
}

/// A JSON object or array held in a BLOB (UTF-8 text, or gzip-compressed: at most
/// [`crate::protobuf::MAX_INFLATED`] bytes inflated) as one line with sorted keys; `None` for
/// anything else.
fn json_blob(b: &[u8], decoding: &Decoding) -> Option<String> {
    let bytes = crate::protobuf::gunzipped(b)?;
    let first = bytes.iter().find(|c| !c.is_ascii_whitespace())?;
    if *first != b'{' && *first != b'[' {
        return None;
    }
    let mut v: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    decoding.apply(&mut v);
    serde_json::to_string(&crate::canonical_value(&v)).ok()
}

/// What is done to a decoded plist or JSON cell: nested JSON texts decoded (`decode_nested`),
/// then members qualified (`qualify`).
struct Decoding {
    qualify: Vec<(String, String)>,
    nested: bool,
}

impl Decoding {
    fn apply(&self, v: &mut serde_json::Value) {
        if self.nested {
            crate::json_tool::decode_texts(v);
        }
        crate::content_tools::qualify_ids(v, &self.qualify);
    }
}

/// A binary property list held in a cell as one line of canonical JSON (as `parse_plist`
/// gives it, NSKeyedArchiver unwrapped, the members named in `qualify` qualified); `None`
/// when it does not decode.
fn plist_cell(b: &[u8], path: &str, decoding: &Decoding) -> Option<String> {
    let value = masf_evidence::plist::read(
        std::io::Cursor::new(b),
        &format!("plist in a cell of {path}"),
    )
    .ok()?;
    let raw = crate::content_tools::plist_to_json(&value);
    let mut v = match crate::content_tools::unarchive(&raw) {
        Ok(Some(v)) => v,
        Ok(None) => raw,
        Err(_) => return None,
    };
    decoding.apply(&mut v);
    serde_json::to_string(&crate::canonical_value(&v)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rendering as it was first written (one String per cell, char by char): the text
    /// written straight into the output must stay byte-identical to it.
    fn reference(v: ValueRef<'_>) -> String {
        match v {
            ValueRef::Null => "NULL".to_string(),
            ValueRef::Integer(i) => i.to_string(),
            ValueRef::Real(f) => format!("{f:?}"),
            ValueRef::Text(t) => {
                let mut out = String::new();
                for c in String::from_utf8_lossy(t).chars() {
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
            ValueRef::Blob(b) => format!("x'{}'", hex::encode(b)),
        }
    }

    #[test]
    fn cells_render_as_before() {
        let texts: [&[u8]; 7] = [
            b"",
            b"plain",
            b"a\\b\tc\nd\re",
            b"\\\\\t\t\n\r\r\n",
            "長い\t文字\\列 ₿".as_bytes(),
            b"bad \xff\xfe utf-8\n",
            b"trailing\\",
        ];
        let mut values = vec![
            ValueRef::Null,
            ValueRef::Integer(0),
            ValueRef::Integer(-9_223_372_036_854_775_808),
            ValueRef::Integer(700_000_000_000_000_000),
            ValueRef::Real(0.1),
            ValueRef::Real(-1e300),
            ValueRef::Real(f64::NAN),
            ValueRef::Real(3.0),
            ValueRef::Blob(b""),
            ValueRef::Blob(b"\x00\xffab"),
        ];
        values.extend(texts.iter().map(|t| ValueRef::Text(t)));
        let mut row = String::from("head");
        let mut expected = String::from("head");
        for v in values {
            assert_eq!(render(v), reference(v), "{v:?}");
            push_cell(&mut row, v);
            expected.push_str(&reference(v));
            if let ValueRef::Text(t) = v {
                let s = String::from_utf8_lossy(t);
                assert_eq!(escape_cell(&s), reference(v));
            }
        }
        assert_eq!(row, expected);
    }
}
