//! `read_fsevents`: Apple's file-system event logs (`.fseventsd/` at the root of a macOS volume,
//! `/private/var/.fseventsd/` and `/private/var/mobile/.fseventsd/` on an iPhone), one line per
//! record: the path that changed, the event id, the flags in words, the node id.
//!
//! Hand-written: no maintained crate reads the on-disk format. Each log file (named by a
//! hexadecimal event id) is gzip-compressed; inflated it is a sequence of pages, each a 12-byte
//! header — the signature `1SLD`, `2SLD` or `3SLD` (`DLS1`… little-endian), four bytes not
//! interpreted, the page's size in bytes including the header — followed by records: the path
//! (UTF-8, NUL-terminated), the event id (u64 LE), the flags (u32 LE), from version 2 the node id
//! (u64 LE: the file's inode or catalogue node id), from version 3 four more bytes (not
//! interpreted). The flags' meanings are Joachim Metz's (libyal) research as iLEAPP prints them.
//! Records carry no time: the log file's modification time bounds the time of its last record.
//!
//! Bounded: files of at most [`FILE_MAX`] compressed and [`INFLATED_MAX`] inflated bytes, at
//! most [`FILES_MAX`] files per call, [`MAX_LIMIT`] records printed per call (paged with
//! `skip`). A file that is no gzip, a page of an unknown signature or a size past the data, a
//! record cut short are `# problem` lines naming the file and offset; the rest is read.

use std::fmt::Write as _;
use std::io::Read as _;

use masf_evidence::fs::{EntryKind, normalize_path};
use serde_json::{Value, json};

use crate::fs_tools::file_system;
use crate::sqlite::escape_cell;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest log file read (compressed).
pub const FILE_MAX: u64 = 64 << 20;
/// Largest inflated log file.
pub const INFLATED_MAX: u64 = 256 << 20;
/// Most log files of one call.
pub const FILES_MAX: usize = 20_000;
/// Default and largest number of records printed.
pub const DEFAULT_LIMIT: u64 = 20_000;
pub const MAX_LIMIT: u64 = 200_000;

/// The flag bits of a record and their meanings (libyal's research).
pub const FLAGS: [(u32, &str); 26] = [
    (0x0000_0001, "created"),
    (0x0000_0002, "removed"),
    (0x0000_0004, "inode metadata modified"),
    (0x0000_0008, "renamed or moved"),
    (0x0000_0010, "content modified"),
    (0x0000_0020, "exchanged"),
    (0x0000_0040, "Finder information modified"),
    (0x0000_0080, "directory created"),
    (0x0000_0100, "permissions changed"),
    (0x0000_0200, "extended attribute modified"),
    (0x0000_0400, "extended attribute removed"),
    (0x0000_0800, "document id created"),
    (0x0000_1000, "document revision"),
    (0x0000_2000, "unmount pending"),
    (0x0000_4000, "item cloned"),
    (0x0001_0000, "clone notification"),
    (0x0002_0000, "path truncated"),
    (0x0004_0000, "remote directory event"),
    (0x0008_0000, "last hard link removed"),
    (0x0010_0000, "hard link"),
    (0x0040_0000, "symbolic link"),
    (0x0080_0000, "file"),
    (0x0100_0000, "directory"),
    (0x0200_0000, "mount"),
    (0x0400_0000, "unmount"),
    (0x2000_0000, "end of transaction"),
];

/// The words of `flags`, in bit order; bits without a meaning as `unknown 0x…`.
pub fn flag_words(flags: u32) -> String {
    let mut words: Vec<String> = FLAGS
        .iter()
        .filter(|(bit, _)| flags & bit != 0)
        .map(|(_, w)| (*w).to_string())
        .collect();
    let known = FLAGS.iter().fold(0u32, |m, (b, _)| m | b);
    if flags & !known != 0 {
        words.push(format!("unknown 0x{:08x}", flags & !known));
    }
    words.join("; ")
}

/// One record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The page's version (1, 2, 3).
    pub version: u8,
    /// Offset of the record in the inflated data.
    pub offset: usize,
    pub path: String,
    pub event_id: u64,
    pub flags: u32,
    pub node_id: Option<u64>,
}

