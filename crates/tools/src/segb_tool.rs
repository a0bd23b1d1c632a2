//! `read_segb`: the records of Apple's Biome SEGB files (a stream's folder — its `local/` files
//! and those other devices synced into `remote/<device>/` —, one directory, or one file), as [`masf_evidence::segb`] reads them, each payload decoded as a Protocol Buffers
//! message without its schema, fixed64 values also as doubles (Biome keeps its times so), or,
//! when it is a binary property list (CoreDuet's DuetExpertCenter streams), as its JSON (a keyed
//! archive unwrapped).

use std::fmt::Write as _;

use masf_evidence::fs::normalize_path;
use masf_evidence::segb::{self, State};
use serde_json::{Value, json};

use crate::fs_tools::file_system;
use crate::{Applicability, SourceCtx, Tool, ToolError, ToolOutput, args};

/// Largest SEGB file read.
pub const FILE_MAX: u64 = 64 << 20;
/// Most files of one call read.
pub const FILES_MAX: usize = 1024;
/// Default and largest number of records printed.
pub const DEFAULT_LIMIT: u64 = 10_000;
pub const MAX_LIMIT: u64 = 200_000;

/// Seconds from 1970 to Apple's epoch (2001-01-01 UTC).
const COCOA_EPOCH: f64 = 978_307_200.0;

/// The tool.
pub struct ReadSegb;

/// A Cocoa time (seconds since 2001) in RFC 3339, UTC; empty when out of range.
pub fn cocoa_rfc3339(t: f64) -> String {
    let unix = t + COCOA_EPOCH;
    if !unix.is_finite() || unix.abs() > 1e11 {
        return String::new();
    }
    let secs = unix.floor() as i64;
    let nanos = ((unix - unix.floor()) * 1e9).round() as i32;
    jiff::Timestamp::new(secs, nanos.min(999_999_999))
        .map(|t| t.to_string())
        .unwrap_or_default()
}

/// The SEGB files `path` names, each with the name it is printed under: a stream folder's
/// `local/` files then `remote/`'s and each `remote/<device>/` folder's (named by their path
/// below it), a
/// directory's files (by name), or the one file.
fn segb_files(
    fs: &dyn masf_evidence::fs::FileSystem,
    path: &str,
) -> Result<Vec<(String, String)>, ToolError> {
    use masf_evidence::fs::EntryKind;
    let keep = |name: &str| !name.starts_with('.');
    let named = |files: Vec<String>, prefix: &str| -> Vec<(String, String)> {
        files
            .into_iter()
            .map(|f| {
                let name = format!("{prefix}{}", f.rsplit('/').next().unwrap_or(&f));
                (f, name)
            })
            .collect()
    };
    if fs.stat(path)?.kind != EntryKind::Dir {
        return Ok(named(vec![path.to_string()], ""));
    }
    let children = fs.list_dir(path)?;
    let is_dir = |n: &str| {
        children
            .iter()
            .any(|e| e.kind == EntryKind::Dir && e.name == n)
    };
    if !is_dir("local") && !is_dir("remote") {
        let files = crate::fs_tools::store_files(fs, path, keep, FILES_MAX, "files")?;
        return Ok(named(files, ""));
    }
    let mut all = Vec::new();
    if is_dir("local") {
        let files =
            crate::fs_tools::store_files(fs, &format!("{path}/local"), keep, FILES_MAX, "files")?;
        all.extend(named(files, "local/"));
    }
    if is_dir("remote") {
        let remote = format!("{path}/remote");
        // files kept directly in `remote/` (no device folder), then each device's
        let files = crate::fs_tools::store_files(fs, &remote, keep, FILES_MAX, "files")?;
        all.extend(named(files, "remote/"));
        let mut devices: Vec<String> = fs
            .list_dir(&remote)?
            .into_iter()
            .filter(|e| e.kind == EntryKind::Dir && keep(&e.name) && e.name != "tombstone")
            .map(|e| e.name)
            .collect();
        devices.sort();
        for device in devices {
            let dir = format!("{path}/remote/{device}");
            let files = crate::fs_tools::store_files(fs, &dir, keep, FILES_MAX, "files")?;
            all.extend(named(files, &format!("remote/{device}/")));
        }
    }
    if all.len() > FILES_MAX {
        return Err(ToolError::Other(format!(
            "{path}: {} files exceed the limit of {FILES_MAX}",
            all.len()
        )));
    }
    Ok(all)
}

