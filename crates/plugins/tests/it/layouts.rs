//! Extraction layouts (issue 17 part 1): an iOS source is claimed by the iOS directories its
//! tree holds, wherever they sit, and read the same in every layout.
//!
//! The layouts are made at test time from the bytes of one extraction (the demo iPhone's
//! full-file-system zip, made by `tests/fixtures/demo/generate.sh`): entries renamed under a
//! tool's top folder and repacked with the `zip` and `tar` crates, or written out as a folder.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::ios_support::{public, repo, triage};

fn detect(path: &Path) -> (String, Option<(u8, Vec<String>)>) {
    let ctx = masf_tools::SourceCtx::open("s", path).expect("scan");
    let plugins = masf_plugins::all();
    let chosen = plugins
        .choose(&ctx)
        .map(|(p, _)| p.name().to_string())
        .unwrap_or_default();
    (
        chosen,
        plugins.detection("ios", &ctx).map(|d| (d.score, d.reasons)),
    )
}

#[test]
fn every_ileapp_zip_is_claimed_by_ios_whatever_its_top_folder() {
    let dir = masf_testkit::corpus::root().join("ios/ileapp");
    let mut zips: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("ileapp")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "zip"))
        // through the manifest check
        .map(|e| public(&format!("ios/ileapp/{}", e.file_name().to_string_lossy())))
        .collect();
    zips.sort();
    assert!(zips.len() >= 70, "{} zips", zips.len());
    for z in &zips {
        let (chosen, ios) = detect(z);
        let name = z.file_name().unwrap().to_string_lossy();
        assert_eq!(chosen, "ios", "{name}");
        let (score, reasons) = ios.expect("ios detects it");
        assert!(score >= 60, "{name}: {score}");
        assert!(!reasons.is_empty(), "{name}");
    }
    // `filesystem1/private/var/…` (iLEAPP's iOS 17 cases): the marker names where it sits
    let (_, ios) = detect(&public(
        "ios/ileapp/testdata.storeSystem.storeSystemAppInstalls.josh_ios17_ffs.zip",
    ));
    assert_eq!(
        ios.unwrap().1,
        [
            "archive whose tree holds /filesystem1/private/var/containers with Data (the system and app group containers)"
        ]
    );
}

#[test]
fn trees_without_ios_directories_are_not_claimed() {
    for p in [
        repo().join("tests/fixtures/demo/evidence/screenshots"),
        public("archive/dfvfs-mixed_paths.zip"),
        repo().join("tests/fixtures/demo/evidence/usb.E01"),
    ] {
        assert_eq!(detect(&p).1, None, "{}", p.display());
    }
}

/// The file entries of a zip: (name, bytes).
fn zip_entries(zip: &Path) -> Vec<(String, Vec<u8>)> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
    (0..z.len())
        .filter_map(|i| {
            let mut e = z.by_index(i).unwrap();
            if e.is_dir() {
                return None;
            }
            let mut b = Vec::new();
            e.read_to_end(&mut b).unwrap();
            Some((e.name().unwrap().to_string(), b))
        })
        .collect()
}

/// The demo iPhone's entries: (name, bytes).
fn demo_entries() -> Vec<(String, Vec<u8>)> {
    zip_entries(&repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"))
}

fn write_zip(to: &Path, entries: &[(String, Vec<u8>)]) {
    let mut w = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    for (name, bytes) in entries {
        w.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap();
}

fn write_tar_gz(to: &Path, entries: &[(String, Vec<u8>)]) {
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(to).unwrap(),
        flate2::Compression::fast(),
    );
    append_all(tar::Builder::new(gz), entries).finish().unwrap();
}

/// Appends every entry as a regular file (mode 0644, a fixed time) and closes the archive.
fn append_all<W: Write>(mut t: tar::Builder<W>, entries: &[(String, Vec<u8>)]) -> W {
    for (name, bytes) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1_700_000_000);
        h.set_cksum();
        t.append_data(&mut h, name.as_str(), bytes.as_slice())
            .unwrap();
    }
    t.into_inner().unwrap()
}

