//! Google Photos for Android (`android::googlephotos`) on two phones and a third tree, written
//! by `tests/fixtures/googlephotos/googlephotos.py` (Python's sqlite3: `gphotos0.db` with its
//! media tables, backup folders and shared albums, `local_trash.db` with a trash file,
//! `disk_cache`, as ALEAPP's googlePhotos reads them, and the shared-album tables). The
//! generator's record is the oracle: every local, cloud and shared item with its fields, the
//! offset in minutes, the phone-clock capture time only where the row shows it, its times; the
//! backup folder holding indexed files; every shared album, member (a `gphotos:<actor id>`
//! person, with the e-mail and phone an older layout keeps) and comment; every trashed item, the
//! trash file where it is still there; every cache entry; phone B's older tables read with what
//! they hold; tree C's cut and foreign copies noted, a good store read, another app's files of
//! the generic names neither read nor noted; no album auth key or sync token in any output.

use crate::android_support::{generate, has_fact, has_path, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

/// Each `{title, facts, times}` of `rows` is a phenomenon of `all` holding every fact and
/// exactly the times; and there are no more phenomena titled `prefix…`.
fn check(all: &[masf_graph::Phenomenon], rows: &serde_json::Value, prefix: &str, source: &str) {
    let rows = rows.as_array().unwrap();
    for r in rows {
        let p = titled(all, s(r, "title").unwrap());
        for v in r["facts"].as_array().unwrap() {
            let v = v.as_str().unwrap();
            assert!(has_fact(p, v), "{source} {v}: {p:#?}");
        }
        if let Some(times) = r.get("times").and_then(|t| t.as_array()) {
            let times: Vec<String> = times
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            assert_eq!(time_values(p), times, "{source}: {p:#?}");
        }
    }
    let found = all
        .iter()
        .filter(|p| p.category != "identity" && p.title.starts_with(prefix))
        .count();
    assert_eq!(found, rows.len(), "{source} {prefix}");
}

#[test]
fn google_photos_media_albums_trash_and_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/googlephotos/googlephotos.py",
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
        ("b", &b, "America/New_York", Some("US")),
        ("c", &c, "Europe/Amsterdam", Some("NL")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let want = &o[source];
        let all = run.all_phenomena(source);

        // local items: every field; the phone-clock capture time only where the row shows it
        check(&all, &want["local"], "Google Photos local item ", source);
        for r in want["local"].as_array().unwrap() {
            let p = titled(&all, s(r, "title").unwrap());
            assert_eq!(p.category, "media");
            match s(r, "capture_local") {
                Some(v) => assert!(has_fact(p, v), "{v}: {p:#?}"),
                None => assert!(
                    !p.verified_facts
                        .iter()
                        .any(|f| f.value.len() == 19 && f.value.starts_with("20")),
                    "{p:#?}"
                ),
            }
        }
        check(&all, &want["remote"], "Google Photos cloud item ", source);
        check(&all, &want["shared"], "Google Photos shared item ", source);
        check(
            &all,
            &want["folders"],
            "Google Photos backup folder ",
            source,
        );
        check(&all, &want["albums"], "Google Photos shared album ", source);
        check(
            &all,
            &want["members"],
            "Google Photos sharing member ",
            source,
        );
        check(&all, &want["comments"], "Google Photos comment by ", source);
        check(&all, &want["trash"], "Google Photos trashed item ", source);
        check(&all, &want["cache"], "Google Photos cache entry ", source);

        // the trash file still in the folder
        for r in want["trash"].as_array().unwrap() {
            let p = titled(&all, s(r, "title").unwrap());
            match s(r, "kept") {
                Some(kept) => assert!(has_path(p, kept), "{kept}: {p:#?}"),
                None => assert!(!has_path(p, "/files/trash_files/"), "{p:#?}"),
            }
        }

        // the members as persons, with the e-mail or phone the older layout keeps
        let entities = run.entities(source);
        for m in want["members"].as_array().unwrap() {
            let person = s(m, "person").unwrap();
            let e = entities
                .iter()
                .find(|e| e.starts_with(&format!("{person} ")))
                .unwrap_or_else(|| panic!("{person}: {entities:#?}"));
            assert!(e.contains(&format!("account_id={person}")), "{e}");
            assert!(e.contains(s(m, "name").unwrap()), "{e}");
            for k in ["email", "phone"] {
                if let Some(v) = s(m, k) {
                    assert!(e.contains(v), "{k}={v}: {e}");
                }
            }
        }
        // no member is said to be the device's user
        assert!(
            !run.owner(source).contains("gphotos:"),
            "{}",
            run.owner(source)
        );

        // never an album's auth key or sync token, in a phenomenon or in any output logged
        let secrets: Vec<&str> = want["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            for x in &secrets {
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
        }
    }

    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "Google Photos stores")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }

    // tree C
    let want = &o["c"];
    let noted: Vec<(&str, &str)> = want["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    let all = run.all_phenomena("c");
    for r in want["local"].as_array().unwrap() {
        let p = titled(&all, s(r, "title").unwrap());
        for v in r["facts"].as_array().unwrap() {
            assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
        }
    }
    for rel in want["not_read"].as_array().unwrap() {
        let rel = rel.as_str().unwrap();
        assert!(
            !run.unparsed("c").iter().any(|u| u.artefact.ends_with(rel)),
            "{rel}: {:#?}",
            run.unparsed("c")
        );
        assert!(
            !run.outputs("c").iter().any(|(tool, args, _)| matches!(
                tool.as_str(),
                "sqlite_query" | "sqlite_tables"
            ) && args.contains(rel)),
            "{rel} read"
        );
    }
    for v in want["foreign_values"].as_array().unwrap() {
        let v = v.as_str().unwrap();
        assert!(
            !run.outputs("c").iter().any(|(_, _, text)| text.contains(v)),
            "{v}"
        );
    }
}
