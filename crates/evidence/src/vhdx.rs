//! Microsoft VHDX images (Hyper-V's virtual hard disk, version 2 of VHD) as a [`ByteSource`] of
//! the virtual disk: the file type identifier (`vhdxfile`), two headers, two region tables, the
//! metadata region (block size, virtual disk size, logical sector size, parent locator) and the
//! block allocation table (BAT) whose payload entries map each block of the disk into the file.
//!
//! # Why a hand-written reader
//!
//! No maintained Rust crate reading VHDX over a positioned byte source was found (the crates
//! named `vhdx` on the documentation index either write images or read a whole `File` with
//! `std::io`, without the checks below); the format is a handful of fixed structures and one
//! table, read here against Microsoft's "[MS-VHDX]: Virtual Hard Disk v2 (VHDX) File Format".
//!
//! # Reading
//!
//! The current header is the valid one (signature, CRC-32C, version 1) with the higher sequence
//! number; a damaged region table falls back to its copy. Blocks whose BAT state is not
//! present, undefined, zero or unmapped read as zeros (as `qemu-img` reads them) — except that a
//! differencing image reads its not-present blocks from its parent; its zero, undefined and
//! unmapped blocks stay zeros ([MS-VHDX] 2.5.1.1 gives them no parent content; libvhdi 20260901
//! reads the parent there instead, so a trimmed block of a child would show the parent's bytes
//! through it); fully present blocks are read from the file. Fixed and dynamic images read the same way (a fixed image has
//! every block allocated).
//!
//! # What is refused
//!
//! - **The log is not replayed.** A header whose `LogGuid` is not zero, with a valid entry of
//!   that log in the log region (signature, GUID, CRC-32C), says that the log holds metadata
//!   writes (BAT, metadata) not yet applied to the file: reading it as it stands could serve
//!   stale mappings, and replaying it would mean writing or keeping a second copy of the
//!   metadata. Such an image is refused with [`Error::Unsupported`] naming the log and the entry
//!   (Hyper-V, or `qemu-img check -r all` on a *copy*, replays it); the evidence file is never
//!   written. A `LogGuid` whose log holds no valid entry is read as it is, with a warning
//!   (as qemu does).
//! - A differencing image (`HasParent`, a Hyper-V checkpoint's `.avhdx`) opened with no folder
//!   to find its parent in (inside another layer): [`Error::Unsupported`] naming the parent from
//!   its locator. Given as evidence, its parent is found beside it by the locator's
//!   `relative_path`, `absolute_win32_path` or `volume_path` ([`crate::beside::Beside`]), and
//!   must be the disk the child was made over: its current header's `DataWriteGuid` must be the
//!   locator's `parent_linkage` (another disk under that name is refused, never read). Blocks
//!   not present read from the parent; a partially present block reads each sector from the
//!   child or the parent as its chunk's sector bitmap says.
//! - Partially present blocks outside a differencing image, unknown required regions or
//!   metadata items.
//!
//! # Untrusted input
//!
//! Headers and region tables are checked with their CRC-32C; every region, metadata item and
//! block offset is checked against the file's length (and its alignment) before it is read;
//! entry counts are bounded by the format (2047); the BAT is bounded ([`MAX_BAT_ENTRIES`],
//! [`Error::TooLarge`]) and must hold an entry for every block of the disk.

use serde::Serialize;

use std::sync::Arc;

use crate::beside::Beside;
use crate::bytes::{ByteSource, Bytes};
use crate::endian::{le16, le32, le64};
use crate::{Error, Result};

const LAYER: &str = "vhdx";
/// The file type identifier at byte 0.
pub const SIGNATURE: &[u8; 8] = b"vhdxfile";
const MIB: u64 = 1 << 20;
const HEADERS: [u64; 2] = [64 << 10, 128 << 10];
const REGION_TABLES: [u64; 2] = [192 << 10, 256 << 10];
const HEADER_SIZE: usize = 4096;
const REGION_TABLE_SIZE: usize = 64 << 10;
/// Most region table and metadata entries (the format's own limit).
const MAX_ENTRIES: u64 = 2047;
/// Most BAT entries accepted (256 MiB of table; 16 PiB of disk at 256 MiB blocks, 64 TiB at 1 MiB).
pub const MAX_BAT_ENTRIES: u64 = 32 << 20;
/// The largest virtual disk the format allows (64 TiB).
const MAX_DISK: u64 = 64 << 40;

