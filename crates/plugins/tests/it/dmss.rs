//! Dahua DMSS's `devicechannel.db` (`android::dmss`) on two Android phones, written by
//! `tests/fixtures/dmss/dmss.py` (Python's sqlite3, the tables and columns ALEAPP's dmss reads).
//! The generator's record is the oracle: every device with its name, channel count, serial number
//! and address and port as stored, observed as the device `dmss-device:<serial>` when it has a
//! serial; every channel with its number, name, favourite flag and its device's name and serial;
//! phone B's older layout (no serial, no favourite) read; a truncated copy and a store of another
//! layout noted; and no login (user name or password) in any output of the run.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn dmss_devices_and_channels_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/dmss/dmss.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/Dublin", Some("IE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let entities = run.entities(source);
        let devices = o["devices"].as_array().unwrap();
        assert_eq!(count("DMSS device "), devices.len());
        for d in devices {
            let name = s(d, "name").unwrap();
            let p = titled(&all, &format!("DMSS device {name}"));
            assert_eq!(p.category, "device");
            for k in ["id", "channels", "serial", "ip", "port"] {
                if let Some(v) = s(d, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            // every fixture device keeps a login: said, never quoted
            assert!(has_fact(p, "stored"), "{p:#?}");
            match s(d, "serial") {
                Some(serial) => assert!(
                    entities.iter().any(|e| e
                        .starts_with(&format!("dmss-device:{serial} [Device] "))
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
        assert_eq!(count("DMSS channel "), channels.len());
        for c in channels {
            let p = titled(
                &all,
                &format!(
                    "DMSS channel {} of {}",
                    s(c, "name").unwrap(),
                    s(c, "device").unwrap()
                ),
            );
            for k in ["num", "favourite", "device_serial"] {
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
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            for secret in &secrets {
                assert!(!text.contains(secret), "{secret} in {tool} {args}");
            }
        }
        for p in &all {
            for secret in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(secret)),
                    "{secret}: {p:#?}"
                );
            }
        }
    }
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.mm.android.DMSS/databases/devicechannel.db",
                "malformed",
            ),
            (
                "user/11/com.mm.android.DMSS/databases/devicechannel.db",
                "none of the tables",
            ),
        ],
    );
}
