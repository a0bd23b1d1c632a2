//! RAR's preferences (`android::rarprefs`) on two Android phones and a third tree, written by
//! `tests/fixtures/rarprefs/rarprefs.py` (the keys ALEAPP's rarlabPreferences reads). The
//! generator's record is the oracle: every archive and extraction folder of the histories, each
//! cited as the file writes it (org.json's `\/`, XML-escaped `&`) or as written elsewhere in the
//! file, with its preference; the other preferences with their values; phone B's file without
//! an extraction history read; a malformed file and a history that is not JSON noted, the
//! settings beside the latter still read.

use crate::android_support::{generate, has_fact, titled, triage};

/// The forms a path of a history can have in `read_xml`'s output: as it is, or as org.json
/// writes it (`/` escaped) and Android's serializer escapes it.
fn forms(path: &str) -> Vec<String> {
    let json = serde_json::to_string(path).unwrap();
    let inner = &json[1..json.len() - 1];
    let xml = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    vec![
        path.to_string(),
        xml(inner),
        xml(&inner.replace('/', "\\/")),
    ]
}

#[test]
fn rarprefs_archive_and_folder_histories_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/rarprefs/rarprefs.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Madrid", Some("ES")),
        ("b", &b, "Europe/Vienna", Some("AT")),
        ("c", &c, "Europe/Vienna", Some("AT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        for (list, prefix, key) in [
            ("archives", "RAR archive in history: ", "ArcHistory"),
            (
                "folders",
                "RAR extraction folder in history: ",
                "ExtrPathHistory",
            ),
        ] {
            let expected = o[list].as_array().unwrap();
            let found: Vec<_> = all.iter().filter(|p| p.title.starts_with(prefix)).collect();
            assert_eq!(found.len(), expected.len(), "{found:#?}");
            for (i, path) in expected.iter().enumerate() {
                let path = path.as_str().unwrap();
                let p = titled(&all, &format!("{prefix}{path}"));
                assert_eq!(p.category, "files");
                assert!(forms(path).iter().any(|f| has_fact(p, f)), "{path}: {p:#?}");
                assert!(has_fact(p, key), "{p:#?}");
                assert!(p.times.is_empty(), "a history keeps no time: {p:#?}");
                assert!(
                    p.interpretation
                        .contains(&format!("entry {} of {}", i + 1, expected.len())),
                    "{}",
                    p.interpretation
                );
            }
        }
        let settings = titled(&all, "RAR settings");
        assert_eq!(settings.category, "apps");
        for kv in o["settings"].as_array().unwrap() {
            for v in kv.as_array().unwrap() {
                assert!(
                    has_fact(settings, v.as_str().unwrap()),
                    "{v}: {settings:#?}"
                );
            }
        }
        // the histories are not settings
        assert!(!has_fact(settings, "ArcHistory"), "{settings:#?}");
    }
    // phone A's accented, XML-escaped archive name cited as the file writes it
    let all = run.all_phenomena("a");
    let p = titled(
        &all,
        "RAR archive in history: /storage/emulated/0/Documents/Fotos Café & Bar.zip",
    );
    assert!(
        has_fact(
            p,
            "\\/storage\\/emulated\\/0\\/Documents\\/Fotos Café &amp; Bar.zip"
        ),
        "{p:#?}"
    );
    // phone C: a malformed file; a history that is not JSON, the setting beside it still read
    run.assert_noted(
        "c",
        &[
            (
                "data/com.rarlab.rar/shared_prefs/com.rarlab.rar_preferences.xml",
                "malformed",
            ),
            (
                "user/10/com.rarlab.rar/shared_prefs/com.rarlab.rar_preferences.xml",
                "ArcHistory",
            ),
        ],
    );
    let all = run.all_phenomena("c");
    assert!(!all.iter().any(|p| p.title.starts_with("RAR archive")));
    let settings = titled(&all, "RAR settings");
    for kv in o["c10"]["settings"].as_array().unwrap() {
        for v in kv.as_array().unwrap() {
            assert!(
                has_fact(settings, v.as_str().unwrap()),
                "{v}: {settings:#?}"
            );
        }
    }
}
