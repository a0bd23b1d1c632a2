//! Signatures at fixed places: magic numbers at offset 0 (containers and files), trailing
//! signatures (TAR, Linux swap, XML property lists) and the Android FDE crypto footer. Volume
//! boot sectors are `crate::bootsect`'s (the volume layer asks it too).

use super::{Encryption, Format, Probe, be16, be32, field, le16, le32, le64, text, uuid_be};
use crate::bytes::ByteSource;

/// Formats recognised by a magic number at offset 0.
pub(super) fn leading_magic(head: &[u8]) -> Option<Probe> {
    let starts = |m: &[u8]| head.starts_with(m);
    if starts(b"EVF\x09\x0d\x0a\xff\x00") {
        return Some(Probe::new(
            Format::Ewf,
            true,
            "EWF (E01/S01) segment signature at byte 0",
        ));
    }
    if starts(b"EVF2\x0d\x0a\x81\x00") {
        return Some(Probe::new(
            Format::Ewf,
            true,
            "EWF2 (Ex01) segment signature at byte 0",
        ));
    }
    if starts(b"LVF\x09\x0d\x0a\xff\x00") || starts(b"LEF2\x0d\x0a\x81\x00") {
        return Some(Probe::not_yet_readable(
            Format::Ewf,
            "EWF logical evidence file (L01/Lx01) signature at byte 0",
        ));
    }
    if let Some(version) = crate::qcow2::sniff(head) {
        return Some(qcow2(head, version));
    }
    if let Some((readable, what)) = crate::vmdk::probe_head(head) {
        return Some(Probe::new(Format::Vmdk, readable, what));
    }
    if crate::vhdx::sniff(head) {
        return Some(Probe::new(
            Format::Vhdx,
            true,
            "VHDX file type identifier (`vhdxfile`) at byte 0",
        ));
    }
    if starts(crate::vhd::FOOTER_COOKIE) {
        let kind = match be32(head, 60) {
            Some(2) => "fixed",
            Some(3) => "dynamic",
            Some(4) => "differencing",
            _ => "unknown type",
        };
        let what = format!("VHD footer copy (`conectix`, {kind} disk) at byte 0");
        return Some(match kind {
            "dynamic" => Probe::new(Format::Vhd, true, what),
            "differencing" => Probe::new(
                Format::Vhd,
                true,
                format!("{what}: read over its parent from beside it"),
            ),
            _ => Probe::new(
                Format::Vhd,
                false,
                format!("{what}: only fixed, dynamic and differencing images are read"),
            ),
        });
    }
    if crate::sparseimage::sniff(head) {
        return Some(Probe::new(
            Format::MacSparseImage,
            true,
            "Mac OS sparse image header (`sprs`) at byte 0",
        ));
    }
    if starts(b"LUKS\xba\xbe") {
        return Some(luks(head));
    }
    if le32(head, 0) == Some(crate::simg::MAGIC) {
        return Some(android_sparse(head));
    }
    if starts(b"ANDROID!") {
        return Some(Probe::new(
            Format::AndroidBoot,
            false,
            "Android boot image (`ANDROID!` at byte 0): kernel and ramdisk, no file system",
        ));
    }
    if starts(b"VNDRBOOT") {
        return Some(Probe::new(
            Format::AndroidBoot,
            false,
            "Android vendor_boot image (`VNDRBOOT` at byte 0): no file system",
        ));
    }
    if starts(b"AVB0") {
        return Some(Probe::new(
            Format::AndroidVbmeta,
            false,
            "Android verified-boot metadata (vbmeta, `AVB0` at byte 0): no file system",
        ));
    }
    if starts(b"hsqs") {
        return Some(Probe::not_yet_readable(
            Format::Squashfs,
            "squashfs superblock (`hsqs` at byte 0)",
        ));
    }
    if starts(b"SQLite format 3\0") {
        return Some(Probe::new(
            Format::Sqlite,
            true,
            "SQLite database header at byte 0",
        ));
    }
    if starts(b"bplist00") {
        return Some(Probe::new(
            Format::Plist,
            true,
            "binary property list (`bplist00` at byte 0)",
        ));
    }
    if starts(b"\x89PNG\r\n\x1a\n") {
        return Some(Probe::new(Format::Png, true, "PNG signature at byte 0"));
    }
    if starts(&[0xFF, 0xD8, 0xFF]) {
        return Some(Probe::new(Format::Jpeg, true, "JPEG SOI marker at byte 0"));
    }
    if starts(&[0x1F, 0x8B, 0x08]) {
        return Some(Probe::new(
            Format::Gzip,
            true,
            "gzip header (deflate) at byte 0",
        ));
    }
    if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") || starts(b"PK\x07\x08") {
        return Some(Probe::new(
            Format::Zip,
            true,
            "ZIP local header (or empty-archive record) at byte 0",
        ));
    }
    None
}

