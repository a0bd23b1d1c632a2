//! The shutdown log (`ios::shutdownlog`) and the software update's restore log
//! (`ios::restorelog`) of two iPhones: phone A's full file system (`db/diagnostics/shutdown.log`
//! in the current form: `After <s>s, these clients are still here:`, then the
//! `remaining client pid` lines, then `SIGTERM: [<Unix s>]`; `mobile/MobileSoftwareUpdate/
//! restore.log`), phone B's sysdiagnose (`system_logs.logarchive/Extra/shutdown.log` in the older
//! one-line form) and `MobileSoftwareUpdate/restore.log`. The lines follow the forms iLEAPP's
//! sysShutdown and restore_log read (no public device log is in the corpus; the restore log's
//! line prefixes are invented, as iLEAPP reads only what follows `data = `). Every shutdown is
//! found with its time, notices, longest delay and processes; each process from
//! `/private/var/db/` or `/private/var/tmp/` is a lead of its own; a shutdown the log does not
//! see end has no time; every update event is found with each of iLEAPP's fields; a line whose
//! JSON is cut is noted.

use masf_graph::TimeEncoding;

use crate::android_support::{has_fact, triage};

const SHUTDOWN_A: &str = "After 0.63s, these clients are still here:
\t\tremaining client pid: 215 (/System/Library/PrivateFrameworks/CoreParsec.framework/parsecd)
\t\tremaining client pid: 0 (/kernel)
After 2.62s, these clients are still here:
\t\tremaining client pid: 0 (/kernel)
SIGTERM: [1717430400] All buffers flushed
After 1.05s, these clients are still here:
\t\tremaining client pid: 3021 (/private/var/db/com.apple.xpc.roleaccountd.staging/rolexd)
\t\tremaining client pid: 88 (/usr/libexec/nfcd)
After 3.10s, these clients are still here:
\t\tremaining client pid: 3021 (/private/var/db/com.apple.xpc.roleaccountd.staging/rolexd)
After 5.00s, these clients are still here:
\t\tremaining client pid: 3021 (/private/var/db/com.apple.xpc.roleaccountd.staging/rolexd)
SIGTERM: [1717516800] All buffers flushed
After 0.20s, these clients are still here:
\t\tremaining client pid: 140 (/usr/libexec/locationd)
";

const SHUTDOWN_B: &str = "After 0.1s, remaining client pid: 155 (/usr/libexec/nfcd)
After 0.1s, remaining client pid: 2143 (/private/var/tmp/bh)
SIGTERM: [1699952400]
";

