//! Amazon Shopping's account store (`android::amazonshopping`) on two Android phones, written by
//! `tests/fixtures/amazonshopping/amazonshopping.py` (Python's sqlite3, the tables and columns
//! ALEAPP's amazonShopping reads). The generator's record is the oracle: every account with its
//! directed id, names, device name and e-mail, country and marketplace; phone A's only account
//! the owner's (`amazon:` id, full and display name), phone B's two accounts persons with their
//! display names and no name taken from an encrypted value; no token or cookie in any output; a
//! truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn amazon_shopping_accounts_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/amazonshopping/amazonshopping.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Warsaw", Some("PL")),
        ("b", &b, "Europe/Oslo", Some("NO")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let owner = run.owner(source);
        let entities = run.entities(source);
        let accounts = o["accounts"].as_array().unwrap();
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Amazon Shopping account "))
                .count(),
            accounts.len()
        );
        for acc in accounts {
            let id = s(acc, "directed_id").unwrap();
            let display = s(acc, "display_name").unwrap();
            let p = titled(&all, &format!("Amazon Shopping account {display}"));
            assert_eq!(p.category, "accounts");
            for k in [
                "directed_id",
                "full_name",
                "device_name",
                "device_email",
                "cor",
                "pfm",
            ] {
                if let Some(v) = s(acc, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(acc, "account_timestamp").unwrap()]);
            let qualified = format!("account_id=amazon:{id}");
            if acc["owner"].as_bool().unwrap() {
                assert!(owner.contains(&qualified), "{owner}");
            } else {
                assert!(!owner.contains(&qualified), "{owner}");
                assert!(
                    entities
                        .iter()
                        .any(|e| e.starts_with(&format!("amazon:{id} [Person] {display}"))),
                    "{entities:#?}"
                );
            }
        }
        // the full name only where it is plain text
        match s(o, "plain_name") {
            Some(name) => assert!(
                owner.to_lowercase().contains(&name.to_lowercase()),
                "{owner}"
            ),
            None => {
                for acc in accounts {
                    let cipher = s(acc, "full_name").unwrap();
                    assert!(
                        !entities.iter().any(|e| e.contains(&cipher)),
                        "{entities:#?}"
                    );
                }
            }
        }
        // never a token or cookie, in a phenomenon or in any output the run logged
        let secrets: Vec<&str> = o["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            for sec in &secrets {
                assert!(!text.contains(sec), "{sec} in {tool} {args}");
            }
        }
    }
    // phone A: the country of residence and marketplace as stored
    let all = run.all_phenomena("a");
    let p = titled(&all, "Amazon Shopping account Marta");
    assert!(has_fact(p, "PL") && has_fact(p, "A1C3SOZRARQ6R3"), "{p:#?}");
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.amazon.mShop.android.shopping/databases/map_data_storage.db",
                "malformed",
            ),
            (
                "user/11/com.amazon.mShop.android.shopping/databases/map_data_storage.db",
                "none of the tables",
            ),
        ],
    );
}
