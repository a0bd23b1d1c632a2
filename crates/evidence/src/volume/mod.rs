//! Volume systems: GPT, MBR and Apple partition maps (APM).
//!
//! [`sniff`] tells whether a byte stream starts with a partition table; [`open`] reads it into a
//! [`VolumeSystem`] whose [`Partition`]s each carry their bytes as a [`Slice`] of the disk, ready
//! for [`crate::probe::probe`] and the file-system layers.
//!
//! - **GPT** is read with the `gpt` crate's header and entry-array readers (header CRC, entry CRC,
//!   names, GUIDs). Its `GptConfig::open_from_device` is not used: it asserts (panics) on an entry
//!   size other than 128, allocates the entry array from the header's count without a limit, and
//!   silently prefers whichever header is valid. Here every header field the crate would trust is
//!   checked first, the primary and backup headers are tried in turn, and which one was used (and
//!   why) is reported in [`VolumeSystem::diagnostics`]. When both entry arrays fail their CRC, or the
//!   entry size is not 128, the entries are parsed here (128-byte records, a dozen lines) and the
//!   mismatch is reported.
//! - **MBR**: the primary table is read with `mbrman` (`MBRHeader`, which checks the boot
//!   signature and boot flags). The chain of extended boot records is walked here, not with
//!   `mbrman::MBR::read_from`, because that walker adds untrusted 32-bit sector numbers without
//!   overflow checks (a panic on a crafted EBR in builds with overflow checks), has no bound on the
//!   chain length, and returns nothing at all when one link is bad, where an examiner wants the
//!   primaries and every logical partition before the bad link. Logical partitions are numbered
//!   from 5, as Linux (and `fdisk`, `sfdisk`, `/dev/sdaN`) numbers them; primaries keep their slot
//!   number 1–4.
//! - **APM** (Apple Partition Map: older Macs, Apple disk images, hybrid CDs such as the ones
//!   xorriso `-hfsplus` writes) is read by hand. The crates that read it (`apm-partition-core`,
//!   `apm-forensic`) parse the disk as one in-memory byte slice, where this layer reads a
//!   `ByteSource` block by block, and the format is small: a driver descriptor map in block 0
//!   and one fixed 512-byte record per block after it (the reader is about 150 lines besides
//!   its Mac OS Roman table, most of them bounds and diagnostics). Entries are numbered from 1
//!   in map order (the entry's block number: `mmls` slot + 1, and Linux's `/dev/sdaN`). Every
//!   entry is listed, the map's own (`Apple_partition_map`) and free space (`Apple_Free`)
//!   included, as `mmls` lists them; [`Partition::holds_data`] tells the scanner to leave those
//!   two unprobed, as it leaves an MBR extended container. The entry count is taken from the
//!   first entry, bounded by the disk and by `MAX_APM_ENTRIES` (1024); the map stops, with a
//!   diagnostic, at the first entry without its `PM` signature (TSK gives up on the whole map
//!   there).
//!
//! Partitions that extend beyond the end of the disk (a truncated image, a crafted entry) are kept
//! with their declared geometry, their bytes clamped to what the disk holds, and a diagnostic.

mod apm;
mod gpt;
mod mbr;
mod types;

use std::fmt;

use serde::Serialize;

use crate::Error;
use crate::bytes::{ByteSource, Bytes, Slice};

/// Which kind of partition table a disk holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VolumeKind {
    /// GUID partition table (UEFI), including a disk whose primary header is damaged but which
    /// has a protective MBR.
    Gpt,
    /// DOS/MBR partition table, with extended and logical partitions.
    Mbr,
    /// Apple Partition Map.
    Apm,
}

impl VolumeKind {
    /// Short name: `gpt`, `mbr` or `apm`.
    pub fn name(self) -> &'static str {
        match self {
            VolumeKind::Gpt => "gpt",
            VolumeKind::Mbr => "mbr",
            VolumeKind::Apm => "apm",
        }
    }
}

/// What a partition entry is within its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartitionRole {
    /// An entry of a GPT entry array.
    Gpt,
    /// A primary MBR entry (slots 1–4).
    Primary,
    /// A primary MBR entry of an extended type: the container of the logical partitions.
    Extended,
    /// A logical partition found by walking the extended boot records.
    Logical,
    /// An entry of an Apple partition map (the map's own entry and free space included).
    Apm,
}

