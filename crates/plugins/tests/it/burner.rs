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

/// Ravi's iPhone: Burner's Core Data store with the tables and columns iLEAPP's burner module
/// reads (current layout: users linked to numbers, threads by conversation id).
const RAVI_IPHONE: &str = "CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATECREATED TIMESTAMP, ZPHONENUMBER VARCHAR, ZCOUNTRYCODE VARCHAR, ZTOTALNUMBERBURNERS INTEGER, ZDNDENABLED INTEGER, ZVOICEMAILURL VARCHAR, ZUSERID VARCHAR);
CREATE TABLE ZBURNER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUSER INTEGER, ZDATECREATED TIMESTAMP, ZEXPIRATIONDATE TIMESTAMP, ZPHONENUMBER VARCHAR, ZNAME VARCHAR, ZNOTIFICATIONS INTEGER, ZCALLERIDENABLED INTEGER, ZUSESIP INTEGER, ZAUTOREPLYACTIVE INTEGER, ZAUTOREPLYTEXT VARCHAR, ZREMAININGMINUTES INTEGER, ZTOTALMINUTES INTEGER, ZREMAININGTEXTS INTEGER, ZTOTALTEXTS INTEGER, ZBURNERID VARCHAR, ZIMAGE BLOB);
CREATE TABLE ZCONTACT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPHONENUMBER VARCHAR, ZNAME VARCHAR, ZVERIFIED INTEGER, ZBLOCKED INTEGER, ZMUTED INTEGER, ZIMAGE VARCHAR, ZTHUMBNAIL VARCHAR, ZIMAGEURL VARCHAR, ZTHUMBNAILURL VARCHAR, ZCONTACTID VARCHAR);
CREATE TABLE ZCONTACTPHONENUMBER (Z_PK INTEGER PRIMARY KEY, ZCONTACT INTEGER, ZPHONENUMBER VARCHAR, ZPHONENUMBERLABEL VARCHAR);
CREATE TABLE ZCONTACTNOTE (Z_PK INTEGER PRIMARY KEY, ZCONTACT INTEGER, ZNOTEVALUE VARCHAR);
CREATE TABLE ZMESSAGETHREAD (Z_PK INTEGER PRIMARY KEY, ZCONTACT INTEGER, ZBURNERID VARCHAR, ZCONVERSATIONID VARCHAR, ZMESSAGETHREADID VARCHAR);
CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, ZDATECREATED TIMESTAMP, ZDIRECTION INTEGER, ZREAD INTEGER, ZSTATE INTEGER, ZTYPE INTEGER, ZBODY VARCHAR, ZASSETURL VARCHAR, ZLOCALASSETURL VARCHAR, ZLOCALTHUMBNAILURL VARCHAR, ZVOICEMAILURL VARCHAR, ZMESSAGEID VARCHAR, ZBURNERID VARCHAR, ZMESSAGETHREAD INTEGER, ZCONVERSATIONID VARCHAR);
INSERT INTO ZUSER VALUES (1, 9, 1, 720000000, '+13125550100', '1', 2, 0, 'https://voicemail.burner.example/u/77', 'u-5c1d');
INSERT INTO ZBURNER VALUES (1, 3, 1, 1, 720000100, 725000000, '+13125550177', 'Freight', 1, 0, 1, 1, 'Driving, will text back', 42, 60, 180, 200, 'b-9e21', x'89504e470d0a1a0a');
INSERT INTO ZCONTACT VALUES (1, 4, 1, '+12065550142', 'Dana', 1, 0, 0, '\"Contacts/1.jpg\"', '\"Contacts/1-t.jpg\"', 'https://img.burner.example/c/1.jpg', NULL, 'c-0042');
INSERT INTO ZCONTACTPHONENUMBER VALUES (1, 1, '+12065550100', 'Work');
INSERT INTO ZCONTACTNOTE VALUES (1, 1, 'pays in ETH');
INSERT INTO ZMESSAGETHREAD VALUES (1, 1, 'b-9e21', 'conv-1', 't-1');
INSERT INTO ZMESSAGE VALUES (1, 723040000, 1, 1, 2, 2, 'pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', NULL, NULL, NULL, NULL, 'msg-1', 'b-9e21', 1, 'conv-1');
INSERT INTO ZMESSAGE VALUES (2, 723040060, 2, 1, 2, 2, 'sent', 'https://media.burner.example/m/2.jpg', 'outgoingPhotos/2.jpg', 'thumbnails/2.jpg', NULL, 'msg-2', 'b-9e21', 1, 'conv-1');
INSERT INTO ZMESSAGE VALUES (3, 723040200, 2, 1, 3, 1, NULL, NULL, NULL, NULL, NULL, 'msg-3', 'b-9e21', 1, 'conv-1');
INSERT INTO ZMESSAGE VALUES (4, 723041000, 1, 0, 5, 1, NULL, NULL, NULL, NULL, 'https://voicemail.burner.example/v/4.m4a', 'msg-4', 'b-9e21', NULL, 'conv-1');";

