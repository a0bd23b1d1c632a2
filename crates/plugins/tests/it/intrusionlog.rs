//! Android 16's intrusion logs (`android::intrusionlog`) on two Android trees and a third, written
//! by `tests/fixtures/intrusionlog/intrusionlog.py` (the `YYYY-MM-DD.txt` JSON-lines files ALEAPP's
//! intrusion_logging reads, in the shared storage's `Download/Intrusion Logging/` and androidqf's
//! `intrusion_logs/`). The generator's record is the oracle: every day file with its path, size,
//! first and last event and modified time; every DNS lookup, connection and security event with
//! every field and its time (DNS and connections in Unix ms, security events in Unix ns); a line
//! written in two files recorded once; an ADB command carrying a token withheld; phone B's CRLF
//! lines, missing members, scalar and unknown security payloads and another wrapper kind; phone
//! C's cut copy (its whole line read, the cut one noted) and foreign file noted, and other apps'
//! dated text files neither read by the reader nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s(v: &serde_json::Value) -> String {
    v.as_str().unwrap().to_string()
}

#[test]
fn intrusion_logs_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/intrusionlog/intrusionlog.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Paris", Some("FR")),
        ("c", &c, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let files = o[source]["files"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Intrusion log 2"))
            .collect();
        assert_eq!(found.len(), files.len(), "{source}: {found:#?}");
        let mut n_events = 0;
        for f in files {
            let p = titled(&all, &format!("Intrusion log {}", s(&f["name"])));
            assert_eq!(p.category, "device");
            assert!(
                has_fact(p, &s(&f["path"])) && has_fact(p, &s(&f["size"])),
                "{p:#?}"
            );
            let mut want = vec![s(&f["modified"]), s(&f["first"])];
            if f["last"] != f["first"] {
                want.push(s(&f["last"]));
            }
            want.sort();
            assert_eq!(time_values(p), want, "{p:#?}");
            for e in f["events"].as_array().unwrap() {
                n_events += 1;
                let title = s(&e["title"]);
                let facts: Vec<String> = e["facts"].as_array().unwrap().iter().map(s).collect();
                let p = all
                    .iter()
                    .find(|p| p.title == title && facts.iter().all(|v| has_fact(p, v)))
                    .unwrap_or_else(|| {
                        panic!(
                            "{source} {title} with {facts:?}: {:#?}",
                            all.iter().filter(|p| p.title == title).collect::<Vec<_>>()
                        )
                    });
                assert_eq!(p.category, s(&e["category"]), "{p:#?}");
                assert!(has_fact(p, &s(&f["path"])), "{p:#?}");
                match e["time"].as_str() {
                    Some(t) => assert_eq!(time_values(p), vec![t.to_string()], "{p:#?}"),
                    None => assert!(time_values(p).is_empty(), "{p:#?}"),
                }
            }
        }
        // every event once: the line written in two files is recorded from the first
        let events = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Intrusion log ") && !p.title.starts_with("Intrusion log 2")
            })
            .count();
        assert_eq!(events, n_events, "{source}");
    }

    // A: the duplicate line once; the ADB command carrying a token withheld everywhere
    let all = run.all_phenomena("a");
    assert_eq!(
        all.iter()
            .filter(|p| p.title == s(&o["a"]["duplicate"]))
            .count(),
        1
    );
    let withheld = s(&o["a"]["withheld"]);
    for p in &all {
        for x in o["a"]["secrets"].as_array().unwrap().iter().map(s) {
            assert!(
                !p.verified_facts.iter().any(|f| f.value.contains(&x))
                    && !p.interpretation.contains(&x)
                    && !p.title.contains(&x),
                "{x}: {p:#?}"
            );
        }
        assert!(
            !p.verified_facts.iter().any(|f| f.value.contains(&withheld)),
            "{p:#?}"
        );
    }
    for (tool, args, text) in run.outputs("a") {
        if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
            continue;
        }
        for x in o["a"]["secrets"].as_array().unwrap().iter().map(s) {
            assert!(!text.contains(&x), "{x} in {tool} {args}");
        }
    }
    assert!(
        all.iter().any(|p| p.interpretation.contains("withheld")),
        "the withheld command is said"
    );

    // C: the cut copy and the foreign file noted; other apps' dated files passed over
    run.assert_noted(
        "c",
        &[
            (&s(&o["c"]["cut"]), "not JSON events"),
            (&s(&o["c"]["foreign"]), "none of its"),
        ],
    );
    let notes = run.unparsed("c");
    let all = run.all_phenomena("c");
    for other in o["c"]["others"].as_array().unwrap().iter().map(s) {
        assert!(
            !notes.iter().any(|u| u.artefact.ends_with(&other)),
            "{other} noted: {notes:#?}"
        );
        assert!(
            !all.iter()
                .any(|p| p.title.starts_with("Intrusion log ") && has_fact(p, &other)),
            "{other} read: {all:#?}"
        );
    }
    assert!(
        !all.iter().any(|p| p.title.contains("diary.example.com")),
        "another app's line read"
    );
}
