//! CoreDuet's notification history (`ios::notifsuggestions`), ash shell histories
//! (`ios::ashhistory`), Battery Data Collection files (`ios::batterybdc`) and exported Apple
//! Intelligence Reports (`ios::aireport`) on three iPhones, written by
//! `tests/fixtures/iosapps18/iosapps18.py` (Python's sqlite3 and json; the tables, columns, file
//! names, header names and members iLEAPP's duetNotificationSuggestions, ashHistory, batteryBDC
//! and appleIntelligenceReport read). The generator's record is the oracle: every notification
//! and suggestion row with each of its values (the triggering notification's app looked up) and
//! its Cocoa times; every BDC sample with each column of its line and its time (a date-time
//! without zone on A and C, Unix seconds on B's older file of another column order); every model
//! and Private Cloud Compute request with its members as read_json prints them (a response that
//! is JSON text decoded, the pipeline parameters decoded, attestation bundles left out) and its
//! Unix time — each a phenomenon holding those facts and times and nothing more. iPhone A has the
//! current schema with every field and ash commands carrying passwords (withheld from every
//! phenomenon and from every output but read_text's); iPhone B an older notifications table, a
//! CRLF ash history and a report of 17 model requests (two pages of pointers); iPhone C a good
//! store beside a cut copy and a foreign one (noted) and another app's file of the same name
//! (neither read nor noted), an ash history with a zero-filled tail (noted, the commands before it
//! read), a cut BDC file (its unterminated last line noted, the rest read), a foreign one (noted)
//! and another app's file named like one (neither read nor noted), a cut report and a foreign JSON
//! of the report's name (noted).

use crate::android_support::{generate, has_fact, triage};

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// The texts of a JSON array of strings.
fn strings(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

/// Whether a note's artefact is one of these readers' files.
fn ours(artefact: &str) -> bool {
    artefact.ends_with("notificationAndSuggestionDB.db")
        || artefact.ends_with(".ash_history")
        || artefact.contains("/BDC_SBC_")
        || artefact.contains("/Apple_Intelligence_Report")
}

#[test]
fn iosapps18_duet_notifications_ash_battery_and_apple_intelligence() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps18/iosapps18.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|s| tmp.path().join(s)).collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/Zurich", Some("CH")),
        ("b", &dirs[1], "Europe/Berlin", Some("DE")),
        ("c", &dirs[2], "Europe/Vienna", Some("AT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    const PREFIXES: [&str; 3] = [
        "DuetExpertCenter notification ",
        "Battery BDC sample ",
        "Apple Intelligence ",
    ];
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let read: Vec<_> = all
            .iter()
            .filter(|p| PREFIXES.iter().any(|x| p.title.starts_with(x)))
            .collect();
        let want = o[source]["phenomena"].as_array().unwrap();
        assert_eq!(
            read.len(),
            want.len(),
            "{source}: {:#?}",
            read.iter().map(|p| &p.title).collect::<Vec<_>>()
        );
        for w in want {
            let title = w["title"].as_str().unwrap();
            let p = read.iter().find(|p| p.title == title).unwrap_or_else(|| {
                panic!(
                    "{source} {title}: {:#?}",
                    read.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            });
            assert_eq!(p.category, w["category"].as_str().unwrap(), "{title}");
            assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
            let rel = w["path"].as_str().unwrap();
            assert!(
                p.verified_facts.iter().any(|f| f.value.ends_with(rel)),
                "{rel}: {p:#?}"
            );
            let facts = strings(&w["facts"]);
            for v in &facts {
                assert!(has_fact(p, v), "{title}: {v}: {p:#?}");
            }
            let times = w["times"].as_object().unwrap();
            for (what, v) in times {
                assert_eq!(time_of(p, what), v.as_str(), "{title}: {what}: {p:#?}");
            }
            assert_eq!(p.times.len(), times.len(), "{p:#?}");
            // the path, the values and the times: nothing more
            assert_eq!(
                p.verified_facts.len(),
                1 + facts.len() + times.len(),
                "{p:#?}"
            );
            if title.starts_with("Apple Intelligence ") {
                assert!(
                    p.interpretation.contains("the export a user saved"),
                    "{}",
                    p.interpretation
                );
            }
            if title.starts_with("Battery BDC sample ") {
                assert!(
                    p.interpretation.contains("hundredths of a degree Celsius"),
                    "{}",
                    p.interpretation
                );
            }
        }
        // the attestation bundles are not copied
        for p in &read {
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.value.len() > 500 && !f.value.contains(' ')),
                "{p:#?}"
            );
        }

        // ash histories: every command in order, passwords withheld everywhere
        for h in o[source]["ash"].as_array().unwrap() {
            let (rel, total) = (h["rel"].as_str().unwrap(), h["total"].as_u64().unwrap());
            let p = all
                .iter()
                .find(|p| {
                    p.title.starts_with("Ash history ")
                        && p.title.ends_with(&format!("{rel}: {total} commands"))
                })
                .unwrap_or_else(|| {
                    panic!(
                        "{source} {rel}: {:#?}",
                        all.iter().map(|p| &p.title).collect::<Vec<_>>()
                    )
                });
            assert_eq!(p.category, "device");
            assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
            assert!(p.verified_facts.iter().any(|f| f.value.ends_with(rel)));
            let texts: Vec<&str> = p
                .verified_facts
                .iter()
                .filter(|f| f.fact_type == masf_graph::FactType::Text)
                .map(|f| f.value.as_str())
                .collect();
            assert_eq!(texts, strings(&h["commands"]), "{source} {rel}");
            assert!(p.times.is_empty(), "{p:#?}");
            assert!(p.interpretation.contains("ash writes no times"));
            let withheld = h["withheld"].as_u64().unwrap();
            if withheld > 0 {
                assert!(
                    p.interpretation
                        .contains(&format!("{withheld} of them withheld, not copied"))
                );
            }
            for secret in strings(&h["secrets"]) {
                for q in &all {
                    assert!(!q.title.contains(secret) && !q.interpretation.contains(secret));
                    assert!(
                        !q.verified_facts.iter().any(|f| f.value.contains(secret)),
                        "{q:#?}"
                    );
                }
                for (tool, args, text) in run.outputs(source) {
                    if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                        continue;
                    }
                    assert!(!text.contains(secret), "{secret} in {tool} {args}");
                }
            }
        }

        // the notes: exactly those expected of these readers' files
        let notes: Vec<_> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| ours(&u.artefact))
            .collect();
        let expected: Vec<(&str, &str)> = o[source]["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
            .collect();
        assert_eq!(notes.len(), expected.len(), "{source}: {notes:#?}");
        run.assert_noted(source, &expected);

        // other apps' files of the same names: neither read nor noted
        for rel in strings(&o[source]["not_read"]) {
            assert!(
                !all.iter()
                    .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with(rel))),
                "{rel}"
            );
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.ends_with(rel)),
                "{rel}"
            );
        }

        // these readers name apps and batteries, not people: no identity from their values
        let ids = run.identifiers(source);
        for w in want {
            for v in strings(&w["facts"]) {
                if v.contains('@') || v.contains(":ABPerson") {
                    assert!(!ids.iter().any(|(_, n)| n.contains(v)), "{v}: {ids:?}");
                }
            }
        }
    }
}
