//! Container ownership (`ios::containers`, with the Secret Calculator vault's hidden items),
//! CacheDelete's purge history (`ios::purgehistory`), containermanagerd's logs
//! (`ios::containerlogs`) and the App Store's and timed's time-zone preferences
//! (`ios::appstoretz`) on two iPhones and a tree of damaged and foreign copies, written by
//! `tests/fixtures/iosapps10/iosapps10.py` (Python's plistlib and sqlite3, text files; the files,
//! keys, tables and lines iLEAPP's appGrouplisting, secretCalculator, cacheDeletePurgeHistory,
//! mobileContainerManager, timezoneInfo and timezoneSet read). The generator's record is the
//! oracle: every app data, app group and extension container with its owner and metadata
//! (iPhone B's older XML layout without the version, data-protection and user-identity members,
//! one without MCMMetadataUUID), the vault app flagged, each hidden item with its date, video flag
//! and album (iPhone B's older store without `video` nor `Albums`), a system container not read;
//! every purge with its time as written (with and without the `P`; a line short of its
//! duration), target, urgency, bytes and seconds; every container removal of the logs with its
//! time as written (a space-padded day on B), group or app, path; each App Store preferences file
//! with its zone and bootstrap time (Cocoa seconds on A, a plist date on B) and other
//! preferences; each timezoneset. Tree C: a good container read beside a cut metadata plist, one
//! that is an array, one without MCMMetadataIdentifier, a cut vault store and one with no Photos
//! table, a purge history of prose and a sysdiagnose copy with a stray line, a compressed log
//! rotation, an App Store plist that is an array, a Date & Time plist without timezoneset and a
//! cut one: each noted, the rest read.

use masf_graph::TimeEncoding;

use crate::android_support::{generate, has_fact, titled, triage};

/// The value and encoding of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<(&'a str, TimeEncoding)> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| (p.verified_facts[m.fact].value.as_str(), m.encoding))
}

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

/// The artefacts these readers note (by the end of their path).
fn ours(artefact: &str) -> bool {
    [
        ".com.apple.mobile_container_manager.metadata.plist",
        "/data.sqlite",
        "CacheDeletePurgeHistory.txt",
        "com.apple.AppStore.plist",
        "com.apple.preferences.datetime.plist",
    ]
    .iter()
    .any(|e| artefact.ends_with(e))
        || artefact.contains("containermanagerd")
}

