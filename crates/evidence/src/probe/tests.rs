//! Unit tests of probing, on structures built in memory: signatures the fixture tools cannot make
//! here (LUKS, BitLocker, exFAT, F2FS with `encrypt`, EROFS, HFSX, Android images, EWF…), invalid
//! parameter blocks that must not be recognised, and the entropy rules. File systems made by real
//! tools are probed in the integration tests.

use super::*;
use crate::Error;
use crate::bytes::Memory;

fn put(d: &mut [u8], at: usize, bytes: &[u8]) {
    d[at..at + bytes.len()].copy_from_slice(bytes);
}

fn zeros(len: usize) -> Vec<u8> {
    vec![0u8; len]
}

fn probe_of(data: Vec<u8>) -> Probe {
    probe(&Memory::new(data, "test"))
}

/// `check(bytes, format, readable, words the reason must contain)`.
fn check(data: Vec<u8>, format: Format, readable: bool, words: &[&str]) -> Probe {
    let p = probe_of(data);
    assert_eq!((p.format, p.readable), (format, readable), "{p:?}");
    for w in words {
        assert!(p.reason.contains(w), "{w:?} not in {:?}", p.reason);
    }
    p
}

/// Deterministic random-looking bytes (xorshift64*).
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

#[test]
fn magic_numbers_at_offset_zero() {
    let with = |magic: &[u8]| {
        let mut d = zeros(8192);
        put(&mut d, 0, magic);
        d
    };
    check(
        with(b"EVF\x09\x0d\x0a\xff\x00"),
        Format::Ewf,
        true,
        &["E01"],
    );
    check(with(b"EVF2\x0d\x0a\x81\x00"), Format::Ewf, true, &["Ex01"]);
    check(
        with(b"LVF\x09\x0d\x0a\xff\x00"),
        Format::Ewf,
        false,
        &["L01", "not yet readable"],
    );
    check(
        with(b"ANDROID!"),
        Format::AndroidBoot,
        false,
        &["boot image"],
    );
    check(
        with(b"VNDRBOOT"),
        Format::AndroidBoot,
        false,
        &["vendor_boot"],
    );
    check(with(b"AVB0"), Format::AndroidVbmeta, false, &["vbmeta"]);
    check(
        with(b"hsqs"),
        Format::Squashfs,
        false,
        &["not yet readable"],
    );
    check(with(b"SQLite format 3\0"), Format::Sqlite, true, &[]);
    check(with(b"bplist00"), Format::Plist, true, &[]);
    check(with(b"\x89PNG\r\n\x1a\n"), Format::Png, true, &[]);
    check(with(&[0xFF, 0xD8, 0xFF, 0xE0]), Format::Jpeg, true, &[]);
    check(with(&[0x1F, 0x8B, 0x08, 0x00]), Format::Gzip, true, &[]);
    check(with(b"PK\x03\x04"), Format::Zip, true, &[]);
    check(with(b"PK\x05\x06"), Format::Zip, true, &[]);
    check(
        b"<?xml version=\"1.0\"?>\n<!DOCTYPE plist>\n<plist version=\"1.0\"><dict/></plist>"
            .to_vec(),
        Format::Plist,
        true,
        &[],
    );
    check(
        b"\xEF\xBB\xBF  <plist version=\"1.0\"/>".to_vec(),
        Format::Plist,
        true,
        &[],
    );
    // XML that is not a property list stays unknown.
    assert_eq!(
        probe_of(b"<?xml version=\"1.0\"?><svg/>".to_vec()).format,
        Format::Unknown
    );
}

#[test]
fn luks_headers_are_encrypted_containers() {
    let mut d = zeros(4096);
    put(&mut d, 0, b"LUKS\xba\xbe\x00\x01aes");
    put(&mut d, 40, b"xts-plain64");
    put(&mut d, 168, b"0b7a7c39-62b6-4bfc-b0a5-6e8ba1a1b6f1");
    let p = check(
        d,
        Format::Luks,
        false,
        &["LUKS1", "aes-xts-plain64", "no key"],
    );
    assert_eq!(p.encryption, Encryption::Luks);
    assert_eq!(
        p.uuid.as_deref(),
        Some("0b7a7c39-62b6-4bfc-b0a5-6e8ba1a1b6f1")
    );
    let mut d = zeros(4096);
    put(&mut d, 0, b"LUKS\xba\xbe\x00\x02");
    put(&mut d, 24, b"cryptdata");
    let p = check(d, Format::Luks, false, &["LUKS2"]);
    assert_eq!(p.label.as_deref(), Some("cryptdata"));
}

