//! Android's battery-usage stores (`android::batteryusage`) on two Android phones, written by
//! `tests/fixtures/batteryusage/batteryusage.py` (Python's sqlite3, the tables and columns
//! ALEAPP's battery_usage_v4 and battery_usage_v9 read). The generator's record is the oracle:
//! every snapshot row of phone A's `battery-usage-db-v9` with its package, label, use and battery
//! level taken from the debug text and its time; every app usage event with its event named;
//! phone B's older `battery-usage-db-v4` read with its battery status named and the boot time
//! computed; a truncated v9 copy and a v4 store of another layout noted; no identity.

use crate::android_support::{generate, has_fact, time_values, triage};

#[test]
fn battery_usage_snapshots_and_app_events_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/batteryusage/batteryusage.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Vienna", Some("AT")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        // snapshots: one per row, titled by the label, each with its use, level and times
        let states = o["states"].as_array().unwrap();
        assert_eq!(count("Battery use of "), states.len(), "{all:#?}");
        for st in states {
            let label = s(st, "app_label").or_else(|| s(st, "appLabel")).unwrap();
            let at = s(st, "timestamp").unwrap();
            let p = all
                .iter()
                .find(|p| {
                    p.title == format!("Battery use of {label}") && time_values(p).contains(&at)
                })
                .unwrap_or_else(|| panic!("{st}: {all:#?}"));
            assert_eq!(p.category, "app_usage");
            assert!(time_values(p).contains(&s(st, "booted").unwrap()), "{p:#?}");
            if let Some(pkg) = s(st, "packageName") {
                assert!(has_fact(p, &pkg), "{p:#?}");
            }
            for k in [
                "uid",
                "foregroundUsageTimeInMs",
                "foreground_usage_time_in_ms",
                "background_usage_time_in_ms",
                "backgroundUsageTimeInMs",
                "battery_level",
                "batteryLevel",
                "consume_power",
                "zone_id",
                "zoneId",
                "status",
            ] {
                if let Some(v) = s(st, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
        }
        // app usage events: one per row, the event named
        let events = o["events"].as_array().unwrap();
        let titled_events = all
            .iter()
            .filter(|p| {
                p.title.ends_with(" activity resumed")
                    || p.title.ends_with(" activity stopped")
                    || p.title.ends_with(" device shutdown")
            })
            .count();
        assert_eq!(titled_events, events.len(), "{all:#?}");
        for e in events {
            let title = format!(
                "{} {}",
                s(e, "packageName").unwrap(),
                s(e, "event").unwrap()
            );
            let at = s(e, "timestamp").unwrap();
            let p = all
                .iter()
                .find(|p| p.title == title && time_values(p) == vec![at.clone()])
                .unwrap_or_else(|| panic!("{e}: {all:#?}"));
            assert_eq!(p.category, "app_usage");
            for k in ["uid", "instanceId", "appUsageEventType"] {
                assert!(has_fact(p, &s(e, k).unwrap()), "{k}: {p:#?}");
            }
        }
        // no identity: packages and uids are apps'
        assert!(
            !run.entities(source)
                .iter()
                .any(|e| e.contains("org.telegram.messenger") || e.contains("com.whatsapp")),
            "{:#?}",
            run.entities(source)
        );
    }
    run.assert_noted(
        "b",
        &[
            (
                "user_de/10/com.android.settings/databases/battery-usage-db-v9",
                "malformed",
            ),
            (
                "user_de/11/com.google.android.settings.intelligence/databases/battery-usage-db-v4",
                "neither BatteryState nor AppUsageEventEntity",
            ),
        ],
    );
}
