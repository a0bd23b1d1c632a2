//! Android dynamic partitions: ext4 images made by `mkfs.ext4 -d` are laid into a `super` image
//! by `tests/fixtures/android-super/make_super.py` (AOSP's liblp format: a partition in two
//! extents stored out of order, a zero extent, the other slot's empty partition), which the
//! independent PyPI `liblp` reader (`oracle.py`: checksums checked, lpunpack extraction) must
//! read first; then ours must give the same partitions, bytes and groups, the scan must stack
//! each logical partition's file system, and damage must fall back to the backup copies or be
//! named.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use masf_evidence::Error;

use crate::support::{py_oracle, repo, run};
use masf_evidence::bytes::{Bytes, Memory};
use sha2::{Digest, Sha256};

/// The super image and the two ext4 images in it.
fn make(dir: &Path) -> (PathBuf, Vec<u8>, Vec<u8>) {
    let sys = dir.join("sys");
    std::fs::create_dir_all(sys.join("etc")).unwrap();
    std::fs::write(sys.join("etc/build.prop"), "ro.product.model=Pixel Test\n").unwrap();
    let blob: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(sys.join("etc/blob.bin"), &blob).unwrap();
    let ven = dir.join("ven");
    std::fs::create_dir_all(&ven).unwrap();
    std::fs::write(ven.join("v.txt"), "vendor\n").unwrap();
    for (src, img, size) in [(&sys, "system.img", "2M"), (&ven, "vendor.img", "1M")] {
        run(Command::new("mkfs.ext4")
            .args(["-q", "-F", "-d"])
            .arg(src)
            .arg(dir.join(img))
            .arg(size));
    }
    let image = dir.join("super.img");
    run(Command::new("python3")
        .arg(repo().join("tests/fixtures/android-super/make_super.py"))
        .arg(&image)
        .arg("8")
        .arg(format!(
            "system_a={}:split",
            dir.join("system.img").display()
        ))
        .arg(format!("vendor_a={}", dir.join("vendor.img").display()))
        .arg("product_a=zero:2048")
        .arg("system_b=empty"));
    (
        image,
        std::fs::read(dir.join("system.img")).unwrap(),
        std::fs::read(dir.join("vendor.img")).unwrap(),
    )
}