const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// GUIDs as stored: the first three fields little-endian.
const BAT_REGION: [u8; 16] = guid(
    0x2DC2_7766,
    0xF623,
    0x4200,
    [0x9D, 0x64, 0x11, 0x5E, 0x9B, 0xFD, 0x4A, 0x08],
);
const METADATA_REGION: [u8; 16] = guid(
    0x8B7C_A206,
    0x4790,
    0x4B9A,
    [0xB8, 0xFE, 0x57, 0x5F, 0x05, 0x0F, 0x88, 0x6E],
);
const FILE_PARAMETERS: [u8; 16] = guid(
    0xCAA1_6737,
    0xFA36,
    0x4D43,
    [0xB3, 0xB6, 0x33, 0xF0, 0xAA, 0x44, 0xE7, 0x6B],
);
const VIRTUAL_DISK_SIZE: [u8; 16] = guid(
    0x2FA5_4224,
    0xCD1B,
    0x4876,
    [0xB2, 0x11, 0x5D, 0xBE, 0xD8, 0x3B, 0xF4, 0xB8],
);
const VIRTUAL_DISK_ID: [u8; 16] = guid(
    0xBECA_12AB,
    0xB2E6,
    0x4523,
    [0x93, 0xEF, 0xC3, 0x09, 0xE0, 0x00, 0xC7, 0x46],
);
const LOGICAL_SECTOR_SIZE: [u8; 16] = guid(
    0x8141_BF1D,
    0xA96F,
    0x4709,
    [0xBA, 0x47, 0xF2, 0x33, 0xA8, 0xFA, 0xAB, 0x5F],
);
const PHYSICAL_SECTOR_SIZE: [u8; 16] = guid(
    0xCDA3_48C7,
    0x445D,
    0x4471,
    [0x9C, 0xC9, 0xE9, 0x88, 0x52, 0x51, 0xC5, 0x56],
);
const PARENT_LOCATOR: [u8; 16] = guid(
    0xA8D3_5F2D,
    0xB30B,
    0x454D,
    [0xAB, 0xF7, 0xD3, 0xD8, 0x48, 0x34, 0xAB, 0x0C],
);

const fn guid(a: u32, b: u16, c: u16, d: [u8; 8]) -> [u8; 16] {
    let a = a.to_le_bytes();
    let b = b.to_le_bytes();
    let c = c.to_le_bytes();
    [
        a[0], a[1], a[2], a[3], b[0], b[1], c[0], c[1], d[0], d[1], d[2], d[3], d[4], d[5], d[6],
        d[7],
    ]
}

/// A stored GUID in its usual text form.
fn guid_text(b: &[u8]) -> String {
    let (Some(a), Some(x), Some(y)) = (le32(b, 0), le16(b, 4), le16(b, 6)) else {
        return "?".to_string();
    };
    let rest = hex::encode(b.get(8..16).unwrap_or(&[]));
    format!(
        "{a:08x}-{x:04x}-{y:04x}-{}-{}",
        rest.get(..4).unwrap_or(""),
        rest.get(4..).unwrap_or("")
    )
}

/// BAT payload block states.
const PAYLOAD_FULLY_PRESENT: u64 = 6;
const PAYLOAD_PARTIALLY_PRESENT: u64 = 7;

/// What the headers and metadata say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VhdxInfo {
    /// Sequence number of the current header.
    pub sequence: u64,
    /// Which header is current (0 at 64 KiB, 1 at 128 KiB).
    pub header_index: usize,
    pub block_size: u64,
    pub logical_sector_size: u64,
    pub virtual_size: u64,
    /// `LeaveBlocksAllocated`: a fixed image.
    pub fixed: bool,
    /// The virtual disk id of the metadata.
    pub disk_id: Option<String>,
    /// The current header's `DataWriteGuid` (a child's `parent_linkage` names its parent's).
    pub data_write_guid: String,
    /// A differencing image's parent, by the name it was found under.
    pub parent: Option<String>,
    /// Readable oddities (a damaged header or region table copy).
    pub warnings: Vec<String>,
}

