//! Probing: what a byte stream holds (an `fsstat`/`blkid`-like first look).
//!
//! [`probe`] recognises file systems by their superblocks and boot sectors (validating the
//! fields, not just a magic string), partition tables, containers (EWF, LUKS, Android sparse and
//! boot images, ZIP, TAR, gzip) and single files (SQLite, property lists, PNG, JPEG). It says
//! whether MASForensics can read the format yet, why it thinks what it thinks, and whether the
//! data is encrypted:
//!
//! - ext4 with the `encrypt` feature, or F2FS with its `encrypt` flag: file-based encryption
//!   (FBE). Which directories are actually encrypted is a property of their inodes, checked by the
//!   ext4 and F2FS layers when they list them.
//! - no recognisable file system and an Android crypto footer (magic `0xD0B5B1C4`) in the last
//!   16 KiB: full-disk encryption (FDE).
//! - no recognisable file system and sampled blocks that look random: "unknown, likely
//!   encrypted" (FDE without a footer here, Android metadata encryption, VeraCrypt… or simply
//!   compressed data).
//! - LUKS and BitLocker headers.
//!
//! Recognised formats without a reader here (HFS+, ISO 9660, exFAT, EROFS, APFS Fusion, Android
//! `super`…) come back with `readable: false` and a reason saying "recognised, not yet
//! readable"; they are never handed to a reader of another format.
//!
//! The order of the checks matters: signatures at offset 0, then GPT, volume boot sectors, ISO
//! 9660 (before MBR and APM: hybrid ISOs carry an MBR or an Apple partition map too; the
//! scanner, which sniffs tables before it probes, still opens the table), an Apple partition
//! map, an MBR whose partitions all fit in the
//! stream (a partitioned disk wins over a stale superblock left at 1 KiB), superblocks, Android
//! `super`, any other plausible MBR (a boot loader's 0x55AA in a file system's boot block must
//! not hide the file system), trailing signatures (TAR, swap, XML plists), the FDE footer, and
//! last the entropy sample. Labels come from the superblock or boot
//! sector only: NTFS keeps its label in `$Volume` and HFS+ in its catalog, so they are `None`
//! here; FAT gives the boot-sector label (the root directory may hold a newer one).
//!
//! Every parser here is hand-written: they read a handful of fixed fields from one sector, and
//! no crate offers recognition for this set of formats without also pulling in full readers.

mod boot;
pub(crate) mod superblocks;

pub use crate::bootsect::boot_sector_format;
pub use crate::format::{Encryption, Format, Probe};

use crate::bytes::ByteSource;
use crate::volume::{self, VolumeKind};

/// Bytes read from the start of the stream: enough for every signature probed (the ISO 9660
/// descriptor at 32 KiB, a swap signature for 64 KiB pages).
const HEAD: usize = 64 * 1024;

/// Recognises what `bytes` holds. Never fails: read errors and truncation make the probe
/// answer `Unknown` with the reason.
pub fn probe(bytes: &dyn ByteSource) -> Probe {
    let len = bytes.len();
    if len == 0 {
        return Probe::new(Format::Empty, false, "zero bytes long");
    }
    let mut head = vec![0u8; HEAD.min(usize::try_from(len).unwrap_or(HEAD))];
    let head = match bytes.read_at(0, &mut head) {
        Ok(n) => head.get(..n).unwrap_or(&[]),
        Err(e) => {
            return Probe::new(Format::Unknown, false, format!("unreadable: {e}"));
        }
    };

    if let Some(p) = boot::leading_magic(head) {
        return p;
    }
    if let Some(p) = boot::vhd_footer(bytes) {
        return p;
    }
    if volume::sniff(bytes) == Some(VolumeKind::Gpt) {
        return Probe::new(
            Format::Gpt,
            true,
            "GUID partition table (`EFI PART` header or protective MBR); open it with the volume layer",
        );
    }
    if let Some(p) = crate::bootsect::boot_sector(head) {
        return p;
    }
    if let Some(p) = superblocks::iso9660(head) {
        return p;
    }
    let kind = volume::sniff(bytes);
    if kind == Some(VolumeKind::Apm) {
        return Probe::new(
            Format::Apm,
            true,
            "Apple partition map (`PM` entries from block 1); open it with the volume layer",
        );
    }
    let mbr = kind == Some(VolumeKind::Mbr);
    if mbr && volume::mbr_entries_fit(head, len) {
        return mbr_probe();
    }
    if let Some(p) = superblocks::probe_superblocks(head) {
        return p;
    }
    if let Some(p) = boot::android_super(head) {
        return p;
    }
    if mbr {
        return mbr_probe();
    }
    if let Some(p) = boot::trailing_magic(head) {
        return p;
    }
    if let Some(p) = boot::android_fde_footer(bytes) {
        return p;
    }
    sample_entropy(bytes)
}

