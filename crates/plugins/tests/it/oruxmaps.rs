//! OruxMaps' track store (`android::oruxmaps`) on two Android phones, written by
//! `tests/fixtures/oruxmaps/oruxmaps.py` (Python's sqlite3, the tables and columns ALEAPP's
//! Oruxmaps reads and the others the app's tables keep). The generator's record is the oracle:
//! each track summarised once (segments, distance, points, first and last position and time),
//! never one phenomenon per point; the app's unset position (999) and "no track" (-1) left out;
//! the waypoints with their places and times; phone B's older layout (in the app's external files
//! folder) read; a truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn oruxmaps_tracks_and_waypoints_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/oruxmaps/oruxmaps.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Vienna", Some("AT")),
        ("b", &b, "Europe/Oslo", Some("NO")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let tracks = o["tracks"].as_array().unwrap();
        assert_eq!(
            count("OruxMaps track "),
            tracks.len(),
            "one phenomenon per track, none per point"
        );
        for t in tracks {
            let p = titled(
                &all,
                &format!("OruxMaps track {}", s(t, "trackname").unwrap()),
            );
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, &s(t, "_id").unwrap()), "{p:#?}");
            let mut times = vec![s(t, "trackfechaini").unwrap()];
            match s(t, "points") {
                Some(points) => {
                    assert!(has_fact(p, &points), "{p:#?}");
                    for end in ["first", "last"] {
                        for v in t[end].as_array().unwrap() {
                            assert!(has_fact(p, v.as_str().unwrap()), "{end} {v}: {p:#?}");
                        }
                    }
                    times.push(s(t, "first_time").unwrap());
                    times.push(s(t, "last_time").unwrap());
                }
                None => assert!(
                    !p.times
                        .iter()
                        .any(|m| m.description.contains("track point")),
                    "no point, no point time: {p:#?}"
                ),
            }
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
            for k in ["segments", "distance"] {
                if let Some(v) = s(t, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert!(!has_fact(p, "999.0"), "the unset position: {p:#?}");
        }
        let pois = o["pois"].as_array().unwrap();
        assert_eq!(count("OruxMaps waypoint "), pois.len());
        for w in pois {
            let p = titled(
                &all,
                &format!("OruxMaps waypoint {}", s(w, "poiname").unwrap()),
            );
            assert_eq!(p.category, "locations");
            for k in ["poilat", "poilon", "poialt", "_id"] {
                assert!(has_fact(p, &s(w, k).unwrap()), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(w, "poitime").unwrap()]);
            assert!(!has_fact(p, "-1"), "no track is no fact: {p:#?}");
        }
        assert!(
            !run.identifiers(source)
                .iter()
                .any(|(_, v)| v.contains("bergfex")),
            "the server user is a fact"
        );
    }
    // phone A: the two-segment hike with its place, distance and server user; the waypoint on it
    let all = run.all_phenomena("a");
    let hike = titled(&all, "OruxMaps track 2024-08-01 08:20");
    for v in [
        "Absam",
        "Karwendel",
        "bergfex_lena",
        "4307.2",
        "703000",
        "47.30512",
    ] {
        assert!(has_fact(hike, v), "{v}: {hike:#?}");
    }
    let hut = titled(&all, "OruxMaps waypoint Hallerangerhaus");
    assert!(
        has_fact(hut, "233") && has_fact(hut, "2024-08-01 08:20"),
        "{hut:#?}"
    );
    run.assert_noted(
        "b",
        &[
            ("media/10/oruxmaps/tracklogs/oruxmapstracks.db", "malformed"),
            (
                "media/11/oruxmaps/tracklogs/oruxmapstracks.db",
                "none of the tables",
            ),
        ],
    );
}
