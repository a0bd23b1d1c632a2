//! The ColorOS / OxygenOS Smart Sidebar's File Dock (`android::smartsidebar`) on two phones and a
//! third tree, written by `tests/fixtures/smartsidebar/smartsidebar.py` (Python's sqlite3, a JPEG
//! by ImageMagick and plain files, as ALEAPP's smartSidebarFileDock and smartSidebarFileDockDb
//! read them). The generator's record is the oracle: every row of `transfer_dock_file_info` and
//! `transfer_dock_deleted_file_info` with every column (the text and link members taken out of
//! their JSON in the query, added and updated in Unix ms), phone B's older table read with what
//! it has; every cached copy on the shared storage with its folder, size and modified time, a
//! drag's package, view and capture time, a text selection's whole text and a link's members
//! with the time in their names; phone C's truncated store and store of another layout noted,
//! another app's `smartSidebar.db` neither read nor noted, a `.link` that is no JSON noted with
//! its copy still recorded.

use masf_agents::Plugin;

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn smartsidebar_file_dock_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/smartsidebar/smartsidebar.py",
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
        ("b", &b, "Europe/Amsterdam", Some("NL")),
        ("c", &c, "Europe/Amsterdam", Some("NL")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);

        // the database's rows: every column, both times
        let rows = o[source]["rows"].as_array().cloned().unwrap_or_default();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Smart Sidebar dock item "))
            .collect();
        assert_eq!(found.len(), rows.len(), "{source}: {found:#?}");
        for r in &rows {
            let p = titled(&all, s(r, "title").unwrap());
            assert_eq!(p.category, "files");
            for k in [
                "kind",
                "file_type",
                "mime",
                "content",
                "complete",
                "file_name",
                "source",
                "link",
                "link_title",
                "link_subtitle",
                "link_image",
                "size",
                "md5",
                "status",
                "local_path",
                "local_file_id",
                "group_uuid",
                "media_store_uri",
                "user_id",
            ] {
                if let Some(v) = s(r, k) {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            let mut times = vec![
                s(r, "created").unwrap().to_string(),
                s(r, "updated").unwrap().to_string(),
            ];
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }

        // the cached copies on the shared storage
        let copies = o[source]["copies"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Smart Sidebar dock")
                    && !p.title.starts_with("Smart Sidebar dock item ")
            })
            .collect();
        assert_eq!(found.len(), copies.len(), "{source}: {found:#?}");
        for f in copies {
            let path = s(f, "path").unwrap();
            let p = found
                .iter()
                .find(|p| has_fact(p, path))
                .unwrap_or_else(|| panic!("{path}: {found:#?}"));
            assert_eq!(p.category, "files");
            for k in [
                "name",
                "folder",
                "size",
                "package",
                "view",
                "captured",
                "text",
                "link",
                "link_title",
                "link_subtitle",
                "link_image",
            ] {
                if let Some(v) = s(f, k) {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            let name = s(f, "name").unwrap();
            match s(f, "kind").unwrap() {
                "drag" => assert_eq!(
                    p.title,
                    format!(
                        "Smart Sidebar dock: {name} (dragged from {})",
                        s(f, "package").unwrap()
                    )
                ),
                "file" => assert_eq!(p.title, format!("Smart Sidebar dock file: {name}")),
                "link" => assert!(p.title.starts_with("Smart Sidebar dock link: "), "{p:#?}"),
                _ => assert!(p.title.starts_with("Smart Sidebar dock text: "), "{p:#?}"),
            }
            // the time in a text's or link's name, and the listing's modified time
            let mut times: Vec<String> = s(f, "ms").map(str::to_string).into_iter().collect();
            times.push(s(f, "modified").unwrap().to_string());
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
    }
    // phone C: the truncated store, the store of another layout and the .link that is no JSON
    // noted; another app's smartSidebar.db neither read nor noted
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    let other = o["c"]["other"].as_str().unwrap();
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.ends_with(other)),
        "{:#?}",
        run.unparsed("c")
    );
    assert!(
        !run.outputs("c")
            .iter()
            .any(|(tool, args, _)| tool == "sqlite_query" && args.contains(other)),
    );
    // phones A and B: nothing noted
    for source in ["a", "b"] {
        assert!(
            !run.unparsed(source)
                .iter()
                .any(|u| u.artefact.contains("smartsidebar") || u.artefact.contains("smartSidebar")),
            "{:#?}",
            run.unparsed(source)
        );
    }

    // the catalogue's detectors find the reads
    let entry = masf_plugins::android::AndroidPlugin
        .expected_artefacts()
        .into_iter()
        .find(|e| e.name == "Smart Sidebar File Dock (smartSidebar.db, transferdock)")
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
