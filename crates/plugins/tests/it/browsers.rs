//! Chromium-family browsing history (`plugins::browsers`), read on two kinds of evidence: an
//! Android data tree (Chrome's `app_chrome/Default/History`) and a USB stick (a FAT image made
//! with mkfs.vfat and mcopy) holding a Windows Chrome profile. The database is built at test
//! time by the sqlite3 CLI from Chromium's own schema (`tests/fixtures/chromium/history.sql`);
//! every value is checked against the sqlite3 CLI's reading of it.

use std::path::{Path, PathBuf};
use std::process::Command;

use masf_graph::Phenomenon;

use crate::android_support::{repo, triage};

fn build_history(to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let out = Command::new("sqlite3")
        .arg(to)
        .arg(format!(
            ".read {}",
            repo("tests/fixtures/chromium/history.sql").display()
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn sqlite3(db: &Path, sql: &str) -> Vec<Vec<String>> {
    let out = Command::new("sqlite3")
        .args(["-readonly", "-separator", "\u{1f}"])
        .arg(db)
        .arg(sql)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\u{1f}').map(str::to_string).collect())
        .collect()
}

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

/// Checks the phenomena of `source` against the database at `db`.
fn check(run: &crate::android_support::Run, source: &str, db: &Path, browser: &str) {
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena(source);
    let of = |prefix: String| -> Vec<&Phenomenon> {
        all.iter()
            .filter(|p| p.title.starts_with(&prefix))
            .collect()
    };
    let visits = of(format!("{browser} visit "));
    let want = sqlite3(
        db,
        "SELECT v.id, u.url, v.visit_time, u.visit_count, ifnull((SELECT fu.url FROM visits fv JOIN urls fu ON fu.id = fv.url WHERE fv.id = v.from_visit), '') FROM visits v JOIN urls u ON u.id = v.url WHERE instr(u.title, char(10)) = 0",
    );
    assert_eq!(
        visits.len(),
        4,
        "{:?}",
        visits.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    for r in &want {
        let p = visits
            .iter()
            .find(|p| p.title.starts_with(&format!("{browser} visit {} ", r[0])))
            .unwrap_or_else(|| panic!("visit {}", r[0]));
        for v in &r[1..] {
            assert!(v.is_empty() || has(p, v), "visit {}: {v}", r[0]);
        }
    }
    // a multi-line title, cited as sqlite_query escapes it
    let otc = visits
        .iter()
        .find(|p| p.title.contains("otc.example.com"))
        .unwrap();
    assert!(has(otc, "OTC desk — buy & sell\\nUSDT"));
    assert!(otc.interpretation.contains("form submit (chain end)"));
    let typed = visits
        .iter()
        .find(|p| p.title.starts_with(&format!("{browser} visit 1 ")))
        .unwrap();
    assert!(
        typed
            .interpretation
            .contains("typed (from the address bar, chain start, chain end)")
    );
    assert!(typed.interpretation.contains("open for 4.2 s"));

    let downloads = of(format!("{browser} download "));
    assert_eq!(downloads.len(), 1);
    let d = downloads[0];
    for r in sqlite3(
        db,
        "SELECT target_path, tab_url, referrer, received_bytes, total_bytes, mime_type, start_time, end_time, last_access_time FROM downloads",
    ) {
        for v in &r {
            assert!(has(d, v), "download: {v}");
        }
    }
    for r in sqlite3(
        db,
        "SELECT url FROM downloads_url_chains ORDER BY chain_index",
    ) {
        assert!(has(d, &r[0]), "chain: {}", r[0]);
    }
    assert!(d.interpretation.contains("complete (48213 of 48213 bytes"));

    let searches = of(format!("{browser} search "));
    assert_eq!(searches.len(), 1);
    assert!(has(searches[0], "usdt trc20 exchange hong kong"));
    assert!(has(searches[0], "13317004800000000"));
    // WebKit times reach the timeline as such
    assert!(visits.iter().all(|p| {
        p.times
            .iter()
            .all(|t| t.encoding == masf_graph::TimeEncoding::Webkit)
    }));
}

#[test]
fn chrome_history_on_an_android_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let db: PathBuf = tmp
        .path()
        .join("data/data/com.android.chrome/app_chrome/Default/History");
    build_history(&db);
    let run = triage(&[("p", tmp.path(), "Asia/Hong_Kong", Some("HK"))]);
    check(&run, "p", &db, "Chrome");
}

#[test]
fn chrome_history_of_a_windows_profile_on_a_usb_stick() {
    let tmp = tempfile::tempdir().unwrap();
    let stage = tmp.path().join("stage");
    let db = stage.join("Users/lam/AppData/Local/Google/Chrome/User Data/Default/History");
    build_history(&db);
    let img = tmp.path().join("stick.img");
    let ok = |cmd: &mut Command| {
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{cmd:?}: {out:?}");
    };
    ok(Command::new("mkfs.vfat")
        .args(["-C", "-n", "STICK"])
        .arg(&img)
        .arg("4096"));
    ok(Command::new("mcopy")
        .arg("-i")
        .arg(&img)
        .arg("-s")
        .arg(stage.join("Users"))
        .arg("::/"));
    let run = triage(&[("usb", &img, "Asia/Hong_Kong", Some("HK"))]);
    check(&run, "usb", &db, "Chrome");
}
