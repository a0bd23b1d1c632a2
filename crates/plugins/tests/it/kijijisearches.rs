//! Kijiji's recent searches (`android::kijijisearches`) on two Android phones and a third tree,
//! written by `tests/fixtures/kijijisearches/kijijisearches.py` (Python's sqlite3, the table and
//! columns ALEAPP's kijijiRecentSearches reads). The generator's record is the oracle: every
//! search with its keyword, thumbnail, area, distance, ad and price types, price limits (the
//! app's -1 read as none) and time; phone B's older layout read with what it has; a truncated
//! store and a store of another layout noted; another app's `searches.db` neither read nor
//! noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn kijiji_recent_searches_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/kijijisearches/kijijisearches.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/Toronto", Some("CA")),
        ("b", &b, "America/Toronto", Some("CA")),
        ("c", &c, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let searches = o[source]["searches"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Kijiji search "))
            .count();
        assert_eq!(found, searches.len(), "{source}");
        for q in searches {
            let p = titled(&all, &format!("Kijiji search {}", s(q, "keyword").unwrap()));
            assert_eq!(p.category, "web");
            for (k, v) in q.as_object().unwrap() {
                if k == "time" {
                    continue;
                }
                if let Some(v) = v.as_str() {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            // the app's "no limit" is no value
            assert!(!has_fact(p, "-1"), "{p:#?}");
            assert_eq!(
                time_values(p),
                vec![s(q, "time").unwrap().to_string()],
                "{p:#?}"
            );
        }
    }
    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "Kijiji searches.db")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }
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
    let pairs: Vec<(&str, &str)> = noted
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    run.assert_noted("c", &pairs);
    let all_c = run.all_phenomena("c");
    assert!(
        !all_c.iter().any(|p| p.title.starts_with("Kijiji ")),
        "{:#?}",
        run.phenomena("c")
    );
    // another app's searches.db: neither read nor noted
    let foreign = o["c"]["foreign"].as_str().unwrap();
    assert!(
        !all_c
            .iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with(foreign))),
        "{:#?}",
        run.phenomena("c")
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.ends_with(foreign)),
        "{:#?}",
        run.unparsed("c")
    );
    assert!(
        !run.outputs("c")
            .iter()
            .any(|(tool, args, _)| tool == "sqlite_query" && args.contains(foreign)),
    );
}
