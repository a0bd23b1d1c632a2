//! F2FS: fixtures made with mkfs.f2fs + sload.f2fs from `tests/fixtures/f2fs/source/` read back
//! byte-exact; listings (names and inode numbers) equal `fsck.f2fs -t`'s tree; the corpus's
//! empty F2FS images open with the oracle's label, UUID and features; a GPT disk holding F2FS
//! stacks in the scanner; damaged images give typed errors without panicking or hanging.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_evidence::Error;
use masf_evidence::bytes::{Bytes, Memory};
use masf_evidence::f2fs::{self, F2fs};
use masf_evidence::fs::{Entry, EntryKind, FileSystem, RawTime, TimeRole};
use masf_testkit::corpus;
use sha2::{Digest, Sha256};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/f2fs")
}

fn unzstd(path: &Path) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut dec = ruzstd::decoding::StreamingDecoder::new(std::io::BufReader::new(file))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    dec.read_to_end(&mut out).unwrap();
    out
}

fn mem(data: Vec<u8>) -> Bytes {
    Arc::new(Memory::new(data, "image"))
}

/// A fixture image, decompressed once per test process (each is 128 MiB; several tests read
/// the same one).
fn image(name: &str) -> Vec<u8> {
    static CACHE: std::sync::Mutex<Vec<(String, Arc<Vec<u8>>)>> = std::sync::Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, data)) = cache.iter().find(|(n, _)| n == name) {
        return data.as_ref().clone();
    }
    let data = Arc::new(unzstd(&fixtures().join(name)));
    cache.push((name.to_string(), data.clone()));
    data.as_ref().clone()
}

