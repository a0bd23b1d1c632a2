//! Volume boot sectors (FAT12/16/32, NTFS, exFAT, BitLocker) recognised with their BIOS
//! parameter blocks validated: the prober's answer for sector 0, and the volume layer's test
//! that a sector with a plausible MBR table is a boot sector, not a partition table.

use crate::endian::{field, le16, le32, le64, text};
use crate::format::{Encryption, Format, Probe};

/// The format of a volume boot sector (FAT12/16/32, NTFS, exFAT, BitLocker), with its BPB
/// validated; `None` for anything else (an MBR, say).
pub fn boot_sector_format(sector: &[u8]) -> Option<Format> {
    boot_sector(sector).map(|p| p.format)
}

/// Volume boot sectors: BitLocker, NTFS, exFAT, FAT12/16/32, each with its parameters checked.
pub(crate) fn boot_sector(b: &[u8]) -> Option<Probe> {
    let oem = field(b, 3, 8)?;
    if oem == b"-FVE-FS-" {
        let mut p = Probe::new(
            Format::BitLocker,
            false,
            "BitLocker volume (`-FVE-FS-` at byte 3): encrypted, no key",
        );
        p.encryption = Encryption::Fde {
            evidence: "BitLocker boot sector signature `-FVE-FS-` at byte 3".to_string(),
        };
        return Some(p);
    }
    if oem == b"NTFS    " {
        return ntfs(b);
    }
    if oem == b"EXFAT   " {
        return exfat(b);
    }
    fat(b)
}

fn ntfs(b: &[u8]) -> Option<Probe> {
    let bps = le16(b, 11)?;
    let spc = *b.get(13)?;
    if !matches!(bps, 256 | 512 | 1024 | 2048 | 4096) {
        return None;
    }
    let cluster = match spc {
        1..=128 if spc.is_power_of_two() => u64::from(bps) * u64::from(spc),
        0xF4..=0xFF => 1u64 << (256 - u32::from(spc)),
        _ => return None,
    };
    let sectors = le64(b, 0x28)?;
    let mft = le64(b, 0x30)?;
    if sectors == 0 || mft == 0 {
        return None;
    }
    let mut p = Probe::new(
        Format::Ntfs,
        true,
        format!(
            "NTFS boot sector (`NTFS    ` at byte 3): {bps}-byte sectors, {cluster}-byte clusters, {sectors} sectors, $MFT at cluster {mft}"
        ),
    );
    p.uuid = le64(b, 0x48)
        .filter(|&s| s != 0)
        .map(|s| format!("{s:016X}"));
    Some(p)
}

fn exfat(b: &[u8]) -> Option<Probe> {
    if field(b, 11, 53)?.iter().any(|&x| x != 0) {
        return None;
    }
    let bps_shift = *b.get(108)?;
    let spc_shift = *b.get(109)?;
    let fats = *b.get(110)?;
    if !(9..=12).contains(&bps_shift)
        || u32::from(spc_shift) + u32::from(bps_shift) > 25
        || !(1..=2).contains(&fats)
    {
        return None;
    }
    let mut p = Probe::not_yet_readable(
        Format::ExFat,
        format!(
            "exFAT boot sector (`EXFAT   ` at byte 3, {}-byte sectors, {}-byte clusters)",
            1u32 << bps_shift,
            1u64 << (u32::from(bps_shift) + u32::from(spc_shift))
        ),
    );
    p.uuid = le32(b, 100).map(serial);
    Some(p)
}

/// A FAT volume serial as `blkid` prints it.
fn serial(s: u32) -> String {
    format!("{:04X}-{:04X}", s >> 16, s & 0xFFFF)
}

/// FAT12/16/32 by the BIOS parameter block, as the Microsoft specification and the Linux kernel
/// read it: sizes must be powers of two in range, counts non-zero, and the type follows from the
/// FAT size field (0 → FAT32) and the cluster count.
fn fat(b: &[u8]) -> Option<Probe> {
    let jump = *b.first()?;
    if !(jump == 0xE9 || (jump == 0xEB && b.get(2) == Some(&0x90))) {
        return None;
    }
    let bps = u32::from(le16(b, 11)?);
    let spc = u32::from(*b.get(13)?);
    let reserved = u32::from(le16(b, 14)?);
    let fats = u32::from(*b.get(16)?);
    let root_entries = u32::from(le16(b, 17)?);
    let total16 = u32::from(le16(b, 19)?);
    let media = *b.get(21)?;
    let fat16_size = u32::from(le16(b, 22)?);
    let total32 = le32(b, 32)?;
    if !matches!(bps, 512 | 1024 | 2048 | 4096)
        || !(1..=128).contains(&spc)
        || !spc.is_power_of_two()
        || reserved == 0
        || !(1..=4).contains(&fats)
        || !(media == 0xF0 || media >= 0xF8)
    {
        return None;
    }
    let total = if total16 != 0 { total16 } else { total32 };
    let fat32 = fat16_size == 0;
    let fat_size = if fat32 { le32(b, 36)? } else { fat16_size };
    if total == 0 || fat_size == 0 || (fat32 && root_entries != 0) {
        return None;
    }
    let root_sectors = (root_entries * 32).div_ceil(bps);
    let meta =
        u64::from(reserved) + u64::from(fats) * u64::from(fat_size) + u64::from(root_sectors);
    let data = u64::from(total).checked_sub(meta).filter(|&d| d > 0)?;
    let clusters = data / u64::from(spc);
    let format = if fat32 {
        Format::Fat32
    } else if clusters < 4085 {
        Format::Fat12
    } else {
        Format::Fat16
    };
    let ebpb = if fat32 { 0x40 } else { 0x24 };
    let mut p = Probe::new(
        format,
        true,
        format!(
            "{} boot sector: {bps}-byte sectors, {} sectors per cluster, {clusters} clusters, {fats} FAT(s) of {fat_size} sectors",
            format.name().to_uppercase(),
            spc
        ),
    );
    if matches!(b.get(ebpb + 2), Some(0x28 | 0x29)) {
        p.uuid = le32(b, ebpb + 3).map(serial);
    }
    if b.get(ebpb + 2) == Some(&0x29) {
        p.label = field(b, ebpb + 7, 11)
            .and_then(text)
            .filter(|l| l != "NO NAME");
    }
    Some(p)
}
