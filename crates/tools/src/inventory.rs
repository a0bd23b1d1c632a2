//! `inventory`: the table of every file below a directory — size, SHA-256, id, deleted flag,
//! stored times and path — in pages, so a tree of any size is inventoried by a bounded number
//! of bounded calls, each output re-derivable on its own.
//!
//! The walk visits directories depth first; in each directory its files come first (sorted by
//! name, as `list_dir` gives them), then its subdirectories in order. A page ends after
//! [`PAGE_FILES`] files, [`PAGE_TEXT_BYTES`] bytes of text or [`PAGE_HASH_BYTES`] bytes hashed,
//! whichever comes first (all counted, never timed, so a page is the same bytes on every run),
//! and says after which file the next page starts; the next call passes that path as `after`
//! and the walk resumes there by re-listing only the directories on the way to it. The first
//! page also counts every file of the tree (a listing walk, no content read), so the count is
//! a fact of one output.

use std::fmt::Write as _;
use std::io::Read as _;

use masf_evidence::bytes::Reader;
use masf_evidence::fs::{Entry, EntryKind, FileSystem, normalize_path};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::fs_tools::{DepthCut, FIND_MAX_DEPTH, file_system, time_list};
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Most files one page lists.
pub const PAGE_FILES: usize = 5000;
/// A page ends once its text reaches this many bytes.
pub const PAGE_TEXT_BYTES: usize = 4 << 20;
/// A page ends once this many bytes of file content have been hashed for it.
pub const PAGE_HASH_BYTES: u64 = 1 << 30;
/// Files larger than this are listed without a hash (`hash_file` hashes one file).
pub const HASH_MAX_SIZE: u64 = 256 << 20;

/// The column header of an inventory page.
pub const INVENTORY_HEADER: &str = "size\tsha256\tid\tdeleted\ttimes\tpath";

/// The first line of the first page: `# inventory of /: 12 files, 1 deleted`.
pub const TOTAL_PREFIX: &str = "# inventory of ";
/// The last line of a page that another page follows: `# 5000 files listed; continues after /a/b`.
pub const CONTINUES: &str = " files listed; continues after ";
/// The last line of the last page: `# 12 files listed; end of the inventory`.
pub const END: &str = " files listed; end of the inventory";

/// Escapes a path for one cell: `\` `\t` `\n` `\r` as two-character sequences (the form
/// `sqlite_query` prints its cells in).
pub use crate::sqlite::escape_cell;

/// The `inventory` tool.
pub struct Inventory;

impl Tool for Inventory {
    fn name(&self) -> &str {
        "inventory"
    }
    fn description(&self) -> &str {
        "List every file below a directory (default '/') as a table, one file a line (tab-separated, with a header): size, SHA-256 of the content ('-' for deleted files and files over 256 MiB), inode/record id, deleted flag, stored times and path (tab, newline and backslash in paths escaped as \\t, \\n, \\\\). Depth first; in each directory its files, then its subdirectories. The table comes in pages of at most 5000 files: the first page starts with a '# inventory of …: N files, D deleted' line counting the whole tree; a page's last line is either '# N files listed; continues after PATH' (call again with after=PATH for the next page) or '# N files listed; end of the inventory'. '# error' lines name unreadable directories or files, '# not descended' lines directories deeper than 64 levels."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several: a 1-based partition index or a partition name. Omit when there is only one."},
            "path": {"type": "string", "description": "The directory to inventory (default '/')."},
            "after": {"type": "string", "description": "Continue after this file: the PATH of the previous page's 'continues after' line."}
        }, "required": [], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let root = normalize_path(args::opt_str(a, "path")?.unwrap_or("/"));
        let after = args::opt_str(a, "after")?.map(normalize_path);
        let mut page = Page::default();
        let mut text = String::new();
        if after.is_none() {
            let (files, deleted) = count(ctx, fs.as_ref(), &root)?;
            let _ = writeln!(
                text,
                "{TOTAL_PREFIX}{}: {files} files, {deleted} deleted",
                escape_cell(&root)
            );
        }
        text.push_str(INVENTORY_HEADER);
        text.push('\n');
        let walk = Walk::start(ctx, fs.as_ref(), &root, after.as_deref())?;
        let next = walk.run(ctx, fs.as_ref(), &mut page, &mut text)?;
        for e in &page.errors {
            let _ = writeln!(text, "# error: {e}");
        }
        page.cut.write(&mut text, FIND_MAX_DEPTH);
        match &next {
            Some(last) => {
                let _ = writeln!(text, "# {}{CONTINUES}{}", page.files, escape_cell(last));
            }
            None => {
                let _ = writeln!(text, "# {}{END}", page.files);
            }
        }
        Ok(ToolOutput {
            text,
            structured: None,
        })
    }
}

