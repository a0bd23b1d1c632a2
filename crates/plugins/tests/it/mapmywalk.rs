//! MapMyWalk's stores (`android::mapmywalk`) on two Android phones and a third tree, written by
//! `tests/fixtures/mapmywalk/mapmywalk.py` (Python's sqlite3, the tables and columns ALEAPP's
//! MMWActivities and MMWUsers read). The generator's record is the oracle: every walk as one
//! phenomenon with its samples, distance, speeds, duration and first and last time; each route
//! as one phenomenon — its point count and first and last position and time — never one per
//! point; the account (the only user, or the only one with an e-mail) as the owner's, another
//! user as a `mapmywalk:` person; phone B's older layouts read; another app's `workout.db` left
//! alone; a truncated `workout.db` and an `mmdk_user` without `user_entity` noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn mapmywalk_walks_routes_and_account_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/mapmywalk/mapmywalk.py",
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
        ("b", &b, "Europe/London", Some("GB")),
        ("c", &c, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        // every MapMyWalk phenomenon is of MapMyWalk's files
        for p in all.iter().filter(|p| p.title.starts_with("MapMyWalk")) {
            assert!(
                p.verified_facts
                    .iter()
                    .any(|f| f.value.contains("/com.mapmywalk.android2/databases/")),
                "{p:#?}"
            );
        }
        // one phenomenon per walk
        let acts = o["activities"].as_object().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("MapMyWalk activity "))
            .count();
        assert_eq!(found, acts.len(), "{source}");
        for (id, w) in acts {
            let p = titled(&all, &format!("MapMyWalk activity {id}"));
            assert_eq!(p.category, "health");
            for k in ["samples", "duration"] {
                assert!(has_fact(p, &w[k].to_string()), "{k}: {p:#?}");
            }
            assert!(has_fact(p, w["distance"].as_str().unwrap()), "{p:#?}");
            match w.get("mean_speed") {
                Some(v) => {
                    assert!(has_fact(p, v.as_str().unwrap()), "{p:#?}");
                    assert!(has_fact(p, w["max_speed"].as_str().unwrap()), "{p:#?}");
                    assert!(has_fact(p, &w["offset_span"].to_string()), "{p:#?}");
                }
                // the older layout has no speed: nothing is said of it
                None => assert!(!p.interpretation.contains("mean speed "), "{p:#?}"),
            }
            assert_eq!(
                time_values(p),
                vec![w["start"].to_string(), w["end"].to_string()]
            );
        }
        // one phenomenon per route, none per point
        let routes = o["routes"].as_object().unwrap();
        let located = all
            .iter()
            .filter(|p| p.category == "locations" && p.title.starts_with("MapMyWalk"))
            .count();
        assert_eq!(located, routes.len(), "{source}");
        for (id, r) in routes {
            let p = titled(&all, &format!("MapMyWalk route of activity {id}"));
            assert!(has_fact(p, &r["points"].to_string()), "{p:#?}");
            for end in ["first", "last"] {
                for v in r[end].as_array().unwrap() {
                    assert!(has_fact(p, v.as_str().unwrap()), "{end} {v}: {p:#?}");
                }
            }
            let times = time_values(p);
            for k in ["first_time", "last_time"] {
                assert!(times.contains(&r[k].to_string()), "{k}: {p:#?}");
            }
        }
        // the account is the owner's
        let me = &o["owner"];
        let p = titled(&all, me["title"].as_str().unwrap());
        assert_eq!(p.category, "accounts");
        for f in me["facts"].as_array().unwrap() {
            assert!(has_fact(p, f.as_str().unwrap()), "{f}: {p:#?}");
        }
        let times = time_values(p);
        for t in me["times"].as_array().unwrap() {
            assert!(times.contains(&t.to_string()), "{t}: {p:#?}");
        }
        let owner = run.owner(source);
        for id in [
            format!("email={}", me["email"].as_str().unwrap()),
            format!("account_id={}", me["id"].as_str().unwrap()),
            format!("nickname={}", me["username"].as_str().unwrap()),
            format!(
                "display_name={}",
                me["name"].as_str().unwrap().to_lowercase()
            ),
        ] {
            assert!(owner.contains(&id), "{id}: {owner}");
        }
        let entities = run.entities(source);
        for person in o["persons"].as_array().unwrap() {
            let id = person["id"].as_str().unwrap();
            assert!(!owner.contains(id), "{id}: {owner}");
            assert!(
                entities.iter().any(|e| e.starts_with(&format!(
                    "{id} [Person] {}",
                    person["name"].as_str().unwrap()
                ))),
                "{id}: {entities:#?}"
            );
            titled(&all, person["title"].as_str().unwrap());
        }
        assert!(
            run.unparsed(source)
                .iter()
                .all(|u| !u.artefact.contains("mapmywalk")),
            "{source}: {:#?}",
            run.unparsed(source)
        );
    }
    // another app's workout.db is none of MapMyWalk's: not read, not noted
    assert!(!run.all_phenomena("a").iter().any(|p| {
        p.title.starts_with("MapMyWalk")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.gymlog"))
    }),);
    assert!(
        run.unparsed("a")
            .iter()
            .all(|u| !u.artefact.contains("com.example.gymlog")),
        "{:#?}",
        run.unparsed("a")
    );
    // phone C: the damaged copy and the foreign store are noted, nothing is made of them
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("MapMyWalk"))
    );
    let noted: Vec<(String, String)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n[0].as_str().unwrap().to_string(),
                n[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(&str, &str)> = noted
        .iter()
        .map(|(a, w)| (a.as_str(), w.as_str()))
        .collect();
    run.assert_noted("c", &expected);
}
