//! F2FS (Flash-Friendly File System, the userdata file system of Huawei, Xiaomi, OPPO, vivo,
//! Samsung and other Android phones), read-only, as a [`FileSystem`].
//!
//! # Why a hand-written reader
//! No maintained Rust crate reads F2FS: crates.io has builders that write F2FS images (`fstool`)
//! and placeholders, no reader of an existing volume (Fuchsia's `f2fs_reader` lives in the
//! Fuchsia tree, unpublished, and is built for its migration tool). The kernel's
//! `Documentation/filesystems/f2fs.rst` and f2fs-tools' `include/f2fs_fs.h` describe the
//! on-disk layout fully, and the subset needed to list and read is small, so it is written
//! here, bounded against hostile input.
//!
//! # What is read
//! - The superblock: both copies (blocks 0 and 1, at byte 1024 of each); the first that is
//!   valid is used (its CRC checked when the `sb_checksum` feature says one is stored); a
//!   damaged first copy is reported in [`FileSystem::diagnostics`].
//! - The checkpoint: of the two packs, the valid one (head and tail blocks with matching CRCs
//!   and equal versions) with the higher version, as the kernel chooses at mount.
//! - The NAT (node address table): each node id is looked up first in the checkpoint's NAT
//!   journal (in the hot-data summary, compact or normal), then in the NAT block copy that the
//!   checkpoint's NAT version bitmap selects.
//! - Inodes (inode numbers are the entries' `id`), with `extra_attr` (the address area shifted
//!   by `i_extra_isize`), inline extended attributes (fixed or `flexible_inline_xattr` size),
//!   inline data and inline dentries; direct, indirect and double-indirect node blocks; holes
//!   (`NULL_ADDR`, `NEW_ADDR`) read as zeros.
//! - Folders: every dentry block of every hash level, read linearly (entries in block order,
//!   the name hash not used), so a lookup never depends on the hash function (casefold and
//!   encrypted names included); names are matched byte-exact. Listings are sorted by name.
//! - Inline dentries are written only by the kernel (f2fs-tools' sload.f2fs makes dentry
//!   blocks for every folder), so no fixture holds one: their geometry is checked by a unit
//!   test against the layout in `f2fs_fs.h`.
//! - Times raw ([`RawTime::Unix`]): modification, access, change, and creation where the inode
//!   carries one (`inode_crtime` with a large enough extra area).
//!
//! # What is not, and how it is reported
//! - Files with an fscrypt policy (`encrypt`): folders are listed with their stored
//!   (ciphertext) names, shown with [`display_name`], and the listing says so in
//!   [`FileSystem::diagnostics`]; opening a file is [`Error::Encrypted`].
//! - Compressed files (`compression`): LZ4 (`lz4_flex`) and LZO (`lzo`) clusters are decoded:
//!   a cluster whose first address is `COMPRESS_ADDR` holds, in the blocks that follow, a header
//!   (compressed length, checksum) and one compressed block that must inflate to exactly the
//!   cluster; other clusters are stored as is. The checksum is verified when the inode asks for
//!   it (`compress_chksum`). LZO-RLE and zstd clusters: [`Error::Unsupported`] naming the codec
//!   (no writer here makes them; the LZ4 and LZO fixtures come from an f2fs-tools built with
//!   both, see `tests/fixtures/f2fs/make-compressed.sh`).
//! - Multi-device volumes: [`Error::Unsupported`] at open.
//! - Roll-forward recovery (node blocks fsync'd after the last checkpoint) is not replayed,
//!   as the kernel would at mount: the checkpointed state is shown, and a volume not cleanly
//!   unmounted says so in its diagnostics. Inode and node checksums are not verified.
//! - Deleted names: the kernel unlinks a name by clearing its dentry bitmap bits only, so the
//!   dentry and name stay until the slots are reused. Such names are listed `deleted` (kind from
//!   the dentry, inode number as `id`, no size or times: the inode is usually freed) when the
//!   stored name hash matches the name, never resolved as paths, and renamed
//!   `name (deleted #ino)` if a live or earlier deleted name is the same. Not in casefold
//!   folders (their hash is over the case-folded name). A dentry block left empty is freed
//!   whole by the kernel and is not searched.
//!
//! # Bounds
//! Every walk is bounded by the structure it walks: node ids are range-checked against the NAT,
//! block addresses against the main area, node footers must name the node and inode asked for,
//! folders larger than [`MAX_DIR_BYTES`] are [`Error::TooLarge`], paths deeper than
//! [`MAX_DIR_DEPTH`] are [`Error::TooDeep`], and a folder that is its own ancestor is
//! [`Error::Corrupt`] when entered. Nothing recurses.

use std::collections::{HashMap, HashSet};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;

use crate::Error;
use crate::bytes::{ByteSource, Bytes};
use crate::fs::{
    Entry, EntryKind, FileSystem, MAX_DIR_DEPTH, RawTime, Time, TimeRole, file_name, join,
    normalize_path,
};

/// The superblock magic.
pub const MAGIC: u32 = 0xF2F5_2010;
/// Where each superblock copy starts inside its block.
const SB_OFFSET: u64 = 1024;
const SB_LEN: usize = 3072;
/// F2FS blocks are 4 KiB on every volume Linux mounts.
const BLOCK: u64 = 4096;
const BLOCK_USIZE: usize = 4096;
/// `log_blocks_per_seg` must be 9: 512 blocks per segment.
const BLOCKS_PER_SEG: u64 = 512;

/// Addresses in an inode without extra attributes (`DEF_ADDRS_PER_INODE`).
const ADDRS_PER_INODE: usize = 923;
/// Addresses in a direct node, node ids in an indirect one (`DEF_ADDRS_PER_BLOCK`).
const PER_BLOCK: u64 = 1018;
/// Inline extended attribute words without `flexible_inline_xattr`.
const DEFAULT_INLINE_XATTR_ADDRS: usize = 50;
/// The largest extra inode area the format defines (`F2FS_TOTAL_EXTRA_ATTR_SIZE`).
const MAX_EXTRA_ISIZE: usize = 36;
/// Byte offset of `i_addr` in an inode block, and of the node footer.
const I_ADDR: usize = 360;
const I_NID: usize = I_ADDR + ADDRS_PER_INODE * 4;
const FOOTER: usize = 4072;

/// NAT entries per NAT block (9 bytes each), and NAT journal entries in a summary.
const NAT_PER_BLOCK: u64 = 455;
const NAT_JOURNAL_ENTRIES: usize = 38;
/// Offset of the journal in a normal summary block (after 512 summaries of 7 bytes).
const SUM_JOURNAL_OFFSET: usize = 3584;

/// Dentry block geometry.
const DENTRIES_PER_BLOCK: usize = 214;
const DENTRY_BITMAP: usize = 27;
const DENTRY_RESERVED: usize = 3;
const DENTRY_SIZE: usize = 11;
const SLOT_LEN: usize = 8;

/// Block addresses with a meaning of their own.
const NULL_ADDR: u32 = 0;
const NEW_ADDR: u32 = 0xFFFF_FFFF;
const COMPRESS_ADDR: u32 = 0xFFFF_FFFE;

/// `i_inline` flags.
const INLINE_XATTR: u8 = 0x01;
const INLINE_DATA: u8 = 0x02;
const INLINE_DENTRY: u8 = 0x04;
const EXTRA_ATTR: u8 = 0x20;
/// `i_advise`: the inode has an fscrypt policy.
const ADVISE_ENCRYPT: u8 = 0x04;
/// `i_flags`: the file is compressed.
const COMPR_FL: u32 = 0x0000_0004;
/// `i_flags`: names in this folder are hashed case-folded.
const CASEFOLD_FL: u32 = 0x4000_0000;

/// Superblock feature bits read here.
const FEATURE_ENCRYPT: u32 = 0x1;
const FEATURE_FLEXIBLE_INLINE_XATTR: u32 = 0x40;
const FEATURE_INODE_CRTIME: u32 = 0x100;
const FEATURE_SB_CHKSUM: u32 = 0x800;
const FEATURE_CASEFOLD: u32 = 0x1000;
const FEATURE_COMPRESSION: u32 = 0x2000;

/// Checkpoint flags read here.
const CP_UMOUNT: u32 = 0x1;
const CP_ORPHAN_PRESENT: u32 = 0x2;
const CP_COMPACT_SUM: u32 = 0x4;
const CP_ERROR: u32 = 0x8;
const CP_LARGE_NAT_BITMAP: u32 = 0x400;
/// Offsets in a checkpoint block.
const CP_MIN_CHKSUM_OFFSET: usize = 192;
const CP_CHKSUM_OFFSET: usize = 4092;

