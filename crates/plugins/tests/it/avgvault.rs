//! AVG AntiVirus's vault lock and Photo Vault (`android::avgvault`) on three phones, written by
//! `tests/fixtures/avgvault/avgvault.py` (the preferences file and vault folders ALEAPP's AVG
//! module reads; the vault's files random bytes with set times). The generator's record is the
//! oracle: whether a PIN and a pattern are set, the other preferences' values, the vault folder
//! with its key and metadata store files, each hidden file with its path, name, size and
//! modified time, how many previews; another app's `.key_store` folder not listed; phone C's
//! cut preferences noted and Avast's file of the same name not read; and the PIN and the
//! hashes of the PIN and the pattern in no phenomenon.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn avgvault_lock_and_hidden_files_on_three_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/avgvault/avgvault.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "Europe/Prague", Some("CZ")),
        ("c", &c, "Europe/Prague", Some("CZ")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let secrets: Vec<&str> = o["secrets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(secrets.len(), 3);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        // the lock: which of PIN and pattern are set, the other values as stored
        let (pin, pattern) = (o["pin"].as_bool().unwrap(), o["pattern"].as_bool().unwrap());
        let title = match (pin, pattern) {
            (true, true) => "AVG vault lock: PIN and pattern set",
            (true, false) => "AVG vault lock: PIN set",
            (false, true) => "AVG vault lock: pattern set",
            (false, false) => "AVG vault lock: no PIN stored",
        };
        let lock = titled(&all, title);
        assert_eq!(lock.category, "apps");
        assert_eq!(has_fact(lock, "encrypted_pin"), pin, "{lock:#?}");
        assert_eq!(has_fact(lock, "encrypted_pattern"), pattern, "{lock:#?}");
        for kv in o["values"].as_array().unwrap() {
            let (k, v) = (kv[0].as_str().unwrap(), kv[1].as_str().unwrap());
            assert!(has_fact(lock, k) && has_fact(lock, v), "{k}={v}: {lock:#?}");
        }
        // the vault and each hidden file
        let v = &o["vault"];
        let dir = v["dir"].as_str().unwrap();
        let vault = titled(&all, &format!("AVG vault {dir}"));
        assert_eq!(vault.category, "files");
        assert!(has_fact(vault, dir), "{vault:#?}");
        for s in v["stores"].as_array().unwrap() {
            assert!(has_fact(vault, s.as_str().unwrap()), "{s}: {vault:#?}");
        }
        let hidden = v["hidden"].as_array().unwrap();
        assert!(
            vault.interpretation.contains(&format!(
                "holding {} hidden files and {} previews",
                hidden.len(),
                v["previews"]
            )),
            "{vault:#?}"
        );
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Hidden in the AVG vault: "))
            .collect();
        assert_eq!(found.len(), hidden.len(), "{source}: {found:#?}");
        for h in hidden {
            let s = |k: &str| h[k].as_str().unwrap();
            let p = titled(&all, &format!("Hidden in the AVG vault: {}", s("name")));
            assert_eq!(p.category, "files");
            for k in ["path", "name", "size"] {
                assert!(has_fact(p, s(k)), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s("modified").to_string()], "{p:#?}");
        }
        // another app's key folder is no vault
        assert!(
            !all.iter()
                .any(|p| p.title.starts_with("AVG vault /data/data")),
            "{all:#?}"
        );
    }
    // never the PIN's or the pattern's hash in any phenomenon, never the PIN in AVG's
    for source in ["a", "b", "c"] {
        for p in run.all_phenomena(source) {
            let ours = p.title.starts_with("AVG ") || p.title.starts_with("Hidden in the AVG");
            for s in &secrets[..2] {
                assert!(
                    !p.title.contains(s) && !p.interpretation.contains(s),
                    "{s}: {p:#?}"
                );
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(s)),
                    "{s}: {p:#?}"
                );
            }
            if ours {
                let pin = secrets[2];
                assert!(
                    !p.interpretation.contains(pin)
                        && !p.verified_facts.iter().any(|f| f.value.contains(pin)),
                    "{p:#?}"
                );
            }
        }
    }
    // phone C: AVG's cut preferences noted; Avast's file of the same name not read
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
            .any(|p| p.title.starts_with("AVG ")),
        "{:#?}",
        run.all_phenomena("c")
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.contains("com.avast")),
        "{:#?}",
        run.unparsed("c")
    );
}
