//! Life360's drives (`android::life360drives`) of two Android phones, written by
//! `tests/fixtures/life360drives/life360drives.py` (Python's sqlite3, the tables and columns
//! ALEAPP's L360driveblade reads). The generator's record is the oracle: every drive with its
//! member, speeds, distance, counts and times; the hard-braking event with its position and
//! speed; every waypoint. An older store with Drives alone is read; a second user's store
//! without Drives is noted.

use masf_graph::Phenomenon;

use crate::android_support::{generate, has_fact, time_values, triage};

/// Whether `p` has a fact equal to the oracle's number or text.
fn holds(p: &Phenomenon, v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => has_fact(p, s),
        serde_json::Value::Number(n) => p
            .verified_facts
            .iter()
            .any(|f| f.value.parse::<f64>().ok() == n.as_f64()),
        _ => true,
    }
}

#[test]
fn life360_drives_events_and_waypoints_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/life360drives/life360drives.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        for d in o["drives"].as_array().unwrap() {
            let id = d["driveId"].as_str().unwrap();
            let p = all
                .iter()
                .find(|p| p.title == format!("Life360 drive {id}"))
                .unwrap_or_else(|| panic!("{id}: {all:#?}"));
            assert_eq!(p.category, "locations");
            for (k, v) in d.as_object().unwrap() {
                if k.ends_with("Time") || k == "updatedAt" {
                    continue;
                }
                assert!(holds(p, v), "{k}: {p:#?}");
            }
            let mut want: Vec<String> = ["startTime", "endTime", "updatedAt"]
                .iter()
                .filter_map(|k| d.get(*k).map(|v| v.to_string()))
                .collect();
            want.sort();
            assert_eq!(time_values(p), want);
        }
        let events: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Life360 drive event "))
            .collect();
        assert_eq!(events.len(), o["events"].as_array().unwrap().len());
        for e in o["events"].as_array().unwrap() {
            let p = events
                .iter()
                .find(|p| has_fact(p, e["eventId"].as_str().unwrap()))
                .unwrap();
            for k in ["lat", "lon", "speed", "eventType"] {
                assert!(holds(p, &e[k]), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![e["eventTime"].to_string()]);
            // the member of the drive, looked up in Drives
            assert!(has_fact(p, "5a1b2c3d-1111-2222-3333-444455556666"));
        }
        let waypoints: Vec<_> = all
            .iter()
            .filter(|p| p.title == "Life360 drive waypoint")
            .collect();
        let expected = o["waypoints"].as_array().unwrap();
        assert_eq!(waypoints.len(), expected.len());
        for w in expected {
            assert!(
                waypoints
                    .iter()
                    .any(|p| time_values(p) == vec![w["timestamp"].to_string()]
                        && holds(p, &w["lat"])
                        && holds(p, &w["lon"])),
                "{w}"
            );
        }
    }
    run.assert_noted(
        "b",
        &[(
            "user/10/com.life360.android.safetymapd/databases/DriveBladeDB",
            "Drives",
        )],
    );
}
