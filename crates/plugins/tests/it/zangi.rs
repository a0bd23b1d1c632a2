//! Zangi on iOS (`ios::zangi`) and Android (`android::zangi`): Ivan's iPhone (the current
//! layout: contact numbers, the contact-to-number join table, conversations, groups) and Olga's
//! (the older `ZZNUMBER` layout), Petr's and Anna's Android phones. The stores are written by
//! Python's `sqlite3` with the tables and columns iLEAPP's `zangi_messages`, `zangi_contacts`,
//! `zangi_accounts`, `get_zangichats` and ALEAPP's `zangichats` read (no public copy is in the
//! corpus). Every row and field of their queries (run by the sqlite3 CLI, times as stored) is
//! found, except the stored passwords and PINs iLEAPP prints (named here, never copied) and its
//! direction word (the stored `ZISRECEIVED` is a fact, the direction the message's time mark);
//! Ivan and Petr resolve across platforms by their Zangi numbers. Beside them truncated and
//! foreign copies (noted), and another store of the Android app's folder (passed over).

use crate::android_support::{check, rows_in, triage};

/// argv[1]: Ivan's store, argv[2]: Olga's, argv[3]: Petr's, argv[4]: Anna's.
const WRITE: &str = r#"
import sqlite3, sys
ivan, olga, petr, anna = sys.argv[1:5]
db = sqlite3.connect(ivan)
db.executescript("""
CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNUMBER VARCHAR, ZNICKNAME VARCHAR, ZNAME VARCHAR, ZLASTNAME VARCHAR, ZNEWPASSCODE VARCHAR, ZPASSWORD VARCHAR, ZPINCODE VARCHAR, ZSHAREDHIDECONVERSATIONPIN VARCHAR, ZUSEREMAIL VARCHAR, ZSTATUS INTEGER, ZUSERREGSTATUS INTEGER, ZCOUNTRY VARCHAR, ZSTATUSLASTSYNCTIME INTEGER);
CREATE TABLE ZCONTACT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMODIFICATIONDATE TIMESTAMP, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZDISPLAYNAME VARCHAR, ZIDENTIFIRE VARCHAR, ZISBLOCKED INTEGER);
CREATE TABLE ZCONTACTNUMBER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFULLNUMBER VARCHAR, ZEMAIL VARCHAR, ZLASTACTIVITY INTEGER, ZISFAVORITE INTEGER);
CREATE TABLE Z_4CONTACTNUMBER (Z_4CONTACT INTEGER, Z_5CONTACTNUMBER INTEGER, PRIMARY KEY (Z_4CONTACT, Z_5CONTACTNUMBER));
CREATE TABLE ZCONTACTNUMBERTYPE (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR);
CREATE TABLE ZCONVERSATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUID VARCHAR, ZGROUPUID VARCHAR, ZGROUPNAME VARCHAR, ZMEMBER INTEGER);
CREATE TABLE ZGROUP (Z_PK INTEGER PRIMARY KEY, ZCONVERSATION INTEGER, ZUID VARCHAR);
CREATE TABLE ZGROUPPROFILE (Z_PK INTEGER PRIMARY KEY, ZGROUP INTEGER, ZNAME VARCHAR);
CREATE TABLE ZZANGIMESSAGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMESSAGETIME TIMESTAMP, ZMESSAGE VARCHAR, ZTYPE INTEGER, ZMESSAGEID VARCHAR, ZCONVERSATION INTEGER, ZFROM INTEGER, ZISRECEIVED INTEGER, ZFILEREMOTEPATH VARCHAR, ZMEDIAASSETSLIBRARYURL VARCHAR, ZENCRYPTFILEREMOTEPATH VARCHAR, ZFILEEXTENSION VARCHAR, ZMESSAGEINFO VARCHAR);
INSERT INTO ZUSER VALUES (1, 9, 1, '37477111222', 'ivan_k', 'Ivan', 'Kuznetsov', '1234', 'hunter2-secret', '0000', '9999', 'ivan.k@example.org', 1, 2, 'AM', 1701000000);
INSERT INTO ZCONTACT VALUES (1, 4, 1, 722000000, 'Petr', 'Sidorov', NULL, 'c-petr', 0);
INSERT INTO ZCONTACT VALUES (2, 4, 1, 722000100, 'Dmitri', 'Orlov', 'Dima', 'c-dima', 1);
INSERT INTO ZCONTACTNUMBER VALUES (1, 5, 1, '37477123456', NULL, 1701300000, 1);
INSERT INTO ZCONTACTNUMBER VALUES (2, 5, 1, '37491555666', 'dima@example.net', 1701200000, 0);
INSERT INTO ZCONTACTNUMBER VALUES (3, 5, 1, '37477111222', NULL, NULL, 0);
INSERT INTO Z_4CONTACTNUMBER VALUES (1, 1);
INSERT INTO Z_4CONTACTNUMBER VALUES (2, 2);
INSERT INTO ZCONTACTNUMBERTYPE VALUES (1, 'zangi');
INSERT INTO ZCONVERSATION VALUES (1, 6, 1, '37477123456', NULL, NULL, 1);
INSERT INTO ZCONVERSATION VALUES (2, 6, 1, NULL, 'grp-77', 'Night shift', NULL);
INSERT INTO ZGROUP VALUES (1, 2, 'grp-77');
INSERT INTO ZGROUPPROFILE VALUES (1, 1, 'Night shift crew');
INSERT INTO ZZANGIMESSAGE VALUES (1, 7, 1, 722001000, 'pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', 0, 'msgId-a1', 1, 1, 1, NULL, NULL, NULL, NULL, NULL);
INSERT INTO ZZANGIMESSAGE VALUES (2, 7, 1, 722001060, 'done', 0, 'msgId-a2', 1, 3, 0, NULL, NULL, NULL, NULL, NULL);
INSERT INTO ZZANGIMESSAGE VALUES (3, 7, 1, 722001200, 'IMG_0042', 1, 'msgId-a3', 2, 2, 1, '/image/msgId-a3', NULL, NULL, 'jpg', NULL);
INSERT INTO ZZANGIMESSAGE VALUES (4, 7, 1, 722001300, NULL, 160, 'msgId-a4', 1, 1, 1, NULL, NULL, NULL, NULL, '{"duration":42}');
""")
db.commit()
db = sqlite3.connect(olga)
db.executescript("""
CREATE TABLE ZCONTACT (Z_PK INTEGER PRIMARY KEY, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZIDENTIFIRE VARCHAR);
CREATE TABLE ZZNUMBER (Z_PK INTEGER PRIMARY KEY, ZNUMBER VARCHAR, ZCONTACTNUMBEROBJECT INTEGER, ZIDENTIFIRE VARCHAR);
CREATE TABLE ZZANGIMESSAGE (Z_PK INTEGER PRIMARY KEY, ZMESSAGETIME TIMESTAMP, ZMESSAGE VARCHAR, ZISRECEIVED INTEGER, ZFROM INTEGER);
INSERT INTO ZCONTACT VALUES (1, 'Ivan', 'Kuznetsov', 'c-ivan');
INSERT INTO ZZNUMBER VALUES (1, '37477111222', 11, 'c-ivan');
INSERT INTO ZZNUMBER VALUES (2, '37455000111', 12, NULL);
INSERT INTO ZZANGIMESSAGE VALUES (1, 721000000, 'see you', 1, 11);
INSERT INTO ZZANGIMESSAGE VALUES (2, 721000060, 'ok', 0, 12);
""")
db.commit()
db = sqlite3.connect(petr)
db.executescript("""
CREATE TABLE user_profile (id TEXT PRIMARY KEY, first_name TEXT, last_name TEXT);
CREATE TABLE message (_id INTEGER PRIMARY KEY, "date" INTEGER, chatWith TEXT, message_id TEXT, msgId TEXT, message_msg TEXT, extra TEXT, msgFrom TEXT, msgTo TEXT, isIncoming INTEGER);
INSERT INTO user_profile VALUES ('37477111222', 'Ivan', 'Kuznetsov');
INSERT INTO user_profile VALUES ('37477123456', 'Petr', NULL);
INSERT INTO message VALUES (1, 1701340800000, '37477111222', 'm-1', 'msgId-a1', 'pay 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', NULL, '37477123456', '37477111222', 0);
INSERT INTO message VALUES (2, 1701340860000, '37477111222', 'm-2', 'msgId-a2', 'done', NULL, '37477111222', '37477123456', 1);
INSERT INTO message VALUES (3, 1701340900000, '37477111222', 'm-3', 'msgId-b3', NULL, '/storage/emulated/0/Android/data/com.beint.zangi/files/zangi/Zangi Files/msgId-b3.jpg', '37477123456', '37477111222', 0);
INSERT INTO message VALUES (4, 1701341000000, NULL, 'm-4', 'msgId-b4', 'no chat row', NULL, '37499888777', '37477123456', 1);
""")
db.commit()
db = sqlite3.connect(anna)
db.executescript("""
CREATE TABLE message (_id INTEGER PRIMARY KEY, "date" INTEGER, chatWith TEXT, message_id TEXT, message_msg TEXT, msgFrom TEXT, msgTo TEXT, isIncoming INTEGER);
INSERT INTO message VALUES (1, 1690000000000, '37455000111', 'n-1', 'privet', '37455000111', '37433222111', 1);
""")
db.commit()
"#;

