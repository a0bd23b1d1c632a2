//! The telephony provider's backup of SMS and MMS (`android::smsbackup`, via `read_json`, which
//! inflates the zlib stream) on two Android phones, written by
//! `tests/fixtures/smsbackup/smsbackup.py` (Python's json and zlib, the form AOSP's
//! TelephonyBackupAgent writes). The generator's record is the oracle: every SMS (70 on phone
//! A, more than one page of pointers) with its address, text, direction and times; every MMS
//! with its recipients, addresses and text; each address a party; an MMS file that is not
//! compressed JSON noted.

use crate::android_support::{generate, has_fact, time_values, triage};

#[test]
fn telephony_backup_sms_and_mms_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/smsbackup/smsbackup.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let sms: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("SMS ") && p.title.ends_with("(backup)"))
            .collect();
        let expected = o["sms"].as_array().unwrap();
        assert_eq!(sms.len(), expected.len());
        for m in expected {
            let body = m["body"].as_str().unwrap();
            let p = sms
                .iter()
                .find(|p| has_fact(p, body))
                .unwrap_or_else(|| panic!("{body}"));
            let addr = m["address"].as_str().unwrap();
            let want = if m["type"] == "2" {
                format!("SMS sent to {addr} (backup)")
            } else {
                format!("SMS from {addr} (backup)")
            };
            assert_eq!(p.title, want);
            let mut times: Vec<String> = [&m["date"], &m["date_sent"]]
                .iter()
                .filter_map(|v| v.as_str())
                .filter(|v| *v != "0")
                .map(str::to_string)
                .collect();
            times.sort();
            assert_eq!(time_values(p), times);
        }
        let mms: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("MMS ") && p.title.ends_with("(backup)"))
            .collect();
        let expected = o["mms"].as_array().unwrap();
        assert_eq!(mms.len(), expected.len());
        for m in expected {
            let p = mms
                .iter()
                .find(|p| has_fact(p, m["mms_body"].as_str().unwrap()))
                .unwrap();
            for a in m["mms_addresses"].as_array().unwrap() {
                assert!(has_fact(p, a["address"].as_str().unwrap()), "{p:#?}");
            }
            assert!(has_fact(p, m["tr_id"].as_str().unwrap()));
        }
    }
    // the parties, persons by their numbers
    let ids = run.identifiers("b");
    assert!(
        ids.iter()
            .any(|(t, v)| t == "phone" && v.ends_with("938765432")),
        "{ids:#?}"
    );
    run.assert_noted("b", &[("000000_mms_backup", "not JSON")]);
}
