//! Samsung's Device Health Manager Service battery history (`android::samsungbattery`) on three
//! Samsung phones, written by `tests/fixtures/samsungbattery/samsungbattery.py` (Python's
//! sqlite3, the tables and columns ALEAPP's samsungBatteryStats reads). The generator's record is
//! the oracle: one summary per app (uid) and UTC day of its windows' starts — never one per
//! window —, per device day, per event type and day, per drain type and day, each with every
//! sum, count and extreme as sqlite3 prints it and the first and last times; phone B's older
//! tables (no Bluetooth scans, screen-on count, event id or system history) read with those
//! left out; the journal beside phone A's store not read; phone C's foreign store, truncated copy
//! and `APP_HISTORY` without `uid` noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// The summed columns of each summary kind, as the oracle names them.
const APP_SUMS: &[&str] = &[
    "power",
    "screen_power",
    "fg_time",
    "bg_time",
    "cpu_time",
    "wakelock_time",
    "mobile_packet",
    "wifi_packet",
    "wakeup_alarm",
    "gps_time",
    "audio_time",
    "mobile_active",
    "bluetooth_scan",
];
const DEVICE_SUMS: &[&str] = &[
    "all_power",
    "screen_power",
    "screen_on_time",
    "screen_off_time",
    "screen_on_discharge",
    "screen_off_discharge",
    "screen_on_count",
    "high_brightness_time",
    "high_refresh_time",
];

/// A history summarised per day: the oracle key, the title prefix, the column grouped by
/// besides the day, the category and the summed columns.
type Kind<'a> = (&'a str, &'a str, Option<&'a str>, &'a str, &'a [&'a str]);

#[test]
fn samsungbattery_app_device_event_and_system_history_per_day_on_three_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/samsungbattery/samsungbattery.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Asia/Seoul", Some("KR")),
        ("b", &b, "Asia/Seoul", Some("KR")),
        ("c", &c, "Asia/Seoul", Some("KR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let kinds: &[Kind] = &[
        (
            "apps",
            "Samsung battery use of uid",
            Some("uid"),
            "app_usage",
            APP_SUMS,
        ),
        (
            "device",
            "Samsung device battery history",
            None,
            "device",
            DEVICE_SUMS,
        ),
        (
            "events",
            "Samsung battery events of type",
            Some("event_type"),
            "device",
            &["min_value", "max_value", "distinct_values"],
        ),
        (
            "system",
            "Samsung system battery drain type",
            Some("drain_type"),
            "device",
            &["power", "used_time"],
        ),
    ];
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        for (key, prefix, by, category, summed) in kinds {
            let expected = o[source][*key].as_array().unwrap();
            let found: Vec<_> = all
                .iter()
                .filter(|p| p.title.starts_with(&format!("{prefix} ")))
                .collect();
            assert_eq!(found.len(), expected.len(), "{source} {key}: {found:#?}");
            for s in expected {
                let day = s["day"].as_str().unwrap();
                let title = match by {
                    Some(col) => format!("{prefix} {} on {day}", s[*col].as_str().unwrap()),
                    None => format!("{prefix} on {day}"),
                };
                let p = titled(&all, &title);
                assert_eq!(p.category, *category, "{p:#?}");
                assert!(has_fact(p, day), "{p:#?}");
                assert!(has_fact(p, s["rows"].as_str().unwrap()), "rows: {p:#?}");
                if let Some(col) = by {
                    assert!(has_fact(p, s[*col].as_str().unwrap()), "{p:#?}");
                }
                for col in *summed {
                    if let Some(v) = s[*col].as_str() {
                        assert!(has_fact(p, v), "{source} {key} {col}={v}: {p:#?}");
                    }
                }
                let mut times = vec![
                    s["first"].as_str().unwrap().to_string(),
                    s["last"].as_str().unwrap().to_string(),
                ];
                times.sort();
                assert_eq!(time_values(p), times, "{source} {key}: {p:#?}");
            }
        }
    }
    // phone A's six app windows are four app-days; the window starting before midnight UTC
    // counts for its start's day
    assert_eq!(o["a"]["apps"].as_array().unwrap().len(), 4);
    let all = run.all_phenomena("a");
    let late = titled(&all, "Samsung battery use of uid 10123 on 2024-06-01");
    assert!(has_fact(late, "1717288200000"), "{late:#?}");
    assert!(late.interpretation.contains("Bluetooth scans"), "{late:#?}");
    // phone B's older layout: no Bluetooth scans, no screen-on count, no system history
    let all = run.all_phenomena("b");
    let app = titled(&all, "Samsung battery use of uid 10123 on 2024-06-01");
    assert!(!app.interpretation.contains("Bluetooth scans"), "{app:#?}");
    let day = titled(&all, "Samsung device battery history on 2024-06-01");
    assert!(!day.interpretation.contains("screen turned on"), "{day:#?}");
    assert!(
        !all.iter()
            .any(|p| p.title.starts_with("Samsung system battery drain")),
        "{all:#?}"
    );
    // the journal is no store: neither read nor noted
    assert!(
        !run.unparsed("a")
            .iter()
            .any(|u| u.artefact.contains("sec_batterystats_history")),
        "{:#?}",
        run.unparsed("a")
    );
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Samsung battery use")),
    );
}
