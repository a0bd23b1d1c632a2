//! Tools over a source's file system or tree: list_dir, stat, read_text, hexdump, hash_file,
//! find_files. Paths are inside the evidence (`/`-separated); `partition` names the file system
//! (a 1-based index or a partition name) when the source holds several.

use std::fmt::Write as _;
use std::sync::Arc;

use masf_evidence::bytes::Reader;
use masf_evidence::fs::{Entry, EntryKind, FileSystem, normalize_path};
use serde_json::{Value, json};

use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Most bytes `read_text` returns in one call.
pub const READ_TEXT_MAX: u64 = 1 << 20;
/// Default length of `read_text`.
pub const READ_TEXT_DEFAULT: u64 = 64 * 1024;
/// Most bytes `hexdump` shows in one call.
pub const HEXDUMP_MAX: u64 = 64 * 1024;
/// Default length of `hexdump`.
pub const HEXDUMP_DEFAULT: u64 = 256;
/// Default and largest `limit` of `find_files`.
pub const FIND_DEFAULT_LIMIT: u64 = 1000;
pub const FIND_MAX_LIMIT: u64 = 100_000;
/// Deepest directory `find_files` descends into.
pub const FIND_MAX_DEPTH: usize = 64;

const TREE: Applicability = Applicability::TREE;

fn partition_prop() -> Value {
    json!({"type": "string", "description": "The file system to use when the source holds several: a 1-based partition index or a partition name (e.g. \"userdata\"). Omit when there is only one."})
}

fn path_prop(what: &str) -> Value {
    json!({"type": "string", "description": format!("Absolute path of the {what} inside the evidence, '/'-separated.")})
}

/// The whole file at `a`'s `path` (normalised) in the file system `a` names, up to `max`
/// bytes (a larger file is an error naming `tool`'s limit): what the tools that decode one
/// file read (`read_xml`, `read_json`, `read_protobuf`, `read_java`).
pub(crate) fn whole_file(
    ctx: &SourceCtx,
    a: &Value,
    max: u64,
    tool: &str,
) -> Result<(String, Vec<u8>), ToolError> {
    let fs = file_system(ctx, a)?;
    let path = normalize_path(args::str(a, "path")?);
    let bytes = fs.open(&path)?;
    let size = bytes.len();
    if size > max {
        return Err(ToolError::Other(format!(
            "{path}: {size} bytes, more than the {max} {tool} reads"
        )));
    }
    let mut data = vec![0u8; size as usize];
    bytes.read_exact_at(0, &mut data)?;
    Ok((path, data))
}

/// The files a store tool reads at `path`: a directory's regular files whose names `keep`
/// accepts, in name order (at most `max`, more is an error naming `what`), or the path itself.
pub(crate) fn store_files(
    fs: &dyn FileSystem,
    path: &str,
    keep: impl Fn(&str) -> bool,
    max: usize,
    what: &str,
) -> Result<Vec<String>, ToolError> {
    if fs.stat(path)?.kind != EntryKind::Dir {
        return Ok(vec![path.to_string()]);
    }
    let mut v: Vec<String> = fs
        .list_dir(path)?
        .into_iter()
        .filter(|e| e.kind == EntryKind::File && keep(&e.name))
        .map(|e| e.path)
        .collect();
    v.sort();
    if v.len() > max {
        return Err(ToolError::Other(format!(
            "{path}: {} {what} exceed the limit of {max}",
            v.len()
        )));
    }
    Ok(v)
}

pub(crate) fn file_system(ctx: &SourceCtx, a: &Value) -> Result<Arc<dyn FileSystem>, ToolError> {
    ctx.scan
        .file_system(args::opt_str(a, "partition")?)
        .map_err(|e| ToolError::Other(ctx.scrub(&e.to_string())))
}

fn kind_str(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::File => "file",
        EntryKind::Dir => "dir",
        EntryKind::Symlink => "symlink",
        EntryKind::Other => "other",
    }
}

