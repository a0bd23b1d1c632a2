//! Life360's driver-behaviour trip files (`android::life360trips`) on two Android phones and a
//! third tree, written by `tests/fixtures/life360trips/life360trips.py` (the
//! `DriverBehavior/trips/*.json` files ALEAPP's life360DriverBehavior reads). The generator's
//! record is the oracle: every trip file with its path, size, top-level members, first and last
//! event and modified time; every event with every field and its time; every route summarised
//! (points in the title, the first and last waypoint's coordinates and accuracy, their times where
//! kept); phone B's variant layout (top-level trip members in Unix ms, no top or average speed, an
//! event without a location) read with what it has; phone C's cut copy and file of another layout
//! noted while its good trip is read, and other apps' `trips/*.json` neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s(v: &serde_json::Value) -> String {
    v.as_str().unwrap().to_string()
}

#[test]
fn life360_trip_files_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/life360trips/life360trips.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/Toronto", Some("CA")),
        ("b", &b, "Europe/Amsterdam", Some("NL")),
        ("c", &c, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let trips = o[source]["trips"].as_array().unwrap();
        let files: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Life360 trip file "))
            .collect();
        assert_eq!(files.len(), trips.len(), "{source}: {files:#?}");
        let mut n_events = 0;
        let mut n_routes = 0;
        for t in trips {
            let p = titled(&all, &format!("Life360 trip file {}", s(&t["name"])));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, &s(&t["path"])), "{p:#?}");
            assert!(has_fact(p, &s(&t["size"])), "{p:#?}");
            for (k, v) in t["top"].as_object().unwrap() {
                assert!(has_fact(p, &s(v)), "{source} top {k}: {p:#?}");
            }
            // the first and last event, the time-named top-level members, the modified time
            let events = t["events"].as_array().unwrap();
            let mut ts: Vec<String> = events.iter().map(|e| s(&e["ts"])).collect();
            ts.sort_by_key(|x| x.parse::<u64>().unwrap());
            let mut want = vec![s(&t["modified"]), ts[0].clone()];
            if ts.len() > 1 {
                want.push(ts[ts.len() - 1].clone());
            }
            for (k, v) in t["top"].as_object().unwrap() {
                if k.contains("Time") {
                    want.push(s(v));
                }
            }
            want.sort();
            assert_eq!(time_values(p), want, "{p:#?}");

            for e in events {
                n_events += 1;
                let trip = s(&e["trip"]);
                let ts = s(&e["ts"]);
                let p = all
                    .iter()
                    .find(|p| {
                        p.title == format!("Life360 trip event {} of trip {trip}", s(&e["type"]))
                            && has_fact(p, &ts)
                    })
                    .unwrap_or_else(|| panic!("{source} event {e}: {all:#?}"));
                assert_eq!(p.category, "locations");
                assert!(has_fact(p, &s(&e["type"])) && has_fact(p, &trip), "{p:#?}");
                for v in e["fields"].as_array().unwrap() {
                    assert!(has_fact(p, &s(v)), "{source} {v}: {p:#?}");
                }
                assert_eq!(time_values(p), vec![ts.clone()], "{p:#?}");

                let points = e["points"].as_u64().unwrap();
                if points == 0 {
                    continue;
                }
                n_routes += 1;
                let r = titled(
                    &all,
                    &format!("Life360 trip route of trip {trip}: {points} waypoints"),
                );
                assert_eq!(r.category, "locations");
                for v in e["first"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .chain(e["last"].as_array().unwrap())
                {
                    assert!(has_fact(r, &s(v)), "{v}: {r:#?}");
                }
                let mut rt: Vec<String> =
                    e["route_times"].as_array().unwrap().iter().map(s).collect();
                rt.sort();
                assert_eq!(time_values(r), rt, "{r:#?}");
                // the route is summarised: no waypoint is a phenomenon of its own
                assert!(!r.interpretation.is_empty());
            }
        }
        let events = all
            .iter()
            .filter(|p| p.title.starts_with("Life360 trip event "))
            .count();
        assert_eq!(events, n_events, "{source}");
        let routes = all
            .iter()
            .filter(|p| p.title.starts_with("Life360 trip route "))
            .count();
        assert_eq!(routes, n_routes, "{source}");
    }

    // phone A's long route (40 waypoints) is one phenomenon
    assert!(
        run.all_phenomena("a")
            .iter()
            .any(|p| p.title.ends_with(": 40 waypoints"))
    );

    // C: the cut copy and the file of another layout noted; other apps' trips passed over
    run.assert_noted(
        "c",
        &[
            (&s(&o["c"]["cut"]), "not JSON"),
            (&s(&o["c"]["foreign"]), "no events array"),
        ],
    );
    let notes = run.unparsed("c");
    for other in o["c"]["others"].as_array().unwrap() {
        assert!(
            !notes.iter().any(|u| u.artefact.ends_with(&s(other))),
            "{other} noted: {notes:#?}"
        );
    }
    let all = run.all_phenomena("c");
    for id in o["c"]["other_trip_ids"].as_array().unwrap() {
        assert!(
            !all.iter()
                .any(|p| p.title.starts_with("Life360 ") && has_fact(p, &s(id))),
            "{id} read: {all:#?}"
        );
    }
    for (tool, args, _) in run.outputs("c") {
        assert!(
            !(tool == "read_json"
                && (args.contains("com.example.roadtrip")
                    || args.contains("com.example.telematics"))),
            "another app's file read: {tool} {args}"
        );
    }
}
