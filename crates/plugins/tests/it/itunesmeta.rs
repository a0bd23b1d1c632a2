//! Apps' store metadata (`ios::itunesmeta`) of two iPhones, written by
//! `tests/fixtures/itunesmeta/itunesmeta.py` (Python's plistlib, the keys iLEAPP's appItunesmeta
//! reads; binary plists on iPhone A, XML on iPhone B). The generator's record is the oracle:
//! every app with each value, its purchase, release and install dates, and the downloading Apple
//! ID and DSID observed as the device owner's; a factory app without an account observes none; a
//! plist whose root is no dictionary is noted.

use masf_graph::TimeEncoding;

use crate::android_support::{has_fact, triage};

#[test]
fn app_store_metadata_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = crate::android_support::generate(
        "",
        "tests/fixtures/itunesmeta/itunesmeta.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let apps: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("App from the App Store: "))
            .collect();
        let expected = o[source].as_array().unwrap();
        assert_eq!(apps.len(), expected.len(), "{source}: {apps:#?}");
        let ids = run.identifiers(source);
        for e in expected {
            let title = format!(
                "App from the App Store: {}",
                e["itemName"].as_str().unwrap()
            );
            let p = apps.iter().find(|p| p.title == title).unwrap();
            assert_eq!(p.category, "apps");
            for k in [
                "softwareVersionBundleId",
                "artistName",
                "bundleShortVersionString",
                "genre",
                "sourceApp",
                "variantID",
                "itemId",
                "isFactoryInstall",
            ] {
                if let Some(v) = e.get(k) {
                    let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let times: Vec<(&str, &str)> = p
                .times
                .iter()
                .map(|m| {
                    (
                        m.description.as_str(),
                        p.verified_facts[m.fact].value.as_str(),
                    )
                })
                .collect();
            assert!(p.times.iter().all(|m| m.encoding == TimeEncoding::Iso8601));
            for (k, what) in [("purchase", "App purchased"), ("install", "App installed")] {
                match e[k].as_str() {
                    Some(t) => assert!(times.contains(&(what, t)), "{what}: {times:?}"),
                    None => assert!(!times.iter().any(|(w, _)| *w == what)),
                }
            }
            if let Some(apple_id) = e["apple_id"].as_str() {
                assert!(has_fact(p, apple_id));
                assert!(
                    ids.iter().any(|(t, v)| t == "apple_id" && v == apple_id),
                    "{ids:?}"
                );
                let dsid = e["dsid"].to_string();
                assert!(
                    ids.iter().any(|(t, v)| t == "dsid" && *v == dsid),
                    "{ids:?}"
                );
            }
        }
        if source == "b" {
            assert!(!ids.iter().any(|(t, _)| t == "apple_id"), "{ids:?}");
        }
    }
    run.assert_noted(
        "b",
        &[(
            "12345678-0000-4000-8000-000000000000/iTunesMetadata.plist",
            "no dictionary",
        )],
    );
}