#[derive(Default)]
struct Page {
    files: usize,
    hashed: u64,
    errors: Vec<String>,
    cut: DepthCut,
}

/// A directory still to visit: its path, its depth below the root, whether it is deleted.
type Pending = (String, usize, bool);

/// The depth-first walk of one page: the directories still to visit and, for the directory the
/// page resumes in, the name after which its files continue.
struct Walk {
    stack: Vec<Pending>,
    resume: Option<(Pending, String)>,
}

fn parent_and_name(path: &str) -> (&str, &str) {
    match path.rsplit_once('/') {
        Some(("", name)) => ("/", name),
        Some((parent, name)) => (parent, name),
        None => ("/", path),
    }
}

fn components(path: &str) -> Vec<&str> {
    path.split('/').filter(|p| !p.is_empty()).collect()
}

impl Walk {
    /// The walk from the beginning of `root`, or resumed after the file `after` (below `root`).
    fn start(
        ctx: &SourceCtx,
        fs: &dyn FileSystem,
        root: &str,
        after: Option<&str>,
    ) -> Result<Walk, ToolError> {
        let Some(after) = after else {
            return Ok(Walk {
                stack: vec![(root.to_string(), 0, false)],
                resume: None,
            });
        };
        let (dir, name) = parent_and_name(after);
        let (root_parts, dir_parts) = (components(root), components(dir));
        if dir_parts.len() < root_parts.len() || dir_parts[..root_parts.len()] != root_parts[..] {
            return Err(ToolError::InvalidArgs(format!(
                "after: {after} is not a file below {root}"
            )));
        }
        // The directories on the way from the root to `dir`: each one's subdirectories that
        // come after the one on the way are still to visit (pushed outermost first, so the
        // innermost are visited first).
        let mut stack = Vec::new();
        let mut at = root.to_string();
        for (depth, part) in dir_parts[root_parts.len()..].iter().enumerate() {
            let entries = fs.list_dir(&at).map_err(|e| {
                ToolError::InvalidArgs(format!("after: {}", ctx.scrub(&e.to_string())))
            })?;
            let later: Vec<Pending> = entries
                .into_iter()
                .filter(|e| e.kind == EntryKind::Dir && e.name.as_bytes() > part.as_bytes())
                .map(|e| (e.path, depth + 1, e.deleted))
                .collect();
            stack.extend(later.into_iter().rev());
            at = masf_evidence::fs::join(&at, part);
        }
        let depth = dir_parts.len() - root_parts.len();
        Ok(Walk {
            stack,
            resume: Some(((at, depth, false), name.to_string())),
        })
    }

