//! Google Duo / Meet calling on Android (`android::duo`): one phone's `tachyon.db`
//! (`tests/fixtures/duo/`, built by the sqlite3 CLI with the columns ALEAPP's googleDuo module
//! queries) and another's of an older layout (no notes, no `call_state`). Every row and field of
//! ALEAPP's three queries (run here by the CLI, its words for the codes left out, absent columns
//! as NULL) is found; the local user's number is the device's user, the remote user the call's
//! other party, and both phones' users resolve by number. Beside them a truncated copy and a
//! store of another layout (noted) and another app's `tachyon.db` (passed over).

use crate::android_support::{check, sqlite_fixture, triage};

/// ALEAPP's get_googleDuo with the stored codes (it words them) and its ids cut as it cuts them.
const CALLS: &str = "SELECT timestamp_usec, substr(self_id, 0, instr(self_id, '|')), substr(other_id, 0, instr(other_id, '|')), duo_users.contact_display_name, activity_type, call_state, outgoing FROM activity_history LEFT JOIN duo_users ON duo_users.user_id = substr(other_id, 0, instr(other_id, '|'))";
const CONTACTS: &str = "SELECT system_contact_last_update_millis, contact_display_name, user_id, contact_phone_type_custom, contact_id FROM duo_users ORDER BY contact_id";
/// ALEAPP's get_googleDuo_notes with the stored saved flag and the content's file name.
const NOTES: &str = "SELECT sent_timestamp_millis, received_timestamp_millis, seen_timestamp_millis, sender_id, recipient_id, content_uri, replace(content_uri, rtrim(content_uri, replace(content_uri, '/', '')), ''), content_size_bytes, saved_status FROM messages";

#[test]
fn duo_calls_users_and_notes_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let db = a.join("data/data/com.google.android.apps.tachyon/databases/tachyon.db");
    sqlite_fixture(&db, "duo/tachyon.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &a,
        "com.google.android.apps.tachyon/databases/tachyon.db",
        "CREATE TABLE activity_history (id TEXT); INSERT INTO activity_history VALUES ('x');",
    );
    let other = a.join("data/data/com.example.meet/databases/tachyon.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&db, &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();

    let b = tmp.path().join("b");
    let bdb = b.join("data/data/com.google.android.apps.tachyon/databases/tachyon.db");
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE duo_users (user_id TEXT, contact_display_name TEXT, contact_id INTEGER); \
         CREATE TABLE activity_history (timestamp_usec INTEGER, self_id TEXT, other_id TEXT, activity_type INTEGER, outgoing INTEGER); \
         INSERT INTO duo_users VALUES ('+447700900555', 'Sam', 7); \
         INSERT INTO activity_history VALUES (1690000000000000, '+447700900123|1', '+447700900555|1', 1, 1);",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(
        check(
            &all,
            "Google Duo call",
            &db,
            &format!("{CALLS} WHERE activity_type = 1"),
            0
        ),
        2
    );
    assert_eq!(check(&all, "Google Duo note message", &db, NOTES, 0), 1);
    assert_eq!(check(&all, "Google Duo contact", &db, CONTACTS, 2), 2);
    // the note activity (type 2) is an activity of its own
    let note = all
        .iter()
        .find(|p| p.title == "Google Duo note from +447700900987")
        .expect("the note activity");
    assert!(
        note.interpretation
            .contains("call_state 0: a message was left")
    );
    let ball = run.all_phenomena("b");
    assert_eq!(
        check(
            &ball,
            "Google Duo call",
            &bdb,
            "SELECT timestamp_usec, substr(self_id, 0, instr(self_id, '|')), substr(other_id, 0, instr(other_id, '|')), duo_users.contact_display_name, activity_type, outgoing FROM activity_history LEFT JOIN duo_users ON duo_users.user_id = substr(other_id, 0, instr(other_id, '|'))",
            0
        ),
        1
    );

    // the local user is the device's: each phone's owner is the other's caller
    let owner = run.owner("a");
    assert!(owner.contains("phone=+447700900555"), "{owner}");
    assert!(
        run.entities("a")
            .iter()
            .any(|e| e.starts_with("duo:jess.r@example.org [Person] Jess R:")
                && e.contains("email=jess.r@example.org")),
        "{:#?}",
        run.entities("a")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("a/duo:+447700900123", "a/handle:+447700900123"),
        ("a/owner", "b/duo:+447700900555"),
        ("b/owner", "a/handle:+447700900123"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    assert!(
        !all.iter().any(|p| p.title.starts_with("Google Duo ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.meet"))),
        "another app's store was read"
    );
    run.assert_noted(
        "a",
        &[
            (
                "user/10/com.google.android.apps.tachyon/databases/tachyon.db",
                "malformed",
            ),
            (
                "user/11/com.google.android.apps.tachyon/databases/tachyon.db",
                "table activity_history lacks timestamp_usec, other_id",
            ),
        ],
    );
}
