//! Samsung My Files' other stores (`android::myfiles`) on three Samsung phones, written by
//! `tests/fixtures/myfiles/myfiles.py` (Python's sqlite3, the tables and columns ALEAPP's
//! smyFiles, smyFiles2, smyfilesStored, smyfilescache and smyfilesMetadata read, and My Files'
//! own trash folder as smyfilesTrash reads it). The generator's record is the oracle: every
//! download (three layouts: `FileInfo.db`'s, the legacy `date`/`_data` one and the m-prefixed
//! one), m-prefixed recent file, Google Drive entry, indexed and analysed file, search, cached
//! file, frequent folder and app trash count with each value it wrote and its times; each file of
//! the trash folder with its original folder, item and deletion time. Phone A's newer
//! `recent_files` (with `path`) is left to `samsungfiles` (read there, not here); phone B's
//! older tables lacking optional columns are read; phone C's truncated `FileInfo.db`, foreign
//! `FileCache.db`, `frequently_folder` without `path` and a file outside the trash layout are
//! noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// A JSON value as the query's output writes it (`None` for NULL).
fn value(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        n => Some(n.to_string()),
    }
}

#[test]
fn myfiles_downloads_cloud_index_cache_and_trash_on_three_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/myfiles/myfiles.py",
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
    // (table, title prefix, the columns the title shows (first present), the time columns)
    let tables: &[(&str, &str, &[&str], &[&str])] = &[
        (
            "download_history",
            "My Files download: ",
            &["mName", "name", "mFullPath", "_data", "path"],
            &["mDate", "date", "date_modified"],
        ),
        (
            "recent_files",
            "My Files recent file: ",
            &["mName", "mFullPath"],
            &["mDate"],
        ),
        (
            "googledrive",
            "My Files Google Drive file: ",
            &["name", "_data", "file_id"],
            &["date_modified"],
        ),
        (
            "local_files",
            "My Files local file: ",
            &["_data", "path", "name"],
            &["date_modified"],
        ),
        (
            "analyze_storage",
            "My Files storage analysis: ",
            &["_data", "path", "name"],
            &["date_modified"],
        ),
        (
            "search_history",
            "My Files search: ",
            &["name"],
            &["date_modified"],
        ),
        (
            "FileCache",
            "My Files cached file: ",
            &["_data", "path"],
            &["date_modified", "date", "latest"],
        ),
        (
            "frequently_folder",
            "My Files frequent folder: ",
            &["path"],
            &["date_modified"],
        ),
        ("trash_apps", "My Files trash of ", &["package_name"], &[]),
    ];
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        for (table, prefix, title_cols, time_cols) in tables {
            let rows = o[source][*table].as_array().cloned().unwrap_or_default();
            let found: Vec<_> = all.iter().filter(|p| p.title.starts_with(prefix)).collect();
            assert_eq!(found.len(), rows.len(), "{source} {table}: {found:#?}");
            for r in &rows {
                let shown = title_cols
                    .iter()
                    .find_map(|c| r.get(*c).and_then(value).filter(|v| !v.is_empty()))
                    .unwrap();
                let p = titled(&all, &format!("{prefix}{shown}"));
                assert_eq!(p.category, "files");
                for (k, v) in r.as_object().unwrap() {
                    if let Some(v) = value(v).filter(|v| !v.is_empty()) {
                        assert!(has_fact(p, &v), "{source} {table} {k}={v}: {p:#?}");
                    }
                }
                let mut times: Vec<String> = time_cols
                    .iter()
                    .filter_map(|c| r.get(*c).and_then(value))
                    .collect();
                times.sort();
                assert_eq!(time_values(p), times, "{source} {table}: {p:#?}");
            }
        }
        // My Files' own trash: one phenomenon per file, with where it was deleted from and when
        let trash = o[source]["trash"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Deleted to My Files' trash: "))
            .collect();
        assert_eq!(found.len(), trash.len(), "{source}: {found:#?}");
        for t in trash {
            let s = |k: &str| t[k].as_str().unwrap();
            let p = titled(&all, &format!("Deleted to My Files' trash: {}", s("shown")));
            assert_eq!(p.category, "files");
            for k in ["path", "folder", "item", "size"] {
                assert!(has_fact(p, s(k)), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s("deleted").to_string()]);
            if s("shown") != s("item") {
                assert!(p.interpretation.contains("within it"), "{p:#?}");
            }
        }
        // the stores of both phones read without a note
        let notes: Vec<_> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| {
                u.artefact
                    .contains("/com.sec.android.app.myfiles/databases/")
                    || u.artefact.ends_with("/files/trash")
            })
            .collect();
        assert!(notes.is_empty(), "{source}: {notes:#?}");
    }
    // phone A's newer recent files are samsungfiles's: read there, not here
    let all = run.all_phenomena("a");
    titled(&all, "Recent file in My Files: boarding_pass_LH2042.pdf");
    // phone B's older layouts: the m-prefixed and legacy downloads, a FileInfo.db download
    // without a description, a Drive entry without a web link
    let all = run.all_phenomena("b");
    let cv = titled(&all, "My Files download: cv.docx");
    assert!(!cv.interpretation.contains("description"), "{cv:#?}");
    let drive = titled(
        &all,
        "My Files Google Drive file: /Google Drive/My Drive/cv.docx",
    );
    assert!(!drive.interpretation.contains("web link"), "{drive:#?}");
    // phone C: each damaged store or file noted, nothing read from them
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("My Files ") || p.title.starts_with("Deleted to My Files")),
        "{:#?}",
        run.all_phenomena("c")
    );
}
