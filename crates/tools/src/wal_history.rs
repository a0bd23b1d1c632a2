//! `sqlite_wal_history`: the rows of a table that only earlier page versions in a database's
//! write-ahead log still hold — rows since deleted, and earlier versions of rows since changed.
//!
//! A WAL database's `-wal` keeps every page version written since the last checkpoint reset,
//! each in its own frame; SQLite reads only the newest committed version of each page. The
//! older frames (and frames of an earlier WAL generation beyond the current one's end, with
//! other salts, and frames written but never committed) still hold whatever their pages held
//! then: a message the user deleted, the text of a message before it was edited. This tool
//! reads them, as forensic examiners read WAL files by hand (Sanderson, *SQLite Forensics*,
//! ch. 7), and compares each recovered row with the table's current row of the same rowid.
//!
//! Hand-written: no maintained crate reads SQLite's page and record formats outside SQLite, and
//! SQLite itself never shows superseded frames. What is parsed (format, sqlite.org/fileformat2):
//!
//! - the WAL header (magic `0x377f0682`/`0x377f0683` — the checksums' byte order —, page size,
//!   salts, checksum) and each frame's header (page, commit size, salts, checksum); a frame is
//!   *committed* when its salts are the header's and the running checksum holds up to a commit
//!   frame at or after it, as SQLite decides; else *uncommitted* (valid, no commit after it),
//!   *earlier generation* (other salts: left from before the log was reset) or *bad checksum*.
//! - the database as SQLite sees it (the main file with each page's newest committed frame),
//!   walked from the table's root page to find which pages are the table's: a frame of one of
//!   those pages is read as a version of the table's page.
//! - table b-tree leaf pages (type 13): each cell's rowid and record (serial types 0–9, text
//!   and blobs), with overflow chains followed in the same database image (a chain that leaves
//!   the file, loops or runs past the payload is refused for that cell and counted).
//!
//! The current row of each recovered rowid is read with SQL from a working copy (so the
//! comparison is SQLite's own view); a recovered row equal to it is not shown. Values are
//! written as `sqlite_query` writes them; an `INTEGER PRIMARY KEY` column shows the rowid. The
//! evidence is read, never written. Bounds: a `-wal` up to 512 MiB, the table's pages up to
//! 1,000,000, a recovered record up to 16 MiB.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

use masf_evidence::bytes::Bytes;
use masf_evidence::fs::{EntryKind, FileSystem, normalize_path};
use rusqlite::types::ValueRef;
use serde_json::{Value, json};

use crate::fs_tools::file_system;
use crate::sqlite::{escape_cell, push_cell};
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest `-wal` read.
pub const MAX_WAL: u64 = 512 << 20;
/// Most pages of a table walked.
const MAX_TABLE_PAGES: usize = 1_000_000;
/// Largest record recovered.
const MAX_RECORD: u64 = 16 << 20;
/// Default and largest number of rows written.
pub const DEFAULT_LIMIT: u64 = 1000;
pub const MAX_LIMIT: u64 = 100_000;

/// How a frame stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrameState {
    /// The main file's version of a page the log has a newer committed version of.
    DatabaseFile,
    Committed,
    Uncommitted,
    EarlierGeneration,
    BadChecksum,
}

impl FrameState {
    fn word(self) -> &'static str {
        match self {
            FrameState::DatabaseFile => "database file",
            FrameState::Committed => "committed",
            FrameState::Uncommitted => "uncommitted",
            FrameState::EarlierGeneration => "earlier generation",
            FrameState::BadChecksum => "bad checksum",
        }
    }
}

/// One frame of the log.
struct Frame {
    /// 1-based, in file order.
    index: usize,
    page: u32,
    /// Offset of the page's bytes in the log.
    at: usize,
    state: FrameState,
}

