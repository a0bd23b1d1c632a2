//! Unit tests of the volume layer on tables built in memory (the integration tests use tables
//! made by sgdisk, fdisk, sfdisk, parted and xorriso).

use std::sync::Arc;

use super::*;
use crate::bytes::Memory;

fn mem(data: Vec<u8>) -> Bytes {
    Arc::new(Memory::new(data, "disk"))
}

fn put(d: &mut [u8], at: usize, bytes: &[u8]) {
    d[at..at + bytes.len()].copy_from_slice(bytes);
}

fn crc(data: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(data);
    c.sum()
}

/// A GPT entry: type GUID bytes, first and last LBA, name.
struct E(&'static str, u64, u64, &'static str);

/// On-disk bytes of a GUID string (first three fields little-endian).
fn guid_bytes(s: &str) -> [u8; 16] {
    let h: String = s.chars().filter(|c| *c != '-').collect();
    let b: Vec<u8> = (0..16)
        .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    [
        b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13],
        b[14], b[15],
    ]
}

/// Builds a GPT disk: protective MBR, primary header and array, backup array and header, with
/// valid CRCs.
fn gpt_disk(ss: usize, sectors: usize, entry_size: usize, entries: &[E]) -> Vec<u8> {
    let count = 128usize;
    let array_sectors = (count * entry_size).div_ceil(ss);
    let mut d = vec![0u8; ss * sectors];
    // Protective MBR.
    put(&mut d, 446 + 4, &[0xEE]);
    put(&mut d, 446 + 8, &1u32.to_le_bytes());
    put(&mut d, 446 + 12, &((sectors - 1) as u32).to_le_bytes());
    put(&mut d, 510, &[0x55, 0xAA]);
    let mut array = vec![0u8; count * entry_size];
    for (i, e) in entries.iter().enumerate() {
        let at = i * entry_size;
        put(&mut array, at, &guid_bytes(e.0));
        put(
            &mut array,
            at + 16,
            &guid_bytes("11111111-2222-3333-4444-555555555555"),
        );
        put(&mut array, at + 32, &e.1.to_le_bytes());
        put(&mut array, at + 40, &e.2.to_le_bytes());
        for (j, u) in e.3.encode_utf16().enumerate() {
            put(&mut array, at + 56 + 2 * j, &u.to_le_bytes());
        }
    }
    let last = (sectors - 1) as u64;
    let header = |current: u64, backup: u64, array_lba: u64| {
        let mut h = vec![0u8; 92];
        put(&mut h, 0, b"EFI PART");
        put(&mut h, 8, &[0, 0, 1, 0]);
        put(&mut h, 12, &92u32.to_le_bytes());
        put(&mut h, 24, &current.to_le_bytes());
        put(&mut h, 32, &backup.to_le_bytes());
        put(&mut h, 40, &(2 + array_sectors as u64).to_le_bytes());
        put(&mut h, 48, &(last - 1 - array_sectors as u64).to_le_bytes());
        put(
            &mut h,
            56,
            &guid_bytes("4D415346-0000-4000-8000-0000000000D1"),
        );
        put(&mut h, 72, &array_lba.to_le_bytes());
        put(&mut h, 80, &(count as u32).to_le_bytes());
        put(&mut h, 84, &(entry_size as u32).to_le_bytes());
        put(&mut h, 88, &crc(&array).to_le_bytes());
        let c = crc(&h);
        put(&mut h, 16, &c.to_le_bytes());
        h
    };
    let backup_array = last - array_sectors as u64;
    put(&mut d, ss, &header(1, last, 2));
    put(&mut d, 2 * ss, &array);
    put(&mut d, backup_array as usize * ss, &array);
    put(&mut d, last as usize * ss, &header(last, 1, backup_array));
    d
}

const LINUX: &str = "0FC63DAF-8483-4772-8E79-3D69D8477DE4";
const ANDROID_DATA: &str = "DC76DDA9-5AC1-491C-AF42-A82591580C0D";

