//! Safari's recent searches (`ios::safarisearches`) and home screen web clips (`ios::webclips`)
//! of two iPhones, written with plistlib by `tests/fixtures/safariprefs/safariprefs.py` (a binary
//! and an XML preferences plist; clips found by their `.webclip` folders). The generator's record
//! is the oracle, as iLEAPP's safariRecentWebSearches and web_clips read the same keys: every
//! search is found with its text and time (one without a date has none), every clip with its
//! title and address.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn safari_searches_and_web_clips_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/safariprefs/safariprefs.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let searches: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Safari search: "))
            .collect();
        let expected = o[source]["searches"].as_array().unwrap();
        assert_eq!(searches.len(), expected.len(), "{searches:#?}");
        for s in expected {
            let term = s["term"].as_str().unwrap();
            let p = searches
                .iter()
                .find(|p| p.title == format!("Safari search: {term}"))
                .unwrap_or_else(|| panic!("{term}"));
            assert_eq!(p.category, "web");
            assert!(has_fact(p, term), "{p:#?}");
            match s["date"].as_str() {
                Some(d) => {
                    assert_eq!(p.times.len(), 1);
                    assert!(p.interpretation.contains(d), "{}", p.interpretation);
                }
                None => assert!(p.times.is_empty(), "{p:#?}"),
            }
        }
        let clips: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Home screen web clip: "))
            .collect();
        let expected = o[source]["clips"].as_array().unwrap();
        assert_eq!(clips.len(), expected.len(), "{clips:#?}");
        for c in expected {
            let title = c["title"].as_str().unwrap();
            let p = clips
                .iter()
                .find(|p| p.title == format!("Home screen web clip: {title}"))
                .unwrap_or_else(|| panic!("{title}"));
            assert!(
                has_fact(p, title) && has_fact(p, c["url"].as_str().unwrap()),
                "{p:#?}"
            );
            assert!(
                p.interpretation.contains(c["id"].as_str().unwrap()),
                "{}",
                p.interpretation
            );
        }
    }
}
