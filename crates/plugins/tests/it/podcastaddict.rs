//! Podcast Addict's `podcastAddict.db` (`android::podcastaddict`) on two Android phones, written
//! by `tests/fixtures/podcastaddict/podcastaddict.py` (Python's sqlite3, the table and columns
//! ALEAPP's PodcastAddict reads and the others the app keeps). The generator's record is the
//! oracle: every podcast with its author, feed, subscription, feed count and the episodes kept;
//! every episode played, started or downloaded with its podcast, download URL, size, position
//! and times, the others (the feed's catalogue) not listed; phone B's older layout
//! (`playback_date`) read; a truncated copy and a store of another layout noted; and no feed
//! login or password in any output of the run.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn podcast_addict_podcasts_and_episodes_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/podcastaddict/podcastaddict.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "Europe/Stockholm", Some("SE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let podcasts = o["podcasts"].as_array().unwrap();
        assert_eq!(count("Podcast Addict podcast "), podcasts.len());
        for pc in podcasts {
            let p = titled(
                &all,
                &format!("Podcast Addict podcast {}", s(pc, "name").unwrap()),
            );
            assert_eq!(p.category, "media");
            for k in [
                "author",
                "feed_url",
                "subscribed_status",
                "episodesNb",
                "kept",
            ] {
                if let Some(v) = s(pc, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            // a private feed's login is said, never quoted
            assert_eq!(
                has_fact(p, "stored"),
                pc["login"].as_bool().unwrap(),
                "{p:#?}"
            );
            assert_eq!(
                time_values(p),
                s(pc, "last_played").into_iter().collect::<Vec<_>>(),
                "{p:#?}"
            );
        }
        // the episodes played, started or downloaded; the catalogue's others not listed
        let episodes = o["episodes"].as_array().unwrap();
        assert_eq!(count("Podcast Addict episode "), episodes.len());
        for e in episodes {
            let p = titled(
                &all,
                &format!("Podcast Addict episode {}", s(e, "name").unwrap()),
            );
            for k in [
                "podcast",
                "download_url",
                "size",
                "position_to_resume",
                "playing_status",
            ] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let times: Vec<String> = e["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        for name in o["not_read"].as_array().unwrap() {
            let title = format!("Podcast Addict episode {}", name.as_str().unwrap());
            assert!(!all.iter().any(|p| p.title == title), "{title}");
        }
        // never a feed login, in any output the run logged
        let secrets: Vec<&str> = o["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(secrets.is_empty(), source == "b");
        for (tool, args, text) in run.outputs(source) {
            for secret in &secrets {
                assert!(!text.contains(secret), "{secret} in {tool} {args}");
            }
        }
    }
    // phone A: the episode started, its position to resume kept
    let all = run.all_phenomena("a");
    let started = titled(
        &all,
        "Podcast Addict episode Ep. 96: Reviewing the reviewers",
    );
    assert!(has_fact(started, "1265000"), "{started:#?}");
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.bambuna.podcastaddict/databases/podcastAddict.db",
                "malformed",
            ),
            (
                "user/11/com.bambuna.podcastaddict/databases/podcastAddict.db",
                "none of the tables",
            ),
        ],
    );
}
