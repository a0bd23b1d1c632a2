//! The tool catalog (DESIGN §5): tools bound to an evidence source at call time, each with a
//! description written for an agent, a JSON argument schema, its applicability and a
//! deterministic executor, plus the one wrapper every call goes through ([`Invoker`]) and the
//! store-backed [`InvocationLog`](masf_graph::grounding::InvocationLog) the graph gateway reads
//! ([`StoreLog`]).
//!
//! Determinism: the same call on the same evidence gives byte-identical text. Outputs hold no
//! absolute host path, no current time and no map iteration order (JSON is emitted with sorted
//! keys through [`canonical_json`]).
//!
//! This crate reads evidence and records invocations in the store; it never writes to the graph.
//!
//! # The catalog
//!
//! A `Tool` has a name, a description for an agent, a JSON argument schema, an applicability and
//! a deterministic `run(&SourceCtx, &Value) -> ToolOutput {text, structured}`; a `SourceCtx` is a
//! source id with its `Scan`, opened once. `Catalog::standard()` holds:
//!
//! - `list_dir`, `stat`, `read_text`, `hexdump`, `hash_file`, `find_files`, `partition_table`,
//!   `fs_info`, `strings`, `sqlite_tables`.
//! - `read_email` ([`email_tool`]): an e-mail message (`.eml`, RFC 5322) or Apple Mail's `.emlx`
//!   (count line, message, Mail's property list), parsed by `mail-parser`: every header as stored
//!   (unfolded), each address with its display name, subject and Date (UTC) decoded, ids,
//!   attachments' names, sizes and types, the first text body on request (at most 64 KiB).
//! - `sqlite_wal_history` ([`wal_history`]): the rows of a table that only earlier page versions
//!   hold — the database file's version of each page the `-wal` replaced, superseded committed
//!   frames, uncommitted ones, an earlier log generation's — decoded from the pages themselves
//!   and compared with the current rows: deleted rows, earlier versions of changed rows; and
//!   the database's free space (`free_space`: freelist pages whose records are only this
//!   table's, free blocks and unallocated space of its pages, carved), read through the record
//!   format of `sqlite_record`.
//! - `read_xml` ([`xml_tool`]): plain XML as is; Android Binary XML (Android 12+'s
//!   `settings_*.xml`, `packages.xml`) decoded by the `android-abx` crate and rendered as Android
//!   11 wrote the same file, so a fact grounds in either form; `telegram: true` decodes the base64
//!   Telegram user objects of shared prefs.
//! - `read_json` ([`json_tool`]): a JSON file (to 64 MiB), or the parts JSON pointers name, as
//!   indented JSON; nested JSON texts (React Native's redux-persist files) decoded on request;
//!   a short header before the JSON (Uber's key-value store) skipped on request (`skip_header`);
//!   secrets redacted as `leveldb_records` does, counted in its header.
//! - `read_protobuf` ([`protobuf`]): a file that is one Protocol Buffers message (Jetpack
//!   DataStore files, apps' settings), decoded raw as `sqlite_query`'s `protobuf` option decodes a
//!   cell, as indented JSON; Google's checksummed `.cs` files (an 8-byte Adler-32, then the
//!   message: Google Maps' caches) read after their checksum, which is verified; fixed64 values
//!   printed as doubles on request (`doubles`), fixed32 values as floats (`floats`).
//! - `read_java` ([`javaser`]): a file that is a Java serialization stream (WeChat for Android's
//!   `CompatibleInfo.cfg`), decoded without its classes as indented JSON, by a hand-written
//!   reader bounded in depth and size (a crafted stream is an error naming its offset).
//! - `inventory` ([`inventory`]): every file below a folder with size, SHA-256, id, deleted flag,
//!   times and path, in pages bounded by files, bytes of text and bytes hashed (never by time), so
//!   each page re-derives to the same bytes. A page resumes after the previous page's last file by
//!   re-listing only the folders on the way to it, so a tree of any size costs one walk.
//! - `doc_metadata` ([`doc_metadata`]): Office core/app.xml, PDF Info, EXIF.
//! - `parse_plist`: XML, binary and text property lists through `masf_evidence::plist`,
//!   NSKeyedArchiver unwrapped to 64 levels and at most a million values.
//! - `leveldb_records` ([`leveldb_tool`]): a store's `*.log`/`*.ldb`/`*.sst` through
//!   `masf_evidence::leveldb`, one line per record version; Chromium Local Storage values decoded;
//!   JSON strings under secret names or shaped like a BIP-39 phrase redacted before the output is
//!   logged, counted in its header.
//! - `read_segb` ([`segb_tool`]): Apple Biome SEGB files (v1, v2) through
//!   `masf_evidence::segb` — a stream's folder (its `local/` files and those other devices
//!   synced into `remote/<device>/`), a directory or one file —, one line per record with its
//!   state, times, CRC check and payload decoded as a Protocol Buffers message (fixed64 values
//!   also as doubles).
//! - `read_fsevents` ([`fsevents`]): Apple's file-system event logs (`.fseventsd/` of a macOS
//!   volume or an iPhone), gzip pages of 1SLD/2SLD/3SLD records, one line per record: path,
//!   event id, flags in words, node id; paged.
//! - `read_okhttp_cache` ([`okhttp_cache`]): an Android app's OkHttp response cache folder
//!   (its `DiskLruCache` journal and `<key>.0` metadata files), one line per cached response:
//!   URL, method, status, OkHttp's sent/received times, headers, TLS handshake; credentials and
//!   cookies redacted before the output is logged, counted.
//! - `search_text` ([`search`]): literal strings in every file below a folder, UTF-8 and
//!   UTF-16LE, chunked with overlap.
//! - `search_index` ([`index_tools`]): the source's full-text index. The `SourceCtx` carries
//!   where the index is (`Session::source`, the worker's `Open` request and `api::rederive` set
//!   it) and the tool fails with "build it with `masf index`" where there is none.
//!   `index_tools::build_index` walks every file system of the source, deleted entries included,
//!   giving SQLite databases as their rows with the `-wal` applied plus the printable runs of the
//!   raw file.
//! - `sqlite_query` ([`sqlite`]): on a working copy of the db with its `-wal`/`-shm`, opened
//!   read-only, kept per source and path in a 1 GiB LRU cache so repeated queries do not copy
//!   again (a gzip-compressed database, such as a PowerLog archive, inflated into the copy, at
//!   most 512 MiB, and said on a last `# gzip: …` line); one read-only SELECT only. Options turn BLOB cells into text a fact can ground in:
//!   `plists: true` writes a binary plist as `plist:` + its canonical JSON, NSKeyedArchiver
//!   unwrapped (with `decode_nested: true` the JSON texts kept inside it decoded too, so their
//!   values print once, unescaped); `protobuf: true` writes a Protocol Buffers message,
//!   gzip- or zlib-inflated first (a zlib stream after one leading byte too, as Gmail keeps
//!   messages), as `protobuf:` + its schema-less decoding ([`protobuf`], like `protoc --decode_raw`);
//!   `telegram: true` writes a Telegram for Android stored message as `tl:` + its reading ([`tl`]:
//!   the client's secret-chat message field by field, other layers by the text after the message
//!   date, marked `date-anchored`); `base64: true` writes a cell that is base64 of UTF-8 text as
//!   `b64:` + the text, and with `protobuf` too base64 of a Protocol Buffers message as
//!   `protobuf:` + its decoding; `java: true` writes a Java serialization stream (or its Base64)
//!   as `java:` + its JSON ([`javaser`]). `sqlite_tables` and `sqlite_query` open an app's SQLCipher
//!   database with `cipher` ([`cipher`]: a profile names the app's settings and where the
//!   extraction keeps its key; the tool reads the key, decrypts a working copy with
//!   `masf_evidence::sqlcipher`, replaying the `-wal`, and says on the output's last line
//!   `# sqlcipher: …` where the key came from and how many pages authenticated — never the key).
//!
//! Plugins add their own tools (`ocr_image`, `doc_text`, `phone_region`, `binary_cookies`)
//! through `Plugins::catalog` in `masf-agents`.
//!
//! # Every call goes through the `Invoker`
//!
//! `Invoker::invoke`:
//!
//! 1. canonicalises the arguments (sorted keys, on an explicit stack; arguments nested deeper
//!    than `invoke::MAX_ARGS_DEPTH`, 32 levels, are refused unserialised) and validates them
//!    against the schema;
//! 2. refuses a call whose `Applicability` (tree / image / single file) does not fit the source's
//!    `SourceCtx::shape` before it runs: recorded `failed`, "not applicable: …", naming what the
//!    source offers and `Catalog::applicable_to`, the tools that do fit;
//! 3. serves repeats from the store's cache, recorded `cached` with `cached_from`: the oldest run
//!    of the same tool version whose stored output still matches its hash;
//! 4. runs the tool under `Limits {timeout, max_output_bytes}` (from `config.yaml` `tools:`), in
//!    a worker process when the app gave the invoker a `WorkerCommand`, else on its own thread;
//! 5. records every call (`ok`, `cached`, `failed`, `timed_out`, `too_large`) in the store. Only a
//!    store failure is an `Err`.
//!
//! Workers ([`worker`]): the CLI and the desktop app run tools in workers (`masf tool-worker`,
//! or the desktop binary with the same argument, wired by `api::run_tools_in_workers`). A worker
//! keeps its source open between calls (idle workers are pooled per source), limits its own
//! address space (`tools.max_memory_mb`, `RLIMIT_AS`) and is killed at the call's timeout, so a
//! tool that aborts, overflows its stack, exhausts memory or never ends is one `failed` call (exit
//! status and the worker's last stderr words, e.g. "overflowed its stack") or one `timed_out`
//! call, and the next call gets a new worker. Requests go over a socket written with
//! `MSG_NOSIGNAL`, so a dead worker never raises `SIGPIPE` in the caller. On threads, the
//! `deadline` lets `find_files`, `hash_file` and the SQLite tools stop once abandoned (a thread
//! that never checks is left detached). More: docs/case-integrity.md, "Tools in worker
//! processes".
//!
//! # The log, re-derivation, consistency, marks
//!
//! - [`log`]: `StoreLog` is the store-backed `InvocationLog` the graph gateway grounds against
//!   (text outputs; JSON text is re-parsed as the structured output). It also holds the one fold
//!   of the graph (`fold_graph`, `feed`, `FoldCursor`): graph events applied in seq order, a
//!   `GraphRebuilt` event (`masf repair`) emptying the graph and opening the next epoch, whose
//!   events are keyed `rebuilt-N/…`.
//! - [`rederive`] checks one recorded call two ways without writing anything: the stored output
//!   still has its recorded hash, and running the same tool on the same evidence gives the same
//!   hash (`masf rerun`, `masf verify`); and re-grounds every verified fact of the graph in the
//!   output it cites, by the method it was grounded with (`rederive::reground_facts`).
//! - [`consistency`]: `consistency::check` is the store's consistency check (issue 24), run by
//!   `masf status`, `verify`, `report` and `run`: sequence gaps, unparsable graph events, events
//!   the fold must ignore (one id naming two records, references to missing records, decisions
//!   and rounds out of sequence) and facts citing unlogged invocations. Problems before the last
//!   rebuild count as superseded. The examiner's marks are folded too: an out-of-sequence or
//!   unparsable mark is `MarkOutOfSequence`, never superseded, and `DECISION_KINDS` holds the
//!   marks with the `same_as` decisions, so each must name the graph event it was made on (a
//!   decision that names none, or is dated before it, is flagged).
//! - [`marks`]: the examiner's marks in the store. `fold_with_marks` (graph and marks in one
//!   pass), `fold_marks`, and `write`, their one write path: judged on a fresh fold, dated by the
//!   caller's clock, naming the fold's last event as its cause, appended only if no graph or mark
//!   event came since (`append_batch_unless_newer`), else judged again; no run lease is needed.
//!   `SourceFiles` checks a file target by opening its source.

