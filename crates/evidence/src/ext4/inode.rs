//! Inodes: type, size, flags, times and the 60-byte `i_block` area, and the in-inode extended
//! attributes that hold the rest of an inline file.

use super::superblock::{INCOMPAT_LARGEDIR, RO_COMPAT_HUGE_FILE, Superblock};
use super::{le16, le32};
use crate::fs::{RawTime, Time, TimeRole};

/// Inode flags this reader acts on.
pub(super) const FLAG_ENCRYPT: u32 = 0x800;
pub(super) const FLAG_EXTENTS: u32 = 0x8_0000;
pub(super) const FLAG_INLINE_DATA: u32 = 0x1000_0000;

pub(super) const S_IFMT: u16 = 0xF000;
pub(super) const S_IFREG: u16 = 0x8000;
pub(super) const S_IFDIR: u16 = 0x4000;
pub(super) const S_IFLNK: u16 = 0xA000;

/// Size of `i_block`.
pub(super) const I_BLOCK_LEN: usize = 60;
/// The classic inode size; fields past it exist when `i_extra_isize` covers them.
const GOOD_OLD_INODE_SIZE: usize = 128;

/// One decoded inode.
#[derive(Debug, Clone)]
pub(super) struct Inode {
    pub ino: u32,
    /// Byte offset of the inode in the file system, for errors.
    pub at: u64,
    pub mode: u16,
    /// `i_uid` and `i_gid`, their high halves (`l_i_uid_high`, `l_i_gid_high`) included.
    pub uid: u32,
    pub gid: u32,
    pub size: u64,
    pub flags: u32,
    /// `i_links_count`: 0 once the inode is freed.
    pub links: u16,
    /// `i_blocks` in 512-byte units (or in file system blocks with `HUGE_FILE_FL`).
    pub blocks: u64,
    pub file_acl: u64,
    pub block: [u8; I_BLOCK_LEN],
    pub times: Vec<Time>,
    /// The value of the in-inode `system.data` attribute (the part of an inline file or folder
    /// past `i_block`), when the inode has inline data.
    pub inline_tail: Option<InlineTail>,
}

/// Where the rest of an inline inode's data is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum InlineTail {
    /// In the inode itself (the usual case).
    Bytes(Vec<u8>),
    /// In a separate extended-attribute inode (`ea_inode` feature), not read here.
    EaInode { inode: u32, size: u32 },
}

impl Inode {
    /// Decodes an inode from its on-disk bytes (`raw.len()` is the superblock's inode size).
    pub(super) fn parse(ino: u32, at: u64, raw: &[u8], sb: &Superblock) -> Inode {
        let mode = le16(raw, 0x0);
        let flags = le32(raw, 0x20);
        let size_lo = u64::from(le32(raw, 0x4));
        let size_hi = u64::from(le32(raw, 0x6C));
        // The high half of the size counts for regular files, and for folders with large_dir
        // (in old ext2 it was the folder ACL).
        let size = if mode & S_IFMT == S_IFREG || sb.incompat & INCOMPAT_LARGEDIR != 0 {
            size_lo | (size_hi << 32)
        } else {
            size_lo
        };
        let blocks_hi = if sb.ro_compat & RO_COMPAT_HUGE_FILE != 0 {
            u64::from(le16(raw, 0x74))
        } else {
            0
        };
        let blocks = u64::from(le32(raw, 0x1C)) | (blocks_hi << 32);
        let file_acl = u64::from(le32(raw, 0x68)) | (u64::from(le16(raw, 0x76)) << 32);
        let mut block = [0u8; I_BLOCK_LEN];
        if let Some(src) = raw.get(0x28..0x28 + I_BLOCK_LEN) {
            block.copy_from_slice(src);
        }

        // The extra fields exist up to 128 + i_extra_isize. A value that does not fit the
        // inode (damage) is treated as no extra fields: the classic fields stay readable.
        let extra_end = if raw.len() > GOOD_OLD_INODE_SIZE {
            let extra = usize::from(le16(raw, 0x80));
            let end = GOOD_OLD_INODE_SIZE + extra;
            if end <= raw.len() && extra % 4 == 0 {
                end
            } else {
                GOOD_OLD_INODE_SIZE
            }
        } else {
            GOOD_OLD_INODE_SIZE
        };
        let field = |off: usize| (off + 4 <= extra_end).then(|| le32(raw, off));
        let decode = |base: u32, extra: Option<u32>| {
            // The low two bits of the extra word extend the signed 32-bit seconds past 2038;
            // the upper 30 bits are nanoseconds.
            let mut secs = i64::from(base as i32);
            let mut nanos = 0;
            if let Some(e) = extra {
                secs += i64::from(e & 3) << 32;
                nanos = e >> 2;
            }
            RawTime::Unix { secs, nanos }
        };
        let mut times = vec![
            Time {
                role: TimeRole::Modified,
                raw: decode(le32(raw, 0x10), field(0x88)),
            },
            Time {
                role: TimeRole::Accessed,
                raw: decode(le32(raw, 0x8), field(0x8C)),
            },
            Time {
                role: TimeRole::Changed,
                raw: decode(le32(raw, 0xC), field(0x84)),
            },
        ];
        let dtime = le32(raw, 0x14);
        if dtime != 0 {
            times.push(Time {
                role: TimeRole::Deleted,
                raw: RawTime::Unix {
                    secs: i64::from(dtime),
                    nanos: 0,
                },
            });
        }
        if let Some(crtime) = field(0x90) {
            times.push(Time {
                role: TimeRole::Created,
                raw: decode(crtime, field(0x94)),
            });
        }

        let inline_tail = if flags & FLAG_INLINE_DATA != 0 {
            raw.get(extra_end..).and_then(find_system_data)
        } else {
            None
        };
        Inode {
            ino,
            at,
            links: le16(raw, 0x1A),
            mode,
            uid: u32::from(le16(raw, 0x2)) | u32::from(le16(raw, 0x78)) << 16,
            gid: u32::from(le16(raw, 0x18)) | u32::from(le16(raw, 0x7A)) << 16,
            size,
            flags,
            blocks,
            file_acl,
            block,
            times,
            inline_tail,
        }
    }

