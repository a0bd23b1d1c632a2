//! Mac OS sparse bundles: a FAT volume made by mkfs.vfat + mcopy is cut into a bundle by
//! `tests/fixtures/sparsebundle/make_bundle.py` (plistlib, the published layout), which the
//! independent libmodi (`oracle.py`, PyPI libmodi-python) must read back to the volume's bytes
//! before ours is tested on it: the same bytes under both band namings, the volume inside found
//! and listed by the scan, and every damage a precise error.

use std::path::{Path, PathBuf};
use std::process::Command;

use masf_evidence::Error;
use masf_evidence::bytes::ByteSource;
use masf_evidence::sparsebundle::SparseBundle;
use sha2::{Digest, Sha256};

const BAND: u64 = 65536;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

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

fn make_bundle(raw: &Path, out: &Path, flags: &[&str]) {
    run(Command::new("python3")
        .arg(repo().join("tests/fixtures/sparsebundle/make_bundle.py"))
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
    let python = std::env::var_os("MASF_PY_ORACLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/py-oracles"))
        .join("bin/python3");
    assert!(
        python.exists(),
        "{} missing: run scripts/setup.sh (it installs libmodi-python)",
        python.display()
    );
    let oracle = run(Command::new(python)
        .arg(repo().join("tests/fixtures/sparsebundle/oracle.py"))
        .arg(&bundle));
    assert_eq!(oracle.trim(), format!("{} {}", bytes.len(), hex(&bytes)));

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