/// Largest folder read (256 MiB of dentry blocks, some 14 million names).
pub const MAX_DIR_BYTES: u64 = 256 << 20;
/// Node blocks, NAT blocks and folders kept in memory.
const NODE_CACHE: usize = 512;
const NAT_CACHE: usize = 64;
const RECORD_CACHE: usize = 16;
/// Folders whose inode chain from the root is remembered, and how many of a path's deepest
/// prefixes a lookup tries in that cache.
const DIR_CACHE: usize = 16384;
const RESOLVE_PROBE: usize = 4;
/// Most diagnostics kept from reading.
const MAX_NOTES: usize = 1000;

/// Whether `src` holds an F2FS superblock magic in either copy.
pub fn is_f2fs(src: &dyn ByteSource) -> bool {
    [SB_OFFSET, BLOCK + SB_OFFSET].iter().any(|&at| {
        let mut m = [0u8; 4];
        src.read_exact_at(at, &mut m).is_ok() && u32::from_le_bytes(m) == MAGIC
    })
}

/// Opens an F2FS volume stored in `bytes` (an image, a partition).
pub fn open(bytes: Bytes) -> Result<Arc<dyn FileSystem>, Error> {
    Ok(Arc::new(F2fs::open(bytes)?))
}

/// Facts about an opened F2FS volume, for probes, reports and tests.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct F2fsInfo {
    pub label: String,
    /// The volume UUID, in its usual text form.
    pub uuid: String,
    /// `major.minor` of the superblock.
    pub version: String,
    /// Feature flags by their f2fs-tools names.
    pub features: Vec<String>,
    pub block_count: u64,
    /// Which superblock copy was used (0 or 1).
    pub superblock_copy: u8,
    /// The version of the checkpoint used, and which pack (0 or 1) held it.
    pub checkpoint_version: u64,
    pub checkpoint_pack: u8,
    pub valid_inode_count: u32,
    pub root_ino: u32,
}

/// The superblock fields the reader uses.
#[derive(Debug, Clone)]
struct Superblock {
    block_count: u64,
    segment_count_nat: u32,
    cp_blkaddr: u32,
    nat_blkaddr: u32,
    main_blkaddr: u32,
    root_ino: u32,
    cp_payload: u32,
    features: u32,
    uuid: [u8; 16],
    label: String,
    major: u16,
    minor: u16,
}

/// One NAT entry: the inode a node belongs to and the block holding it.
#[derive(Debug, Clone, Copy)]
struct NatEntry {
    ino: u32,
    block: u32,
}

/// The reading state shared by the file system and its open files.
struct Volume {
    bytes: Bytes,
    sb: Superblock,
    layer: String,
    /// Node ids valid on this volume: 1 .. max_nid.
    max_nid: u64,
    nat_bitmap: Vec<u8>,
    nat_journal: HashMap<u32, NatEntry>,
    nat_cache: Mutex<LruCache<u64, Arc<Vec<u8>>>>,
    node_cache: Mutex<LruCache<u32, Arc<Vec<u8>>>>,
}

fn le16(b: &[u8], at: usize) -> u16 {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .unwrap_or(0)
}

fn le32(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .unwrap_or(0)
}

fn le64(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map(u64::from_le_bytes)
        .unwrap_or(0)
}

/// F2FS's CRC: CRC-32 (reflected, polynomial 0xEDB88320) seeded with the magic, no final
/// inversion (`f2fs_crc32` in the kernel and f2fs-tools).
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = MAGIC;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ if crc & 1 != 0 { 0xEDB8_8320 } else { 0 };
        }
    }
    crc
}

/// A name as shown: UTF-8 as stored; bytes that are not UTF-8 (ciphertext names of encrypted
/// folders, other encodings) as `\xNN` escapes, so distinct stored names stay distinct and
/// each can be looked up again; `/` and NUL replaced by look-alikes.
pub fn display_name(name: &[u8]) -> String {
    let mut out = String::with_capacity(name.len());
    for chunk in name.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    if out.contains(['/', '\0']) {
        out = out.replace('/', "\u{2215}").replace('\0', "\u{2400}");
    }
    out
}

impl Superblock {
    /// Parses and validates one copy; `at` is its byte offset, for errors.
    fn parse(b: &[u8], at: u64, layer: &str) -> Result<Superblock, Error> {
        let corrupt = |off: usize, detail: String| Error::Corrupt {
            layer: layer.to_string(),
            offset: at + off as u64,
            detail,
        };
        if le32(b, 0) != MAGIC {
            return Err(corrupt(0, "no F2FS superblock magic".to_string()));
        }
        let log_sector = le32(b, 8);
        let log_spb = le32(b, 12);
        let log_block = le32(b, 16);
        let log_bps = le32(b, 20);
        if !(9..=12).contains(&log_sector) || log_sector + log_spb != 12 {
            return Err(corrupt(
                8,
                format!("sector size 2^{log_sector} with 2^{log_spb} sectors per block"),
            ));
        }
        if log_block != 12 {
            return Err(Error::Unsupported {
                layer: layer.to_string(),
                detail: format!(
                    "block size 2^{log_block} (only 4 KiB blocks exist on mountable volumes)"
                ),
            });
        }
        if log_bps != 9 {
            return Err(corrupt(
                20,
                format!("2^{log_bps} blocks per segment (must be 512)"),
            ));
        }
        let features = le32(b, 2180);
        if features & FEATURE_SB_CHKSUM != 0 {
            let off = le32(b, 32) as usize;
            if off != SB_LEN - 4 {
                return Err(corrupt(32, format!("checksum offset {off} (must be 3068)")));
            }
            let stored = le32(b, off);
            let computed = crc32(&b[..off]);
            if stored != computed {
                return Err(corrupt(
                    off,
                    format!("superblock CRC {stored:#010x}, computed {computed:#010x}"),
                ));
            }
        }
        let sb = Superblock {
            block_count: le64(b, 36),
            segment_count_nat: le32(b, 60),
            cp_blkaddr: le32(b, 76),
            nat_blkaddr: le32(b, 84),
            main_blkaddr: le32(b, 92),
            root_ino: le32(b, 96),
            cp_payload: le32(b, 1664),
            features,
            uuid: b
                .get(108..124)
                .and_then(|s| s.try_into().ok())
                .unwrap_or([0; 16]),
            label: {
                let units: Vec<u16> = b
                    .get(124..124 + 1024)
                    .unwrap_or(&[])
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .take_while(|&u| u != 0)
                    .collect();
                String::from_utf16_lossy(&units)
            },
            major: le16(b, 4),
            minor: le16(b, 6),
        };
        let bc = sb.block_count;
        let nat_end = u64::from(sb.nat_blkaddr) + u64::from(sb.segment_count_nat) * BLOCKS_PER_SEG;
        let checks: [(usize, bool, String); 5] = [
            (
                76,
                u64::from(sb.cp_blkaddr) + 2 * BLOCKS_PER_SEG <= bc,
                format!("checkpoint area at block {}", sb.cp_blkaddr),
            ),
            (
                60,
                sb.segment_count_nat >= 2
                    && sb.segment_count_nat.is_multiple_of(2)
                    && nat_end <= bc,
                format!(
                    "NAT of {} segments at block {}",
                    sb.segment_count_nat, sb.nat_blkaddr
                ),
            ),
            (
                92,
                u64::from(sb.main_blkaddr) < bc && sb.main_blkaddr >= sb.nat_blkaddr,
                format!("main area at block {}", sb.main_blkaddr),
            ),
            (
                96,
                sb.root_ino >= 3,
                format!("root inode number {}", sb.root_ino),
            ),
            (
                1664,
                u64::from(sb.cp_payload) < BLOCKS_PER_SEG,
                format!("checkpoint payload of {} blocks", sb.cp_payload),
            ),
        ];
        for (off, ok, what) in checks {
            if !ok {
                return Err(corrupt(
                    off,
                    format!("{what} outside a volume of {bc} blocks"),
                ));
            }
        }
        // devs[0].path: a volume spread over several devices keeps part of its blocks elsewhere.
        if b.get(2201).is_some_and(|&c| c != 0) {
            return Err(Error::Unsupported {
                layer: layer.to_string(),
                detail: "multi-device volume (its other devices are not part of this image)"
                    .to_string(),
            });
        }
        Ok(sb)
    }

    fn feature_names(&self) -> Vec<String> {
        crate::probe::superblocks::F2FS_FEATURES
            .iter()
            .filter(|(bit, _)| self.features & bit != 0)
            .map(|(_, name)| name.to_string())
            .chain(
                (0..32)
                    .map(|i| 1u32 << i)
                    .filter(|bit| {
                        self.features & bit != 0
                            && !crate::probe::superblocks::F2FS_FEATURES
                                .iter()
                                .any(|(b, _)| b == bit)
                    })
                    .map(|bit| format!("feature {bit:#x}")),
            )
            .collect()
    }
}

