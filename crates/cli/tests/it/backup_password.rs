//! Encrypted iTunes/Finder backups end to end: the password is named by an environment
//! variable (`--backup-password-env` on the evidence commands, `password_env:` in case.yaml),
//! read by every process that opens the source (the tool workers included), and never written:
//! the fixture `tests/fixtures/ios-backup-enc` (made by its generate.py from the plain backup
//! `tests/fixtures/itunes/backup`, checked by iphone-backup-decrypt) must read exactly as the
//! plain backup does, and no file masf writes may hold the password.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::repo;

const PASSWORD: &str = "masf-test-Passw0rd";
const VAR: &str = "MASF_TEST_BACKUP_PW";
const UDID: &str = "00008030-001A2B3C4D5E802E";

fn encrypted() -> PathBuf {
    repo()
        .join("tests/fixtures/ios-backup-enc/backup")
        .join(UDID)
        .canonicalize()
        .unwrap()
}

fn plain() -> PathBuf {
    repo()
        .join("tests/fixtures/itunes/backup")
        .join(UDID)
        .canonicalize()
        .unwrap()
}

/// `masf ARGS` with the password variable set to `password` (or removed).
fn masf_env(args: &[&str], password: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_masf"));
    cmd.args(args);
    match password {
        Some(p) => cmd.env(VAR, p),
        None => cmd.env_remove(VAR),
    };
    cmd.output().expect("masf runs")
}

