//! BitTorrent for Android's preferences and download histories (`android::bittorrentapp`) on two
//! phones and a third tree, written by `tests/fixtures/bittorrentapp/bittorrentapp.py` (the
//! histories bencoded by libtorrent itself). The generator's record is the oracle: every entry of
//! each `dlhistory*.config` and its `.bak` (name, path saved to, any other member, the time in
//! Unix ms), µTorrent's history on phone B with a member more and an entry without a path, the
//! preferences with every value and `BornOn` marked; a token kept in the preferences in no
//! output; phone C's cut history, history of another layout and malformed preferences noted.

use masf_agents::Plugin;

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn bittorrent_preferences_and_download_history_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "libtorrent",
        "tests/fixtures/bittorrentapp/bittorrentapp.py",
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
        let want = &o[source];
        let all = run.all_phenomena(source);
        let app = s(want, "app").unwrap();

        // every entry of every history, the .bak's too
        let entries = want["entries"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with(&format!("{app} download: ")))
            .collect();
        assert_eq!(found.len(), entries.len(), "{source}: {found:#?}");
        for e in entries {
            let p = titled(
                &all,
                &format!(
                    "{app} download: {} ({})",
                    s(e, "n").unwrap(),
                    s(e, "file").unwrap()
                ),
            );
            assert_eq!(p.category, "files");
            assert!(has_fact(p, s(e, "path").unwrap()), "{p:#?}");
            for k in ["n", "s", "z"] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(e, "a").unwrap().to_string()]);
        }

        // the preferences: every value, BornOn marked where there is one
        let prefs = &want["prefs"];
        let p = titled(&all, "BitTorrent settings");
        assert_eq!(p.category, "apps");
        assert!(has_fact(p, s(prefs, "path").unwrap()), "{p:#?}");
        for kv in prefs["values"].as_array().unwrap() {
            for x in kv.as_array().unwrap() {
                assert!(has_fact(p, x.as_str().unwrap()), "{x}: {p:#?}");
            }
        }
        match s(prefs, "born") {
            Some(born) => assert_eq!(time_values(p), vec![born.to_string()]),
            None => assert!(p.times.is_empty(), "{p:#?}"),
        }
        if let Some(r) = s(want, "redacted") {
            assert!(!has_fact(p, r), "{p:#?}");
            assert!(p.interpretation.contains(r), "{}", p.interpretation);
        }

        // the token kept in the preferences: in no reading tool's output, in no fact
        for x in want["secrets"].as_array().unwrap() {
            let x = x.as_str().unwrap();
            for (tool, args, text) in run.outputs(source) {
                if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                    continue;
                }
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
            for p in &all {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{x}: {p:#?}"
                );
            }
        }
    }
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.contains(" download: ") || p.title == "BitTorrent settings"),
    );

    // the catalogue's detectors find the reads
    let entry = masf_plugins::android::AndroidPlugin
        .expected_artefacts()
        .into_iter()
        .find(|e| e.name == "BitTorrent download history and preferences")
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
