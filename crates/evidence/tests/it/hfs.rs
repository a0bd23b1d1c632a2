//! HFS+ volumes from the public corpus, read against The Sleuth Kit: the dfvfs volume
//! (`fs/hfs/dfvfs-hfsplus.raw`: every listing, size, time and file's bytes equal `fls -m` /
//! `icat`, oracles made by `tests/fixtures/hfs/make-oracles.sh`), and the HFS+ volumes inside
//! the corpus DMGs (listings equal the corpus' `fls -r -p` oracles). Damaged copies (truncated,
//! a bad catalog node, a looping leaf chain) give typed errors or diagnostics, never a panic.
//! `mkfs.hfsplus` is not packaged in Debian bookworm, so no volume is made here.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use masf_evidence::bytes::{ByteSource, Bytes, FileBytes, Memory};
use masf_evidence::fs::{EntryKind, FileSystem, RawTime, TimeRole};
use masf_evidence::hfsplus;
use masf_evidence::scan;
use masf_testkit::corpus;
use sha2::{Digest, Sha256};

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/hfs")
        .join(name)
}

fn sha256(b: &dyn ByteSource) -> String {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut at = 0;
    while at < b.len() {
        let n = ((b.len() - at) as usize).min(buf.len());
        b.read_exact_at(at, &mut buf[..n]).unwrap();
        h.update(&buf[..n]);
        at += n as u64;
    }
    hex::encode(h.finalize())
}

/// fls' rendering of a name: control characters as `^`.
fn tsk_name(path: &str) -> String {
    path.chars()
        .map(|c| if c.is_control() { '^' } else { c })
        .collect()
}

/// Every entry below `/` (resource-fork entries left out), depth-first.
fn walk(fs: &dyn FileSystem) -> Vec<masf_evidence::fs::Entry> {
    let mut out = Vec::new();
    let mut stack = vec!["/".to_string()];
    while let Some(dir) = stack.pop() {
        for e in fs.list_dir(&dir).unwrap() {
            if e.name.ends_with(":rsrc") {
                continue;
            }
            if e.kind == EntryKind::Dir {
                stack.push(e.path.clone());
            }
            out.push(e);
        }
    }
    out
}

fn unix(e: &masf_evidence::fs::Entry, role: TimeRole) -> i64 {
    e.times
        .iter()
        .find(|t| t.role == role)
        .map(|t| match t.raw {
            RawTime::Unix { secs, .. } => secs,
            other => panic!("{other:?}"),
        })
        .unwrap_or(0)
}

fn dfvfs() -> Arc<dyn FileSystem> {
    let path = corpus::path("fs/hfs/dfvfs-hfsplus.raw");
    hfsplus::open(Arc::new(FileBytes::open(&path).unwrap())).unwrap()
}

/// The volume's listing, ids, owners, sizes, four times and every file's bytes equal TSK's `fls -m`
/// body (`$` metadata files left out) and `icat` hashes.
fn check_against_tsk(fs: &dyn FileSystem, body: &str, sums: &str, files: usize) {
    let mut ours = BTreeSet::new();
    for e in walk(fs) {
        let kind = match e.kind {
            EntryKind::Dir => "d/d",
            EntryKind::Symlink => "l/l",
            _ => "r/r",
        };
        let name = match &e.link_target {
            Some(t) => format!("{} -> {t}", tsk_name(&e.path)),
            None => tsk_name(&e.path),
        };
        let (uid, gid) = e.owner.unwrap_or((0, 0));
        ours.insert(format!(
            "{name}|{}|{kind}|{uid}|{gid}|{}|{}|{}|{}|{}",
            e.id.unwrap(),
            e.size,
            unix(&e, TimeRole::Accessed),
            unix(&e, TimeRole::Modified),
            unix(&e, TimeRole::Changed),
            unix(&e, TimeRole::Created)
        ));
    }
    let body = std::fs::read_to_string(fixture(body)).unwrap();
    let want: BTreeSet<String> = body
        .lines()
        .filter(|l| !l.contains("|/$"))
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
                f[1],
                f[2],
                &f[3][..3],
                f[4],
                f[5],
                f[6],
                f[7],
                f[8],
                f[9],
                f[10]
            )
        })
        .collect();
    assert_eq!(ours, want);

    let sums = std::fs::read_to_string(fixture(sums)).unwrap();
    let mut checked = 0;
    for e in walk(fs) {
        if e.kind != EntryKind::File {
            continue;
        }
        let want = sums
            .lines()
            .find(|l| l.ends_with(&format!(" {}", e.id.unwrap())))
            .unwrap_or_else(|| panic!("no icat oracle for {}", e.path));
        assert_eq!(
            format!(
                "{} {}",
                sha256(fs.open(&e.path).unwrap().as_ref()),
                e.id.unwrap()
            ),
            want,
            "{}",
            e.path
        );
        checked += 1;
    }
    assert_eq!(checked, files);
    assert!(fs.diagnostics().is_empty(), "{:?}", fs.diagnostics());
}