fn ok(out: Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Every (path, size) of `masf ls -r --json SPEC`.
fn listing(stdout: &str) -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = stdout
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["path"].as_str().unwrap().to_string(),
                v["size"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn evidence_commands_read_an_encrypted_backup_with_the_password_env_flag() {
    let enc = encrypted();
    let enc_s = enc.to_str().unwrap();
    let plain_s = plain().to_str().unwrap().to_string();

    // Without a password: the layer says the backup is encrypted and how to give one.
    let ins: Value = serde_json::from_str(&ok(
        masf_env(&["inspect", enc_s, "--json"], None),
        "inspect",
    ))
    .unwrap();
    let backup_layer = |ins: &Value| -> Value {
        ins["layers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["kind"] == "itunes_backup")
            .cloned()
            .unwrap_or_else(|| panic!("no itunes_backup layer: {ins}"))
    };
    let problem = backup_layer(&ins)["problem"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(problem.contains("encrypted backup"), "{ins}");

    // With it: the layer reads, and says it was decrypted.
    let args = ["inspect", enc_s, "--json", "--backup-password-env", VAR];
    let ins: Value = serde_json::from_str(&ok(masf_env(&args, Some(PASSWORD)), "inspect")).unwrap();
    let layer = &backup_layer(&ins);
    assert!(layer["problem"].is_null(), "{ins}");
    assert!(layer["files"].as_u64().unwrap() > 3, "{ins}");
    assert!(!ins.to_string().contains(PASSWORD));

    // ls -r equals the plain backup's listing; cat gives the plain bytes.
    let spec = format!("{enc_s}:/");
    let got = listing(&ok(
        masf_env(
            &["ls", "-r", "--json", &spec, "--backup-password-env", VAR],
            Some(PASSWORD),
        ),
        "ls",
    ));
    let want = listing(&ok(
        masf_env(&["ls", "-r", "--json", &format!("{plain_s}:/")], None),
        "ls plain",
    ));
    // The device tree is the same; `/.backup` holds each backup's own files (Manifest.db and
    // Manifest.plist as stored: encrypted, and with the keybag, in the encrypted one).
    let tree = |rows: &[(String, u64)]| -> Vec<(String, u64)> {
        rows.iter()
            .filter(|(p, _)| !p.starts_with("/.backup"))
            .cloned()
            .collect()
    };
    assert!(tree(&want).len() > 5, "{want:?}");
    assert_eq!(tree(&got), tree(&want));
    assert!(got.iter().any(|(p, _)| p == "/.backup/Manifest.plist"));
    let (file, size) = want
        .iter()
        .filter(|(p, s)| *s > 0 && p.ends_with(".db") && !p.starts_with("/.backup"))
        .max_by_key(|(_, s)| *s)
        .expect("a database in the backup")
        .clone();
    let out = masf_env(
        &[
            "cat",
            &format!("{enc_s}:{file}"),
            "--backup-password-env",
            VAR,
        ],
        Some(PASSWORD),
    );
    let bytes = ok_bytes(out);
    assert_eq!(bytes.len() as u64, size);
    let plain_bytes = ok_bytes(masf_env(&["cat", &format!("{plain_s}:{file}")], None));
    assert_eq!(bytes, plain_bytes, "{file}");

    // A wrong password and an unset variable are errors that say so, never echo a password.
    let out = masf_env(
        &[
            "cat",
            &format!("{enc_s}:{file}"),
            "--backup-password-env",
            VAR,
        ],
        Some("not-the-password"),
    );
    assert!(!out.status.success() && out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.to_lowercase().contains("password"), "{err}");
    assert!(!err.contains("not-the-password"), "{err}");
    let out = masf_env(&["ls", &spec, "--backup-password-env", VAR], None);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(VAR) && err.contains("not set"), "{err}");
}

fn ok_bytes(out: Output) -> Vec<u8> {
    assert!(
        out.status.success(),
        "masf cat failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A case of one source, the backup at `path`, with `extra` lines in its source entry.
fn case(dir: &Path, path: &Path, extra: &str) -> String {
    let text = format!(
        "case:\n  id: backup-pw\n  title: Encrypted backup\n  examiner: J. Doe\n  \
         timezone: Asia/Hong_Kong\n  region: HK\nsources:\n  - id: src-backup\n    \
         label: iTunes backup\n    path: {}\n    timezone: Asia/Hong_Kong\n{extra}",
        path.display()
    );
    std::fs::create_dir_all(dir).unwrap();
    let case = dir.join("case.yaml");
    std::fs::write(&case, text).unwrap();
    case.to_str().unwrap().to_string()
}

/// The sorted titles of the report's phenomena.
fn titles(out: &Path) -> Vec<String> {
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let mut t: Vec<String> = report["phenomena"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["title"].as_str().unwrap_or_default().to_string())
        .collect();
    t.sort();
    t
}

/// Every file below `dir` whose bytes hold `needle`.
fn files_holding(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read(&p)
                .unwrap()
                .windows(needle.len())
                .any(|w| w == needle)
            {
                found.push(p);
            }
        }
    }
    found
}

#[test]
fn a_run_over_an_encrypted_backup_finds_what_the_plain_one_gives_and_writes_no_password() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, path: &Path, extra: &str, password: Option<&str>| {
        let case = case(&tmp.path().join(name), path, extra);
        let work = tmp.path().join(name).join("work");
        let out = tmp.path().join(name).join("out");
        let args = [
            "run",
            case.as_str(),
            "--work",
            work.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        (masf_env(&args, password), out)
    };
    let (o, plain_out) = run("plain", &plain(), "", None);
    ok(o, "run plain");
    let want = titles(&plain_out);
    assert!(want.len() >= 3, "{want:?}");

    let extra = format!("    password_env: {VAR}\n");
    let (o, enc_out) = run("enc", &encrypted(), &extra, Some(PASSWORD));
    ok(o, "run encrypted");
    assert_eq!(titles(&enc_out), want);
    let holding = files_holding(&tmp.path().join("enc"), PASSWORD.as_bytes());
    assert!(holding.is_empty(), "the password is written in {holding:?}");

    // The variable unset: the source is not read, and the run says which variable is missing.
    let (o, _) = run("unset", &encrypted(), &extra, None);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(all.contains(VAR), "{all}");
}
