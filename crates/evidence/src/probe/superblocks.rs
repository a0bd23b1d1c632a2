//! Superblocks: ext2/3/4, F2FS, EROFS, HFS+/HFSX/HFS, APFS, and the ISO 9660 volume descriptors.

use super::{
    Encryption, Format, Probe, be16, be32, field, flag_names, le16, le32, le64, text, uuid_be,
};

/// File systems with a superblock at 1 KiB (ext, F2FS, EROFS, HFS) or 32 bytes (APFS).
pub(super) fn probe_superblocks(head: &[u8]) -> Option<Probe> {
    ext(head)
        .or_else(|| f2fs(head, 1024).or_else(|| f2fs(head, 4096 + 1024)))
        .or_else(|| erofs(head))
        .or_else(|| hfs(head))
        .or_else(|| apfs(head))
}

// Feature names as e2fsprogs prints them: one table, shared with the ext4 reader.
use crate::ext4::superblock::{COMPAT_NAMES, INCOMPAT_NAMES, RO_COMPAT_NAMES};

const EXT_INCOMPAT_ENCRYPT: u32 = 0x10000;

/// ext2/3/4: magic 0xEF53 at 1024 + 56, with the block size, counts and revision checked. The
/// variant follows `blkid`: a journal device; ext2 or ext3 when only their features are set
/// (ext3 = with a journal); ext4 otherwise.
fn ext(head: &[u8]) -> Option<Probe> {
    let sb = field(head, 1024, 1024)?;
    if le16(sb, 0x38)? != 0xEF53 {
        return None;
    }
    let inodes = le32(sb, 0x0)?;
    let log_block = le32(sb, 0x18)?;
    let revision = le32(sb, 0x4C)?;
    let compat = le32(sb, 0x5C)?;
    let incompat = le32(sb, 0x60)?;
    let ro_compat = le32(sb, 0x64)?;
    let blocks_hi = if incompat & 0x80 != 0 {
        le32(sb, 0x150)?
    } else {
        0
    };
    let blocks = (u64::from(blocks_hi) << 32) | u64::from(le32(sb, 0x4)?);
    if log_block > 6 || revision > 1 || (incompat & 0x8 == 0 && (inodes == 0 || blocks == 0)) {
        return Some(Probe::new(
            Format::Unknown,
            false,
            format!(
                "ext magic 0xEF53 at byte 1080 but an implausible superblock (block size 2^{} KiB, revision {revision}, {inodes} inodes, {blocks} blocks); not read",
                log_block
            ),
        ));
    }
    let block_size = 1024u64 << log_block;
    let has_journal = compat & 0x4 != 0;
    let format = if incompat & 0x8 != 0 {
        Format::ExtJournal
    } else if has_journal && ro_compat & !0x7 == 0 && incompat & !0x16 == 0 {
        Format::Ext3
    } else if !has_journal && ro_compat & !0x7 == 0 && incompat & !0x12 == 0 {
        Format::Ext2
    } else {
        Format::Ext4
    };
    let mut p = if format == Format::ExtJournal {
        Probe::new(
            format,
            false,
            "external ext3/ext4 journal device (ext superblock with `journal_dev`): not a file system",
        )
    } else {
        Probe::new(
            format,
            true,
            format!(
                "{format} superblock at byte 1024 (magic 0xEF53): {block_size}-byte blocks, {blocks} blocks, {inodes} inodes"
            ),
        )
    };
    p.uuid = field(sb, 0x68, 16).and_then(uuid_be);
    p.label = field(sb, 0x78, 16).and_then(text);
    flag_names(compat, COMPAT_NAMES, "compat", &mut p.features);
    flag_names(incompat, INCOMPAT_NAMES, "incompat", &mut p.features);
    flag_names(ro_compat, RO_COMPAT_NAMES, "ro_compat", &mut p.features);
    if incompat & EXT_INCOMPAT_ENCRYPT != 0 {
        p.encryption = Encryption::Fbe {
            evidence: "ext4 superblock feature `encrypt` (s_feature_incompat 0x10000): file-based encryption (fscrypt) is enabled; which directories are encrypted is checked by the ext4 layer from their encryption policies".to_string(),
        };
    }
    Some(p)
}

pub(crate) const F2FS_FEATURES: &[(u32, &str)] = &[
    (0x1, "encrypt"),
    (0x2, "blkzoned"),
    (0x4, "atomic_write"),
    (0x8, "extra_attr"),
    (0x10, "project_quota"),
    (0x20, "inode_checksum"),
    (0x40, "flexible_inline_xattr"),
    (0x80, "quota_ino"),
    (0x100, "inode_crtime"),
    (0x200, "lost_found"),
    (0x400, "verity"),
    (0x800, "sb_checksum"),
    (0x1000, "casefold"),
    (0x2000, "compression"),
    (0x4000, "ro"),
    (0x8000, "device_alias"),
];

