//! The Photos library's sharing records (`ios::photossharing`) on three iPhones, written by
//! `tests/fixtures/iosapps20/iosapps20.py` (Python's sqlite3; participants' names as archived
//! `NSPersonNameComponents` by plistlib). The generator's rows are the oracle: every Shared with
//! You conversation album and syndicated asset, every iCloud share (the Shared Photo Library,
//! links received and sent), every participant, every Shared Library asset with its contributor
//! and who trashed it, every link asset with its link — each field as `sqlite_query` prints it,
//! the Core Data times as time marks. iPhone A has the iOS 18 layout (`Z61_SHARE`,
//! `ZORIGINALSTABLEHASH`, names) and a Shared with You library; iPhone B the iOS 16 one
//! (`Z54_SHARE`, `ZMASTERFINGERPRINT`, no names); iPhone C a good library beside a cut copy, a
//! library whose album table lacks `ZKIND` and a foreign `Photos.sqlite` (each noted), and
//! another app's `Photos.sqlite` neither read nor noted. Participants marked as the current user
//! are the owner; the others, and the conversations named by a phone number or e-mail address,
//! are persons of their own; a group chat id is no identity; the CloudKit share record's key is
//! in no output.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

const KINDS: [&str; 6] = [
    "conversations",
    "syndicated",
    "shares",
    "participants",
    "library_assets",
    "link_assets",
];

/// Which of the reader's phenomena a title is.
fn kind_of(title: &str) -> Option<&'static str> {
    Some(if title.starts_with("Shared with You conversation ") {
        "conversations"
    } else if title.starts_with("Shared with You asset ") {
        "syndicated"
    } else if title.starts_with("iCloud share participant ") {
        "participants"
    } else if title.starts_with("iCloud Shared Library asset ") {
        "library_assets"
    } else if title.starts_with("iCloud link asset ") {
        "link_assets"
    } else if title.starts_with("iCloud Shared Photo Library ")
        || title.starts_with("iCloud link ")
        || title.starts_with("iCloud photo share ")
    {
        "shares"
    } else {
        return None;
    })
}

fn strs(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn iosapps20_photos_sharing_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps20/iosapps20.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|s| tmp.path().join(s)).collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/Zurich", Some("CH")),
        ("b", &dirs[1], "Europe/Zurich", Some("CH")),
        ("c", &dirs[2], "Europe/Berlin", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c"] {
        let want = &o[source];
        let all = run.all_phenomena(source);
        let mine: Vec<_> = all.iter().filter(|p| kind_of(&p.title).is_some()).collect();
        for kind in KINDS {
            let rows = want[kind].as_array().unwrap();
            let found: Vec<_> = mine
                .iter()
                .filter(|p| kind_of(&p.title) == Some(kind))
                .collect();
            assert_eq!(
                found.len(),
                rows.len(),
                "{source} {kind}: {:#?}",
                found.iter().map(|p| &p.title).collect::<Vec<_>>()
            );
            for r in rows {
                let title = r["title"].as_str().unwrap();
                let p = titled(&all, title);
                assert_eq!(p.category, r["category"].as_str().unwrap(), "{title}");
                for v in strs(&r["facts"]) {
                    assert!(has_fact(p, v), "{source} {title}: {v}: {p:#?}");
                }
                let times: Vec<String> =
                    strs(&r["times"]).into_iter().map(str::to_string).collect();
                assert_eq!(time_values(p), times, "{source} {title}: {p:#?}");
                assert!(
                    p.times
                        .iter()
                        .all(|t| t.encoding == masf_graph::TimeEncoding::AppleSeconds),
                    "{p:#?}"
                );
            }
        }
        // what is no sharing record is not recorded as one
        for v in strs(&want["absent"]) {
            assert!(
                !mine
                    .iter()
                    .any(|p| p.title.contains(v)
                        || p.verified_facts.iter().any(|f| f.value.contains(v))),
                "{source}: {v}"
            );
        }

        // identities: the current user's ids are the owner's, every other participant and
        // conversation partner a person of their own
        let owner = run.owner(source);
        let ow = &want["owner"];
        for k in ["email", "phone", "account"] {
            if let Some(v) = ow[k].as_str() {
                assert!(owner.contains(v), "{source} {k} {v}: {owner}");
            }
        }
        let entities = run.entities(source);
        let owner_mail = ow["email"].as_str().unwrap();
        for e in entities.iter().filter(|e| !e.starts_with("owner [")) {
            assert!(!e.contains(owner_mail), "{source}: {e}");
        }
        for person in want["persons"].as_array().unwrap() {
            let context = person["context"].as_str().unwrap();
            let e = entities
                .iter()
                .find(|e| e.starts_with(&format!("{context} [")))
                .unwrap_or_else(|| panic!("{source} {context}: {entities:#?}"));
            for v in strs(&person["ids"]) {
                assert!(e.contains(v), "{source} {v}: {e}");
            }
            assert!(!owner.contains(strs(&person["ids"])[0]), "{owner}");
        }
        let ids = run.identifiers(source);
        for v in strs(&want["not_identities"]) {
            assert!(!ids.iter().any(|(_, n)| n.contains(v)), "{v}: {ids:?}");
        }

        // never the CloudKit share record (its key), in an output or a phenomenon
        let secrets = strs(&want["secrets"]);
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            for x in &secrets {
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
        }
        for p in &all {
            for x in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{x}: {p:#?}"
                );
            }
        }
    }

    // the readings the interpretations give
    let a = run.all_phenomena("a");
    let sent = titled(
        &a,
        "Shared with You asset 3: syndication/3/0/F0E1D2C3-0003-4455-6677-8899AABB0003.HEIC",
    );
    assert!(sent.interpretation.contains("sent by the device's user"));
    assert!(sent.interpretation.contains("chat482913557201"));
    let lena = titled(
        &a,
        "iCloud Shared Library asset 2: DCIM/102APPLE/IMG_0202.HEIC",
    );
    assert!(
        lena.interpretation
            .contains("added by another participant, Lena Brunner"),
        "{}",
        lena.interpretation
    );
    let own = titled(
        &a,
        "iCloud Shared Library asset 1: DCIM/102APPLE/IMG_0201.HEIC",
    );
    assert!(own.interpretation.contains("added by the device's user"));
    let me = titled(&a, "iCloud share participant Nora Keller (share 1)");
    assert!(
        me.interpretation
            .contains("the device's user (ZISCURRENTUSER 1)")
    );

    // no note on A's and B's libraries; C's cut, drifted and foreign copies noted, the other
    // app's file neither read nor noted, the good library read all the same
    for source in ["a", "b"] {
        let notes: Vec<_> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| u.artefact.ends_with("Photos.sqlite"))
            .collect();
        assert!(notes.is_empty(), "{source}: {notes:#?}");
    }
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    let notes = run.unparsed("c");
    for v in strs(&o["c"]["not_noted"]) {
        assert!(
            !notes.iter().any(|u| u.artefact.ends_with(v)),
            "{v}: {notes:#?}"
        );
    }
}
