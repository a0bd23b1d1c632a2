//! Chromium-family browsing history (`plugins::browsers`), read on two kinds of evidence: an
//! Android data tree (Chrome's `app_chrome/Default/History`) and a USB stick (a FAT image made
//! with mkfs.vfat and mcopy) holding a Windows Chrome profile. The database is built at test
//! time by the sqlite3 CLI from Chromium's own schema (`tests/fixtures/chromium/history.sql`);
//! every value is checked against the sqlite3 CLI's reading of it. Beside it, the profile's
//! `Bookmarks` JSON, written by Python's json module in Chrome's layout (three-space indent,
//! `<` escaped as `\u003C` as Chrome's writer does).

use std::path::{Path, PathBuf};
use std::process::Command;

use masf_graph::Phenomenon;

use crate::android_support::{repo, triage};

/// Chromium's `History` at `to`, built by the sqlite3 CLI from the fixture schema.
pub fn build_history(to: &Path) {
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

/// The rows of `sql` as the sqlite3 CLI reads them (read-only), each as its columns.
pub fn sqlite3(db: &Path, sql: &str) -> Vec<Vec<String>> {
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
    // read once, though the Android parsers and the tree triage both run on the tree
    let reads = run
        .outputs(source)
        .iter()
        .filter(|(tool, args, _)| tool == "sqlite_tables" && args.contains("/History\""))
        .count();
    assert_eq!(reads, 1, "{source}");
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

/// A profile's `Bookmarks` file beside its `History`.
fn write_bookmarks(profile: &Path) {
    let script = r#"
import json, sys
def url(i, name, u, added, used='0'):
    return {'date_added': added, 'date_last_used': used, 'guid': '6f1c%04d-aaaa-4bbb-8ccc-0123456789ab' % i,
            'id': str(i), 'name': name, 'type': 'url', 'url': u}
def folder(i, name, children):
    return {'children': children, 'date_added': '13340000000000000', 'date_modified': '0',
            'guid': '0bf0%04d-aaaa-4bbb-8ccc-0123456789ab' % i, 'id': str(i), 'name': name, 'type': 'folder'}
roots = {'bookmark_bar': folder(1, 'Bookmarks bar', [
            url(5, 'OKX | Buy Bitcoin', 'https://www.okx.com/', '13350000000000000', '13350000123000000'),
            folder(6, 'Crypto', [url(7, 'TronScan 交易', 'https://tronscan.org/#/address/TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2', '13350000200000000'),
                                 url(8, 'Cold <wallet> guide', 'https://example.org/cold?a=1&b=2', '13350000300000000')])]),
         'other': folder(2, 'Other bookmarks', []),
         'synced': folder(3, 'Mobile bookmarks', [url(9, 'Harbour City', 'https://www.harbourcity.com.hk/', '13350000400000000')])}
text = json.dumps({'checksum': '0f3e1b2c', 'roots': roots, 'version': 1}, indent=3, ensure_ascii=False)
open(sys.argv[1], 'w', encoding='utf-8').write(text.replace('<', '\\u003C').replace('>', '\\u003E'))
"#;
    let st = Command::new("python3")
        .args(["-c", script])
        .arg(profile.join("Bookmarks"))
        .status()
        .unwrap();
    assert!(st.success());
}

/// The four bookmarks of [`write_bookmarks`], each with its folder; the name Chrome wrote
/// with `\u003C` is left out of the facts, its URL and times kept.
fn check_bookmarks(run: &crate::android_support::Run, source: &str) {
    let marks: Vec<Phenomenon> = run
        .all_phenomena(source)
        .into_iter()
        .filter(|p| p.title.starts_with("Chrome bookmark: "))
        .collect();
    let mut titles: Vec<&str> = marks.iter().map(|p| p.title.as_str()).collect();
    titles.sort();
    assert_eq!(
        titles,
        [
            "Chrome bookmark: Cold <wallet> guide",
            "Chrome bookmark: Harbour City",
            "Chrome bookmark: OKX | Buy Bitcoin",
            "Chrome bookmark: TronScan 交易",
        ]
    );
    let find = |t: &str| marks.iter().find(|p| p.title.ends_with(t)).unwrap();
    let okx = find("OKX | Buy Bitcoin");
    for v in [
        "https://www.okx.com/",
        "OKX | Buy Bitcoin",
        "Bookmarks bar",
        "13350000000000000",
        "13350000123000000",
    ] {
        assert!(has(okx, v), "{v}: {:#?}", okx.verified_facts);
    }
    assert_eq!(okx.times.len(), 2);
    let tron = find("TronScan 交易");
    assert!(has(tron, "Crypto"));
    assert!(tron.interpretation.contains("Bookmarks bar > Crypto"));
    let cold = find("Cold <wallet> guide");
    assert!(has(cold, "https://example.org/cold?a=1&b=2"));
    assert!(
        !cold
            .verified_facts
            .iter()
            .any(|f| f.value.contains("wallet>")),
        "{:#?}",
        cold.verified_facts
    );
    // not used: no last-used time
    assert_eq!(cold.times.len(), 1);
    assert!(has(find("Harbour City"), "Mobile bookmarks"));
}

#[test]
fn chrome_history_on_an_android_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let db: PathBuf = tmp
        .path()
        .join("data/data/com.android.chrome/app_chrome/Default/History");
    build_history(&db);
    write_bookmarks(db.parent().unwrap());
    // a second browser's Bookmarks cut in half: noted, the first profile still read
    let edge = tmp
        .path()
        .join("data/data/com.microsoft.emmx/app_chrome/Default");
    std::fs::create_dir_all(&edge).unwrap();
    write_bookmarks(&edge);
    let whole = std::fs::read(edge.join("Bookmarks")).unwrap();
    std::fs::write(edge.join("Bookmarks"), &whole[..whole.len() / 2]).unwrap();
    let run = triage(&[("p", tmp.path(), "Asia/Hong_Kong", Some("HK"))]);
    check(&run, "p", &db, "Chrome");
    check_bookmarks(&run, "p");
    assert!(
        run.unparsed("p")
            .iter()
            .any(|u| u.artefact.contains("com.microsoft.emmx")
                && u.reason.contains("could not parse the Chromium bookmarks")),
        "{:#?}",
        run.unparsed("p")
    );
}

#[test]
fn chrome_history_of_a_windows_profile_on_a_usb_stick() {
    let tmp = tempfile::tempdir().unwrap();
    let stage = tmp.path().join("stage");
    let db = stage.join("Users/lam/AppData/Local/Google/Chrome/User Data/Default/History");
    build_history(&db);
    write_bookmarks(db.parent().unwrap());
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
    check_bookmarks(&run, "usb");
}

/// Chrome on an iPhone: the same `History` in the app container's
/// `Library/Application Support/Google/Chrome/Default/`, read by the iOS plugin; every visit as
/// the sqlite3 CLI reads it.
#[test]
fn chrome_history_on_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let profile = tmp.path().join(
        "private/var/mobile/Containers/Data/Application/2C4E6A8B-0D1F-4A3C-9E5B-7D9F1B3D5F7A/Library/Application Support/Google/Chrome/Default",
    );
    build_history(&profile.join("History"));
    std::fs::create_dir_all(tmp.path().join("private/var/mobile/Library")).unwrap();
    let o = crate::ios_support::triage(tmp.path(), "Asia/Hong_Kong");
    crate::ios_support::assert_all_accepted(&o);
    let visits = sqlite3(
        &profile.join("History"),
        "SELECT v.id, u.url FROM visits v JOIN urls u ON u.id = v.url",
    );
    assert!(!visits.is_empty());
    for row in &visits {
        let title = format!("Chrome visit {} to {}", row[0], row[1]);
        assert!(
            o.findings().iter().any(|p| p.title == title),
            "{title}: {:#?}",
            o.findings().iter().map(|p| &p.title).collect::<Vec<_>>()
        );
    }
}

