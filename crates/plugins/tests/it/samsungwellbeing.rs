//! Samsung's Digital Wellbeing store (`android::samsungwellbeing`) on two Android phones and a
//! third tree, written by `tests/fixtures/samsungwellbeing/samsungwellbeing.py` (Python's
//! sqlite3, the `usageEvents`, `foundPackages` and `Logging` tables ALEAPP's swellbeing reads).
//! The generator's record is the oracle: every usage event with its id, time (Unix ms), package
//! id, package, event type and AOSP's name for it (none for a code AOSP does not name); the
//! time-zone change with its previous and new zone; the other log line read in no phenomenon;
//! phone B's event whose package is unknown read with its package id; a truncated store and a
//! store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

#[test]
fn samsung_digital_wellbeing_events_and_zones_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/samsungwellbeing/samsungwellbeing.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Amsterdam", Some("NL")),
        ("b", &b, "Europe/Berlin", Some("DE")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let events = o[source]["events"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Samsung Digital Wellbeing event "))
            .collect();
        assert_eq!(found.len(), events.len(), "{source}: {found:#?}");
        for e in events {
            let id = s(e, "id").unwrap();
            let package = s(e, "package")
                .map(str::to_string)
                .unwrap_or_else(|| format!("package id {}", s(e, "pkg_id").unwrap()));
            let name = s(e, "name")
                .map(str::to_string)
                .unwrap_or_else(|| format!("event type {}", s(e, "type").unwrap()));
            let p = titled(
                &all,
                &format!("Samsung Digital Wellbeing event {id}: {package} {name}"),
            );
            assert_eq!(p.category, "app_usage");
            for k in ["id", "pkg_id", "package", "type", "name"] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, v), "{source} {k}={v}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(e, "time").unwrap().to_string()]);
            assert!(p.interpretation.contains("not documented"), "{p:#?}");
        }
        let zones = o[source]["zones"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title
                    .starts_with("Samsung Digital Wellbeing time zone change ")
            })
            .collect();
        assert_eq!(found.len(), zones.len(), "{found:#?}");
        for z in zones {
            let p = titled(
                &all,
                &format!(
                    "Samsung Digital Wellbeing time zone change {} to {}",
                    s(z, "previous").unwrap(),
                    s(z, "new").unwrap()
                ),
            );
            assert_eq!(p.category, "device");
            for k in ["previous", "new", "value"] {
                assert!(has_fact(p, s(z, k).unwrap()), "{k}: {p:#?}");
            }
            assert_eq!(time_values(p), vec![s(z, "time").unwrap().to_string()]);
        }
        // the app's own diagnostics are not read
        if let Some(x) = s(&o[source], "not_read") {
            assert!(
                !all.iter().any(|p| p.title.contains(x)
                    || p.interpretation.contains(x)
                    || p.verified_facts.iter().any(|f| f.value.contains(x))),
                "{x}"
            );
        }
    }
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.samsung.android.forest/databases/dwbCommon.db",
                "malformed",
            ),
            (
                "user/10/com.samsung.android.forest/databases/dwbCommon.db",
                "neither a usageEvents nor a Logging table",
            ),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Samsung Digital Wellbeing")),
        "{:#?}",
        run.phenomena("c")
    );
}