pub mod bencode;
pub mod byte_error;
pub mod catalog;
pub mod cipher;
pub mod consistency;
pub mod content_tools;
pub mod derplist;
pub mod doc_metadata;
pub mod email_tool;
pub mod fit;
mod free_space;
pub mod fs_tools;
pub mod fsevents;
pub mod index_tools;
pub mod inventory;
pub mod invoke;
pub mod javaser;
pub mod json_tool;
pub mod leveldb_tool;
pub mod log;
pub mod marks;
pub mod okhttp_cache;
pub mod plist_tool;
pub mod postbox;
pub mod protobuf;
pub mod rederive;
pub mod scan_tools;
pub mod search;
pub mod segb_tool;
pub mod sqlite;
mod sqlite_record;
pub mod tl;
pub mod twserial;
pub mod typedstream;
pub mod wal_history;
pub mod worker;
pub mod xml_tool;

use std::path::Path;

use masf_evidence::scan::{self, Scan};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

pub use catalog::Catalog;
pub use invoke::{Call, InvokeError, Invoked, Invoker, Limits};
pub use log::{
    CarriedDecision, Fed, FoldCursor, FoldError, GRAPH_REBUILT, GraphRebuilt, StoreLog, feed,
    fold_graph, fold_graph_at, graph_kinds,
};

