//! VMware virtual disks (VMDK) as a [`ByteSource`] of the virtual disk: hosted sparse extents
//! (`KDMV`, versions 1–3) holding their descriptor, as `monolithicSparse` and
//! `streamOptimized` images are; text descriptor files whose disk is in extent files beside
//! them (`twoGbMaxExtentSparse`, `monolithicFlat`, `twoGbMaxExtentFlat`, ESXi `vmfs`), and
//! differencing children read over their parent ([`VmdkDisk`]).
//!
//! # Why a hand-written reader
//!
//! No maintained Rust crate reading VMDK sparse extents over a positioned byte source with typed
//! errors was found (the documentation index had none; the crates.io search was unreachable
//! from here); a sparse extent is a header, a descriptor and a two-level table, so it is read
//! here against VMware's "Virtual Disk Format 5.0" technote (header, grain directory, grain
//! tables, grain markers of stream-optimized extents), checked against what `qemu-img` writes.
//!
//! # Reading
//!
//! The grain directory (GD) lists grain tables (GT), whose entries give each grain's sector in
//! the file. A GD or GT entry of 0 is an unallocated grain and reads as zeros (no parent is
//! read); a GT entry of 1 is a zeroed grain (newer versions) and reads as zeros too. With the
//! "compressed grains" flag (stream-optimized images) each grain starts with its LBA and the
//! size of its compressed data (zlib, or raw deflate), and is inflated to at most one grain.
//! A header whose GD offset is `GD_AT_END` takes the GD offset from the footer copy of the header
//! (the 512 bytes before the end-of-stream marker, 1 KiB before the end of the file). A sparse
//! extent without an embedded descriptor (one extent of a split image, opened alone) reads as
//! the disk of its own capacity.
//!
//! # Extent files and parents
//!
//! [`VmdkDisk::open`] reads a descriptor's extents in order — `SPARSE` (a sparse extent file),
//! `FLAT` and `VMFS` (raw bytes of a file from a sector offset), `ZERO` — from the files beside
//! it ([`crate::beside::Beside`]); a differencing child (`parentFileNameHint`) reads the grains
//! it never wrote from its parent disk (a VMDK, in turn), while a zeroed grain stays zeros.
//!
//! # What is refused
//!
//! Without a folder to look in (a VMDK inside a partition or an archive), a descriptor file and
//! a differencing child are refused with [`Error::Unsupported`] naming the files they need; a
//! file that is not beside them is [`Error::MissingFile`]; `VMFSSPARSE`/`SESPARSE`/raw-device
//! extents, a parent named only by its CID, and compression other than deflate are refused.
//!
//! # Untrusted input
//!
//! The grain size, GT size and capacity are checked; the descriptor and the GD are bounded
//! ([`MAX_DESCRIPTOR_BYTES`], [`MAX_GD_BYTES`], [`Error::TooLarge`]); every GT and grain offset
//! is checked against the file's length before it is read; a compressed grain's stored size is
//! bounded and it inflates to at most one grain; GTs and inflated grains are cached in bounded
//! LRUs.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use flate2::{Decompress, FlushDecompress, Status};
use lru::LruCache;
use serde::Serialize;

use crate::beside::Beside;
use crate::bytes::{ByteSource, Bytes, Concat, Slice, Zeros};
use crate::endian::{le32, le64};
use crate::{Error, Result};

const LAYER: &str = "vmdk";
/// `KDMV`: a hosted sparse extent header.
pub const MAGIC: &[u8; 4] = b"KDMV";
/// The first line of a text descriptor.
pub const DESCRIPTOR_MAGIC: &[u8] = b"# Disk DescriptorFile";
const SECTOR: u64 = 512;
/// The GD offset of a stream-optimized header whose GD follows the grains.
pub const GD_AT_END: u64 = u64::MAX;
/// Largest descriptor read (embedded or a descriptor file).
pub const MAX_DESCRIPTOR_BYTES: u64 = 1 << 20;
/// Largest grain directory accepted (2^23 grain tables).
pub const MAX_GD_BYTES: u64 = 32 << 20;
/// Largest grain accepted, in sectors (32 MiB; VMware and QEMU write 64 KiB).
const MAX_GRAIN_SECTORS: u64 = 1 << 16;
/// Most entries per grain table (VMware writes 512).
const MAX_GTES: u32 = 1 << 16;
/// Memory budget of the grain-table cache.
const GT_CACHE_BYTES: u64 = 8 << 20;
/// Memory budget of the inflated-grain cache.
const GRAIN_CACHE_BYTES: u64 = 16 << 20;

const FLAG_REDUNDANT_GT: u32 = 1 << 1;
const FLAG_ZEROED_GTE: u32 = 1 << 2;
const FLAG_COMPRESSED: u32 = 1 << 16;
const FLAG_MARKERS: u32 = 1 << 17;
const COMPRESSION_DEFLATE: u16 = 1;

