//! Knuddels' chat stores (`android::knuddels`) on two Android phones, written by
//! `tests/fixtures/knuddels/knuddels.py` (Python's sqlite3, the tables and columns ALEAPP's
//! knuddels reads; the account's nickname URL-encoded in the file's name). The generator's
//! record is the oracle: every user with their nickname, user id and last activity, the user the
//! store is named after observed as the owner (`Moritz K` from `knuddelsMoritz+K`), the others as
//! `knuddels:<uid>` persons; every message with its text, time and direction by that nickname; a
//! snap said by its marker; phone B's older layout (no uid, no conversations) read; a copy cut to
//! a third and a `knuddels…` file of another app's layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn knuddels_users_and_messages_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/knuddels/knuddels.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Vienna", Some("AT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let me = o["owner"].as_str().unwrap();
        let entities = run.entities(source);
        for u in o["users"].as_array().unwrap() {
            let nick = u["nickname"].as_str().unwrap();
            let p = titled(&all, &format!("Knuddels user {nick}"));
            assert_eq!(p.category, "contacts");
            assert!(has_fact(p, nick), "{p:#?}");
            if let Some(uid) = u["uid"].as_str() {
                assert!(has_fact(p, uid), "{p:#?}");
                assert_eq!(
                    time_values(p),
                    vec![u["lastactivetime"].as_i64().unwrap().to_string()]
                );
                if nick != me {
                    assert!(
                        entities
                            .iter()
                            .any(|e| e.starts_with(&format!("knuddels:{uid} ["))
                                && e.contains(&format!("nickname={}", nick.to_lowercase()))),
                        "{entities:#?}"
                    );
                }
            } else if nick != me {
                assert!(
                    entities
                        .iter()
                        .any(|e| e.starts_with(&format!("knuddels-nick:{nick} ["))),
                    "{entities:#?}"
                );
            }
        }
        let owner = run.owner(source);
        assert!(
            owner.contains(&format!("nickname={}", me.to_lowercase())),
            "{owner}"
        );
        let msgs: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Knuddels message "))
            .collect();
        let expected = o["messages"].as_array().unwrap();
        assert_eq!(msgs.len(), expected.len(), "{msgs:#?}");
        for m in expected {
            let text = m["message"].as_str().unwrap();
            let title = m["title"].as_str().unwrap();
            let p = msgs
                .iter()
                .find(|p| p.title == title && has_fact(p, text))
                .unwrap_or_else(|| panic!("{title}: {text}"));
            assert_eq!(p.category, "messages");
            let what = if m["sent"].as_bool().unwrap() {
                "Message sent"
            } else {
                "Message received"
            };
            assert!(
                p.times.iter().any(|t| t.description == what
                    && p.verified_facts[t.fact].value == m["timestamp"].as_str().unwrap()),
                "{what}: {p:#?}"
            );
        }
    }
    // phone A: the user id of the nickname the store is named after is the owner's
    let uid = o["a"]["owner_uid"].as_str().unwrap();
    assert!(
        run.owner("a")
            .contains(&format!("account_id=knuddels:{uid}")),
        "{}",
        run.owner("a")
    );
    let snap = run
        .all_phenomena("a")
        .into_iter()
        .find(|p| p.interpretation.contains("a snap"))
        .expect("the snap");
    assert!(
        snap.title
            .starts_with("Knuddels message from Sonnenblume77")
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.knuddels.android/databases/knuddelsAnna_92",
                "malformed",
            ),
            (
                "user/11/com.knuddels.android/databases/knuddelsAnna_92",
                "neither thread nor users",
            ),
        ],
    );
}
