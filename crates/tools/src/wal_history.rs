//! `sqlite_wal_history`: the rows of a table that only earlier page versions in a database's
//! write-ahead log, or the database's free space, still hold — rows since deleted, and earlier
//! versions of rows since changed.
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
//! - the database's free space as SQLite sees it now (`free_space`): the freelist's
//!   pages whose records are this table's by their shape, the free blocks and unallocated space
//!   of the table's leaf pages (cells whose head a free block's header overwrote are read
//!   without their rowid). A database without a `-wal` is read for this alone.
//!
//! The current row of each recovered rowid is read with SQL from a working copy (so the
//! comparison is SQLite's own view); a recovered row equal to it is not shown, and a row without
//! its rowid equal to any current row is not shown either. Values are
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

use crate::free_space::{Carved, Region, Shape, Whose, carve, page_is_tables};
use crate::fs_tools::file_system;
use crate::sqlite::{escape_cell, push_cell};
use crate::sqlite_record::{Affinity, Cell, affinity, record, value_count, varint};
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
    /// A page on the database's freelist (free space, not a frame).
    FreelistPage,
    /// A free block of one of the table's pages.
    FreeBlock,
    /// The unallocated space of one of the table's pages.
    Unallocated,
}

impl FrameState {
    fn is_free_space(self) -> bool {
        matches!(
            self,
            FrameState::FreelistPage | FrameState::FreeBlock | FrameState::Unallocated
        )
    }

