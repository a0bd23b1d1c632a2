//! Roblox on two Android phones (`android::roblox`), written by
//! `tests/fixtures/roblox/roblox.py` (the files, keys and log lines ALEAPP's roblox reads). The
//! generator's record is the oracle: the account signed in with every value, its creation from
//! the JSON kept as text, observed as the device owner's (`roblox:<user id>`, user name, display
//! name); each remembered account as a person of its own with its sign-out; each game joined
//! with place, job, server, time and, where the log has it, the report's universe, user id and
//! referral. A second user's appStorage.json that is not JSON is noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn roblox_accounts_and_games_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/roblox/roblox.py",
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
        let o = &o[source];
        let all = run.all_phenomena(source);
        let acct = &o["account"];
        let p = titled(
            &all,
            &format!("Roblox account {}", acct["Username"].as_str().unwrap()),
        );
        assert_eq!(p.category, "accounts");
        for (k, v) in acct.as_object().unwrap() {
            assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}");
        }
        let owner = run.owner(source).to_lowercase();
        assert!(
            owner.contains(&format!(
                "account_id=roblox:{}",
                acct["UserId"].as_str().unwrap()
            )),
            "{owner}"
        );
        assert!(
            owner.contains(&acct["Username"].as_str().unwrap().to_lowercase()),
            "{owner}"
        );
        let joins: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Roblox game joined: "))
            .collect();
        let expected = o["joins"].as_array().unwrap();
        assert_eq!(joins.len(), expected.len(), "{joins:#?}");
        for j in expected {
            let p = titled(
                &all,
                &format!("Roblox game joined: place {}", j["place"].as_str().unwrap()),
            );
            for k in ["job", "server", "universe", "userid", "referral"] {
                if let Some(v) = j[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert_eq!(
                p.verified_facts[p.times[0].fact].value,
                j["time"].as_str().unwrap()
            );
            assert!(p.interpretation.contains("not the user's"));
        }
    }
    let all = run.all_phenomena("a");
    let created = titled(&all, "Roblox account lok_builds_2012");
    assert_eq!(
        created.verified_facts[created.times[0].fact].value,
        o["a"]["created"].to_string()
    );
    assert!(has_fact(created, "1") && has_fact(created, "2"));
    let session = o["a"]["session"].as_str().unwrap();
    assert!(
        all.iter()
            .filter(|p| p.title.starts_with("Roblox game joined"))
            .all(|p| has_fact(p, session))
    );
    let entities = run.entities("a");
    for r in o["a"]["previous"].as_array().unwrap() {
        let user = r["username"].as_str().unwrap();
        let p = titled(&all, &format!("Roblox account remembered: {user}"));
        assert_eq!(
            p.verified_facts[p.times[0].fact].value,
            r["signOutTimestamp"].to_string()
        );
        let id = r["userId"].to_string();
        assert!(
            entities
                .iter()
                .any(|e| e.starts_with(&format!("roblox:{id} [")) && e.contains(user)),
            "{entities:#?}"
        );
    }
    run.assert_noted(
        "b",
        &[(
            "user/10/com.roblox.client/files/appData/LocalStorage/appStorage.json",
            "",
        )],
    );
}
