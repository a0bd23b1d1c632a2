//! WebKit's cached geoposition (`android::browserlocation`) on two Android phones and a third
//! tree, written by `tests/fixtures/browserlocation/browserlocation.py` (Python's sqlite3,
//! `CachedPosition` as WebKit's GeolocationPositionCache creates it, the table ALEAPP's
//! browserlocation reads). The generator's record is the oracle: the AOSP Browser's position on
//! phone A (no altitude, heading or speed: none read), the Browser's in a layout without the
//! optional columns and an app's WebView cache on phone B, each value as stored and the time
//! (Unix ms); a store of another layout on tree C noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn browserlocation_cached_geoposition_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/browserlocation/browserlocation.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
        ("c", &c, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let rows = o[source].as_array().unwrap();
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Cached geoposition "))
                .count(),
            rows.len(),
            "{source}"
        );
        for r in rows {
            let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            let p = titled(
                &all,
                &format!(
                    "Cached geoposition {}, {} ({})",
                    s("latitude"),
                    s("longitude"),
                    s("package")
                ),
            );
            assert_eq!(p.category, "locations");
            let mut values = 0;
            for k in [
                "latitude",
                "longitude",
                "accuracy",
                "altitude",
                "altitudeAccuracy",
                "heading",
                "speed",
            ] {
                if let Some(v) = r[k].as_str() {
                    assert!(has_fact(p, v), "{k} {v}: {p:#?}");
                    values += 1;
                }
            }
            assert_eq!(time_values(p), vec![s("timestamp")], "{p:#?}");
            // the store's path, the values the row holds and its time: no NULL read as a value
            assert_eq!(p.verified_facts.len(), 1 + values + 1, "{p:#?}");
            assert!(
                p.interpretation.contains(&s("package")),
                "{}",
                p.interpretation
            );
        }
    }
    run.assert_noted(
        "c",
        &[("app_geolocation/CachedGeoposition.db", "CachedPosition")],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Cached geoposition"))
    );
}