/// A read-only view of the database as SQLite sees it: the main file's pages, each replaced by
/// its newest committed frame.
struct Image<'a> {
    main: &'a Bytes,
    wal: &'a [u8],
    page_size: usize,
    /// Page → offset of the frame holding its newest committed version.
    frames: HashMap<u32, usize>,
    /// Page → `(frame index, offset)` of every frame of it, in file order.
    by_page: HashMap<u32, Vec<(usize, usize)>>,
}

impl<'a> Image<'a> {
    /// Page `n` as SQLite sees it now.
    fn page(&self, n: u32) -> Option<Cow<'a, [u8]>> {
        self.page_as_of(n, None)
    }

    /// Page `n` as of frame `k` (its last frame at or before `k` in the log, else the main
    /// file's; `Some(0)`: the main file's), or now (`None`). An earlier version's overflow
    /// pages are read as of its own frame, before later writes reused them.
    fn page_as_of(&self, n: u32, k: Option<usize>) -> Option<Cow<'a, [u8]>> {
        if n == 0 {
            return None;
        }
        let at = match k {
            None => self.frames.get(&n).copied(),
            Some(k) => self
                .by_page
                .get(&n)
                .and_then(|v| v.iter().rev().find(|(i, _)| *i <= k))
                .map(|(_, at)| *at),
        };
        if let Some(at) = at {
            return self.wal.get(at..at + self.page_size).map(Cow::Borrowed);
        }
        let start = (n as u64 - 1).checked_mul(self.page_size as u64)?;
        if start + self.page_size as u64 > self.main.len() {
            return None;
        }
        let mut page = vec![0u8; self.page_size];
        self.main.read_exact_at(start, &mut page).ok()?;
        Some(Cow::Owned(page))
    }
}

