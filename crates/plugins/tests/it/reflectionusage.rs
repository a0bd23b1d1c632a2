//! Android System Intelligence's app events (`android::reflectionusage`) on two Android phones
//! and a third tree, written by `tests/fixtures/reflectionusage/reflectionusage.py` (Python's
//! sqlite3 and a hand-encoded Protocol Buffers message: the `reflection_event` table and fields
//! ALEAPP's usageapps reads). The generator's record is the oracle: every event with its id,
//! time (Unix ms), `generated_from`, the app of the message's field 1, its fields 2, 5›1, 5›6 and
//! 8 as decoded, and the app since removed said; phone B's older table read with what it has and
//! an event whose message does not decode kept with its id, time and cell; a truncated store and
//! a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn android_system_intelligence_app_events_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/reflectionusage/reflectionusage.py",
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
        ("b", &b, "America/New_York", Some("US")),
        ("c", &c, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let events = o[source]["events"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title
                    .starts_with("Android System Intelligence app event ")
            })
            .collect();
        assert_eq!(found.len(), events.len(), "{source}: {found:#?}");
        for e in events {
            let id = s(e, "id").unwrap();
            let p = found
                .iter()
                .find(|p| has_fact(p, id))
                .unwrap_or_else(|| panic!("{id}: {found:#?}"));
            assert_eq!(p.category, "app_usage");
            assert_eq!(
                p.title,
                format!(
                    "Android System Intelligence app event {}",
                    s(e, "app").unwrap_or(id)
                )
            );
            for k in [
                "deleted",
                "generated_from",
                "app",
                "f2",
                "f5_1",
                "f5_6",
                "f8",
            ] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            if s(e, "app").is_none() {
                // no message: the cell as stored
                assert!(
                    p.verified_facts.iter().any(|f| f.value.starts_with("x'")),
                    "{p:#?}"
                );
            }
            assert_eq!(time_values(p), vec![s(e, "time").unwrap().to_string()]);
        }
        // an app removed since is said
        if source == "a" {
            assert!(
                found
                    .iter()
                    .any(|p| has_fact(p, "deleted app") && p.title.ends_with("burnerchat"))
            );
        }
    }
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.google.android.as/databases/reflection_gel_events.db",
                "malformed",
            ),
            (
                "user/10/com.google.android.as/databases/reflection_gel_events.db",
                "no reflection_event table",
            ),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Android System Intelligence")),
        "{:#?}",
        run.phenomena("c")
    );
}
