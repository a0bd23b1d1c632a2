//! The superblock and the group descriptor table.

use super::crc32c::crc32c_raw;
use super::{le16, le32};
use crate::Error;
use crate::bytes::ByteSource;

/// Byte offset of the primary superblock.
pub(super) const SUPERBLOCK_OFFSET: u64 = 1024;
const SUPERBLOCK_SIZE: usize = 1024;
const MAGIC: u16 = 0xEF53;

// s_feature_compat
pub(super) const COMPAT_HAS_JOURNAL: u32 = 0x4;
const COMPAT_SPARSE_SUPER2: u32 = 0x200;
// s_feature_incompat
const INCOMPAT_COMPRESSION: u32 = 0x1;
pub(super) const INCOMPAT_FILETYPE: u32 = 0x2;
pub(super) const INCOMPAT_RECOVER: u32 = 0x4;
const INCOMPAT_JOURNAL_DEV: u32 = 0x8;
const INCOMPAT_META_BG: u32 = 0x10;
const INCOMPAT_EXTENTS: u32 = 0x40;
pub(super) const INCOMPAT_64BIT: u32 = 0x80;
pub(super) const INCOMPAT_MMP: u32 = 0x100;
const INCOMPAT_FLEX_BG: u32 = 0x200;
const INCOMPAT_EA_INODE: u32 = 0x400;
pub(super) const INCOMPAT_DIRDATA: u32 = 0x1000;
const INCOMPAT_CSUM_SEED: u32 = 0x2000;
pub(super) const INCOMPAT_LARGEDIR: u32 = 0x4000;
pub(super) const INCOMPAT_INLINE_DATA: u32 = 0x8000;
pub(super) const INCOMPAT_ENCRYPT: u32 = 0x10000;
pub(super) const INCOMPAT_CASEFOLD: u32 = 0x20000;
// s_feature_ro_compat
const RO_COMPAT_SPARSE_SUPER: u32 = 0x1;
const RO_COMPAT_LARGE_FILE: u32 = 0x2;
const RO_COMPAT_BTREE_DIR: u32 = 0x4;
pub(super) const RO_COMPAT_HUGE_FILE: u32 = 0x8;
const RO_COMPAT_BIGALLOC: u32 = 0x200;
const RO_COMPAT_METADATA_CSUM: u32 = 0x400;

/// Feature names as e2fsprogs prints them, per word.
pub(crate) const COMPAT_NAMES: &[(u32, &str)] = &[
    (0x1, "dir_prealloc"),
    (0x2, "imagic_inodes"),
    (0x4, "has_journal"),
    (0x8, "ext_attr"),
    (0x10, "resize_inode"),
    (0x20, "dir_index"),
    (0x40, "lazy_bg"),
    (0x80, "exclude_inode"),
    (0x100, "snapshot_bitmap"),
    (0x200, "sparse_super2"),
    (0x400, "fast_commit"),
    (0x800, "stable_inodes"),
    (0x1000, "orphan_file"),
];
pub(crate) const INCOMPAT_NAMES: &[(u32, &str)] = &[
    (0x1, "compression"),
    (0x2, "filetype"),
    (0x4, "needs_recovery"),
    (0x8, "journal_dev"),
    (0x10, "meta_bg"),
    (0x40, "extent"),
    (0x80, "64bit"),
    (0x100, "mmp"),
    (0x200, "flex_bg"),
    (0x400, "ea_inode"),
    (0x1000, "dirdata"),
    (0x2000, "metadata_csum_seed"),
    (0x4000, "large_dir"),
    (0x8000, "inline_data"),
    (0x10000, "encrypt"),
    (0x20000, "casefold"),
];
pub(crate) const RO_COMPAT_NAMES: &[(u32, &str)] = &[
    (0x1, "sparse_super"),
    (0x2, "large_file"),
    (0x4, "btree_dir"),
    (0x8, "huge_file"),
    (0x10, "uninit_bg"),
    (0x20, "dir_nlink"),
    (0x40, "extra_isize"),
    (0x80, "snapshot"),
    (0x100, "quota"),
    (0x200, "bigalloc"),
    (0x400, "metadata_csum"),
    (0x800, "replica"),
    (0x1000, "read-only"),
    (0x2000, "project"),
    (0x4000, "shared_blocks"),
    (0x8000, "verity"),
    (0x10000, "orphan_present"),
];

