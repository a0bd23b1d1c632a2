//! Fitbit's stores (`android::fitbit`) on two Android phones, written by
//! `tests/fixtures/fitbit/fitbit.py` (Python's sqlite3, the tables and columns ALEAPP's fitbit
//! reads). The generator's record is the oracle: every activity with its name, steps and times;
//! each exercise session's track (points, first and last position and time); the tracker as the
//! device `bluetooth:<address>` on both phones; the friends as `fitbit:` persons and the friends
//! list's owning user as the owner's `fitbit:` id; the profile; the Wear OS app's account (its
//! e-mail and `fitbit:` id the owner's), exercise, sleep, workout and GPS track; an older
//! activity table read; a `sleep` store of another shape noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn fitbit_activities_tracks_trackers_and_friends_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/fitbit/fitbit.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Vienna", Some("AT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        for act in o["activities"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Fitbit activity {}", act["NAME"].as_str().unwrap()),
            );
            assert_eq!(p.category, "health");
            if let Some(steps) = act["STEPS"].as_i64() {
                assert!(has_fact(p, &steps.to_string()), "{p:#?}");
            }
            assert!(time_values(p).contains(&act["LOG_DATE"].to_string()));
        }
        // the tracker: one device on both phones by its Bluetooth address
        let mac = o["tracker"].as_str().unwrap();
        let tracker = titled(&all, "Fitbit device Charge 6");
        assert!(has_fact(tracker, mac));
        assert!(
            run.entities(source)
                .iter()
                .any(|e| e.starts_with(&format!("bluetooth:{} ", mac.to_ascii_uppercase()))),
            "{:#?}",
            run.entities(source)
        );
    }
    let all = run.all_phenomena("a");
    let swim = titled(&all, "Fitbit activity Swim");
    assert!(has_fact(swim, "40"), "{swim:#?}");
    for (id, s) in o["a"]["sessions"].as_object().unwrap() {
        let p = titled(&all, &format!("Fitbit exercise session {id}"));
        assert_eq!(p.category, "locations");
        assert!(has_fact(p, &s["points"].to_string()));
        for (end, label) in [("first", "first"), ("last", "last")] {
            let v = s[end].as_array().unwrap();
            assert!(has_fact(p, v[0].as_str().unwrap()), "{label}: {p:#?}");
            assert!(has_fact(p, v[1].as_str().unwrap()), "{label}: {p:#?}");
            assert!(time_values(p).contains(&v[2].as_str().unwrap().to_string()));
        }
    }
    let sleep = titled(&all, "Fitbit sleep 46012345678");
    assert!(has_fact(sleep, "402"));
    titled(&all, "Fitbit heart rate of day 1717192800000");
    // friends as persons, the list's owner the device's user
    for f in o["a"]["friends"].as_array().unwrap() {
        let name = f["DISPLAY_NAME"].as_str().unwrap();
        let p = titled(&all, &format!("Fitbit friend {name}"));
        assert_eq!(p.category, "contacts");
        let id = f["ENCODED_ID"].as_str().unwrap();
        assert!(
            run.entities("a")
                .iter()
                .any(|e| e.starts_with(&format!("fitbit:{id} [Person] {name}"))),
            "{:#?}",
            run.entities("a")
        );
    }
    assert!(
        run.owner("a").contains("fitbit:9QX7TL"),
        "{}",
        run.owner("a")
    );
    let profile = titled(&all, "Fitbit profile Lena K.");
    assert!(has_fact(profile, "Lena Krause"));
    assert!(time_values(profile).contains(&"1500000000000".to_string()));
    // phone B: the watch app's account is the owner's; its exercise, sleep, workout and track
    let all = run.all_phenomena("b");
    let wear = &o["b"]["wear"];
    titled(
        &all,
        &format!("Fitbit account {}", wear["email"].as_str().unwrap()),
    );
    let owner = run.owner("b");
    assert!(owner.contains("email=lena.krause@example.de"), "{owner}");
    assert!(owner.contains("fitbit:9QX7TL"), "{owner}");
    titled(&all, "Fitbit exercise Bike");
    let night = titled(&all, "Fitbit sleep of 2024-07-02");
    assert_eq!(time_values(night).len(), 2);
    titled(&all, "Fitbit workout W-5");
    let track = titled(&all, "Fitbit watch GPS track all");
    let t = &o["b"]["track"];
    assert!(has_fact(track, &t["points"].to_string()));
    for end in ["first", "last"] {
        for v in t[end].as_array().unwrap() {
            assert!(has_fact(track, v.as_str().unwrap()), "{track:#?}");
        }
    }
    run.assert_noted("b", &[("/databases/sleep", "SLEEP_LOG")]);
}
