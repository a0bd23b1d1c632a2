//! Hik-Connect's `database.hik` (`android::hikvision`) on two Android phones, written by
//! `tests/fixtures/hikvision/hikvision.py` (Python's sqlite3, the tables and columns ALEAPP's
//! hikvision reads, with the recorder's login beside them). The generator's record is the oracle:
//! every device with its name, serial number, port and DDNS address, observed as the device
//! `hikvision-device:<serial>` when it has a serial; every channel with its number, name, enabled
//! flag and its device's name and serial; phone B's older layout (`DeviceInfo`, `chDDNSAddr`) read;
//! a truncated copy and a store of another layout noted; and no login (user name or password) in
//! any output of the run.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn hik_connect_devices_and_channels_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/hikvision/hikvision.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "Europe/Prague", Some("CZ")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let entities = run.entities(source);
        let devices = o["devices"].as_array().unwrap();
        assert_eq!(count("Hik-Connect device "), devices.len());
        for d in devices {
            let name = s(d, "name").unwrap();
            let title = match s(d, "serial") {
                Some(serial) => format!("Hik-Connect device {name} (serial {serial})"),
                None => format!("Hik-Connect device {name}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "device");
            for k in ["id", "serial", "port", "ddns"] {
                if let Some(v) = s(d, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            // a stored login is said, never quoted
            let said = d["login"].as_bool().unwrap() || d["password"].as_bool().unwrap();
            assert_eq!(has_fact(p, "stored"), said, "{p:#?}");
            // the device by its serial number
            match s(d, "serial") {
                Some(serial) => assert!(
                    entities.iter().any(|e| e
                        .starts_with(&format!("hikvision-device:{serial} [Device] "))
                        && e.contains(&format!("serial={}", serial.to_uppercase()))),
                    "{serial}: {entities:#?}"
                ),
                None => assert!(
                    !entities.iter().any(|e| e.contains(&name)),
                    "{name}: {entities:#?}"
                ),
            }
        }
        let channels = o["channels"].as_array().unwrap();
        assert_eq!(count("Hik-Connect channel "), channels.len());
        for c in channels {
            let p = titled(
                &all,
                &format!(
                    "Hik-Connect channel {} of {}",
                    s(c, "name").unwrap(),
                    s(c, "device").unwrap()
                ),
            );
            for k in ["no", "enabled", "device_serial"] {
                if let Some(v) = s(c, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
        }
        // never a login, in a phenomenon or in any output the run logged
        let secrets: Vec<&str> = o["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(secrets.is_empty(), source == "b");
        for (tool, args, text) in run.outputs(source) {
            for secret in &secrets {
                assert!(!text.contains(secret), "{secret} in {tool} {args}");
            }
        }
    }
    // the household's recorder, reached from both phones, is one serial number
    let serial = "DS-7608NI-K2/8P0820210316CCRRF12345678WCVU";
    for source in ["a", "b"] {
        assert!(
            run.identifiers(source)
                .contains(&("serial".to_string(), serial.to_string())),
            "{source}: {:#?}",
            run.identifiers(source)
        );
    }
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.connect.enduser/databases/database.hik",
                "malformed",
            ),
            (
                "user/11/com.connect.enduser/databases/database.hik",
                "none of the tables",
            ),
        ],
    );
}
