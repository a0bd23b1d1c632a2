//! Mac OS sparse bundles and sparse images: a FAT volume made by mkfs.vfat + mcopy is cut into a
//! bundle by `tests/fixtures/mac-sparse/make_bundle.py` (plistlib, the published layout) and
//! into a `.sparseimage` by `make_sparseimage.py` (bands stored out of disk order), which the
//! independent libmodi (`oracle.py`, PyPI libmodi-python) must read back to the volume's bytes
//! before ours is tested on them: the same bytes (a bundle under both band namings), the volume
//! inside found and listed by the scan, and every damage a precise error.

use std::path::{Path, PathBuf};
use std::process::Command;

use masf_evidence::Error;

use crate::support::{py_oracle, repo, run};
use masf_evidence::bytes::ByteSource;
use masf_evidence::sparsebundle::SparseBundle;
use sha2::{Digest, Sha256};

const BAND: u64 = 65536;

/// A 4,100 KiB FAT volume (not a whole number of bands: the last band is partial) holding a
/// note and 300,000 pseudo-random bytes, so that several bands are written and most are not.
fn volume(dir: &Path) -> (PathBuf, Vec<u8>) {
    let raw = dir.join("raw.img");
    run(Command::new("mkfs.vfat").arg("-C").arg(&raw).arg("4100"));
    let note = dir.join("note.txt");
    std::fs::write(&note, "sparse bundle note\n").unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let big: Vec<u8> = (0..300_000)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect();
    std::fs::write(dir.join("big.bin"), &big).unwrap();
    for f in ["note.txt", "big.bin"] {
        run(Command::new("mcopy")
            .arg("-i")
            .arg(&raw)
            .arg(dir.join(f))
            .arg(format!("::/{f}")));
    }
    let bytes = std::fs::read(&raw).unwrap();
    (raw, bytes)
}

/// libmodi's reading of `path`: `SIZE SHA256`.
fn libmodi(path: &Path) -> String {
    let python = py_oracle("libmodi-python");
    run(Command::new(python)
        .arg(repo().join("tests/fixtures/mac-sparse/oracle.py"))
        .arg(path))
    .trim()
    .to_string()
}

fn make_bundle(raw: &Path, out: &Path, flags: &[&str]) {
    run(Command::new("python3")
        .arg(repo().join("tests/fixtures/mac-sparse/make_bundle.py"))
        .arg(raw)
        .arg(out)
        .arg(BAND.to_string())
        .args(flags));
}

fn hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

fn read_all(b: &dyn ByteSource) -> Vec<u8> {
    let mut buf = vec![0u8; b.len() as usize];
    // odd-sized reads, so that reads cross band boundaries and the partial last band
    let mut at = 0;
    while at < buf.len() {
        let end = (at + 40_000).min(buf.len());
        b.read_exact_at(at as u64, &mut buf[at..end]).unwrap();
        at = end;
    }
    buf
}

#[test]
fn libmodi_and_ours_read_the_volume_back_under_both_band_namings() {
    let tmp = tempfile::tempdir().unwrap();
    let (raw, bytes) = volume(tmp.path());
    let bundle = tmp.path().join("disk.sparsebundle");
    make_bundle(&raw, &bundle, &["--padded", "--trim-first"]);

    // the independent reader first
    assert_eq!(libmodi(&bundle), format!("{} {}", bytes.len(), hex(&bytes)));

    // ours, with libmodi's eight-digit names
    let b = SparseBundle::open(&bundle).unwrap();
    assert_eq!(b.len(), bytes.len() as u64);
    assert!(b.bands_present() >= 3 && b.bands_present() < 20);
    assert_eq!(hex(&read_all(&b)), hex(&bytes));

    // ... and with macOS's own names (0, 1, …, a)
    for entry in std::fs::read_dir(bundle.join("bands")).unwrap() {
        let path = entry.unwrap().path();
        let n = u64::from_str_radix(path.file_name().unwrap().to_str().unwrap(), 16).unwrap();
        std::fs::rename(&path, bundle.join("bands").join(format!("{n:x}"))).unwrap();
    }
    let b = SparseBundle::open(&bundle).unwrap();
    assert_eq!(hex(&read_all(&b)), hex(&bytes));
    // past the end: nothing
    assert_eq!(b.read_at(b.len(), &mut [0u8; 8]).unwrap(), 0);
}

