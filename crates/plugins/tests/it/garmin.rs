//! Garmin Connect's stores (`android::garmin`) on two Android phones, written by
//! `tests/fixtures/garmin/garmin.py` (Python's sqlite3 and a shared-preferences file, the tables,
//! columns, JSON members and keys ALEAPP's Garmin modules read). The generator's record is the
//! oracle: the account (its e-mail or user name and `garmin:<user id>` the owner's), every
//! activity of the first store's details and summaries and of the newer store's JSON (name, id,
//! distance, start position, GMT start as UTC), the routes decoded from their polylines, the days,
//! the night, the weigh-ins, the pulse-ox reading, the cached answers, the devices (each the
//! device `fit-device:<unit id>` with its Bluetooth address; on phone A the watch is also in the
//! FIT file fit_files.py writes, the same device), the sync audit by device and day, the
//! notifications, the JSON caches summarised, the weather; the activities' owners as `garmin:`
//! persons (a connection's not the owner); phone B's older tables read; a truncated
//! cache-database and a notification-database of another layout noted; the preferences'
//! transactionKey in no phenomenon.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn garmin_connect_account_devices_activities_health_and_notifications_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/garmin/garmin.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    // the watch's own FIT file (fit_files.py: unit 3987654321 with the strap 1234509876)
    let fit = tmp.path().join("fit");
    let fit_oracle = tmp.path().join("fit.json");
    generate(
        "fit_tool",
        "tests/fixtures/fit/fit_files.py",
        &[fit.as_os_str(), fit_oracle.as_os_str()],
        &fit_oracle,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let to =
        a.join("data/data/com.garmin.android.apps.connectmobile/files/fit/activity_160001.fit");
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(fit.join("garmin_run.fit"), &to).unwrap();
    let run = triage(&[
        ("a", &a, "Europe/Madrid", Some("ES")),
        ("b", &b, "Europe/Vienna", Some("AT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let text = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for source in ["a", "b"] {
        let want = &o[source];
        let all = run.all_phenomena(source);
        for e in want["expect"].as_array().unwrap() {
            let p = titled(&all, e["title"].as_str().unwrap());
            assert_eq!(p.category, e["category"].as_str().unwrap(), "{p:#?}");
            for f in e["facts"].as_array().unwrap() {
                assert!(has_fact(p, f.as_str().unwrap()), "{f}: {p:#?}");
            }
            let times = time_values(p);
            for t in e["times"].as_array().unwrap() {
                assert!(times.contains(&text(t)), "{t}: {} {times:?}", p.title);
            }
        }
        // one phenomenon per activity, day, route, notification…, never one per sample
        for (prefix, n) in want["counts"].as_object().unwrap() {
            let found = all
                .iter()
                .filter(|p| p.title.starts_with(prefix.as_str()))
                .count();
            assert_eq!(found as u64, n.as_u64().unwrap(), "{prefix}");
        }
        let owner = run.owner(source);
        for id in want["owner"].as_array().unwrap() {
            assert!(owner.contains(id.as_str().unwrap()), "{id}: {owner}");
        }
        let entities = run.entities(source);
        for person in want["persons"].as_array().unwrap() {
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(person.as_str().unwrap())),
                "{person}: {entities:#?}"
            );
        }
        for d in want["devices"].as_array().unwrap() {
            let (unit, mac) = (text(&d["unit"]), text(&d["mac"]));
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("fit-device:{unit} [Device]"))
                        && e.contains(&format!("serial={unit}"))
                        && e.contains(&format!("bluetooth_address={mac}"))),
                "{unit}: {entities:#?}"
            );
        }
        for never in o["never"].as_array().unwrap() {
            let never = never.as_str().unwrap();
            for p in &all {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(never)),
                    "{never}: {p:#?}"
                );
            }
        }
    }
    // phone A: the FIT file read beside Garmin Connect; a connection's activity is not the owner's
    let all = run.all_phenomena("a");
    titled(&all, "Fitness activity: running from 2024-06-04T06:00:00Z");
    assert!(!run.owner("a").contains("99887766"), "{}", run.owner("a"));
    let noted: Vec<(String, String)> = o["b"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (text(&n[0]), text(&n[1])))
        .collect();
    let noted: Vec<(&str, &str)> = noted
        .iter()
        .map(|(a, w)| (a.as_str(), w.as_str()))
        .collect();
    run.assert_noted("b", &noted);
    // phone A's own stores are read, none noted
    assert!(
        run.unparsed("a")
            .iter()
            .all(|u| !u.artefact.contains("com.garmin.android.apps.connectmobile")),
        "{:#?}",
        run.unparsed("a")
    );
}
