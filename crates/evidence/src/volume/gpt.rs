//! GPT: headers and entry arrays through the `gpt` crate, every field checked before the crate
//! is trusted with it (see the parent module for why).

use std::sync::Arc;

use gpt::disk::LogicalBlockSize;
use gpt::header::{Header, HeaderError};

use super::{
    Geometry, MAX_GPT_TABLE_BYTES, PartitionRole, VolumeKind, VolumeSystem, cap_diagnostics,
    make_partition, report_overlaps, types,
};
use crate::Error;
use crate::bytes::{Bytes, Reader, Slice};

const LAYER: &str = "gpt";

/// One entry of an entry array, as read by the crate or by [`parse_entries`].
struct Entry {
    slot: u32,
    type_guid: String,
    guid: String,
    first_lba: u64,
    last_lba: u64,
    attributes: u64,
    name: String,
}

const NIL_GUID: &str = "00000000-0000-0000-0000-000000000000";

/// An error of this layer in a few words, for a diagnostic or a combined error (without the
/// layer name the message would otherwise repeat).
fn describe(e: &Error) -> String {
    match e {
        Error::Corrupt { offset, detail, .. } => format!("{detail} (byte {offset})"),
        Error::Truncated { offset, wanted, .. } => {
            format!("{wanted} bytes at byte {offset} lie beyond the end of the disk")
        }
        Error::TooLarge {
            offset,
            what,
            claimed,
            limit,
            ..
        } => format!("{what}: {claimed} bytes, over the limit of {limit} (byte {offset})"),
        other => other.to_string(),
    }
}

fn corrupt(offset: u64, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset,
        detail: detail.into(),
    }
}

pub(super) fn open(disk: &Bytes) -> Result<VolumeSystem, Error> {
    let mut sizes: Vec<u64> = [512u64, 4096]
        .into_iter()
        .filter(|&ss| {
            let mut sig = [0u8; 8];
            disk.read_exact_at(ss, &mut sig).is_ok() && &sig == b"EFI PART"
        })
        .collect();
    if sizes.is_empty() {
        // A protective MBR without a primary header: look for a backup header at the end.
        sizes = vec![512, 4096];
    }
    let mut first_error = None;
    for ss in sizes {
        match open_with_sector_size(disk, ss) {
            Ok(vs) => return Ok(vs),
            Err(e) => {
                if first_error.is_none() {
                    first_error = Some(e);
                }
            }
        }
    }
    Err(first_error.unwrap_or_else(|| corrupt(0, "no GPT header found")))
}

