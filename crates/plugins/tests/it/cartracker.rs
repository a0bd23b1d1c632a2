//! Android Auto's cars (`android::auto`) and Google's unknown tracker alerts and sightings
//! (`android::trackers`) of two Android phones written by
//! `tests/fixtures/cartracker/cartracker.py` (Python's sqlite3 and Google's protobuf runtime, with
//! the columns ALEAPP's androidauto, airtagAlerts and airtagScans read). The generator's record
//! is the oracle: every car with each value, its connection time and whether a Wi-Fi password is
//! stored (never the password); the car both phones list observed once as the device
//! `bluetooth:<address>` from each; every alert and sighting with its address, state, times,
//! signal strength and the phone's position read as signed degrees (int32 and sfixed32, west of
//! Greenwich); a store with neither table noted.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn android_auto_cars_and_unknown_trackers_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/cartracker/cartracker.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Madrid", Some("ES")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let shared = o["shared_car"].as_str().unwrap();
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let cars: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Android Auto car "))
            .collect();
        let expected = o["cars"].as_array().unwrap();
        assert_eq!(cars.len(), expected.len(), "{source}: {cars:#?}");
        for car in expected {
            let title = format!(
                "Android Auto car {} {}",
                car["manufacturer"].as_str().unwrap(),
                car["model"].as_str().unwrap()
            );
            let p = cars
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{title}"));
            assert_eq!(p.category, "device");
            for (k, v) in car.as_object().unwrap() {
                match v {
                    serde_json::Value::String(s) => assert!(has_fact(p, s), "{k}: {p:#?}"),
                    serde_json::Value::Number(n) if k == "connectiontime" => {
                        assert_eq!(p.verified_facts[p.times[0].fact].value, n.to_string())
                    }
                    _ => {}
                }
            }
            assert_eq!(
                p.interpretation
                    .contains("a Wi-Fi password for the car's network is stored"),
                car["password"].as_bool().unwrap()
            );
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.value.contains("secret-car-pass"))
            );
        }
        let ids = run.identifiers(source);
        assert!(
            ids.iter()
                .any(|(t, v)| t == "bluetooth_address" && v.eq_ignore_ascii_case(shared)),
            "{source}: {ids:?}"
        );

        let alerts: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Unknown tracker alert: "))
            .collect();
        let expected = o["alerts"].as_array().unwrap();
        assert_eq!(alerts.len(), expected.len(), "{source}: {alerts:#?}");
        for al in expected {
            let p = alerts
                .iter()
                .find(|p| p.title.ends_with(al["macAddress"].as_str().unwrap()))
                .unwrap();
            for k in ["alertLifecycleId", "alertStatus", "deviceType"] {
                let v = al[k]
                    .as_str()
                    .map_or_else(|| al[k].to_string(), str::to_string);
                assert!(has_fact(p, &v), "{k}: {p:#?}");
            }
            let times: Vec<&str> = p
                .times
                .iter()
                .map(|t| p.verified_facts[t.fact].value.as_str())
                .collect();
            assert_eq!(
                times,
                [
                    al["creationTimestampMillis"].to_string(),
                    al["lastUpdatedTimestampMillis"].to_string()
                ]
            );
        }

        let scans: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Unknown tracker seen: "))
            .collect();
        let expected = o["scans"].as_array().unwrap();
        assert_eq!(scans.len(), expected.len(), "{source}: {scans:#?}");
        for (s, rssi) in expected.iter().zip(o["rssi"].as_array().unwrap()) {
            let created = s["created"].to_string();
            let p = scans
                .iter()
                .find(|p| {
                    p.times
                        .iter()
                        .any(|t| p.verified_facts[t.fact].value == created)
                })
                .unwrap_or_else(|| panic!("{created}"));
            assert_eq!(p.category, "locations");
            assert!(p.title.ends_with(s["mac"].as_str().unwrap()));
            assert!(
                p.interpretation
                    .contains(&format!("signal strength {rssi}")),
                "{}",
                p.interpretation
            );
            match (s["lat"].as_f64(), s["lon"].as_f64()) {
                (Some(lat), Some(lon)) => assert!(
                    p.interpretation
                        .contains(&format!("latitude {lat:.7}, longitude {lon:.7}")),
                    "{}",
                    p.interpretation
                ),
                _ => assert!(!p.interpretation.contains("latitude")),
            }
        }
        // a tracker's rotating address is no identifier
        assert!(
            !ids.iter()
                .any(|(_, v)| v.eq_ignore_ascii_case("5A:3C:11:90:2E:7F"))
        );
    }
    run.assert_noted(
        "b",
        &[(
            "user/10/com.google.android.gms/databases/personalsafety_db",
            "macAddress",
        )],
    );
}
