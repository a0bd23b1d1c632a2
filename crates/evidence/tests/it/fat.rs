//! FAT12/16/32: fixtures made with mkfs.fat + mtools (tests/fixtures/fat), the public rust-fatfs
//! images with their `fls` oracles, `fatfs` as a second reader, and mutated volumes.
//!
//! Comparison rules with `fls -r -p`: lines for the volume label (`(Volume Label Entry)`) and
//! the virtual entries TSK synthesises (`$MBR`, `$FAT1`, `$FAT2`, `$OrphanFiles`, types `v/v`
//! and `V/V`) are left out; every other line must match one of our entries exactly on kind
//! (`r`/`d`), deleted flag, address (our `id`) and path, and the reverse.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_evidence::Error;
use masf_evidence::bytes::{Bytes, Memory, Reader};
use masf_evidence::fat;
use masf_evidence::fs::{Entry, EntryKind, FileSystem, RawTime, TimeRole};
use masf_testkit::corpus;

/// The repository root.
pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A gzip-compressed fixture, decompressed into memory.
pub(crate) fn gunzip(rel: &str) -> Vec<u8> {
    let path = repo().join(rel);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    out
}

pub(crate) fn mem(data: Vec<u8>, name: &str) -> Bytes {
    Arc::new(Memory::new(data, name))
}

pub(crate) fn read_all(b: &Bytes) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; usize::try_from(b.len()).expect("fits")];
    b.read_exact_at(0, &mut out)?;
    Ok(out)
}

