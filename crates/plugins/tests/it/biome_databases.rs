//! Biome's databases (`ios::biomedbs`): two iPhones' `IntelligencePlatform.Entity.sqlite3` and
//! `ApplePay.Security.Features.sqlite3`, written by `tests/fixtures/biome/databases.py`
//! (sqlite3; no public copy is in the corpus). The generator's record is the oracle: every row
//! of every table the release has, with its values and time; the `-fullRebuild` copies are not
//! read; a database with none of the tables read is noted.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn biome_databases_of_two_releases() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/biome/databases.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        for r in o[source].as_array().unwrap() {
            let title = r["title"].as_str().unwrap();
            let found: Vec<_> = all.iter().filter(|p| p.title == title).collect();
            // once: the -fullRebuild copy beside the database is not read
            assert_eq!(
                found.len(),
                1,
                "{source}: {title} in {:#?}",
                all.iter().map(|p| &p.title).collect::<Vec<_>>()
            );
            for f in r["facts"].as_array().unwrap() {
                let v = f.as_str().unwrap();
                assert!(
                    has_fact(found[0], v),
                    "{source} {title}: {v} in {:#?}",
                    found[0]
                );
            }
        }
        for (_, args, _) in run.outputs(source) {
            assert!(!args.contains("fullRebuild"), "{args}");
        }
    }
    run.assert_noted(
        "b",
        &[(
            "IntelligencePlatform.Entity.sqlite3",
            "none of the tables read here",
        )],
    );
}
