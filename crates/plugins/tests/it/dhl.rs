//! DHL Express's store (`android::dhl`) on two Android phones and a third tree, written by
//! `tests/fixtures/dhl/dhl.py` (Python's sqlite3, the tables and columns ALEAPP's dhl reads).
//! The generator's record is the oracle: every tracking search with its airway bill, account and
//! time as stored (the same bill on both phones); the user record; a store with neither table
//! noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn dhl_tracked_shipments_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/dhl/dhl.py",
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
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        for s in o[source].as_array().unwrap() {
            let bill = s[1].as_str().unwrap();
            let p = titled(&all, &format!("DHL shipment {bill} tracked"));
            assert_eq!(p.category, "transactions");
            assert!(has_fact(p, s[0].as_str().unwrap()), "{p:#?}");
            assert_eq!(time_values(p), vec![s[2].as_str().unwrap().to_string()]);
        }
    }
    let all = run.all_phenomena("a");
    let account = titled(&all, "DHL account 551203");
    assert!(has_fact(account, "en"));
    assert!(
        !run.all_phenomena("b")
            .iter()
            .any(|p| p.title.starts_with("DHL account"))
    );
    run.assert_noted("c", &[("dhledb.db", "TBL_TRACK_SHIPMENT")]);
}
