//! Virtual disks that read files beside them: QCOW2 overlays over their backing files, VMDK
//! descriptor files over their extent files (split sparse, flat, split flat) and VMDK
//! differencing children over their parents. Every chain is made here by QEMU's own `qemu-img`
//! and `qemu-io` from the MBR + FAT disk of `tests/fixtures/vdisk`, then moved to another folder
//! (so the names the images hold, some absolute, no longer lead anywhere and are found beside
//! the image); `qemu-img convert -O raw`, run where the chain was made, is the oracle.

use std::io::Read;
use std::path::Path;
use std::process::Command;

use masf_evidence::bytes::Bytes;
use masf_evidence::scan::{Form, Node, scan};
use masf_evidence::{EvidenceFiles, FilesKind};
use sha2::{Digest, Sha256};

use super::support::{repo, run};

/// A gzipped fixture of `tests/fixtures/vdisk`, inflated.
fn vdisk_fixture(name: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let file = std::fs::File::open(repo().join("tests/fixtures/vdisk").join(name)).unwrap();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// The MBR + FAT disk every chain is made of.
fn raw_disk() -> Vec<u8> {
    vdisk_fixture("disk.raw.gz")
}

/// Writes `base.vhd` (the dynamic VHD qemu-img made of the disk) and `child.vhd`, a
/// differencing child of it holding `writes` ([[offset, hex bytes], …]; no writer here makes
/// one: see make_vhd_child.py). Returns the parent's bytes.
fn vhd_child(dir: &Path, writes: serde_json::Value) -> Vec<u8> {
    let parent = vdisk_fixture("disk-dynamic.vhd.gz");
    std::fs::write(dir.join("base.vhd"), &parent).unwrap();
    std::fs::write(dir.join("writes.json"), writes.to_string()).unwrap();
    run(Command::new("python3")
        .arg(repo().join("tests/fixtures/vdisk/make_vhd_child.py"))
        .args(["base.vhd", "child.vhd", "writes.json"])
        .current_dir(dir));
    parent
}

/// Writes `base.vhdx` (qemu-img's dynamic VHDX of `disk.raw`) and `child`, qemu's empty VHDX
/// made a differencing child of it by make_vhdx_child.py (QEMU writes none).
fn vhdx_child(dir: &Path, child: &str) {
    qemu(
        dir,
        "convert -O vhdx -o block_size=1M,subformat=dynamic disk.raw base.vhdx",
    );
    qemu(
        dir,
        &format!("create -q -f vhdx -o block_size=1M,subformat=dynamic {child} 6M"),
    );
    run(Command::new("python3")
        .arg(repo().join("tests/fixtures/vhdx/make_vhdx_child.py"))
        .args([child, "base.vhdx"])
        .current_dir(dir));
}

fn qemu_img(dir: &Path, args: &[&str]) {
    run(Command::new("qemu-img").current_dir(dir).args(args));
}

/// `qemu-img` with a command line of words without spaces.
fn qemu(dir: &Path, line: &str) {
    qemu_img(dir, &line.split_whitespace().collect::<Vec<_>>());
}

/// A temporary folder holding `disk.raw`, the MBR + FAT disk.
fn with_disk() -> tempfile::TempDir {
    let made = tempfile::tempdir().unwrap();
    std::fs::write(made.path().join("disk.raw"), raw_disk()).unwrap();
    made
}

/// Writes `len` bytes of `pattern` at `offset` of an image through QEMU (`-z`: a zero write).
fn qemu_write(dir: &Path, image: &str, format: &str, what: &str) {
    run(Command::new("qemu-io")
        .current_dir(dir)
        .args(["-f", format, "-c", what, image]));
}

/// What QEMU reads as the whole virtual disk of `image` (in `dir`, where its chain is).
fn qemu_raw(dir: &Path, image: &str) -> Vec<u8> {
    let out = dir.join("oracle.raw");
    qemu_img(dir, &["convert", "-O", "raw", image, out.to_str().unwrap()]);
    let data = std::fs::read(&out).unwrap();
    std::fs::remove_file(out).unwrap();
    data
}

/// Moves every file of `from` whose name is in `names` to `to`.
fn move_files(from: &Path, to: &Path, names: &[&str]) {
    std::fs::create_dir_all(to).unwrap();
    for n in names {
        std::fs::rename(from.join(n), to.join(n)).unwrap();
    }
}

/// The bytes under the top layer of a file source (the virtual disk), and the layer's
/// parameters.
fn disk_of(path: &Path) -> (Bytes, String) {
    let s = scan(path).unwrap();
    assert_eq!(
        s.form,
        Form::DiskImage,
        "{}: {:?}",
        path.display(),
        s.reasons
    );
    let root: &Node = &s.root;
    assert!(root.problem.is_none(), "{:?}", root.problem);
    let disk = root.children.first().expect("the virtual disk layer");
    (
        disk.bytes.clone().expect("its bytes"),
        format!("{:?}", disk.layer),
    )
}

fn read_whole(b: &Bytes) -> Vec<u8> {
    let mut out = vec![0u8; usize::try_from(b.len()).unwrap()];
    let mut pos = 0;
    while pos < out.len() {
        let end = (pos + (1 << 20) + 4097).min(out.len());
        let n = b.read_at(pos as u64, &mut out[pos..end]).unwrap();
        assert!(n > 0, "short read at {pos}");
        pos += n;
    }
    out
}

fn sha(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

/// The FAT volume inside the disk is listed through the chain.
fn fat_listed(path: &Path) {
    let s = scan(path).unwrap();
    let fs = s.file_systems();
    let fat = fs.first().expect("the FAT volume of the disk");
    let root = fat.fs.list_dir("/").unwrap();
    assert!(!root.is_empty(), "{}", path.display());
}

fn files_of(path: &Path) -> EvidenceFiles {
    EvidenceFiles::discover(path).unwrap()
}

#[test]
fn a_qcow2_overlay_chain_reads_as_qemu_reads_it() {
    let made = with_disk();
    let dir = made.path();
    qemu(
        dir,
        "convert -O qcow2 -o cluster_size=4096 disk.raw base.qcow2",
    );
    // The middle overlay names its backing file by an absolute path, as libvirt does.
    let base_abs = dir.join("base.qcow2");
    qemu(
        dir,
        &format!(
            "create -q -f qcow2 -o cluster_size=4096 -b {} -F qcow2 mid.qcow2",
            base_abs.display()
        ),
    );
    // Writes land past the FAT volume (1 to 3 MiB), which stays listable.
    qemu_write(dir, "mid.qcow2", "qcow2", "write -P 0x5a 4194304 65536");
    qemu(
        dir,
        "create -q -f qcow2 -o cluster_size=4096 -b mid.qcow2 -F qcow2 top.qcow2",
    );
    qemu_write(dir, "top.qcow2", "qcow2", "write -P 0xc3 5242880 12288");
    // A zero write over data the middle overlay holds: zeros, never its bytes.
    qemu_write(dir, "top.qcow2", "qcow2", "write -z 4198400 8192");
    let want = qemu_raw(dir, "top.qcow2");
    assert_eq!(&want[4_198_400..4_206_592], &[0u8; 8192][..]);
    assert_eq!(want[4_194_304], 0x5a);
    assert_eq!(want[4_206_592], 0x5a);

    let moved = dir.join("evidence");
    move_files(dir, &moved, &["base.qcow2", "mid.qcow2", "top.qcow2"]);
    let top = moved.join("top.qcow2");
    let files = files_of(&top);
    assert_eq!(files.kind, FilesKind::DiskChain);
    assert_eq!(
        files.files,
        vec![
            top.clone(),
            moved.join("mid.qcow2"),
            moved.join("base.qcow2")
        ]
    );
    let (disk, layer) = disk_of(&top);
    assert!(layer.contains("mid.qcow2"), "{layer}");
    assert_eq!(sha(&read_whole(&disk)), sha(&want));
    fat_listed(&top);

    // An overlay over a raw backing file.
    qemu(dir, "create -q -f qcow2 -b disk.raw -F raw over-raw.qcow2");
    qemu_write(dir, "over-raw.qcow2", "qcow2", "write -P 0x11 3145728 512");
    let want = qemu_raw(dir, "over-raw.qcow2");
    let (disk, _) = disk_of(&dir.join("over-raw.qcow2"));
    assert_eq!(sha(&read_whole(&disk)), sha(&want));
}

#[test]
fn a_missing_backing_file_or_a_loop_of_names_is_said() {
    let made = tempfile::tempdir().unwrap();
    let dir = made.path();
    qemu(
        dir,
        "create -q -f qcow2 -u -b /srv/vm/gone.qcow2 -F qcow2 lonely.qcow2 6M",
    );
    let s = scan(&dir.join("lonely.qcow2")).unwrap();
    let summary = s.unreadable_summary();
    assert!(
        summary.contains("backing file `/srv/vm/gone.qcow2`")
            && summary.contains("give it beside the image"),
        "{summary}"
    );
    // Two overlays naming each other.
    qemu(dir, "create -q -f qcow2 -u -b b.qcow2 -F qcow2 a.qcow2 6M");
    qemu(dir, "create -q -f qcow2 -u -b a.qcow2 -F qcow2 b.qcow2 6M");
    let files = files_of(&dir.join("a.qcow2"));
    assert_eq!(files.files.len(), 2, "{:?}", files.files);
    let s = scan(&dir.join("a.qcow2")).unwrap();
    let summary = s.unreadable_summary();
    assert!(summary.contains("a loop of names"), "{summary}");
}

#[test]
fn vmdk_flat_and_split_sparse_descriptors_read_their_extents() {
    let made = with_disk();
    let dir = made.path();
    for (sub, names) in [
        ("monolithicFlat", vec!["flat.vmdk", "flat-flat.vmdk"]),
        (
            "twoGbMaxExtentSparse",
            vec!["split.vmdk", "split-s001.vmdk"],
        ),
        (
            "twoGbMaxExtentFlat",
            vec!["splitflat.vmdk", "splitflat-f001.vmdk"],
        ),
    ] {
        let image = names[0];
        qemu(
            dir,
            &format!("convert -O vmdk -o subformat={sub} disk.raw {image}"),
        );
        let want = qemu_raw(dir, image);
        let moved = dir.join(sub);
        move_files(dir, &moved, &names);
        let path = moved.join(image);
        let files = files_of(&path);
        assert_eq!(files.kind, FilesKind::DiskChain, "{sub}");
        assert_eq!(files.files.len(), names.len(), "{sub}: {:?}", files.files);
        let (disk, layer) = disk_of(&path);
        assert!(layer.contains(sub), "{sub}: {layer}");
        assert!(
            read_whole(&disk) == want,
            "{sub}: the disk differs from qemu's"
        );
        fat_listed(&path);
    }
}

#[test]
fn a_vmdk_split_across_2_gib_extents_reads_across_their_boundary() {
    let made = tempfile::tempdir().unwrap();
    let dir = made.path();
    // A 2.5 GiB sparse disk: the MBR + FAT disk at its start, a pattern across the 2 GiB
    // boundary of the first extent and at its end.
    let raw = dir.join("big.raw");
    let disk = raw_disk();
    let size: u64 = 2560 << 20;
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::File::create(&raw).unwrap();
        f.set_len(size).unwrap();
        f.write_all(&disk).unwrap();
        f.seek(SeekFrom::Start((2048 << 20) - 32768)).unwrap();
        f.write_all(&vec![0xA5u8; 65536]).unwrap();
        f.seek(SeekFrom::Start(size - 4096)).unwrap();
        f.write_all(&[0x3Cu8; 4096]).unwrap();
    }
    qemu(
        dir,
        "convert -O vmdk -o subformat=twoGbMaxExtentSparse big.raw big.vmdk",
    );
    // The oracle stays a sparse file on disk (2.5 GiB); only the windows compared are read.
    qemu(dir, "convert -O raw big.vmdk oracle.raw");
    let oracle = std::fs::File::open(dir.join("oracle.raw")).unwrap();
    assert_eq!(oracle.metadata().unwrap().len(), size);
    let moved = dir.join("evidence");
    move_files(dir, &moved, &["big.vmdk", "big-s001.vmdk", "big-s002.vmdk"]);
    let path = moved.join("big.vmdk");
    assert_eq!(files_of(&path).files.len(), 3);
    let (bytes, _) = disk_of(&path);
    assert_eq!(bytes.len(), size);
    for (at, len) in [
        (0u64, 6usize << 20),
        ((2048 << 20) - (1 << 20), 2 << 20),
        (size - (1 << 20), 1 << 20),
    ] {
        let mut got = vec![0u8; len];
        bytes.read_exact_at(at, &mut got).unwrap();
        let mut want = vec![0u8; len];
        std::os::unix::fs::FileExt::read_exact_at(&oracle, &mut want, at).unwrap();
        assert!(got == want, "window at {at}");
        assert!(want.iter().any(|&b| b != 0), "window at {at} holds data");
    }
}

#[test]
fn a_vmdk_differencing_child_reads_over_its_parent() {
    let made = with_disk();
    let dir = made.path();
    qemu(
        dir,
        "convert -O vmdk -o subformat=monolithicSparse disk.raw base.vmdk",
    );
    qemu(dir, "create -q -f vmdk -b base.vmdk -F vmdk child.vmdk");
    qemu_write(dir, "child.vmdk", "vmdk", "write -P 0x77 3211264 131072");
    let want = qemu_raw(dir, "child.vmdk");
    assert_eq!(want[3_211_264], 0x77);
    let moved = dir.join("evidence");
    move_files(dir, &moved, &["base.vmdk", "child.vmdk"]);
    let path = moved.join("child.vmdk");
    let files = files_of(&path);
    assert_eq!(files.files, vec![path.clone(), moved.join("base.vmdk")]);
    let (disk, layer) = disk_of(&path);
    assert!(layer.contains("base.vmdk"), "{layer}");
    assert!(
        read_whole(&disk) == want,
        "the child differs from qemu's reading"
    );
    fat_listed(&path);

    // Without its parent, the parent is named.
    std::fs::remove_file(moved.join("base.vmdk")).unwrap();
    let s = scan(&path).unwrap();
    let summary = s.unreadable_summary();
    assert!(summary.contains("parent `base.vmdk`"), "{summary}");
}

/// Evidence is never written: the chain's files keep their bytes.
#[test]
fn reading_a_chain_leaves_its_files_untouched() {
    let made = with_disk();
    let dir = made.path();
    qemu(dir, "convert -O qcow2 disk.raw base.qcow2");
    qemu(dir, "create -q -f qcow2 -b base.qcow2 -F qcow2 top.qcow2");
    let hashes = |names: &[&str]| -> Vec<String> {
        names
            .iter()
            .map(|n| sha(&std::fs::read(dir.join(n)).unwrap()))
            .collect()
    };
    let before = hashes(&["base.qcow2", "top.qcow2"]);
    let (disk, _) = disk_of(&dir.join("top.qcow2"));
    read_whole(&disk);
    assert_eq!(hashes(&["base.qcow2", "top.qcow2"]), before);
}

/// What libvhdi reads as the disk of a differencing VHD or VHDX over its parent: its SHA-256.
fn libvhdi_sha256(child: &Path, parent: &Path) -> String {
    let script = r#"
import hashlib, sys, pyvhdi
c = pyvhdi.file(); c.open(sys.argv[1])
p = pyvhdi.file(); p.open(sys.argv[2])
assert c.disk_type == 4, c.disk_type
c.set_parent(p)
print(hashlib.sha256(c.read_buffer_at_offset(c.media_size, 0)).hexdigest())
"#;
    run(Command::new(super::support::py_oracle("libvhdi-python"))
        .arg("-c")
        .arg(script)
        .arg(child)
        .arg(parent))
    .trim()
    .to_string()
}

#[test]
fn a_differencing_vhd_reads_over_its_parent_as_libvhdi_reads_it() {
    let made = tempfile::tempdir().unwrap();
    let dir = made.path();
    // The child changes sectors in the gap before the partition, across the boundary of its
    // first two 2 MiB blocks, and past the volume; everything else is the parent's.
    let parent = vhd_child(
        dir,
        serde_json::json!([
            [524_288, "a5".repeat(512)],
            [2_097_152 - 512, "77".repeat(1024)],
            [3_149_824, "5c".repeat(1024)],
        ]),
    );
    let mut want = raw_disk();
    for (at, byte, len) in [
        (524_288usize, 0xa5u8, 512usize),
        (2_097_152 - 512, 0x77, 1024),
        (3_149_824, 0x5c, 1024),
    ] {
        want[at..at + len].fill(byte);
    }
    // The oracle first: libvhdi reads the child over its parent as the writes say.
    assert_eq!(
        libvhdi_sha256(&dir.join("child.vhd"), &dir.join("base.vhd")),
        sha(&want)
    );

    let moved = dir.join("evidence");
    move_files(dir, &moved, &["base.vhd", "child.vhd"]);
    let path = moved.join("child.vhd");
    let files = files_of(&path);
    assert_eq!(files.kind, FilesKind::DiskChain);
    assert_eq!(files.files, vec![path.clone(), moved.join("base.vhd")]);
    let (disk, layer) = disk_of(&path);
    assert!(
        layer.contains("differencing") && layer.contains("base.vhd"),
        "{layer}"
    );
    assert_eq!(sha(&read_whole(&disk)), sha(&want));
    fat_listed(&path);

    // Another disk under the parent's name (its unique id differs) is refused, not read.
    let mut other = parent.clone();
    let end = other.len() - 512;
    for at in [0, end] {
        other[at + 68] ^= 0xff;
        other[at + 64..at + 68].fill(0);
        let sum = !other[at..at + 512]
            .iter()
            .fold(0u32, |s, &b| s.wrapping_add(u32::from(b)));
        other[at + 64..at + 68].copy_from_slice(&sum.to_be_bytes());
    }
    std::fs::write(moved.join("base.vhd"), &other).unwrap();
    let s = scan(&path).unwrap();
    let summary = s.unreadable_summary();
    assert!(summary.contains("not its parent"), "{summary}");
    // And a missing parent is named.
    std::fs::remove_file(moved.join("base.vhd")).unwrap();
    let summary = scan(&path).unwrap().unreadable_summary();
    assert!(
        summary.contains("base.vhd") && summary.contains("beside"),
        "{summary}"
    );
}

#[test]
fn a_differencing_vhdx_reads_over_its_parent_as_libvhdi_reads_it() {
    let made = with_disk();
    let dir = made.path();
    // See make_vhdx_child.py's header for the blocks the child writes.
    vhdx_child(dir, "child.avhdx");
    let mut want = raw_disk();
    want[1024 * 512..1028 * 512].fill(0xa5);
    want[4 << 20..5 << 20].fill(0x3c);
    want[5 << 20..6 << 20].fill(0);
    assert_eq!(
        libvhdi_sha256(&dir.join("child.avhdx"), &dir.join("base.vhdx")),
        sha(&want)
    );

    let moved = dir.join("evidence");
    move_files(dir, &moved, &["base.vhdx", "child.avhdx"]);
    let path = moved.join("child.avhdx");
    let files = files_of(&path);
    assert_eq!(files.files, vec![path.clone(), moved.join("base.vhdx")]);
    let (disk, layer) = disk_of(&path);
    assert!(layer.contains("differencing"), "{layer}");
    assert_eq!(sha(&read_whole(&disk)), sha(&want));
    // Reads that start and end inside the partially present block's written sectors.
    let mut piece = vec![0u8; 1000];
    disk.read_exact_at(1024 * 512 - 300, &mut piece).unwrap();
    assert!(piece == want[1024 * 512 - 300..1024 * 512 + 700]);
    fat_listed(&path);

    // The parent written since (another DataWriteGuid): refused, never read.
    let mut other = std::fs::read(moved.join("base.vhdx")).unwrap();
    for at in [64usize << 10, 128 << 10] {
        other[at + 32] ^= 0xff;
        other[at + 4..at + 8].fill(0);
        let crc = crc32c(&other[at..at + 4096]);
        other[at + 4..at + 8].copy_from_slice(&crc.to_le_bytes());
    }
    std::fs::write(moved.join("base.vhdx"), &other).unwrap();
    let summary = scan(&path).unwrap().unreadable_summary();
    assert!(summary.contains("not its parent"), "{summary}");
}

/// CRC-32C (Castagnoli), reflected, as VHDX headers carry it.
fn crc32c(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0x82F6_3B78
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Children whose headers, tables and locators are damaged at random, their parents intact
/// beside them: every one is refused with an error or read, never a panic or a hang, and the
/// files are not written.
#[test]
fn damaged_children_over_intact_parents_never_panic() {
    let made = with_disk();
    let dir = made.path();
    vhd_child(dir, serde_json::json!([[524_288, "a5".repeat(512)]]));
    vhdx_child(dir, "child.vhdx");
    qemu(
        dir,
        "convert -O qcow2 -o cluster_size=4096 disk.raw base.qcow2",
    );
    qemu(
        dir,
        "create -q -f qcow2 -o cluster_size=4096 -b base.qcow2 -F qcow2 child.qcow2",
    );
    qemu_write(dir, "child.qcow2", "qcow2", "write -P 0x5a 4194304 65536");

    let mut seed: u64 = 0x9fb2_1c65_1e98_df25;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    for child in ["child.vhd", "child.vhdx", "child.qcow2"] {
        let pristine = std::fs::read(dir.join(child)).unwrap();
        // Where the structures are (offset, length): VHDX headers, region table, BAT and
        // metadata with its parent locator; a QCOW2's header and tables; a VHD's footer copy,
        // dynamic header, BAT and locators, and its trailing footer.
        let ranges: Vec<(usize, usize)> = match child {
            "child.vhdx" => vec![
                (64 << 10, 4096),
                (128 << 10, 4096),
                (192 << 10, 256),
                (2 << 20, 40 << 10),
                (3 << 20, 72 << 10),
            ],
            "child.qcow2" => vec![(0, 512), (0, 64 << 10)],
            _ => vec![(0, 4096), (pristine.len() - 512, 512)],
        };
        let (mut opened, mut refused) = (0, 0);
        for _ in 0..80 {
            let mut d = pristine.clone();
            for _ in 0..1 + next() % 4 {
                let (from, len) = ranges[next() % ranges.len()];
                d[from + next() % len] = next() as u8;
            }
            let path = dir.join(child);
            std::fs::write(&path, &d).unwrap();
            let s = scan(&path).unwrap();
            match s.root.children.first().and_then(|c| c.bytes.clone()) {
                Some(disk) => {
                    opened += 1;
                    let mut buf = vec![0u8; 1 << 20];
                    for at in [0u64, 3 << 20, disk.len().saturating_sub(1 << 20)] {
                        if disk.read_at(at, &mut buf).is_err() {
                            refused += 1;
                        }
                    }
                }
                None => {
                    refused += 1;
                    assert!(!s.unreadable_summary().is_empty(), "{child}");
                }
            }
            assert_eq!(
                std::fs::read(&path).unwrap(),
                d,
                "{child}: the file was written"
            );
        }
        assert!(opened > 0, "{child}: no damaged copy opened at all");
        assert!(refused > 0, "{child}: no damage was noticed");
        std::fs::write(dir.join(child), &pristine).unwrap();
    }
}