fn role_str(e: &masf_evidence::fs::Time) -> String {
    serde_json::to_value(e.role)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Header of the tab-separated entry listings.
pub const ENTRY_HEADER: &str = "kind\tsize\tid\tmode\tdeleted\ttimes\tpath";

/// The stored times of an entry as one cell: `role=value` joined by `,`, or `-`.
pub(crate) fn time_list(e: &Entry) -> String {
    if e.times.is_empty() {
        "-".to_string()
    } else {
        e.times
            .iter()
            .map(|t| format!("{}={}", role_str(t), t.raw.display()))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// One entry as a tab-separated line (see [`ENTRY_HEADER`]).
pub fn entry_line(e: &Entry) -> String {
    let times = time_list(e);
    let mut path = e.path.clone();
    if let Some(target) = &e.link_target {
        path.push_str(" -> ");
        path.push_str(target);
    }
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}",
        kind_str(e.kind),
        e.size,
        e.id.map_or("-".to_string(), |i| i.to_string()),
        e.mode.map_or("-".to_string(), |m| format!("{m:o}")),
        if e.deleted { "deleted" } else { "-" },
        times,
        path
    )
}

fn entry_json(e: &Entry) -> Value {
    json!({
        "path": e.path,
        "name": e.name,
        "kind": kind_str(e.kind),
        "size": e.size,
        "id": e.id,
        "mode": e.mode.map(|m| format!("{m:o}")),
        "deleted": e.deleted,
        "times": e.times.iter().map(|t| (role_str(t), Value::String(t.raw.display()))).collect::<serde_json::Map<_, _>>(),
        "stored_name": e.stored_name,
        "link_target": e.link_target,
    })
}

/// `list_dir`: the entries of one directory.
pub struct ListDir;

impl Tool for ListDir {
    fn name(&self) -> &str {
        "list_dir"
    }
    fn description(&self) -> &str {
        "List the entries of one directory of the evidence, sorted by name: kind, size, inode/record id, mode, deleted flag, stored times and path, one entry a line (tab-separated, with a header). Deleted entries are shown where the format keeps them."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {"partition": partition_prop(), "path": path_prop("directory")}, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let entries = fs.list_dir(&path)?;
        let mut text = String::from(ENTRY_HEADER);
        text.push('\n');
        for e in &entries {
            text.push_str(&entry_line(e));
            text.push('\n');
        }
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "entries": entries.iter().map(entry_json).collect::<Vec<_>>()}),
            ),
        })
    }
}

/// `stat`: metadata of one entry.
pub struct Stat;

impl Tool for Stat {
    fn name(&self) -> &str {
        "stat"
    }
    fn description(&self) -> &str {
        "Show the metadata of one file or directory of the evidence: kind, size, inode/record id, mode, deleted flag, symlink target and every stored time (UTC times end in Z; FAT/ZIP local times are marked '(local)')."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {"partition": partition_prop(), "path": path_prop("entry")}, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let e = fs.stat(&normalize_path(args::str(a, "path")?))?;
        let mut text = String::new();
        let _ = writeln!(text, "path: {}", e.path);
        let _ = writeln!(text, "name: {}", e.name);
        let _ = writeln!(text, "kind: {}", kind_str(e.kind));
        let _ = writeln!(text, "size: {}", e.size);
        if let Some(id) = e.id {
            let _ = writeln!(text, "id: {id}");
        }
        if let Some(m) = e.mode {
            let _ = writeln!(text, "mode: {m:o}");
        }
        let _ = writeln!(text, "deleted: {}", e.deleted);
        if let Some(t) = &e.link_target {
            let _ = writeln!(text, "link_target: {t}");
        }
        if let Some(n) = &e.stored_name {
            let _ = writeln!(text, "stored_name: {}", masf_evidence::fs::visible(n));
        }
        for t in &e.times {
            let _ = writeln!(text, "{}: {}", role_str(t), t.raw.display());
        }
        Ok(ToolOutput {
            text,
            structured: Some(entry_json(&e)),
        })
    }
}

fn read_range(
    ctx: &SourceCtx,
    a: &Value,
    default_len: u64,
    max_len: u64,
) -> Result<(String, u64, u64, Vec<u8>), ToolError> {
    let fs = file_system(ctx, a)?;
    let path = normalize_path(args::str(a, "path")?);
    let offset = args::opt_u64(a, "offset")?.unwrap_or(0);
    let length = args::opt_u64(a, "length")?
        .unwrap_or(default_len)
        .min(max_len);
    let bytes = fs.open(&path)?;
    let size = bytes.len();
    let want = length.min(size.saturating_sub(offset)) as usize;
    let mut buf = vec![0u8; want];
    if want > 0 {
        bytes.read_exact_at(offset, &mut buf)?;
    }
    Ok((path, offset, size, buf))
}

