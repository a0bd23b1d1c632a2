//! Virtual disk layers (QCOW2, VHD, VMDK): public QCOW2 images read in place from the corpus against
//! their oracles (media hashes, `fls` listings), fixtures made by `qemu-img`
//! (`tests/fixtures/vdisk/generate.sh`) read back byte-identical to the raw disk with their FAT
//! file system listed through the scanner, and damaged copies made here giving typed errors.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_evidence::Error;
use masf_evidence::bytes::{ByteSource, Bytes, FileBytes, Memory};
use masf_evidence::fs::{EntryKind, FileSystem};
use masf_evidence::probe::{Format, probe};
use masf_evidence::qcow2::Qcow2Image;
use masf_evidence::scan;
use masf_evidence::vhd::VhdImage;
use masf_evidence::vmdk::VmdkImage;
use masf_testkit::corpus;
use sha2::{Digest, Sha256};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/vdisk")
        .join(name)
}

fn gunzip(path: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// A fixture image as a file on disk: gzipped ones are inflated into `dir`.
fn fixture_file(name: &str, dir: &tempfile::TempDir) -> PathBuf {
    let path = fixture(name);
    match name.strip_suffix(".gz") {
        Some(stem) => {
            let out = dir.path().join(stem);
            std::fs::write(&out, gunzip(&path)).unwrap();
            out
        }
        None => path,
    }
}

fn file_bytes(path: &Path) -> Bytes {
    Arc::new(FileBytes::open(path).unwrap())
}

fn memory(data: Vec<u8>) -> Bytes {
    Arc::new(Memory::new(data, "damaged copy"))
}

/// SHA-256 of the whole stream, read in pieces of `piece` bytes; or the first error.
fn stream_sha256(src: &dyn ByteSource, piece: usize) -> Result<String, Error> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; piece];
    let mut pos = 0u64;
    while pos < src.len() {
        let n = src.read_at(pos, &mut buf)?;
        assert!(n > 0, "no progress at {pos}");
        h.update(&buf[..n]);
        pos += n as u64;
    }
    Ok(hex::encode(h.finalize()))
}

/// Media size and SHA-256 of a QCOW2 image of the corpus, from CONTAINER_ORACLES.md.
fn qcow_oracle(name: &str) -> (u64, String) {
    let text = corpus::text("container/CONTAINER_ORACLES.md");
    let key = format!("qcow/{name}");
    let row = text
        .lines()
        .find(|l| l.split('|').nth(1).map(str::trim) == Some(key.as_str()))
        .unwrap_or_else(|| panic!("no oracle row for {key}"));
    let cols: Vec<&str> = row.split('|').map(str::trim).collect();
    (cols[3].parse().unwrap(), cols[5].to_string())
}

/// Paths and kinds of the allocated entries an `fls -r -p` listing names (no virtual `$`
/// entries, no volume labels, no deleted entries).
fn fls_entries(rel: &str) -> Vec<(String, EntryKind)> {
    corpus::text(rel)
        .lines()
        .filter_map(|l| {
            let (head, path) = l.split_once(":\t")?;
            if head.contains('*')
                || head.starts_with('v')
                || head.starts_with('V')
                || path.contains("(Volume Label Entry)")
            {
                return None;
            }
            let kind = match head.chars().next() {
                Some('d') => EntryKind::Dir,
                Some('r') => EntryKind::File,
                Some('l') => EntryKind::Symlink,
                _ => EntryKind::Other,
            };
            Some((format!("/{path}"), kind))
        })
        .collect()
}

fn the_only_fs(path: &Path) -> Arc<dyn FileSystem> {
    let s = scan::scan(path).unwrap();
    let all = s.file_systems();
    assert_eq!(
        all.len(),
        1,
        "{}: {}",
        path.display(),
        s.unreadable_summary()
    );
    all[0].fs.clone()
}