fn qcow2(head: &[u8], version: u32) -> Probe {
    let what = format!("QCOW2 header (`QFI\\xfb`, version {version}) at byte 0");
    if version != 2 && version != 3 {
        return Probe::not_yet_readable(Format::Qcow2, what);
    }
    let crypt = be32(head, 32).unwrap_or(0);
    if crypt != 0 {
        let evidence = format!("{what}: crypt_method {crypt}");
        let mut p = Probe::new(
            Format::Qcow2,
            false,
            format!("{evidence}: an encrypted image, no key"),
        );
        p.encryption = Encryption::Fde { evidence };
        return p;
    }
    let backing = crate::endian::be64(head, 8).unwrap_or(0);
    if backing != 0 {
        let size = be32(head, 16).unwrap_or(0).min(1023) as usize;
        let name = usize::try_from(backing)
            .ok()
            .and_then(|at| field(head, at, size))
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_else(|| "(name beyond the first 64 KiB)".to_string());
        return Probe::new(
            Format::Qcow2,
            true,
            format!("{what}: an overlay, read over its backing file `{name}` from beside it"),
        );
    }
    Probe::new(Format::Qcow2, true, what)
}

/// A fixed VHD: its only footer is in the last 512 bytes, after the disk's own bytes.
pub(super) fn vhd_footer(bytes: &dyn ByteSource) -> Option<Probe> {
    match crate::vhd::sniff(bytes)? {
        (crate::vhd::FooterAt::End, crate::vhd::DiskType::Fixed) => Some(Probe::new(
            Format::Vhd,
            true,
            "VHD footer (`conectix`, fixed disk, checksum valid) in the last 512 bytes",
        )),
        (crate::vhd::FooterAt::End, t) => Some(Probe::new(
            Format::Vhd,
            true,
            format!(
                "VHD footer (`conectix`, {} disk, checksum valid) in the last 512 bytes",
                t.name()
            ),
        )),
        (crate::vhd::FooterAt::Start, _) => None,
    }
}

fn luks(head: &[u8]) -> Probe {
    let version = be16(head, 6).unwrap_or(0);
    let mut what = format!("LUKS{version} header at byte 0");
    if version == 1 {
        let cipher = field(head, 8, 32).and_then(text).unwrap_or_default();
        let mode = field(head, 40, 32).and_then(text).unwrap_or_default();
        what = format!("{what} (cipher {cipher}-{mode})");
    }
    let mut p = Probe::new(
        Format::Luks,
        false,
        format!("{what}: an encrypted container, no key"),
    );
    p.uuid = field(head, 168, 40).and_then(text);
    if version == 2 {
        p.label = field(head, 24, 48).and_then(text);
    }
    p.encryption = Encryption::Luks;
    p
}

fn android_sparse(head: &[u8]) -> Probe {
    let Some(h) = crate::simg::sniff(head) else {
        return Probe::new(Format::Unknown, false, "no sparse magic");
    };
    match crate::simg::header_problem(&h) {
        None => Probe::new(
            Format::AndroidSparse,
            true,
            format!(
                "Android sparse image (magic 0xED26FF3A): {} blocks of {} bytes ({} bytes expanded) in {} chunks",
                h.total_blocks,
                h.block_size,
                h.expanded_size(),
                h.total_chunks
            ),
        ),
        Some((at, why)) => Probe::new(
            Format::AndroidSparse,
            false,
            format!(
                "Android sparse image magic 0xED26FF3A with an unexpected header (at byte {at}: {why})"
            ),
        ),
    }
}