fn open_with_sector_size(disk: &Bytes, ss: u64) -> Result<VolumeSystem, Error> {
    let disk_len = disk.len();
    let sectors = disk_len / ss;
    if sectors < 2 {
        return Err(Error::Truncated {
            layer: LAYER.to_string(),
            offset: disk_len,
            wanted: 2 * ss,
        });
    }
    let last_lba = sectors - 1;
    let mut diagnostics = Vec::new();

    let primary =
        read_header(disk, 1, ss).and_then(|h| check_header(&h, 1, ss, disk_len).map(|()| h));
    let primary_entries = primary.as_ref().ok().map(|h| read_entries(disk, h, ss));

    // Where the backup should be: where the primary says, if that is on the disk; else the last
    // sector (where it is when the image is complete).
    let backup_lba = match &primary {
        Ok(h) if h.backup_lba > 1 && h.backup_lba <= last_lba => h.backup_lba,
        Ok(h) => {
            diagnostics.push(format!(
                "the primary header places the backup header at sector {}, but the disk has {sectors} sectors of {ss} bytes (a truncated image?)",
                h.backup_lba
            ));
            last_lba
        }
        Err(_) => last_lba,
    };
    if let Ok(h) = &primary
        && h.backup_lba < last_lba
    {
        diagnostics.push(format!(
            "the disk extends {} sectors past the backup header at sector {} (the image is larger than the disk the table was made for)",
            last_lba - h.backup_lba,
            h.backup_lba
        ));
    }
    let backup = if backup_lba > 1 {
        read_header(disk, backup_lba, ss)
            .and_then(|h| check_header(&h, backup_lba, ss, disk_len).map(|()| h))
    } else {
        Err(corrupt(0, "the disk is too small for a backup header"))
    };

    let (header, header_lba, entries) = match (primary, primary_entries) {
        (Ok(h), Some(Ok(entries))) => {
            match &backup {
                Ok(b) => {
                    if b.disk_guid != h.disk_guid || b.crc32_parts != h.crc32_parts {
                        diagnostics.push(format!(
                            "the backup header at sector {backup_lba} disagrees with the primary (disk GUID {:X} vs {:X}, entry array CRC {:#010x} vs {:#010x}); the primary was used",
                            b.disk_guid, h.disk_guid, b.crc32_parts, h.crc32_parts
                        ));
                    }
                }
                Err(e) => diagnostics.push(format!(
                    "backup GPT header at sector {backup_lba} is unusable ({}); the primary was used",
                    describe(e)
                )),
            }
            (h, 1, entries)
        }
        (primary, primary_entries) => {
            let primary_problem = match (&primary, primary_entries) {
                (Err(e), _) => describe(e),
                (Ok(_), Some(Err(e))) => describe(&e),
                (Ok(_), _) => "unreadable".to_string(),
            };
            let backup_entries = backup.as_ref().ok().map(|h| read_entries(disk, h, ss));
            match (backup, backup_entries) {
                (Ok(b), Some(Ok(entries))) => {
                    diagnostics.push(format!(
                        "primary GPT header at sector 1 is unusable ({primary_problem}); the backup header at sector {backup_lba} was used"
                    ));
                    (b, backup_lba, entries)
                }
                (backup, backup_entries) => {
                    let backup_problem = match (&backup, backup_entries) {
                        (Err(e), _) => describe(e),
                        (Ok(_), Some(Err(e))) => describe(&e),
                        (Ok(_), _) => "unreadable".to_string(),
                    };
                    // Last resort: a header whose own CRC holds, with an entry array that fails its
                    // CRC in both copies. Read the entries anyway and say so.
                    let valid_header = match (primary, backup) {
                        (Ok(h), _) => Some((h, 1)),
                        (_, Ok(b)) => Some((b, backup_lba)),
                        (Err(e), Err(_)) if matches!(e, Error::TooLarge { .. }) => return Err(e),
                        _ => None,
                    };
                    let Some((h, lba)) = valid_header else {
                        return Err(corrupt(
                            ss,
                            format!(
                                "no usable GPT header: primary (sector 1): {primary_problem}; backup (sector {backup_lba}): {backup_problem}"
                            ),
                        ));
                    };
                    let entries = parse_entries(disk, &h, ss, false)?;
                    diagnostics.push(format!(
                        "no GPT header with a valid entry array (primary: {primary_problem}; backup: {backup_problem}); the entries of the header at sector {lba} were read without their CRC"
                    ));
                    (h, lba, entries)
                }
            }
        }
    };

    if header.current_lba != header_lba {
        diagnostics.push(format!(
            "the GPT header at sector {header_lba} says it is at sector {}",
            header.current_lba
        ));
    }

    let mut partitions = Vec::new();
    for e in entries {
        if e.type_guid == NIL_GUID {
            diagnostics.push(format!(
                "entry {} has no type (unused) but is not blank: sectors {}-{}, name {:?}, GUID {} (a deleted partition?)",
                e.slot, e.first_lba, e.last_lba, e.name, e.guid
            ));
            continue;
        }
        let sector_count = if e.last_lba < e.first_lba {
            diagnostics.push(format!(
                "entry {}: last sector {} is before first sector {}; treated as empty",
                e.slot, e.last_lba, e.first_lba
            ));
            0
        } else {
            (e.last_lba - e.first_lba).saturating_add(1)
        };
        if sector_count > 0
            && (e.first_lba < header.first_usable || e.last_lba > header.last_usable)
        {
            diagnostics.push(format!(
                "entry {}: sectors {}-{} lie outside the usable area {}-{}",
                e.slot, e.first_lba, e.last_lba, header.first_usable, header.last_usable
            ));
        }
        let type_name = types::gpt_type_name(&e.type_guid)
            .unwrap_or("unknown")
            .to_string();
        let geometry = Geometry {
            first_lba: e.first_lba,
            sector_count,
            sector_size: ss,
        };
        partitions.push(make_partition(
            disk,
            e.slot,
            e.name,
            PartitionRole::Gpt,
            e.type_guid,
            type_name,
            Some(e.guid),
            e.attributes,
            &geometry,
            &mut diagnostics,
        ));
    }
    report_overlaps(&partitions, &mut diagnostics);
    cap_diagnostics(&mut diagnostics);

    Ok(VolumeSystem {
        kind: VolumeKind::Gpt,
        sector_size: ss as u32,
        disk_guid: Some(format!("{:X}", header.disk_guid)),
        partitions,
        diagnostics,
    })
}

