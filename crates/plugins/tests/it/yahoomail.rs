//! Yahoo Mail's Flux store (`android::yahoomail`) on two Android phones, written by
//! `tests/fixtures/yahoomail/yahoomail.py` (Python's sqlite3 and json, the tables and JSON
//! members ALEAPP's yahooMail reads). The generator's record is the oracle: each account
//! observed as the owner's e-mail; each e-mail with its sender, recipients, subject, snippet,
//! folder, dates and, where cached, body; sent or received by the accounts; correspondents as
//! `handle:` persons; a flags record that is not JSON costs its fields only; an older store
//! without body and thread tables is read; a store without MessagesData is noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn yahoo_mail_accounts_and_messages_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/yahoomail/yahoomail.py",
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
        let me = o["account"]["email"].as_str().unwrap();
        let acct = titled(&all, &format!("Yahoo Mail account {me}"));
        assert!(has_fact(
            acct,
            o["account"]["accountName"].as_str().unwrap()
        ));
        assert!(
            run.owner(source).contains(&format!("email={me}")),
            "{}",
            run.owner(source)
        );
        for m in o["messages"].as_array().unwrap() {
            let from = m["fromList"][0]["email"].as_str().unwrap();
            let title = if from == me {
                format!("Yahoo Mail e-mail sent: {}", m["subject"].as_str().unwrap())
            } else {
                format!(
                    "Yahoo Mail e-mail from {from}: {}",
                    m["subject"].as_str().unwrap()
                )
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "messages");
            for k in ["snippet", "folder", "id"] {
                assert!(has_fact(p, m[k].as_str().unwrap()), "{k}: {p:#?}");
            }
            for list in ["fromList", "toList", "ccList"] {
                for addr in m[list].as_array().unwrap() {
                    let e = addr["email"].as_str().unwrap();
                    assert!(
                        p.verified_facts.iter().any(|f| f.value.contains(e)),
                        "{e}: {p:#?}"
                    );
                }
            }
            if let Some(body) = m["body"].as_str() {
                assert!(has_fact(p, body), "{p:#?}");
            }
            if let Some(c) = m["conversation"].as_str() {
                assert!(has_fact(p, c));
            }
            // a flags record that is not JSON: no read flag, the rest read
            if m.get("flags_raw").is_some() {
                assert!(
                    !p.interpretation.contains("read true"),
                    "{}",
                    p.interpretation
                );
            } else {
                assert!(has_fact(p, if m["isRead"] == true { "1" } else { "0" }));
            }
            let mut want = vec![m["date"].to_string(), m["synced"].to_string()];
            want.sort();
            assert_eq!(time_values(p), want);
        }
        // the correspondents, persons of their own
        let entities = run.entities(source);
        for m in o["messages"].as_array().unwrap() {
            for addr in m["fromList"]
                .as_array()
                .unwrap()
                .iter()
                .chain(m["toList"].as_array().unwrap())
            {
                let e = addr["email"].as_str().unwrap();
                if e == me {
                    continue;
                }
                assert!(
                    entities.iter().any(|x| x.contains(&format!("email={e}"))),
                    "{e}: {entities:#?}"
                );
            }
        }
    }
    run.assert_noted(
        "b",
        &[(
            "user/10/com.yahoo.mobile.client.android.mail/databases/flux_database.db",
            "MessagesData",
        )],
    );
}
