//! FAT12, FAT16 and FAT32, read by hand, including deleted directory entries.
//!
//! # Why no crate
//! `fatfs` 0.3 reads live files byte-exact, but an examiner needs what it hides or cannot give:
//! deleted entries (first byte 0xE5) with their long names, a stable identifier for each entry
//! (the directory entry's position), the raw date/time words, and a guarantee that a crafted
//! volume cannot hang or panic the reader (a looping cluster chain under a directory makes an
//! unbounded walk; its types are also not `Sync`). Doing both — `fatfs` for live files and a
//! second parser for deleted ones — would mean two readings of the same directories that can
//! disagree. FAT is small and fully specified (Microsoft's *FAT32 File System Specification*
//! 1.03), so one hand-written reader presents live and deleted entries from a single pass over
//! each directory. The test suite uses `fatfs` as an independent oracle for the live files.
//!
//! # What it presents
//! - Entries named by their long name (LFN) when its checksum matches the short entry, else by
//!   the 8.3 short name (CP437, with the Windows NT lower-case flags applied).
//! - `id` = the address The Sleuth Kit gives the entry (`fls`/`istat` "inode"): the root is 2 and
//!   any other entry is `3 + (byte offset of its short entry − start of the data area) / 32`,
//!   where the data area starts right after the FATs (so it includes the FAT12/16 root
//!   directory). Stable, unique, and directly comparable with TSK output.
//! - Times as raw words ([`RawTime::FatLocal`]): modified (date, time), accessed (date only, time
//!   0), created (date, time, 10 ms units 0–199). A time whose date word is 0 (unset) is omitted.
//! - Deleted entries (`deleted: true`): the short name loses its first byte, shown as `_` (as TSK
//!   does); the long name is recovered when the deleted LFN slots just before it are consistent
//!   (same checksum, a checksum that a valid first character satisfies). Their content is a best
//!   effort: the recorded first cluster and the clusters that follow it contiguously, because
//!   deletion zeroes the chain in the FAT; the stream's layer name says so. A deleted directory
//!   is listed from its first cluster only, if that cluster still starts with its `.` entry.
//! - If a deleted name collides with another name in the same directory, it becomes
//!   `name (deleted #id)` (a live duplicate, only possible in a corrupt directory, becomes
//!   `name (duplicate #id)`), so every entry has a distinct path.
//! - Volume labels are not listed as entries (fls shows them as `(Volume Label Entry)`); they are
//!   in [`FatInfo`].
//!
//! # Hostile input
//! Boot-sector fields are validated before use; cluster numbers are range-checked; every chain
//! walk stops at the number of clusters the file needs (files) or at the directory size limit
//! (directories) and detects revisited clusters; a directory that contains one of its own
//! ancestors is refused when entered ([`Error::Corrupt`] "directory loop"), so a recursive
//! walker cannot loop.

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;
use serde::Serialize;

use crate::Error;
use crate::bytes::{ByteSource, Bytes};
use crate::fs::{Entry, EntryKind, FileSystem, RawTime, Time, TimeRole, normalize_path};

/// Opens a FAT12/16/32 volume that fills `bytes` (boot sector at offset 0).
pub fn open(bytes: Bytes) -> Result<Arc<dyn FileSystem>, Error> {
    Ok(Arc::new(FatFs::load(bytes)?))
}

/// The FAT variant, decided by the cluster count as the specification says (FAT32 when the
/// boot sector has the FAT32 layout, i.e. a 16-bit FAT size of 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FatType {
    /// Fewer than 4,085 clusters, 12-bit FAT entries.
    Fat12,
    /// 4,085 to 65,524 clusters, 16-bit FAT entries.
    Fat16,
    /// FAT32 boot-sector layout, 28-bit FAT entries, root directory in a cluster chain.
    Fat32,
}

impl FatType {
    /// `fat12`, `fat16` or `fat32`.
    pub fn name(self) -> &'static str {
        match self {
            FatType::Fat12 => "fat12",
            FatType::Fat16 => "fat16",
            FatType::Fat32 => "fat32",
        }
    }
}

/// Facts about a FAT volume, from its boot sector and root directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FatInfo {
    pub fat_type: FatType,
    /// OEM name in the boot sector (e.g. `mkfs.fat`, `MSDOS5.0`), trailing spaces removed.
    pub oem_name: String,
    /// Volume serial number, where the extended boot signature says it is present.
    pub volume_id: Option<u32>,
    /// Label in the boot sector, where present and not `NO NAME`.
    pub boot_label: Option<String>,
    /// Label of the volume-label entry in the root directory, if any.
    pub root_label: Option<String>,
    /// Sector size from the boot sector (512–4096).
    pub bytes_per_sector: u32,
    /// Sectors per cluster from the boot sector (1–128).
    pub sectors_per_cluster: u32,
    /// Cluster size in bytes.
    pub cluster_size: u32,
    /// Number of data clusters (cluster numbers 2 ..= cluster_count + 1).
    pub cluster_count: u32,
    /// Sectors before the first FAT (the boot sector included).
    pub reserved_sectors: u32,
    /// Number of FAT copies; the first is the one read.
    pub fat_count: u32,
    /// Size of one FAT in sectors.
    pub sectors_per_fat: u32,
    /// Sectors in the volume, as the boot sector claims.
    pub total_sectors: u32,
    /// Byte offset of the first data cluster (cluster 2).
    pub data_offset: u64,
    /// First cluster of the root directory (FAT32 only).
    pub root_cluster: Option<u32>,
    /// Capacity of the fixed root directory in entries (FAT12/16 only).
    pub root_entries: Option<u32>,
}

