//! The Play Store's `library.db` and `suggestions.db` (`android::playstore`) on two phones: one
//! with both databases as `tests/fixtures/playstore/*.sql` builds them (sqlite3 CLI), one with
//! an older `ownership` lacking every column but `account`, `doc_id` and `purchase_time`
//! (rebuilt by sqlite3). Every row of ALEAPP's queries is found with its fields; every account
//! that acquired something is the owner's Google account. Beside them: a `library.db` of another
//! app (not the store's: passed over) and a store `library.db` without `doc_id` (noted).

use std::path::Path;
use std::process::Command;

use masf_graph::Phenomenon;

use crate::android_support::{Run, triage};
use crate::browsers::sqlite3;

fn build(db: &Path, fixture: &str, then: &str) {
    crate::android_support::sqlite_fixture(db, &format!("playstore/{fixture}"), then);
}

fn android_tree(root: &Path) -> std::path::PathBuf {
    std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(root.join("data/user/0/com.android.providers.telephony")).unwrap();
    root.join("data/data/com.android.vending/databases")
}

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn check(run: &Run, source: &str, library: &Path) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let rows = sqlite3(
        library,
        "SELECT purchase_time, account, doc_id FROM ownership",
    );
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let title = format!("Google Play: {} acquired by {}", row[2], row[1]);
        let p = all
            .iter()
            .find(|p| p.title == title)
            .unwrap_or_else(|| panic!("{source}: {title}"));
        assert!(
            has(p, &row[0]) && has(p, &row[1]) && has(p, &row[2]),
            "{p:#?}"
        );
        assert_eq!(p.times.len(), 1);
    }
    let owner = run
        .entities(source)
        .into_iter()
        .find(|e| e.starts_with("owner ["))
        .unwrap_or_default();
    assert!(
        owner.contains("google_account=chan.mh@example.net")
            && owner.contains("google_account=otc.desk.hk@gmail.com"),
        "{source}: {owner}"
    );
}

#[test]
fn play_store_library_and_searches_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one");
    let vending = android_tree(&one);
    build(&vending.join("library.db"), "library.sql", "SELECT 1;");
    build(
        &vending.join("suggestions.db"),
        "suggestions.sql",
        "SELECT 1;",
    );
    // another app's library.db: not the store's
    let other = one.join("data/data/org.example.reader/databases/library.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    assert!(
        Command::new("sqlite3")
            .arg(&other)
            .arg("CREATE TABLE books (id); INSERT INTO books VALUES (1);")
            .status()
            .unwrap()
            .success()
    );
    let two = tmp.path().join("two");
    let vending_two = android_tree(&two);
    build(
        &vending_two.join("library.db"),
        "library.sql",
        "CREATE TABLE o AS SELECT account, doc_id, purchase_time FROM ownership; DROP TABLE ownership; ALTER TABLE o RENAME TO ownership;",
    );
    let second_user = two.join("data/user/10/com.android.vending/databases/library.db");
    std::fs::create_dir_all(second_user.parent().unwrap()).unwrap();
    assert!(
        Command::new("sqlite3")
            .arg(&second_user)
            .arg("CREATE TABLE ownership (account STRING, purchase_time INTEGER); INSERT INTO ownership VALUES ('x@example.com', 1);")
            .status()
            .unwrap()
            .success()
    );

    let run = triage(&[
        ("one", &one, "Asia/Hong_Kong", Some("HK")),
        ("two", &two, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    check(&run, "one", &vending.join("library.db"));
    check(&run, "two", &vending_two.join("library.db"));

    let all = run.all_phenomena("one");
    for row in sqlite3(
        &vending.join("suggestions.db"),
        "SELECT date, display1, query FROM suggestions",
    ) {
        let p = all
            .iter()
            .find(|p| p.title == format!("Google Play search {}", row[2]))
            .unwrap_or_else(|| panic!("{row:?}"));
        assert!(has(p, &row[0]) && has(p, &row[1]));
    }
    let preordered = all
        .iter()
        .find(|p| p.title == "Google Play: io.metamask acquired by chan.mh@example.net")
        .unwrap();
    assert!(preordered.interpretation.contains("library u-wl"));
    assert!(preordered.interpretation.contains("pre-ordered"));
    assert!(
        !run.outputs("one")
            .iter()
            .any(|(_, args, _)| args.contains("org.example.reader")
                && !args.contains("name_globs")),
        "another app's library.db was read"
    );
    let notes = run.unparsed("two");
    assert!(
        notes.iter().any(|u| u
            .artefact
            .ends_with("user/10/com.android.vending/databases/library.db")
            && u.reason.contains("table ownership lacks doc_id")),
        "{notes:#?}"
    );
}
