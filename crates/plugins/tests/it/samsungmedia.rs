//! Samsung's media provider store (`android::samsungmedia`) on two Android phones and a third
//! tree, written by `tests/fixtures/samsungmedia/samsungmedia.py` (Python's sqlite3, the `files`
//! and `location` tables and the columns ALEAPP's samsungMediaFiles and samsungMediaLocations
//! read). The generator's record is the oracle: every picture, recording and video (`media`) and
//! every other file (`files`) with its path, name, type, size, owning app, position (none for
//! 0/0), Samsung's packed address, the page and app a screenshot was captured from, the download
//! URLs and the hidden, trash and deleted flags, its taken, added, modified and expiry times;
//! every resolved place; phone B's Android 10 layout read with what it has; a truncated store
//! and a store of another layout noted; another app's `media.db` neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn samsung_media_provider_files_and_places_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/samsungmedia/samsungmedia.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Amsterdam", Some("NL")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let files = o[source]["files"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Samsung media store ")
                    && !p.title.starts_with("Samsung media store place ")
            })
            .collect();
        assert_eq!(found.len(), files.len(), "{source}: {found:#?}");
        for f in files {
            let name = s(f, "name").unwrap();
            let title = match s(f, "kind") {
                Some(k) => format!("Samsung media store {k} {name}"),
                None => format!("Samsung media store file {name}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, s(f, "category").unwrap(), "{title}");
            for (k, v) in f.as_object().unwrap() {
                if matches!(k.as_str(), "times" | "category" | "name") {
                    continue;
                }
                let v = v.as_str().unwrap();
                assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
            }
            let times: Vec<String> = f["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            assert_eq!(time_values(p), times, "{title}");
        }
        // 0/0 is no position: no coordinate facts
        if let Some(name) = s(&o[source], "no_position") {
            let p = titled(&all, &format!("Samsung media store video {name}"));
            assert!(!p.verified_facts.iter().any(|f| f.value == "0.0"), "{p:#?}");
        }
        // the places the provider resolved
        let places = o[source]["places"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Samsung media store place "))
            .collect();
        assert_eq!(found.len(), places.len(), "{found:#?}");
        for pl in places {
            let p = titled(
                &all,
                &format!(
                    "Samsung media store place {}",
                    s(pl, "address_text").unwrap()
                ),
            );
            assert_eq!(p.category, "locations");
            for (k, v) in pl.as_object().unwrap() {
                let v = v.as_str().unwrap();
                assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
            }
        }
    }
    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "Samsung media provider media.db")
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
                "data/data/com.samsung.android.providers.media/databases/media.db",
                "malformed",
            ),
            (
                "user/10/com.samsung.android.providers.media/databases/media.db",
                "neither a files nor a location table",
            ),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Samsung media store")),
        "{:#?}",
        run.phenomena("c")
    );
    // another app's media.db: neither read nor noted
    let other = s(&o["c"], "not_read").unwrap();
    for (tool, args, text) in run.outputs("c") {
        assert!(!text.contains(other), "{tool} {args}");
    }
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.contains("com.example.gallerylite")),
        "{:#?}",
        run.unparsed("c")
    );
}
