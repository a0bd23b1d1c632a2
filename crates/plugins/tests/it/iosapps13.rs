//! Fitbit for iOS (`ios::fitbitios`) and CoreDuet's DuetExpertCenter streams
//! (`ios::duetstreams`, `read_segb`) on two iPhones, written by
//! `tests/fixtures/iosapps13/iosapps13.py` (Python's sqlite3 and plistlib, Google's protobuf
//! runtime; the tables, columns, keys and field numbers iLEAPP's fitbitIOS, duetLocations and
//! notificationsDuet read, `ZFBUSER`'s as Forensic Explorer's Fitbit script reads them; SEGB
//! framed after CCL Solutions' layout as the Biome fixture frames it). The generator's record is
//! the oracle: every Fitbit session with its fields, its start decoded from an 8-byte
//! big-endian double in a BLOB (a fraction, zero, a negative and a far-future value: facts, and
//! a time only when plausible) or, on iPhone B's older store, a number; every location group's
//! route summarised (points, interpolated, first and last position and time by time, not by
//! key; the points of no group), each activity source with its sessions, each day's heart rate
//! (iPhone A: B's store has no such table) and day totals, each user as a `fitbit:` person
//! (none the device's user); every CoreDuet location (a CLLocation archive: SEGB v2 on A, v1 on
//! B, B's first fix without vertical accuracy and course) and notification with its texts,
//! GUIDs, person fields and times, the deleted record of each stream read and said deleted.
//! Tree C: a cut fitbit.sqlite (noted by the call), a foreign one (noted: none of the tables),
//! a cut location stream file (noted, its first record read) and a notification stream with a
//! file that is no SEGB and a record that is no message (both noted, the next record read).

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed value is the oracle's (a number compared as one, a text as written).
fn same(printed: &str, v: &serde_json::Value) -> bool {
    let want = match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    printed == want
        || matches!((printed.parse::<f64>(), want.parse::<f64>()), (Ok(a), Ok(b)) if a == b)
}

