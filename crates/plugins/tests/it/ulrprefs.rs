//! Google Play services' Location History preferences (`android::ulrprefs`) on two Android
//! phones and a third tree, written by `tests/fixtures/ulrprefs/ulrprefs.py` (plain
//! shared-preferences XML with the `<account>:<setting>` pairs ALEAPP's ulrUserprefs lists). The
//! generator's record is the oracle: one phenomenon per account with every setting's value and
//! its times (the `…Millis` settings), the account's e-mail on the owner; the device's settings
//! apart; phone B's two accounts and no device settings; a malformed file and a file of the name
//! that is no preferences map noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn location_history_settings_per_account_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/ulrprefs/ulrprefs.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Amsterdam", Some("NL")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let accounts = o[source]["accounts"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Location History settings of "))
            .collect();
        assert_eq!(found.len(), accounts.len(), "{source}: {found:#?}");
        let owner = run.owner(source);
        for acct in accounts {
            let email = acct["email"].as_str().unwrap();
            let p = titled(
                &all,
                &format!("Google Location History settings of {email}"),
            );
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, email), "{p:#?}");
            for (k, v) in acct["settings"].as_object().unwrap() {
                let v = v.as_str().unwrap();
                assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                assert!(p.interpretation.contains(&format!("{k} = {v}")), "{p:#?}");
            }
            assert_eq!(time_values(p), strings(&acct["times"]), "{p:#?}");
            assert!(owner.contains(email), "{owner}");
        }
        match o[source]["device"].as_object() {
            Some(dev) => {
                let p = titled(&all, "Google Location History device settings");
                for (k, v) in dev["settings"].as_object().unwrap() {
                    let v = v.as_str().unwrap();
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
                assert_eq!(time_values(p), strings(&dev["times"]), "{p:#?}");
            }
            None => assert!(
                !all.iter()
                    .any(|p| p.title == "Google Location History device settings")
            ),
        }
    }
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.google.android.gms/shared_prefs/ULR_USER_PREFS.xml",
                "malformed",
            ),
            (
                "user/10/com.google.android.gms/shared_prefs/ULR_USER_PREFS.xml",
                "no <map>",
            ),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Google Location History")),
        "{:#?}",
        run.phenomena("c")
    );
}
