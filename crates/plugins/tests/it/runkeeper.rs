//! Runkeeper's store and preferences (`android::runkeeper`) on two Android phones and a third
//! tree, written by `tests/fixtures/runkeeper/runkeeper.py` (Python's sqlite3 and the XML an
//! Android SharedPreferences file holds; the tables, columns and keys ALEAPP's
//! RunkeeperActivities and RunkeeperUser read). The generator's record is the oracle: every trip
//! with its values, start and sync time; each route as one phenomenon — its point count and
//! first and last position and time — never one per point, a route whose trip is gone kept; the
//! account of the preferences with its times, its `runkeeper:` and `asics:` ids and name the
//! owner's; phone B's older trips layout read, its birthday before 1970 kept as stored and made
//! no time, its `fitbitAuth` text never a fact; a truncated store and preferences cut mid-element
//! noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn runkeeper_trips_routes_and_account_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/runkeeper/runkeeper.py",
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
        ("b", &b, "America/Los_Angeles", Some("US")),
        ("c", &c, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let trips = o["trips"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Runkeeper activity "))
            .count();
        assert_eq!(found, trips.len(), "{source}");
        for t in trips {
            let p = titled(&all, &format!("Runkeeper activity {}", t["id"]));
            assert_eq!(p.category, "health");
            for f in t["facts"].as_array().unwrap() {
                assert!(has_fact(p, f.as_str().unwrap()), "{f}: {p:#?}");
            }
            let mut want = vec![t["start"].to_string()];
            if !t["sync"].is_null() {
                want.push(t["sync"].to_string());
            }
            want.sort();
            assert_eq!(time_values(p), want, "{p:#?}");
        }
        // one phenomenon per route, none per point
        let routes = o["routes"].as_object().unwrap();
        let located = all
            .iter()
            .filter(|p| p.category == "locations" && p.title.starts_with("Runkeeper"))
            .count();
        assert_eq!(located, routes.len(), "{source}");
        for (id, r) in routes {
            let p = titled(&all, &format!("Runkeeper route of activity {id}"));
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
        // the account of the preferences is the owner's
        let acc = &o["account"];
        let p = titled(&all, acc["title"].as_str().unwrap());
        assert_eq!(p.category, "accounts");
        for f in acc["facts"].as_array().unwrap() {
            assert!(has_fact(p, f.as_str().unwrap()), "{f}: {p:#?}");
        }
        let want: Vec<String> = acc["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        assert_eq!(time_values(p), want, "{p:#?}");
        let owner = run.owner(source);
        for id in o["owner"].as_array().unwrap() {
            assert!(owner.contains(id.as_str().unwrap()), "{id}: {owner}");
        }
        // an authorisation that is not a flag is said, never copied
        for never in o["never"].as_array().unwrap() {
            let never = never.as_str().unwrap();
            for p in &all {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(never))
                        && !p.interpretation.contains(never)
                        && !p.title.contains(never),
                    "{never}: {p:#?}"
                );
            }
            assert!(
                p.interpretation
                    .contains("fitbitAuth holds a value that is not a flag")
            );
        }
        assert!(
            run.unparsed(source)
                .iter()
                .all(|u| !u.artefact.contains("com.fitnesskeeper.runkeeper.pro")),
            "{source}: {:#?}",
            run.unparsed(source)
        );
    }
    // phone C: the truncated store and the cut preferences are noted, nothing is made of them
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Runkeeper"))
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
