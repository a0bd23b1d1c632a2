//! Samsung SCPM's store (`android::scpm`) on two Android phones and a third tree, written by
//! `tests/fixtures/scpm/scpm.py` (Python's sqlite3, the `devices` columns ALEAPP's samsungScpm
//! reads). The generator's record is the oracle: each registered device with its alias, model,
//! codes and both times; phone B's older table (no platform version, no CSC) read; a store
//! without `devices` and a truncated copy noted; the policy documents never read.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn scpm_registered_device_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/scpm/scpm.py",
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
        ("b", &b, "Europe/Vienna", Some("AT")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        for d in o[source].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Samsung SCPM device {}", d["alias"].as_str().unwrap()),
            );
            assert_eq!(p.category, "device");
            for k in [
                "id",
                "alias",
                "model_name",
                "model_code",
                "os_version",
                "platform_version",
                "country_code",
                "sim_mcc",
                "sim_mnc",
                "csc",
            ] {
                if let Some(v) = d.get(k).and_then(|v| v.as_str()) {
                    assert!(has_fact(p, v), "{k} {v}: {p:#?}");
                }
            }
            let mut times = vec![
                d["registration_time"].to_string(),
                d["last_access_time"].to_string(),
            ];
            times.sort();
            assert_eq!(time_values(p), times);
        }
    }
    // phone B's older table: the absent columns give no fact (no NULL taken for a value)
    let b_dev = run.all_phenomena("b");
    let dev = titled(&b_dev, "Samsung SCPM device Galaxy A53 5G");
    assert!(
        !dev.verified_facts.iter().any(|f| f.value == "NULL"),
        "{dev:#?}"
    );
    let a_dev = run.all_phenomena("a");
    let full = titled(&a_dev, "Samsung SCPM device Anna's Galaxy S23");
    assert_eq!(
        full.verified_facts.len(),
        dev.verified_facts.len() + 2,
        "B lacks the platform version and CSC only: {dev:#?}"
    );
    // the policy documents are never queried
    for source in ["a", "b", "c"] {
        for (tool, args, _) in run.outputs(source) {
            assert!(
                !(tool == "sqlite_query" && args.contains("FROM policy")),
                "{args}"
            );
        }
    }
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Samsung SCPM"))
    );
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.samsung.android.scpm/databases/scpmv2.db",
                "devices",
            ),
            (
                "user/10/com.samsung.android.scpm/databases/scpmv2.db",
                "malformed",
            ),
        ],
    );
}
