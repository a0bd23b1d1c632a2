//! MBR: the primary table through `mbrman`, the chain of extended boot records by hand (see the
//! parent module for why).

use std::collections::BTreeSet;

use super::{
    Geometry, MAX_LOGICAL_PARTITIONS, Partition, PartitionRole, VolumeKind, VolumeSystem,
    cap_diagnostics, make_partition, report_overlaps, types,
};
use crate::Error;
use crate::bytes::{Bytes, Reader};

const LAYER: &str = "mbr";
const SECTOR: u64 = 512;

/// A 16-byte partition entry as stored in an MBR or EBR.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RawEntry {
    pub boot: u8,
    pub kind: u8,
    pub start: u32,
    pub sectors: u32,
}

impl RawEntry {
    fn parse(sector: &[u8; 512], slot: usize) -> RawEntry {
        let at = 446 + 16 * slot;
        let byte = |i: usize| sector.get(at + i).copied().unwrap_or(0);
        let le32 = |i: usize| u32::from_le_bytes([byte(i), byte(i + 1), byte(i + 2), byte(i + 3)]);
        RawEntry {
            boot: byte(0),
            kind: byte(4),
            start: le32(8),
            sectors: le32(12),
        }
    }

    fn is_blank(&self) -> bool {
        self.kind == 0 && self.start == 0 && self.sectors == 0
    }
}

/// Extended (container) partition types: DOS CHS, DOS LBA, Linux, and DR-DOS secured ones.
fn is_extended(kind: u8) -> bool {
    matches!(kind, 0x05 | 0x0f | 0x85 | 0xc5 | 0xd5)
}

fn has_signature(sector: &[u8; 512]) -> bool {
    sector.get(510..512) == Some(&[0x55, 0xAA][..])
}

/// The four entries of a sector that looks like a partition table: boot signature, boot flags
/// 0x00 or 0x80, at least one entry with a type and sectors, and every such entry starting after
/// sector 0 (entries with a type but no sectors are ignored here, and reported by `open`).
pub(crate) fn plausible_table(sector: &[u8; 512]) -> Option<[RawEntry; 4]> {
    if !has_signature(sector) {
        return None;
    }
    let entries = [0, 1, 2, 3].map(|slot| RawEntry::parse(sector, slot));
    if entries.iter().any(|e| e.boot != 0x00 && e.boot != 0x80) {
        return None;
    }
    let used: Vec<&RawEntry> = entries
        .iter()
        .filter(|e| e.kind != 0 && e.sectors != 0)
        .collect();
    if used.is_empty() || used.iter().any(|e| e.start == 0) {
        return None;
    }
    Some(entries)
}

fn type_name(kind: u8) -> String {
    types::mbr_type_name(kind).unwrap_or("unknown").to_string()
}

pub(super) fn open(disk: &Bytes) -> Result<VolumeSystem, Error> {
    let mut reader = Reader::new(disk.clone());
    let header = mbrman::MBRHeader::read_from(&mut reader).map_err(|e| Error::Corrupt {
        layer: LAYER.to_string(),
        offset: 0,
        detail: format!("master boot record unreadable: {e}"),
    })?;
    let mut diagnostics = Vec::new();
    let mut partitions = Vec::new();
    let mut containers = Vec::new();
    for (slot, entry) in header.iter() {
        if entry.is_unused() {
            continue;
        }
        if entry.sectors == 0 {
            diagnostics.push(format!(
                "primary slot {slot} has type {:#04x} but no sectors; ignored",
                entry.sys
            ));
            continue;
        }
        let extended = is_extended(entry.sys);
        let geometry = Geometry {
            first_lba: u64::from(entry.starting_lba),
            sector_count: u64::from(entry.sectors),
            sector_size: SECTOR,
        };
        let partition = make_partition(
            disk,
            u32::try_from(slot).unwrap_or(u32::MAX),
            String::new(),
            if extended {
                PartitionRole::Extended
            } else {
                PartitionRole::Primary
            },
            format!("{:#04x}", entry.sys),
            type_name(entry.sys),
            None,
            u64::from(entry.boot),
            &geometry,
            &mut diagnostics,
        );
        if extended {
            containers.push((geometry.first_lba, geometry.sector_count));
        }
        partitions.push(partition);
    }
    if containers.len() > 1 {
        diagnostics.push(format!(
            "{} extended partitions in the primary table (one is usual); each chain was followed",
            containers.len()
        ));
    }
    let mut next_index = 5u32;
    for (start, sectors) in containers {
        walk_chain(
            disk,
            start,
            sectors,
            &mut next_index,
            &mut partitions,
            &mut diagnostics,
        );
    }
    report_overlaps(&partitions, &mut diagnostics);
    cap_diagnostics(&mut diagnostics);
    let signature = u32::from_le_bytes(header.disk_signature);
    Ok(VolumeSystem {
        kind: VolumeKind::Mbr,
        sector_size: SECTOR as u32,
        disk_guid: (signature != 0).then(|| format!("{signature:08x}")),
        partitions,
        diagnostics,
    })
}

