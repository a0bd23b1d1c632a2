//! Location Services' per-client configuration (`ios::locservices`) on two iPhones, written by
//! `tests/fixtures/iosapps6/iosapps6.py` (Python's plistlib; the file and keys iLEAPP's
//! locServicesconfig reads). The generator's record is the oracle: every client (an app, the
//! Routine bundle, a daemon) with its bundle id or executable, its Authorization code as stored
//! and every time it keeps — Cocoa seconds, and on iPhone B's older XML list a plist date —,
//! a `LocationTimeStopped` of 0 said to be no time, a top-level member that is no dictionary
//! skipped. iPhone B's copy whose top level is an array and its cut copy are noted while the rest
//! is read.

use crate::android_support::{generate, has_fact, triage};

/// Whether a printed value is the oracle's (a number compared as one, a text as written).
fn same(printed: &str, v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => printed == s,
        _ => v
            .as_f64()
            .is_some_and(|x| printed.parse::<f64>().ok() == Some(x)),
    }
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

#[test]
fn location_services_clients_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps6/iosapps6.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Oslo", Some("NO")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let clients: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Location Services client "))
            .collect();
        for p in &clients {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        // one per client entry (the member that is no dictionary skipped); the array copy and
        // the cut copy of iPhone B give none
        let rows = o[source]["clients"].as_array().unwrap();
        assert_eq!(clients.len(), rows.len(), "{clients:#?}");
        for c in rows {
            let key = c["key"].as_str().unwrap();
            let p = clients
                .iter()
                .find(|p| p.title == format!("Location Services client {key}"))
                .unwrap_or_else(|| panic!("{key}: {clients:#?}"));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, key), "{p:#?}");
            for k in ["BundleId", "Executable"] {
                if let Some(v) = c[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            let code = c["Authorization"].to_string();
            assert!(has_fact(p, &code), "{p:#?}");
            assert!(
                p.interpretation
                    .contains(&format!("Authorization code {code}")),
                "{}",
                p.interpretation
            );
            let times = c["times"].as_object().unwrap();
            assert_eq!(p.times.len(), times.len(), "{p:#?}");
            for (k, v) in times {
                let t = time_of(p, &format!("Location Services {k}"))
                    .unwrap_or_else(|| panic!("{k}: {p:#?}"));
                assert!(same(t, v), "{k}: {t} vs {v}");
            }
            for k in c["no_time"].as_array().unwrap() {
                let k = k.as_str().unwrap();
                assert!(time_of(p, &format!("Location Services {k}")).is_none());
                assert!(
                    p.interpretation.contains(&format!("{k} 0")),
                    "{}",
                    p.interpretation
                );
                assert!(p.interpretation.contains("(no time)"));
            }
            let stopped = times.contains_key("LocationTimeStopped")
                || times.contains_key("ReceivingLocationInformationTimeStopped")
                || c["no_time"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| k == "LocationTimeStopped");
            assert_eq!(
                p.interpretation.contains("last stopped getting locations"),
                stopped,
                "{}",
                p.interpretation
            );
            assert!(p.interpretation.contains("it is not a position"));
        }
        // a client is an app: no identity from it
        let ids = run.identifiers(source);
        for c in rows {
            let key = c["key"].as_str().unwrap();
            assert!(!ids.iter().any(|(_, n)| n.contains(key)), "{ids:?}");
        }
    }
    // iPhone B: the copy that is no dictionary and the cut copy are noted; the live list is not
    let noted = o["b"]["noted"].as_array().unwrap();
    run.assert_noted(
        "b",
        &[
            (noted[0].as_str().unwrap(), "no dictionary"),
            (noted[1].as_str().unwrap(), ""),
        ],
    );
    for source in ["a", "b"] {
        assert!(
            !run.unparsed(source).iter().any(|u| u
                .artefact
                .ends_with("root/Library/Caches/locationd/clients.plist")),
            "{:#?}",
            run.unparsed(source)
        );
    }
}