#[test]
fn android_sparse_images_are_described() {
    let mut d = zeros(64);
    put(&mut d, 0, &0xED26_FF3Au32.to_le_bytes());
    put(&mut d, 4, &[1, 0, 0, 0, 28, 0, 12, 0]);
    put(&mut d, 12, &4096u32.to_le_bytes());
    put(&mut d, 16, &1000u32.to_le_bytes());
    put(&mut d, 20, &7u32.to_le_bytes());
    check(
        d.clone(),
        Format::AndroidSparse,
        true,
        &[
            "1000 blocks of 4096 bytes",
            "4096000 bytes expanded",
            "7 chunks",
        ],
    );
    put(&mut d, 4, &[2, 0]);
    check(
        d,
        Format::AndroidSparse,
        false,
        &["unexpected header", "major version 2"],
    );
}

fn boot_sector(oem: &[u8]) -> Vec<u8> {
    let mut d = zeros(4096);
    put(&mut d, 0, &[0xEB, 0x52, 0x90]);
    put(&mut d, 3, oem);
    put(&mut d, 510, &[0x55, 0xAA]);
    d
}

#[test]
fn bitlocker_ntfs_and_exfat_boot_sectors() {
    let p = check(
        boot_sector(b"-FVE-FS-"),
        Format::BitLocker,
        false,
        &["BitLocker"],
    );
    assert!(matches!(p.encryption, Encryption::Fde { .. }));

    let mut ntfs = boot_sector(b"NTFS    ");
    put(&mut ntfs, 11, &512u16.to_le_bytes());
    ntfs[13] = 8;
    put(&mut ntfs, 0x28, &100_000u64.to_le_bytes());
    put(&mut ntfs, 0x30, &4u64.to_le_bytes());
    put(&mut ntfs, 0x48, &0x6F46_2FC1_7DF9_1EB8u64.to_le_bytes());
    let p = check(ntfs.clone(), Format::Ntfs, true, &["4096-byte clusters"]);
    assert_eq!(p.uuid.as_deref(), Some("6F462FC17DF91EB8"));
    ntfs[13] = 0xF4; // 2^12-byte clusters, the large-cluster encoding
    check(ntfs.clone(), Format::Ntfs, true, &["4096-byte clusters"]);
    ntfs[13] = 3; // not a power of two: not NTFS
    assert_eq!(probe_of(ntfs).format, Format::Unknown);

    let mut exfat = boot_sector(b"EXFAT   ");
    put(&mut exfat, 100, &0x1234_ABCDu32.to_le_bytes());
    exfat[108] = 9;
    exfat[109] = 3;
    exfat[110] = 1;
    let p = check(
        exfat.clone(),
        Format::ExFat,
        false,
        &["4096-byte clusters", "recognised, not yet readable"],
    );
    assert_eq!(p.uuid.as_deref(), Some("1234-ABCD"));
    exfat[20] = 1; // the BPB area of exFAT must be zero
    assert_eq!(probe_of(exfat).format, Format::Unknown);
}

fn fat_bpb(
    bps: u16,
    spc: u8,
    reserved: u16,
    fats: u8,
    root: u16,
    total: u32,
    fat_size16: u16,
) -> Vec<u8> {
    let mut d = boot_sector(b"mkfs.fat");
    put(&mut d, 11, &bps.to_le_bytes());
    d[13] = spc;
    put(&mut d, 14, &reserved.to_le_bytes());
    d[16] = fats;
    put(&mut d, 17, &root.to_le_bytes());
    if total < 65536 {
        put(&mut d, 19, &(total as u16).to_le_bytes());
    } else {
        put(&mut d, 32, &total.to_le_bytes());
    }
    d[21] = 0xF8;
    put(&mut d, 22, &fat_size16.to_le_bytes());
    d
}

