//! Archives (ZIP, TAR, TAR.GZ, gzip), plain folders and iTunes backups as trees.
//!
//! Fixtures: `tests/fixtures/archive/` (made by `generate.sh` with Info-ZIP zip, GNU tar, gzip
//! and Python; damaged copies in `mutated/` by `mutate.py`), `tests/fixtures/itunes/` (a backup
//! built by its `generate.sh` from `source/`), the public corpus' `archive/` (dfvfs edge
//! cases, read in place). Every member is compared byte for byte with the folder it was made from.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_evidence::Error;
use masf_evidence::archive::{Limits, TarArchive, ZipArchive, gunzip, open_tar, open_zip};
use masf_evidence::bytes::{Bytes, FileBytes, Memory};
use masf_evidence::folder::open_folder;
use masf_evidence::fs::{Entry, EntryKind, FileSystem, RawTime, TimeRole};
use masf_evidence::itunes::{ItunesBackup, open_itunes};
use masf_testkit::corpus;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn archive_fixture(name: &str) -> PathBuf {
    fixtures().join("archive").join(name)
}

/// A public archive of the corpus (dfvfs edge cases), read in place.
fn public(name: &str) -> PathBuf {
    corpus::path(&format!("archive/{name}"))
}

fn file(path: &Path) -> Bytes {
    Arc::new(FileBytes::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn memory(data: Vec<u8>) -> Bytes {
    Arc::new(Memory::new(data, "test"))
}

fn read(fs: &dyn FileSystem, path: &str) -> Result<Vec<u8>, Error> {
    let b = fs.open(path)?;
    let mut buf = vec![0u8; usize::try_from(b.len()).unwrap()];
    b.read_exact_at(0, &mut buf)?;
    Ok(buf)
}

/// Every entry of a tree, depth first, keyed by path.
fn walk(fs: &dyn FileSystem) -> BTreeMap<String, Entry> {
    let mut out = BTreeMap::new();
    let mut stack = vec!["/".to_string()];
    while let Some(dir) = stack.pop() {
        let list = fs
            .list_dir(&dir)
            .unwrap_or_else(|e| panic!("list {dir}: {e}"));
        let mut names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
        let sorted = {
            let mut s = names.clone();
            s.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            s
        };
        assert_eq!(names, sorted, "listing of {dir} is not sorted");
        names.dedup();
        assert_eq!(names.len(), list.len(), "listing of {dir} repeats a name");
        for e in list {
            assert!(e.path.starts_with('/') && !e.path.split('/').any(|p| p == ".."));
            // Access times of a live folder may move between the listing and the stat (reading
            // a symlink's target updates its atime under relatime): compare everything else.
            let without_atime = |mut e: masf_evidence::fs::Entry| {
                e.times
                    .retain(|t| t.role != masf_evidence::fs::TimeRole::Accessed);
                e
            };
            assert_eq!(
                without_atime(fs.stat(&e.path).unwrap()),
                without_atime(e.clone()),
                "stat differs from listing"
            );
            if e.kind == EntryKind::Dir {
                stack.push(e.path.clone());
            }
            out.insert(e.path.clone(), e);
        }
    }
    out
}

/// Regular files under a host folder (links not followed), as tree paths.
fn host_files(root: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(e.path());
            } else if ft.is_file() {
                let rel = e
                    .path()
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(format!("/{rel}"), e.path());
            }
        }
    }
    out
}

/// Every regular file of `source` reads back byte-exact at `prefix + its relative path`, and
/// the tree holds no other regular file under `prefix`.
fn assert_same_files(fs: &dyn FileSystem, source: &Path, prefix: &str) {
    let want = host_files(source);
    assert!(!want.is_empty());
    for (rel, host) in &want {
        let path = format!("{prefix}{rel}");
        let got = read(fs, &path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            got,
            std::fs::read(host).unwrap(),
            "{path} differs from {}",
            host.display()
        );
        assert_eq!(
            fs.stat(&path).unwrap().size,
            got.len() as u64,
            "{path} size"
        );
    }
    let listed: Vec<String> = walk(fs)
        .into_values()
        .filter(|e| e.kind == EntryKind::File && e.path.starts_with(prefix))
        .map(|e| e.path[prefix.len()..].to_string())
        .collect();
    let wanted: Vec<String> = want.keys().cloned().collect();
    assert_eq!(listed, wanted);
}

fn fat_time(e: &Entry) -> Option<RawTime> {
    e.times
        .iter()
        .find(|t| matches!(t.raw, RawTime::FatLocal { .. }))
        .map(|t| t.raw)
}

/// 2024-01-02 03:04:05 as the generators stamp it.
const STAMP: i64 = 1_704_164_645;
/// The same as DOS date and time words, with its seconds halved (Python's zipfile) or rounded up
/// to an even second (Info-ZIP zip).
const STAMP_DOS: RawTime = RawTime::FatLocal {
    date: (44 << 9) | (1 << 5) | 2,
    time: (3 << 11) | (4 << 5) | 2,
    centis: 0,
};
const STAMP_DOS_INFOZIP: RawTime = RawTime::FatLocal {
    date: (44 << 9) | (1 << 5) | 2,
    time: (3 << 11) | (4 << 5) | 3,
    centis: 0,
};

