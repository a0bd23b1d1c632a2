//! Samsung's power-off and reset log (`android::poweroffreset`) on two phones and a third tree,
//! written by `tests/fixtures/poweroffreset/poweroffreset.py` (the text layouts ALEAPP's
//! oldpowerOffReset and powerOffReset read). The generator's record is the oracle: phone A's
//! newer layout (shutdown requests with and without a caller, and the power log's `SHUTDOWN`,
//! `ON`, `NP` and `LPM` lines with their sources, reset status, build, battery and record
//! numbers; the backup file too), phone B's older layout (requests only); every request without a
//! time mark (a two-digit year), every power-log line marked at its time with its offset; a
//! user's copy outside the `log` folder never read; phone C's log with no record noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn poweroffreset_samsung_power_log_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/poweroffreset/poweroffreset.py",
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
    let s = |v: &serde_json::Value| v.as_str().map(str::to_string);
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        // the shutdown requests
        let requests: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Samsung shutdown request"))
            .collect();
        let expected = o[source]["requests"].as_array().unwrap();
        assert_eq!(requests.len(), expected.len(), "{source}: {requests:#?}");
        for r in expected {
            let stamp = r["stamp"].as_str().unwrap();
            let reason = r["reason"].as_str().unwrap();
            let p = titled(
                &all,
                &format!("Samsung shutdown request: {reason} ({stamp})"),
            );
            assert_eq!(p.category, "device");
            assert!(
                p.verified_facts.iter().any(|f| f
                    .value
                    .ends_with(&format!("/log/{}", r["file"].as_str().unwrap()))),
                "{p:#?}"
            );
            assert!(has_fact(p, stamp) && has_fact(p, reason), "{p:#?}");
            if let Some(caller) = s(&r["caller"]) {
                assert!(has_fact(p, &caller), "{p:#?}");
                assert!(p.interpretation.contains(&caller), "{}", p.interpretation);
            } else {
                assert!(!has_fact(p, "com.android.systemui"), "{p:#?}");
            }
            for f in r["frames"].as_array().unwrap() {
                assert!(has_fact(p, f.as_str().unwrap()), "{f}: {p:#?}");
            }
            // a two-digit year: a fact, never a time mark
            assert!(p.times.is_empty(), "{p:#?}");
        }
        // the power log's lines
        let events: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Samsung power log: "))
            .collect();
        let expected = o[source]["events"].as_array().unwrap();
        assert_eq!(events.len(), expected.len(), "{source}: {events:#?}");
        for e in expected {
            let (label, time) = (e["label"].as_str().unwrap(), e["time"].as_str().unwrap());
            let title = match e["reason"].as_str() {
                Some(r) => format!("Samsung power log: {label} at {time} ({r})"),
                None => format!("Samsung power log: {label} at {time}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "device");
            assert_eq!(time_values(p), vec![time.to_string()], "{p:#?}");
            assert_eq!(p.times[0].encoding, masf_graph::TimeEncoding::Iso8601);
            for key in [
                "reason", "record", "offsrc", "onsrc", "rststat", "build", "battery",
            ] {
                if let Some(v) = s(&e[key]) {
                    assert!(has_fact(p, &v), "{key} {v}: {p:#?}");
                }
            }
            // an absent source (written `-`) is no fact
            assert!(!has_fact(p, "-"), "{p:#?}");
        }
    }
    // phone A's shutdown at the user's request, with its caller and AOSP's reason explained
    let all = run.all_phenomena("a");
    let p = titled(
        &all,
        "Samsung shutdown request: userrequested (24/03/01 22:14:05)",
    );
    assert!(
        p.interpretation.contains("the user chose it"),
        "{}",
        p.interpretation
    );
    // an ON line's build, not a reason; an NP line's battery as written
    let on = titled(&all, "Samsung power log: ON at 2024-03-02 07:30:12+0100");
    assert!(
        has_fact(on, "S901BXXU3CWA1") && has_fact(on, "PWRON"),
        "{on:#?}"
    );
    let np = titled(&all, "Samsung power log: NP at 2024-03-05 03:12:40+0000");
    assert!(
        has_fact(np, "3401000(0%)") && has_fact(np, "UVLOB"),
        "{np:#?}"
    );
    // the user's copy in Download is not the system's log
    let elsewhere = o["elsewhere"].as_str().unwrap();
    assert!(
        !all.iter().any(|p| p.title.contains(elsewhere)),
        "{:#?}",
        all.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    // phone C's file holds no record: noted, nothing recorded
    run.assert_noted("c", &[("log/power_off_reset_reason.txt", "no record")]);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Samsung shutdown request")
                || p.title.starts_with("Samsung power log"))
    );
}