/// iLEAPP's `zangi_messages` query, without its direction word (see the module doc).
const IOS_MESSAGES: &str = "SELECT zm.ZMESSAGETIME, zm.ZMESSAGE, CASE WHEN grp.Z_PK IS NOT NULL THEN 'Group' ELSE 'Direct' END, \
CASE zm.ZTYPE WHEN 0 THEN 'Text' WHEN 1 THEN 'Image/Media' WHEN 2 THEN 'Video' WHEN 3 THEN 'Location' WHEN 4 THEN 'Voice note' WHEN 8 THEN 'Link/Share' WHEN 9 THEN 'File/Document' WHEN 101 THEN 'System message' WHEN 115 THEN 'Group event' WHEN 160 THEN 'Call start' WHEN 175 THEN 'Call end' ELSE 'Other/Unknown' END, \
zm.ZMESSAGEID, COALESCE(NULLIF(grp.ZUID, ''), NULLIF(cnv.ZGROUPUID, ''), CAST(cnv.ZUID AS TEXT)), \
COALESCE(NULLIF(TRIM(gpf.ZNAME), ''), NULLIF(TRIM(cnv.ZGROUPNAME), ''), NULLIF(TRIM(chat_ct.ZDISPLAYNAME), ''), NULLIF(TRIM(COALESCE(chat_ct.ZFIRSTNAME, '') || ' ' || COALESCE(chat_ct.ZLASTNAME, '')), ''), chat_cn.ZFULLNUMBER, CAST(cnv.ZUID AS TEXT)), \
COALESCE(NULLIF(TRIM(snd_ct.ZDISPLAYNAME), ''), NULLIF(TRIM(COALESCE(snd_ct.ZFIRSTNAME, '') || ' ' || COALESCE(snd_ct.ZLASTNAME, '')), ''), snd_cn.ZFULLNUMBER, CAST(zm.ZFROM AS TEXT)), \
snd_cn.ZFULLNUMBER, COALESCE(NULLIF(zm.ZFILEREMOTEPATH, ''), NULLIF(zm.ZMEDIAASSETSLIBRARYURL, ''), NULLIF(zm.ZENCRYPTFILEREMOTEPATH, '')), zm.ZFILEEXTENSION, zm.ZMESSAGEINFO \
FROM ZZANGIMESSAGE zm LEFT JOIN ZCONVERSATION cnv ON cnv.Z_PK = zm.ZCONVERSATION LEFT JOIN ZGROUP grp ON grp.ZCONVERSATION = cnv.Z_PK LEFT JOIN ZGROUPPROFILE gpf ON gpf.ZGROUP = grp.Z_PK \
LEFT JOIN ZCONTACTNUMBER snd_cn ON snd_cn.Z_PK = zm.ZFROM LEFT JOIN Z_4CONTACTNUMBER snd_lnk ON snd_lnk.Z_5CONTACTNUMBER = snd_cn.Z_PK LEFT JOIN ZCONTACT snd_ct ON snd_ct.Z_PK = snd_lnk.Z_4CONTACT \
LEFT JOIN ZCONTACTNUMBER chat_cn ON chat_cn.Z_PK = cnv.ZMEMBER LEFT JOIN Z_4CONTACTNUMBER chat_lnk ON chat_lnk.Z_5CONTACTNUMBER = chat_cn.Z_PK LEFT JOIN ZCONTACT chat_ct ON chat_ct.Z_PK = chat_lnk.Z_4CONTACT";

