//! Google's Phone app (`android::dialer`) of two Android phones, written by
//! `tests/fixtures/dialer/dialer.py` (Python's sqlite3 and Google's protobuf runtime, the tables
//! and columns ALEAPP's googleDialer modules read; phone B's older call log table). The
//! generator's record is the oracle: every call of the app's own call log with its number, type,
//! duration, place, account and voicemail transcription; every looked-up number with the
//! contact's name, label and URI, the caller ID name and the location from its message; every
//! smart-dial entry and cached caller ID; the numbers observed as parties; a store without its
//! number column noted.

use crate::android_support::{generate, has_fact, triage};

/// A stored value as the output prints it.
fn shown(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[test]
fn phone_app_call_log_lookups_and_caller_ids_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/dialer/dialer.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "America/Los_Angeles", Some("US")),
        ("b", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let ids = run.identifiers(source);
        let calls: Vec<_> = all
            .iter()
            .filter(|p| p.title.ends_with("(Phone app's call log)"))
            .collect();
        let expected = o["calls"].as_array().unwrap();
        assert_eq!(calls.len(), expected.len(), "{source}: {calls:#?}");
        for c in expected {
            let at = c["timestamp"].to_string();
            let p = calls
                .iter()
                .find(|p| p.verified_facts[p.times[0].fact].value == at)
                .unwrap_or_else(|| panic!("{at}"));
            assert_eq!(p.category, "calls");
            for (k, v) in c.as_object().unwrap() {
                if matches!(
                    k.as_str(),
                    "timestamp" | "call_type" | "is_read" | "new" | "is_voicemail_call"
                ) {
                    continue;
                }
                if let Some(v) = shown(v) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            let title = match c["call_type"].as_i64() {
                Some(1) => "Incoming call from",
                Some(2) => "Outgoing call to",
                Some(4) => "Voicemail from",
                _ => "Call with",
            };
            assert!(p.title.starts_with(title), "{}", p.title);
        }
        let lookups: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Number looked up by the Phone app: "))
            .collect();
        let expected = o["lookups"].as_array().unwrap();
        assert_eq!(lookups.len(), expected.len(), "{source}: {lookups:#?}");
        for r in expected {
            let n = r["normalized_number"].as_str().unwrap();
            let p = lookups.iter().find(|p| p.title.contains(n)).unwrap();
            for v in r["info"].as_object().unwrap().values() {
                assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
            }
            assert_eq!(
                p.verified_facts[p.times[0].fact].value,
                r["last_modified"].to_string()
            );
            assert!(ids.iter().any(|(t, v)| t == "phone" && v == n), "{ids:?}");
        }
        let smart: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Smart-dial entry "))
            .collect();
        let expected = o["smart"].as_array().unwrap();
        assert_eq!(smart.len(), expected.len(), "{source}: {smart:#?}");
        for r in expected {
            let p = smart
                .iter()
                .find(|p| has_fact(p, r["phone_number"].as_str().unwrap()))
                .unwrap();
            for k in [
                "display_name",
                "normalized_number",
                "contact_id",
                "times_used",
            ] {
                assert!(has_fact(p, &shown(&r[k]).unwrap()), "{k}: {p:#?}");
            }
        }
        let cached: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Caller ID cached by the Phone app: "))
            .collect();
        let expected = o["cached"].as_array().unwrap();
        assert_eq!(cached.len(), expected.len(), "{source}: {cached:#?}");
        for r in expected {
            let p = cached
                .iter()
                .find(|p| has_fact(p, r["number"].as_str().unwrap()))
                .unwrap();
            for k in ["display_name", "phone_label", "source_name", "lookup_key"] {
                assert!(has_fact(p, &shown(&r[k]).unwrap()), "{k}: {p:#?}");
            }
        }
    }
    run.assert_noted(
        "b",
        &[(
            "user/10/com.google.android.dialer/databases/phone_lookup_history.db",
            "normalized_number",
        )],
    );
}
