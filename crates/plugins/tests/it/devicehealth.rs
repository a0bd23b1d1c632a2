//! Device Health Services' `bluetooth.db` and `app_usage_stats.xml` (`android::devicehealth`) on
//! two Android phones, written by `tests/fixtures/devicehealth/devicehealth.py` (Python's sqlite3,
//! the tables and columns ALEAPP's Turbo_Bluetooth reads and the preferences its
//! get_Turbo_AppUsage reads). The generator's record is the oracle: every Bluetooth device with
//! its address and identifier, each a `bluetooth:` device (the car on both phones); every battery
//! reading with its level, volume, zone and time; every app launch with its time; another app's
//! `bluetooth.db` never read; phone B's older layout read; a truncated store, a malformed
//! preferences file and a store of another layout noted, as is a preference that is no launch
//! list.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn device_health_bluetooth_devices_and_app_launches_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/devicehealth/devicehealth.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let entities = run.entities(source);
        // the devices, each a `bluetooth:` device
        let devices = o["devices"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.ends_with(" (Device Health)") && p.title.starts_with("Bluetooth device ")
            })
            .collect();
        assert_eq!(found.len(), devices.len(), "{found:#?}");
        for d in devices {
            let addr = d["addr"].as_str().unwrap();
            let p = titled(&all, &format!("Bluetooth device {addr} (Device Health)"));
            assert_eq!(p.category, "bluetooth");
            assert!(has_fact(p, addr), "{p:#?}");
            if let Some(ident) = d["ident"].as_str() {
                assert!(has_fact(p, ident), "{ident}: {p:#?}");
            }
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("bluetooth:{addr} [Device]"))),
                "{addr}: {entities:#?}"
            );
        }
        // the readings
        let events = o["events"].as_array().unwrap();
        let readings: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Bluetooth device ") && p.title.contains(" battery "))
            .collect();
        assert_eq!(readings.len(), events.len(), "{readings:#?}");
        for e in events {
            let ts = e["ts"].as_str().unwrap();
            let addr = e["addr"].as_str().unwrap();
            let level = e["level"].as_str().unwrap();
            let p = readings
                .iter()
                .find(|p| time_values(p).contains(&ts.to_string()))
                .unwrap_or_else(|| panic!("{ts}: {readings:#?}"));
            assert_eq!(p.title, format!("Bluetooth device {addr} battery {level}%"));
            assert_eq!(p.category, "bluetooth");
            assert!(has_fact(p, e["zone"].as_str().unwrap()), "{p:#?}");
            if let Some(v) = e["volume"].as_str() {
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
        }
        // the launches
        let launches = o["launches"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("App launched: "))
            .collect();
        let total: usize = launches
            .iter()
            .map(|l| l["times"].as_array().unwrap().len())
            .sum();
        assert_eq!(found.len(), total, "{found:#?}");
        for l in launches {
            let package = l["package"].as_str().unwrap();
            let title = format!("App launched: {package} (Device Health)");
            for t in l["times"].as_array().unwrap() {
                let t = t.as_str().unwrap();
                assert!(
                    found
                        .iter()
                        .any(|p| p.title == title && time_values(p) == vec![t.to_string()]),
                    "{package} {t}: {found:#?}"
                );
            }
            let p = titled(&all, &title);
            assert_eq!(p.category, "app_usage");
            assert!(has_fact(p, package));
            let pref = l["pref"].as_str().unwrap();
            assert!(has_fact(p, pref), "{pref}: {p:#?}");
        }
    }
    // the car on both phones is one device
    for source in ["a", "b"] {
        assert!(
            run.entities(source)
                .iter()
                .any(|e| e.starts_with("bluetooth:00:1E:AE:4D:5E:6F [Device]"))
        );
    }
    // another app's bluetooth.db is not read
    let foreign = o["a"]["foreign"].as_str().unwrap();
    assert!(
        !run.all_phenomena("a")
            .iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value == foreign)),
        "{foreign} read"
    );
    run.assert_noted(
        "a",
        &[(
            "com.google.android.apps.turbo/shared_prefs/app_usage_stats.xml",
            "last_prune_millis",
        )],
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.google.android.apps.turbo/databases/bluetooth.db",
                "malformed",
            ),
            (
                "user/10/com.google.android.apps.turbo/shared_prefs/app_usage_stats.xml",
                "malformed",
            ),
            (
                "user/11/com.google.android.apps.turbo/databases/bluetooth.db",
                "device_address",
            ),
            (
                "data/com.google.android.apps.turbo/shared_prefs/app_usage_stats.xml",
                "schema_version",
            ),
        ],
    );
}
