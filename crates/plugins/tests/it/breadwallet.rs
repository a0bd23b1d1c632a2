//! BRD (Bread Wallet) on Android (`android::breadwallet`): two phones and a third tree written by
//! `tests/fixtures/breadwallet/breadwallet.py` (Python's sqlite3 and plain XML, the table,
//! columns and preferences ALEAPP's breadWallet reads). The generator's record is the oracle:
//! every key of `kvStoreTable` grouped with its versions, newest version's flags, value size and
//! first and last write (the transactions' metadata by their hash); the receive addresses and
//! first address as `wallet:` entities and the device user's own (a CashAddr kept as text, no
//! identity); the app's preferences with their times; the push token in no fact; the encrypted
//! values in no output; phone B's table without `remote_version` read; a truncated store, a
//! store of another layout and a malformed preferences file noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn breadwallet_addresses_transactions_and_preferences_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/breadwallet/breadwallet.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "America/New_York", Some("US")),
        ("c", &c, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let ciphertexts: Vec<&str> = o["ciphertexts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(!ciphertexts.is_empty());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let src = &o[source];
        // one phenomenon per key, the transactions' metadata by their hash
        let records = src["records"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("BRD transaction ")
                    || p.title.starts_with("BRD key-value record ")
            })
            .collect();
        assert_eq!(found.len(), records.len(), "{found:#?}");
        for r in records {
            let key = r["key"].as_str().unwrap();
            let p = match r["hash"].as_str() {
                Some(hash) => {
                    let p = titled(&all, &format!("BRD transaction {hash} metadata record"));
                    assert_eq!(p.category, "transactions");
                    assert!(
                        p.verified_facts
                            .iter()
                            .any(|f| f.value == hash && f.fact_type == masf_graph::FactType::Hash),
                        "{p:#?}"
                    );
                    p
                }
                None => {
                    let p = titled(&all, &format!("BRD key-value record {key}"));
                    assert_eq!(p.category, "wallets");
                    p
                }
            };
            assert!(has_fact(p, key), "{p:#?}");
            for k in ["versions", "latest", "deleted", "size"] {
                assert!(has_fact(p, r[k].as_str().unwrap()), "{k}: {p:#?}");
            }
            match r["remote"].as_str() {
                Some(remote) => assert!(has_fact(p, remote), "{p:#?}"),
                // phone B's table has no remote_version: read as NULL, no fact
                None => assert!(!has_fact(p, "NULL"), "{p:#?}"),
            }
            let mut times = vec![r["first"].as_str().unwrap().to_string()];
            if let Some(last) = r["last"].as_str() {
                times.push(last.to_string());
            }
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        // the wallet's own addresses
        let owner = run.owner(source);
        let entities = run.entities(source);
        for addr in src["addresses"].as_array().unwrap() {
            let value = addr["address"].as_str().unwrap();
            let title = match addr["iso"].as_str() {
                Some(iso) => format!("BRD {iso} receive address {value}"),
                None => format!("BRD first wallet address {value}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "wallets");
            assert!(has_fact(p, addr["key"].as_str().unwrap()), "{p:#?}");
            match addr["wallet"].as_str() {
                Some(w) => {
                    let norm = masf_graph::identifiers::normalize_wallet(w).unwrap();
                    assert!(
                        p.verified_facts.iter().any(
                            |f| f.value == value && f.fact_type == masf_graph::FactType::Wallet
                        ),
                        "{p:#?}"
                    );
                    assert!(owner.contains(&format!("wallet={norm}")), "{owner}");
                    assert!(
                        entities
                            .iter()
                            .any(|e| e.starts_with(&format!("wallet:{norm} [Wallet]"))),
                        "{entities:#?}"
                    );
                }
                None => {
                    // a CashAddr: a text fact, no identity
                    assert!(has_fact(p, value), "{p:#?}");
                    assert!(!entities.iter().any(|e| e.contains(value)), "{entities:#?}");
                }
            }
        }
        // the app's preferences and their times
        let prefs = titled(&all, "BRD wallet app preferences");
        assert_eq!(prefs.category, "accounts");
        for (k, v) in src["state"].as_object().unwrap() {
            assert!(has_fact(prefs, v.as_str().unwrap()), "{k}: {prefs:#?}");
        }
        let mut times: Vec<String> = src["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        times.sort();
        assert_eq!(time_values(prefs), times, "{prefs:#?}");
        // the install's user id names no one
        let user_id = src["state"]["userId"].as_str().unwrap();
        assert!(!owner.contains(user_id), "{owner}");
        // the push token is named, never copied into a fact
        assert!(prefs.interpretation.contains("fcmToken"), "{prefs:#?}");
        for s in o["secrets"][source].as_array().unwrap() {
            let s = s.as_str().unwrap();
            for p in &all {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(s)),
                    "{s}: {p:#?}"
                );
            }
        }
    }
    // the encrypted values are never selected
    for source in ["a", "b", "c"] {
        for (tool, args, text) in run.outputs(source) {
            for v in &ciphertexts {
                assert!(!text.contains(v), "{v} in {tool} {args}");
            }
        }
    }
    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "BRD platform.db and MyPrefsFile.xml")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }
    // the damaged tree: noted, nothing read
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.breadwallet/databases/platform.db",
                "malformed",
            ),
            (
                "user/10/com.breadwallet/databases/platform.db",
                "kvStoreTable",
            ),
            ("com.breadwallet/shared_prefs/MyPrefsFile.xml", "malformed"),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("BRD ")),
        "{:#?}",
        run.phenomena("c")
    );
}
