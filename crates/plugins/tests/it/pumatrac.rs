//! PUMATRAC's store (`android::pumatrac`) on two Android phones and a third tree, written by
//! `tests/fixtures/pumatrac/pumatrac.py` (Python's sqlite3, the tables and columns ALEAPP's
//! PumaActivities and PumaUsers read). The generator's record is the oracle: every exercise with
//! its values and start and end; each route as one phenomenon — its point count and first and
//! last position, with their times where the table keeps them — never one per point (an indoor
//! exercise without positions has none); the user signed in (the only one with an e-mail, or the
//! only one) as the owner's, a followed athlete as a `pumatrac:` person; phone B's older layouts
//! read, its birth date before 1970 written as a day and made no time; a truncated copy and a
//! store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn pumatrac_exercises_routes_and_users_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/pumatrac/pumatrac.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Zurich", Some("CH")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let exercises = o["exercises"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("PUMATRAC exercise "))
            .count();
        assert_eq!(found, exercises.len(), "{source}");
        for e in exercises {
            let p = titled(
                &all,
                &format!("PUMATRAC exercise {}", e["id"].as_str().unwrap()),
            );
            assert_eq!(p.category, "health");
            for f in e["facts"].as_array().unwrap() {
                assert!(has_fact(p, f.as_str().unwrap()), "{f}: {p:#?}");
            }
            assert_eq!(
                time_values(p),
                vec![e["start"].to_string(), e["end"].to_string()]
            );
        }
        // one phenomenon per route, none per point
        let routes = o["routes"].as_object().unwrap();
        let located = all
            .iter()
            .filter(|p| p.category == "locations" && p.title.starts_with("PUMATRAC"))
            .count();
        assert_eq!(located, routes.len(), "{source}");
        for (id, r) in routes {
            let p = titled(&all, &format!("PUMATRAC route of exercise {id}"));
            assert!(has_fact(p, &r["points"].to_string()), "{p:#?}");
            for end in ["first", "last"] {
                for v in r[end].as_array().unwrap() {
                    assert!(has_fact(p, v.as_str().unwrap()), "{end} {v}: {p:#?}");
                }
            }
            let want: Vec<String> = r["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.to_string())
                .collect();
            assert_eq!(time_values(p), want, "{p:#?}");
        }
        // the user signed in is the owner, an athlete a person
        let me = &o["owner"];
        let p = titled(&all, me["title"].as_str().unwrap());
        assert_eq!(p.category, "accounts");
        assert!(has_fact(p, me["born"].as_str().unwrap()), "{p:#?}");
        for f in me["facts"].as_array().unwrap() {
            assert!(has_fact(p, f.as_str().unwrap()), "{f}: {p:#?}");
        }
        let want: Vec<String> = me["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.to_string())
            .collect();
        assert_eq!(time_values(p), want, "{p:#?}");
        let owner = run.owner(source);
        for id in [
            format!("email={}", me["email"].as_str().unwrap()),
            format!("account_id={}", me["id"].as_str().unwrap()),
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
            let p = titled(&all, person["title"].as_str().unwrap());
            assert!(
                !has_fact(p, "the only user with an e-mail address"),
                "{p:#?}"
            );
        }
        assert!(
            run.unparsed(source)
                .iter()
                .all(|u| !u.artefact.contains("com.pumapumatrac")),
            "{source}: {:#?}",
            run.unparsed(source)
        );
    }
    // phone B: the older layout says nothing of the columns it lacks
    let all = run.all_phenomena("b");
    let ex = titled(
        &all,
        "PUMATRAC exercise f3d2c1b0-0000-4000-8000-00000000000b",
    );
    assert!(!ex.interpretation.contains("run location type"), "{ex:#?}");
    // phone C: the damaged copy and the foreign store are noted, nothing is made of them
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("PUMATRAC"))
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
