//! Pinterest's account (`android::pinterest`) on two Android phones, written by
//! `tests/fixtures/pinterest/pinterest.py` (the shared-preferences XML with the account record
//! as JSON in `PREF_MY_USER`, the members ALEAPP's pinterest_account reads). The generator's
//! record is the oracle: every member of the record a fact, the birthday (before 1970) a time,
//! the e-mail, user name and name observed as the owner's; a second user's file that is not XML
//! noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn pinterest_account_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/pinterest/pinterest.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let u = &o[source];
        let all = run.all_phenomena(source);
        let p = titled(
            &all,
            &format!("Pinterest account {}", u["username"].as_str().unwrap()),
        );
        for (k, v) in u.as_object().unwrap() {
            let shown = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            if k == "birthday" {
                assert_eq!(p.verified_facts[p.times[0].fact].value, shown);
            } else {
                assert!(has_fact(p, &shown), "{k}: {p:#?}");
            }
        }
        let owner = run.owner(source).to_lowercase();
        assert!(
            owner.contains(&format!("email={}", u["email"].as_str().unwrap())),
            "{owner}"
        );
    }
    run.assert_noted(
        "b",
        &[("user/10/com.pinterest/shared_prefs/pinterest.xml", "")],
    );
}