// ---------------------------------------------------------------------------------- ZIP

#[test]
fn zip_members_read_back_byte_exact() {
    let fs = open_zip(file(&archive_fixture("sample.zip"))).unwrap();
    assert_eq!(fs.format(), "zip");
    assert_same_files(fs.as_ref(), &archive_fixture("source"), "");
    let all = walk(fs.as_ref());
    assert_eq!(all["/emptydir"].kind, EntryKind::Dir);
    let readme = &all["/README.txt"];
    assert_eq!(fat_time(readme), Some(STAMP_DOS_INFOZIP));
    assert_eq!(readme.mode, Some(0o100644));
    assert!(readme.id.is_some());
    let inside = &all["/link-inside"];
    assert_eq!(inside.kind, EntryKind::Symlink);
    assert_eq!(inside.link_target.as_deref(), Some("docs/notes.md"));
    let outside = &all["/link-outside"];
    assert_eq!(outside.kind, EntryKind::Symlink);
    assert_eq!(
        outside.link_target.as_deref(),
        Some("../../../../../../../etc/passwd")
    );
    assert!(matches!(
        fs.open("/link-outside"),
        Err(Error::WrongKind { .. })
    ));
    assert!(matches!(fs.open("/docs"), Err(Error::WrongKind { .. })));
    assert!(matches!(fs.open("/nope"), Err(Error::NoEntry { .. })));
    assert!(fs.diagnostics().is_empty(), "{:?}", fs.diagnostics());

    // The same names as the `zip` crate reads (it has no duplicates to hide here).
    let raw = std::fs::File::open(archive_fixture("sample.zip")).unwrap();
    let z = zip::ZipArchive::new(raw).unwrap();
    let mut theirs: Vec<String> = z
        .file_names()
        .map(|n| masf_evidence::fs::normalize_path(&n.unwrap()))
        .collect();
    theirs.sort();
    let ours: Vec<String> = all.keys().cloned().collect();
    assert_eq!(ours, theirs);
}

#[test]
fn zip64_and_prepended_data_read_back() {
    let fs = open_zip(file(&archive_fixture("sample-zip64.zip"))).unwrap();
    let src = archive_fixture("source");
    for p in [
        "/README.txt",
        "/docs/notes.md",
        "/data/random.bin",
        "/data/contacts.sqlite",
    ] {
        assert_eq!(
            read(fs.as_ref(), p).unwrap(),
            std::fs::read(src.join(&p[1..])).unwrap()
        );
    }
    let fs = open_zip(file(&archive_fixture("prepended.zip"))).unwrap();
    assert_same_files(fs.as_ref(), &src, "");
    assert!(
        fs.diagnostics()
            .iter()
            .any(|d| d.contains("1000 bytes precede"))
    );
}

#[test]
fn zip_duplicates_stay_visible() {
    let fs = open_zip(file(&archive_fixture("edge-dup.zip"))).unwrap();
    let r = |p: &str| String::from_utf8(read(fs.as_ref(), p).unwrap()).unwrap();
    assert_eq!(r("/dup.txt"), "first\n");
    assert_eq!(r("/dup.txt~2"), "second\n");
    assert_eq!(r("/dup.txt~3"), "third\n");
    assert_eq!(fs.stat("/dir").unwrap().kind, EntryKind::Dir);
    assert_eq!(r("/dir/inner.txt"), "inner\n");
    assert_eq!(r("/dir~2"), "a file named like a directory\n");
    assert_eq!(r("/abs/same.txt"), "absolute\n");
    assert_eq!(r("/abs/same.txt~2"), "relative\n");
    let diags = fs.diagnostics().join("\n");
    assert!(diags.contains("listed as /dup.txt~3"), "{diags}");
    assert_eq!(
        walk(fs.as_ref())
            .values()
            .filter(|e| e.kind == EntryKind::File)
            .count(),
        7
    );
}