impl Tool for ReadSegb {
    fn name(&self) -> &str {
        "read_segb"
    }
    fn description(&self) -> &str {
        "Read Apple Biome SEGB files (iOS 15+ and macOS `Library/Biome/streams/{restricted,public}/<stream>/local/`, and CoreDuet's `Library/DuetExpertCenter/streams/<stream>/local/`; v1 and v2): `path` is a stream's folder (its `local/` files, then the files of each `remote/<device>/` folder: records the account's other devices synced, printed as `local/<file>` and `remote/<device>/<file>`), one directory of SEGB files (printed by name), or one file; dot files and `tombstone` folders are left out, files read in name order. After a `# segb` line, one tab-separated line per record: file, offset of its data, state (written, deleted, or as stored), time (Cocoa seconds as stored) and the same in UTC, v1's second time, crc (ok, or bad: the data does not match its stored CRC-32), and its data as `plist:` + JSON when it is a binary property list (CoreDuet's DuetExpertCenter streams keep them: keyed archives unwrapped, `$class` dropped), else `protobuf:` + JSON (decoded without a schema as read_protobuf does, each fixed64 value as {\"fixed64\", \"double\"}: Biome keeps times as doubles; a field holding a binary property list as {\"@plist\": its JSON}, keyed archives unwrapped) or, when it is no message, x'hex'. Problems (a truncated file, a record past the data) are `# problem` lines; the rest is read."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {
            "partition": {"type": "string", "description": "The file system to use when the source holds several (1-based index or partition name)."},
            "path": {"type": "string", "description": "Absolute path of a stream's local directory or of one SEGB file."},
            "limit": {"type": "integer", "minimum": 1, "description": "Most records printed (default 10000, at most 200000)."}
        }, "required": ["path"], "additionalProperties": false})
    }
    fn applicability(&self) -> Applicability {
        Applicability::TREE
    }
    fn run(&self, ctx: &SourceCtx, a: &Value) -> Result<ToolOutput, ToolError> {
        let fs = file_system(ctx, a)?;
        let path = normalize_path(args::str(a, "path")?);
        let limit = args::opt_u64(a, "limit")?
            .unwrap_or(DEFAULT_LIMIT)
            .clamp(1, MAX_LIMIT);
        let files = segb_files(fs.as_ref(), &path)?;
        let mut body = String::new();
        let mut problems = String::new();
        let (mut printed, mut cut, mut written, mut deleted) = (0u64, 0u64, 0u64, 0u64);
        let mut per_file = Vec::new();
        for (file, name) in &files {
            let bytes = fs.open(file)?;
            if bytes.len() > FILE_MAX {
                let _ = writeln!(
                    problems,
                    "# problem {file}: {} bytes exceed the limit of {FILE_MAX}; not read",
                    bytes.len()
                );
                continue;
            }
            let mut data = vec![0u8; bytes.len() as usize];
            bytes.read_exact_at(0, &mut data)?;
            let read = match segb::read(&data, &format!("segb {file}")) {
                Ok(r) => r,
                Err(e) => {
                    let _ = writeln!(problems, "# problem {file}: {}", ctx.scrub(&e.to_string()));
                    continue;
                }
            };
            per_file.push(json!({
                "file": file,
                "version": match read.version { segb::Version::V1 => 1, segb::Version::V2 => 2 },
                "records": read.records.len(),
                "problems": read.problems.len(),
                "created": read.created.map(cocoa_rfc3339),
            }));
            for p in &read.problems {
                let _ = writeln!(
                    problems,
                    "# problem {file} offset {}: {}",
                    p.offset, p.detail
                );
            }
            for r in &read.records {
                match r.state {
                    State::Written => written += 1,
                    State::Deleted => deleted += 1,
                    _ => {}
                }
                if printed == limit {
                    cut += 1;
                    continue;
                }
                printed += 1;
                let payload = if r.data.is_empty() {
                    String::new()
                } else if r.data.starts_with(b"bplist00")
                    && let Some(v) =
                        crate::content_tools::embedded_plist(&r.data, "plist in a SEGB record")
                {
                    // CoreDuet's DuetExpertCenter streams keep property lists (a CLLocation
                    // archive per record)
                    format!("plist:{v}")
                } else {
                    crate::protobuf::message_with_doubles(&r.data)
                        .map(|m| format!("protobuf:{m}"))
                        .unwrap_or_else(|| format!("x'{}'", hex::encode(&r.data)))
                };
                let _ = writeln!(
                    body,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    crate::sqlite::escape_cell(name),
                    r.offset,
                    r.state.name(),
                    r.time,
                    cocoa_rfc3339(r.time),
                    r.time2.map(|t| t.to_string()).unwrap_or_default(),
                    if r.crc_ok { "ok" } else { "bad" },
                    crate::sqlite::escape_cell(&payload),
                );
            }
        }
        let mut text = String::new();
        let _ = writeln!(
            text,
            "file\toffset\tstate\ttime\ttime_utc\ttime2\tcrc\tdata"
        );
        text.push_str(&body);
        text.push_str(&problems);
        if cut > 0 {
            let _ = writeln!(text, "# truncated: {cut} records past the limit of {limit}");
        }
        let _ = writeln!(
            text,
            "# segb {path}: {} files read, {} records printed ({written} written, {deleted} deleted in all)",
            per_file.len(),
            printed
        );
        Ok(ToolOutput {
            text,
            structured: Some(
                json!({"path": path, "files": per_file, "written": written, "deleted": deleted, "truncated": cut > 0}),
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_property_list_record_reads_as_its_json() {
        use plist::{Dictionary, Uid, Value as P};
        // a CLLocation as NSKeyedArchiver writes it (CoreDuet's location stream): the record's
        // cell is its unwrapped JSON
        let object = Dictionary::from_iter([
            (
                "kCLLocationCodingKeyCoordinateLatitude".to_string(),
                P::Real(38.7223),
            ),
            ("$class".to_string(), P::Uid(Uid::new(2))),
        ]);
        let class =
            Dictionary::from_iter([("$classname".to_string(), P::String("CLLocation".into()))]);
        let archive = Dictionary::from_iter([
            ("$archiver".to_string(), P::String("NSKeyedArchiver".into())),
            (
                "$top".to_string(),
                P::Dictionary(Dictionary::from_iter([(
                    "root".to_string(),
                    P::Uid(Uid::new(1)),
                )])),
            ),
            (
                "$objects".to_string(),
                P::Array(vec![
                    P::String("$null".into()),
                    P::Dictionary(object),
                    P::Dictionary(class),
                ]),
            ),
        ]);
        let mut bytes = Vec::new();
        P::Dictionary(archive).to_writer_binary(&mut bytes).unwrap();
        assert!(bytes.starts_with(b"bplist00"));
        let v = crate::content_tools::embedded_plist(&bytes, "plist in a SEGB record").unwrap();
        assert_eq!(
            format!("plist:{v}"),
            r#"plist:{"root":{"kCLLocationCodingKeyCoordinateLatitude":38.7223}}"#
        );
    }

    #[test]
    fn cocoa_times_read_as_utc() {
        assert_eq!(cocoa_rfc3339(0.0), "2001-01-01T00:00:00Z");
        assert_eq!(cocoa_rfc3339(728_000_000.5), "2024-01-26T22:13:20.5Z");
        assert_eq!(cocoa_rfc3339(f64::NAN), "");
    }
}
