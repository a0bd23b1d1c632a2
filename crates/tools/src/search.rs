//! `search_text`: literal strings searched in every file below a directory, like `grep -r
//! --fixed-strings` over the evidence tree, in ASCII/UTF-8 and UTF-16LE. It finds an identifier
//! wherever it is stored as text — documents, logs, plists in XML, SQLite records (including
//! rows that live only in a `-wal` file) — so that a lead can look for a value in a source
//! without knowing its formats.

use std::fmt::Write as _;

use masf_evidence::fs::{EntryKind, normalize_path};
use memchr::memmem::Finder;
use serde_json::{Value, json};

use crate::fs_tools::file_system;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Default and largest number of hits reported.
pub const SEARCH_DEFAULT_LIMIT: u64 = 1000;
pub const SEARCH_MAX_LIMIT: u64 = 100_000;
/// Default and largest size of a file searched; larger files are listed as skipped.
pub const SEARCH_DEFAULT_MAX_FILE: u64 = 64 << 20;
pub const SEARCH_MAX_FILE: u64 = 1 << 30;
/// Most patterns in one call, and their length bounds (bytes).
const MAX_PATTERNS: usize = 32;
const MIN_PATTERN: usize = 3;
const MAX_PATTERN: usize = 256;
/// Bytes read at a time; consecutive chunks overlap by the longest needle.
const CHUNK: usize = 4 << 20;
/// Bytes of context shown on each side of a hit.
const CONTEXT: usize = 40;
/// Deepest directory searched below the starting one.
const MAX_DEPTH: usize = 64;

/// `search_text`.
pub struct SearchText;

struct Needle {
    pattern: String,
    encoding: &'static str,
    bytes: Vec<u8>,
}

fn fold(data: &[u8]) -> Vec<u8> {
    data.to_ascii_lowercase()
}

fn context(data: &[u8], at: usize, len: usize, utf16: bool) -> String {
    let start = at.saturating_sub(if utf16 { CONTEXT * 2 } else { CONTEXT });
    let end = (at + len + if utf16 { CONTEXT * 2 } else { CONTEXT }).min(data.len());
    let window = &data[start..end];
    if utf16 {
        // Keep the alignment of the hit: step from its parity.
        let skew = (at - start) % 2;
        window[skew..]
            .chunks_exact(2)
            .map(|p| match (p[0], p[1]) {
                (b, 0) if (0x20..0x7f).contains(&b) => b as char,
                _ => '.',
            })
            .collect()
    } else {
        window
            .iter()
            .map(|&b| {
                if (0x20..0x7f).contains(&b) {
                    b as char
                } else {
                    '.'
                }
            })
            .collect()
    }
}

