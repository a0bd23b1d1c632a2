//! The device's life (`android::lifecycle`, `ios::wipe`): two Android phones' bootstat records
//! and shutdown checkpoints (phone A a folder; phone B an ext4 image of its userdata partition
//! made by `mkfs.ext4 -d`, which keeps the files' modification times) and two iPhones' wipe
//! indicators, written by `tests/fixtures/lifecycle/lifecycle.py`. The generator's record is the
//! oracle: each record's value is its file's modification time, found as `stat` gives it (UTC);
//! each shutdown request with who asked, its Unix ms time and its details; a checkpoints file
//! without a request is noted; the iPhones' erase times found. Samsung's recovery history (phone A
//! the older layout with `-` separators, phone B the newer one): each record a factory reset or
//! firmware update at its local time with who asked and its lines, ALEAPP's sWipehist and
//! sRecoveryhist's fields; a file without a record noted; phone A's hosts entries but the
//! defaults; an app's files named `history` and `hosts` neither read nor listed.

use crate::android_support::{generate, has_fact, triage};

/// `secs` as `stat` prints a Unix time without a fraction.
fn utc(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // civil from days (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[test]
fn factory_resets_boots_shutdowns_and_wipes() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/lifecycle/lifecycle.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let p = |n: &str| tmp.path().join(n);
    let (a, b, c, d) = (p("a"), p("b.img"), p("c"), p("d"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Zurich", Some("CH")),
        ("c", &c, "Europe/Zurich", Some("CH")),
        ("d", &d, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        for r in o[source]["records"].as_array().unwrap() {
            let what = match r["name"].as_str().unwrap() {
                "factory_reset" => "Factory reset (bootstat)",
                _ => "Last boot (bootstat)",
            };
            let when = utc(r["mtime"].as_i64().unwrap());
            let ph = all
                .iter()
                .find(|p| p.title.starts_with(&format!("{what}: {when}")))
                .unwrap_or_else(|| panic!("{source} {what} {when}: {all:#?}"));
            assert_eq!(ph.times.len(), 1, "{ph:#?}");
            assert_eq!(ph.category, "device");
        }
        assert!(
            !all.iter().any(|p| p.title.contains("boot_complete")),
            "{all:#?}"
        );
        let requests: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Shutdown requested by "))
            .collect();
        let expected = o[source]["requests"].as_array().unwrap();
        assert_eq!(requests.len(), expected.len(), "{requests:#?}");
        for r in expected {
            let who = r["who"].as_str().unwrap();
            let ph = requests
                .iter()
                .find(|p| p.title == format!("Shutdown requested by {who}"))
                .unwrap_or_else(|| panic!("{who}"));
            assert!(has_fact(ph, &r["epoch"].to_string()), "{ph:#?}");
            for d in r["details"].as_array().unwrap() {
                assert!(has_fact(ph, d.as_str().unwrap()), "{d}: {ph:#?}");
            }
            assert_eq!(ph.times.len(), 1);
        }
    }
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let records: Vec<_> = all
            .iter()
            .filter(|p| p.title.contains("(Samsung recovery history)"))
            .collect();
        let expected = o[source]["recovery"].as_array().unwrap();
        assert_eq!(records.len(), expected.len(), "{records:#?}");
        for r in expected {
            let (kind, time) = (r["kind"].as_str().unwrap(), r["time"].as_str().unwrap());
            let p = records
                .iter()
                .find(|p| p.title == format!("{kind} (Samsung recovery history): {time}"))
                .unwrap_or_else(|| panic!("{kind} {time}: {records:#?}"));
            assert_eq!(p.category, "device");
            let marks: Vec<(&str, masf_graph::TimeEncoding)> = p
                .times
                .iter()
                .map(|t| (p.verified_facts[t.fact].value.as_str(), t.encoding))
                .collect();
            let mut want = vec![(time, masf_graph::TimeEncoding::LocalText)];
            if let Some(q) = r["requested"].as_str() {
                want.push((q, masf_graph::TimeEncoding::LocalText));
            }
            assert_eq!(marks, want, "{p:#?}");
            assert!(
                p.interpretation.contains(r["said"].as_str().unwrap()),
                "{}",
                p.interpretation
            );
            for l in r["lines"].as_array().unwrap() {
                assert!(has_fact(p, l.as_str().unwrap()), "{l}: {p:#?}");
            }
            assert!(!has_fact(p, "left over after the last record"));
        }
        let hosts: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Hosts file: "))
            .collect();
        let expected = o[source]["hosts"].as_array().unwrap();
        assert_eq!(hosts.len(), expected.len(), "{hosts:#?}");
        for h in expected {
            let (address, host) = (h[0].as_str().unwrap(), h[1].as_str().unwrap());
            let p = hosts
                .iter()
                .find(|p| p.title == format!("Hosts file: {host} is {address}"))
                .unwrap_or_else(|| panic!("{host}"));
            for alias in h[2].as_array().unwrap() {
                assert!(has_fact(p, alias.as_str().unwrap()), "{p:#?}");
            }
        }
        // an app's files of those names are no artefacts: neither read nor listed
        assert!(!all.iter().any(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.browser"))
        }),);
    }
    run.assert_noted(
        "a",
        &[
            ("checkpoints-2", "Shutdown request from"),
            ("log/recovery_history.log", "no record"),
        ],
    );
    for source in ["c", "d"] {
        let all = run.all_phenomena(source);
        for w in o[source]["wipe"].as_array().unwrap() {
            let when = utc(w["mtime"].as_i64().unwrap());
            let ph = all
                .iter()
                .find(|p| p.category == "device" && p.title.contains(&when))
                .unwrap_or_else(|| panic!("{source} {w}: {all:#?}"));
            assert!(
                ph.interpretation.contains(w["name"].as_str().unwrap()),
                "{}",
                ph.interpretation
            );
            assert_eq!(ph.times.len(), 1);
        }
    }
    assert!(
        !run.all_phenomena("d")
            .iter()
            .any(|p| p.title.starts_with("Device set up after a reset"))
    );
}