    fn word(self) -> &'static str {
        match self {
            FrameState::DatabaseFile => "database file",
            FrameState::Committed => "committed",
            FrameState::Uncommitted => "uncommitted",
            FrameState::EarlierGeneration => "earlier generation",
            FrameState::BadChecksum => "bad checksum",
            FrameState::FreelistPage => "freelist page",
            FrameState::FreeBlock => "free block",
            FrameState::Unallocated => "unallocated",
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

/// The payload of the cell at `ptr` of leaf page `p` (overflow followed in `image`): rowid and
/// bytes. `Err` names why the cell cannot be read.
fn leaf_cell(
    image: &Image<'_>,
    as_of: Option<usize>,
    p: &[u8],
    ptr: usize,
    usable: usize,
    overflow_in: Option<&HashSet<u32>>,
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
        if overflow_in.is_some_and(|set| !set.contains(&next)) {
            return Err(format!("overflow page {next} is no longer free"));
        }
        let page = image
            .page_as_of(next, as_of)
            .ok_or_else(|| format!("overflow page {next} past the database's end"))?;
        let take = (len - out.len()).min(usable - 4);
        out.extend_from_slice(&page[4..4 + take]);
        next = be32(&page, 0);
    }
    Ok((rowid as i64, out))
}

/// Whether a declared column type gives REAL affinity.
fn real_affinity(declared: &str) -> bool {
    affinity(declared) == Affinity::Real
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
        "Recover the rows of one table of a SQLite database that only earlier page versions in its write-ahead log (-wal), or the database's free space, still hold: rows since deleted, and earlier versions of rows since changed. Reads the earlier versions of the table's leaf pages: the database file's own version of each page the log has since replaced, and every frame of the log but each page's newest committed one — committed frames superseded by later ones, frames written but never committed, and frames of an earlier log generation (other salts) left beyond the current end —, decodes their rows (overflow chains followed); then the free space of the database as SQLite sees it now (secure_delete off, as on iOS, leaves deleted rows there; Android's SQLite zeroes it): the freelist's pages whose records fit this table and no other (by the number of values and each value's type against its column's affinity; pages that fit two tables are counted, not read), and the free blocks and unallocated space of the table's own leaf pages, carved (a cell whose first four bytes a free block's header overwrote loses its rowid and is kept only when one reading of it fits the table and no other table reads it as well; a carved row's last values can be a later cell's bytes where SQLite reused them). Each row is compared with the table's current row of the same rowid (read with SQL from a working copy): equal rows are left out, and a row without its rowid equal to any current row too. Output: tab-separated rows with a header: status (deleted: no row of that rowid now — a row only in uncommitted frames may never have been committed; changed: the current row differs; freed: its rowid was lost with its cell's head, so deleted or replaced by a later version), frame (the earliest frame holding it, 1-based; 0 for the database file), frame_state (database file, committed, uncommitted, earlier generation, bad checksum; freelist page, free block, unallocated for free space), frames (how many page versions hold that same version), rowid (NULL when lost), then the table's columns (an INTEGER PRIMARY KEY shows the rowid), values written as sqlite_query writes them; then a `# wal …` line (frames, page size, how many in each state, the table's pages), a `# free space: …` line (freelist pages, those read as this table's and those fitting others too, free blocks and unallocated bytes, rows from free space) and `# unreadable cells: N` when some could not be decoded. The evidence is never written."
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
        let sql_err = |e: rusqlite::Error| ToolError::Other(format!("{path}: {e}"));
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
        let columns: Vec<(String, bool, bool)> = table_columns(&copy.conn, table)
            .map_err(sql_err)?
            .into_iter()
            .map(|(n, t, alias)| (n, alias, real_affinity(&t)))
            .collect();
        // every rowid table's shape, to tell whose a free page was
        let shapes = shapes(&copy.conn).map_err(sql_err)?;
        let Some(ours) = shapes.iter().find(|s| s.name == table) else {
            return Err(ToolError::Other(format!("{path}: table {table} not read")));
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
        let main = fs.open(&path)?;
        let mut head = [0u8; 100];
        main.read_exact_at(0, &mut head)
            .map_err(|_| ToolError::Other(format!("{path}: shorter than a database header")))?;
        let (page_size, frames) = match frames(&path, &wal)? {
            Some(x) => x,
            None => {
                let n = u16::from_be_bytes([head[16], head[17]]) as usize;
                let n = if n == 1 { 65536 } else { n };
                if !(512..=65536).contains(&n) || !n.is_power_of_two() {
                    return Err(ToolError::Other(format!(
                        "{path}: corrupt at offset 16: page size {n}"
                    )));
                }
                (n, Vec::new())
            }
        };
        let utf8 = be32(&head, 56) <= 1;
        let reserved = head[20] as usize;
        if reserved + 480 > page_size {
            return Err(ToolError::Other(format!(
                "{path}: {reserved} reserved bytes a page leave too few of {page_size}"
            )));
        }
        let usable = page_size - reserved;
        let mut newest: HashMap<u32, usize> = HashMap::new();
        let mut newest_index: HashMap<u32, usize> = HashMap::new();
        for f in frames.iter().filter(|f| f.state == FrameState::Committed) {
            newest.insert(f.page, f.at);
            newest_index.insert(f.page, f.index);
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
        let mut found: BTreeMap<(Option<i64>, Vec<u8>), Recovered> = BTreeMap::new();
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
                let (rowid, payload) = match leaf_cell(&current, Some(*index), p, ptr, usable, None)
                {
                    Ok(c) => c,
                    Err(_) => {
                        unreadable += 1;
                        continue;
                    }
                };
                let Ok(values) = record(&payload) else {
                    unreadable += 1;
                    continue;
                };
                if values.len() > columns.len() {
                    unreadable += 1;
                    continue;
                }
                add(&mut found, &columns, *index, *state, Some(rowid), values);
            }
        }
        // free space: the freelist's pages whose records are this table's, the free blocks and
        // unallocated space of the table's leaf pages
        let free = free_space(&current, &newest_index, &pages, ours, &shapes, usable, utf8);
        for (frame, state, rowid, values) in free.rows {
            add(&mut found, &columns, frame, state, rowid, values);
        }
        // the current rows of those rowids
        let rowids: Vec<i64> = {
            let mut v: Vec<i64> = found.keys().filter_map(|k| k.0).collect();
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
                .map_err(sql_err)?;
            let mut rows = stmt.query([]).map_err(sql_err)?;
            while let Some(r) = rows.next().map_err(sql_err)? {
                let id: i64 = r.get(0).map_err(sql_err)?;
                let mut s = String::new();
                for i in 0..columns.len() {
                    let v = r.get_ref(i + 1).map_err(sql_err)?;
                    push_cell(&mut s, v);
                    s.push('\t');
                }
                now.insert(id, s);
            }
        }
        // every current row, as a row carved without its rowid reads (the INTEGER PRIMARY KEY
        // NULL), when there is such a row: a carved copy of a live row is no recovered row
        // (kept as 64-bit hashes of the written row: a large table's text is not held)
        let mut live: HashSet<u64> = HashSet::new();
        if found.keys().any(|k| k.0.is_none()) {
            let mut stmt = copy
                .conn
                .prepare(&format!("SELECT * FROM {quoted}"))
                .map_err(sql_err)?;
            let mut rows = stmt.query([]).map_err(sql_err)?;
            while let Some(r) = rows.next().map_err(sql_err)? {
                let mut s = String::new();
                for (i, (_, alias, _)) in columns.iter().enumerate() {
                    let v = if *alias {
                        ValueRef::Null
                    } else {
                        r.get_ref(i).map_err(sql_err)?
                    };
                    push_cell(&mut s, v);
                    s.push('\t');
                }
                live.insert(row_hash(s.as_bytes()));
            }
        }
        let counts = |s: FrameState| frames.iter().filter(|f| f.state == s).count();
        let summary = if frames.is_empty() {
            format!(
                "# wal {wal_path}: {}; table {table}: {} pages now",
                if wal.is_empty() { "none" } else { "no frame" },
                pages.len()
            )
        } else {
            format!(
                "# wal {wal_path}: {} frames of {page_size}-byte pages ({} committed, {} uncommitted, {} earlier generation, {} bad checksum); table {table}: {} pages now, {versions} earlier versions of its leaf pages read",
                frames.len(),
                counts(FrameState::Committed),
                counts(FrameState::Uncommitted),
                counts(FrameState::EarlierGeneration),
                counts(FrameState::BadChecksum),
                pages.len(),
            )
        };
        text.push_str(&header.join("\t"));
        text.push('\n');
        let mut rows = 0usize;
        let mut deleted = 0usize;
        let mut changed = 0usize;
        let mut freed = 0usize;
        let mut from_free_space = 0usize;
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
            let status = match rowid {
                None if live.contains(&row_hash(&key)) => continue,
                None => "freed",
                Some(rowid) => match now.get(&rowid) {
                    None => "deleted",
                    Some(cur) if cur.as_bytes() == key.as_slice() => continue,
                    Some(_) => "changed",
                },
            };
            if rows == limit {
                truncated = true;
                break;
            }
            rows += 1;
            match status {
                "deleted" => deleted += 1,
                "changed" => changed += 1,
                _ => freed += 1,
            }
            if state.is_free_space() {
                from_free_space += 1;
            }
            let rowid = rowid.map_or_else(|| "NULL".to_string(), |r| r.to_string());
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
        let _ = writeln!(
            text,
            "# free space: {} freelist pages ({} read as this table's by their records' shape, {} fitting other tables too); {} of the table's leaf pages hold free bytes not zero ({} free blocks, {} unallocated bytes){}; {from_free_space} rows written from free space",
            free.freelist_pages,
            free.pages_taken,
            free.pages_ambiguous,
            free.leaves_with_free,
            free.blocks,
            free.unallocated,
            if utf8 {
                ""
            } else {
                " (text not UTF-8: free blocks not carved)"
            },
        );
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
                "freed": freed,
                "from_free_space": from_free_space,
                "freelist_pages": free.freelist_pages,
                "unreadable": unreadable,
                "truncated": truncated,
            })),
        })
    }
}

