//! Samsung Device Care's stores (`android::smartmanager`) on two Android phones and a third
//! tree, written by `tests/fixtures/smartmanager/smartmanager.py` (Python's sqlite3, the tables
//! and columns ALEAPP's smanagerCrash and smanagerLow read). The generator's record is the
//! oracle: every crash with its package and time; every app-use session with its package,
//! activity, id, uploaded flag and four times; phone B's older `usage_log` read; an `sm.db`
//! without `crash_info` and a truncated `lowpowercontext-system-db` noted; another app's `sm.db`
//! (with a `crash_info` of its own) neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn smartmanager_crashes_and_usage_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/smartmanager/smartmanager.py",
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
        let crashes = o[source]["crashes"].as_array().unwrap();
        for x in crashes {
            let package = x["package_name"].as_str().unwrap();
            let p = titled(
                &all,
                &format!(
                    "App crashed (Samsung Device Care): {package} ({})",
                    x["crash_time"]
                ),
            );
            assert_eq!(p.category, "apps");
            assert!(has_fact(p, package), "{p:#?}");
            assert_eq!(time_values(p), vec![x["crash_time"].to_string()]);
        }
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("App crashed (Samsung Device Care): "))
                .count(),
            crashes.len()
        );
        for u in o[source]["usage"].as_array().unwrap() {
            let package = u["package_name"].as_str().unwrap();
            let p = titled(
                &all,
                &format!(
                    "App used (Samsung Device Care): {package} ({})",
                    u["start_time"]
                ),
            );
            assert_eq!(p.category, "app_usage");
            assert!(
                has_fact(p, package) && has_fact(p, &u["id"].to_string()),
                "{p:#?}"
            );
            if let Some(activity) = u.get("class_name").and_then(|v| v.as_str()) {
                assert!(has_fact(p, activity), "{p:#?}");
            }
            if let Some(up) = u.get("uploaded").and_then(|v| v.as_i64()) {
                assert!(has_fact(p, &up.to_string()), "{p:#?}");
            }
            let mut times: Vec<String> = ["start_time", "end_time", "created_at", "modified_at"]
                .iter()
                .map(|k| u[*k].to_string())
                .collect();
            times.sort();
            assert_eq!(time_values(p), times);
        }
    }
    // phone C: nothing read; Device Care's two copies noted, the other app's sm.db left alone
    let all_c = run.all_phenomena("c");
    assert!(
        !all_c
            .iter()
            .any(|p| p.title.contains("(Samsung Device Care)") || has_fact(p, "com.example.other")),
        "{all_c:#?}"
    );
    run.assert_noted(
        "c",
        &[
            ("com.samsung.android.sm/databases/sm.db", "crash_info"),
            (
                "com.samsung.android.sm/databases/lowpowercontext-system-db",
                "malformed",
            ),
        ],
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.contains("com.example.smsmanager")),
        "{:#?}",
        run.unparsed("c")
    );
}
