//! The Play Store's `frosting.db` (`android::frosting`) on two Android phones, written by
//! `tests/fixtures/frosting/frosting.py` (Python's sqlite3, the table and columns ALEAPP's
//! frosting reads). The generator's record is the oracle: every package with its APK path and
//! its last update (none where it is 0); another app's `frosting.db` never read; phone B's older
//! table read; a truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn play_store_frosting_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/frosting/frosting.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let rows = o[source].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Play Store frosting "))
            .collect();
        assert_eq!(found.len(), rows.len(), "{found:#?}");
        for r in rows {
            let pk = r["pk"].as_str().unwrap();
            let p = titled(&all, &format!("Play Store frosting {pk}"));
            assert_eq!(p.category, "apps");
            assert!(
                has_fact(p, pk) && has_fact(p, r["apk_path"].as_str().unwrap()),
                "{p:#?}"
            );
            let expected: Vec<String> = r["last_updated"]
                .as_str()
                .map(|t| vec![t.to_string()])
                .unwrap_or_default();
            assert_eq!(time_values(p), expected, "{p:#?}");
        }
    }
    let foreign = o["foreign"].as_str().unwrap();
    assert!(
        !run.all_phenomena("a")
            .iter()
            .any(|p| p.title == format!("Play Store frosting {foreign}"))
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.android.vending/databases/frosting.db",
                "malformed",
            ),
            (
                "user/11/com.android.vending/databases/frosting.db",
                "no table frosting",
            ),
        ],
    );
}
