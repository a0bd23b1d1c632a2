//! init's persistent properties (`android::lifecycle::persistent`): two phones'
//! `data/property/persistent_properties` written by Google's protobuf runtime from
//! `tests/fixtures/persistent-properties/persistent_properties.py` with the field numbers of
//! AOSP's `persistent_properties.proto`. The generator's record is the oracle: every property
//! is found with its value, every line of the boot-reason history with its reason and time
//! (ALEAPP's `persistentProp` keeps the reboots and factory resets among them); a copy cut in the
//! middle of a record is noted and the rest of the phone read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn persistent_properties_and_boot_reasons_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/persistent-properties/persistent_properties.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Warsaw", Some("PL")),
        ("b", &b, "America/Sao_Paulo", Some("BR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let props: Vec<_> = all
            .iter()
            .filter(|p| p.title == "Persistent system properties")
            .collect();
        assert_eq!(props.len(), 1, "{source}: {props:#?}");
        for r in o[source]["properties"].as_array().unwrap() {
            let (name, value) = (r[0].as_str().unwrap(), r[1].as_str().unwrap());
            assert!(has_fact(props[0], name), "{name}: {props:#?}");
            // the boot-reason history is read line by line below
            if name != "persist.sys.boot.reason.history" {
                assert!(has_fact(props[0], value), "{value}: {props:#?}");
            }
        }
        let reasons: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Boot reason: "))
            .collect();
        let history = o[source]["history"].as_array().unwrap();
        assert_eq!(reasons.len(), history.len(), "{source}: {reasons:#?}");
        for h in history {
            let (reason, time) = (h[0].as_str().unwrap(), h[1].as_str().unwrap());
            let p = reasons
                .iter()
                .find(|p| p.title == format!("Boot reason: {reason}"))
                .unwrap_or_else(|| panic!("{reason}: {reasons:#?}"));
            assert!(has_fact(p, time) && has_fact(p, &format!("{reason},{time}")));
            assert_eq!(p.times.len(), 1);
        }
    }
    let reset = run
        .all_phenomena("a")
        .into_iter()
        .find(|p| p.title == "Boot reason: reboot,factory_reset")
        .unwrap();
    assert!(
        reset
            .interpretation
            .contains("a reset to the factory state")
    );
    run.assert_noted(
        "b",
        &[(
            "misc_ce/0/property/persistent_properties",
            "not a Protocol Buffers message",
        )],
    );
}
