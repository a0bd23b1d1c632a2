//! Slopes' store (`android::slopes`) on two Android phones, written by
//! `tests/fixtures/slopes/slopes.py` (Python's sqlite3, the tables and columns ALEAPP's slopes
//! reads). The generator's record is the oracle: each ski day summarised once (its runs and lifts
//! counted by type, distance, top speed, the area covered, first start and last end), never one
//! phenomenon per action; a day without actions kept; the resorts with their places; phone B's
//! older store (no bounding boxes, no resorts) read; a truncated copy and a store of another
//! layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn slopes_ski_days_and_resorts_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/slopes/slopes.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Stockholm", Some("SE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let days = o["days"].as_array().unwrap();
        assert_eq!(
            count("Slopes activity "),
            days.len(),
            "one phenomenon per day, none per action"
        );
        for d in days {
            let p = titled(
                &all,
                &format!(
                    "Slopes activity at {} ({})",
                    s(d, "location_name").unwrap(),
                    s(d, "id").unwrap()
                ),
            );
            assert_eq!(p.category, "locations");
            for k in [
                "actions",
                "by_type",
                "distance",
                "top_speed",
                "north",
                "south",
                "east",
                "west",
            ] {
                if let Some(v) = s(d, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let mut times: Vec<String> = ["first_start", "last_end"]
                .iter()
                .filter_map(|k| s(d, k))
                .collect();
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        let resorts = o["resorts"].as_array().unwrap();
        assert_eq!(count("Slopes resort "), resorts.len());
        for r in resorts {
            let p = titled(&all, &format!("Slopes resort {}", s(r, "name").unwrap()));
            for k in [
                "coordinate_lat",
                "coordinate_long",
                "country",
                "website",
                "summitAltitude",
            ] {
                assert!(has_fact(p, &s(r, k).unwrap()), "{k}: {p:#?}");
            }
            assert!(p.times.is_empty(), "{p:#?}");
        }
    }
    // phone A: the Zermatt day's area and counts; the lifts are not read
    let all = run.all_phenomena("a");
    let day = titled(&all, "Slopes activity at Zermatt (d1f0c7e2-0001)");
    assert!(
        has_fact(day, "lift 4, run 4") && has_fact(day, "46.00202") && has_fact(day, "7.7446"),
        "{day:#?}"
    );
    assert!(
        !all.iter().any(|p| has_fact(p, "Matterhorn Express")),
        "lifts are the resort's, not read"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.consumedbycode.slopes/databases/slopes.db",
                "malformed",
            ),
            (
                "user/11/com.consumedbycode.slopes/databases/slopes.db",
                "none of the tables",
            ),
        ],
    );
}
