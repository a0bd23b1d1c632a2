//! WhatsApp's own log files (`android::whatsapplogs`) on two Android phones and a third tree,
//! written by `tests/fixtures/whatsapplogs/whatsapplogs.py` (plain text in the layout WhatsApp's
//! `Log` class writes, with the lines ALEAPP's WhatsAppLogFiles picks out). The generator's
//! record is the oracle: every event line (its kind, tag, the line whole, its JIDs, its time as
//! written), a status update passed over, the line straddling the first 1 MiB read read whole by
//! the second; each file's zones, levels, app version and first and last time; the JIDs of the
//! other parties as `handle:` persons and no person for a group, a device-part or a redacted JID;
//! phone B's WhatsApp Business log at level 5 with a zone change; the gzip rotations noted, a
//! file not of WhatsApp's format noted; another app's `whatsapp.log` neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn whatsapp_log_files_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/whatsapplogs/whatsapplogs.py",
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
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("WhatsApp log: "))
            .collect();
        assert_eq!(found.len(), events.len(), "{source}: {found:#?}");
        for e in events {
            let line = e["line"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| has_fact(p, line))
                .unwrap_or_else(|| panic!("{source}: {line} in none of {found:#?}"));
            assert_eq!(p.title, e["title"].as_str().unwrap(), "{p:#?}");
            assert!(has_fact(p, e["tag"].as_str().unwrap()), "{p:#?}");
            for j in e["jids"].as_array().unwrap() {
                assert!(has_fact(p, j.as_str().unwrap()), "{j}: {p:#?}");
            }
            assert_eq!(
                time_values(p),
                vec![e["time"].as_str().unwrap().to_string()],
                "{p:#?}"
            );
        }
        // no status update is an event
        assert!(!found.iter().any(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("status@broadcast"))
        }),);
        // the file's phenomenon: zones, levels, versions, first and last line
        let s = &want["summary"];
        let p = titled(&all, s["title"].as_str().unwrap());
        assert_eq!(p.category, "app_usage");
        for k in ["zones", "levels", "versions"] {
            for v in s[k].as_array().unwrap() {
                assert!(has_fact(p, v.as_str().unwrap()), "{k} {v}: {p:#?}");
            }
        }
        let times: Vec<String> = s["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        assert_eq!(time_values(p), times, "{p:#?}");
        // the other parties are persons by their JIDs; groups, device parts, redacted JIDs none
        let entities = run.entities(source);
        for j in want["persons"].as_array().unwrap() {
            let ctx = format!("handle:{}", j.as_str().unwrap());
            assert!(
                entities.iter().any(|e| e.starts_with(&format!("{ctx} ["))),
                "{ctx}: {entities:#?}"
            );
        }
        for j in want["not_persons"].as_array().unwrap() {
            let ctx = format!("handle:{}", j.as_str().unwrap());
            assert!(
                !entities.iter().any(|e| e.starts_with(&format!("{ctx} ["))),
                "{ctx}: {entities:#?}"
            );
        }
        // the log names no account of the device's user
        assert!(
            !run.owner(source).contains("4791234567"),
            "{}",
            run.owner(source)
        );
        let noted: Vec<(&str, &str)> = want["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
            .collect();
        run.assert_noted(source, &noted);
        // the plain log is read whole: no note of it
        assert!(
            !run.unparsed(source)
                .iter()
                // (the generic text pass reads its first MiB for identifiers and says so)
                .any(|u| u.artefact.ends_with("/files/Logs/whatsapp.log")
                    && !u.reason.contains("searched for identifiers")),
            "{:#?}",
            run.unparsed(source)
        );
    }
    // phone A's log is read in two reads, the second from the straddling line's start
    let straddle = o["a"]["straddle"].as_str().unwrap();
    let reads: Vec<_> = run
        .outputs("a")
        .into_iter()
        // (its own reads name an offset; the generic text pass reads the first MiB without)
        .filter(|(tool, args, _)| {
            tool == "read_text" && args.contains("whatsapp.log") && args.contains("\"offset\"")
        })
        .collect();
    assert_eq!(
        reads.len(),
        2,
        "{:?}",
        reads.iter().map(|r| &r.1).collect::<Vec<_>>()
    );
    assert!(
        reads.iter().any(|(_, _, text)| text.starts_with(straddle)),
        "{:?}",
        reads.iter().map(|r| &r.1).collect::<Vec<_>>()
    );
    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "WhatsApp log files")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    let all_c = run.all_phenomena("c");
    assert!(
        !all_c.iter().any(|p| p.title.starts_with("WhatsApp log")),
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
            // (the generic text pass reads any text file's first MiB, without an offset)
            .any(|(tool, args, _)| tool == "read_text"
                && args.contains(foreign)
                && args.contains("\"offset\"")),
    );
}