/// `read_text`: a range of a file as text.
pub struct ReadText;

impl Tool for ReadText {
    fn name(&self) -> &str {
        "read_text"
    }
    fn description(&self) -> &str {
        "Read a byte range of a file of the evidence as text (UTF-8; invalid bytes shown as U+FFFD). The output is the content only. offset defaults to 0, length to 65536 and is capped at 1 MiB; use stat for the size and hexdump for binary data."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": partition_prop(), "path": path_prop("file"),
            "offset": {"type": "integer", "minimum": 0, "description": "First byte to read (default 0)."},
            "length": {"type": "integer", "minimum": 0, "description": "Bytes to read (default 65536, at most 1048576)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let (path, offset, size, buf) = read_range(ctx, a, READ_TEXT_DEFAULT, READ_TEXT_MAX)?;
        let text = String::from_utf8_lossy(&buf).into_owned();
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "offset": offset, "length": buf.len(), "size": size, "more": offset + (buf.len() as u64) < size}),
            ),
        })
    }
}

/// Renders bytes as a hex dump: offset, 16 bytes in hex, printable ASCII.
pub fn hex_lines(base: u64, data: &[u8]) -> String {
    let mut out = String::new();
    for (i, chunk) in data.chunks(16).enumerate() {
        let _ = write!(out, "{:08x}: ", base + (i as u64) * 16);
        for j in 0..16 {
            match chunk.get(j) {
                Some(b) => {
                    let _ = write!(out, "{b:02x} ");
                }
                None => out.push_str("   "),
            }
            if j == 7 {
                out.push(' ');
            }
        }
        out.push(' ');
        out.push('|');
        for &b in chunk {
            out.push(if b.is_ascii_graphic() || b == b' ' {
                b as char
            } else {
                '.'
            });
        }
        out.push_str("|\n");
    }
    out
}

/// `hexdump`: a range of a file in hex.
pub struct Hexdump;

impl Tool for Hexdump {
    fn name(&self) -> &str {
        "hexdump"
    }
    fn description(&self) -> &str {
        "Show a byte range of a file of the evidence as a hex dump (offset, 16 bytes in hex, printable ASCII). offset defaults to 0, length to 256 and is capped at 65536."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": partition_prop(), "path": path_prop("file"),
            "offset": {"type": "integer", "minimum": 0, "description": "First byte (default 0)."},
            "length": {"type": "integer", "minimum": 0, "description": "Bytes to show (default 256, at most 65536)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let (path, offset, size, buf) = read_range(ctx, a, HEXDUMP_DEFAULT, HEXDUMP_MAX)?;
        Ok(ToolOutput {
            text: hex_lines(offset, &buf),
            structured: Some(
                json!({"path": path, "offset": offset, "length": buf.len(), "size": size, "hex": hex::encode(&buf)}),
            ),
        })
    }
}

/// `hash_file`: SHA-256 and MD5 of a file.
pub struct HashFile;

impl Tool for HashFile {
    fn name(&self) -> &str {
        "hash_file"
    }
    fn description(&self) -> &str {
        "Compute the SHA-256 and MD5 of a whole file of the evidence (lower-case hex), with its size."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {"partition": partition_prop(), "path": path_prop("file")}, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let bytes = fs.open(&path)?;
        let d = masf_evidence::hash_reader(DeadlineReader(Reader::new(bytes)), &mut |_| {})
            .map_err(|e| ToolError::Other(ctx.scrub(&e.to_string())))?;
        let text = format!(
            "path: {path}\nsize: {}\nsha256: {}\nmd5: {}\n",
            d.size, d.sha256, d.md5
        );
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "size": d.size, "sha256": d.sha256, "md5": d.md5}),
            ),
        })
    }
}

/// A reader that fails once the call's [`crate::deadline`] has passed.
struct DeadlineReader<R>(R);