#[test]
fn public_qcow2_images_give_the_oracle_media_hashes() {
    for (name, version) in [
        ("keramics-ext2.qcow2", 3),
        ("keramics-fat16.qcow2", 3),
        ("keramics-fat32.qcow2", 3),
        ("plaso-image.qcow2", 2),
    ] {
        let (size, sha256) = qcow_oracle(name);
        let file = file_bytes(&corpus::path(&format!("container/qcow/{name}")));
        let p = probe(file.as_ref());
        assert_eq!(p.format, Format::Qcow2, "{name}");
        assert!(p.readable, "{name}: {}", p.reason);
        assert!(
            p.reason.contains(&format!("version {version}")),
            "{name}: {}",
            p.reason
        );
        let image = Qcow2Image::open(file).unwrap();
        assert_eq!(image.header().version, version, "{name}");
        assert_eq!(image.len(), size, "{name}");
        assert_eq!(stream_sha256(&image, 1 << 20).unwrap(), sha256, "{name}");
    }
}

#[test]
fn file_systems_inside_public_qcow2_images_list_as_fls_does() {
    for (name, format, fls) in [
        ("keramics-ext2.qcow2", "ext", "keramics_ext2"),
        ("keramics-fat16.qcow2", "fat16", "keramics_fat16"),
        ("keramics-fat32.qcow2", "fat32", "keramics_fat32"),
        ("plaso-image.qcow2", "ext", "plaso_image"),
    ] {
        let path = corpus::path(&format!("container/qcow/{name}"));
        let s = scan::scan(&path).unwrap();
        assert_eq!(s.form, scan::Form::DiskImage, "{name}");
        let q = &s.root.children[0];
        assert_eq!(q.layer.kind, "qcow2", "{name}");
        let all = s.file_systems();
        assert_eq!(all.len(), 1, "{name}: {}", s.unreadable_summary());
        let fs = &all[0].fs;
        assert!(fs.format().starts_with(format), "{name}: {}", fs.format());
        let expected = fls_entries(&format!("fs/oracles/fls/{fls}.fls.txt"));
        assert!(expected.len() >= 4, "{name}: oracle too small");
        for (p, kind) in &expected {
            let e = fs
                .stat(p)
                .unwrap_or_else(|e| panic!("{name}: {p} listed by fls: {e}"));
            assert_eq!(e.kind, *kind, "{name}: {p}");
        }
    }
    // The plaso image holds the media of fs/ext/plaso-ímynd.dd: every file reads the same
    // through the QCOW2 layer as from the raw image.
    let fs = the_only_fs(&corpus::path("container/qcow/plaso-image.qcow2"));
    let raw =
        masf_evidence::ext4::open(file_bytes(&corpus::path("fs/ext/plaso-ímynd.dd"))).unwrap();
    let read = |fs: &dyn FileSystem, p: &str| {
        let f = fs.open(p).unwrap();
        let mut out = vec![0u8; f.len() as usize];
        f.read_exact_at(0, &mut out).unwrap();
        out
    };
    let files = fls_entries("fs/oracles/fls/plaso_image.fls.txt");
    let files: Vec<_> = files
        .iter()
        .filter(|(_, k)| *k == EntryKind::File)
        .collect();
    assert!(files.len() >= 3);
    for (p, _) in files {
        assert_eq!(read(fs.as_ref(), p), read(raw.as_ref(), p), "{p}");
    }
}

#[test]
fn the_ntfs_volume_of_a_sparse_one_gib_qcow2_v2_lists_as_fls_does() {
    // 1 GiB of virtual disk in a 751 KiB file: most L2 entries are unallocated.
    let name = "plaso-vsstest.qcow2";
    let path = corpus::path(&format!("container/qcow/{name}"));
    let (size, _) = qcow_oracle(name);
    let image = Qcow2Image::open(file_bytes(&path)).unwrap();
    assert_eq!((image.len(), image.header().version), (size, 2));
    let fs = the_only_fs(&path);
    assert_eq!(fs.format(), "ntfs");
    // Files and directories by name (system files and `name:stream` entries are the NTFS
    // tests' business).
    let expected: Vec<_> = fls_entries("fs/oracles/fls/plaso_vsstest.fls.txt")
        .into_iter()
        .filter(|(p, _)| !p.starts_with("/$") && !p.contains(':'))
        .collect();
    assert!(expected.len() >= 6, "{expected:?}");
    for (p, kind) in &expected {
        let e = fs
            .stat(p)
            .unwrap_or_else(|e| panic!("{p} listed by fls: {e}"));
        assert_eq!(e.kind, *kind, "{p}");
    }
}