#[test]
fn fat_needs_a_valid_parameter_block() {
    // FAT16 by cluster count, with an extended BPB holding serial and label.
    let mut d = fat_bpb(512, 4, 4, 2, 512, 100_000, 100);
    d[0x26] = 0x29;
    put(&mut d, 0x27, &0x4D4F_4445u32.to_le_bytes());
    put(&mut d, 0x2B, b"EVIDENCE   ");
    let p = check(d, Format::Fat16, true, &["FAT16 boot sector"]);
    assert_eq!(
        (p.uuid.as_deref(), p.label.as_deref()),
        (Some("4D4F-4445"), Some("EVIDENCE"))
    );
    // "NO NAME" is no label.
    let mut d = fat_bpb(512, 1, 1, 2, 224, 2880, 9);
    d[0x26] = 0x29;
    put(&mut d, 0x2B, b"NO NAME    ");
    assert_eq!(check(d, Format::Fat12, true, &[]).label, None);
    // FAT32: FAT size 16 zero, root entries zero.
    let mut d = fat_bpb(512, 8, 32, 2, 0, 4_000_000, 0);
    put(&mut d, 36, &3900u32.to_le_bytes());
    d[0x42] = 0x29;
    put(&mut d, 0x47, b"BIG        ");
    assert_eq!(
        check(d, Format::Fat32, true, &[]).label.as_deref(),
        Some("BIG")
    );
    // Invalid blocks are not FAT.
    for (what, d) in [
        ("sector size 0", fat_bpb(0, 4, 4, 2, 512, 100_000, 100)),
        (
            "3 sectors per cluster",
            fat_bpb(512, 3, 4, 2, 512, 100_000, 100),
        ),
        (
            "no reserved sector",
            fat_bpb(512, 4, 0, 2, 512, 100_000, 100),
        ),
        ("no FAT", fat_bpb(512, 4, 4, 0, 512, 100_000, 100)),
        (
            "FAT32 with a root directory",
            fat_bpb(512, 4, 4, 2, 512, 100_000, 0),
        ),
        ("no data area", fat_bpb(512, 4, 4, 2, 512, 200, 100)),
        ("no sectors", fat_bpb(512, 4, 4, 2, 512, 0, 100)),
    ] {
        assert!(boot_sector_format(&d).is_none(), "{what}");
        assert!(!probe_of(d).format.is_file_system(), "{what}");
    }
    let mut d = fat_bpb(512, 4, 4, 2, 512, 100_000, 100);
    d[21] = 0x12; // media byte
    assert!(boot_sector_format(&d).is_none());
    let mut d = fat_bpb(512, 4, 4, 2, 512, 100_000, 100);
    d[2] = 0x00; // short jump without NOP
    assert!(boot_sector_format(&d).is_none());
}

fn ext_sb(compat: u32, incompat: u32, ro_compat: u32) -> Vec<u8> {
    let mut d = zeros(4096);
    let sb = 1024;
    put(&mut d, sb, &128u32.to_le_bytes());
    put(&mut d, sb + 4, &1024u32.to_le_bytes());
    put(&mut d, sb + 0x18, &2u32.to_le_bytes());
    put(&mut d, sb + 0x38, &0xEF53u16.to_le_bytes());
    put(&mut d, sb + 0x4C, &1u32.to_le_bytes());
    put(&mut d, sb + 0x5C, &compat.to_le_bytes());
    put(&mut d, sb + 0x60, &incompat.to_le_bytes());
    put(&mut d, sb + 0x64, &ro_compat.to_le_bytes());
    put(
        &mut d,
        sb + 0x68,
        &[
            0x73, 0x1a, 0xf9, 0x4c, 0x99, 0x90, 0x4e, 0xed, 0x94, 0x4d, 0x5d, 0x23, 0x0d, 0xbe,
            0x8a, 0x0d,
        ],
    );
    put(&mut d, sb + 0x78, b"blsforme testing");
    d
}

