//! iCloud backup's CloudKit cache (`ios::cloudkit`): an iPhone's
//! `root/Library/Caches/Backup/cloudkit_cache.db`, written by
//! `tests/fixtures/cloudkit/cloudkit.py` with Python's sqlite3 and plistlib (no public copy is in
//! the corpus): one snapshot's property list plain, the other's a keyed archive. The generator's
//! record is the oracle: every snapshot (device name and UUID, iOS version, file count and
//! size, times) and file (domain, path, id, size, deleted, modified) is found, each device name
//! observed; a copy with a foreign schema is noted and the rest of the source read.

use crate::android_support::{generate, has_fact, triage};

/// A number as `serde_json` writes it.
fn n(v: &serde_json::Value) -> String {
    v.to_string()
}

#[test]
fn icloud_backup_snapshots_and_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (phone, foreign) = (tmp.path().join("phone"), tmp.path().join("foreign"));
    let oracle_file = tmp.path().join("phone.oracle.json");
    let o = generate(
        "",
        "tests/fixtures/cloudkit/cloudkit.py",
        &[phone.as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    // a foreign cloudkit_cache.db (no Snapshots table) beside a readable store
    let f = tmp.path().join("foreign.oracle.json");
    generate(
        "",
        "tests/fixtures/cloudkit/cloudkit.py",
        &[foreign.as_os_str(), f.as_os_str()],
        &f,
    );
    let db = foreign.join("private/var/root/Library/Caches/Backup/cloudkit_cache.db");
    let status = std::process::Command::new("sqlite3")
        .arg(&db)
        .arg("ALTER TABLE Snapshots RENAME TO Other;")
        .status()
        .unwrap();
    assert!(status.success());

    let run = triage(&[
        ("phone", &phone, "Europe/Lisbon", Some("PT")),
        ("foreign", &foreign, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("phone");
    for s in o["snapshots"].as_array().unwrap() {
        let title = format!(
            "iCloud backup snapshot {} of {}",
            s["id"],
            s["name"].as_str().unwrap()
        );
        let p = all
            .iter()
            .find(|p| p.title == title)
            .unwrap_or_else(|| panic!("{title}"));
        for v in ["uuid", "version"] {
            assert!(has_fact(p, s[v].as_str().unwrap()), "{title}: {v}");
        }
        for v in ["size", "count"] {
            assert!(has_fact(p, &n(&s[v])), "{title}: {v}");
        }
        assert!(p.interpretation.contains(&format!("{} files", s["count"])));
        // the property list's own dates, plain and archived alike
        assert!(
            p.verified_facts
                .iter()
                .filter(|f| f.value.starts_with("2024-01-"))
                .count()
                == 2,
            "{title}: {p:#?}"
        );
    }
    for f in o["files"].as_array().unwrap() {
        let kind = if f["type"] == 1 { "folder" } else { "file" };
        let title = format!(
            "iCloud backup {kind}: {}/{}{}",
            f["domain"].as_str().unwrap(),
            f["path"].as_str().unwrap(),
            if f["deleted"] == 1 { " (deleted)" } else { "" }
        );
        let p = all
            .iter()
            .find(|p| p.title == title)
            .unwrap_or_else(|| panic!("{title}"));
        assert!(has_fact(p, f["id"].as_str().unwrap()) && has_fact(p, &n(&f["size"])));
        assert!(
            p.interpretation
                .contains(&format!("snapshot {}", f["snapshot"]))
        );
    }
    let ids = run.identifiers("phone");
    for name in ["ana's iphone", "iphone de bruno"] {
        assert!(
            ids.contains(&("device_name".into(), name.into())),
            "{name} in {ids:?}"
        );
    }
    run.assert_noted("foreign", &[("cloudkit_cache.db", "no Snapshots table")]);
}
