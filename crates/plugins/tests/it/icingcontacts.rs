//! Play services' contacts index (`android::icingcontacts`) on two Android phones and a third
//! tree, written by `tests/fixtures/icingcontacts/icingcontacts.py` (Python's sqlite3, the
//! tables and columns Play services creates and ALEAPP's googleIcingContacts reads). The
//! generator's record is the oracle: every contact with every value as stored, its numbers,
//! e-mail addresses, postal addresses and labels from the method tables, its last update where
//! the schema keeps one; each contact a `contact:icing:<id>` person with its name, numbers and
//! e-mail addresses, none of them the owner's; the 2020 schema of phone B (no
//! last_updated_timestamp, no starred, no postals) read; a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn icingcontacts_indexed_contacts_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/icingcontacts/icingcontacts.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Dublin", Some("IE")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Dublin", Some("IE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let strs = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let contacts = o[source].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Icing contact "))
            .collect();
        assert_eq!(found.len(), contacts.len(), "{found:#?}");
        let entities = run.entities(source);
        let owner = run.owner(source);
        for k in contacts {
            let id = k["contact_id"].as_str().unwrap();
            let name = k["display_name"].as_str().unwrap();
            let p = titled(&all, &format!("Icing contact {name}"));
            assert_eq!(p.category, "contacts");
            for col in [
                "contact_id",
                "lookup_key",
                "display_name",
                "given_names",
                "times_contacted",
                "emails",
                "nickname",
                "note",
                "organization",
                "phone_numbers",
                "postal_address",
                "phonetic_name",
                "starred",
            ] {
                if let Some(v) = k[col].as_str() {
                    assert!(has_fact(p, v), "{col}: {p:#?}");
                }
            }
            for list in ["phones", "emails_list", "postals_list", "labels"] {
                for v in strs(&k[list]) {
                    assert!(has_fact(p, &v), "{list} {v}: {p:#?}");
                }
            }
            // the last update only where the schema keeps it
            let updated: Vec<String> = k["last_updated_timestamp"]
                .as_str()
                .map(|t| vec![t.to_string()])
                .unwrap_or_default();
            assert_eq!(time_values(p), updated, "{p:#?}");
            // the contact is a person of its own, with its numbers and addresses
            let e = entities
                .iter()
                .find(|e| e.starts_with(&format!("contact:icing:{id} [")))
                .unwrap_or_else(|| panic!("contact:icing:{id} in {entities:#?}"));
            assert!(
                e.contains(&format!("display_name={}", name.to_lowercase())),
                "{e}"
            );
            for n in strs(&k["phones_e164"]) {
                assert!(e.contains(&format!("phone={n}")), "{n}: {e}");
                assert!(!owner.contains(&n), "{n} is no owner's: {owner}");
            }
            for m in strs(&k["emails_list"]) {
                assert!(e.contains(&format!("email={m}")), "{m}: {e}");
                assert!(!owner.contains(&m), "{m} is no owner's: {owner}");
            }
        }
    }
    // phone B's older schema: no starred flag, no time, no postal address
    let all = run.all_phenomena("b");
    let mama = titled(&all, "Icing contact Mama");
    assert!(mama.times.is_empty() && has_fact(mama, "41"), "{mama:#?}");
    // a label kept in the method table
    let all = run.all_phenomena("a");
    let ciaran = titled(&all, "Icing contact Ciarán Ó Súilleabháin");
    assert!(has_fact(ciaran, "Work mobile"), "{ciaran:#?}");
    assert!(
        ciaran
            .interpretation
            .contains("087 111 2222, label Work mobile (type 0)"),
        "{}",
        ciaran.interpretation
    );
    run.assert_noted(
        "c",
        &[(
            "com.google.android.gms/databases/icing_contacts.db",
            "contacts",
        )],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Icing contact")),
    );
}