#[test]
fn zip_names_never_escape_the_root() {
    let fs = open_zip(file(&archive_fixture("edge-names.zip"))).unwrap();
    let r = |p: &str| String::from_utf8(read(fs.as_ref(), p).unwrap()).unwrap();
    assert_eq!(r("/escape.txt"), "dot-dot\n");
    assert_eq!(r("/etc/passwd"), "absolute\n");
    assert_eq!(r("/a/b/c.txt"), "dots\n");
    assert_eq!(r("/win/dir/file.txt"), "backslashes\n");
    assert_eq!(r("/~2"), "only dots\n");
    assert_eq!(r("/café.txt"), "cp437 name\n");
    // The names as stored stay beside the safe paths; a name that was already a path has none.
    let stored = |p: &str| fs.stat(p).unwrap().stored_name;
    assert_eq!(stored("/escape.txt").as_deref(), Some("../../escape.txt"));
    assert_eq!(stored("/a/b/c.txt").as_deref(), Some("./a/./b//c.txt"));
    assert_eq!(stored("/~2").as_deref(), Some(".."));
    assert_eq!(
        stored("/win/dir/file.txt").as_deref(),
        Some("win\\dir\\file.txt")
    );
    assert_eq!(stored("/etc/passwd"), None);
    assert_eq!(stored("/times.txt"), None);
    // The comment holds a fake end record claiming an empty archive: the real one wins.
    assert!(fs.diagnostics().iter().any(|d| d.contains("comment")));
    let times = fs.stat("/times.txt").unwrap().times;
    let ft = (STAMP as u64 + 11_644_473_600) * 10_000_000;
    let has = |role, raw| times.iter().any(|t| t.role == role && t.raw == raw);
    assert!(has(TimeRole::Modified, STAMP_DOS));
    assert!(has(
        TimeRole::Modified,
        RawTime::Unix {
            secs: STAMP,
            nanos: 0
        }
    ));
    assert!(has(TimeRole::Modified, RawTime::FileTime { ticks: ft }));
    assert!(has(
        TimeRole::Accessed,
        RawTime::FileTime {
            ticks: ft + 10_000_000
        }
    ));
    assert!(has(
        TimeRole::Created,
        RawTime::FileTime {
            ticks: ft - 10_000_000
        }
    ));
    let roles: Vec<_> = times.iter().map(|t| t.role).collect();
    let mut sorted = roles.clone();
    sorted.sort();
    assert_eq!(roles, sorted);
}

fn dfvfs_members(fs: &dyn FileSystem, name: &str) {
    let all = walk(fs);
    let files: Vec<&str> = all
        .values()
        .filter(|e| e.kind == EntryKind::File)
        .map(|e| e.path.as_str())
        .collect();
    assert_eq!(files, ["/folder/syslog", "/folder/wtmp.1"], "{name}");
    assert_eq!(all["/folder"].kind, EntryKind::Dir, "{name}");
    assert_eq!(all["/folder/syslog"].size, 1247, "{name}");
    assert_eq!(all["/folder/wtmp.1"].size, 1537, "{name}");
    let syslog = std::fs::read(public("dfvfs-syslog")).unwrap();
    assert_eq!(read(fs, "/folder/syslog").unwrap(), syslog, "{name}");
    assert_eq!(read(fs, "/folder/wtmp.1").unwrap().len(), 1537, "{name}");
}

#[test]
fn dfvfs_edge_cases_stay_inside_and_list_their_members() {
    for case in [
        "absolute_paths",
        "mixed_paths",
        "with_directory",
        "without_directory",
    ] {
        let zip = open_zip(file(&public(&format!("dfvfs-{case}.zip")))).unwrap();
        dfvfs_members(zip.as_ref(), &format!("{case}.zip"));
        let tar = open_tar(file(&public(&format!("dfvfs-{case}.tar")))).unwrap();
        dfvfs_members(tar.as_ref(), &format!("{case}.tar"));
    }
    let syslog = std::fs::read(public("dfvfs-syslog")).unwrap();
    for name in ["dfvfs-syslog.zip", "dfvfs-syslog.tar", "dfvfs-syslog.tgz"] {
        let fs = if name.ends_with(".zip") {
            open_zip(file(&public(name))).unwrap()
        } else {
            open_tar(file(&public(name))).unwrap()
        };
        assert_eq!(read(fs.as_ref(), "/syslog").unwrap(), syslog, "{name}");
    }
    // The UT extra field of dfvfs' syslog.zip gives a Unix time besides the DOS one.
    let fs = open_zip(file(&public("dfvfs-syslog.zip"))).unwrap();
    let e = fs.stat("/syslog").unwrap();
    assert!(
        e.times
            .iter()
            .any(|t| matches!(t.raw, RawTime::Unix { .. }))
    );
    assert!(fat_time(&e).is_some());
}

// ---------------------------------------------------------------------------------- gzip, TAR

#[test]
fn gunzip_reads_the_stream_and_refuses_corrupt_ones() {
    let out = gunzip(file(&public("dfvfs-syslog.gz")), 1 << 20).unwrap();
    let mut buf = vec![0u8; out.len() as usize];
    out.read_exact_at(0, &mut buf).unwrap();
    assert_eq!(buf, std::fs::read(public("dfvfs-syslog")).unwrap());
    match gunzip(file(&public("dfvfs-corrupt1.gz")), 1 << 30) {
        Err(Error::Corrupt { offset, detail, .. }) => {
            assert!(offset > 0 && offset <= 196_608, "{offset} {detail}");
        }
        other => panic!("corrupt1.gz: {:?}", other.map(|b| b.len())),
    }
    assert!(matches!(
        gunzip(file(&public("dfvfs-syslog.gz")), 100),
        Err(Error::TooLarge { limit: 100, .. })
    ));
}

