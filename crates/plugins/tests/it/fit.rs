//! Google Fit (`android::fit`): two Android phones' `fitness.db.<account>` written by
//! `tests/fixtures/fit/fit.py` with the columns ALEAPP's googleFitGMS reads (phone A's in WAL
//! mode with its sessions only in the log, phone B's without `description`). The generator's
//! record is the oracle: every session with its times, app, activity (named where Google's
//! number is known, as stored else), name and description; the account the store is named
//! after is the phone user's; the log and shared-memory files are no stores; a store without
//! `Sessions` is noted.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn google_fit_sessions_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/fit/fit.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Fit session: "))
            .collect();
        let expected = o["sessions"].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{found:#?}");
        let account = o["account"].as_str().unwrap();
        for s in expected {
            let start = s["start_time"].to_string();
            let p = found
                .iter()
                .find(|p| has_fact(p, &start))
                .unwrap_or_else(|| panic!("{s}"));
            let word = match s["activity"].as_i64().unwrap() {
                7 => "walking".to_string(),
                8 => "running".to_string(),
                72 => "sleeping".to_string(),
                n => format!("activity {n}"),
            };
            assert_eq!(p.title, format!("Google Fit session: {word}"));
            assert_eq!(p.category, "health");
            for k in ["name", "description", "app_package"] {
                if let Some(v) = s[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert!(has_fact(p, account));
            let marks: Vec<&str> = p
                .times
                .iter()
                .map(|t| p.verified_facts[t.fact].value.as_str())
                .collect();
            assert_eq!(marks, [start, s["end_time"].to_string()]);
        }
        let ids = run.identifiers(source);
        assert!(
            ids.iter().any(|(_, v)| v.eq_ignore_ascii_case(account)),
            "{source}: {ids:?}"
        );
        // the log and the shared memory of phone A's store are no stores of their own
        assert!(
            !all.iter()
                .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with("-shm")))
        );
    }
    run.assert_noted("b", &[("fitness.db.old.account@gmail.com", "Sessions")]);
}
