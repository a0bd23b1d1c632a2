//! REMA 1000's receipt store (`android::rema1000`) on two Android phones, written by
//! `tests/fixtures/rema1000/rema1000.py` (Python's sqlite3, the tables and columns ALEAPP's
//! rema_1000 reads). The generator's record is the oracle: every receipt with its store (number,
//! street and town cut from the search text, postcode), total, payment and time; another app's
//! `receipts.db` not read; phone B's older table read; a truncated copy and a store of another
//! layout noted; no identity from the masked card number.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn rema1000_receipts_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/rema1000/rema1000.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Copenhagen", Some("DK")),
        ("b", &b, "Europe/Copenhagen", Some("DK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let receipts = o["receipts"].as_array().unwrap();
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("REMA 1000 receipt "))
                .count(),
            receipts.len(),
            "REMA 1000's receipts only"
        );
        for r in receipts {
            let p = titled(
                &all,
                &format!("REMA 1000 receipt {}", s(r, "displayId").unwrap()),
            );
            assert_eq!(p.category, "transactions");
            for k in [
                "id",
                "storeNumber",
                "street",
                "town",
                "zipString",
                "totalPriceString",
                "totalPrice",
                "paymentSource",
                "pp_cardType",
                "pp_maskedPan",
                "searchText",
            ] {
                if let Some(v) = s(r, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(r, "paymentDate").unwrap()]);
        }
        assert!(
            !run.identifiers(source)
                .iter()
                .any(|(_, v)| v.contains("4417")),
            "a masked card number is no identity"
        );
    }
    // phone A: the receipt with a chargeback, as stored
    let all = run.all_phenomena("a");
    let p = titled(&all, "REMA 1000 receipt 1102-2024-1002-0009");
    assert!(
        has_fact(p, "HELLERUP") && has_fact(p, "Visa/Dankort") && has_fact(p, "1"),
        "{p:#?}"
    );
    run.assert_noted(
        "b",
        &[
            ("user/10/dk.rema1000.app/databases/receipts.db", "malformed"),
            (
                "user/11/dk.rema1000.app/databases/receipts.db",
                "none of the tables",
            ),
        ],
    );
}