/// The log's error: what is wrong and where.
fn bad(path: &str, offset: usize, what: &str) -> ToolError {
    ToolError::Other(format!("{path}-wal: corrupt at offset {offset}: {what}"))
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from `s`.
fn checksum(data: &[u8], big_endian: bool, mut s: (u32, u32)) -> (u32, u32) {
    for chunk in data.chunks_exact(8) {
        let word = |b: &[u8]| {
            let a = [b[0], b[1], b[2], b[3]];
            if big_endian {
                u32::from_be_bytes(a)
            } else {
                u32::from_le_bytes(a)
            }
        };
        s.0 = s.0.wrapping_add(word(&chunk[..4])).wrapping_add(s.1);
        s.1 = s.1.wrapping_add(word(&chunk[4..])).wrapping_add(s.0);
    }
    s
}

/// The log's header and frames. `Ok(None)`: a log with no frame (or empty).
fn frames(path: &str, wal: &[u8]) -> Result<Option<(usize, Vec<Frame>)>, ToolError> {
    if wal.len() < 32 {
        return Ok(None);
    }
    let magic = be32(wal, 0);
    if magic & !1 != 0x377f_0682 {
        return Err(bad(
            path,
            0,
            &format!("magic {magic:#010x} is no WAL header's"),
        ));
    }
    let big = magic & 1 == 1;
    let page_size = be32(wal, 8) as usize;
    if !(512..=65536).contains(&page_size) || !page_size.is_power_of_two() {
        return Err(bad(path, 8, &format!("page size {page_size}")));
    }
    let salts = (be32(wal, 16), be32(wal, 20));
    let header_ok = checksum(&wal[..24], big, (0, 0)) == (be32(wal, 24), be32(wal, 28));
    let mut out = Vec::new();
    let mut running = (be32(wal, 24), be32(wal, 28));
    let mut chain = header_ok;
    let mut last_commit = 0usize;
    let mut at = 32usize;
    while at + 24 + page_size <= wal.len() {
        let h = &wal[at..at + 24];
        let page = be32(h, 0);
        let commit = be32(h, 4);
        let same_salts = (be32(h, 8), be32(h, 12)) == salts;
        let state = if !same_salts {
            chain = false;
            FrameState::EarlierGeneration
        } else if chain {
            let s = checksum(&h[..8], big, running);
            let s = checksum(&wal[at + 24..at + 24 + page_size], big, s);
            if s == (be32(h, 16), be32(h, 20)) {
                running = s;
                FrameState::Uncommitted
            } else {
                chain = false;
                FrameState::BadChecksum
            }
        } else {
            FrameState::BadChecksum
        };
        out.push(Frame {
            index: out.len() + 1,
            page,
            at: at + 24,
            state,
        });
        if state == FrameState::Uncommitted && commit != 0 {
            last_commit = out.len();
        }
        at += 24 + page_size;
    }
    for f in out.iter_mut().take(last_commit) {
        if f.state == FrameState::Uncommitted {
            f.state = FrameState::Committed;
        }
    }
    Ok(Some((page_size, out)))
}

/// A varint at `at` of `b`: its value and length.
fn varint(b: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut v: u64 = 0;
    for i in 0..9 {
        let byte = *b.get(at + i)?;
        if i == 8 {
            return Some(((v << 8) | byte as u64, 9));
        }
        v = (v << 7) | (byte & 0x7f) as u64;
        if byte & 0x80 == 0 {
            return Some((v, i + 1));
        }
    }
    None
}

/// Where a b-tree page's header starts (page 1 after the 100-byte file header).
fn header_at(page_no: u32) -> usize {
    if page_no == 1 { 100 } else { 0 }
}

/// The pages of the table whose root is `root` in `image` (interior and leaf).
fn table_pages(image: &Image<'_>, root: u32) -> Result<HashSet<u32>, String> {
    let mut seen = HashSet::new();
    let mut todo = vec![root];
    while let Some(n) = todo.pop() {
        if !seen.insert(n) {
            continue;
        }
        if seen.len() > MAX_TABLE_PAGES {
            return Err(format!("more than {MAX_TABLE_PAGES} pages"));
        }
        let Some(p) = image.page(n) else {
            return Err(format!("page {n} is past the database's end"));
        };
        let p = p.as_ref();
        let h = header_at(n);
        match p.get(h) {
            Some(0x0d) => {}
            Some(0x05) => {
                let cells = u16::from_be_bytes([p[h + 3], p[h + 4]]) as usize;
                todo.push(be32(p, h + 8));
                for i in 0..cells {
                    let ptr_at = h + 12 + 2 * i;
                    let ptr = p
                        .get(ptr_at..ptr_at + 2)
                        .map(|x| u16::from_be_bytes([x[0], x[1]]) as usize)
                        .ok_or_else(|| format!("page {n}: cell pointer {i} past the page"))?;
                    if ptr + 4 > p.len() {
                        return Err(format!("page {n}: cell {i} past the page"));
                    }
                    todo.push(be32(p, ptr));
                }
            }
            other => {
                return Err(format!(
                    "page {n} is no table b-tree page (type {:?})",
                    other.copied()
                ));
            }
        }
    }
    Ok(seen)
}

/// One value of a record.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(Vec<u8>),
    Blob(Vec<u8>),
}

impl Cell {
    fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Cell::Null => ValueRef::Null,
            Cell::Int(i) => ValueRef::Integer(*i),
            Cell::Real(f) => ValueRef::Real(*f),
            Cell::Text(t) => ValueRef::Text(t),
            Cell::Blob(b) => ValueRef::Blob(b),
        }
    }
}