/// Lena's iPhone: an older layout (no users, contact numbers or notes, no conversation ids).
const LENA_IPHONE: &str = "CREATE TABLE ZBURNER (Z_PK INTEGER PRIMARY KEY, ZDATECREATED TIMESTAMP, ZPHONENUMBER VARCHAR, ZNAME VARCHAR, ZBURNERID VARCHAR);
CREATE TABLE ZCONTACT (Z_PK INTEGER PRIMARY KEY, ZPHONENUMBER VARCHAR, ZNAME VARCHAR);
CREATE TABLE ZMESSAGETHREAD (Z_PK INTEGER PRIMARY KEY, ZCONTACT INTEGER, ZMESSAGETHREADID VARCHAR);
CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, ZDATECREATED TIMESTAMP, ZDIRECTION INTEGER, ZREAD INTEGER, ZSTATE INTEGER, ZTYPE INTEGER, ZBODY VARCHAR, ZMESSAGEID VARCHAR, ZBURNERID VARCHAR, ZMESSAGETHREAD INTEGER);
INSERT INTO ZBURNER VALUES (1, 710000000, '+14155550123', NULL, 'b-11');
INSERT INTO ZCONTACT VALUES (1, '+13125550177', NULL);
INSERT INTO ZMESSAGETHREAD VALUES (1, 1, 't-9');
INSERT INTO ZMESSAGE VALUES (1, 723045000, 1, 1, 2, 2, 'call me', 'msg-9', 'b-11', 1);";

/// iLEAPP's get_burner_messages (its words for direction, read and type as the stored values;
/// its call-state words kept), with the thread fallback by conversation id.
const IOS_MESSAGES: &str = "SELECT M.ZMESSAGEID, M.ZDATECREATED, M.ZDIRECTION, M.ZREAD, C.ZPHONENUMBER, C.ZNAME, B.ZPHONENUMBER, B.ZNAME, \
CASE WHEN (M.ZDIRECTION = 1) AND (M.ZSTATE = 3) THEN 'Completed incoming call' WHEN (M.ZDIRECTION = 2) AND (M.ZSTATE = 3) THEN 'Completed outgoing call' WHEN (M.ZDIRECTION = 1) AND (M.ZSTATE = 4) THEN 'Missed incoming call' WHEN (M.ZDIRECTION = 2) AND (M.ZSTATE = 4) THEN 'Missed outgoing call' WHEN (M.ZDIRECTION = 1) AND (M.ZSTATE = 5) THEN 'Missed incoming call with voicemail' WHEN (M.ZDIRECTION = 2) AND (M.ZSTATE = 5) THEN 'Missed outgoing call with voicemail' ELSE M.ZBODY END, \
CASE WHEN (M.ZTYPE = 1) AND (M.ZSTATE in (3, 4)) THEN 'Call' WHEN (M.ZTYPE = 1) AND (M.ZSTATE = 5) THEN 'Voicemail' WHEN (M.ZTYPE = 2) AND (M.ZASSETURL IS NULL) THEN 'Text' WHEN (M.ZTYPE = 2) THEN 'Picture' ELSE M.ZTYPE END, \
M.ZLOCALASSETURL, M.ZLOCALTHUMBNAILURL, M.ZASSETURL, M.ZVOICEMAILURL, M.ZBURNERID, MT.ZMESSAGETHREADID FROM ZMESSAGE AS M LEFT JOIN ZBURNER AS B ON (M.ZBURNERID = B.ZBURNERID) \
LEFT JOIN ZMESSAGETHREAD AS MT ON (M.ZMESSAGETHREAD = MT.Z_PK) OR (M.ZMESSAGETHREAD IS NULL AND M.ZBURNERID = MT.ZBURNERID AND M.ZCONVERSATIONID = MT.ZCONVERSATIONID) LEFT JOIN ZCONTACT AS C ON (MT.ZCONTACT = C.Z_PK)";

