//! Skout on Android (`android::skout`): two phones' `skoutDatabase` built by the sqlite3 CLI with
//! the columns ALEAPP's skout module queries (no public copy is in the corpus), the second of an
//! older layout (no gift URLs, no last-message time). Every row and field of ALEAPP's two
//! queries (run by the CLI; its strftime rendering as the stored milliseconds, its "(local
//! user)" as the direction) is found; each phone's user is the one sender without a cached user
//! row, and the two phones' users resolve by Skout user id. Beside them a truncated copy and a
//! store of another layout (noted).

use crate::android_support::{check, triage};

const A: &str = "CREATE TABLE skoutUsersTable (_id INTEGER PRIMARY KEY, userId INTEGER, userName TEXT, picUrl TEXT, lastMessageTimestamp INTEGER, isOnline INTEGER);
CREATE TABLE skoutMessagesTable (_id INTEGER PRIMARY KEY, messageId INTEGER, chatId INTEGER, fromUserID INTEGER, toUserId INTEGER, message TEXT, type TEXT, pictureUrl TEXT, giftUrl TEXT, timestamp INTEGER);
INSERT INTO skoutUsersTable VALUES (1, 300200100, 'ravi_m', 'https://i.skout.example/300200100.jpg', 1701340860000, 0);
INSERT INTO skoutUsersTable VALUES (2, 300200777, 'lena.v', NULL, 1701200000000, 1);
INSERT INTO skoutMessagesTable VALUES (1, 91, 5001, 300200555, 300200100, 'send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', 'text', NULL, NULL, 1701340800000);
INSERT INTO skoutMessagesTable VALUES (2, 92, 5001, 300200100, 300200555, 'sent', 'text', NULL, NULL, 1701340860000);
INSERT INTO skoutMessagesTable VALUES (3, 93, 5002, 300200777, 300200555, NULL, 'gift', 'https://i.skout.example/p/93.jpg', 'https://i.skout.example/gifts/rose.png', 1701200000000);";

const B: &str = "CREATE TABLE skoutUsersTable (_id INTEGER PRIMARY KEY, userId INTEGER, userName TEXT, picUrl TEXT);
CREATE TABLE skoutMessagesTable (_id INTEGER PRIMARY KEY, chatId INTEGER, fromUserID INTEGER, message TEXT, type TEXT, pictureUrl TEXT, timestamp INTEGER);
INSERT INTO skoutUsersTable VALUES (1, 300200555, 'dana_w', NULL);
INSERT INTO skoutMessagesTable VALUES (1, 7001, 300200555, 'send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', 'text', NULL, 1701340800000);
INSERT INTO skoutMessagesTable VALUES (2, 7001, 300200100, 'sent', 'text', NULL, 1701340860000);";

/// ALEAPP's get_skout_messages (the stored time; its "(local user)" as NULL).
const MESSAGES: &str = "SELECT timestamp, skoutUsersTable.userName, skoutMessagesTable.message, skoutMessagesTable.type, skoutMessagesTable.pictureUrl, skoutMessagesTable.giftUrl, skoutMessagesTable.chatId, skoutMessagesTable.fromUserID FROM skoutMessagesTable LEFT JOIN skoutUsersTable ON skoutMessagesTable.fromUserID = skoutUsersTable.userId ORDER BY skoutMessagesTable.chatId, skoutMessagesTable.timestamp";
const USERS: &str = "SELECT lastMessageTimestamp, skoutUsersTable.userName, skoutUsersTable.picUrl, skoutUsersTable.userId FROM skoutUsersTable ORDER BY skoutUsersTable.lastMessageTimestamp";

#[test]
fn skout_messages_and_users_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "com.skout.android/databases/skoutDatabase";
    let (a, b) = (tmp.path().join("dana"), tmp.path().join("ravi"));
    let (adb, bdb) = (a.join("data/data").join(rel), b.join("data/data").join(rel));
    crate::ios_nearby::sqlite3(&adb, A);
    crate::ios_nearby::sqlite3(&bdb, B);
    crate::android_support::damaged_copies(
        &a,
        rel,
        "CREATE TABLE skoutMessagesTable (_id INTEGER, body TEXT); INSERT INTO skoutMessagesTable VALUES (1, 'x');",
    );
    for root in [&a, &b] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let run = triage(&[
        ("dana", &a, "Europe/London", Some("GB")),
        ("ravi", &b, "Europe/London", Some("GB")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("dana");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(check(&all, "Skout message", &adb, MESSAGES, 0), 3);
    assert_eq!(check(&all, "Skout user", &adb, USERS, 3), 2);
    let ball = run.all_phenomena("ravi");
    assert_eq!(
        check(
            &ball,
            "Skout message",
            &bdb,
            "SELECT timestamp, skoutUsersTable.userName, message, type, chatId, fromUserID FROM skoutMessagesTable LEFT JOIN skoutUsersTable ON fromUserID = userId",
            0
        ),
        2
    );
    assert!(
        all.iter()
            .any(|p| p.title == "Skout message sent in thread 5001")
    );
    assert!(
        all.iter()
            .any(|p| p.title == "Skout message from ravi_m in thread 5001")
    );
    assert!(run.owner("dana").contains("account_id=skout:300200555"));
    assert!(
        run.owner("dana")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("dana/owner", "ravi/skout:300200555"),
        ("ravi/owner", "dana/skout:300200100"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    run.assert_noted(
        "dana",
        &[
            (
                "user/10/com.skout.android/databases/skoutDatabase",
                "malformed",
            ),
            (
                "user/11/com.skout.android/databases/skoutDatabase",
                "table skoutMessagesTable lacks timestamp, fromUserID",
            ),
        ],
    );
}