#[test]
fn qemu_img_images_read_back_byte_identical_to_the_raw_disk() {
    let dir = tempfile::tempdir().unwrap();
    let raw = gunzip(&fixture("disk.raw.gz"));
    let want = std::fs::read_to_string(fixture("disk.raw.sha256")).unwrap();
    let want = want.split_whitespace().next().unwrap();
    assert_eq!(hex::encode(Sha256::digest(&raw)), want);
    for (name, format, kind) in [
        ("disk.qcow2", Format::Qcow2, "qcow2"),
        ("disk-compressed.qcow2", Format::Qcow2, "qcow2"),
        ("disk-v2.qcow2", Format::Qcow2, "qcow2"),
        ("disk-fixed.vhd.gz", Format::Vhd, "vhd"),
        ("disk-dynamic.vhd.gz", Format::Vhd, "vhd"),
        ("disk-sparse.vmdk.gz", Format::Vmdk, "vmdk"),
        ("disk-stream.vmdk", Format::Vmdk, "vmdk"),
    ] {
        let path = fixture_file(name, &dir);
        let file = file_bytes(&path);
        let p = probe(file.as_ref());
        assert_eq!(p.format, format, "{name}: {}", p.reason);
        assert!(p.readable, "{name}: {}", p.reason);
        let image: Bytes = match format {
            Format::Qcow2 => Arc::new(Qcow2Image::open(file).unwrap()),
            Format::Vmdk => Arc::new(VmdkImage::open(file).unwrap()),
            _ => Arc::new(VhdImage::open(file).unwrap()),
        };
        assert_eq!(image.len(), raw.len() as u64, "{name}");
        // Odd pieces cross cluster, block and sector boundaries; whole-disk pieces take the
        // parallel path of the readers that have one.
        for piece in [12_345, 6 << 20] {
            assert_eq!(
                stream_sha256(image.as_ref(), piece).unwrap(),
                want,
                "{name}, pieces of {piece}"
            );
        }
        for (at, n) in [
            (0u64, 1usize),
            (511, 2),
            (1_048_575, 70_000),
            (3 << 20, 4096),
            (6_291_000, 456),
        ] {
            let mut buf = vec![0xAAu8; n];
            image.read_exact_at(at, &mut buf).unwrap();
            assert_eq!(buf, raw[at as usize..at as usize + n], "{name} at {at}");
        }
        // The scanner stacks: image → MBR → partition 1 → FAT, with the source files inside.
        let s = scan::scan(&path).unwrap();
        assert_eq!(s.root.children[0].layer.kind, kind, "{name}");
        let all = s.file_systems();
        assert_eq!(all.len(), 1, "{name}: {}", s.unreadable_summary());
        assert_eq!(all[0].partition.map(|p| p.index), Some(1), "{name}");
        let fs = &all[0].fs;
        assert!(fs.format().starts_with("fat"), "{name}: {}", fs.format());
        for rel in ["hello.txt", "numbers.txt", "docs/a long file name.txt"] {
            let want = std::fs::read(fixture("source").join(rel)).unwrap();
            let f = fs.open(&format!("/{rel}")).unwrap();
            let mut got = vec![0u8; f.len() as usize];
            f.read_exact_at(0, &mut got).unwrap();
            assert_eq!(got, want, "{name}: /{rel}");
        }
        let names: Vec<String> = fs
            .list_dir("/")
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        for n in ["docs", "hello.txt", "numbers.txt"] {
            assert!(names.iter().any(|x| x == n), "{name}: {names:?}");
        }
    }
}

#[test]
fn an_image_whose_backing_file_is_missing_names_it() {
    let path = fixture("overlay-missing-base.qcow2");
    let p = probe(file_bytes(&path).as_ref());
    assert_eq!(p.format, Format::Qcow2);
    assert!(
        p.readable && p.reason.contains("`base.qcow2`"),
        "{}",
        p.reason
    );
    // Opened with no folder (as inside another layer): refused, naming it.
    let err = Qcow2Image::open(file_bytes(&path)).err().unwrap();
    assert!(
        matches!(err, Error::Unsupported { ref detail, .. } if detail.contains("`base.qcow2`")),
        "{err}"
    );
    // Scanned as evidence: looked for beside it, not there (disk_chains.rs reads it there).
    let s = scan::scan(&path).unwrap();
    assert!(s.file_systems().is_empty());
    assert!(
        s.unreadable_summary()
            .contains("needs backing file `base.qcow2`"),
        "{}",
        s.unreadable_summary()
    );
}

fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

fn put64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_be_bytes());
}

fn be64(b: &[u8], at: usize) -> u64 {
    u64::from_be_bytes(b[at..at + 8].try_into().unwrap())
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// Opens and reads the whole stream: the first error, at open or while reading.
fn open_and_read(data: Vec<u8>, open: fn(Bytes) -> Result<Bytes, Error>) -> Result<(), Error> {
    let image = open(memory(data.clone()))?;
    stream_sha256(image.as_ref(), 1 << 20)?;
    Ok(())
}

fn qcow(b: Bytes) -> Result<Bytes, Error> {
    Ok(Arc::new(Qcow2Image::open(b)?))
}

fn vhd(b: Bytes) -> Result<Bytes, Error> {
    Ok(Arc::new(VhdImage::open(b)?))
}

/// The scanner on a damaged copy records a problem (at the image or a layer inside it) and
/// finds no file system, without panicking.
fn scan_reports_a_problem(data: &[u8], what: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged");
    std::fs::write(&path, data).unwrap();
    let s = scan::scan(&path).unwrap();
    assert!(s.file_systems().is_empty(), "{what}");
    let summary = s.unreadable_summary();
    assert!(
        summary.starts_with("no readable file system: "),
        "{what}: no problem recorded: {summary}"
    );
}

#[test]
fn damaged_qcow2_copies_give_typed_errors() {
    let good = std::fs::read(fixture("disk.qcow2")).unwrap();
    let l1_offset = be64(&good, 40) as usize;
    let l2_offset = (be64(&good, l1_offset) & 0x00ff_ffff_ffff_fe00) as usize;
    let first_mapped = (0..512)
        .map(|i| l2_offset + i * 8)
        .find(|&at| be64(&good, at) != 0)
        .unwrap();
    type Mutation = (&'static str, Box<dyn Fn(&mut Vec<u8>)>);
    type Expected = fn(&Error) -> bool;
    let cases: Vec<(Mutation, Expected)> = vec![
        (("truncated header", Box::new(|b| b.truncate(50))), |e| {
            matches!(e, Error::Truncated { .. })
        }),
        (
            (
                "L1 offset beyond the file",
                Box::new(|b| put64(b, 40, 1 << 40)),
            ),
            |e| matches!(e, Error::Corrupt { offset: 40, .. }),
        ),
        (
            (
                "L1 entry beyond the file",
                Box::new(move |b| put64(b, l1_offset, 1 << 40)),
            ),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("L2 table")),
        ),
        (
            (
                "L2 entry beyond the file",
                Box::new(move |b| put64(b, first_mapped, 1 << 40)),
            ),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("beyond the end")),
        ),
        (
            ("absurd L1 size", Box::new(|b| put32(b, 36, u32::MAX))),
            |e| matches!(e, Error::TooLarge { .. }),
        ),
        (
            ("absurd disk size", Box::new(|b| put64(b, 24, u64::MAX))),
            |e| matches!(e, Error::Corrupt { offset: 36, .. }),
        ),
        (
            ("absurd cluster bits", Box::new(|b| put32(b, 20, 63))),
            |e| matches!(e, Error::Corrupt { offset: 20, .. }),
        ),
        (("encrypted", Box::new(|b| put32(b, 32, 2))), |e| {
            matches!(e, Error::Encrypted { .. })
        }),
        (
            ("external data file", Box::new(|b| put64(b, 72, 1 << 2))),
            |e| matches!(e, Error::Unsupported { detail, .. } if detail.contains("external data file")),
        ),
        (("version 4", Box::new(|b| put32(b, 4, 4))), |e| {
            matches!(e, Error::Unsupported { .. })
        }),
    ];
    for ((what, mutate), expected) in cases {
        let mut b = good.clone();
        mutate(&mut b);
        let err = open_and_read(b.clone(), qcow)
            .err()
            .unwrap_or_else(|| panic!("{what}: read"));
        assert!(expected(&err), "{what}: {err:?}");
        scan_reports_a_problem(&b, what);
    }

    // A compressed cluster whose deflate stream is invalid (0xFF: a reserved block type).
    let good = std::fs::read(fixture("disk-compressed.qcow2")).unwrap();
    let bits = be32(&good, 20);
    let l1_offset = be64(&good, 40) as usize;
    let l2_offset = (be64(&good, l1_offset) & 0x00ff_ffff_ffff_fe00) as usize;
    let compressed = (0..(1usize << (bits - 3)))
        .map(|i| be64(&good, l2_offset + i * 8))
        .find(|e| e & (1 << 62) != 0)
        .unwrap();
    let host = (compressed & ((1u64 << (62 - (bits - 8))) - 1)) as usize;
    let mut b = good.clone();
    b[host..host + 16].fill(0xFF);
    let err = open_and_read(b, qcow).err().unwrap();
    assert!(matches!(err, Error::Corrupt { .. }), "{err:?}");
}

