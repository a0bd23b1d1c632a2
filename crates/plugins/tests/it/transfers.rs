//! SHAREit and Xender (`android::transfers`): the transfers of SHAREit's `history.db` and
//! Xender's `trans-history-db` (`tests/fixtures/shareit/`, `tests/fixtures/xender/`, built by
//! the sqlite3 CLI) on one phone, older tables on another. Every row and field of ALEAPP's
//! queries (run here by the CLI) is found, plus the history row whose item is gone (ALEAPP's
//! inner join drops it) and every Xender profile (ALEAPP lists only `connect_times = 0`);
//! directions are read as ALEAPP reads them and other values reported as stored; truncated
//! copies and tables without their time column are noted; another app's files are passed over.

use masf_graph::Phenomenon;

use crate::android_support::{damaged_copies, rows_in, sqlite_fixture, triage};

fn mine<'a>(all: &'a [Phenomenon], prefix: &str) -> Vec<&'a Phenomenon> {
    all.iter().filter(|p| p.title.starts_with(prefix)).collect()
}

#[test]
fn shareit_and_xender_transfers_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let shareit = a.join("data/data/com.lenovo.anyshare.gps/databases/history.db");
    sqlite_fixture(&shareit, "shareit/history.sql", "SELECT 1;");
    damaged_copies(
        &a,
        "com.lenovo.anyshare.gps/databases/history.db",
        "CREATE TABLE history (device_id TEXT, description TEXT); INSERT INTO history VALUES ('x', 'y');",
    );
    let xender = a.join("data/data/cn.xender/databases/trans-history-db");
    sqlite_fixture(&xender, "xender/trans-history-db.sql", "SELECT 1;");
    damaged_copies(
        &a,
        "cn.xender/databases/trans-history-db",
        "CREATE TABLE new_history (f_path TEXT); INSERT INTO new_history VALUES ('x');",
    );
    let other = a.join("data/data/com.example.browser/databases/history.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&shareit, &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();

    let b = tmp.path().join("b");
    let bshare = b.join("data/data/com.lenovo.anyshare/databases/history.db");
    crate::ios_nearby::sqlite3(
        &bshare,
        "CREATE TABLE history (history_type INTEGER, device_name TEXT, description TEXT, timestamp LONG); \
         INSERT INTO history VALUES (2, 'vivo Y20', 'song.mp3', 1600000000000);",
    );
    let bxender = b.join("data/data/cn.xender/databases/trans-history-db");
    crate::ios_nearby::sqlite3(
        &bxender,
        "CREATE TABLE new_history (f_path TEXT, c_start_time LONG, c_direction INTEGER, r_name TEXT); \
         INSERT INTO new_history VALUES ('/sdcard/Xender/video/clip.mp4', 1600000500000, 1, 'Ana');",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "Asia/Kolkata", Some("IN")),
        ("b", &b, "Asia/Kolkata", Some("IN")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    let all = run.all_phenomena("a");
    // ALEAPP's shareit query, its columns unrewritten: every row and value is found.
    let aleapp = "SELECT timestamp, device_id, device_name, description, file_path \
                  FROM history JOIN item WHERE history.content_id = item.item_id";
    assert_eq!(
        rows_in(&mine(&all, "SHAREit: "), &shareit, aleapp, 0, ""),
        3
    );
    let found = mine(&all, "SHAREit: ");
    assert_eq!(found.len(), 4, "the item-less row is kept: {found:#?}");
    let titles: Vec<&str> = found.iter().map(|p| p.title.as_str()).collect();
    assert!(titles.contains(&"SHAREit: IMG_20240301_101500.jpg sent to Galaxy A52"));
    assert!(titles.contains(&"SHAREit: invoice-2024-03.pdf received from Redmi Note 11"));
    assert!(titles.contains(&"SHAREit: holiday.mp4 received from Redmi Note 11"));
    assert!(
        titles.contains(&"SHAREit: com.example.wallet.apk transferred with 7be0d2a4c5f61a90"),
        "{titles:?}"
    );
    let gone = found
        .iter()
        .find(|p| p.title.contains("holiday.mp4"))
        .unwrap();
    assert!(
        gone.interpretation.contains("item row is gone"),
        "{}",
        gone.interpretation
    );
    let odd = found.iter().find(|p| p.title.contains(".apk")).unwrap();
    assert!(odd.interpretation.contains("direction 5, not documented"));
    assert!(found.iter().all(|p| p.warnings.is_empty()));

    // ALEAPP's two Xender queries.
    let aleapp = "SELECT c_start_time, f_path, f_display_name, f_size_str, c_session_id, s_name, \
                  s_device_id, r_name, r_device_id FROM new_history";
    let moved: Vec<&Phenomenon> = mine(&all, "Xender: ")
        .into_iter()
        .filter(|p| !p.title.starts_with("Xender: device "))
        .collect();
    assert_eq!(moved.len(), 3, "{moved:#?}");
    assert_eq!(rows_in(&moved, &xender, aleapp, 0, ""), 3);
    let sent = mine(&all, "Xender: keys.txt");
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].title, "Xender: keys.txt sent to Mina");
    assert!(
        sent[0]
            .interpretation
            .contains("direction 1: sent from this phone")
    );
    let profiles = mine(&all, "Xender: device ");
    let rows = crate::browsers::sqlite3(
        &xender,
        "SELECT device_id, nick_name, connect_times FROM profile",
    );
    assert_eq!(
        profiles.len(),
        rows.len(),
        "every profile, not only connect_times = 0"
    );
    let aleapp_profiles = crate::browsers::sqlite3(
        &xender,
        "SELECT device_id, nick_name FROM profile WHERE connect_times = 0",
    );
    for row in rows.iter().chain(&aleapp_profiles) {
        let p = profiles
            .iter()
            .find(|p| p.verified_facts.iter().any(|f| f.value == row[0]))
            .unwrap_or_else(|| panic!("{row:?}"));
        for v in row {
            assert!(
                p.verified_facts.iter().any(|f| &f.value == v),
                "{v} in {p:#?}"
            );
        }
    }
    // Another app's history.db is not SHAREit's: four transfers, not eight.
    assert_eq!(found.len(), 4);

    let all = run.all_phenomena("b");
    let b_shareit = mine(&all, "SHAREit: ");
    assert_eq!(b_shareit.len(), 1);
    assert_eq!(b_shareit[0].title, "SHAREit: song.mp3 sent to vivo Y20");
    let b_xender = mine(&all, "Xender: ");
    assert_eq!(b_xender.len(), 1);
    assert_eq!(b_xender[0].title, "Xender: clip.mp4 sent to Ana");
    assert!(
        b_xender[0]
            .verified_facts
            .iter()
            .any(|f| f.value == "/sdcard/Xender/video/clip.mp4")
    );

    run.assert_noted(
        "a",
        &[
            (
                "user/10/com.lenovo.anyshare.gps/databases/history.db",
                "malformed",
            ),
            (
                "user/11/com.lenovo.anyshare.gps/databases/history.db",
                "table history lacks timestamp",
            ),
            ("user/10/cn.xender/databases/trans-history-db", "malformed"),
            (
                "user/11/cn.xender/databases/trans-history-db",
                "table new_history lacks c_start_time",
            ),
        ],
    );
}