fn sha(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

fn all(b: &Bytes) -> Vec<u8> {
    let mut buf = vec![0u8; b.len() as usize];
    b.read_exact_at(0, &mut buf).unwrap();
    buf
}

fn mem(data: Vec<u8>) -> Bytes {
    Arc::new(Memory::new(data, "super"))
}

#[test]
fn liblp_and_ours_read_the_same_logical_partitions() {
    let tmp = tempfile::tempdir().unwrap();
    let (image, system, vendor) = make(tmp.path());
    let python = py_oracle("liblp");
    let oracle: serde_json::Value = serde_json::from_str(&run(Command::new(python)
        .arg(repo().join("tests/fixtures/android-super/oracle.py"))
        .arg(&image)))
    .unwrap();
    assert_eq!(oracle["system_a"]["sha256"], sha(&system));
    assert_eq!(oracle["vendor_a"]["sha256"], sha(&vendor));

    let bytes = mem(std::fs::read(&image).unwrap());
    let sup = masf_evidence::lp::open(&bytes).unwrap();
    assert_eq!(sup.version, (10, 0));
    assert_eq!(sup.geometry.metadata_slot_count, 2);
    assert_eq!(sup.block_devices, ["super"]);
    assert!(sup.notes.is_empty(), "{:?}", sup.notes);
    let names: Vec<&str> = sup.partitions.iter().map(|p| p.name.as_str()).collect();
    let theirs: Vec<&str> = oracle
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(sorted, theirs);
    for p in &sup.partitions {
        assert_eq!(oracle[&p.name]["group"], p.group.as_str(), "{}", p.name);
        if let Some(want) = oracle[&p.name]["sha256"].as_str() {
            assert_eq!(sha(&all(p.bytes.as_ref().unwrap())), want, "{}", p.name);
        }
    }
    let product = sup
        .partitions
        .iter()
        .find(|p| p.name == "product_a")
        .unwrap();
    let zeros = all(product.bytes.as_ref().unwrap());
    assert_eq!(zeros.len(), 2048 * 512);
    assert!(zeros.iter().all(|&b| b == 0));
    let system_b = sup
        .partitions
        .iter()
        .find(|p| p.name == "system_b")
        .unwrap();
    assert!(system_b.bytes.is_none());
    assert!(system_b.why_none.as_deref().unwrap().contains("no extents"));
}

#[test]
fn the_scan_stacks_each_logical_partitions_file_system() {
    let tmp = tempfile::tempdir().unwrap();
    let (image, _, _) = make(tmp.path());
    let scan = masf_evidence::scan::scan(&image).unwrap();
    assert_eq!(scan.form, masf_evidence::scan::Form::DiskImage);
    assert!(
        scan.reasons[0].starts_with("Android super image holding ext4"),
        "{:?}",
        scan.reasons
    );
    let fs = scan.file_system(Some("system_a")).unwrap();
    let prop = fs.open("/etc/build.prop").unwrap();
    let mut text = vec![0u8; prop.len() as usize];
    prop.read_exact_at(0, &mut text).unwrap();
    assert_eq!(text, b"ro.product.model=Pixel Test\n");
    assert_eq!(fs.stat("/etc/blob.bin").unwrap().size, 200_000);
    let vendor = scan.file_system(Some("vendor_a")).unwrap();
    assert_eq!(vendor.stat("/v.txt").unwrap().size, 7);
    let parts: Vec<String> = scan
        .file_systems()
        .iter()
        .filter_map(|f| f.partition.map(|p| p.name.clone()))
        .collect();
    assert_eq!(parts, ["system_a", "vendor_a"]);
}

#[test]
fn damaged_metadata_falls_back_to_the_backups_or_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let (image, system, _) = make(tmp.path());
    let good = std::fs::read(&image).unwrap();
    let system_sha = sha(&system);
    let open = |d: Vec<u8>| masf_evidence::lp::open(&mem(d));
    let system_of = |s: &masf_evidence::lp::SuperImage| {
        let p = s.partitions.iter().find(|p| p.name == "system_a").unwrap();
        sha(&all(p.bytes.as_ref().unwrap()))
    };
    const PRIMARY: usize = 12288;
    const BACKUP: usize = 12288 + 2 * 65536;

    // the primary geometry damaged: the backup geometry is read
    let mut d = good.clone();
    d[4096 + 40] ^= 1;
    let s = open(d).unwrap();
    assert!(
        s.notes[0].contains("primary geometry unusable"),
        "{:?}",
        s.notes
    );
    assert_eq!(system_of(&s), system_sha);

    // slot 0's primary tables damaged: its backup is read
    let mut d = good.clone();
    d[PRIMARY + 200] ^= 0xff;
    let s = open(d.clone()).unwrap();
    assert!(
        s.notes[0].contains("tables checksum mismatch"),
        "{:?}",
        s.notes
    );
    assert_eq!(system_of(&s), system_sha);
    // ... and the scan says so on the super layer
    let path = tmp.path().join("primary-damaged.img");
    std::fs::write(&path, &d).unwrap();
    let scan = masf_evidence::scan::scan(&path).unwrap();
    assert!(
        scan.root
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("its backup was read")),
        "{:?}",
        scan.root.problem
    );

    // both copies damaged: the primary's fault is not hidden, the backup's is named
    d[BACKUP + 200] ^= 0xff;
    let e = open(d).err().unwrap();
    assert!(e.to_string().contains("tables checksum mismatch"), "{e}");

    // an unknown metadata version (its checksum recomputed so only the version is wrong)
    let mut d = good.clone();
    for base in [PRIMARY, BACKUP] {
        d[base + 4..base + 6].copy_from_slice(&11u16.to_le_bytes());
        d[base + 12..base + 44].fill(0);
        let sum = Sha256::digest(&d[base..base + 128]);
        d[base + 12..base + 44].copy_from_slice(&sum);
    }
    assert!(matches!(open(d), Err(Error::Unsupported { .. })));

    // an image cut before system_a's extents end: named, with the partition
    let e = open(good[..3 << 20].to_vec()).err().unwrap();
    assert!(e.to_string().contains("partition system_a: extent"), "{e}");

    // no geometry at all
    let e = open(vec![0u8; 64 << 10]).err().unwrap();
    assert!(e.to_string().contains("no liblp geometry"), "{e}");
}

/// Seeded random damage to the metadata region: errors or a reading, never a panic.
#[test]
fn random_damage_never_panics() {
    let tmp = tempfile::tempdir().unwrap();
    let (image, _, _) = make(tmp.path());
    let good = std::fs::read(&image).unwrap();
    let mut state = 0x0bad_5eed_1234_5678u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..300 {
        let mut d = good[..1 << 20].to_vec();
        for _ in 0..1 + next() % 6 {
            let at = 4096 + (next() % (4 * 65536 + 8192)) as usize;
            d[at] = next() as u8;
        }
        if let Ok(s) = masf_evidence::lp::open(&mem(d)) {
            for p in &s.partitions {
                if let Some(b) = &p.bytes {
                    let _ = b.read_at(0, &mut [0u8; 4096]);
                }
            }
        }
    }
}
