//! Google Play services' push-message queue (`android::fcm`): two Android phones'
//! `fcm_queued_messages.ldb` written by Google's LevelDB (plyvel) with values made by Google's
//! protobuf runtime (`tests/fixtures/fcm/fcm.py`: Chromium's `DataMessageStanza` field numbers).
//! The generator's record is the oracle: every message with its app, every payload key and
//! value, ids, sender, time to live, sent and queued times, and whether its key was deleted
//! (delivered) — on phone A from a compacted table file and the log, on phone B from the log;
//! a record that is no message and a second user's log cut in a record noted, the rest read.

use serde_json::Value;

use crate::android_support::{generate, has_fact, triage};

/// A text as `leveldb_records` shows it inside a decoded value (JSON string escapes, then the
/// tool's escaping of backslashes).
fn shown(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap();
    json[1..json.len() - 1].replace('\\', "\\\\")
}

#[test]
fn fcm_queued_messages_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "plyvel",
        "tests/fixtures/fcm/fcm.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Warsaw", Some("PL")),
        ("b", &b, "Europe/Warsaw", Some("PL")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, keys) in [("a", &["a"][..]), ("b", &["b", "b_user10"][..])] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Push "))
            .collect();
        let expected: Vec<&Value> = keys
            .iter()
            .flat_map(|k| o[*k].as_array().unwrap())
            .collect();
        assert_eq!(found.len(), expected.len(), "{source}: {found:#?}");
        for m in expected {
            let pid = m["persistent_id"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| has_fact(p, pid))
                .unwrap_or_else(|| panic!("{source}: {pid} in {found:#?}"));
            assert_eq!(p.category, "notifications");
            let package = m["category"].as_str().unwrap();
            let pairs = m["app_data"].as_array().unwrap();
            let title = pairs
                .iter()
                .find(|kv| kv[0] == "gcm.notification.title")
                .map(|kv| kv[1].as_str().unwrap());
            match title {
                Some(t) => assert_eq!(p.title, format!("Push notification to {package}: {t}")),
                None => assert_eq!(p.title, format!("Push message to {package}")),
            }
            for v in [&m["category"], &m["from"], &m["id"], &m["ttl"], &m["sent"]] {
                let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                assert!(has_fact(p, &v), "{v}: {p:#?}");
            }
            for k in ["to", "token", "device_user_id", "queued"] {
                if let Some(v) = m.get(k) {
                    let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            for kv in pairs {
                for x in [kv[0].as_str().unwrap(), kv[1].as_str().unwrap()] {
                    assert!(has_fact(p, &shown(x)), "{x}: {p:#?}");
                }
            }
            // the queueing time from the key (µs) and the sender's clock (ms by magnitude)
            let times: Vec<&str> = p
                .times
                .iter()
                .map(|t| p.verified_facts[t.fact].value.as_str())
                .collect();
            assert_eq!(
                times,
                [m["queued_us"].to_string(), m["sent"].to_string()],
                "{p:#?}"
            );
            let delivered = m["deleted"].as_bool().unwrap();
            assert_eq!(
                p.interpretation.contains("Its key's deletion is recorded"),
                delivered,
                "{}",
                p.interpretation
            );
        }
    }
    // a Gmail sync push's account is kept as an e-mail fact, not observed
    let ids = run.identifiers("a");
    assert!(
        !ids.iter().any(|(_, v)| v == "jan.kowalski.test@gmail.com"),
        "{ids:?}"
    );
    run.assert_noted(
        "a",
        &[("fcm_queued_messages.ldb", "1 records are no queued message")],
    );
    run.assert_noted(
        "b",
        &[(
            "user/10/com.google.android.gms/files/fcm_queued_messages.ldb",
            "damaged",
        )],
    );
}