/// The checkpoint chosen at open.
struct Checkpoint {
    version: u64,
    pack: u8,
    flags: u32,
    valid_inode_count: u32,
    nat_bitmap: Vec<u8>,
    nat_journal: HashMap<u32, NatEntry>,
    /// Why a pack was not valid, for the diagnostics.
    invalid: Vec<String>,
}

/// Reads one checkpoint block and checks its CRC: its version, or why it is not valid.
fn read_cp_block(bytes: &dyn ByteSource, block: u64) -> Result<(u64, Vec<u8>), String> {
    let mut b = vec![0u8; BLOCK_USIZE];
    bytes
        .read_exact_at(block * BLOCK, &mut b)
        .map_err(|e| e.to_string())?;
    let off = le32(&b, 164) as usize;
    if !(CP_MIN_CHKSUM_OFFSET..=CP_CHKSUM_OFFSET).contains(&off) {
        return Err(format!("checksum offset {off} at block {block}"));
    }
    let stored = le32(&b, off);
    let computed = crc32(&b[..off]);
    if stored != computed {
        return Err(format!(
            "CRC {stored:#010x} at block {block}, computed {computed:#010x}"
        ));
    }
    Ok((le64(&b, 0), b))
}

impl Checkpoint {
    fn read(bytes: &dyn ByteSource, sb: &Superblock, layer: &str) -> Result<Checkpoint, Error> {
        let mut best: Option<(u64, u8, u64, Vec<u8>)> = None;
        let mut why = Vec::new();
        for pack in 0..2u8 {
            let start = u64::from(sb.cp_blkaddr) + u64::from(pack) * BLOCKS_PER_SEG;
            let (v1, head) = match read_cp_block(bytes, start) {
                Ok(x) => x,
                Err(e) => {
                    why.push(format!("pack {pack}: head {e}"));
                    continue;
                }
            };
            let total = u64::from(le32(&head, 136));
            if !(2..=BLOCKS_PER_SEG).contains(&total) {
                why.push(format!("pack {pack}: {total} blocks"));
                continue;
            }
            let v2 = match read_cp_block(bytes, start + total - 1) {
                Ok((v, _)) => v,
                Err(e) => {
                    why.push(format!("pack {pack}: tail {e}"));
                    continue;
                }
            };
            if v1 != v2 {
                why.push(format!(
                    "pack {pack}: head version {v1} and tail version {v2} differ"
                ));
                continue;
            }
            if best.as_ref().is_none_or(|b| v1 > b.0) {
                best = Some((v1, pack, start, head));
            }
        }
        let Some((version, pack, start, head)) = best else {
            return Err(Error::Corrupt {
                layer: layer.to_string(),
                offset: u64::from(sb.cp_blkaddr) * BLOCK,
                detail: format!("no valid checkpoint pack ({})", why.join("; ")),
            });
        };
        let at = start * BLOCK;
        let corrupt = |off: usize, detail: String| Error::Corrupt {
            layer: layer.to_string(),
            offset: at + off as u64,
            detail,
        };
        let flags = le32(&head, 132);
        let total = u64::from(le32(&head, 136));
        // The NAT version bitmap: one bit per NAT block of one copy.
        let nat_blocks = u64::from(sb.segment_count_nat / 2) * BLOCKS_PER_SEG;
        let nat_len = le32(&head, 160) as usize;
        let sit_len = le32(&head, 156) as usize;
        let nat_at = if flags & CP_LARGE_NAT_BITMAP != 0 {
            CP_MIN_CHKSUM_OFFSET + 4
        } else if sb.cp_payload > 0 {
            CP_MIN_CHKSUM_OFFSET
        } else {
            CP_MIN_CHKSUM_OFFSET.saturating_add(sit_len)
        };
        if (nat_len as u64) * 8 < nat_blocks {
            return Err(corrupt(
                160,
                format!("NAT bitmap of {nat_len} bytes for {nat_blocks} NAT blocks"),
            ));
        }
        let nat_bitmap = head
            .get(nat_at..nat_at.saturating_add(nat_len))
            .ok_or_else(|| {
                corrupt(
                    156,
                    format!("NAT bitmap of {nat_len} bytes at offset {nat_at} runs past the block"),
                )
            })?
            .to_vec();
        // The NAT journal, in the hot-data summary.
        let start_sum = u64::from(le32(&head, 140));
        if start_sum == 0 || start_sum >= total {
            return Err(corrupt(
                140,
                format!("summary start {start_sum} outside a pack of {total} blocks"),
            ));
        }
        let mut sum = vec![0u8; BLOCK_USIZE];
        let sum_at = (start + start_sum) * BLOCK;
        bytes.read_exact_at(sum_at, &mut sum)?;
        let jat = if flags & CP_COMPACT_SUM != 0 {
            0
        } else {
            SUM_JOURNAL_OFFSET
        };
        let n = usize::from(le16(&sum, jat));
        if n > NAT_JOURNAL_ENTRIES {
            return Err(Error::Corrupt {
                layer: layer.to_string(),
                offset: sum_at + jat as u64,
                detail: format!("NAT journal of {n} entries (at most {NAT_JOURNAL_ENTRIES})"),
            });
        }
        let mut nat_journal = HashMap::new();
        for i in 0..n {
            let e = jat + 2 + i * 13;
            nat_journal.insert(
                le32(&sum, e),
                NatEntry {
                    ino: le32(&sum, e + 5),
                    block: le32(&sum, e + 9),
                },
            );
        }
        Ok(Checkpoint {
            version,
            pack,
            flags,
            valid_inode_count: le32(&head, 148),
            nat_bitmap,
            nat_journal,
            invalid: why,
        })
    }
}

/// An inode, parsed.
#[derive(Debug, Clone)]
struct Inode {
    ino: u32,
    /// Byte offset of the inode block, for errors.
    at: u64,
    mode: u16,
    /// `i_uid` and `i_gid`.
    owner: (u32, u32),
    advise: u8,
    inline: u8,
    casefold: bool,
    size: u64,
    times: Vec<Time>,
    compress_algorithm: Option<u8>,
    /// `i_log_cluster_size` and `i_compress_flag` of a compressed inode.
    log_cluster_size: u8,
    compress_flag: u16,
    /// Data addresses a direct node holds for this inode (fewer for a compressed file, so that
    /// a node holds whole clusters).
    addrs_per_node: u64,
    /// The data block addresses held in the inode.
    addrs: Vec<u32>,
    /// Direct, direct, indirect, indirect, double-indirect node ids.
    nids: [u32; 5],
    /// Inline data or inline dentries.
    inline_area: Vec<u8>,
}

impl Inode {
    fn kind(&self) -> EntryKind {
        match self.mode & 0o170000 {
            0o100000 => EntryKind::File,
            0o040000 => EntryKind::Dir,
            0o120000 => EntryKind::Symlink,
            _ => EntryKind::Other,
        }
    }

    fn encrypted(&self) -> bool {
        self.advise & ADVISE_ENCRYPT != 0
    }