/// The records of an inflated log and the problems met (`offset`, what).
pub fn records(data: &[u8]) -> (Vec<Record>, Vec<(usize, String)>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut pos = 0usize;
    while pos < data.len() {
        let Some(header) = data.get(pos..pos + 12) else {
            problems.push((
                pos,
                format!("{} bytes after the last page", data.len() - pos),
            ));
            break;
        };
        let version = match &header[..4] {
            b"1SLD" => 1u8,
            b"2SLD" => 2,
            b"3SLD" => 3,
            other => {
                problems.push((
                    pos,
                    format!(
                        "a page signature {:02x?} that is no 1SLD, 2SLD or 3SLD",
                        other
                    ),
                ));
                break;
            }
        };
        let size = u32::from_le_bytes([header[8], header[9], header[10], header[11]]) as usize;
        if size < 12 {
            problems.push((pos, format!("a page size of {size} bytes")));
            break;
        }
        let end = match pos.checked_add(size) {
            Some(e) if e <= data.len() => e,
            _ => {
                problems.push((
                    pos,
                    format!(
                        "a page of {size} bytes where {} remain: read to the end",
                        data.len() - pos
                    ),
                ));
                data.len()
            }
        };
        let fixed = match version {
            1 => 12usize,
            2 => 20,
            _ => 24,
        };
        let mut p = pos + 12;
        while p < end {
            let Some(nul) = data[p..end].iter().position(|&b| b == 0) else {
                problems.push((
                    p,
                    "a record whose path has no NUL before the page ends".into(),
                ));
                break;
            };
            let path = String::from_utf8_lossy(&data[p..p + nul]).into_owned();
            let at = p;
            let f = p + nul + 1;
            let Some(b) = data.get(f..f + fixed).filter(|_| f + fixed <= end) else {
                problems.push((
                    at,
                    "a record cut short before its event id and flags".into(),
                ));
                break;
            };
            let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
            out.push(Record {
                version,
                offset: at,
                path,
                event_id: u64_at(0),
                flags: u32::from_le_bytes(b[8..12].try_into().unwrap_or([0; 4])),
                node_id: (version >= 2).then(|| u64_at(12)),
            });
            p = f + fixed;
        }
        pos = end;
    }
    (out, problems)
}

