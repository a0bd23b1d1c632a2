//! Android dynamic partitions: the `super` partition's liblp metadata, split into its logical
//! partitions (`system_a`, `vendor_a`, `product_b`, …) by name, each a [`ByteSource`] of its
//! extents in order.
//!
//! # Why a hand-written reader
//!
//! The format is AOSP's `liblp/metadata_format.h` (Apache-2.0): 4 KiB reserved, a 52-byte
//! geometry (magic `gDla`, SHA-256 checksum, metadata size and slot count, block size) at 4096
//! and its backup at 8192, then the metadata slots, primaries first and backups after, from
//! 12288. A slot is a header (magic `0PLA`, version 10.0–10.2, SHA-256 of the header and of the
//! tables) and four tables: partitions (name, attributes, extents, group), extents (sectors,
//! linear or zero, target sector, block device), groups and block devices. No Rust crate reads
//! it; the reader is this table walk with every checksum and bound checked.
//!
//! # Which copy, and what is refused
//!
//! The primary geometry is used when its checksum holds, else the backup; slot 0's primary
//! metadata likewise, else its backup (said in [`SuperImage::notes`]). Slot 0 is what the
//! device booted from last (AOSP's `lpdump` default); A/B devices name both slots' partitions
//! in it (`_a`, `_b`), the inactive ones usually without extents. An extent on another block
//! device than the first (a "retrofit" super split over `system_a`/`vendor_a` partitions of
//! the disk) is no part of this image: that partition is listed with the reason instead of
//! bytes. Extents must lie inside the image and be whole sectors; tables must lie inside the
//! slot; counts come from the tables actually present, never from a claimed size beyond them.

use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::bytes::{Bytes, Concat, Slice};
use crate::endian::{le16, le32, le64};
use crate::{Error, Result};

const LAYER: &str = "android_super";
/// The geometry's magic (`gDla`).
pub const GEOMETRY_MAGIC: u32 = 0x616C_4467;
/// A metadata header's magic (`0PLA`).
pub const HEADER_MAGIC: u32 = 0x414C_5030;
const RESERVED: u64 = 4096;
const GEOMETRY_SIZE: u64 = 4096;
const SECTOR: u64 = 512;
/// Largest metadata slot accepted (AOSP's own limit is 64 KiB per slot on most devices).
const MAX_METADATA: u32 = 1 << 20;
/// Most slots accepted (A/B and virtual A/B use 2 or 3).
const MAX_SLOTS: u32 = 8;

/// The geometry block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub metadata_max_size: u32,
    pub metadata_slot_count: u32,
    pub logical_block_size: u32,
}

/// One logical partition.
pub struct LogicalPartition {
    /// Its name with the slot suffix (`system_a`).
    pub name: String,
    /// Its group (`main_a`, `default`).
    pub group: String,
    /// `LP_PARTITION_ATTR_*`: 1 read-only, 2 slot-suffixed, 4 updated, 8 disabled.
    pub attributes: u32,
    /// Size in bytes (the sum of its extents).
    pub size: u64,
    /// Byte offset of its first linear extent in the image.
    pub offset: Option<u64>,
    /// Its bytes; none when it has no extent or lies on another block device.
    pub bytes: Option<Bytes>,
    /// Why it has no bytes.
    pub why_none: Option<String>,
}

/// The `super` image, read.
pub struct SuperImage {
    pub geometry: Geometry,
    pub version: (u16, u16),
    pub block_devices: Vec<String>,
    pub partitions: Vec<LogicalPartition>,
    /// Which copies were used when a primary was damaged.
    pub notes: Vec<String>,
}

fn corrupt(offset: u64, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset,
        detail: detail.into(),
    }
}

fn read(bytes: &Bytes, at: u64, len: usize) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; len];
    bytes.read_exact_at(at, &mut buf)?;
    Ok(buf)
}

/// A NUL-padded name of `len` bytes.
fn name(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).into_owned()
}

