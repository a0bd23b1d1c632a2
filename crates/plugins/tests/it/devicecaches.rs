//! Apple Maps' preferences (`ios::mapsprefs`), the Wi-Fi networks iCloud synced to the device
//! (`ios::wifi`) and locationd's last car connection (`ios::carconnection`) of two iPhones,
//! written with plistlib and Google's protobuf runtime by
//! `tests/fixtures/devicecaches/devicecaches.py` (an iOS 17 layout with binary plists, an iOS 12
//! one with XML plists). The generator's record is the oracle, as iLEAPP's
//! appleMapsApplication, appleMapsGroup, iCloudWifi and carCD read the same keys and fields:
//! every camera position with its other values, every synced network with each field, the
//! connection's two times and type, every Clock alarm (repeat days, dismissal), timer,
//! stopwatch and world clock city (iLEAPP's alarms, appleTimers, appleStopwatch,
//! appleWorldClock), every CoreAccessories event (iLEAPP's
//! get_coreAccessories and get_coreAccessoriesUserEvent) with each value, its time in the
//! encoding it was written in and a Lightning cable's kind; a launch daemon's
//! `com.apple.wifid.plist` and an app's own `cache.plist` are passed over, and a MapsActivity
//! that is no message, an event that is no property list and a database without `all_events`
//! are noted.

use crate::android_support::{generate, has_fact, triage};
use masf_graph::TimeEncoding;