#[test]
fn ext_variants_features_and_encryption() {
    let p = check(
        ext_sb(0, 0x2, 0x1),
        Format::Ext2,
        true,
        &["4096-byte blocks"],
    );
    assert_eq!(
        p.uuid.as_deref(),
        Some("731af94c-9990-4eed-944d-5d230dbe8a0d")
    );
    assert_eq!(p.label.as_deref(), Some("blsforme testing"));
    check(ext_sb(0x4, 0x2 | 0x4, 0x1), Format::Ext3, true, &[]);
    let p = check(
        ext_sb(0x4, 0x2 | 0x40 | 0x10000 | 0x20000 | 0x4000_0000, 0x1),
        Format::Ext4,
        true,
        &[],
    );
    assert_eq!(
        p.features,
        [
            "has_journal",
            "filetype",
            "extent",
            "encrypt",
            "casefold",
            "incompat_0x40000000",
            "sparse_super"
        ]
    );
    assert!(matches!(p.encryption, Encryption::Fbe { .. }));
    check(
        ext_sb(0, 0x8, 0),
        Format::ExtJournal,
        false,
        &["journal device"],
    );
    // Implausible superblocks are reported, not read.
    let mut d = ext_sb(0, 0x2, 0);
    put(&mut d, 1024 + 0x18, &40u32.to_le_bytes());
    check(d, Format::Unknown, false, &["implausible"]);
    let mut d = ext_sb(0, 0x2, 0);
    put(&mut d, 1024 + 4, &0u32.to_le_bytes());
    check(d, Format::Unknown, false, &["implausible"]);
}

#[test]
fn f2fs_erofs_hfs_apfs_superblocks() {
    let mut d = zeros(8192);
    put(&mut d, 1024, &0xF2F5_2010u32.to_le_bytes());
    put(&mut d, 1024 + 8, &9u32.to_le_bytes());
    put(&mut d, 1024 + 16, &12u32.to_le_bytes());
    put(&mut d, 1024 + 124, &[b'u', 0, b'd', 0]);
    put(&mut d, 1024 + 2180, &(0x1u32 | 0x1000).to_le_bytes());
    let p = check(
        d.clone(),
        Format::F2fs,
        true,
        &["F2FS superblock at byte 1024"],
    );
    assert_eq!(p.features, ["encrypt", "casefold"]);
    assert_eq!(p.label.as_deref(), Some("ud"));
    assert!(matches!(p.encryption, Encryption::Fbe { .. }));
    // The second copy when the first is gone.
    let mut second = zeros(8192);
    put(&mut second, 5120, &d[1024..4096]);
    check(second, Format::F2fs, true, &["second copy"]);

    let mut d = zeros(4096);
    put(&mut d, 1024, &0xE0F5_E1E2u32.to_le_bytes());
    d[1024 + 12] = 12;
    put(&mut d, 1024 + 64, b"system");
    let p = check(
        d,
        Format::Erofs,
        false,
        &["EROFS", "recognised, not yet readable"],
    );
    assert_eq!(p.label.as_deref(), Some("system"));

    let hfs = |sig: &[u8], version: u16| {
        let mut d = zeros(4096);
        put(&mut d, 1024, sig);
        put(&mut d, 1026, &version.to_be_bytes());
        put(&mut d, 1028, &(1u32 << 13).to_be_bytes());
        put(&mut d, 1024 + 40, &4096u32.to_be_bytes());
        put(&mut d, 1024 + 44, &100u32.to_be_bytes());
        d
    };
    let p = check(hfs(b"HX", 5), Format::Hfsx, true, &["HFSX"]);
    assert_eq!(p.features, ["journaled"]);
    assert_eq!(p.uuid, None, "no volume identifier");
    check(hfs(b"H+", 4), Format::HfsPlus, true, &[]);
    assert_eq!(
        probe_of(hfs(b"H+", 5)).format,
        Format::Unknown,
        "wrong version"
    );
    let mut wrapper = zeros(4096);
    put(&mut wrapper, 1024, b"BD");
    put(&mut wrapper, 1024 + 0x14, &4096u32.to_be_bytes());
    put(&mut wrapper, 1024 + 0x24, b"\x04Disk");
    put(&mut wrapper, 1024 + 0x7C, b"H+");
    let p = check(wrapper.clone(), Format::HfsPlus, true, &["HFS wrapper"]);
    assert_eq!(p.label.as_deref(), Some("Disk"));
    put(&mut wrapper, 1024 + 0x7C, b"\0\0");
    check(wrapper, Format::Hfs, false, &["classic HFS"]);

    let mut d = zeros(4096);
    put(&mut d, 32, b"NXSB");
    put(&mut d, 36, &4096u32.to_le_bytes());
    put(&mut d, 40, &1000u64.to_le_bytes());
    put(&mut d, 64, &2u64.to_le_bytes());
    check(
        d.clone(),
        Format::Apfs,
        true,
        &["APFS container superblock"],
    );
    let mut fusion = d.clone();
    put(&mut fusion, 64, &0x102u64.to_le_bytes());
    check(
        fusion,
        Format::Apfs,
        false,
        &["Fusion", "recognised, not yet readable"],
    );
    put(&mut d, 36, &1000u32.to_le_bytes());
    assert_eq!(
        probe_of(d).format,
        Format::Unknown,
        "block size not a power of two"
    );
}

