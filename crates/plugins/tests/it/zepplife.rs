//! Zepp Life's `origin_db` (`android::zepplife`) on two Android phones, written by
//! `tests/fixtures/zepplife/zepplife.py` (Python's sqlite3, the table and columns ALEAPP's
//! zepplife reads). The generator's record is the oracle: one phenomenon per day of heart-rate
//! samples, never one per sample — the samples, readings, lowest, average and highest reading,
//! first and last time — with the band's "no reading" values counted but left out of the
//! readings; a store named `origin_db_<n>` with the plainer table on phone B read; a truncated
//! copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn zepp_life_heart_rate_days_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/zepplife/zepplife.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Shanghai", Some("CN")),
        ("b", &b, "Europe/Warsaw", Some("PL")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let days = o[source]["days"].as_object().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Zepp Life heart rate of "))
            .count();
        assert_eq!(found, days.len(), "one phenomenon per day, none per sample");
        for (day, d) in days {
            let p = titled(&all, &format!("Zepp Life heart rate of {day}"));
            assert_eq!(p.category, "health");
            for k in ["samples", "readings", "min", "max"] {
                assert!(has_fact(p, &d[k].to_string()), "{k}: {p:#?}");
            }
            assert!(has_fact(p, d["avg"].as_str().unwrap()), "avg: {p:#?}");
            assert!(
                !has_fact(p, "255"),
                "a no-reading value is no reading: {p:#?}"
            );
            let times = time_values(p);
            for k in ["first_time", "last_time"] {
                assert!(times.contains(&d[k].to_string()), "{k}: {p:#?}");
            }
        }
    }
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.xiaomi.hm.health/databases/origin_db_1080001234",
                "malformed",
            ),
            (
                "user/11/com.xiaomi.hm.health/databases/origin_db",
                "HEART_RATE",
            ),
        ],
    );
}