fn open_fixture(name: &str) -> F2fs {
    F2fs::open(mem(image(name))).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every entry of the tree, depth first, with the folders that could not be listed.
fn walk(fs: &dyn FileSystem) -> (Vec<Entry>, Vec<(String, Error)>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    let mut pending = vec!["/".to_string()];
    while let Some(dir) = pending.pop() {
        match fs.list_dir(&dir) {
            Ok(list) => {
                for e in list {
                    // A deleted folder's name survives in its parent; it is not listed.
                    if e.kind == EntryKind::Dir && !e.deleted {
                        pending.push(e.path.clone());
                    }
                    entries.push(e);
                }
            }
            Err(e) => errors.push((dir, e)),
        }
    }
    (entries, errors)
}

fn read_all(fs: &dyn FileSystem, path: &str) -> Result<Vec<u8>, Error> {
    let f = fs.open(path)?;
    let mut buf = vec![0u8; f.len() as usize];
    // Odd-sized pieces, so reads straddle blocks and node boundaries.
    let mut at = 0usize;
    while at < buf.len() {
        let n = (buf.len() - at).min(300_001);
        f.read_exact_at(at as u64, &mut buf[at..at + n])?;
        at += n;
    }
    Ok(buf)
}

/// big.bin as generate.sh writes it: block k is 256 lines "block %09d\n", then 123 bytes of
/// block 3200's pattern.
fn big_bin() -> Vec<u8> {
    let mut out = Vec::with_capacity(3201 * 4096);
    for k in 0..3200 {
        out.extend(format!("block {k:09}\n").repeat(256).into_bytes());
    }
    out.extend(&format!("block {:09}\n", 3200).repeat(8).into_bytes()[..123]);
    out
}

/// What the staged source folder holds: kinds by path, file contents, link targets.
struct Expected {
    kinds: BTreeSet<(String, &'static str)>,
    files: Vec<(String, Vec<u8>)>,
    links: Vec<(String, String)>,
}

fn expected_tree() -> Expected {
    let root = fixtures().join("source");
    let mut exp = Expected {
        kinds: BTreeSet::new(),
        files: Vec::new(),
        links: Vec::new(),
    };
    let mut pending = vec![(root, String::new())];
    while let Some((dir, rel)) = pending.pop() {
        for item in std::fs::read_dir(&dir).unwrap() {
            let item = item.unwrap();
            let name = item.file_name().into_string().unwrap();
            let path = format!("{rel}/{name}");
            let meta = std::fs::symlink_metadata(item.path()).unwrap();
            if meta.is_dir() {
                exp.kinds.insert((path.clone(), "dir"));
                pending.push((item.path(), path));
            } else if meta.file_type().is_symlink() {
                let target = std::fs::read_link(item.path()).unwrap();
                exp.kinds.insert((path.clone(), "symlink"));
                exp.links.push((path, target.to_str().unwrap().to_string()));
            } else {
                exp.kinds.insert((path.clone(), "file"));
                exp.files.push((path, std::fs::read(item.path()).unwrap()));
            }
        }
    }
    // Added by generate.sh's staging step.
    let medium = std::fs::read(fixtures().join("source/medium.txt")).unwrap();
    exp.kinds.insert(("/hard-link.txt".to_string(), "file"));
    exp.files.push(("/hard-link.txt".to_string(), medium));
    exp.kinds.insert(("/emptydir".to_string(), "dir"));
    exp.kinds.insert(("/big.bin".to_string(), "file"));
    exp.files.push(("/big.bin".to_string(), big_bin()));
    exp
}

fn kind_name(k: EntryKind) -> &'static str {
    match k {
        EntryKind::File => "file",
        EntryKind::Dir => "dir",
        EntryKind::Symlink => "symlink",
        EntryKind::Other => "other",
    }
}

/// Checks one fixture against the source folder: same tree, byte-exact files, same link
/// targets. `dumped` names files whose oracle is instead the SHA-256 of what `dump.f2fs`
/// extracts (see generate.sh: sload.f2fs writes one file inconsistently).
fn check_fixture(name: &str, extra_dirs: &[&str], dumped: &[(&str, &str)]) {
    let fs = open_fixture(name);
    assert_eq!(fs.format(), "f2fs");
    let (entries, errors) = walk(&fs);
    assert!(errors.is_empty(), "{name}: {errors:?}");
    let mut exp = expected_tree();
    for d in extra_dirs {
        exp.kinds.insert((d.to_string(), "dir"));
    }
    let got: BTreeSet<(String, &str)> = entries
        .iter()
        .map(|e| (e.path.clone(), kind_name(e.kind)))
        .collect();
    assert_eq!(
        got, exp.kinds,
        "{name}: tree differs from the source folder"
    );
    for (path, want) in &exp.files {
        let data = read_all(&fs, path).unwrap_or_else(|e| panic!("{name}{path}: {e}"));
        assert_eq!(fs.stat(path).unwrap().size, want.len() as u64, "{path}");
        match dumped.iter().find(|(p, _)| p == path) {
            Some((_, sha)) => assert_eq!(
                hex::encode(Sha256::digest(&data)),
                *sha,
                "{name}{path}: differs from dump.f2fs"
            ),
            None => assert!(data == *want, "{name}{path}: content differs"),
        }
    }
    for (path, target) in &exp.links {
        let e = fs.stat(path).unwrap();
        assert_eq!(e.link_target.as_deref(), Some(target.as_str()), "{path}");
    }
    // Listings sorted by name, every entry with its inode number.
    for dir in ["/", "/many", "/nested/a"] {
        let list = fs.list_dir(dir).unwrap();
        let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "{dir}");
        assert!(list.iter().all(|e| e.id.is_some()));
    }
    assert_eq!(fs.list_dir("/many").unwrap().len(), 300);
    // A folder's size is its dentry blocks' (more than one for /many's 300 names).
    assert_eq!(fs.stat("/nested").unwrap().size % 4096, 0);
    assert!(fs.stat("/many").unwrap().size > 4096);
    // The hard link is one inode with two names.
    let a = fs.stat("/medium.txt").unwrap();
    let b = fs.stat("/hard-link.txt").unwrap();
    assert_eq!(a.id, b.id);
    // Only the notes that name a feature at open.
    let notes = fs.diagnostics();
    assert!(
        notes
            .iter()
            .all(|n| ["encrypt:", "casefold:", "compression:"]
                .iter()
                .any(|p| n.starts_with(p))),
        "{notes:?}"
    );
}

#[test]
fn plain_f2fs_reads_back_byte_exact() {
    check_fixture("plain.f2fs.img.zst", &[], &[]);
}