    fn parse(ino: u32, at: u64, b: &[u8], features: u32, layer: &str) -> Result<Inode, Error> {
        let corrupt = |off: usize, detail: String| Error::Corrupt {
            layer: layer.to_string(),
            offset: at + off as u64,
            detail: format!("inode {ino}: {detail}"),
        };
        let inline = b.get(3).copied().unwrap_or(0);
        let extra = inline & EXTRA_ATTR != 0;
        let extra_isize = if extra {
            let e = usize::from(le16(b, I_ADDR));
            if e > MAX_EXTRA_ISIZE || !e.is_multiple_of(4) {
                return Err(corrupt(I_ADDR, format!("extra inode area of {e} bytes")));
            }
            e
        } else {
            0
        };
        let extra_words = extra_isize / 4;
        // As the kernel's do_read_inode: the stored size under flexible_inline_xattr (with
        // extra attributes), else 50 words for an inode with inline xattrs or inline dentries.
        let xattr_words = if extra && features & FEATURE_FLEXIBLE_INLINE_XATTR != 0 {
            usize::from(le16(b, I_ADDR + 2))
        } else if inline & (INLINE_XATTR | INLINE_DENTRY) != 0 {
            DEFAULT_INLINE_XATTR_ADDRS
        } else {
            0
        };
        let n_addrs = ADDRS_PER_INODE
            .checked_sub(extra_words + xattr_words)
            .filter(|&n| n >= 2)
            .ok_or_else(|| {
                corrupt(
                    I_ADDR + 2,
                    format!("inline extended attributes of {xattr_words} words leave no addresses"),
                )
            })?;
        let word = |i: usize| le32(b, I_ADDR + 4 * i);
        let flags = le32(b, 80);
        let mode = le16(b, 0);
        // A compressed regular file's clusters never straddle the inode and a node: its inode
        // and its direct nodes hold a whole number of clusters (f2fs-tools' addrs_per_inode).
        // Extra attributes of a compressed file (the area is a multiple of 4 bytes, so 36 or more
        // holds them).
        let (log_cluster_size, compress_flag) = if extra && extra_isize >= 36 {
            (
                b.get(I_ADDR + 33).copied().unwrap_or(0),
                le16(b, I_ADDR + 34),
            )
        } else {
            (0, 0)
        };
        let compressed_file = mode & 0o170000 == 0o100000 && flags & COMPR_FL != 0;
        // Blocks per cluster (1 for any other inode, and for a cluster size the format does not
        // allow: such a file is refused when read).
        let cluster = if compressed_file && (2..=MAX_LOG_CLUSTER).contains(&log_cluster_size) {
            1usize << log_cluster_size
        } else {
            1
        };
        let used = n_addrs / cluster * cluster;
        let addrs: Vec<u32> = (extra_words..extra_words + used).map(word).collect();
        let inline_start = I_ADDR + 4 * (extra_words + 1);
        let inline_area = b
            .get(inline_start..inline_start + 4 * (n_addrs - 1))
            .unwrap_or(&[])
            .to_vec();
        let mut nids = [0u32; 5];
        for (i, n) in nids.iter_mut().enumerate() {
            *n = le32(b, I_NID + 4 * i);
        }
        let unix = |secs_at: usize, nanos_at: usize| RawTime::Unix {
            secs: le64(b, secs_at) as i64,
            nanos: le32(b, nanos_at),
        };
        let mut times = vec![
            Time {
                role: TimeRole::Modified,
                raw: unix(48, 64),
            },
            Time {
                role: TimeRole::Accessed,
                raw: unix(32, 56),
            },
            Time {
                role: TimeRole::Changed,
                raw: unix(40, 60),
            },
        ];
        if inline & EXTRA_ATTR != 0 && features & FEATURE_INODE_CRTIME != 0 && extra_isize >= 24 {
            times.push(Time {
                role: TimeRole::Created,
                raw: unix(I_ADDR + 12, I_ADDR + 20),
            });
        }
        let compress_algorithm = (flags & COMPR_FL != 0).then(|| {
            if inline & EXTRA_ATTR != 0 && extra_isize >= 33 {
                b.get(I_ADDR + 32).copied().unwrap_or(0)
            } else {
                0
            }
        });
        Ok(Inode {
            ino,
            at,
            mode: le16(b, 0),
            owner: (le32(b, 4), le32(b, 8)),
            advise: b.get(2).copied().unwrap_or(0),
            inline,
            casefold: flags & CASEFOLD_FL != 0,
            size: le64(b, 16),
            times,
            compress_algorithm,
            log_cluster_size,
            compress_flag,
            addrs_per_node: PER_BLOCK / cluster as u64 * cluster as u64,
            addrs,
            nids,
            inline_area,
        })
    }

    /// The largest size the inode's addressing can reach, in blocks.
    fn max_blocks(&self) -> u64 {
        let a = self.addrs_per_node;
        self.addrs.len() as u64 + 2 * a + 2 * PER_BLOCK * a + PER_BLOCK * PER_BLOCK * a
    }
}

/// One name in a folder.
#[derive(Debug, Clone)]
struct Dentry {
    name: Vec<u8>,
    ino: u32,
    file_type: u8,
    /// Byte offset of the dentry, for errors.
    at: u64,
    /// A name the kernel unlinked, recovered from the slots it freed.
    deleted: bool,
}

/// A dentry area (a dentry block, or an inode's inline dentries): `nr` slots, a little-endian
/// bitmap at its start, 11-byte dentries at `dentry_at`, 8-byte name slots at `name_at`;
/// `base` is its byte offset in the volume.
struct DentryArea<'a> {
    data: &'a [u8],
    nr: usize,
    dentry_at: usize,
    name_at: usize,
    base: u64,
}

/// F2FS's name hash (`f2fs_dentry_hash` without casefolding: TEA over the name in 16-byte
/// pieces, each padded with the length), as stored in every dentry.
fn dentry_hash(name: &[u8]) -> u32 {
    if name == b"." || name == b".." {
        return 0;
    }
    let mut buf: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    let mut rest = name;
    loop {
        let len = rest.len();
        let pad = {
            let p = (len as u32) | ((len as u32) << 8);
            p | (p << 16)
        };
        let mut input = [pad; 4];
        let mut val = pad;
        let take = len.min(16);
        for (i, &b) in rest[..take].iter().enumerate() {
            if i % 4 == 0 {
                val = pad;
            }
            val = u32::from(b).wrapping_add(val << 8);
            if i % 4 == 3 {
                input[i / 4] = val;
                val = pad;
            }
        }
        if !take.is_multiple_of(4) {
            input[take / 4] = val;
        }
        let (mut b0, mut b1, mut sum) = (buf[0], buf[1], 0u32);
        for _ in 0..16 {
            sum = sum.wrapping_add(0x9E37_79B9);
            b0 = b0.wrapping_add(
                ((b1 << 4).wrapping_add(input[0]))
                    ^ b1.wrapping_add(sum)
                    ^ ((b1 >> 5).wrapping_add(input[1])),
            );
            b1 = b1.wrapping_add(
                ((b0 << 4).wrapping_add(input[2]))
                    ^ b0.wrapping_add(sum)
                    ^ ((b0 >> 5).wrapping_add(input[3])),
            );
        }
        buf[0] = buf[0].wrapping_add(b0);
        buf[1] = buf[1].wrapping_add(b1);
        if len <= 16 {
            break;
        }
        rest = &rest[16..];
    }
    buf[0]
}

/// Parses a dentry area: live names (bitmap bit set) and, with `recover`, the deleted names the
/// kernel leaves behind when it unlinks (it clears the bitmap bits and nothing else): a slot
/// whose bits are all clear and whose dentry holds a plausible inode number, type and name
/// whose stored hash matches the name. Damaged live slots are skipped with a note; `.` and `..`
/// are left out.
fn parse_dentries(
    area: &DentryArea<'_>,
    recover: bool,
    out: &mut Vec<Dentry>,
    notes: &mut Vec<String>,
) {
    let data = area.data;
    let nr = area.nr;
    let bit = |i: usize| {
        data.get(i / 8)
            .is_some_and(|&byte| byte & (1 << (i % 8)) != 0)
    };
    let slot = |i: usize| {
        let d = area.dentry_at + i * DENTRY_SIZE;
        let len = usize::from(le16(data, d + 8));
        let name = data.get(area.name_at + i * SLOT_LEN..area.name_at + i * SLOT_LEN + len);
        (
            d,
            le32(data, d),
            le32(data, d + 4),
            len,
            data.get(d + 10).copied().unwrap_or(0),
            name,
        )
    };
    let mut i = 0;
    while i < nr {
        let (d, hash, ino, len, file_type, name) = slot(i);
        let slots = len.div_ceil(SLOT_LEN).max(1);
        let at = area.base + d as u64;
        if !bit(i) {
            let plausible = recover
                && ino != 0
                && (1..=7).contains(&file_type)
                && i + slots <= nr
                && (i..i + slots).all(|j| !bit(j))
                && name.is_some_and(|n| {
                    !n.is_empty() && !n.contains(&0) && !n.contains(&b'/') && dentry_hash(n) == hash
                });
            match name {
                Some(name) if plausible => {
                    out.push(Dentry {
                        name: name.to_vec(),
                        ino,
                        file_type,
                        at,
                        deleted: true,
                    });
                    i += slots;
                }
                _ => i += 1,
            }
            continue;
        }
        match name {
            Some(name) if len > 0 && len <= 255 && i + slots <= nr => {
                if ino != 0 && name != b"." && name != b".." {
                    out.push(Dentry {
                        name: name.to_vec(),
                        ino,
                        file_type,
                        at,
                        deleted: false,
                    });
                }
                i += slots;
            }
            _ => {
                notes.push(format!(
                    "dentry at byte {at}: name of {len} bytes in slot {i} of {nr} skipped"
                ));
                i += 1;
            }
        }
    }
}

impl Volume {
    fn corrupt(&self, offset: u64, detail: String) -> Error {
        Error::Corrupt {
            layer: self.layer.clone(),
            offset,
            detail,
        }
    }