#[test]
fn android_super_partitions() {
    let mut d = zeros(64 * 1024);
    put(&mut d, 8192, &0x616C_4467u32.to_le_bytes());
    put(&mut d, 8196, &52u32.to_le_bytes());
    put(&mut d, 8192 + 40, &65536u32.to_le_bytes());
    put(&mut d, 8192 + 44, &2u32.to_le_bytes());
    put(&mut d, 8192 + 48, &4096u32.to_le_bytes());
    check(
        d.clone(),
        Format::AndroidSuper,
        true,
        &["byte 8192", "2 metadata slot(s)"],
    );
    put(&mut d, 8196, &53u32.to_le_bytes());
    assert_eq!(probe_of(d).format, Format::Unknown);
}

#[test]
fn tar_needs_its_checksum_and_swap_its_page_end() {
    let mut d = zeros(1024);
    put(&mut d, 0, b"notes.txt");
    put(&mut d, 100, b"0000644\0");
    put(&mut d, 124, b"00000000005\0");
    put(&mut d, 156, b"0");
    put(&mut d, 257, b"ustar\x0000");
    put(&mut d, 148, b"        ");
    let sum: u32 = d[..512].iter().map(|&b| u32::from(b)).sum();
    put(&mut d, 148, format!("{sum:06o}\0 ").as_bytes());
    check(d.clone(), Format::Tar, true, &["checksum valid"]);
    d[0] = b'N';
    assert_eq!(
        probe_of(d).format,
        Format::Unknown,
        "checksum no longer matches"
    );

    let mut d = zeros(16384);
    put(&mut d, 16384 - 10, b"SWAPSPACE2");
    put(&mut d, 1052, b"swap16k");
    let p = check(d, Format::LinuxSwap, false, &["16384-byte pages"]);
    assert_eq!(p.label.as_deref(), Some("swap16k"));
}

#[test]
fn iso9660_descriptors() {
    let mut d = zeros(40 * 2048);
    let pvd = 16 * 2048;
    put(&mut d, pvd, b"\x01CD001\x01");
    put(&mut d, pvd + 40, b"EVIDENCE_DISC                   ");
    put(&mut d, pvd + 80, &1000u32.to_le_bytes());
    put(&mut d, pvd + 813, b"2024010203040500");
    put(&mut d, pvd + 2048, b"\x02CD001\x01");
    put(&mut d, pvd + 2048 + 88, b"%/E");
    put(&mut d, pvd + 4096, b"\xffCD001\x01");
    let p = check(
        d,
        Format::Iso9660,
        false,
        &["1000 blocks", "recognised, not yet readable"],
    );
    assert_eq!(p.label.as_deref(), Some("EVIDENCE_DISC"));
    assert_eq!(p.uuid.as_deref(), Some("2024-01-02-03-04-05-00"));
    assert_eq!(p.features, ["joliet"]);
}

fn footer(fill: Vec<u8>, at: usize) -> Vec<u8> {
    let mut d = fill;
    put(&mut d, at, &0xD0B5_B1C4u32.to_le_bytes());
    put(&mut d, at + 4, &[1, 0, 2, 0]);
    put(&mut d, at + 16, &32u32.to_le_bytes());
    put(&mut d, at + 24, &2048u64.to_le_bytes());
    put(&mut d, at + 36, b"aes-xts\0");
    d
}

