//! Slack on iOS (`ios::slack`): Alice's iPhone with the newer `ModelDatabase/db.sqlite` and
//! Bo's with an older `main_db` (`ZSLKDEPRECATED*` tables), both written here by the sqlite3 CLI
//! with the tables and columns iLEAPP's slack module queries (no public copy of either store is
//! in the corpus), beside Alice's Android phone (`tests/fixtures/slack/`). Every row and field of
//! iLEAPP's queries (run by the CLI; its `datetime()` and Yes/No renderings as the stored values)
//! is found, and the messages its inner joins drop; each phone's user is found (ZISME, the
//! team's ZAUTHUSERID) and the three phones resolve their users by Slack user id across
//! platforms. Beside them a main_db of neither layout (noted).

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

/// Every row of `sql` on `db` is one of the phenomena titled `prefix…`, holding each value.
fn every_field(all: &[Phenomenon], prefix: &str, db: &std::path::Path, sql: &str, key: usize) {
    let found: Vec<&Phenomenon> = all.iter().filter(|p| p.title.starts_with(prefix)).collect();
    assert!(
        crate::android_support::rows_in(&found, db, sql, key, "") > 0,
        "{prefix}"
    );
}

const MODEL: &str = "CREATE TABLE ZCOREDATAUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISME INTEGER, ZISOWNER INTEGER, ZISADMIN INTEGER, ZISBOT INTEGER, ZTIMEZONEOFFSET INTEGER, ZSERVERVERSION INTEGER, ZREALNAME VARCHAR, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZNAME VARCHAR, ZEMAIL VARCHAR, ZPHONE VARCHAR, ZTEAMID VARCHAR, ZWORKSPACEORENTERPRISEID VARCHAR, ZTSID VARCHAR, ZTIMEZONE VARCHAR, ZTIMEZONETITLE VARCHAR, ZAVATARHASH VARCHAR, ZCOLORSTRING VARCHAR);
CREATE TABLE ZCOREDATAMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP FLOAT, ZUSERID VARCHAR, ZCONVERSATIONID VARCHAR, ZTEXT VARCHAR);
CREATE TABLE ZCOREDATACONVERSATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTYPE INTEGER, ZCREATED FLOAT, ZFIRSTMESSAGETIMESTAMP FLOAT, ZCREATORID VARCHAR, ZNAME VARCHAR, ZTSID VARCHAR, ZIMUSERID VARCHAR, ZPURPOSETEXT VARCHAR, ZCONTEXTTEAMID VARCHAR);
INSERT INTO ZCOREDATAUSER VALUES (1, 1, 1, 1, 0, 1, 0, -18000, 12, 'Alice Ng', 'Alice', 'Ng', 'alice.ng', 'alice@example.com', '+1 212 555 0101', 'T0BRAVO', 'T0BRAVO', 'U01ALPHA', 'America/New_York', 'Eastern Standard Time', 'a1b2c3', '9f8f00');
INSERT INTO ZCOREDATAUSER VALUES (2, 1, 1, 0, 0, 0, 0, 28800, 12, 'Bo Li', 'Bo', 'Li', 'bo.li', 'bo@example.com', NULL, 'T0BRAVO', 'T0BRAVO', 'U02BETA', 'Asia/Hong_Kong', 'China Standard Time', 'd4e5f6', '3c989f');
INSERT INTO ZCOREDATACONVERSATION VALUES (1, 2, 1, 0, 1699000000, 1700001000, 'U01ALPHA', 'finance-ops', 'C100', NULL, 'money movement', 'T0BRAVO');
INSERT INTO ZCOREDATACONVERSATION VALUES (2, 2, 1, 2, 1699500000, 1700003000, 'U01ALPHA', NULL, 'D200', 'U02BETA', NULL, 'T0BRAVO');
INSERT INTO ZCOREDATAMESSAGE VALUES (1, 3, 1, 1700001000.0002, 'U01ALPHA', 'C100', 'wire the 48,500 to the new IBAN today');
INSERT INTO ZCOREDATAMESSAGE VALUES (2, 3, 1, 1700002000.0003, 'U02BETA', 'C100', 'done');
INSERT INTO ZCOREDATAMESSAGE VALUES (3, 3, 1, 1700003000.0001, 'U09GHOST', 'D200', 'from a user with no row');";

