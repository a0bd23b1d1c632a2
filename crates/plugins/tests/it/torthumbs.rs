//! Tor Browser's page thumbnails (`android::torthumbs`) on two phones and a third tree, written
//! by `tests/fixtures/torthumbs/torthumbs.py` (real images by ImageMagick in the
//! `mozac_browser_thumbnails` cache ALEAPP's torThumbs reads). The generator's record is the
//! oracle: every thumbnail of phone A's stable release and phone B's alpha with its path, size,
//! cache key and modified time; the cache's journal not taken for a thumbnail; Firefox's and
//! Focus's thumbnails of the same layout never read nor noted; phone C's Tor Browser folder
//! without thumbnails giving nothing and noting nothing.

use masf_agents::Plugin;

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn torthumbs_tor_browser_page_thumbnails_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/torthumbs/torthumbs.py",
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
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Tor Browser"))
            .collect();
        let want = o[source]["thumbs"].as_array().unwrap();
        assert_eq!(found.len(), want.len(), "{source}: {found:#?}");
        for t in want {
            let app = s(&o[source]["app"]);
            let p = titled(&all, &format!("{app} thumbnail {}", s(&t["key"])));
            assert_eq!(p.category, "web");
            for k in ["path", "key", "size"] {
                assert!(has_fact(p, &s(&t[k])), "{source} {k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(&t["modified"])], "{p:#?}");
        }
        // other browsers' thumbnails of the same layout: neither read nor noted
        if let Some(other) = o[source]["other"].as_str() {
            assert!(
                !all.iter()
                    .filter(|p| p.title.contains("thumbnail"))
                    .any(|p| p.verified_facts.iter().any(|f| f.value == other)),
                "{source}: {other}"
            );
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.contains("mozac_browser_thumbnails")),
                "{:#?}",
                run.unparsed(source)
            );
        }
    }

    // the catalogue's detectors find the reads
    let entry = masf_plugins::android::AndroidPlugin
        .expected_artefacts()
        .into_iter()
        .find(|e| e.name == "Tor Browser page thumbnails")
        .expect("in the catalogue");
    for source in ["a", "b"] {
        assert!(
            run.outputs(source)
                .iter()
                .any(|(_, a, _)| entry.detector.iter().any(|d| a.contains(d.as_str()))),
            "{source}: {:?}",
            entry.detector
        );
    }
}
