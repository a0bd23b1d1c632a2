//! Apple Maps' search history `GeoHistory.mapsdata` (`ios::geohistory`) on three iPhones, written
//! by `tests/fixtures/iosapps14/iosapps14.py` (Python's plistlib, each record's `contents` a
//! Protocol Buffers message by Google's protobuf runtime at the field positions iLEAPP's
//! appleMapsSearchHistory reads). The generator's record is the oracle: every record with its
//! GUID, its modification time (a plist date as `parse_plist` prints it), the search typed, the
//! result and waypoint place names, the address lines, the place shown, iLEAPP's current location,
//! the `placeRequest=` texts as stored and the record's other texts — each as the output writes it
//! (a quote escaped), and nothing more. iPhone A has the iOS 13 layout (binary plist in the Maps
//! container); iPhone B the older `mobile/Library/Maps/` one (XML, a record without a time, a
//! search without text typed, a record holding none of iLEAPP's fields); iPhone C a copy with a
//! record that is no message (noted, the other read), a cut copy and a foreign plist of the same
//! name (both noted).

use crate::android_support::{generate, has_fact, triage};

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// The texts of `key` of an oracle record.
fn list<'a>(r: &'a serde_json::Value, key: &str) -> Vec<&'a str> {
    r[key]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn iosapps14_apple_maps_search_history_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/iosapps14/iosapps14.py",
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
    const KINDS: [&str; 7] = [
        "typed",
        "places",
        "addresses",
        "location",
        "here",
        "requests",
        "others",
    ];
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let read: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Apple Maps GeoHistory "))
            .collect();
        let rows = o[source]["records"].as_array().unwrap();
        assert_eq!(read.len(), rows.len(), "{source}: {read:#?}");
        for r in rows {
            let title = r["title"].as_str().unwrap();
            let p = read
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{title}: {read:#?}"));
            assert_eq!(p.category, "locations");
            assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
            let guid = r["guid"].as_str().unwrap();
            assert!(has_fact(p, guid), "{guid}: {p:#?}");
            assert!(
                p.interpretation
                    .contains(&format!("Record {guid} of MSPHistory"))
            );
            // every text at its place, and no other fact: path, GUID, the texts, the time
            let mut texts = 0;
            for k in KINDS {
                for v in list(r, k) {
                    assert!(has_fact(p, v), "{title}: {k} {v}: {p:#?}");
                    texts += 1;
                }
            }
            let timed = usize::from(r["time"].is_string());
            assert_eq!(p.verified_facts.len(), 2 + texts + timed, "{p:#?}");
            match r["time"].as_str() {
                Some(t) => {
                    assert_eq!(p.times.len(), 1, "{p:#?}");
                    assert_eq!(
                        time_of(p, "Apple Maps history record modified"),
                        Some(t),
                        "{p:#?}"
                    );
                    assert_eq!(p.times[0].encoding, masf_graph::TimeEncoding::Iso8601);
                }
                None => {
                    assert!(p.times.is_empty(), "{p:#?}");
                    assert!(p.interpretation.contains("no modification date (no time)"));
                }
            }
            // the place requests are cited, their coordinates said not decoded
            assert_eq!(
                p.interpretation.contains("which are not decoded here"),
                !list(r, "requests").is_empty(),
                "{}",
                p.interpretation
            );
            assert_eq!(
                p.interpretation.contains("other texts of the record"),
                !list(r, "others").is_empty(),
                "{}",
                p.interpretation
            );
            assert!(p.interpretation.contains("not that the device went there"));
        }
        // places and searches name no one: no identity from them
        let ids = run.identifiers(source);
        for r in rows {
            for k in ["typed", "places"] {
                for v in list(r, k) {
                    assert!(!ids.iter().any(|(_, n)| n.contains(v)), "{v}: {ids:?}");
                }
            }
        }
        let notes: Vec<_> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| u.artefact.ends_with("GeoHistory.mapsdata"))
            .collect();
        let expected = o[source]["noted"].as_array().unwrap();
        assert_eq!(notes.len(), expected.len(), "{source}: {notes:#?}");
    }
    // iPhone C: the record that is no message (by its GUID), the cut copy (by the call) and the
    // foreign plist are noted; the good record of the first file is read all the same
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
}