impl<R: std::io::Read> std::io::Read for DeadlineReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if crate::deadline::passed() {
            return Err(std::io::Error::other("stopped at the time limit"));
        }
        self.0.read(buf)
    }
}

/// Matches `name` against a glob of `*` (any run of characters) and `?` (one character).
pub fn glob_match(glob: &str, name: &str) -> bool {
    let g: Vec<char> = glob.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut gi, mut ni) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if gi < g.len() && (g[gi] == '?' || (g[gi] != '*' && g[gi] == n[ni])) {
            gi += 1;
            ni += 1;
        } else if gi < g.len() && g[gi] == '*' {
            star = Some((gi, ni));
            gi += 1;
        } else if let Some((sg, sn)) = star {
            gi = sg + 1;
            ni = sn + 1;
            star = Some((sg, sn + 1));
        } else {
            return false;
        }
    }
    while gi < g.len() && g[gi] == '*' {
        gi += 1;
    }
    gi == g.len()
}

/// Most globs one `find_files` call takes (`name_globs`): the iOS plugin searches for every
/// artefact name it reads in one walk (ios::searched_globs, over 250 and growing).
pub const MAX_GLOBS: usize = 1024;

/// `find_files`: a recursive search by name glob and size.
pub struct FindFiles;

impl Tool for FindFiles {
    fn name(&self) -> &str {
        "find_files"
    }
    fn description(&self) -> &str {
        "Search the evidence recursively below a directory (default '/') for entries whose name matches a glob ('*' any run of characters, '?' one character; case-sensitive; name_globs: any of several, in one walk), whose size lies within min_size..max_size (size filters exclude directories) and whose stored time of role time_role (modified by default; accessed, changed, created) lies within time_from..time_to (RFC 3339 with an offset, to excluded; FAT/DOS local times are read in naive_zone, an IANA zone, default UTC; entries without that time are left out when a time filter is given). Results come in a stable depth-first order, one entry a line like list_dir, at most limit (default 1000, at most 100000); a final '# truncated' line says when more matched, '# error' lines name unreadable directories, '# not descended' lines directories deeper than 64 levels that were not entered."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": partition_prop(),
            "path": path_prop("directory to search below (default '/')"),
            "name_glob": {"type": "string", "description": "Glob on the entry name, e.g. '*.db' or 'sms.db*'."},
            "name_globs": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_GLOBS, "description": "Instead of name_glob: entries whose name matches any of these globs, found in one walk (the caller tells which glob a name matches)."},
            "min_size": {"type": "integer", "minimum": 0, "description": "Smallest size in bytes."},
            "max_size": {"type": "integer", "minimum": 0, "description": "Largest size in bytes."},
            "time_from": {"type": "string", "description": "Entries whose time is at or after this instant (RFC 3339 with offset)."},
            "time_to": {"type": "string", "description": "Entries whose time is before this instant (RFC 3339 with offset)."},
            "time_role": {"type": "string", "enum": ["modified", "accessed", "changed", "created"], "description": "Which stored time the range applies to (default modified)."},
            "naive_zone": {"type": "string", "description": "IANA zone FAT/DOS local times are read in (default UTC)."},
            "limit": {"type": "integer", "minimum": 1, "description": "Most results (default 1000, at most 100000)."}
        }, "required": [], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let root = normalize_path(args::opt_str(a, "path")?.unwrap_or("/"));
        let globs: Vec<&str> = match (
            args::opt_str(a, "name_glob")?,
            args::opt_str_list(a, "name_globs", MAX_GLOBS)?,
        ) {
            (Some(_), Some(_)) => {
                return Err(ToolError::InvalidArgs(
                    "give name_glob or name_globs, not both".to_string(),
                ));
            }
            (None, Some(list)) if list.is_empty() => {
                return Err(ToolError::InvalidArgs(
                    "name_globs must hold at least one glob".to_string(),
                ));
            }
            (Some(g), None) => vec![g],
            (None, Some(list)) => list,
            (None, None) => Vec::new(),
        };
        let min = args::opt_u64(a, "min_size")?;
        let max = args::opt_u64(a, "max_size")?;
        let limit = args::opt_u64(a, "limit")?
            .unwrap_or(FIND_DEFAULT_LIMIT)
            .clamp(1, FIND_MAX_LIMIT) as usize;
        let sized = min.is_some() || max.is_some();
        let window = TimeWindow::from_args(a)?;
        // names without a wildcard are looked up, the others matched in turn
        let (literal, patterns): (Vec<&str>, Vec<&str>) =
            globs.iter().partition(|g| !g.contains(['*', '?']));
        let literal: std::collections::HashSet<&str> = literal.into_iter().collect();
        let matches = |e: &Entry| {
            (globs.is_empty()
                || literal.contains(e.name.as_str())
                || patterns.iter().any(|g| glob_match(g, &e.name)))
                && (!sized
                    || (e.kind != EntryKind::Dir
                        && min.is_none_or(|m| e.size >= m)
                        && max.is_none_or(|m| e.size <= m)))
                && window.as_ref().is_none_or(|w| w.contains(e))
        };
        let mut found: Vec<Entry> = Vec::new();
        let mut errors: Vec<String> = Vec::new();
        let mut truncated = false;
        let mut cut = DepthCut::default();
        // Depth-first, children in the sorted order list_dir gives.
        let mut stack: Vec<(String, usize, bool)> = vec![(root.clone(), 0, false)];
        'walk: while let Some((dir, depth, deleted)) = stack.pop() {
            if crate::deadline::passed() {
                return Err(ToolError::Other("stopped at the time limit".to_string()));
            }
            let entries = match fs.list_dir(&dir) {
                Ok(e) => e,
                // A deleted folder whose content its format cannot list (an ext4 name
                // recovered from slack) is no error of the search.
                Err(_) if deleted => continue,
                Err(e) => {
                    errors.push(format!("{dir}: {}", ctx.scrub(&e.to_string())));
                    continue;
                }
            };
            let mut subdirs = Vec::new();
            for e in entries {
                if matches(&e) {
                    if found.len() == limit {
                        truncated = true;
                        break 'walk;
                    }
                    found.push(e.clone());
                }
                if e.kind == EntryKind::Dir {
                    if depth < FIND_MAX_DEPTH {
                        subdirs.push((e.path, e.deleted));
                    } else {
                        cut.note(&e.path);
                    }
                }
            }
            for (d, deleted) in subdirs.into_iter().rev() {
                stack.push((d, depth + 1, deleted));
            }
        }
        let mut text = String::from(ENTRY_HEADER);
        text.push('\n');
        for e in &found {
            text.push_str(&entry_line(e));
            text.push('\n');
        }
        for e in &errors {
            let _ = writeln!(text, "# error: {e}");
        }
        cut.write(&mut text, FIND_MAX_DEPTH);
        if truncated {
            let _ = writeln!(text, "# truncated at limit {limit}");
        }
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": root,
                "entries": found.iter().map(entry_json).collect::<Vec<_>>(),
                "errors": errors,
                "not_descended": cut.json(),
                "truncated": truncated,
            })),
        })
    }
}