fn brief(vs: &VolumeSystem) -> Vec<(u32, String, u64, u64, u64)> {
    vs.partitions
        .iter()
        .map(|p| {
            (
                p.index,
                p.name.clone(),
                p.first_lba,
                p.sector_count,
                p.offset,
            )
        })
        .collect()
}

#[test]
fn gpt_512_and_4096_byte_sectors() {
    for ss in [512usize, 4096] {
        let d = gpt_disk(
            ss,
            128,
            128,
            &[
                E(LINUX, 40, 49, "system"),
                E(ANDROID_DATA, 50, 89, "userdata"),
            ],
        );
        let disk = mem(d);
        assert_eq!(sniff(&*disk), Some(VolumeKind::Gpt));
        let vs = open(&disk).unwrap();
        assert_eq!(vs.sector_size as usize, ss);
        assert_eq!(
            brief(&vs),
            [
                (1, "system".to_string(), 40, 10, 40 * ss as u64),
                (2, "userdata".to_string(), 50, 40, 50 * ss as u64)
            ]
        );
        assert_eq!(vs.partitions[1].type_name, "Android data");
        assert_eq!(
            vs.disk_guid.as_deref(),
            Some("4D415346-0000-4000-8000-0000000000D1")
        );
        assert!(vs.diagnostics.is_empty(), "{:?}", vs.diagnostics);
    }
}

#[test]
fn gpt_without_a_primary_signature_is_found_by_its_protective_mbr_and_backup() {
    for ss in [512usize, 4096] {
        let mut d = gpt_disk(ss, 128, 128, &[E(LINUX, 40, 49, "system")]);
        d[ss..ss + 8].fill(0);
        let disk = mem(d);
        assert_eq!(sniff(&*disk), Some(VolumeKind::Gpt), "{ss}");
        let vs = open(&disk).unwrap();
        assert_eq!(vs.sector_size as usize, ss);
        assert_eq!(brief(&vs)[0].1, "system");
        assert!(
            vs.diagnostics[0].contains("backup header at sector 127 was used"),
            "{:?}",
            vs.diagnostics
        );
    }
}

#[test]
fn gpt_entries_of_256_bytes_are_read_by_hand() {
    let d = gpt_disk(512, 256, 256, &[E(LINUX, 80, 99, "big")]);
    let vs = open(&mem(d)).unwrap();
    assert_eq!(brief(&vs), [(1, "big".to_string(), 80, 20, 80 * 512)]);
    assert!(vs.diagnostics.is_empty(), "{:?}", vs.diagnostics);
}

#[test]
fn gpt_unused_entries_with_leftovers_are_reported() {
    let mut d = gpt_disk(512, 128, 128, &[E(LINUX, 40, 49, "live")]);
    // A second entry with a zero type GUID but a name: a deleted partition's remains.
    let entry = 2 * 512 + 128;
    put(&mut d, entry + 32, &60u64.to_le_bytes());
    put(&mut d, entry + 40, &69u64.to_le_bytes());
    put(&mut d, entry + 56, &[b'o', 0, b'l', 0, b'd', 0]);
    // Fix both arrays' CRCs in both headers by rebuilding: copy the array to the backup too.
    let array = d[1024..1024 + 128 * 128].to_vec();
    put(&mut d, (127 - 32) * 512, &array);
    for h in [512usize, 127 * 512] {
        put(&mut d, h + 88, &crc(&array).to_le_bytes());
        put(&mut d, h + 16, &[0; 4]);
        let c = crc(&d[h..h + 92]);
        put(&mut d, h + 16, &c.to_le_bytes());
    }
    let vs = open(&mem(d)).unwrap();
    assert_eq!(vs.partitions.len(), 1);
    assert!(
        vs.diagnostics[0].contains("entry 2 has no type") && vs.diagnostics[0].contains("\"old\""),
        "{:?}",
        vs.diagnostics
    );
}