/// The shapes of source a tool reads. A call is applicable when the source has at least one
/// of them ([`SourceCtx::shape`]); the invoker refuses any other call before it runs, naming
/// what the source is and which tools do apply, so an agent can act on the refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applicability {
    /// Reads entries of a file system or tree (ext4, FAT, NTFS, ZIP, TAR, folder, iTunes backup…).
    pub tree: bool,
    /// Reads a disk image's layers (partition tables, volumes).
    pub image: bool,
    /// Reads a source that is one plain file (a screenshot, a database) as a whole.
    #[serde(default)]
    pub file: bool,
}

impl Applicability {
    /// Needs a readable file system or tree.
    pub const TREE: Self = Self {
        tree: true,
        image: false,
        file: false,
    };
    /// Needs a disk image.
    pub const IMAGE: Self = Self {
        tree: false,
        image: true,
        file: false,
    };
    /// Reads any source.
    pub const ANY: Self = Self {
        tree: true,
        image: true,
        file: true,
    };

    /// Whether a tool with these needs can run on a source of `shape`.
    pub fn fits(self, shape: Applicability) -> bool {
        (self.tree && shape.tree) || (self.image && shape.image) || (self.file && shape.file)
    }

    /// The needs in words, for refusals: "a file system or tree, or a single file".
    pub fn describe(self) -> String {
        let mut parts = Vec::new();
        if self.tree {
            parts.push("a readable file system or tree");
        }
        if self.image {
            parts.push("a disk image");
        }
        if self.file {
            parts.push("a single file");
        }
        if parts.is_empty() {
            "nothing any source offers".to_string()
        } else {
            parts.join(" or ")
        }
    }
}