/// The incompatible features this reader knows how to read around. Any other bit stops it, as
/// it stops the kernel.
const INCOMPAT_KNOWN: u32 = INCOMPAT_FILETYPE
    | INCOMPAT_RECOVER
    | INCOMPAT_META_BG
    | INCOMPAT_EXTENTS
    | INCOMPAT_64BIT
    | INCOMPAT_MMP
    | INCOMPAT_FLEX_BG
    | INCOMPAT_EA_INODE
    | INCOMPAT_DIRDATA
    | INCOMPAT_CSUM_SEED
    | INCOMPAT_LARGEDIR
    | INCOMPAT_INLINE_DATA
    | INCOMPAT_ENCRYPT
    | INCOMPAT_CASEFOLD;

/// Limit on the size of the group descriptor table (64 MiB: a million groups of 64 bytes,
/// 128 TiB of 4 KiB blocks).
const MAX_DESCRIPTOR_BYTES: u64 = 64 << 20;

/// The fields of the superblock this reader uses, validated.
#[derive(Debug, Clone)]
pub(super) struct Superblock {
    pub inodes_count: u32,
    pub blocks_count: u64,
    pub first_data_block: u32,
    pub block_size: u32,
    pub cluster_size: u64,
    pub blocks_per_group: u32,
    pub inodes_per_group: u32,
    pub inode_size: u32,
    pub compat: u32,
    pub incompat: u32,
    pub ro_compat: u32,
    pub uuid: [u8; 16],
    pub label: [u8; 16],
    pub desc_size: u32,
    pub first_meta_bg: u32,
    pub backup_bgs: [u32; 2],
    pub groups: u32,
    pub encoding: u16,
}

impl Superblock {
    /// Reads and validates the primary superblock.
    pub(super) fn read(src: &dyn ByteSource) -> Result<Superblock, Error> {
        let mut b = [0u8; SUPERBLOCK_SIZE];
        src.read_exact_at(SUPERBLOCK_OFFSET, &mut b)?;
        Superblock::parse(&b)
    }