/// What the sparse extent header says (the footer's GD offset when the header defers to it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VmdkHeader {
    pub version: u32,
    pub flags: u32,
    /// Virtual disk size in sectors.
    pub capacity: u64,
    /// Sectors per grain.
    pub grain_sectors: u64,
    pub descriptor_offset: u64,
    pub descriptor_sectors: u64,
    pub gtes_per_gt: u32,
    pub redundant_gd_offset: u64,
    /// Sector of the grain directory used.
    pub gd_offset: u64,
    pub overhead: u64,
    pub compress_algorithm: u16,
    /// Whether the GD offset came from the footer (`GD_AT_END` in the header).
    pub gd_from_footer: bool,
    /// `createType` of the embedded descriptor, when there is one.
    pub create_type: Option<String>,
}

impl VmdkHeader {
    pub fn redundant_gt(&self) -> bool {
        self.flags & FLAG_REDUNDANT_GT != 0
    }
    pub fn zeroed_gte(&self) -> bool {
        self.flags & FLAG_ZEROED_GTE != 0
    }
    pub fn compressed(&self) -> bool {
        self.flags & FLAG_COMPRESSED != 0
    }
    pub fn markers(&self) -> bool {
        self.flags & FLAG_MARKERS != 0
    }
}

/// One extent line of a descriptor (`RW 12288 SPARSE "disk.vmdk"`,
/// `RW 4192256 FLAT "disk-flat.vmdk" 0`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Extent {
    pub access: String,
    pub sectors: u64,
    pub kind: String,
    pub file: String,
    /// Sector offset inside the file where the extent starts (flat extents).
    pub offset: u64,
}

/// What a descriptor says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Descriptor {
    pub create_type: Option<String>,
    pub parent_file_name_hint: Option<String>,
    pub parent_cid: Option<String>,
    pub extents: Vec<Extent>,
}

impl Descriptor {
    /// The parent a differencing child needs, if the descriptor names one.
    pub fn parent(&self) -> Option<String> {
        if let Some(p) = &self.parent_file_name_hint {
            return Some(p.clone());
        }
        match self.parent_cid.as_deref() {
            Some(cid) if !cid.eq_ignore_ascii_case("ffffffff") => {
                Some(format!("(unnamed, parentCID {cid})"))
            }
            _ => None,
        }
    }

    fn extent_files(&self) -> String {
        if self.extents.is_empty() {
            return "(no extent lines)".to_string();
        }
        self.extents
            .iter()
            .map(|e| format!("`{}` ({} {} sectors)", e.file, e.kind, e.sectors))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn create_type_name(&self) -> &str {
        self.create_type.as_deref().unwrap_or("(none)")
    }
}

/// Parses descriptor text; unknown lines are ignored.
pub fn parse_descriptor(text: &str) -> Descriptor {
    let mut d = Descriptor::default();
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        if ["RW", "RDONLY", "NOACCESS"].contains(&first) {
            let mut rest = line.get(first.len()..).unwrap_or("").trim_start();
            let sectors_text = rest.split_whitespace().next().unwrap_or("");
            rest = rest.get(sectors_text.len()..).unwrap_or("").trim_start();
            let kind = rest.split_whitespace().next().unwrap_or("").to_string();
            rest = rest.get(kind.len()..).unwrap_or("").trim_start();
            let (file, after) = match rest.strip_prefix('"') {
                Some(r) => {
                    let name = r.split('"').next().unwrap_or("");
                    (name, r.get(name.len() + 1..).unwrap_or(""))
                }
                None => {
                    let name = rest.split_whitespace().next().unwrap_or("");
                    (name, rest.get(name.len()..).unwrap_or(""))
                }
            };
            d.extents.push(Extent {
                access: first.to_string(),
                sectors: sectors_text.parse().unwrap_or(0),
                kind,
                file: file.to_string(),
                offset: after
                    .split_whitespace()
                    .next()
                    .and_then(|o| o.parse().ok())
                    .unwrap_or(0),
            });
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim().trim_matches('"').to_string();
        match key.trim() {
            "createType" => d.create_type = Some(value),
            "parentFileNameHint" => d.parent_file_name_hint = Some(value),
            "parentCID" => d.parent_cid = Some(value),
            _ => {}
        }
    }
    d
}

/// What [`sniff`] found at byte 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VmdkKind {
    /// A hosted sparse extent header (`KDMV`) of this version.
    Sparse { version: u32 },
    /// A text descriptor file (`# Disk DescriptorFile`).
    DescriptorFile,
}

/// Whether `head` starts a VMDK: a sparse extent header or a text descriptor (after an optional
/// UTF-8 byte order mark).
pub fn sniff(head: &[u8]) -> Option<VmdkKind> {
    if head.starts_with(MAGIC) {
        return Some(VmdkKind::Sparse {
            version: le32(head, 4).unwrap_or(0),
        });
    }
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    text.starts_with(DESCRIPTOR_MAGIC)
        .then_some(VmdkKind::DescriptorFile)
}

/// Descriptor text up to its first NUL.
fn descriptor_text(b: &[u8]) -> String {
    let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
    String::from_utf8_lossy(b.get(..end).unwrap_or(&[])).into_owned()
}