/// Adds a recovered row version to `found` (keyed by rowid and values), its INTEGER PRIMARY KEY
/// given the rowid and its REAL columns' integers made reals, as SQLite reads them.
fn add(
    found: &mut BTreeMap<(Option<i64>, Vec<u8>), Recovered>,
    columns: &[(String, bool, bool)],
    frame: usize,
    state: FrameState,
    rowid: Option<i64>,
    mut values: Vec<Cell>,
) {
    values.resize(columns.len(), Cell::Null);
    for (v, (_, alias, real)) in values.iter_mut().zip(columns) {
        if let (true, Cell::Null, Some(r)) = (*alias, &*v, rowid) {
            *v = Cell::Int(r);
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
            frame,
            state,
            frames: 1,
            values,
        });
}

/// The columns of `table`: name, declared type, whether it is the INTEGER PRIMARY KEY.
fn table_columns(
    conn: &rusqlite::Connection,
    table: &str,
) -> rusqlite::Result<Vec<(String, String, bool)>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT name, type, pk FROM pragma_table_info('{}')",
        table.replace('\'', "''")
    ))?;
    let rows: Vec<(String, String, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let pks = rows.iter().filter(|r| r.2 > 0).count();
    Ok(rows
        .into_iter()
        .map(|(n, t, pk)| {
            let alias = pk == 1 && pks == 1 && t.eq_ignore_ascii_case("INTEGER");
            (n, t, alias)
        })
        .collect())
}

