//! Playground AppLocker's vault (`android::playgroundvault`) on two Android phones and a third
//! tree, written by `tests/fixtures/playgroundvault/playgroundvault.py` (the folders and the key
//! file ALEAPP's playgroundVault reads). The generator's record is the oracle: every file of
//! `applocker/vault/` with its path, size, modified time and the time its name holds (none for a
//! file of another name), phone A's intruder photo, the key file said present with its size and
//! time while its key is in no output of the run; phone B's other `applocker` folder passed over;
//! phone C's truncated vault file noted while both of its files are listed.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn playgroundvault_files_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/playgroundvault/playgroundvault.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/Chicago", Some("US")),
        ("b", &b, "Europe/Istanbul", Some("TR")),
        ("c", &c, "Europe/Istanbul", Some("TR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();

    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let files = o[source]["files"].as_array().unwrap();
        let listed: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Hidden in Playground AppLocker: ")
                    || p.title
                        .starts_with("Preview in Playground AppLocker's vault: ")
                    || p.title
                        .starts_with("Intruder photo taken by Playground AppLocker: ")
            })
            .collect();
        assert_eq!(listed.len(), files.len(), "{source}: {listed:#?}");
        for f in files {
            let name = s(&f["name"]);
            let title = if f["folder"] == "intruders" {
                format!("Intruder photo taken by Playground AppLocker: {name}")
            } else if name.starts_with("PREVIEW_") {
                format!("Preview in Playground AppLocker's vault: {name}")
            } else {
                format!("Hidden in Playground AppLocker: {name}")
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "files");
            for k in ["path", "name", "size"] {
                assert!(has_fact(p, &s(&f[k])), "{k}: {p:#?}");
            }
            // the name's Unix milliseconds (when hidden) and the modified time
            let mut times = vec![s(&f["modified"])];
            if let Some(stamp) = f["stamp"].as_str() {
                times.push(stamp.to_string());
            }
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
    }

    // A: the key file is said to be there, from the listing; its key is in no output at all
    let all = run.all_phenomena("a");
    let key = titled(&all, "Playground AppLocker vault key file present");
    assert_eq!(key.category, "apps");
    assert!(
        has_fact(key, &s(&o["a"]["key_file"])) && has_fact(key, &s(&o["a"]["key_size"])),
        "{key:#?}"
    );
    assert_eq!(time_values(key), vec![s(&o["a"]["key_modified"])]);
    let secrets: Vec<String> = o["a"]["secrets"]
        .as_array()
        .unwrap()
        .iter()
        .map(&s)
        .collect();
    assert_eq!(secrets.len(), 2);
    for (tool, args, text) in run.outputs("a") {
        assert!(
            !args.contains("crypto.KEY_256.xml\"") || tool == "find_files",
            "the key file was read: {tool} {args}"
        );
        for secret in &secrets {
            assert!(!text.contains(secret.as_str()), "the key in {tool} {args}");
        }
    }
    for p in &all {
        for secret in &secrets {
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.value.contains(secret.as_str()))
                    && !p.interpretation.contains(secret.as_str()),
                "{p:#?}"
            );
        }
    }

    // B: no key file in the extraction; the other app's `applocker` folder is passed over
    let all = run.all_phenomena("b");
    assert!(!all.iter().any(|p| p.title.contains("key file")));
    assert!(
        !all.iter().any(|p| p.title.contains("config.json")),
        "{all:#?}"
    );
    assert!(
        !run.unparsed("b")
            .iter()
            .any(|u| u.artefact.contains("/com.example.other/")),
        "another app's folder is not noted"
    );

    // C: the truncated vault file is noted (and listed above)
    run.assert_noted("c", &[(&s(&o["c"]["truncated"]), "truncated")]);
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.ends_with("/EIF1700000000000")),
        "a whole file is not noted"
    );
}
