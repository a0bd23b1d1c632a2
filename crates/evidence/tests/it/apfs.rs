//! APFS, on the public corpus image `fs/apfs/dfvfs-apfs.raw` (dfVFS test data, made by macOS
//! `newfs_apfs`) against The Sleuth Kit's listing, times, sizes and file contents
//! (`tests/fixtures/apfs/dfvfs-apfs.oracle.tsv`, made by `make-oracle.sh` beside it). Debian has
//! no tool that writes APFS (no `mkfs.apfs`, and `apfs-fuse` reads only), so the failure tests
//! are crafted corruptions of that image: truncated, a bad checksum, a B-tree node that points
//! at itself, and seeded random byte changes.

use std::sync::Arc;

use masf_evidence::Error;
use masf_evidence::apfs::{self, ApfsContainer, ApfsVolume};
use masf_evidence::bytes::{Bytes, Memory};
use masf_evidence::fs::{EntryKind, FileSystem, RawTime, TimeRole};
use masf_testkit::corpus;
use sha2::{Digest, Sha256};

const IMAGE: &str = "fs/apfs/dfvfs-apfs.raw";
const BLOCK: usize = 4096;

fn mem(data: Vec<u8>) -> Bytes {
    Arc::new(Memory::new(data, "apfs test image"))
}

fn container(data: Vec<u8>) -> Result<ApfsContainer, Error> {
    apfs::open_container(mem(data))
}

fn volume() -> Arc<ApfsVolume> {
    let c = container(corpus::bytes(IMAGE)).unwrap();
    assert_eq!(c.volumes().len(), 1);
    c.volumes()[0].as_ref().unwrap().clone()
}

fn oracle() -> Vec<Vec<String>> {
    let text = include_str!("../fixtures/apfs/dfvfs-apfs.oracle.tsv");
    text.lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// TSK's `2022-01-14 07:19:41.213333494 (UTC)` as nanoseconds since 1970.
fn tsk_ns(s: &str) -> i128 {
    let s = s.trim_end_matches(" (UTC)").replacen(' ', "T", 1) + "Z";
    s.parse::<jiff::Timestamp>().unwrap().as_nanosecond()
}

fn ns(raw: RawTime) -> i128 {
    match raw {
        RawTime::Unix { secs, nanos } => i128::from(secs) * 1_000_000_000 + i128::from(nanos),
        other => panic!("APFS time not Unix: {other:?}"),
    }
}

fn read_all(b: &Bytes) -> Vec<u8> {
    let mut buf = vec![0u8; b.len() as usize];
    b.read_exact_at(0, &mut buf).unwrap();
    buf
}

/// Every path below `dir`, depth first.
fn walk(fs: &dyn FileSystem, dir: &str, out: &mut Vec<String>) {
    for e in fs.list_dir(dir).unwrap() {
        out.push(e.path.clone());
        if e.kind == EntryKind::Dir {
            walk(fs, &e.path, out);
        }
    }
}

#[test]
fn listing_times_sizes_and_bytes_equal_the_sleuth_kit() {
    let vol = volume();
    let fs: &dyn FileSystem = vol.as_ref();
    let rows = oracle();
    assert_eq!(rows.len(), 10);
    let mut ours = Vec::new();
    walk(fs, "/", &mut ours);
    let mut theirs: Vec<String> = rows.iter().map(|r| format!("/{}", r[2])).collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs);
    for r in &rows {
        let path = format!("/{}", r[2]);
        let e = fs.stat(&path).unwrap();
        let kind = match r[0].as_str() {
            "r/r" => EntryKind::File,
            "d/d" => EntryKind::Dir,
            "l/l" => EntryKind::Symlink,
            t => panic!("unexpected fls type {t}"),
        };
        assert_eq!(e.kind, kind, "{path}");
        assert_eq!(e.id, Some(r[1].parse().unwrap()), "{path}");
        assert_eq!(e.size, r[3].parse::<u64>().unwrap(), "{path}");
        let time = |role| ns(e.times.iter().find(|t| t.role == role).unwrap().raw);
        assert_eq!(time(TimeRole::Created), tsk_ns(&r[5]), "{path} created");
        assert_eq!(time(TimeRole::Modified), tsk_ns(&r[6]), "{path} modified");
        assert_eq!(time(TimeRole::Changed), tsk_ns(&r[7]), "{path} changed");
        assert_eq!(time(TimeRole::Accessed), tsk_ns(&r[8]), "{path} accessed");
        // TSK's mode string puts the type letter first (`r`, `d`, `l`), then the permissions.
        let perms = e.mode.unwrap() & 0o777;
        let mut want = 0;
        for (i, c) in r[4].chars().skip(1).enumerate() {
            if c != '-' {
                want |= 1 << (8 - i);
            }
        }
        assert_eq!(perms, want, "{path} mode");
        if kind == EntryKind::File {
            let data = read_all(&fs.open(&path).unwrap());
            assert_eq!(hex::encode(Sha256::digest(&data)), r[9], "{path} bytes");
        }
    }
}