fn geometry_at(bytes: &Bytes, at: u64) -> Result<Geometry> {
    let g = read(bytes, at, 52)?;
    if le32(&g, 0) != Some(GEOMETRY_MAGIC) || le32(&g, 4) != Some(52) {
        return Err(corrupt(at, "no liblp geometry (magic gDla, 52 bytes)"));
    }
    let mut zeroed = g.clone();
    zeroed[8..40].fill(0);
    if Sha256::digest(&zeroed).as_slice() != &g[8..40] {
        return Err(corrupt(at, "geometry checksum mismatch"));
    }
    let geometry = Geometry {
        metadata_max_size: le32(&g, 40).unwrap_or(0),
        metadata_slot_count: le32(&g, 44).unwrap_or(0),
        logical_block_size: le32(&g, 48).unwrap_or(0),
    };
    let ok_size = geometry.metadata_max_size > 0
        && geometry.metadata_max_size <= MAX_METADATA
        && geometry.metadata_max_size.is_multiple_of(SECTOR as u32);
    let ok_slots = (1..=MAX_SLOTS).contains(&geometry.metadata_slot_count);
    let ok_block =
        geometry.logical_block_size >= 512 && geometry.logical_block_size.is_power_of_two();
    if !(ok_size && ok_slots && ok_block) {
        return Err(corrupt(at, format!("geometry out of range: {geometry:?}")));
    }
    Ok(geometry)
}

/// One table of a slot: its entries' bytes.
fn table<'a>(
    tables: &'a [u8],
    header: &[u8],
    at: usize,
    entry: u32,
    what: &str,
    slot_at: u64,
) -> Result<Vec<&'a [u8]>> {
    let (offset, count, size) = (
        le32(header, at).unwrap_or(0) as usize,
        le32(header, at + 4).unwrap_or(0) as usize,
        le32(header, at + 8).unwrap_or(0),
    );
    if count > 0 && size < entry {
        return Err(corrupt(
            slot_at,
            format!("{what} entries of {size} bytes, fewer than the {entry} the format needs"),
        ));
    }
    let end = count
        .checked_mul(size as usize)
        .and_then(|n| n.checked_add(offset))
        .filter(|&end| end <= tables.len())
        .ok_or_else(|| {
            corrupt(
                slot_at,
                format!("{what} table ({count} x {size} at {offset}) runs past the tables"),
            )
        })?;
    Ok(tables[offset..end].chunks(size.max(1) as usize).collect())
}

/// The metadata slot at `at`: header and tables, checksums verified.
fn metadata_at(bytes: &Bytes, at: u64, max: u32) -> Result<(Vec<u8>, Vec<u8>)> {
    let head = read(bytes, at, 128)?;
    if le32(&head, 0) != Some(HEADER_MAGIC) {
        return Err(corrupt(at, "no liblp metadata header (magic 0PLA)"));
    }
    let (major, minor) = (le16(&head, 4).unwrap_or(0), le16(&head, 6).unwrap_or(0));
    let header_size = le32(&head, 8).unwrap_or(0);
    let expected = if minor >= 2 { 256 } else { 128 };
    if major != 10 || minor > 2 || header_size != expected {
        return Err(Error::Unsupported {
            layer: LAYER.to_string(),
            detail: format!(
                "metadata version {major}.{minor} with a {header_size}-byte header at {at} \
                 (10.0 to 10.2 are read)"
            ),
        });
    }
    let header = read(bytes, at, header_size as usize)?;
    let mut zeroed = header.clone();
    zeroed[12..44].fill(0);
    if Sha256::digest(&zeroed).as_slice() != &header[12..44] {
        return Err(corrupt(at, "metadata header checksum mismatch"));
    }
    let tables_size = le32(&header, 44).unwrap_or(0);
    if u64::from(header_size) + u64::from(tables_size) > u64::from(max) {
        return Err(corrupt(
            at,
            format!("tables of {tables_size} bytes overflow the {max}-byte slot"),
        ));
    }
    let tables = read(bytes, at + u64::from(header_size), tables_size as usize)?;
    if Sha256::digest(&tables).as_slice() != &header[48..80] {
        return Err(corrupt(at, "metadata tables checksum mismatch"));
    }
    Ok((header, tables))
}

