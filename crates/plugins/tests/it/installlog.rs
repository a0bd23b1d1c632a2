//! The installation daemon's logs (`ios::installlog`): two iPhones' `mobile_installation.log.<n>`
//! written by `tests/fixtures/installlog/installlog.py` in the layout iLEAPP's `mobileInstall`
//! reads (C's ctime times; phone A's second log over 1 MiB, with a line of bytes that are not
//! UTF-8, so that it is read in pieces cut at line ends). The generator's record is the oracle,
//! and iLEAPP's `mobileInstall_historical`, run on the same files, lists the same events (it
//! drops the install kind, kept here): every event is found with its time as written (read in the
//! source's zone), bundle, kind and path; lines of other messages give nothing.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn installs_uninstalls_and_reboots_from_the_installation_logs() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/installlog/installlog.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.ends_with("(installation log)"))
            .collect();
        let events = o[source].as_array().unwrap();
        assert_eq!(found.len(), events.len(), "{found:#?}");
        for e in events {
            let what = e["what"].as_str().unwrap();
            let title = match e.get("bundle").and_then(|b| b.as_str()) {
                Some(b) => format!("{what}: {b} (installation log)"),
                None => format!("{what} (installation log)"),
            };
            let time = e["time"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| p.title == title && has_fact(p, time))
                .unwrap_or_else(|| panic!("{title} at {time}: {found:#?}"));
            assert_eq!(p.times.len(), 1, "{p:#?}");
            for k in ["kind", "path"] {
                if let Some(v) = e.get(k).and_then(|v| v.as_str()) {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert_eq!(
                p.category,
                if what == "Reboot detected" {
                    "device"
                } else {
                    "apps"
                }
            );
        }
    }
}