const MAIN: &str = "CREATE TABLE ZSLKDEPRECATEDCOREDATAUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZADMIN INTEGER, ZOWNER INTEGER, ZTIMEZONEOFFSET INTEGER, ZREALNAME VARCHAR, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZDISPLAYNAME VARCHAR, ZNAME VARCHAR, ZPHONE VARCHAR, ZTIMEZONE VARCHAR, ZTIMEZONETITLE VARCHAR, ZTITLE VARCHAR, ZTSID VARCHAR, ZTEAMID VARCHAR);
CREATE TABLE ZSLKDEPRECATEDBASECHANNEL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATED FLOAT, ZPURPOSELASTSET FLOAT, ZTOPICLASTSET FLOAT, ZLATEST FLOAT, ZNAME VARCHAR, ZTSID VARCHAR, ZTSID1 VARCHAR, ZUSERID VARCHAR, ZCREATORID VARCHAR, ZPURPOSECREATORID VARCHAR, ZPURPOSETEXT VARCHAR, ZTOPICCREATORID VARCHAR, ZTOPICTEXT VARCHAR);
CREATE TABLE ZSLKDEPRECATEDMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP FLOAT, ZUSERID VARCHAR, ZCHANNELID VARCHAR, ZTEXT VARCHAR, ZFILEIDS VARCHAR);
CREATE TABLE ZSLKDEPRECATEDFILE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMPNUMBER FLOAT, ZSIZE INTEGER, ZMODESTRING VARCHAR, ZTITLE VARCHAR, ZTYPESTRING VARCHAR, ZPREVIEW VARCHAR, ZPRIVATEDOWNLOADURL VARCHAR, ZPERMALINKURL VARCHAR, ZTSID VARCHAR);
CREATE TABLE ZSLKDEPRECATEDTEAM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZDOMAIN VARCHAR, ZAUTHUSERID VARCHAR, ZTSID VARCHAR);
INSERT INTO ZSLKDEPRECATEDTEAM VALUES (1, 5, 1, 'Bravo Finance', 'bravo-finance', 'U02BETA', 'T0BRAVO');
INSERT INTO ZSLKDEPRECATEDCOREDATAUSER VALUES (1, 1, 1, 1, 0, -18000, 'Alice Ng', 'Alice', 'Ng', 'alice', 'alice.ng', '+1 212 555 0101', 'America/New_York', 'Eastern Standard Time', 'Controller', 'U01ALPHA', 'T0BRAVO');
INSERT INTO ZSLKDEPRECATEDCOREDATAUSER VALUES (2, 1, 1, 0, 0, 28800, 'Bo Li', 'Bo', 'Li', 'bo', 'bo.li', NULL, 'Asia/Hong_Kong', 'China Standard Time', 'Treasury', 'U02BETA', 'T0BRAVO');
INSERT INTO ZSLKDEPRECATEDBASECHANNEL VALUES (1, 2, 1, 1699000000, 1699000100, 1699000200, 1700002000, 'finance-ops', 'C100', NULL, NULL, 'U01ALPHA', 'U01ALPHA', 'money movement', 'U01ALPHA', 'Q4 payments');
INSERT INTO ZSLKDEPRECATEDBASECHANNEL VALUES (2, 2, 1, 1699500000, NULL, NULL, 1700003000, NULL, 'D200', 'D200-alt', 'U01ALPHA', 'U01ALPHA', NULL, NULL, NULL, NULL);
INSERT INTO ZSLKDEPRECATEDFILE VALUES (1, 4, 1, 1700002000, 48213, 'hosted', 'Transfer confirmation', 'pdf', 'Bravo Finance — transfer', 'https://files.slack.example/F9/transfer.pdf', 'https://bravo.slack.example/files/U02BETA/F9/transfer.pdf', 'F9');
INSERT INTO ZSLKDEPRECATEDMESSAGE VALUES (1, 3, 1, 1700001000.0002, 'U01ALPHA', 'C100', 'wire the 48,500 to the new IBAN today', NULL);
INSERT INTO ZSLKDEPRECATEDMESSAGE VALUES (2, 3, 1, 1700002000.0003, 'U02BETA', 'C100', 'done, see attached', '[\"F9\"]');
INSERT INTO ZSLKDEPRECATEDMESSAGE VALUES (3, 3, 1, 1700003000.0001, 'U02BETA', 'D200-alt', 'call me', NULL);";

