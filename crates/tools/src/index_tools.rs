//! The case's full-text index seen from the tool catalog (see `masf_index`):
//!
//! - [`build_index`] walks every file system of a source (deleted entries the format keeps
//!   included), hands each file's text to the index writer (SQLite databases as their rows with
//!   the `-wal` applied, plus the printable runs of the raw file, which keep deleted records),
//!   and returns the manifest: every file with its SHA-256 and what was taken from it. The API
//!   records it as the output of an `index_text` invocation.
//! - `search_index` is the catalog tool that queries the source's index: a logged invocation
//!   like any other, so a fact recorded from a hit is grounded in its output.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use masf_evidence::bytes::Reader;
use masf_evidence::fs::{EntryKind, FileSystem, RawTime, TimeRole};
use masf_graph::identifiers::Region;
use masf_index::{FileMeta, Manifest, Mark, Mode, Query, Unit, Writer};
use rusqlite::types::ValueRef;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest file indexed; larger ones are listed as skipped in the manifest.
pub const INDEX_MAX_FILE: u64 = 256 << 20;
/// Most rows taken from one SQLite table.
const MAX_ROWS: usize = 2_000_000;
/// Deepest directory walked.
const MAX_DEPTH: usize = 64;
/// Default and largest number of hits of `search_index`.
pub const SEARCH_INDEX_DEFAULT_LIMIT: u64 = 100;
pub const SEARCH_INDEX_MAX_LIMIT: u64 = 10_000;

/// Where a source's index is, and the phone-numbering region its text is read with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexRef {
    pub dir: PathBuf,
    /// ISO 3166-1 alpha-2 code.
    #[serde(default)]
    pub region: Option<String>,
}

impl IndexRef {
    fn region(&self) -> Option<Region> {
        self.region.as_deref().and_then(|r| Region::parse(r).ok())
    }
}

/// How far a build has come.
#[derive(Debug, Clone, Default)]
pub struct IndexProgress {
    pub files: u64,
    pub bytes: u64,
    pub path: String,
}

/// The layer names of a source's file systems, as `partition` arguments take them: empty for
/// the only file system, else the partition's name or its 1-based index.
pub fn layer_names(ctx: &SourceCtx) -> Vec<String> {
    let all = ctx.scan.file_systems();
    if all.len() == 1 {
        return vec![String::new()];
    }
    all.iter()
        .enumerate()
        .map(|(i, f)| match f.partition {
            Some(p) if !p.name.is_empty() => p.name.clone(),
            Some(p) => p.index.to_string(),
            None => format!("fs{}", i + 1),
        })
        .collect()
}

fn unix_mtime(times: &[masf_evidence::fs::Time]) -> Option<i64> {
    let t = times.iter().find(|t| t.role == TimeRole::Modified)?;
    match t.raw {
        RawTime::Unix { secs, .. } => Some(secs),
        RawTime::FileTime { ticks } => Some((ticks / 10_000_000) as i64 - 11_644_473_600),
        // Local, zoneless: no instant without the source's zone (the time filter skips them).
        RawTime::FatLocal { .. } => None,
    }
}

/// Text a logged tool read from a file of the source (an image's OCR: `ocr_image`), indexed
/// beside the file's own text so a search finds what a screenshot shows; a hit names the
/// invocation whose output holds it (`ocr inv-000123`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DerivedText {
    /// The tool's `partition` argument, if any.
    pub partition: Option<String>,
    pub path: String,
    /// The reading: `ocr`.
    pub kind: &'static str,
    pub invocation_id: String,
    /// SHA-256 of the invocation's output.
    pub output_sha256: String,
    pub text: String,
}