fn mbr_sector(entries: &[(u8, u8, u32, u32)]) -> [u8; 512] {
    let mut s = [0u8; 512];
    for (i, &(boot, kind, start, sectors)) in entries.iter().enumerate() {
        let at = 446 + 16 * i;
        s[at] = boot;
        s[at + 4] = kind;
        put(&mut s, at + 8, &start.to_le_bytes());
        put(&mut s, at + 12, &sectors.to_le_bytes());
    }
    s[510] = 0x55;
    s[511] = 0xAA;
    s
}

#[test]
fn sniffing_tells_tables_from_boot_sectors_and_noise() {
    let check = |data: Vec<u8>, want: Option<VolumeKind>, what: &str| {
        assert_eq!(sniff(&Memory::new(data, "x")), want, "{what}");
    };
    let disk = |s: [u8; 512]| {
        let mut d = s.to_vec();
        d.resize(64 * 1024, 0);
        d
    };
    check(
        disk(mbr_sector(&[(0x80, 0x83, 2048, 1000)])),
        Some(VolumeKind::Mbr),
        "one partition",
    );
    check(
        disk(mbr_sector(&[(0, 0xEE, 1, 127)])),
        Some(VolumeKind::Gpt),
        "protective MBR",
    );
    check(
        disk(mbr_sector(&[(0x81, 0x83, 2048, 1000)])),
        None,
        "bad boot flag",
    );
    check(disk(mbr_sector(&[])), None, "empty table");
    check(
        disk(mbr_sector(&[(0, 0x83, 0, 1000)])),
        None,
        "starts at sector 0",
    );
    check(disk(mbr_sector(&[(0, 0x83, 5, 0)])), None, "no sectors");
    let mut no_sig = disk(mbr_sector(&[(0, 0x83, 2048, 1000)]));
    no_sig[511] = 0;
    check(no_sig, None, "no signature");
    check(vec![0x55; 300], None, "shorter than a sector");
    check(Vec::new(), None, "empty");
    // A FAT16 boot sector whose boot code happens to look like partition entries.
    let mut fat = mbr_sector(&[(0, 0x83, 2048, 1000)]);
    put(&mut fat, 0, &[0xEB, 0x3C, 0x90]);
    put(&mut fat, 3, b"mkfs.fat");
    put(&mut fat, 11, &512u16.to_le_bytes());
    fat[13] = 4;
    put(&mut fat, 14, &4u16.to_le_bytes());
    fat[16] = 2;
    put(&mut fat, 17, &512u16.to_le_bytes());
    put(&mut fat, 19, &40000u16.to_le_bytes());
    fat[21] = 0xF8;
    put(&mut fat, 22, &40u16.to_le_bytes());
    check(disk(fat), None, "FAT boot sector");
    // EFI PART at LBA 1 of 4096-byte sectors, with garbage at 512.
    let mut d = vec![0u8; 64 * 1024];
    put(&mut d, 4096, b"EFI PART");
    check(d, Some(VolumeKind::Gpt), "4096-byte sectors");
}

#[test]
fn find_prefers_an_index_then_exact_then_caseless_names() {
    let d = gpt_disk(
        512,
        128,
        128,
        &[
            E(LINUX, 40, 49, "2"),
            E(LINUX, 50, 59, "Cache"),
            E(LINUX, 60, 69, "cache"),
        ],
    );
    let vs = open(&mem(d)).unwrap();
    assert_eq!(
        vs.find("2").unwrap().first_lba,
        50,
        "index 2, not the partition named 2"
    );
    assert_eq!(vs.find("cache").unwrap().index, 3);
    assert_eq!(vs.find("CACHE").unwrap().index, 2, "first caseless match");
    assert!(vs.find("4").is_none());
    assert!(vs.find("-1").is_none());
}