/// Whether `head` (the first bytes of a stream) is a VMDK, and if so whether it is read here and
/// why: used by the probe.
pub fn probe_head(head: &[u8]) -> Option<(bool, String)> {
    match sniff(head)? {
        VmdkKind::DescriptorFile => {
            let d = parse_descriptor(&descriptor_text(head));
            Some((
                true,
                format!(
                    "VMDK descriptor file (`# Disk DescriptorFile`, createType {}): its disk is in the extent files {}, read from beside it",
                    d.create_type_name(),
                    d.extent_files()
                ),
            ))
        }
        VmdkKind::Sparse { version } => {
            let offset = le64(head, 28).unwrap_or(0);
            let sectors = le64(head, 36).unwrap_or(0);
            let desc = usize::try_from(offset.saturating_mul(SECTOR))
                .ok()
                .zip(usize::try_from(sectors.saturating_mul(SECTOR)).ok())
                .filter(|_| offset != 0)
                .and_then(|(at, n)| head.get(at..at.saturating_add(n).min(head.len())))
                .map(|b| parse_descriptor(&descriptor_text(b)));
            let create = desc
                .as_ref()
                .and_then(|d| d.create_type.clone())
                .unwrap_or_else(|| "not given".to_string());
            let what = format!(
                "VMDK sparse extent header (`KDMV`, version {version}, createType {create}) at byte 0"
            );
            if !(1..=3).contains(&version) {
                return Some((false, format!("{what}: versions 1 to 3 are read")));
            }
            if let Some(parent) = desc.as_ref().and_then(Descriptor::parent) {
                return Some((
                    true,
                    format!(
                        "{what}: a differencing child, read over its parent `{parent}` from beside it"
                    ),
                ));
            }
            Some((true, what))
        }
    }
}

fn descriptor_file_refusal(d: &Descriptor) -> String {
    format!(
        "VMDK descriptor file (`# Disk DescriptorFile`, createType {}): its disk is in the extent files {}; inside another layer there is no folder to find them in (give them as evidence beside it)",
        d.create_type_name(),
        d.extent_files()
    )
}

fn corrupt(offset: u64, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset,
        detail: detail.into(),
    }
}

fn unsupported(detail: impl Into<String>) -> Error {
    Error::Unsupported {
        layer: LAYER.to_string(),
        detail: detail.into(),
    }
}

fn too_large(offset: u64, what: &str, claimed: u64, limit: u64) -> Error {
    Error::TooLarge {
        layer: LAYER.to_string(),
        offset,
        what: what.to_string(),
        claimed,
        limit,
    }
}

/// The fields of a 512-byte sparse extent header (or footer) at `at`.
fn parse_header(b: &[u8; 512], at: u64) -> Result<VmdkHeader> {
    if !b.starts_with(MAGIC) {
        return Err(corrupt(at, "no VMDK sparse extent magic `KDMV`"));
    }
    let u32_at = |o: usize| le32(b, o).unwrap_or(0);
    let u64_at = |o: usize| le64(b, o).unwrap_or(0);
    Ok(VmdkHeader {
        version: u32_at(4),
        flags: u32_at(8),
        capacity: u64_at(12),
        grain_sectors: u64_at(20),
        descriptor_offset: u64_at(28),
        descriptor_sectors: u64_at(36),
        gtes_per_gt: u32_at(44),
        redundant_gd_offset: u64_at(48),
        gd_offset: u64_at(56),
        overhead: u64_at(64),
        compress_algorithm: b
            .get(77..79)
            .map(|x| u16::from_le_bytes([x[0], x[1]]))
            .unwrap_or(0),
        gd_from_footer: false,
        create_type: None,
    })
}

/// A VMDK sparse extent read through the layer below it.
pub struct VmdkImage {
    file: Bytes,
    header: VmdkHeader,
    descriptor: Option<Descriptor>,
    grain_bytes: u64,
    /// Sector of each grain table, 0 when absent.
    gd: Vec<u32>,
    gt_cache: Mutex<LruCache<u64, Arc<Vec<u32>>>>,
    grain_cache: Mutex<LruCache<u64, Arc<Vec<u8>>>>,
    /// The parent disk's bytes for this extent, where unwritten grains are read.
    parent: Option<Bytes>,
}

fn lru<K: std::hash::Hash + Eq, V>(budget: u64, each: u64) -> Mutex<LruCache<K, V>> {
    let n = usize::try_from(budget / each.max(1)).unwrap_or(1).max(2);
    Mutex::new(LruCache::new(
        NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN),
    ))
}

impl VmdkImage {
    /// Opens the VMDK sparse extent that `file` holds; a text descriptor file and a differencing
    /// child are refused naming the files they need (see [`VmdkDisk::open`]).
    pub fn open(file: Bytes) -> Result<VmdkImage> {
        Self::open_sparse(file, None, None)
    }

