//! ADB keys (`plugins::adb`): two computers' `~/.android/adbkey.pub` and the Android devices
//! that allowed USB debugging from them (`/data/misc/adb/adb_keys`), written by
//! `tests/fixtures/adb/adb.py` with the real `adb keygen`. The generator's record is the oracle:
//! every trusted computer of each phone is found with its user, host and key; each computer's
//! own key is found; the phones and the computers that debugged them are linked by the key once
//! resolved (phone A with both computers, phone B with the laptop only); the private key is
//! never read; an `adb_keys` with no key is noted.

use crate::android_support::{generate, has_fact, triage};
use crate::who::resolved;

#[test]
fn adb_keys_link_phones_to_the_computers_that_debugged_them() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/adb/adb.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let p = |n: &str| tmp.path().join(n);
    let (laptop, pc, a, b, c) = (
        p("laptop"),
        p("pc"),
        p("phone_a"),
        p("phone_b"),
        p("phone_c"),
    );
    let run = triage(&[
        ("laptop", &laptop, "Europe/Berlin", Some("DE")),
        ("pc", &pc, "Europe/Berlin", Some("DE")),
        ("phone_a", &a, "Europe/Berlin", Some("DE")),
        ("phone_b", &b, "Europe/Berlin", Some("DE")),
        ("phone_c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for (phone, computers) in [
        ("phone_a", vec!["laptop", "pc"]),
        ("phone_b", vec!["laptop"]),
    ] {
        let all = run.all_phenomena(phone);
        let trusted: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Computer allowed USB debugging: "))
            .collect();
        assert_eq!(trusted.len(), computers.len(), "{phone}: {trusted:#?}");
        for comp in &computers {
            let c = &o[*comp];
            let p = trusted
                .iter()
                .find(|p| {
                    p.title == format!("Computer allowed USB debugging: {}", s(&c["user_host"]))
                })
                .unwrap_or_else(|| panic!("{phone}: {comp}"));
            assert!(
                has_fact(p, &s(&c["key"])) && has_fact(p, &s(&c["user_host"])),
                "{p:#?}"
            );
        }
    }
    for comp in ["laptop", "pc"] {
        let c = &o[comp];
        let all = run.all_phenomena(comp);
        let p = all
            .iter()
            .find(|p| p.title == format!("This computer's ADB key ({})", s(&c["user_host"])))
            .unwrap_or_else(|| {
                panic!(
                    "{comp}: {:#?}",
                    all.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            });
        assert!(has_fact(p, &s(&c["key"])));
        let ids = run.identifiers(comp);
        assert!(
            ids.contains(&("device_name".into(), s(&c["host"]).to_lowercase())),
            "{ids:?}"
        );
        // the private key beside it is never read
        for (_, args, _) in run.outputs(comp) {
            assert!(!args.contains("adbkey\""), "{args}");
        }
    }
    run.assert_noted("phone_c", &[("adb_keys", "no ADB public key line")]);

    let with = resolved(&run);
    let actor_of = |source: &str| -> Vec<String> {
        let e = run
            .entities(source)
            .into_iter()
            .find(|e| e.starts_with("adb-host:"))
            .unwrap();
        let context = e.split(' ').next().unwrap().to_string();
        with(&format!("{source}/{context}"))
    };
    let laptop_actor = actor_of("laptop");
    for phone in ["phone_a", "phone_b"] {
        assert!(
            laptop_actor
                .iter()
                .any(|e| e.starts_with(&format!("{phone}/adb-host:"))),
            "{phone} in {laptop_actor:?}"
        );
    }
    let pc_actor = actor_of("pc");
    assert!(
        pc_actor.iter().any(|e| e.starts_with("phone_a/adb-host:")),
        "{pc_actor:?}"
    );
    assert!(
        !pc_actor.iter().any(|e| e.starts_with("phone_b/")),
        "{pc_actor:?}"
    );
}
