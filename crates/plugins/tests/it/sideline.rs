//! Sideline's `textfree` (`android::sideline`) on two Android phones and a third tree, written
//! by `tests/fixtures/sideline/sideline.py` (Python's sqlite3, the tables and columns ALEAPP's
//! sChats reads). The generator's record is the oracle: every item with its number, contact
//! names, method and its kind (text, call, voicemail; a method ALEAPP does not name left
//! unnamed), text, duration and time; calls as `calls`, the rest as `messages`; a number with
//! two contact records giving its item once; each number a person's phone with the contact's
//! name, none of them the owner's; the older table of phone B (no `duration`, no
//! `contact_address`) read; a truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, triage};

#[test]
fn sideline_texts_calls_and_voicemails_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/sideline/sideline.py",
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
        ("b", &b, "America/New_York", Some("US")),
        ("c", &c, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let items = o[source].as_array().unwrap();
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Sideline "))
            .collect();
        // one phenomenon per item: the number with two contact records gives its item once
        assert_eq!(found.len(), items.len(), "{source}: {found:#?}");
        let entities = run.entities(source);
        let owner = run.owner(source);
        for it in items {
            let at = it["timestamp"].to_string();
            let number = it["address"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| time_values(p) == vec![at.clone()])
                .unwrap_or_else(|| panic!("{source} {at}: {found:#?}"));
            let kind = it["kind"].as_str();
            assert_eq!(
                p.category,
                if kind == Some("call") {
                    "calls"
                } else {
                    "messages"
                },
                "{p:#?}"
            );
            let name = match (it["first"].as_str(), it["last"].as_str()) {
                (Some(f), Some(l)) => Some(format!("{f} {l}")),
                (Some(f), None) => Some(f.to_string()),
                _ => None,
            };
            assert_eq!(
                p.title,
                format!(
                    "Sideline {} with {}",
                    kind.unwrap_or("item"),
                    name.as_deref().unwrap_or(number)
                )
            );
            assert!(has_fact(p, number), "{p:#?}");
            assert!(has_fact(p, &it["method"].to_string()), "{p:#?}");
            if let Some(k) = kind {
                assert!(has_fact(p, k), "{p:#?}");
            } else {
                assert!(p.interpretation.contains("ALEAPP does not name"), "{p:#?}");
            }
            if let Some(t) = it["text"].as_str() {
                assert!(has_fact(p, t), "{p:#?}");
            }
            if let Some(d) = it["duration"].as_i64() {
                assert!(has_fact(p, &d.to_string()), "{p:#?}");
            }
            for k in ["first", "last"] {
                if let Some(n) = it[k].as_str() {
                    assert!(has_fact(p, n), "{p:#?}");
                }
            }
            if let Some(n) = &name {
                assert!(has_fact(p, n), "{p:#?}");
            }
            assert!(p.interpretation.contains("no direction"), "{p:#?}");
            // the other party is a person by the number, named by the contact record
            let person = entities
                .iter()
                .find(|e| e.contains(&format!("phone={number}")))
                .unwrap_or_else(|| panic!("{number}: {entities:#?}"));
            assert!(person.contains("[Person]"), "{person}");
            if let Some(n) = &name {
                assert!(
                    person.contains(&format!("display_name={}", n.to_lowercase())),
                    "{person}"
                );
            }
            assert!(!owner.contains(number), "{owner}");
        }
    }
    // phone B's older table: no duration, no names
    let b = run.all_phenomena("b");
    assert!(
        b.iter()
            .filter(|p| p.title.starts_with("Sideline "))
            .all(|p| p.title == "Sideline text with +12015550147"),
        "{b:#?}"
    );
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.sideline.phone.number/databases/textfree",
                "malformed",
            ),
            (
                "user/11/com.sideline.phone.number/databases/textfree",
                "no conversation_item table",
            ),
        ],
    );
}