    /// Opens a sparse extent whose unwritten grains are read from `parent` when given, else
    /// from the parent its descriptor names, found in `beside`.
    fn open_sparse(
        file: Bytes,
        beside: Option<&Beside>,
        mut parent: Option<Bytes>,
    ) -> Result<VmdkImage> {
        let file_len = file.len();
        let mut head = [0u8; 512];
        let n = file.read_at(0, &mut head)?;
        if sniff(head.get(..n).unwrap_or(&[])) == Some(VmdkKind::DescriptorFile) {
            let mut text =
                vec![0u8; usize::try_from(file_len.min(MAX_DESCRIPTOR_BYTES)).unwrap_or(0)];
            let n = file.read_at(0, &mut text)?;
            let d = parse_descriptor(&descriptor_text(text.get(..n).unwrap_or(&[])));
            return Err(unsupported(descriptor_file_refusal(&d)));
        }
        if n < 512 {
            return Err(Error::Truncated {
                layer: LAYER.to_string(),
                offset: n as u64,
                wanted: SECTOR,
            });
        }
        let mut header = parse_header(&head, 0)?;
        if !(1..=3).contains(&header.version) {
            return Err(unsupported(format!(
                "sparse extent version {} (1 to 3 are read)",
                header.version
            )));
        }
        // Checked before the GD offset is trusted: the descriptor may name a parent.
        let descriptor = read_descriptor(&file, &header)?;
        if let Some(d) = &descriptor {
            if let Some(named) = d.parent()
                && parent.is_none()
            {
                parent = Some(open_parent(d, &named, beside)?);
            }
            if d.extents.len() > 1 {
                return Err(unsupported(format!(
                    "descriptor (createType {}) lists {} extents: {}; only a single embedded extent is read",
                    d.create_type_name(),
                    d.extents.len(),
                    d.extent_files()
                )));
            }
            header.create_type = d.create_type.clone();
        }
        let mut gd_field_at = 56u64;
        if header.gd_offset == GD_AT_END {
            // The footer: a copy of the header with the real GD offset, 1 KiB before the end.
            let at = file_len
                .checked_sub(2 * SECTOR)
                .filter(|&a| a >= SECTOR)
                .ok_or_else(|| {
                    corrupt(
                        56,
                        "GD offset GD_AT_END, but the file is too short for a footer",
                    )
                })?;
            let mut foot = [0u8; 512];
            file.read_exact_at(at, &mut foot)?;
            let footer = parse_header(&foot, at).map_err(|_| {
                corrupt(
                    at,
                    "GD offset GD_AT_END, but no footer header (`KDMV`) 1 KiB before the end",
                )
            })?;
            if footer.gd_offset == GD_AT_END {
                return Err(corrupt(at + 56, "the footer's GD offset is GD_AT_END too"));
            }
            header.gd_offset = footer.gd_offset;
            header.gd_from_footer = true;
            gd_field_at = at + 56;
        }
        if !header.grain_sectors.is_power_of_two() || header.grain_sectors > MAX_GRAIN_SECTORS {
            return Err(corrupt(
                20,
                format!(
                    "grain size of {} sectors (a power of two up to {MAX_GRAIN_SECTORS} expected)",
                    header.grain_sectors
                ),
            ));
        }
        if header.gtes_per_gt == 0 || header.gtes_per_gt > MAX_GTES {
            return Err(corrupt(
                44,
                format!(
                    "{} entries per grain table (1 to {MAX_GTES} expected)",
                    header.gtes_per_gt
                ),
            ));
        }
        if header.capacity > u64::MAX / SECTOR {
            return Err(corrupt(
                12,
                format!("capacity of {} sectors", header.capacity),
            ));
        }
        if header.compressed() && header.compress_algorithm != COMPRESSION_DEFLATE {
            return Err(unsupported(format!(
                "grain compression algorithm {} (1, deflate, is read)",
                header.compress_algorithm
            )));
        }
        let gt_span = header.grain_sectors * u64::from(header.gtes_per_gt);
        let tables = header.capacity.div_ceil(gt_span);
        let gd_bytes = tables * 4;
        if gd_bytes > MAX_GD_BYTES {
            return Err(too_large(12, "grain directory", gd_bytes, MAX_GD_BYTES));
        }
        let gd_at = header.gd_offset.saturating_mul(SECTOR);
        if header.gd_offset == 0 || gd_at.saturating_add(gd_bytes) > file_len {
            return Err(corrupt(
                gd_field_at,
                format!(
                    "grain directory at sector {} ({gd_bytes} bytes) beyond the end of the image file ({file_len} bytes)",
                    header.gd_offset
                ),
            ));
        }
        let mut raw = vec![0u8; usize::try_from(gd_bytes).unwrap_or(0)];
        file.read_exact_at(gd_at, &mut raw)?;
        let gd = raw
            .chunks_exact(4)
            .map(|c| le32(c, 0).unwrap_or(0))
            .collect();
        let grain_bytes = header.grain_sectors * SECTOR;
        let gt_bytes = u64::from(header.gtes_per_gt) * 4;
        Ok(VmdkImage {
            file,
            header,
            descriptor,
            grain_bytes,
            gd,
            gt_cache: lru(GT_CACHE_BYTES, gt_bytes),
            grain_cache: lru(GRAIN_CACHE_BYTES, grain_bytes),
            parent,
        })
    }

    pub fn header(&self) -> &VmdkHeader {
        &self.header
    }

    pub fn descriptor(&self) -> Option<&Descriptor> {
        self.descriptor.as_ref()
    }