/// Directories a walk did not enter because they lie deeper than its depth bound: the first
/// [`DepthCut::SHOWN`] are named (shortened), the rest counted, so the cut is in the output
/// rather than silent.
#[derive(Default)]
pub(crate) struct DepthCut {
    shown: Vec<String>,
    total: u64,
}

impl DepthCut {
    const SHOWN: usize = 20;

    pub(crate) fn note(&mut self, path: &str) {
        self.total += 1;
        if self.shown.len() < Self::SHOWN {
            self.shown.push(masf_evidence::fs::shorten(path));
        }
    }

    /// `# not descended …` lines (nothing when the walk went everywhere).
    pub(crate) fn write(&self, text: &mut String, max_depth: usize) {
        for p in &self.shown {
            let _ = writeln!(
                text,
                "# not descended (deeper than {max_depth} levels): {p}"
            );
        }
        if self.total > self.shown.len() as u64 {
            let _ = writeln!(
                text,
                "# not descended: {} more directories deeper than {max_depth} levels",
                self.total - self.shown.len() as u64
            );
        }
    }

    pub(crate) fn json(&self) -> Value {
        json!({"directories": self.shown, "total": self.total})
    }
}

/// The time filter of `find_files`.
struct TimeWindow {
    from: Option<jiff::Timestamp>,
    to: Option<jiff::Timestamp>,
    role: masf_evidence::fs::TimeRole,
    zone: jiff::tz::TimeZone,
}

