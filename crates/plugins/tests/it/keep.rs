//! Google Keep's `keep.db` (`android::keep`) on two phones: one as
//! `tests/fixtures/keep/keep.sql` builds it (sqlite3 CLI), one of an older layout without the
//! `sharing` table and the `synced_text` column (dropped by sqlite3). Every list item is found
//! with its note's title, text and times; where ALEAPP's join (on the two tables' own ids)
//! finds a row, its fields are in the item's phenomenon too. The account is the owner's, the
//! note's sharer a person, the wallet address in a note the user's claim. Beside them another
//! app's `keep.db` (passed over) and a store `keep.db` whose `list_item` lacks
//! `list_parent_id` (noted).

use std::path::Path;

use masf_graph::Phenomenon;

use crate::android_support::{Run, sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn android_tree(root: &Path) -> std::path::PathBuf {
    std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(root.join("data/user/0/com.android.providers.telephony")).unwrap();
    root.join("data/data/com.google.android.keep/databases/keep.db")
}

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn check(run: &Run, source: &str, db: &Path) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let item = |id: &str| -> &Phenomenon {
        all.iter()
            .find(|p| {
                p.title.starts_with("Google Keep note ")
                    && p.interpretation.starts_with(&format!("list_item {id} "))
            })
            .unwrap_or_else(|| panic!("{source}: item {id}"))
    };
    for row in sqlite3(
        db,
        "SELECT i._id, i.time_created, i.time_last_updated, a.name, t.title, i.text FROM list_item i JOIN account a ON a._id = i.account_id JOIN tree_entity t ON t._id = i.list_parent_id",
    ) {
        let p = item(&row[0]);
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
    }
    // ALEAPP's rows (its join on the tables' own ids): every non-empty field found
    for row in sqlite3(
        db,
        "SELECT list_item._id, list_item.time_created, list_item.time_last_updated, name, title, text, last_modifier_email FROM account INNER JOIN list_item ON account._id == list_item.account_id INNER JOIN tree_entity ON tree_entity._id == list_item._id",
    ) {
        let p = item(&row[0]);
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{source}: ALEAPP {v} in {p:#?}");
        }
    }
    let deleted = item("6");
    assert!(deleted.title.ends_with("(deleted)"), "{}", deleted.title);
    let owner = run.owner(source);
    assert!(
        owner.contains("google_account=chan.mh@example.net")
            && owner.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"),
        "{source}: {owner}"
    );
}

#[test]
fn google_keep_notes_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one");
    let db_one = android_tree(&one);
    sqlite_fixture(&db_one, "keep/keep.sql", "SELECT 1;");
    let other = one.join("data/data/org.example.keeper/databases/keep.db");
    sqlite_fixture(&other, "keep/keep.sql", "SELECT 1;");
    let two = tmp.path().join("two");
    let db_two = android_tree(&two);
    sqlite_fixture(
        &db_two,
        "keep/keep.sql",
        "DROP TABLE sharing; ALTER TABLE list_item DROP COLUMN synced_text;",
    );
    let broken = two.join("data/user/10/com.google.android.keep/databases/keep.db");
    sqlite_fixture(
        &broken,
        "keep/keep.sql",
        "ALTER TABLE list_item DROP COLUMN list_parent_id;",
    );

    let run = triage(&[
        ("one", &one, "Asia/Hong_Kong", Some("HK")),
        ("two", &two, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    check(&run, "one", &db_one);
    check(&run, "two", &db_two);

    let all = run.all_phenomena("one");
    let shared = all
        .iter()
        .find(|p| p.title == "Google Keep note To pay shared with fung.cc@example.org")
        .expect("sharing");
    assert!(has(shared, "1714620000000") && shared.interpretation.contains("synced"));
    assert!(
        run.entities("one").iter().any(|e| e.starts_with(
            "handle:fung.cc@example.org [Person] fung.cc@example.org: email=fung.cc@example.org"
        )),
        "{:#?}",
        run.entities("one")
    );
    // another app's keep.db is not Keep's: one note per item of Keep's only
    assert_eq!(
        all.iter()
            .filter(
                |p| p.title.starts_with("Google Keep note ") && !p.title.contains(" shared with ")
            )
            .count(),
        3
    );
    let notes = run.unparsed("two");
    assert!(
        notes.iter().any(|u| u
            .artefact
            .ends_with("user/10/com.google.android.keep/databases/keep.db")
            && u.reason.contains("table list_item lacks list_parent_id")),
        "{notes:#?}"
    );
}