    fn read_block(&self, block: u64) -> Result<Vec<u8>, Error> {
        let mut b = vec![0u8; BLOCK_USIZE];
        self.bytes.read_exact_at(block * BLOCK, &mut b)?;
        Ok(b)
    }

    /// The NAT entry of node `nid`; `referenced_at` is where the id was read.
    fn nat(&self, nid: u32, referenced_at: u64) -> Result<NatEntry, Error> {
        if nid == 0 || u64::from(nid) >= self.max_nid {
            return Err(self.corrupt(
                referenced_at,
                format!("node id {nid} outside 1..{}", self.max_nid),
            ));
        }
        if let Some(e) = self.nat_journal.get(&nid) {
            return Ok(*e);
        }
        let block_off = u64::from(nid) / NAT_PER_BLOCK;
        let seg = block_off / BLOCKS_PER_SEG;
        let mut block =
            u64::from(self.sb.nat_blkaddr) + seg * 2 * BLOCKS_PER_SEG + block_off % BLOCKS_PER_SEG;
        let byte = self
            .nat_bitmap
            .get((block_off / 8) as usize)
            .copied()
            .unwrap_or(0);
        if byte & (0x80 >> (block_off % 8)) != 0 {
            block += BLOCKS_PER_SEG;
        }
        let cached = self
            .nat_cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&block)
            .cloned();
        let data = match cached {
            Some(d) => d,
            None => {
                let d = Arc::new(self.read_block(block)?);
                self.nat_cache
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .put(block, d.clone());
                d
            }
        };
        let e = (u64::from(nid) % NAT_PER_BLOCK) as usize * 9;
        Ok(NatEntry {
            ino: le32(&data, e + 1),
            block: le32(&data, e + 5),
        })
    }

    /// The node block of `nid`, which must belong to inode `ino`.
    fn node(&self, nid: u32, ino: u32, referenced_at: u64) -> Result<Arc<Vec<u8>>, Error> {
        if let Some(hit) = self
            .node_cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&nid)
        {
            return Ok(hit.clone());
        }
        let e = self.nat(nid, referenced_at)?;
        if e.block == NULL_ADDR || e.block == NEW_ADDR {
            return Err(self.corrupt(referenced_at, format!("node {nid} has no block in the NAT")));
        }
        let block = u64::from(e.block);
        if block < u64::from(self.sb.main_blkaddr) || block >= self.sb.block_count {
            return Err(self.corrupt(
                referenced_at,
                format!("node {nid} at block {block}, outside the main area"),
            ));
        }
        let data = self.read_block(block)?;
        let (f_nid, f_ino) = (le32(&data, FOOTER), le32(&data, FOOTER + 4));
        if f_nid != nid || f_ino != ino || e.ino != ino {
            return Err(self.corrupt(
                block * BLOCK + FOOTER as u64,
                format!(
                    "node block of node {nid} (inode {ino}) says node {f_nid} of inode {f_ino} (NAT: inode {})",
                    e.ino
                ),
            ));
        }
        let data = Arc::new(data);
        self.node_cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .put(nid, data.clone());
        Ok(data)
    }

    fn inode(&self, ino: u32, referenced_at: u64) -> Result<Inode, Error> {
        let data = self.node(ino, ino, referenced_at)?;
        let at = u64::from(self.nat(ino, referenced_at)?.block) * BLOCK;
        Inode::parse(ino, at, &data, self.sb.features, &self.layer)
    }

    /// Word `i` of node block `nid` (an address of a direct node, a node id of an indirect one).
    fn node_word(&self, nid: u32, ino: u32, i: u64, referenced_at: u64) -> Result<u32, Error> {
        if nid == 0 {
            return Ok(0);
        }
        let data = self.node(nid, ino, referenced_at)?;
        Ok(le32(&data, (i as usize) * 4))
    }

    /// The block address of data block `index` of `inode` (0 for a hole).
    fn map(&self, inode: &Inode, index: u64) -> Result<u32, Error> {
        // Addresses per direct node (`a`), node ids per indirect node (`p`).
        let (a, p) = (inode.addrs_per_node, PER_BLOCK);
        let mut i = index;
        let n = inode.addrs.len() as u64;
        if i < n {
            return Ok(inode.addrs.get(i as usize).copied().unwrap_or(0));
        }
        i -= n;
        let at = inode.at;
        let ino = inode.ino;
        if i < 2 * a {
            return self.node_word(inode.nids[(i / a) as usize], ino, i % a, at);
        }
        i -= 2 * a;
        if i < 2 * p * a {
            let top = inode.nids[2 + (i / (p * a)) as usize];
            let direct = self.node_word(top, ino, (i / a) % p, at)?;
            return self.node_word(direct, ino, i % a, at);
        }
        i -= 2 * p * a;
        if i < p * p * a {
            let ind = self.node_word(inode.nids[4], ino, i / (p * a), at)?;
            let direct = self.node_word(ind, ino, (i / a) % p, at)?;
            return self.node_word(direct, ino, i % a, at);
        }
        Err(Error::TooLarge {
            layer: self.layer.clone(),
            offset: at,
            what: format!("block index of inode {ino}"),
            claimed: index,
            limit: inode.max_blocks(),
        })
    }

    /// Checks a data block address: a hole, or a block of the main area.
    fn data_block(&self, inode: &Inode, index: u64, addr: u32) -> Result<Option<u64>, Error> {
        match addr {
            NULL_ADDR | NEW_ADDR => Ok(None),
            COMPRESS_ADDR => Err(self.corrupt(
                inode.at,
                format!(
                    "inode {}: block {index} is a compressed-cluster marker in a file not marked compressed",
                    inode.ino
                ),
            )),
            a if u64::from(a) < u64::from(self.sb.main_blkaddr)
                || u64::from(a) >= self.sb.block_count =>
            {
                Err(self.corrupt(
                    inode.at,
                    format!(
                        "inode {}: block {index} at address {a}, outside the main area",
                        inode.ino
                    ),
                ))
            }
            a => Ok(Some(u64::from(a))),
        }
    }
}

/// The content of a regular file (or symlink) stored in blocks.
struct FileData {
    vol: Arc<Volume>,
    inode: Inode,
    layer: String,
}

impl ByteSource for FileData {
    fn len(&self) -> u64 {
        self.inode.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        let size = self.inode.size;
        if offset >= size {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(size - offset) as usize;
        let mut done = 0usize;
        while done < want {
            let pos = offset + done as u64;
            let index = pos / BLOCK;
            let within = (pos % BLOCK) as usize;
            // A run of physically contiguous blocks is read at once.
            let first = self.vol.map(&self.inode, index)?;
            let first = self.vol.data_block(&self.inode, index, first)?;
            let mut run = 1u64;
            let max_run = ((want - done + within) as u64).div_ceil(BLOCK);
            if let Some(phys) = first {
                while run < max_run {
                    let next = self.vol.map(&self.inode, index + run)?;
                    if u64::from(next) != phys + run {
                        break;
                    }
                    run += 1;
                }
            }
            let n = ((run * BLOCK) as usize - within).min(want - done);
            let dst = &mut buf[done..done + n];
            match first {
                None => dst.fill(0),
                Some(phys) => self
                    .vol
                    .bytes
                    .read_exact_at(phys * BLOCK + within as u64, dst)?,
            }
            done += n;
        }
        Ok(want)
    }

    fn layer_name(&self) -> String {
        self.layer.clone()
    }
}

/// `i_compress_algorithm` of LZO and LZ4.
const ALGO_LZO: u8 = 0;
const ALGO_LZ4: u8 = 1;
/// `i_compress_flag` bit: the clusters carry a checksum to verify.
const COMPRESS_CHKSUM: u16 = 1;
/// Header of a compressed cluster: `clen`, `chksum`, four reserved words.
const COMPRESS_HEADER: usize = 24;
/// Largest cluster accepted (the kernel allows 2^2 to 2^8 blocks).
const MAX_LOG_CLUSTER: u8 = 8;
/// Decompressed clusters kept in memory, per open file.
const CLUSTER_CACHE: usize = 16;

/// The content of a compressed regular file: clusters of `2^log_cluster_size` blocks, each
/// compressed (first address `COMPRESS_ADDR`; LZ4 or LZO) or stored as is.
struct CompressedData {
    vol: Arc<Volume>,
    inode: Inode,
    layer: String,
    cluster_blocks: u64,
    /// [`ALGO_LZO`] or [`ALGO_LZ4`].
    codec: u8,
    cache: Mutex<lru::LruCache<u64, Arc<Vec<u8>>>>,
}

impl CompressedData {
    fn new(vol: Arc<Volume>, inode: Inode, codec: u8) -> Result<CompressedData, Error> {
        let log = inode.log_cluster_size;
        if !(2..=MAX_LOG_CLUSTER).contains(&log) {
            return Err(vol.corrupt(
                inode.at,
                format!(
                    "inode {}: compressed with clusters of 2^{log} blocks (2^2 to 2^{MAX_LOG_CLUSTER} exist)",
                    inode.ino
                ),
            ));
        }
        let name = if codec == ALGO_LZ4 { "LZ4" } else { "LZO" };
        Ok(CompressedData {
            layer: format!("f2fs inode {} ({name} clusters)", inode.ino),
            cluster_blocks: 1 << log,
            codec,
            cache: Mutex::new(lru::LruCache::new(
                NonZeroUsize::new(CLUSTER_CACHE).unwrap_or(NonZeroUsize::MIN),
            )),
            vol,
            inode,
        })
    }

