//! The "hide my files" vault apps (`android::vaults`) on two Android phones, written by
//! `tests/fixtures/vaults/vaults.py` (Python's sqlite3, the tables and columns ALEAPP's
//! galleryVault, HideX, vaulty_files, vaulty_info and calculatorLockVault read). The generator's
//! record is the oracle: every file hidden in GalleryVault (original path, vault object, folder,
//! hidden, modified and recycled in Unix ms) and its break-in report, every app HideX locks,
//! every file hidden in Vaulty (original path, vault path, created in Unix seconds and hidden in
//! Unix ms) and its preferences (the Drive account observed as the owner's Google account),
//! Calculator Lock's hidden and kept files, notes, deletions, browser history and contacts
//! (`calculatorlock:<id>` persons by their numbers, read in each phone's region; day-first dates
//! facts, not times). Phone B: older tables read; a truncated GalleryVault copy, a HideX and a
//! Calculator Lock store of other layouts noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn vault_apps_hidden_files_notes_and_contacts_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/vaults/vaults.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Manila", Some("PH")),
        ("b", &b, "Africa/Johannesburg", Some("ZA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let times = |p: &masf_graph::Phenomenon| -> Vec<(String, String)> {
        p.times
            .iter()
            .map(|m| {
                (
                    m.description.clone(),
                    p.verified_facts[m.fact].value.clone(),
                )
            })
            .collect()
    };
    let str_of = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        // GalleryVault
        let hidden: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Hidden in GalleryVault: "))
            .collect();
        assert_eq!(
            hidden.len(),
            o["galleryvault"].as_array().unwrap().len(),
            "{hidden:#?}"
        );
        for f in o["galleryvault"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Hidden in GalleryVault: {}", str_of(&f["name"])),
            );
            assert_eq!(p.category, "files");
            for k in ["original_path", "uuid", "mime_type", "file_size"] {
                assert!(has_fact(p, &str_of(&f[k])), "{k}: {p:#?}");
            }
            let folder = str_of(&o["folders"][str_of(&f["folder_id"])]);
            assert!(has_fact(p, &folder), "{p:#?}");
            let t = times(p);
            assert!(t.contains(&(
                "File hidden in GalleryVault".into(),
                str_of(&f["added_time_utc"])
            )));
            if let Some(m) = f
                .get("file_last_modified_time_utc")
                .and_then(|v| v.as_str())
            {
                assert!(t.contains(&("Hidden file last modified (GalleryVault)".into(), m.into())));
            }
            match o["recycled"].get(str_of(&f["_id"])) {
                Some(when) => assert!(t.contains(&(
                    "Hidden file deleted to GalleryVault's recycle bin".into(),
                    str_of(when)
                ))),
                None => assert_eq!(
                    t.len(),
                    if f.get("file_last_modified_time_utc").is_some() {
                        2
                    } else {
                        1
                    },
                    "{t:?}"
                ),
            }
        }
        for r in o["breakins"].as_array().unwrap() {
            let p = titled(&all, "GalleryVault break-in attempt");
            assert_eq!(p.category, "app_usage");
            for k in ["wrongly_attempt_code", "photo_path", "address"] {
                assert!(has_fact(p, &str_of(&r[k])), "{k}: {p:#?}");
            }
            assert_eq!(
                times(p),
                vec![(
                    "Wrong code entered in GalleryVault".to_string(),
                    str_of(&r["timestamp"])
                )]
            );
        }
        // HideX
        for h in o["hidex"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("App locked by HideX: {}", str_of(&h["packageName"])),
            );
            assert_eq!(p.category, "apps");
            assert!(has_fact(p, &str_of(&h["isActive"])), "{p:#?}");
        }
        // Vaulty
        for m in o["vaulty"].as_array().unwrap() {
            let path = str_of(&m["path"]);
            let file = path.rsplit('/').next().unwrap();
            let p = titled(&all, &format!("Hidden in Vaulty: {file}"));
            assert!(
                has_fact(p, &path) && has_fact(p, &str_of(&m["_data"])),
                "{p:#?}"
            );
            let t = times(p);
            assert!(t.contains(&("File hidden in Vaulty".into(), str_of(&m["date_modified"]))));
            assert!(t.contains(&(
                "Hidden file created (as Vaulty recorded it)".into(),
                str_of(&m["date_added"])
            )));
        }
        let prefs = &o["vaulty_prefs"];
        let p = all
            .iter()
            .find(|p| p.title.starts_with("Vaulty account"))
            .expect("Vaulty's preferences");
        assert!(
            has_fact(p, prefs["password_hash"].as_str().unwrap()),
            "{p:#?}"
        );
        let owner = run.owner(source);
        match prefs.get("drive_account_name").and_then(|v| v.as_str()) {
            Some(drive) => assert!(
                owner.contains(&format!("google_account={drive}")),
                "{owner}"
            ),
            None => assert!(!owner.contains("google_account="), "{owner}"),
        }
        // Calculator Lock
        let calc = &o["calculator"];
        for h in calc["Hide"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Hidden in Calculator Lock: {}", str_of(&h["hide_name"])),
            );
            assert!(has_fact(p, &str_of(&h["hide_path"])), "{p:#?}");
        }
        for n in calc["Note"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Calculator Lock note: {}", str_of(&n["note_title"])),
            );
            assert_eq!(p.category, "notes");
            assert!(has_fact(p, &str_of(&n["note_data"])), "{p:#?}");
            // a day-first date without a time: a fact, no time
            assert!(
                has_fact(p, &str_of(&n["note_date"])) && p.times.is_empty(),
                "{p:#?}"
            );
        }
        let entities = run.entities(source);
        for c in calc["Contact"].as_array().unwrap() {
            let name = str_of(&c["contact_name"]);
            let p = titled(&all, &format!("Calculator Lock contact {name}"));
            assert_eq!(p.category, "contacts");
            assert!(has_fact(p, &str_of(&c["contact_number"])), "{p:#?}");
            let id = str_of(&c["contact_id"]);
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("calculatorlock:{id} "))
                        && e.contains("phone=+")),
                "{entities:#?}"
            );
        }
    }
    // the numbers read in each phone's region
    let ea = run.entities("a");
    assert!(
        ea.iter()
            .any(|e| e.starts_with("calculatorlock:1 ") && e.contains("phone=+639175550142")),
        "{ea:#?}"
    );
    let eb = run.entities("b");
    assert!(
        eb.iter()
            .any(|e| e.starts_with("calculatorlock:9 ") && e.contains("phone=+27825550178")),
        "{eb:#?}"
    );
    // phone A's kept file, deletion and private browsing
    let all = run.all_phenomena("a");
    let kept = titled(&all, "Kept in Calculator Lock: ledger.xlsx");
    assert!(
        has_fact(kept, "/storage/emulated/0/Documents/ledger.xlsx") && has_fact(kept, "16-06-2024"),
        "{kept:#?}"
    );
    titled(&all, "Deleted in Calculator Lock: old_route.jpg");
    let visit = titled(&all, "Calculator Lock browser visit: Ferry schedule");
    assert_eq!(visit.category, "web");
    assert!(
        has_fact(visit, "https://ferry.example.ph/schedule"),
        "{visit:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.thinkyeah.galleryvault/databases/galleryvault.db",
                "malformed",
            ),
            (
                "user/11/com.flatfish.cal.privacy/databases/hidex.db",
                "p_lock_app",
            ),
            (
                "user/11/com.calculator.lock.hide.photo.video/databases/note_contact.db",
                "none of Hide",
            ),
        ],
    );
}