fn write_folder(to: &Path, entries: &[(String, Vec<u8>)]) {
    for (name, bytes) in entries {
        let p = to.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

#[test]
fn one_extraction_in_seven_layouts_gives_the_same_identities() {
    let entries = demo_entries();
    let original = triage(
        &repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"),
        "Asia/Hong_Kong",
    );
    let want = original.identities();
    assert!(want.len() > 10, "{} identities", want.len());
    let tmp = tempfile::tempdir().unwrap();
    let renamed = |f: &dyn Fn(&str) -> Option<String>| -> Vec<(String, Vec<u8>)> {
        entries
            .iter()
            .filter_map(|(n, b)| f(n).map(|n| (n, b.clone())))
            .collect()
    };
    let layouts: Vec<(&str, PathBuf)> = vec![
        // Magnet Acquire / iLEAPP test cases: a `filesystem1/` top folder, zipped
        ("filesystem1 zip", {
            let p = tmp.path().join("fs1.zip");
            write_zip(&p, &renamed(&|n| Some(format!("filesystem1/{n}"))));
            p
        }),
        // a tool's dump folder with `var` and no `private`, as tar.gz
        ("Dump/var tar.gz", {
            let p = tmp.path().join("dump.tar.gz");
            write_tar_gz(
                &p,
                &renamed(&|n| Some(format!("Dump/{}", n.strip_prefix("private/").unwrap_or(n)))),
            );
            p
        }),
        // an extraction folder named by the device's UDID
        ("UDID folder", {
            let p = tmp.path().join("folder");
            write_folder(
                &p.join("00008030-001A2B3C4D5E802E"),
                &renamed(&|n| Some(n.to_string())),
            );
            p
        }),
        // a partial extraction of the user data only (`mobile/…`), zipped
        ("mobile-only zip", {
            let p = tmp.path().join("mobile.zip");
            write_zip(
                &p,
                &renamed(&|n| {
                    n.strip_prefix("private/var/")
                        .filter(|r| r.starts_with("mobile/"))
                        .map(str::to_string)
                }),
            );
            p
        }),
        // a UFED-style zip: the device's folder, then the extraction's folder, then the tree
        ("UFED-style zip", {
            let p = tmp.path().join("ufed.zip");
            write_zip(
                &p,
                &renamed(&|n| Some(format!("Apple_iPhone 12 (A2403)/EXTRACTION_FFS/{n}"))),
            );
            p
        }),
        // a Cellebrite-style full file system: the device's folder, the extraction's, then
        // `filesystem1/` (the tree's `var` at the fifth level), plain tar
        ("Cellebrite-style tar", {
            let p = tmp.path().join("cellebrite.tar");
            write_tar(
                &p,
                &renamed(&|n| {
                    Some(format!(
                        "Apple iPhone 12 Pro/EXTRACTION_FFS 01/filesystem1/{n}"
                    ))
                }),
            );
            p
        }),
        // the same tree as the original, tar.gz with a leading `./`
        ("./private tar.gz", {
            let p = tmp.path().join("dot.tar.gz");
            write_tar_gz(&p, &renamed(&|n| Some(format!("./{n}"))));
            p
        }),
    ];
    for (what, path) in &layouts {
        let (chosen, ios) = detect(path);
        assert_eq!(chosen, "ios", "{what}: {ios:?}");
        let got = triage(path, "Asia/Hong_Kong").identities();
        if *what == "mobile-only zip" {
            // Without `wireless` and `root` there is no device identity, no SIM and so no
            // region: the number saved without its country code ("2345 6789" on the card
            // "Mum") is not read; everything else is (the owner's number is also in sms.db).
            assert!(
                got.is_subset(&want),
                "{what}: {:?}",
                got.difference(&want).collect::<Vec<_>>()
            );
            let missing: Vec<String> = want
                .difference(&got)
                .filter(|(c, _, _)| c != "device")
                .map(|(c, t, v)| format!("{c} {t} {v}"))
                .collect();
            assert_eq!(missing, ["contact:3 phone +85223456789"], "{what}");
        } else {
            assert_eq!(got, want, "{what}");
        }
    }
}

#[test]
fn android_trees_are_claimed_by_their_android_directories() {
    let plugins = masf_plugins::all();
    let zip = repo().join("tests/fixtures/android/android_tree.zip");
    let ctx = masf_tools::SourceCtx::open("s", &zip).expect("scan");
    let d = plugins
        .detection("android", &ctx)
        .expect("android claims it");
    assert_eq!(d.score, 65);
    assert_eq!(
        d.reasons,
        [
            "archive whose tree holds /data/data/com.android.providers.telephony (the telephony provider's app data)",
            "archive whose tree holds /data/data/com.android.providers.contacts (the contacts provider's app data)",
        ]
    );
    assert_eq!(detect(&zip).0, "android");
    // no Android directory: a folder of loose databases, the iPhone, a USB stick
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("mmssms.db"), b"").unwrap();
    for p in [
        tmp.path().to_path_buf(),
        repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"),
        repo().join("tests/fixtures/demo/evidence/usb.E01"),
    ] {
        let ctx = masf_tools::SourceCtx::open("s", &p).expect("scan");
        assert_eq!(plugins.detection("android", &ctx), None, "{}", p.display());
    }
}

/// A USB stick (a FAT image made with mkfs.vfat and filled with mcopy) holding a user's
/// document and a copied iPhone extraction: the disk plugin takes the stick, and the iOS plugin,
/// which recognises the iPhone tree on it, reads it too (issue 17: a source with artefacts of
/// two plugins gets both), each as its own task.
#[test]
fn a_stick_holding_an_iphone_extraction_is_read_by_the_disk_and_the_ios_plugins() {
    let tmp = tempfile::tempdir().unwrap();
    let stage = tmp.path().join("stage");
    write_folder(&stage.join("phone-copy"), &demo_entries());
    std::fs::write(
        stage.join("notes.txt"),
        "Meeting with the buyer on Friday; call +852 5123 4567.\n",
    )
    .unwrap();
    let img = tmp.path().join("stick.img");
    let run = |cmd: &mut std::process::Command| {
        let out = cmd.output().expect("tool runs");
        assert!(out.status.success(), "{cmd:?}: {out:?}");
    };
    run(std::process::Command::new("mkfs.vfat")
        .args(["-C", "-n", "STICK"])
        .arg(&img)
        .arg("8192"));
    run(std::process::Command::new("mcopy")
        .arg("-i")
        .arg(&img)
        .arg("-s")
        .arg(stage.join("phone-copy"))
        .arg(stage.join("notes.txt"))
        .arg("::/"));

    let (chosen, ios) = detect(&img);
    assert_eq!(chosen, "disk");
    assert!(ios.is_some_and(|(score, _)| score >= masf_agents::RECOGNISED));

    let done = crate::android_support::triage(&[("src-stick", &img, "Asia/Hong_Kong", Some("HK"))]);
    let plugins: Vec<(String, String)> = done
        .reports
        .iter()
        .map(|r| (r.plugin.clone().unwrap_or_default(), r.task_id.clone()))
        .collect();
    assert_eq!(
        plugins,
        [
            ("disk".to_string(), "triage/src-stick".to_string()),
            ("ios".to_string(), "triage/src-stick/ios".to_string()),
        ]
    );
    for r in &done.reports {
        assert!(r.error.is_none() && r.halted.is_none(), "{r:?}");
        assert!(r.tally.phenomena > 0, "{r:?}");
    }
    let finished = done.session.triages_finished().unwrap();
    assert_eq!(finished.len(), 2, "{finished:?}");
    // The iPhone's messages, read from the stick as from the extraction itself, and the
    // stick's own document.
    let state = done.session.state().unwrap();
    let by_agent = |agent: &str, category: &str| {
        state
            .phenomena()
            .values()
            .filter(|p| p.agent == agent && p.category == category)
            .count()
    };
    let original = triage(
        &repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"),
        "Asia/Hong_Kong",
    );
    let original_messages = original
        .phenomena
        .iter()
        .filter(|p| p.category == "messages")
        .count();
    assert!(original_messages > 0);
    assert_eq!(by_agent("ios-triage", "messages"), original_messages);
    assert!(
        state
            .phenomena()
            .values()
            .any(|p| p.agent == "disk-triage" && p.title.contains("notes.txt")),
        "the stick's own text file is read by the disk plugin"
    );
}

/// An iTunes/Finder backup made at test time from the demo iPhone's files (Python's sqlite3 and
/// plistlib write `Manifest.db` with the real schema and `MBFile` records, `Info.plist`,
/// `Manifest.plist`, `Status.plist`, each file stored by domain as `<xx>/<sha1(domain-path)>`):
/// the iOS plugin reads the same identities from it as from the extraction (a backup has no
/// `SystemVersion.plist`, so the device's own entity may differ).
#[test]
fn a_backup_by_domain_reads_as_the_extraction_it_was_made_from() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    write_folder(&src, &demo_entries());
    let udid = "00008110-000A1B2C3D4E5F60";
    let backup = tmp.path().join("backup").join(udid);
    let script = r#"
import datetime, hashlib, os, plistlib, sqlite3, sys
from plistlib import UID
src, base, udid = sys.argv[1], sys.argv[2], sys.argv[3]
DOMAINS = [('private/var/mobile/', 'HomeDomain'), ('private/var/wireless/', 'WirelessDomain'),
           ('private/var/root/', 'RootDomain')]
WHEN = 1740650400
def mbfile(rel, size):
    f = {'$class': UID(3), 'Size': size, 'Mode': 0o100644, 'InodeNumber': 1, 'UserID': 501,
         'GroupID': 501, 'LastModified': WHEN, 'LastStatusChange': WHEN, 'Birth': WHEN,
         'ProtectionClass': 3, 'Flags': 0, 'RelativePath': UID(2)}
    return plistlib.dumps({'$version': 100000, '$archiver': 'NSKeyedArchiver', '$top': {'root': UID(1)},
        '$objects': ['$null', f, rel, {'$classname': 'MBFile', '$classes': ['MBFile', 'NSObject']}]},
        fmt=plistlib.FMT_BINARY)
os.makedirs(base)
db = sqlite3.connect(os.path.join(base, 'Manifest.db'))
db.executescript("""
CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB);
CREATE INDEX FilesDomainIdx ON Files(domain);
CREATE INDEX FilesRelativePathIdx ON Files(relativePath);
CREATE INDEX FilesFlagsIdx ON Files(flags);
CREATE TABLE Properties (key TEXT PRIMARY KEY, value BLOB);
""")
for root, _, names in os.walk(src):
    for n in names:
        path = os.path.relpath(os.path.join(root, n), src)
        hit = [(p, d) for p, d in DOMAINS if path.startswith(p)]
        if not hit:
            continue  # System/… is not in a backup
        prefix, domain = hit[0]
        rel = path[len(prefix):]
        fid = hashlib.sha1(f'{domain}-{rel}'.encode()).hexdigest()
        data = open(os.path.join(src, path), 'rb').read()
        os.makedirs(os.path.join(base, fid[:2]), exist_ok=True)
        open(os.path.join(base, fid[:2], fid), 'wb').write(data)
        db.execute('INSERT INTO Files VALUES (?, ?, ?, 1, ?)', (fid, domain, rel, mbfile(rel, len(data))))
db.commit()
date = datetime.datetime(2025, 2, 27, 10, 0, 0)
plistlib.dump({'Device Name': 'iPhone', 'Product Type': 'iPhone14,5', 'Product Version': '17.3',
               'Unique Identifier': udid, 'Target Identifier': udid, 'Last Backup Date': date},
              open(os.path.join(base, 'Info.plist'), 'wb'))
plistlib.dump({'IsEncrypted': False, 'Version': '10.0', 'Date': date, 'Applications': {},
               'Lockdown': {'ProductVersion': '17.3', 'UniqueDeviceID': udid}},
              open(os.path.join(base, 'Manifest.plist'), 'wb'), fmt=plistlib.FMT_BINARY)
plistlib.dump({'IsFullBackup': False, 'Version': '3.3', 'BackupState': 'new', 'Date': date,
               'SnapshotState': 'finished'}, open(os.path.join(base, 'Status.plist'), 'wb'),
              fmt=plistlib.FMT_BINARY)
"#;
    let st = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&src)
        .arg(&backup)
        .arg(udid)
        .status()
        .unwrap();
    assert!(st.success());
    let (chosen, _) = detect(&backup);
    assert_eq!(chosen, "ios");
    let tree = triage(&src, "Asia/Hong_Kong").identities();
    let from_backup = triage(&backup, "Asia/Hong_Kong").identities();
    let people = |ids: &std::collections::BTreeSet<(String, String, String)>| {
        ids.iter()
            .filter(|(c, _, _)| c != "device")
            .cloned()
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert!(people(&tree).len() > 10, "{tree:?}");
    assert_eq!(people(&from_backup), people(&tree));
}

