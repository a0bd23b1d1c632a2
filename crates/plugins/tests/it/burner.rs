//! Burner on Android (`android::burner`): Dana's phone with the current store
//! (`burnerDatabase.db`, Room entities holding JSON) and Ravi's with the older `burners.db`,
//! built by the sqlite3 CLI with the tables and columns ALEAPP's Burner modules query (no
//! public copy is in the corpus). Each texts the other from a Burner number. Every row and
//! field of ALEAPP's six queries (run by the CLI; its direction, read and trial words as the
//! stored numbers) is found, and the messages its contact join drops; each Burner number is its
//! phone's user's, and each resolves with the party the other phone texted. Beside them a
//! truncated copy and a store of another layout (noted).

use crate::android_support::{check, triage};

const DANA: &str = r#"CREATE TABLE BurnerEntity (id TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
CREATE TABLE MessageEntity (id TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
CREATE TABLE ContactEntity (id TEXT PRIMARY KEY NOT NULL, phoneNumber TEXT, value TEXT);
CREATE TABLE SubscriptionEntity (id TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
INSERT INTO BurnerEntity VALUES ('b-7f3a', '{"id":"b-7f3a","name":"Invoices","phoneNumberId":"+12065550142","dateCreated":1700000000000,"autoReplyText":"Busy, text me"}');
INSERT INTO MessageEntity VALUES ('m1', '{"burnerId":"b-7f3a","contactPhoneNumber":"+13125550177","message":"pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7","direction":2,"read":1,"dateCreated":1701340800000}');
INSERT INTO MessageEntity VALUES ('m2', '{"burnerId":"b-7f3a","contactPhoneNumber":"+13125550177","message":"sent","direction":1,"read":0,"dateCreated":1701340860000}');
INSERT INTO ContactEntity VALUES ('c1', '+13125550177', '{"name":"R"}');
INSERT INTO SubscriptionEntity VALUES ('s1', '{"burnerIds":["b-7f3a"],"creationDate":1700000000000,"renewalDate":1702592000000,"sku":"burner.unlimited.monthly","store":"GOOGLE","trial":2,"state":"ACTIVE"}');"#;

const RAVI: &str = "CREATE TABLE burners (_id INTEGER PRIMARY KEY, date_created INTEGER, name TEXT, phone_number_id TEXT, last_updated_date INTEGER, expiration_date INTEGER, total_minutes INTEGER, remaining_minutes INTEGER, total_texts INTEGER, remaining_texts INTEGER);
CREATE TABLE contacts (_id INTEGER PRIMARY KEY, phone_number TEXT, name TEXT);
CREATE TABLE messages (_id INTEGER PRIMARY KEY, date_created INTEGER, contact_phone_number TEXT, direction INTEGER, message_type INTEGER, message TEXT, asset_url TEXT, duration INTEGER);
INSERT INTO burners VALUES (1, 1699000000000, 'Freight', '+13125550177', 1701340000000, 1703900000000, 60, 42, 200, 180);
INSERT INTO contacts VALUES (1, '+12065550142', 'Dana');
INSERT INTO messages VALUES (1, 1701340800000, '+12065550142', 1, 2, 'pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', NULL, NULL);
INSERT INTO messages VALUES (2, 1701340860000, '+12065550142', 2, 2, 'sent', 'https://media.burner.example/a/2.jpg', NULL);
INSERT INTO messages VALUES (3, 1701341000000, '+12065550142', 2, 1, NULL, NULL, 3);
INSERT INTO messages VALUES (4, 1701342000000, '+14155550199', 1, 1, NULL, NULL, 1);";

#[test]
fn burner_numbers_texts_and_calls_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("dana"), tmp.path().join("ravi"));
    let rel = "com.adhoclabs.burner/databases/burnerDatabase.db";
    let adb = a.join("data/data").join(rel);
    let bdb = b.join("data/data/com.adhoclabs.burner/databases/burners.db");
    crate::ios_nearby::sqlite3(&adb, DANA);
    crate::ios_nearby::sqlite3(&bdb, RAVI);
    crate::android_support::damaged_copies(
        &a,
        rel,
        "CREATE TABLE MessageEntity (id TEXT, body TEXT); INSERT INTO MessageEntity VALUES ('1', 'x');",
    );
    for root in [&a, &b] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    let run = triage(&[
        ("dana", &a, "America/Los_Angeles", Some("US")),
        ("ravi", &b, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("dana");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // ALEAPP's get_burnerUser, get_burnerMessages, get_burnerContacts, get_burnerSubscription
    assert_eq!(
        check(
            &all,
            "Burner number",
            &adb,
            "SELECT json_extract(value, '$.dateCreated'), id, json_extract(value, '$.phoneNumberId'), json_extract(value, '$.autoReplyText') FROM BurnerEntity",
            1
        ),
        1
    );
    assert_eq!(
        check(
            &all,
            "Burner text",
            &adb,
            "SELECT json_extract(value, '$.dateCreated'), json_extract(value, '$.contactPhoneNumber'), json_extract(value, '$.message'), json_extract(value, '$.direction'), json_extract(value, '$.read') FROM MessageEntity",
            0
        ),
        2
    );
    assert_eq!(
        check(
            &all,
            "Burner contact",
            &adb,
            "SELECT id, phoneNumber FROM ContactEntity",
            0
        ),
        1
    );
    assert_eq!(
        check(
            &all,
            "Burner subscription",
            &adb,
            "SELECT json_extract(value, '$.burnerIds'), json_extract(value, '$.creationDate'), json_extract(value, '$.renewalDate'), json_extract(value, '$.sku'), json_extract(value, '$.store'), json_extract(value, '$.trial'), json_extract(value, '$.state') FROM SubscriptionEntity",
            3
        ),
        1
    );
    assert!(all.iter().any(|p| p.title == "Burner text to +13125550177"));
    // ALEAPP's get_burner and get_burner_communications (its join on contacts drops the call
    // from a number with no contact row: read here too)
    let ball = run.all_phenomena("ravi");
    assert_eq!(
        check(
            &ball,
            "Burner number",
            &bdb,
            "SELECT date_created, name, phone_number_id, last_updated_date, expiration_date, total_minutes, remaining_minutes, total_texts, remaining_texts FROM burners ORDER BY date_created ASC",
            2
        ),
        1
    );
    let comms: Vec<&masf_graph::Phenomenon> = ball
        .iter()
        .filter(|p| p.title.starts_with("Burner text") || p.title.starts_with("Burner call"))
        .collect();
    assert_eq!(
        crate::android_support::rows_in(
            &comms,
            &bdb,
            "SELECT messages.date_created, messages.contact_phone_number, contacts.name, messages.direction, messages.message_type, messages.message, messages.asset_url, messages.duration FROM messages JOIN contacts ON contacts.phone_number = messages.contact_phone_number ORDER BY messages.date_created ASC",
            0,
            ""
        ),
        3
    );
    assert_eq!(comms.len(), 4);
    assert!(
        ball.iter()
            .any(|p| p.title == "Burner call from +14155550199")
    );
    assert!(ball.iter().any(|p| p.title == "Burner call to Dana"));
    // each Burner number is its phone's user's, and the other phone's party
    assert!(
        run.owner("dana").contains("phone=+12065550142"),
        "{}",
        run.owner("dana")
    );
    assert!(
        run.owner("dana")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("dana/owner", "ravi/handle:+12065550142"),
        ("ravi/owner", "dana/handle:+13125550177"),
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
                "user/10/com.adhoclabs.burner/databases/burnerDatabase.db",
                "malformed",
            ),
            (
                "user/11/com.adhoclabs.burner/databases/burnerDatabase.db",
                "table MessageEntity lacks value",
            ),
        ],
    );
}