/// Every entry below the root, depth first; errors are collected, not fatal.
pub(crate) fn walk_lenient(fs: &dyn FileSystem) -> (Vec<Entry>, Vec<Error>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    let mut stack = vec![("/".to_string(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        assert!(depth < 64, "walk deeper than 64 levels at {dir}");
        match fs.list_dir(&dir) {
            Ok(list) => {
                for e in list {
                    if e.kind == EntryKind::Dir {
                        stack.push((e.path.clone(), depth + 1));
                    }
                    entries.push(e);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    (entries, errors)
}

pub(crate) fn walk(fs: &dyn FileSystem) -> Vec<Entry> {
    let (entries, errors) = walk_lenient(fs);
    assert!(errors.is_empty(), "walk errors: {errors:?}");
    entries
}

/// One line of `fls -r -p`: (type, deleted, address, path).
pub(crate) fn parse_fls(text: &str) -> Vec<(String, bool, String, String)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (left, path) = l
                .split_once(":\t")
                .unwrap_or_else(|| panic!("fls line {l:?}"));
            let toks: Vec<&str> = left.split_whitespace().collect();
            let deleted = toks.contains(&"*");
            let addr = toks.last().copied().unwrap_or_default().to_string();
            (toks[0].to_string(), deleted, addr, format!("/{path}"))
        })
        .collect()
}

/// Our entries in fls's terms: (kind letter, deleted, address, path).
fn ours_as_fls(fs: &dyn FileSystem) -> Vec<(char, bool, String, String)> {
    let mut v: Vec<_> = walk(fs)
        .into_iter()
        .map(|e| {
            let k = if e.kind == EntryKind::Dir { 'd' } else { 'r' };
            (k, e.deleted, e.id.expect("FAT ids").to_string(), e.path)
        })
        .collect();
    v.sort();
    v
}

fn fls_fat(text: &str) -> Vec<(char, bool, String, String)> {
    let mut v: Vec<_> = parse_fls(text)
        .into_iter()
        .filter(|(ty, _, _, path)| {
            !path.ends_with("(Volume Label Entry)") && ty != "v/v" && ty != "V/V"
        })
        .map(|(ty, del, addr, path)| {
            let k = if ty.ends_with('d') { 'd' } else { 'r' };
            (k, del, addr, path)
        })
        .collect();
    v.sort();
    v
}

fn fixture(name: &str) -> Arc<dyn FileSystem> {
    let data = gunzip(&format!("tests/fixtures/fat/{name}.img.gz"));
    fat::open(mem(data, name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The source folder: path ("/a/b") → Some(content) for files, None for directories.
fn source() -> BTreeMap<String, Option<Vec<u8>>> {
    let root = repo().join("tests/fixtures/fat/source");
    let mut out = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("source dir") {
            let p = e.expect("entry").path();
            let rel = format!(
                "/{}",
                p.strip_prefix(&root)
                    .expect("prefix")
                    .to_str()
                    .expect("utf-8")
            );
            if p.is_dir() {
                out.insert(rel, None);
                stack.push(p);
            } else {
                out.insert(rel, Some(std::fs::read(&p).expect("read")));
            }
        }
    }
    out
}

fn deleted_sources() -> Vec<String> {
    std::fs::read_to_string(repo().join("tests/fixtures/fat/deleted.txt"))
        .expect("deleted.txt")
        .lines()
        .map(|l| format!("/{}", l.trim_end_matches('/')))
        .collect()
}

#[test]
fn live_files_read_back_byte_exact_on_fat12_16_32() {
    let src = source();
    let deleted = deleted_sources();
    for (name, format) in [("fat12", "fat12"), ("fat16", "fat16"), ("fat32", "fat32")] {
        let fs = fixture(name);
        assert_eq!(fs.format(), format);
        let live: BTreeMap<String, Entry> = walk(fs.as_ref())
            .into_iter()
            .filter(|e| !e.deleted)
            .map(|e| (e.path.clone(), e))
            .collect();
        let expected: BTreeMap<&String, &Option<Vec<u8>>> = src
            .iter()
            .filter(|(p, _)| {
                !deleted
                    .iter()
                    .any(|d| *p == d || p.starts_with(&format!("{d}/")))
            })
            .collect();
        assert_eq!(
            live.keys().collect::<Vec<_>>(),
            expected.keys().copied().collect::<Vec<_>>(),
            "{name}: live paths"
        );
        for (path, content) in expected {
            let e = &live[path];
            match content {
                None => assert_eq!(e.kind, EntryKind::Dir, "{name}:{path}"),
                Some(bytes) => {
                    assert_eq!(e.kind, EntryKind::File, "{name}:{path}");
                    assert_eq!(e.size, bytes.len() as u64, "{name}:{path}");
                    let got = read_all(&fs.open(path).expect("open")).expect("read");
                    assert!(got == *bytes, "{name}:{path}: content differs");
                }
            }
        }
    }
}

#[test]
fn listings_match_fls_including_deleted_entries() {
    for name in ["fat12", "fat16", "fat32"] {
        let fs = fixture(name);
        let oracle =
            std::fs::read_to_string(repo().join(format!("tests/fixtures/fat/{name}.fls.txt")))
                .expect("oracle");
        assert_eq!(ours_as_fls(fs.as_ref()), fls_fat(&oracle), "{name}");
    }
    for (img, oracle) in [
        ("rust-fatfs-fat12.img", "fat12.fls.txt"),
        ("rust-fatfs-fat16.img", "fat16.fls.txt"),
    ] {
        let fs = fat::open(mem(corpus::bytes(&format!("fs/fat/{img}")), img)).expect(img);
        let oracle = corpus::text(&format!("fs/oracles/fls/{oracle}"));
        assert_eq!(ours_as_fls(fs.as_ref()), fls_fat(&oracle), "{img}");
    }
}

#[test]
fn deleted_entries_are_flagged_and_recovered_best_effort() {
    let src = source();
    let content = |p: &str| src[p].clone().expect("file");
    for name in ["fat12", "fat16", "fat32"] {
        let fs = fixture(name);
        for (path, origin, kind) in [
            (
                "/to be deleted (long name).txt",
                "/to be deleted (long name).txt",
                EntryKind::File,
            ),
            ("/_ONE.TXT", "/GONE.TXT", EntryKind::File),
            ("/_lddir", "", EntryKind::Dir),
            ("/_lddir/_nside.txt", "/olddir/inside.txt", EntryKind::File),
        ] {
            let e = fs
                .stat(path)
                .unwrap_or_else(|e| panic!("{name}:{path}: {e}"));
            assert!(e.deleted, "{name}:{path} not flagged deleted");
            assert_eq!(e.kind, kind, "{name}:{path}");
            if kind == EntryKind::File {
                let want = content(origin);
                assert_eq!(e.size, want.len() as u64);
                let stream = fs.open(path).expect("open deleted");
                assert!(
                    stream.layer_name().contains("best effort"),
                    "{}",
                    stream.layer_name()
                );
                assert_eq!(read_all(&stream).expect("read"), want, "{name}:{path}");
            }
        }
        // The deleted long name is listed beside the live files of the root.
        let root = fs.list_dir("/").expect("root");
        assert!(
            root.iter()
                .any(|e| e.name == "to be deleted (long name).txt" && e.deleted)
        );
        assert!(
            root.windows(2).all(|w| w[0].name < w[1].name),
            "sorted by name"
        );
    }
}

#[test]
fn info_reports_type_label_and_cluster_size() {
    for (name, ty, cluster) in [
        ("fat12", fat::FatType::Fat12, 512),
        ("fat16", fat::FatType::Fat16, 1024),
        ("fat32", fat::FatType::Fat32, 512),
    ] {
        let data = gunzip(&format!("tests/fixtures/fat/{name}.img.gz"));
        let fs = fat::FatFs::load(mem(data, name)).expect(name);
        let info = fs.info();
        assert_eq!(info.fat_type, ty);
        assert_eq!(info.cluster_size, cluster);
        assert_eq!(info.volume_id, Some(0x1234_ABCD));
        let label = format!("MASF{}", &name[3..]);
        assert_eq!(info.boot_label.as_deref(), Some(label.as_str()));
        assert_eq!(info.root_label.as_deref(), Some(label.as_str()));
        assert!(fs.diagnostics().is_empty(), "{:?}", fs.diagnostics());
        if ty == fat::FatType::Fat32 {
            assert!(info.cluster_count >= 65525);
        }
    }
}

fn fat_words(dt: fatfs::DateTime) -> (u16, u16, u8) {
    let d = dt.date;
    let t = dt.time;
    let date = ((d.year - 1980) << 9) | (d.month << 5) | d.day;
    let time = (t.hour << 11) | (t.min << 5) | (t.sec / 2);
    let centis = ((t.sec % 2) * 100 + t.millis / 10) as u8;
    (date, time, centis)
}

fn time_of(e: &Entry, role: TimeRole) -> Option<(u16, u16, u8)> {
    e.times
        .iter()
        .find(|t| t.role == role)
        .map(|t| match t.raw {
            RawTime::FatLocal { date, time, centis } => (date, time, centis),
            other => panic!("unexpected encoding {other:?}"),
        })
}

/// `fatfs` reads the same live tree: same names, kinds, sizes, times and bytes.
fn compare_with_fatfs(fs: &dyn FileSystem, data: Vec<u8>, label: &str) -> usize {
    let reader = Reader::new(mem(data, label));
    let other = fatfs::FileSystem::new(reader, fatfs::FsOptions::new()).expect("fatfs opens");
    let mut checked = 0;
    let mut stack = vec![("/".to_string(), other.root_dir())];
    while let Some((path, dir)) = stack.pop() {
        let ours: Vec<Entry> = fs
            .list_dir(&path)
            .expect("list")
            .into_iter()
            .filter(|e| !e.deleted)
            .collect();
        let mut theirs = Vec::new();
        for entry in dir.iter() {
            let entry = entry.expect("fatfs entry");
            let name = entry.file_name();
            if name == "." || name == ".." {
                continue;
            }
            let p = if path == "/" {
                format!("/{name}")
            } else {
                format!("{path}/{name}")
            };
            let mine = ours
                .iter()
                .find(|e| e.path == p)
                .unwrap_or_else(|| panic!("{label}: {p} missing"));
            assert_eq!(mine.kind == EntryKind::Dir, entry.is_dir(), "{label}:{p}");
            let (date, time, _) = fat_words(entry.modified());
            assert_eq!(
                time_of(mine, TimeRole::Modified),
                Some((date, time, 0)),
                "{label}:{p} modified"
            );
            assert_eq!(
                time_of(mine, TimeRole::Created),
                Some(fat_words(entry.created())),
                "{label}:{p} created"
            );
            let a = entry.accessed();
            let adate = ((a.year - 1980) << 9) | (a.month << 5) | a.day;
            assert_eq!(
                time_of(mine, TimeRole::Accessed),
                Some((adate, 0, 0)),
                "{label}:{p} accessed"
            );
            if entry.is_dir() {
                stack.push((p.clone(), entry.to_dir()));
            } else {
                assert_eq!(mine.size, entry.len(), "{label}:{p}");
                let mut want = Vec::new();
                entry.to_file().read_to_end(&mut want).expect("fatfs read");
                assert_eq!(
                    read_all(&fs.open(&p).expect("open")).expect("read"),
                    want,
                    "{label}:{p}"
                );
            }
            theirs.push(p);
            checked += 1;
        }
        assert_eq!(ours.len(), theirs.len(), "{label}: {path} entry count");
    }
    checked
}

#[test]
fn fatfs_agrees_on_every_live_entry() {
    for name in ["fat12", "fat16", "fat32"] {
        let data = gunzip(&format!("tests/fixtures/fat/{name}.img.gz"));
        let fs = fat::open(mem(data.clone(), name)).expect(name);
        assert!(compare_with_fatfs(fs.as_ref(), data, name) >= 14);
    }
    for img in ["rust-fatfs-fat12.img", "rust-fatfs-fat16.img"] {
        let data = corpus::bytes(&format!("fs/fat/{img}"));
        let fs = fat::open(mem(data.clone(), img)).expect(img);
        assert!(compare_with_fatfs(fs.as_ref(), data, img) >= 8);
    }
}

fn mutated(name: &str) -> Result<Arc<dyn FileSystem>, Error> {
    fat::open(mem(
        gunzip(&format!("tests/fixtures/fat/mutated/{name}.img.gz")),
        name,
    ))
}

fn detail(e: &Error) -> String {
    e.to_string()
}

#[test]
fn mutated_volumes_give_typed_errors() {
    // Boot-sector damage is refused at open, naming the field's offset.
    let corrupt_at = |name: &str, want: u64| match mutated(name) {
        Err(Error::Corrupt { offset, .. }) => assert_eq!(offset, want, "{name}"),
        Err(other) => panic!("{name}: unexpected {other}"),
        Ok(_) => panic!("{name}: opened"),
    };
    corrupt_at("bytes-per-sector-zero", 11);
    corrupt_at("sectors-per-cluster-zero", 13);
    corrupt_at("sectors-per-cluster-three", 13);
    corrupt_at("fat-count-zero", 16);
    assert!(matches!(
        mutated("sectors-per-fat-zero"),
        Err(Error::Corrupt { .. })
    ));
    assert!(matches!(
        mutated("total-sectors-huge"),
        Err(Error::Corrupt { .. })
    ));
    assert!(matches!(
        mutated("truncated-boot"),
        Err(Error::Truncated { .. })
    ));

    // The data area is missing: opening works, reading a file fails as truncated.
    let fs = mutated("truncated-data").expect("opens");
    assert!(!fs.diagnostics().is_empty());
    assert!(matches!(
        fs.open("/multi-cluster.txt").and_then(|b| read_all(&b)),
        Err(Error::Truncated { .. })
    ));

    let fs = mutated("file-chain-loop").expect("opens");
    let err = fs.open("/multi-cluster.txt").err().expect("loop detected");
    assert!(
        matches!(err, Error::Corrupt { .. }) && detail(&err).contains("loop"),
        "{err}"
    );

    let fs = mutated("dir-chain-loop").expect("opens");
    let err = fs.list_dir("/dir1").expect_err("loop detected");
    assert!(
        matches!(err, Error::Corrupt { .. }) && detail(&err).contains("loop"),
        "{err}"
    );

    let fs = mutated("file-size-huge").expect("opens");
    assert_eq!(
        fs.stat("/multi-cluster.txt").expect("stat").size,
        0xFFFF_FFFF
    );
    assert!(matches!(
        fs.open("/multi-cluster.txt"),
        Err(Error::Corrupt { .. })
    ));

    let fs = mutated("cluster-out-of-range").expect("opens");
    assert!(matches!(fs.open("/README.TXT"), Err(Error::Corrupt { .. })));

    let fs = mutated("dir-contains-itself").expect("opens");
    assert!(fs.list_dir("/dir1").is_ok());
    let err = fs.list_dir("/dir1/dir2").expect_err("loop detected");
    assert!(detail(&err).contains("directory loop"), "{err}");

    let fs = mutated("dir-points-to-root").expect("opens");
    let err = fs.list_dir("/dir1").expect_err("loop detected");
    assert!(detail(&err).contains("directory loop"), "{err}");

    let fs = mutated("lfn-bad-checksum").expect("opens");
    let names: Vec<String> = fs
        .list_dir("/")
        .expect("root")
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert!(names.contains(&"ALONGF~1.TXT".to_string()), "{names:?}");
    assert!(!names.contains(&"A long file name with spaces.txt".to_string()));
}

#[test]
fn every_mutated_volume_can_be_walked_and_read_without_panic() {
    let dir = repo().join("tests/fixtures/fat/mutated");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("mutated dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".img.gz").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 15);
    for name in names {
        let Ok(fs) = mutated(&name) else { continue };
        let (entries, _errors) = walk_lenient(fs.as_ref());
        for e in entries.iter().filter(|e| e.kind == EntryKind::File) {
            let _ = fs.stat(&e.path);
            if let Ok(b) = fs.open(&e.path) {
                let _ = read_all(&b);
            }
        }
    }
}

#[test]
fn paths_resolve_case_insensitively_and_reject_wrong_kinds() {
    let fs = fixture("fat16");
    assert_eq!(fs.stat("/readme.txt").expect("stat").path, "/README.TXT");
    assert_eq!(fs.stat("/").expect("root").id, Some(2));
    assert!(matches!(fs.open("/dir1"), Err(Error::WrongKind { .. })));
    assert!(matches!(
        fs.list_dir("/README.TXT"),
        Err(Error::WrongKind { .. })
    ));
    assert!(matches!(fs.stat("/nope"), Err(Error::NoEntry { .. })));
    assert!(matches!(
        fs.stat("/README.TXT/x"),
        Err(Error::WrongKind { .. })
    ));
    let deep = fs.stat("/dir1/dir2/dir3/deep.txt").expect("deep");
    assert_eq!(deep.name, "deep.txt");
    assert!(time_of(&deep, TimeRole::Modified).is_some());
}

/// A small deterministic generator for the bit-flip sweeps (xorshift64*).
pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Opens, walks and reads everything of a damaged image; only typed errors may come back.
pub(crate) fn exercise(open: impl Fn(Bytes) -> Result<Arc<dyn FileSystem>, Error>, data: Vec<u8>) {
    let Ok(fs) = open(mem(data, "flipped")) else {
        return;
    };
    let (entries, _) = walk_lenient(fs.as_ref());
    for e in entries.iter().filter(|e| e.kind == EntryKind::File) {
        if let Ok(b) = fs.open(&e.path) {
            // Bound what a corrupt size could make the test allocate.
            if b.len() <= 64 << 20 {
                let _ = read_all(&b);
            }
        }
    }
    let _ = fs.diagnostics();
}

#[test]
fn random_bit_flips_in_metadata_never_panic() {
    let mut rng = Rng(0x5EED_FA7F_A7F0_0001);
    for name in ["fat12", "fat16", "fat32"] {
        let good = gunzip(&format!("tests/fixtures/fat/{name}.img.gz"));
        let info = fat::FatFs::load(mem(good.clone(), name))
            .expect("good")
            .info()
            .clone();
        // Boot sector, FATs, root directory and the first data clusters.
        let span = (info.data_offset as usize + 64 * info.cluster_size as usize).min(good.len());
        for _ in 0..150 {
            let mut d = good.clone();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(span);
                d[at] ^= 1 << rng.below(8);
            }
            exercise(fat::open, d);
        }
    }
}