#[test]
fn tar_gz_and_tar_members_read_back_byte_exact() {
    let src = archive_fixture("source");
    let long = format!("/long/{}end.txt", "very-long-name-".repeat(8));
    for name in ["sample.tar.gz", "sample.tar", "sample-pax.tar"] {
        let fs = open_tar(file(&archive_fixture(name))).unwrap();
        assert_eq!(fs.format(), "tar");
        assert_same_files(fs.as_ref(), &src, "");
        let all = walk(fs.as_ref());
        assert!(all.contains_key(&long), "{name}: long name");
        let inside = &all["/link-inside"];
        assert_eq!(inside.kind, EntryKind::Symlink);
        assert_eq!(inside.link_target.as_deref(), Some("docs/notes.md"));
        assert_eq!(
            all["/link-outside"].link_target.as_deref(),
            Some("../../../../../../../etc/passwd")
        );
        assert!(matches!(
            fs.open("/link-outside"),
            Err(Error::WrongKind { .. })
        ));
        let readme = &all["/README.txt"];
        assert_eq!(readme.mode, Some(0o644));
        assert!(readme.times.iter().any(|t| t.role == TimeRole::Modified
            && t.raw
                == RawTime::Unix {
                    secs: STAMP,
                    nanos: 0
                }));
        assert_eq!(all["/emptydir"].kind, EntryKind::Dir);
        assert!(
            fs.diagnostics().is_empty(),
            "{name}: {:?}",
            fs.diagnostics()
        );
    }
}

#[test]
fn tar_duplicates_hard_links_and_escapes() {
    let fs = open_tar(file(&archive_fixture("edge-dup.tar"))).unwrap();
    let r = |p: &str| String::from_utf8(read(fs.as_ref(), p).unwrap()).unwrap();
    assert_eq!(r("/dup.txt"), "first\n");
    assert_eq!(r("/dup.txt~2"), "second\n");
    assert_eq!(r("/dir~2"), "a file named like a directory\n");
    assert_eq!(r("/dir/inner.txt"), "inner\n");
    // A hard link names the latest member of that name before it, as extraction would.
    assert_eq!(r("/hard.txt"), "second\n");
    assert_eq!(
        fs.stat("/hard.txt").unwrap().link_target.as_deref(),
        Some("dup.txt")
    );
    assert!(matches!(
        fs.open("/missing-hard.txt"),
        Err(Error::NoEntry { .. })
    ));

    let fs = open_tar(file(&archive_fixture("edge-names.tar"))).unwrap();
    let r = |p: &str| String::from_utf8(read(fs.as_ref(), p).unwrap()).unwrap();
    assert_eq!(r("/escape.txt"), "dot-dot\n");
    assert_eq!(r("/etc/passwd"), "absolute\n");
    assert_eq!(r("/a/b/c.txt"), "dots\n");
    let link = fs.stat("/evil-link").unwrap();
    assert_eq!(link.kind, EntryKind::Symlink);
    assert_eq!(link.link_target.as_deref(), Some("../../../../etc/shadow"));
    walk(fs.as_ref());
}

#[test]
fn tar_extension_headers_are_bounded() {
    let limits = Limits {
        max_metadata: 1024,
        ..Limits::default()
    };
    let bytes = file(&archive_fixture("mutated/tar-longname-huge.tar"));
    assert!(matches!(
        TarArchive::open(bytes, limits),
        Err(Error::TooLarge { limit: 1024, .. })
    ));
}

// ---------------------------------------------------------------------------------- damage

/// What a damaged archive must give: an error when opening it, a listing with a diagnostic,
/// or an error when reading a member.
#[derive(Debug, Clone, Copy)]
enum Expect {
    OpenCorrupt,
    Listed,
    MemberCorrupt,
    MemberTooLarge,
    MemberTruncated,
    MemberUnsupported,
    MemberEncrypted,
}

fn open_any(name: &str, bytes: Bytes) -> Result<Arc<dyn FileSystem>, Error> {
    if name.contains(".zip") {
        open_zip(bytes)
    } else {
        open_tar(bytes)
    }
}

/// Opens and reads everything; returns the errors members gave (the test fails on a panic).
fn exercise(fs: &dyn FileSystem) -> Vec<(String, Error)> {
    let mut errors = Vec::new();
    for e in walk(fs).into_values() {
        if e.kind == EntryKind::File
            && let Err(err) = read(fs, &e.path)
        {
            errors.push((e.path, err));
        }
    }
    errors
}