fn vhd_checksum(b: &mut [u8], at: usize, len: usize, field: usize) {
    put32(b, at + field, 0);
    let sum = b[at..at + len]
        .iter()
        .fold(0u32, |s, &x| s.wrapping_add(u32::from(x)));
    put32(b, at + field, !sum);
}

#[test]
fn damaged_vhd_copies_give_typed_errors() {
    let dynamic = gunzip(&fixture("disk-dynamic.vhd.gz"));
    let fixed = gunzip(&fixture("disk-fixed.vhd.gz"));
    let header = be64(&dynamic, 16) as usize;
    let bat = be64(&dynamic, header + 16) as usize;
    let end = dynamic.len() - 512;
    // Both footer copies of a dynamic image, checksums recomputed.
    let footers = move |b: &mut Vec<u8>, f: &dyn Fn(&mut [u8])| {
        for at in [0, end] {
            f(&mut b[at..at + 512]);
            vhd_checksum(b, at, 512, 64);
        }
    };
    type Mutation = (&'static str, Vec<u8>, fn(&Error) -> bool);
    let mut cases: Vec<Mutation> = Vec::new();
    let mut b = dynamic.clone();
    put32(&mut b, bat, 0x7FFF_FFFF);
    cases.push((
        "BAT entry beyond the file",
        b,
        |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("BAT entry 0")),
    ));
    let mut b = dynamic.clone();
    put32(&mut b, header + 28, u32::MAX);
    vhd_checksum(&mut b, header, 1024, 36);
    cases.push(("absurd BAT size", b, |e| {
        matches!(e, Error::TooLarge { .. })
    }));
    let mut b = dynamic.clone();
    put64(&mut b, header + 16, 1 << 50);
    vhd_checksum(&mut b, header, 1024, 36);
    cases.push((
        "BAT beyond the file",
        b,
        |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("BAT at")),
    ));
    let mut b = dynamic.clone();
    footers(&mut b, &|f| put64(f, 48, u64::MAX / 2));
    cases.push((
        "absurd disk size",
        b,
        |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("cannot map")),
    ));
    let mut b = dynamic.clone();
    b[header + 40] ^= 1;
    cases.push((
        "dynamic header checksum",
        b,
        |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("checksum")),
    ));
    let mut b = dynamic.clone();
    b.truncate(300);
    cases.push(("truncated", b, |e| {
        matches!(e, Error::Truncated { .. } | Error::Corrupt { .. })
    }));
    let mut b = dynamic.clone();
    footers(&mut b, &|f| put32(f, 60, 4));
    let parent: Vec<u8> = "parent disk.vhd"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    b[header + 64..header + 64 + parent.len()].copy_from_slice(&parent);
    vhd_checksum(&mut b, header, 1024, 36);
    cases.push((
        "differencing",
        b,
        |e| matches!(e, Error::Unsupported { detail, .. } if detail.contains("`parent disk.vhd`")),
    ));
    let mut b = fixed.clone();
    let end = b.len() - 512;
    put64(&mut b, end + 48, 1 << 40);
    vhd_checksum(&mut b, end, 512, 64);
    cases.push((
        "fixed disk larger than the file",
        b,
        |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("does not fit")),
    ));
    for (what, b, expected) in cases {
        let err = open_and_read(b.clone(), vhd)
            .err()
            .unwrap_or_else(|| panic!("{what}: read"));
        assert!(expected(&err), "{what}: {err:?}");
        if what != "truncated" {
            scan_reports_a_problem(&b, what);
        }
    }
    // A damaged trailing footer of a dynamic image: its copy at byte 0 stands in.
    let mut b = dynamic.clone();
    let end = b.len() - 512;
    b[end + 100] ^= 1;
    assert!(open_and_read(b, vhd).is_ok());
}