#[test]
fn encryption_without_a_file_system() {
    // A crypto footer 16 KiB before the end of random bytes: FDE.
    let p = check(
        footer(noise(256 * 1024, 1), 240 * 1024),
        Format::AndroidFde,
        false,
        &[
            "Android full-disk encryption",
            "version 1.2",
            "aes-xts",
            "32-byte key",
        ],
    );
    assert!(
        matches!(&p.encryption, Encryption::Fde { evidence } if evidence.contains("16384 bytes before the end"))
    );
    // A footer partition smaller than 16 KiB, footer at its start.
    check(
        footer(zeros(8192), 0),
        Format::AndroidFde,
        false,
        &["at byte 0"],
    );
    // A footer at a sector boundary other than the last 16 KiB's first is still found.
    check(
        footer(noise(64 * 1024, 2), 60 * 1024),
        Format::AndroidFde,
        false,
        &["4096 bytes before the end"],
    );
    // A footer magic in the middle of a sector is not a footer.
    let p = probe_of(footer(zeros(64 * 1024), 60 * 1024 + 100));
    assert_eq!(
        (p.format, p.encryption),
        (Format::Unknown, Encryption::None)
    );
    // Random bytes alone: unknown, likely encrypted, even with some zeroed blocks.
    let mut d = noise(1 << 20, 3);
    d[..128 * 1024].fill(0);
    let p = check(d, Format::Unknown, false, &["unknown, likely encrypted"]);
    assert!(
        matches!(&p.encryption, Encryption::Unknown { evidence } if evidence.contains("are zero"))
    );
    // Text is not random.
    let text: Vec<u8> = b"The quick brown fox jumps over the lazy dog. "
        .iter()
        .copied()
        .cycle()
        .take(1 << 16)
        .collect();
    let p = check(text, Format::Unknown, false, &["structured"]);
    assert_eq!(p.encryption, Encryption::None);
    check(zeros(1 << 20), Format::Zeroed, false, &["zero"]);
    check(Vec::new(), Format::Empty, false, &[]);
    // Tiny random streams are not called encrypted (too few bytes to judge).
    assert_eq!(probe_of(noise(100, 4)).encryption, Encryption::None);
}

struct Failing;

impl ByteSource for Failing {
    fn len(&self) -> u64 {
        1 << 20
    }
    fn read_at(&self, offset: u64, _buf: &mut [u8]) -> Result<usize, Error> {
        Err(Error::Read {
            layer: "failing".to_string(),
            offset,
            source: std::io::Error::other("medium error"),
        })
    }
    fn layer_name(&self) -> String {
        "failing".to_string()
    }
}

#[test]
fn read_errors_give_an_unknown_answer() {
    let p = probe(&Failing);
    assert_eq!(p.format, Format::Unknown);
    assert!(p.reason.contains("medium error"), "{}", p.reason);
}

#[test]
fn helpers() {
    let mut out = Vec::new();
    flag_names(0b1011, &[(0b1, "a"), (0b10, "b")], "x", &mut out);
    assert_eq!(out, ["a", "b", "x_0x8"]);
    assert_eq!(text(b"  abc \0junk"), Some("abc".to_string()));
    assert_eq!(text(b"\0\0"), None);
    assert_eq!(uuid_be(&[0; 16]), None);
    assert_eq!(uuid_be(&[1; 4]), None);
    assert!(entropy(&noise(4096, 9)) > 7.9);
    assert_eq!(entropy(&[7; 100]), 0.0);
    assert_eq!(le32(&[1, 2, 3], 0), None);
    assert_eq!(field(&[1, 2, 3], usize::MAX, 2), None);
    assert_eq!(Format::HfsPlus.to_string(), "hfsplus");
    assert_eq!(
        serde_json::to_string(&Format::AndroidFde).unwrap(),
        "\"android_fde\""
    );
    let e = serde_json::to_value(Encryption::Fbe {
        evidence: "x".into(),
    })
    .unwrap();
    assert_eq!(e, serde_json::json!({"kind": "fbe", "evidence": "x"}));
}

