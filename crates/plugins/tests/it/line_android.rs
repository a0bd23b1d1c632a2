//! LINE for Android's calls and groups (`android::line`) on two phones: device a's
//! `naver_line` (tests/fixtures/asia, with `membership` and `chat`) beside a `call_history`
//! built by the sqlite3 CLI (`tests/fixtures/line/call_history.sql`), device b's older
//! `naver_line` (no `membership`) beside a `call_history` of five columns. Every row and field
//! of ALEAPP's LINE call-log query (run here by the CLI, `naver_line` attached as ALEAPP does)
//! is found, and every member of a group; another app's `call_history` is passed over; a
//! truncated copy and a LINE `call_history` of another layout are noted.

use std::path::{Path, PathBuf};

use masf_graph::Phenomenon;

use crate::android_support::{Run, repo, sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

/// `data/user/0/jp.naver.line.android/databases` of a tree at `root` holding device `dev`'s
/// `naver_line`.
fn line_dir(root: &Path, dev: &str) -> PathBuf {
    let dir = root.join("data/user/0/jp.naver.line.android/databases");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        repo(&format!(
            "tests/fixtures/asia/out/line-android-{dev}/naver_line"
        )),
        dir.join("naver_line"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    dir
}

/// ALEAPP's LINE call-log rows of `dir` (its `call_history` with `naver_line` attached).
fn aleapp_calls(dir: &Path) -> Vec<Vec<String>> {
    sqlite3(
        &dir.join("call_history"),
        &format!(
            "ATTACH '{}' AS naver_line; \
             SELECT CASE substr(calls.call_type, -1) WHEN 'O' THEN 'outgoing' ELSE 'incoming' END, calls.start_time, calls.end_time, \
             calls.caller_mid, CASE calls.voip_type WHEN 'V' THEN 'video' WHEN 'A' THEN 'voice' WHEN 'G' THEN calls.voip_gc_media_type END, \
             CASE WHEN substr(calls.call_type, -1) = 'O' THEN cb.members END \
             FROM (SELECT id, group_concat(M.m_id) AS members FROM membership AS M GROUP BY id UNION SELECT m_id, NULL FROM naver_line.contacts) AS cb \
             JOIN call_history AS calls ON calls.caller_mid = cb.id",
            dir.join("naver_line").display()
        ),
    )
}

fn check_calls(run: &Run, source: &str, rows: &[Vec<String>]) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    for row in rows {
        let p = all
            .iter()
            .find(|p| p.category == "calls" && has(p, &row[1]) && has(p, &row[3]))
            .unwrap_or_else(|| panic!("{source}: {row:?}"));
        assert!(has(p, &row[2]), "{p:#?}");
        assert!(
            p.title.starts_with(&format!("LINE {} ", row[0])),
            "{}",
            p.title
        );
        assert!(p.title.contains(&row[4]), "{} / {}", p.title, row[4]);
        // an outgoing call to a group: ALEAPP's "To ID" lists its members, our group does
        if !row[5].is_empty() {
            let group = all
                .iter()
                .find(|g| g.title.starts_with("LINE group ") && has(g, &row[3]))
                .unwrap_or_else(|| panic!("group {}", row[3]));
            for m in row[5].split(',') {
                assert!(has(group, m), "{m} in {group:#?}");
            }
        }
    }
}

#[test]
fn line_calls_and_groups_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let dir_a = line_dir(&a, "a");
    sqlite_fixture(
        &dir_a.join("call_history"),
        "line/call_history.sql",
        "SELECT 1;",
    );
    // another app's call_history, passed over; a truncated LINE copy and one of another layout
    let other = a.join("data/user/0/com.example.dialer/databases/call_history");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    crate::ios_nearby::sqlite3(
        &other,
        "CREATE TABLE calls (id INTEGER, number TEXT); INSERT INTO calls VALUES (1, '+85291234567');",
    );
    let user10 = a.join("data/user/10/jp.naver.line.android/databases");
    std::fs::create_dir_all(&user10).unwrap();
    let bytes = std::fs::read(dir_a.join("call_history")).unwrap();
    std::fs::write(user10.join("call_history"), &bytes[..bytes.len() / 3]).unwrap();
    let user11 = a.join("data/user/11/jp.naver.line.android/databases/call_history");
    std::fs::create_dir_all(user11.parent().unwrap()).unwrap();
    crate::ios_nearby::sqlite3(
        &user11,
        "CREATE TABLE call_history (id INTEGER, peer TEXT, start_time INTEGER);",
    );

    let b = tmp.path().join("b");
    let dir_b = line_dir(&b, "b");
    crate::ios_nearby::sqlite3(
        &dir_b.join("call_history"),
        "CREATE TABLE call_history (caller_mid TEXT, call_type TEXT, start_time INTEGER, end_time INTEGER, voip_type TEXT); \
         INSERT INTO call_history VALUES ('u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e', 'I', 1736000200000, 1736000300000, 'A');",
    );
    // device b has no membership table: ALEAPP's query fails there, ours does not need it
    let rows_b = vec![vec![
        "incoming".to_string(),
        "1736000200000".to_string(),
        "1736000300000".to_string(),
        "u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e".to_string(),
        "voice".to_string(),
        String::new(),
    ]];

    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert!(run.rejections().is_empty(), "{:#?}", run.rejections());
    let rows_a = aleapp_calls(&dir_a);
    assert_eq!(rows_a.len(), 4, "{rows_a:?}");
    check_calls(&run, "a", &rows_a);
    check_calls(&run, "b", &rows_b);
    let calls_a: Vec<_> = run
        .all_phenomena("a")
        .into_iter()
        .filter(|p| p.category == "calls" && p.title.starts_with("LINE "))
        .collect();
    assert_eq!(calls_a.len(), 4, "the other app's calls are not LINE's");

    // the group: its name from chat, every member with the name the owner gave
    let all = run.all_phenomena("a");
    let group = all
        .iter()
        .find(|p| p.title == "LINE group OTC desk")
        .expect("the group");
    for v in [
        "c1e2d3c4b5a6978877665544332211aab",
        "u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e",
        "Mei (OTC)",
        "u77aa88bb99cc00dd11ee22ff33aa44bb",
        "Kenji",
        "1730000000000",
    ] {
        assert!(has(group, v), "{v} in {group:#?}");
    }
    // the call's other party is the contact the messages know
    assert!(
        run.entities("a").iter().any(|e| e.starts_with(
            "line:u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e [Person] Mei (OTC): account_id=line:u3f0b7c2e9a8d4f6b1c5e7a9d2b4f6c8e"
        )),
        "{:#?}",
        run.entities("a")
    );
    run.assert_noted(
        "a",
        &[
            (
                "user/10/jp.naver.line.android/databases/call_history",
                "malformed",
            ),
            (
                "user/11/jp.naver.line.android/databases/call_history",
                "table call_history lacks caller_mid, call_type",
            ),
        ],
    );
    let notes = run.unparsed("a");
    assert!(
        !notes
            .iter()
            .any(|u| u.artefact.contains("com.example.dialer")),
        "{notes:#?}"
    );
}
