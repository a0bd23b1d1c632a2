//! Samsung Gallery's `local.db` (`android::samsunggallery`) on two Android phones, written by
//! `tests/fixtures/samsunggallery/samsunggallery.py` (Python's sqlite3 and json, the tables,
//! columns and JSON members ALEAPP's galleryTrash and Cheeky4n6Monkey's parsers read). The
//! generator's record is the oracle: every item in the trash with its original and trash paths,
//! MIME type, size, coordinates and its deleted and taken times; the log's deletions, moves to
//! the trash, restores and emptying with their operation, line and time, its other lines counted
//! and noted; another app's `local.db` never read; phone B's older layout read (the other JSON
//! member names; a cut document read as NULLs); a truncated copy and a store of another layout
//! noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn samsung_gallery_trash_and_deletion_log_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/samsunggallery/samsunggallery.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let trash = o["trash"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Samsung Gallery trash "))
            .collect();
        assert_eq!(found.len(), trash.len(), "{found:#?}");
        for t in trash {
            let p = titled(
                &all,
                &format!("Samsung Gallery trash {}", t["name"].as_str().unwrap()),
            );
            assert_eq!(p.category, "files");
            for k in ["origin", "copy", "mime", "size", "lat", "lon", "id"] {
                if let Some(v) = t[k].as_str() {
                    assert!(has_fact(p, v), "{k} {v}: {p:#?}");
                }
            }
            let times = time_values(p);
            assert!(times.contains(&t["deleted"].as_str().unwrap().to_string()));
            if let Some(taken) = t["taken"].as_str() {
                assert!(times.contains(&taken.to_string()), "{times:?}");
            }
        }
        let log = o["log"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Samsung Gallery log "))
            .collect();
        assert_eq!(found.len(), log.len(), "{found:#?}");
        for line in log {
            let p = titled(
                &all,
                &format!("Samsung Gallery log {}", line["op"].as_str().unwrap()),
            );
            assert!(has_fact(p, line["line"].as_str().unwrap()), "{p:#?}");
            assert_eq!(
                time_values(p),
                vec![line["ts"].as_str().unwrap().to_string()]
            );
        }
    }
    // phone B's cut document: the item read, no MIME type, size or coordinates
    let all = run.all_phenomena("b");
    let cut = titled(&all, "Samsung Gallery trash IMG_5521.jpg");
    assert!(has_fact(
        cut,
        "/storage/emulated/0/Pictures/Instagram/IMG_5521.jpg"
    ));
    assert_eq!(time_values(cut), vec!["1714770000000".to_string()]);
    // another app's local.db is not read
    let foreign = o["a"]["foreign"].as_str().unwrap();
    assert!(
        !run.all_phenomena("a")
            .iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value == foreign))
    );
    let others = format!(
        "{} lines of the Gallery's log",
        o["a"]["log_other"].as_u64().unwrap()
    );
    run.assert_noted(
        "a",
        &[(
            "data/com.sec.android.gallery3d/databases/local.db",
            others.as_str(),
        )],
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.sec.android.gallery3d/databases/local.db",
                "malformed",
            ),
            (
                "user/11/com.sec.android.gallery3d/databases/local.db",
                "neither trash nor log",
            ),
        ],
    );
}