/// What a tool returned: canonical text (the bytes that are logged, hashed and grounded
/// against) and, where useful, structured JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// Canonical, deterministic text.
    pub text: String,
    /// Structured form of the same answer, if any.
    pub structured: Option<Value>,
}

impl ToolOutput {
    /// Text only.
    pub fn text(text: String) -> Self {
        Self {
            text,
            structured: None,
        }
    }
}

/// Why a tool call failed.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The arguments do not fit the tool's schema.
    #[error("invalid arguments: {0}")]
    InvalidArgs(String),
    /// No tool of that name in the catalog.
    #[error("unknown tool {0:?}")]
    UnknownTool(String),
    /// The tool does not apply to this source.
    #[error("not applicable: {0}")]
    NotApplicable(String),
    /// The evidence layer failed (no such entry, corrupt, encrypted, …).
    #[error("{0}")]
    Evidence(#[from] masf_evidence::Error),
    /// Anything else the tool met (SQLite, I/O on a working copy).
    #[error("{0}")]
    Other(String),
}

/// The scan options of a source whose encrypted-backup password is held by the environment
/// variable `password_env` (the examiner's `password_env:` in case.yaml, or `masf inspect
/// --backup-password-env`). Only the variable's name travels (to worker processes, into logs and
/// errors); the password is read here, kept in a zeroized buffer and never written anywhere. A
/// named variable that is unset or empty is an error saying so, not a silent "no password".
pub fn scan_options(password_env: Option<&str>) -> Result<scan::ScanOptions, ToolError> {
    let Some(var) = password_env else {
        return Ok(scan::ScanOptions::default());
    };
    match backup_password(var) {
        Some(password) => Ok(scan::ScanOptions {
            backup_password: Some(password),
        }),
        None => Err(ToolError::Other(format!(
            "the backup password is to be read from the environment variable {var} \
             (password_env), which is not set or empty in this process: export it before \
             starting masf"
        ))),
    }
}