/// One partition of a [`VolumeSystem`].
#[derive(Clone, Serialize)]
pub struct Partition {
    /// 1-based number in table order: the GPT entry slot; for MBR the primary slot (1–4) and
    /// 5, 6, … for logical partitions in chain order; for APM the map entry (its block number).
    pub index: u32,
    /// GPT partition name (UTF-16 in the entry, up to the first NUL); the APM entry's name (Mac
    /// OS Roman); empty for MBR.
    pub name: String,
    /// Kind of entry (GPT, primary, extended container, logical, APM).
    pub role: PartitionRole,
    /// GPT type GUID (upper case, hyphenated), MBR type byte as `0x83`, or APM type string
    /// (`Apple_HFS`, `Apple_Free`…).
    pub type_id: String,
    /// Human name of the type (`Linux filesystem`, `Microsoft basic data`, `Linux`, `Extended`…),
    /// or `unknown` when the type is not in the tables; for APM the type string again.
    pub type_name: String,
    /// GPT unique partition GUID (upper case); `None` for MBR and APM.
    pub guid: Option<String>,
    /// GPT attribute bits; for MBR the boot indicator byte (0x80 = active); for APM the status
    /// word (`pmPartStatus`).
    pub attributes: u64,
    /// First sector (logical block, for APM in the map's block size), absolute on the disk.
    pub first_lba: u64,
    /// Last sector (inclusive), absolute on the disk.
    pub last_lba: u64,
    /// Number of sectors as declared by the table.
    pub sector_count: u64,
    /// Byte offset of the partition on the disk.
    pub offset: u64,
    /// Declared size in bytes. `bytes.len()` is smaller when the disk ends before the partition
    /// does (reported in the diagnostics).
    pub size: u64,
    /// The partition's content, a [`Slice`] of the disk named `partition N (name)`.
    #[serde(skip)]
    pub bytes: Bytes,
}

impl Partition {
    /// Whether the partition is there to hold data (a file system, raw data), which the scanner
    /// probes: `false` for an MBR extended container (its EBRs belong to the table), an APM's
    /// own map entry and its free-space entries.
    pub fn holds_data(&self) -> bool {
        match self.role {
            PartitionRole::Extended => false,
            PartitionRole::Apm => self.type_id != apm::MAP_TYPE && self.type_id != apm::FREE_TYPE,
            PartitionRole::Gpt | PartitionRole::Primary | PartitionRole::Logical => true,
        }
    }
}

impl fmt::Debug for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Partition")
            .field("index", &self.index)
            .field("name", &self.name)
            .field("role", &self.role)
            .field("type_id", &self.type_id)
            .field("type_name", &self.type_name)
            .field("guid", &self.guid)
            .field("attributes", &self.attributes)
            .field("first_lba", &self.first_lba)
            .field("last_lba", &self.last_lba)
            .field("sector_count", &self.sector_count)
            .field("offset", &self.offset)
            .field("size", &self.size)
            .field("readable_len", &self.bytes.len())
            .finish()
    }
}

/// A partition table and its partitions.
#[derive(Debug, Clone, Serialize)]
pub struct VolumeSystem {
    /// GPT, MBR or APM.
    pub kind: VolumeKind,
    /// Logical sector size in bytes (512 or 4096 for GPT; 512 for MBR; the map's block size for
    /// APM, usually 512).
    pub sector_size: u32,
    /// GPT disk GUID (upper case); for MBR the 32-bit disk signature as 8 hex digits (what
    /// `lsblk` shows as PTUUID), `None` when it is zero; `None` for APM, which has no identifier.
    pub disk_guid: Option<String>,
    /// Partitions in table order. For MBR the extended container is listed (role
    /// [`PartitionRole::Extended`]) before its logical partitions.
    pub partitions: Vec<Partition>,
    /// What was odd but did not stop the table from being read: a damaged primary GPT header and
    /// the backup used instead, a missing backup, partitions beyond the disk, a loop in an EBR
    /// chain, an APM entry without its signature, overlapping partitions.
    pub diagnostics: Vec<String>,
}

