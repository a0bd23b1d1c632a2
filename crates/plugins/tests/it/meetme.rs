//! MeetMe on Android (`android::meetme`): two phones' `chats.db` built by the sqlite3 CLI with
//! the columns ALEAPP's meetme module queries (no public copy is in the corpus), the second of
//! an older layout (no members table, no attachment path) and another app's `chats.db`. Every
//! row and field of ALEAPP's query (run by the CLI) is found; a member seen on both phones is one
//! person by member id. A truncated copy and a store without messages are noted.

use crate::android_support::{check, triage};

const A: &str = "CREATE TABLE members (member_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, photo_url TEXT);
CREATE TABLE messages (_id INTEGER PRIMARY KEY, thread_id TEXT, sent_at INTEGER, sent_by INTEGER, body TEXT, type TEXT, local_path TEXT);
INSERT INTO members VALUES (881200, 'Ravi', 'Menon', NULL);
INSERT INTO members VALUES (881300, 'Lena', NULL, NULL);
INSERT INTO messages VALUES (1, 't-881200', 1701340800, 881200, 'meet at the depot?', 'text', NULL);
INSERT INTO messages VALUES (2, 't-881200', 1701340860, 881500, 'yes, 9pm', 'text', NULL);
INSERT INTO messages VALUES (3, 't-881300', 1701200000, 881300, NULL, 'photo', '/storage/emulated/0/MeetMe/IMG_0042.jpg');";

const B: &str = "CREATE TABLE messages (_id INTEGER PRIMARY KEY, thread_id TEXT, sent_at INTEGER, sent_by INTEGER, body TEXT, type TEXT);
INSERT INTO messages VALUES (1, 't-881500', 1701340800, 881200, 'meet at the depot?', 'text');";

/// ALEAPP's get_meetmechats.
const MESSAGES: &str = "SELECT messages.sent_at, messages.thread_id, members.first_name, members.last_name, messages.sent_by, messages.body, messages.type, messages.local_path, messages._id FROM messages LEFT JOIN members ON members.member_id = messages.sent_by ORDER BY messages.thread_id, messages.sent_at";

#[test]
fn meetme_messages_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "com.myyearbook.m/databases/chats.db";
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let (adb, bdb) = (a.join("data/data").join(rel), b.join("data/data").join(rel));
    crate::ios_nearby::sqlite3(&adb, A);
    crate::ios_nearby::sqlite3(&bdb, B);
    crate::android_support::damaged_copies(&a, rel, "CREATE TABLE threads (id TEXT);");
    crate::ios_nearby::sqlite3(
        &a.join("data/data/com.example.chat/databases/chats.db"),
        "CREATE TABLE messages (sent_at INTEGER, sent_by TEXT); INSERT INTO messages VALUES (1, 'zz-other-app');",
    );
    for root in [&a, &b] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // the key column is the row id (ALEAPP's columns beside it)
    let found: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("MeetMe message"))
        .collect();
    assert_eq!(found.len(), 3);
    for row in crate::browsers::sqlite3(&adb, MESSAGES) {
        let p = found
            .iter()
            .find(|p| {
                p.interpretation
                    .starts_with(&format!("messages row {} of", row[8]))
            })
            .unwrap_or_else(|| panic!("{row:?}"));
        for v in row[..8].iter().filter(|v| !v.is_empty()) {
            assert!(
                p.verified_facts.iter().any(|f| f.value == *v),
                "{v} in {p:#?}"
            );
        }
    }
    let ball = run.all_phenomena("b");
    assert_eq!(
        check(
            &ball,
            "MeetMe message",
            &bdb,
            "SELECT sent_at, thread_id, sent_by, body, type FROM messages",
            3
        ),
        1
    );
    assert!(
        all.iter()
            .any(|p| p.title == "MeetMe message from Ravi Menon in thread t-881200")
    );
    assert!(
        !all.iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value == "zz-other-app")),
        "another app's chats.db was read"
    );
    let with = crate::who::resolved(&run);
    assert!(
        with("a/meetme:881200").contains(&"b/meetme:881200".to_string()),
        "{:#?}",
        with("a/meetme:881200")
    );
    run.assert_noted(
        "a",
        &[
            ("user/10/com.myyearbook.m/databases/chats.db", "malformed"),
            (
                "user/11/com.myyearbook.m/databases/chats.db",
                "no messages table",
            ),
        ],
    );
}
