//! Prime Video's stores (`android::primevideo`) on two Android phones, written by
//! `tests/fixtures/primevideo/primevideo.py` (Python's sqlite3, the tables and columns ALEAPP's
//! primeVideo reads). The generator's record is the oracle: every title played with its series,
//! season, episode, positions, profile, account and last played time; every resume point with its
//! position and time; the account and profile ids facts, no identity; phone B's older tables
//! read; a truncated `dbplaybackhistory` and a `bookmark` of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn prime_video_history_and_resume_points_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/primevideo/primevideo.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let history = o["history"].as_array().unwrap();
        assert_eq!(count("Prime Video played "), history.len());
        for h in history {
            let p = titled(
                &all,
                &format!("Prime Video played {}", s(h, "title").unwrap()),
            );
            assert_eq!(p.category, "media");
            for k in [
                "asin",
                "contenttype",
                "seriestitle",
                "episodeNumber",
                "watched_position",
                "runtime",
                "credits_start_time_millis",
                "profile_id",
                "user_id",
                "last_played_frame_image_url",
            ] {
                if let Some(v) = s(h, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(h, "lastAccessed").unwrap()]);
        }
        let bookmarks = o["bookmarks"].as_array().unwrap();
        assert_eq!(count("Prime Video resume point "), bookmarks.len());
        for bm in bookmarks {
            let p = titled(
                &all,
                &format!("Prime Video resume point {}", s(bm, "asin").unwrap()),
            );
            for k in ["timecode", "timecode_type", "profile_id", "user_id"] {
                if let Some(v) = s(bm, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(bm, "last_update").unwrap()]);
        }
        // the account id is a fact, not an identity
        let acct = s(&history[0], "user_id").unwrap();
        assert!(
            !run.entities(source).iter().any(|e| e.contains(&acct)),
            "{:#?}",
            run.entities(source)
        );
    }
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.amazon.avod.thirdpartyclient/files/databases/dbplaybackhistory",
                "malformed",
            ),
            (
                "user/11/com.amazon.avod.thirdpartyclient/files/databases/bookmark",
                "no table bookmark_cache",
            ),
        ],
    );
}