/// A VHDX image read through the layer below it.
pub struct VhdxImage {
    file: Bytes,
    info: VhdxInfo,
    bat_offset: u64,
    chunk_ratio: u64,
    /// Payload entries of the BAT only (sector bitmap entries dropped), one per block.
    payload: Vec<u64>,
    /// Sector bitmap entries of the BAT, one per chunk (differencing images only).
    bitmaps: Vec<u64>,
    /// A differencing image's parent disk.
    parent: Option<Bytes>,
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

/// Whether `head` starts with the VHDX file type identifier.
pub fn sniff(head: &[u8]) -> bool {
    head.starts_with(SIGNATURE)
}

/// CRC-32C of `b` with the 4-byte checksum field at `at` counted as zero.
fn crc32c(b: &[u8], at: usize) -> u32 {
    let mut d = CRC32C.digest();
    d.update(b.get(..at).unwrap_or(b));
    d.update(&[0u8; 4]);
    d.update(b.get(at + 4..).unwrap_or(&[]));
    d.finalize()
}

struct Header {
    sequence: u64,
    data_write_guid: [u8; 16],
    log_guid: [u8; 16],
    log_length: u32,
    log_offset: u64,
}

fn parse_header(b: &[u8], at: u64) -> std::result::Result<Header, String> {
    if !b.starts_with(b"head") {
        return Err(format!("no `head` signature at {at}"));
    }
    let stored = le32(b, 4).unwrap_or(0);
    let computed = crc32c(b, 4);
    if stored != computed {
        return Err(format!(
            "header at {at}: CRC-32C {stored:#010x} stored, {computed:#010x} computed"
        ));
    }
    let version = le16(b, 66).unwrap_or(0);
    if version != 1 {
        return Err(format!("header at {at}: version {version} (1 expected)"));
    }
    let mut log_guid = [0u8; 16];
    log_guid.copy_from_slice(b.get(48..64).unwrap_or(&[0; 16]));
    let mut data_write_guid = [0u8; 16];
    data_write_guid.copy_from_slice(b.get(32..48).unwrap_or(&[0; 16]));
    Ok(Header {
        sequence: le64(b, 8).unwrap_or(0),
        data_write_guid,
        log_guid,
        log_length: le32(b, 68).unwrap_or(0),
        log_offset: le64(b, 72).unwrap_or(0),
    })
}

/// A region of the file: offset and length, both checked.
#[derive(Clone, Copy)]
struct Region {
    offset: u64,
    length: u64,
}

impl VhdxImage {
    /// Opens the VHDX image that `file` holds; a differencing image is refused naming its
    /// parent (see [`VhdxImage::open_beside`]).
    pub fn open(file: Bytes) -> Result<VhdxImage> {
        Self::open_beside(file, None)
    }

    /// Opens the VHDX image that `file` holds, reading a differencing image over its parent
    /// found in `beside`.
    pub fn open_beside(file: Bytes, beside: Option<&Beside>) -> Result<VhdxImage> {
        let file_len = file.len();
        let mut ident = [0u8; 8];
        if file.read_at(0, &mut ident)? < 8 || !sniff(&ident) {
            return Err(corrupt(0, "no `vhdxfile` file type identifier"));
        }
        let min = REGION_TABLES[1] + REGION_TABLE_SIZE as u64;
        if file_len < min {
            return Err(Error::Truncated {
                layer: LAYER.to_string(),
                offset: file_len,
                wanted: min - file_len,
            });
        }
        let mut warnings = Vec::new();

        // Headers: the valid one with the higher sequence number.
        let mut best: Option<(usize, Header)> = None;
        let mut problems = Vec::new();
        for (i, at) in HEADERS.into_iter().enumerate() {
            let mut b = vec![0u8; HEADER_SIZE];
            file.read_exact_at(at, &mut b)?;
            match parse_header(&b, at) {
                Ok(h) => {
                    if best.as_ref().is_none_or(|(_, b)| h.sequence > b.sequence) {
                        best = Some((i, h));
                    }
                }
                Err(why) => problems.push(why),
            }
        }
        let Some((header_index, header)) = best else {
            return Err(corrupt(
                HEADERS[0],
                format!("no valid header: {}", problems.join("; ")),
            ));
        };
        for p in problems {
            warnings.push(format!("{p}; the other header is used"));
        }
        if header.log_guid != [0u8; 16] {
            let at = HEADERS[header_index];
            let log = guid_text(&header.log_guid);
            match log_entry(&file, &header, at)? {
                Some(entry) => {
                    return Err(unsupported(format!(
                        "the current header (at {at}) names log {log}, and the log holds an entry of it at {entry}: metadata writes not yet applied to the file; the log is not replayed here (replay it on a copy: Hyper-V, or `qemu-img check -r all`)"
                    )));
                }
                None => warnings.push(format!(
                    "the current header (at {at}) names log {log}, but the log ({} bytes at {}) holds no valid entry of it: nothing to replay",
                    header.log_length, header.log_offset
                )),
            }
        }

        let (regions, region_problems) = region_tables(&file);
        let Some((bat, metadata)) = regions else {
            return Err(corrupt(
                REGION_TABLES[0],
                format!("no valid region table: {}", region_problems.join("; ")),
            ));
        };
        for p in region_problems {
            warnings.push(format!("{p}; the copy at 256 KiB is used"));
        }

        let meta = read_metadata(&file, metadata)?;
        let parent = if meta.has_parent {
            Some(open_parent(&meta, beside)?)
        } else {
            None
        };
        let block_size = meta.block_size;
        let chunk_ratio = ((1u64 << 23) * meta.logical_sector_size) / block_size;
        let blocks = meta.virtual_size.div_ceil(block_size);
        let entries = if blocks == 0 {
            0
        } else if meta.has_parent {
            // Every chunk ends with its sector bitmap entry.
            blocks.div_ceil(chunk_ratio) * (chunk_ratio + 1)
        } else {
            blocks + (blocks - 1) / chunk_ratio
        };
        if entries > MAX_BAT_ENTRIES {
            return Err(Error::TooLarge {
                layer: LAYER.to_string(),
                offset: bat.offset,
                what: "block allocation table".to_string(),
                claimed: entries,
                limit: MAX_BAT_ENTRIES,
            });
        }
        if entries * 8 > bat.length {
            return Err(corrupt(
                REGION_TABLES[0],
                format!(
                    "BAT region of {} bytes cannot hold the {entries} entries a disk of {} bytes in {block_size}-byte blocks needs",
                    bat.length, meta.virtual_size
                ),
            ));
        }
        let mut raw = vec![0u8; usize::try_from(entries * 8).unwrap_or(0)];
        file.read_exact_at(bat.offset, &mut raw)?;
        let is_bitmap = |i: usize| (i as u64 + 1).is_multiple_of(chunk_ratio + 1);
        let payload = raw
            .chunks_exact(8)
            .enumerate()
            .filter(|(i, _)| !is_bitmap(*i))
            .map(|(_, c)| le64(c, 0).unwrap_or(0))
            .collect();
        let bitmaps = raw
            .chunks_exact(8)
            .enumerate()
            .filter(|(i, _)| is_bitmap(*i))
            .map(|(_, c)| le64(c, 0).unwrap_or(0))
            .collect();
        let parent_name = parent.as_ref().map(|(n, _)| n.clone());
        Ok(VhdxImage {
            file,
            info: VhdxInfo {
                sequence: header.sequence,
                header_index,
                block_size,
                logical_sector_size: meta.logical_sector_size,
                virtual_size: meta.virtual_size,
                fixed: meta.fixed,
                disk_id: meta.disk_id,
                data_write_guid: guid_text(&header.data_write_guid),
                parent: parent_name,
                warnings,
            },
            bat_offset: bat.offset,
            chunk_ratio,
            payload,
            bitmaps,
            parent: parent.map(|(_, p)| p),
        })
    }

