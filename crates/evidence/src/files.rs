//! Which files make up one evidence item.
//!
//! An evidence path names a single file, the first segment of a split image, or a folder. Intake
//! must hash every file of the item, so this module resolves the path to its complete, ordered
//! file list. EWF segments are recognised by their signature (the content), then their siblings
//! are found by the EWF naming scheme (`.E01` … `.E99`, `.EAA` … `.ZZZ`) and each sibling's own
//! signature and segment number are checked, so a renamed or foreign file is never taken in.
//! Split raw images (`.000`/`.001` numbering) are recognised by name only, since raw bytes carry
//! no signature.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// EWF version 1 signatures (E01 and L01), EWF version 2 (Ex01, Lx01).
const EWF1_E: &[u8; 8] = b"EVF\x09\x0d\x0a\xff\x00";
const EWF1_L: &[u8; 8] = b"LVF\x09\x0d\x0a\xff\x00";
const EWF2_E: &[u8; 8] = b"EVF2\x0d\x0a\x81\x00";
const EWF2_L: &[u8; 8] = b"LEF2\x0d\x0a\x81\x00";

/// How the files of an evidence item were found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FilesKind {
    /// One file.
    Single,
    /// The segments of an EWF image, in segment order.
    EwfSegments,
    /// The pieces of a split raw image, in order.
    SplitRaw,
    /// Every regular file below a folder, sorted by path.
    Folder,
    /// A virtual disk and the files it names beside itself (extents, backing files, parents),
    /// the named file first: see [`crate::beside`].
    DiskChain,
}

/// The complete, ordered list of files of one evidence item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceFiles {
    /// The path as given.
    pub root: PathBuf,
    /// How the files were found.
    pub kind: FilesKind,
    /// The files, in the order their bytes form the item (segments) or sorted (folders).
    pub files: Vec<PathBuf>,
}

impl EvidenceFiles {
    /// Resolves an evidence path to all of its files.
    pub fn discover(path: &Path) -> Result<EvidenceFiles> {
        // The evidence path itself is followed if it is a link (the examiner named it).
        let meta = crate::host::stat(path).map_err(|e| not_found_or_io(path, e))?;
        if meta.kind == crate::host::HostKind::Dir {
            // Walked relative to open directory handles: any depth, any path length, links
            // never followed (they are data inside the evidence).
            let files = crate::host::regular_files(path).map_err(|e| not_found_or_io(path, e))?;
            return Ok(EvidenceFiles {
                root: path.to_path_buf(),
                kind: FilesKind::Folder,
                files,
            });
        }
        if meta.kind != crate::host::HostKind::File {
            // A FIFO, socket or device holds no evidence to hash (and opening a FIFO would
            // wait for a writer).
            return Err(Error::WrongKind {
                layer: "evidence".to_string(),
                path: path.display().to_string(),
                detail: "not a regular file or folder (a FIFO, socket or device)".to_string(),
            });
        }
        if let Some(first) = ewf_segment_header(path)? {
            return ewf_segments(path, first);
        }
        if let Some(files) = split_raw(path) {
            return Ok(EvidenceFiles {
                root: path.to_path_buf(),
                kind: FilesKind::SplitRaw,
                files,
            });
        }
        let chain = chain_files(path);
        if !chain.is_empty() {
            let mut files = vec![path.to_path_buf()];
            files.extend(chain);
            return Ok(EvidenceFiles {
                root: path.to_path_buf(),
                kind: FilesKind::DiskChain,
                files,
            });
        }
        Ok(EvidenceFiles {
            root: path.to_path_buf(),
            kind: FilesKind::Single,
            files: vec![path.to_path_buf()],
        })
    }

    /// Total size in bytes of all files.
    pub fn total_size(&self) -> Result<u64> {
        let mut total = 0u64;
        for f in &self.files {
            let m = crate::host::lstat(f).map_err(|e| Error::io(f, e))?;
            total = total.saturating_add(m.size);
        }
        Ok(total)
    }
}

fn not_found_or_io(path: &Path, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::NotFound {
        Error::NotFound {
            path: path.to_path_buf(),
        }
    } else {
        Error::io(path, e)
    }
}

