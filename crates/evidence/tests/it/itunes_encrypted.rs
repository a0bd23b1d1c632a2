//! Encrypted iTunes/Finder backups: `tests/fixtures/ios-backup-enc/` (made by its `generate.py`
//! from the plain backup `tests/fixtures/itunes/backup/`, following the published format) is
//! first decrypted by the independent PyPI package `iphone-backup-decrypt` (its `oracle.py`, run
//! in the venv `scripts/setup.sh` makes); then our reader must list the same tree as the plain
//! backup and give the same bytes. Damaged copies are made in temporary folders.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use masf_evidence::Error;

use crate::support::{py_oracle, repo};
use masf_evidence::fs::{EntryKind, FileSystem};
use masf_evidence::itunes::keybag::{self, Password};
use masf_evidence::itunes::{DECRYPTED, ItunesBackup, open_itunes, open_itunes_with};

const UDID: &str = "00008030-001A2B3C4D5E802E";
/// The fixture's password (published in its generator).
const PASSWORD: &str = "masf-test-Passw0rd";

fn enc_dir() -> PathBuf {
    repo().join("tests/fixtures/ios-backup-enc")
}

fn encrypted() -> PathBuf {
    enc_dir().join("backup").join(UDID)
}

fn plain() -> PathBuf {
    repo().join("tests/fixtures/itunes/backup").join(UDID)
}

fn password() -> Password {
    Password::new(PASSWORD.as_bytes().to_vec())
}

fn sha256(data: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(data))
}

/// Every entry below `/` except the backup's own files: path → (kind, size, bytes of files).
fn tree(fs: &dyn FileSystem) -> BTreeMap<String, (EntryKind, u64, Option<Vec<u8>>)> {
    let mut out = BTreeMap::new();
    let mut stack = vec!["/".to_string()];
    while let Some(dir) = stack.pop() {
        for e in fs.list_dir(&dir).unwrap() {
            if e.path.starts_with("/.backup") {
                continue;
            }
            let bytes = match e.kind {
                EntryKind::Dir => {
                    stack.push(e.path.clone());
                    None
                }
                EntryKind::File => {
                    let b = fs.open(&e.path).unwrap();
                    let mut buf = vec![0u8; usize::try_from(b.len()).unwrap()];
                    b.read_at(0, &mut buf).unwrap();
                    Some(buf)
                }
                _ => None,
            };
            out.insert(e.path.clone(), (e.kind, e.size, bytes));
        }
    }
    out
}

fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.insert(e.path(), std::fs::read(e.path()).unwrap());
            }
        }
    }
    out
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