    /// Fills `out` from the parent at `pos` (zeros when there is none).
    fn read_parent(&self, pos: u64, out: &mut [u8]) -> Result<()> {
        crate::beside::read_or_zeros(self.parent.as_ref(), pos, out)
    }

    /// A partially present block at file offset `at`: each sector from the child or the
    /// parent, as the chunk's sector bitmap says.
    fn read_partial(&self, block: u64, at: u64, pos: u64, out: &mut [u8]) -> Result<()> {
        let entry_at = |i: u64| self.bat_offset + i * 8;
        let chunk = block / self.chunk_ratio;
        let sb = usize::try_from(chunk)
            .ok()
            .and_then(|i| self.bitmaps.get(i).copied())
            .unwrap_or(0);
        let sb_index = (chunk + 1) * (self.chunk_ratio + 1) - 1;
        if self.parent.is_none() {
            return Err(unsupported(format!(
                "BAT entry of block {block} at {}: partially present, which only a differencing image may be",
                entry_at(block + chunk)
            )));
        }
        if sb & 7 != PAYLOAD_FULLY_PRESENT {
            return Err(corrupt(
                entry_at(sb_index),
                format!(
                    "block {block} is partially present, but its chunk's sector bitmap entry has state {}",
                    sb & 7
                ),
            ));
        }
        let sb_at = (sb >> 20) << 20;
        let sector = self.info.logical_sector_size;
        let file_len = self.file.len();
        let data_end = at + (pos % self.info.block_size) + out.len() as u64;
        if sb_at < MIB || sb_at + MIB > file_len || at < MIB || data_end > file_len {
            return Err(corrupt(
                entry_at(sb_index),
                format!(
                    "block {block}: sector bitmap at {sb_at} or data at {at} outside the image file ({file_len} bytes)"
                ),
            ));
        }
        // The sectors of this read, from the chunk's first sector.
        let chunk_start = chunk * self.chunk_ratio * self.info.block_size;
        let first = (pos - chunk_start) / sector;
        let last = (pos + out.len() as u64 - 1 - chunk_start) / sector;
        let mut bits = vec![0u8; usize::try_from(last / 8 - first / 8 + 1).unwrap_or(0)];
        self.file.read_exact_at(sb_at + first / 8, &mut bits)?;
        let present = |s: u64| {
            let i = usize::try_from(s / 8 - first / 8).unwrap_or(usize::MAX);
            bits.get(i).is_some_and(|b| b & (1 << (s % 8)) != 0)
        };
        let within = pos % self.info.block_size;
        let mut done = 0usize;
        while done < out.len() {
            let p = pos + done as u64;
            let s = (p - chunk_start) / sector;
            let state = present(s);
            let mut run_end = (s + 1) * sector + chunk_start;
            while run_end < pos + out.len() as u64
                && present((run_end - chunk_start) / sector) == state
            {
                run_end += sector;
            }
            let n = ((run_end - p) as usize).min(out.len() - done);
            let dst = &mut out[done..done + n];
            if state {
                self.file.read_exact_at(at + within + done as u64, dst)?;
            } else {
                self.read_parent(p, dst)?;
            }
            done += n;
        }
        Ok(())
    }