impl TimeWindow {
    fn from_args(a: &Value) -> Result<Option<TimeWindow>, ToolError> {
        let instant = |key: &str| -> Result<Option<jiff::Timestamp>, ToolError> {
            args::opt_str(a, key)?
                .map(|t| {
                    t.parse::<jiff::Timestamp>().map_err(|e| {
                        ToolError::InvalidArgs(format!(
                            "{key} must be RFC 3339 with an offset (2025-02-18T13:40:00Z): {e}"
                        ))
                    })
                })
                .transpose()
        };
        let (from, to) = (instant("time_from")?, instant("time_to")?);
        if from.is_none() && to.is_none() {
            return Ok(None);
        }
        use masf_evidence::fs::TimeRole;
        let role = match args::opt_str(a, "time_role")?.unwrap_or("modified") {
            "modified" => TimeRole::Modified,
            "accessed" => TimeRole::Accessed,
            "changed" => TimeRole::Changed,
            "created" => TimeRole::Created,
            other => {
                return Err(ToolError::InvalidArgs(format!(
                    "time_role must be modified, accessed, changed or created, not {other:?}"
                )));
            }
        };
        let zone = match args::opt_str(a, "naive_zone")? {
            None => jiff::tz::TimeZone::UTC,
            Some(z) => jiff::tz::TimeZone::get(z)
                .map_err(|e| ToolError::InvalidArgs(format!("naive_zone {z:?}: {e}")))?,
        };
        Ok(Some(TimeWindow {
            from,
            to,
            role,
            zone,
        }))
    }

    fn contains(&self, e: &Entry) -> bool {
        let Some(t) = e.times.iter().find(|t| t.role == self.role) else {
            return false;
        };
        let Some(at) = instant_of(&t.raw, &self.zone) else {
            return false;
        };
        self.from.is_none_or(|f| at >= f) && self.to.is_none_or(|to| at < to)
    }
}

/// The instant a stored time names: UTC encodings directly, FAT/DOS local times in `zone`
/// (an ambiguous or skipped local time takes the earlier reading). `None` for invalid values.
fn instant_of(
    raw: &masf_evidence::fs::RawTime,
    zone: &jiff::tz::TimeZone,
) -> Option<jiff::Timestamp> {
    use masf_evidence::fs::RawTime;
    match *raw {
        RawTime::Unix { secs, nanos } => jiff::Timestamp::new(secs, nanos as i32).ok(),
        RawTime::FileTime { ticks } => {
            let secs = (ticks / 10_000_000) as i64 - 11_644_473_600;
            jiff::Timestamp::new(secs, ((ticks % 10_000_000) * 100) as i32).ok()
        }
        RawTime::FatLocal { date, time, centis } => {
            if date == 0 {
                return None;
            }
            let (y, mo, d) = (
                1980 + (date >> 9) as i16,
                ((date >> 5) & 0x0f) as i8,
                (date & 0x1f) as i8,
            );
            let (h, mi) = ((time >> 11) as i8, ((time >> 5) & 0x3f) as i8);
            let s = ((time & 0x1f) * 2) as i8 + (centis / 100) as i8;
            let dt = jiff::civil::DateTime::new(
                y,
                mo,
                d,
                h,
                mi,
                s,
                i32::from(centis % 100) * 10_000_000,
            )
            .ok()?;
            zone.to_ambiguous_timestamp(dt).earlier().ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_stars_and_question_marks() {
        assert!(glob_match("*.db", "sms.db"));
        assert!(!glob_match("*.db", "sms.db-wal"));
        assert!(glob_match("sms.db*", "sms.db-wal"));
        assert!(glob_match("?ms.*", "sms.db"));
        assert!(glob_match("*", ""));
        assert!(!glob_match("?", ""));
        assert!(glob_match("a*b*c", "aXXbYYc"));
        assert!(!glob_match("a*b*c", "aXXbYY"));
    }

    #[test]
    fn hex_lines_are_padded() {
        assert_eq!(
            hex_lines(16, b"AB\x00"),
            "00000010: 41 42 00                                          |AB.|\n"
        );
    }
}