    /// The bytes of cluster `c` (a whole cluster; the file may end inside it).
    fn cluster(&self, c: u64) -> Result<Arc<Vec<u8>>, Error> {
        if let Some(hit) = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&c)
        {
            return Ok(hit.clone());
        }
        let n = self.cluster_blocks;
        let first = c * n;
        let ino = self.inode.ino;
        let mut out = vec![0u8; (n * BLOCK) as usize];
        let head = self.vol.map(&self.inode, first)?;
        if head == COMPRESS_ADDR {
            // The compressed blocks follow the marker, up to the first hole.
            let mut blocks = Vec::new();
            for i in 1..n {
                let addr = self.vol.map(&self.inode, first + i)?;
                match self.vol.data_block(&self.inode, first + i, addr)? {
                    Some(b) => blocks.push(b),
                    None => break,
                }
            }
            let corrupt = |detail: String| {
                self.vol.corrupt(
                    blocks.first().map_or(self.inode.at, |b| b * BLOCK),
                    format!(
                        "inode {ino}: compressed cluster {c} (blocks {first}..{}): {detail}",
                        first + n
                    ),
                )
            };
            if blocks.is_empty() {
                return Err(corrupt("no compressed block after the marker".into()));
            }
            let mut raw = vec![0u8; blocks.len() * BLOCK as usize];
            for (i, b) in blocks.iter().enumerate() {
                self.vol.bytes.read_exact_at(
                    b * BLOCK,
                    &mut raw[i * BLOCK as usize..(i + 1) * BLOCK as usize],
                )?;
            }
            let clen = le32(&raw, 0) as usize;
            let Some(cdata) = raw.get(COMPRESS_HEADER..COMPRESS_HEADER.saturating_add(clen)) else {
                return Err(corrupt(format!(
                    "{clen} compressed bytes claimed, {} blocks hold at most {}",
                    blocks.len(),
                    raw.len() - COMPRESS_HEADER
                )));
            };
            if self.inode.compress_flag & COMPRESS_CHKSUM != 0 {
                let (stored, computed) = (le32(&raw, 4), crc32(cdata));
                if stored != computed {
                    return Err(corrupt(format!(
                        "checksum {stored:#010x} stored, {computed:#010x} computed"
                    )));
                }
            }
            // Both decoders write into the cluster's buffer and no further.
            let (name, made) = if self.codec == ALGO_LZ4 {
                (
                    "LZ4",
                    lz4_flex::block::decompress_into(cdata, &mut out).map_err(|e| e.to_string()),
                )
            } else {
                (
                    "LZO",
                    lzo::decompress_into(cdata, &mut out).map_err(|e| format!("{e:?}")),
                )
            };
            match made {
                Ok(made) if made == out.len() => {}
                Ok(made) => {
                    return Err(corrupt(format!(
                        "{name} data inflates to {made} bytes, not the cluster's {}",
                        out.len()
                    )));
                }
                Err(e) => return Err(corrupt(format!("{name} data: {e}"))),
            }
        } else {
            for i in 0..n {
                let addr = if i == 0 {
                    head
                } else {
                    self.vol.map(&self.inode, first + i)?
                };
                if let Some(b) = self.vol.data_block(&self.inode, first + i, addr)? {
                    let at = (i * BLOCK) as usize;
                    self.vol
                        .bytes
                        .read_exact_at(b * BLOCK, &mut out[at..at + BLOCK as usize])?;
                }
            }
        }
        let out = Arc::new(out);
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .put(c, out.clone());
        Ok(out)
    }
}

impl ByteSource for CompressedData {
    fn len(&self) -> u64 {
        self.inode.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        let size = self.inode.size;
        if offset >= size {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(size - offset) as usize;
        let span = self.cluster_blocks * BLOCK;
        let mut done = 0usize;
        while done < want {
            let pos = offset + done as u64;
            let data = self.cluster(pos / span)?;
            let within = (pos % span) as usize;
            let n = (data.len() - within).min(want - done);
            buf[done..done + n].copy_from_slice(&data[within..within + n]);
            done += n;
        }
        Ok(want)
    }

    fn layer_name(&self) -> String {
        self.layer.clone()
    }
}

/// An F2FS volume.
pub struct F2fs {
    vol: Arc<Volume>,
    info: F2fsInfo,
    notes: Vec<String>,
    reading_notes: Mutex<Vec<String>>,
    records: Mutex<LruCache<u32, Arc<Vec<Dentry>>>>,
    dirs: Mutex<LruCache<String, Arc<[u32]>>>,
}

impl F2fs {
    /// Opens the volume: superblock, checkpoint, NAT.
    pub fn open(bytes: Bytes) -> Result<F2fs, Error> {
        let layer = "f2fs".to_string();
        let mut notes = Vec::new();
        let mut chosen = None;
        let mut first_err = None;
        for copy in 0..2u8 {
            let at = u64::from(copy) * BLOCK + SB_OFFSET;
            let mut b = vec![0u8; SB_LEN];
            let parsed = bytes
                .read_exact_at(at, &mut b)
                .and_then(|_| Superblock::parse(&b, at, &layer));
            match parsed {
                Ok(sb) => {
                    chosen = Some((copy, sb));
                    break;
                }
                Err(e) => {
                    if copy == 0 {
                        notes.push(format!("first superblock copy unusable: {e}"));
                    }
                    first_err.get_or_insert(e);
                }
            }
        }
        let Some((copy, sb)) = chosen else {
            return Err(first_err.unwrap_or_else(|| Error::Corrupt {
                layer: layer.clone(),
                offset: SB_OFFSET,
                detail: "no superblock".to_string(),
            }));
        };
        if copy == 0 {
            notes.clear();
        }
        if bytes.len() < sb.block_count.saturating_mul(BLOCK) {
            notes.push(format!(
                "the image holds {} bytes, the volume {} blocks of 4 KiB: blocks past the end read as truncated",
                bytes.len(),
                sb.block_count
            ));
        }
        let meta_end = u64::from(sb.main_blkaddr) * BLOCK;
        if bytes.len() < meta_end {
            return Err(Error::Truncated {
                layer,
                offset: bytes.len(),
                wanted: meta_end - bytes.len(),
            });
        }
        let cp = Checkpoint::read(bytes.as_ref(), &sb, &layer)?;
        for why in &cp.invalid {
            notes.push(format!("checkpoint {why}"));
        }
        if cp.pack == 1 {
            notes.push(format!(
                "checkpoint pack 1 (version {}) is used",
                cp.version
            ));
        }
        if cp.flags & CP_UMOUNT == 0 {
            notes.push("not cleanly unmounted: node blocks written after the last checkpoint (fsync roll-forward) are not replayed; the checkpointed state is shown".to_string());
        }
        if cp.flags & CP_ORPHAN_PRESENT != 0 {
            notes.push("orphan inodes are recorded in the checkpoint (files unlinked while open); they are not listed".to_string());
        }
        if cp.flags & CP_ERROR != 0 {
            notes.push(
                "the checkpoint carries the error flag (the kernel met corruption)".to_string(),
            );
        }
        if sb.features & FEATURE_ENCRYPT != 0 {
            notes.push("encrypt: folders with an fscrypt policy are listed with their stored (ciphertext) names; their files cannot be read without keys".to_string());
        }
        if sb.features & FEATURE_CASEFOLD != 0 {
            notes.push("casefold: names are shown as stored and matched byte-exact (case-sensitive); folders are read linearly, never through their name hash".to_string());
        }
        if sb.features & FEATURE_COMPRESSION != 0 {
            notes.push("compression: compressed files are reported as not supported".to_string());
        }
        let max_nid = u64::from(sb.segment_count_nat / 2) * BLOCKS_PER_SEG * NAT_PER_BLOCK;
        let info = F2fsInfo {
            label: sb.label.clone(),
            uuid: crate::probe::uuid_be(&sb.uuid).unwrap_or_default(),
            version: format!("{}.{}", sb.major, sb.minor),
            features: sb.feature_names(),
            block_count: sb.block_count,
            superblock_copy: copy,
            checkpoint_version: cp.version,
            checkpoint_pack: cp.pack,
            valid_inode_count: cp.valid_inode_count,
            root_ino: sb.root_ino,
        };
        let cap = |n: usize| NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN);
        Ok(F2fs {
            vol: Arc::new(Volume {
                bytes,
                sb,
                layer,
                max_nid,
                nat_bitmap: cp.nat_bitmap,
                nat_journal: cp.nat_journal,
                nat_cache: Mutex::new(LruCache::new(cap(NAT_CACHE))),
                node_cache: Mutex::new(LruCache::new(cap(NODE_CACHE))),
            }),
            info,
            notes,
            reading_notes: Mutex::new(Vec::new()),
            records: Mutex::new(LruCache::new(cap(RECORD_CACHE))),
            dirs: Mutex::new(LruCache::new(cap(DIR_CACHE))),
        })
    }