/// The segment number of an EWF segment file, or `None` when the file is not EWF.
fn ewf_segment_header(path: &Path) -> Result<Option<u16>> {
    let mut f = match crate::open::open_read_only(path) {
        Ok(f) => f,
        Err(Error::NotFound { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut head = [0u8; 16];
    let mut filled = 0;
    while filled < head.len() {
        match f.read(&mut head[filled..]) {
            Ok(0) if filled < 13 => return Ok(None),
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    let sig = &head[..8];
    if sig == EWF1_E || sig == EWF1_L {
        // EWF1 file header: signature, fields_start (1 byte), segment number (u16 LE), fields_end.
        Ok(Some(u16::from_le_bytes([head[9], head[10]])))
    } else if sig == EWF2_E || sig == EWF2_L {
        // EWF2 file header: signature, major, minor, compression (u16), segment number (u32).
        let n = u32::from_le_bytes([head[12], head[13], head[14], head[15]]);
        Ok(Some(u16::try_from(n).unwrap_or(u16::MAX)))
    } else {
        Ok(None)
    }
}

fn ewf_segments(first: &Path, first_number: u16) -> Result<EvidenceFiles> {
    let mut files = vec![first.to_path_buf()];
    let Some((stem, ext)) = split_ext(first) else {
        return Ok(EvidenceFiles {
            root: first.to_path_buf(),
            kind: FilesKind::EwfSegments,
            files,
        });
    };
    let mut number = u32::from(first_number.max(1));
    loop {
        number += 1;
        let Some(next_ext) = ewf_extension(&ext, number) else {
            break;
        };
        let candidate = stem.with_extension(&next_ext);
        match ewf_segment_header(&candidate)? {
            Some(n) if u32::from(n) == number => files.push(candidate),
            _ => break,
        }
    }
    Ok(EvidenceFiles {
        root: first.to_path_buf(),
        kind: FilesKind::EwfSegments,
        files,
    })
}

/// Every file the virtual disk at `image` reads beside itself (extents, backing files,
/// parents, theirs in turn), in the order they are named, without `image` itself and without
/// the ones that are missing (the scan names those). Empty for any other file.
fn chain_files(image: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut todo = vec![(image.to_path_buf(), 1usize)];
    while let Some((path, depth)) = todo.pop() {
        if depth > crate::beside::MAX_CHAIN {
            break;
        }
        let beside = crate::beside::Beside::of(&path);
        // Each file is opened once and asked by every format that can name others.
        let Ok(file) = crate::bytes::FileBytes::open(&path) else {
            continue;
        };
        let file: crate::bytes::Bytes = std::sync::Arc::new(file);
        for name in crate::vmdk::names_beside(&file)
            .into_iter()
            .chain(crate::qcow2::names_beside(&file))
            .chain(crate::vhd::names_beside(&file))
            .chain(crate::vhdx::names_beside(&file))
        {
            if let Some(p) = beside.resolve(&name)
                && p != image
                && !out.contains(&p)
            {
                out.push(p.clone());
                todo.push((p, depth + 1));
            }
        }
    }
    out
}

fn split_ext(path: &Path) -> Option<(PathBuf, String)> {
    let ext = path.extension()?.to_str()?.to_string();
    Some((path.to_path_buf(), ext))
}

/// The file extension of EWF segment `number` (1-based), keeping the first letter and case of
/// the first segment's extension: `E01`…`E99`, then `EAA`…`EZZ`, `FAA`…, up to `ZZZ`.
/// EWF2 names (`Ex01`) continue as `Ex02`…`Ex99`.
pub fn ewf_extension(first_ext: &str, number: u32) -> Option<String> {
    let chars: Vec<char> = first_ext.chars().collect();
    let lower = chars.iter().any(|c| c.is_ascii_lowercase() && *c != 'x');
    let (prefix, width) = match chars.as_slice() {
        [l, x, _, _] if *x == 'x' || *x == 'X' => (format!("{l}{x}"), 2),
        [l, _, _] => (l.to_string(), 2),
        _ => return None,
    };
    if number == 0 {
        return None;
    }
    if number <= 99 {
        return Some(format!("{prefix}{number:0width$}"));
    }
    if chars.len() == 4 {
        return None;
    }
    let first = chars.first()?.to_ascii_uppercase();
    let k = number - 100;
    let hi = u32::from(first) - u32::from('A') + k / 676;
    if hi >= 26 {
        return None;
    }
    let a = char::from_u32(u32::from('A') + hi)?;
    let b = char::from_u32(u32::from('A') + (k / 26) % 26)?;
    let c = char::from_u32(u32::from('A') + k % 26)?;
    let s = format!("{a}{b}{c}");
    Some(if lower { s.to_ascii_lowercase() } else { s })
}

/// `name.000`/`name.001` followed by consecutive numbered siblings.
fn split_raw(path: &Path) -> Option<Vec<PathBuf>> {
    let ext = path.extension()?.to_str()?;
    if ext.len() != 3 || !ext.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let start: u32 = ext.parse().ok()?;
    if start > 1 {
        return None;
    }
    let mut files = vec![path.to_path_buf()];
    let mut n = start + 1;
    loop {
        let next = path.with_extension(format!("{n:03}"));
        if next.is_file() {
            files.push(next);
            n += 1;
        } else {
            break;
        }
    }
    (files.len() > 1).then_some(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ewf_extensions_follow_the_libewf_scheme() {
        let check = |ext: &str, n: u32, want: Option<&str>| {
            assert_eq!(ewf_extension(ext, n).as_deref(), want, "{ext} #{n}");
        };
        check("E01", 1, Some("E01"));
        check("E01", 2, Some("E02"));
        check("E01", 99, Some("E99"));
        check("E01", 100, Some("EAA"));
        check("E01", 101, Some("EAB"));
        check("E01", 126, Some("EBA"));
        check("E01", 100 + 676, Some("FAA"));
        check("e01", 100, Some("eaa"));
        check("Ex01", 2, Some("Ex02"));
        check("Ex01", 100, None);
        check("E01", 100 + 676 * 22, None);
        check("toolong", 2, None);
    }
}