/// The layer name ([`layer_names`]) of the file system a tool's `partition` argument names
/// (a 1-based index or a partition name; none: the only file system).
fn layer_of(ctx: &SourceCtx, names: &[String], partition: Option<&str>) -> Option<String> {
    let all = ctx.scan.file_systems();
    match partition {
        None => (all.len() == 1).then(|| names[0].clone()),
        Some(p) => all
            .iter()
            .zip(names)
            .find(|(f, _)| {
                f.partition
                    .is_some_and(|part| part.name == p || part.index.to_string() == p)
            })
            .map(|(_, n)| n.clone()),
    }
}

/// Builds the index of `ctx` in `index.dir` (replacing one there), reading national phone
/// numbers with `index.region`, with the `derived` texts of its files (OCR outputs) beside
/// theirs. `cancel` stops it between files, leaving no index behind.
pub fn build_index(
    ctx: &SourceCtx,
    index: &IndexRef,
    derived: &[DerivedText],
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&IndexProgress),
) -> Result<Manifest, ToolError> {
    let err = |e: masf_index::IndexError| ToolError::Other(e.to_string());
    let mut writer = Writer::create(&index.dir, &ctx.source_id, index.region()).map_err(err)?;
    let mut state = IndexProgress::default();
    let names = layer_names(ctx);
    for (fs_ref, layer) in ctx.scan.file_systems().iter().zip(&names) {
        let fs = fs_ref.fs.as_ref();
        let mut stack = vec![("/".to_string(), 0usize)];
        while let Some((dir, depth)) = stack.pop() {
            let entries = match fs.list_dir(&dir) {
                Ok(e) => e,
                Err(e) => {
                    writer.skip(layer, &dir, &ctx.scrub(&e.to_string()));
                    continue;
                }
            };
            // Pushed in reverse so that the walk visits names in order.
            for entry in entries.into_iter().rev() {
                match entry.kind {
                    EntryKind::Dir if depth < MAX_DEPTH => stack.push((entry.path, depth + 1)),
                    EntryKind::Dir => writer.skip(layer, &entry.path, "deeper than 64 levels"),
                    EntryKind::File => {
                        if cancel.load(Ordering::Relaxed) {
                            writer.abandon();
                            return Err(ToolError::Other("index build cancelled".into()));
                        }
                        index_file(ctx, fs, layer, &entry, &mut writer).map_err(err)?;
                        state.files += 1;
                        state.bytes += entry.size;
                        state.path = entry.path;
                        progress(&state);
                    }
                    _ => {}
                }
            }
        }
    }
    for d in derived {
        let Some(layer) = layer_of(ctx, &names, d.partition.as_deref()) else {
            writer.skip(
                "",
                &d.path,
                &format!(
                    "{} text of {}: partition {:?} is no file system of the source",
                    d.kind, d.invocation_id, d.partition
                ),
            );
            continue;
        };
        let unit = masf_index::decode::Unit {
            kind: d.kind,
            encoding: "-".into(),
            locator: format!("{} {}", d.kind, d.invocation_id),
            text: d.text.clone(),
            marks: vec![masf_index::decode::Mark {
                at: 0,
                file_offset: None,
                encoding: None,
                label: None,
            }],
        };
        let meta = FileMeta {
            layer: &layer,
            path: &d.path,
            size: d.text.len() as u64,
            sha256: d.output_sha256.clone(),
            deleted: false,
            mtime: None,
        };
        writer
            .add_derived(&meta, &unit, &d.invocation_id)
            .map_err(err)?;
    }
    writer.finish().map_err(err)
}