/// Passwords the examiner typed in this process (the desktop's password field), by the name of
/// the variable case.yaml's `password_env:` gives: held in memory only (zeroized when replaced
/// or the process ends), never written, and handed to tool workers in their environment.
static GIVEN_PASSWORDS: std::sync::Mutex<
    std::collections::BTreeMap<String, masf_evidence::itunes::keybag::Password>,
> = std::sync::Mutex::new(std::collections::BTreeMap::new());

/// Gives this process the password of the variable `var` without setting the environment
/// (the desktop app's password field); an empty password takes it back.
pub fn give_backup_password(var: &str, password: masf_evidence::itunes::keybag::Password) {
    let mut given = GIVEN_PASSWORDS.lock().unwrap_or_else(|e| e.into_inner());
    if password.bytes().is_empty() {
        given.remove(var);
    } else {
        given.insert(var.to_string(), password);
    }
}

/// The password the variable `var` holds: one given in this process first, else the
/// environment's; `None` when neither holds a non-empty value.
pub fn backup_password(var: &str) -> Option<masf_evidence::itunes::keybag::Password> {
    let given = GIVEN_PASSWORDS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = given.get(var) {
        return Some(p.clone());
    }
    drop(given);
    masf_evidence::itunes::keybag::Password::from_env(var).filter(|p| !p.bytes().is_empty())
}

/// One evidence source, scanned once and shared by every call bound to it.
pub struct SourceCtx {
    /// The case's source id (part of every cache key).
    pub source_id: String,
    /// The scanned layer stack (shared: one scan of a source serves every user in a run).
    pub scan: Arc<Scan>,
    /// Working copies of the source's SQLite databases, kept while the source is open
    /// (removed from disk when it is dropped).
    sqlite_copies: sqlite::CopyCache,
    /// The name of the environment variable holding an encrypted backup's password
    /// (case.yaml `password_env:`); a worker process opening the same source reads it again.
    password_env: Option<String>,
    /// The source's full-text index, where the case has one (`search_index` reads it).
    index: Option<index_tools::IndexRef>,
}

impl SourceCtx {
    /// Scans the evidence at `path` for the source `source_id`.
    pub fn open(source_id: &str, path: &Path) -> Result<Self, ToolError> {
        Self::open_with(source_id, path, None)
    }

    /// [`SourceCtx::open`] with the password of an encrypted iTunes/Finder backup read from the
    /// environment variable `password_env` names (see [`scan_options`]).
    pub fn open_with(
        source_id: &str,
        path: &Path,
        password_env: Option<&str>,
    ) -> Result<Self, ToolError> {
        let options = scan_options(password_env)?;
        Ok(Self::from_scan(
            source_id,
            Arc::new(scan::scan_with(path, &options)?),
            password_env,
        ))
    }

    /// The source over a scan already made of its evidence (with the options `password_env`
    /// gives, as [`SourceCtx::open_with`] would make it).
    pub fn from_scan(source_id: &str, scan: Arc<Scan>, password_env: Option<&str>) -> Self {
        Self {
            source_id: source_id.to_string(),
            scan,
            sqlite_copies: sqlite::CopyCache::default(),
            password_env: password_env.map(str::to_string),
            index: None,
        }
    }

    /// The same source with its full-text index at `index` (see [`index_tools`]).
    pub fn with_index(mut self, index: index_tools::IndexRef) -> Self {
        self.index = Some(index);
        self
    }

    /// Where this source's full-text index is, if the case has a place for one.
    pub fn index(&self) -> Option<&index_tools::IndexRef> {
        self.index.as_ref()
    }

    /// The environment variable this source's backup password was read from, if any.
    pub fn password_env(&self) -> Option<&str> {
        self.password_env.as_deref()
    }

    /// The same source with its SQLite working-copy cache bounded to `max_bytes` (0: every
    /// call copies the database afresh).
    pub fn with_sqlite_cache_bytes(mut self, max_bytes: u64) -> Self {
        self.sqlite_copies = sqlite::CopyCache::new(max_bytes);
        self
    }