    fn parse(b: &[u8; SUPERBLOCK_SIZE]) -> Result<Superblock, Error> {
        let corrupt = |field: u64, detail: String| Error::Corrupt {
            layer: "ext".to_string(),
            offset: SUPERBLOCK_OFFSET + field,
            detail,
        };
        let magic = le16(b, 0x38);
        if magic != MAGIC {
            return Err(corrupt(
                0x38,
                format!("superblock magic {magic:#06x}, expected 0xef53"),
            ));
        }
        let incompat = le32(b, 0x60);
        let ro_compat = le32(b, 0x64);
        // Check the checksum first: with metadata_csum every other field is then trustworthy
        // against accidental damage, and a flipped bit is named as what it is.
        if ro_compat & RO_COMPAT_METADATA_CSUM != 0 {
            let kind = b[0x175];
            if kind != 1 {
                return Err(corrupt(
                    0x175,
                    format!("superblock checksum type {kind}, expected 1 (crc32c)"),
                ));
            }
            let stored = le32(b, 0x3FC);
            let computed = crc32c_raw(!0, &b[..0x3FC]);
            if stored != computed {
                return Err(corrupt(
                    0x3FC,
                    format!(
                        "superblock checksum mismatch: stored {stored:#010x}, computed {computed:#010x}"
                    ),
                ));
            }
        }
        if incompat & INCOMPAT_JOURNAL_DEV != 0 {
            return Err(Error::Unsupported {
                layer: "ext".to_string(),
                detail: "this is an external ext3/ext4 journal device, not a file system"
                    .to_string(),
            });
        }
        if incompat & INCOMPAT_COMPRESSION != 0 {
            return Err(Error::Unsupported {
                layer: "ext".to_string(),
                detail: "the ext2 compression feature is not supported".to_string(),
            });
        }
        let unknown = incompat & !INCOMPAT_KNOWN;
        if unknown != 0 {
            return Err(Error::Unsupported {
                layer: "ext".to_string(),
                detail: format!("unknown incompatible features {unknown:#x}"),
            });
        }

        let log_block = le32(b, 0x18);
        if log_block > 6 {
            return Err(corrupt(
                0x18,
                format!("block size 2^(10+{log_block}) beyond 64 KiB"),
            ));
        }
        let block_size = 1024u32 << log_block;
        let cluster_size = if ro_compat & RO_COMPAT_BIGALLOC != 0 {
            let log_cluster = le32(b, 0x1C);
            if !(log_block..=log_block + 16).contains(&log_cluster) {
                return Err(corrupt(0x1C, format!("cluster size log {log_cluster}")));
            }
            1024u64 << log_cluster
        } else {
            u64::from(block_size)
        };
        let rev_level = le32(b, 0x4C);
        let inode_size = if rev_level == 0 {
            128
        } else {
            u32::from(le16(b, 0x58))
        };
        if inode_size < 128 || !inode_size.is_power_of_two() || inode_size > block_size {
            return Err(corrupt(0x58, format!("inode size {inode_size}")));
        }
        let desc_size = if incompat & INCOMPAT_64BIT != 0 {
            let d = u32::from(le16(b, 0xFE));
            if !(64..=1024).contains(&d) || !d.is_power_of_two() {
                return Err(corrupt(0xFE, format!("group descriptor size {d}")));
            }
            d
        } else {
            32
        };
        let blocks_lo = u64::from(le32(b, 0x4));
        let blocks_hi = if incompat & INCOMPAT_64BIT != 0 {
            u64::from(le32(b, 0x150))
        } else {
            0
        };
        let blocks_count = blocks_lo | (blocks_hi << 32);
        // Every block number is checked against the block count before use; bounding the count
        // keeps every byte offset (block x block size) within 63 bits.
        if blocks_count > (1u64 << 63) / u64::from(block_size) {
            return Err(corrupt(
                0x4,
                format!("{blocks_count} blocks of {block_size} bytes"),
            ));
        }
        let first_data_block = le32(b, 0x14);
        let blocks_per_group = le32(b, 0x20);
        let inodes_per_group = le32(b, 0x28);
        let inodes_count = le32(b, 0x0);
        // A block bitmap and an inode bitmap are one block each (one cluster per bit).
        let bits = u64::from(block_size) * 8;
        let clusters_per_block = cluster_size / u64::from(block_size);
        if blocks_per_group == 0
            || u64::from(blocks_per_group) > bits.saturating_mul(clusters_per_block)
        {
            return Err(corrupt(
                0x20,
                format!("{blocks_per_group} blocks per group"),
            ));
        }
        if inodes_per_group == 0 || u64::from(inodes_per_group) > bits {
            return Err(corrupt(
                0x28,
                format!("{inodes_per_group} inodes per group"),
            ));
        }
        let data_blocks = blocks_count
            .checked_sub(u64::from(first_data_block))
            .filter(|n| *n > 0)
            .ok_or_else(|| {
                corrupt(
                    0x14,
                    format!("first data block {first_data_block} of {blocks_count} blocks"),
                )
            })?;
        let groups = data_blocks.div_ceil(u64::from(blocks_per_group));
        let groups =
            u32::try_from(groups).map_err(|_| corrupt(0x4, format!("{groups} block groups")))?;
        let mut uuid = [0u8; 16];
        uuid.copy_from_slice(&b[0x68..0x78]);
        let mut label = [0u8; 16];
        label.copy_from_slice(&b[0x78..0x88]);
        Ok(Superblock {
            inodes_count,
            blocks_count,
            first_data_block,
            block_size,
            cluster_size,
            blocks_per_group,
            inodes_per_group,
            inode_size,
            compat: le32(b, 0x5C),
            incompat,
            ro_compat,
            uuid,
            label,
            desc_size,
            first_meta_bg: le32(b, 0x104),
            backup_bgs: [le32(b, 0x24C), le32(b, 0x250)],
            groups,
            encoding: le16(b, 0x27C),
        })
    }