/// The payload of the cell at `ptr` of leaf page `p` (overflow followed in `image`): rowid and
/// bytes. `Err` names why the cell cannot be read.
fn leaf_cell(
    image: &Image<'_>,
    as_of: usize,
    p: &[u8],
    ptr: usize,
    usable: usize,
) -> Result<(i64, Vec<u8>), String> {
    let (len, a) = varint(p, ptr).ok_or("payload length past the page")?;
    let (rowid, b) = varint(p, ptr + a).ok_or("rowid past the page")?;
    if len > MAX_RECORD {
        return Err(format!("payload of {len} bytes"));
    }
    let len = len as usize;
    let start = ptr + a + b;
    let max_local = usable - 35;
    if len <= max_local {
        let body = p.get(start..start + len).ok_or("payload past the page")?;
        return Ok((rowid as i64, body.to_vec()));
    }
    let min_local = (usable - 12) * 32 / 255 - 23;
    let k = min_local + (len - min_local) % (usable - 4);
    let local = if k <= max_local { k } else { min_local };
    let mut out = p
        .get(start..start + local)
        .ok_or("payload past the page")?
        .to_vec();
    let mut next = p
        .get(start + local..start + local + 4)
        .map(|x| u32::from_be_bytes([x[0], x[1], x[2], x[3]]))
        .ok_or("overflow pointer past the page")?;
    let mut hops = 0usize;
    while out.len() < len {
        hops += 1;
        if next == 0 || hops > len / (usable - 4) + 2 {
            return Err("overflow chain ends before the payload".into());
        }
        let page = image
            .page_as_of(next, Some(as_of))
            .ok_or_else(|| format!("overflow page {next} past the database's end"))?;
        let take = (len - out.len()).min(usable - 4);
        out.extend_from_slice(&page[4..4 + take]);
        next = be32(&page, 0);
    }
    Ok((rowid as i64, out))
}

/// The values of a record.
fn record(b: &[u8]) -> Result<Vec<Cell>, String> {
    let (header_len, n) = varint(b, 0).ok_or("record header length")?;
    let header_len = header_len as usize;
    if header_len > b.len() || header_len < n {
        return Err("record header past the record".into());
    }
    let mut types = Vec::new();
    let mut at = n;
    while at < header_len {
        let (t, n) = varint(b, at).ok_or("serial type past the header")?;
        types.push(t);
        at += n;
    }
    let mut body = header_len;
    let mut out = Vec::with_capacity(types.len());
    for t in types {
        let size = match t {
            0 | 8 | 9 => 0,
            1 => 1,
            2 => 2,
            3 => 3,
            4 => 4,
            5 => 6,
            6 | 7 => 8,
            10 | 11 => return Err(format!("reserved serial type {t}")),
            t => ((t - 12) / 2) as usize,
        };
        let v = b.get(body..body + size).ok_or("value past the record")?;
        body += size;
        out.push(match t {
            0 => Cell::Null,
            8 => Cell::Int(0),
            9 => Cell::Int(1),
            1..=6 => {
                let mut x: i64 = if v[0] & 0x80 != 0 { -1 } else { 0 };
                for byte in v {
                    x = (x << 8) | *byte as i64;
                }
                Cell::Int(x)
            }
            7 => Cell::Real(f64::from_be_bytes(v.try_into().map_err(|_| "real")?)),
            t if t % 2 == 0 => Cell::Blob(v.to_vec()),
            _ => Cell::Text(v.to_vec()),
        });
    }
    Ok(out)
}

