//! The Google app's recent activity (`android::googlesearch`) on two Android phones, written by
//! `tests/fixtures/googlesearch/googlesearch.py` (Google's protobuf runtime, the field numbers
//! ALEAPP's googleQuickSearchboxRecent reads). The generator's record is the oracle: every
//! search with its query, engine and times, the page opened with its URL and title; the account
//! the file is named by observed as the device owner's e-mail; a file that is not a message
//! noted.

use crate::android_support::{generate, has_fact, time_values, triage};

#[test]
fn google_app_recent_searches_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/googlesearch/googlesearch.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let entries: Vec<_> = all
            .iter()
            .filter(|p| p.title.contains("the Google app: "))
            .collect();
        let expected = o["items"].as_array().unwrap();
        assert_eq!(entries.len(), expected.len(), "{entries:#?}");
        for it in expected {
            let title = match it["query"].as_str() {
                Some(q) => format!("Searched in the Google app: {q}"),
                None => format!(
                    "Opened from the Google app: {}",
                    it["title"].as_str().unwrap()
                ),
            };
            let p = entries.iter().find(|p| p.title == title).unwrap();
            assert_eq!(p.category, "web");
            for k in ["url", "domain"] {
                if let Some(v) = it[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            if it["query"].is_string() {
                assert!(has_fact(p, "google"), "{p:#?}");
            }
            assert!(has_fact(p, &it["shot"].to_string()));
            let mut want = vec![it["t1"].to_string(), it["t2"].to_string()];
            want.sort();
            assert_eq!(time_values(p), want);
        }
        let owner = run.owner(source);
        assert!(
            owner.contains(&format!("email={}", o["account"].as_str().unwrap())),
            "{owner}"
        );
    }
    run.assert_noted("b", &[("second.account@example.org", "")]);
}