    pub(super) fn is_dir(&self) -> bool {
        self.mode & S_IFMT == S_IFDIR
    }

    pub(super) fn is_file(&self) -> bool {
        self.mode & S_IFMT == S_IFREG
    }

    pub(super) fn is_symlink(&self) -> bool {
        self.mode & S_IFMT == S_IFLNK
    }

    pub(super) fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// Whether a symlink's target is stored in `i_block` itself (a "fast" symlink): no data
    /// blocks besides an extended-attribute block, the kernel's rule.
    pub(super) fn is_fast_symlink(&self, sb: &Superblock) -> bool {
        if self.has(FLAG_INLINE_DATA) {
            return false;
        }
        let ea_sectors = if self.file_acl != 0 {
            sb.cluster_size / 512
        } else {
            0
        };
        self.blocks == ea_sectors && self.size < I_BLOCK_LEN as u64
    }
}

/// Finds the `system.data` attribute (name index 7, name "data") in the in-inode extended
/// attribute area that starts right after the extra fields.
fn find_system_data(area: &[u8]) -> Option<InlineTail> {
    const MAGIC: u32 = 0xEA02_0000;
    if area.len() < 4 || le32(area, 0) != MAGIC {
        return None;
    }
    // Entries follow the magic; value offsets count from the first entry.
    let entries = area.get(4..)?;
    let mut pos = 0usize;
    // Each entry is at least 16 bytes, so this bound ends the walk even on garbage.
    for _ in 0..entries.len() / 16 + 1 {
        let header = entries.get(pos..pos + 16)?;
        if le32(header, 0) == 0 {
            return None; // end of the list
        }
        let name_len = usize::from(header[0]);
        let name_index = header[1];
        let value_offs = usize::from(le16(header, 2));
        let value_inum = le32(header, 4);
        let value_size = le32(header, 8);
        let name = entries.get(pos + 16..pos + 16 + name_len)?;
        if name_index == 7 && name == b"data" {
            if value_inum != 0 {
                return Some(InlineTail::EaInode {
                    inode: value_inum,
                    size: value_size,
                });
            }
            let end = value_offs.checked_add(value_size as usize)?;
            return entries
                .get(value_offs..end)
                .map(|v| InlineTail::Bytes(v.to_vec()));
        }
        pos += (16 + name_len + 3) & !3;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_data_is_found_among_other_attributes() {
        let mut area = 0xEA02_0000u32.to_le_bytes().to_vec();
        // entry 1: user.x (index 1), value "abc" at offset 44 (after two 20-byte entries and
        // the 4-byte end marker)
        let mut e1 = vec![1u8, 1];
        e1.extend_from_slice(&44u16.to_le_bytes());
        e1.extend_from_slice(&0u32.to_le_bytes());
        e1.extend_from_slice(&3u32.to_le_bytes());
        e1.extend_from_slice(&0u32.to_le_bytes());
        e1.extend_from_slice(b"x\0\0\0");
        // entry 2: system.data (index 7), value "hello" at offset 48
        let mut e2 = vec![4u8, 7];
        e2.extend_from_slice(&48u16.to_le_bytes());
        e2.extend_from_slice(&0u32.to_le_bytes());
        e2.extend_from_slice(&5u32.to_le_bytes());
        e2.extend_from_slice(&0u32.to_le_bytes());
        e2.extend_from_slice(b"data");
        area.extend_from_slice(&e1);
        area.extend_from_slice(&e2);
        area.extend_from_slice(&[0; 4]); // end of the list
        area.extend_from_slice(b"abc\0hello");
        assert_eq!(
            find_system_data(&area),
            Some(InlineTail::Bytes(b"hello".to_vec()))
        );
        // A value running past the area is not returned.
        area.truncate(area.len() - 2);
        assert_eq!(find_system_data(&area), None);
        // Garbage never panics.
        for n in 0..area.len() {
            let _ = find_system_data(&area[..n]);
        }
    }
}
