//! The Settings search index (`android::settingssearch`) on two Android phones and a third tree,
//! written by `tests/fixtures/settingssearch/settingssearch.py` (Python's sqlite3, the
//! `saved_queries` table ALEAPP's settingsSearch reads, beside the index of settings). The
//! generator's record is the oracle: every saved search with its query and time (Unix ms) in
//! AOSP's SettingsIntelligence, Google's, and Android 7's Settings app (a search without a time
//! read without one); a truncated index and an index of another layout noted; another app's
//! `search_index.db` neither read nor noted.

use crate::android_support::{generate, has_fact, has_path, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn settings_searches_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/settingssearch/settingssearch.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Paris", Some("FR")),
        ("b", &b, "Europe/Paris", Some("FR")),
        ("c", &c, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let searches = o[source]["searches"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Settings search "))
            .collect();
        assert_eq!(found.len(), searches.len(), "{source}: {found:#?}");
        for q in searches {
            let query = s(q, "query").unwrap();
            let p = titled(&all, &format!("Settings search {query}"));
            assert_eq!(p.category, "app_usage");
            assert!(has_fact(p, query), "{p:#?}");
            let package = s(q, "package").unwrap();
            assert!(
                has_path(p, &format!("{package}/databases/search_index.db")),
                "{p:#?}"
            );
            assert!(p.interpretation.contains(package), "{p:#?}");
            let times: Vec<String> = s(q, "time").map(str::to_string).into_iter().collect();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
    }
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.android.settings.intelligence/databases/search_index.db",
                "malformed",
            ),
            (
                "user/10/com.android.settings.intelligence/databases/search_index.db",
                "no saved_queries",
            ),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Settings search ")),
        "{:#?}",
        run.phenomena("c")
    );
    // another app's search_index.db: neither read nor noted
    let other = s(&o["c"], "not_read").unwrap();
    for (tool, args, text) in run.outputs("c") {
        assert!(!text.contains(other), "{tool} {args}");
    }
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.contains("com.example.docreader")),
        "{:#?}",
        run.unparsed("c")
    );
}
