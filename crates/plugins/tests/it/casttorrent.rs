//! Google Cast's receivers (`android::cast`) and LibreTorrent's torrents (`android::torrent`) of
//! two Android phones written by `tests/fixtures/casttorrent/casttorrent.py` (Python's sqlite3,
//! the columns ALEAPP's googleCast and get_libretorrent read). The generator's record is the
//! oracle: every receiver with each value and its three times (a zero time none), every
//! torrent with its name, info hash, folder, magnet, error, flags and when added (BitLord on
//! phone A, LibreTorrent's older table on phone B); a Cast store without DeviceInfo noted.

use crate::android_support::{generate, has_fact, triage};

/// A stored value as the output prints it.
fn shown(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[test]
fn cast_receivers_and_torrents_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/casttorrent/casttorrent.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Rome", Some("IT")),
        ("b", &b, "Europe/Rome", Some("IT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let receivers: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Cast receiver "))
            .collect();
        let expected = o["cast"].as_array().unwrap();
        assert_eq!(receivers.len(), expected.len(), "{source}: {receivers:#?}");
        for r in expected {
            let title = format!(
                "Google Cast receiver {}",
                r["friendly_name"].as_str().unwrap()
            );
            let p = receivers.iter().find(|p| p.title == title).unwrap();
            assert_eq!(p.category, "device");
            for (k, v) in r.as_object().unwrap() {
                if k.ends_with("_millis") || k == "capabilities" {
                    continue;
                }
                if let Some(v) = shown(v) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let mut want: Vec<String> = [
                "last_published_timestamp_millis",
                "last_discovered_timestamp_millis",
                "last_discovered_by_ble_timestamp_millis",
            ]
            .iter()
            .filter(|k| r[**k].as_i64().is_some_and(|t| t > 0))
            .map(|k| r[*k].to_string())
            .collect();
            let mut got: Vec<String> = p
                .times
                .iter()
                .map(|t| p.verified_facts[t.fact].value.clone())
                .collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{p:#?}");
        }
        let torrents: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Torrent added: "))
            .collect();
        let expected = o["torrents"].as_array().unwrap();
        assert_eq!(torrents.len(), expected.len(), "{source}: {torrents:#?}");
        for r in expected {
            let title = format!("Torrent added: {}", r["name"].as_str().unwrap());
            let p = torrents.iter().find(|p| p.title == title).unwrap();
            assert_eq!(p.category, "files");
            for k in ["id", "downloadPath", "magnet", "error", "visibility"] {
                if let Some(v) = r.get(k).and_then(shown) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(
                p.verified_facts[p.times[0].fact].value,
                r["dateAdded"].to_string()
            );
            assert!(p.interpretation.contains(&format!(
                "paused by hand: {}",
                if r["manuallyPaused"] == 1 {
                    "yes"
                } else {
                    "no"
                }
            )));
        }
    }
    run.assert_noted(
        "b",
        &[("com.google.android.gms/databases/cast.db", "DeviceInfo")],
    );
}
