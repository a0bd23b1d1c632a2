//! Snapchat on Android (`android::snapchat`): Dex's `main.db` and `arroyo.db`
//! (`tests/fixtures/snapchat/`, built by `generate.sh`: the columns ALEAPP's snapchat module
//! queries, `message_content` blobs encoded by `protoc --encode` in the structure ALEAPP
//! observed) and Kai's, written here by the sqlite3 CLI without `message_content` (an older
//! layout: `local_message_content_id` instead of `created_on_device`). Every row and field of
//! ALEAPP's friends and arroyo message queries (run by the CLI) is found, and each chat
//! message's text (4 › 4 › 2 › 1, as the generator wrote it); each phone's user is the one
//! sender of its messages created on the device, and the two phones resolve each other's users
//! by user id and by user name in any case; a sent message's wallet address is the writer's
//! claim. Beside them a truncated copy and a store of another layout (noted) and another app's
//! `main.db` (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{repo, triage};
use crate::browsers::sqlite3;

const ME: &str = "8b0e6a52-4a1c-4f6e-9c55-2f1f0e9d1a01";
const KAI: &str = "2c9d7d3e-1111-4e2b-8a41-5f3c2b1a0b02";
const RIO: &str = "77e1f0aa-2222-4c3d-9e8f-6a5b4c3d2e03";

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