#[test]
fn a_bundle_source_is_scanned_as_the_disk_it_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let (raw, _) = volume(tmp.path());
    let bundle = tmp.path().join("disk.sparsebundle");
    make_bundle(&raw, &bundle, &[]);
    let before: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(bundle.join("bands"))
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let data = std::fs::read(&p).unwrap();
            (p, data)
        })
        .collect();
    let scan = masf_evidence::scan::scan(&bundle).unwrap();
    assert_eq!(scan.form, masf_evidence::scan::Form::DiskImage);
    assert!(
        scan.reasons[0].contains("sparse bundle") && scan.reasons[0].contains("fat"),
        "{:?}",
        scan.reasons
    );
    let fs = scan.file_system(None).unwrap();
    let names: Vec<String> = fs
        .list_dir("/")
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert!(
        names.iter().any(|n| n.eq_ignore_ascii_case("note.txt")),
        "{names:?}"
    );
    let note = fs
        .open("/NOTE.TXT")
        .or_else(|_| fs.open("/note.txt"))
        .unwrap();
    let mut text = vec![0u8; note.len() as usize];
    note.read_exact_at(0, &mut text).unwrap();
    assert_eq!(text, b"sparse bundle note\n");
    // the evidence is only read
    for (p, data) in before {
        assert_eq!(std::fs::read(&p).unwrap(), data, "{}", p.display());
    }
}

#[test]
fn damaged_bundles_give_precise_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let (raw, _) = volume(tmp.path());
    let fresh = |name: &str| {
        let dir = tmp.path().join(name);
        make_bundle(&raw, &dir, &[]);
        dir
    };
    let err = |dir: &Path| match SparseBundle::open(dir) {
        Ok(_) => panic!("{} opened", dir.display()),
        Err(e) => e,
    };
    let set_info = |dir: &Path, from: &str, to: &str| {
        let p = dir.join("Info.plist");
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(from), "{text}");
        std::fs::write(&p, text.replace(from, to)).unwrap();
    };

    // a band named twice
    let dir = fresh("twice");
    std::fs::copy(dir.join("bands/1"), dir.join("bands/00000001")).unwrap();
    let e = err(&dir);
    assert!(e.to_string().contains("band 1 is held by two files"), "{e}");

    // a band beyond the disk
    let dir = fresh("beyond");
    std::fs::write(dir.join("bands/ff"), b"x").unwrap();
    let e = err(&dir);
    assert!(e.to_string().contains("band file ff lies beyond"), "{e}");

    // a band longer than the band size
    let dir = fresh("long");
    std::fs::write(dir.join("bands/2"), vec![1u8; BAND as usize + 1]).unwrap();
    assert!(err(&dir).to_string().contains("more than the band size"));

    // a band size that is no multiple of 512
    let dir = fresh("bandsize");
    set_info(&dir, "<integer>65536</integer>", "<integer>1000</integer>");
    assert!(err(&dir).to_string().contains("band-size 1000"));

    // another bundle type, and no plist at all
    let dir = fresh("kind");
    set_info(
        &dir,
        "com.apple.diskimage.sparsebundle",
        "com.example.other",
    );
    assert!(err(&dir).to_string().contains("diskimage-bundle-type"));
    std::fs::write(dir.join("Info.plist"), b"\x00\x01 not a plist").unwrap();
    assert!(err(&dir).to_string().contains("no plist"));
    // ... which the scan keeps as a folder, the problem said
    let scan = masf_evidence::scan::scan(&dir).unwrap();
    assert_eq!(scan.form, masf_evidence::scan::Form::Folder);
    assert!(
        scan.root
            .problem
            .as_deref()
            .is_some_and(|p| p.starts_with("sparse bundle not readable")),
        "{:?}",
        scan.root.problem
    );

    // encrypted: band 0 starts with encrcdsa
    let dir = fresh("encrypted");
    let mut band0 = std::fs::read(dir.join("bands/0")).unwrap();
    band0[..8].copy_from_slice(b"encrcdsa");
    std::fs::write(dir.join("bands/0"), band0).unwrap();
    assert!(matches!(err(&dir), Error::Encrypted { .. }));

    // a band file that disappears after opening: a read error naming it, never zeros
    let dir = fresh("gone");
    let b = SparseBundle::open(&dir).unwrap();
    std::fs::remove_file(dir.join("bands/1")).unwrap();
    let mut buf = vec![0u8; 16];
    let e = b.read_exact_at(BAND, &mut buf).unwrap_err();
    assert!(e.to_string().contains("bands/1"), "{e}");
}