#[test]
fn dfvfs_volume_lists_times_and_bytes_as_tsk_does() {
    let fs = dfvfs();
    assert_eq!(fs.format(), "hfsplus");
    check_against_tsk(fs.as_ref(), "hfsplus.body", "hfsplus.sha256", 7);
}

/// The volume xorriso writes (`tests/fixtures/hfs/generate.sh`), from its Apple Partition Map
/// partition (sector 128) to the end of the image, where its file data lies.
#[test]
fn xorriso_volume_lists_times_and_bytes_as_tsk_does() {
    let mut iso = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(fixture("hfsplus.iso.gz")).unwrap()),
        &mut iso,
    )
    .unwrap();
    let vol = iso[128 * 512..].to_vec();
    let fs = open_mem(vol).unwrap();
    check_against_tsk(fs.as_ref(), "xorriso.body", "xorriso.sha256", 6);
    // `:` in a POSIX name is `/` in the catalog, shown as `:` again.
    assert_eq!(fs.stat("/Mixed Case/x:y.txt").unwrap().size, 14);
    assert_eq!(fs.stat("/mixed case/X:Y.TXT").unwrap().id, Some(17));
}

#[test]
fn resource_fork_is_listed_and_opened_by_both_paths() {
    let fs = dfvfs();
    let list = fs.list_dir("/a_directory").unwrap();
    let fork = list
        .iter()
        .find(|e| e.name == "a_resourcefork:rsrc")
        .expect("resource fork entry");
    assert_eq!(fork.id, Some(25));
    assert!(fork.size > 0);
    let a = fs.open("/a_directory/a_resourcefork:rsrc").unwrap();
    let b = fs
        .open("/a_directory/a_resourcefork/..namedfork/rsrc")
        .unwrap();
    assert_eq!(a.len(), fork.size);
    assert_eq!(sha256(a.as_ref()), sha256(b.as_ref()));
    assert_eq!(
        sha256(a.as_ref()),
        std::fs::read_to_string(fixture("hfsplus.rsrc.sha256"))
            .unwrap()
            .trim()
    );
    // HFS+ (not HFSX) names match without regard to case.
    assert_eq!(fs.stat("/A_DIRECTORY/A_FILE").unwrap().id, Some(19));
}

/// The DMGs' HFS+ volumes list as the corpus' `fls -r -p -o 40` oracles (the `$` metadata
/// files left out), hard links resolved to their `iNode` file's id.
#[test]
fn dmg_volumes_list_as_fls_does() {
    let cases = [
        ("keramics-hfsplus_zlib.dmg", "keramics_udif_hfsplus"),
        ("keramics-hfsplus_adc.dmg", "keramics_udif_hfsplus"),
        ("keramics-hfsplus_bzip2.dmg", "keramics_udif_hfsplus"),
        ("keramics-hfsplus_lzfse.dmg", "keramics_udif_hfsplus"),
        ("keramics-hfsplus_lzma.dmg", "keramics_udif_hfsplus"),
        ("plaso-spotlight.10.13.dmg", "plaso_spotlight_10.13"),
        ("plaso-spotlight.12.dmg", "plaso_spotlight_12"),
    ];
    for (dmg, oracle) in cases {
        let s = scan::scan(&corpus::path(&format!("container/udif/{dmg}"))).unwrap();
        let all = s.file_systems();
        assert_eq!(all.len(), 1, "{dmg}");
        let fs = all[0].fs;
        assert_eq!(fs.format(), "hfsplus", "{dmg}");
        let ours: BTreeSet<String> = walk(fs.as_ref())
            .iter()
            .map(|e| {
                let kind = match e.kind {
                    EntryKind::Dir => "d/d",
                    EntryKind::Symlink => "l/l",
                    _ => "r/r",
                };
                format!("{kind} {}:\t{}", e.id.unwrap(), tsk_name(&e.path[1..]))
            })
            .collect();
        let want: BTreeSet<String> = corpus::text(&format!("fs/oracles/fls/{oracle}.fls.txt"))
            .lines()
            .filter(|l| !l.contains(":\t$"))
            .map(str::to_string)
            .collect();
        assert_eq!(ours, want, "{dmg}");
        // Every file reads to its size.
        for e in walk(fs.as_ref()) {
            if e.kind == EntryKind::File {
                let b = fs.open(&e.path).unwrap();
                assert_eq!(b.len(), e.size, "{dmg} {}", e.path);
                sha256(b.as_ref());
            }
        }
    }
}

