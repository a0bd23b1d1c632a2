//! Samsung Members' PocketGeek stores (`android::samsungmembers`) on two Android phones and a
//! third tree, written by `tests/fixtures/samsungmembers/samsungmembers.py` (Python's sqlite3,
//! the tables and columns ALEAPP's smembersAppInv and smembersEvents read). The generator's record
//! is the oracle: every app of the inventory with its name, flags, hashes and last use (0: no
//! time); every device event with its type, value and time; phone B's older tables read; a
//! truncated inventory and an events store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// A JSON value as the query prints it (`None` for null).
fn text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[test]
fn samsungmembers_app_inventory_and_events_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/samsungmembers/samsungmembers.py",
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
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        for app in o[source]["apps"].as_array().unwrap() {
            let package = app["package_name"].as_str().unwrap();
            let p = titled(&all, &format!("Samsung Members app inventory: {package}"));
            assert_eq!(p.category, "apps");
            for k in [
                "package_name",
                "display_name",
                "system_app",
                "confidence_hash",
                "sha1",
                "classification",
            ] {
                if let Some(v) = app.get(k).and_then(text) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            // 0 is no time recorded
            let used = app["last_used"].as_i64().unwrap();
            let want: Vec<String> = if used > 0 {
                vec![used.to_string()]
            } else {
                Vec::new()
            };
            assert_eq!(time_values(p), want, "{p:#?}");
        }
        let events = o[source]["events"].as_array().unwrap();
        for e in events {
            let p = titled(
                &all,
                &format!(
                    "Samsung Members device event {} ({})",
                    e["type"].as_str().unwrap(),
                    e["created_at"]
                ),
            );
            assert_eq!(p.category, "device");
            assert!(has_fact(p, e["value"].as_str().unwrap()), "{p:#?}");
            if let Some(v) = e.get("in_snapshot").and_then(text) {
                assert!(has_fact(p, &v), "{p:#?}");
            }
            assert_eq!(time_values(p), vec![e["created_at"].to_string()]);
        }
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Samsung Members device event "))
                .count(),
            events.len()
        );
    }
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Samsung Members"))
    );
    run.assert_noted(
        "c",
        &[
            (
                "com.samsung.oh/databases/com_pocketgeek_sdk_app_inventory.db",
                "malformed",
            ),
            (
                "com.samsung.oh/databases/com_pocketgeek_sdk.db",
                "device_events",
            ),
        ],
    );
}