/// The largest directory FAT allows: 65,536 entries of 32 bytes.
const MAX_DIR_BYTES: u64 = 65_536 * 32;
/// FAT bytes cached per block, and blocks kept.
const FAT_BLOCK: u64 = 64 * 1024;
const FAT_CACHE_BLOCKS: usize = 64;
/// TSK's address of the root directory, and the first address of an ordinary entry.
const ROOT_ID: u64 = 2;
const FIRST_ENTRY_ID: u64 = 3;

const ATTR_READ_ONLY: u8 = 0x01;
const ATTR_HIDDEN: u8 = 0x02;
const ATTR_SYSTEM: u8 = 0x04;
const ATTR_VOLUME_ID: u8 = 0x08;
const ATTR_DIRECTORY: u8 = 0x10;
const ATTR_LONG_NAME: u8 = ATTR_READ_ONLY | ATTR_HIDDEN | ATTR_SYSTEM | ATTR_VOLUME_ID;

/// A FAT volume.
pub struct FatFs {
    bytes: Bytes,
    layer: String,
    info: FatInfo,
    /// Byte offset of the first FAT.
    fat_offset: u64,
    /// Byte length of one FAT.
    fat_len: u64,
    /// Byte offset and length of the fixed root directory (FAT12/16).
    root_region: (u64, u64),
    /// Byte offset where TSK's entry addresses start (right after the FATs).
    id_base: u64,
    fat_cache: Mutex<LruCache<u64, Arc<Vec<u8>>>>,
    diagnostics: Vec<String>,
}

/// Where a directory's entries are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DirLoc {
    /// The root directory (fixed region on FAT12/16, a cluster chain on FAT32).
    Root,
    /// A subdirectory starting at a cluster; `deleted` directories are read from their first
    /// cluster only.
    Clusters { first: u32, deleted: bool },
}

/// One directory entry as stored, with its resolved name.
#[derive(Debug, Clone)]
struct RawEntry {
    name: String,
    attr: u8,
    deleted: bool,
    first_cluster: u32,
    size: u32,
    created_centis: u8,
    created_time: u16,
    created_date: u16,
    accessed_date: u16,
    modified_time: u16,
    modified_date: u16,
    /// Byte offset of the short entry in the volume.
    offset: u64,
}

impl RawEntry {
    fn is_dir(&self) -> bool {
        self.attr & ATTR_DIRECTORY != 0
    }
}

/// What a FAT entry says about the next cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Free,
    Cluster(u32),
    End,
    Bad,
    /// A value that is neither a valid cluster number nor a marker.
    Invalid(u32),
}

/// A resolved path.
struct Resolved {
    /// `None` for the root.
    entry: Option<RawEntry>,
    /// The canonical path (names as stored).
    path: String,
    /// Whether the entry or one of its ancestors is deleted.
    deleted_ancestor: bool,
    /// First clusters of the directories on the way (the root included), for loop detection.
    ancestors: Vec<u32>,
}

fn le16(b: &[u8], at: usize) -> u16 {
    match b.get(at..at + 2) {
        Some(s) => u16::from_le_bytes([s[0], s[1]]),
        None => 0,
    }
}