    /// What this source offers tools: a readable file system or tree, disk-image layers,
    /// or one plain file (see [`Applicability`]).
    pub fn shape(&self) -> Applicability {
        use masf_evidence::scan::Form;
        let has_partitions = self
            .scan
            .root
            .children
            .iter()
            .any(|c| c.partition.is_some());
        Applicability {
            tree: !self.scan.file_systems().is_empty(),
            image: has_partitions || self.scan.form == Form::DiskImage,
            file: self.scan.form == Form::File,
        }
    }

    /// Why `tool` (needing `needs`) cannot run on this source, or `None` when it can.
    pub fn refusal(&self, tool: &str, needs: Applicability) -> Option<String> {
        let shape = self.shape();
        if needs.fits(shape) {
            return None;
        }
        let what = self.scan.form.as_str();
        let has = if shape.tree || shape.image || shape.file {
            shape.describe()
        } else {
            "no readable content".to_string()
        };
        let mut why = format!(
            "{tool} reads {}; source {} ({what}) offers {has}",
            needs.describe(),
            self.source_id
        );
        if !shape.tree && needs.tree {
            why.push_str(&format!(
                " ({})",
                self.scrub(&self.scan.unreadable_summary())
            ));
        }
        Some(why)
    }

    /// The source's SQLite working copies (see [`sqlite::CopyCache`]).
    pub fn sqlite_copies(&self) -> &sqlite::CopyCache {
        &self.sqlite_copies
    }

    /// Replaces the evidence path (absolute, of this machine) by the source id in a message,
    /// so reasons and outputs do not depend on where the evidence lies.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        // A folder's files are all below its root: a message that does not name the root names
        // none of them (and a folder may hold hundreds of thousands).
        let files = &self.scan.files;
        let root = files.root.display().to_string();
        let skip_files = files.kind == masf_evidence::FilesKind::Folder
            && !root.is_empty()
            && !out.contains(&root);
        for f in files.files.iter().filter(|_| !skip_files) {
            let p = f.display().to_string();
            if !p.is_empty() {
                out = out.replace(&p, &format!("<{}>", self.source_id));
            }
        }
        let p = self.scan.path.display().to_string();
        if !p.is_empty() {
            out = out.replace(&p, &format!("<{}>", self.source_id));
        }
        out
    }
}

/// A tool of the catalog. Executors must be deterministic: same evidence, same args, same text.
pub trait Tool: Send + Sync {
    /// Its name, unique in the catalog.
    fn name(&self) -> &str;
    /// What it does and when to use it, written for an agent.
    fn description(&self) -> &str;
    /// JSON Schema of its arguments (an object schema with `properties` and `required`).
    fn args_schema(&self) -> Value;
    /// What it needs from its source.
    fn applicability(&self) -> Applicability;
    /// Version of the executor, recorded with each call.
    fn version(&self) -> &str {
        "1"
    }
    /// Runs the tool on a source.
    fn run(&self, ctx: &SourceCtx, args: &Value) -> Result<ToolOutput, ToolError>;
}

/// How deeply `value` nests (a scalar is 0, `[1]` is 1, `{"a": [1]}` is 2), computed on an
/// explicit stack: safe on any value, however deep.
pub fn json_depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        match v {
            Value::Array(items) => {
                deepest = deepest.max(depth + 1);
                stack.extend(items.iter().map(|x| (x, depth + 1)));
            }
            Value::Object(map) => {
                deepest = deepest.max(depth + 1);
                stack.extend(map.values().map(|x| (x, depth + 1)));
            }
            _ => deepest = deepest.max(depth),
        }
    }
    deepest
}

/// A container of [`canonical_value`] being rebuilt.
enum Canon<'a> {
    Array(std::slice::Iter<'a, Value>, Vec<Value>),
    Object(
        std::vec::IntoIter<(&'a String, &'a Value)>,
        serde_json::Map<String, Value>,
        Option<&'a String>,
    ),
}