/// The shape of every rowid table of the database.
fn shapes(conn: &rusqlite::Connection) -> rusqlite::Result<Vec<Shape>> {
    let mut stmt = conn.prepare(
        "SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type = 'table' AND rootpage > 0",
    )?;
    let tables: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::new();
    for (name, sql) in tables {
        if sql.to_ascii_uppercase().contains("WITHOUT ROWID") {
            continue;
        }
        let cols = table_columns(conn, &name)?;
        out.push(Shape {
            alias: cols.iter().position(|c| c.2),
            affinities: cols.iter().map(|c| affinity(&c.1)).collect(),
            name,
        });
    }
    Ok(out)
}

/// What the free space gave.
#[derive(Default)]
struct FreeSpace {
    freelist_pages: usize,
    /// Freelist pages read as the table's.
    pages_taken: usize,
    /// Freelist pages whose records fit the table and another one as well.
    pages_ambiguous: usize,
    /// The table's leaf pages with free bytes not zero.
    leaves_with_free: usize,
    blocks: usize,
    unallocated: usize,
    /// (frame of the page's version (0: the database file), where, rowid, values)
    rows: Vec<(usize, FrameState, Option<i64>, Vec<Cell>)>,
}

/// The cell pointers of the b-tree leaf page `p` whose header is at `h`.
fn cell_pointers(p: &[u8], h: usize) -> impl Iterator<Item = usize> + '_ {
    let cells = u16::from_be_bytes([p[h + 3], p[h + 4]]) as usize;
    (0..cells).filter_map(move |i| {
        let at = h + 8 + 2 * i;
        p.get(at..at + 2)
            .map(|x| u16::from_be_bytes([x[0], x[1]]) as usize)
    })
}

/// A written row's hash, to tell a carved row from every current one.
fn row_hash(row: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    row.hash(&mut h);
    h.finish()
}

/// A free region of a page: start, end, which kind.
type FreeRegion = (usize, usize, Region);

/// The free regions of the b-tree leaf page `p` (header at `h`) whose bytes are not all zero:
/// the unallocated space between the cell pointers and the content, and each free block.
fn free_regions(p: &[u8], h: usize, usable: usize) -> Vec<FreeRegion> {
    let mut regions = Vec::new();
    if p.len() < h + 8 || usable > p.len() {
        return regions;
    }
    let cells = u16::from_be_bytes([p[h + 3], p[h + 4]]) as usize;
    let content = match u16::from_be_bytes([p[h + 5], p[h + 6]]) as usize {
        0 => 65536,
        c => c,
    }
    .min(usable);
    let gap = (h + 8 + 2 * cells).min(content);
    if p[gap..content].iter().any(|b| *b != 0) {
        regions.push((gap, content, Region::Unallocated));
    }
    let mut block = u16::from_be_bytes([p[h + 1], p[h + 2]]) as usize;
    let mut hops = 0;
    while block != 0 && block + 4 <= usable && hops < usable / 4 {
        hops += 1;
        let size = u16::from_be_bytes([p[block + 2], p[block + 3]]) as usize;
        let end = (block + size).min(usable);
        if p[(block + 4).min(end)..end].iter().any(|b| *b != 0) {
            regions.push((block, end, Region::FreeBlock));
        }
        let next = u16::from_be_bytes([p[block], p[block + 1]]) as usize;
        if next != 0 && next <= block {
            break; // a loop or a backward link: the chain is damaged
        }
        block = next;
    }
    regions
}

