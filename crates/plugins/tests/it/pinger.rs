//! Text Free (Pinger) on iOS (`ios::pinger`): two iPhones' `Messaging_<account>.sqlite` built by
//! the sqlite3 CLI with the tables and columns iLEAPP's pingertextfree module queries (no public
//! copy is in the corpus), the second of an older layout (no status or type). Every row and
//! field of iLEAPP's query (run by the CLI, its `datetime()` as the stored seconds) is found, and
//! a message its conversation join drops; the other party written as a number is a person by it.
//! Beside them a truncated copy (noted) and another app's `Messaging_*.sqlite` (passed over).

use crate::android_support::{check, triage};

const A: &str = "CREATE TABLE ZCONVERSATIONCD (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDISPLAYNAME VARCHAR, ZADDRESS VARCHAR);
CREATE TABLE ZCOMMUNICATIONCD (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCONVERSATION INTEGER, ZDIRECTION INTEGER, ZMYSTATUS INTEGER, ZTYPE INTEGER, ZTIMECREATED TIMESTAMP, ZTEXT VARCHAR);
INSERT INTO ZCONVERSATIONCD VALUES (1, 2, 1, '+13125550177', '+13125550177');
INSERT INTO ZCONVERSATIONCD VALUES (2, 2, 1, 'Lena', NULL);
INSERT INTO ZCOMMUNICATIONCD VALUES (1, 3, 1, 1, 1, 2, 1, 1701340800, 'pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7');
INSERT INTO ZCOMMUNICATIONCD VALUES (2, 3, 1, 1, 0, 4, 1, 1701340860, 'sent');
INSERT INTO ZCOMMUNICATIONCD VALUES (3, 3, 1, 2, 0, 4, 2, 1701341000, NULL);
INSERT INTO ZCOMMUNICATIONCD VALUES (4, 3, 1, NULL, 1, 2, 1, 1701342000, 'no conversation row');";

const B: &str = "CREATE TABLE ZCONVERSATIONCD (Z_PK INTEGER PRIMARY KEY, ZDISPLAYNAME VARCHAR);
CREATE TABLE ZCOMMUNICATIONCD (Z_PK INTEGER PRIMARY KEY, ZCONVERSATION INTEGER, ZDIRECTION INTEGER, ZTIMECREATED TIMESTAMP, ZTEXT VARCHAR);
INSERT INTO ZCONVERSATIONCD VALUES (1, '+12065550142');
INSERT INTO ZCOMMUNICATIONCD VALUES (1, 1, 1, 1701340800, 'hello');";

/// iLEAPP's query (its inner join on the conversation; the time as stored).
const QUERY: &str = "SELECT ZCOMMUNICATIONCD.ZTIMECREATED, ZCOMMUNICATIONCD.ZCONVERSATION, ZCOMMUNICATIONCD.ZDIRECTION, ZCONVERSATIONCD.ZDISPLAYNAME, ZCOMMUNICATIONCD.ZMYSTATUS, ZCOMMUNICATIONCD.ZTEXT, ZCOMMUNICATIONCD.ZTYPE FROM ZCOMMUNICATIONCD JOIN ZCONVERSATIONCD ON ZCONVERSATIONCD.Z_PK = ZCOMMUNICATIONCD.ZCONVERSATION ORDER BY ZCOMMUNICATIONCD.ZCONVERSATION, ZCOMMUNICATIONCD.ZTIMECREATED";

#[test]
fn text_free_messages_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let docs = "private/var/mobile/Containers/Data/Application/4B3A2918-0F7E-4D6C-9B5A-493827160544/Documents";
    let (a, b) = (
        tmp.path().join("dana-iphone"),
        tmp.path().join("ravi-iphone"),
    );
    let adb = a.join(docs).join("Messaging_5550142.sqlite");
    let bdb = b.join(docs).join("Messaging_5550177.sqlite");
    crate::ios_nearby::sqlite3(&adb, A);
    crate::ios_nearby::sqlite3(&bdb, B);
    let bytes = std::fs::read(&adb).unwrap();
    let cut = a.join(docs).join("Messaging_cut.sqlite");
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &a.join(docs).join("Messaging_other.sqlite"),
        "CREATE TABLE ZMESSAGE (Z_PK INTEGER PRIMARY KEY, ZTEXT VARCHAR); INSERT INTO ZMESSAGE VALUES (1, 'x');",
    );
    for root in [&a, &b] {
        std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
    }
    let run = triage(&[
        ("dana-iphone", &a, "America/Chicago", Some("US")),
        ("ravi-iphone", &b, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("dana-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let msgs: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Text Free message"))
        .collect();
    assert_eq!(
        crate::android_support::rows_in(&msgs, &adb, QUERY, 0, ""),
        3
    );
    // the message iLEAPP's join drops is read too
    assert_eq!(msgs.len(), 4);
    assert!(
        msgs.iter()
            .any(|p| p.title == "Text Free message with an unnamed party")
    );
    let ball = run.all_phenomena("ravi-iphone");
    assert_eq!(
        check(
            &ball,
            "Text Free message",
            &bdb,
            "SELECT ZTIMECREATED, ZCONVERSATION, ZDIRECTION, ZDISPLAYNAME, ZTEXT FROM ZCOMMUNICATIONCD JOIN ZCONVERSATIONCD ON ZCONVERSATIONCD.Z_PK = ZCOMMUNICATIONCD.ZCONVERSATION",
            0
        ),
        1
    );
    // the party written as a number is a person by it
    let ids = run.identifiers("dana-iphone");
    assert!(
        ids.iter().any(|(t, v)| t == "phone" && v == "+13125550177"),
        "{ids:#?}"
    );
    let noted = run.unparsed("dana-iphone");
    assert!(
        noted
            .iter()
            .any(|u| u.artefact.ends_with("Messaging_cut.sqlite")),
        "{noted:#?}"
    );
    assert!(
        !noted
            .iter()
            .any(|u| u.artefact.ends_with("Messaging_other.sqlite")),
        "{noted:#?}"
    );
}