/// More visits than one page: the fixture's `History` topped up by the sqlite3 CLI to 2,504
/// visits of one more URL; every visit is one phenomenon, read in two `sqlite_query` pages, a
/// visit past the first page citing the page with `OFFSET 2000`.
#[test]
fn chrome_history_longer_than_a_page() {
    let tmp = tempfile::tempdir().unwrap();
    let db: PathBuf = tmp
        .path()
        .join("data/data/com.android.chrome/app_chrome/Default/History");
    build_history(&db);
    let out = Command::new("sqlite3")
        .arg(&db)
        .arg(
            "INSERT INTO urls (id, url, title, visit_count, typed_count, last_visit_time, hidden) VALUES (900, 'https://bulk.example.org/', 'bulk', 2500, 0, 13317100000000000, 0); \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500) \
             INSERT INTO visits (id, url, visit_time, from_visit, transition, visit_duration) SELECT 1000 + i, 900, 13317000000000000 + i * 1000000, 0, 805306368, 0 FROM n;",
        )
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = triage(&[("p", tmp.path(), "Asia/Hong_Kong", Some("HK"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("p");
    let visits: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Chrome visit "))
        .collect();
    let total = sqlite3(&db, "SELECT count(*) FROM visits")[0][0].clone();
    assert_eq!(visits.len().to_string(), total);
    let args: std::collections::BTreeMap<String, String> = run
        .session
        .invocation_summaries()
        .unwrap()
        .into_iter()
        .map(|i| (i.id, i.args))
        .collect();
    let last = visits
        .iter()
        .find(|p| p.title.starts_with("Chrome visit 3500 "))
        .expect("the last visit");
    let cited = &args[&last
        .verified_facts
        .iter()
        .find(|f| f.value == "13317002500000000")
        .expect("its time")
        .invocation_id];
    assert!(cited.contains("LIMIT -1 OFFSET 2000"), "{cited}");
}
