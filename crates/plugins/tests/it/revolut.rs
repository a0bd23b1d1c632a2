//! Revolut's app data (`android::revolut`) on two Android phones and a third tree, written by
//! `tests/fixtures/revolut/revolut.py` (Python's sqlite3 and plain XML, the files, tables and
//! keys ALEAPP's revolut reads). The generator's record is the oracle: every recent recipient
//! with its type, transaction id, item type, unread counter and sync time (0: none), a contact
//! code's recipient observed as the `revolut:<handle>` person and no other recipient; the rate,
//! help and device caches counted with the rates' latest fetch; the configuration's last
//! modification and version; phone B's older tables read with NULLs; no owner; another app's
//! `rates_database` never read, a configuration value not read in no phenomenon; a store
//! without `payments_recent_v2` and a truncated `rates_database` noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn revolut_recent_recipients_and_app_state_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/revolut/revolut.py",
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
        ("b", &b, "Europe/Vilnius", Some("LT")),
        ("c", &c, "Europe/Vilnius", Some("LT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let os = &o[source];
        let all = run.all_phenomena(source);
        // every recent recipient, with what the row links to
        let recipients = os["recipients"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Revolut recent recipient "))
            .collect();
        assert_eq!(found.len(), recipients.len(), "{found:#?}");
        for r in recipients {
            let (id, kind) = (r[0].as_str().unwrap(), r[1].as_str().unwrap());
            let p = titled(&all, &format!("Revolut recent recipient {id} ({kind})"));
            assert_eq!(p.category, "transactions");
            for v in [id, kind, r[2].as_str().unwrap(), r[3].as_str().unwrap()] {
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
            match r[4].as_str() {
                Some(unread) => assert!(has_fact(p, unread), "{p:#?}"),
                None => assert_eq!(
                    p.verified_facts.len(),
                    5 + usize::from(kind == "CONTACT_CODE")
                ),
            }
            // the sync marker is a time only when set (0: never synced)
            match r[5].as_str().filter(|t| *t != "0") {
                Some(t) => assert_eq!(time_values(p), vec![t.to_string()]),
                None => assert!(p.times.is_empty(), "{p:#?}"),
            }
            assert_eq!(
                has_fact(p, &format!("revolut:{id}")),
                kind == "CONTACT_CODE",
                "{p:#?}"
            );
        }
        // a contact code names a Revolut user, a person; the bank and crypto ids are no one's
        let entities = run.entities(source);
        let contacts: Vec<String> = os["contacts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        for q in &contacts {
            let handle = q.strip_prefix("revolut:").unwrap();
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("{q} [Person] {handle}: account_id={q}"))),
                "{q}: {entities:#?}"
            );
        }
        let ids = run.identifiers(source);
        assert_eq!(ids.len(), contacts.len(), "{ids:#?}");
        assert_eq!(run.owner(source), "", "no file names the account holder");
        // the caches, counted, and the latest rate fetch
        let rates = &os["rates"];
        let p = titled(&all, "Revolut exchange-rate cache");
        assert_eq!(p.category, "apps");
        assert!(has_fact(p, rates["rates"].as_str().unwrap()), "{p:#?}");
        match rates["mid_rates"].as_str() {
            Some(n) => assert!(has_fact(p, n), "{p:#?}"),
            None => assert_eq!(p.verified_facts.len(), 3, "{p:#?}"),
        }
        assert_eq!(
            time_values(p),
            vec![rates["fetched"].as_str().unwrap().to_string()]
        );
        let help = &os["help"];
        let p = titled(&all, "Revolut help cache");
        assert!(has_fact(p, help["articles"].as_str().unwrap()), "{p:#?}");
        assert!(has_fact(p, help["nodes"].as_str().unwrap()), "{p:#?}");
        match help["languages"].as_str() {
            Some(l) => assert!(has_fact(p, l), "{p:#?}"),
            None => assert_eq!(p.verified_facts.len(), 3, "{p:#?}"),
        }
        match os["devices"].as_str() {
            Some(n) => assert!(has_fact(titled(&all, "Revolut device catalogue cache"), n)),
            None => assert!(
                !all.iter()
                    .any(|p| p.title == "Revolut device catalogue cache")
            ),
        }
        // the configuration's last modification and version
        let cfg = &os["config"];
        let p = titled(&all, "Revolut configuration storage");
        assert_eq!(
            time_values(p),
            vec![cfg["modified"].as_str().unwrap().to_string()]
        );
        match cfg["version"].as_str() {
            Some(v) => assert!(has_fact(p, v), "{p:#?}"),
            None => assert_eq!(p.verified_facts.len(), 2, "{p:#?}"),
        }
        // values not read: in no phenomenon; another app's rates_database in no output either
        for s in os["not_read"].as_array().unwrap() {
            let s = s.as_str().unwrap();
            assert!(
                !all.iter().any(|p| p.title.contains(s)
                    || p.interpretation.contains(s)
                    || p.verified_facts.iter().any(|f| f.value.contains(s))),
                "{s}"
            );
        }
    }
    for (tool, args, text) in run.outputs("a") {
        assert!(!text.contains("OTHERAPPRATE"), "{tool} {args}");
    }
    assert_eq!(
        run.all_phenomena("a")
            .iter()
            .filter(|p| p.title == "Revolut exchange-rate cache")
            .count(),
        1
    );
    run.assert_noted(
        "c",
        &[
            (
                "com.revolut.revolut/databases/payments_recent_db",
                "payments_recent_v2",
            ),
            ("com.revolut.revolut/databases/rates_database", "malformed"),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Revolut "))
    );
}
