//! Samsung Story Service's store (`android::storyservice`) on two Android phones and a third
//! tree, written by `tests/fixtures/storyservice/storyservice.py` (Python's sqlite3, the tables
//! and columns ALEAPP's samsungStoryService reads). The generator's record is the oracle: every
//! indexed file with its path, position (the unset 0/0 pair read as none), place names, scenes,
//! faces, deleted flag, moment and the moment's title, and both times; every moment with its
//! places and three times; phone B's older layout read; a truncated copy and a `dme.db` with
//! neither table noted; another app's `dme.db` neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// A JSON value as the query prints it (`None` for null).
fn text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[test]
fn storyservice_media_and_moments_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/storyservice/storyservice.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Vienna", Some("AT")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let infos = o[source]["info"].as_array().unwrap();
        for m in infos {
            let path = m["_data"].as_str().unwrap();
            let file = path.rsplit('/').next().unwrap();
            let p = titled(&all, &format!("Samsung story media {file}"));
            assert_eq!(p.category, "media");
            for k in [
                "_data",
                "title",
                "media_type",
                "lat",
                "lon",
                "country_name",
                "locality",
                "poi_name",
                "poi_city",
                "street_name",
                "scene_names",
                "face_count",
                "is_delete",
                "moment_id",
                "moment_title",
            ] {
                if let Some(v) = m.get(k).and_then(text) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            let mut times = vec![m["datetaken"].to_string(), m["date_added"].to_string()];
            times.sort();
            assert_eq!(time_values(p), times);
        }
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Samsung story media "))
            .count();
        assert_eq!(found, infos.len());
        for m in o[source]["moments"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Samsung story moment {}: {}",
                    m["moment_id"],
                    m["title"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "media");
            for k in [
                "story_id",
                "media_count",
                "country_name",
                "location",
                "poi_info",
                "street_name_info",
                "type",
            ] {
                if let Some(v) = m.get(k).and_then(text) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            let mut times = vec![
                m["start_time"].to_string(),
                m["end_time"].to_string(),
                m["creation_time"].to_string(),
            ];
            times.sort();
            let mut got = time_values(p);
            got.dedup();
            times.dedup();
            assert_eq!(got, times);
        }
    }
    // the unset 0/0 position gives no coordinate fact
    let all = run.all_phenomena("a");
    let breakfast = titled(&all, "Samsung story media 20240601_090000.jpg");
    assert!(!has_fact(breakfast, "0.0"), "{breakfast:#?}");
    let munich = titled(&all, "Samsung story media 20240518_141203.jpg");
    assert!(has_fact(munich, "48.137154") && has_fact(munich, "Marienplatz"));
    // phone C: the two copies in the Story Service's folder noted, the other app's dme.db left
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Samsung story"))
    );
    run.assert_noted(
        "c",
        &[
            (
                "user/10/com.samsung.storyservice/databases/dme.db",
                "malformed",
            ),
            ("user/11/com.samsung.storyservice/databases/dme.db", "info"),
        ],
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.contains("com.example.dmenotes")),
        "{:#?}",
        run.unparsed("c")
    );
}