#[test]
fn iosapps10_containers_purges_container_logs_and_time_zones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps10/iosapps10.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "America/New_York", Some("US")),
        ("c", &c, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let want = &o[source];

        // one phenomenon per container of the three kinds, its owner and metadata
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.contains(" container ") && p.title.contains(" belongs to "))
            .collect();
        let rows = want["containers"].as_array().unwrap();
        assert_eq!(found.len(), rows.len(), "{source}: {found:#?}");
        for r in rows {
            let vault = r["vault"].as_bool().unwrap();
            let title = format!(
                "{} container {} belongs to {}{}",
                s(&r["kind"]),
                s(&r["guid"]),
                s(&r["bundle"]),
                if vault {
                    " (vault app: Secret Calculator Photo Album)"
                } else {
                    ""
                }
            );
            let p = titled(&all, &title);
            assert_eq!(p.category, "apps");
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            assert!(has_fact(p, s(&r["guid"])), "{p:#?}");
            assert!(has_fact(p, s(&r["bundle"])), "{p:#?}");
            assert!(
                p.verified_facts
                    .iter()
                    .any(|f| f.value.ends_with(s(&r["dir"]))),
                "{p:#?}"
            );
            for v in r["values"].as_array().unwrap() {
                assert!(has_fact(p, s(v)), "{v}: {p:#?}");
            }
            assert_eq!(
                p.interpretation.contains("hides photos and videos"),
                vault,
                "{}",
                p.interpretation
            );
        }
        for b in want["not_read"].as_array().unwrap() {
            assert!(!all.iter().any(|p| p.title.contains(s(b))), "{b}");
        }

        // the vault's hidden items
        let items: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Secret Calculator Photo Album hidden "))
            .collect();
        let rows = want["vault"].as_array().unwrap();
        assert_eq!(items.len(), rows.len(), "{source}: {items:#?}");
        for r in rows {
            let what = match r["video"].as_i64() {
                Some(1) => "video",
                Some(_) => "photo",
                None => "item",
            };
            let p = titled(
                &all,
                &format!(
                    "Secret Calculator Photo Album hidden {what} {}",
                    s(&r["path"])
                ),
            );
            assert_eq!(p.category, "media");
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            assert_eq!(
                time_of(p, "Secret Calculator Photo Album item date"),
                Some((r["date"].to_string().as_str(), TimeEncoding::UnixSeconds)),
                "{p:#?}"
            );
            if let Some(v) = r["video"].as_i64() {
                assert!(has_fact(p, &v.to_string()), "{p:#?}");
            }
            match r["album"].as_str() {
                Some(album) => {
                    assert!(has_fact(p, album), "{p:#?}");
                    assert_eq!(
                        time_of(p, "Secret Calculator Photo Album album date"),
                        Some((
                            r["album_date"].to_string().as_str(),
                            TimeEncoding::UnixSeconds
                        ))
                    );
                }
                None => {
                    assert!(time_of(p, "Secret Calculator Photo Album album date").is_none());
                    assert!(!p.interpretation.contains("; album "), "{p:#?}");
                }
            }
        }

        // CacheDelete purges
        let purges: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("CacheDelete purge of "))
            .collect();
        let rows = want["purges"].as_array().unwrap();
        assert_eq!(purges.len(), rows.len(), "{source}: {purges:#?}");
        for r in rows {
            let time = s(&r["time"]);
            let p = titled(
                &all,
                &format!("CacheDelete purge of {} at {time}", s(&r["target"])),
            );
            assert_eq!(p.category, "device");
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            assert_eq!(
                time_of(p, "CacheDelete purge"),
                Some((time, TimeEncoding::LocalText))
            );
            for k in ["target", "urgency", "available", "purged", "duration"] {
                if let Some(v) = r[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            if r["duration"].is_null() {
                assert!(
                    p.interpretation.contains("in ? seconds"),
                    "{}",
                    p.interpretation
                );
            }
            let word = match s(&r["urgency"]) {
                "1" => "(routine)",
                "3" => "(critical)",
                _ => "(not documented)",
            };
            assert!(p.interpretation.contains(word), "{}", p.interpretation);
        }

        // containermanagerd's removals
        let events: Vec<_> = all
            .iter()
            .filter(|p| p.title.ends_with("(containermanagerd log)"))
            .collect();
        let rows = want["events"].as_array().unwrap();
        assert_eq!(events.len(), rows.len(), "{source}: {events:#?}");
        for e in rows {
            let owner = s(&e["bundle"]);
            let title = match s(&e["what"]) {
                "Group container removed" => {
                    format!("Group container {owner} removed (containermanagerd log)")
                }
                "Group container queued for deletion" => format!(
                    "Group container {owner} queued for deletion after {} removed (containermanagerd log)",
                    s(&e["app"])
                ),
                "Container deleted" => {
                    format!("Container deleted: {owner} (containermanagerd log)")
                }
                _ => format!("Group container last reference: {owner} (containermanagerd log)"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "apps");
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            assert_eq!(
                time_of(p, "Container removal (containermanagerd log)"),
                Some((s(&e["time"]), TimeEncoding::LocalText))
            );
            assert!(has_fact(p, owner), "{p:#?}");
            for k in ["app", "path"] {
                if let Some(v) = e.get(k).and_then(|v| v.as_str()) {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
        }

        // the App Store's bootstrap time zone and timed's timezoneset
        let stores: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("App Store "))
            .collect();
        let rows = want["appstore"].as_array().unwrap();
        assert_eq!(stores.len(), rows.len(), "{source}: {stores:#?}");
        for r in rows {
            let p = titled(
                &all,
                &format!("App Store last bootstrap time zone {}", s(&r["zone"])),
            );
            assert_eq!(p.category, "device");
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            let date = s(&r["date"]);
            let encoding = if date.contains('T') {
                TimeEncoding::Iso8601
            } else {
                TimeEncoding::AppleSeconds
            };
            assert_eq!(
                time_of(p, "App Store last bootstrap"),
                Some((date, encoding))
            );
            for v in r["others"].as_array().unwrap() {
                assert!(has_fact(p, s(v)), "{v}: {p:#?}");
            }
        }
        let timed: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Date & Time preference timezoneset "))
            .collect();
        let rows = want["timed"].as_array().unwrap();
        assert_eq!(timed.len(), rows.len(), "{source}: {timed:#?}");
        for v in rows {
            let p = titled(
                &all,
                &format!("Date & Time preference timezoneset {}", s(v)),
            );
            assert_eq!(p.category, "device");
            assert!(has_fact(p, s(v)), "{p:#?}");
        }

        // what is noted: tree C's copies, and nothing of these readers on the iPhones
        let noted: Vec<(&str, &str)> = want["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (s(&n[0]), s(&n[1])))
            .collect();
        run.assert_noted(source, &noted);
        let unparsed: Vec<_> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| ours(&u.artefact))
            .collect();
        assert_eq!(unparsed.len(), noted.len(), "{source}: {unparsed:#?}");

        // an app, a group, a purge or a log line names no one
        let ids = run.identifiers(source);
        for r in want["containers"].as_array().unwrap() {
            assert!(
                !ids.iter().any(|(_, n)| n.contains(s(&r["bundle"]))),
                "{ids:?}"
            );
        }
    }
}