#[test]
fn overlaps_are_found_by_a_sweep() {
    let part = |index: u32, first: u64, count: u64| Partition {
        index,
        name: String::new(),
        role: PartitionRole::Gpt,
        type_id: String::new(),
        type_name: String::new(),
        guid: None,
        attributes: 0,
        first_lba: first,
        last_lba: first + count - 1,
        sector_count: count,
        offset: 0,
        size: 0,
        bytes: mem(Vec::new()),
    };
    let mut diags = Vec::new();
    report_overlaps(
        &[
            part(1, 10, 100),
            part(2, 200, 10),
            part(3, 50, 10),
            part(4, 205, 1),
        ],
        &mut diags,
    );
    assert_eq!(
        diags,
        [
            "partitions 1 and 3 overlap (sectors 10-109 and 50-59)",
            "partitions 2 and 4 overlap (sectors 200-209 and 205-205)"
        ]
    );
    let mut many: Vec<String> = (0..500).map(|i| i.to_string()).collect();
    cap_diagnostics(&mut many);
    assert_eq!(many.len(), 201);
    assert!(many[200].contains("300 more"));
}

#[test]
fn an_endless_ebr_chain_is_cut_at_the_limit() {
    // Extended partition at sector 1; EBR i at sector 1 + 2i links to EBR i + 1, each with a
    // one-sector logical partition after it.
    let links = MAX_LOGICAL_PARTITIONS + 10;
    let sectors = 2 + 2 * links;
    let mut d = vec![0u8; 512 * sectors];
    put(
        &mut d,
        0,
        &mbr_sector(&[(0, 0x05, 1, (sectors - 1) as u32)]),
    );
    for i in 0..links {
        let ebr = mbr_sector(&[(0, 0x83, 1, 1), (0, 0x05, 2 * (i as u32 + 1), 2)]);
        put(&mut d, (1 + 2 * i) * 512, &ebr);
    }
    let vs = open(&mem(d)).unwrap();
    assert_eq!(vs.partitions.len(), 1 + MAX_LOGICAL_PARTITIONS);
    assert_eq!(
        vs.partitions.last().unwrap().index as usize,
        4 + MAX_LOGICAL_PARTITIONS
    );
    assert!(
        vs.diagnostics
            .iter()
            .any(|d| d.contains("more than 1024 links")),
        "{:?}",
        vs.diagnostics
    );
}

#[test]
fn mbr_oddities_are_reported() {
    let mut d = vec![0u8; 512 * 64];
    put(
        &mut d,
        0,
        &mbr_sector(&[
            (0, 0x83, 2, 4),
            (0, 0x0c, 10, 0),
            (0, 0x05, 20, 20),
            (0, 0x0f, 40, 10),
        ]),
    );
    // First extended: an EBR whose logical lies outside the container and whose link is not an
    // extended type; second extended: no EBR at all.
    put(
        &mut d,
        20 * 512,
        &mbr_sector(&[(0, 0x83, 30, 4), (0, 0x83, 5, 5), (0, 0x07, 1, 1)]),
    );
    let vs = open(&mem(d)).unwrap();
    let kinds: Vec<(u32, PartitionRole)> =
        vs.partitions.iter().map(|p| (p.index, p.role)).collect();
    assert_eq!(
        kinds,
        [
            (1, PartitionRole::Primary),
            (3, PartitionRole::Extended),
            (4, PartitionRole::Extended),
            (5, PartitionRole::Logical)
        ]
    );
    let all = vs.diagnostics.join("\n");
    for needle in [
        "primary slot 2 has type 0x0c but no sectors",
        "2 extended partitions",
        "logical partition 5 (sectors 50-53) is not inside its extended partition",
        "uses entries 3-4",
        "has type 0x83, not a link",
        "the extended partition at sector 40 holds no EBR",
    ] {
        assert!(all.contains(needle), "{needle}: {all}");
    }
}