    /// The create type for display: the descriptor's, or `sparse extent` without one.
    pub fn create_type(&self) -> &str {
        self.header
            .create_type
            .as_deref()
            .unwrap_or("sparse extent")
    }

    /// Grain table `t`, from the cache or the file.
    fn grain_table(&self, t: u64) -> Result<Option<Arc<Vec<u32>>>> {
        let sector = usize::try_from(t)
            .ok()
            .and_then(|i| self.gd.get(i).copied())
            .unwrap_or(0);
        if sector == 0 {
            return Ok(None);
        }
        if let Some(gt) = self
            .gt_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&t)
        {
            return Ok(Some(gt.clone()));
        }
        let at = u64::from(sector) * SECTOR;
        let bytes = u64::from(self.header.gtes_per_gt) * 4;
        let file_len = self.file.len();
        if at + bytes > file_len {
            return Err(corrupt(
                self.header.gd_offset * SECTOR + t * 4,
                format!(
                    "GD entry {t}: grain table at {at} ({bytes} bytes) beyond the end of the image file ({file_len} bytes)"
                ),
            ));
        }
        let mut raw = vec![0u8; usize::try_from(bytes).unwrap_or(0)];
        self.file.read_exact_at(at, &mut raw)?;
        let gt = Arc::new(
            raw.chunks_exact(4)
                .map(|c| le32(c, 0).unwrap_or(0))
                .collect::<Vec<u32>>(),
        );
        self.gt_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .put(t, gt.clone());
        Ok(Some(gt))
    }

    /// The file sector of grain `g` (0: unwritten, read from the parent or as zeros; 1: a
    /// zeroed grain) and the file offset of its GT entry.
    fn grain_sector(&self, g: u64) -> Result<(u64, u64)> {
        let per = u64::from(self.header.gtes_per_gt);
        let t = g / per;
        let Some(gt) = self.grain_table(t)? else {
            return Ok((0, 0));
        };
        let i = g % per;
        let entry = usize::try_from(i)
            .ok()
            .and_then(|i| gt.get(i).copied())
            .unwrap_or(0);
        let entry_at = u64::from(self.gd.get(t as usize).copied().unwrap_or(0)) * SECTOR + i * 4;
        // 0: unallocated (the parent's, if any); 1: a zeroed grain.
        Ok((u64::from(entry), entry_at))
    }

    /// The inflated bytes of compressed grain `g` stored at `sector`.
    fn compressed_grain(&self, g: u64, sector: u64, entry_at: u64) -> Result<Arc<Vec<u8>>> {
        if let Some(c) = self
            .grain_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&g)
        {
            return Ok(c.clone());
        }
        let at = sector * SECTOR;
        let file_len = self.file.len();
        if at.saturating_add(12) > file_len {
            return Err(corrupt(
                entry_at,
                format!(
                    "GT entry of grain {g}: compressed grain at {at} beyond the end of the image file ({file_len} bytes)"
                ),
            ));
        }
        let mut marker = [0u8; 12];
        self.file.read_exact_at(at, &mut marker)?;
        let lba = le64(&marker, 0).unwrap_or(0);
        let size = u64::from(le32(&marker, 8).unwrap_or(0));
        if lba != g * self.header.grain_sectors {
            return Err(corrupt(
                at,
                format!(
                    "compressed grain {g} is marked as LBA {lba}, not {}",
                    g * self.header.grain_sectors
                ),
            ));
        }
        // Deflate may grow incompressible data a little; more than this is no grain.
        let limit = self.grain_bytes + self.grain_bytes / 8 + 1024;
        if size == 0 || size > limit {
            return Err(corrupt(
                at + 8,
                format!("compressed grain {g} claims {size} bytes (1 to {limit} expected)"),
            ));
        }
        if at + 12 + size > file_len {
            return Err(corrupt(
                at + 8,
                format!(
                    "compressed grain {g} ({size} bytes at {}) beyond the end of the image file ({file_len} bytes)",
                    at + 12
                ),
            ));
        }
        let mut input = vec![0u8; size as usize];
        self.file.read_exact_at(at + 12, &mut input)?;
        // qemu and VMware write zlib streams; raw deflate is accepted too.
        let zlib = input.len() >= 2
            && input[0] & 0x0F == 8
            && (u16::from(input[0]) << 8 | u16::from(input[1])) % 31 == 0;
        let mut output = vec![0u8; usize::try_from(self.grain_bytes).unwrap_or(0)];
        let mut inflate = Decompress::new(zlib);
        let status = inflate.decompress(&input, &mut output, FlushDecompress::Finish);
        let produced = inflate.total_out();
        // The last grain may extend past the capacity; only its bytes inside the disk count.
        let needed = self
            .grain_bytes
            .min(self.header.capacity * SECTOR - g * self.grain_bytes);
        match status {
            Ok(Status::StreamEnd) if produced >= needed => {}
            Ok(Status::Ok | Status::BufError) if produced == self.grain_bytes => {}
            Ok(_) => {
                return Err(corrupt(
                    at + 12,
                    format!(
                        "compressed grain {g} inflates to {produced} bytes, not {}",
                        self.grain_bytes
                    ),
                ));
            }
            Err(e) => {
                return Err(corrupt(at + 12, format!("compressed grain {g}: {e}")));
            }
        }
        let data = Arc::new(output);
        self.grain_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .put(g, data.clone());
        Ok(data)
    }
}