/// A JSON value with every object's keys sorted, at every level. Built on an explicit stack,
/// so a deep value cannot exhaust the thread's stack here (serialising one still recurses:
/// bound its depth with [`json_depth`] first, as [`Invoker`] does with arguments).
pub fn canonical_value(value: &Value) -> Value {
    fn open<'a>(v: &'a Value, stack: &mut Vec<Canon<'a>>) -> Option<Value> {
        match v {
            Value::Array(items) => {
                stack.push(Canon::Array(items.iter(), Vec::with_capacity(items.len())));
                None
            }
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                stack.push(Canon::Object(
                    entries.into_iter(),
                    serde_json::Map::new(),
                    None,
                ));
                None
            }
            other => Some(other.clone()),
        }
    }
    let mut stack: Vec<Canon<'_>> = Vec::new();
    let mut done = open(value, &mut stack);
    loop {
        if let Some(v) = done.take() {
            match stack.last_mut() {
                None => return v,
                Some(Canon::Array(_, out)) => out.push(v),
                Some(Canon::Object(_, out, key)) => {
                    if let Some(k) = key.take() {
                        out.insert(k.clone(), v);
                    }
                }
            }
        }
        let next = match stack.last_mut() {
            None => return Value::Null,
            Some(Canon::Array(items, _)) => items.next(),
            Some(Canon::Object(entries, _, key)) => entries.next().map(|(k, v)| {
                *key = Some(k);
                v
            }),
        };
        done = match next {
            Some(child) => open(child, &mut stack),
            None => match stack.pop() {
                Some(Canon::Array(_, out)) => Some(Value::Array(out)),
                Some(Canon::Object(_, out, _)) => Some(Value::Object(out)),
                None => return Value::Null,
            },
        };
    }
}

/// Compact JSON text with sorted keys: the canonical form of arguments and structured outputs.
pub fn canonical_json(value: &Value) -> String {
    serde_json::to_string(&canonical_value(value)).unwrap_or_else(|_| "null".to_string())
}

/// The time limit of the call running on this thread, so long-running executors can stop early
/// (the wrapper abandons a call at its limit; a tool that checks [`deadline::passed`] then ends
/// soon after instead of running on detached). Executors must not let it change their output
/// other than by failing.
pub mod deadline {
    use std::cell::Cell;
    use std::time::Instant;

    thread_local! {
        static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    }

    /// Sets (or clears) this thread's deadline.
    pub fn set(at: Option<Instant>) {
        DEADLINE.with(|d| d.set(at));
    }

    /// This thread's deadline, if any.
    pub fn get() -> Option<Instant> {
        DEADLINE.with(Cell::get)
    }

    /// Whether this thread's deadline has passed.
    pub fn passed() -> bool {
        get().is_some_and(|at| Instant::now() >= at)
    }
}

/// Argument helpers shared by the executors.
pub(crate) mod args {
    use serde_json::Value;

    use crate::ToolError;

    pub fn opt_str<'a>(args: &'a Value, key: &str) -> Result<Option<&'a str>, ToolError> {
        match args.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(ToolError::InvalidArgs(format!("{key} must be a string"))),
        }
    }

    /// A list of at most `max` strings, absent or null as `None`.
    pub fn opt_str_list<'a>(
        args: &'a Value,
        key: &str,
        max: usize,
    ) -> Result<Option<Vec<&'a str>>, ToolError> {
        let bad = || ToolError::InvalidArgs(format!("{key} must be a list of strings"));
        match args.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => {
                if items.len() > max {
                    return Err(ToolError::InvalidArgs(format!(
                        "{key} holds {} items; at most {max}",
                        items.len()
                    )));
                }
                items
                    .iter()
                    .map(|v| v.as_str().ok_or_else(bad))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some)
            }
            Some(_) => Err(bad()),
        }
    }

    pub fn str<'a>(args: &'a Value, key: &str) -> Result<&'a str, ToolError> {
        opt_str(args, key)?.ok_or_else(|| ToolError::InvalidArgs(format!("{key} is required")))
    }

    pub fn opt_bool(args: &Value, key: &str) -> Result<Option<bool>, ToolError> {
        match args.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_bool()
                .map(Some)
                .ok_or_else(|| ToolError::InvalidArgs(format!("{key} must be true or false"))),
        }
    }

    pub fn opt_u64(args: &Value, key: &str) -> Result<Option<u64>, ToolError> {
        match args.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                ToolError::InvalidArgs(format!("{key} must be a non-negative integer"))
            }),
        }
    }
}