impl VolumeSystem {
    /// The partition named by a 1-based index (`"3"`) or a GPT name (`"userdata"`). An index
    /// takes precedence; names match exactly first, then ignoring ASCII case. With duplicate
    /// names the first in table order is returned.
    pub fn find(&self, index_or_name: &str) -> Option<&Partition> {
        if let Ok(index) = index_or_name.parse::<u32>()
            && let Some(p) = self.partitions.iter().find(|p| p.index == index)
        {
            return Some(p);
        }
        if index_or_name.is_empty() {
            return None;
        }
        self.partitions
            .iter()
            .find(|p| p.name == index_or_name)
            .or_else(|| {
                self.partitions
                    .iter()
                    .find(|p| p.name.eq_ignore_ascii_case(index_or_name))
            })
    }
}

/// Largest GPT entry array accepted (entries × entry size); real tables hold 128 entries of 128
/// bytes (16 KiB).
pub(crate) const MAX_GPT_TABLE_BYTES: u64 = 4 << 20;
/// Most logical partitions followed in one EBR chain.
pub(crate) const MAX_LOGICAL_PARTITIONS: usize = 1024;
/// Most entries read from one Apple partition map (Apple's tools make maps of 63 blocks).
pub(crate) const MAX_APM_ENTRIES: u32 = 1024;

/// Whether `bytes` starts with a partition table, and which.
///
/// GPT: `EFI PART` at LBA 1 for 512- or 4096-byte sectors, or a protective MBR (type 0xEE) whose
/// GPT header may be damaged. APM: block 0 is a driver descriptor map (`ER`) or zeros, and block
/// 1 (of 512 bytes, of the map's block size, or of 4096) holds `PM` with a map of at least one
/// entry and a printable type. MBR: the 0x55AA signature at 510, four plausible entries (boot
/// flag 0x00 or 0x80; a used entry starts after sector 0 and has sectors), at least one used, and
/// the sector is not a FAT, NTFS, exFAT or BitLocker boot sector (those end with 0x55AA as well).
/// Checked in that order: a protective MBR with a GPT stays GPT, and a disk whose block 0 is both
/// a driver descriptor map and an MBR (a hybrid CD) is read as the APM it holds.
pub fn sniff(bytes: &dyn ByteSource) -> Option<VolumeKind> {
    for lba1 in [512u64, 4096] {
        let mut sig = [0u8; 8];
        if bytes.read_exact_at(lba1, &mut sig).is_ok() && &sig == b"EFI PART" {
            return Some(VolumeKind::Gpt);
        }
    }
    let mut sector = [0u8; 512];
    bytes.read_exact_at(0, &mut sector).ok()?;
    let entries = mbr::plausible_table(&sector);
    if entries
        .as_ref()
        .is_some_and(|e| e.iter().any(|e| e.kind == 0xEE))
    {
        return Some(VolumeKind::Gpt);
    }
    if apm::sniff(bytes, &sector).is_some() {
        return Some(VolumeKind::Apm);
    }
    if entries.is_none() || crate::bootsect::boot_sector_format(&sector).is_some() {
        return None;
    }
    Some(VolumeKind::Mbr)
}

/// Whether `sector` is a plausible MBR whose used entries all end within `len` bytes (the
/// prober's test for preferring the table over a superblock found on the same bytes).
pub(crate) fn mbr_entries_fit(sector: &[u8], len: u64) -> bool {
    let Some(sector) = sector
        .get(..512)
        .and_then(|s| <&[u8; 512]>::try_from(s).ok())
    else {
        return false;
    };
    mbr::plausible_table(sector).is_some_and(|entries| {
        entries
            .iter()
            .filter(|e| e.kind != 0 && e.sectors != 0)
            .all(|e| (u64::from(e.start) + u64::from(e.sectors)) * 512 <= len)
    })
}

/// Reads the partition table of a disk.
///
/// Errors: [`Error::Unsupported`] when there is no partition table; [`Error::Corrupt`] when
/// neither GPT header (nor entry array) is usable; [`Error::TooLarge`] when the header claims an
/// absurd entry array; read errors of the layer below. Anything odd that still allowed reading
/// (backup header used, partitions beyond the disk, a looping EBR chain, an APM that stops early)
/// is in [`VolumeSystem::diagnostics`].
pub fn open(bytes: &Bytes) -> Result<VolumeSystem, Error> {
    match sniff(&**bytes) {
        Some(VolumeKind::Gpt) => gpt::open(bytes),
        Some(VolumeKind::Mbr) => mbr::open(bytes),
        Some(VolumeKind::Apm) => apm::open(bytes),
        None => Err(Error::Unsupported {
            layer: bytes.layer_name(),
            detail: "no GPT, MBR or Apple partition map".to_string(),
        }),
    }
}

