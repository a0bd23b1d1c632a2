//! Apple Tracker Detect's preferences (`android::trackerdetect`) on two Android phones, written
//! by `tests/fixtures/trackerdetect/trackerdetect.py` (the keys ALEAPP's atrackerdetect reads).
//! The generator's record is the oracle: every tracker with its address and each of its
//! preferences (names and values, never read as times), the settings with theirs; a malformed
//! copy and one holding no preference noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn apple_tracker_detect_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/trackerdetect/trackerdetect.py",
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
        let o = &o[source];
        let all = run.all_phenomena(source);
        let trackers = o["trackers"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Apple Tracker Detect tracker "))
            .collect();
        assert_eq!(found.len(), trackers.len(), "{found:#?}");
        for t in trackers {
            let address = t["address"].as_str().unwrap();
            let p = titled(&all, &format!("Apple Tracker Detect tracker {address}"));
            assert_eq!(p.category, "device");
            assert!(has_fact(p, address));
            for kv in t["prefs"].as_array().unwrap() {
                for v in kv.as_array().unwrap() {
                    let v = v.as_str().unwrap();
                    assert!(has_fact(p, v), "{v}: {p:#?}");
                }
            }
            assert!(p.times.is_empty(), "values since boot are no times: {p:#?}");
        }
        let p = titled(&all, "Apple Tracker Detect settings");
        assert_eq!(p.category, "apps");
        for kv in o["settings"].as_array().unwrap() {
            for v in kv.as_array().unwrap() {
                let v = v.as_str().unwrap();
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
        }
        // a rotating address is no identifier
        assert!(!run.entities(source).iter().any(|e| {
            trackers
                .iter()
                .any(|t| e.contains(t["address"].as_str().unwrap()))
        }));
    }
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.apple.trackerdetect/shared_prefs/com.apple.trackerdetect_preferences.xml",
                "malformed",
            ),
            (
                "user/11/com.apple.trackerdetect/shared_prefs/com.apple.trackerdetect_preferences.xml",
                "no preference",
            ),
        ],
    );
}