#[test]
fn extended_attributes_equal_the_sleuth_kit() {
    let vol = volume();
    for r in oracle() {
        let path = format!("/{}", r[2]);
        let mut ours: Vec<String> = vol
            .xattrs(&path)
            .unwrap()
            .iter()
            .map(|x| format!("{}={}", x.name, x.size))
            .collect();
        ours.sort();
        let mut theirs: Vec<String> = if r[10] == "-" {
            Vec::new()
        } else {
            r[10].split(',').map(str::to_string).collect()
        };
        theirs.sort();
        assert_eq!(ours, theirs, "{path}");
    }
    assert_eq!(
        vol.xattr("/a_directory/a_file", "myxattr").unwrap().len(),
        21
    );
    assert!(matches!(
        vol.xattr("/a_directory/a_file", "nope"),
        Err(Error::NoEntry { .. })
    ));
}

#[test]
fn container_volume_and_symlink_facts() {
    let c = container(corpus::bytes(IMAGE)).unwrap();
    let info = c.info();
    // As `pstat` shows: container d08a9fa0…, transaction 4, 1014 blocks of 4 KiB.
    assert_eq!(info.uuid, "d08a9fa0-d5a5-458b-813e-ebf9bf5d5338");
    assert_eq!(info.xid, 4);
    assert_eq!(info.block_count, 1014);
    assert_eq!(info.block_size, 4096);
    let vol = c.volumes()[0].as_ref().unwrap();
    let v = vol.info();
    assert_eq!(v.name, "apfs_test");
    assert_eq!(v.role, "none");
    assert_eq!(v.uuid, "458ed10d-8ac3-4af1-8dfd-3954d151a3f3");
    assert!(!v.encrypted);
    assert!(v.case_insensitive);
    assert!(v.snapshots.is_empty());
    assert_eq!((v.num_files, v.num_directories, v.num_symlinks), (7, 2, 1));
    // `pstat`: "Capacity Consumed: 49152 B".
    assert_eq!(v.allocated_bytes, 49152);
    let link = vol.stat("/a_link").unwrap();
    assert_eq!(
        link.link_target.as_deref(),
        Some("a_directory/another_file")
    );
    assert!(matches!(
        vol.open("/a_directory"),
        Err(Error::WrongKind { .. })
    ));
    assert!(matches!(
        vol.list_dir("/passwords.txt"),
        Err(Error::WrongKind { .. })
    ));
    assert!(matches!(
        vol.stat("/a_directory/missing"),
        Err(Error::NoEntry { .. })
    ));
}