#[test]
fn damaged_archives_give_typed_errors() {
    use Expect::*;
    let table = [
        ("zip-truncated-cd.zip", OpenCorrupt),
        ("zip-truncated-half.zip", OpenCorrupt),
        ("zip-no-end-record.zip", OpenCorrupt),
        ("zip-cd-offset-beyond.zip", OpenCorrupt),
        ("zip-cd-size-huge.zip", OpenCorrupt),
        ("zip-count-lies-more.zip", Listed),
        ("zip-count-lies-zero.zip", Listed),
        ("zip-local-offset-beyond.zip", MemberCorrupt),
        ("zip-size-absurd.zip", MemberTooLarge),
        ("zip-csize-absurd.zip", MemberTruncated),
        ("zip-size-lie-small.zip", MemberTooLarge),
        ("zip-size-lie-large.zip", MemberCorrupt),
        ("zip-deflate-flip.zip", MemberCorrupt),
        ("zip-stored-flip.zip", MemberCorrupt),
        ("zip-local-signature.zip", MemberCorrupt),
        ("zip-name-length-huge.zip", OpenCorrupt),
        ("zip-method-bzip2.zip", MemberUnsupported),
        ("zip-encrypted-flag.zip", MemberEncrypted),
        ("zip-empty.zip", OpenCorrupt),
        ("zip-garbage.zip", OpenCorrupt),
        ("tar-truncated-header.tar", Listed),
        ("tar-truncated-data.tar", MemberTruncated),
        ("tar-checksum-later.tar", Listed),
        ("tar-checksum-first.tar", OpenCorrupt),
        ("tar-size-absurd.tar", MemberTruncated),
        ("tar-longname-huge.tar", OpenCorrupt),
        ("tar-gz-truncated.tar.gz", OpenCorrupt),
        ("tar-gz-flip.tar.gz", OpenCorrupt),
        ("tar-garbage.tar", OpenCorrupt),
    ];
    let dir = archive_fixture("mutated");
    let mut covered = 0;
    for (name, expect) in table {
        let opened = open_any(name, file(&dir.join(name)));
        let outcome = match opened {
            Err(e) => {
                assert!(
                    matches!((expect, &e), (OpenCorrupt, Error::Corrupt { .. })),
                    "{name}: expected {expect:?}, open gave {e:?}"
                );
                covered += 1;
                continue;
            }
            Ok(fs) => (fs.diagnostics(), exercise(fs.as_ref())),
        };
        let (diags, errors) = outcome;
        let member = |f: &dyn Fn(&Error) -> bool| errors.iter().any(|(_, e)| f(e));
        let ok = match expect {
            OpenCorrupt => false,
            Listed => !diags.is_empty(),
            MemberCorrupt => member(&|e| matches!(e, Error::Corrupt { .. })),
            MemberTooLarge => member(&|e| matches!(e, Error::TooLarge { .. })),
            MemberTruncated => member(&|e| matches!(e, Error::Truncated { .. })),
            MemberUnsupported => member(&|e| matches!(e, Error::Unsupported { .. })),
            MemberEncrypted => member(&|e| matches!(e, Error::Encrypted { .. })),
        };
        assert!(
            ok,
            "{name}: expected {expect:?}; diagnostics {diags:?}; errors {errors:?}"
        );
        covered += 1;
    }
    // Every damaged file is in the table, except the random flips, which must only not panic.
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    for name in &files {
        if name.starts_with("flip-") {
            if let Ok(fs) = open_any(name, file(&dir.join(name))) {
                exercise(fs.as_ref());
            }
        } else {
            assert!(
                table.iter().any(|(n, _)| n == name),
                "{name} has no expectation"
            );
        }
    }
    assert_eq!(covered, table.len());
}

/// A minimal ZIP writer for crafted archives: one deflated member per entry, declared sizes
/// given by the caller (so they can lie).
fn craft_zip(members: &[(&str, &[u8], u64)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, deflated, declared) in members {
        let offset = out.len() as u32;
        let header = |sig: u32, central: bool| {
            let mut h = Vec::new();
            h.extend(sig.to_le_bytes());
            if central {
                h.extend(0x031eu16.to_le_bytes());
            }
            h.extend(20u16.to_le_bytes());
            h.extend(0u16.to_le_bytes()); // flags
            h.extend(8u16.to_le_bytes()); // deflate
            h.extend([0u8; 4]); // time, date
            h.extend(0u32.to_le_bytes()); // crc (never reached: sizes fail first)
            h.extend((deflated.len() as u32).to_le_bytes());
            h.extend((*declared as u32).to_le_bytes());
            h.extend((name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes());
            if central {
                h.extend([0u8; 6]); // comment len, disk, internal attrs
                h.extend((0o100644u32 << 16).to_le_bytes());
                h.extend(offset.to_le_bytes());
            }
            h.extend(name.as_bytes());
            h
        };
        out.extend(header(0x0403_4b50, false));
        out.extend(*deflated);
        central.extend(header(0x0201_4b50, true));
    }
    let cd_offset = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(cd_offset.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// Raw deflate of `len` zero bytes, produced in chunks (never holding them).
fn deflated_zeros(len: u64) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    let chunk = vec![0u8; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        e.write_all(&chunk[..n]).unwrap();
        left -= n as u64;
    }
    e.finish().unwrap()
}

/// A 1 GiB member of zeros deflated to about 1 MB: refused by its expansion ratio before any
/// allocation. Checked in a child process whose address space is capped at 512 MiB, so a test
/// that allocated the member would die there instead of passing.
#[test]
fn zip_bomb_is_refused_without_allocating_it() {
    if std::env::var_os("MASF_ZIP_BOMB_CHILD").is_some() {
        let deflated = deflated_zeros(1 << 30);
        assert!(deflated.len() < 2 << 20, "{}", deflated.len());
        let zip = craft_zip(&[("bomb.bin", &deflated, 1 << 30)]);
        let fs = open_zip(memory(zip)).unwrap();
        assert_eq!(fs.stat("/bomb.bin").unwrap().size, 1 << 30);
        match fs.open("/bomb.bin") {
            Err(Error::TooLarge { claimed, .. }) => assert_eq!(claimed, 1 << 30),
            other => panic!("bomb: {:?}", other.map(|b| b.len())),
        }
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let status = std::process::Command::new("bash")
        .arg("-c")
        .arg(r#"ulimit -v 524288 && exec "$0" --exact archive::zip_bomb_is_refused_without_allocating_it --test-threads 1 -q"#)
        .arg(&exe)
        .env("MASF_ZIP_BOMB_CHILD", "1")
        .status()
        .unwrap();
    assert!(
        status.success(),
        "the bomb check failed in its memory-capped child: {status}"
    );
}

#[test]
fn lying_sizes_never_inflate_past_the_declaration() {
    // Declares 1 MiB (under the ratio floor) but inflates to 64 MiB: stopped at 1 MiB + 1.
    let deflated = deflated_zeros(64 << 20);
    let zip = craft_zip(&[("liar.bin", &deflated, 1 << 20)]);
    let fs = open_zip(memory(zip)).unwrap();
    match fs.open("/liar.bin") {
        Err(Error::TooLarge { claimed, limit, .. }) => {
            assert_eq!(limit, 1 << 20);
            assert_eq!(claimed, (1 << 20) + 1);
        }
        other => panic!("{:?}", other.map(|b| b.len())),
    }
    // A declaration deflate cannot reach from its compressed size is corrupt, not allocated.
    let zip = craft_zip(&[("tiny.bin", &[0x03, 0x00], 50 << 20)]);
    let fs = open_zip(memory(zip)).unwrap();
    assert!(matches!(fs.open("/tiny.bin"), Err(Error::Corrupt { .. })));
    // And the configured limit holds whatever the ratio.
    let limits = Limits {
        max_inflated: 1000,
        ..Limits::default()
    };
    let zip = craft_zip(&[("big.bin", &deflated_zeros(5000), 5000)]);
    let z = ZipArchive::open(memory(zip), limits).unwrap();
    assert!(matches!(
        z.open("/big.bin"),
        Err(Error::TooLarge { limit: 1000, .. })
    ));
}

#[test]
fn members_read_in_parallel() {
    let fs = open_zip(file(&archive_fixture("sample.zip"))).unwrap();
    let paths: Vec<String> = walk(fs.as_ref())
        .into_values()
        .filter(|e| e.kind == EntryKind::File)
        .map(|e| e.path)
        .collect();
    let expected: Vec<Vec<u8>> = paths
        .iter()
        .map(|p| read(fs.as_ref(), p).unwrap())
        .collect();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..5 {
                    for (p, want) in paths.iter().zip(&expected) {
                        assert_eq!(&read(fs.as_ref(), p).unwrap(), want);
                    }
                }
            });
        }
    });
}

