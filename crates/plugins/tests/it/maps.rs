//! Google Maps' navigation destinations on Android (`android::maps`) on two phones: the
//! `da_destination_history` built by the sqlite3 CLI (`tests/fixtures/maps/`) and an older
//! four-column table. Every row and field of the public readers' query (run here by the CLI,
//! the E6 integers divided as Autopsy divides them) is found; another app's file of the same
//! name is passed over; a truncated copy and a table lacking the coordinates are noted.

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

#[test]
fn google_maps_destinations_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let dir = a.join("data/data/com.google.android.apps.maps/databases");
    let db = dir.join("da_destination_history");
    sqlite_fixture(&db, "maps/da_destination_history.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &a,
        "com.google.android.apps.maps/databases/da_destination_history",
        "CREATE TABLE destination_history (time INTEGER, dest_title TEXT); INSERT INTO destination_history VALUES (1, 'x');",
    );
    let other = a.join("data/data/com.example.nav/databases");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(&db, other.join("da_destination_history")).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();

    let b = tmp.path().join("b");
    let bdb = b.join("data/data/com.google.android.apps.maps/databases/da_destination_history");
    std::fs::create_dir_all(bdb.parent().unwrap()).unwrap();
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE destination_history (time INTEGER, dest_lat INTEGER, dest_lng INTEGER, dest_title TEXT); \
         INSERT INTO destination_history VALUES (1600000000000, 51507400, -127800, 'Trafalgar Square');",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Europe/London", Some("GB")),
    ]);
    assert!(run.rejections().is_empty(), "{:#?}", run.rejections());
    for (source, db, sql) in [
        (
            "a",
            &db,
            "SELECT time, dest_lat, dest_lng, round(dest_lat / 1e6, 6), round(dest_lng / 1e6, 6), dest_title, dest_address, source_lat, source_lng FROM destination_history",
        ),
        (
            "b",
            &bdb,
            "SELECT time, dest_lat, dest_lng, round(dest_lat / 1e6, 6), round(dest_lng / 1e6, 6), dest_title FROM destination_history",
        ),
    ] {
        let all = run.all_phenomena(source);
        let mine: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Maps destination "))
            .collect();
        let rows = sqlite3(db, sql);
        assert_eq!(
            mine.len(),
            rows.len(),
            "{source}: only Google Maps' file is read"
        );
        for row in rows {
            let p = mine
                .iter()
                .find(|p| has(p, &row[0]))
                .unwrap_or_else(|| panic!("{source}: {row:?}"));
            assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
            assert_eq!(p.category, "locations");
            for v in &row[1..] {
                assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
            }
        }
    }
    let all = run.all_phenomena("a");
    let sydney = all
        .iter()
        .find(|p| p.title == "Google Maps destination Sydney Opera House")
        .expect("the southern destination");
    assert!(
        sydney
            .interpretation
            .contains("latitude -33.8568, longitude 151.2153"),
        "{}",
        sydney.interpretation
    );
    run.assert_noted(
        "a",
        &[
            (
                "user/10/com.google.android.apps.maps/databases/da_destination_history",
                "malformed",
            ),
            (
                "user/11/com.google.android.apps.maps/databases/da_destination_history",
                "table destination_history lacks dest_lat, dest_lng",
            ),
        ],
    );
}
