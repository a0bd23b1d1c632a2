//! Pixel's Now Playing history (`android::nowplaying`) of two phones written by
//! `tests/fixtures/nowplaying/nowplaying.py` (Python's sqlite3 and Google's protobuf runtime, the
//! table and field numbers ALEAPP's get_googleNowPlaying reads; the current and the older
//! package's path). The generator's record is the oracle: every recognition with its time, time
//! zone, title, artist, album, year and duration (a double read from its fixed64 bits); an entry
//! that is no message keeps its time and names no song.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn now_playing_on_two_pixels() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/nowplaying/nowplaying.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Song recognised nearby: "))
            .collect();
        let expected = o[source].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{source}: {found:#?}");
        for r in expected {
            let at = r["timestamp"].to_string();
            let p = found
                .iter()
                .find(|p| p.verified_facts[p.times[0].fact].value == at)
                .unwrap_or_else(|| panic!("{at}"));
            assert_eq!(p.category, "media");
            match r["title"].as_str() {
                Some(title) => {
                    assert_eq!(
                        p.title,
                        format!(
                            "Song recognised nearby: {title} by {}",
                            r["artist"].as_str().unwrap()
                        )
                    );
                    for k in ["tz", "album"] {
                        let v = serde_json::to_string(r[k].as_str().unwrap()).unwrap();
                        assert!(has_fact(p, &v[1..v.len() - 1]), "{k}: {p:#?}");
                    }
                    assert!(has_fact(p, &r["year"].to_string()));
                    let bits = r["duration"].as_f64().unwrap().to_bits().to_string();
                    assert!(has_fact(p, &bits), "{p:#?}");
                    assert!(p.interpretation.contains(&format!(
                        "duration {:.0} s",
                        r["duration"].as_f64().unwrap()
                    )));
                }
                None => {
                    assert_eq!(p.title, "Song recognised nearby: unknown song");
                    assert!(p.interpretation.contains("the entry names no song"));
                }
            }
        }
    }
}
