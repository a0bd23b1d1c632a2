//! Zynga's With Friends stores (`android::zynga`: Chess With Friends and Words With Friends,
//! `wf_database.sqlite`) on two Android phones and a third tree, written by
//! `tests/fixtures/zynga/zynga.py` (Python's sqlite3, the tables and columns ALEAPP's
//! ChessWithFriends and WordsWithFriends read, with an older Words release's columns and the
//! game tables). The generator's record is the oracle: every player with its ids, e-mail, phone
//! and Facebook values, observed as a `zynga:<Zynga account id>` (else `zyngawf:<user id>`)
//! person with both account ids; every chat message with its text, game or conversation, sender
//! and time as stored (date text on Chess and the older Words store, Unix ms on the newer);
//! every game with its creator, whose move it is, counts and times (created, the last move kept);
//! phone B's older store (fewer columns, no moves) read; the same Zynga account on both phones
//! one actor; no player said to be the device's user; a cut copy, a store with none of the tables
//! and a chat table without its text noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

#[test]
fn zynga_players_chat_and_games_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/zynga/zynga.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "Europe/Rome", Some("IT")),
        ("c", &c, "Europe/Rome", Some("IT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let entities = run.entities(source);
        let person = |context: &str| {
            entities
                .iter()
                .find(|e| e.starts_with(&format!("{context} [Person]")))
                .unwrap_or_else(|| panic!("{context}: {entities:#?}"))
                .clone()
        };
        for store in o[source]["stores"].as_array().unwrap() {
            // the players, each a person with its ids
            for u in store["users"].as_array().unwrap() {
                let p = titled(&all, s(&u["title"]));
                assert_eq!(p.category, "contacts");
                for v in u["values"].as_array().unwrap() {
                    assert!(has_fact(p, s(v)), "{v}: {p:#?}");
                }
                assert!(p.times.is_empty(), "{p:#?}");
                let e = person(s(&u["context"]));
                for id in u["account_ids"].as_array().unwrap() {
                    assert!(e.contains(&format!("account_id={}", s(id))), "{id}: {e}");
                }
                if let Some(email) = u["email"].as_str() {
                    assert!(e.contains(&format!("email={email}")), "{e}");
                }
                if let Some(phone) = u["phone"].as_str() {
                    assert!(e.contains(&format!("phone={phone}")), "{e}");
                }
            }
            // every chat message, its sender a person; no direction said
            let app = s(&store["app"]);
            let msgs: Vec<_> = all
                .iter()
                .filter(|p| p.title.starts_with(&format!("{app} message from ")))
                .collect();
            let expected = store["messages"].as_array().unwrap();
            assert_eq!(msgs.len(), expected.len(), "{msgs:#?}");
            for m in expected {
                let p = titled(&all, s(&m["title"]));
                assert_eq!(p.category, "messages");
                assert!(has_fact(p, s(&m["text"])), "{p:#?}");
                assert!(has_fact(p, s(&m["game"])), "{p:#?}");
                assert_eq!(time_values(p), vec![s(&m["time"]).to_string()]);
                assert!(
                    p.times
                        .iter()
                        .all(|t| t.description != "Message sent"
                            && t.description != "Message received"),
                    "{p:#?}"
                );
                person(s(&m["sender_context"]));
            }
            // every game with its players and times
            for g in store["games"].as_array().unwrap() {
                let p = titled(&all, s(&g["title"]));
                assert_eq!(p.category, "app_usage");
                for v in g["values"].as_array().unwrap() {
                    assert!(has_fact(p, s(v)), "{v}: {p:#?}");
                }
                let times: Vec<String> = g["times"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| s(t).to_string())
                    .collect();
                assert_eq!(time_values(p), times);
                assert!(has_fact(p, s(&g["creator"])), "{p:#?}");
                if let Some(mover) = g["to_move"].as_str() {
                    assert!(has_fact(p, mover), "{p:#?}");
                }
            }
        }
        // the store does not say which player is the device's user
        assert!(
            !run.owner(source).contains("zynga"),
            "{}",
            run.owner(source)
        );
    }
    // the moves kept name who made them (phone A's first Chess game)
    let all = run.all_phenomena("a");
    let game = titled(&all, "Chess With Friends game 3301");
    assert!(has_fact(game, "Dana Whitfield, Owen Park"), "{game:#?}");
    assert!(has_fact(game, "14") && has_fact(game, "2"), "{game:#?}");
    // the same Zynga account on both phones is one actor
    let shared = s(&o["shared_person"]);
    let with = crate::who::resolved(&run);
    assert!(
        with(&format!("a/{shared}")).contains(&format!("b/{shared}")),
        "{:#?}",
        with(&format!("a/{shared}"))
    );
    // a cut copy, a foreign store and a chat table without its text are noted
    let noted: Vec<(String, String)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (s(&n[0]).to_string(), s(&n[1]).to_string()))
        .collect();
    let pairs: Vec<(&str, &str)> = noted
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    run.assert_noted("c", &pairs);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.contains("With Friends")),
        "{:#?}",
        run.all_phenomena("c")
    );
}
