//! Samsung's `PkgPredictions.db` (`android::pkgpredictions`) on two Android phones, written by
//! `tests/fixtures/pkgpredictions/pkgpredictions.py` (Python's sqlite3, the table and columns
//! ALEAPP's pkgPredictions reads). The generator's record is the oracle: every launch sample with
//! its package, the three packages launched before, the phone's state and the prediction as
//! stored, and its launch time (none where it is NULL); phone B's older table read; a truncated
//! copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, triage};

#[test]
fn samsung_package_predictions_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/pkgpredictions/pkgpredictions.py",
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
            .filter(|p| p.title.ends_with(" (Samsung package predictions)"))
            .collect();
        assert_eq!(found.len(), rows.len(), "{found:#?}");
        for r in rows {
            let pkg = r["running_pkg"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| p.title == format!("App launched: {pkg} (Samsung package predictions)"))
                .unwrap_or_else(|| panic!("{pkg}: {found:#?}"));
            assert_eq!(p.category, "app_usage");
            for k in [
                "apk_version",
                "activity_name",
                "previous_one",
                "previous_two",
                "previous_three",
                "prediction",
                "predict_time",
            ] {
                if let Some(v) = r[k].as_str() {
                    assert!(has_fact(p, v), "{k} {v}: {p:#?}");
                }
            }
            let expected: Vec<String> = r["launch_time"]
                .as_str()
                .map(|t| vec![t.to_string()])
                .unwrap_or_default();
            assert_eq!(time_values(p), expected, "{p:#?}");
        }
    }
    run.assert_noted(
        "b",
        &[
            ("system_ce/10/PkgPredictions.db", "malformed"),
            ("system_ce/11/PkgPredictions.db", "no table tbl_Sample"),
        ],
    );
}
