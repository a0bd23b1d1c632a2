//! Netflix's stores (`android::netflix`) on two Android phones, written by
//! `tests/fixtures/netflix/netflix.py` (Python's sqlite3, the tables and columns ALEAPP's netflix
//! reads). The generator's record is the oracle: every play event with its playable id, session
//! and time; every stream record with its IP address and bytes; every profile (names as facts,
//! no identity); every resume position, titled from the downloads where the title is one, with
//! its profile's name; every download with its title, season, profile and expiry; phone B's
//! older layout read; a truncated `appHistory` and an `OfflineDb` of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn netflix_plays_streams_profiles_positions_and_downloads_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/netflix/netflix.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "Europe/Oslo", Some("NO")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        // play events: one per row, each with its playable id, session and time
        let plays = o["plays"].as_array().unwrap();
        assert_eq!(count("Netflix play event "), plays.len());
        for e in plays {
            let id = s(e, "playableId").unwrap();
            let p = all
                .iter()
                .find(|p| {
                    p.title == format!("Netflix play event {id}")
                        && time_values(p).contains(&s(e, "eventTime").unwrap())
                })
                .unwrap_or_else(|| panic!("{e}: {all:#?}"));
            assert_eq!(p.category, "media");
            for k in ["duration", "xid", "network"] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
        }
        let streams = o["streams"].as_array().unwrap();
        assert_eq!(count("Netflix stream "), streams.len());
        for st in streams {
            let p = all
                .iter()
                .find(|p| {
                    p.title == format!("Netflix stream {}", s(st, "streamId").unwrap())
                        && time_values(p).contains(&s(st, "timestamp").unwrap())
                })
                .unwrap_or_else(|| panic!("{st}: {all:#?}"));
            assert_eq!(p.category, "app_usage");
            for k in ["ip", "bytes", "locationID", "networkType"] {
                assert!(has_fact(p, &s(st, k).unwrap()), "{k}: {p:#?}");
            }
        }
        // profiles: names and ids are facts, never identities
        let profiles = o["profiles"].as_array().unwrap();
        assert_eq!(count("Netflix profile "), profiles.len());
        for pr in profiles {
            let name = s(pr, "name").unwrap();
            let p = titled(&all, &format!("Netflix profile {name}"));
            assert_eq!(p.category, "accounts");
            assert!(has_fact(p, &s(pr, "profileId").unwrap()), "{p:#?}");
            assert!(
                !run.entities(source).iter().any(|e| e.contains(&name)),
                "{name}: {:#?}",
                run.entities(source)
            );
        }
        // resume positions: titled from the downloads where the title is one
        let downloads = o["downloads"].as_array().unwrap();
        let bookmarks = o["bookmarks"].as_array().unwrap();
        assert_eq!(count("Netflix resume position "), bookmarks.len());
        for bm in bookmarks {
            let id = s(bm, "playableId").unwrap();
            let title = downloads
                .iter()
                .find(|d| s(d, "videoId").as_deref() == Some(id.as_str()))
                .and_then(|d| s(d, "title"))
                .unwrap_or_else(|| id.clone());
            let p = titled(&all, &format!("Netflix resume position {title}"));
            assert!(has_fact(p, &id) && has_fact(p, &s(bm, "bookmarkInMs").unwrap()));
            assert_eq!(
                time_values(p),
                vec![s(bm, "bookmarkUpdateTimeInUTCMs").unwrap()]
            );
            if let Some(pid) = s(bm, "profileId") {
                let owner = profiles
                    .iter()
                    .find(|pr| s(pr, "profileId").as_deref() == Some(pid.as_str()))
                    .unwrap();
                assert!(has_fact(p, &s(owner, "name").unwrap()), "{p:#?}");
            }
        }
        assert_eq!(count("Netflix download "), downloads.len());
        for d in downloads {
            let p = titled(
                &all,
                &format!("Netflix download {}", s(d, "title").unwrap()),
            );
            for k in [
                "videoId",
                "genres",
                "actors",
                "quality",
                "boxshotUrl",
                "profileId",
            ] {
                assert!(has_fact(p, &s(d, k).unwrap()), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(d, "expTime").unwrap()]);
        }
    }
    // phone A: the episode downloaded with its season, and the Kids profile as stored
    let all = run.all_phenomena("a");
    let ep = titled(&all, "Netflix download The Lighthouse Keeper");
    assert!(has_fact(ep, "Season 2") && has_fact(ep, "Jan"), "{ep:#?}");
    let kids = titled(&all, "Netflix profile Kids");
    assert!(has_fact(kids, "1"), "{kids:#?}");
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.netflix.mediaclient/databases/appHistory",
                "malformed",
            ),
            (
                "user/11/com.netflix.mediaclient/databases/OfflineDb",
                "none of the tables",
            ),
        ],
    );
}