/// Whether `p` holds a fact that is the oracle's value `v`.
fn has(p: &masf_graph::Phenomenon, v: &serde_json::Value) -> bool {
    p.verified_facts.iter().any(|f| same(&f.value, v))
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// Asserts that the time `what` of `p` is the oracle's `v`.
fn time_is(p: &masf_graph::Phenomenon, what: &str, v: &serde_json::Value) {
    let t = time_of(p, what).unwrap_or_else(|| panic!("{what}: {p:#?}"));
    assert!(same(t, v), "{what}: {t} vs {v}");
}

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

#[test]
fn fitbit_and_coreduet_streams_iosapps13() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/iosapps13/iosapps13.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Europe/Oslo", Some("NO")),
        ("c", &c, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let ours: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Fitbit ") || p.title.starts_with("CoreDuet "))
            .collect();
        for p in &ours {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let f = &o[source]["fitbit"];

        // sessions: every field, the start decoded (a time only when plausible)
        let sessions = f["activities"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("Fitbit activity ")
                    && !p.title.starts_with("Fitbit activity source "))
                .count(),
            sessions.len()
        );
        for r in sessions {
            let p = titled(
                &all,
                &format!(
                    "Fitbit activity {} (log {})",
                    s(&r["name"]),
                    s(&r["log_id"])
                ),
            );
            assert_eq!(p.category, "health");
            assert!(has(p, &r["log_id"]), "{p:#?}");
            for v in r["facts"].as_array().unwrap() {
                assert!(has(p, v), "{v}: {p:#?}");
            }
            // the decoded start is always a fact; a time only when plausible
            assert!(has(p, &r["start"]), "{p:#?}");
            if r["start_is_time"].as_bool().unwrap() {
                time_is(p, "Fitbit activity started", &r["start"]);
            } else {
                assert!(time_of(p, "Fitbit activity started").is_none(), "{p:#?}");
                assert!(p.interpretation.contains("no time"), "{}", p.interpretation);
            }
            match r["modified"].as_str() {
                Some(_) => time_is(p, "Fitbit activity last modified", &r["modified"]),
                None => assert!(time_of(p, "Fitbit activity last modified").is_none()),
            }
            assert!(
                p.interpretation.contains(if source == "a" {
                    "in a BLOB, decoded in the query"
                } else {
                    "stored as a number (an older store)"
                }),
                "{}",
                p.interpretation
            );
        }

        // routes: one per location group, summarised by time (never one per point)
        let routes = f["routes"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("Fitbit GPS "))
                .count(),
            routes.len()
        );
        for r in routes {
            let title = match (r["group"].as_i64().unwrap(), r["activity"].as_str()) {
                (-1, _) => "Fitbit GPS points of no location group".to_string(),
                (_, Some(a)) => format!("Fitbit GPS route of {a} (log {})", s(&r["log_id"])),
                (g, None) => format!("Fitbit GPS route of location group {g}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "locations");
            assert!(has(p, &r["points"]) && has(p, &r["interpolated"]), "{p:#?}");
            for end in ["first", "last"] {
                let e = r[end].as_array().unwrap();
                assert!(has(p, &e[1]) && has(p, &e[2]), "{end}: {p:#?}");
                time_is(p, &format!("Fitbit GPS route's {end} point"), &e[0]);
            }
        }

        // the sources of the sessions (no Bluetooth address: no device identity)
        for d in f["devices"].as_array().unwrap() {
            let title = match d["name"].as_str() {
                Some(n) => format!("Fitbit activity source {n} ({})", s(&d["id"])),
                None => format!("Fitbit activity source {}", s(&d["id"])),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "device");
            assert!(has(p, &d["id"]) && has(p, &d["type"]) && has(p, &d["sessions"]));
        }
        assert!(
            !run.identifiers(source)
                .iter()
                .any(|(t, _)| t.contains("bluetooth")),
            "{:?}",
            run.identifiers(source)
        );

        // heart rate per day (A only: B's older store has no ZMANAGEDHEARTRATE)
        let days = f["heart"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("Fitbit heart rate on "))
                .count(),
            days.len()
        );
        assert_eq!(days.is_empty(), source == "b");
        for h in days {
            let p = titled(&all, &format!("Fitbit heart rate on {}", s(&h["day"])));
            for k in ["samples", "min", "max", "average"] {
                assert!(has(p, &h[k]), "{k}: {p:#?}");
            }
            time_is(
                p,
                "Fitbit heart rate's first sample of the day",
                &h["first"],
            );
            time_is(p, "Fitbit heart rate's last sample of the day", &h["last"]);
        }

        // day totals: the day decoded (a BLOB on A, a number on B)
        let totals = f["days"].as_array().unwrap();
        let found: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("Fitbit day totals from "))
            .collect();
        assert_eq!(found.len(), totals.len(), "{found:#?}");
        for d in totals {
            let p = found
                .iter()
                .find(|p| time_of(p, "Fitbit day began").is_some_and(|t| same(t, &d["day"])))
                .unwrap_or_else(|| panic!("{d}: {found:#?}"));
            for v in d["facts"].as_array().unwrap() {
                assert!(has(p, v), "{v}: {p:#?}");
            }
        }

        // users: each a fitbit: person with its display name; none the device's user
        for u in f["users"].as_array().unwrap() {
            let display = s(&u["display"]);
            let p = titled(&all, &format!("Fitbit user {display}"));
            assert_eq!(p.category, "accounts");
            for k in ["id", "first", "last", "avatar", "gender"] {
                if let Some(v) = u[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            let id = s(&u["id"]);
            assert!(
                run.entities(source)
                    .iter()
                    .any(|e| e.starts_with(&format!("fitbit:{id} [Person] {display}"))),
                "{:#?}",
                run.entities(source)
            );
        }
        assert!(
            !run.owner(source).contains("fitbit:"),
            "{}",
            run.owner(source)
        );

        // CoreDuet locations: every fix (the deleted record too, said)
        let fixes = o[source]["locations"].as_array().unwrap();
        let located: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("CoreDuet location "))
            .collect();
        assert_eq!(located.len(), fixes.len(), "{located:#?}");
        for r in fixes {
            let deleted = r["deleted"].as_bool().unwrap();
            let title = format!(
                "CoreDuet location {}, {}{}",
                s(&r["lat"]),
                s(&r["lon"]),
                if deleted { " (a deleted record)" } else { "" }
            );
            let p = located
                .iter()
                .find(|p| {
                    p.title == title
                        && time_of(p, "CoreDuet record written")
                            .is_some_and(|t| same(t, &r["written"]))
                })
                .unwrap_or_else(|| panic!("{title}: {located:#?}"));
            assert_eq!(p.category, "locations");
            for k in ["lat", "lon", "hacc", "vacc", "alt", "speed", "course"] {
                if !r[k].is_null() {
                    assert!(has(p, &r[k]), "{k}: {p:#?}");
                }
            }
            time_is(p, "Location fix (CoreDuet)", &r["time"]);
            assert_eq!(
                p.interpretation.contains("(deleted)"),
                deleted,
                "{}",
                p.interpretation
            );
        }

        // CoreDuet notifications: texts, GUIDs, person fields, both times
        let notes = o[source]["notifications"].as_array().unwrap();
        let shown: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("CoreDuet notification from "))
            .collect();
        assert_eq!(shown.len(), notes.len(), "{shown:#?}");
        for n in notes {
            let deleted = n["deleted"].as_bool().unwrap();
            let title = format!(
                "CoreDuet notification from {}: {}{}",
                s(&n["bundle"]),
                s(&n["title"]),
                if deleted { " (a deleted record)" } else { "" }
            );
            let p = shown
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{title}: {shown:#?}"));
            assert_eq!(p.category, "apps");
            for k in [
                "bundle", "bundle2", "title", "subtitle", "body", "guid", "guid2", "optional",
                "person",
            ] {
                if let Some(v) = n[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            for v in n["person_info"].as_array().into_iter().flatten() {
                assert!(has_fact(p, s(v)), "{p:#?}");
            }
            time_is(p, "Notification (CoreDuet)", &n["time"]);
            time_is(p, "Notification's second time (CoreDuet)", &n["time2"]);
            time_is(p, "CoreDuet record written", &n["written"]);
        }
        // a notification's person fields are facts, never identities
        for n in notes {
            for v in n["person_info"].as_array().into_iter().flatten() {
                let v = s(v).trim_start_matches('+').to_lowercase();
                assert!(
                    !run.identifiers(source).iter().any(|(_, i)| i.contains(&v)),
                    "{v}: {:?}",
                    run.identifiers(source)
                );
            }
        }
        // nothing of these stores noted on the intact phones
        let notes = run.unparsed(source);
        assert!(
            !notes
                .iter()
                .any(|u| u.artefact.contains("fitbit.sqlite")
                    || u.artefact.contains("DuetExpertCenter")),
            "{notes:#?}"
        );
    }

    // tree C: the cut and foreign stores, the cut stream file, the file that is no SEGB and the
    // record that is no message noted; what can be read is read
    let noted = &o["c"]["noted"];
    run.assert_noted(
        "c",
        &[
            (s(&o["c"]["fitbit"]["cut"]), ""),
            (s(&o["c"]["fitbit"]["foreign"]), "none of the Fitbit tables"),
            (
                s(&noted["location"]),
                "could not parse all of CoreDuet's location stream",
            ),
            (
                s(&noted["notifications"]),
                "could not parse all of CoreDuet's userNotificationEvents stream",
            ),
            (s(&noted["notifications"]), s(&noted["foreign_file"])),
            // the record that is no message, noted on its file
            (s(&noted["bad_file"]), "is not a Protocol Buffers message"),
        ],
    );
    let all = run.all_phenomena("c");
    assert!(
        !all.iter().any(|p| p.title.starts_with("Fitbit ")),
        "{all:#?}"
    );
    for r in o["c"]["locations"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!("CoreDuet location {}, {}", s(&r["lat"]), s(&r["lon"])),
        );
        time_is(p, "Location fix (CoreDuet)", &r["time"]);
    }
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("CoreDuet location "))
            .count(),
        1
    );
    for n in o["c"]["notifications"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "CoreDuet notification from {}: {}",
                s(&n["bundle"]),
                s(&n["title"])
            ),
        );
        time_is(p, "Notification (CoreDuet)", &n["time"]);
    }
}
