//! Google Play services' `gass.db` (`android::gass`) on two Android phones, written by
//! `tests/fixtures/gass/gass.py` (Python's sqlite3, the table and columns ALEAPP's
//! installedappsGass reads). The generator's record is the oracle: every `app_info` row with its
//! package, version code and SHA-256 digest (one app at two versions: two rows); a second Android
//! user's store read; another app's `gass.db` never read; phone B's older table read; a truncated
//! copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn play_services_gass_app_records_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/gass/gass.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let rows = o[source].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Play services app record "))
            .collect();
        assert_eq!(found.len(), rows.len(), "{found:#?}");
        for r in rows {
            let pkg = r["package_name"].as_str().unwrap();
            let version = r["version_code"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| {
                    p.title == format!("Play services app record {pkg}") && has_fact(p, version)
                })
                .unwrap_or_else(|| panic!("{pkg} {version}: {found:#?}"));
            assert_eq!(p.category, "apps");
            if let Some(d) = r["digest_sha256"].as_str() {
                assert!(has_fact(p, d), "{p:#?}");
            }
            assert!(p.times.is_empty(), "the store keeps no time: {p:#?}");
        }
    }
    let foreign = o["foreign"].as_str().unwrap();
    assert!(
        !run.all_phenomena("a")
            .iter()
            .any(|p| p.title == format!("Play services app record {foreign}"))
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/11/com.google.android.gms/databases/gass.db",
                "malformed",
            ),
            (
                "user/12/com.google.android.gms/databases/gass.db",
                "no table app_info",
            ),
        ],
    );
}