/// Inflates a gzip member stream (several members read as one), at most [`INFLATED_MAX`].
fn inflate(data: &[u8]) -> Result<Vec<u8>, String> {
    if !data.starts_with(&[0x1f, 0x8b]) {
        return Err("not gzip-compressed (no 1f 8b)".into());
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(data)
        .take(INFLATED_MAX + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("gzip: {e} after {} bytes", out.len()))?;
    if out.len() as u64 > INFLATED_MAX {
        return Err(format!("inflates past {INFLATED_MAX} bytes"));
    }
    Ok(out)
}

/// Whether a file name is an FSEvents log's (hexadecimal digits, 16 of them on current systems).
pub fn is_log_name(name: &str) -> bool {
    (8..=16).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The tool.
pub struct ReadFsevents;

impl Tool for ReadFsevents {
    fn name(&self) -> &str {
        "read_fsevents"
    }
    fn description(&self) -> &str {
        "Read Apple's file-system event logs (FSEvents: `.fseventsd/` at the root of a macOS volume, `/private/var/.fseventsd/` and `/private/var/mobile/.fseventsd/` on an iPhone): `path` is the folder (its log files, named by hexadecimal event ids, read in name order) or one log file. After a `# fsevents` line (files, records, the folder's fseventsd-uuid), one tab-separated line per record (header row first): log file, page version (1SLD/2SLD/3SLD), offset in the inflated log, event id (hex), the path that changed (relative to the volume's root; empty for a volume event), the flags (hex) and their meanings (created, removed, renamed or moved, content modified, file, directory, mount, end of transaction…), and the node id (version 2 on). Records carry no time: a log file's modification time bounds its records'. With skip, the first records are passed over (paging); limit caps the records printed (default 20000, at most 200000). Problems (a file that is no gzip, a page of an unknown signature, a record cut short) are `# problem` lines naming the file and offset; the rest is read."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of a .fseventsd folder or of one log file in it."},
            "skip": {"type": "integer", "minimum": 0, "description": "Records passed over before printing (default 0)."},
            "limit": {"type": "integer", "minimum": 1, "description": "Most records printed (default 20000, at most 200000)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let skip = args::opt_u64(a, "skip")?.unwrap_or(0);
        let limit = args::opt_u64(a, "limit")?
            .unwrap_or(DEFAULT_LIMIT)
            .clamp(1, MAX_LIMIT);
        let (files, uuid) = if fs.stat(&path)?.kind == EntryKind::Dir {
            let children = fs.list_dir(&path)?;
            let mut logs: Vec<(String, u64)> = children
                .iter()
                .filter(|e| e.kind == EntryKind::File && is_log_name(&e.name))
                .map(|e| (e.path.clone(), e.size))
                .collect();
            logs.sort();
            if logs.len() > FILES_MAX {
                return Err(ToolError::Other(format!(
                    "{path}: {} log files exceed the limit of {FILES_MAX}",
                    logs.len()
                )));
            }
            let uuid = match children
                .iter()
                .find(|e| e.kind == EntryKind::File && e.name == "fseventsd-uuid" && e.size <= 256)
            {
                Some(e) => {
                    let b = read_all(fs.as_ref(), &e.path)?;
                    String::from_utf8_lossy(&b).trim().to_string()
                }
                None => String::new(),
            };
            (logs, uuid)
        } else {
            (vec![(path.clone(), fs.stat(&path)?.size)], String::new())
        };
        let mut body =
            String::from("file\tversion\toffset\tevent_id\tpath\tflags\tflag_words\tnode_id\n");
        let mut problems = String::new();
        let (mut seen, mut printed, mut total) = (0u64, 0u64, 0u64);
        for (file, size) in &files {
            let name = file.rsplit('/').next().unwrap_or(file);
            if *size > FILE_MAX {
                let _ = writeln!(
                    problems,
                    "# problem {file}: {size} bytes exceed the limit of {FILE_MAX}; not read"
                );
                continue;
            }
            let data = match inflate(&read_all(fs.as_ref(), file)?) {
                Ok(d) => d,
                Err(why) => {
                    let _ = writeln!(problems, "# problem {file}: {why}");
                    continue;
                }
            };
            let (recs, probs) = records(&data);
            for (at, why) in probs {
                let _ = writeln!(problems, "# problem {file} at inflated offset {at}: {why}");
            }
            for r in recs {
                total += 1;
                seen += 1;
                if seen <= skip || printed >= limit {
                    continue;
                }
                printed += 1;
                let _ = writeln!(
                    body,
                    "{name}\t{}SLD\t{}\t0x{:x}\t{}\t0x{:08x}\t{}\t{}",
                    r.version,
                    r.offset,
                    r.event_id,
                    escape_cell(&r.path),
                    r.flags,
                    flag_words(r.flags),
                    r.node_id.map(|n| n.to_string()).unwrap_or_default()
                );
            }
        }
        let rest = total.saturating_sub(skip).saturating_sub(printed);
        let mut text = format!(
            "# fsevents {path}: {} log files, {total} records, {printed} printed{}{}{}\n",
            files.len(),
            if skip > 0 {
                format!(" after skipping {}", skip.min(total))
            } else {
                String::new()
            },
            if rest > 0 {
                format!(", {rest} more past the limit of {limit}")
            } else {
                String::new()
            },
            if uuid.is_empty() {
                String::new()
            } else {
                format!(", fseventsd-uuid {uuid}")
            }
        );
        text.push_str(&body);
        text.push_str(&problems);
        Ok(ToolOutput {
            text,
            structured: Some(json!({
                "path": path,
                "files": files.len(),
                "records": total,
                "printed": printed,
                "more": rest,
                "uuid": uuid,
                "problems": problems.lines().count(),
            })),
        })
    }
}

fn read_all(fs: &dyn masf_evidence::fs::FileSystem, path: &str) -> Result<Vec<u8>, ToolError> {
    let bytes = fs.open(path)?;
    let mut data = vec![0u8; bytes.len() as usize];
    bytes.read_exact_at(0, &mut data)?;
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(sig: &[u8; 4], recs: &[(&str, u64, u32, Option<u64>)]) -> Vec<u8> {
        let mut body = Vec::new();
        for (p, id, fl, node) in recs {
            body.extend_from_slice(p.as_bytes());
            body.push(0);
            body.extend_from_slice(&id.to_le_bytes());
            body.extend_from_slice(&fl.to_le_bytes());
            if let Some(n) = node {
                body.extend_from_slice(&n.to_le_bytes());
            }
            if sig == b"3SLD" {
                body.extend_from_slice(&[0, 0, 0, 0]);
            }
        }
        let mut out = sig.to_vec();
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&((body.len() + 12) as u32).to_le_bytes());
        out.extend(body);
        out
    }

    #[test]
    fn pages_of_each_version_cuts_and_flags() {
        let mut d = page(
            b"2SLD",
            &[
                ("a/b", 7, 0x0080_0011, Some(18)),
                ("", 8, 0x0200_0000, Some(0)),
            ],
        );
        d.extend(page(b"1SLD", &[("x", 9, 0x2100_0000, None)]));
        d.extend(page(b"3SLD", &[("y", 10, 0x8000_0001, Some(5))]));
        let (r, p) = records(&d);
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(r.len(), 4);
        assert_eq!((r[0].path.as_str(), r[0].node_id), ("a/b", Some(18)));
        assert_eq!(r[2].node_id, None);
        assert_eq!(flag_words(r[0].flags), "created; content modified; file");
        assert_eq!(flag_words(r[3].flags), "created; unknown 0x80000000");
        // every cut: records up to the cut, a problem, never a panic
        for i in 0..d.len() {
            let (r, _) = records(&d[..i]);
            assert!(r.len() < 4, "{i}");
        }
        // a page cut inside a record: the records before it, and the cut named
        let (r, p) = records(&d[..d.len() - 3]);
        assert_eq!(r.len(), 3);
        assert!(p.iter().any(|(_, w)| w.contains("remain")), "{p:?}");
        let (_, p) = records(b"XXXX\0\0\0\0\x10\0\0\0abcd");
        assert!(p[0].1.contains("no 1SLD"));
        assert!(inflate(b"plain").is_err());
        assert!(is_log_name("00000000226ea595") && !is_log_name("fseventsd-uuid"));
    }
}