fn block_size(ss: u64) -> LogicalBlockSize {
    if ss == 4096 {
        LogicalBlockSize::Lb4096
    } else {
        LogicalBlockSize::Lb512
    }
}

/// Reads and CRC-checks the header at `lba` with the crate. The crate reads headers at LBA 1
/// only, so it is given a window of the disk in which `lba` is the second sector.
fn read_header(disk: &Bytes, lba: u64, ss: u64) -> Result<Header, Error> {
    let offset = lba
        .checked_mul(ss)
        .ok_or_else(|| corrupt(0, format!("header sector {lba} is beyond any disk")))?;
    if offset.saturating_add(92) > disk.len() {
        return Err(Error::Truncated {
            layer: LAYER.to_string(),
            offset,
            wanted: 92,
        });
    }
    let window_start = offset.saturating_sub(ss);
    let window: Bytes = Arc::new(Slice::new(disk.clone(), window_start, 2 * ss, "gpt header"));
    let mut reader = Reader::new(window);
    gpt::header::read_header_from_arbitrary_device(&mut reader, block_size(ss)).map_err(|e| {
        let detail = match e {
            HeaderError::InvalidGptSignature => "no `EFI PART` signature".to_string(),
            HeaderError::InvalidCRC32Checksum => "header CRC32 mismatch".to_string(),
            other => other.to_string(),
        };
        corrupt(offset, detail)
    })
}

/// Checks the header fields the crate would trust blindly: the entry size (it asserts 128), the
/// entry count (it allocates count × size), the array's place on the disk.
fn check_header(h: &Header, lba: u64, ss: u64, disk_len: u64) -> Result<(), Error> {
    let at = lba.saturating_mul(ss);
    if h.header_size_le < 92 || u64::from(h.header_size_le) > ss {
        return Err(corrupt(
            at + 12,
            format!("header size {} is not 92..={ss}", h.header_size_le),
        ));
    }
    let size = h.part_size;
    if size < 128 || !size.is_power_of_two() {
        return Err(corrupt(
            at + 84,
            format!("partition entry size {size} is not 128 × 2^n"),
        ));
    }
    let table = u64::from(h.num_parts) * u64::from(size);
    if table > MAX_GPT_TABLE_BYTES {
        return Err(Error::TooLarge {
            layer: LAYER.to_string(),
            offset: at + 80,
            what: format!(
                "partition entry array ({} entries of {size} bytes)",
                h.num_parts
            ),
            claimed: table,
            limit: MAX_GPT_TABLE_BYTES,
        });
    }
    let start = h.part_start.checked_mul(ss).ok_or_else(|| {
        corrupt(
            at + 72,
            format!("entry array sector {} is beyond any disk", h.part_start),
        )
    })?;
    if start.saturating_add(table) > disk_len {
        return Err(Error::Truncated {
            layer: LAYER.to_string(),
            offset: start,
            wanted: table,
        });
    }
    if table > 0 && start <= at && at < start + table {
        return Err(corrupt(at + 72, "the entry array overlaps its own header"));
    }
    Ok(())
}

