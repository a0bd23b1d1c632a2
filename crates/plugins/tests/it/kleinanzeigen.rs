//! Kleinanzeigen (`android::kleinanzeigen`) on two Android phones, written by
//! `tests/fixtures/kleinanzeigen/kleinanzeigen.py` (Python's sqlite3 and json, the files, tables
//! and JSON members ALEAPP's kleinanzeigen.de reads). The generator's record is the oracle: the
//! account with its e-mail, phone and name observed as the owner's; every message with its text,
//! direction, time, counterparty and ad; counterparties as `kleinanzeigen:<id>` persons; a
//! conversation whose messages are not JSON passed over; preferences that are not XML noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn kleinanzeigen_account_and_messages_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/kleinanzeigen/kleinanzeigen.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    let acct = &o["a"]["account"];
    let email = acct["AUTH_USER_EMAIL"].as_str().unwrap();
    let p = titled(&all, &format!("Kleinanzeigen account {email}"));
    for (k, v) in acct.as_object().unwrap() {
        if k == "USERPROFILE_USER_SINCE_DATE_KEY" {
            assert_eq!(p.verified_facts[p.times[0].fact].value, v.as_str().unwrap());
        } else {
            assert!(has_fact(p, v.as_str().unwrap()), "{k}: {p:#?}");
        }
    }
    let owner = run.owner("a");
    assert!(owner.contains(&format!("email={email}")), "{owner}");
    assert!(owner.contains("4915112345678"), "{owner}");
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let msgs: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Kleinanzeigen message "))
            .collect();
        let convs = o[source]["conversations"].as_array().unwrap();
        let expected: usize = convs
            .iter()
            .map(|c| c["messages"].as_array().unwrap().len())
            .sum();
        assert_eq!(msgs.len(), expected, "{msgs:#?}");
        let entities = run.entities(source);
        for c in convs {
            let who = c["counterParty"]["name"].as_str().unwrap();
            let ad = c["ad"]["displayTitle"].as_str().unwrap();
            for m in c["messages"].as_array().unwrap() {
                let dir = if m["sender"] == "ME" { "to" } else { "from" };
                let text = m["text"].as_str().unwrap();
                let p = msgs
                    .iter()
                    .find(|p| {
                        p.title == format!("Kleinanzeigen message {dir} {who} about {ad}")
                            && has_fact(p, text)
                    })
                    .unwrap_or_else(|| panic!("{text}"));
                assert!(has_fact(p, c["ad"]["identifier"].as_str().unwrap()));
                assert_eq!(
                    p.verified_facts[p.times[0].fact].value,
                    m["sortByDate"].as_str().unwrap()
                );
            }
            let id = c["counterParty"]["identifier"].as_str().unwrap();
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("kleinanzeigen:{id} ["))),
                "{entities:#?}"
            );
        }
    }
    run.assert_noted("b", &[("com.ebay.kleinanzeigen_preferences.xml", "")]);
}