#[test]
fn slack_on_two_iphones_and_an_android_phone() {
    let tmp = tempfile::tempdir().unwrap();
    let alice = tmp.path().join("alice-iphone");
    let model = alice.join("private/var/mobile/Containers/Shared/AppGroup/3B1C2D3E-4F50-4A6B-9C8D-7E6F5A4B3C2D/Slack/ModelDatabase/db.sqlite");
    crate::ios_nearby::sqlite3(&model, MODEL);
    std::fs::create_dir_all(alice.join("private/var/mobile/Library")).unwrap();

    let bo = tmp.path().join("bo-iphone");
    let app = bo.join(
        "private/var/mobile/Containers/Data/Application/6E5D4C3B-2A19-4F8E-8D7C-6B5A49382716/Library/Application Support/Slack",
    );
    let main = app.join("T0BRAVO/U02BETA/main_db");
    crate::ios_nearby::sqlite3(&main, MAIN);
    // a main_db of neither layout
    crate::ios_nearby::sqlite3(
        &app.join("T0OTHER/U0X/main_db"),
        "CREATE TABLE ZSLKTHING (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR);",
    );
    std::fs::create_dir_all(bo.join("private/var/mobile/Library")).unwrap();

    let android = tmp.path().join("alice-android");
    let dir = android.join("data/data/com.Slack/databases");
    sqlite_fixture(&dir.join("org_T0BRAVO"), "slack/org.sql", "SELECT 1;");
    sqlite_fixture(
        &dir.join("account_manager"),
        "slack/account_manager.sql",
        "SELECT 1;",
    );
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("alice-iphone", &alice, "America/New_York", Some("US")),
        ("bo-iphone", &bo, "Asia/Hong_Kong", Some("HK")),
        ("alice-android", &android, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let a = run.all_phenomena("alice-iphone");
    let b = run.all_phenomena("bo-iphone");
    for p in a.iter().chain(&b) {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    // iLEAPP's ModelDatabase queries, values as stored
    every_field(
        &a,
        "Slack user ",
        &model,
        "SELECT ZSERVERVERSION, ZREALNAME, ZFIRSTNAME, ZLASTNAME, ZNAME, ZEMAIL, ZPHONE, ZTEAMID, ZWORKSPACEORENTERPRISEID, ZTSID, ZISME, ZISOWNER, ZISADMIN, ZISBOT, ZTIMEZONE, ZTIMEZONETITLE, ZTIMEZONEOFFSET, ZAVATARHASH, ZCOLORSTRING FROM ZCOREDATAUSER",
        9,
    );
    for (prefix, ty) in [("Slack channel ", 0), ("Slack direct message ", 2)] {
        every_field(
            &a,
            prefix,
            &model,
            &format!(
                "SELECT ZCOREDATACONVERSATION.ZCREATED, ZCOREDATACONVERSATION.ZFIRSTMESSAGETIMESTAMP, ZCOREDATACONVERSATION.ZCREATORID, ZCOREDATAUSER.ZREALNAME, ZCOREDATACONVERSATION.ZNAME, ZCOREDATACONVERSATION.ZTSID, ZCOREDATACONVERSATION.ZIMUSERID, ZCOREDATACONVERSATION.ZPURPOSETEXT, ZCOREDATACONVERSATION.ZTYPE FROM ZCOREDATACONVERSATION LEFT OUTER JOIN ZCOREDATAUSER ON ZCOREDATACONVERSATION.ZCREATORID = ZCOREDATAUSER.ZTSID WHERE ZCOREDATACONVERSATION.ZTYPE = {ty}"
            ),
            5,
        );
    }
    every_field(
        &a,
        "Slack message ",
        &model,
        "SELECT ZCOREDATAMESSAGE.ZTIMESTAMP, ZCOREDATAUSER.ZREALNAME, ZCOREDATACONVERSATION.ZNAME, ZCOREDATAMESSAGE.ZTEXT, ZCOREDATAMESSAGE.ZUSERID, ZCOREDATAMESSAGE.ZCONVERSATIONID, ZCOREDATACONVERSATION.ZCONTEXTTEAMID FROM ZCOREDATAMESSAGE LEFT OUTER JOIN ZCOREDATAUSER ON ZCOREDATAMESSAGE.ZUSERID = ZCOREDATAUSER.ZTSID LEFT OUTER JOIN ZCOREDATACONVERSATION ON ZCOREDATAMESSAGE.ZCONVERSATIONID = ZCOREDATACONVERSATION.ZTSID",
        3,
    );
    let sent = a
        .iter()
        .find(|p| has(p, "wire the 48,500 to the new IBAN today"))
        .unwrap();
    assert_eq!(sent.title, "Slack message sent in finance-ops");
    // iLEAPP's main_db queries (ZSLKDEPRECATED*), its inner joins as left joins
    let p = "ZSLKDEPRECATED";
    every_field(
        &b,
        "Slack user ",
        &main,
        &format!(
            "SELECT ZADMIN, ZOWNER, ZREALNAME, ZFIRSTNAME, ZLASTNAME, ZDISPLAYNAME, ZNAME, ZPHONE, ZTIMEZONE, ZTIMEZONEOFFSET, ZTIMEZONETITLE, ZTITLE, ZTSID, ZTEAMID FROM {p}COREDATAUSER"
        ),
        12,
    );
    every_field(
        &b,
        "Slack message ",
        &main,
        &format!(
            "SELECT m.ZTIMESTAMP, m.ZUSERID, u.ZREALNAME, c.ZNAME, m.ZTEXT, json_extract(m.ZFILEIDS, '$[0]'), m.ZCHANNELID, c.ZTSID, c.ZTSID1, f.ZMODESTRING, f.ZTITLE, f.ZTYPESTRING, f.ZTIMESTAMPNUMBER, f.ZPREVIEW, f.ZSIZE, f.ZPRIVATEDOWNLOADURL, f.ZPERMALINKURL \
             FROM {p}MESSAGE m LEFT JOIN {p}COREDATAUSER u ON u.ZTSID = m.ZUSERID LEFT JOIN {p}BASECHANNEL c ON (c.ZTSID = m.ZCHANNELID OR c.ZTSID1 = m.ZCHANNELID) LEFT JOIN {p}FILE f ON f.ZTSID = json_extract(m.ZFILEIDS, '$[0]')"
        ),
        4,
    );
    every_field(
        &b,
        "Slack channel ",
        &main,
        &format!(
            "SELECT ZCREATED, ZPURPOSELASTSET, ZTOPICLASTSET, ZLATEST, ZNAME, ZTSID, ZTSID1, ZUSERID, ZCREATORID, ZPURPOSECREATORID, ZPURPOSETEXT, ZTOPICCREATORID, ZTOPICTEXT FROM {p}BASECHANNEL"
        ),
        5,
    );
    every_field(
        &b,
        "Slack workspace ",
        &main,
        &format!("SELECT ZNAME, ZDOMAIN, ZAUTHUSERID, ZTSID FROM {p}TEAM"),
        3,
    );
    // the DM reached by its second id
    let dm = b.iter().find(|p| has(p, "call me")).unwrap();
    assert_eq!(dm.title, "Slack message sent in D200");

    assert!(
        run.owner("alice-iphone")
            .contains("account_id=slack:U01ALPHA")
    );
    assert!(run.owner("bo-iphone").contains("account_id=slack:U02BETA"));
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("alice-iphone/owner", "alice-android/owner"),
        ("bo-iphone/owner", "alice-android/slack:U02BETA"),
        ("bo-iphone/owner", "alice-iphone/slack:U02BETA"),
        ("alice-iphone/slack:U09GHOST", "alice-iphone/slack:U09GHOST"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    run.assert_noted(
        "bo-iphone",
        &[(
            "T0OTHER/U0X/main_db",
            "neither ZSLKMESSAGE nor ZSLKDEPRECATEDMESSAGE",
        )],
    );
}