    /// `ext2`, `ext3` or `ext4`, by the rule blkid uses: ext4 when a feature beyond ext3's
    /// set is present, ext3 when a journal is, ext2 otherwise.
    pub(super) fn format_name(&self) -> &'static str {
        let ext3_incompat = INCOMPAT_FILETYPE | INCOMPAT_RECOVER | INCOMPAT_META_BG;
        let ext3_ro = RO_COMPAT_SPARSE_SUPER | RO_COMPAT_LARGE_FILE | RO_COMPAT_BTREE_DIR;
        if self.incompat & !ext3_incompat != 0 || self.ro_compat & !ext3_ro != 0 {
            "ext4"
        } else if self.compat & COMPAT_HAS_JOURNAL != 0 {
            "ext3"
        } else {
            "ext2"
        }
    }

    /// Every feature flag set, by its e2fsprogs name (unknown bits as hex).
    pub(super) fn feature_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (word, names) in [
            (self.compat, COMPAT_NAMES),
            (self.incompat, INCOMPAT_NAMES),
            (self.ro_compat, RO_COMPAT_NAMES),
        ] {
            for bit in 0..32 {
                let mask = 1u32 << bit;
                if word & mask != 0 {
                    match names.iter().find(|(m, _)| *m == mask) {
                        Some((_, name)) => out.push((*name).to_string()),
                        None => out.push(format!("unknown_{mask:#x}")),
                    }
                }
            }
        }
        out
    }

    /// Whether block group `group` holds a backup of the superblock (and of the descriptors).
    fn group_has_super(&self, group: u32) -> bool {
        if group == 0 {
            return true;
        }
        if self.compat & COMPAT_SPARSE_SUPER2 != 0 {
            return group == self.backup_bgs[0] || group == self.backup_bgs[1];
        }
        if self.ro_compat & RO_COMPAT_SPARSE_SUPER == 0 || group == 1 {
            return true;
        }
        [3u32, 5, 7].iter().any(|&base| {
            let mut n = base;
            while n < group {
                match n.checked_mul(base) {
                    Some(m) => n = m,
                    None => return false,
                }
            }
            n == group
        })
    }

    /// The block holding the `index`-th block of group descriptors. Without `meta_bg` the
    /// table follows the superblock; with it, from `s_first_meta_bg` on, each block of
    /// descriptors sits at the start of the first group it describes (after that group's
    /// superblock backup, if any).
    fn descriptor_block(&self, index: u32, per_block: u32) -> u64 {
        let first = u64::from(self.first_data_block);
        if self.incompat & INCOMPAT_META_BG == 0 || index < self.first_meta_bg {
            return first + 1 + u64::from(index);
        }
        let group = index.saturating_mul(per_block);
        let mut has_super = u64::from(self.group_has_super(group));
        // Group 0 of a 1 KiB-block file system whose first data block is 0 (bigalloc): block 0
        // is the boot block and the superblock is in block 1.
        if group == 0 && self.first_data_block == 0 && self.block_size == 1024 {
            has_super += 1;
        }
        first + u64::from(group) * u64::from(self.blocks_per_group) + has_super
    }

    /// Reads the group descriptor table: the first block of each group's inode table.
    pub(super) fn read_inode_tables(&self, src: &dyn ByteSource) -> Result<Vec<u64>, Error> {
        let bytes = u64::from(self.groups) * u64::from(self.desc_size);
        if bytes > MAX_DESCRIPTOR_BYTES {
            return Err(Error::TooLarge {
                layer: "ext".to_string(),
                offset: SUPERBLOCK_OFFSET + 4,
                what: "group descriptor table".to_string(),
                claimed: bytes,
                limit: MAX_DESCRIPTOR_BYTES,
            });
        }
        let per_block = self.block_size / self.desc_size;
        let desc_blocks = self.groups.div_ceil(per_block);
        let mut tables = Vec::with_capacity(self.groups as usize);
        let mut buf = vec![0u8; self.block_size as usize];
        for index in 0..desc_blocks {
            let block = self.descriptor_block(index, per_block);
            if block >= self.blocks_count {
                return Err(Error::Corrupt {
                    layer: "ext".to_string(),
                    offset: SUPERBLOCK_OFFSET,
                    detail: format!(
                        "group descriptor block {block} is beyond the {} blocks of the file system",
                        self.blocks_count
                    ),
                });
            }
            src.read_exact_at(block * u64::from(self.block_size), &mut buf)?;
            for d in buf.chunks_exact(self.desc_size as usize) {
                if tables.len() == self.groups as usize {
                    break;
                }
                let lo = u64::from(le32(d, 0x8));
                let hi = if self.incompat & INCOMPAT_64BIT != 0 {
                    u64::from(le32(d, 0x28))
                } else {
                    0
                };
                tables.push(lo | (hi << 32));
            }
        }
        Ok(tables)
    }
}

