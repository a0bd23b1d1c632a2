//! Google Maps' recent-history and saved-directions caches (`android::mapscaches`) on two Android
//! phones, written by `tests/fixtures/mapscaches/mapscaches.py` (Google's protobuf runtime at the
//! field numbers ALEAPP's googleMapsSearches, googleInitiatedNav and googleLastTrip read, framed
//! by Python's struct and zlib as Maps' ProtoFileHelper frames its `.cs` files). The generator's
//! record is the oracle: every search and navigation with its text, coordinates (degrees, as the
//! doubles print), URL and time (Unix µs); the last trip's waypoints in order with their names,
//! coordinates and address lines, its two times (Unix ms). Phone B's older layout (the message
//! files without `.cs`) read; a cut `.cs` (its checksum fails) and a saved-directions file holding
//! another message noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn google_maps_searches_navigations_and_last_trip_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/mapscaches/mapscaches.py",
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
        for (key, prefix) in [
            ("searches", "Google Maps search: "),
            ("navigations", "Google Maps navigation to "),
        ] {
            let expected = o[key].as_array().unwrap();
            let found: Vec<_> = all.iter().filter(|p| p.title.starts_with(prefix)).collect();
            assert_eq!(found.len(), expected.len(), "{source} {key}: {found:#?}");
            for e in expected {
                let p = titled(&all, &format!("{prefix}{}", e["text"].as_str().unwrap()));
                assert_eq!(p.category, "locations");
                assert!(has_fact(p, e["text"].as_str().unwrap()), "{p:#?}");
                // the coordinates as the doubles print (4 → 5, or 4 → 6 → 1)
                assert!(has_fact(p, &e["lat"].to_string()), "lat: {p:#?}");
                assert!(has_fact(p, &e["lng"].to_string()), "lng: {p:#?}");
                if let Some(u) = e["url"].as_str() {
                    assert!(has_fact(p, u), "url: {p:#?}");
                }
                for line in e["lines"].as_array().into_iter().flatten() {
                    assert!(has_fact(p, line.as_str().unwrap()), "{line}: {p:#?}");
                }
                assert_eq!(time_values(p), vec![e["time_us"].to_string()]);
            }
        }
        // the last trip: one phenomenon, every waypoint in it
        let t = &o["trip"];
        let wps = t["waypoints"].as_array().unwrap();
        let label = |w: &serde_json::Value| {
            w["name"]
                .as_str()
                .or(w["text"].as_str())
                .unwrap()
                .to_string()
        };
        let trips: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Maps last trip: "))
            .collect();
        assert_eq!(trips.len(), 1, "{trips:#?}");
        let p = titled(
            &all,
            &format!(
                "Google Maps last trip: {} → {}",
                label(&wps[0]),
                label(wps.last().unwrap())
            ),
        );
        assert_eq!(p.category, "locations");
        for w in wps {
            for k in ["name", "text"] {
                if let Some(v) = w[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert!(has_fact(p, &w["lat"].to_string()), "lat: {p:#?}");
            assert!(has_fact(p, &w["lng"].to_string()), "lng: {p:#?}");
            for line in w["address"].as_array().into_iter().flatten() {
                assert!(has_fact(p, line.as_str().unwrap()), "{line}: {p:#?}");
            }
        }
        assert!(has_fact(p, t["data"].as_str().unwrap()), "{p:#?}");
        let mut want = vec![t["start_ms"].to_string(), t["end_ms"].to_string()];
        want.sort();
        assert_eq!(time_values(p), want);
        if wps.len() > 2 {
            assert!(p.interpretation.contains("stop 1"), "{}", p.interpretation);
        }
    }
    // the older layout's `.adler32` checksum files are not read as caches
    for source in ["a", "b"] {
        for p in run.all_phenomena(source) {
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.value.ends_with(".adler32")),
                "{p:#?}"
            );
        }
    }
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.google.android.apps.maps/files/new_recent_history_cache_navigated.cs",
                "Adler-32",
            ),
            (
                "user/11/com.google.android.apps.maps/files/saved_directions.data.cs",
                "no waypoints",
            ),
        ],
    );
}
