//! Skype for Android (`android::skype`) on two phones: KW's store `live:kw.trader`
//! (`tests/fixtures/skype/live.sql`, built by the sqlite3 CLI) and CASH LAM's, the same rows
//! seen from the other side (the account renamed, directions flipped). Every row and field of
//! ALEAPP's Skype messages, calls and contacts queries (run here by the CLI) is found; each
//! phone's user is the other's contact by Skype id; a truncated copy and a `chatitem` of
//! another layout are noted; a `live` file of another app is passed over.

use std::path::Path;

use masf_graph::Phenomenon;

use crate::android_support::{Run, sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn check(run: &Run, source: &str, db: &Path) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let rows = sqlite3(
        db,
        "SELECT time, conversation_link, person_id, content, device_gallery_path, is_sender_me, message_type, \
         CASE WHEN message_type = 3 THEN duration END FROM chatitem",
    );
    let mine: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Skype message ") || p.title.contains(" call "))
        .collect();
    assert_eq!(mine.len(), rows.len(), "{source}");
    for row in &rows {
        let p = mine
            .iter()
            .find(|p| has(p, &row[0]) && has(p, &row[2]))
            .unwrap_or_else(|| panic!("{source}: {row:?}"));
        for v in [&row[1], &row[3], &row[4], &row[7]] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
        assert_eq!(p.category, if row[6] == "3" { "calls" } else { "messages" });
        let out = p.title.contains(" sent to ") || p.title.contains("outgoing");
        assert_eq!(out, row[5] == "1", "{}", p.title);
    }
    for row in sqlite3(db, "SELECT entry_id, first_name, last_name FROM person") {
        let p = all
            .iter()
            .find(|p| p.title.starts_with("Skype contact ") && has(p, &row[0]))
            .unwrap_or_else(|| panic!("{source}: {row:?}"));
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
    }
}

#[test]
fn skype_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let kw = tmp.path().join("kw");
    let dir = kw.join("data/data/com.skype.raider/databases");
    let db = dir.join("live:kw.trader");
    sqlite_fixture(&db, "skype/live.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &kw,
        "com.skype.raider/databases/live:kw.trader",
        "CREATE TABLE chatitem (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO chatitem VALUES (1, 'x');",
    );
    crate::ios_nearby::sqlite3(
        &kw.join("data/data/com.example.tv/databases/live:channels"),
        "CREATE TABLE chatitem (x); INSERT INTO chatitem VALUES (1);",
    );
    std::fs::create_dir_all(kw.join("data/system/users/0")).unwrap();

    let lam = tmp.path().join("lam");
    let ldb = lam.join("data/data/com.skype.raider/databases/live:cash.lam");
    sqlite_fixture(
        &ldb,
        "skype/live.sql",
        "UPDATE person SET entry_id = '8:live:kw.trader', first_name = 'KW', last_name = 'Trader' WHERE entry_id = '8:live:cash.lam'; \
         UPDATE chatitem SET conversation_link = '8:live:kw.trader' WHERE conversation_link = '8:live:cash.lam'; \
         UPDATE chatitem SET is_sender_me = 1 - is_sender_me WHERE conversation_link = '8:live:kw.trader'; \
         UPDATE chatitem SET person_id = CASE person_id WHEN '8:live:kw.trader' THEN '8:live:cash.lam' WHEN '8:live:cash.lam' THEN '8:live:kw.trader' ELSE person_id END;",
    );
    std::fs::create_dir_all(lam.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("kw", &kw, "Asia/Hong_Kong", Some("HK")),
        ("lam", &lam, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    check(&run, "kw", &db);
    check(&run, "lam", &ldb);
    let all = run.all_phenomena("kw");
    let call = all
        .iter()
        .find(|p| p.title == "Skype outgoing call to 8:live:cash.lam")
        .expect("the call");
    assert!(has(call, "1701000195000"), "{call:#?}");
    assert!(
        run.entities("kw")
            .iter()
            .any(|e| e.starts_with("skype:live:cash.lam [Person] Lam Cash:")
                && e.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")),
        "{:#?}",
        run.entities("kw")
    );
    assert!(
        !all.iter().any(|p| p
            .verified_facts
            .iter()
            .any(|f| f.value.contains("live:channels"))
            && p.title.starts_with("Skype")),
        "another app's file was read"
    );
    let with = crate::who::resolved(&run);
    assert!(
        with("kw/owner").contains(&"lam/skype:live:kw.trader".to_string()),
        "{:#?}",
        with("kw/owner")
    );
    assert!(
        with("lam/owner").contains(&"kw/skype:live:cash.lam".to_string()),
        "{:#?}",
        with("lam/owner")
    );
    run.assert_noted(
        "kw",
        &[
            (
                "user/10/com.skype.raider/databases/live:kw.trader",
                "malformed",
            ),
            (
                "user/11/com.skype.raider/databases/live:kw.trader",
                "table chatitem lacks conversation_link, time, is_sender_me",
            ),
        ],
    );
}
