//! APM: the Apple Partition Map, read by hand (see the parent module for why).
//!
//! Block 0 may hold a driver descriptor map (`ER`, its block size at byte 2); the map's entries
//! fill blocks 1, 2, … one per block, each 512 bytes used: `PM`, the number of entries in the
//! map, the partition's first block and block count, a 32-byte name, a 32-byte type, and the
//! status word at byte 88 (Inside Macintosh: Devices; Apple TN1189). All numbers are
//! big-endian and in units of the map's block size.

use super::{
    Geometry, MAX_APM_ENTRIES, PartitionRole, VolumeKind, VolumeSystem, cap_diagnostics,
    make_partition, report_overlaps,
};
use crate::Error;
use crate::bytes::{ByteSource, Bytes};
use crate::endian::{be16, be32, field};

const LAYER: &str = "apm";
/// The bytes of a block that an entry (or the driver descriptor map) uses.
const ENTRY: usize = 512;
/// The type of the entry that describes the map itself.
pub(crate) const MAP_TYPE: &str = "Apple_partition_map";
/// The type of an entry that describes unused space.
pub(crate) const FREE_TYPE: &str = "Apple_Free";

/// One map entry, as stored.
struct Entry {
    map_entries: u32,
    start: u32,
    blocks: u32,
    name: String,
    kind: String,
    status: u32,
}

impl Entry {
    /// The entry in a block's first 512 bytes; `None` without the `PM` signature.
    fn parse(raw: &[u8]) -> Option<Entry> {
        if field(raw, 0, 2)? != b"PM" {
            return None;
        }
        Some(Entry {
            map_entries: be32(raw, 4)?,
            start: be32(raw, 8)?,
            blocks: be32(raw, 12)?,
            name: mac_roman(field(raw, 16, 32)?),
            kind: mac_roman(field(raw, 48, 32)?),
            status: be32(raw, 88)?,
        })
    }

    /// What [`sniff`] asks of the first entry: `PM`, a map of at least one entry, and a type
    /// that starts with a printable ASCII character (two stray bytes `PM` are not a map).
    fn plausible(raw: &[u8]) -> bool {
        Entry::parse(raw).is_some_and(|e| {
            e.map_entries >= 1 && raw.get(48).is_some_and(|c| (0x20..0x7f).contains(c))
        })
    }
}

/// The block size of the driver descriptor map in block 0 (`ER`); `None` without one.
fn ddm_block_size(block0: &[u8]) -> Option<u64> {
    if field(block0, 0, 2)? != b"ER" {
        return None;
    }
    be16(block0, 2).map(u64::from)
}

/// The block sizes the map is looked for with, in order: 512 (what Apple's tools, parted and
/// xorriso write by default, and what TSK's `mmls` reads), the driver descriptor map's block
/// size when it is another power of two up to 4096 (xorriso `-apm-block-size 2048`: Linux reads
/// the map that way, and so does `mmls -b 2048`), and 4096 (TSK's second try).
fn block_sizes(block0: &[u8]) -> Vec<u64> {
    let mut sizes = vec![512];
    if let Some(bs) = ddm_block_size(block0)
        && bs.is_power_of_two()
        && (1024..=4096).contains(&bs)
    {
        sizes.push(bs);
    }
    if !sizes.contains(&4096) {
        sizes.push(4096);
    }
    sizes
}

/// The map's block size, when `bytes` holds an Apple partition map: block 0 is a driver
/// descriptor map (`ER`) or zeros, and block 1 holds a plausible first entry.
pub(crate) fn sniff(bytes: &dyn ByteSource, block0: &[u8; 512]) -> Option<u64> {
    if ddm_block_size(block0).is_none() && block0.iter().any(|&b| b != 0) {
        return None;
    }
    block_sizes(block0).into_iter().find(|&bs| {
        let mut raw = [0u8; ENTRY];
        bytes.read_exact_at(bs, &mut raw).is_ok() && Entry::plausible(&raw)
    })
}