    pub fn info(&self) -> &F2fsInfo {
        &self.info
    }

    fn layer(&self) -> String {
        self.vol.layer.clone()
    }

    fn note(&self, note: String) {
        let mut notes = self.reading_notes.lock().unwrap_or_else(|p| p.into_inner());
        if notes.len() < MAX_NOTES && !notes.contains(&note) {
            notes.push(note);
        }
    }

    /// The bytes of an inline file (inline data), checked against its size.
    fn inline_bytes(&self, inode: &Inode) -> Result<Vec<u8>, Error> {
        let size = usize::try_from(inode.size).unwrap_or(usize::MAX);
        match inode.inline_area.get(..size) {
            Some(data) => Ok(data.to_vec()),
            None => Err(self.vol.corrupt(
                inode.at,
                format!(
                    "inode {}: inline data of {} bytes, but the inode holds {}",
                    inode.ino,
                    inode.size,
                    inode.inline_area.len()
                ),
            )),
        }
    }

    fn read_dir(&self, dir: &Inode, path: &str) -> Result<Vec<Dentry>, Error> {
        let mut out = Vec::new();
        let mut notes = Vec::new();
        // A casefold folder hashes the folded name: a freed slot's hash cannot be checked
        // without Unicode case folding, so nothing is recovered there.
        let recover = !dir.casefold;
        if dir.inline & INLINE_DENTRY != 0 {
            let area = &dir.inline_area;
            let max = area.len();
            let nr = max * 8 / ((DENTRY_SIZE + SLOT_LEN) * 8 + 1);
            let bitmap = nr.div_ceil(8);
            let reserved = max.saturating_sub((DENTRY_SIZE + SLOT_LEN) * nr + bitmap);
            let dentry_at = bitmap + reserved;
            let name_at = dentry_at + DENTRY_SIZE * nr;
            let base = dir.at + (I_ADDR as u64) + 4;
            let area = DentryArea {
                data: area,
                nr,
                dentry_at,
                name_at,
                base,
            };
            parse_dentries(&area, recover, &mut out, &mut notes);
        } else {
            if dir.size > MAX_DIR_BYTES {
                return Err(Error::TooLarge {
                    layer: self.layer(),
                    offset: dir.at,
                    what: format!("folder {path} (inode {})", dir.ino),
                    claimed: dir.size,
                    limit: MAX_DIR_BYTES,
                });
            }
            for index in 0..dir.size.div_ceil(BLOCK) {
                let addr = self.vol.map(dir, index)?;
                let Some(block) = self.vol.data_block(dir, index, addr)? else {
                    continue;
                };
                let data = self.vol.read_block(block)?;
                let dentry_at = DENTRY_BITMAP + DENTRY_RESERVED;
                let area = DentryArea {
                    data: &data,
                    nr: DENTRIES_PER_BLOCK,
                    dentry_at,
                    name_at: dentry_at + DENTRY_SIZE * DENTRIES_PER_BLOCK,
                    base: block * BLOCK,
                };
                parse_dentries(&area, recover, &mut out, &mut notes);
            }
        }
        for n in notes {
            self.note(format!("{path}: {n}"));
        }
        Ok(out)
    }

    fn records(&self, dir: &Inode, path: &str) -> Result<Arc<Vec<Dentry>>, Error> {
        if let Some(hit) = self
            .records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&dir.ino)
        {
            return Ok(hit.clone());
        }
        let records = Arc::new(self.read_dir(dir, path)?);
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .put(dir.ino, records.clone());
        Ok(records)
    }

    /// The inode a normalised path names.
    fn resolve(&self, norm: &str) -> Result<Inode, Error> {
        let comps: Vec<&str> = norm.split('/').filter(|c| !c.is_empty()).collect();
        if comps.len() > MAX_DIR_DEPTH {
            return Err(Error::TooDeep {
                layer: self.layer(),
                offset: 0,
                path: Some(crate::fs::shorten(norm)),
                what: "path".to_string(),
                limit: MAX_DIR_DEPTH as u64,
            });
        }
        // The folder chain of the deepest of the path's last few prefixes already resolved.
        let mut ends = Vec::with_capacity(comps.len());
        let mut end = 0;
        for c in &comps {
            end += 1 + c.len();
            ends.push(end);
        }
        let prefix = |k: usize| -> &str {
            match k {
                0 => "/",
                k => norm.get(..ends[k - 1]).unwrap_or(norm),
            }
        };
        let root = self.vol.sb.root_ino;
        let mut chain: Vec<u32> = vec![root];
        let mut start = 0;
        {
            let mut cache = self.dirs.lock().unwrap_or_else(|p| p.into_inner());
            for k in (comps.len().saturating_sub(RESOLVE_PROBE).max(1)..=comps.len()).rev() {
                if let Some(known) = cache.get(prefix(k)) {
                    chain = known.to_vec();
                    start = k;
                    break;
                }
            }
        }
        let mut ancestors: HashSet<u32> = chain.iter().copied().collect();
        let last = chain.last().copied().unwrap_or(root);
        let mut current = self.vol.inode(last, SB_OFFSET + 96)?;
        for (k, want) in comps.iter().enumerate().skip(start) {
            let here = prefix(k);
            if current.kind() != EntryKind::Dir {
                return Err(Error::WrongKind {
                    layer: self.layer(),
                    path: here.to_string(),
                    detail: "not a folder".to_string(),
                });
            }
            let records = self.records(&current, here)?;
            let live = || records.iter().filter(|d| !d.deleted);
            let found = live()
                .find(|d| d.name == want.as_bytes())
                .or_else(|| live().find(|d| display_name(&d.name) == *want))
                .ok_or_else(|| Error::NoEntry {
                    layer: self.layer(),
                    path: norm.to_string(),
                })?;
            let child = self.vol.inode(found.ino, found.at)?;
            if child.kind() == EntryKind::Dir {
                if !ancestors.insert(child.ino) {
                    return Err(self.vol.corrupt(
                        found.at,
                        format!(
                            "folder loop: {} is inode {}, one of its own ancestors",
                            prefix(k + 1),
                            child.ino
                        ),
                    ));
                }
                chain.push(child.ino);
                if k + RESOLVE_PROBE >= comps.len() {
                    self.dirs
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .put(prefix(k + 1).to_string(), Arc::from(&chain[..]));
                }
            }
            current = child;
        }
        Ok(current)
    }

    fn content(&self, inode: &Inode, path: &str) -> Result<Bytes, Error> {
        if inode.encrypted() {
            return Err(Error::Encrypted {
                layer: self.layer(),
                detail: format!(
                    "{path}: inode {} has an fscrypt policy and no key is available",
                    inode.ino
                ),
            });
        }
        if let Some(codec @ (ALGO_LZO | ALGO_LZ4)) = inode.compress_algorithm {
            return CompressedData::new(self.vol.clone(), inode.clone(), codec)
                .map(|c| Arc::new(c) as Bytes);
        }
        if let Some(algo) = inode.compress_algorithm {
            let codec = match algo {
                0 => "LZO".to_string(),
                1 => "LZ4".to_string(),
                2 => "zstd".to_string(),
                3 => "LZO-RLE".to_string(),
                n => format!("unknown ({n})"),
            };
            return Err(Error::Unsupported {
                layer: self.layer(),
                detail: format!(
                    "{path}: inode {} is compressed, codec {codec} not supported",
                    inode.ino
                ),
            });
        }
        let layer = format!("f2fs inode {}", inode.ino);
        if inode.inline & INLINE_DATA != 0 {
            return Ok(Arc::new(crate::bytes::Memory::new(
                self.inline_bytes(inode)?,
                layer,
            )));
        }
        if inode.size.div_ceil(BLOCK) > inode.max_blocks() {
            return Err(Error::TooLarge {
                layer: self.layer(),
                offset: inode.at + 16,
                what: format!("size of {path} (inode {})", inode.ino),
                claimed: inode.size,
                limit: inode.max_blocks() * BLOCK,
            });
        }
        Ok(Arc::new(FileData {
            vol: self.vol.clone(),
            inode: inode.clone(),
            layer,
        }))
    }

    fn link_target(&self, inode: &Inode, path: &str) -> Result<Option<String>, Error> {
        if inode.encrypted() {
            return Ok(None);
        }
        if inode.size > BLOCK {
            return Err(Error::TooLarge {
                layer: self.layer(),
                offset: inode.at + 16,
                what: format!("symbolic link target of {path} (inode {})", inode.ino),
                claimed: inode.size,
                limit: BLOCK,
            });
        }
        let data = self.content(inode, path)?;
        let mut buf = vec![0u8; data.len() as usize];
        data.read_exact_at(0, &mut buf)?;
        Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
    }

    fn entry(&self, path: String, name: String, inode: &Inode) -> Entry {
        let kind = inode.kind();
        let link_target = if kind == EntryKind::Symlink {
            self.link_target(inode, &path).unwrap_or_else(|e| {
                self.note(format!("{path}: symbolic link target unreadable: {e}"));
                None
            })
        } else {
            None
        };
        Entry {
            path,
            name,
            kind,
            size: inode.size,
            id: Some(u64::from(inode.ino)),
            mode: Some(u32::from(inode.mode)),
            deleted: false,
            times: inode.times.clone(),
            link_target,
            stored_name: None,
            owner: Some(inode.owner),
        }
    }
}