#[test]
fn extra_attr_f2fs_reads_back_byte_exact() {
    let oracle =
        std::fs::read_to_string(fixtures().join("oracles/extra.big.bin.dump.sha256")).unwrap();
    let sha = oracle.split_whitespace().next().unwrap();
    check_fixture("extra.f2fs.img.zst", &["/lost+found"], &[("/big.bin", sha)]);
}

#[test]
fn android_feature_set_f2fs_reads_back_byte_exact() {
    check_fixture("android.f2fs.img.zst", &[], &[]);
    let fs = open_fixture("android.f2fs.img.zst");
    assert_eq!(
        fs.info().features,
        [
            "encrypt",
            "extra_attr",
            "project_quota",
            "inode_checksum",
            "quota_ino",
            "verity",
            "sb_checksum",
            "casefold",
            "compression"
        ]
    );
    assert_eq!(fs.diagnostics().len(), 3, "{:?}", fs.diagnostics());
    // Names are matched as stored, also on a casefold volume.
    assert!(fs.stat("/hello.txt").is_ok());
    assert!(matches!(fs.stat("/HELLO.TXT"), Err(Error::NoEntry { .. })));
}

#[test]
fn encrypted_and_crafted_compressed_files_are_refused_by_name() {
    // mutate.sh's crafted-flags: the fscrypt, compression and casefold flags sload.f2fs
    // cannot set, on a copy of android.f2fs.img.
    let fs = F2fs::open(mutated("crafted-flags")).unwrap();
    let names: Vec<String> = fs
        .list_dir("/nested/a")
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, ["b", "note.txt"]);
    match fs.open("/nested/a/note.txt") {
        Err(Error::Encrypted { detail, .. }) => {
            assert!(
                detail.contains("/nested/a/note.txt") && detail.contains("fscrypt"),
                "{detail}"
            )
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    // Listing the encrypted folder says so.
    fs.list_dir("/nested").unwrap();
    assert!(
        fs.diagnostics()
            .iter()
            .any(|n| n.starts_with("/nested: folder") && n.contains("fscrypt")),
        "{:?}",
        fs.diagnostics()
    );
    // Marked LZ4-compressed with no cluster size (the crafted flag alone): a typed error
    // naming the impossible cluster, never a guess (compressed.rs reads real LZ4 clusters).
    match fs.open("/medium.txt") {
        Err(Error::Corrupt { detail, .. }) => {
            assert!(detail.contains("clusters of 2^0 blocks"), "{detail}")
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    // A casefold folder is read as any other.
    assert_eq!(fs.list_dir("/many").unwrap().len(), 300);
    assert!(read_all(&fs, "/hello.txt").is_ok());
}

#[test]
fn times_are_raw_and_creation_times_come_with_inode_crtime() {
    let stamp = RawTime::Unix {
        secs: 1_704_164_645,
        nanos: 0,
    };
    let plain = open_fixture("plain.f2fs.img.zst");
    let e = plain.stat("/hello.txt").unwrap();
    let roles: Vec<TimeRole> = e.times.iter().map(|t| t.role).collect();
    assert_eq!(
        roles,
        [TimeRole::Modified, TimeRole::Accessed, TimeRole::Changed]
    );
    assert!(e.times.iter().all(|t| t.raw == stamp), "{:?}", e.times);
    let extra = open_fixture("extra.f2fs.img.zst");
    let e = extra.stat("/hello.txt").unwrap();
    // sload.f2fs leaves i_crtime 0 (dump.f2fs shows `i_crtime [0x 0 : 0]`): kept as stored.
    let created = e.times.iter().find(|t| t.role == TimeRole::Created);
    assert_eq!(
        created.map(|t| t.raw),
        Some(RawTime::Unix { secs: 0, nanos: 0 }),
        "{:?}",
        e.times
    );
    assert_eq!(e.mode, Some(0o100644));
}

#[test]
fn info_names_label_uuid_features_and_checkpoint() {
    let plain = open_fixture("plain.f2fs.img.zst");
    let i = plain.info();
    assert_eq!(i.label, "masf-plain");
    assert_eq!(i.uuid, "5d1f3c2a-8b7e-4c6d-9a0f-1e2d3c4b5a69");
    assert!(i.features.is_empty(), "{:?}", i.features);
    assert_eq!(i.root_ino, 3);
    assert_eq!(i.superblock_copy, 0);
    let extra = open_fixture("extra.f2fs.img.zst");
    assert_eq!(
        extra.info().features,
        [
            "extra_attr",
            "inode_checksum",
            "flexible_inline_xattr",
            "inode_crtime",
            "lost_found",
            "sb_checksum"
        ]
    );
}

/// `fsck.f2fs -t`'s tree as (path, inode number): `|-- name <ino = 0x..>` lines, four
/// characters of indentation per level.
fn fsck_tree(text: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<String> = Vec::new();
    for line in text.lines() {
        let Some(pos) = line.find("|-- ") else {
            continue;
        };
        let Some(ino_at) = line.rfind(" <ino = 0x") else {
            continue;
        };
        let depth = pos / 4;
        let name = &line[pos + 4..ino_at];
        let hex = line[ino_at + 10..].split('>').next().unwrap();
        stack.truncate(depth);
        stack.push(name.to_string());
        out.insert(
            format!("/{}", stack.join("/")),
            u64::from_str_radix(hex, 16).unwrap(),
        );
    }
    out
}

#[test]
fn listings_and_inode_numbers_match_fsck_f2fs() {
    for (img, oracle) in [
        ("plain.f2fs.img.zst", "plain.f2fs.tree.txt"),
        ("extra.f2fs.img.zst", "extra.f2fs.tree.txt"),
        ("android.f2fs.img.zst", "android.f2fs.tree.txt"),
    ] {
        let text = std::fs::read_to_string(fixtures().join("oracles").join(oracle)).unwrap();
        let want = fsck_tree(&text);
        assert!(want.len() > 300, "{oracle}: {} entries", want.len());
        let fs = open_fixture(img);
        let (entries, _) = walk(&fs);
        let got: BTreeMap<String, u64> = entries
            .iter()
            .map(|e| (e.path.clone(), e.id.unwrap()))
            .collect();
        assert_eq!(got, want, "{img}");
    }
}

#[test]
fn the_scanner_stacks_f2fs_on_a_gpt_partition() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("disk.img");
    std::fs::write(&path, image("gpt-f2fs.img.zst")).unwrap();
    let scan = masf_evidence::scan::scan(&path).unwrap();
    let mut pending = vec![&scan.root];
    let mut found = None;
    while let Some(node) = pending.pop() {
        if let Some(fs) = &node.fs {
            found = Some(fs.clone());
        }
        pending.extend(node.children.iter());
    }
    let fs = found.expect("no file system stacked");
    assert_eq!(fs.format(), "f2fs");
    assert_eq!(
        read_all(fs.as_ref(), "/hello.txt").unwrap(),
        std::fs::read(fixtures().join("source/hello.txt")).unwrap()
    );
}

#[test]
fn corpus_f2fs_images_match_their_oracles() {
    // (corpus file, UUID, label, features) from fs/oracles/FS_ORACLES.md.
    let cases: [(&str, &str, &str, &[&str]); 2] = [
        (
            "fs/f2fs/blsforme-f2fs.img.zst",
            "d2c85810-4e75-4274-bc7d-a78267af7443",
            "blsforme testing",
            &[],
        ),
        (
            "fs/f2fs/gosqlite3-f2fs.img.gz",
            "bd05d15c-9d7c-4e0b-88c2-dab1abc7e876",
            "",
            &["extra_attr", "inode_checksum", "sb_checksum"],
        ),
    ];
    for (rel, uuid, label, features) in cases {
        let fs = F2fs::open(mem(corpus::decompressed_bytes(rel)))
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        let i = fs.info();
        assert_eq!(i.uuid, uuid, "{rel}");
        assert_eq!(i.label, label, "{rel}");
        if !features.is_empty() {
            assert_eq!(i.features, features, "{rel}");
        }
        let (entries, errors) = walk(&fs);
        assert!(errors.is_empty(), "{rel}: {errors:?}");
        assert!(
            entries.iter().all(|e| e.kind == EntryKind::Dir),
            "{rel}: {entries:?}"
        );
    }
}

#[test]
fn fixtures_match_their_checksums() {
    let sums = std::fs::read_to_string(fixtures().join("SHA256SUMS")).unwrap();
    let mut n = 0;
    for line in sums.lines() {
        let (hash, file) = line.split_once("  ").unwrap();
        let data = std::fs::read(fixtures().join(file)).unwrap();
        assert_eq!(hex::encode(Sha256::digest(&data)), hash, "{file}");
        n += 1;
    }
    assert!(n >= 5, "{n} fixtures listed");
}

#[test]
fn open_refuses_what_is_not_f2fs() {
    assert!(!f2fs::is_f2fs(mem(vec![0u8; 8192]).as_ref()));
    assert!(matches!(
        F2fs::open(mem(vec![0u8; 8192])),
        Err(Error::Corrupt { offset: 1024, .. })
    ));
    assert!(matches!(
        F2fs::open(mem(vec![0u8; 100])),
        Err(Error::Truncated { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// damaged images (tests/fixtures/f2fs/mutate.sh)

fn mutated(name: &str) -> Bytes {
    mem(image(&format!("mutated/{name}.img.zst")))
}

/// Walks everything a damaged volume offers, reading every file: the errors met, which must
/// all be typed (never a panic, never a hang).
fn exercise(fs: &dyn FileSystem) -> Vec<Error> {
    let (entries, mut errors) = walk(fs);
    let mut errors: Vec<Error> = errors.drain(..).map(|(_, e)| e).collect();
    for e in &entries {
        if e.kind == EntryKind::File
            && !e.deleted
            && let Err(err) = read_all(fs, &e.path)
        {
            errors.push(err);
        }
    }
    errors
}

#[test]
fn damaged_superblocks_fall_back_to_the_second_copy_or_are_refused() {
    for (name, why) in [
        ("sb0-geometry", "blocks per segment"),
        ("sb0-crc", "superblock CRC"),
    ] {
        let fs = F2fs::open(mutated(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(fs.info().superblock_copy, 1, "{name}");
        let notes = fs.diagnostics().join("\n");
        assert!(
            notes.contains("first superblock copy unusable") && notes.contains(why),
            "{name}: {notes}"
        );
        assert!(exercise(&fs).is_empty(), "{name}");
    }
    match F2fs::open(mutated("sb-both-geometry")) {
        Err(Error::Corrupt { offset, detail, .. }) => {
            assert_eq!(offset, 1024 + 20, "{detail}");
        }
        other => panic!("sb-both-geometry: {:?}", other.map(|_| ())),
    }
}

#[test]
fn a_block_count_near_u64_max_is_no_overflow() {
    // Both superblock copies claim 2^64 - 1 blocks (no sb_checksum on this image): every
    // geometry check passes and the image is far shorter than the volume, which is said.
    let mut d = image("plain.f2fs.img.zst");
    for at in [1024 + 36, 4096 + 1024 + 36] {
        d[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    }
    let fs = F2fs::open(mem(d)).unwrap();
    assert!(
        fs.diagnostics()
            .iter()
            .any(|n| n.contains("blocks past the end read as truncated"))
    );
    assert!(read_all(&fs, "/hello.txt").is_ok());
}

#[test]
fn damaged_checkpoints_fall_back_to_the_other_pack_or_are_refused() {
    let fs = F2fs::open(mutated("cp0-crc")).unwrap();
    assert_eq!(fs.info().checkpoint_pack, 1);
    let notes = fs.diagnostics().join("\n");
    assert!(notes.contains("pack 0: head CRC"), "{notes}");
    assert!(exercise(&fs).is_empty());
    match F2fs::open(mutated("cp-both-crc")) {
        Err(Error::Corrupt { offset, detail, .. }) => {
            assert_eq!(offset, 512 * 4096, "{detail}");
            assert!(detail.contains("no valid checkpoint pack"), "{detail}");
        }
        other => panic!("cp-both-crc: {:?}", other.map(|_| ())),
    }
    match F2fs::open(mutated("nat-journal-count")) {
        Err(Error::Corrupt { detail, .. }) => {
            assert!(detail.contains("NAT journal of 500 entries"), "{detail}");
        }
        other => panic!("nat-journal-count: {:?}", other.map(|_| ())),
    }
}

#[test]
fn truncated_images_name_where_they_end() {
    match F2fs::open(mutated("truncated-meta")) {
        Err(Error::Truncated { offset, .. }) => assert_eq!(offset, 1 << 20),
        other => panic!("truncated-meta: {:?}", other.map(|_| ())),
    }
    let fs = F2fs::open(mutated("truncated-data")).unwrap();
    let notes = fs.diagnostics().join("\n");
    assert!(
        notes.contains("blocks past the end read as truncated"),
        "{notes}"
    );
    let errors = exercise(&fs);
    assert!(!errors.is_empty());
    assert!(
        errors.iter().all(|e| matches!(e, Error::Truncated { .. })),
        "{errors:?}"
    );
}

#[test]
fn bad_node_addresses_and_footers_are_corrupt_and_the_rest_still_reads() {
    let fs = F2fs::open(mutated("nat-wild")).unwrap();
    match fs.stat("/hello.txt") {
        Err(Error::Corrupt { detail, .. }) => {
            assert!(detail.contains("outside the main area"), "{detail}")
        }
        other => panic!("nat-wild: {other:?}"),
    }
    // Still listed, from its dentry, with the reason kept.
    let root = fs.list_dir("/").unwrap();
    assert!(root.iter().any(|e| e.name == "hello.txt"));
    assert!(fs.diagnostics().join("\n").contains("/hello.txt: inode"));
    assert_eq!(
        read_all(&fs, "/medium.txt").unwrap(),
        std::fs::read(fixtures().join("source/medium.txt")).unwrap()
    );

    let fs = F2fs::open(mutated("footer-mismatch")).unwrap();
    match fs.open("/medium.txt") {
        Err(Error::Corrupt { detail, .. }) => assert!(detail.contains("says node"), "{detail}"),
        other => panic!("footer-mismatch: {:?}", other.map(|_| ())),
    }
    assert!(read_all(&fs, "/hello.txt").is_ok());
}

#[test]
fn folder_loops_end_in_an_error_not_a_hang() {
    let fs = F2fs::open(mutated("dir-loop")).unwrap();
    let errors = exercise(&fs);
    assert_eq!(errors.len(), 1, "{errors:?}");
    match &errors[0] {
        Error::Corrupt { detail, .. } => assert!(detail.contains("folder loop"), "{detail}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn names_unlinked_as_the_kernel_does_are_listed_deleted() {
    let fs = F2fs::open(mutated("deleted-names")).unwrap();
    let plain = open_fixture("plain.f2fs.img.zst");
    let many = fs.list_dir("/many").unwrap();
    assert_eq!(many.len(), 300);
    let deleted: Vec<&Entry> = many.iter().filter(|e| e.deleted).collect();
    assert_eq!(deleted.len(), 1, "{deleted:?}");
    let was = plain.stat("/many/file-150.txt").unwrap();
    assert_eq!(deleted[0].path, "/many/file-150.txt");
    assert_eq!(deleted[0].id, was.id);
    assert_eq!(deleted[0].kind, EntryKind::File);
    // Never resolved as a path.
    assert!(matches!(
        fs.stat("/many/file-150.txt"),
        Err(Error::NoEntry { .. })
    ));
    let a = fs.list_dir("/nested/a").unwrap();
    let names: Vec<(&str, bool)> = a.iter().map(|e| (e.name.as_str(), e.deleted)).collect();
    assert_eq!(names, [("b", false), ("note.txt", true)]);
    assert!(matches!(
        fs.open("/nested/a/note.txt"),
        Err(Error::NoEntry { .. })
    ));
    assert!(exercise(&fs).is_empty());
}

#[test]
fn absurd_sizes_are_too_large_not_allocations() {
    let fs = F2fs::open(mutated("huge-sizes")).unwrap();
    assert!(matches!(
        fs.open("/big.bin"),
        Err(Error::TooLarge { claimed, .. }) if claimed == 1 << 62
    ));
    assert!(matches!(
        fs.list_dir("/many"),
        Err(Error::TooLarge { claimed, .. }) if claimed == 1 << 40
    ));
    assert!(read_all(&fs, "/hello.txt").is_ok());
}

#[test]
fn a_tree_deeper_than_the_walk_bound_ends_in_too_deep() {
    let fs = open_fixture("deep.f2fs.img.zst");
    let (entries, errors) = walk(&fs);
    // Folders at depths 1..=512 are listed; the one at 512 holds the 513th, whose listing
    // is refused.
    assert_eq!(entries.len(), 513, "{errors:?}");
    assert_eq!(errors.len(), 1);
    match &errors[0].1 {
        Error::TooDeep { limit, path, .. } => {
            assert_eq!(*limit, 512);
            assert!(
                path.as_deref().is_some_and(|p| p.contains("levels")),
                "{path:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    let leaf = format!("{}/leaf.txt", "/d".repeat(600));
    assert!(matches!(fs.open(&leaf), Err(Error::TooDeep { .. })));
    let at_bound = "/d".repeat(512);
    assert_eq!(fs.stat(&at_bound).unwrap().kind, EntryKind::Dir);
}

#[test]
fn paths_deeper_than_the_bound_are_too_deep() {
    let fs = open_fixture("plain.f2fs.img.zst");
    let deep = "/a".repeat(10_000);
    assert!(matches!(fs.stat(&deep), Err(Error::TooDeep { .. })));
    assert!(matches!(
        fs.stat("/hello.txt/x"),
        Err(Error::WrongKind { .. })
    ));
    assert!(matches!(fs.stat("/nope"), Err(Error::NoEntry { .. })));
    assert!(matches!(fs.open("/many"), Err(Error::WrongKind { .. })));
}

#[test]
fn flipped_bytes_across_the_fuzz_seed_never_panic() {
    // The fuzz seed (mkfs.f2fs + sload.f2fs, as sparse block records): superblocks,
    // checkpoints, SIT, NAT, summaries, inodes and dentries. Flip one byte in every 41 of
    // each block and walk what opens.
    let seed = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/f2fs/seed-small.f2fs.blocks"),
    )
    .unwrap();
    assert!(f2fs::open(masf_evidence::fuzzing::sparse_blocks(&seed)).is_ok());
    let mut runs = 0;
    for at in (4..seed.len()).step_by(41) {
        // Not the record's block index: moving a block elsewhere is another test.
        if (at - 4) % (4 + 4096) < 4 {
            continue;
        }
        let mut d = seed.clone();
        d[at] ^= 0xA5;
        masf_evidence::fuzzing::run_target("f2fs", &d);
        runs += 1;
    }
    assert!(runs > 2000, "{runs}");
    // Every field of the superblock's geometry (the first 200 bytes, unprotected without
    // sb_checksum) set to extreme values in both copies (records 0 and 1: blocks 0 and 1).
    let copies = [4 + 4 + 1024, 4 + (4 + 4096) + 4 + 1024];
    for field in 0..200 {
        for value in [0xFF, 0x80, 0x00] {
            let mut d = seed.clone();
            for c in copies {
                d[c + field] = value;
            }
            masf_evidence::fuzzing::run_target("f2fs", &d);
        }
    }
    // The same for the header of checkpoint pack 0 (record 2: block 512), its CRC made
    // valid again, so the damaged fields are used rather than the other pack.
    let cp = 4 + 2 * (4 + 4096) + 4;
    assert_eq!(&seed[cp - 4..cp], &512u32.to_le_bytes());
    for field in 8..192 {
        for value in [0xFF, 0x80, 0x00] {
            let mut d = seed.clone();
            d[cp + field] = value;
            let crc = f2fs::crc32(&d[cp..cp + 4092]);
            d[cp + 4092..cp + 4096].copy_from_slice(&crc.to_le_bytes());
            masf_evidence::fuzzing::run_target("f2fs", &d);
        }
    }
}

/// make-compressed.sh's oracle: every file of the staged tree and its SHA-256.
fn compressed_oracle() -> Vec<(String, String)> {
    std::fs::read_to_string(fixtures().join("oracles/compressed.sha256"))
        .unwrap()
        .lines()
        .map(|l| {
            let (sha, path) = l.split_once("  ").unwrap();
            (path.to_string(), sha.to_string())
        })
        .collect()
}

#[test]
fn lz4_and_lzo_compressed_files_read_back_as_they_were_loaded() {
    // sload.f2fs -c -a lz4 (f2fs-tools 1.15 built with liblz4 by make-compressed.sh): clusters
    // of 4 blocks, LZ4-compressed where that saves a block, stored as is otherwise.
    let fs = open_fixture("compressed-lz4.f2fs.img.zst");
    assert!(fs.info().features.iter().any(|f| f == "compression"));
    let oracle = compressed_oracle();
    assert!(oracle.len() > 300, "{} files", oracle.len());
    for (path, sha) in &oracle {
        let data = read_all(&fs, path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(&hex::encode(Sha256::digest(&data)), sha, "{path}");
    }
    // The big files are read through their clusters; an unaligned read inside one.
    for path in ["/big.bin", "/noise.bin", "/tail.txt"] {
        let f = fs.open(path).unwrap();
        assert!(
            f.layer_name().contains("LZ4 clusters"),
            "{path}: {}",
            f.layer_name()
        );
    }
    let big = fs.open("/big.bin").unwrap();
    let mut piece = vec![0u8; 10_000];
    big.read_exact_at(16_384 * 7 + 1_000, &mut piece).unwrap();
    assert!(piece == big_bin()[16_384 * 7 + 1_000..16_384 * 7 + 11_000]);

    // The same tree with LZO clusters (sload.f2fs -c -a lzo).
    let lzo = open_fixture("compressed-lzo.f2fs.img.zst");
    for (path, sha) in &oracle {
        let data = read_all(&lzo, path).unwrap_or_else(|e| panic!("lzo {path}: {e}"));
        assert_eq!(&hex::encode(Sha256::digest(&data)), sha, "lzo {path}");
    }
    let f = lzo.open("/big.bin").unwrap();
    assert!(
        f.layer_name().contains("LZO clusters"),
        "{}",
        f.layer_name()
    );
}

/// A byte source over another with some bytes replaced.
struct Patched {
    base: Bytes,
    patches: Vec<(u64, u8)>,
}

impl masf_evidence::bytes::ByteSource for Patched {
    fn len(&self) -> u64 {
        self.base.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, Error> {
        let n = self.base.read_at(offset, buf)?;
        for &(at, b) in &self.patches {
            if at >= offset && at < offset + n as u64 {
                buf[(at - offset) as usize] = b;
            }
        }
        Ok(n)
    }

    fn layer_name(&self) -> String {
        "patched".into()
    }
}

#[test]
fn damaged_lz4_clusters_give_typed_errors_never_a_panic() {
    let data = image("compressed-lz4.f2fs.img.zst");
    // The blocks that hold anything: metadata, nodes and (compressed) data.
    let used: Vec<u64> = data
        .chunks(4096)
        .enumerate()
        .filter(|(_, b)| b.iter().any(|&x| x != 0))
        .map(|(i, _)| i as u64)
        .collect();
    let base = mem(data);
    let mut seed: u64 = 0x5851_f42d_4c95_7f2d;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        seed >> 33
    };
    let mut failures = 0;
    for _ in 0..60 {
        let patches = (0..8)
            .map(|_| {
                let block = used[(next() as usize) % used.len()];
                (block * 4096 + next() % 4096, next() as u8)
            })
            .collect();
        let bytes: Bytes = Arc::new(Patched {
            base: base.clone(),
            patches,
        });
        let Ok(fs) = F2fs::open(bytes) else {
            failures += 1;
            continue;
        };
        for path in ["/big.bin", "/noise.bin", "/tail.txt", "/medium.txt"] {
            if read_all(&fs, path).is_err() {
                failures += 1;
            }
        }
    }
    assert!(failures > 0, "no damage was noticed in 60 rounds");
}