#[test]
fn burner_on_two_iphones_beside_an_android_phone() {
    let tmp = tempfile::tempdir().unwrap();
    let group =
        "private/var/mobile/Containers/Shared/AppGroup/3E4F5A6B-7C8D-4E9F-A0B1-C2D3E4F5A6B7";
    let ravi = tmp.path().join("ravi-iphone");
    let store = ravi.join(group).join("Phoenix.sqlite");
    crate::ios_nearby::sqlite3(&store, RAVI_IPHONE);
    // a truncated copy, a Burner-like store without ZBURNER (noted) and another app's
    // Phoenix.sqlite (passed over)
    let bytes = std::fs::read(&store).unwrap();
    let cut = ravi.join("private/var/mobile/Containers/Shared/AppGroup/00000000-1111-4222-8333-444444444444/Phoenix.sqlite");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &ravi.join("private/var/mobile/Containers/Shared/AppGroup/55555555-6666-4777-8888-999999999999/Phoenix.sqlite"),
        "CREATE TABLE ZMESSAGETHREAD (Z_PK INTEGER PRIMARY KEY, ZCONTACT INTEGER);",
    );
    crate::ios_nearby::sqlite3(
        &ravi.join("private/var/mobile/Containers/Shared/AppGroup/AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE/Phoenix.sqlite"),
        "CREATE TABLE ZFLIGHT (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR); INSERT INTO ZFLIGHT VALUES (1, 'x');",
    );
    std::fs::create_dir_all(ravi.join("private/var/mobile/Library")).unwrap();
    let lena = tmp.path().join("lena-iphone");
    let lstore = lena.join(group).join("Phoenix.sqlite");
    crate::ios_nearby::sqlite3(&lstore, LENA_IPHONE);
    std::fs::create_dir_all(lena.join("private/var/mobile/Library")).unwrap();
    let dana = tmp.path().join("dana");
    crate::ios_nearby::sqlite3(
        &dana.join("data/data/com.adhoclabs.burner/databases/burnerDatabase.db"),
        DANA,
    );
    std::fs::create_dir_all(dana.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("ravi-iphone", &ravi, "America/Chicago", Some("US")),
        ("lena-iphone", &lena, "America/Los_Angeles", Some("US")),
        ("dana", &dana, "America/Los_Angeles", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("ravi-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // iLEAPP's get_burner_accounts, get_burner_numbers, get_burner_contacts (values as stored)
    assert_eq!(
        check(
            &all,
            "Burner account",
            &store,
            "SELECT U.ZUSERID, U.ZDATECREATED, U.ZPHONENUMBER, U.ZCOUNTRYCODE, U.ZTOTALNUMBERBURNERS, U.ZDNDENABLED, U.ZVOICEMAILURL, B.ZPHONENUMBER || ' (' || B.ZNAME || ')', B.ZBURNERID FROM ZUSER U LEFT JOIN ZBURNER B ON B.ZUSER = U.Z_PK",
            0
        ),
        1
    );
    assert_eq!(
        check(
            &all,
            "Burner number",
            &store,
            "SELECT B.ZBURNERID, B.ZDATECREATED, B.ZEXPIRATIONDATE, B.ZPHONENUMBER, B.ZNAME, B.ZNOTIFICATIONS, B.ZCALLERIDENABLED, B.ZUSESIP, B.ZAUTOREPLYACTIVE, B.ZAUTOREPLYTEXT, B.ZREMAININGMINUTES, B.ZTOTALMINUTES, B.ZREMAININGTEXTS, B.ZTOTALTEXTS, U.ZPHONENUMBER, U.ZUSERID, length(B.ZIMAGE) FROM ZBURNER B LEFT JOIN ZUSER U ON B.ZUSER = U.Z_PK",
            0
        ),
        1
    );
    assert_eq!(
        check(
            &all,
            "Burner contact",
            &store,
            "SELECT C.ZCONTACTID, C.ZPHONENUMBER, C.ZNAME, '(' || PN.ZPHONENUMBERLABEL || ') ' || PN.ZPHONENUMBER, N.ZNOTEVALUE, C.ZVERIFIED, C.ZBLOCKED, C.ZMUTED, substr(C.ZIMAGE, 2, length(C.ZIMAGE) - 2), substr(C.ZTHUMBNAIL, 2, length(C.ZTHUMBNAIL) - 2), C.ZIMAGEURL FROM ZCONTACT C LEFT JOIN ZCONTACTPHONENUMBER PN ON PN.ZCONTACT = C.Z_PK LEFT JOIN ZCONTACTNOTE N ON N.ZCONTACT = C.Z_PK",
            0
        ),
        1
    );
    let comms: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Burner text") || p.title.starts_with("Burner call"))
        .collect();
    assert_eq!(
        crate::android_support::rows_in(&comms, &store, IOS_MESSAGES, 0, ""),
        4
    );
    assert_eq!(comms.len(), 4);
    assert!(
        all.iter()
            .any(|p| p.title == "Burner call from Dana" && p.category == "calls")
    );
    assert!(all.iter().any(|p| p.title == "Burner text from Dana"));
    let lall = run.all_phenomena("lena-iphone");
    assert_eq!(
        check(
            &lall,
            "Burner text",
            &lstore,
            "SELECT M.ZMESSAGEID, M.ZDATECREATED, M.ZDIRECTION, M.ZREAD, M.ZBODY, C.ZPHONENUMBER, B.ZPHONENUMBER, MT.ZMESSAGETHREADID FROM ZMESSAGE M LEFT JOIN ZBURNER B ON M.ZBURNERID = B.ZBURNERID LEFT JOIN ZMESSAGETHREAD MT ON M.ZMESSAGETHREAD = MT.Z_PK LEFT JOIN ZCONTACT C ON MT.ZCONTACT = C.Z_PK",
            0
        ),
        1
    );
    // Ravi's own number, his Burner number and his user id are his; Dana wrote the wallet
    let owner = run.owner("ravi-iphone");
    for id in [
        "phone=+13125550100",
        "phone=+13125550177",
        "account_id=burner:u-5c1d",
    ] {
        assert!(owner.contains(id), "{owner}");
    }
    assert!(
        run.owner("dana")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("ravi-iphone/owner", "dana/handle:+13125550177"),
        ("ravi-iphone/owner", "lena-iphone/handle:+13125550177"),
        ("dana/owner", "ravi-iphone/handle:+12065550142"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    let noted = run.unparsed("ravi-iphone");
    assert!(
        noted
            .iter()
            .any(|u| u.artefact.contains("55555555-6666") && u.reason.contains("no ZBURNER table")),
        "{noted:#?}"
    );
    assert!(
        noted.iter().any(|u| u.artefact.contains("00000000-1111")),
        "{noted:#?}"
    );
    assert!(
        !noted.iter().any(|u| u.artefact.contains("AAAAAAAA-BBBB")),
        "{noted:#?}"
    );
}
