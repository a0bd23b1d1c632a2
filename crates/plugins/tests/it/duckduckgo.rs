//! DuckDuckGo's browser on two iPhones (`ios::duckduckgo`) and two Android phones
//! (`android::duckduckgo`), written by `tests/fixtures/duckduckgo/duckduckgo.py` (Python's
//! sqlite3, the tables and columns iLEAPP's duckduckgo_history and duckduckgo_page_visits and
//! ALEAPP's duckduckgo_history and duckduckgo_opentabs read; older stores on the second device of
//! each platform). The generator's record is the oracle: every history entry with its counts and
//! last visit, every visit with its page and tab, every Android visit with its search query and
//! local time, every open tab with the selected one said; another app's `History.sqlite` passed
//! over.

use masf_graph::TimeEncoding;

use crate::android_support::{generate, has_fact, triage};

/// Whether a printed number is the oracle's (a Core Data TIMESTAMP column keeps a whole number
/// of seconds as an integer).
fn same(printed: &str, v: &serde_json::Value) -> bool {
    printed.parse::<f64>().ok() == v.as_f64()
}

#[test]
fn duckduckgo_on_two_iphones_and_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/duckduckgo/duckduckgo.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c", "d"]
        .iter()
        .map(|s| tmp.path().join(s))
        .collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/London", Some("GB")),
        ("b", &dirs[1], "Europe/London", Some("GB")),
        ("c", &dirs[2], "Europe/London", Some("GB")),
        ("d", &dirs[3], "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let entries: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("DuckDuckGo history: "))
            .collect();
        let expected = o["entries"].as_array().unwrap();
        assert_eq!(entries.len(), expected.len(), "{source}: {entries:#?}");
        for e in expected {
            let url = e["ZURL"].as_str().unwrap();
            let p = entries
                .iter()
                .find(|p| p.title == format!("DuckDuckGo history: {url}"))
                .unwrap();
            assert_eq!(p.category, "web");
            for k in ["ZTITLE", "ZBLOCKEDTRACKINGENTITIES"] {
                if let Some(v) = e[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            for k in [
                "ZNUMBEROFTOTALVISITS",
                "ZNUMBEROFTRACKERSBLOCKED",
                "ZTRACKERSFOUND",
            ] {
                assert!(has_fact(p, &e[k].to_string()), "{k}: {p:#?}");
            }
            assert_eq!(p.times[0].encoding, TimeEncoding::AppleSeconds);
            assert!(same(
                &p.verified_facts[p.times[0].fact].value,
                &e["ZLASTVISIT"]
            ));
            assert!(p.interpretation.contains(&format!(
                "failed to load: {}",
                if e["ZFAILEDTOLOAD"] == 1 { "yes" } else { "no" }
            )));
        }
        let visits: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("DuckDuckGo page visit: "))
            .collect();
        let expected = o["visits"].as_array().unwrap();
        assert_eq!(visits.len(), expected.len(), "{source}: {visits:#?}");
        for v in expected {
            let p = visits
                .iter()
                .find(|p| same(&p.verified_facts[p.times[0].fact].value, &v["date"]))
                .unwrap_or_else(|| panic!("{}", v["date"]));
            assert!(has_fact(p, v["url"].as_str().unwrap()));
            match v["tab"].as_str() {
                Some(t) => assert!(has_fact(p, t), "{p:#?}"),
                None => assert!(!p.interpretation.contains("in tab")),
            }
        }
    }
    // another app's History.sqlite is not DuckDuckGo's
    assert!(
        run.unparsed("b")
            .iter()
            .all(|u| !u.artefact.contains("99999999"))
    );
    for source in ["c", "d"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let visits: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("DuckDuckGo search: ")
                    || p.title.starts_with("DuckDuckGo visit: ")
            })
            .collect();
        let expected = o["visits"].as_array().unwrap();
        assert_eq!(visits.len(), expected.len(), "{source}: {visits:#?}");
        for v in expected {
            let at = v["timestamp"].as_str().unwrap();
            let p = visits
                .iter()
                .find(|p| p.verified_facts[p.times[0].fact].value == at)
                .unwrap_or_else(|| panic!("{at}"));
            assert_eq!(p.times[0].encoding, TimeEncoding::LocalText);
            assert!(has_fact(p, v["url"].as_str().unwrap()));
            if v["isSerp"] == 1 {
                let q = v["query"].as_str().unwrap();
                assert_eq!(p.title, format!("DuckDuckGo search: {q}"));
                assert!(has_fact(p, q));
            }
        }
        let tabs: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("DuckDuckGo open tab: "))
            .collect();
        let expected = o["tabs"].as_array().unwrap();
        assert_eq!(tabs.len(), expected.len(), "{source}: {tabs:#?}");
        for t in expected {
            let id = t["tabId"].as_str().unwrap();
            let p = tabs.iter().find(|p| has_fact(p, id)).unwrap();
            assert!(has_fact(p, t["url"].as_str().unwrap()));
            match t.get("lastAccessTime").and_then(|v| v.as_str()) {
                Some(at) => assert_eq!(p.verified_facts[p.times[0].fact].value, at),
                None => assert!(p.times.is_empty()),
            }
            let selected = o["selected"].as_str() == Some(id);
            if o["selected"].is_string() {
                assert!(p.interpretation.contains(&format!(
                    "selected tab: {}",
                    if selected { "yes" } else { "no" }
                )));
            }
        }
    }
}
