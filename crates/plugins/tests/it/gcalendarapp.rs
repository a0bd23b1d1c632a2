//! The Google Calendar app's own event store (`android::gcalendarapp`) on two Android phones and
//! a third tree, written by `tests/fixtures/gcalendarapp/gcalendarapp.py` (Python's sqlite3 and
//! hand-encoded Protocol Buffers records with the fields ALEAPP's googleCalendarAppEvents reads).
//! The generator's record is the oracle: every event with its id, type, removal flag, days, the
//! account, and from its record the title, description, web link, iCal UID, calendar id and name
//! (field 10, or 35), start, end, created and updated times; the accounts the device's user's;
//! phone B's older layout and a record that is no message read with the table's columns; a
//! truncated store and a store of another layout noted; another app's `cal_v2a` neither read
//! nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn google_calendar_app_events_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/gcalendarapp/gcalendarapp.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Oslo", Some("NO")),
        ("b", &b, "Europe/Oslo", Some("NO")),
        ("c", &c, "Europe/Oslo", Some("NO")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let want = &o[source];
        let all = run.all_phenomena(source);
        let events = want["events"].as_array().unwrap();
        let found = all
            .iter()
            .filter(|p| p.title.starts_with("Google Calendar event "))
            .count();
        assert_eq!(found, events.len(), "{source}");
        for e in events {
            let shown = s(e, "title").or(s(e, "event_id")).unwrap();
            let p = titled(&all, &format!("Google Calendar event {shown}"));
            assert_eq!(p.category, "calendar");
            for (k, v) in e.as_object().unwrap() {
                if let Some(v) = v.as_str() {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            let times: Vec<String> = e["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        // the accounts the events belong to are the device's user's
        let owner = run.owner(source);
        for acc in want["accounts"].as_array().unwrap() {
            assert!(owner.contains(acc.as_str().unwrap()), "{owner}");
        }
        // a calendar id that is an address is no identity of its own
        assert!(
            !run.entities(source)
                .iter()
                .any(|e| e.contains("holiday@group.v.calendar.google.com")),
            "{:#?}",
            run.entities(source)
        );
    }
    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "Google Calendar app cal_v2a")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }
    let noted: Vec<(String, String)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n[0].as_str().unwrap().to_string(),
                n[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let pairs: Vec<(&str, &str)> = noted
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    run.assert_noted("c", &pairs);
    let all_c = run.all_phenomena("c");
    assert!(
        !all_c
            .iter()
            .any(|p| p.title.starts_with("Google Calendar event ")),
        "{:#?}",
        run.phenomena("c")
    );
    let foreign = o["c"]["foreign"].as_str().unwrap();
    assert!(
        !all_c
            .iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with(foreign))),
        "{:#?}",
        run.phenomena("c")
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.ends_with(foreign)),
        "{:#?}",
        run.unparsed("c")
    );
    assert!(
        !run.outputs("c")
            .iter()
            .any(|(tool, args, _)| tool == "sqlite_query" && args.contains(foreign)),
    );
}