/// The parent disk a differencing descriptor names (`named`, from [`Descriptor::parent`]),
/// opened from `beside`.
fn open_parent(d: &Descriptor, named: &str, beside: Option<&Beside>) -> Result<Bytes> {
    let Some(hint) = d.parent_file_name_hint.as_deref() else {
        return Err(unsupported(format!(
            "differencing child (createType {}) whose parent is named only by its content id {named}",
            d.create_type_name()
        )));
    };
    let beside = crate::beside::required(
        beside,
        LAYER,
        &format!(
            "differencing child (createType {}): needs its parent `{hint}`",
            d.create_type_name()
        ),
    )?;
    let (bytes, next) = beside.open(hint, LAYER, "parent")?;
    Ok(Arc::new(VmdkDisk::open(bytes, Some(&next))?))
}

/// A whole VMDK virtual disk: one sparse extent, or a descriptor file's extents read from the
/// files beside it, over its parent when it is a differencing child.
pub struct VmdkDisk {
    inner: Bytes,
    create_type: String,
    /// Sparse extent header version (none for a descriptor file).
    version: Option<u32>,
    /// Extent files read (a descriptor file's), in order.
    extents: Vec<String>,
    parent: Option<String>,
}

impl VmdkDisk {
    /// Opens the disk `file` holds; extent files and parents are looked for in `beside` (with
    /// none, a descriptor file or a differencing child is refused naming what it needs).
    pub fn open(file: Bytes, beside: Option<&Beside>) -> Result<VmdkDisk> {
        let mut head = [0u8; 512];
        let n = file.read_at(0, &mut head)?;
        if sniff(head.get(..n).unwrap_or(&[])) != Some(VmdkKind::DescriptorFile) {
            let image = VmdkImage::open_sparse(file, beside, None)?;
            let parent = image
                .descriptor()
                .and_then(|d| d.parent_file_name_hint.clone());
            return Ok(VmdkDisk {
                create_type: image.create_type().to_string(),
                version: Some(image.header().version),
                extents: Vec::new(),
                parent,
                inner: Arc::new(image),
            });
        }
        let len = file.len().min(MAX_DESCRIPTOR_BYTES);
        let mut text = vec![0u8; usize::try_from(len).unwrap_or(0)];
        let n = file.read_at(0, &mut text)?;
        let d = parse_descriptor(&descriptor_text(text.get(..n).unwrap_or(&[])));
        let Some(beside) = beside else {
            return Err(unsupported(descriptor_file_refusal(&d)));
        };
        if d.extents.is_empty() {
            return Err(corrupt(0, "descriptor file lists no extent"));
        }
        let parent = match d.parent() {
            Some(named) => Some(open_parent(&d, &named, Some(beside))?),
            None => None,
        };
        let mut parts: Vec<Bytes> = Vec::with_capacity(d.extents.len());
        let mut start = 0u64;
        for (i, e) in d.extents.iter().enumerate() {
            let bytes = e
                .sectors
                .checked_mul(SECTOR)
                .ok_or_else(|| corrupt(0, format!("extent {i} of {} sectors", e.sectors)))?;
            let part: Bytes = match e.kind.as_str() {
                "ZERO" => Arc::new(Zeros(bytes)),
                "SPARSE" => {
                    let (f, next) = beside.open(&e.file, LAYER, "extent")?;
                    let under = parent.as_ref().map(|p| {
                        Arc::new(Slice::new(p.clone(), start, bytes, "vmdk parent")) as Bytes
                    });
                    let image = VmdkImage::open_sparse(f, Some(&next), under)?;
                    if image.len() < bytes {
                        return Err(corrupt(
                            0,
                            format!(
                                "extent {i} `{}` holds {} sectors, the descriptor lists {}",
                                e.file,
                                image.header().capacity,
                                e.sectors
                            ),
                        ));
                    }
                    Arc::new(Slice::new(Arc::new(image), 0, bytes, "vmdk extent"))
                }
                "FLAT" | "VMFS" => {
                    let (f, _) = beside.open(&e.file, LAYER, "extent")?;
                    let from = e.offset.saturating_mul(SECTOR);
                    if from.saturating_add(bytes) > f.len() {
                        return Err(corrupt(
                            0,
                            format!(
                                "extent {i} `{}` holds {} bytes, the descriptor needs {bytes} from byte {from}",
                                e.file,
                                f.len()
                            ),
                        ));
                    }
                    Arc::new(Slice::new(f, from, bytes, "vmdk flat extent"))
                }
                other => {
                    return Err(unsupported(format!(
                        "extent {i} `{}` of type {other} (SPARSE, FLAT, VMFS and ZERO are read)",
                        e.file
                    )));
                }
            };
            parts.push(part);
            start += bytes;
        }
        Ok(VmdkDisk {
            inner: Arc::new(Concat::named(parts, "vmdk extents")),
            create_type: d.create_type_name().to_string(),
            version: None,
            extents: d.extents.iter().map(|e| e.file.clone()).collect(),
            parent: d.parent_file_name_hint.clone(),
        })
    }