#[test]
fn empty_entries_beyond_the_disk_do_not_underflow() {
    // Entry 1: last < first, first far beyond the disk (sector count 0).
    let d = gpt_disk(
        512,
        128,
        128,
        &[E(LINUX, 1_000_000, 5, "backwards"), E(LINUX, 40, 49, "ok")],
    );
    let vs = open(&mem(d)).unwrap();
    let p = vs.find("backwards").unwrap();
    assert_eq!((p.sector_count, p.size, p.bytes.len()), (0, 0, 0));
    assert!(
        vs.diagnostics
            .iter()
            .any(|d| d.contains("treated as empty")),
        "{:?}",
        vs.diagnostics
    );
    assert_eq!(vs.find("ok").unwrap().bytes.len(), 10 * 512);
}

/// An APM entry: first block, block count, name, type, status.
struct A(u32, u32, &'static str, &'static str, u32);

/// Builds an APM disk of `blocks` blocks of `bs` bytes: a driver descriptor map giving
/// `ddm_bs` (none when 0) and the entries in blocks 1, 2, … (those that fit), each saying the
/// map has `count` entries (the number of entries when `None`).
fn apm_disk(bs: usize, ddm_bs: u16, blocks: usize, count: Option<u32>, entries: &[A]) -> Vec<u8> {
    let mut d = vec![0u8; bs * blocks];
    if ddm_bs != 0 {
        put(&mut d, 0, b"ER");
        put(&mut d, 2, &ddm_bs.to_be_bytes());
        put(&mut d, 4, &(blocks as u32).to_be_bytes());
    }
    let count = count.unwrap_or(entries.len() as u32);
    for (i, e) in entries.iter().enumerate() {
        let at = (i + 1) * bs;
        if at + bs > d.len() {
            break;
        }
        put(&mut d, at, b"PM");
        put(&mut d, at + 4, &count.to_be_bytes());
        put(&mut d, at + 8, &e.0.to_be_bytes());
        put(&mut d, at + 12, &e.1.to_be_bytes());
        put(&mut d, at + 16, e.2.as_bytes());
        put(&mut d, at + 48, e.3.as_bytes());
        put(&mut d, at + 88, &e.4.to_be_bytes());
    }
    d
}

fn apm_base() -> [A; 4] {
    [
        A(1, 63, "Apple", "Apple_partition_map", 3),
        A(64, 32, "MacHD", "Apple_HFS", 0x4000_0033),
        A(96, 16, "linux", "Apple_UNIX_SVR2", 0x33),
        A(112, 16, "Extra", "Apple_Free", 0),
    ]
}

#[test]
fn apm_lists_every_entry_numbered_by_block() {
    let disk = mem(apm_disk(512, 512, 128, None, &apm_base()));
    assert_eq!(sniff(&*disk), Some(VolumeKind::Apm));
    let vs = open(&disk).unwrap();
    assert_eq!(
        (vs.kind, vs.sector_size, vs.disk_guid.as_deref()),
        (VolumeKind::Apm, 512, None)
    );
    assert_eq!(
        brief(&vs),
        [
            (1, "Apple".to_string(), 1, 63, 512),
            (2, "MacHD".to_string(), 64, 32, 64 * 512),
            (3, "linux".to_string(), 96, 16, 96 * 512),
            (4, "Extra".to_string(), 112, 16, 112 * 512)
        ]
    );
    let hd = vs.find("MacHD").unwrap();
    assert_eq!(
        (
            hd.role,
            hd.type_id.as_str(),
            hd.type_name.as_str(),
            hd.attributes,
            hd.last_lba
        ),
        (
            PartitionRole::Apm,
            "Apple_HFS",
            "Apple_HFS",
            0x4000_0033,
            95
        )
    );
    assert_eq!(hd.bytes.layer_name(), "partition 2 (MacHD)");
    let data: Vec<bool> = vs.partitions.iter().map(Partition::holds_data).collect();
    assert_eq!(
        data,
        [false, true, true, false],
        "map and free space hold no data"
    );
    assert!(vs.diagnostics.is_empty(), "{:?}", vs.diagnostics);
    assert_eq!(VolumeKind::Apm.name(), "apm");

    // Without a driver descriptor map (block 0 zero) the map is found too.
    let vs = open(&mem(apm_disk(512, 0, 128, None, &apm_base()))).unwrap();
    assert_eq!(vs.partitions.len(), 4);
    assert!(vs.diagnostics.is_empty(), "{:?}", vs.diagnostics);
}