/// Reads the entry array of a checked header: with the crate when entries are 128 bytes, by hand
/// otherwise. Either way the array's CRC must hold.
fn read_entries(disk: &Bytes, h: &Header, ss: u64) -> Result<Vec<Entry>, Error> {
    if h.part_size != 128 {
        return parse_entries(disk, h, ss, true);
    }
    let start = h.part_start.saturating_mul(ss);
    let mut reader = Reader::new(disk.clone());
    let map =
        gpt::partition::file_read_partitions(&mut reader, h, block_size(ss)).map_err(|e| {
            if e.to_string().contains("CRC") {
                corrupt(start, "partition entry array CRC32 mismatch")
            } else {
                corrupt(start, format!("partition entry array unreadable: {e}"))
            }
        })?;
    Ok(map
        .into_iter()
        .map(|(slot, p)| Entry {
            slot,
            type_guid: format!("{:X}", p.part_type_guid.guid),
            guid: format!("{:X}", p.part_guid),
            first_lba: p.first_lba,
            last_lba: p.last_lba,
            attributes: p.flags,
            name: p.name,
        })
        .collect())
}

/// Parses an entry array by hand (entries larger than 128 bytes, or an array whose CRC fails in
/// both copies). Skips blank entries, as the crate does.
fn parse_entries(disk: &Bytes, h: &Header, ss: u64, check_crc: bool) -> Result<Vec<Entry>, Error> {
    let start = h.part_start.saturating_mul(ss);
    let size = h.part_size as usize;
    let table_len = u64::from(h.num_parts) * u64::from(h.part_size);
    // check_header bounded table_len by MAX_GPT_TABLE_BYTES.
    let mut table = vec![0u8; table_len as usize];
    disk.read_exact_at(start, &mut table)?;
    if check_crc {
        let mut crc = flate2::Crc::new();
        crc.update(&table);
        if crc.sum() != h.crc32_parts {
            return Err(corrupt(start, "partition entry array CRC32 mismatch"));
        }
    }
    let mut entries = Vec::new();
    for (i, raw) in table.chunks_exact(size).enumerate() {
        let Some(raw) = raw.get(..128) else { continue };
        if raw.iter().all(|&b| b == 0) {
            continue;
        }
        let le64 = |at: usize| {
            raw.get(at..at + 8)
                .and_then(|b| b.try_into().ok())
                .map(u64::from_le_bytes)
                .unwrap_or(0)
        };
        let name_units: Vec<u16> = raw
            .get(56..128)
            .unwrap_or(&[])
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .take_while(|&u| u != 0)
            .collect();
        entries.push(Entry {
            slot: u32::try_from(i + 1).unwrap_or(u32::MAX),
            type_guid: guid_string(raw.get(0..16).unwrap_or(&[])),
            guid: guid_string(raw.get(16..32).unwrap_or(&[])),
            first_lba: le64(32),
            last_lba: le64(40),
            attributes: le64(48),
            name: String::from_utf16_lossy(&name_units),
        });
    }
    Ok(entries)
}

/// Formats a 16-byte on-disk GUID (first three fields little-endian) in upper case.
pub(crate) fn guid_string(b: &[u8]) -> String {
    let Some(b) = b.get(..16) else {
        return NIL_GUID.to_string();
    };
    format!(
        "{:02X}{:02X}{:02X}{:02X}-{:02X}{:02X}-{:02X}{:02X}-{:02X}{:02X}-{:02X}{:02X}{:02X}{:02X}{:02X}{:02X}",
        b[3],
        b[2],
        b[1],
        b[0],
        b[5],
        b[4],
        b[7],
        b[6],
        b[8],
        b[9],
        b[10],
        b[11],
        b[12],
        b[13],
        b[14],
        b[15]
    )
}
