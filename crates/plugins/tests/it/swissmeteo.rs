//! MeteoSwiss on Android (`android::swissmeteo`) on two phones, written by
//! `tests/fixtures/swissmeteo/swissmeteo.py` (Python's sqlite3, the tables and columns ALEAPP's
//! swissmeteo reads). The generator's record is the oracle: every forecast looked at with its
//! postal code, the position stored with it and — from the app's postal-code list — the place's
//! name, altitude and centre (an LV95 centre taken back to LV03); a code the list lacks left
//! unnamed; every opening with where the phone was; phone B's older table without a list read; a
//! truncated copy and a store of another layout noted; no identity.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn meteoswiss_forecasts_viewed_and_openings_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/swissmeteo/swissmeteo.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let viewed = o["interactions"].as_array().unwrap();
        assert_eq!(count("MeteoSwiss forecast viewed for "), viewed.len());
        for i in viewed {
            let plz = s(i, "plz").unwrap();
            let title = match s(i, "name") {
                Some(name) => format!("MeteoSwiss forecast viewed for {plz} {name}"),
                None => format!("MeteoSwiss forecast viewed for {plz}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "locations");
            for k in ["lat", "lon", "altitude", "latitude", "longitude"] {
                if let Some(v) = s(i, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(i, "timestamp").unwrap()]);
        }
        let openings = o["openings"].as_array().unwrap();
        assert_eq!(count("MeteoSwiss app opened"), openings.len());
        for op in openings {
            let p = titled(
                &all,
                &format!(
                    "MeteoSwiss app opened at {}, {}",
                    s(op, "lat").unwrap(),
                    s(op, "lon").unwrap()
                ),
            );
            assert_eq!(time_values(p), vec![s(op, "timestamp").unwrap()]);
        }
        // places, not identities
        for i in viewed {
            if let Some(name) = s(i, "name") {
                assert!(
                    !run.entities(source).iter().any(|e| e.contains(&name)),
                    "{name}: {:#?}",
                    run.entities(source)
                );
            }
        }
    }
    // phone A: St. Moritz's centre from its LV95 grid position, near the place
    let all = run.all_phenomena("a");
    let p = titled(&all, "MeteoSwiss forecast viewed for 750000 St. Moritz");
    assert!(
        has_fact(p, "46.497504") && has_fact(p, "9.841021"),
        "{p:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/ch.admin.meteoswiss/databases/favorites_prediction_db.sqlite",
                "malformed",
            ),
            (
                "user/11/ch.admin.meteoswiss/databases/favorites_prediction_db.sqlite",
                "none of the tables",
            ),
        ],
    );
}