impl FileSystem for F2fs {
    fn format(&self) -> &str {
        "f2fs"
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        let norm = normalize_path(path);
        let dir = self.resolve(&norm)?;
        if dir.kind() != EntryKind::Dir {
            return Err(Error::WrongKind {
                layer: self.layer(),
                path: norm,
                detail: "not a folder".to_string(),
            });
        }
        let records = self.records(&dir, &norm)?;
        if dir.encrypted() {
            self.note(format!(
                "{norm}: folder (inode {}) has an fscrypt policy: its names are shown as stored (ciphertext where the kernel encrypted them) and its files cannot be read",
                dir.ino
            ));
        }
        let mut out = Vec::with_capacity(records.len());
        let live_names: HashSet<String> = records
            .iter()
            .filter(|d| !d.deleted)
            .map(|d| display_name(&d.name))
            .collect();
        let mut deleted_names = HashSet::new();
        for d in records.iter() {
            let kind_from_type = match d.file_type {
                1 => EntryKind::File,
                2 => EntryKind::Dir,
                7 => EntryKind::Symlink,
                _ => EntryKind::Other,
            };
            if d.deleted {
                // Named apart from any live or earlier deleted name, so every path is distinct;
                // never resolved as a path. The inode is usually freed: only the name is shown.
                let mut name = display_name(&d.name);
                if live_names.contains(&name) || !deleted_names.insert(name.clone()) {
                    name = format!("{name} (deleted #{})", d.ino);
                    deleted_names.insert(name.clone());
                }
                out.push(Entry {
                    path: join(&norm, &name),
                    name,
                    kind: kind_from_type,
                    size: 0,
                    id: Some(u64::from(d.ino)),
                    mode: None,
                    deleted: true,
                    times: Vec::new(),
                    link_target: None,
                    stored_name: None,
                    owner: None,
                });
                continue;
            }
            let name = display_name(&d.name);
            let child_path = join(&norm, &name);
            match self.vol.inode(d.ino, d.at) {
                Ok(child) => out.push(self.entry(child_path, name, &child)),
                Err(e) => {
                    self.note(format!("{child_path}: inode {} unreadable: {e}", d.ino));
                    out.push(Entry {
                        path: child_path,
                        name,
                        kind: kind_from_type,
                        size: 0,
                        id: Some(u64::from(d.ino)),
                        mode: None,
                        deleted: false,
                        times: Vec::new(),
                        link_target: None,
                        stored_name: None,
                        owner: None,
                    });
                }
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn stat(&self, path: &str) -> Result<Entry, Error> {
        let norm = normalize_path(path);
        let inode = self.resolve(&norm)?;
        let name = file_name(&norm).to_string();
        Ok(self.entry(norm, name, &inode))
    }

    fn open(&self, path: &str) -> Result<Bytes, Error> {
        let norm = normalize_path(path);
        let inode = self.resolve(&norm)?;
        if inode.kind() == EntryKind::Dir {
            return Err(Error::WrongKind {
                layer: self.layer(),
                path: norm,
                detail: "is a folder".to_string(),
            });
        }
        self.content(&inode, &norm)
    }

    fn diagnostics(&self) -> Vec<String> {
        let mut all = self.notes.clone();
        all.extend(
            self.reading_notes
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .cloned(),
        );
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_is_seeded_with_the_magic_and_not_inverted() {
        // f2fs_cal_crc32(F2FS_SUPER_MAGIC, "", 0) is the seed itself.
        assert_eq!(crc32(b""), MAGIC);
        // The same register as the standard CRC-32 run from the seed without its final
        // inversion: crc32fast-style `!update(!seed)` equivalence on one byte.
        let mut reg = MAGIC ^ 0x61;
        for _ in 0..8 {
            reg = (reg >> 1) ^ if reg & 1 != 0 { 0xEDB8_8320 } else { 0 };
        }
        assert_eq!(crc32(b"a"), reg);
    }

    #[test]
    fn names_that_are_not_utf8_stay_distinct_and_visible() {
        let check = |name: &[u8], want: &str| assert_eq!(display_name(name), want);
        check(b"plain.txt", "plain.txt");
        check("文件名.txt".as_bytes(), "文件名.txt");
        check(b"\xff\x00a", "\\xff\u{2400}a");
        check(b"a/b", "a\u{2215}b");
    }

    #[test]
    fn inline_dentry_geometry_matches_f2fs_fs_h() {
        // Default inode (no extra attributes, 50 inline xattr words): MAX_INLINE_DATA is
        // 4 * (923 - 50 - 1) = 3,488 bytes, NR_INLINE_DENTRY 182, bitmap 23, reserved 7.
        let max = 4 * (ADDRS_PER_INODE - DEFAULT_INLINE_XATTR_ADDRS - 1);
        let nr = max * 8 / ((DENTRY_SIZE + SLOT_LEN) * 8 + 1);
        assert_eq!((max, nr, nr.div_ceil(8)), (3488, 182, 23));
        assert_eq!(max - ((DENTRY_SIZE + SLOT_LEN) * nr + nr.div_ceil(8)), 7);
        // The regular dentry block: 27 + 3 + 214 * 11 + 214 * 8 = 4,096.
        assert_eq!(
            DENTRY_BITMAP + DENTRY_RESERVED + DENTRIES_PER_BLOCK * (DENTRY_SIZE + SLOT_LEN),
            BLOCK_USIZE
        );
    }

    #[test]
    fn dentry_slots_with_impossible_names_are_skipped_with_a_note() {
        // One block-sized area: slot 0 "ab" (ino 5), slot 1 a name running past the slots.
        let mut area = vec![0u8; BLOCK_USIZE];
        area[0] = 0b11;
        let d0 = DENTRY_BITMAP + DENTRY_RESERVED;
        area[d0 + 4..d0 + 8].copy_from_slice(&5u32.to_le_bytes());
        area[d0 + 8..d0 + 10].copy_from_slice(&2u16.to_le_bytes());
        area[d0 + 10] = 1;
        let names = d0 + DENTRY_SIZE * DENTRIES_PER_BLOCK;
        area[names..names + 2].copy_from_slice(b"ab");
        let d1 = d0 + DENTRY_SIZE;
        area[d1 + 4..d1 + 8].copy_from_slice(&6u32.to_le_bytes());
        area[d1 + 8..d1 + 10].copy_from_slice(&4000u16.to_le_bytes());
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        let area = DentryArea {
            data: &area,
            nr: DENTRIES_PER_BLOCK,
            dentry_at: d0,
            name_at: names,
            base: 0,
        };
        parse_dentries(&area, true, &mut out, &mut notes);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].name, b"ab");
        assert_eq!(out[0].ino, 5);
        assert_eq!(notes.len(), 1, "{notes:?}");
    }
}
