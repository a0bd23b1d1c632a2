//! The Pixel Launcher's icon cache (`android::appicons`) on two Pixel phones, written by
//! `tests/fixtures/appicons/appicons.py` (Python's sqlite3, the `icons` table of Launcher3's
//! icon cache that ALEAPP's appicons reads). The generator's record is the oracle: every row with
//! its component, the package and class split from it, the kind of entry, label, user serial,
//! version code, system state, keywords, icon size and last update (none where it is 0); the
//! same component in a work profile its own phenomenon; another launcher's `app_icons.db` never
//! read; phone B's older table read; a truncated copy and a store of another layout noted; no
//! icon blob in any output.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn appicons_pixel_launcher_icon_cache_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/appicons/appicons.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let markers: Vec<&str> = o["markers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(!markers.is_empty());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let rows = o[source].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Pixel Launcher icon cache: "))
            .collect();
        assert_eq!(found.len(), rows.len(), "{source}: {found:#?}");
        for r in rows {
            let component = r["component"].as_str().unwrap();
            let profile = r["profile"].as_str().unwrap();
            let title = if profile == "0" {
                format!("Pixel Launcher icon cache: {component}")
            } else {
                format!("Pixel Launcher icon cache: {component} (user serial {profile})")
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "apps");
            for key in [
                "component",
                "package",
                "class",
                "entry",
                "label",
                "profile",
                "version",
                "state",
                "keywords",
                "icon_bytes",
            ] {
                if let Some(v) = r[key].as_str() {
                    assert!(has_fact(p, v), "{key} {v}: {p:#?}");
                }
            }
            if r["icon_bytes"].is_null() {
                assert!(
                    !p.interpretation.contains("icon bytes"),
                    "{}",
                    p.interpretation
                );
            }
            let expected: Vec<String> = r["updated"]
                .as_str()
                .map(|t| vec![t.to_string()])
                .unwrap_or_default();
            assert_eq!(time_values(p), expected, "{p:#?}");
        }
        // the icons themselves: in no phenomenon and in no output the run logged (as text or hex)
        for (tool, args, text) in run.outputs(source) {
            for m in &markers {
                let hex: String = m.bytes().map(|b| format!("{b:02x}")).collect();
                assert!(
                    !text.contains(m) && !text.to_ascii_lowercase().contains(&hex),
                    "{m} in {tool} {args}"
                );
            }
        }
        for p in &all {
            for m in &markers {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(m)),
                    "{m}: {p:#?}"
                );
            }
        }
    }
    // the package's own entry and an activity of the same app, told apart
    let all = run.all_phenomena("a");
    let own = titled(
        &all,
        "Pixel Launcher icon cache: com.whatsapp/com.whatsapp.",
    );
    assert!(
        has_fact(own, "package") && !has_fact(own, "activity"),
        "{own:#?}"
    );
    // another launcher's icon cache is not read
    let foreign = o["foreign"].as_str().unwrap();
    assert!(
        !all.iter().any(|p| p.title.contains(foreign)),
        "{:#?}",
        all.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.google.android.apps.nexuslauncher/databases/app_icons.db",
                "malformed",
            ),
            (
                "user/11/com.google.android.apps.nexuslauncher/databases/app_icons.db",
                "none of the tables icons",
            ),
        ],
    );
}