    /// The descriptor's `createType` (`sparse extent` for an extent without descriptor).
    pub fn create_type(&self) -> &str {
        &self.create_type
    }

    /// The sparse extent header's version; `None` for a descriptor file.
    pub fn version(&self) -> Option<u32> {
        self.version
    }

    /// The extent files a descriptor file's disk was read from.
    pub fn extent_files(&self) -> &[String] {
        &self.extents
    }

    /// The parent a differencing child was read over, as its descriptor names it.
    pub fn parent_name(&self) -> Option<&str> {
        self.parent.as_deref()
    }
}

impl ByteSource for VmdkDisk {
    fn len(&self) -> u64 {
        self.inner.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        self.inner.read_at(offset, buf)
    }

    fn layer_name(&self) -> String {
        format!("{LAYER} ({})", self.create_type)
    }
}

/// The names of the files the VMDK in `file` reads beside itself: a descriptor file's extents,
/// and the parent of a differencing child.
pub fn names_beside(file: &Bytes) -> Vec<String> {
    let mut head = [0u8; 512];
    let Ok(n) = file.read_at(0, &mut head) else {
        return Vec::new();
    };
    let d = match sniff(head.get(..n).unwrap_or(&[])) {
        Some(VmdkKind::DescriptorFile) => {
            let len = file.len().min(MAX_DESCRIPTOR_BYTES);
            let mut text = vec![0u8; usize::try_from(len).unwrap_or(0)];
            let Ok(n) = file.read_at(0, &mut text) else {
                return Vec::new();
            };
            parse_descriptor(&descriptor_text(text.get(..n).unwrap_or(&[])))
        }
        Some(VmdkKind::Sparse { .. }) if n == 512 => {
            let Ok(h) = parse_header(&head, 0) else {
                return Vec::new();
            };
            match read_descriptor(file, &h) {
                Ok(Some(d)) => d,
                _ => return Vec::new(),
            }
        }
        _ => return Vec::new(),
    };
    let mut names: Vec<String> = d
        .extents
        .iter()
        .filter(|e| e.kind != "ZERO" && !e.file.is_empty())
        .map(|e| e.file.clone())
        .collect();
    // An embedded descriptor lists its own file as its one extent.
    if sniff(&head[..n.min(512)]) != Some(VmdkKind::DescriptorFile) {
        names.clear();
    }
    names.extend(d.parent_file_name_hint);
    names
}

/// The embedded descriptor of a sparse extent header, if it has one.
fn read_descriptor(file: &Bytes, h: &VmdkHeader) -> Result<Option<Descriptor>> {
    if h.descriptor_offset == 0 || h.descriptor_sectors == 0 {
        return Ok(None);
    }
    let bytes = h.descriptor_sectors.saturating_mul(SECTOR);
    if bytes > MAX_DESCRIPTOR_BYTES {
        return Err(too_large(
            36,
            "embedded descriptor",
            bytes,
            MAX_DESCRIPTOR_BYTES,
        ));
    }
    let at = h.descriptor_offset.saturating_mul(SECTOR);
    let file_len = file.len();
    if at.saturating_add(bytes) > file_len {
        return Err(corrupt(
            28,
            format!(
                "descriptor at sector {} ({bytes} bytes) beyond the end of the image file ({file_len} bytes)",
                h.descriptor_offset
            ),
        ));
    }
    let mut raw = vec![0u8; bytes as usize];
    file.read_exact_at(at, &mut raw)?;
    Ok(Some(parse_descriptor(&descriptor_text(&raw))))
}