#[test]
fn the_scanner_makes_each_volume_a_layer() {
    let s = masf_evidence::scan::scan(&corpus::path(IMAGE)).unwrap();
    let all = s.file_systems();
    assert_eq!(all.len(), 1);
    let p = all[0].partition.unwrap();
    assert_eq!(p.name, "apfs_test");
    assert_eq!(p.index, 1);
    assert_eq!(p.size, 49152);
    assert!(p.type_name.contains("APFS volume"), "{}", p.type_name);
    assert_eq!(all[0].fs.format(), "apfs");
    let fs = s.file_system(Some("apfs_test")).unwrap();
    assert_eq!(
        read_all(&fs.open("/a_directory/another_file").unwrap()).len(),
        22
    );
    assert!(all[0].layer.comparable().contains("type: apfs_volume"));
}

/// The block a volume's file-system tree root sits at, found by reading the image the way
/// the reader does is circular; instead every B-tree node of the image is located by its
/// object type (0x3 node, 0x2 root) in the header.
fn node_blocks(data: &[u8], subtype: u32) -> Vec<usize> {
    (1..data.len() / BLOCK)
        .filter(|&b| {
            let o = b * BLOCK;
            let t = u32::from_le_bytes(data[o + 24..o + 28].try_into().unwrap()) & 0xffff;
            let st = u32::from_le_bytes(data[o + 28..o + 32].try_into().unwrap());
            (t == 2 || t == 3) && st == subtype && apfs::fletcher64(&data[o + 8..o + BLOCK]) != 0
        })
        .collect()
}

fn reseal(data: &mut [u8], block: usize) {
    let o = block * BLOCK;
    let sum = apfs::fletcher64(&data[o + 8..o + BLOCK]);
    data[o..o + 8].copy_from_slice(&sum.to_le_bytes());
}

/// Walks and reads everything, collecting errors; must never panic.
fn walk_lenient(fs: &dyn FileSystem, dir: &str, errors: &mut Vec<String>, depth: usize) {
    match fs.list_dir(dir) {
        Ok(entries) => {
            for e in entries {
                match e.kind {
                    EntryKind::Dir if depth < 8 => walk_lenient(fs, &e.path, errors, depth + 1),
                    EntryKind::File => {
                        if let Err(err) = fs.open(&e.path).and_then(|b| {
                            let mut buf = vec![0u8; b.len().min(1 << 20) as usize];
                            b.read_exact_at(0, &mut buf)
                        }) {
                            errors.push(err.to_string());
                        }
                    }
                    _ => {}
                }
            }
        }
        Err(e) => errors.push(e.to_string()),
    }
}

/// Lists the root of the only volume, or says why it could not.
fn outcome(d: Vec<u8>) -> Result<usize, Error> {
    let c = container(d)?;
    let v = c.volumes()[0].as_ref().map_err(|e| Error::Unsupported {
        layer: "test".into(),
        detail: e.to_string(),
    })?;
    v.list_dir("/").map(|l| l.len())
}

#[test]
fn the_fletcher_checksum_is_checked_on_every_object() {
    let data = corpus::bytes(IMAGE);
    let fs_nodes = node_blocks(&data, 0x0e);
    assert!(!fs_nodes.is_empty());
    for &b in &fs_nodes {
        let o = b * BLOCK;
        assert_eq!(
            u64::from_le_bytes(data[o..o + 8].try_into().unwrap()),
            apfs::fletcher64(&data[o + 8..o + BLOCK])
        );
    }
    // One byte changed in each file-system tree node: the node in use fails with a checksum
    // error naming its offset; older copies from earlier transactions are not read at all.
    let mut failed = 0;
    for &b in &fs_nodes {
        let mut d = data.clone();
        d[b * BLOCK + 200] ^= 0x55;
        match outcome(d) {
            Ok(n) => assert_eq!(n, 4, "block {b}"),
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("checksum"), "block {b}: {e}");
                assert!(
                    e.contains(&format!("offset {}", b * BLOCK)),
                    "block {b}: {e}"
                );
                failed += 1;
            }
        }
    }
    assert!(failed >= 1);
}