// ---------------------------------------------------------------------------------- folder

#[test]
fn folders_read_back_and_never_follow_links() {
    let src = archive_fixture("source");
    let fs = open_folder(&src).unwrap();
    assert_eq!(fs.format(), "folder");
    assert_same_files(fs.as_ref(), &src, "");
    let all = walk(fs.as_ref());
    let outside = &all["/link-outside"];
    assert_eq!(outside.kind, EntryKind::Symlink);
    assert_eq!(
        outside.link_target.as_deref(),
        Some("../../../../../../../etc/passwd")
    );
    assert!(matches!(
        fs.open("/link-outside"),
        Err(Error::WrongKind { .. })
    ));
    let readme = &all["/README.txt"];
    assert!(readme.id.is_some() && readme.mode.is_some());
    for role in [TimeRole::Modified, TimeRole::Accessed, TimeRole::Changed] {
        assert!(readme.times.iter().any(|t| t.role == role), "{role:?}");
    }

    // A link to a directory outside: listed, never entered.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("evidence");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("a.txt"), b"a").unwrap();
    std::os::unix::fs::symlink("/etc", root.join("etc-link")).unwrap();
    std::os::unix::fs::symlink(tmp.path(), root.join("parent-link")).unwrap();
    let fifo = root.join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let fs = open_folder(&root).unwrap();
    let list = fs.list_dir("/").unwrap();
    let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["a.txt", "etc-link", "fifo", "parent-link"]);
    assert_eq!(list[1].kind, EntryKind::Symlink);
    assert_eq!(list[2].kind, EntryKind::Other);
    assert!(matches!(
        fs.list_dir("/etc-link"),
        Err(Error::WrongKind { .. })
    ));
    assert!(matches!(
        fs.open("/etc-link/passwd"),
        Err(Error::WrongKind { .. })
    ));
    assert!(matches!(
        fs.stat("/parent-link/evidence/a.txt"),
        Err(Error::WrongKind { .. })
    ));
    assert!(matches!(fs.open("/fifo"), Err(Error::WrongKind { .. })));
    assert!(matches!(
        fs.open("/../../etc/passwd"),
        Err(Error::NoEntry { .. })
    ));
    assert_eq!(read(fs.as_ref(), "/../a.txt").unwrap(), b"a");

    // A name that is not UTF-8 is shown with U+FFFD and still opens.
    use std::os::unix::ffi::OsStrExt;
    let odd = std::ffi::OsStr::from_bytes(b"bad\xff.txt");
    std::fs::write(root.join(odd), b"odd").unwrap();
    let names: Vec<String> = fs
        .list_dir("/")
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert!(names.contains(&"bad\u{fffd}.txt".to_string()), "{names:?}");
    assert_eq!(read(fs.as_ref(), "/bad\u{fffd}.txt").unwrap(), b"odd");
}

