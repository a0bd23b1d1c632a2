//! Twitch's account (`android::twitch`, through `android::prefsaccount`) on two Android phones,
//! written by `tests/fixtures/twitch/twitch.py` (Android's shared-preferences XML with the keys
//! ALEAPP's twitch reads). The generator's record is the oracle: every value a fact, the
//! creation time as stored, the e-mail, login and display name observed as the owner's; a
//! second user's file that is not XML noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn twitch_account_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/twitch/twitch.py",
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
        let s = &o[source]["strings"];
        let all = run.all_phenomena(source);
        let p = titled(
            &all,
            &format!("Twitch account {}", s["name"].as_str().unwrap()),
        );
        for (k, v) in s.as_object().unwrap() {
            let v = v.as_str().unwrap();
            if k == "created_at" {
                assert_eq!(p.verified_facts[p.times[0].fact].value, v);
            } else {
                assert!(has_fact(p, v), "{k}: {p:#?}");
            }
        }
        for (k, v) in o[source]["booleans"].as_object().unwrap() {
            let v = if v == true { "true" } else { "false" };
            assert!(has_fact(p, v), "{k}: {p:#?}");
        }
        let owner = run.owner(source).to_lowercase();
        assert!(
            owner.contains(&format!("email={}", s["email"].as_str().unwrap())),
            "{owner}"
        );
    }
    run.assert_noted(
        "b",
        &[("user/10/tv.twitch.android.app/shared_prefs/user.xml", "")],
    );
}