    pub fn info(&self) -> &VhdxInfo {
        &self.info
    }

    /// Fills `out` from disk offset `pos`, all within one block.
    fn read_block(&self, pos: u64, out: &mut [u8]) -> Result<()> {
        let block_size = self.info.block_size;
        let block = pos / block_size;
        let within = pos % block_size;
        let entry = usize::try_from(block)
            .ok()
            .and_then(|i| self.payload.get(i).copied())
            .unwrap_or(0);
        let entry_at = self.bat_offset + (block + block / self.chunk_ratio) * 8;
        match entry & 7 {
            // Not present: the parent's (zeros without one).
            0 => self.read_parent(pos, out)?,
            1..=3 => out.fill(0),
            PAYLOAD_FULLY_PRESENT => {
                let at = (entry >> 20) << 20;
                let file_len = self.file.len();
                let end = at + within + out.len() as u64;
                if at < MIB || end > file_len {
                    return Err(corrupt(
                        entry_at,
                        format!(
                            "BAT entry of block {block}: data at {at} outside the image file ({file_len} bytes)"
                        ),
                    ));
                }
                self.file.read_exact_at(at + within, out)?;
            }
            PAYLOAD_PARTIALLY_PRESENT => {
                let at = (entry >> 20) << 20;
                self.read_partial(block, at, pos, out)?;
            }
            state => {
                return Err(corrupt(
                    entry_at,
                    format!("BAT entry of block {block}: invalid payload state {state}"),
                ));
            }
        }
        Ok(())
    }
}

/// The offset of a valid entry (signature `loge`, the header's log GUID, CRC-32C over its
/// length) of the log the header names, looked for at every 4 KiB of the log; `None` when
/// the log holds none (nothing to replay).
fn log_entry(file: &Bytes, header: &Header, header_at: u64) -> Result<Option<u64>> {
    let (start, length) = (header.log_offset, u64::from(header.log_length));
    let file_len = file.len();
    if start < MIB
        || !start.is_multiple_of(MIB)
        || !length.is_multiple_of(MIB)
        || start.saturating_add(length) > file_len
    {
        return Err(corrupt(
            header_at + 72,
            format!(
                "log at {start} ({length} bytes): not 1 MiB-aligned inside the image file ({file_len} bytes)"
            ),
        ));
    }
    let mut batch = vec![0u8; MIB as usize];
    let mut pos = 0u64;
    while pos < length {
        file.read_exact_at(start + pos, &mut batch)?;
        for (i, e) in batch.chunks_exact(4096).enumerate() {
            if !e.starts_with(b"loge") || e.get(32..48) != Some(&header.log_guid[..]) {
                continue;
            }
            let at = start + pos + 4096 * i as u64;
            let entry_len = u64::from(le32(e, 8).unwrap_or(0));
            if entry_len < 4096
                || !entry_len.is_multiple_of(4096)
                || at + entry_len > start + length
            {
                continue;
            }
            let mut whole = vec![0u8; usize::try_from(entry_len).unwrap_or(0)];
            file.read_exact_at(at, &mut whole)?;
            if le32(&whole, 4) == Some(crc32c(&whole, 4)) {
                return Ok(Some(at));
            }
        }
        pos += MIB;
    }
    Ok(None)
}

fn read_region_table(file: &Bytes, at: u64, file_len: u64) -> Result<(Region, Region)> {
    let mut b = vec![0u8; REGION_TABLE_SIZE];
    file.read_exact_at(at, &mut b)?;
    if !b.starts_with(b"regi") {
        return Err(corrupt(at, "no `regi` region table signature"));
    }
    let stored = le32(&b, 4).unwrap_or(0);
    let computed = crc32c(&b, 4);
    if stored != computed {
        return Err(corrupt(
            at + 4,
            format!("region table CRC-32C {stored:#010x} stored, {computed:#010x} computed"),
        ));
    }
    let count = u64::from(le32(&b, 8).unwrap_or(0));
    if count > MAX_ENTRIES {
        return Err(corrupt(
            at + 8,
            format!("{count} region table entries (at most {MAX_ENTRIES})"),
        ));
    }
    let (mut bat, mut metadata) = (None, None);
    for i in 0..count as usize {
        let e = b.get(16 + 32 * i..48 + 32 * i).unwrap_or(&[]);
        let entry_at = at + 16 + 32 * i as u64;
        let id = e.get(..16).unwrap_or(&[]);
        let region = Region {
            offset: le64(e, 16).unwrap_or(0),
            length: u64::from(le32(e, 24).unwrap_or(0)),
        };
        let required = le32(e, 28).unwrap_or(0) & 1 != 0;
        let slot = if id == BAT_REGION {
            &mut bat
        } else if id == METADATA_REGION {
            &mut metadata
        } else if required {
            return Err(unsupported(format!(
                "region table entry at {entry_at}: unknown required region {}",
                guid_text(id)
            )));
        } else {
            continue;
        };
        if region.offset < MIB
            || !region.offset.is_multiple_of(MIB)
            || !region.length.is_multiple_of(MIB)
            || region.length == 0
            || region.offset.saturating_add(region.length) > file_len
        {
            return Err(corrupt(
                entry_at + 16,
                format!(
                    "region {} at {} ({} bytes): not 1 MiB-aligned inside the image file ({file_len} bytes)",
                    guid_text(id),
                    region.offset,
                    region.length
                ),
            ));
        }
        *slot = Some(region);
    }
    match (bat, metadata) {
        (Some(b), Some(m)) => Ok((b, m)),
        _ => Err(corrupt(
            at,
            "region table without a BAT and a metadata region",
        )),
    }
}

struct Metadata {
    block_size: u64,
    logical_sector_size: u64,
    virtual_size: u64,
    fixed: bool,
    has_parent: bool,
    disk_id: Option<String>,
    /// The parent locator as one phrase for messages, and its key/value pairs.
    parent: Option<String>,
    parent_pairs: Vec<(String, String)>,
}

fn read_metadata(file: &Bytes, region: Region) -> Result<Metadata> {
    let at = region.offset;
    let mut table = vec![0u8; 64 << 10];
    file.read_exact_at(at, &mut table)?;
    if !table.starts_with(b"metadata") {
        return Err(corrupt(at, "no `metadata` table signature"));
    }
    let count = u64::from(le16(&table, 10).unwrap_or(0));
    if count > MAX_ENTRIES {
        return Err(corrupt(
            at + 10,
            format!("{count} metadata entries (at most {MAX_ENTRIES})"),
        ));
    }
    // Each item's bytes, checked to lie in the region past the table.
    let item = |i: usize| -> Result<([u8; 16], u64, Vec<u8>, u32)> {
        let e = table.get(32 + 32 * i..64 + 32 * i).unwrap_or(&[]);
        let entry_at = at + 32 + 32 * i as u64;
        let mut id = [0u8; 16];
        id.copy_from_slice(e.get(..16).unwrap_or(&[0; 16]));
        let offset = u64::from(le32(e, 16).unwrap_or(0));
        let length = u64::from(le32(e, 20).unwrap_or(0));
        let flags = le32(e, 24).unwrap_or(0);
        if length > 0 && (offset < 64 << 10 || offset.saturating_add(length) > region.length) {
            return Err(corrupt(
                entry_at + 16,
                format!(
                    "metadata item {} at {offset} ({length} bytes) outside its region ({} bytes)",
                    guid_text(&id),
                    region.length
                ),
            ));
        }
        let mut data = vec![0u8; usize::try_from(length).unwrap_or(0)];
        file.read_exact_at(at + offset, &mut data)?;
        Ok((id, entry_at, data, flags))
    };
    let (mut params, mut size, mut sector, mut disk_id, mut parent) =
        (None, None, None, None, None);
    let mut parent_pairs = Vec::new();
    for i in 0..count as usize {
        let (id, entry_at, data, flags) = item(i)?;
        match id {
            FILE_PARAMETERS => params = Some((entry_at, data)),
            VIRTUAL_DISK_SIZE => size = Some((entry_at, data)),
            LOGICAL_SECTOR_SIZE => sector = Some((entry_at, data)),
            VIRTUAL_DISK_ID => disk_id = Some(guid_text(&data)),
            PARENT_LOCATOR => {
                parent_pairs = locator_pairs(&data);
                parent = Some(parent_locator(&data));
            }
            PHYSICAL_SECTOR_SIZE => {}
            _ if flags & 4 != 0 => {
                return Err(unsupported(format!(
                    "metadata entry at {entry_at}: unknown required item {}",
                    guid_text(&id)
                )));
            }
            _ => {}
        }
    }
    let missing = |what: &str| corrupt(at, format!("metadata without its {what} item"));
    let (params_at, params) = params.ok_or_else(|| missing("file parameters"))?;
    let (size_at, size) = size.ok_or_else(|| missing("virtual disk size"))?;
    let (sector_at, sector) = sector.ok_or_else(|| missing("logical sector size"))?;
    let block_size = u64::from(le32(&params, 0).unwrap_or(0));
    let flags = le32(&params, 4).unwrap_or(0);
    if !block_size.is_power_of_two() || !(MIB..=256 * MIB).contains(&block_size) {
        return Err(corrupt(
            params_at + 16,
            format!("block size {block_size} (a power of two from 1 MiB to 256 MiB expected)"),
        ));
    }
    let logical_sector_size = u64::from(le32(&sector, 0).unwrap_or(0));
    if logical_sector_size != 512 && logical_sector_size != 4096 {
        return Err(corrupt(
            sector_at + 16,
            format!("logical sector size {logical_sector_size} (512 or 4096 expected)"),
        ));
    }
    let virtual_size = le64(&size, 0).unwrap_or(0);
    if virtual_size > MAX_DISK || !virtual_size.is_multiple_of(logical_sector_size) {
        return Err(corrupt(
            size_at + 16,
            format!(
                "virtual disk size {virtual_size} (a multiple of the {logical_sector_size}-byte sector up to 64 TiB expected)"
            ),
        ));
    }
    Ok(Metadata {
        block_size,
        logical_sector_size,
        virtual_size,
        fixed: flags & 1 != 0,
        has_parent: flags & 2 != 0,
        disk_id,
        parent,
        parent_pairs,
    })
}

/// The parent of a differencing image, found in `beside` by its locator's paths and checked by
/// its linkage id.
fn open_parent(meta: &Metadata, beside: Option<&Beside>) -> Result<(String, Bytes)> {
    let named = meta
        .parent
        .clone()
        .unwrap_or_else(|| "(no parent locator)".to_string());
    let beside = crate::beside::required(
        beside,
        LAYER,
        &format!("differencing image: needs its parent {named}"),
    )?;
    let get = |k: &str| {
        meta.parent_pairs
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let names: Vec<String> = ["relative_path", "absolute_win32_path", "volume_path"]
        .iter()
        .filter_map(|k| get(k))
        .collect();
    let Some(name) = names.iter().find(|n| beside.resolve(n).is_some()) else {
        return Err(Error::MissingFile {
            layer: LAYER.to_string(),
            needs: format!("parent {named}"),
            folder: beside.folder().to_path_buf(),
        });
    };
    let (bytes, next) = beside.open(name, LAYER, "parent")?;
    let parent = VhdxImage::open_beside(bytes, Some(&next))?;
    let linkage = get("parent_linkage").unwrap_or_default();
    let want = linkage
        .trim_matches(|c| c == '{' || c == '}')
        .to_ascii_lowercase();
    let also = get("parent_linkage2").map(|l| {
        l.trim_matches(|c| c == '{' || c == '}')
            .to_ascii_lowercase()
    });
    let have = parent.info.data_write_guid.to_ascii_lowercase();
    if have != want && also.as_deref() != Some(have.as_str()) {
        return Err(corrupt(
            0,
            format!(
                "the parent `{name}` found beside it has DataWriteGuid {{{have}}}, but this differencing image was made over {linkage}: not its parent (or it was written since)"
            ),
        ));
    }
    if parent.len() != meta.virtual_size {
        return Err(corrupt(
            0,
            format!(
                "the parent `{name}` is {} bytes, this differencing image {}",
                parent.len(),
                meta.virtual_size
            ),
        ));
    }
    Ok((name.clone(), Arc::new(parent)))
}

/// The regions of the first valid region table copy, and what was wrong with the copies
/// before it.
fn region_tables(file: &Bytes) -> (Option<(Region, Region)>, Vec<String>) {
    let mut problems = Vec::new();
    for at in REGION_TABLES {
        match read_region_table(file, at, file.len()) {
            Ok(r) => return (Some(r), problems),
            Err(e) => problems.push(e.to_string()),
        }
    }
    (None, problems)
}

/// The names of the files the VHDX in `file` reads beside itself: a differencing image's
/// parent.
pub fn names_beside(file: &Bytes) -> Vec<String> {
    let mut ident = [0u8; 8];
    if file.read_at(0, &mut ident).ok() != Some(8) || !sniff(&ident) {
        return Vec::new();
    }
    let Some(Ok(meta)) = region_tables(file).0.map(|(_, m)| read_metadata(file, m)) else {
        return Vec::new();
    };
    if !meta.has_parent {
        return Vec::new();
    }
    ["relative_path", "absolute_win32_path", "volume_path"]
        .iter()
        .filter_map(|k| {
            meta.parent_pairs
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        })
        .collect()
}

/// The key/value pairs of a parent locator item.
fn locator_pairs(b: &[u8]) -> Vec<(String, String)> {
    let count = usize::from(le16(b, 18).unwrap_or(0)).min(b.len() / 12);
    let utf16 = |at: u32, len: u16| -> Option<String> {
        let s = b.get(at as usize..at as usize + usize::from(len))?;
        let units: Vec<u16> = s
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        Some(String::from_utf16_lossy(&units))
    };
    let mut pairs = Vec::new();
    for i in 0..count {
        let e = 20 + 12 * i;
        let (Some(ko), Some(vo), Some(kl), Some(vl)) =
            (le32(b, e), le32(b, e + 4), le16(b, e + 8), le16(b, e + 10))
        else {
            break;
        };
        if let (Some(k), Some(v)) = (utf16(ko, kl), utf16(vo, vl)) {
            pairs.push((k, v));
        }
    }
    pairs
}

/// The parent a parent locator names: its paths and linkage id, as one phrase.
fn parent_locator(b: &[u8]) -> String {
    let pairs = locator_pairs(b);
    let get = |k: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let name = get("relative_path")
        .or_else(|| get("absolute_win32_path"))
        .or_else(|| get("volume_path"));
    let mut out = match name {
        Some(n) => format!("`{n}`"),
        None => "(the locator names no path)".to_string(),
    };
    let mut also = Vec::new();
    for key in ["absolute_win32_path", "volume_path", "parent_linkage"] {
        if let Some(v) = get(key)
            && !out.contains(v.as_str())
        {
            also.push(format!("{key} {v}"));
        }
    }
    if !also.is_empty() {
        out.push_str(&format!(" ({})", also.join(", ")));
    }
    out
}

impl ByteSource for VhdxImage {
    fn len(&self) -> u64 {
        self.info.virtual_size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        let size = self.info.virtual_size;
        if offset >= size {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(size - offset) as usize;
        let block_size = self.info.block_size;
        let mut done = 0usize;
        while done < want {
            let pos = offset + done as u64;
            let n = ((block_size - pos % block_size) as usize).min(want - done);
            let Some(out) = buf.get_mut(done..done + n) else {
                break;
            };
            self.read_block(pos, out)?;
            done += n;
        }
        Ok(want)
    }

    fn layer_name(&self) -> String {
        format!(
            "{LAYER} ({})",
            if self.info.fixed {
                "fixed"
            } else if self.parent.is_some() {
                "differencing"
            } else {
                "dynamic"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guids_are_stored_mixed_endian_and_print_as_written() {
        assert_eq!(
            BAT_REGION,
            [
                0x66, 0x77, 0xC2, 0x2D, 0x23, 0xF6, 0x00, 0x42, 0x9D, 0x64, 0x11, 0x5E, 0x9B, 0xFD,
                0x4A, 0x08
            ]
        );
        assert_eq!(
            guid_text(&METADATA_REGION),
            "8b7ca206-4790-4b9a-b8fe-575f050f886e"
        );
    }

    #[test]
    fn a_parent_locator_names_the_relative_path_then_the_rest() {
        let mut b = vec![0u8; 20 + 24];
        b[18] = 2;
        let mut strings = Vec::new();
        let mut put = |s: &str| {
            let at = 44 + strings.len();
            let u: Vec<u8> = s.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
            strings.extend_from_slice(&u);
            (at as u32, u.len() as u16)
        };
        let k1 = put("relative_path");
        let v1 = put(".\\base.vhdx");
        let k2 = put("parent_linkage");
        let v2 = put("{5eed0001-0000-4000-8000-000000000009}");
        for (i, (k, v)) in [(k1, v1), (k2, v2)].into_iter().enumerate() {
            let e = 20 + 12 * i;
            b[e..e + 4].copy_from_slice(&k.0.to_le_bytes());
            b[e + 4..e + 8].copy_from_slice(&v.0.to_le_bytes());
            b[e + 8..e + 10].copy_from_slice(&k.1.to_le_bytes());
            b[e + 10..e + 12].copy_from_slice(&v.1.to_le_bytes());
        }
        b.extend_from_slice(&strings);
        assert_eq!(
            parent_locator(&b),
            "`.\\base.vhdx` (parent_linkage {5eed0001-0000-4000-8000-000000000009})"
        );
    }
}