// ---------------------------------------------------------------------------------- iTunes

fn itunes_backup() -> PathBuf {
    fixtures().join("itunes/backup/00008030-001A2B3C4D5E802E")
}

/// Name and content of every file under a folder (to prove nothing was written there).
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    host_files(dir)
        .into_iter()
        .map(|(k, p)| (k, std::fs::read(p).unwrap()))
        .collect()
}

#[test]
fn itunes_backup_presents_the_device_tree() {
    let before = snapshot(&itunes_backup());
    let fs = open_itunes(&itunes_backup()).unwrap();
    assert_eq!(fs.format(), "itunes_backup");
    let src = fixtures().join("itunes/source");
    assert_same_files(fs.as_ref(), &src.join("private"), "/private");
    let sms = "/private/var/mobile/Library/SMS/sms.db";
    assert_eq!(
        read(fs.as_ref(), sms).unwrap(),
        std::fs::read(src.join("private/var/mobile/Library/SMS/sms.db")).unwrap()
    );
    let e = fs.stat(sms).unwrap();
    assert_eq!(e.mode, Some(0o100644));
    assert!(e.id.is_some());
    assert_eq!(
        e.times.iter().map(|t| (t.role, t.raw)).collect::<Vec<_>>(),
        [
            (
                TimeRole::Modified,
                RawTime::Unix {
                    secs: STAMP,
                    nanos: 0
                }
            ),
            (
                TimeRole::Changed,
                RawTime::Unix {
                    secs: STAMP + 1,
                    nanos: 0
                }
            ),
            (
                TimeRole::Created,
                RawTime::Unix {
                    secs: STAMP - 86_400,
                    nanos: 0
                }
            ),
        ]
    );
    let link = fs
        .stat("/private/var/mobile/Library/Preferences/sms-link")
        .unwrap();
    assert_eq!(link.kind, EntryKind::Symlink);
    assert_eq!(link.link_target.as_deref(), Some("../SMS/sms.db"));
    assert_eq!(
        fs.stat(
            "/private/var/mobile/Containers/Shared/AppGroup/group.net.whatsapp.WhatsApp.shared"
        )
        .unwrap()
        .kind,
        EntryKind::Dir
    );
    let info = read(fs.as_ref(), "/.backup/Info.plist").unwrap();
    assert!(String::from_utf8_lossy(&info).contains("356938035643809"));
    assert!(fs.diagnostics().is_empty(), "{:?}", fs.diagnostics());

    let backup = ItunesBackup::open(&itunes_backup()).unwrap();
    assert_eq!(backup.records().len(), 14);
    let rec = backup
        .record("3d0d7e5fb2ce288813306e4d4636395e047a3d28")
        .unwrap();
    assert_eq!(
        (
            rec.domain.as_str(),
            rec.relative_path.as_str(),
            rec.flags,
            rec.path.as_str()
        ),
        ("HomeDomain", "Library/SMS/sms.db", 1, sms)
    );
    drop(fs);
    drop(backup);
    assert_eq!(
        snapshot(&itunes_backup()),
        before,
        "the backup folder changed"
    );
}