/// 128 sectors (64 KiB) a band, as the bands of the bundle tests.
fn make_sparseimage(raw: &Path, out: &Path) {
    run(Command::new("python3")
        .arg(repo().join("tests/fixtures/mac-sparse/make_sparseimage.py"))
        .arg(raw)
        .arg(out)
        .arg("128"));
}

#[test]
fn a_sparse_image_reads_back_as_libmodi_reads_it_and_scans_as_its_disk() {
    use masf_evidence::sparseimage::SparseImage;
    let tmp = tempfile::tempdir().unwrap();
    let (raw, bytes) = volume(tmp.path());
    let image = tmp.path().join("disk.sparseimage");
    make_sparseimage(&raw, &image);
    assert_eq!(libmodi(&image), format!("{} {}", bytes.len(), hex(&bytes)));
    let file: masf_evidence::bytes::Bytes =
        std::sync::Arc::new(masf_evidence::bytes::FileBytes::open(&image).unwrap());
    let s = SparseImage::open(file.clone()).unwrap();
    assert_eq!(
        (s.len(), s.band_size(), s.version()),
        (bytes.len() as u64, BAND, 3)
    );
    assert!(s.bands_stored() >= 3);
    assert_eq!(hex(&read_all(&s)), hex(&bytes));

    let scan = masf_evidence::scan::scan(&image).unwrap();
    assert_eq!(scan.form, masf_evidence::scan::Form::DiskImage);
    assert!(
        scan.reasons[0].starts_with("Mac OS sparse image (.sparseimage) holding fat"),
        "{:?}",
        scan.reasons
    );
    let fs = scan.file_system(None).unwrap();
    let big = fs
        .open("/BIG.BIN")
        .or_else(|_| fs.open("/big.bin"))
        .unwrap();
    assert_eq!(big.len(), 300_000);

    // damage, each named
    let header = std::fs::read(&image).unwrap();
    let open = |data: Vec<u8>| {
        SparseImage::open(std::sync::Arc::new(masf_evidence::bytes::Memory::new(
            data, "t",
        )))
    };
    let with = |at: usize, value: u32| {
        let mut d = header.clone();
        d[at..at + 4].copy_from_slice(&value.to_be_bytes());
        d
    };
    // a slot naming a band beyond the disk (4,100 KiB in 64 KiB bands: 65 bands)
    let e = open(with(64, 66)).err().unwrap();
    assert!(
        e.to_string()
            .contains("slot 0 names band 66, beyond the disk's 65"),
        "{e}"
    );
    // one band stored twice
    let first = u32::from_be_bytes(header[64..68].try_into().unwrap());
    let e = open(with(68, first)).err().unwrap();
    assert!(e.to_string().contains("is stored twice"), "{e}");
    // no band size
    let e = open(with(8, 0)).err().unwrap();
    assert!(e.to_string().contains("0 sectors per band"), "{e}");
    // more bands than one header maps: refused, not read with bands missing
    let e = open(with(16, 2_000_000)).err().unwrap();
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("15625 bands"), "{e}");
    // cut short: the band data past the end is named
    let e = open(header[..header.len() - 1].to_vec()).err().unwrap();
    assert!(e.to_string().contains("but the file ends at"), "{e}");
    // a header cut short
    assert!(matches!(
        open(header[..100].to_vec()),
        Err(Error::Truncated { .. })
    ));
}

/// Seeded random damage to the fuzz seed (a FAT volume as a sparse image in 4 KiB bands),
/// through the fuzz targets' own driver: errors, never a panic or a hang.
#[test]
fn random_damage_to_a_sparse_image_never_panics() {
    let seed = std::fs::read(
        repo().join("crates/evidence/fuzz/regressions/sparseimage/seed-fat12.sparseimage"),
    )
    .unwrap();
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..2000 {
        let mut data = seed.clone();
        for _ in 0..1 + next() % 8 {
            // most changes in the header, where the band table is
            let at = if round % 2 == 0 {
                next() % 4096
            } else {
                next() % data.len() as u64
            };
            data[at as usize] = next() as u8;
        }
        if round % 7 == 0 {
            data.truncate((next() % data.len() as u64) as usize);
        }
        masf_evidence::fuzzing::run_target("sparseimage", &data);
    }
}
