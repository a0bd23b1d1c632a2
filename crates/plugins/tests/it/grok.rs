//! Grok's video cache (`android::grok`) on two Android phones and a third tree, written by
//! `tests/fixtures/grok/grok.py` (Python's sqlite3: AndroidX Media3 / ExoPlayer's
//! `exoplayer_internal.db` with its content and file indexes, and the span files of
//! `cache/<folder>/video-cache/`, the paths ALEAPP's `grok_generatedvideos` reads). The
//! generator's record is the oracle: every span of the file index with its URL, content type,
//! length, offset, write and last-touch times, and its file's path when it is still on disk (one
//! span evicted); a span file the file index does not name, with its URL from the content index;
//! phone B's store with the content index only (its files read with their URLs); phone C's store
//! of another layout noted while its span file is still read; no content-index entry reported
//! without a span.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn grok_cached_videos_on_two_phones_and_a_foreign_store() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/grok/grok.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/Los_Angeles", Some("US")),
        ("b", &b, "America/New_York", Some("US")),
        ("c", &c, "UTC", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for source in ["a", "b", "c"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let indexed = o["indexed"].as_array().unwrap();
        let file_only = o["file_only"].as_array().unwrap();
        // one phenomenon per span, none more
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Grok cached video "))
            .collect();
        assert_eq!(
            found.len(),
            indexed.len() + file_only.len(),
            "{source}: {found:#?}"
        );
        for span in indexed {
            let p = titled(&all, &format!("Grok cached video {}", s(&span["name"])));
            assert_eq!(p.category, "media");
            for k in ["name", "length", "cache_id", "offset", "url", "content"] {
                assert!(has_fact(p, &s(&span[k])), "{source} {k}: {p:#?}");
            }
            assert_eq!(
                time_values(p),
                {
                    let mut t = vec![s(&span["created"]), s(&span["touched"])];
                    t.sort();
                    t
                },
                "{p:#?}"
            );
            match span["path"].as_str() {
                Some(path) => {
                    assert!(has_fact(p, path), "{p:#?}");
                    assert!(p.interpretation.contains("is in the cache"), "{p:#?}");
                }
                None => {
                    assert!(
                        !p.verified_facts.iter().any(|f| f.value.ends_with(".exo")
                            && f.value.contains("/video-cache/")),
                        "{p:#?}"
                    );
                    assert!(
                        p.interpretation.contains("not in the cache folder"),
                        "{p:#?}"
                    );
                }
            }
        }
        for span in file_only {
            let p = titled(
                &all,
                &format!(
                    "Grok cached video {} (not in the file index)",
                    s(&span["name"])
                ),
            );
            assert_eq!(p.category, "media");
            assert!(has_fact(p, &s(&span["path"])), "{p:#?}");
            assert_eq!(time_values(p), vec![s(&span["created"])], "{p:#?}");
            match span["url"].as_str() {
                Some(url) => {
                    assert!(has_fact(p, url), "{p:#?}");
                    assert!(has_fact(p, &s(&span["content"])), "{p:#?}");
                }
                None => assert!(p.interpretation.contains("no URL is known"), "{p:#?}"),
            }
        }
        // a content-index entry without any span is not reported
        for url in o["not_reported_urls"].as_array().unwrap() {
            assert!(
                !all.iter().any(|p| has_fact(p, url.as_str().unwrap())),
                "{url}"
            );
        }
    }
    // a user-generated and a public video on phone A, labelled in the query
    let all = run.all_phenomena("a");
    assert!(has_fact(
        titled(&all, "Grok cached video 4.0.1763060403970.v3.exo"),
        "user generated"
    ));
    assert!(has_fact(
        titled(&all, "Grok cached video 7.0.1763061002311.v3.exo"),
        "public"
    ));
    for source in ["a", "b"] {
        let notes = run.unparsed(source);
        assert!(
            !notes.iter().any(|u| u.artefact.contains("ai.x.grok")),
            "{source}: {notes:#?}"
        );
    }
    run.assert_noted(
        "c",
        &[(
            "ai.x.grok/databases/exoplayer_internal.db",
            "not an ExoPlayer cache store",
        )],
    );
}
