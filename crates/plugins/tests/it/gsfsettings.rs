//! The Google Services Framework's `googlesettings.db` (`android::gsfsettings`) on two Android
//! phones and a third tree, written by `tests/fixtures/gsfsettings/gsfsettings.py` (Python's
//! sqlite3, the table and columns ALEAPP's pSettings reads). The generator's record is the
//! oracle: every partner setting with its name and value, as `device` phenomena; phone B's
//! table of another column order without `_id` read; no identity observed from them; a store
//! of another layout (`main` only) noted and none of its values read.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn gsfsettings_partner_settings_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/gsfsettings/gsfsettings.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Asia/Seoul", Some("KR")),
        ("c", &c, "UTC", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let rows = o[source].as_array().unwrap();
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Services Framework setting "))
            .collect();
        assert_eq!(found.len(), rows.len(), "{source}: {found:#?}");
        for r in rows {
            let (name, value) = (r[0].as_str().unwrap(), r[1].as_str().unwrap());
            let p = titled(&all, &format!("Google Services Framework setting {name}"));
            assert_eq!(p.category, "device");
            assert!(has_fact(p, name) && has_fact(p, value), "{p:#?}");
            assert!(p.times.is_empty(), "{p:#?}");
            // the framework's ids are facts, never identities
            assert!(
                !run.identifiers(source).iter().any(|(_, v)| v == value),
                "{value}: {:#?}",
                run.identifiers(source)
            );
        }
    }
    let b = run.all_phenomena("b");
    assert!(has_fact(
        titled(&b, "Google Services Framework setting client_id"),
        "android-samsung"
    ));
    run.assert_noted(
        "c",
        &[(
            "com.google.android.gsf/databases/googlesettings.db",
            "no partner table",
        )],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| has_fact(p, "3868888327432452345")),
        "the foreign store's values are not read"
    );
}
