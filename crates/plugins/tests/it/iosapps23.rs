//! Google Maps' on-device location history (`ios::googlemapsios`, read by `android::odlh`'s
//! reader), CommCenter's SIM data (`ios::siminfo`) and the Photos library's migration history
//! (`ios::photosmigration`) on three iPhones, written by `tests/fixtures/iosapps23/iosapps23.py`
//! (Python's sqlite3 and plistlib, Protocol Buffers in wire format written by hand; the files,
//! tables, columns and keys iLEAPP's googleMaps, simInfo and photosMigration read). The
//! generator's record is the oracle: every Timeline segment with its start, end and record time,
//! type, flags, level, id, the obfuscated account id and, where its message holds one, the
//! place's stored coordinates (read as signed degrees in the interpretation, a place west of
//! Greenwich on iPhone B), every edited segment with its block; a store of another Google app's
//! container read as Google's location library's, its owner named; every SIM of CommCenter's
//! wallet with each value it keeps, its label and slot, every label with the SIMs carrying it,
//! every personality slot; every Photos migration with its build, the release the build number
//! names, its type and meaning and time — each a phenomenon holding those facts and times. The
//! SIMs' ICCIDs and IMSI are the device's, their numbers the owner's. iPhone A has every field;
//! iPhone B older layouts (no record time, finalised flag nor edited table; a SIM keyed by no
//! ICCID with a plist date, slots as an array; a migration table without the later columns, a
//! library without the table: nothing, no note); iPhone C good files beside cut and foreign
//! copies (noted) and files of the same names out of place (neither read nor noted). The
//! migration table's global key values BLOB is counted, never printed.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// The texts of an oracle array.
fn strs(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

/// Whether a note is one of these readers' (other readers note the same cut files in their
/// own words: those are not counted).
fn our_note(u: &masf_agents::ArtefactUnparsed) -> bool {
    u.reason.contains("odlh-storage.db")
        || u.reason.contains("on-device location history")
        || u.reason.contains("CommCenter's SIM data")
        || u.reason.contains("migration history")
}

#[test]
fn iosapps23_google_maps_timeline_sim_info_and_photos_migrations_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps23/iosapps23.py",
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
        let want = &o[source];
        let all = run.all_phenomena(source);
        let titles: Vec<&str> = all.iter().map(|p| p.title.as_str()).collect();

        // as many phenomena of each kind as the oracle has rows, none more
        for (prefix, n) in want["counts"].as_object().unwrap() {
            let found = all
                .iter()
                .filter(|p| p.title.starts_with(prefix.as_str()))
                .count();
            assert_eq!(
                found as u64,
                n.as_u64().unwrap(),
                "{source} {prefix}: {titles:#?}"
            );
        }

        // every row: its title, category, every field as a fact, its times, its words
        for e in want["phen"].as_array().unwrap() {
            let title = e["title"].as_str().unwrap();
            let p = titled(&all, title);
            assert_eq!(p.category, e["category"].as_str().unwrap(), "{title}");
            assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
            for f in strs(&e["facts"]) {
                assert!(has_fact(p, f), "{source} {title}: {f}: {p:#?}");
            }
            let times: Vec<String> = strs(&e["times"]).iter().map(|s| s.to_string()).collect();
            assert_eq!(time_values(p), times, "{source} {title}: {p:#?}");
            for w in strs(&e["words"]) {
                match w.strip_prefix('!') {
                    Some(absent) => assert!(
                        !p.interpretation.contains(absent),
                        "{source} {title}: {absent} in {}",
                        p.interpretation
                    ),
                    None => assert!(
                        p.interpretation.contains(w),
                        "{source} {title}: {w} not in {}",
                        p.interpretation
                    ),
                }
            }
        }

        // each SIM's number is the owner's; its ICCID, its slot's and its IMSI the device's
        let owner = run.owner(source);
        for id in strs(&want["owner"]) {
            assert!(
                owner.contains(id.trim_start_matches('+')),
                "{source}: {id} in {owner}"
            );
        }
        let entities = run.entities(source);
        for id in strs(&want["devices"]) {
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with("device [") && e.contains(id)),
                "{source}: device with {id}: {entities:#?}"
            );
            assert!(!owner.contains(id), "{id} in {owner}");
        }

        // the notes: each damaged file, and none of ours for a file out of place
        let noted: Vec<(&str, &str)> = want["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
            .collect();
        run.assert_noted(source, &noted);
        for u in run.unparsed(source) {
            if our_note(&u) {
                assert!(
                    noted.iter().any(|(p, _)| u.artefact.ends_with(p)),
                    "{source}: unexpected note {u:#?}"
                );
            }
        }
        for q in strs(&want["quiet"]) {
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.ends_with(q) && our_note(u)),
                "{source}: {q} noted"
            );
            assert!(
                !all.iter()
                    .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with(q))
                        && (p.title.contains("Timeline segment")
                            || p.title.starts_with("CommCenter SIM")
                            || p.title.starts_with("Photos library migration"))),
                "{source}: {q} read"
            );
        }
        for t in strs(&want["absent_titles"]) {
            assert!(!titles.contains(&t), "{source}: {t} read");
        }

        // the migration table's global key values are counted, never printed
        for (tool, args, text) in run.outputs(source) {
            if tool == "sqlite_query" && args.contains("ZMIGRATIONHISTORY") {
                assert!(!text.contains("62706c6973743030"), "{args}: {text}");
            }
        }
    }
    // the other Google app's store is read as the library's, its owner named
    let a = run.all_phenomena("a");
    let other = titled(&a, "Google Timeline segment from 1717500000");
    assert!(
        other
            .interpretation
            .contains("the data container of com.google.GoogleMobile"),
        "{}",
        other.interpretation
    );
    let maps = titled(&a, "Google Maps Timeline segment from 1717400000");
    assert!(
        maps.interpretation
            .contains("Google Maps' on-device Timeline"),
        "{}",
        maps.interpretation
    );
}