fn mbr_probe() -> Probe {
    Probe::new(
        Format::Mbr,
        true,
        "DOS/MBR partition table (0x55AA and plausible entries, not a boot sector); open it with the volume layer",
    )
}

/// Size and number of the blocks sampled when nothing is recognised.
const SAMPLE: usize = 4096;
const SAMPLES: u64 = 16;
/// Bits per byte above which a 4 KiB block looks random (random data measures ≈ 7.95).
const RANDOM_ENTROPY: f64 = 7.8;

/// Samples blocks across the stream: all zero → `Zeroed`; all non-zero ones random → "unknown,
/// likely encrypted"; otherwise `Unknown`.
fn sample_entropy(bytes: &dyn ByteSource) -> Probe {
    let len = bytes.len();
    let block = SAMPLE as u64;
    let blocks = len.div_ceil(block).max(1);
    let samples = blocks.min(SAMPLES);
    let mut zero = 0u64;
    let mut random = 0u64;
    let mut read = 0u64;
    let mut lowest = f64::MAX;
    let mut buf = vec![0u8; SAMPLE];
    for i in 0..samples {
        // Evenly spread block numbers, first and last included.
        let b = if samples > 1 {
            i.saturating_mul(blocks - 1) / (samples - 1)
        } else {
            0
        };
        let Ok(n) = bytes.read_at(b.saturating_mul(block), &mut buf) else {
            continue;
        };
        let Some(data) = buf.get(..n) else { continue };
        if data.is_empty() {
            continue;
        }
        read += 1;
        if data.iter().all(|&x| x == 0) {
            zero += 1;
            continue;
        }
        let h = entropy(data);
        lowest = lowest.min(h);
        if h >= RANDOM_ENTROPY && data.len() >= 1024 {
            random += 1;
        }
    }
    if read == 0 {
        return Probe::new(Format::Unknown, false, "no block could be read");
    }
    if zero == read {
        return Probe::new(
            Format::Zeroed,
            false,
            format!(
                "no known signature; all {read} sampled 4 KiB blocks are zero (unused or wiped)"
            ),
        );
    }
    let nonzero = read - zero;
    if random == nonzero {
        let evidence = format!(
            "no file system or known signature; {random} of {read} sampled 4 KiB blocks look random (entropy ≥ {lowest:.2} bits/byte), {zero} are zero"
        );
        let mut p = Probe::new(
            Format::Unknown,
            false,
            format!("unknown, likely encrypted (or compressed data): {evidence}"),
        );
        p.encryption = Encryption::Unknown { evidence };
        return p;
    }
    Probe::new(
        Format::Unknown,
        false,
        format!(
            "no known file system or signature ({read} blocks sampled: {zero} zero, {random} random-looking, {} structured)",
            nonzero - random
        ),
    )
}

/// Shannon entropy of a block, in bits per byte.
fn entropy(data: &[u8]) -> f64 {
    let mut counts = [0u32; 256];
    for &b in data {
        counts[usize::from(b)] += 1;
    }
    let n = data.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

// Fixed-offset field readers, shared by every parser of the crate.
pub(crate) use crate::endian::{be16, be32, field, le16, le32, le64, text};

/// A 16-byte UUID stored in byte order (ext4, F2FS, APFS, swap), lower case.
pub(crate) fn uuid_be(b: &[u8]) -> Option<String> {
    let b: &[u8; 16] = b.get(..16)?.try_into().ok()?;
    if b.iter().all(|&x| x == 0) {
        return None;
    }
    let h = hex::encode(b);
    Some(format!(
        "{}-{}-{}-{}-{}",
        h.get(0..8)?,
        h.get(8..12)?,
        h.get(12..16)?,
        h.get(16..20)?,
        h.get(20..32)?
    ))
}

/// Names of the bits set in `flags`, from a table, with unknown bits as `{prefix}_0x…`.
pub(crate) fn flag_names(flags: u32, table: &[(u32, &str)], prefix: &str, out: &mut Vec<String>) {
    let mut known = 0u32;
    for &(bit, name) in table {
        known |= bit;
        if flags & bit != 0 {
            out.push(name.to_string());
        }
    }
    let unknown = flags & !known;
    if unknown != 0 {
        out.push(format!("{prefix}_{unknown:#x}"));
    }
}

#[cfg(test)]
mod tests;
