//! Samsung's `eRR.p` (`android::errp`) on two phones and a third tree, written by
//! `tests/fixtures/errp/errp.py` (the `|` lines ALEAPP's errp reads). The generator's record is
//! the oracle: phone A's current path with the binary `LOGM` header and its NUL padding in front
//! of the first record (read from after the padding), shutdowns with their reasons, starts, a
//! charge-only start and a record with no event, each marked at its time with its offset; phone
//! B's older path with times without an offset (local text) and a `|` line without a date
//! noted; phone C's log holding only the header noted, and a user's copy in `Download/` neither
//! read nor noted.

use masf_agents::Plugin;
use masf_graph::TimeEncoding;

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn errp_samsung_power_events_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/errp/errp.py",
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
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Samsung eRR.p: "))
            .collect();
        let expected = o[source]["records"].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{source}: {found:#?}");
        let path = o[source]["path"].as_str().unwrap();
        for r in expected {
            let (label, time) = (r["label"].as_str().unwrap(), r["time"].as_str().unwrap());
            let title = match r["reason"].as_str() {
                Some(reason) => format!("Samsung eRR.p: {label} at {time} ({reason})"),
                None => format!("Samsung eRR.p: {label} at {time}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "device");
            assert!(has_fact(p, path), "{p:#?}");
            // the line as written (phone A's first one read from after the header's padding)
            assert!(has_fact(p, r["line"].as_str().unwrap()), "{p:#?}");
            for k in ["event", "code", "details", "reason", "number"] {
                if let Some(v) = r[k].as_str() {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![time.to_string()], "{p:#?}");
            let want = if r["zoned"].as_bool().unwrap() {
                TimeEncoding::Iso8601
            } else {
                TimeEncoding::LocalText
            };
            assert!(p.times.iter().all(|t| t.encoding == want), "{p:#?}");
        }
    }
    // phone A: nothing noted; phone B: the line without a date
    assert!(
        !run.unparsed("a")
            .iter()
            .any(|u| u.artefact.ends_with("eRR.p")),
        "{:#?}",
        run.unparsed("a")
    );
    run.assert_noted("b", &[("service/eRR.p", "were not read")]);
    assert!(
        run.unparsed("b")
            .iter()
            .any(|u| u.reason.contains(o["b"]["undated"].as_str().unwrap())),
        "{:#?}",
        run.unparsed("b")
    );
    // phone C: a log with no record noted; the user's copy in Download neither read nor noted
    run.assert_noted("c", &[("service/data/eRR.p", "no record")]);
    let copy = o["c"]["copy"].as_str().unwrap();
    assert!(
        !run.unparsed("c").iter().any(|u| u.artefact.ends_with(copy)),
        "{:#?}",
        run.unparsed("c")
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Samsung eRR.p")),
    );
    assert!(
        !run.outputs("c")
            .iter()
            .any(|(tool, args, _)| tool == "read_text" && args.contains(copy)),
    );

    // the catalogue's detectors find the reads
    let entry = masf_plugins::android::AndroidPlugin
        .expected_artefacts()
        .into_iter()
        .find(|e| e.name == "Samsung eRR.p power events")
        .expect("in the catalogue");
    for source in ["a", "b"] {
        assert!(
            run.outputs(source)
                .iter()
                .any(|(_, a, _)| entry.detector.iter().any(|d| a.contains(d.as_str()))),
            "{source}: {:?}",
            entry.detector
        );
    }
}