#[test]
fn apm_block_sizes_from_the_ddm_and_tsks_4096() {
    // 2048-byte blocks named by the driver descriptor map (xorriso -apm-block-size 2048).
    let vs = open(&mem(apm_disk(2048, 2048, 128, None, &apm_base()))).unwrap();
    assert_eq!(vs.sector_size, 2048);
    assert_eq!(brief(&vs)[1], (2, "MacHD".to_string(), 64, 32, 64 * 2048));
    assert!(vs.diagnostics.is_empty(), "{:?}", vs.diagnostics);
    // 4096-byte blocks without a DDM: TSK's second try.
    let vs = open(&mem(apm_disk(4096, 0, 128, None, &apm_base()))).unwrap();
    assert_eq!(vs.sector_size, 4096);
    assert_eq!(vs.partitions.len(), 4);
    // A DDM of 2048-byte blocks over a map of 512-byte blocks (as on Apple CDs): reported.
    let vs = open(&mem(apm_disk(512, 2048, 128, None, &apm_base()))).unwrap();
    assert_eq!(vs.sector_size, 512);
    assert!(
        vs.diagnostics[0].contains("gives 2048-byte blocks; the map was found with 512-byte"),
        "{:?}",
        vs.diagnostics
    );
}

#[test]
fn apm_sniffing_needs_a_plausible_first_entry_and_a_clean_block_0() {
    let check = |data: Vec<u8>, want: Option<VolumeKind>, what: &str| {
        assert_eq!(sniff(&Memory::new(data, "x")), want, "{what}");
    };
    check(
        apm_disk(512, 512, 16, None, &apm_base()),
        Some(VolumeKind::Apm),
        "base",
    );
    let mut junk0 = apm_disk(512, 0, 16, None, &apm_base());
    junk0[100] = 1;
    check(junk0, None, "block 0 neither a DDM nor zeros");
    check(
        apm_disk(512, 512, 16, Some(0), &apm_base()),
        None,
        "a map of 0 entries",
    );
    let mut no_type = apm_disk(512, 512, 16, None, &apm_base());
    no_type[512 + 48] = 0;
    check(no_type, None, "no type");
    let mut no_pm = apm_disk(512, 512, 16, None, &apm_base());
    no_pm[513] = b'X';
    check(no_pm, None, "no PM");
    check(
        apm_disk(512, 512, 16, None, &apm_base())[..600].to_vec(),
        None,
        "entry cut short",
    );
    // An MBR disk with stray `PM` at byte 512 stays MBR (its block 0 is no DDM).
    let mut d = mbr_sector(&[(0, 0x83, 2048, 1000)]).to_vec();
    d.resize(64 * 1024, 0);
    put(
        &mut d,
        512,
        &apm_disk(512, 0, 2, None, &apm_base())[512..1024],
    );
    check(d, Some(VolumeKind::Mbr), "MBR with PM at 512");
    // A GPT disk stays GPT.
    check(
        gpt_disk(512, 128, 128, &[E(LINUX, 40, 49, "system")]),
        Some(VolumeKind::Gpt),
        "GPT",
    );
}

