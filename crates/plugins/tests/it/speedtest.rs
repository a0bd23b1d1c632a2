//! Ookla's Speedtest on two iPhones (`ios::speedtest`) and two Android phones
//! (`android::speedtest`), written by `tests/fixtures/speedtest/speedtest.py` (Python's sqlite3
//! and json, the tables and columns iLEAPP's ooklaSpeedtestData and ALEAPP's speedtest_tests,
//! speedtest_reports_location and speedtest_reports_wifi read). The generator's record is the
//! oracle: every result with its addresses, network, position, speeds and time (Cocoa seconds
//! on iOS, Unix ms or seconds on Android); every report's position, its Wi-Fi networks and
//! time; a report that is no JSON noted.

use masf_graph::TimeEncoding;

use crate::android_support::{generate, has_fact, triage};

/// A stored value as the output prints it.
fn shown(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) if n.is_f64() => {
            Some(serde_json::Value::from(n.as_f64().unwrap()).to_string())
        }
        other => Some(other.to_string()),
    }
}

#[test]
fn speedtest_on_two_iphones_and_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/speedtest/speedtest.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c", "d"]
        .iter()
        .map(|s| tmp.path().join(s))
        .collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/London", Some("GB")),
        ("b", &dirs[1], "Europe/London", Some("GB")),
        ("c", &dirs[2], "Europe/Madrid", Some("ES")),
        ("d", &dirs[3], "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c", "d"] {
        let o = &o[source];
        let ios = o.get("results").is_some();
        let all = run.all_phenomena(source);
        let results: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Speedtest result"))
            .collect();
        let expected = o
            .get("results")
            .or_else(|| o.get("tests"))
            .unwrap()
            .as_array()
            .unwrap();
        assert_eq!(results.len(), expected.len(), "{source}: {results:#?}");
        for r in expected {
            let ip = r
                .get("ZEXTERNALIP")
                .or_else(|| r.get("externalIp"))
                .unwrap()
                .as_str()
                .unwrap();
            let p = results
                .iter()
                .find(|p| p.title == format!("Speedtest result from {ip}"))
                .unwrap();
            assert_eq!(p.category, "locations");
            for (k, v) in r.as_object().unwrap() {
                if k == "ZDATE" || k == "date" {
                    continue;
                }
                if let Some(v) = shown(v) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            let (date, enc) = if ios {
                (shown(&r["ZDATE"]).unwrap(), TimeEncoding::AppleSeconds)
            } else if r["date"].as_i64().unwrap() >= 1_000_000_000_000 {
                (r["date"].to_string(), TimeEncoding::UnixMillis)
            } else {
                (r["date"].to_string(), TimeEncoding::UnixSeconds)
            };
            // a Core Data TIMESTAMP keeps a whole number of seconds as an integer
            assert_eq!(
                p.verified_facts[p.times[0].fact].value.parse::<f64>().ok(),
                date.parse::<f64>().ok()
            );
            assert_eq!(p.times[0].encoding, enc);
        }
        if ios {
            continue;
        }
        let reports: Vec<_> = all
            .iter()
            .filter(|p| p.title == "Speedtest report position")
            .collect();
        let expected = o["reports"].as_array().unwrap();
        assert_eq!(reports.len(), expected.len(), "{source}: {reports:#?}");
        for (r, p) in expected.iter().zip(&reports) {
            let start = &r["start"];
            for k in ["latitude", "longitude", "altitude", "accuracy"] {
                assert!(
                    has_fact(p, &start["location"][k].to_string()),
                    "{k}: {p:#?}"
                );
            }
            for s in start["extended"]["wifi"]["scanResults"].as_array().unwrap() {
                for k in ["BSSID", "SSID"] {
                    assert!(has_fact(p, s[k].as_str().unwrap()), "{k}: {p:#?}");
                }
                assert!(has_fact(p, &s["level"].to_string()));
            }
            assert_eq!(
                p.verified_facts[p.times[0].fact].value,
                start["timestamp"].as_str().unwrap()
            );
        }
    }
    run.assert_noted(
        "c",
        &[(
            "org.zwanoo.android.speedtest/databases/speedtest",
            "1 REPORT rows",
        )],
    );
}
