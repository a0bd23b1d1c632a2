//! SQLCipher databases made by the real `sqlcipher` CLI (Debian's 3.4.1) with the settings the
//! apps use, decrypted by `masf_evidence::sqlcipher` and read back by the `sqlite3` CLI; the
//! oracle is the `sqlcipher` CLI reading the same file (and its `-wal`) with the key.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use masf_evidence::Error;
use masf_evidence::sqlcipher::{Hash, Key, Report, Settings, decrypt};
use zeroize::Zeroizing;

/// Runs `script` through a CLI (`sqlcipher` or `sqlite3`) on `db`; its standard output.
fn cli(bin: &str, db: &Path, script: &str) -> String {
    let mut child = Command::new(bin)
        .arg(db)
        .current_dir(db.parent().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{bin} (scripts/setup.sh installs it): {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{bin} {db:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Signal for Android's settings: the database secret's hex string as the passphrase, one
/// PBKDF2 round, 4,096-byte pages, SQLCipher 3's SHA1 HMAC.
const SIGNAL: Settings = Settings {
    page_size: 4096,
    kdf_iter: 1,
    ..Settings::V3
};
const SIGNAL_PRAGMAS: &str = "PRAGMA cipher_page_size = 4096;\nPRAGMA kdf_iter = 1;\n";
const PASS: &str = "8f3a0c5e9d2b41f7a6c3e8d0b5f2a9c4e1d7b3a6f0c9e2d5a8b1f4c7e0d3a6b9";

/// WeChat for Android's: SQLCipher 1 (no HMAC), 4,000 rounds, 1,024-byte pages.
const WECHAT: Settings = Settings {
    page_size: 1024,
    kdf_iter: 4000,
    kdf: Hash::Sha1,
    hmac: None,
    plaintext_header: 0,
};
const WECHAT_PRAGMAS: &str =
    "PRAGMA cipher_use_hmac = OFF;\nPRAGMA kdf_iter = 4000;\nPRAGMA cipher_page_size = 1024;\n";

fn pass(p: &str) -> Key {
    Key::Passphrase(Zeroizing::new(p.as_bytes().to_vec()))
}

/// Decrypts `db` (with `db-wal` when `wal`) into `out`.
fn open(db: &Path, wal: bool, key: &Key, s: &Settings, out: &Path) -> Result<Report, Error> {
    let bytes = std::fs::read(db).unwrap();
    let log = wal.then(|| std::fs::read(format!("{}-wal", db.display())).unwrap());
    let mut file = std::fs::File::create(out).unwrap();
    decrypt(
        "test.db",
        &mut bytes.as_slice(),
        bytes.len() as u64,
        log.as_deref(),
        key,
        None,
        s,
        &mut file,
    )
}

const ROWS: &str = "SELECT a, b FROM t ORDER BY a;\n";

/// A database of `pragmas` with 200 rows of text over several pages, and a copy (`k.db` with
/// `k.db-wal`) taken while 50 more rows were still only in the write-ahead log.
fn made(dir: &Path, key_pragma: &str, pragmas: &str) -> PathBuf {
    let db = dir.join("t.db");
    let mut script = format!(
        "{key_pragma}{pragmas}PRAGMA journal_mode = WAL;\nPRAGMA wal_autocheckpoint = 0;\nCREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT);\n"
    );
    for i in 1..=200 {
        script.push_str(&format!(
            "INSERT INTO t VALUES ({i}, 'row {i} {}');\n",
            "x".repeat(40)
        ));
    }
    script.push_str("PRAGMA wal_checkpoint(TRUNCATE);\n");
    for i in 201..=250 {
        script.push_str(&format!("INSERT INTO t VALUES ({i}, 'in the log {i}');\n"));
    }
    script.push_str(".shell cp t.db k.db && cp t.db-wal k.db-wal\n");
    cli("sqlcipher", &db, &script);
    dir.join("k.db")
}

/// What the `sqlcipher` CLI reads of `db` and its log with `pragmas` — on a copy, as the CLI
/// checkpoints and removes the log when it closes.
fn oracle(db: &Path, pragmas: &str) -> String {
    let copy = db.with_file_name("oracle.db");
    std::fs::copy(db, &copy).unwrap();
    std::fs::copy(
        format!("{}-wal", db.display()),
        format!("{}-wal", copy.display()),
    )
    .unwrap();
    cli("sqlcipher", &copy, &format!("{pragmas}{ROWS}"))
}

#[test]
fn signal_android_settings_with_rows_only_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let key_pragma = format!("PRAGMA key = '{PASS}';\n");
    let k = made(dir.path(), &key_pragma, SIGNAL_PRAGMAS);
    let oracle = oracle(&k, &format!("{key_pragma}{SIGNAL_PRAGMAS}"));
    assert_eq!(oracle.lines().count(), 250, "the oracle reads the log too");

    let out = dir.path().join("plain.db");
    let report = open(&k, true, &pass(PASS), &SIGNAL, &out).unwrap();
    assert_eq!(cli("sqlite3", &out, ROWS), oracle);
    assert!(report.pages > 1);
    assert_eq!(report.unauthenticated_count, 0);
    let wal = report.wal.clone().unwrap();
    assert!(wal.replayed > 0 && wal.skipped.is_none(), "{wal:?}");
    // every page of the file and every replayed page of the log authenticated
    assert!(report.authenticated > report.pages, "{report:?}");
    let line = report.describe(true);
    assert!(line.contains("every page authenticated"), "{line}");
    assert!(line.contains("committed frames replayed"), "{line}");

    // without the log: the rows written before the checkpoint only
    let without = dir.path().join("without.db");
    open(&k, false, &pass(PASS), &SIGNAL, &without).unwrap();
    let rows = cli("sqlite3", &without, ROWS);
    assert_eq!(rows.lines().count(), 200, "{rows}");
    assert!(!rows.contains("in the log"));
}

#[test]
fn sqlcipher_1_without_hmac_and_a_raw_key() {
    let dir = tempfile::tempdir().unwrap();
    // WeChat's: a 7-hex-digit passphrase, no HMAC
    let wk = dir.path().join("w");
    std::fs::create_dir(&wk).unwrap();
    let k = made(&wk, "PRAGMA key = 'a1b2c3d';\n", WECHAT_PRAGMAS);
    let oracle = oracle(&k, &format!("PRAGMA key = 'a1b2c3d';\n{WECHAT_PRAGMAS}"));
    let out = wk.join("plain.db");
    let report = open(&k, true, &pass("a1b2c3d"), &WECHAT, &out).unwrap();
    assert_eq!(cli("sqlite3", &out, ROWS), oracle);
    assert_eq!(report.authenticated, 0);
    assert!(report.describe(false).contains("not authenticated"));
    // a wrong passphrase does not decrypt to a SQLite header
    let e = open(&k, true, &pass("a1b2c3e"), &WECHAT, &out).unwrap_err();
    assert!(matches!(e, Error::Encrypted { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("does not decrypt to a SQLite header"),
        "{e}"
    );

    // a raw key (x'…') with SQLCipher 3's defaults: no key derivation
    let rk = dir.path().join("r");
    std::fs::create_dir(&rk).unwrap();
    let raw = [0x5au8; 32];
    let k = made(&rk, &format!("PRAGMA key = \"x'{}'\";\n", hex(&raw)), "");
    let out = rk.join("plain.db");
    let report = open(
        &k,
        true,
        &Key::Raw(Zeroizing::new(raw)),
        &Settings::V3,
        &out,
    )
    .unwrap();
    assert_eq!(cli("sqlite3", &out, ROWS).lines().count(), 250);
    assert_eq!(report.unauthenticated_count, 0);
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn wrong_keys_damage_and_truncation_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let key_pragma = format!("PRAGMA key = '{PASS}';\n");
    let k = made(dir.path(), &key_pragma, SIGNAL_PRAGMAS);
    let out = dir.path().join("plain.db");

    // another key: page 1's HMAC does not hold
    let e = open(&k, true, &pass("not the key"), &SIGNAL, &out).unwrap_err();
    assert!(
        matches!(&e, Error::Encrypted { layer, .. } if layer == "test.db"),
        "{e}"
    );
    assert!(e.to_string().contains("its HMAC does not hold"), "{e}");

    // a plain SQLite file is not a SQLCipher one
    let plain = dir.path().join("plain-sqlite.db");
    cli(
        "sqlite3",
        &plain,
        "CREATE TABLE t (a);\nINSERT INTO t VALUES (1);\n",
    );
    let e = open(&plain, false, &pass(PASS), &SIGNAL, &out).unwrap_err();
    assert!(matches!(e, Error::Encrypted { .. }), "{e}");

    // less than a page
    let short = dir.path().join("short.db");
    std::fs::write(&short, &std::fs::read(&k).unwrap()[..1000]).unwrap();
    let e = open(&short, false, &pass(PASS), &SIGNAL, &out).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Truncated {
                offset: 0,
                wanted: 4096,
                ..
            }
        ),
        "{e}"
    );

    // a flipped byte inside the log's second frame: that frame's checksum fails, so it and
    // every later frame are not replayed (as SQLite reads a log), and the read goes on
    let damaged = dir.path().join("d.db");
    std::fs::copy(&k, &damaged).unwrap();
    let mut wal = std::fs::read(format!("{}-wal", k.display())).unwrap();
    let frame2 = 32 + (24 + 4096) + 24 + 100;
    wal[frame2] ^= 0xff;
    std::fs::write(format!("{}-wal", damaged.display()), &wal).unwrap();
    let report = open(&damaged, true, &pass(PASS), &SIGNAL, &out).unwrap();
    let w = report.wal.unwrap();
    assert_eq!(w.valid, 1, "{w:?}");
    assert!(w.ignored > 0, "{w:?}");

    // a flipped byte inside page 2 of the file: decrypted all the same, named as not
    // authenticated
    let mut bytes = std::fs::read(&k).unwrap();
    if bytes.len() < 2 * 4096 {
        // the file holds one page until a checkpoint: take a fuller copy
        let full = dir.path().join("t.db");
        bytes = std::fs::read(full).unwrap();
    }
    bytes[4096 + 10] ^= 1;
    let tampered = dir.path().join("tampered.db");
    std::fs::write(&tampered, &bytes).unwrap();
    let report = open(&tampered, false, &pass(PASS), &SIGNAL, &out).unwrap();
    assert_eq!(report.unauthenticated, vec![2]);
    assert!(report.describe(true).contains("did NOT authenticate"));

    // a file cut inside its last page: the whole pages are read, the rest said
    let cut = dir.path().join("cut.db");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let report = open(&cut, false, &pass(PASS), &SIGNAL, &out).unwrap();
    assert_eq!(report.trailing, 4096 - 100);
    assert_eq!(report.pages, (bytes.len() / 4096 - 1) as u64);
}

/// SQLCipher 4 (SHA512 key derivation and HMAC) as the `sqlcipher3-binary` wheel writes it, with
/// the 32-byte plaintext header Signal for iOS keeps and the salt given beside a raw key; and
/// with a passphrase and SQLCipher 4's 256,000 rounds. The oracle is SQLCipher reading its file.
#[test]
fn sqlcipher_4_with_a_plaintext_header_and_an_outside_salt() {
    const WRITE: &str = r#"
import sqlcipher3, sys, shutil
path, key_pragma, header = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = sqlcipher3.connect(path)
db.execute(key_pragma)
if header:
    db.execute(f'PRAGMA cipher_plaintext_header_size = {header}')
db.execute('PRAGMA journal_mode = WAL')
db.execute('PRAGMA wal_autocheckpoint = 0')
db.execute('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)')
db.executemany('INSERT INTO t VALUES (?, ?)', [(i, f'row {i} ' + 'y' * 50) for i in range(1, 201)])
db.commit()
db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
db.executemany('INSERT INTO t VALUES (?, ?)', [(i, f'in the log {i}') for i in range(201, 231)])
db.commit()
shutil.copy(path, path + '.k')
shutil.copy(path + '-wal', path + '.k-wal')
for a, b in db.execute('SELECT a, b FROM t ORDER BY a'):
    print(f'{a}|{b}')
"#;
    let python = masf_testkit::corpus::py_oracle("python3", "sqlcipher3-binary");
    let dir = tempfile::tempdir().unwrap();
    let key = [0x3cu8; 32];
    let salt = [0xa5u8; 16];
    for (name, pragma, header, open_key, given_salt, settings) in [
        (
            "ios.sqlite",
            format!("PRAGMA key = \"x'{}{}'\"", hex(&key), hex(&salt)),
            32,
            Key::Raw(Zeroizing::new(key)),
            Some(salt),
            Settings {
                plaintext_header: 32,
                ..Settings::V4
            },
        ),
        (
            "v4.sqlite",
            "PRAGMA key = 'correct horse'".to_string(),
            0,
            pass("correct horse"),
            None,
            Settings::V4,
        ),
    ] {
        let path = dir.path().join(name);
        let out = Command::new(&python)
            .arg("-c")
            .arg(WRITE)
            .arg(&path)
            .arg(&pragma)
            .arg(header.to_string())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let oracle = String::from_utf8(out.stdout).unwrap();
        assert_eq!(oracle.lines().count(), 230);
        let k = PathBuf::from(format!("{}.k", path.display()));
        let bytes = std::fs::read(&k).unwrap();
        if header > 0 {
            assert!(
                bytes.starts_with(b"SQLite format 3\0"),
                "the header is in the clear"
            );
        }
        let log = std::fs::read(format!("{}-wal", k.display())).unwrap();
        let plain = dir.path().join(format!("{name}.plain"));
        let mut file = std::fs::File::create(&plain).unwrap();
        let report = decrypt(
            name,
            &mut bytes.as_slice(),
            bytes.len() as u64,
            Some(&log),
            &open_key,
            given_salt,
            &settings,
            &mut file,
        )
        .unwrap();
        drop(file);
        assert_eq!(report.unauthenticated_count, 0, "{report:?}");
        assert!(report.wal.as_ref().is_some_and(|w| w.replayed > 0));
        assert_eq!(cli("sqlite3", &plain, ROWS), oracle);
        // the salt is needed when the header is in the clear
        if header > 0 {
            let mut file = std::fs::File::create(&plain).unwrap();
            let e = decrypt(
                name,
                &mut bytes.as_slice(),
                bytes.len() as u64,
                None,
                &open_key,
                None,
                &settings,
                &mut file,
            )
            .unwrap_err();
            assert!(e.to_string().contains("the salt must be given"), "{e}");
        }
    }
}
