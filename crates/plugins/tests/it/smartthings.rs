//! Samsung SmartThings (`android::smartthings`): two Android phones' `QcDB.db` written by
//! `tests/fixtures/smartthings/smartthings.py` with the columns ALEAPP's samsungSmartThings reads
//! (phone B's older store without the LE address). The generator's record is the oracle: every
//! device with each value and its connection time; the classic Bluetooth address observed as
//! the device `bluetooth:<address>` — the same television on both phones —, the LE address kept
//! as a fact only; a second user's store of another schema noted, the rest still read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn smartthings_devices_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/smartthings/smartthings.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let tv = o["tv"].as_str().unwrap();
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("SmartThings device "))
            .collect();
        let expected = o[source].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{found:#?}");
        for dev in expected {
            let name = dev["deviceName"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| p.title == format!("SmartThings device {name}"))
                .unwrap_or_else(|| panic!("{name}"));
            assert_eq!(p.category, "device");
            for (k, v) in dev.as_object().unwrap() {
                match v {
                    serde_json::Value::Null => {}
                    serde_json::Value::String(s) => assert!(has_fact(p, s), "{k}: {p:#?}"),
                    other => assert!(has_fact(p, &other.to_string()), "{k}: {p:#?}"),
                }
            }
            assert_eq!(p.times.len(), 1);
            assert_eq!(
                p.verified_facts[p.times[0].fact].value,
                dev["timeStamp"].to_string()
            );
        }
        let ids = run.identifiers(source);
        assert!(
            ids.iter()
                .any(|(t, v)| t == "bluetooth_address" && v.eq_ignore_ascii_case(tv)),
            "{source}: {ids:?}"
        );
        // an LE address is no identifier
        assert!(
            !ids.iter()
                .any(|(_, v)| v.eq_ignore_ascii_case("5E:11:22:33:44:55"))
        );
    }
    run.assert_noted(
        "b",
        &[(
            "user/10/com.samsung.android.oneconnect/databases/QcDB.db",
            "deviceName",
        )],
    );
}
