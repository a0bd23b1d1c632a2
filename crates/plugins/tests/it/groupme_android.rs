//! GroupMe on Android (`android::groupme`): Ana's `groupme.db` (`tests/fixtures/groupme/`, built
//! by the sqlite3 CLI with the columns ALEAPP's groupMe module queries) and Bo's, of the layout
//! before the migration that added `deleted_at` and `deletion_actor`. Every row and field of
//! ALEAPP's two queries (run here by the CLI) is found, and the group its INNER JOIN drops
//! (a creator without a member row) too; each group's members are listed and observed as
//! `groupme:<user id>` — the id iOS's `GroupMe.sqlite` reader gives — so the two phones resolve
//! each other's users. Beside them a truncated copy and a store of another layout (noted) and
//! another app's `groupme.db` (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

#[test]
fn groupme_groups_members_and_messages_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let ana = tmp.path().join("ana");
    let db = ana.join("data/data/com.groupme.android/databases/groupme.db");
    sqlite_fixture(&db, "groupme/groupme.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &ana,
        "com.groupme.android/databases/groupme.db",
        "CREATE TABLE messages (message_id TEXT, text TEXT); INSERT INTO messages VALUES ('x', 'y');",
    );
    let other = ana.join("data/data/com.example.chat/databases/groupme.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&db, &other).unwrap();
    std::fs::create_dir_all(ana.join("data/system/users/0")).unwrap();

    let bo = tmp.path().join("bo");
    let bdb = bo.join("data/data/com.groupme.android/databases/groupme.db");
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE groups (group_id TEXT, name TEXT, group_type TEXT, creator_user_id TEXT, message_count INTEGER, attachment_count INTEGER, created_at INTEGER, last_message_created_at INTEGER, updated_at INTEGER); \
         CREATE TABLE members (group_id TEXT, user_id TEXT, user_real_name TEXT, role TEXT); \
         CREATE TABLE messages (conversation_id TEXT, user_id TEXT, created_at INTEGER, name TEXT, sender_type TEXT, is_system INTEGER, hidden INTEGER, read INTEGER, message_text TEXT, photo_url TEXT, photo_uri TEXT, photo_width INTEGER, photo_height INTEGER, photo_is_gif INTEGER, video_url TEXT, location_lat TEXT, location_lng TEXT, location_name TEXT); \
         INSERT INTO groups VALUES ('71000001', 'Harbour Runners', 'private', '5550101', 2, 0, 1700000000, 1700000100, 1700000100); \
         INSERT INTO members VALUES ('71000001', '5550101', 'Ana Lee', 'owner'); \
         INSERT INTO members VALUES ('71000001', '5550202', 'Bo Chan', 'admin'); \
         INSERT INTO messages VALUES ('71000001', '5550101', 1700000100, 'Ana Lee', 'user', 0, 0, 1, 'pickup at pier 4 at 9', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);",
    );
    std::fs::create_dir_all(bo.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("ana", &ana, "Asia/Hong_Kong", Some("HK")),
        ("bo", &bo, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // ALEAPP's get_groupMe, its INNER JOIN made a LEFT JOIN (it drops group 71000002, whose
    // creator has no member row); its times are the stored seconds here
    let groups_sql = "SELECT groups.created_at, groups.name, groups.group_type, members.user_real_name, members.role, \
        groups.message_count, groups.attachment_count, groups.last_message_created_at, groups.updated_at, groups.group_id \
        FROM groups LEFT JOIN members ON members.user_id=groups.creator_user_id AND members.group_id=groups.group_id \
        ORDER BY groups.created_at ASC";
    // ALEAPP's get_groupMe_chat with the flags as stored (it writes is_system, read and
    // photo_is_gif as Yes/No) and, for Bo's older layout, the absent columns as NULL (its
    // null_absent_columns)
    let chat = |deleted: &str| {
        format!(
            "SELECT messages.created_at, {deleted}, groups.name, messages.name, messages.sender_type, messages.is_system, \
             messages.hidden, messages.read, {}, messages.message_text, messages.photo_url, messages.photo_uri, \
             messages.photo_width, messages.photo_height, messages.photo_is_gif, messages.video_url, messages.location_lat, \
             messages.location_lng, messages.location_name FROM messages LEFT JOIN groups ON groups.group_id=messages.conversation_id \
             ORDER BY messages.created_at ASC",
            if deleted == "NULL" {
                "NULL"
            } else {
                "messages.deletion_actor"
            }
        )
    };
    for (source, db, groups, messages, chat_sql) in [
        ("ana", &db, 2, 6, chat("messages.deleted_at")),
        ("bo", &bdb, 1, 1, chat("NULL")),
    ] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let found: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with("GroupMe group ") && !p.title.ends_with(" members"))
            .collect();
        let rows = sqlite3(db, groups_sql);
        assert_eq!((found.len(), rows.len()), (groups, groups), "{source}");
        for row in &rows {
            let p = found
                .iter()
                .find(|p| has(p, &row[9]))
                .unwrap_or_else(|| panic!("{source}: {row:?}"));
            for v in &row[..9] {
                assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
            }
        }
        let found: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with("GroupMe message "))
            .collect();
        let rows = sqlite3(db, &chat_sql);
        assert_eq!((found.len(), rows.len()), (messages, messages), "{source}");
        for row in &rows {
            let p = found
                .iter()
                .find(|p| has(p, &row[0]) && (row[9].is_empty() || has(p, &row[9])))
                .unwrap_or_else(|| panic!("{source}: {row:?}"));
            for (i, v) in row.iter().enumerate() {
                // deleted_at 0 is no deletion (ALEAPP leaves it empty)
                if v.is_empty() || (i == 1 && v == "0") {
                    continue;
                }
                assert!(has(p, v), "{source}: {v} in {p:#?}");
            }
        }
    }

    let all = run.all_phenomena("ana");
    let deleted = all
        .iter()
        .find(|p| p.title.starts_with("GroupMe message ") && has(p, "This message was deleted"))
        .expect("the deleted message");
    let marks: Vec<&str> = deleted
        .times
        .iter()
        .map(|m| m.description.as_str())
        .collect();
    assert_eq!(marks, ["Message created", "Message deleted"]);
    assert!(deleted.interpretation.contains("deleted (actor sender)"));
    let system = all
        .iter()
        .find(|p| has(p, "A message was deleted."))
        .expect("the system message");
    assert!(system.interpretation.contains("hidden 2 (as stored)"));
    let members = all
        .iter()
        .find(|p| p.title == "GroupMe group Harbour Runners members")
        .expect("the member list");
    for v in [
        "5550101", "5550202", "5550303", "Ana Lee", "Ana", "CW", "admin",
    ] {
        assert!(has(members, v), "{v}: {members:#?}");
    }
    // only GroupMe's store is read
    assert!(
        !all.iter().any(|p| p.title.starts_with("GroupMe ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.chat"))),
        "another app's store was read"
    );

    let ents = run.entities("ana");
    assert!(
        ents.iter()
            .any(|e| e.starts_with("groupme:5550202 [Person] Bo Chan:")
                && e.contains("account_id=groupme:5550202")),
        "{ents:#?}"
    );
    // the system sender is no one
    assert!(
        !ents.iter().any(|e| e.contains("groupme:system")),
        "{ents:#?}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("ana/groupme:5550101", "bo/groupme:5550101"),
        ("ana/groupme:5550202", "bo/groupme:5550202"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }

    run.assert_noted(
        "ana",
        &[
            (
                "user/10/com.groupme.android/databases/groupme.db",
                "malformed",
            ),
            (
                "user/11/com.groupme.android/databases/groupme.db",
                "table messages lacks created_at",
            ),
        ],
    );
}