impl ByteSource for VmdkImage {
    fn len(&self) -> u64 {
        self.header.capacity * SECTOR
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        let size = self.len();
        if offset >= size {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(size - offset) as usize;
        let gb = self.grain_bytes;
        let mut done = 0usize;
        while done < want {
            let pos = offset + done as u64;
            let g = pos / gb;
            let within = pos % gb;
            let n = ((gb - within) as usize).min(want - done);
            let Some(out) = buf.get_mut(done..done + n) else {
                break;
            };
            let (sector, entry_at) = self.grain_sector(g)?;
            if sector == 0 {
                crate::beside::read_or_zeros(self.parent.as_ref(), pos, out)?;
            } else if sector == 1 {
                out.fill(0);
            } else if self.header.compressed() {
                let data = self.compressed_grain(g, sector, entry_at)?;
                let src = data
                    .get(within as usize..within as usize + n)
                    .ok_or_else(|| corrupt(pos, "read beyond an inflated grain"))?;
                out.copy_from_slice(src);
            } else {
                let at = sector * SECTOR + within;
                let file_len = self.file.len();
                if at + n as u64 > file_len {
                    return Err(corrupt(
                        entry_at,
                        format!(
                            "GT entry of grain {g}: grain at {} beyond the end of the image file ({file_len} bytes)",
                            sector * SECTOR
                        ),
                    ));
                }
                self.file.read_exact_at(at, out)?;
            }
            done += n;
        }
        Ok(done)
    }

    fn layer_name(&self) -> String {
        format!("{LAYER} ({})", self.create_type())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::Memory;

    /// A version 1 sparse extent: grains of 1 sector, 4 GTEs per GT, 8 sectors of disk; GD at
    /// sector 2, GTs at 3 and (absent), grains from sector 4.
    fn image(compressed: bool, grains: &[(u32, Vec<u8>)], gt0: [u32; 4]) -> Vec<u8> {
        let mut b = vec![0u8; 512 * 4];
        b[..4].copy_from_slice(MAGIC);
        b[4..8].copy_from_slice(&1u32.to_le_bytes());
        let flags: u32 = if compressed {
            FLAG_COMPRESSED | FLAG_MARKERS
        } else {
            0
        };
        b[8..12].copy_from_slice(&flags.to_le_bytes());
        b[12..20].copy_from_slice(&8u64.to_le_bytes());
        b[20..28].copy_from_slice(&1u64.to_le_bytes());
        b[44..48].copy_from_slice(&4u32.to_le_bytes());
        b[56..64].copy_from_slice(&2u64.to_le_bytes());
        if compressed {
            b[77..79].copy_from_slice(&1u16.to_le_bytes());
        }
        b[1024..1028].copy_from_slice(&3u32.to_le_bytes());
        for (i, e) in gt0.iter().enumerate() {
            b[1536 + i * 4..1540 + i * 4].copy_from_slice(&e.to_le_bytes());
        }
        for (sector, data) in grains {
            let at = *sector as usize * 512;
            b.resize(b.len().max(at + data.len().next_multiple_of(512)), 0);
            b[at..at + data.len()].copy_from_slice(data);
        }
        b
    }

    #[test]
    fn grains_read_as_mapped_zeroed_or_unallocated() {
        let b = image(false, &[(4, vec![7u8; 512])], [4, 1, 0, 4]);
        let v = VmdkImage::open(Arc::new(Memory::new(b, "t"))).unwrap();
        assert_eq!(v.len(), 8 * 512);
        let mut buf = vec![9u8; 8 * 512];
        v.read_exact_at(0, &mut buf).unwrap();
        assert!(buf[..512].iter().all(|&x| x == 7));
        assert!(buf[512..1536].iter().all(|&x| x == 0));
        assert!(buf[1536..2048].iter().all(|&x| x == 7));
        assert!(buf[2048..].iter().all(|&x| x == 0), "GT 1 absent");
    }

    #[test]
    fn compressed_grains_inflate_and_a_wrong_lba_is_corrupt() {
        use std::io::Write;
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(&[5u8; 512]).unwrap();
        let z = enc.finish().unwrap();
        let grain = |lba: u64| {
            let mut g = lba.to_le_bytes().to_vec();
            g.extend_from_slice(&(z.len() as u32).to_le_bytes());
            g.extend_from_slice(&z);
            g
        };
        let b = image(true, &[(4, grain(0)), (5, grain(3))], [4, 0, 0, 5]);
        let v = VmdkImage::open(Arc::new(Memory::new(b.clone(), "t"))).unwrap();
        let mut buf = vec![0u8; 512];
        v.read_exact_at(0, &mut buf).unwrap();
        assert!(buf.iter().all(|&x| x == 5));
        v.read_exact_at(1536, &mut buf).unwrap();
        assert!(buf.iter().all(|&x| x == 5));
        let b = image(true, &[(4, grain(2))], [4, 0, 0, 0]);
        let v = VmdkImage::open(Arc::new(Memory::new(b, "t"))).unwrap();
        let err = v.read_exact_at(0, &mut buf).err().unwrap();
        assert!(
            matches!(err, Error::Corrupt { ref detail, .. } if detail.contains("LBA 2")),
            "{err}"
        );
    }

    #[test]
    fn descriptors_parse_and_descriptor_files_are_refused_naming_extents() {
        let text = "# Disk DescriptorFile\nversion=1\nCID=12345678\nparentCID=ffffffff\ncreateType=\"monolithicFlat\"\n# Extent description\nRW 2048 FLAT \"my disk-flat.vmdk\" 0\n";
        let d = parse_descriptor(text);
        assert_eq!(d.create_type.as_deref(), Some("monolithicFlat"));
        assert_eq!(d.extents[0].file, "my disk-flat.vmdk");
        assert_eq!(d.extents[0].sectors, 2048);
        assert_eq!(d.parent(), None);
        let err = VmdkImage::open(Arc::new(Memory::new(text.as_bytes().to_vec(), "t")))
            .err()
            .unwrap();
        assert!(
            matches!(err, Error::Unsupported { ref detail, .. } if detail.contains("`my disk-flat.vmdk`")),
            "{err}"
        );
        // Readable from the files beside it (the scan gives the folder; see VmdkDisk).
        let (readable, reason) = probe_head(text.as_bytes()).unwrap();
        assert!(readable && reason.contains("monolithicFlat"), "{reason}");
    }
}