/// ALEAPP's `zangichats` query (the time as stored; its "Local User" labels its own).
const ANDROID_MESSAGES: &str = "SELECT m.\"date\", CASE WHEN cn.last_name IS NULL OR cn.last_name = '' THEN cn.first_name ELSE cn.first_name || ' ' || cn.last_name END, m.chatWith, m.message_id, m.msgId, m.message_msg, m.extra, \
CASE WHEN uf.last_name IS NULL OR uf.last_name = '' THEN uf.first_name ELSE uf.first_name || ' ' || uf.last_name END, m.msgFrom, \
CASE WHEN ut.last_name IS NULL OR ut.last_name = '' THEN ut.first_name ELSE ut.first_name || ' ' || ut.last_name END, m.msgTo, m.isIncoming \
FROM message m LEFT JOIN user_profile uf ON m.msgFrom = uf.id LEFT JOIN user_profile ut ON m.msgTo = ut.id LEFT JOIN user_profile cn ON m.chatWith = cn.id WHERE m.chatWith IS NOT NULL AND m.chatWith != ''";

#[test]
fn zangi_on_two_iphones_and_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let group =
        "private/var/mobile/Containers/Shared/AppGroup/0D1E2F30-4152-4637-8495-A6B7C8D9E0F1";
    let (ivan, olga, petr, anna) = (
        tmp.path().join("ivan-iphone"),
        tmp.path().join("olga-iphone"),
        tmp.path().join("petr"),
        tmp.path().join("anna"),
    );
    let idb = ivan.join(group).join("zangidb.sqlite");
    let odb = olga.join(group).join("zangidb.sqlite");
    let pdb = petr.join("data/data/com.beint.zangi/databases/37477123456.db");
    let adb = anna.join("data/data/com.beint.zangi/databases/zangi_33222111.db");
    for p in [&idb, &odb, &pdb, &adb] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    }
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([&idb, &odb, &pdb, &adb])
        .status()
        .unwrap();
    assert!(st.success());
    for root in [&ivan, &olga] {
        std::fs::create_dir_all(root.join("private/var/mobile/Library")).unwrap();
    }
    for root in [&petr, &anna] {
        std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    }
    // damaged and foreign copies; another store of the Android app (passed over)
    let bytes = std::fs::read(&idb).unwrap();
    std::fs::write(
        ivan.join(group).join("zangidb-cut.sqlite"),
        &bytes[..bytes.len() / 3],
    )
    .unwrap();
    crate::ios_nearby::sqlite3(
        &ivan.join(group).join("zangidb2.sqlite"),
        "CREATE TABLE ZOTHER (Z_PK INTEGER PRIMARY KEY); INSERT INTO ZOTHER VALUES (1);",
    );
    let pdir = petr.join("data/data/com.beint.zangi/databases");
    let bytes = std::fs::read(&pdb).unwrap();
    std::fs::write(pdir.join("cut.db"), &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &pdir.join("settings.db"),
        "CREATE TABLE message (x TEXT); INSERT INTO message VALUES ('not read');",
    );
    crate::ios_nearby::sqlite3(
        &pdir.join("stickers.db"),
        "CREATE TABLE sticker (id TEXT); INSERT INTO sticker VALUES ('s');",
    );

    let run = triage(&[
        ("ivan-iphone", &ivan, "Asia/Yerevan", Some("AM")),
        ("olga-iphone", &olga, "Asia/Yerevan", Some("AM")),
        ("petr", &petr, "Asia/Yerevan", Some("AM")),
        ("anna", &anna, "Asia/Yerevan", Some("AM")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // Ivan's iPhone: iLEAPP's messages, contacts and account
    let all = run.all_phenomena("ivan-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    assert_eq!(check(&all, "Zangi message", &idb, IOS_MESSAGES, 4), 4);
    assert_eq!(
        check(
            &all,
            "Zangi contact",
            &idb,
            "SELECT zc.ZMODIFICATIONDATE, zcn.ZLASTACTIVITY, zc.ZLASTNAME, zc.ZFIRSTNAME, zc.ZDISPLAYNAME, zcn.ZFULLNUMBER, zcn.ZEMAIL, zcnt.ZNAME, zc.ZIDENTIFIRE, zc.ZISBLOCKED, zcn.ZISFAVORITE FROM ZCONTACT zc LEFT JOIN Z_4CONTACTNUMBER z4cn ON zc.Z_PK = z4cn.Z_4CONTACT LEFT JOIN ZCONTACTNUMBER zcn ON zcn.Z_PK = z4cn.Z_5CONTACTNUMBER LEFT JOIN ZCONTACTNUMBERTYPE zcnt ON zcnt.Z_PK = zc.Z_PK",
            5
        ),
        2
    );
    // the account: every field but the secrets, which are named and never copied
    assert_eq!(
        check(
            &all,
            "Zangi account",
            &idb,
            "SELECT ZSTATUSLASTSYNCTIME, ZNUMBER, ZNICKNAME, ZLASTNAME, ZNAME, ZUSEREMAIL, ZSTATUS, ZUSERREGSTATUS, ZCOUNTRY FROM ZUSER",
            1
        ),
        1
    );
    for secret in ["hunter2-secret", "1234", "0000", "9999"] {
        assert!(
            !all.iter()
                .any(|p| p.verified_facts.iter().any(|f| f.value == secret)),
            "{secret} copied"
        );
    }
    assert!(all.iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value == "passcode, password, PIN, conversation-hiding PIN")
    }));
    assert!(
        all.iter()
            .any(|p| p.title == "Zangi message from Dima in Night shift crew")
    );
    // Olga's iPhone: the older layout, iLEAPP's get_zangichats
    let oall = run.all_phenomena("olga-iphone");
    assert_eq!(
        check(
            &oall,
            "Zangi message",
            &odb,
            "SELECT ZZANGIMESSAGE.ZMESSAGETIME, ZCONTACT.ZFIRSTNAME, ZCONTACT.ZLASTNAME, ZZANGIMESSAGE.ZMESSAGE, ZZNUMBER.ZNUMBER FROM ZZANGIMESSAGE JOIN ZZNUMBER ON ZZANGIMESSAGE.ZFROM = ZZNUMBER.ZCONTACTNUMBEROBJECT LEFT JOIN ZCONTACT ON ZZNUMBER.ZIDENTIFIRE = ZCONTACT.ZIDENTIFIRE",
            0
        ),
        2
    );

    // Petr's phone: ALEAPP's query, and the message without a chat it leaves out
    let pall = run.all_phenomena("petr");
    for p in &pall {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let msgs: Vec<&masf_graph::Phenomenon> = pall
        .iter()
        .filter(|p| p.title.starts_with("Zangi message"))
        .collect();
    assert_eq!(msgs.len(), 4);
    assert_eq!(rows_in(&msgs, &pdb, ANDROID_MESSAGES, 3, ""), 3);
    assert!(
        !pall
            .iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value == "not read")),
        "settings.db was read"
    );
    run.assert_noted("petr", &[("com.beint.zangi/databases/cut.db", "malformed")]);
    assert!(
        !run.unparsed("petr")
            .iter()
            .any(|u| u.artefact.ends_with("stickers.db")),
    );
    let aall = run.all_phenomena("anna");
    assert_eq!(
        check(
            &aall,
            "Zangi message",
            &adb,
            "SELECT \"date\", chatWith, message_id, message_msg, msgFrom, msgTo, isIncoming FROM message",
            2
        ),
        1
    );
    run.assert_noted(
        "ivan-iphone",
        &[
            ("zangidb-cut.sqlite", "malformed"),
            ("zangidb2.sqlite", "none of the tables"),
        ],
    );

    // who is who: Ivan and Petr by their Zangi numbers, across platforms
    assert!(
        run.owner("ivan-iphone")
            .contains("account_id=zangi:37477111222")
    );
    assert!(
        run.owner("ivan-iphone")
            .contains("email=ivan.k@example.org")
    );
    assert!(run.owner("petr").contains("account_id=zangi:37477123456"));
    assert!(
        run.owner("petr")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("ivan-iphone/owner", "petr/zangi:37477111222"),
        ("ivan-iphone/owner", "olga-iphone/zangi:37477111222"),
        ("petr/owner", "ivan-iphone/zangi:37477123456"),
    ] {
        assert!(
            with(member).contains(&known_as.to_string()),
            "{member}: {:#?}",
            with(member)
        );
    }
}