/// Builds a partition's byte range, clamping it to the disk and recording why.
pub(crate) struct Geometry {
    pub first_lba: u64,
    pub sector_count: u64,
    pub sector_size: u64,
}

impl Geometry {
    pub(crate) fn last_lba(&self) -> u64 {
        self.first_lba
            .saturating_add(self.sector_count)
            .saturating_sub(1)
    }

    /// Offset and declared size in bytes, saturating (a crafted entry can overflow).
    pub(crate) fn byte_range(&self) -> (u64, u64) {
        (
            self.first_lba.saturating_mul(self.sector_size),
            self.sector_count.saturating_mul(self.sector_size),
        )
    }
}

/// Makes a [`Partition`], clamping its bytes to the disk and noting it in `diagnostics`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn make_partition(
    disk: &Bytes,
    index: u32,
    name: String,
    role: PartitionRole,
    type_id: String,
    type_name: String,
    guid: Option<String>,
    attributes: u64,
    geometry: &Geometry,
    diagnostics: &mut Vec<String>,
) -> Partition {
    let (offset, size) = geometry.byte_range();
    let label = if name.is_empty() {
        format!("partition {index}")
    } else {
        format!("partition {index} ({name})")
    };
    let disk_len = disk.len();
    let end = offset.saturating_add(size);
    if size > 0 && offset >= disk_len {
        diagnostics.push(format!(
            "{label}: starts at byte {offset} (sector {}), beyond the end of the disk ({disk_len} bytes); it has no readable bytes",
            geometry.first_lba
        ));
    } else if size > 0 && end > disk_len {
        diagnostics.push(format!(
            "{label}: ends at byte {end} (sector {}), beyond the end of the disk ({disk_len} bytes); only its first {} bytes are readable",
            geometry.last_lba(),
            disk_len.saturating_sub(offset)
        ));
    }
    let bytes: Bytes = std::sync::Arc::new(Slice::new(disk.clone(), offset, size, label));
    Partition {
        index,
        name,
        role,
        type_id,
        type_name,
        guid,
        attributes,
        first_lba: geometry.first_lba,
        last_lba: geometry.last_lba(),
        sector_count: geometry.sector_count,
        offset,
        size,
        bytes,
    }
}

/// Reports partitions that overlap one another (extended containers excepted: they hold their
/// logical partitions by design). A sweep over the partitions sorted by first sector: each is
/// compared with the one reaching furthest so far.
pub(crate) fn report_overlaps(partitions: &[Partition], diagnostics: &mut Vec<String>) {
    let mut spans: Vec<&Partition> = partitions
        .iter()
        .filter(|p| p.role != PartitionRole::Extended && p.sector_count > 0)
        .collect();
    spans.sort_by_key(|p| (p.first_lba, p.index));
    let mut furthest: Option<&Partition> = None;
    for p in spans {
        if let Some(f) = furthest {
            if p.first_lba <= f.last_lba {
                diagnostics.push(format!(
                    "partitions {} and {} overlap (sectors {}-{} and {}-{})",
                    f.index, p.index, f.first_lba, f.last_lba, p.first_lba, p.last_lba
                ));
            }
            if p.last_lba > f.last_lba {
                furthest = Some(p);
            }
        } else {
            furthest = Some(p);
        }
    }
}

/// Most diagnostics kept for one table (a crafted table could produce one per entry).
const MAX_DIAGNOSTICS: usize = 200;

/// Keeps the first [`MAX_DIAGNOSTICS`] diagnostics and says how many were left out.
pub(crate) fn cap_diagnostics(diagnostics: &mut Vec<String>) {
    if diagnostics.len() > MAX_DIAGNOSTICS {
        let more = diagnostics.len() - MAX_DIAGNOSTICS;
        diagnostics.truncate(MAX_DIAGNOSTICS);
        diagnostics.push(format!("… and {more} more diagnostics of the same table"));
    }
}

#[cfg(test)]
mod tests;