/// F2FS: magic 0xF2F52010 at 1024 (or in the second copy at 4096 + 1024), 4 KiB blocks.
fn f2fs(head: &[u8], at: usize) -> Option<Probe> {
    let sb = field(head, at, 3072)?;
    if le32(sb, 0)? != 0xF2F5_2010 {
        return None;
    }
    let major = le16(sb, 4)?;
    let minor = le16(sb, 6)?;
    let log_sector = le32(sb, 8)?;
    let log_block = le32(sb, 16)?;
    let blocks = le64(sb, 36)?;
    let copy = if at == 1024 {
        ""
    } else {
        " (second copy; the first is damaged)"
    };
    let mut p = if (9..=12).contains(&log_sector) && log_block == 12 {
        Probe::new(
            Format::F2fs,
            true,
            format!(
                "F2FS superblock at byte {at}{copy} (magic 0xF2F52010, version {major}.{minor}, {blocks} blocks of 4 KiB)"
            ),
        )
    } else {
        Probe::not_yet_readable(
            Format::F2fs,
            format!(
                "F2FS magic 0xF2F52010 at byte {at}{copy} with unexpected geometry (log sector size {log_sector}, log block size {log_block})"
            ),
        )
    };
    p.uuid = field(sb, 108, 16).and_then(uuid_be);
    let name: Vec<u16> = field(sb, 124, 1024)?
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .take_while(|&u| u != 0)
        .collect();
    let name = String::from_utf16_lossy(&name);
    p.label = (!name.is_empty()).then_some(name);
    let features = le32(sb, 2180)?;
    flag_names(features, F2FS_FEATURES, "feature", &mut p.features);
    if features & 0x1 != 0 {
        p.encryption = Encryption::Fbe {
            evidence: "F2FS superblock feature `encrypt` (0x1): file-based encryption (fscrypt) is enabled".to_string(),
        };
    }
    Some(p)
}

/// EROFS (read-only, used for Android system partitions): magic 0xE0F5E1E2 at 1024.
fn erofs(head: &[u8]) -> Option<Probe> {
    let sb = field(head, 1024, 128)?;
    if le32(sb, 0)? != 0xE0F5_E1E2 {
        return None;
    }
    let block_bits = *sb.get(12)?;
    let mut p = Probe::not_yet_readable(
        Format::Erofs,
        format!("EROFS superblock at byte 1024 (magic 0xE0F5E1E2, 2^{block_bits}-byte blocks)"),
    );
    p.uuid = field(sb, 48, 16).and_then(uuid_be);
    p.label = field(sb, 64, 16).and_then(text);
    Some(p)
}

/// HFS+ (`H+`, version 4), HFSX (`HX`, version 5) and classic HFS (`BD`, possibly wrapping an
/// HFS+ volume) at 1024, big-endian.
fn hfs(head: &[u8]) -> Option<Probe> {
    let vh = field(head, 1024, 512)?;
    let signature = be16(vh, 0)?;
    let version = be16(vh, 2)?;
    match (signature, version) {
        (0x482B, 4) | (0x4858, 5) => {
            let block = be32(vh, 40)?;
            let blocks = be32(vh, 44)?;
            if block < 512 || !block.is_power_of_two() || blocks == 0 {
                return None;
            }
            let (format, name) = if signature == 0x482B {
                (Format::HfsPlus, "HFS+")
            } else {
                (Format::Hfsx, "HFSX")
            };
            let mut p = Probe::new(
                format,
                true,
                format!(
                    "{name} volume header at byte 1024 (`{}`, version {version}, {blocks} blocks of {block} bytes)",
                    if signature == 0x482B { "H+" } else { "HX" }
                ),
            );
            p.uuid = field(vh, 104, 8).and_then(hfs_uuid);
            if be32(vh, 4)? & (1 << 13) != 0 {
                p.features.push("journaled".to_string());
            }
            Some(p)
        }
        (0x4244, _) => {
            let block = be32(vh, 0x14)?;
            if block == 0 || !block.is_multiple_of(512) {
                return None;
            }
            let name_len = usize::from(*vh.get(0x24)?).min(27);
            let label = field(vh, 0x25, name_len).map(|n| String::from_utf8_lossy(n).into_owned());
            let mut p = if be16(vh, 0x7C)? == 0x482B {
                Probe::new(
                    Format::HfsPlus,
                    true,
                    "HFS+ volume embedded in an HFS wrapper (`BD` at byte 1024, embedded `H+`)",
                )
            } else {
                Probe::not_yet_readable(
                    Format::Hfs,
                    format!(
                        "classic HFS master directory block at byte 1024 (`BD`, {block}-byte allocation blocks)"
                    ),
                )
            };
            p.label = label.filter(|l| !l.is_empty());
            Some(p)
        }
        _ => None,
    }
}

