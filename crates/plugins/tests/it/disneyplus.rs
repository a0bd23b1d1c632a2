//! Disney+'s files (`android::disneyplus`) on two Android phones, written by
//! `tests/fixtures/disneyplus/disneyplus.py` (Python's sqlite3 and json, the table, columns and
//! preference keys ALEAPP's disneyPlus reads). The generator's record is the oracle: every resume
//! point with its content, profile, playhead and time; each last-played key with its content,
//! media and series ids and time; every search kept with its profile (a term with an ampersand
//! cited as the XML holds it); phone B's older table read; a recentSearches that is not JSON, a
//! truncated store and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn disneyplus_resume_points_last_played_and_searches_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/disneyplus/disneyplus.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let bookmarks = o["bookmarks"].as_array().unwrap();
        assert_eq!(count("Disney+ resume point "), bookmarks.len());
        for bm in bookmarks {
            let p = titled(
                &all,
                &format!("Disney+ resume point {}", s(bm, "contentId").unwrap()),
            );
            assert_eq!(p.category, "media");
            for k in ["profileId", "playhead", "runtime", "ccMedia"] {
                if let Some(v) = s(bm, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(bm, "occurredOn").unwrap()]);
        }
        let last = o["last_played"].as_array().unwrap();
        assert_eq!(count("Disney+ last played "), last.len());
        for lp in last {
            let p = titled(
                &all,
                &format!("Disney+ last played {}", s(lp, "contentId").unwrap()),
            );
            for k in ["key", "mediaId", "seriesId", "contentIdentifierType"] {
                assert!(has_fact(p, &s(lp, k).unwrap()), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(lp, "timestamp").unwrap()]);
        }
        let searches = o["searches"].as_array().unwrap();
        assert_eq!(count("Disney+ search "), searches.len());
        for se in searches {
            let term = s(se, "searchTerm").unwrap();
            let p = titled(&all, &format!("Disney+ search {term}"));
            assert_eq!(p.category, "app_usage");
            assert!(has_fact(p, &s(se, "contentId").unwrap()), "{p:#?}");
            assert!(has_fact(p, &s(se, "profileId").unwrap()), "{p:#?}");
            assert!(p.times.is_empty(), "a kept search has no time: {p:#?}");
        }
    }
    // the term with an ampersand is cited as the XML holds it
    let all = run.all_phenomena("a");
    let tj = titled(&all, "Disney+ search Tom & Jerry");
    assert!(has_fact(tj, "Tom &amp; Jerry"), "{tj:#?}");
    run.assert_noted(
        "b",
        &[
            ("shared_prefs/RecentSearchSharedPref.xml", "not JSON"),
            (
                "user/10/com.disney.disneyplus/databases/db_offline_bookmarks",
                "malformed",
            ),
            (
                "user/11/com.disney.disneyplus/databases/db_offline_bookmarks",
                "no table bookmarks",
            ),
        ],
    );
}