#[test]
fn encrypted_backups_are_reported_as_encrypted() {
    let path = fixtures().join("itunes/encrypted/00008030-001A2B3C4D5E802E");
    match open_itunes(&path) {
        Err(e @ Error::PasswordNeeded { .. }) => {
            assert!(e.to_string().contains("--backup-password-env"), "{e}")
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("opened an encrypted backup"),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn hostile_manifests_stay_inside_and_fail_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("b");
    copy_dir(&itunes_backup(), &root);
    {
        let db = rusqlite::Connection::open(root.join("Manifest.db")).unwrap();
        db.execute_batch(
            "INSERT INTO Files VALUES ('../../../../../etc/passwd', 'HomeDomain', 'Library/evil', 1, NULL);
             INSERT INTO Files VALUES ('00000000000000000000000000000000000000aa', 'HomeDomain', 'Library/missing', 1, NULL);
             INSERT INTO Files VALUES ('00000000000000000000000000000000000000bb', 'SysContainerDomain-../../../../../..', 'escape.txt', 1, NULL);
             INSERT INTO Files VALUES ('3d0d7e5fb2ce288813306e4d4636395e047a3d29', 'MediaDomain', 'Library/SMS/sms.db', 1, NULL);",
        )
        .unwrap();
    }
    let fs = open_itunes(&root).unwrap();
    assert!(matches!(
        fs.open("/private/var/mobile/Library/evil"),
        Err(Error::Corrupt { .. })
    ));
    assert!(matches!(
        fs.open("/private/var/mobile/Library/missing"),
        Err(Error::NotFound { .. })
    ));
    assert!(matches!(
        fs.open("/escape.txt"),
        Err(Error::NotFound { .. })
    ));
    // MediaDomain maps to the same folder: the second record is kept as sms.db~2.
    assert!(matches!(
        fs.open("/private/var/mobile/Library/SMS/sms.db~2"),
        Err(Error::NotFound { .. })
    ));
    let diags = fs.diagnostics().join("\n");
    assert!(diags.contains("not the SHA-1"), "{diags}");
    assert!(diags.contains("sms.db~2"), "{diags}");
    walk(fs.as_ref());

    // No Manifest.db: missing; only the old Manifest.mbdb: unsupported.
    std::fs::remove_file(root.join("Manifest.db")).unwrap();
    assert!(matches!(
        open_itunes(&root),
        Err(Error::MissingManifest { .. })
    ));
    std::fs::write(root.join("Manifest.mbdb"), b"mbdb\x05\x00").unwrap();
    assert!(matches!(open_itunes(&root), Err(Error::Unsupported { .. })));
    // A Manifest.db that is not SQLite, with no Manifest.plist to explain it.
    std::fs::write(root.join("Manifest.db"), vec![0x5a; 4096]).unwrap();
    std::fs::remove_file(root.join("Manifest.plist")).unwrap();
    assert!(matches!(open_itunes(&root), Err(Error::Corrupt { .. })));
}

/// A Manifest.db whose latest rows are still in its write-ahead log (copied while the writer
/// had it open): the rows are read, from a copy, and the evidence folder is left as it was.
#[test]
fn manifest_write_ahead_logs_are_applied_to_the_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    copy_dir(&itunes_backup(), &work);
    let db = rusqlite::Connection::open(work.join("Manifest.db")).unwrap();
    db.pragma_update(None, "journal_mode", "WAL").unwrap();
    db.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    db.execute(
        "INSERT INTO Files VALUES ('0123456789abcdef0123456789abcdef01234567', 'HomeDomain', \
         'Library/Notes/notes.sqlite', 1, NULL)",
        [],
    )
    .unwrap();
    for with_shm in [true, false] {
        let evidence = tmp.path().join(format!("evidence-{with_shm}"));
        copy_dir(&itunes_backup(), &evidence);
        for name in ["Manifest.db", "Manifest.db-wal", "Manifest.db-shm"] {
            if with_shm || name != "Manifest.db-shm" {
                std::fs::copy(work.join(name), evidence.join(name)).unwrap();
            }
        }
        assert!(
            std::fs::metadata(evidence.join("Manifest.db-wal"))
                .unwrap()
                .len()
                > 0
        );
        let before = snapshot(&evidence);
        let fs = open_itunes(&evidence).unwrap_or_else(|e| panic!("shm {with_shm}: {e}"));
        let notes = fs
            .stat("/private/var/mobile/Library/Notes/notes.sqlite")
            .unwrap();
        assert_eq!(notes.kind, EntryKind::File);
        drop(fs);
        assert_eq!(
            snapshot(&evidence),
            before,
            "shm {with_shm}: evidence changed"
        );
    }
    drop(db);
}

/// Seeded random damage (flipped bytes, truncation, overwritten runs) on every good archive:
/// whatever comes back is a value, never a panic or a hang. A cheap stand-in for fuzzing that
/// runs with the ordinary tests.
#[test]
fn random_damage_never_panics() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let names = [
        "sample.zip",
        "sample-zip64.zip",
        "edge-names.zip",
        "sample.tar",
        "sample-pax.tar",
        "sample.tar.gz",
    ];
    for name in names {
        let good = std::fs::read(archive_fixture(name)).unwrap();
        for _ in 0..400 {
            let mut bad = good.clone();
            match next() % 4 {
                0 => {
                    for _ in 0..1 + next() % 8 {
                        let at = (next() % bad.len() as u64) as usize;
                        bad[at] ^= 1 << (next() % 8);
                    }
                }
                1 => bad.truncate((next() % bad.len() as u64) as usize),
                2 => {
                    // Damage the tail, where the central directory and end record live.
                    let at = bad.len() - 1 - (next() % 300.min(bad.len() as u64 - 1)) as usize;
                    bad[at] = next() as u8;
                }
                _ => {
                    let at = (next() % bad.len() as u64) as usize;
                    let end = (at + 1 + (next() % 64) as usize).min(bad.len());
                    bad[at..end].fill(0xff);
                }
            }
            if let Ok(fs) = open_any(name, memory(bad)) {
                exercise(fs.as_ref());
                let _ = fs.diagnostics();
            }
        }
    }
}

/// Replays every input kept from fuzzing the archive targets
/// (`crates/evidence/fuzz/regressions/{zip,tar,gzip}/`) through the fuzzers' own driver.
#[test]
fn kept_archive_fuzz_inputs_replay_without_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let files = |target: &str| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root.join(target))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        v.retain(|p| p.file_name().is_some_and(|n| n != ".keep"));
        v.sort();
        v
    };
    for f in files("zip") {
        masf_evidence::fuzzing::exercise_fs(&std::fs::read(&f).unwrap(), open_zip);
    }
    for f in files("tar") {
        masf_evidence::fuzzing::exercise_fs(&std::fs::read(&f).unwrap(), open_tar);
    }
    for f in files("gzip") {
        let _ = gunzip(memory(std::fs::read(&f).unwrap()), 16 << 20);
    }
}
