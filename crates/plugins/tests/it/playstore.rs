//! The Play Store's `library.db` and `suggestions.db` (`android::playstore`) on two phones: one
//! with both databases as `tests/fixtures/playstore/*.sql` builds them (sqlite3 CLI), one with
//! an older `ownership` lacking every column but `account`, `doc_id` and `purchase_time`
//! (rebuilt by sqlite3). Every row of ALEAPP's queries is found with its fields; every account
//! that acquired something is the owner's Google account. Beside them: a `library.db` of another
//! app (not the store's: passed over) and a store `library.db` without `doc_id` (noted). Then
//! `localappstate.db` in the store's version-33 layout and in an older one (the columns of
//! version 11, before `account_for_update` and the later ones), as ALEAPP's
//! `installedappsVending` reads it, with the Android user of the database.

use std::path::Path;

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
    let owner = run.owner(source);
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
    crate::ios_nearby::sqlite3(
        &other,
        "CREATE TABLE books (id); INSERT INTO books VALUES (1);",
    );
    let two = tmp.path().join("two");
    let vending_two = android_tree(&two);
    build(
        &vending_two.join("library.db"),
        "library.sql",
        "CREATE TABLE o AS SELECT account, doc_id, purchase_time FROM ownership; DROP TABLE ownership; ALTER TABLE o RENAME TO ownership;",
    );
    let second_user = two.join("data/user/10/com.android.vending/databases/library.db");
    crate::ios_nearby::sqlite3(
        &second_user,
        "CREATE TABLE ownership (account STRING, purchase_time INTEGER); INSERT INTO ownership VALUES ('x@example.com', 1);",
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

#[test]
fn play_store_install_states_in_two_layouts() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one");
    let vending = android_tree(&one);
    build(
        &vending.join("localappstate.db"),
        "localappstate.sql",
        "SELECT 1;",
    );
    // the second phone's store is older (version 11): its appstate has the first 15 columns
    let two = tmp.path().join("two");
    android_tree(&two);
    let older = two.join("data/user/10/com.android.vending/databases/localappstate.db");
    build(
        &older,
        "localappstate.sql",
        "CREATE TABLE a AS SELECT package_name, auto_update, desired_version, download_uri, delivery_data, delivery_data_timestamp_ms, installer_state, first_download_ms, referrer, account, title, flags, continue_url, last_notified_version, last_update_timestamp_ms FROM appstate; DROP TABLE appstate; ALTER TABLE a RENAME TO appstate;",
    );
    let run = triage(&[
        ("one", &one, "Asia/Hong_Kong", Some("HK")),
        ("two", &two, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, db, user) in [
        ("one", vending.join("localappstate.db"), "0"),
        ("two", older, "10"),
    ] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        // ALEAPP's fields: first download, package, title, install reason (where stored), last
        // update, auto-update, account
        for row in sqlite3(
            &db,
            "SELECT first_download_ms, package_name, title, last_update_timestamp_ms, account FROM appstate",
        ) {
            let title = format!("Google Play install state of {} ({})", row[1], row[2]);
            let p = all
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{source}: {title}"));
            for v in [&row[0], &row[1], &row[2], &row[4]] {
                assert!(has(p, v), "{source} {title}: {v}");
            }
            // a zero last update is no time
            assert_eq!(
                p.times
                    .iter()
                    .any(|m| m.description == "Last updated from the Play Store"),
                row[3] != "0",
                "{title}"
            );
            assert!(p.interpretation.contains(&format!("(Android user {user})")));
        }
        let trust = all
            .iter()
            .find(|p| {
                p.title
                    .starts_with("Google Play install state of com.wallet.crypto.trustapp")
            })
            .unwrap();
        assert!(trust.interpretation.contains("auto-update yes"));
        if source == "one" {
            assert!(has(trust, "single_install") && has(trust, "com.android.vending"));
            assert!(
                trust
                    .interpretation
                    .contains("install reason single_install")
            );
        } else {
            assert!(!has(trust, "single_install"));
        }
        let owner = run.owner(source);
        assert!(
            owner.contains("google_account=otc.desk.hk@gmail.com")
                && owner.contains("google_account=chan.mh@example.net"),
            "{source}: {owner}"
        );
    }
}