/// A minimal QCOW2 v2 image (512-byte clusters, every cluster stored in order) holding `data`.
fn wrap_in_qcow2(data: &[u8]) -> Vec<u8> {
    let cs = 512usize;
    let clusters = data.len().div_ceil(cs);
    let l2_tables = clusters.div_ceil(cs / 8);
    let l1_clusters = (l2_tables * 8).div_ceil(cs);
    let l2_start = 1 + l1_clusters;
    let data_start = l2_start + l2_tables;
    let mut out = vec![0u8; (data_start + clusters) * cs];
    out[..4].copy_from_slice(b"QFI\xfb");
    put32(&mut out, 4, 2);
    put32(&mut out, 20, 9);
    put64(&mut out, 24, data.len() as u64);
    put32(&mut out, 36, l2_tables as u32);
    put64(&mut out, 40, cs as u64);
    for t in 0..l2_tables {
        put64(&mut out, cs + t * 8, ((l2_start + t) * cs) as u64);
    }
    for c in 0..clusters {
        put64(
            &mut out,
            l2_start * cs + c * 8,
            ((data_start + c) * cs) as u64,
        );
    }
    out[data_start * cs..data_start * cs + data.len()].copy_from_slice(data);
    out
}

#[test]
fn qcow2_images_nested_in_each_other_stop_at_the_layer_depth_bound() {
    let mut data = b"innermost".repeat(100);
    for _ in 0..12 {
        data = wrap_in_qcow2(&data);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested");
    std::fs::write(&path, &data).unwrap();
    let s = scan::scan(&path).unwrap();
    let mut node = &s.root;
    let mut depth = 0;
    while let Some(child) = node.children.first() {
        assert_eq!(child.layer.kind, "qcow2");
        node = child;
        depth += 1;
    }
    assert!((6..12).contains(&depth), "{depth} layers");
    let problem = node.problem.as_deref().unwrap_or_default();
    assert!(problem.contains("nested deeper"), "{problem}");
}

fn put64le(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn le64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn vmdk(b: Bytes) -> Result<Bytes, Error> {
    Ok(Arc::new(VmdkImage::open(b)?))
}

/// File offsets of a VMDK sparse extent's GD entry 0 and of its first allocated GT entry,
/// with that entry's grain sector.
fn vmdk_first_grain(b: &[u8]) -> (usize, usize, usize) {
    let gd = le64(b, 56) as usize * 512;
    let gt = le32(b, gd) as usize * 512;
    let gte = (0..512)
        .map(|i| gt + i * 4)
        .find(|&at| le32(b, at) > 1)
        .unwrap();
    (gd, gte, le32(b, gte) as usize)
}

#[test]
fn vmdk_headers_and_descriptors_are_read_as_qemu_img_wrote_them() {
    let sparse = gunzip(&fixture("disk-sparse.vmdk.gz"));
    let image = VmdkImage::open(memory(sparse.clone())).unwrap();
    let h = image.header();
    assert_eq!((h.version, h.grain_sectors, h.gtes_per_gt), (1, 128, 512));
    assert!(h.redundant_gt() && !h.compressed() && !h.gd_from_footer);
    assert_eq!(image.create_type(), "monolithicSparse");
    let d = image.descriptor().unwrap();
    assert_eq!(d.extents.len(), 1);
    assert_eq!(
        (d.extents[0].kind.as_str(), d.extents[0].sectors),
        ("SPARSE", 12288)
    );
    let p = probe(memory(sparse).as_ref());
    assert_eq!(p.format, Format::Vmdk);
    assert!(
        p.readable
            && p.reason.contains("version 1")
            && p.reason.contains("createType monolithicSparse"),
        "{}",
        p.reason
    );

    let stream = std::fs::read(fixture("disk-stream.vmdk")).unwrap();
    let image = VmdkImage::open(memory(stream.clone())).unwrap();
    let h = image.header();
    assert_eq!(h.version, 3);
    assert!(h.compressed() && h.markers() && h.compress_algorithm == 1);
    assert_eq!(image.create_type(), "streamOptimized");
    assert_eq!(image.layer_name(), "vmdk (streamOptimized)");
    let s = {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("disk.vmdk");
        std::fs::write(&path, &stream).unwrap();
        scan::scan(&path).unwrap()
    };
    let layer = &s.root.children[0].layer;
    assert_eq!(layer.kind, "vmdk");
    assert!(
        layer
            .params
            .iter()
            .any(|(k, v)| k == "create_type" && v == "streamOptimized"),
        "{:?}",
        layer.params
    );
}

#[test]
fn a_stream_optimized_vmdk_whose_gd_is_at_the_end_reads_through_its_footer() {
    let raw = gunzip(&fixture("disk.raw.gz"));
    let mut b = std::fs::read(fixture("disk-stream.vmdk")).unwrap();
    // What a streaming writer leaves: GD_AT_END in the header, then at the end of the file a
    // footer marker, the footer (a header copy holding the GD offset) and an end-of-stream
    // marker.
    let mut footer = b[..512].to_vec();
    put64le(&mut b, 56, u64::MAX);
    let mut marker = vec![0u8; 512];
    put64le(&mut marker, 0, 1);
    marker[12..16].copy_from_slice(&3u32.to_le_bytes());
    b.extend_from_slice(&marker);
    b.append(&mut footer);
    b.extend_from_slice(&[0u8; 512]);
    let image = VmdkImage::open(memory(b.clone())).unwrap();
    assert!(image.header().gd_from_footer);
    assert_eq!(image.len(), raw.len() as u64);
    let mut got = vec![0u8; raw.len()];
    image.read_exact_at(0, &mut got).unwrap();
    assert!(got == raw, "differs from the raw disk");
    // Without the footer, GD_AT_END is corrupt, not a panic or a read of garbage.
    b.truncate(b.len() - 1536);
    let err = VmdkImage::open(memory(b)).err().unwrap();
    assert!(
        matches!(err, Error::Corrupt { ref detail, .. } if detail.contains("GD_AT_END")),
        "{err:?}"
    );
}

#[test]
fn damaged_vmdk_copies_give_typed_errors() {
    let sparse = gunzip(&fixture("disk-sparse.vmdk.gz"));
    let stream = std::fs::read(fixture("disk-stream.vmdk")).unwrap();
    let (gd, gte, _) = vmdk_first_grain(&sparse);
    let (_, sgte, grain) = vmdk_first_grain(&stream);
    // The embedded descriptor, rewritten to name a parent (a differencing child).
    let mut child = sparse.clone();
    let at = le64(&child, 28) as usize * 512;
    let len = le64(&child, 36) as usize * 512;
    let text = String::from_utf8_lossy(&child[at..at + len])
        .trim_end_matches('\0')
        .replace(
            "parentCID=ffffffff\n",
            "parentCID=5eed0001\nparentFileNameHint=\"base.vmdk\"\n",
        );
    assert!(text.contains("base.vmdk"));
    child[at..at + len].fill(0);
    child[at..at + text.len()].copy_from_slice(text.as_bytes());
    type Case = (&'static str, Vec<u8>, fn(&Error) -> bool);
    let mutate = |from: &Vec<u8>, f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = from.clone();
        f(&mut b);
        b
    };
    let cases: Vec<Case> = vec![
        (
            "truncated header",
            mutate(&sparse, &|b| b.truncate(50)),
            |e| matches!(e, Error::Truncated { .. }),
        ),
        (
            "GD offset beyond the file",
            mutate(&sparse, &|b| put64le(b, 56, 1 << 40)),
            |e| matches!(e, Error::Corrupt { offset: 56, .. }),
        ),
        (
            "GD entry beyond the file",
            mutate(&sparse, &|b| {
                b[gd..gd + 4].copy_from_slice(&0x7fff_0000u32.to_le_bytes())
            }),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("grain table at")),
        ),
        (
            "GT entry beyond the file",
            mutate(&sparse, &|b| {
                b[gte..gte + 4].copy_from_slice(&0x7fff_0000u32.to_le_bytes())
            }),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("GT entry of grain")),
        ),
        (
            "compressed GT entry beyond the file",
            mutate(&stream, &|b| {
                b[sgte..sgte + 4].copy_from_slice(&0x7fff_0000u32.to_le_bytes())
            }),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("beyond the end")),
        ),
        (
            "absurd capacity",
            mutate(&sparse, &|b| put64le(b, 12, 1 << 50)),
            |e| matches!(e, Error::TooLarge { .. }),
        ),
        (
            "capacity overflowing bytes",
            mutate(&sparse, &|b| put64le(b, 12, u64::MAX)),
            |e| matches!(e, Error::Corrupt { offset: 12, .. }),
        ),
        (
            "grain size not a power of two",
            mutate(&sparse, &|b| put64le(b, 20, 3)),
            |e| matches!(e, Error::Corrupt { offset: 20, .. }),
        ),
        (
            "absurd grain size",
            mutate(&sparse, &|b| put64le(b, 20, 1 << 40)),
            |e| matches!(e, Error::Corrupt { offset: 20, .. }),
        ),
        (
            "absurd descriptor size",
            mutate(&sparse, &|b| put64le(b, 36, 1 << 40)),
            |e| matches!(e, Error::TooLarge { .. }),
        ),
        ("version 4", mutate(&sparse, &|b| b[4] = 4), |e| {
            matches!(e, Error::Unsupported { .. })
        }),
        (
            "compression algorithm 2",
            mutate(&stream, &|b| b[77] = 2),
            |e| matches!(e, Error::Unsupported { detail, .. } if detail.contains("algorithm 2")),
        ),
        (
            "corrupt compressed grain",
            mutate(&stream, &|b| {
                let at = grain * 512 + 12;
                b[at..at + 16].fill(0xFF);
            }),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("compressed grain")),
        ),
        (
            "absurd compressed grain size",
            mutate(&stream, &|b| {
                let at = grain * 512 + 8;
                b[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            }),
            |e| matches!(e, Error::Corrupt { detail, .. } if detail.contains("claims")),
        ),
        (
            "differencing child",
            child,
            |e| matches!(e, Error::Unsupported { detail, .. } if detail.contains("`base.vmdk`")),
        ),
    ];
    for (what, b, expected) in cases {
        let err = open_and_read(b.clone(), vmdk)
            .err()
            .unwrap_or_else(|| panic!("{what}: read"));
        assert!(expected(&err), "{what}: {err:?}");
        scan_reports_a_problem(&b, what);
        if what == "differencing child" {
            let p = probe(memory(b).as_ref());
            assert_eq!(p.format, Format::Vmdk);
            // Readable over its parent, when the parent is beside it.
            assert!(
                p.readable && p.reason.contains("`base.vmdk`"),
                "{}",
                p.reason
            );
        }
    }
}