/// Follows the EBR chain of one extended partition. Each EBR holds a logical partition (entry 1,
/// relative to the EBR) and a link to the next EBR (entry 2, relative to the extended
/// partition). Stops at the end of the chain, at a sector already visited (a loop), at a bad or
/// unreadable EBR, or after [`MAX_LOGICAL_PARTITIONS`] links, saying why.
fn walk_chain(
    disk: &Bytes,
    ext_start: u64,
    ext_sectors: u64,
    next_index: &mut u32,
    partitions: &mut Vec<Partition>,
    diagnostics: &mut Vec<String>,
) {
    let ext_end = ext_start.saturating_add(ext_sectors);
    let mut ebr = ext_start;
    let mut visited = BTreeSet::new();
    for step in 0..=MAX_LOGICAL_PARTITIONS {
        if step == MAX_LOGICAL_PARTITIONS {
            diagnostics.push(format!(
                "the EBR chain of the extended partition at sector {ext_start} has more than {MAX_LOGICAL_PARTITIONS} links; stopped there"
            ));
            break;
        }
        if !visited.insert(ebr) {
            diagnostics.push(format!(
                "the EBR chain of the extended partition at sector {ext_start} loops back to sector {ebr}; stopped after {} link(s)",
                step
            ));
            break;
        }
        let mut sector = [0u8; 512];
        if let Err(e) = disk.read_exact_at(ebr.saturating_mul(SECTOR), &mut sector) {
            diagnostics.push(format!(
                "the EBR at sector {ebr} cannot be read ({e}); the chain stops there"
            ));
            break;
        }
        if !has_signature(&sector) {
            if step == 0 {
                diagnostics.push(format!(
                    "the extended partition at sector {ext_start} holds no EBR (no logical partitions)"
                ));
            } else {
                diagnostics.push(format!(
                    "the EBR at sector {ebr} has no 0x55AA signature; the chain stops there"
                ));
            }
            break;
        }
        let logical = RawEntry::parse(&sector, 0);
        let link = RawEntry::parse(&sector, 1);
        if !RawEntry::parse(&sector, 2).is_blank() || !RawEntry::parse(&sector, 3).is_blank() {
            diagnostics.push(format!(
                "the EBR at sector {ebr} uses entries 3-4 (ignored, as Linux does)"
            ));
        }
        if logical.kind != 0 && !is_extended(logical.kind) {
            if logical.sectors == 0 {
                diagnostics.push(format!(
                    "the EBR at sector {ebr} describes a partition of type {:#04x} with no sectors; ignored",
                    logical.kind
                ));
            } else {
                let geometry = Geometry {
                    first_lba: ebr.saturating_add(u64::from(logical.start)),
                    sector_count: u64::from(logical.sectors),
                    sector_size: SECTOR,
                };
                if geometry.first_lba <= ebr || geometry.last_lba() >= ext_end {
                    diagnostics.push(format!(
                        "logical partition {} (sectors {}-{}) is not inside its extended partition (sectors {}-{}) after its EBR at sector {ebr}",
                        *next_index,
                        geometry.first_lba,
                        geometry.last_lba(),
                        ext_start,
                        ext_end.saturating_sub(1)
                    ));
                }
                partitions.push(make_partition(
                    disk,
                    *next_index,
                    String::new(),
                    PartitionRole::Logical,
                    format!("{:#04x}", logical.kind),
                    type_name(logical.kind),
                    None,
                    u64::from(logical.boot),
                    &geometry,
                    diagnostics,
                ));
                *next_index = next_index.saturating_add(1);
            }
        } else if logical.kind != 0 {
            diagnostics.push(format!(
                "the first entry of the EBR at sector {ebr} has the extended type {:#04x}; ignored",
                logical.kind
            ));
        }
        if link.kind == 0 || (link.start == 0 && link.sectors == 0) {
            break;
        }
        if !is_extended(link.kind) {
            diagnostics.push(format!(
                "the second entry of the EBR at sector {ebr} has type {:#04x}, not a link to the next EBR; the chain stops there",
                link.kind
            ));
            break;
        }
        ebr = ext_start.saturating_add(u64::from(link.start));
    }
}
