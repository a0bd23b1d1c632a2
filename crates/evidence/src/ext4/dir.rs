//! Directory entries, read linearly.
//!
//! Every folder is read as a plain list of `ext4_dir_entry_2` records, block after block, the
//! way e2fsck and The Sleuth Kit read it. The htree index (`dir_index`, and its three-level
//! form `large_dir`) lives inside those same blocks as records with inode 0, which a linear
//! walk skips, so the index and its name hash are never consulted. That is what makes
//! `casefold` folders readable: their htree is keyed by a hash of the case-folded name, but the
//! names themselves are stored as created, and listing or finding them needs no hash at all.

use super::{le16, le32};
use crate::Error;

/// One live record of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawEntry {
    pub ino: u32,
    /// Byte offset of the record in the file system, for errors.
    pub at: u64,
    pub name: Vec<u8>,
    /// The file type byte (0 when the file system does not store it).
    pub file_type: u8,
}

/// How records are laid out on this file system.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    /// `filetype` feature: the name length is one byte, followed by the file type.
    pub file_type: bool,
    /// Blocks of 64 KiB encode a record length of 65536 specially.
    pub big_blocks: bool,
}

/// Parses the records of one region (a directory block, or one of the two areas of an inline
/// folder) into `out`. `at` is the region's byte offset in the file system, for errors.
pub(super) fn parse_region(
    data: &[u8],
    at: u64,
    layout: Layout,
    layer: &str,
    out: &mut Vec<RawEntry>,
) -> Result<(), Error> {
    let mut pos = 0usize;
    while pos < data.len() {
        let corrupt = |detail: String| Error::Corrupt {
            layer: layer.to_string(),
            offset: at + pos as u64,
            detail,
        };
        let Some(header) = data.get(pos..pos + 8) else {
            return Err(corrupt(format!(
                "directory record header cut off ({} bytes left)",
                data.len() - pos
            )));
        };
        let ino = le32(header, 0);
        let raw_rec_len = le16(header, 4);
        let rec_len = if layout.big_blocks {
            if raw_rec_len == 0xFFFF || raw_rec_len == 0 {
                65536
            } else {
                usize::from(raw_rec_len & 0xFFFC) | (usize::from(raw_rec_len & 3) << 16)
            }
        } else {
            usize::from(raw_rec_len)
        };
        let (name_len, file_type) = if layout.file_type {
            (usize::from(header[6]), header[7])
        } else {
            (usize::from(le16(header, 6)), 0)
        };
        if rec_len < 8 || rec_len % 4 != 0 || rec_len > data.len() - pos {
            return Err(corrupt(format!(
                "directory record length {rec_len} (at most {} bytes left)",
                data.len() - pos
            )));
        }
        if ino != 0 {
            if name_len == 0 || 8 + name_len > rec_len {
                return Err(corrupt(format!(
                    "directory record name of {name_len} bytes in a record of {rec_len}"
                )));
            }
            let name = &data[pos + 8..pos + 8 + name_len];
            if name != b"." && name != b".." {
                out.push(RawEntry {
                    ino,
                    at: at + pos as u64,
                    name: name.to_vec(),
                    file_type,
                });
            }
        }
        pos += rec_len;
    }
    Ok(())
}

/// Turns a stored name into the name shown in paths. Names are bytes on ext; those that are
/// not UTF-8 are shown with U+FFFD for the bad bytes, and the two bytes a name can never hold
/// (`/` and NUL, present only in damaged records) as U+2215 and U+2400, so every listed name
/// can be used in a path again.
pub(super) fn display_name(name: &[u8]) -> String {
    let s = String::from_utf8_lossy(name);
    if s.contains(['/', '\0']) {
        s.replace('/', "\u{2215}").replace('\0', "\u{2400}")
    } else {
        s.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(ino: u32, rec_len: u16, name: &[u8], ft: u8) -> Vec<u8> {
        let mut r = ino.to_le_bytes().to_vec();
        r.extend_from_slice(&rec_len.to_le_bytes());
        r.push(name.len() as u8);
        r.push(ft);
        r.extend_from_slice(name);
        r.resize(usize::from(rec_len), 0);
        r
    }

    const LAYOUT: Layout = Layout {
        file_type: true,
        big_blocks: false,
    };

    #[test]
    fn records_are_read_and_dot_entries_and_holes_skipped() {
        let mut block = record(2, 12, b".", 2);
        block.extend(record(2, 12, b"..", 2));
        block.extend(record(0, 16, b"gone", 1)); // deleted/unused record
        block.extend(record(12, 20, b"file.txt", 1));
        block.extend(record(13, 1024 - 60, "日本".as_bytes(), 2));
        let mut out = Vec::new();
        parse_region(&block, 0, LAYOUT, "ext4", &mut out).unwrap();
        let names: Vec<_> = out.iter().map(|e| display_name(&e.name)).collect();
        assert_eq!(names, ["file.txt", "日本"]);
        assert_eq!(out[1].ino, 13);
        assert_eq!(out[1].file_type, 2);
    }

    #[test]
    fn damaged_records_are_errors_not_panics() {
        let check = |block: &[u8]| {
            let mut out = Vec::new();
            assert!(matches!(
                parse_region(block, 4096, LAYOUT, "ext4", &mut out),
                Err(Error::Corrupt { .. })
            ));
        };
        check(&record(12, 4, b"x", 1)); // record shorter than its header
        check(&record(12, 10, b"x", 1)); // not a multiple of 4
        let mut b = record(12, 12, b"x", 1);
        b.truncate(10);
        check(&b); // record runs past the region
        let mut b = record(12, 12, b"abc", 1);
        b[6] = 200;
        check(&b); // name longer than the record
        check(&[1, 0, 0]); // header cut off
    }

    #[test]
    fn names_always_fit_in_a_path() {
        assert_eq!(display_name(b"a/b\0c"), "a\u{2215}b\u{2400}c");
        assert_eq!(display_name(b"ok"), "ok");
        assert_eq!(display_name(&[b'a', 0xFF]), "a\u{FFFD}");
    }
}
