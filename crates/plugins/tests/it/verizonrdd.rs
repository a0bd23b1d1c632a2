//! Verizon RDD's stores (`android::verizonrdd`) on two Android phones and a third tree, written by
//! `tests/fixtures/verizonrdd/verizonrdd.py` (Python's sqlite3, the tables and columns ALEAPP's
//! VerizonRDDAnalytics and VerizonRDDWIFI read). The generator's record is the oracle: every
//! battery sample with its values and time (Unix ms), every Wi-Fi event with the members of its
//! JSON (BSSID, SSID, IP address, session time and traffic, cell); phone B's older battery table
//! (no brightness or temperature) and a cut JSON document read (the row kept, its members none);
//! on phone C a truncated analytics store and a Wi-Fi store without its table noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn verizonrdd_battery_history_and_wifi_events_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/verizonrdd/verizonrdd.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "America/Los_Angeles", Some("US")),
        ("c", &c, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let samples = o["battery"].as_array().unwrap();
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Verizon RDD battery sample "))
                .count(),
            samples.len()
        );
        for b in samples {
            let p = titled(
                &all,
                &format!("Verizon RDD battery sample {}", s(&b["FormattedTime"])),
            );
            assert_eq!(p.category, "device");
            for v in b["values"].as_array().unwrap() {
                assert!(has_fact(p, &s(v)), "{v}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(&b["ActualTime"])]);
        }
        let events = o["wifi"].as_array().unwrap();
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Verizon RDD Wi-Fi "))
                .count(),
            events.len()
        );
        for w in events {
            let p = titled(
                &all,
                &format!(
                    "Verizon RDD Wi-Fi {} {}",
                    s(&w["event"]),
                    s(&w["timestamp"])
                ),
            );
            assert_eq!(p.category, "wifi");
            assert!(has_fact(p, &s(&w["eventid"])), "{p:#?}");
            for v in w["values"].as_array().unwrap() {
                assert!(has_fact(p, &s(v)), "{v}: {p:#?}");
            }
            if w["cut"].as_bool().unwrap() {
                assert!(
                    !p.verified_facts
                        .iter()
                        .any(|f| f.value.contains("de:ad:be:ef")),
                    "a cut document yields no member: {p:#?}"
                );
            }
            assert_eq!(time_values(p), vec![s(&w["timestamp"])]);
        }
    }
    // phone B's older battery table has no brightness or temperature
    let all = run.all_phenomena("b");
    let p = titled(&all, "Verizon RDD battery sample 11/14/2023 22:13:20");
    assert!(!p.verified_facts.iter().any(|f| f.value == "301"), "{p:#?}");
    run.assert_noted(
        "c",
        &[
            (
                "com.verizon.mips.services/databases/RDD_ANALYTICS_DATABASE",
                "malformed",
            ),
            (
                "com.verizon.mips.services/databases/RDD_WIFI_DATA_DATABASE",
                "TABLERDDWIFIDATA",
            ),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Verizon RDD "))
    );
}