/// The UUID macOS (and `blkid`) shows for an HFS+ volume: an MD5 name-based UUID (version 3)
/// of the 64-bit volume identifier in the Finder info, under Apple's namespace
/// `b3e20f39-f292-11d6-97a4-00306543ecac`.
fn hfs_uuid(id: &[u8]) -> Option<String> {
    use md5::{Digest, Md5};
    const NAMESPACE: [u8; 16] = [
        0xb3, 0xe2, 0x0f, 0x39, 0xf2, 0x92, 0x11, 0xd6, 0x97, 0xa4, 0x00, 0x30, 0x65, 0x43, 0xec,
        0xac,
    ];
    if id.iter().all(|&b| b == 0) {
        return None;
    }
    let mut md5 = Md5::new();
    md5.update(NAMESPACE);
    md5.update(id);
    let mut u: [u8; 16] = md5.finalize().into();
    u[6] = 0x30 | (u[6] & 0x0f);
    u[8] = 0x80 | (u[8] & 0x3f);
    uuid_be(&u)
}

/// APFS: container superblock `NXSB` at byte 32 of block 0.
fn apfs(head: &[u8]) -> Option<Probe> {
    if field(head, 32, 4)? != b"NXSB" {
        return None;
    }
    let block = le32(head, 36)?;
    let blocks = le64(head, 40)?;
    if !(4096..=65536).contains(&block) || !block.is_power_of_two() || blocks == 0 {
        return None;
    }
    let incompat = le64(head, 64)?;
    let what =
        format!("APFS container superblock (`NXSB` at byte 32, {blocks} blocks of {block} bytes)");
    // A Fusion container spans two devices; one of them alone cannot be read.
    let mut p = if incompat & 0x100 != 0 {
        Probe::not_yet_readable(Format::Apfs, format!("{what}, Fusion (two devices)"))
    } else {
        Probe::new(Format::Apfs, true, what)
    };
    p.uuid = field(head, 72, 16).and_then(uuid_be);
    for (bit, name) in [(0x1u64, "version1"), (0x2, "version2"), (0x100, "fusion")] {
        if incompat & bit != 0 {
            p.features.push(name.to_string());
        }
    }
    Some(p)
}

/// ISO 9660: volume descriptors from sector 16 (byte 32768), `CD001` at byte 1 of each.
pub(super) fn iso9660(head: &[u8]) -> Option<Probe> {
    if field(head, 32769, 5)? != b"CD001" {
        return None;
    }
    let mut label = None;
    let mut blocks = None;
    let mut uuid = None;
    let mut features = Vec::new();
    // Descriptors up to the terminator (type 255), within the bytes read.
    for sector in 16..32 {
        let d = match field(head, sector * 2048, 2048) {
            Some(d) if d.get(1..6) == Some(b"CD001") => d,
            _ => break,
        };
        match d.first() {
            Some(0) => features.push("el_torito".to_string()),
            Some(1) => {
                label = field(d, 40, 32).and_then(text);
                blocks = le32(d, 80);
                uuid = field(d, 813, 16).and_then(iso_date_uuid);
            }
            Some(2) if matches!(field(d, 88, 3), Some(b"%/@" | b"%/C" | b"%/E")) => {
                features.push("joliet".to_string());
            }
            Some(255) => break,
            _ => {}
        }
    }
    let mut p = Probe::not_yet_readable(
        Format::Iso9660,
        format!(
            "ISO 9660 volume descriptor (`CD001` at byte 32769{})",
            blocks.map(|b| format!(", {b} blocks")).unwrap_or_default()
        ),
    );
    p.label = label;
    p.uuid = uuid;
    p.features = features;
    Some(p)
}

/// The "UUID" `blkid` gives an ISO 9660 volume: its creation date and time from the primary
/// volume descriptor (`YYYYMMDDHHMMSScc`) as `YYYY-MM-DD-HH-MM-SS-cc`.
fn iso_date_uuid(d: &[u8]) -> Option<String> {
    if !d.iter().all(u8::is_ascii_digit) || d.iter().all(|&c| c == b'0') {
        return None;
    }
    let s = std::str::from_utf8(d).ok()?;
    Some(format!(
        "{}-{}-{}-{}-{}-{}-{}",
        s.get(0..4)?,
        s.get(4..6)?,
        s.get(6..8)?,
        s.get(8..10)?,
        s.get(10..12)?,
        s.get(12..14)?,
        s.get(14..16)?
    ))
}
