//! Samsung Notes (`android::samsungnotes`): `sdoc.db` (`tests/fixtures/samsungnotes/`, built by
//! the sqlite3 CLI with the columns ALEAPP's `snotes` reads) on one phone, an older table
//! without the opened times and the recycle bin on another. Every row and field of ALEAPP's
//! query (run here by the CLI, the content cast to text as ALEAPP decodes it) is found; a time
//! of 0 is no time; a deleted note says so; the wallet address written in a note is the phone
//! user's claim; a truncated copy and a table without `createdAt` are noted.

use masf_graph::Phenomenon;

use crate::android_support::{damaged_copies, has_fact, rows_in, sqlite_fixture, triage};

fn notes(all: &[Phenomenon]) -> Vec<&Phenomenon> {
    all.iter()
        .filter(|p| p.title.starts_with("Samsung note "))
        .collect()
}

#[test]
fn samsung_notes_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let db = a.join("data/data/com.samsung.android.app.notes/databases/sdoc.db");
    sqlite_fixture(&db, "samsungnotes/sdoc.sql", "SELECT 1;");
    damaged_copies(
        &a,
        "com.samsung.android.app.notes/databases/sdoc.db",
        "CREATE TABLE sdoc (title TEXT); INSERT INTO sdoc VALUES ('x');",
    );
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();
    let b = tmp.path().join("b");
    let bdb = b.join("data/data/com.samsung.android.app.notes/databases/sdoc.db");
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE sdoc (title TEXT, content BLOB, createdAt INTEGER, lastModifiedAt INTEGER); \
         INSERT INTO sdoc VALUES ('Shopping', CAST('milk, eggs' AS BLOB), 1600000000000, 1600000100000);",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "Europe/Oslo", Some("NO")),
        ("b", &b, "Europe/Oslo", Some("NO")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    let found = notes(&all);
    // ALEAPP's query; a 0 time is no time, so the zeros are left out of the comparison
    let aleapp = "SELECT createdAt, NULLIF(lastModifiedAt, 0), title, CAST(content AS TEXT), isDeleted, \
                  NULLIF(recycle_bin_time_moved, 0), NULLIF(firstOpendAt, 0), NULLIF(secondOpenedAt, 0), \
                  NULLIF(lastOpenedAt, 0), filePath FROM sdoc sd";
    assert_eq!(rows_in(&found, &db, aleapp, 0, ""), 3);
    assert_eq!(found.len(), 3, "{found:#?}");
    for p in &found {
        assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
        assert_eq!(p.category, "notes");
        assert!(
            !p.times
                .iter()
                .any(|t| p.verified_facts[t.fact].value == "0")
        );
    }
    let deleted = found
        .iter()
        .find(|p| p.title == "Samsung note 2: Passcodes")
        .unwrap();
    assert!(deleted.interpretation.contains("in the recycle bin"));
    assert!(
        deleted
            .times
            .iter()
            .any(|t| t.description == "Samsung note moved to the recycle bin")
    );
    let untitled = found
        .iter()
        .find(|p| p.title == "Samsung note 3: untitled")
        .unwrap();
    assert_eq!(untitled.times.len(), 3, "{untitled:#?}");
    assert!(
        run.owner("a")
            .to_lowercase()
            .contains("0x1850ce0e73407a9997c467babc60fe887c567625"),
        "{}",
        run.owner("a")
    );

    let all = run.all_phenomena("b");
    let found = notes(&all);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].title, "Samsung note 1: Shopping");
    assert!(has_fact(found[0], "milk, eggs"));
    run.assert_noted(
        "a",
        &[
            (
                "user/10/com.samsung.android.app.notes/databases/sdoc.db",
                "malformed",
            ),
            (
                "user/11/com.samsung.android.app.notes/databases/sdoc.db",
                "table sdoc lacks createdAt",
            ),
        ],
    );
}
