//! Samsung's trash provider and My Files' recent files (`android::samsungfiles`) of two Samsung
//! phones written by `tests/fixtures/samsungfiles/samsungfiles.py` (Python's sqlite3, the columns
//! ALEAPP's samsungTrash and smyfilesRecents read; phone A's newer `FileInfo.db`, phone B's older
//! `myfiles.db`). The generator's record is the oracle: every trashed file with each value and
//! its deletion and expiry times, every recent file with its path, values and times; a
//! `myfiles.db` without recent files passed over, a `trashes` table without `_data` noted.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn samsung_trash_and_my_files_recents_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/samsungfiles/samsungfiles.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let trashed: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Deleted to the trash: "))
            .collect();
        let expected = o["trash"].as_array().unwrap();
        assert_eq!(trashed.len(), expected.len(), "{source}: {trashed:#?}");
        for f in expected {
            let title = format!(
                "Deleted to the trash: {}",
                f["_display_name"].as_str().unwrap()
            );
            let p = trashed.iter().find(|p| p.title == title).unwrap();
            assert_eq!(p.category, "files");
            for (k, v) in f.as_object().unwrap() {
                if k.starts_with("date_") {
                    continue;
                }
                match v {
                    serde_json::Value::Null => {}
                    serde_json::Value::String(s) => assert!(has_fact(p, s), "{k}: {p:#?}"),
                    n => assert!(has_fact(p, &n.to_string()), "{k}: {p:#?}"),
                }
            }
            let times: Vec<&str> = p
                .times
                .iter()
                .map(|t| p.verified_facts[t.fact].value.as_str())
                .collect();
            assert_eq!(
                times,
                [f["date_deleted"].to_string(), f["date_expires"].to_string()]
            );
        }
        let recent: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Recent file in My Files: "))
            .collect();
        let expected = o["recent"].as_array().unwrap();
        assert_eq!(recent.len(), expected.len(), "{source}: {recent:#?}");
        for f in expected {
            let path = f
                .get("path")
                .or_else(|| f.get("_data"))
                .unwrap()
                .as_str()
                .unwrap();
            let p = recent
                .iter()
                .find(|p| has_fact(p, path))
                .unwrap_or_else(|| panic!("{path}"));
            for k in [
                "name",
                "size",
                "file_id",
                "package_name",
                "ext",
                "_description",
            ] {
                if let Some(v) = f.get(k) {
                    let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let times: Vec<&str> = p
                .times
                .iter()
                .map(|t| p.verified_facts[t.fact].value.as_str())
                .collect();
            assert_eq!(
                times,
                [f["recent_date"].to_string(), f["date_modified"].to_string()]
            );
            if f.get("is_hidden") == Some(&serde_json::json!(1)) {
                assert!(
                    p.interpretation.contains("hidden: yes"),
                    "{}",
                    p.interpretation
                );
            }
        }
    }
    run.assert_noted(
        "b",
        &[(
            "com.samsung.android.providers.trash/databases/trash.db",
            "_data",
        )],
    );
    assert!(
        !run.unparsed("a")
            .iter()
            .any(|u| u.artefact.ends_with("myfiles.db")),
        "{:#?}",
        run.unparsed("a")
    );
}
