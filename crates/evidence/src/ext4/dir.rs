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

/// One record of a folder: a live one, or a deleted one recovered from the space a live
/// record absorbed when its neighbour was removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawEntry {
    /// The inode number (0 in a deleted record whose number was cleared).
    pub ino: u32,
    /// Byte offset of the record in the file system, for errors.
    pub at: u64,
    pub name: Vec<u8>,
    /// The file type byte (0 when the file system does not store it).
    pub file_type: u8,
    /// Recovered from slack: the name no longer belongs to the folder.
    pub deleted: bool,
}

/// How records are laid out on this file system.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    /// `filetype` feature: the name length is one byte, followed by the file type.
    pub file_type: bool,
    /// Blocks of 64 KiB encode a record length of 65536 specially.
    pub big_blocks: bool,
    /// `s_inodes_count`: a recovered record naming a larger inode number is not a record.
    pub inodes: u32,
}

/// The bytes a record with a name of `name_len` bytes really uses (rounded up to 4).
fn used_len(name_len: usize) -> usize {
    (8 + name_len + 3) & !3
}

/// Whether the space after a `..` record holds an htree root (`dx_root_info`: a zero word,
/// then hash version, info length 8 and at most 3 indirect levels): index entries, not names.
fn is_dx_root(slack: &[u8]) -> bool {
    slack.len() >= 8 && le32(slack, 0) == 0 && slack[5] == 8 && slack[6] <= 3
}

/// Deleted records in `slack` (the unused tail of a record, at byte `at` of the file system).
///
/// Removing a record makes the one before it absorb its space (or, for the first record of a
/// block, clears its inode number): the removed record's bytes stay until overwritten, which is
/// how e2fsck's and The Sleuth Kit's readers find deleted names. A candidate is accepted only if
/// its header is self-consistent: inode number within the file system (or 0), a name of 1..=255
/// bytes without `/` or NUL that fits its record, a record length that is a multiple of 4 and
/// fits the slack, and a known file type.
fn recover(slack: &[u8], at: u64, layout: Layout, out: &mut Vec<RawEntry>) {
    let mut p = 0usize;
    while p + 8 <= slack.len() {
        if let Some((entry, used)) = candidate(&slack[p..], at + p as u64, layout) {
            out.push(entry);
            p += used;
        } else {
            p += 4;
        }
    }
}

fn candidate(b: &[u8], at: u64, layout: Layout) -> Option<(RawEntry, usize)> {
    let ino = le32(b, 0);
    let rec_len = usize::from(le16(b, 4));
    let (name_len, file_type) = if layout.file_type {
        (usize::from(b[6]), b[7])
    } else {
        (usize::from(le16(b, 6)), 0)
    };
    let name = b.get(8..8 + name_len)?;
    let sane = ino <= layout.inodes
        && name_len > 0
        && rec_len % 4 == 0
        && rec_len >= used_len(name_len)
        && rec_len <= b.len()
        && file_type <= 7
        && !name.contains(&b'/')
        && !name.contains(&0)
        && name != b"."
        && name != b"..";
    sane.then(|| {
        (
            RawEntry {
                ino,
                at,
                name: name.to_vec(),
                file_type,
                deleted: true,
            },
            used_len(name_len),
        )
    })
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
        let record = &data[pos..pos + rec_len];
        if ino != 0 {
            if name_len == 0 || 8 + name_len > rec_len {
                return Err(corrupt(format!(
                    "directory record name of {name_len} bytes in a record of {rec_len}"
                )));
            }
            let name = &record[8..8 + name_len];
            if name != b"." && name != b".." {
                out.push(RawEntry {
                    ino,
                    at: at + pos as u64,
                    name: name.to_vec(),
                    file_type,
                    deleted: false,
                });
            }
            if let Some(slack) = record.get(used_len(name_len)..)
                && !(name == b".." && is_dx_root(slack))
            {
                recover(slack, at + (pos + used_len(name_len)) as u64, layout, out);
            }
        } else if rec_len < data.len() || pos > 0 {
            // A record whose inode number was cleared: the first record of a block when it was
            // removed (its name may remain), or an unused span. An htree node (a cleared
            // record spanning the whole block) holds index entries, not names: skipped.
            recover(record, at + pos as u64, layout, out);
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
        inodes: 1000,
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
        let names: Vec<_> = out
            .iter()
            .map(|e| (display_name(&e.name), e.deleted))
            .collect();
        // The cleared record keeps its name: listed as deleted (inode 0), never as live.
        assert_eq!(
            names,
            [
                ("gone".to_string(), true),
                ("file.txt".to_string(), false),
                ("日本".to_string(), false)
            ]
        );
        assert_eq!(out[0].ino, 0);
        assert_eq!(out[2].ino, 13);
        assert_eq!(out[2].file_type, 2);
    }

    #[test]
    fn names_in_the_slack_of_a_live_record_are_recovered_as_deleted() {
        // "b.txt" (inode 14) was removed: "a.txt" absorbed its record.
        let mut a = record(12, 16 + 16, b"a.txt", 1);
        let b = record(14, 16, b"b.txt", 1);
        a[16..32].copy_from_slice(&b);
        let mut block = record(2, 12, b".", 2);
        block.extend(a);
        // Garbage in slack is not a record: inode past the count, a NUL in the name.
        let mut junk = record(9999, 16, b"zz", 1);
        junk.extend(record(15, 12, b"a\0b", 1));
        let mut last = record(16, 12 + junk.len() as u16, b"c", 1);
        last[12..].copy_from_slice(&junk);
        block.extend(last);
        let mut out = Vec::new();
        parse_region(&block, 0, LAYOUT, "ext4", &mut out).unwrap();
        let got: Vec<_> = out
            .iter()
            .map(|e| (display_name(&e.name), e.ino, e.deleted))
            .collect();
        assert_eq!(
            got,
            [
                ("a.txt".to_string(), 12, false),
                ("b.txt".to_string(), 14, true),
                ("c".to_string(), 16, false)
            ]
        );
    }

    #[test]
    fn an_htree_root_after_dotdot_is_not_read_as_names() {
        let mut block = record(2, 12, b".", 2);
        let mut dotdot = record(2, 1012, b"..", 2);
        // dx_root_info: reserved 0, hash version 1, info length 8, levels 0, flags 0; then
        // limit/count and entries that could pass for a record.
        dotdot[12..20].copy_from_slice(&[0, 0, 0, 0, 1, 8, 0, 0]);
        dotdot[20..36].copy_from_slice(&record(5, 16, b"idx", 1));
        block.extend(dotdot);
        let mut out = Vec::new();
        parse_region(&block, 0, LAYOUT, "ext4", &mut out).unwrap();
        assert_eq!(out, []);
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