/// Whether a declared column type gives REAL affinity (SQLite's rules, in their order: `INT`
/// makes INTEGER, `CHAR`/`CLOB`/`TEXT` TEXT, `BLOB` or none BLOB, then `REAL`/`FLOA`/`DOUB`).
fn real_affinity(declared: &str) -> bool {
    let t = declared.to_ascii_uppercase();
    !t.contains("INT")
        && !t.contains("CHAR")
        && !t.contains("CLOB")
        && !t.contains("TEXT")
        && !t.contains("BLOB")
        && (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB"))
}

/// A row version found in an earlier page version.
struct Recovered {
    /// The first frame (0: the database file) holding it.
    frame: usize,
    state: FrameState,
    /// How many page versions hold it.
    frames: usize,
    values: Vec<Cell>,
}

/// The tool.
pub struct SqliteWalHistory;

impl Tool for SqliteWalHistory {
    fn name(&self) -> &str {
        "sqlite_wal_history"
    }
    fn description(&self) -> &str {
        "Recover the rows of one table of a SQLite database that only earlier page versions in its write-ahead log (-wal) still hold: rows since deleted, and earlier versions of rows since changed. Reads the earlier versions of the table's leaf pages: the database file's own version of each page the log has since replaced, and every frame of the log but each page's newest committed one — committed frames superseded by later ones, frames written but never committed, and frames of an earlier log generation (other salts) left beyond the current end —, decodes their rows (overflow chains followed) and compares each with the table's current row of the same rowid (read with SQL from a working copy): equal rows are left out. Output: a `# wal …` line (frames, page size, how many in each state, the table's pages), then tab-separated rows with a header: status (deleted: no row of that rowid now — a row only in uncommitted frames may never have been committed; changed: the current row differs), frame (the earliest frame holding it, 1-based; 0 for the database file), frame_state (database file, committed, uncommitted, earlier generation, bad checksum), frames (how many frames hold that same version), rowid, then the table's columns (an INTEGER PRIMARY KEY shows the rowid), values written as sqlite_query writes them; then `# unreadable cells: N` when some could not be decoded. The evidence is never written. A database without a -wal, or whose log holds no earlier version, gives no rows."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of the SQLite database inside the evidence (its -wal beside it is read)."},
            "table": {"type": "string", "description": "The table (a rowid table) whose earlier rows are wanted."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "Most rows written (default 1000)."},
            "text_columns": {"type": "array", "items": {"type": "string"}, "description": "Columns whose BLOB values are written as text when they are UTF-8, as CAST(column AS TEXT) writes them (iOS CallHistory keeps ZADDRESS as a BLOB)."},
            "protobuf": {"type": "boolean", "description": "Write a BLOB that is a Protocol Buffers message (gzip-compressed ones inflated first) as `protobuf:` and its raw decoding as JSON, as sqlite_query's protobuf does (Apple Notes' ZICNOTEDATA.ZDATA)."},
            "telegram": {"type": "boolean", "description": "Write a BLOB that is a Telegram stored object (TL: Telegram for Android's cache4.db messages, users, chats) as `tl:` and its JSON, as sqlite_query's telegram does."},
            "typedstream_text": {"type": "boolean", "description": "Write a BLOB that is an archived NSAttributedString (typedstream: Messages' attributedBody) as `typedstream-text:` and its text, as sqlite_query's typedstream_text does."}
        }, "required": ["path", "table"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let table = args::str(a, "table")?;
        let typedstream_text = args::opt_bool(a, "typedstream_text")?.unwrap_or(false);
        let telegram = args::opt_bool(a, "telegram")?.unwrap_or(false);
        let protobuf = args::opt_bool(a, "protobuf")?.unwrap_or(false);
        let text_columns: Vec<&str> =
            args::opt_str_list(a, "text_columns", 64)?.unwrap_or_default();
        let limit = args::opt_u64(a, "limit")?
            .unwrap_or(DEFAULT_LIMIT)
            .clamp(1, MAX_LIMIT) as usize;
        // the table as SQLite sees it now
        let copy = ctx.sqlite_copies().open(&fs, &path)?;
        let meta: Option<(i64, String)> = copy
            .conn
            .query_row(
                "SELECT rootpage, COALESCE(sql, '') FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [table],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .ok();
        let Some((root, sql)) = meta else {
            return Err(ToolError::InvalidArgs(format!(
                "{path} has no table {table}"
            )));
        };
        if sql
            .trim_start()
            .to_ascii_uppercase()
            .starts_with("CREATE VIRTUAL TABLE")
        {
            return Err(ToolError::InvalidArgs(format!(
                "{table} of {path} is a virtual table: its rows live in its shadow tables (query those)"
            )));
        }
        if sql.to_ascii_uppercase().contains("WITHOUT ROWID") {
            return Err(ToolError::InvalidArgs(format!(
                "{table} of {path} is a WITHOUT ROWID table (an index b-tree): its earlier rows are not read"
            )));
        }
        let quoted = format!("\"{}\"", table.replace('"', "\"\""));
        // (name, INTEGER PRIMARY KEY alias, REAL affinity)
        let columns: Vec<(String, bool, bool)> = {
            let mut stmt = copy
                .conn
                .prepare(&format!(
                    "SELECT name, type, pk FROM pragma_table_info('{}')",
                    table.replace('\'', "''")
                ))
                .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
            let rows: Vec<(String, String, i64)> = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .map_err(|e| ToolError::Other(format!("{path}: {e}")))?
                .collect::<rusqlite::Result<_>>()
                .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
            let pks = rows.iter().filter(|r| r.2 > 0).count();
            rows.into_iter()
                .map(|(n, t, pk)| {
                    let alias = pk == 1 && pks == 1 && t.eq_ignore_ascii_case("INTEGER");
                    (n, alias, real_affinity(&t))
                })
                .collect()
        };
        let mut text = String::new();
        let mut header: Vec<String> = ["status", "frame", "frame_state", "frames", "rowid"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        header.extend(columns.iter().map(|(c, ..)| escape_cell(c)));
        // the log
        let wal_path = format!("{path}-wal");
        let wal = match fs.stat(&wal_path) {
            Ok(e) if e.kind == EntryKind::File && e.size > MAX_WAL => {
                return Err(ToolError::Other(format!(
                    "{wal_path}: {} bytes, more than the {MAX_WAL} this tool reads",
                    e.size
                )));
            }
            Ok(e) if e.kind == EntryKind::File => read_all(fs.as_ref(), &wal_path)?,
            _ => Vec::new(),
        };
        let Some((page_size, frames)) = frames(&path, &wal)? else {
            text.push_str(&header.join("\t"));
            text.push('\n');
            let _ = writeln!(
                text,
                "# wal {wal_path}: {}",
                if wal.is_empty() { "none" } else { "no frame" }
            );
            return Ok(ToolOutput {
                text,
                structured: Some(json!({"path": path, "table": table, "frames": 0, "rows": 0})),
            });
        };
        let main = fs.open(&path)?;
        let mut reserved = [0u8; 1];
        if main.len() > 20 {
            main.read_exact_at(20, &mut reserved)?;
        }
        let reserved = reserved[0] as usize;
        if reserved + 480 > page_size {
            return Err(ToolError::Other(format!(
                "{path}: {reserved} reserved bytes a page leave too few of {page_size}"
            )));
        }
        let usable = page_size - reserved;
        let mut newest: HashMap<u32, usize> = HashMap::new();
        for f in frames.iter().filter(|f| f.state == FrameState::Committed) {
            newest.insert(f.page, f.at);
        }
        let mut by_page: HashMap<u32, Vec<(usize, usize)>> = HashMap::new();
        for f in &frames {
            by_page.entry(f.page).or_default().push((f.index, f.at));
        }
        let current = Image {
            main: &main,
            wal: &wal,
            page_size,
            frames: newest.clone(),
            by_page,
        };
        let pages = table_pages(&current, root as u32)
            .map_err(|e| ToolError::Other(format!("{path}: table {table}: {e}")))?;
        // every version of the table's leaf pages but the current one
        let mut found: BTreeMap<(i64, Vec<u8>), Recovered> = BTreeMap::new();
        let mut unreadable = 0usize;
        let mut versions = 0usize;
        // the earlier versions: the main file's pages the log has newer committed versions
        // of, then every frame of the table's pages but each page's newest committed one
        let mut earlier: Vec<(usize, FrameState, u32, Cow<'_, [u8]>)> = Vec::new();
        let mut replaced: Vec<u32> = pages
            .iter()
            .copied()
            .filter(|p| newest.contains_key(p))
            .collect();
        replaced.sort_unstable();
        for n in replaced {
            if let Some(p) = current.page_as_of(n, Some(0)) {
                earlier.push((0, FrameState::DatabaseFile, n, p));
            }
        }
        for f in &frames {
            if pages.contains(&f.page) && newest.get(&f.page) != Some(&f.at) {
                earlier.push((
                    f.index,
                    f.state,
                    f.page,
                    Cow::Borrowed(&wal[f.at..f.at + page_size]),
                ));
            }
        }
        for (index, state, page_no, p) in &earlier {
            let h = header_at(*page_no);
            if p.get(h) != Some(&0x0d) {
                continue;
            }
            versions += 1;
            let cells = u16::from_be_bytes([p[h + 3], p[h + 4]]) as usize;
            for i in 0..cells {
                let ptr_at = h + 8 + 2 * i;
                let Some(ptr) = p
                    .get(ptr_at..ptr_at + 2)
                    .map(|x| u16::from_be_bytes([x[0], x[1]]) as usize)
                else {
                    unreadable += 1;
                    continue;
                };
                let (rowid, payload) = match leaf_cell(&current, *index, p, ptr, usable) {
                    Ok(c) => c,
                    Err(_) => {
                        unreadable += 1;
                        continue;
                    }
                };
                let Ok(mut values) = record(&payload) else {
                    unreadable += 1;
                    continue;
                };
                if values.len() > columns.len() {
                    unreadable += 1;
                    continue;
                }
                values.resize(columns.len(), Cell::Null);
                for (v, (_, alias, real)) in values.iter_mut().zip(&columns) {
                    if *alias && *v == Cell::Null {
                        *v = Cell::Int(rowid);
                    }
                    // SQLite stores an integral REAL as an integer and reads it back as REAL
                    if let (true, Cell::Int(i)) = (*real, &*v) {
                        *v = Cell::Real(*i as f64);
                    }
                }
                let mut key_text = String::new();
                for v in &values {
                    push_cell(&mut key_text, v.as_ref());
                    key_text.push('\t');
                }
                found
                    .entry((rowid, key_text.into_bytes()))
                    .and_modify(|e| e.frames += 1)
                    .or_insert(Recovered {
                        frame: *index,
                        state: *state,
                        frames: 1,
                        values,
                    });
            }
        }
        // the current rows of those rowids
        let rowids: Vec<i64> = {
            let mut v: Vec<i64> = found.keys().map(|k| k.0).collect();
            v.dedup();
            v
        };
        let mut now: HashMap<i64, String> = HashMap::new();
        for chunk in rowids.chunks(500) {
            let list = chunk
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(",");
            let mut stmt = copy
                .conn
                .prepare(&format!(
                    "SELECT rowid, * FROM {quoted} WHERE rowid IN ({list})"
                ))
                .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
            let mut rows = stmt
                .query([])
                .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
            while let Some(r) = rows
                .next()
                .map_err(|e| ToolError::Other(format!("{path}: {e}")))?
            {
                let id: i64 = r
                    .get(0)
                    .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
                let mut s = String::new();
                for i in 0..columns.len() {
                    let v = r
                        .get_ref(i + 1)
                        .map_err(|e| ToolError::Other(format!("{path}: {e}")))?;
                    push_cell(&mut s, v);
                    s.push('\t');
                }
                now.insert(id, s);
            }
        }
        let counts = |s: FrameState| frames.iter().filter(|f| f.state == s).count();
        let summary = format!(
            "# wal {wal_path}: {} frames of {page_size}-byte pages ({} committed, {} uncommitted, {} earlier generation, {} bad checksum); table {table}: {} pages now, {versions} earlier versions of its leaf pages read",
            frames.len(),
            counts(FrameState::Committed),
            counts(FrameState::Uncommitted),
            counts(FrameState::EarlierGeneration),
            counts(FrameState::BadChecksum),
            pages.len(),
        );
        text.push_str(&header.join("\t"));
        text.push('\n');
        let mut rows = 0usize;
        let mut deleted = 0usize;
        let mut changed = 0usize;
        let mut truncated = false;
        let mut ordered: Vec<_> = found.into_iter().collect();
        ordered.sort_by_key(|((rowid, _), r)| (*rowid, r.frame));
        for ((rowid, key), r) in ordered {
            let Recovered {
                frame,
                state,
                frames: n,
                values,
            } = r;
            let status = match now.get(&rowid) {
                None => "deleted",
                Some(cur) if cur.as_bytes() == key.as_slice() => continue,
                Some(_) => "changed",
            };
            if rows == limit {
                truncated = true;
                break;
            }
            rows += 1;
            if status == "deleted" {
                deleted += 1;
            } else {
                changed += 1;
            }
            let _ = write!(text, "{status}\t{frame}\t{}\t{n}\t{rowid}", state.word());
            for (v, (column, ..)) in values.iter().zip(&columns) {
                text.push('\t');
                match v {
                    Cell::Blob(b)
                        if text_columns.contains(&column.as_str())
                            && std::str::from_utf8(b).is_ok() =>
                    {
                        text.push_str(&escape_cell(&String::from_utf8_lossy(b)));
                    }
                    Cell::Blob(b) if protobuf && !b.starts_with(b"bplist00") => {
                        match crate::protobuf::cell(b) {
                            Some(j) => {
                                text.push_str("protobuf:");
                                text.push_str(&escape_cell(&j));
                            }
                            None => push_cell(&mut text, v.as_ref()),
                        }
                    }
                    Cell::Blob(b) if telegram => match crate::tl::cell(b) {
                        Some(j) => {
                            text.push_str("tl:");
                            text.push_str(&escape_cell(&j));
                        }
                        None => push_cell(&mut text, v.as_ref()),
                    },
                    Cell::Blob(b) if typedstream_text && crate::typedstream::is_typedstream(b) => {
                        match crate::typedstream::text_cell(b) {
                            Some(t) => {
                                text.push_str("typedstream-text:");
                                text.push_str(&escape_cell(&t));
                            }
                            None => push_cell(&mut text, v.as_ref()),
                        }
                    }
                    _ => push_cell(&mut text, v.as_ref()),
                }
            }
            text.push('\n');
        }
        if truncated {
            let _ = writeln!(text, "# truncated at limit {limit}");
        }
        text.push_str(&summary);
        text.push('\n');
        if unreadable > 0 {
            let _ = writeln!(text, "# unreadable cells: {unreadable}");
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": path,
                "table": table,
                "frames": frames.len(),
                "page_size": page_size,
                "table_pages": pages.len(),
                "earlier_versions": versions,
                "rows": rows,
                "deleted": deleted,
                "changed": changed,
                "unreadable": unreadable,
                "truncated": truncated,
            })),
        })
    }
}

