//! iCloud Drive as the Files app syncs it (`ios::clouddocs`): two iPhones' `client.db` and
//! `server.db` written with Python's sqlite3 by `tests/fixtures/clouddocs/clouddocs.py` (the
//! tables and columns iLEAPP's filesApp modules read; user names in a keyed archive after three
//! bytes). The generator's record is the oracle: every device of the account is found and
//! observed by its name, the person who shared a file by name, every app library, every file and
//! folder at its rebuilt path with its size, times and the device that wrote its version, the
//! sharing, tags, favourite and Recently Deleted said; the OS builds booted; phone B's older store
//! (no favourite rank, no boot history) read without a note.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn icloud_drive_files_with_the_devices_that_wrote_them() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/clouddocs/clouddocs.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        assert!(
            run.unparsed(source).is_empty(),
            "{source}: {:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let o = &o[source];
        let by = |title: &str| {
            all.iter().find(|p| p.title == title).unwrap_or_else(|| {
                panic!(
                    "{source}: {title}: {:#?}",
                    all.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            })
        };
        let ids = run.identifiers(source);
        let mut names = std::collections::BTreeMap::new();
        for d in o["devices"].as_array().unwrap() {
            let (key, name) = (d[0].as_i64().unwrap(), d[1].as_str().unwrap());
            let p = by(&format!("iCloud Drive device {key}: {name}"));
            assert!(has_fact(p, name), "{p:#?}");
            assert!(
                ids.iter()
                    .any(|(t, v)| t == "device_name" && v.contains(&name.to_lowercase()[2..])),
                "{name} in {ids:?}"
            );
            names.insert(key, name);
        }
        for u in o["users"].as_array().unwrap() {
            let (key, given, family) = (
                u[0].as_i64().unwrap(),
                u[1].as_str().unwrap(),
                u[2].as_str().unwrap(),
            );
            let p = by(&format!("iCloud Drive user {key}: {given} {family}"));
            assert!(has_fact(p, given) && has_fact(p, family), "{p:#?}");
        }
        for lib in o["apps"].as_array().unwrap() {
            let p = by(&format!(
                "iCloud Drive app library: {}",
                lib[0].as_str().unwrap()
            ));
            for n in &lib.as_array().unwrap()[1..] {
                assert!(has_fact(p, &n.to_string()), "{n}: {p:#?}");
            }
        }
        for it in o["items"].as_array().unwrap() {
            let path = it["path"].as_str().unwrap();
            let folder = path.ends_with('/');
            let p = by(&format!(
                "iCloud Drive {}: {path}",
                if folder { "folder" } else { "file" }
            ));
            assert_eq!(p.category, "files");
            assert!(has_fact(p, it["name"].as_str().unwrap()), "{p:#?}");
            if let Some(size) = it.get("size") {
                assert!(has_fact(p, &size.to_string()), "{p:#?}");
            }
            if let Some(k) = it.get("device").and_then(|d| d.as_i64()) {
                let name = names[&k];
                assert!(has_fact(p, name), "{name}: {p:#?}");
                assert!(
                    p.interpretation
                        .contains(&format!("written by {name} (device {k})")),
                    "{}",
                    p.interpretation
                );
            }
            let times = ["created", "modified", "opened"]
                .iter()
                .filter(|k| it.get(**k).and_then(|v| v.as_i64()).unwrap_or(0) > 0)
                .count();
            assert_eq!(p.times.len(), times, "{p:#?}");
        }
        for (date, build) in o["builds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b[0].as_i64().unwrap(), b[1].as_str().unwrap()))
        {
            let p = by(&format!("OS build {build} (iCloud Drive boot history)"));
            assert!(
                has_fact(p, &date.to_string()) && p.times.len() == 1,
                "{p:#?}"
            );
        }
    }
    let a = run.all_phenomena("a");
    let said = |title: &str, what: &str| {
        let p = a.iter().find(|p| p.title == title).unwrap();
        assert!(p.interpretation.contains(what), "{}", p.interpretation);
    };
    said(
        "iCloud Drive file: Documents/ledger.numbers",
        "shared (anyone with the link can view only), by Jonas Keller",
    );
    said(
        "iCloud Drive file: Documents/keys.txt",
        "Finder tags Red\\n6\\nWork\\n0, favourite (rank 3)",
    );
    said(
        "iCloud Drive file: Documents/Invoices/old-invoice.pdf",
        "in Recently Deleted (put back to Documents/Invoices)",
    );
    said(
        "iCloud Drive file: Plan.pages",
        "in com.apple.Pages's library",
    );
    said("iCloud Drive file: Plan.pages", "extension hidden");
    said(
        "iCloud Drive file: Documents/Invoices/invoice-0042.pdf",
        "written by Lena’s MacBook Pro (device 2)",
    );
}