pub(super) fn open(disk: &Bytes) -> Result<VolumeSystem, Error> {
    let mut block0 = [0u8; 512];
    disk.read_exact_at(0, &mut block0)?;
    let bs = sniff(&**disk, &block0).ok_or_else(|| Error::Corrupt {
        layer: LAYER.to_string(),
        offset: 512,
        detail: "no partition map entry (`PM`) in block 1".to_string(),
    })?;
    let mut diagnostics = Vec::new();
    if let Some(ddm) = ddm_block_size(&block0)
        && ddm != bs
    {
        diagnostics.push(format!(
            "the driver descriptor map gives {ddm}-byte blocks; the map was found with {bs}-byte blocks"
        ));
    }
    let mut raw = [0u8; ENTRY];
    disk.read_exact_at(bs, &mut raw)?;
    let declared = Entry::parse(&raw).map_or(0, |e| e.map_entries);
    // Entries 1..=count lie in blocks 1..=count: no more than the disk holds, nor the limit.
    let disk_blocks = disk.len() / bs;
    let mut count = u64::from(declared);
    if count > u64::from(MAX_APM_ENTRIES) {
        diagnostics.push(format!(
            "the map claims {declared} entries, more than {MAX_APM_ENTRIES}; only the first {MAX_APM_ENTRIES} were read"
        ));
        count = u64::from(MAX_APM_ENTRIES);
    }
    if count >= disk_blocks {
        diagnostics.push(format!(
            "the map claims {declared} entries, but the disk ends after block {} (a truncated image?)",
            disk_blocks.saturating_sub(1)
        ));
        count = disk_blocks.saturating_sub(1);
    }

    let mut partitions = Vec::new();
    for n in 1..=count {
        let at = n * bs;
        if let Err(e) = disk.read_exact_at(at, &mut raw) {
            diagnostics.push(format!(
                "map entry {n} at byte {at} cannot be read ({e}); the map stops there"
            ));
            break;
        }
        let Some(e) = Entry::parse(&raw) else {
            diagnostics.push(format!(
                "map entry {n} at byte {at} has no `PM` signature; the map stops after {} of {declared} entries",
                n - 1
            ));
            break;
        };
        if e.map_entries != declared {
            diagnostics.push(format!(
                "map entry {n} says the map has {} entries, entry 1 says {declared}",
                e.map_entries
            ));
        }
        if e.blocks == 0 {
            diagnostics.push(format!(
                "map entry {n} ({:?}, type {:?}) has no blocks; ignored",
                e.name, e.kind
            ));
            continue;
        }
        let geometry = Geometry {
            first_lba: u64::from(e.start),
            sector_count: u64::from(e.blocks),
            sector_size: bs,
        };
        if e.kind == MAP_TYPE && geometry.sector_count < u64::from(declared) {
            diagnostics.push(format!(
                "the map claims {declared} entries, but its own entry ({n}) covers only {} blocks",
                e.blocks
            ));
        }
        partitions.push(make_partition(
            disk,
            u32::try_from(n).unwrap_or(u32::MAX),
            e.name,
            PartitionRole::Apm,
            e.kind.clone(),
            e.kind,
            None,
            u64::from(e.status),
            &geometry,
            &mut diagnostics,
        ));
    }
    report_overlaps(&partitions, &mut diagnostics);
    cap_diagnostics(&mut diagnostics);
    Ok(VolumeSystem {
        kind: VolumeKind::Apm,
        sector_size: u32::try_from(bs).unwrap_or(u32::MAX),
        disk_guid: None,
        partitions,
        diagnostics,
    })
}

/// Mac OS Roman, bytes 0x80–0xFF (Apple's mapping table, with the euro sign at 0xDB and the
/// Apple logo at 0xF0 as the private-use character U+F8FF).
const MAC_ROMAN_HIGH: [char; 128] = [
    'Ä', 'Å', 'Ç', 'É', 'Ñ', 'Ö', 'Ü', 'á', 'à', 'â', 'ä', 'ã', 'å', 'ç', 'é', 'è', //
    'ê', 'ë', 'í', 'ì', 'î', 'ï', 'ñ', 'ó', 'ò', 'ô', 'ö', 'õ', 'ú', 'ù', 'û', 'ü', //
    '†', '°', '¢', '£', '§', '•', '¶', 'ß', '®', '©', '™', '´', '¨', '≠', 'Æ', 'Ø', //
    '∞', '±', '≤', '≥', '¥', 'µ', '∂', '∑', '∏', 'π', '∫', 'ª', 'º', 'Ω', 'æ', 'ø', //
    '¿', '¡', '¬', '√', 'ƒ', '≈', '∆', '«', '»', '…', '\u{a0}', 'À', 'Ã', 'Õ', 'Œ', 'œ', //
    '–', '—', '“', '”', '‘', '’', '÷', '◊', 'ÿ', 'Ÿ', '⁄', '€', '‹', '›', 'ﬁ', 'ﬂ', //
    '‡', '·', '‚', '„', '‰', 'Â', 'Ê', 'Á', 'Ë', 'È', 'Í', 'Î', 'Ï', 'Ì', 'Ó', 'Ô', //
    '\u{f8ff}', 'Ò', 'Ú', 'Û', 'Ù', 'ı', 'ˆ', '˜', '¯', '˘', '˙', '˚', '¸', '˝', '˛', 'ˇ', //
];

/// A name or type field: up to the first NUL, Mac OS Roman (ASCII below 0x80).
pub(crate) fn mac_roman(b: &[u8]) -> String {
    b.iter()
        .take_while(|&&c| c != 0)
        .map(|&c| {
            if c < 0x80 {
                char::from(c)
            } else {
                MAC_ROMAN_HIGH
                    .get(usize::from(c - 0x80))
                    .copied()
                    .unwrap_or(char::REPLACEMENT_CHARACTER)
            }
        })
        .collect()
}
