//! Zapya (`android::zapya`): the phone-to-phone transfers of `transfer20.db`
//! (`tests/fixtures/zapya/`, built by the sqlite3 CLI) on one phone, an older four-column table
//! on another. Every row and field of ALEAPP's Zapya query (run here by the CLI) is found; the
//! direction is read as ALEAPP reads it (1 a send) and any other value reported as stored; a
//! truncated copy and a table without `createtime` are noted; another app's `transfer20.db` is
//! passed over.

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

#[test]
fn zapya_transfers_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let db = a.join("data/data/com.dewmobile.kuaiya.play/databases/transfer20.db");
    sqlite_fixture(&db, "zapya/transfer20.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &a,
        "com.dewmobile.kuaiya.play/databases/transfer20.db",
        "CREATE TABLE transfer (device TEXT, title TEXT); INSERT INTO transfer VALUES ('x', 'y');",
    );
    let other = a.join("data/data/com.example.share/databases/transfer20.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&db, &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();
    let b = tmp.path().join("b");
    let bdb = b.join("data/data/com.dewmobile.kuaiya.play/databases/transfer20.db");
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE transfer (device TEXT, direction INTEGER, createtime INTEGER, title TEXT); \
         INSERT INTO transfer VALUES ('ZTE Blade', 1, 1600000000000, 'contract.pdf');",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, db, sql) in [
        (
            "a",
            &db,
            "SELECT createtime, device, name, path, title, direction FROM transfer",
        ),
        (
            "b",
            &bdb,
            "SELECT createtime, device, NULL, NULL, title, direction FROM transfer",
        ),
    ] {
        let all = run.all_phenomena(source);
        let mine: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with("Zapya: "))
            .collect();
        let rows = sqlite3(db, sql);
        assert_eq!(
            mine.len(),
            rows.len(),
            "{source}: only Zapya's file is read"
        );
        for row in &rows {
            let p = mine
                .iter()
                .find(|p| has(p, &row[0]))
                .unwrap_or_else(|| panic!("{source}: {row:?}"));
            assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
            for v in &row[1..5] {
                assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
            }
            assert_eq!(p.title.contains(" sent to "), row[5] == "1", "{}", p.title);
            assert!(
                p.interpretation.contains(&format!("direction {}", row[5])),
                "{}",
                p.interpretation
            );
        }
    }
    run.assert_noted(
        "a",
        &[
            (
                "user/10/com.dewmobile.kuaiya.play/databases/transfer20.db",
                "malformed",
            ),
            (
                "user/11/com.dewmobile.kuaiya.play/databases/transfer20.db",
                "table transfer lacks createtime",
            ),
        ],
    );
}