const RESTORE_A: &str = r#"2024-06-03 10:00:00.123 restored[123] <Notice>: preparing analytics
2024-06-03 10:00:01.456 restored[123] <Notice>: sending event: data = {"events":[{"eventTime":1717408800,"originalOSVersion":"21E236","currentOSVersion":"21F79","event":"OTAUpdateSucceeded","deviceClass":"iPhone","deviceModel":"D16AP","batteryLevel":0.85,"batteryIsCharging":true,"releaseType":"User"}]}
2024-06-03 10:00:02.000 restored[123] <Notice>: sending event: data = {"events":[{"eventTime":17174
"#;

const RESTORE_B: &str = r#"2023-11-14 09:10:00.000 restored[88] <Notice>: data = {"events":[{"eventTime":1699949400000,"originalOSVersion":"20G75","currentOSVersion":"20H19","event":"OTAUpdateSucceeded","deviceClass":"iPhone","deviceModel":"D74AP"},{"eventTime":1699949401000,"event":"unrelated"}]}
"#;

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn shutdowns_and_os_updates_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    write(&a, "private/var/db/diagnostics/shutdown.log", SHUTDOWN_A);
    write(
        &a,
        "private/var/mobile/MobileSoftwareUpdate/restore.log",
        RESTORE_A,
    );
    write(
        &b,
        "private/var/mobile/Library/Logs/CrashReporter/DiagnosticLogs/sysdiagnose/sysdiagnose_2023.11.14_10-00-00+0100_iPhone-OS_iPhone_20H19/system_logs.logarchive/Extra/shutdown.log",
        SHUTDOWN_B,
    );
    write(
        &b,
        "private/var/MobileSoftwareUpdate/restore.log",
        RESTORE_B,
    );
    // another app's restore.log is no updater's
    write(
        &b,
        "private/var/mobile/Containers/Data/Application/X/Documents/restore.log",
        RESTORE_B,
    );
    let run = triage(&[
        ("a", &a, "Europe/Madrid", Some("ES")),
        ("b", &b, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // phone A: two shutdowns, one begun; rolexd a lead once
    let all = run.all_phenomena("a");
    let downs: Vec<_> = all
        .iter()
        .filter(|p| {
            p.title.starts_with("Device shut down") || p.title.starts_with("Shutdown begun")
        })
        .collect();
    assert_eq!(downs.len(), 3, "{downs:#?}");
    for (p, time, notices, longest, clients) in [
        (
            downs[0],
            Some("1717430400"),
            2,
            "2.62",
            &[
                "remaining client pid: 215 (/System/Library/PrivateFrameworks/CoreParsec.framework/parsecd)",
                "remaining client pid: 0 (/kernel)",
            ][..],
        ),
        (
            downs[1],
            Some("1717516800"),
            3,
            "5",
            &[
                "remaining client pid: 3021 (/private/var/db/com.apple.xpc.roleaccountd.staging/rolexd)",
                "remaining client pid: 88 (/usr/libexec/nfcd)",
            ][..],
        ),
        (
            downs[2],
            None,
            1,
            "0.2",
            &["remaining client pid: 140 (/usr/libexec/locationd)"][..],
        ),
    ] {
        assert_eq!(p.category, "device");
        match time {
            Some(t) => {
                assert!(p.title.starts_with("Device shut down"), "{}", p.title);
                assert_eq!(p.times.len(), 1);
                assert_eq!(p.times[0].encoding, TimeEncoding::UnixSeconds);
                assert_eq!(p.verified_facts[p.times[0].fact].value, t);
            }
            None => {
                assert!(
                    p.title.starts_with("Shutdown begun, no SIGTERM"),
                    "{}",
                    p.title
                );
                assert!(p.times.is_empty());
            }
        }
        for c in clients {
            assert!(has_fact(p, c), "{c}: {p:#?}");
        }
        assert!(
            p.interpretation.contains(&format!(
                "{notices} delay notice(s), the longest {longest} s"
            )),
            "{}",
            p.interpretation
        );
    }
    let leads: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Process running from "))
        .collect();
    assert_eq!(leads.len(), 1, "{leads:#?}");
    assert_eq!(
        leads[0].title,
        "Process running from /private/var/db/ delayed shutdown: rolexd"
    );
    assert_eq!(
        leads[0].verified_facts[leads[0].times[0].fact].value,
        "1717516800"
    );
    assert!(leads[0].interpretation.contains("a lead to review"));

    // phone A: one update event with iLEAPP's fields; the cut line noted
    let updates: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("OS update"))
        .collect();
    assert_eq!(updates.len(), 1, "{updates:#?}");
    let u = updates[0];
    assert_eq!(u.title, "OS updated from 21E236 to 21F79 (restore.log)");
    for v in [
        "21E236",
        "21F79",
        "OTAUpdateSucceeded",
        "iPhone",
        "D16AP",
        "0.85",
        "true",
        "User",
    ] {
        assert!(has_fact(u, v), "{v}: {u:#?}");
    }
    assert_eq!(u.verified_facts[u.times[0].fact].value, "1717408800");
    assert_eq!(u.times[0].encoding, TimeEncoding::UnixSeconds);
    run.assert_noted(
        "a",
        &[("MobileSoftwareUpdate/restore.log", "1 lines with `data = `")],
    );

    // phone B: the sysdiagnose's one-line form; /private/var/tmp/ a lead; ms event time; the
    // event without builds and the app's own restore.log passed over
    let all = run.all_phenomena("b");
    let downs: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Device shut down"))
        .collect();
    assert_eq!(downs.len(), 1, "{downs:#?}");
    assert!(has_fact(
        downs[0],
        "remaining client pid: 155 (/usr/libexec/nfcd)"
    ));
    assert!(
        downs[0]
            .interpretation
            .contains("2 delay notice(s), the longest 0.1 s")
    );
    assert!(
        all.iter()
            .any(|p| p.title == "Process running from /private/var/tmp/ delayed shutdown: bh")
    );
    let updates: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("OS update"))
        .collect();
    assert_eq!(updates.len(), 1, "{updates:#?}");
    assert_eq!(
        updates[0].title,
        "OS updated from 20G75 to 20H19 (restore.log)"
    );
    assert_eq!(updates[0].times[0].encoding, TimeEncoding::UnixMillis);
    assert!(has_fact(updates[0], "D74AP"));
}
