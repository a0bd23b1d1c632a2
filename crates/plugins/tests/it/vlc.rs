//! VLC for Android's media library (`android::vlc`) on two Android phones and a third tree,
//! written by `tests/fixtures/vlc/vlc.py` (Python's sqlite3, the medialibrary's own tables and
//! columns that ALEAPP's vlcMedia and vlcThumbs read). The generator's record is the oracle:
//! every library entry with its title, file name, type, duration, last position, times played,
//! favourite, folder, main file (not its subtitle file) and size, last played and added times,
//! no -1 placeholder; the cached thumbnails; phone B's older model read (no position columns,
//! the progress kept as metadata, the last access time); a truncated store and a store of
//! another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn vlc_media_library_and_thumbnails_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/vlc/vlc.py",
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
        let media = o[source]["media"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("VLC media "))
            .collect();
        assert_eq!(found.len(), media.len(), "{found:#?}");
        for m in media {
            let p = titled(
                &all,
                &format!("VLC media {}", m["filename"].as_str().unwrap()),
            );
            assert_eq!(p.category, "media");
            for k in [
                "id_media",
                "title",
                "filename",
                "kind",
                "duration",
                "play_count",
                "is_favorite",
                "folder",
                "mrl",
                "size",
                "last_position",
                "last_time",
                "progress_meta",
            ] {
                if let Some(v) = m.get(k).and_then(|v| v.as_str()) {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            // medialibrary's "none" is no value; the subtitle file is not the media's file
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.value == "-1" || f.value == "-1.0" || f.value.ends_with(".srt")),
                "{p:#?}"
            );
            let mut times: Vec<String> = ["last_played", "accessed", "inserted"]
                .iter()
                .filter_map(|k| m.get(*k).and_then(|v| v.as_str()).map(str::to_string))
                .collect();
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        // the thumbnails VLC cached
        let thumbs = o[source]["thumbnails"].as_array().unwrap();
        let listed: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("VLC thumbnail "))
            .collect();
        assert_eq!(listed.len(), thumbs.len(), "{listed:#?}");
        for t in thumbs {
            let p = titled(
                &all,
                &format!("VLC thumbnail {}", t["name"].as_str().unwrap()),
            );
            let path = t["path"].as_str().unwrap();
            assert!(
                p.verified_facts.iter().any(|f| f.value.ends_with(path)),
                "{path}: {p:#?}"
            );
            assert!(has_fact(p, t["size"].as_str().unwrap()), "{p:#?}");
            assert_eq!(p.times.len(), 1, "{p:#?}");
        }
    }
    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "VLC vlc_media.db")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }
    run.assert_noted(
        "c",
        &[
            (
                "data/data/org.videolan.vlc/app_db/vlc_media.db",
                "malformed",
            ),
            ("user/10/org.videolan.vlc/app_db/vlc_media.db", "Media"),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("VLC ")),
        "{:#?}",
        run.phenomena("c")
    );
}