/// The independent oracle: `iphone-backup-decrypt` (PyPI, 0.11) in the venv that
/// `scripts/setup.sh` (or the generator) makes at `target/py-oracles`.
fn oracle(backup: &Path) -> serde_json::Value {
    let python = py_oracle("iphone-backup-decrypt");
    let out = std::process::Command::new(python)
        .arg(enc_dir().join("oracle.py"))
        .arg(backup)
        .arg("MASF_TEST_ORACLE_PASSWORD")
        .env("MASF_TEST_ORACLE_PASSWORD", PASSWORD)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_oracle_and_our_reader_decrypt_to_the_plain_backup() {
    let before = snapshot(&encrypted());
    let plain_fs = open_itunes(&plain()).unwrap();
    let backup = ItunesBackup::open_with(&encrypted(), Some(&password())).unwrap();
    assert!(backup.encrypted());

    // The oracle first: every file it decrypts is byte for byte the plain backup's.
    let oracle = oracle(&encrypted());
    let files = oracle["files"].as_array().unwrap();
    assert_eq!(files.len(), 7);
    for f in files {
        let id = f["file_id"].as_str().unwrap();
        let plain_bytes = std::fs::read(plain().join(&id[..2]).join(id)).unwrap();
        assert_eq!(f["sha256"].as_str().unwrap(), sha256(&plain_bytes), "{f}");
        // … and ours gives the same bytes at the device path.
        let rec = backup.record(id).unwrap();
        let b = backup.open(&rec.path).unwrap();
        let mut buf = vec![0u8; usize::try_from(b.len()).unwrap()];
        b.read_at(0, &mut buf).unwrap();
        assert_eq!(sha256(&buf), f["sha256"].as_str().unwrap(), "{}", rec.path);
    }
    assert_eq!(
        backup.decrypted_manifest_sha256(),
        oracle["manifest_db_sha256"].as_str()
    );

    // The same tree (paths, kinds, sizes, bytes, link targets) as the plain backup.
    assert_eq!(tree(&backup), tree(plain_fs.as_ref()));
    for r in backup.records() {
        let a = backup.stat(&r.path).unwrap();
        let b = plain_fs.stat(&r.path).unwrap();
        assert_eq!(
            (a.kind, a.size, a.mode, a.times, a.link_target),
            (b.kind, b.size, b.mode, b.times, b.link_target),
            "{}",
            r.path
        );
    }
    assert!(
        backup.diagnostics().is_empty(),
        "{:?}",
        backup.diagnostics()
    );
    // The evidence folder is left exactly as it was.
    assert_eq!(snapshot(&encrypted()), before);
}

#[test]
fn errors_name_what_is_wrong() {
    // No password.
    let e = open_itunes(&encrypted()).err().unwrap();
    assert!(matches!(e, Error::PasswordNeeded { .. }), "{e}");
    let text = e.to_string();
    assert!(text.contains("--backup-password-env") && text.contains("password_env"));

    // A wrong password: one clear error, and never the password in it.
    let wrong = Password::new(b"not-the-Passw0rd".to_vec());
    let e = open_itunes_with(&encrypted(), Some(&wrong)).err().unwrap();
    assert!(matches!(e, Error::WrongPassword { .. }), "{e}");
    assert!(
        e.to_string()
            .ends_with("the password does not open this backup's keybag")
    );
    assert!(!e.to_string().contains("not-the-Passw0rd"));
    assert!(!format!("{e:?} {wrong:?}").contains("not-the-Passw0rd"));

    let tmp = tempfile::tempdir().unwrap();
    // A truncated keybag names the tag and the offset.
    let root = tmp.path().join("truncated");
    copy_dir(&encrypted(), &root);
    std::fs::copy(
        enc_dir().join("variants/Manifest.plist.truncated-keybag"),
        root.join("Manifest.plist"),
    )
    .unwrap();
    match open_itunes_with(&root, Some(&password())) {
        Err(Error::Keybag {
            tag,
            offset,
            detail,
            ..
        }) => {
            assert_eq!(tag, "WPKY");
            assert!(offset > 0 && detail.contains("truncated"), "{detail}");
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("opened a truncated keybag"),
    }

    // A file whose wrapped key is damaged: that file says why, the others read.
    let root = tmp.path().join("corrupt-key");
    copy_dir(&encrypted(), &root);
    std::fs::copy(
        enc_dir().join("variants/Manifest.db.corrupt-key"),
        root.join("Manifest.db"),
    )
    .unwrap();
    let fs = open_itunes_with(&root, Some(&password())).unwrap();
    match fs.open("/private/var/mobile/Library/SMS/sms.db") {
        Err(e @ Error::FileKey { .. }) => assert!(e.to_string().contains("integrity"), "{e}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("read a file whose key does not unwrap"),
    }
    let plain_fs = open_itunes(&plain()).unwrap();
    let mut others = tree(plain_fs.as_ref());
    others.remove("/private/var/mobile/Library/SMS/sms.db");
    let mut got = BTreeMap::new();
    for (path, v) in &others {
        let bytes = if v.0 == EntryKind::File {
            let b = fs.open(path).unwrap();
            let mut buf = vec![0u8; usize::try_from(b.len()).unwrap()];
            b.read_at(0, &mut buf).unwrap();
            Some(buf)
        } else {
            None
        };
        got.insert(path.clone(), (v.0, v.1, bytes));
    }
    assert_eq!(got, others);
    assert!(fs.diagnostics().join("\n").contains("1 encrypted file(s)"));

    // Manifest.db missing.
    let root = tmp.path().join("no-manifest");
    copy_dir(&encrypted(), &root);
    std::fs::remove_file(root.join("Manifest.db")).unwrap();
    assert!(matches!(
        open_itunes_with(&root, Some(&password())),
        Err(Error::MissingManifest { .. })
    ));

    // A stored file that is damaged (cut mid-block): a corrupt error for it alone.
    let root = tmp.path().join("cut");
    copy_dir(&encrypted(), &root);
    let backup = ItunesBackup::open_with(&root, Some(&password())).unwrap();
    let rec = backup
        .records()
        .iter()
        .find(|r| r.relative_path.ends_with("IMG_0001.JPG"))
        .unwrap()
        .clone();
    let stored = root.join(&rec.file_id[..2]).join(&rec.file_id);
    let data = std::fs::read(&stored).unwrap();
    std::fs::write(&stored, &data[..data.len() - 5]).unwrap();
    assert!(matches!(backup.open(&rec.path), Err(Error::Corrupt { .. })));
}

#[test]
fn the_layer_says_the_backup_was_decrypted() {
    let e = ItunesBackup::open_with(&encrypted(), Some(&password())).unwrap();
    // The layer appears in every error of the source.
    let err = e.open("/no/such").err().unwrap().to_string();
    assert!(err.contains(DECRYPTED), "{err}");
    assert!(!err.contains(PASSWORD));
}

#[test]
fn keybag_parser_reads_the_fixture_and_rejects_damage() {
    let manifest = plist::Value::from_file(encrypted().join("Manifest.plist")).unwrap();
    let blob = manifest
        .as_dictionary()
        .unwrap()
        .get("BackupKeyBag")
        .unwrap()
        .as_data()
        .unwrap()
        .to_vec();
    let bag = keybag::parse(&blob).unwrap();
    assert_eq!(bag.kind, Some(1));
    assert_eq!(
        bag.classes.iter().map(|c| c.class).collect::<Vec<_>>(),
        (1..=11).collect::<Vec<_>>()
    );
    assert_eq!((bag.dp_iterations, bag.iterations), (Some(10000), 1000));
    assert!(keybag::unlock(&bag, &password()).is_some());
    // Every prefix is either parsed or refused with a tag and offset; none panics.
    for n in 0..blob.len() {
        if let Err(e) = keybag::parse(&blob[..n]) {
            assert!(e.offset <= n as u64, "{e:?}");
        }
    }
}

#[test]
fn a_scan_with_the_password_reads_the_backup_and_says_it_was_decrypted() {
    use masf_evidence::scan::{Form, ScanOptions, scan, scan_with};
    // Without the password: the source is an iTunes backup whose tree is unreadable, and why.
    let s = scan(&encrypted()).unwrap();
    assert_eq!(s.form, Form::ItunesBackup);
    assert!(s.file_systems().is_empty());
    let problem = s.root.problem.clone().unwrap();
    assert!(problem.contains("--backup-password-env"), "{problem}");
    // With it: the tree, and the layer records the decryption (not the password).
    let options = ScanOptions {
        backup_password: Some(password()),
    };
    let s = scan_with(&encrypted(), &options).unwrap();
    assert_eq!(s.form, Form::ItunesBackup);
    let fss = s.file_systems();
    assert_eq!(fss.len(), 1);
    let fs = fss[0].fs;
    assert!(fs.stat("/private/var/mobile/Library/SMS/sms.db").is_ok());
    let layer = fss[0].layer.comparable();
    assert!(
        layer.contains(&format!("encryption: {DECRYPTED}")),
        "{layer}"
    );
    assert!(!layer.contains(PASSWORD) && !format!("{options:?}").contains(PASSWORD));
    // A wrong password: the reason is the keybag's.
    let wrong = ScanOptions {
        backup_password: Some(Password::new(b"nope".to_vec())),
    };
    let s = scan_with(&encrypted(), &wrong).unwrap();
    let problem = s.root.problem.clone().unwrap();
    assert!(
        problem.contains("does not open this backup's keybag"),
        "{problem}"
    );
}

#[test]
fn reads_at_any_offset_give_the_plain_bytes() {
    let enc = open_itunes_with(&encrypted(), Some(&password())).unwrap();
    let plain_fs = open_itunes(&plain()).unwrap();
    for path in [
        "/private/var/mobile/Library/SMS/sms.db",
        "/private/var/mobile/Media/DCIM/100APPLE/IMG_0001.JPG",
    ] {
        let (a, b) = (enc.open(path).unwrap(), plain_fs.open(path).unwrap());
        assert_eq!(a.len(), b.len());
        let len = a.len();
        for (offset, n) in [
            (0, 1),
            (1, 15),
            (15, 2),
            (16, 16),
            (17, 100),
            (4095, 4098),
            (len - 1, 10),
            (len - 20, 20),
            (len, 5),
            (3, 70_000),
        ] {
            let mut x = vec![0u8; n];
            let mut y = vec![0u8; n];
            let got = a.read_at(offset, &mut x).unwrap();
            assert_eq!(
                got,
                b.read_at(offset, &mut y).unwrap(),
                "{path} {offset}+{n}"
            );
            assert_eq!(x[..got], y[..got], "{path} {offset}+{n}");
        }
    }
}