impl Tool for SearchText {
    fn name(&self) -> &str {
        "search_text"
    }
    fn description(&self) -> &str {
        "Search every file below a directory (default '/') for literal strings (like grep -r -F), as ASCII/UTF-8 and as UTF-16LE, optionally ignoring ASCII case. Finds values stored as text anywhere: documents, logs, XML plists, SQLite records including rows only in a -wal file. One hit a line: '<path>\\t<byte offset>\\t<encoding>\\t<pattern>\\t<context>' (context: 40 bytes each side, non-printable bytes as '.'). Files larger than max_file_size (default 64 MiB) are listed as '# skipped'; at most limit hits (default 1000); '# truncated' says when more matched."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Directory to search below (default '/')."},
            "patterns": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": MAX_PATTERNS, "description": "Literal strings to find (3 to 256 bytes each)."},
            "ignore_case": {"type": "boolean", "description": "Ignore ASCII case (default false)."},
            "max_file_size": {"type": "integer", "minimum": 1, "description": "Largest file searched, bytes (default 67108864, at most 1073741824)."},
            "limit": {"type": "integer", "minimum": 1, "description": "Most hits reported (default 1000, at most 100000)."}
        }, "required": ["patterns"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let root = normalize_path(args::opt_str(a, "path")?.unwrap_or("/"));
        let ignore_case = match a.get("ignore_case") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => {
                return Err(ToolError::InvalidArgs(
                    "ignore_case must be a boolean".into(),
                ));
            }
        };
        let max_file = args::opt_u64(a, "max_file_size")?
            .unwrap_or(SEARCH_DEFAULT_MAX_FILE)
            .clamp(1, SEARCH_MAX_FILE);
        let limit = args::opt_u64(a, "limit")?
            .unwrap_or(SEARCH_DEFAULT_LIMIT)
            .clamp(1, SEARCH_MAX_LIMIT) as usize;
        let patterns: Vec<String> = match a.get("patterns") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| ToolError::InvalidArgs("patterns must be strings".into()))
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(ToolError::InvalidArgs("patterns is required".into())),
        };
        if patterns.is_empty() || patterns.len() > MAX_PATTERNS {
            return Err(ToolError::InvalidArgs(format!(
                "give 1 to {MAX_PATTERNS} patterns"
            )));
        }
        let mut needles = Vec::new();
        for p in &patterns {
            if !(MIN_PATTERN..=MAX_PATTERN).contains(&p.len()) {
                return Err(ToolError::InvalidArgs(format!(
                    "pattern {p:?} must be {MIN_PATTERN} to {MAX_PATTERN} bytes long"
                )));
            }
            let ascii = if ignore_case {
                fold(p.as_bytes())
            } else {
                p.as_bytes().to_vec()
            };
            let utf16: Vec<u8> = String::from_utf8_lossy(&ascii)
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect();
            needles.push(Needle {
                pattern: p.clone(),
                encoding: "utf8",
                bytes: ascii,
            });
            needles.push(Needle {
                pattern: p.clone(),
                encoding: "utf16le",
                bytes: utf16,
            });
        }
        let finders: Vec<Finder<'_>> = needles.iter().map(|n| Finder::new(&n.bytes)).collect();
        let overlap = needles.iter().map(|n| n.bytes.len()).max().unwrap_or(0);

        let mut hits: Vec<(String, u64, usize, String)> = Vec::new();
        let mut skipped: Vec<String> = Vec::new();
        let mut errors: Vec<String> = Vec::new();
        let mut truncated = false;
        let mut files = 0u64;
        let mut stack: Vec<(String, usize)> = vec![(root.clone(), 0)];
        let mut cut = crate::fs_tools::DepthCut::default();
        'walk: while let Some((dir, depth)) = stack.pop() {
            // Checked per directory too: a tree of empty directories has no reads to check at.
            if crate::deadline::passed() {
                return Err(ToolError::Other("stopped at the time limit".to_string()));
            }
            let entries = match fs.list_dir(&dir) {
                Ok(e) => e,
                Err(e) => {
                    errors.push(format!("{dir}: {}", ctx.scrub(&e.to_string())));
                    continue;
                }
            };
            let mut subdirs = Vec::new();
            for e in entries {
                if e.deleted {
                    continue;
                }
                if e.kind == EntryKind::Dir {
                    if depth < MAX_DEPTH {
                        subdirs.push(e.path);
                    } else {
                        cut.note(&e.path);
                    }
                    continue;
                }
                if e.kind != EntryKind::File {
                    continue;
                }
                if e.size > max_file {
                    skipped.push(format!("{} ({} bytes)", e.path, e.size));
                    continue;
                }
                files += 1;
                let bytes = match fs.open(&e.path) {
                    Ok(b) => b,
                    Err(err) => {
                        errors.push(format!("{}: {}", e.path, ctx.scrub(&err.to_string())));
                        continue;
                    }
                };
                let len = bytes.len();
                let mut pos = 0u64;
                while pos < len {
                    if crate::deadline::passed() {
                        return Err(ToolError::Other("stopped at the time limit".to_string()));
                    }
                    let want = (len - pos).min(CHUNK as u64) as usize;
                    let mut buf = vec![0u8; want];
                    if let Err(err) = bytes.read_exact_at(pos, &mut buf) {
                        errors.push(format!("{}: {}", e.path, ctx.scrub(&err.to_string())));
                        break;
                    }
                    let last = pos + want as u64 >= len;
                    // Chunks overlap by the longest needle: a hit starting in the overlap is
                    // reported by the next chunk, which sees it whole.
                    let report_below = if last {
                        want
                    } else {
                        want.saturating_sub(overlap).max(1)
                    };
                    let hay = if ignore_case { fold(&buf) } else { buf.clone() };
                    let mut found: Vec<(usize, usize)> = Vec::new();
                    for (i, f) in finders.iter().enumerate() {
                        found.extend(
                            f.find_iter(&hay)
                                .filter(|&at| at < report_below)
                                .map(|at| (at, i)),
                        );
                    }
                    found.sort_unstable();
                    for (at, i) in found {
                        if hits.len() == limit {
                            truncated = true;
                            break 'walk;
                        }
                        let n = &needles[i];
                        hits.push((
                            e.path.clone(),
                            pos + at as u64,
                            i,
                            context(&buf, at, n.bytes.len(), n.encoding == "utf16le"),
                        ));
                    }
                    if last {
                        break;
                    }
                    pos += report_below as u64;
                }
            }
            for d in subdirs.into_iter().rev() {
                stack.push((d, depth + 1));
            }
        }
        let mut text = String::new();
        for (path, offset, i, ctx_text) in &hits {
            let n = &needles[*i];
            let _ = writeln!(
                text,
                "{path}\t{offset}\t{}\t{}\t{ctx_text}",
                n.encoding, n.pattern
            );
        }
        for s in &skipped {
            let _ = writeln!(text, "# skipped (larger than max_file_size): {s}");
        }
        for e in &errors {
            let _ = writeln!(text, "# error: {e}");
        }
        cut.write(&mut text, MAX_DEPTH);
        if truncated {
            let _ = writeln!(text, "# truncated at limit {limit}");
        }
        let _ = writeln!(text, "# {} hit(s) in {files} file(s) searched", hits.len());
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": root,
                "hits": hits.iter().map(|(path, offset, i, c)| json!({
                    "path": path, "offset": offset, "encoding": needles[*i].encoding,
                    "pattern": needles[*i].pattern, "context": c,
                })).collect::<Vec<_>>(),
                "skipped": skipped,
                "errors": errors,
                "not_descended": cut.json(),
                "truncated": truncated,
                "files_searched": files,
            })),
        })
    }
}