/// The entries of the Android tree fixture (`tests/fixtures/android/android_tree.zip`: the
/// telephony and contacts providers' databases, made with sqlite3 from AOSP's schemas, and a
/// note on the shared storage): (name, bytes).
fn android_entries() -> Vec<(String, Vec<u8>)> {
    zip_entries(&repo().join("tests/fixtures/android/android_tree.zip"))
}

fn write_tar(to: &Path, entries: &[(String, Vec<u8>)]) {
    append_all(
        tar::Builder::new(std::fs::File::create(to).unwrap()),
        entries,
    );
}

/// Issue 17 part 1 on Android: the same artefact bytes in the layouts acquisition tools and
/// `adb` write (the `/data` partition's own root, a `userdata/` top folder, a UFED-style zip,
/// an `adb pull` folder, plain tar and tar.gz) are claimed by the Android plugin and give the
/// same people and numbers as the original zip.
#[test]
fn one_android_extraction_in_six_layouts_gives_the_same_identities() {
    use crate::android_support::triage as android_triage;
    let entries = android_entries();
    let original = repo().join("tests/fixtures/android/android_tree.zip");
    // a document's person is keyed by its path, which each layout names its own way: compared
    // by the file's name
    let by_name = |entities: Vec<String>| -> Vec<String> {
        entities
            .into_iter()
            .map(
                |e| match e.strip_prefix("document:").and_then(|r| r.split_once(" [")) {
                    Some((path, _)) => {
                        let name = path.rsplit('/').next().unwrap_or(path);
                        e.replace(path, &format!("…/{name}"))
                    }
                    None => e,
                },
            )
            .collect()
    };
    let want =
        by_name(android_triage(&[("a", &original, "Asia/Hong_Kong", Some("HK"))]).entities("a"));
    assert_eq!(want.len(), 6, "{want:#?}");
    let tmp = tempfile::tempdir().unwrap();
    // `data/data/<app>` is the app data of the `/data` partition; `sdcard/` the shared storage,
    // which is `/data/media/0` on the partition itself
    let on_partition = |n: &str| -> String {
        n.strip_prefix("data/")
            .map(str::to_string)
            .or_else(|| n.strip_prefix("sdcard/").map(|r| format!("media/0/{r}")))
            .unwrap_or_else(|| n.to_string())
    };
    let renamed = |f: &dyn Fn(&str) -> String| -> Vec<(String, Vec<u8>)> {
        entries.iter().map(|(n, b)| (f(n), b.clone())).collect()
    };
    let layouts: Vec<(&str, PathBuf)> = vec![
        // the userdata partition's root, as a file-system image or a tool's copy shows it
        ("partition root tar.gz", {
            let p = tmp.path().join("partition.tar.gz");
            write_tar_gz(&p, &renamed(&|n| on_partition(n)));
            p
        }),
        // a `userdata/` top folder (Magnet Acquire's and TWRP-style archives), plain tar
        ("userdata/ tar", {
            let p = tmp.path().join("userdata.tar");
            write_tar(&p, &renamed(&|n| format!("userdata/{}", on_partition(n))));
            p
        }),
        // a UFED-style zip: the device's folder, the extraction's, then the dump
        ("UFED-style zip", {
            let p = tmp.path().join("ufed.zip");
            write_zip(
                &p,
                &renamed(&|n| format!("Samsung GSM_SM-G991B Galaxy S21/EXTRACTION_FFS/Dump/{n}")),
            );
            p
        }),
        // `adb pull /data/data` and `adb pull /sdcard` into one case folder
        ("adb pull folder", {
            let p = tmp.path().join("pulled");
            write_folder(
                &p.join("case 42/adb"),
                &renamed(&|n| {
                    n.strip_prefix("data/")
                        .map(str::to_string)
                        .unwrap_or_else(|| n.to_string())
                }),
            );
            p
        }),
        // a whole-file-system tar of the phone's root (`/data/data`, `/data/media/0`)
        ("root tar", {
            let p = tmp.path().join("root.tar");
            write_tar(&p, &renamed(&|n| format!("data/{}", on_partition(n))));
            p
        }),
        // the same zip under a `filesystem1/` folder, as iLEAPP's and ALEAPP's cases are
        ("filesystem1 zip", {
            let p = tmp.path().join("fs1.zip");
            write_zip(&p, &renamed(&|n| format!("filesystem1/{n}")));
            p
        }),
    ];
    for (what, path) in &layouts {
        let (chosen, _) = detect(path);
        assert_eq!(chosen, "android", "{what}");
        let run = android_triage(&[("a", path, "Asia/Hong_Kong", Some("HK"))]);
        assert_eq!(run.rejections(), Vec::<String>::new(), "{what}");
        assert_eq!(by_name(run.entities("a")), want, "{what}");
    }
}