fn le32(b: &[u8], at: usize) -> u32 {
    match b.get(at..at + 4) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

impl FatFs {
    /// Reads and validates the boot sector and the root directory.
    pub fn load(bytes: Bytes) -> Result<FatFs, Error> {
        let layer = format!("fat ({})", bytes.layer_name());
        let corrupt = |offset: u64, detail: String| Error::Corrupt {
            layer: layer.clone(),
            offset,
            detail,
        };
        let mut bs = [0u8; 512];
        bytes.read_exact_at(0, &mut bs).map_err(|e| match e {
            Error::Truncated { offset, wanted, .. } => Error::Truncated {
                layer: layer.clone(),
                offset,
                wanted,
            },
            other => other,
        })?;

        let bps = u32::from(le16(&bs, 11));
        if !(512..=4096).contains(&bps) || !bps.is_power_of_two() {
            return Err(corrupt(
                11,
                format!("bytes per sector {bps} (must be 512, 1024, 2048 or 4096)"),
            ));
        }
        let spc = u32::from(bs[13]);
        if spc == 0 || !spc.is_power_of_two() {
            return Err(corrupt(
                13,
                format!("sectors per cluster {spc} (must be a power of two 1–128)"),
            ));
        }
        let reserved = u32::from(le16(&bs, 14));
        if reserved == 0 {
            return Err(corrupt(14, "reserved sector count 0".into()));
        }
        let fat_count = u32::from(bs[16]);
        if fat_count == 0 {
            return Err(corrupt(16, "number of FATs 0".into()));
        }
        let root_entries = u32::from(le16(&bs, 17));
        let media = bs[21];
        if media != 0xF0 && media < 0xF8 {
            return Err(corrupt(21, format!("media descriptor 0x{media:02X}")));
        }
        let fat16_size = u32::from(le16(&bs, 22));
        let is_fat32_layout = fat16_size == 0;
        let sectors_per_fat = if is_fat32_layout {
            le32(&bs, 36)
        } else {
            fat16_size
        };
        if sectors_per_fat == 0 {
            return Err(corrupt(36, "sectors per FAT 0".into()));
        }
        let total16 = u32::from(le16(&bs, 19));
        let total_sectors = if total16 != 0 { total16 } else { le32(&bs, 32) };
        if total_sectors == 0 {
            return Err(corrupt(19, "total sector count 0".into()));
        }
        if is_fat32_layout && root_entries != 0 {
            return Err(corrupt(
                17,
                format!("FAT32 layout with {root_entries} fixed root entries"),
            ));
        }

        let bps64 = u64::from(bps);
        let root_dir_sectors = (u64::from(root_entries) * 32).div_ceil(bps64);
        let fats_end = u64::from(reserved) + u64::from(fat_count) * u64::from(sectors_per_fat);
        let first_data_sector = fats_end + root_dir_sectors;
        if first_data_sector >= u64::from(total_sectors) {
            return Err(corrupt(
                19,
                format!(
                    "data area starts at sector {first_data_sector}, beyond the {total_sectors} sectors of the volume"
                ),
            ));
        }
        let cluster_count64 = (u64::from(total_sectors) - first_data_sector) / u64::from(spc);
        if cluster_count64 == 0 {
            return Err(corrupt(13, "no data cluster".into()));
        }
        let fat_type = if is_fat32_layout {
            FatType::Fat32
        } else if cluster_count64 < 4085 {
            FatType::Fat12
        } else if cluster_count64 < 65525 {
            FatType::Fat16
        } else {
            return Err(corrupt(
                22,
                format!("{cluster_count64} clusters is too many for the FAT12/16 layout"),
            ));
        };
        if cluster_count64 > 0x0FFF_FFF5 {
            return Err(corrupt(
                32,
                format!("{cluster_count64} clusters exceeds the FAT32 maximum"),
            ));
        }
        let cluster_count = cluster_count64 as u32;
        let fat_len = u64::from(sectors_per_fat) * bps64;
        let entries = cluster_count64 + 2;
        let fat_needed = match fat_type {
            FatType::Fat12 => (entries * 3).div_ceil(2),
            FatType::Fat16 => entries * 2,
            FatType::Fat32 => entries * 4,
        };
        if fat_len < fat_needed {
            return Err(corrupt(
                22,
                format!("a FAT of {fat_len} bytes cannot map {cluster_count} clusters"),
            ));
        }

        let (ext, root_cluster) = if is_fat32_layout {
            let rc = le32(&bs, 44);
            if rc < 2 || u64::from(rc) > cluster_count64 + 1 {
                return Err(corrupt(44, format!("root cluster {rc} out of range")));
            }
            (64usize, Some(rc))
        } else {
            (36usize, None)
        };
        let has_ext = bs[ext + 2] == 0x29;
        let volume_id = has_ext.then(|| le32(&bs, ext + 3));
        let boot_label = if has_ext {
            bs.get(ext + 7..ext + 18)
                .map(decode_label)
                .filter(|l| !l.is_empty() && l != "NO NAME")
        } else {
            None
        };
        let oem_name = decode_label(&bs[3..11]);

        let data_offset = first_data_sector * bps64;
        if bytes.len() < data_offset {
            return Err(Error::Truncated {
                layer: layer.clone(),
                offset: bytes.len(),
                wanted: data_offset,
            });
        }
        let mut diagnostics = Vec::new();
        let volume_len = u64::from(total_sectors) * bps64;
        if bytes.len() < volume_len {
            diagnostics.push(format!(
                "the image holds {} of the volume's {volume_len} bytes: clusters past its end cannot be read",
                bytes.len()
            ));
        }

        let info = FatInfo {
            fat_type,
            oem_name,
            volume_id,
            boot_label,
            root_label: None,
            bytes_per_sector: bps,
            sectors_per_cluster: spc,
            cluster_size: bps * spc,
            cluster_count,
            reserved_sectors: reserved,
            fat_count,
            sectors_per_fat,
            total_sectors,
            data_offset,
            root_cluster,
            root_entries: (!is_fat32_layout).then_some(root_entries),
        };
        let cache_cap = NonZeroUsize::new(FAT_CACHE_BLOCKS).unwrap_or(NonZeroUsize::MIN);
        let mut fs = FatFs {
            bytes,
            layer,
            info,
            fat_offset: u64::from(reserved) * bps64,
            fat_len,
            root_region: (fats_end * bps64, u64::from(root_entries) * 32),
            id_base: fats_end * bps64,
            fat_cache: Mutex::new(LruCache::new(cache_cap)),
            diagnostics: Vec::new(),
        };
        let (root, _) = fs.read_dir(DirLoc::Root)?;
        fs.info.root_label = root.label;
        diagnostics.extend(root.notes);
        fs.diagnostics = diagnostics;
        Ok(fs)
    }

    /// Facts about the volume.
    pub fn info(&self) -> &FatInfo {
        &self.info
    }

    fn corrupt(&self, offset: u64, detail: impl Into<String>) -> Error {
        Error::Corrupt {
            layer: self.layer.clone(),
            offset,
            detail: detail.into(),
        }
    }

    fn max_cluster(&self) -> u32 {
        self.info.cluster_count + 1
    }

    fn valid_cluster(&self, c: u32) -> bool {
        c >= 2 && c <= self.max_cluster()
    }

    fn cluster_offset(&self, c: u32) -> u64 {
        self.info.data_offset + u64::from(c.saturating_sub(2)) * u64::from(self.info.cluster_size)
    }

    /// Reads `buf.len()` bytes of the first FAT at `offset` (relative to the FAT), through the cache.
    fn read_fat(&self, offset: u64, buf: &mut [u8]) -> Result<(), Error> {
        for (i, b) in buf.iter_mut().enumerate() {
            let at = offset + i as u64;
            if at >= self.fat_len {
                return Err(self.corrupt(self.fat_offset + at, "FAT entry beyond the FAT"));
            }
            let block_no = at / FAT_BLOCK;
            let block = {
                let mut cache = self.fat_cache.lock().unwrap_or_else(|e| e.into_inner());
                cache.get(&block_no).cloned()
            };
            let block = match block {
                Some(b) => b,
                None => {
                    let start = block_no * FAT_BLOCK;
                    let len = FAT_BLOCK.min(self.fat_len - start) as usize;
                    let mut data = vec![0u8; len];
                    self.bytes
                        .read_exact_at(self.fat_offset + start, &mut data)?;
                    let data = Arc::new(data);
                    let mut cache = self.fat_cache.lock().unwrap_or_else(|e| e.into_inner());
                    cache.put(block_no, data.clone());
                    data
                }
            };
            *b = *block.get((at % FAT_BLOCK) as usize).ok_or_else(|| {
                self.corrupt(self.fat_offset + at, "FAT block shorter than expected")
            })?;
        }
        Ok(())
    }

    /// The FAT entry of cluster `c`.
    fn next(&self, c: u32) -> Result<Next, Error> {
        let c64 = u64::from(c);
        let (raw, end, bad) = match self.info.fat_type {
            FatType::Fat12 => {
                let mut b = [0u8; 2];
                self.read_fat(c64 + c64 / 2, &mut b)?;
                let v = u16::from_le_bytes(b);
                let v = if c & 1 == 1 { v >> 4 } else { v & 0x0FFF };
                (u32::from(v), 0xFF8, 0xFF7)
            }
            FatType::Fat16 => {
                let mut b = [0u8; 2];
                self.read_fat(c64 * 2, &mut b)?;
                (u32::from(u16::from_le_bytes(b)), 0xFFF8, 0xFFF7)
            }
            FatType::Fat32 => {
                let mut b = [0u8; 4];
                self.read_fat(c64 * 4, &mut b)?;
                (
                    u32::from_le_bytes(b) & 0x0FFF_FFFF,
                    0x0FFF_FFF8,
                    0x0FFF_FFF7,
                )
            }
        };
        Ok(match raw {
            0 => Next::Free,
            v if v >= end => Next::End,
            v if v == bad => Next::Bad,
            v if self.valid_cluster(v) => Next::Cluster(v),
            v => Next::Invalid(v),
        })
    }

    /// Follows a chain from `first`, collecting at most `max_clusters` clusters as extents of
    /// `(first cluster, count)`. Stops at the end marker; a revisited cluster is a loop.
    /// With `exact`, the chain must hold `max_clusters` clusters.
    fn chain(&self, first: u32, max_clusters: u64, exact: bool) -> Result<Vec<(u32, u32)>, Error> {
        let mut extents: Vec<(u32, u32)> = Vec::new();
        let mut visited: BTreeMap<u32, u32> = BTreeMap::new(); // start -> last (inclusive)
        let mut cur = first;
        let mut taken: u64 = 0;
        while taken < max_clusters {
            if !self.valid_cluster(cur) {
                return Err(self.corrupt(
                    self.info.data_offset,
                    format!("cluster chain from {first} reaches invalid cluster {cur}"),
                ));
            }
            if let Some((_, &last)) = visited.range(..=cur).next_back()
                && last >= cur
            {
                return Err(self.corrupt(
                    self.fat_offset,
                    format!(
                        "cluster chain loop: chain from cluster {first} returns to cluster {cur}"
                    ),
                ));
            }
            match extents.last_mut() {
                Some((start, count)) if u64::from(*start) + u64::from(*count) == u64::from(cur) => {
                    *count += 1;
                    visited.insert(*start, cur);
                }
                _ => {
                    extents.push((cur, 1));
                    visited.insert(cur, cur);
                }
            }
            taken += 1;
            if taken == max_clusters {
                break;
            }
            match self.next(cur)? {
                Next::Cluster(n) => cur = n,
                Next::End if !exact => break,
                other => {
                    return Err(self.corrupt(
                        self.fat_offset,
                        format!(
                            "cluster chain from {first} ends after {taken} cluster(s) at cluster {cur} ({other:?})"
                        ),
                    ));
                }
            }
        }
        Ok(extents)
    }

    /// Reads a directory: its bytes and the volume offset of each chunk.
    fn dir_bytes(&self, loc: DirLoc) -> Result<(Vec<u8>, Vec<u64>, u64), Error> {
        match loc {
            DirLoc::Root if self.info.fat_type != FatType::Fat32 => {
                let (off, len) = self.root_region;
                let mut data = vec![0u8; len as usize];
                self.bytes.read_exact_at(off, &mut data)?;
                Ok((data, vec![off], len.max(1)))
            }
            DirLoc::Root => {
                let first = self.info.root_cluster.unwrap_or(2);
                self.cluster_dir_bytes(first, false)
            }
            DirLoc::Clusters { first, deleted } => self.cluster_dir_bytes(first, deleted),
        }
    }

    fn cluster_dir_bytes(
        &self,
        first: u32,
        deleted: bool,
    ) -> Result<(Vec<u8>, Vec<u64>, u64), Error> {
        let cs = u64::from(self.info.cluster_size);
        let extents = if deleted {
            if !self.valid_cluster(first) {
                return Ok((Vec::new(), Vec::new(), cs));
            }
            vec![(first, 1)]
        } else {
            let max = MAX_DIR_BYTES.div_ceil(cs);
            let extents = self.chain(first, max + 1, false)?;
            let clusters: u64 = extents.iter().map(|&(_, n)| u64::from(n)).sum();
            if clusters > max {
                return Err(Error::TooLarge {
                    layer: self.layer.clone(),
                    offset: self.cluster_offset(first),
                    what: format!("directory at cluster {first}"),
                    claimed: clusters * cs,
                    limit: MAX_DIR_BYTES,
                });
            }
            extents
        };
        let mut data = Vec::new();
        let mut chunks = Vec::new();
        for (start, count) in extents {
            for c in start..start + count {
                let off = self.cluster_offset(c);
                let at = data.len();
                data.resize(at + cs as usize, 0);
                self.bytes.read_exact_at(off, &mut data[at..])?;
                chunks.push(off);
            }
        }
        Ok((data, chunks, cs))
    }

    /// Parses a directory into its entries (volume labels and dot entries left out).
    fn read_dir(&self, loc: DirLoc) -> Result<(ParsedDir, bool), Error> {
        let (data, chunks, chunk_len) = self.dir_bytes(loc)?;
        let deleted_dir = matches!(loc, DirLoc::Clusters { deleted: true, .. });
        if deleted_dir {
            // A deleted directory's first cluster is trusted only if it still starts with ".".
            let plausible = data.get(0..11) == Some(b".          ".as_slice())
                && data.get(11).is_some_and(|a| a & ATTR_DIRECTORY != 0);
            if !plausible {
                return Ok((ParsedDir::default(), true));
            }
        }
        let offset_of = |i: usize| -> u64 {
            let byte = i as u64 * 32;
            let chunk = (byte / chunk_len) as usize;
            chunks.get(chunk).copied().unwrap_or(0) + byte % chunk_len
        };
        let fat32 = self.info.fat_type == FatType::Fat32;
        Ok((parse_dir(&data, offset_of, deleted_dir, fat32), deleted_dir))
    }

    /// The entries of a directory with their final (unique) names, in on-disk order.
    fn named_entries(&self, loc: DirLoc) -> Result<Vec<RawEntry>, Error> {
        let (parsed, _) = self.read_dir(loc)?;
        let mut used: BTreeSet<String> = BTreeSet::new();
        let mut out = Vec::with_capacity(parsed.entries.len());
        // Live names first, so a deleted entry never takes a live entry's name.
        let (live, dead): (Vec<RawEntry>, Vec<RawEntry>) =
            parsed.entries.into_iter().partition(|e| !e.deleted);
        for mut e in live.into_iter().chain(dead) {
            if used.contains(&e.name) {
                let id = self.entry_id(&e);
                e.name = if e.deleted {
                    format!("{} (deleted #{id})", e.name)
                } else {
                    format!("{} (duplicate #{id})", e.name)
                };
            }
            used.insert(e.name.clone());
            out.push(e);
        }
        Ok(out)
    }

    fn entry_id(&self, e: &RawEntry) -> u64 {
        e.offset.saturating_sub(self.id_base) / 32 + FIRST_ENTRY_ID
    }

    fn root_key(&self) -> u32 {
        self.info.root_cluster.unwrap_or(0)
    }

    fn resolve(&self, path: &str) -> Result<Resolved, Error> {
        let norm = normalize_path(path);
        let mut loc = DirLoc::Root;
        let mut ancestors = vec![self.root_key()];
        let mut entry: Option<RawEntry> = None;
        let mut canonical = String::new();
        let mut deleted_ancestor = false;
        let parts: Vec<&str> = norm.split('/').filter(|p| !p.is_empty()).collect();
        for (i, part) in parts.iter().enumerate() {
            if let Some(e) = &entry {
                loc = self.enter(e, &canonical, &ancestors, deleted_ancestor)?;
                ancestors.push(e.first_cluster);
            }
            let entries = self.named_entries(loc)?;
            let found = entries
                .iter()
                .find(|e| e.name == *part)
                .or_else(|| {
                    let mut ci = entries
                        .iter()
                        .filter(|e| !e.deleted && e.name.eq_ignore_ascii_case(part));
                    match (ci.next(), ci.next()) {
                        (Some(one), None) => Some(one),
                        _ => None,
                    }
                })
                .cloned();
            let Some(found) = found else {
                return Err(Error::NoEntry {
                    layer: self.layer.clone(),
                    path: norm.clone(),
                });
            };
            if i + 1 < parts.len() && !found.is_dir() {
                return Err(Error::WrongKind {
                    layer: self.layer.clone(),
                    path: format!("{canonical}/{}", found.name),
                    detail: "not a directory".into(),
                });
            }
            canonical.push('/');
            canonical.push_str(&found.name);
            deleted_ancestor |= found.deleted;
            entry = Some(found);
        }
        Ok(Resolved {
            entry,
            path: if canonical.is_empty() {
                "/".into()
            } else {
                canonical
            },
            deleted_ancestor,
            ancestors,
        })
    }

    /// The location of a directory entry's contents, refusing loops.
    fn enter(
        &self,
        e: &RawEntry,
        path: &str,
        ancestors: &[u32],
        deleted: bool,
    ) -> Result<DirLoc, Error> {
        if (e.deleted || deleted) && !self.valid_cluster(e.first_cluster) {
            // A deleted directory whose cluster was wiped: nothing left to list.
            return Ok(DirLoc::Clusters {
                first: e.first_cluster,
                deleted: true,
            });
        }
        if e.first_cluster == 0 && !e.deleted {
            // Some tools point ".." at the root with cluster 0; a named directory never may.
            return Err(self.corrupt(e.offset, format!("directory {path} has no first cluster")));
        }
        if ancestors.contains(&e.first_cluster) {
            return Err(self.corrupt(
                e.offset,
                format!(
                    "directory loop: {path} starts at cluster {}, which belongs to itself or an ancestor",
                    e.first_cluster
                ),
            ));
        }
        if !e.deleted && !deleted && !self.valid_cluster(e.first_cluster) {
            return Err(self.corrupt(
                e.offset,
                format!(
                    "directory {path} starts at invalid cluster {}",
                    e.first_cluster
                ),
            ));
        }
        Ok(DirLoc::Clusters {
            first: e.first_cluster,
            deleted: e.deleted || deleted,
        })
    }

    fn to_entry(&self, e: &RawEntry, path: String, deleted_ancestor: bool) -> Entry {
        let mut times = Vec::new();
        if e.modified_date != 0 {
            times.push(Time {
                role: TimeRole::Modified,
                raw: RawTime::FatLocal {
                    date: e.modified_date,
                    time: e.modified_time,
                    centis: 0,
                },
            });
        }
        if e.accessed_date != 0 {
            times.push(Time {
                role: TimeRole::Accessed,
                raw: RawTime::FatLocal {
                    date: e.accessed_date,
                    time: 0,
                    centis: 0,
                },
            });
        }
        if e.created_date != 0 {
            times.push(Time {
                role: TimeRole::Created,
                raw: RawTime::FatLocal {
                    date: e.created_date,
                    time: e.created_time,
                    centis: e.created_centis,
                },
            });
        }
        Entry {
            name: e.name.clone(),
            path,
            kind: if e.is_dir() {
                EntryKind::Dir
            } else {
                EntryKind::File
            },
            size: if e.is_dir() { 0 } else { u64::from(e.size) },
            id: Some(self.entry_id(e)),
            mode: None,
            deleted: e.deleted || deleted_ancestor,
            times,
            link_target: None,
            stored_name: None,
            owner: None,
        }
    }

    fn root_entry(&self) -> Entry {
        Entry {
            path: "/".into(),
            name: "/".into(),
            kind: EntryKind::Dir,
            size: 0,
            id: Some(ROOT_ID),
            mode: None,
            deleted: false,
            times: Vec::new(),
            link_target: None,
            stored_name: None,
            owner: None,
        }
    }

    /// The content of a deleted file: its first cluster and the ones after it, as many as its
    /// size needs (deletion erased the chain). Returns the extents and how many of those
    /// clusters are now allocated to something else.
    fn deleted_extents(&self, e: &RawEntry) -> Result<(Vec<(u32, u32)>, u32), Error> {
        let cs = u64::from(self.info.cluster_size);
        let needed = u64::from(e.size).div_ceil(cs);
        if needed == 0 {
            return Ok((Vec::new(), 0));
        }
        if !self.valid_cluster(e.first_cluster) {
            return Err(Error::Unsupported {
                layer: self.layer.clone(),
                detail: format!(
                    "deleted entry #{} records first cluster {}: its content cannot be located",
                    self.entry_id(e),
                    e.first_cluster
                ),
            });
        }
        let available = u64::from(self.max_cluster() - e.first_cluster) + 1;
        let count = needed.min(available) as u32;
        let mut allocated = 0;
        for c in e.first_cluster..e.first_cluster + count {
            if self.next(c)? != Next::Free {
                allocated += 1;
            }
        }
        Ok((vec![(e.first_cluster, count)], allocated))
    }

    fn stream(&self, extents: &[(u32, u32)], size: u64, name: String) -> Bytes {
        let cs = u64::from(self.info.cluster_size);
        let mut runs = Vec::with_capacity(extents.len());
        let mut file_off = 0u64;
        for &(start, count) in extents {
            let len = u64::from(count) * cs;
            runs.push((file_off, self.cluster_offset(start), len));
            file_off += len;
        }
        Arc::new(ClusterStream {
            bytes: self.bytes.clone(),
            runs,
            len: size.min(file_off),
            name,
        })
    }
}

impl FileSystem for FatFs {
    fn format(&self) -> &str {
        self.info.fat_type.name()
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        let r = self.resolve(path)?;
        let loc = match &r.entry {
            None => DirLoc::Root,
            Some(e) if e.is_dir() => self.enter(e, &r.path, &r.ancestors, r.deleted_ancestor)?,
            Some(_) => {
                return Err(Error::WrongKind {
                    layer: self.layer.clone(),
                    path: r.path,
                    detail: "not a directory".into(),
                });
            }
        };
        let mut out: Vec<Entry> = self
            .named_entries(loc)?
            .iter()
            .map(|e| {
                let p = crate::fs::join(&r.path, &e.name);
                self.to_entry(e, p, r.deleted_ancestor)
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn stat(&self, path: &str) -> Result<Entry, Error> {
        let r = self.resolve(path)?;
        Ok(match &r.entry {
            None => self.root_entry(),
            Some(e) => self.to_entry(e, r.path.clone(), r.deleted_ancestor),
        })
    }

    fn open(&self, path: &str) -> Result<Bytes, Error> {
        let r = self.resolve(path)?;
        let e = match &r.entry {
            Some(e) if !e.is_dir() => e,
            _ => {
                return Err(Error::WrongKind {
                    layer: self.layer.clone(),
                    path: r.path,
                    detail: "not a regular file".into(),
                });
            }
        };
        let size = u64::from(e.size);
        if r.deleted_ancestor {
            let (extents, allocated) = self.deleted_extents(e)?;
            let total: u32 = extents.iter().map(|&(_, n)| n).sum();
            let name = format!(
                "{} deleted file {} (best effort: first cluster {} and the {} cluster(s) after it; {allocated} of {total} now allocated elsewhere)",
                self.info.fat_type.name(),
                r.path,
                e.first_cluster,
                total.saturating_sub(1),
            );
            return Ok(self.stream(&extents, size, name));
        }
        if size == 0 {
            return Ok(self.stream(
                &[],
                0,
                format!("{} file {}", self.info.fat_type.name(), r.path),
            ));
        }
        let needed = size.div_ceil(u64::from(self.info.cluster_size));
        let extents = self.chain(e.first_cluster, needed, true)?;
        Ok(self.stream(
            &extents,
            size,
            format!("{} file {}", self.info.fat_type.name(), r.path),
        ))
    }

    fn diagnostics(&self) -> Vec<String> {
        self.diagnostics.clone()
    }
}

/// A file's clusters read as one stream.
struct ClusterStream {
    bytes: Bytes,
    /// (offset in the file, offset in the volume, length)
    runs: Vec<(u64, u64, u64)>,
    len: u64,
    name: String,
}

impl ByteSource for ClusterStream {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        let mut done = 0usize;
        while done < buf.len() {
            let pos = offset + done as u64;
            if pos >= self.len {
                break;
            }
            let idx = self.runs.partition_point(|&(start, _, _)| start <= pos);
            let Some(&(start, vol, len)) = idx.checked_sub(1).and_then(|i| self.runs.get(i)) else {
                break;
            };
            let within = pos - start;
            if within >= len {
                break;
            }
            let want = (len - within)
                .min(self.len - pos)
                .min((buf.len() - done) as u64) as usize;
            let n = self
                .bytes
                .read_at(vol + within, &mut buf[done..done + want])?;
            if n == 0 {
                return Err(Error::Truncated {
                    layer: self.name.clone(),
                    offset: pos,
                    wanted: want as u64,
                });
            }
            done += n;
        }
        Ok(done)
    }

    fn layer_name(&self) -> String {
        self.name.clone()
    }
}

#[derive(Default)]
struct ParsedDir {
    entries: Vec<RawEntry>,
    label: Option<String>,
    notes: Vec<String>,
}

/// One long-name slot.
struct LfnSlot {
    ord: u8,
    checksum: u8,
    units: [u16; 13],
}

/// Parses directory bytes. `offset_of(i)` gives the volume offset of slot `i`.
fn parse_dir(
    data: &[u8],
    offset_of: impl Fn(usize) -> u64,
    deleted_dir: bool,
    fat32: bool,
) -> ParsedDir {
    let mut out = ParsedDir::default();
    let mut pending: Vec<LfnSlot> = Vec::new();
    for (i, slot) in data.chunks_exact(32).enumerate() {
        let first = slot[0];
        if first == 0x00 {
            break;
        }
        let attr = slot[11];
        if attr & 0x3F == ATTR_LONG_NAME {
            let mut units = [0u16; 13];
            for (k, at) in [1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30]
                .iter()
                .enumerate()
            {
                units[k] = le16(slot, *at);
            }
            pending.push(LfnSlot {
                ord: first,
                checksum: slot[13],
                units,
            });
            continue;
        }
        let lfn = std::mem::take(&mut pending);
        let deleted = first == 0xE5 || deleted_dir;
        let short: [u8; 11] = match slot[0..11].try_into() {
            Ok(s) => s,
            Err(_) => continue,
        };
        if attr & ATTR_VOLUME_ID != 0 {
            if first != 0xE5 && out.label.is_none() {
                out.label = Some(decode_label(&short)).filter(|l| !l.is_empty());
            }
            continue;
        }
        if first == b'.' {
            // "." and ".." (never a real name: a leading dot is not allowed in 8.3 names).
            continue;
        }
        let name = long_name(&lfn, &short, first == 0xE5)
            .unwrap_or_else(|| short_name(&short, slot[12], first == 0xE5));
        let name = sanitize(&name);
        // The high word of the first cluster exists only on FAT32 (FAT12/16: reserved).
        let hi = if fat32 { u32::from(le16(slot, 20)) } else { 0 };
        out.entries.push(RawEntry {
            name,
            attr,
            deleted,
            first_cluster: (hi << 16) | u32::from(le16(slot, 26)),
            size: le32(slot, 28),
            created_centis: slot[13],
            created_time: le16(slot, 14),
            created_date: le16(slot, 16),
            accessed_date: le16(slot, 18),
            modified_time: le16(slot, 22),
            modified_date: le16(slot, 24),
            offset: offset_of(i),
        });
    }
    out
}

/// The 8.3 checksum of a short name.
fn lfn_checksum(short: &[u8; 11]) -> u8 {
    short
        .iter()
        .fold(0u8, |sum, &b| (sum >> 1 | (sum & 1) << 7).wrapping_add(b))
}

/// The long name of a short entry, from the LFN slots just before it (physical order: last part
/// first). For a deleted entry the ordinals are overwritten by 0xE5, so the slots must agree on
/// a checksum that some valid first character of the short name satisfies.
fn long_name(slots: &[LfnSlot], short: &[u8; 11], deleted: bool) -> Option<String> {
    if slots.is_empty() || slots.len() > 20 {
        return None;
    }
    let sum = slots[0].checksum;
    if slots.iter().any(|s| s.checksum != sum) {
        return None;
    }
    if deleted {
        if slots.iter().any(|s| s.ord != 0xE5) {
            return None;
        }
        let mut candidate = *short;
        let ok = (0x20u8..=0xFF).any(|c| {
            candidate[0] = c;
            c != 0xE5 && valid_short_char(c) && lfn_checksum(&candidate) == sum
        });
        if !ok {
            return None;
        }
    } else {
        let n = slots.len();
        if slots[0].ord & 0x40 == 0 || usize::from(slots[0].ord & 0x1F) != n {
            return None;
        }
        for (k, s) in slots.iter().enumerate() {
            if usize::from(s.ord & 0x1F) != n - k {
                return None;
            }
        }
        if lfn_checksum(short) != sum {
            return None;
        }
    }
    let mut units: Vec<u16> = Vec::with_capacity(slots.len() * 13);
    'outer: for s in slots.iter().rev() {
        for &u in &s.units {
            if u == 0 {
                break 'outer;
            }
            units.push(u);
        }
    }
    while units.last() == Some(&0xFFFF) {
        units.pop();
    }
    if units.is_empty() {
        return None;
    }
    Some(String::from_utf16_lossy(&units))
}

fn valid_short_char(c: u8) -> bool {
    c > 0x20 && !b"\"*+,./:;<=>?[\\]|".contains(&c) && !c.is_ascii_lowercase()
}

/// An 8.3 name, with the NT lower-case flags (0x08 base, 0x10 extension) and `_` for the
/// erased first byte of a deleted entry.
fn short_name(short: &[u8; 11], nt_flags: u8, deleted: bool) -> String {
    let mut base: Vec<u8> = short[0..8].to_vec();
    if deleted {
        base[0] = b'_';
    } else if base[0] == 0x05 {
        base[0] = 0xE5;
    }
    let trim = |v: &[u8]| -> Vec<u8> {
        let end = v.iter().rposition(|&b| b != b' ').map_or(0, |p| p + 1);
        v[..end].to_vec()
    };
    let mut base = trim(&base);
    let mut ext = trim(&short[8..11]);
    if nt_flags & 0x08 != 0 {
        base.make_ascii_lowercase();
    }
    if nt_flags & 0x10 != 0 {
        ext.make_ascii_lowercase();
    }
    let mut name = decode_oem(&base);
    if !ext.is_empty() {
        name.push('.');
        name.push_str(&decode_oem(&ext));
    }
    name
}

/// A label or OEM field: CP437, trailing spaces and NULs removed.
fn decode_label(b: &[u8]) -> String {
    decode_oem(b).trim_end_matches([' ', '\0']).to_string()
}

/// Decodes OEM bytes as code page 437 (the DOS default; the volume does not say which page).
fn decode_oem(b: &[u8]) -> String {
    const HIGH: &str = "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}";
    b.iter()
        .map(|&c| {
            if c < 0x80 {
                char::from(c)
            } else {
                HIGH.chars()
                    .nth(usize::from(c - 0x80))
                    .unwrap_or('\u{FFFD}')
            }
        })
        .collect()
}

/// Makes a stored name safe as a path component: no `/` or NUL, never empty, `.` or `..`.
fn sanitize(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| if c == '/' || c == '\0' { '\u{FFFD}' } else { c })
        .collect();
    match cleaned.as_str() {
        "" => "\u{FFFD}".into(),
        "." | ".." => cleaned.replace('.', "\u{FFFD}"),
        _ => cleaned,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_and_short_names_follow_the_specification() {
        // Example from the specification's algorithm: checksum of "README  TXT".
        let short: [u8; 11] = *b"README  TXT";
        let mut sum: u8 = 0;
        for b in short {
            sum = (if sum & 1 != 0 { 0x80 } else { 0 }) + (sum >> 1);
            sum = sum.wrapping_add(b);
        }
        assert_eq!(lfn_checksum(&short), sum);
        assert_eq!(short_name(b"SHORT   TXT", 0x18, false), "short.txt");
        assert_eq!(short_name(b"GONE    TXT", 0, true), "_ONE.TXT");
        assert_eq!(short_name(b"\x05BC     TXT", 0, false), "σBC.TXT");
        assert_eq!(short_name(b"DIR1       ", 0, false), "DIR1");
        assert_eq!(sanitize(".."), "\u{FFFD}\u{FFFD}");
        assert_eq!(sanitize("a/b"), "a\u{FFFD}b");
    }
}