#[test]
fn snapchat_friends_and_messages_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let dir = a.join("data/data/com.snapchat.android/databases");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["main.db", "arroyo.db"] {
        std::fs::copy(repo(&format!("tests/fixtures/snapchat/{f}")), dir.join(f)).unwrap();
    }
    crate::android_support::damaged_copies(
        &a,
        "com.snapchat.android/databases/arroyo.db",
        "CREATE TABLE conversation_message (id TEXT); INSERT INTO conversation_message VALUES ('x');",
    );
    // the signed-in user in the preferences, as Android writes a shared-preferences file
    let prefs = a.join("data/data/com.snapchat.android/shared_prefs");
    std::fs::create_dir_all(&prefs).unwrap();
    std::fs::write(
        prefs.join("user_session_shared_pref.xml"),
        format!(
            "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <long name=\"key_last_sync\" value=\"1700000000000\" />\n    <string name=\"key_user_id\">{ME}</string>\n</map>\n"
        ),
    )
    .unwrap();
    let other = a.join("data/data/com.example.app/databases/main.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(dir.join("main.db"), &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();

    let b = tmp.path().join("b");
    let bdir = b.join("data/data/com.snapchat.android/databases");
    crate::ios_nearby::sqlite3(
        &bdir.join("main.db"),
        &format!(
            "CREATE TABLE Friend (userId TEXT, username TEXT, displayName TEXT, addedTimestamp INTEGER); \
             INSERT INTO Friend VALUES ('{ME}', 'Dex.M', 'Dexter', 1699990000000); \
             INSERT INTO Friend VALUES ('{KAI}', 'kai_22', 'Kai', NULL);"
        ),
    );
    crate::ios_nearby::sqlite3(
        &bdir.join("arroyo.db"),
        &format!(
            "CREATE TABLE conversation_message (client_conversation_id TEXT, client_message_id INTEGER, sender_id TEXT, creation_timestamp INTEGER, content_type INTEGER, local_message_content_id INTEGER); \
             INSERT INTO conversation_message VALUES ('c0a1b2c3-0000-4000-8000-000000000001', 1, '{ME}', 1700001000000, 1, NULL); \
             INSERT INTO conversation_message VALUES ('c0a1b2c3-0000-4000-8000-000000000001', 2, '{KAI}', 1700001100000, 1, 55);"
        ),
    );
    // Kai's preferences name no user: noted, and the sender of the messages created on the
    // device is Kai's phone's user
    let bprefs = b.join("data/data/com.snapchat.android/shared_prefs");
    std::fs::create_dir_all(&bprefs).unwrap();
    std::fs::write(
        bprefs.join("user_session_shared_pref.xml"),
        "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <boolean name=\"key_logged_in\" value=\"false\" />\n</map>\n",
    )
    .unwrap();
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    // Rio's iPhone: the same arroyo.db layout in an app container (its messages the fixture's
    // rows, Rio the one sender created on the device)
    let iphone = tmp.path().join("iphone");
    let ios_db = iphone.join(
        "private/var/mobile/Containers/Data/Application/9A1B2C3D-4E5F-4A6B-8C7D-0E1F2A3B4C5D/Documents/user_scoped/77e1f0aa/arroyo/arroyo.db",
    );
    std::fs::create_dir_all(ios_db.parent().unwrap()).unwrap();
    std::fs::copy(repo("tests/fixtures/snapchat/arroyo.db"), &ios_db).unwrap();
    crate::ios_nearby::sqlite3(
        &ios_db,
        &format!("UPDATE conversation_message SET created_on_device = (sender_id = '{RIO}');"),
    );
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();
    // its friends: primary.docobjects' snapchatter rows with the user-name index tables (the
    // FlatBuffers documents are not read: a few bytes stand for them)
    let docs = ios_db
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("DocObjects/primary.docobjects");
    std::fs::create_dir_all(docs.parent().unwrap()).unwrap();
    crate::ios_nearby::sqlite3(
        &docs,
        &format!(
            "CREATE TABLE snapchatter (userId TEXT PRIMARY KEY, p BLOB); \
             CREATE TABLE index_snapchatterusername (username TEXT); \
             CREATE TABLE index_snapchattermutableUsername (mutableUsername TEXT); \
             INSERT INTO snapchatter (rowid, userId, p) VALUES (1, '{RIO}', x'0c000000'), (2, '{ME}', x'0c000000'), (3, '{KAI}', x'0c000000'); \
             INSERT INTO index_snapchatterusername (rowid, username) VALUES (1, 'rio.vz'), (2, 'DEX.M'), (3, 'kai_b'); \
             INSERT INTO index_snapchattermutableUsername (rowid, mutableUsername) VALUES (1, 'rio.vz'), (2, 'dex.m'), (3, 'kai_b');"
        ),
    );

    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "Europe/London", Some("GB")),
        ("iphone", &iphone, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let friends: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Snapchat friend "))
        .collect();
    // ALEAPP's get_snapchat_friends lists the rows with addedTimestamp; the account's own
    // row (none) is read too
    let rows = sqlite3(
        &dir.join("main.db"),
        "SELECT addedTimestamp, username, userId, displayName, phone, birthday FROM Friend WHERE addedTimestamp IS NOT NULL",
    );
    assert_eq!((rows.len(), friends.len()), (2, 3));
    for row in &rows {
        let p = friends.iter().find(|p| has(p, &row[2])).expect("friend");
        for v in row.iter().filter(|v| !v.is_empty()) {
            assert!(has(p, v), "{v} in {p:#?}");
        }
    }
    // ALEAPP's arroyo message columns
    let messages: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Snapchat message "))
        .collect();
    let rows = sqlite3(
        &dir.join("arroyo.db"),
        "SELECT creation_timestamp, read_timestamp, sender_id, content_type, message_state_type, is_saved, is_viewed_by_user, created_on_device, remote_media_count, replies_count, quoted_server_message_id, client_conversation_id, client_message_id, server_message_id FROM conversation_message ORDER BY creation_timestamp",
    );
    assert_eq!(messages.len(), rows.len());
    for row in &rows {
        let p = messages
            .iter()
            .find(|p| has(p, &row[13]))
            .unwrap_or_else(|| panic!("{row:?}"));
        for v in row.iter().filter(|v| !v.is_empty()) {
            assert!(has(p, v), "{v} in {p:#?}");
        }
    }
    // the texts generate.sh encoded, on the content type 1 rows only
    for (server, text) in [
        (
            "9001",
            "you got the 2 bags? send btc to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        ),
        ("9002", "yeah. meet at the usual spot, 10"),
        ("9101", "who is this?"),
    ] {
        let p = messages.iter().find(|p| has(p, server)).unwrap();
        assert!(has(p, text), "{text}: {p:#?}");
    }
    let media = messages.iter().find(|p| has(p, "9003")).unwrap();
    assert!(!has(media, "chat_snap~f3a9"), "{media:#?}");
    let titles: Vec<&str> = messages.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Snapchat message sent in c0a1b2c3-0000-4000-8000-000000000001",
            "Snapchat message from Kai in c0a1b2c3-0000-4000-8000-000000000001",
            "Snapchat message from Kai in c0a1b2c3-0000-4000-8000-000000000001",
            "Snapchat message from Rio in late crew",
        ]
    );

    let ios: Vec<Phenomenon> = run
        .all_phenomena("iphone")
        .into_iter()
        .filter(|p| p.title.starts_with("Snapchat message "))
        .collect();
    assert_eq!(ios.len(), 4);
    assert!(
        ios.iter()
            .any(|p| has(p, "who is this?") && p.title == "Snapchat message sent in late crew")
    );
    // the iPhone's friends, and a sender named by them
    let iall = run.all_phenomena("iphone");
    for (user, id) in [("rio.vz", RIO), ("DEX.M", ME), ("kai_b", KAI)] {
        let f = iall
            .iter()
            .find(|p| p.title == format!("Snapchat friend {user}"))
            .unwrap_or_else(|| panic!("{user}"));
        assert!(has(f, id) && has(f, user), "{f:#?}");
    }
    assert!(
        ios.iter()
            .any(|p| p.title.contains("from DEX.M") || p.title.contains("from kai_b")),
        "{:#?}",
        ios.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    // the preferences' account, and the direction it gives
    let account = all
        .iter()
        .find(|p| p.title == format!("Snapchat account {ME}"))
        .expect("the signed-in account");
    assert!(has(account, ME));
    assert!(
        messages[0]
            .interpretation
            .contains("the account the app's preferences name"),
        "{}",
        messages[0].interpretation
    );
    run.assert_noted(
        "b",
        &[(
            "com.snapchat.android/shared_prefs/user_session_shared_pref.xml",
            "no key_user_id",
        )],
    );
    let owner = run.owner("a");
    assert!(
        owner.contains(&format!("account_id=snapchat:{ME}")),
        "{owner}"
    );
    assert!(
        owner.contains("wallet=bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
        "{owner}"
    );
    let bowner = run.owner("b");
    assert!(
        bowner.contains(&format!("account_id=snapchat:{KAI}")),
        "{bowner}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("a/owner", &format!("b/snapchat:{ME}")),
        ("b/owner", &format!("a/snapchat:{KAI}")),
        // by user name in any case: Dex.M on Kai's phone, dex.m on Dex's own
        (&format!("a/snapchat:{ME}"), &format!("b/snapchat:{ME}")),
        // across platforms: Rio's iPhone and Dex's Android phone
        ("iphone/owner", &format!("a/snapchat:{RIO}")),
        (&format!("iphone/snapchat:{ME}"), &"a/owner".to_string()),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    assert!(
        run.entities("b")
            .iter()
            .any(|e| e.contains("account_id=snapchat-username:dex.m")),
        "{:#?}",
        run.entities("b")
    );
    assert!(
        !all.iter().any(|p| p.title.starts_with("Snapchat ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.app"))),
        "another app's main.db was read"
    );
    run.assert_noted(
        "a",
        &[
            ("user/10/com.snapchat.android/databases/arroyo.db", "malformed"),
            (
                "user/11/com.snapchat.android/databases/arroyo.db",
                "table conversation_message lacks client_conversation_id, sender_id, creation_timestamp",
            ),
        ],
    );
}