/// The whole file at `path` of `fs`.
fn read_all(fs: &dyn FileSystem, path: &str) -> Result<Vec<u8>, ToolError> {
    let bytes = fs.open(path)?;
    let mut data = vec![0u8; bytes.len() as usize];
    bytes.read_exact_at(0, &mut data)?;
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_types_give_sqlites_affinities() {
        for (t, real) in [
            ("REAL", true),
            ("DOUBLE PRECISION", true),
            ("FLOAT", true),
            ("INTEGER", false),
            ("FLOATING POINT", false), // "INT" wins, as in SQLite
            ("TEXT", false),
            ("", false),
            ("NUMERIC", false),
        ] {
            assert_eq!(real_affinity(t), real, "{t}");
        }
    }

    #[test]
    fn varints_and_records_read_as_sqlite_writes_them() {
        assert_eq!(varint(&[0x7f], 0), Some((0x7f, 1)));
        assert_eq!(varint(&[0x81, 0x00], 0), Some((0x80, 2)));
        assert_eq!(varint(&[0xff; 9], 0), Some((u64::MAX, 9)));
        assert_eq!(varint(&[0x81], 0), None);
        // header 5 bytes: NULL, 1-byte int -1, 8-byte real, 3-char text
        let rec = [
            5u8, 0, 1, 7, 19, 0xff, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18, b'a', b'b',
            b'c',
        ];
        assert_eq!(
            record(&rec).unwrap(),
            vec![
                Cell::Null,
                Cell::Int(-1),
                Cell::Real(std::f64::consts::PI),
                Cell::Text(b"abc".to_vec())
            ]
        );
        assert!(record(&rec[..10]).is_err(), "a value past the record");
        assert!(record(&[2, 10]).is_err(), "a reserved serial type");
    }
}
