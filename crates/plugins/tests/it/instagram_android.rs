//! Instagram direct messages on Android (`android::instagram`) on two phones — WONG's
//! `direct.db` of the later layout (`tests/fixtures/instagram/direct.sql`) and BEN's of the
//! 2018 layout (`direct_2018.sql`), built by the sqlite3 CLI with the app's own CREATE
//! statements — and an iPhone holding the corpus's Instagram database (plaso's, viewer
//! 9368974384). Every thread user and message the CLI's JSON functions find is recorded with
//! its fields; a row whose JSON is damaged is still read; the signed-in accounts are the
//! owners, and each phone's contacts resolve to the other phones' users by their pk (the
//! iPhone's too: a user both it and WONG talk to is one person). Beside
//! them a truncated copy and a store of another layout (noted) and another app's `direct.db`
//! (passed over).

use std::path::Path;

use masf_graph::Phenomenon;

use crate::android_support::{Run, sqlite_fixture, triage};
use crate::browsers::sqlite3;

const WONG: &str = "5522334411";
const BEN: &str = "7711223344";
const IPHONE: &str = "9368974384";

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

/// Every thread user and message of `db` in the phenomena of `source`.
fn check(run: &Run, source: &str, db: &Path, me: &str) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let find = |prefix: &str, v: &str| -> &Phenomenon {
        all.iter()
            .find(|p| p.title.starts_with(prefix) && has(p, v))
            .unwrap_or_else(|| panic!("{source}: {prefix} with {v}"))
    };
    let users = sqlite3(
        db,
        "SELECT t.thread_id, json_extract(t.thread_info, '$.thread_title'), coalesce(json_extract(r.value, '$.pk_id'), json_extract(r.value, '$.id')), \
         json_extract(r.value, '$.username'), json_extract(r.value, '$.full_name') \
         FROM threads t, json_each(t.thread_info, '$.recipients') r WHERE json_valid(t.thread_info)",
    );
    assert!(!users.is_empty());
    for row in &users {
        let p = find("Instagram thread ", &row[0]);
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
    }
    let messages = sqlite3(
        db,
        "SELECT json_extract(message, '$.item_id'), timestamp, json_extract(message, '$.user_id'), thread_id, \
         coalesce(json_extract(message, '$.text'), json_extract(message, '$.reel_share.text'), json_extract(message, '$.action_log.description'), json_extract(message, '$.link.text')), \
         json_extract(message, '$.link.link_context.link_url') FROM messages WHERE json_valid(message)",
    );
    assert!(!messages.is_empty());
    for row in &messages {
        let p = find("Instagram ", &row[0]);
        assert_eq!(p.category, "messages");
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
        assert_eq!(p.title.contains(" sent in "), row[2] == me, "{}", p.title);
    }
    let account = find("Instagram account ", me);
    assert!(account.title.ends_with("(the device's user)"));
}

#[test]
fn instagram_direct_on_two_android_phones_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let wong = tmp.path().join("wong");
    let db = wong.join("data/data/com.instagram.android/databases/direct.db");
    sqlite_fixture(&db, "instagram/direct.sql", "SELECT 1;");
    // a truncated copy, a store of another layout, another app's direct.db
    crate::android_support::damaged_copies(
        &wong,
        "com.instagram.android/databases/direct.db",
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, thread_id TEXT, body TEXT); INSERT INTO messages VALUES (1, 't', 'x');",
    );
    let other = wong.join("data/data/com.example.notes/databases/direct.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&db, &other).unwrap();
    std::fs::create_dir_all(wong.join("data/system/users/0")).unwrap();

    let ben = tmp.path().join("ben");
    let ben_db = ben.join("data/data/com.instagram.android/databases/direct.db");
    sqlite_fixture(&ben_db, "instagram/direct_2018.sql", "SELECT 1;");
    std::fs::create_dir_all(ben.join("data/system/users/0")).unwrap();

    let iphone = tmp.path().join("iphone");
    let ios_db = iphone.join(format!(
        "private/var/mobile/Containers/Data/Application/7F3E2D1C-0B9A-4876-A5B4-C3D2E1F00A9B/Library/Application Support/DirectSQLiteDatabase/{IPHONE}.db"
    ));
    std::fs::create_dir_all(ios_db.parent().unwrap()).unwrap();
    std::fs::copy(
        crate::ios_support::public("ios/plaso-9368974384.db"),
        &ios_db,
    )
    .unwrap();

    let run = triage(&[
        ("wong", &wong, "Asia/Hong_Kong", Some("HK")),
        ("ben", &ben, "Asia/Hong_Kong", Some("HK")),
        ("iphone", &iphone, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    check(&run, "wong", &db, WONG);
    check(&run, "ben", &ben_db, BEN);

    // the damaged JSON: the thread and the message are still read
    let all = run.all_phenomena("wong");
    let broken = all
        .iter()
        .find(|p| {
            has(p, "340282366841710300949128170000000001")
                && p.title.starts_with("Instagram thread ")
        })
        .expect("the thread whose thread_info is not JSON");
    assert!(
        broken.interpretation.contains("not JSON"),
        "{}",
        broken.interpretation
    );
    assert!(
        all.iter()
            .any(|p| p.title.starts_with("Instagram text in Desk") && has(p, "ok")),
        "{:#?}",
        all.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    // only Instagram's direct.db is read
    let read: Vec<&String> = all
        .iter()
        .filter(|p| {
            p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.notes"))
        })
        .map(|p| &p.title)
        .collect();
    assert!(
        !read.iter().any(|t| t.starts_with("Instagram ")),
        "another app's direct.db was read: {read:#?}"
    );
    assert!(
        run.entities("wong")
            .iter()
            .any(|e| e.starts_with(&format!(
                "instagram:{IPHONE} [Person] Mark T: account_id=instagram:{IPHONE}"
            )) && e.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{:#?}",
        run.entities("wong")
    );

    let with = crate::who::resolved(&run);
    for (owner, known_as) in [
        ("wong/owner", format!("ben/instagram:{WONG}")),
        ("ben/owner", format!("wong/instagram:{BEN}")),
        ("iphone/owner", format!("wong/instagram:{IPHONE}")),
        // a user both WONG and the iPhone talk to: the iPhone's thread member (its pk inside
        // an archived IGUser, qualified by sqlite_query) is WONG's recipient of that pk_id
        (
            "iphone/instagram:49849116416",
            "wong/instagram:49849116416".to_string(),
        ),
    ] {
        assert!(
            with(owner).contains(&known_as),
            "{owner}: {:#?}",
            with(owner)
        );
    }

    run.assert_noted(
        "wong",
        &[
            (
                "user/10/com.instagram.android/databases/direct.db",
                "malformed",
            ),
            (
                "user/11/com.instagram.android/databases/direct.db",
                "table messages lacks timestamp, message",
            ),
        ],
    );
}
