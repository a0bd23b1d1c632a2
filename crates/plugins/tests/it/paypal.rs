//! PayPal's app data (`android::paypal`) on two Android phones and a third tree, written by
//! `tests/fixtures/paypal/paypal.py` (Python's sqlite3 and plain XML, the files, tables and keys
//! ALEAPP's payPal reads). The generator's record is the oracle: each session grouped from its
//! events (count, first and last event as stored, API versions, the encrypted flag), the older
//! table of phone B read with NULLs; the app's device id, version, cache time, installation GUID
//! and the keep-me-logged-in flag; each encrypted preferences file said with its size, never
//! read; no identity observed (no file names the account); another app's `tracking` never read;
//! the payloads and the encrypted files' keysets and values in no output, the encrypted entries
//! of the account-state file (which `read_xml` prints) in no phenomenon; a truncated store, a
//! store without `session_event` and a preferences file without a `<map>` noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn paypal_sessions_device_and_encrypted_stores_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/paypal/paypal.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "Europe/London", Some("GB")),
        ("c", &c, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let strs = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let never_output = strs(&o["never_output"]);
    let not_in_phenomena = strs(&o["not_in_phenomena"]);
    assert!(!never_output.is_empty() && !not_in_phenomena.is_empty());
    for source in ["a", "b"] {
        let os = &o[source];
        let all = run.all_phenomena(source);
        // one phenomenon per session, grouped from its events
        let sessions = os["sessions"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("PayPal app session "))
            .collect();
        assert_eq!(found.len(), sessions.len(), "{found:#?}");
        for s in sessions {
            let id = s[0].as_str().unwrap();
            let p = titled(&all, &format!("PayPal app session {id}"));
            assert_eq!(p.category, "app_usage");
            assert!(has_fact(p, s[1].as_str().unwrap()), "events: {p:#?}");
            assert_eq!(
                time_values(p),
                vec![
                    s[2].as_str().unwrap().to_string(),
                    s[3].as_str().unwrap().to_string()
                ],
                "{p:#?}"
            );
            let mut versions = strs(&s[4]);
            versions.sort();
            let listed = p.verified_facts.iter().any(|f| {
                let mut got: Vec<String> = f.value.split(',').map(str::to_string).collect();
                got.sort();
                got == versions
            });
            match s[5].as_str() {
                Some(flag) => {
                    assert!(listed, "API versions {versions:?}: {p:#?}");
                    assert!(has_fact(p, flag), "encrypted flag: {p:#?}");
                }
                // the older table: no API version, no flag (NULL, no fact)
                None => assert_eq!(p.verified_facts.len(), 5, "{p:#?}"),
            }
        }
        // the app's device id, version and configuration cache time
        let dev = &os["device"];
        let p = titled(
            &all,
            &format!("PayPal app device {}", dev["id"].as_str().unwrap()),
        );
        assert_eq!(p.category, "apps");
        assert!(has_fact(p, dev["version"].as_str().unwrap()), "{p:#?}");
        match dev["cached"].as_str() {
            Some(t) => assert_eq!(time_values(p), vec![t.to_string()]),
            None => assert!(p.times.is_empty(), "{p:#?}"),
        }
        // the installation GUID and the keep-me-logged-in flag where their files are
        match os["guid"].as_str() {
            Some(g) => {
                let p = titled(&all, &format!("PayPal app installation {g}"));
                assert!(has_fact(p, g));
            }
            None => assert!(
                !all.iter()
                    .any(|p| p.title.starts_with("PayPal app installation"))
            ),
        }
        match os["kmli"].as_str() {
            Some(k) => {
                let p = titled(
                    &all,
                    &format!("PayPal account state, keep me logged in opt-out {k}"),
                );
                assert_eq!(p.category, "accounts");
                assert!(has_fact(p, k));
            }
            None => assert!(
                !all.iter()
                    .any(|p| p.title.starts_with("PayPal account state"))
            ),
        }
        // each encrypted preferences file said, with its size and modification time (UTC)
        let enc = os["encrypted"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("PayPal encrypted preferences "))
            .collect();
        assert_eq!(found.len(), enc.len(), "{found:#?}");
        for e in enc {
            let p = titled(
                &all,
                &format!("PayPal encrypted preferences {}", e[0].as_str().unwrap()),
            );
            assert_eq!(p.category, "accounts");
            assert!(has_fact(p, e[1].as_str().unwrap()), "size: {p:#?}");
            let times = time_values(p);
            assert_eq!(times.len(), 1, "the folder keeps file times: {p:#?}");
            assert!(times[0].starts_with(e[2].as_str().unwrap()), "{times:?}");
        }
        // no file names the account: no identity at all
        assert_eq!(
            run.identifiers(source),
            Vec::<(String, String)>::new(),
            "{:#?}",
            run.entities(source)
        );
        // no secret: the unread ones in no output of a reading tool (the raw-content tools —
        // read_text, hexdump, strings — print a file's bytes as stored), the read file's
        // encrypted entries in no phenomenon. The generic tree triage reads every shared
        // preferences file with read_xml: an EncryptedSharedPreferences file's keysets are
        // redacted there, its encrypted names and values (ciphertext) printed as stored.
        for (tool, args, text) in run.outputs(source) {
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            let ciphertext_shown = tool == "read_xml" && args.contains("_encrypted.xml");
            for s in &never_output {
                if ciphertext_shown && !s.starts_with("SECRETKEYSET") {
                    continue;
                }
                assert!(!text.contains(s.as_str()), "{s} in {tool} {args}");
            }
        }
        for p in &all {
            for s in &not_in_phenomena {
                assert!(
                    !p.title.contains(s.as_str())
                        && !p.interpretation.contains(s.as_str())
                        && !p
                            .verified_facts
                            .iter()
                            .any(|f| f.value.contains(s.as_str())),
                    "{s}: {p:#?}"
                );
            }
        }
    }
    // the read file's encrypted entries were in an output (so the assertion above can fail)
    assert!(
        run.outputs("a")
            .iter()
            .any(|(tool, _, text)| tool == "read_xml" && text.contains(&not_in_phenomena[0]))
    );
    // another app's store named tracking: never read
    let other = o["a"]["other_app_session"].as_str().unwrap();
    for (tool, args, text) in run.outputs("a") {
        assert!(!text.contains(other), "{other} in {tool} {args}");
    }
    assert!(!run.all_phenomena("a").iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value.contains("com.example.stepcounter"))
    }),);
    run.assert_noted(
        "c",
        &[
            (
                "user/10/com.paypal.android.p2pmobile/databases/tracking",
                "malformed",
            ),
            (
                "data/com.paypal.android.p2pmobile/databases/tracking",
                "session_event",
            ),
            (
                "com.paypal.android.p2pmobile/shared_prefs/PayPal.xml",
                "<map>",
            ),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("PayPal "))
    );
}
