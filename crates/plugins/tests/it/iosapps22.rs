//! Kik's groups, account holder, profile data and pending uploads (`ios::kikgroups`), Uber's
//! storagev2 LevelDB (`ios::uberleveldb`) and Spotlight's cached item texts
//! (`ios::spotlightcache`) on three iPhones, written by
//! `tests/fixtures/iosapps22/iosapps22.py` (Python's sqlite3 and plistlib, Google's LevelDB
//! through plyvel, Protocol Buffers in wire format written by hand; the tables, columns, files
//! and members iLEAPP's kikUsersgroups, kikGroupadmins, kikLocaladmin, kikPendingUploads,
//! uberLeveldb and spotlightIndex read, the join tables laid out as plaso's real Kik store has
//! them). The generator's record is the oracle: every (group, user) pair of the join tables with
//! its roles and both rows' names, the account holder (`ZFLAGS` 258) with the groups it holds a
//! role in, the texts at iLEAPP's places of the profile data, every pending upload with its
//! members, start and cached file, every cached file no upload names, every put version of an
//! Uber message with its position, screen and trip values as leveldb_records shows them and
//! its Unix-ms times, every cached Spotlight text with its lines (200 at most) and modification
//! time — each a phenomenon holding those facts and times and nothing more. iPhone A has the
//! current schemas with every field (the account holder's JID, user name and e-mail observed as
//! the device's user); iPhone B Kik 7's schema (entity 6, no group tag, e-mail nor blobs), uploads
//! as a dictionary, an Uber store below `storagev2` written with Apple's `\/` and a CRLF text of
//! another protection class; iPhone C good files beside a cut and a foreign copy of each (noted)
//! and other apps' files of the same names (neither read nor noted). The Kik key and an Uber
//! token are in no tool output.

use crate::android_support::{generate, has_fact, triage};

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// The texts of a JSON array of strings.
fn strings(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

/// Whether a phenomenon is one of these readers' (the Kik reader's own group rows are titled
/// `Kik group <name>`, without a member).
fn ours(title: &str) -> bool {
    (title.starts_with("Kik group ") && title.contains(": "))
        || [
            "Kik local account ",
            "Kik profile data ",
            "Kik pending upload ",
            "Kik upload data cache file ",
            "Uber storagev2 record ",
            "Spotlight cached text ",
        ]
        .iter()
        .any(|p| title.starts_with(p))
}

/// Whether a note is one of these readers' (the Kik reader notes the same databases in its
/// own words).
fn our_note(u: &masf_agents::ArtefactUnparsed) -> bool {
    u.artefact.ends_with("/pending_uploads")
        || u.artefact.contains("/storagev2")
        || u.artefact.contains("/index.spotlightV2/")
        // a Kik store's note is kept once per file: Kik's message reader may give it first
        || u.artefact.ends_with("/kik.sqlite")
}

#[test]
fn iosapps22_kik_groups_uber_leveldb_and_spotlight_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "plyvel",
        "tests/fixtures/iosapps22/iosapps22.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|s| tmp.path().join(s)).collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/Zurich", Some("CH")),
        ("b", &dirs[1], "Europe/Oslo", Some("NO")),
        ("c", &dirs[2], "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let read: Vec<_> = all.iter().filter(|p| ours(&p.title)).collect();
        let want = o[source]["phenomena"].as_array().unwrap();
        assert_eq!(
            read.len(),
            want.len(),
            "{source}: {:#?}",
            read.iter().map(|p| &p.title).collect::<Vec<_>>()
        );
        for w in want {
            let title = w["title"].as_str().unwrap();
            let p = read.iter().find(|p| p.title == title).unwrap_or_else(|| {
                panic!(
                    "{source} {title}: {:#?}",
                    read.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            });
            assert_eq!(p.category, w["category"].as_str().unwrap(), "{title}");
            assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
            let rel = w["path"].as_str().unwrap();
            assert!(
                p.verified_facts.iter().any(|f| f.value.ends_with(rel)),
                "{rel}: {p:#?}"
            );
            let paths = strings(&w["paths"]);
            for rel in &paths {
                assert!(
                    p.verified_facts.iter().any(|f| f.value.ends_with(rel)),
                    "{title}: {rel}: {p:#?}"
                );
            }
            let facts = strings(&w["facts"]);
            for v in &facts {
                assert!(has_fact(p, v), "{title}: {v}: {p:#?}");
            }
            let times = w["times"].as_object().unwrap();
            for (what, v) in times {
                assert_eq!(time_of(p, what), v.as_str(), "{title}: {what}: {p:#?}");
            }
            assert_eq!(p.times.len(), times.len(), "{p:#?}");
            // the path, the other paths, the values and the times: nothing more
            assert_eq!(
                p.verified_facts.len(),
                1 + paths.len() + facts.len() + times.len(),
                "{p:#?}"
            );
            for s in strings(&w["says"]) {
                assert!(
                    p.interpretation.contains(s),
                    "{title}: {s}: {}",
                    p.interpretation
                );
            }
            if title.starts_with("Uber storagev2 record ") {
                assert!(
                    p.times
                        .iter()
                        .all(|t| t.encoding == masf_graph::TimeEncoding::UnixMillis),
                    "{p:#?}"
                );
                assert_eq!(
                    p.interpretation
                        .contains("A later deletion of its key is recorded"),
                    strings(&w["says"]).iter().any(|s| s.contains("deletion")),
                    "{}",
                    p.interpretation
                );
            }
            if title.starts_with("Spotlight cached text ") {
                assert!(
                    p.interpretation.contains("not which app or item"),
                    "{}",
                    p.interpretation
                );
            }
        }

        // the account holder is the device's user; the other users are the Kik reader's persons
        let owner = run.owner(source);
        for id in strings(&o[source]["owner"]) {
            assert!(owner.contains(id), "{source}: {id}: {owner}");
        }
        if strings(&o[source]["owner"]).is_empty() {
            assert!(!owner.contains("talk.kik.com"), "{source}: {owner}");
        }
        let entities = run.entities(source);
        for ctx in strings(&o[source]["persons"]) {
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("{ctx} [Person]"))),
                "{source}: {ctx}: {entities:#?}"
            );
        }
        // group JIDs are no person
        let ids = run.identifiers(source);
        assert!(
            !ids.iter().any(|(_, v)| v.ends_with("@groups.kik.com")),
            "{ids:?}"
        );

        // the notes: exactly those expected of these readers' files
        let notes: Vec<_> = run.unparsed(source).into_iter().filter(our_note).collect();
        let expected: Vec<(&str, &str)> = o[source]["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
            .collect();
        assert_eq!(notes.len(), expected.len(), "{source}: {notes:#?}");
        run.assert_noted(source, &expected);

        // other apps' files of the same names: neither read nor noted
        for rel in strings(&o[source]["not_read"]) {
            assert!(
                !all.iter()
                    .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with(rel))),
                "{rel}"
            );
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.ends_with(rel)),
                "{rel}"
            );
        }

        // the Kik messaging key is never selected, the Uber token is redacted by the tool
        for secret in strings(&o[source]["secrets"]) {
            for q in &all {
                assert!(!q.title.contains(secret) && !q.interpretation.contains(secret));
                assert!(
                    !q.verified_facts.iter().any(|f| f.value.contains(secret)),
                    "{q:#?}"
                );
            }
            for (tool, args, text) in run.outputs(source) {
                if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                    continue;
                }
                assert!(!text.contains(secret), "{secret} in {tool} {args}");
            }
        }
    }
}