#[test]
fn an_mbr_and_a_superblock_on_the_same_bytes() {
    // A disk re-partitioned over an old ext2: the table's partitions fit, so the table wins.
    let mut d = ext_sb(0, 0x2, 0x1);
    d.resize(1 << 20, 0);
    put(&mut d, 446 + 4, &[0x83]);
    put(&mut d, 446 + 8, &100u32.to_le_bytes());
    put(&mut d, 446 + 12, &10u32.to_le_bytes());
    put(&mut d, 510, &[0x55, 0xAA]);
    assert_eq!(probe_of(d.clone()).format, Format::Mbr);
    // Boot code that happens to look like a table reaching past the end: the file system wins.
    put(&mut d, 446 + 12, &0x0100_0000u32.to_le_bytes());
    assert_eq!(probe_of(d).format, Format::Ext2);
}

#[test]
fn virtual_disk_signatures() {
    let qcow = |version: u32, crypt: u32| {
        let mut d = zeros(8192);
        put(&mut d, 0, b"QFI\xfb");
        put(&mut d, 4, &version.to_be_bytes());
        put(&mut d, 32, &crypt.to_be_bytes());
        d
    };
    check(
        qcow(3, 0),
        Format::Qcow2,
        true,
        &["QCOW2", "version 3", "byte 0"],
    );
    check(
        qcow(1, 0),
        Format::Qcow2,
        false,
        &["version 1", "not yet readable"],
    );
    let p = check(
        qcow(2, 1),
        Format::Qcow2,
        false,
        &["crypt_method 1", "encrypted"],
    );
    assert!(matches!(p.encryption, Encryption::Fde { .. }));
    // A dynamic VHD's footer copy at byte 0; a differencing one, read over its parent.
    let vhd_head = |disk_type: u32| {
        let mut d = zeros(8192);
        put(&mut d, 0, b"conectix");
        put(&mut d, 60, &disk_type.to_be_bytes());
        d
    };
    check(vhd_head(3), Format::Vhd, true, &["dynamic", "byte 0"]);
    check(vhd_head(4), Format::Vhd, true, &["differencing", "parent"]);
    // A fixed VHD: its footer (checksum valid) after the disk's bytes; an invalid checksum
    // is no footer.
    let mut d = zeros(8192);
    let end = d.len() - 512;
    put(&mut d, end, b"conectix");
    put(&mut d, end + 48, &(end as u64).to_be_bytes());
    put(&mut d, end + 60, &2u32.to_be_bytes());
    let sum = d[end..]
        .iter()
        .fold(0u32, |s, &x| s.wrapping_add(u32::from(x)));
    put(&mut d, end + 64, &(!sum).to_be_bytes());
    check(d.clone(), Format::Vhd, true, &["fixed", "last 512 bytes"]);
    d[end + 64] ^= 1;
    assert_ne!(probe_of(d).format, Format::Vhd);
    // VMDK: a sparse extent header with its descriptor at sector 1 (its createType in the
    // reason), an unknown version, a child naming its parent, a text descriptor file.
    let kdmv = |version: u32, descriptor: &str| {
        let mut d = zeros(8192);
        put(&mut d, 0, b"KDMV");
        put(&mut d, 4, &version.to_le_bytes());
        put(&mut d, 28, &1u64.to_le_bytes());
        put(&mut d, 36, &4u64.to_le_bytes());
        put(&mut d, 512, descriptor.as_bytes());
        d
    };
    let desc = "# Disk DescriptorFile\ncreateType=\"monolithicSparse\"\n";
    check(
        kdmv(1, desc),
        Format::Vmdk,
        true,
        &[
            "`KDMV`",
            "version 1",
            "createType monolithicSparse",
            "byte 0",
        ],
    );
    check(kdmv(4, desc), Format::Vmdk, false, &["version 4", "1 to 3"]);
    let child = "# Disk DescriptorFile\nparentCID=1234abcd\nparentFileNameHint=\"base.vmdk\"\n";
    check(
        kdmv(1, child),
        Format::Vmdk,
        true,
        &["`base.vmdk`", "beside"],
    );
    let flat =
        "# Disk DescriptorFile\ncreateType=\"monolithicFlat\"\nRW 16 FLAT \"d-flat.vmdk\" 0\n";
    check(
        flat.as_bytes().to_vec(),
        Format::Vmdk,
        true,
        &["descriptor file", "`d-flat.vmdk`", "beside"],
    );
}