#[test]
fn hard_link_and_symlink_in_the_keramics_volume() {
    let s = scan::scan(&corpus::path("container/udif/keramics-hfsplus_zlib.dmg")).unwrap();
    let fs = s.file_systems()[0].fs.clone();
    let a = fs.stat("/file_hardlink1").unwrap();
    let b = fs.stat("/testdir1/testfile1").unwrap();
    assert_eq!((a.id, a.size), (b.id, b.size));
    assert_eq!(a.id, Some(21));
    assert_eq!(
        sha256(fs.open("/file_hardlink1").unwrap().as_ref()),
        sha256(fs.open("/testdir1/testfile1").unwrap().as_ref())
    );
    let l = fs.stat("/file_symboliclink1").unwrap();
    assert_eq!(l.kind, EntryKind::Symlink);
    assert!(l.link_target.is_some());
    assert!(fs.list_dir("/testdir1/testfile1").is_err());
    assert!(matches!(
        fs.stat("/no/such"),
        Err(masf_evidence::Error::NoEntry { .. })
    ));
}

fn copy() -> Vec<u8> {
    corpus::bytes("fs/hfs/dfvfs-hfsplus.raw")
}

fn open_mem(data: Vec<u8>) -> masf_evidence::Result<Arc<dyn FileSystem>> {
    hfsplus::open(Arc::new(Memory::new(data, "hfs copy")) as Bytes)
}

/// Catalog file's first extent and node size, from the header.
fn catalog_at(d: &[u8]) -> (usize, usize) {
    let vh = &d[1024..1536];
    let block = u32::from_be_bytes(vh[40..44].try_into().unwrap()) as usize;
    let start = u32::from_be_bytes(vh[272 + 16..272 + 20].try_into().unwrap()) as usize;
    let at = start * block;
    let node = u16::from_be_bytes(d[at + 32..at + 34].try_into().unwrap()) as usize;
    (at, node)
}

#[test]
fn damaged_copies_give_typed_errors_or_diagnostics() {
    // Truncated inside the catalog: a typed error.
    let d = copy();
    let (cat, node) = catalog_at(&d);
    let err = open_mem(d[..cat + node / 2].to_vec()).err().expect("error");
    assert!(
        matches!(
            err,
            masf_evidence::Error::Corrupt { .. } | masf_evidence::Error::Truncated { .. }
        ),
        "{err}"
    );
    // No volume header.
    let mut d = copy();
    d[1024] = b'X';
    assert!(matches!(
        open_mem(d).err(),
        Some(masf_evidence::Error::Corrupt { offset: 1024, .. })
    ));
    // The first leaf node made an index node: the walk stops with a diagnostic.
    let d = copy();
    let first_leaf = u32::from_be_bytes(d[cat + 24..cat + 28].try_into().unwrap()) as usize;
    let mut bad = d.clone();
    bad[cat + first_leaf * node + 8] = 0;
    match open_mem(bad) {
        Ok(fs) => assert!(
            fs.diagnostics().iter().any(|m| m.contains("not a leaf")),
            "{:?}",
            fs.diagnostics()
        ),
        Err(e) => assert!(matches!(e, masf_evidence::Error::Corrupt { .. }), "{e}"),
    }
    // The first leaf linked to itself: a loop is reported, the entries read stay readable.
    let mut looped = d.clone();
    let at = cat + first_leaf * node;
    looped[at..at + 4].copy_from_slice(&(first_leaf as u32).to_be_bytes());
    let fs = open_mem(looped).unwrap();
    assert!(
        fs.diagnostics().iter().any(|m| m.contains("loops")),
        "{:?}",
        fs.diagnostics()
    );
    assert!(!fs.list_dir("/").unwrap().is_empty());
    // Every single-byte corruption of the catalog's first node: never a panic.
    for i in (0..node).step_by(7) {
        let mut m = d.clone();
        m[at + i] ^= 0xff;
        if let Ok(fs) = open_mem(m) {
            let _ = fs.list_dir("/");
        }
    }
}