/// Reads the `super` image in `bytes`.
pub fn open(bytes: &Bytes) -> Result<SuperImage> {
    let mut notes = Vec::new();
    let geometry = match geometry_at(bytes, RESERVED) {
        Ok(g) => g,
        Err(primary) => {
            let g = geometry_at(bytes, RESERVED + GEOMETRY_SIZE)?;
            notes.push(format!(
                "primary geometry unusable ({primary}); the backup was read"
            ));
            g
        }
    };
    let base = RESERVED + 2 * GEOMETRY_SIZE;
    let max = geometry.metadata_max_size;
    let primary = base;
    let backup = base + u64::from(geometry.metadata_slot_count) * u64::from(max);
    let (header, tables) = match metadata_at(bytes, primary, max) {
        Ok(m) => m,
        Err(e) => {
            let m = metadata_at(bytes, backup, max)?;
            notes.push(format!(
                "slot 0's primary metadata unusable ({e}); its backup was read"
            ));
            m
        }
    };
    let version = (le16(&header, 4).unwrap_or(0), le16(&header, 6).unwrap_or(0));
    let at = primary;
    let parts = table(&tables, &header, 80, 52, "partition", at)?;
    let extents = table(&tables, &header, 92, 24, "extent", at)?;
    let groups = table(&tables, &header, 104, 48, "group", at)?;
    let devices = table(&tables, &header, 116, 64, "block device", at)?;
    if devices.is_empty() {
        return Err(corrupt(at, "no block device in the metadata"));
    }
    let block_devices: Vec<String> = devices.iter().map(|d| name(&d[24..60])).collect();
    let image_len = bytes.len();
    let mut partitions = Vec::with_capacity(parts.len());
    for p in parts {
        let pname = name(&p[..36]);
        let attributes = le32(p, 36).unwrap_or(0);
        let first = le32(p, 40).unwrap_or(0) as usize;
        let count = le32(p, 44).unwrap_or(0) as usize;
        let group = groups
            .get(le32(p, 48).unwrap_or(0) as usize)
            .map(|g| name(&g[..36]))
            .unwrap_or_default();
        let mine = first
            .checked_add(count)
            .and_then(|end| extents.get(first..end))
            .ok_or_else(|| {
                corrupt(
                    at,
                    format!("partition {pname}: extents {first}+{count} beyond the extent table"),
                )
            })?;
        let mut pieces: Vec<Bytes> = Vec::with_capacity(mine.len());
        let (mut size, mut offset, mut why_none) = (0u64, None, None);
        for e in mine {
            let sectors = le64(e, 0).unwrap_or(0);
            let len = sectors.checked_mul(SECTOR).ok_or_else(|| {
                corrupt(
                    at,
                    format!("partition {pname}: extent of {sectors} sectors"),
                )
            })?;
            size = size.saturating_add(len);
            match (le32(e, 8), le32(e, 20)) {
                // linear, on this image
                (Some(0), Some(0)) => {
                    let start = le64(e, 12).unwrap_or(0).saturating_mul(SECTOR);
                    if start.checked_add(len).is_none_or(|end| end > image_len) {
                        return Err(corrupt(
                            start,
                            format!(
                                "partition {pname}: extent of {len} bytes at {start} runs past \
                                 the image's {image_len} bytes"
                            ),
                        ));
                    }
                    offset.get_or_insert(start);
                    pieces.push(Arc::new(Slice::new(
                        bytes.clone(),
                        start,
                        len,
                        format!("logical partition {pname}"),
                    )));
                }
                // zero
                (Some(1), _) => pieces.push(Arc::new(crate::bytes::Zeros(len))),
                (Some(0), Some(dev)) => {
                    why_none = Some(format!(
                        "an extent lies on block device {} ({}), not in this image",
                        dev,
                        block_devices.get(dev as usize).map_or("?", String::as_str)
                    ));
                }
                (kind, _) => {
                    return Err(corrupt(
                        at,
                        format!("partition {pname}: extent target type {kind:?}"),
                    ));
                }
            }
        }
        if mine.is_empty() {
            why_none = Some("no extents (the other slot's copy, or not flashed)".to_string());
        }
        let bytes = why_none.is_none().then(|| {
            Arc::new(Concat::named(pieces, format!("logical partition {pname}"))) as Bytes
        });
        partitions.push(LogicalPartition {
            name: pname,
            group,
            attributes,
            size,
            offset,
            bytes,
            why_none,
        });
    }
    Ok(SuperImage {
        geometry,
        version,
        block_devices,
        partitions,
        notes,
    })
}
