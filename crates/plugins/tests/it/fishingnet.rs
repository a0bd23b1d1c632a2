//! App Locker by fishingnet — HLD's vault apps (`android::fishingnet`) — on two Android phones and
//! a third tree, written by `tests/fixtures/fishingnet/fishingnet.py` (the folders and files
//! ALEAPP's appLockerfishingnet, appLockerfishingnetdb and appLockerfishingnetpat read). The
//! generator's record is the oracle: every hidden picture and video with its path, size and
//! modified time; phone A's encrypted vault index said and noted, its unlock pattern said set
//! and its ciphertext in no phenomenon; phone B's plain index copy read row by row (an older
//! FILE_INFO), its number password (ACCOUNT) in no output, its preferences without a pattern;
//! phone C's damaged index and preferences noted while its picture is read.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn fishingnet_app_locker_vault_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/fishingnet/fishingnet.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Asia/Shanghai", Some("CN")),
        ("b", &b, "Europe/Madrid", Some("ES")),
        ("c", &c, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();

    // every hidden picture and video, on every phone (C's beside its damaged index)
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let files = o[source]["files"].as_array().unwrap();
        let hidden: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Hidden in App Locker (.privacy_safe/"))
            .collect();
        assert_eq!(hidden.len(), files.len(), "{source}: {hidden:#?}");
        for f in files {
            let p = titled(
                &all,
                &format!(
                    "Hidden in App Locker (.privacy_safe/{}): {}",
                    s(&f["folder"]),
                    s(&f["name"])
                ),
            );
            assert_eq!(p.category, "files");
            for k in ["path", "name", "size"] {
                assert!(has_fact(p, &s(&f[k])), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(&f["modified"])], "{p:#?}");
        }
    }

    // A: the app's index is encrypted: said, with its size and time, and noted
    let all = run.all_phenomena("a");
    let index = titled(&all, "App Locker vault index privacy_safe.db (encrypted)");
    assert!(
        has_fact(index, &s(&o["a"]["index"])) && has_fact(index, &s(&o["a"]["index_size"])),
        "{index:#?}"
    );
    assert_eq!(time_values(index), vec![s(&o["a"]["index_modified"])]);
    run.assert_noted("a", &[("/.privacy_safe/db/privacy_safe.db", "SQLCipher")]);
    assert!(
        !all.iter()
            .any(|p| p.title.starts_with("Hidden in App Locker: ")),
        "the encrypted index yields no rows"
    );
    // A: a pattern is set; B: none
    let pattern = titled(&all, "App Locker (HLD) unlock pattern set");
    assert_eq!(pattern.category, "apps");
    assert!(has_fact(pattern, &s(&o["pattern_pref"])), "{pattern:#?}");
    let all_b = run.all_phenomena("b");
    titled(
        &all_b,
        "App Locker (HLD) preferences without an unlock pattern",
    );
    assert!(
        !all_b
            .iter()
            .any(|p| p.title == "App Locker (HLD) unlock pattern set")
    );

    // B: a plain copy of the index is read, every FILE_INFO row (older layout)
    let rows = o["b"]["rows"].as_array().unwrap();
    let indexed: Vec<_> = all_b
        .iter()
        .filter(|p| p.title.starts_with("Hidden in App Locker: "))
        .collect();
    assert_eq!(indexed.len(), rows.len(), "{indexed:#?}");
    for r in rows {
        let p = titled(
            &all_b,
            &format!("Hidden in App Locker: {}", s(&r["ORIGIN_NAME"])),
        );
        assert_eq!(p.category, "files");
        for k in [
            "ORIGIN_NAME",
            "ORIGIN_PATH",
            "FOLDER_NAME",
            "ENCRYPT_NAME",
            "ENCRYPT_PATH",
            "SIZE",
            "FILE_LENGTH",
            "SUFFIX",
            "TYPE",
            "ENCRYPT_TYPE",
        ] {
            assert!(has_fact(p, &s(&r[k])), "{k}: {p:#?}");
        }
        let mut times = vec![s(&r["ADD_TIME"]), s(&r["CREATE_TIME"])];
        times.sort();
        assert_eq!(time_values(p), times, "{p:#?}");
    }
    assert!(
        !all_b
            .iter()
            .any(|p| p.title.starts_with("App Locker vault index")),
        "a plain copy is read, not said encrypted"
    );

    // secrets: the pattern's ciphertext (A) in no phenomenon; the number password (B) in no
    // phenomenon and in no output at all (ACCOUNT is never selected)
    for source in ["a", "b"] {
        let secrets: Vec<String> = o[source]["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(&s)
            .collect();
        assert!(!secrets.is_empty());
        for p in run.all_phenomena(source) {
            for secret in &secrets {
                assert!(
                    !p.title.contains(secret.as_str())
                        && !p.interpretation.contains(secret.as_str())
                        && !p
                            .verified_facts
                            .iter()
                            .any(|f| f.value.contains(secret.as_str())),
                    "{secret}: {p:#?}"
                );
            }
        }
    }
    for (tool, args, text) in run.outputs("b") {
        assert!(
            !text.contains("9638527410"),
            "the number password in {tool} {args}"
        );
    }

    // C: the damaged index and the cut preferences are noted; its picture was read above
    run.assert_noted(
        "c",
        &[
            ("/.privacy_safe/db/privacy_safe.db", "not a SQLite database"),
            ("share_privacy_safe.xml", "shared preferences"),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("App Locker vault index")
                || p.title.starts_with("App Locker (HLD)")),
        "nothing recorded of C's damaged index and preferences"
    );
}
