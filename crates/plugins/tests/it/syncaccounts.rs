//! The sync manager's `accounts.xml` (`android::syncaccounts`), written by
//! `tests/fixtures/syncaccounts/syncaccounts.py` in the layouts AOSP's `SyncStorageEngine`
//! writes: Android 11's (phone A, version 3), Android 7's (phone B, version 2: periodic syncs
//! and a service-bound entry), and a file of another shape (phone C). Phone A's text is also
//! encoded as Android 12+ writes it (ABX, by the android-abx crate's encoder) for phone D, and a
//! truncated ABX copy for phone E. The generator's record is the oracle: every authority with
//! its account, type, provider, enabled, syncable, id, user and periodic syncs; every user's
//! auto-sync switch; user 0's e-mail and phone account names the owner's (a Google account by
//! its type), a name that is neither not, another user's account that user's person; both
//! encodings read alike; the foreign file and the truncated ABX noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn syncaccounts_plain_abx_and_android7_files() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/syncaccounts/syncaccounts.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let rel = "data/system/sync/accounts.xml";
    let root = |p: &str| tmp.path().join(p);
    // phone D: phone A's file as Android 12+ writes it; phone E: that ABX cut in half
    let text = std::fs::read_to_string(root("a").join(rel)).unwrap();
    let encoded = android_abx::xml_to_abx(&text).unwrap();
    assert!(encoded.starts_with(b"ABX\0"));
    for (p, bytes) in [("d", &encoded[..]), ("e", &encoded[..encoded.len() / 2])] {
        let f = root(p).join(rel);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::create_dir_all(root(p).join("data/system/users/0")).unwrap();
        std::fs::write(f, bytes).unwrap();
    }
    let (a, b, c, d, e) = (root("a"), root("b"), root("c"), root("d"), root("e"));
    let run = triage(&[
        ("a", &a, "Europe/Stockholm", Some("SE")),
        ("b", &b, "Europe/Stockholm", Some("SE")),
        ("c", &c, "UTC", Some("SE")),
        ("d", &d, "Europe/Stockholm", Some("SE")),
        ("e", &e, "UTC", Some("SE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, oracle) in [("a", "a"), ("b", "b"), ("d", "a")] {
        let o = &o[oracle];
        let all = run.all_phenomena(source);
        let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
        let auths = o["authorities"].as_array().unwrap();
        let services = o["services"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Sync of "))
            .collect();
        assert_eq!(
            found.len(),
            auths.len() + services.len(),
            "{source}: {found:#?}"
        );
        for x in auths {
            let user = s(&x["user"]);
            let title = format!(
                "Sync of {} for {} ({}){}",
                s(&x["authority"]),
                s(&x["account"]),
                s(&x["type"]),
                if user == "0" {
                    String::new()
                } else {
                    format!(" (user {user})")
                }
            );
            let p = titled(&all, &title);
            assert_eq!(p.category, "accounts");
            for k in [
                "account",
                "type",
                "authority",
                "enabled",
                "syncable",
                "id",
                "user",
            ] {
                assert!(has_fact(p, &s(&x[k])), "{source} {k}: {p:#?}");
            }
            if let Some(periodic) = x.get("periodic").and_then(|v| v.as_array()) {
                for pf in periodic {
                    assert!(has_fact(p, &s(&pf[0])) && has_fact(p, &s(&pf[1])), "{p:#?}");
                    assert!(p.interpretation.contains(&format!("every {} s", s(&pf[0]))));
                }
            }
            assert!(p.times.is_empty(), "the file keeps no time: {p:#?}");
        }
        for x in services {
            let p = titled(
                &all,
                &format!("Sync of service {}/{}", s(&x["package"]), s(&x["class"])),
            );
            for k in ["package", "class", "enabled", "syncable", "id"] {
                assert!(has_fact(p, &s(&x[k])), "{k}: {p:#?}");
            }
        }
        for t in o["tickles"].as_array().unwrap() {
            let p = titled(&all, &format!("Auto-sync of user {}", s(&t["user"])));
            assert!(has_fact(p, &s(&t["enabled"])), "{p:#?}");
        }
        // user 0's e-mail and phone names are the owner's, another user's that user's
        let owner = run.owner(source).to_lowercase();
        for id in o["owner"].as_array().unwrap() {
            assert!(
                owner.contains(id.as_str().unwrap()),
                "{source} {id}: {owner}"
            );
        }
        for not in o["not_owner"].as_array().unwrap() {
            assert!(!owner.contains(not.as_str().unwrap()), "{not}: {owner}");
        }
        let entities = run.entities(source);
        for (u, id) in o["other_users"].as_object().unwrap() {
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("android-user:{u} "))
                        && e.contains(id.as_str().unwrap())),
                "{u} {id}: {entities:#?}"
            );
        }
    }
    // an entry awaiting account access and one of the work profile, explained
    let all = run.all_phenomena("a");
    let fit = titled(
        &all,
        "Sync of com.google.android.gms.fitness for pat.lindqvist@gmail.com (com.google)",
    );
    assert!(
        fit.interpretation
            .contains("awaiting access to the account"),
        "{fit:#?}"
    );
    // both encodings: the ABX file decoded, and said so
    let formats: Vec<String> = run
        .outputs("d")
        .into_iter()
        .filter(|(t, _, _)| t == "read_xml")
        .map(|(_, _, o)| o.lines().next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(formats, vec!["# format: abx (decoded)"]);
    let titles = |src: &str| {
        let mut t: Vec<String> = run
            .phenomena(src)
            .into_iter()
            .filter(|x| x.contains("Sync of ") || x.contains("Auto-sync of "))
            .collect();
        t.sort();
        t
    };
    assert_eq!(titles("a"), titles("d"));
    run.assert_noted(
        "c",
        &[(
            "system/sync/accounts.xml",
            "its root element is <map>, not <accounts>",
        )],
    );
    run.assert_noted(
        "e",
        &[(
            "system/sync/accounts.xml",
            "not a readable Android Binary XML file",
        )],
    );
}