#[test]
fn maps_camera_synced_wifi_and_car_connection_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/devicecaches/devicecaches.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let unparsed = run.unparsed(source);
        let expected = o["unparsed"].as_array().unwrap();
        assert_eq!(unparsed.len(), expected.len(), "{unparsed:#?}");
        for e in expected {
            let (file, why) = (e[0].as_str().unwrap(), e[1].as_str().unwrap());
            assert!(
                unparsed
                    .iter()
                    .any(|u| u.artefact.ends_with(file) && u.reason.contains(why)),
                "{file}: {why}: {unparsed:#?}"
            );
        }
        let all = run.all_phenomena(source);

        let cameras: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Apple Maps last viewed "))
            .collect();
        let expected = o["cameras"].as_array().unwrap();
        assert_eq!(cameras.len(), expected.len(), "{cameras:#?}");
        for c in expected {
            let (lat, lon) = (c[0].as_str().unwrap(), c[1].as_str().unwrap());
            let p = cameras
                .iter()
                .find(|p| p.title == format!("Apple Maps last viewed {lat}, {lon}"))
                .unwrap_or_else(|| panic!("{lat}, {lon}: {cameras:#?}"));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, lat) && has_fact(p, lon), "{p:#?}");
            for other in c[2].as_array().unwrap() {
                assert!(has_fact(p, other.as_str().unwrap()), "{other}: {p:#?}");
            }
            // the camera has no time of its own: the plist's modification time bounds it
            assert_eq!(p.times.len(), 1, "{p:#?}");
            assert_eq!(p.times[0].description, "Maps preferences last written");
            assert!(
                p.interpretation
                    .contains("so the camera was saved no later")
            );
            assert!(
                p.interpretation
                    .contains("not a recorded position of the device")
            );
        }

        let synced: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("iCloud-synced Wi-Fi network "))
            .collect();
        let expected = o["synced"].as_array().unwrap();
        assert_eq!(synced.len(), expected.len(), "{synced:#?}");
        for n in expected {
            let ssid = n["SSID_STR"].as_str().unwrap();
            let p = synced
                .iter()
                .find(|p| p.title == format!("iCloud-synced Wi-Fi network {ssid}"))
                .unwrap_or_else(|| panic!("{ssid}"));
            assert_eq!(p.category, "wifi");
            for (k, v) in n.as_object().unwrap() {
                let v = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
            }
            assert!(p.interpretation.contains(&format!(
                "added by the device {}",
                n["added_by"].as_str().unwrap()
            )));
        }
        // the launch daemon's plist of the same name is no synced data
        assert!(!all.iter().any(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("LaunchDaemons"))
        }),);

        let events: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Accessory event ("))
            .collect();
        let expected = o["accessories"].as_array().unwrap();
        assert_eq!(events.len(), expected.len(), "{events:#?}");
        for e in expected {
            let time = e["time"].as_str().unwrap();
            let p = events
                .iter()
                .find(|p| {
                    p.title == e["title"].as_str().unwrap()
                        && p.times.len() == 1
                        && p.verified_facts[p.times[0].fact].value == time
                })
                .unwrap_or_else(|| panic!("{e}: {events:#?}"));
            assert_eq!(p.category, "device");
            assert_eq!(
                format!("{:?}", p.times[0].encoding),
                e["encoding"].as_str().unwrap()
            );
            for v in e["values"].as_array().unwrap() {
                assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
            }
            if let Some(w) = e["word"].as_str() {
                assert!(
                    p.interpretation.contains(&format!("({w})")),
                    "{}",
                    p.interpretation
                );
            }
        }
        // an accessory's serial number is a fact of its event, never an identity
        assert!(
            !run.identifiers(source)
                .iter()
                .any(|(_, v)| v.contains("GX7KQ2LMN0P1"))
        );

        // the Clock app: alarms, timers, stopwatches, world clock cities
        for (key, prefix) in [
            ("alarms", "Alarm "),
            ("timers", "Timer "),
            ("stopwatches", "Stopwatch"),
            ("cities", "World clock city "),
        ] {
            let found: Vec<_> = all.iter().filter(|p| p.title.starts_with(prefix)).collect();
            let expected = o[key].as_array().unwrap();
            assert_eq!(found.len(), expected.len(), "{key}: {found:#?}");
            for e in expected {
                let p = match key {
                    "stopwatches" => found[0],
                    "cities" => found
                        .iter()
                        .find(|p| p.title == format!("World clock city {}", e[0].as_str().unwrap()))
                        .unwrap(),
                    _ => found
                        .iter()
                        .find(|p| p.title == e[0].as_str().unwrap())
                        .unwrap_or_else(|| panic!("{e}: {found:#?}")),
                };
                let facts = match key {
                    "stopwatches" => vec![e[0].clone()],
                    _ => e[1].as_array().unwrap().clone(),
                };
                for f in facts {
                    assert!(has_fact(p, f.as_str().unwrap()), "{f}: {p:#?}");
                }
                match key {
                    "alarms" => {
                        assert!(
                            p.interpretation
                                .contains(&format!("repeats {}", e[2].as_str().unwrap())),
                            "{}",
                            p.interpretation
                        );
                        assert_eq!(p.times.len() as u64, e[3].as_u64().unwrap(), "{p:#?}");
                    }
                    "timers" => assert_eq!(p.times.len() as u64, e[2].as_u64().unwrap()),
                    "stopwatches" => {
                        assert!(p.interpretation.contains(e[1].as_str().unwrap()))
                    }
                    _ => assert_eq!(p.category, "locations"),
                }
            }
        }

        let car: Vec<_> = all
            .iter()
            .filter(|p| p.title == "Last car connection (locationd)")
            .collect();
        assert_eq!(car.len(), 1, "only locationd's cache.plist: {car:#?}");
        let (p, c) = (car[0], &o["car"]);
        assert_eq!(p.category, "device");
        let marks: Vec<(&str, &str)> = p
            .times
            .iter()
            .map(|t| {
                assert_eq!(t.encoding, TimeEncoding::AppleSeconds);
                (
                    p.verified_facts[t.fact].value.as_str(),
                    t.description.as_str(),
                )
            })
            .collect();
        assert_eq!(
            marks,
            [
                (c["start"].as_str().unwrap(), "car connected"),
                (c["end"].as_str().unwrap(), "car disconnected"),
            ]
        );
        assert!(has_fact(p, c["type"].as_str().unwrap()), "{p:#?}");
        assert!(p.interpretation.contains(c["key"].as_str().unwrap()));
        match c["udid"].as_str() {
            Some(u) => {
                assert!(has_fact(p, u), "{p:#?}");
                // recorded, never observed as the device's UDID
                assert!(!run.identifiers(source).iter().any(|(_, v)| v.contains(u)));
            }
            None => assert!(!p.interpretation.contains("CalibrationUDID")),
        }
    }
}