fn index_file(
    ctx: &SourceCtx,
    fs: &dyn FileSystem,
    layer: &str,
    entry: &masf_evidence::fs::Entry,
    writer: &mut Writer,
) -> Result<(), masf_index::IndexError> {
    if entry.size > INDEX_MAX_FILE {
        writer.skip(
            layer,
            &entry.path,
            &format!("{} bytes, over the limit of {INDEX_MAX_FILE}", entry.size),
        );
        return Ok(());
    }
    let data = match fs
        .open(&entry.path)
        .map_err(|e| e.to_string())
        .and_then(|b| {
            let mut data = Vec::with_capacity(entry.size as usize);
            std::io::Read::read_to_end(&mut Reader::new(b), &mut data)
                .map(|_| data)
                .map_err(|e| format!("{}: {e}", entry.path))
        }) {
        Ok(d) => d,
        Err(e) => {
            writer.skip(layer, &entry.path, &ctx.scrub(&e));
            return Ok(());
        }
    };
    let sha256 = hex::encode(Sha256::digest(&data));
    let units = if data.starts_with(b"SQLite format 3\0") {
        let mut units = sqlite_rows(fs, &entry.path);
        units.extend(masf_index::decode::strings(&data));
        units
    } else {
        masf_index::decode::units(&data)
    };
    writer.add(
        &FileMeta {
            layer,
            path: &entry.path,
            size: data.len() as u64,
            sha256,
            deleted: entry.deleted,
            mtime: unix_mtime(&entry.times),
        },
        &units,
    )
}

