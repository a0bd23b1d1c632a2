//! Chess.com (`android::chesscom`) on two Android phones, written by
//! `tests/fixtures/chesscom/chesscom.py` (Python's sqlite3, the files, tables and columns
//! ALEAPP's ChessComAccount, ChessComFriends, ChessComGames and ChessComMessages read). The
//! generator's record is the oracle: the session's account with its e-mail and member-since
//! time, its user name (`chesscom:<user name>`) and e-mail observed as the owner's; the saved
//! sign-in said, its password never copied; every friend a `chesscom:<user name>` person with
//! their name; every daily game with its players and moves' times, the opponent a person and a
//! game of two others naming none; every message with its direction by the session's user
//! name; each phone's user the other's friend, so the two resolve; phone B's older layout read;
//! a copy cut to a third and a store whose `messages` lacks its columns noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// `v` as the output writes it (a number or a string of the oracle).
fn text(v: &serde_json::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

#[test]
fn chesscom_account_friends_games_and_messages_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/chesscom/chesscom.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "America/Chicago", Some("US")),
        ("b", &b, "Africa/Lagos", Some("NG")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let me = o["me"].as_str().unwrap();
        let acct = &o["account"];
        let email = acct["pref_email"].as_str().unwrap();
        let p = titled(&all, &format!("Chess.com account {me}"));
        assert_eq!(p.category, "accounts");
        assert!(has_fact(p, me) && has_fact(p, email), "{p:#?}");
        assert_eq!(time_values(p), vec![text(&acct["pref_member_since"])]);
        let login = o["login"].as_str().unwrap();
        let p = titled(&all, &format!("Chess.com saved sign-in {login}"));
        assert!(has_fact(p, login), "{p:#?}");
        assert!(p.interpretation.contains("a password is stored"), "{p:#?}");
        let owner = run.owner(source);
        for id in [
            format!("account_id=chesscom:{me}"),
            format!("email={email}"),
            format!("nickname={me}"),
        ] {
            assert!(owner.contains(&id), "{id}: {owner}");
        }
        let entities = run.entities(source);
        let person = |user: &str| {
            entities
                .iter()
                .find(|e| e.starts_with(&format!("chesscom:{user} [")))
                .unwrap_or_else(|| panic!("{user}: {entities:#?}"))
        };
        for f in o["friends"].as_array().unwrap() {
            let user = f["username"].as_str().unwrap();
            let p = titled(&all, &format!("Chess.com friend {user}"));
            assert_eq!(p.category, "contacts");
            assert!(has_fact(p, user), "{p:#?}");
            assert_eq!(time_values(p), vec![text(&f["last_login_date"])]);
            let e = person(user);
            assert!(e.contains(&format!("account_id=chesscom:{user}")), "{e}");
            if let (Some(first), Some(last)) = (f["first_name"].as_str(), f["last_name"].as_str()) {
                assert!(has_fact(p, first) && has_fact(p, last), "{p:#?}");
                let name = format!("{first} {last}").to_lowercase();
                assert!(e.contains(&format!("display_name={name}")), "{e}");
            }
        }
        for g in o["games"].as_array().unwrap() {
            let p = titled(&all, g["title"].as_str().unwrap());
            assert_eq!(p.category, "app_usage");
            assert!(has_fact(p, &text(&g["game_id"])), "{p:#?}");
            let mut times: Vec<String> = ["game_start_time", "timestamp"]
                .into_iter()
                .filter(|k| !g[*k].is_null())
                .map(|k| text(&g[k]))
                .collect();
            times.sort();
            assert_eq!(time_values(p), times);
            if let Some(result) = g["result_message"].as_str() {
                assert!(has_fact(p, result), "{p:#?}");
            }
            if let Some(opponent) = g["opponent"].as_str() {
                person(opponent);
                assert!(p.interpretation.contains("played it"), "{p:#?}");
            } else {
                assert!(p.interpretation.contains("is neither side"), "{p:#?}");
            }
        }
        let msgs: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Chess.com message "))
            .collect();
        let expected = o["messages"].as_array().unwrap();
        assert_eq!(msgs.len(), expected.len(), "{msgs:#?}");
        for m in expected {
            let p = titled(&all, m["title"].as_str().unwrap());
            assert_eq!(p.category, "messages");
            assert!(has_fact(p, m["content"].as_str().unwrap()), "{p:#?}");
            let what = if m["sent"].as_bool().unwrap() {
                "Message sent"
            } else {
                "Message received"
            };
            assert!(
                p.times.iter().any(|t| t.description == what
                    && p.verified_facts[t.fact].value == text(&m["created_at"])),
                "{what}: {p:#?}"
            );
            if !m["sent"].as_bool().unwrap() {
                person(m["sender_username"].as_str().unwrap());
            }
        }
        // the saved password is never copied
        for p in &all {
            assert!(
                !p.interpretation.contains("INVENTED")
                    && !p
                        .verified_facts
                        .iter()
                        .any(|f| f.value.contains("INVENTED")),
                "{p:#?}"
            );
        }
    }
    // a game of two other players names no one
    assert!(
        !run.entities("a")
            .iter()
            .any(|e| e.starts_with("chesscom:magnus_fan ") || e.starts_with("chesscom:rookie_ray ")),
        "{:#?}",
        run.entities("a")
    );
    // each phone's user is the other's friend
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("a/owner", "b/chesscom:knightrider88"),
        ("b/owner", "a/chesscom:queen_of_lagos"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    run.assert_noted(
        "b",
        &[
            ("user/10/com.chess/databases/chess-database", "malformed"),
            (
                "user/11/com.chess/databases/chess-database",
                "messages lacks sender_username, content",
            ),
        ],
    );
}