#[test]
fn vmdk_descriptor_files_without_their_extents_name_them() {
    let text = "# Disk DescriptorFile\nversion=1\nCID=5eed0001\nparentCID=ffffffff\n\
                createType=\"monolithicFlat\"\n\n# Extent description\n\
                RW 12288 FLAT \"disk-flat.vmdk\" 0\n\n# The Disk Data Base\n\
                ddb.adapterType = \"ide\"\n";
    let p = probe(memory(text.as_bytes().to_vec()).as_ref());
    assert_eq!(p.format, Format::Vmdk);
    assert!(
        p.readable && p.reason.contains("`disk-flat.vmdk`") && p.reason.contains("monolithicFlat"),
        "{}",
        p.reason
    );
    let split = "# Disk DescriptorFile\ncreateType=\"twoGbMaxExtentSparse\"\n\
                 RW 4192256 SPARSE \"disk-s001.vmdk\"\nRW 2048 SPARSE \"disk-s002.vmdk\"\n";
    for t in [text, split] {
        let err = VmdkImage::open(memory(t.as_bytes().to_vec()))
            .err()
            .unwrap();
        let want = if t == text {
            "`disk-flat.vmdk`"
        } else {
            "`disk-s002.vmdk`"
        };
        assert!(
            matches!(err, Error::Unsupported { ref detail, .. } if detail.contains(want)),
            "{err:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("disk.vmdk");
        std::fs::write(&path, t).unwrap();
        let s = scan::scan(&path).unwrap();
        assert!(s.file_systems().is_empty());
        // Alone in its folder: the first extent file it needs is named, with where it was
        // looked for.
        let first = if t == text {
            "`disk-flat.vmdk`"
        } else {
            "`disk-s001.vmdk`"
        };
        let summary = s.unreadable_summary();
        assert!(
            summary.contains(first) && summary.contains("give it beside the image"),
            "{summary}"
        );
    }
}
