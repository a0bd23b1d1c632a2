//! Honor's media library (`android::honorgallery`) on two Honor phones and a third tree, written
//! by `tests/fixtures/honorgallery/honorgallery.py` (Python's sqlite3, the table and columns
//! ALEAPP's honorMediaLibrary reads). The generator's record is the oracle: every item with its
//! path, name, size, position (none for 0,0), time zone from `expand` (none for a cut document),
//! duration, hash, recycle state with the path it was deleted from, and its times (added and
//! modified Unix s, taken and recycled Unix ms); phone B's older table (no `expand`, hash or
//! recycle columns) read; on phone C a truncated copy and a store without `gallery_media` noted,
//! another app's `gallery.db` neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn honorgallery_media_positions_and_recycle_bin_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/honorgallery/honorgallery.py",
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
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for source in ["a", "b"] {
        let items = o[source].as_array().unwrap();
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Honor Gallery "))
            .collect();
        assert_eq!(found.len(), items.len(), "{found:#?}");
        for it in items {
            let recycled = it.get("recycled").is_some();
            let title = if recycled {
                format!("Honor Gallery {} (recycled)", s(&it["name"]))
            } else {
                format!("Honor Gallery {}", s(&it["name"]))
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "media");
            for k in ["path", "name", "size"] {
                assert!(has_fact(p, &s(&it[k])), "{k}: {p:#?}");
            }
            // the position, or none for 0,0 and a missing one
            match (it.get("latitude"), it.get("longitude")) {
                (Some(lat), Some(lon)) => {
                    assert!(has_fact(p, &s(lat)) && has_fact(p, &s(lon)), "{p:#?}");
                }
                _ => assert!(
                    !p.verified_facts.iter().any(|f| f.value == "0.0"),
                    "no position for 0,0: {p:#?}"
                ),
            }
            for k in ["time_zone", "duration", "hash", "recycled", "source_path"] {
                if let Some(v) = it.get(k).and_then(|v| v.as_str()) {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            let times: Vec<String> = it["times"].as_array().unwrap().iter().map(s).collect();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
    }
    // phone A's recycled photo says where it was deleted from; phone B has no recycle columns
    let all = run.all_phenomena("a");
    let bin = titled(&all, "Honor Gallery IMG_20250613_090000.jpg (recycled)");
    assert!(has_fact(bin, "2"), "the flag as stored: {bin:#?}");
    assert!(
        !run.all_phenomena("b")
            .iter()
            .any(|p| p.title.ends_with("(recycled)"))
    );
    run.assert_noted(
        "c",
        &[
            (
                "user/10/com.hihonor.medialibrary/databases/gallery.db",
                "malformed",
            ),
            (
                "user/11/com.hihonor.medialibrary/databases/gallery.db",
                "gallery_media",
            ),
        ],
    );
    let other = s(&o["other"]);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Honor Gallery ")
                || p.verified_facts.iter().any(|f| f.value == other)),
        "another app's gallery.db read"
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.contains("com.other.gallery"))
    );
}