#[test]
fn apm_hostile_maps_give_diagnostics() {
    let diag = |vs: &VolumeSystem, words: &[&str]| {
        assert!(
            vs.diagnostics
                .iter()
                .any(|d| words.iter().all(|w| d.contains(w))),
            "{words:?}: {:?}",
            vs.diagnostics
        );
    };
    // A count far beyond the disk: read to the disk's end, stopped by the first block without PM.
    let vs = open(&mem(apm_disk(512, 512, 128, Some(u32::MAX), &apm_base()))).unwrap();
    assert_eq!(vs.partitions.len(), 4);
    diag(&vs, &["4294967295 entries", "more than 1024"]);
    diag(
        &vs,
        &[
            "map entry 5 at byte 2560 has no `PM`",
            "after 4 of 4294967295",
        ],
    );
    diag(
        &vs,
        &["4294967295 entries", "the disk ends after block 127"],
    );
    // A count beyond the disk's end (a truncated image).
    let vs = open(&mem(apm_disk(512, 512, 3, None, &apm_base()))).unwrap();
    assert_eq!(vs.partitions.len(), 2);
    diag(&vs, &["claims 4 entries", "ends after block 2"]);
    diag(&vs, &["partition 2 (MacHD)", "no readable bytes"]);
    // An entry without PM in the middle: the entries before it are kept.
    let mut d = apm_disk(512, 512, 128, None, &apm_base());
    d[3 * 512] = 0;
    let vs = open(&mem(d)).unwrap();
    assert_eq!(vs.partitions.len(), 2);
    diag(
        &vs,
        &["map entry 3 at byte 1536 has no `PM`", "after 2 of 4"],
    );
    // Entries disagreeing on the size of the map.
    let mut d = apm_disk(512, 512, 128, None, &apm_base());
    put(&mut d, 2 * 512 + 4, &9u32.to_be_bytes());
    let vs = open(&mem(d)).unwrap();
    assert_eq!(vs.partitions.len(), 4);
    diag(
        &vs,
        &["map entry 2 says the map has 9 entries, entry 1 says 4"],
    );
    // Overflowing start + count, an empty entry, a map entry smaller than the map, and a
    // partition over the map itself.
    let vs = open(&mem(apm_disk(
        512,
        512,
        128,
        None,
        &[
            A(1, 2, "Apple", "Apple_partition_map", 3),
            A(u32::MAX, u32::MAX, "far", "Apple_HFS", 0),
            A(10, 0, "empty", "Apple_HFS", 0),
            A(1, 8, "over", "Apple_HFS", 0),
        ],
    )))
    .unwrap();
    let far = vs.find("far").unwrap();
    assert_eq!(
        (far.first_lba, far.sector_count, far.bytes.len()),
        (u64::from(u32::MAX), u64::from(u32::MAX), 0)
    );
    assert!(vs.find("empty").is_none());
    diag(&vs, &["partition 2 (far)", "no readable bytes"]);
    diag(&vs, &["map entry 3 (\"empty\"", "no blocks; ignored"]);
    diag(
        &vs,
        &["claims 4 entries", "its own entry (1) covers only 2 blocks"],
    );
    diag(&vs, &["partitions 1 and 4 overlap"]);
}

#[test]
fn apm_maps_longer_than_the_limit_are_cut() {
    let entries: Vec<A> = (0..MAX_APM_ENTRIES + 10)
        .map(|i| A(2000 + i, 1, "p", "Apple_HFS", 0))
        .collect();
    let vs = open(&mem(apm_disk(512, 512, 4096, None, &entries))).unwrap();
    assert_eq!(vs.partitions.len(), MAX_APM_ENTRIES as usize);
    assert!(
        vs.diagnostics[0].contains("1034 entries, more than 1024"),
        "{:?}",
        vs.diagnostics
    );
}

#[test]
fn mac_roman_names() {
    assert_eq!(apm::mac_roman(b"Macintosh HD\0junk"), "Macintosh HD");
    assert_eq!(apm::mac_roman(b"Caf\x8e \xa5 \xf0\xdb"), "Café • \u{f8ff}€");
    assert_eq!(apm::mac_roman(b""), "");
}