#[cfg(test)]
impl Superblock {
    /// A plain geometry for unit tests of the layers above.
    pub(super) fn for_tests(block_size: u32, blocks_count: u64) -> Superblock {
        Superblock {
            inodes_count: 16,
            blocks_count,
            first_data_block: 0,
            block_size,
            cluster_size: u64::from(block_size),
            blocks_per_group: 8 * block_size,
            inodes_per_group: 16,
            inode_size: 256,
            compat: 0,
            incompat: INCOMPAT_FILETYPE,
            ro_compat: 0,
            uuid: [0; 16],
            label: [0; 16],
            desc_size: 32,
            first_meta_bg: 0,
            backup_bgs: [0, 0],
            groups: 1,
            encoding: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sb(ro_compat: u32, compat: u32) -> Superblock {
        Superblock {
            inodes_count: 0,
            blocks_count: 1 << 20,
            first_data_block: 0,
            block_size: 4096,
            cluster_size: 4096,
            blocks_per_group: 32768,
            inodes_per_group: 8192,
            inode_size: 256,
            compat,
            incompat: INCOMPAT_META_BG,
            ro_compat,
            uuid: [0; 16],
            label: [0; 16],
            desc_size: 64,
            first_meta_bg: 1,
            backup_bgs: [1, 30],
            groups: 32,
            encoding: 0,
        }
    }

    /// A minimal valid superblock (ext2, 1 KiB blocks, 8192 blocks, one group), then `edit`.
    fn raw(edit: impl FnOnce(&mut [u8; SUPERBLOCK_SIZE])) -> [u8; SUPERBLOCK_SIZE] {
        let mut b = [0u8; SUPERBLOCK_SIZE];
        let put32 = |b: &mut [u8; SUPERBLOCK_SIZE], off: usize, v: u32| {
            b[off..off + 4].copy_from_slice(&v.to_le_bytes())
        };
        put32(&mut b, 0x0, 2048); // inodes
        put32(&mut b, 0x4, 8192); // blocks
        put32(&mut b, 0x14, 1); // first data block
        put32(&mut b, 0x20, 8192); // blocks per group
        put32(&mut b, 0x28, 2048); // inodes per group
        b[0x38..0x3A].copy_from_slice(&MAGIC.to_le_bytes());
        put32(&mut b, 0x4C, 1); // dynamic revision
        b[0x58..0x5A].copy_from_slice(&128u16.to_le_bytes());
        put32(&mut b, 0x60, INCOMPAT_FILETYPE);
        edit(&mut b);
        b
    }

    /// Parses `b` and checks the error's field offset (relative to the superblock), or success.
    fn check(b: [u8; SUPERBLOCK_SIZE], want: Option<u64>) {
        match (Superblock::parse(&b), want) {
            (Ok(_), None) => {}
            (Err(Error::Corrupt { offset, .. }), Some(w)) => {
                assert_eq!(offset, SUPERBLOCK_OFFSET + w)
            }
            (Err(Error::Unsupported { .. }), Some(u64::MAX)) => {}
            (got, want) => panic!("got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn crafted_geometry_is_refused_with_its_field() {
        check(raw(|_| {}), None);
        check(raw(|b| b[0x38] = 0), Some(0x38));
        check(raw(|b| b[0x18] = 7), Some(0x18)); // block size 128 KiB
        check(raw(|b| b[0x58] = 100), Some(0x58)); // inode size not a power of two
        check(raw(|b| b[0x59] = 8), Some(0x58)); // inode size beyond the block
        check(raw(|b| b[0x20..0x24].fill(0)), Some(0x20));
        check(raw(|b| b[0x28..0x2C].fill(0xFF)), Some(0x28));
        check(raw(|b| b[0x14] = 0xFF), None); // first data block 255: still data after it
        check(raw(|b| b[0x04..0x08].fill(0)), Some(0x14)); // no blocks at all
        // 2^63 blocks would make byte offsets overflow.
        check(
            raw(|b| {
                b[0x60] |= INCOMPAT_64BIT as u8;
                b[0xFE] = 64;
                b[0x150..0x154].copy_from_slice(&0x8000_0000u32.to_le_bytes());
            }),
            Some(0x4),
        );
        check(raw(|b| b[0x62] = 0x80), Some(u64::MAX)); // unknown incompatible feature
        check(raw(|b| b[0x60] |= 0x8), Some(u64::MAX)); // journal device
        // metadata_csum with a checksum type other than crc32c, then with a stale checksum
        check(
            raw(|b| b[0x65] = (RO_COMPAT_METADATA_CSUM >> 8) as u8),
            Some(0x175),
        );
        let mut ok = raw(|b| {
            b[0x65] = (RO_COMPAT_METADATA_CSUM >> 8) as u8;
            b[0x175] = 1;
        });
        let sum = crc32c_raw(!0, &ok[..0x3FC]);
        ok[0x3FC..].copy_from_slice(&sum.to_le_bytes());
        check(ok, None);
        ok[0x78] ^= 1;
        check(ok, Some(0x3FC));
    }

    #[test]
    fn superblock_backups_follow_sparse_super() {
        let s = sb(RO_COMPAT_SPARSE_SUPER, 0);
        let with: Vec<u32> = (0..60).filter(|g| s.group_has_super(*g)).collect();
        assert_eq!(with, [0, 1, 3, 5, 7, 9, 25, 27, 49]);
        let s = sb(0, 0);
        assert!(s.group_has_super(2));
        let s = sb(RO_COMPAT_SPARSE_SUPER, COMPAT_SPARSE_SUPER2);
        let with: Vec<u32> = (0..60).filter(|g| s.group_has_super(*g)).collect();
        assert_eq!(with, [0, 1, 30]);
    }

    #[test]
    fn meta_bg_descriptors_sit_in_their_meta_group() {
        let s = sb(RO_COMPAT_SPARSE_SUPER, 0);
        // 64 descriptors of 64 bytes per 4 KiB block; meta group 0 is before first_meta_bg.
        assert_eq!(s.descriptor_block(0, 64), 1);
        // Meta group 1 starts at group 64 (no backup there): its first block.
        assert_eq!(s.descriptor_block(1, 64), 64 * 32768);
        // Meta group 2 at group 128: no backup either (not a power of 3, 5, 7).
        assert_eq!(s.descriptor_block(2, 64), 128 * 32768);
    }
}