/// The rows of the table `ours` (whose pages are `pages`) that the database's free space holds,
/// as SQLite sees the database now (see `free_space`).
fn free_space(
    image: &Image<'_>,
    newest_index: &HashMap<u32, usize>,
    pages: &HashSet<u32>,
    ours: &Shape,
    shapes: &[Shape],
    usable: usize,
    utf8: bool,
) -> FreeSpace {
    let mut out = FreeSpace::default();
    let frame_of = |n: u32| newest_index.get(&n).copied().unwrap_or(0);
    // the table's leaves with free bytes not zero
    let mut with_free: Vec<(u32, Vec<FreeRegion>)> = Vec::new();
    let mut leaves_now: Vec<u32> = Vec::new();
    let mut sorted: Vec<u32> = pages.iter().copied().collect();
    sorted.sort_unstable();
    for &n in &sorted {
        let Some(p) = image.page(n) else { continue };
        let p = p.as_ref();
        let h = header_at(n);
        if p.get(h) != Some(&0x0d) || p.len() < h + 8 {
            continue;
        }
        leaves_now.push(n);
        let regions = free_regions(p, h, usable);
        if !regions.is_empty() {
            with_free.push((n, regions));
        }
    }
    // how many values the table's live records have (read only when there is free space to
    // carve: most databases have none, and this reads every leaf again)
    let freelist_head = image.page(1).map_or(0, |p| be32(&p, 32));
    let mut counts: HashSet<usize> = HashSet::from([ours.affinities.len()]);
    if !with_free.is_empty() || freelist_head != 0 {
        for &n in &leaves_now {
            let Some(p) = image.page(n) else { continue };
            let p = p.as_ref();
            for ptr in cell_pointers(p, header_at(n)) {
                // past the cell's payload length and rowid
                let head = varint(p, ptr)
                    .and_then(|(_, a)| varint(p, ptr + a).map(|(_, b)| ptr + a + b))
                    .and_then(|start| value_count(p.get(start..)?));
                if let Some(c) = head {
                    counts.insert(c);
                }
            }
        }
    }
    out.leaves_with_free = with_free.len();
    let carve_page = |p: &[u8], regions: &[FreeRegion], out: &mut FreeSpace| {
        let mut rows = Vec::new();
        for &(start, end, region) in regions {
            match region {
                Region::FreeBlock => out.blocks += 1,
                Region::Unallocated => out.unallocated += end - start,
            }
            if !utf8 {
                continue;
            }
            let state = match region {
                Region::FreeBlock => FrameState::FreeBlock,
                Region::Unallocated => FrameState::Unallocated,
            };
            for (rowid, v) in carve(
                &p[start..end],
                start,
                usable,
                region,
                &Whose {
                    shape: ours,
                    counts: &counts,
                    others: shapes,
                    owner: true,
                },
            ) {
                rows.push((state, rowid, v));
            }
        }
        rows
    };
    for (n, regions) in with_free {
        let Some(p) = image.page(n) else { continue };
        for (state, rowid, v) in carve_page(&p, &regions, &mut out) {
            out.rows.push((frame_of(n), state, rowid, v));
        }
    }
    // the freelist: trunk pages list leaf pages; a leaf page keeps what it held, a trunk page
    // what it held after the list
    let Some(first) = image.page(1) else {
        return out;
    };
    let mut trunk = be32(&first, 32);
    let mut trunks: Vec<(u32, usize)> = Vec::new();
    let mut seen = HashSet::new();
    let mut leaves: Vec<u32> = Vec::new();
    while trunk != 0 && seen.insert(trunk) && seen.len() <= MAX_TABLE_PAGES {
        let Some(t) = image.page(trunk) else { break };
        let count = (be32(&t, 4) as usize).min(usable / 4 - 2);
        leaves.extend((0..count).map(|i| be32(&t, 8 + 4 * i)));
        trunks.push((trunk, 8 + 4 * count));
        trunk = be32(&t, 0);
    }
    out.freelist_pages = trunks.len() + leaves.len();
    let free: HashSet<u32> = leaves.iter().copied().collect();
    let claim = |n: u32, rows: Vec<(FrameState, Option<i64>, Vec<Cell>)>, out: &mut FreeSpace| {
        let records: Vec<Vec<Cell>> = rows.iter().map(|r| r.2.clone()).collect();
        if page_is_tables(ours, shapes, &records) {
            out.pages_taken += 1;
            for (state, rowid, v) in rows {
                out.rows.push((frame_of(n), state, rowid, v));
            }
        } else if !records.is_empty() && records.iter().all(|r| ours.fits(r)) {
            out.pages_ambiguous += 1;
        }
    };
    for &n in &leaves {
        let Some(p) = image.page(n) else { continue };
        if p.first() != Some(&0x0d) || p.len() < 8 {
            continue;
        }
        let mut rows = Vec::new();
        for ptr in cell_pointers(&p, 0) {
            let Ok((rowid, payload)) = leaf_cell(image, None, &p, ptr, usable, Some(&free)) else {
                continue;
            };
            if let Ok(v) = record(&payload) {
                rows.push((FrameState::FreelistPage, Some(rowid), v));
            }
        }
        // whose the page was, by the cells it lists; its free bytes are then read as that
        // table's too
        let records: Vec<Vec<Cell>> = rows.iter().map(|r| r.2.clone()).collect();
        if utf8 && page_is_tables(ours, shapes, &records) {
            rows.extend(carve_page(&p, &free_regions(&p, 0, usable), &mut out));
        }
        claim(n, rows, &mut out);
    }
    if utf8 {
        for (n, list_end) in trunks {
            let Some(p) = image.page(n) else { continue };
            if list_end >= usable {
                continue;
            }
            let region = &p[list_end..usable];
            let rows: Vec<_> = carve(
                region,
                list_end,
                usable,
                Region::Unallocated,
                &Whose {
                    shape: ours,
                    counts: &counts,
                    others: shapes,
                    owner: false,
                },
            )
            .into_iter()
            .map(|(rowid, v)| (FrameState::FreelistPage, rowid, v))
            .collect();
            // a trunk page keeps no cell pointers: it is this table's only when no other table
            // reads as much in it (values read, over all its cells)
            let weight = |rows: &[Carved]| -> usize {
                rows.iter()
                    .map(|(_, v)| v.iter().filter(|c| **c != Cell::Null).count())
                    .sum()
            };
            let ours_weight: usize = rows
                .iter()
                .map(|(_, _, v)| v.iter().filter(|c| **c != Cell::Null).count())
                .sum();
            let theirs = shapes.iter().filter(|s| s.name != ours.name).any(|s| {
                let counts = HashSet::from([s.affinities.len()]);
                let got = carve(
                    region,
                    list_end,
                    usable,
                    Region::Unallocated,
                    &Whose {
                        shape: s,
                        counts: &counts,
                        others: shapes,
                        owner: false,
                    },
                );
                !got.is_empty() && weight(&got) >= ours_weight
            });
            if !rows.is_empty() && !theirs {
                claim(n, rows, &mut out);
            } else if !rows.is_empty() {
                out.pages_ambiguous += 1;
            }
        }
    }
    out
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
}
