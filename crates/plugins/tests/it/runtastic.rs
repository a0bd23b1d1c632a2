//! Adidas Running's (Runtastic's) stores (`android::runtastic`) on two Android phones, written by
//! `tests/fixtures/runtastic/runtastic.py` (Python's sqlite3, the tables and columns ALEAPP's
//! AdidasActivities, AdidasUser and AdidasGoals read). The generator's record is the oracle:
//! every session with its values and times (the app's no-value sentinels read as nothing); each
//! route as one phenomenon — its point count and first and last position decoded from the encoded
//! trace in the query — never one per point; the account (its e-mail, name and `runtastic:` id the
//! owner's, the sessions' one user id too); the goals; an older session table on phone B read; a
//! truncated `db` and a `db` of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn adidas_running_sessions_routes_account_and_goals_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/runtastic/runtastic.py",
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
        let sessions = o["sessions"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Adidas Running session "))
            .count();
        assert_eq!(found, sessions.len());
        for s in sessions {
            let id = s["sampleId"].as_str().unwrap();
            let p = titled(&all, &format!("Adidas Running session {id}"));
            assert_eq!(p.category, "health");
            let times = time_values(p);
            assert!(times.contains(&s["startTime"].to_string()), "{p:#?}");
            assert!(times.contains(&s["endTime"].to_string()), "{p:#?}");
            for k in ["distance", "calories", "maxSpeed", "avgPulse", "note"] {
                match &s[k] {
                    serde_json::Value::String(v) => assert!(has_fact(p, v), "{k}: {p:#?}"),
                    serde_json::Value::Number(n) => {
                        assert!(has_fact(p, &n.to_string()), "{k}: {p:#?}")
                    }
                    _ => {}
                }
            }
        }
        let routes = o["routes"].as_object().unwrap();
        let located = all
            .iter()
            .filter(|p| p.category == "locations" && p.title.starts_with("Adidas Running"))
            .count();
        assert_eq!(located, routes.len());
        for (id, r) in routes {
            let p = titled(&all, &format!("Adidas Running route of session {id}"));
            assert!(has_fact(p, &r["points"].to_string()), "{p:#?}");
            for end in ["first", "last"] {
                for v in r[end].as_array().unwrap() {
                    assert!(has_fact(p, v.as_str().unwrap()), "{end} {v}: {p:#?}");
                }
            }
        }
        // the account is the owner's, and so is the sessions' one user id
        let acc = &o["account"];
        let email = acc["EMail"].as_str().unwrap();
        let p = titled(&all, &format!("Adidas Running account {email}"));
        assert_eq!(p.category, "accounts");
        assert!(time_values(p).contains(&acc["createdAt"].as_str().unwrap().to_string()));
        let owner = run.owner(source);
        assert!(owner.contains(&format!("email={email}")), "{owner}");
        assert!(owner.contains(o["owner"].as_str().unwrap()), "{owner}");
        let name = format!(
            "{} {}",
            acc["FirstName"].as_str().unwrap(),
            acc["LastName"].as_str().unwrap()
        );
        assert!(owner.contains(&name.to_lowercase()), "{owner}");
        for g in o["goals"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Adidas Running goal {}", g["metric"].as_str().unwrap()),
            );
            assert!(has_fact(p, g["remoteId"].as_str().unwrap()), "{p:#?}");
            assert!(
                time_values(p).contains(&g["createdAt"].to_string()),
                "{p:#?}"
            );
        }
    }
    // phone A: the indoor session's sentinels are not facts, its values are
    let all = run.all_phenomena("a");
    let indoor = titled(&all, "Adidas Running session d5c1a6e0-0002");
    for sentinel in ["-300.0", "-32768", "32767", "-1"] {
        assert!(!has_fact(indoor, sentinel), "{sentinel}: {indoor:#?}");
    }
    assert!(has_fact(indoor, "350"));
    run.assert_noted(
        "b",
        &[
            ("user/10/com.runtastic.android/databases/db", "malformed"),
            ("user/11/com.runtastic.android/databases/db", "session"),
        ],
    );
}