/// Every row of every table of the database at `path` (its `-wal` applied), one unit each:
/// its text cells one a line, each marked with its column. A database that will not open
/// gives no rows (its raw strings are still indexed).
fn sqlite_rows(fs: &dyn FileSystem, path: &str) -> Vec<Unit> {
    let Ok(copy) = crate::sqlite::working_copy(fs, path) else {
        return Vec::new();
    };
    let conn = &copy.conn;
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .and_then(|mut s| {
            s.query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    for table in tables {
        let quoted = format!("\"{}\"", table.replace('"', "\"\""));
        let (mut stmt, with_rowid) = match conn.prepare(&format!("SELECT rowid, * FROM {quoted}")) {
            Ok(s) => (s, true),
            Err(_) => match conn.prepare(&format!("SELECT * FROM {quoted}")) {
                Ok(s) => (s, false),
                Err(_) => continue,
            },
        };
        let names: Vec<String> = stmt.column_names().map(str::to_string).collect();
        let Ok(mut rows) = stmt.query([]) else {
            continue;
        };
        let mut n = 0usize;
        while let Ok(Some(row)) = rows.next() {
            n += 1;
            if n > MAX_ROWS {
                break;
            }
            let first = usize::from(with_rowid);
            let rowid = if with_rowid {
                row.get::<_, i64>(0).map_or(n as i64, |v| v)
            } else {
                n as i64
            };
            let mut text = String::new();
            let mut marks = Vec::new();
            for (i, name) in names.iter().enumerate().skip(first) {
                let cell = match row.get_ref(i) {
                    Ok(ValueRef::Text(t)) => String::from_utf8_lossy(t).into_owned(),
                    Ok(ValueRef::Blob(b)) => match std::str::from_utf8(b) {
                        Ok(s) if !s.contains('\0') => s.to_string(),
                        _ => continue,
                    },
                    // Numbers stored as integers (phone numbers in some call logs).
                    Ok(ValueRef::Integer(v))
                        if (1_000_000..=999_999_999_999_999).contains(&v.abs()) =>
                    {
                        v.to_string()
                    }
                    _ => continue,
                };
                if cell.is_empty() {
                    continue;
                }
                if !text.is_empty() {
                    text.push('\n');
                }
                marks.push(Mark {
                    at: text.len(),
                    file_offset: None,
                    encoding: None,
                    label: Some(name.clone()),
                });
                text.push_str(&cell);
            }
            if text.is_empty() {
                continue;
            }
            out.push(Unit {
                kind: "sqlite_row",
                encoding: "-".to_string(),
                locator: if with_rowid {
                    format!("table {table} rowid {rowid}")
                } else {
                    format!("table {table} row {rowid}")
                },
                text,
                marks,
            });
        }
    }
    out
}

/// `search_index`.
pub struct SearchIndex;

fn parse_time(a: &Value, key: &str) -> Result<Option<i64>, ToolError> {
    match args::opt_str(a, key)? {
        None => Ok(None),
        Some(s) => s
            .parse::<jiff::Timestamp>()
            .map(|t| Some(t.as_second()))
            .map_err(|e| {
                ToolError::InvalidArgs(format!(
                    "{key}: {s} is no RFC 3339 time such as 2024-05-01T00:00:00Z: {e}"
                ))
            }),
    }
}

impl Tool for SearchIndex {
    fn name(&self) -> &str {
        "search_index"
    }
    fn description(&self) -> &str {
        "Search the source's full-text index (built once per source by `masf index`): the text of every file in any encoding (UTF-8, UTF-16, GBK, Big5, Shift-JIS…), SQLite rows with their -wal, Office bodies, plist strings, printable runs of binaries. mode 'words' (default): words, \"phrases\", AND/OR/-word, word* prefix; case, accents' NFC/NFD forms and full width are folded; Chinese/Japanese found without spaces. mode 'identifier': one phone number (any format), e-mail or wallet address, found in every written form. mode 'regex': a regular expression over normalised identifiers such as 'phone:\\+1919.*'. One hit a line: '<layer>\\t<path>\\t<locator>\\t<byte offset or ->\\t<column or part>\\t<deleted>\\t<context with the match in [[ ]]>'."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "query": {"type": "string", "minLength": 1, "description": "What to find (see mode)."},
            "mode": {"type": "string", "enum": ["words", "identifier", "regex"], "description": "How the query is read (default words)."},
            "from": {"type": "string", "description": "Only files modified at or after this RFC 3339 time."},
            "to": {"type": "string", "description": "Only files modified before this RFC 3339 time."},
            "limit": {"type": "integer", "minimum": 1, "description": "Most hits (default 100, at most 10000)."}
        }, "required": ["query"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let Some(index) = ctx.index() else {
            return Err(ToolError::Other(format!(
                "source {} has no full-text index here: build it with `masf index` first",
                ctx.source_id
            )));
        };
        let mode = match args::opt_str(a, "mode")? {
            None | Some("words") => Mode::Words,
            Some("identifier") => Mode::Identifier,
            Some("regex") => Mode::Regex,
            Some(other) => {
                return Err(ToolError::InvalidArgs(format!(
                    "mode {other}: use words, identifier or regex"
                )));
            }
        };
        let query = Query {
            text: args::str(a, "query")?.to_string(),
            mode,
            from: parse_time(a, "from")?,
            to: parse_time(a, "to")?,
            limit: args::opt_u64(a, "limit")?
                .unwrap_or(SEARCH_INDEX_DEFAULT_LIMIT)
                .clamp(1, SEARCH_INDEX_MAX_LIMIT) as usize,
        };
        let hits = masf_index::search(&index.dir, &query, index.region().as_ref()).map_err(
            |e| match e {
                masf_index::IndexError::Query(q) => ToolError::InvalidArgs(q),
                other => ToolError::Other(other.to_string()),
            },
        )?;
        let mut text = format!(
            "# {} hit(s) for {} ({})\n",
            hits.len(),
            query.text,
            args::opt_str(a, "mode")?.unwrap_or("words")
        );
        for h in &hits {
            text.push_str(&render_hit(h));
            text.push('\n');
        }
        Ok(ToolOutput {
            text,
            structured: Some(serde_json::to_value(&hits).unwrap_or(Value::Null)),
        })
    }
}

/// One hit as a line of `search_index`'s output.
pub fn render_hit(h: &masf_index::Hit) -> String {
    let v = |s: &str| masf_evidence::fs::visible(s).into_owned();
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}[[{}]]{}",
        v(&h.layer),
        v(&h.path),
        v(&h.locator),
        h.offset.map_or("-".to_string(), |o| o.to_string()),
        h.label.as_deref().map_or("-".to_string(), v),
        h.deleted,
        v(&h.before),
        v(&h.matched),
        v(&h.after)
    )
}

/// The index directory of `source_id` in a case's work folder.
pub fn index_dir(work_dir: &Path, source_id: &str) -> PathBuf {
    work_dir.join("index").join(source_id)
}
