//! The keyboard's sessions per app, autocorrection and completion rejections and vulgar words
//! (`ios::keyboard`): two iPhones' files written by `tests/fixtures/keyboard/keyboard.py` with
//! Python's plistlib and sqlite3 (no public copy is in the corpus) — iOS 17's
//! `AutocorrectionRejections.db` with both tables and the schema's own comments, an earlier
//! layout with fewer columns, `vword_usage` with and without `word_reading`. The generator's
//! oracle is the rows iLEAPP's `keyboardAppUsage`, `keyboardAutocorrectionRejections`,
//! `keyboardInlineCompletionRejections` and `keyboardVulgarWordUsage` report: every row is found
//! with its values, a time only where iLEAPP gives one (the -1e10 default and a 0 last use are no
//! time). A truncated database, a foreign one and a plist that is no dictionary are noted.

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::android_support::{generate, has_fact, triage};

/// Whether `p` holds `v`: as written, or (a number) the same number.
fn holds(p: &Phenomenon, v: &Value) -> bool {
    match v {
        Value::String(s) => has_fact(p, s),
        Value::Number(n) => {
            let x = n.as_f64().unwrap();
            p.verified_facts
                .iter()
                .any(|f| f.value.parse::<f64>().is_ok_and(|y| y == x))
        }
        _ => true,
    }
}

/// The time of `p` marked `mark`, as its fact holds it.
fn time_of<'a>(p: &'a Phenomenon, mark: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|t| t.description == mark)
        .map(|t| p.verified_facts[t.fact].value.as_str())
}

#[test]
fn keyboard_sessions_rejections_and_vulgar_words_on_two_devices() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/keyboard/keyboard.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(run.unparsed("a").is_empty(), "{:#?}", run.unparsed("a"));
    let mut seen = 0;
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let of = |prefix: &str| -> Vec<&Phenomenon> {
            all.iter()
                .filter(|p| p.title.starts_with(prefix) && !p.interpretation.contains("/copy/"))
                .collect()
        };
        // sessions per app
        let sessions = of("Keyboard used in ");
        let rows = o[source]["app_usage"].as_array().unwrap();
        assert_eq!(sessions.len(), rows.len(), "{sessions:#?}");
        for r in rows {
            let start = r["start"].as_str().unwrap();
            let p = sessions
                .iter()
                .find(|p| time_of(p, "Keyboard session started") == Some(start))
                .unwrap_or_else(|| panic!("{r}: {sessions:#?}"));
            assert_eq!(p.category, "keyboard");
            assert_eq!(
                p.title,
                format!("Keyboard used in {}", r["app"].as_str().unwrap())
            );
            assert!(holds(p, &r["appTime"]), "{r}: {p:#?}");
            for k in r["keyboardTimes"].as_array().unwrap() {
                assert!(holds(p, k), "{k}: {p:#?}");
            }
            seen += 1;
        }
        // autocorrection and inline completion rejections
        for (table, what) in [
            ("rejections", "autocorrection"),
            ("inline_completion_rejections", "inline completion"),
        ] {
            let found = of(&format!("Keyboard {what}: "));
            let rows = o[source]["rejections"][table]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert_eq!(found.len(), rows.len(), "{source} {table}: {found:#?}");
            for r in &rows {
                let p = found
                    .iter()
                    .find(|p| {
                        p.interpretation
                            .starts_with(&format!("{table} row {} of ", r["rowid"]))
                    })
                    .unwrap_or_else(|| panic!("{r}: {found:#?}"));
                for k in [
                    "typed",
                    "correction",
                    "hard",
                    "soft",
                    "performed",
                    "journaled",
                ] {
                    assert!(holds(p, &r[k]), "{k} of {r}: {p:#?}");
                }
                for (k, mark) in [
                    ("last_hard", "Last hard rejection"),
                    ("last_soft", "Last soft rejection"),
                ] {
                    match r[k].as_f64() {
                        Some(x) => assert_eq!(
                            time_of(p, mark).and_then(|v| v.parse::<f64>().ok()),
                            Some(x),
                            "{k}: {p:#?}"
                        ),
                        None => assert_eq!(time_of(p, mark), None, "{k}: {p:#?}"),
                    }
                }
                seen += 1;
            }
        }
        // vulgar words
        let words = of("Keyboard vulgar word used: ");
        let rows = o[source]["vulgar"].as_array().unwrap();
        assert_eq!(words.len(), rows.len(), "{words:#?}");
        for r in rows {
            let p = words
                .iter()
                .find(|p| {
                    p.title
                        == format!(
                            "Keyboard vulgar word used: {}",
                            r["vword"].as_str().unwrap()
                        )
                })
                .unwrap_or_else(|| panic!("{r}: {words:#?}"));
            for k in ["app", "recipient", "count", "journaled"] {
                assert!(holds(p, &r[k]), "{k} of {r}: {p:#?}");
            }
            match r["last_used"].as_f64() {
                Some(x) => assert_eq!(
                    time_of(p, "Vulgar word last used").and_then(|v| v.parse::<f64>().ok()),
                    Some(x)
                ),
                None => assert_eq!(time_of(p, "Vulgar word last used"), None, "{p:#?}"),
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 5 + 4 + 3);
    run.assert_noted(
        "b",
        &[
            ("copy/AutocorrectionRejections.db", "malformed"),
            ("copy/VulgarWordUsage.db", "has no vword_usage table"),
            ("copy/app_usage_database.plist", "not a dictionary of apps"),
        ],
    );
}