/// Signatures found after the start: TAR (`ustar` at 257, header checksum verified), Linux swap
/// (at the end of the first page), XML property lists.
pub(super) fn trailing_magic(head: &[u8]) -> Option<Probe> {
    if field(head, 257, 5) == Some(b"ustar") && tar_checksum_ok(head) {
        return Some(Probe::new(
            Format::Tar,
            true,
            "TAR header (`ustar` at byte 257, header checksum valid)",
        ));
    }
    for page in [4096usize, 8192, 16384, 65536] {
        let Some(sig) = field(head, page - 10, 10) else {
            break;
        };
        if sig == b"SWAPSPACE2" || sig == b"SWAP-SPACE" {
            let pages = le32(head, 1028).unwrap_or(0);
            let mut p = Probe::new(
                Format::LinuxSwap,
                false,
                format!(
                    "Linux swap area (`{}` at byte {}, {page}-byte pages, last page {pages}): no file system; it may hold fragments of memory",
                    String::from_utf8_lossy(sig),
                    page - 10
                ),
            );
            p.uuid = field(head, 1036, 16).and_then(uuid_be);
            p.label = field(head, 1052, 16).and_then(text);
            return Some(p);
        }
    }
    let start = head.get(..4096.min(head.len()))?;
    let trimmed = start
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(start)
        .trim_ascii_start();
    if (trimmed.starts_with(b"<?xml")
        || trimmed.starts_with(b"<!DOCTYPE plist")
        || trimmed.starts_with(b"<plist"))
        && memchr::memmem::find(start, b"<plist").is_some()
    {
        return Some(Probe::new(
            Format::Plist,
            true,
            "XML property list (`<plist` in the first 4 KiB)",
        ));
    }
    None
}

/// A TAR header's checksum: the sum of its 512 bytes with the checksum field read as spaces.
fn tar_checksum_ok(head: &[u8]) -> bool {
    let Some(header) = head.get(..512) else {
        return false;
    };
    let Some(stored) = header.get(148..156).and_then(|f| {
        let s = std::str::from_utf8(f).ok()?;
        u32::from_str_radix(s.trim_matches(|c: char| c == ' ' || c == '\0'), 8).ok()
    }) else {
        return false;
    };
    let sum: u32 = header
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if (148..156).contains(&i) {
                32
            } else {
                u32::from(c)
            }
        })
        .sum();
    sum == stored
}

/// Android dynamic partitions (`super`): the liblp geometry (magic 0x616C4467, 52-byte
/// structure) at 4096, or its backup copy at 8192. The logical partitions (system, vendor,
/// product…) are extents inside it.
pub(super) fn android_super(head: &[u8]) -> Option<Probe> {
    let (at, g) = [4096usize, 8192].into_iter().find_map(|at| {
        let g = field(head, at, 52)?;
        (le32(g, 0) == Some(0x616C_4467) && le32(g, 4) == Some(52)).then_some((at, g))
    })?;
    let max = le32(g, 40).unwrap_or(0);
    let slots = le32(g, 44).unwrap_or(0);
    let block = le32(g, 48).unwrap_or(0);
    Some(Probe::new(
        Format::AndroidSuper,
        true,
        format!(
            "Android dynamic partitions (`super`: liblp geometry magic 0x616C4467 at byte {at}, {slots} metadata slot(s) of up to {max} bytes, {block}-byte blocks; system, vendor, product… are inside)"
        ),
    ))
}

/// Magic of the Android FDE crypto footer (`struct crypt_mnt_ftr`), stored in the last 16 KiB of
/// the encrypted partition (or in a separate footer partition).
const CRYPT_MNT_MAGIC: u32 = 0xD0B5_B1C4;
const FOOTER_AREA: u64 = 16 * 1024;

/// Looks for an Android crypto footer at the 512-byte boundaries of the last 16 KiB.
pub(super) fn android_fde_footer(bytes: &dyn ByteSource) -> Option<Probe> {
    let len = bytes.len();
    let start = len.saturating_sub(FOOTER_AREA) / 512 * 512;
    let mut area = vec![0u8; usize::try_from(len - start).ok()?];
    let n = bytes.read_at(start, &mut area).ok()?;
    let area = area.get(..n)?;
    let at = (0..area.len())
        .step_by(512)
        .find(|&at| le32(area, at) == Some(CRYPT_MNT_MAGIC))?;
    let f = area.get(at..)?;
    let major = le16(f, 4).unwrap_or(0);
    let minor = le16(f, 6).unwrap_or(0);
    let key_size = le32(f, 16).unwrap_or(0);
    let fs_size = le64(f, 24).unwrap_or(0);
    let cipher = field(f, 36, 64)
        .and_then(text)
        .unwrap_or_else(|| "?".to_string());
    let offset = start + at as u64;
    let evidence = format!(
        "Android crypto footer (magic 0xD0B5B1C4) at byte {offset}, {} bytes before the end: version {major}.{minor}, cipher {cipher}, {key_size}-byte key, encrypted file system of {fs_size} sectors",
        len - offset
    );
    let mut p = Probe::new(
        Format::AndroidFde,
        false,
        format!("no readable file system; Android full-disk encryption: {evidence}; no key"),
    );
    p.encryption = Encryption::Fde { evidence };
    Some(p)
}