#[test]
fn a_bad_latest_superblock_falls_back_to_an_older_checkpoint() {
    let data = corpus::bytes(IMAGE);
    let c = container(data.clone()).unwrap();
    let used = c.info().superblock_block as usize;
    assert_ne!(
        used, 0,
        "the checkpoint area's superblock is used, not block 0"
    );
    let mut d = data.clone();
    d[used * BLOCK + 300] ^= 1;
    let c2 = container(d).unwrap();
    assert_ne!(c2.info().superblock_block as usize, used);
    assert!(c2.info().xid < c.info().xid);
}

#[test]
fn a_looping_b_tree_node_is_corrupt_not_a_hang() {
    let data = corpus::bytes(IMAGE);
    // Each object-map node (subtype 0xb) made an index node (level 1) whose first child is
    // itself, checksum resealed: the level check refuses the loop. Nodes of older
    // transactions are not read, so only the ones in use fail.
    let omaps = node_blocks(&data, 0x0b);
    assert!(!omaps.is_empty());
    let mut failed = 0;
    for &b in &omaps {
        let mut d = data.clone();
        let o = b * BLOCK;
        let flags = u16::from_le_bytes([d[o + 32], d[o + 33]]);
        d[o + 32..o + 34].copy_from_slice(&(flags & !0x2).to_le_bytes());
        d[o + 34..o + 36].copy_from_slice(&1u16.to_le_bytes());
        // First entry's value offset (fixed-size table of contents at 56 + its offset).
        let toc = 56 + u16::from_le_bytes([d[o + 40], d[o + 41]]) as usize;
        let v_off = u16::from_le_bytes([d[o + toc + 2], d[o + toc + 3]]) as usize;
        let end = if flags & 0x1 != 0 { BLOCK - 40 } else { BLOCK };
        let at = o + end - v_off;
        d[at..at + 8].copy_from_slice(&(b as u64).to_le_bytes());
        reseal(&mut d, b);
        match outcome(d) {
            Ok(n) => assert_eq!(n, 4, "block {b}"),
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("level 1 under level 1"), "block {b}: {e}");
                failed += 1;
            }
        }
    }
    assert!(failed >= 2, "the container's and the volume's object maps");
}

#[test]
fn a_truncated_container_gives_typed_errors() {
    let data = corpus::bytes(IMAGE);
    assert!(matches!(
        container(data[..100].to_vec()),
        Err(Error::Truncated { .. })
    ));
    // Cut before the volume superblock (block 107): the container opens, the volume reports
    // why it cannot.
    let c = container(data[..64 * BLOCK].to_vec());
    match c {
        Ok(c) => {
            assert!(c.diagnostics().iter().any(|d| d.contains("truncated")));
            assert!(c.volumes().iter().all(|v| v.is_err()));
        }
        Err(e) => assert!(matches!(e, Error::Corrupt { .. } | Error::Truncated { .. })),
    }
    let mut not = data.clone();
    not[32..36].copy_from_slice(b"XXXX");
    assert!(matches!(
        container(not),
        Err(Error::Corrupt { offset: 32, .. })
    ));
}

#[test]
fn seeded_random_corruptions_never_panic() {
    let data = corpus::bytes(IMAGE);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        seed >> 33
    };
    // Metadata lives in the first 110 blocks; changed bytes are resealed half of the time so
    // the change gets past the checksum.
    for round in 0..300 {
        let mut d = data.clone();
        let block = (next() % 110) as usize;
        for _ in 0..4 {
            let at = block * BLOCK + 32 + (next() as usize % (BLOCK - 32));
            d[at] = next() as u8;
        }
        if round % 2 == 0 {
            reseal(&mut d, block);
        }
        if let Ok(c) = container(d) {
            for v in c.volumes().iter().flatten() {
                let mut errors = Vec::new();
                walk_lenient(v.as_ref(), "/", &mut errors, 0);
            }
        }
    }
}
