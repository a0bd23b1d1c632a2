//! TextNow on Android (`android::textnow`): one phone's `textnow_data.db`
//! (`tests/fixtures/textnow/`, built by the sqlite3 CLI with the columns ALEAPP's textnow module
//! queries) and another's of an older layout (no groups, no attachments). Every row and field
//! of ALEAPP's three queries (run here by the CLI; its times as the stored milliseconds, its
//! direction words left out) is found, and the message its JOIN drops (a number in neither
//! `contacts` nor `groups`) too; a sent message's wallet address is the device user's claim;
//! the contacts and the parties of both phones resolve by number. Beside them a truncated copy
//! and a store of another layout (noted) and another app's file of the name (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

/// ALEAPP's get_textnow_messages with the stored date and without its direction words.
const MESSAGES: &str = "SELECT CASE WHEN messages.message_direction == 2 THEN NULL WHEN contact_book_w_groups.to_addresses IS NULL THEN messages.contact_value END from_address, \
CASE WHEN messages.message_direction == 1 THEN NULL WHEN contact_book_w_groups.to_addresses IS NULL THEN messages.contact_value ELSE contact_book_w_groups.to_addresses END to_address, \
messages.message_text, messages.READ, messages.DATE, messages.attach, thread_id \
FROM (SELECT GM.contact_value, Group_concat(GM.member_contact_value) AS to_addresses, G.contact_value AS thread_id FROM group_members AS GM join GROUPS AS G ON G.contact_value = GM.contact_value GROUP BY GM.contact_value \
UNION SELECT contact_value, NULL, NULL FROM contacts) AS contact_book_w_groups join messages ON messages.contact_value = contact_book_w_groups.contact_value \
WHERE message_type NOT IN (102, 100)";
/// ALEAPP's get_textnow_call_logs with the stored date beside its computed end.
const CALLS: &str = "SELECT contact_value, date/1000 + message_text, date FROM messages WHERE message_type IN (100, 102)";
const CONTACTS: &str = "SELECT C.contact_value, CASE WHEN contact_name IS NULL THEN contact_value WHEN contact_name == '' THEN contact_value ELSE contact_name END FROM contacts AS C";

/// The rows of `sql` on `db`, each one of the phenomena titled `prefix…` holding each value
/// (lists split on commas).
fn check(all: &[Phenomenon], prefix: &str, db: &std::path::Path, sql: &str, key: usize) -> usize {
    let found: Vec<&Phenomenon> = all.iter().filter(|p| p.title.starts_with(prefix)).collect();
    crate::android_support::rows_in(&found, db, sql, key, ",")
}

#[test]
fn textnow_messages_calls_and_contacts_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let db = a.join("data/data/com.enflick.android.TextNow/databases/textnow_data.db");
    sqlite_fixture(&db, "textnow/textnow_data.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &a,
        "com.enflick.android.TextNow/databases/textnow_data.db",
        "CREATE TABLE messages (id TEXT, body TEXT); INSERT INTO messages VALUES ('x', 'y');",
    );
    let other = a.join("data/data/com.example.sms/databases/textnow_data.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&db, &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();

    let b = tmp.path().join("b");
    let bdb = b.join("data/data/com.enflick.android.TextNow/databases/textnow_data.db");
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE contacts (contact_value TEXT, contact_name TEXT); \
         CREATE TABLE messages (contact_value TEXT, message_direction INTEGER, message_type INTEGER, message_text TEXT, read INTEGER, date INTEGER); \
         INSERT INTO contacts VALUES ('+12125550147', 'Dre Mobile'); \
         INSERT INTO messages VALUES ('+12125550147', 1, 1, 'still on?', 1, 1690000000000);",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "America/New_York", Some("US")),
        ("b", &b, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let msgs = check(&all, "TextNow message", &db, MESSAGES, 4);
    // ALEAPP's rows: the group message twice (the group's id is also a `contacts` row, so its
    // UNION gives the group two rows: one with the members, one without) and not the message
    // from a number in neither contacts nor groups (its JOIN drops it): 5 rows, 4 messages
    assert_eq!(msgs, 5);
    let ours: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("TextNow message"))
        .collect();
    assert_eq!(ours.len(), 5);
    let stray = ours
        .iter()
        .find(|p| has(p, "who is this"))
        .expect("the message ALEAPP drops");
    assert_eq!(stray.title, "TextNow message from +14155550123");
    assert_eq!(check(&all, "TextNow call", &db, CALLS, 2), 2);
    assert_eq!(check(&all, "TextNow contact", &db, CONTACTS, 0), 3);
    let call = all
        .iter()
        .find(|p| p.title == "TextNow call to +12125550147")
        .expect("the outgoing call");
    assert!(
        call.interpretation
            .contains("which the app's schema does not establish")
    );
    let group = ours
        .iter()
        .find(|p| has(p, "meet at 8"))
        .expect("the group message");
    assert_eq!(group.title, "TextNow message sent to the group g_8f2c");
    let bb = run.all_phenomena("b");
    assert_eq!(
        check(
            &bb,
            "TextNow message",
            &bdb,
            "SELECT contact_value, message_text, read, date FROM messages",
            3
        ),
        1
    );

    // the sent message's address: the device's user asks Dre to send there
    let ents = run.entities("a");
    assert!(
        ents.iter().any(|e| e.starts_with("owner [Person]")
            && e.contains("wallet=bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")),
        "{ents:#?}"
    );
    assert!(
        ents.iter()
            .any(|e| e.starts_with("textnow:+12125550147 [Person] Dre:")
                && e.contains("phone=+12125550147")),
        "{ents:#?}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("a/textnow:+12125550147", "a/handle:+12125550147"),
        ("a/handle:+12125550147", "b/handle:+12125550147"),
        ("a/textnow:+12125550147", "b/textnow:+12125550147"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    assert!(
        !all.iter().any(|p| p.title.starts_with("TextNow ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.sms"))),
        "another app's store was read"
    );
    run.assert_noted(
        "a",
        &[
            (
                "user/10/com.enflick.android.TextNow/databases/textnow_data.db",
                "malformed",
            ),
            (
                "user/11/com.enflick.android.TextNow/databases/textnow_data.db",
                "table messages lacks contact_value, date",
            ),
        ],
    );
}