    /// Lists files until the page is full; returns the path of the last file listed when
    /// another page follows.
    fn run(
        mut self,
        ctx: &SourceCtx,
        fs: &dyn FileSystem,
        page: &mut Page,
        text: &mut String,
    ) -> Result<Option<String>, ToolError> {
        let mut last: Option<String> = None;
        loop {
            let (dir, after_name) = match self.resume.take() {
                Some((dir, name)) => (dir, Some(name)),
                None => match self.stack.pop() {
                    Some(dir) => (dir, None),
                    None => return Ok(None),
                },
            };
            if crate::deadline::passed() {
                return Err(ToolError::Other("stopped at the time limit".to_string()));
            }
            let (path, depth, deleted) = dir;
            let entries = match fs.list_dir(&path) {
                Ok(e) => e,
                // A deleted folder whose content its format cannot list is no error.
                Err(_) if deleted => continue,
                Err(e) if after_name.is_some() => {
                    return Err(ToolError::InvalidArgs(format!(
                        "after: {}",
                        ctx.scrub(&e.to_string())
                    )));
                }
                Err(e) => {
                    page.errors
                        .push(format!("{path}: {}", ctx.scrub(&e.to_string())));
                    continue;
                }
            };
            let mut subdirs = Vec::new();
            for e in entries {
                // On a resumed page, the entries up to the cursor were met by earlier pages.
                let met = after_name
                    .as_deref()
                    .is_some_and(|n| e.name.as_bytes() <= n.as_bytes());
                if !met
                    && (e.kind == EntryKind::Dir || e.kind == EntryKind::File)
                    && (page.files == PAGE_FILES
                        || text.len() >= PAGE_TEXT_BYTES
                        || page.hashed >= PAGE_HASH_BYTES)
                {
                    // Full: the next page resumes in this directory after `last`.
                    return Ok(last);
                }
                match e.kind {
                    EntryKind::Dir if depth < FIND_MAX_DEPTH => {
                        subdirs.push((e.path, depth + 1, e.deleted));
                    }
                    EntryKind::Dir if !met => page.cut.note(&e.path),
                    EntryKind::File if !met => {
                        line(ctx, fs, &e, page, text);
                        page.files += 1;
                        last = Some(e.path);
                    }
                    _ => {}
                }
            }
            self.stack.extend(subdirs.into_iter().rev());
        }
    }
}

/// One file's line (hashing its content when it is live and not too large).
fn line(ctx: &SourceCtx, fs: &dyn FileSystem, e: &Entry, page: &mut Page, text: &mut String) {
    let sha = if e.deleted || e.size > HASH_MAX_SIZE {
        "-".to_string()
    } else {
        match sha256(fs, &e.path) {
            Ok((digest, n)) => {
                page.hashed += n;
                digest
            }
            Err(why) => {
                page.errors.push(format!("{}: {}", e.path, ctx.scrub(&why)));
                "-".to_string()
            }
        }
    };
    let _ = writeln!(
        text,
        "{}\t{sha}\t{}\t{}\t{}\t{}",
        e.size,
        e.id.map_or("-".to_string(), |i| i.to_string()),
        if e.deleted { "deleted" } else { "-" },
        time_list(e),
        escape_cell(&e.path)
    );
}

fn sha256(fs: &dyn FileSystem, path: &str) -> Result<(String, u64), String> {
    let bytes = fs.open(path).map_err(|e| e.to_string())?;
    let mut reader = Reader::new(bytes);
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 128 * 1024];
    let mut total = 0u64;
    loop {
        if crate::deadline::passed() {
            return Err("stopped at the time limit".to_string());
        }
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.to_string()),
        };
        hasher.update(&buf[..n]);
        total += n as u64;
    }
    Ok((hex::encode(hasher.finalize()), total))
}

/// Files (and deleted files) below `root`, by the same walk without reading any content.
fn count(ctx: &SourceCtx, fs: &dyn FileSystem, root: &str) -> Result<(u64, u64), ToolError> {
    let (mut files, mut deleted) = (0u64, 0u64);
    let mut stack: Vec<Pending> = vec![(root.to_string(), 0, false)];
    while let Some((dir, depth, dir_deleted)) = stack.pop() {
        if crate::deadline::passed() {
            return Err(ToolError::Other("stopped at the time limit".to_string()));
        }
        let entries = match fs.list_dir(&dir) {
            Ok(e) => e,
            Err(_) if dir_deleted || depth > 0 => continue,
            Err(e) => return Err(ToolError::Other(ctx.scrub(&e.to_string()))),
        };
        for e in entries {
            match e.kind {
                EntryKind::Dir if depth < FIND_MAX_DEPTH => {
                    stack.push((e.path, depth + 1, e.deleted))
                }
                EntryKind::File => {
                    files += 1;
                    deleted += u64::from(e.deleted);
                }
                _ => {}
            }
        }
    }
    Ok((files, deleted))
}

#[cfg(test)]
mod tests {
    #[test]
    fn cells_escape_separators() {
        assert_eq!(super::escape_cell("a\tb\nc\\d\re"), "a\\tb\\nc\\\\d\\re");
        assert_eq!(super::parent_and_name("/a"), ("/", "a"));
        assert_eq!(super::parent_and_name("/a/b/c"), ("/a/b", "c"));
    }
}
