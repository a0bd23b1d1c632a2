//! Reddit on iOS (`ios::reddit`): Lena's iPhone, its chat store (`Account.db`, Core Data, with
//! the account's push rules naming her Matrix id), the media cache beside it
//! (`ContentService.db`), the chat users (`RoomsUsersService.db`) and the cached accounts
//! (`RedditUsersStore.db`), written by Python's `sqlite3` with the tables and columns iLEAPP's
//! `reddit` artefacts read (no public copy is in the corpus), beside Omar's Android phone (the
//! Android test's stores). The oracle: iLEAPP's queries by the sqlite3 CLI (its chat query's
//! ATTACH of the media cache included; its words for types — "Text", "Deletion for Event ID: …"
//! — are the stored values here, checked as stored). Lena's iPhone and Omar's Android phone
//! meet by `reddit:t2_<id>`. Beside them a key-value store of another schema, noted.

use std::path::Path;

use crate::android_support::{rows_in, triage};
use crate::reddit_android::{LENA, OMAR};

/// argv: the account folder of roomsAccount/, of redditAccount/.
const WRITE: &str = r#"
import json, sqlite3, sys, os
rooms, reddit, LENA, OMAR = sys.argv[1:5]
CD = 978307200
ROOM = "!dm-88:reddit.com"
for d in ("Account-A1", "Downloads-D1", "MatrixUsers-M1"):
    os.makedirs(os.path.join(rooms, d), exist_ok=True)
os.makedirs(os.path.join(reddit, "RedditUsers-R1"), exist_ok=True)
db = sqlite3.connect(os.path.join(rooms, "Account-A1", "Account.db"))
db.executescript("""
CREATE TABLE ZACCOUNTSTORAGETIMELINEITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZORIGINSERVERDATE TIMESTAMP, ZEVENTTYPEFIELD VARCHAR, ZITEMIDFIELD VARCHAR, ZSENDERFIELD VARCHAR, ZSTATEKEYFIELD VARCHAR, ZDATA BLOB);
CREATE TABLE ZACCOUNTSTORAGEACCOUNTDATAITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZEVENTTYPEFIELD VARCHAR, ZROOMIDFIELD VARCHAR, ZDATA BLOB);
""")
items = [
    ("m.room.member", "$m1", LENA, LENA, 1701340000, {"content": {"membership": "join", "displayname": "lena_k"}}),
    ("m.room.member", "$m2", OMAR, OMAR, 1701340001, {"content": {"membership": "join", "displayname": "omar_b"}}),
    ("m.room.message", "$e1", OMAR, None, 1701340800, {"content": {"msgtype": "m.text", "body": "Send the 0.01 BTC to bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"}}),
    ("m.room.message", "$e2", LENA, None, 1701340860, {"content": {"msgtype": "m.image", "body": "keys.jpg", "url": "mxc://reddit.com/abc123", "info": {"w": 1024, "h": 768}}}),
    ("m.reaction", "$e3", LENA, None, 1701340900, {"content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$e1", "key": "👍"}}}),
    ("m.room.message", "$e4", OMAR, None, 1701340950, {"content": {}}),
    ("m.room.redaction", "$e5", OMAR, None, 1701340960, {"content": {}, "redacts": "$e4"}),
]
for i, (typ, eid, sender, sk, ts, data) in enumerate(items, 1):
    db.execute("INSERT INTO ZACCOUNTSTORAGETIMELINEITEM VALUES (?, 3, 1, ?, ?, ?, ?, ?, ?)", (i, ts - CD + 0.25, typ, ROOM + "|" + eid, sender, sk, json.dumps(data, ensure_ascii=False).encode()))
rules = {"type": "m.push_rules", "content": {"global": {"override": [{"rule_id": ".m.rule.master", "conditions": [], "enabled": False}, {"rule_id": ".m.rule.invite_for_me", "conditions": [{"kind": "event_match", "key": "type", "pattern": "m.room.member"}, {"kind": "event_match", "key": "content.membership", "pattern": "invite"}, {"kind": "event_match", "key": "state_key", "pattern": LENA}]}], "underride": [{"rule_id": ".m.rule.message", "conditions": [{"kind": "event_match", "key": "type", "pattern": "m.room.message"}]}]}}}
db.execute("INSERT INTO ZACCOUNTSTORAGEACCOUNTDATAITEM VALUES (1, 2, 1, 'm.push_rules', NULL, ?)", (json.dumps(rules).encode(),))
db.commit()
kv = "CREATE TABLE ZKEYVALUESTORAGEBASEELEMENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZACCESSDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZKEY VARCHAR, ZFILENAME VARCHAR, ZVALUE BLOB)"
db = sqlite3.connect(os.path.join(rooms, "Downloads-D1", "ContentService.db"))
db.execute(kv)
db.execute("INSERT INTO ZKEYVALUESTORAGEBASEELEMENT VALUES (1, 1, 1, 723033700.5, 723033661.0, 'mxc://reddit.com/abc123', 'F1C2A9.jpg', NULL)")
db.commit()
db = sqlite3.connect(os.path.join(rooms, "MatrixUsers-M1", "RoomsUsersService.db"))
db.execute(kv)
for i, (uid, name, cur) in enumerate([(LENA, "lena_k", True), (OMAR, "omar_b", False)], 1):
    v = {"exists": {"_0": {"display_name": name, "user_id": uid, "is_current": cur, "updated_date": 1701340000000 + i}}}
    db.execute("INSERT INTO ZKEYVALUESTORAGEBASEELEMENT VALUES (?, 1, 1, 723033000.0, 723032000.0, ?, NULL, ?)", (i, uid, b"\x01" + json.dumps(v).encode()))
db.commit()
db = sqlite3.connect(os.path.join(reddit, "RedditUsers-R1", "RedditUsersStore.db"))
db.execute(kv)
v = {"displayName": "omar_b", "id": "t2_8hz3m0p", "karma": {"total": 5120, "fromPosts": 4000, "fromComments": 1120}, "isVerified": True, "profile": {"isNsfw": False, "createdAt": 1500000000}, "isBlocked": False, "isAcceptingChats": True, "isAcceptingPMs": False}
db.execute("INSERT INTO ZKEYVALUESTORAGEBASEELEMENT VALUES (1, 1, 1, 723033000.0, 723032000.0, 't2_8hz3m0p', NULL, ?)", (b"\x01" + json.dumps(v).encode(),))
db.commit()
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn reddit_on_an_iphone_beside_an_android_phone() {
    let tmp = tempfile::tempdir().unwrap();
    let lena = tmp.path().join("lena-iphone");
    let caches = lena.join(
        "private/var/mobile/Containers/Data/Application/7A1E0C4B-2D3F-4E5A-9B6C-8D7E6F5A4B3C/Library/Caches/MatrixChat",
    );
    let (rooms, reddit) = (
        caches.join("roomsAccount/t2_1w7k2q9"),
        caches.join("redditAccount/t2_1w7k2q9"),
    );
    std::fs::create_dir_all(lena.join("private/var/mobile/Library")).unwrap();
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&rooms), s(&reddit), LENA, OMAR])
        .status()
        .unwrap();
    assert!(st.success());
    // a store of that name of another schema
    let ghost = caches.join("roomsAccount/t2_ghost/MatrixUsers-X");
    std::fs::create_dir_all(&ghost).unwrap();
    crate::ios_nearby::sqlite3(
        &ghost.join("RoomsUsersService.db"),
        "CREATE TABLE kv (k TEXT); INSERT INTO kv VALUES ('x');",
    );
    // Omar's Android phone, as the Android test writes it
    let omar = tmp.path().join("omar");
    let other = tmp.path().join("unused");
    let dbs = omar.join("data/data/com.reddit.frontpage/databases");
    for d in [&dbs, &other] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::create_dir_all(omar.join("data/system/users/0")).unwrap();
    let st = std::process::Command::new("python3")
        .args([
            "-c",
            crate::reddit_android::WRITE,
            s(&other),
            s(&dbs),
            LENA,
            OMAR,
        ])
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[
        ("lena-iphone", &lena, "Europe/Berlin", Some("DE")),
        ("omar", &omar, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("lena-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let account = rooms.join("Account-A1/Account.db");
    let events: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| {
            p.interpretation
                .starts_with("ZACCOUNTSTORAGETIMELINEITEM row")
        })
        .collect();
    let oracle = format!(
        "ATTACH DATABASE '{}' AS content; SELECT substr(m.ZITEMIDFIELD, instr(m.ZITEMIDFIELD, '|') + 1), m.ZORIGINSERVERDATE, (SELECT json_extract(u.ZDATA, '$.content.displayname') FROM ZACCOUNTSTORAGETIMELINEITEM u WHERE u.ZSTATEKEYFIELD = m.ZSENDERFIELD AND u.ZEVENTTYPEFIELD = 'm.room.member' LIMIT 1), m.ZSENDERFIELD, (SELECT group_concat(DISTINCT json_extract(rec.ZDATA, '$.content.displayname')) FROM ZACCOUNTSTORAGETIMELINEITEM rec WHERE substr(rec.ZITEMIDFIELD, 1, instr(rec.ZITEMIDFIELD, '|') - 1) = substr(m.ZITEMIDFIELD, 1, instr(m.ZITEMIDFIELD, '|') - 1) AND rec.ZEVENTTYPEFIELD = 'm.room.member' AND rec.ZSTATEKEYFIELD != m.ZSENDERFIELD AND json_extract(rec.ZDATA, '$.content.membership') = 'join'), m.ZEVENTTYPEFIELD, CASE WHEN json_extract(m.ZDATA, '$.content.msgtype') IS NULL AND m.ZEVENTTYPEFIELD = 'm.room.message' THEN 'MESSAGE DELETED' ELSE json_extract(m.ZDATA, '$.content.msgtype') END, CASE WHEN m.ZEVENTTYPEFIELD = 'm.reaction' THEN json_extract(m.ZDATA, '$.content.\"m.relates_to\".key') ELSE json_extract(m.ZDATA, '$.content.body') END, json_extract(m.ZDATA, '$.redacts'), att.ZFILENAME, substr(m.ZITEMIDFIELD, 1, instr(m.ZITEMIDFIELD, '|') - 1) FROM ZACCOUNTSTORAGETIMELINEITEM AS m LEFT JOIN content.ZKEYVALUESTORAGEBASEELEMENT AS att ON json_extract(m.ZDATA, '$.content.url') = att.ZKEY WHERE m.ZEVENTTYPEFIELD IN ('m.room.message', 'm.room.redaction', 'm.reaction')",
        rooms.join("Downloads-D1/ContentService.db").display()
    );
    assert_eq!(rows_in(&events, &account, &oracle, 0, ","), 5);
    assert_eq!(events.len(), 5);
    assert!(events.iter().any(|p| p.title == "Reddit chat message sent"
        && p.verified_facts.iter().any(|f| f.value == "F1C2A9.jpg")));
    assert!(events.iter().any(|p| {
        p.title == "Reddit chat message from omar_b"
            && p.verified_facts
                .iter()
                .any(|f| f.value == "MESSAGE DELETED")
    }));
    let kv = |db: &Path, sql: &str, prefix: &str, rows: usize| {
        let found: Vec<&masf_graph::Phenomenon> =
            all.iter().filter(|p| p.title.starts_with(prefix)).collect();
        assert_eq!(rows_in(&found, db, sql, 0, ""), rows, "{prefix}");
        assert_eq!(found.len(), rows, "{prefix}");
    };
    kv(
        &rooms.join("MatrixUsers-M1/RoomsUsersService.db"),
        "SELECT json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.exists._0.user_id'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.exists._0.display_name'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.exists._0.is_current'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.exists._0.updated_date'), ZACCESSDATE, ZUPDATEDATE, ZKEY FROM ZKEYVALUESTORAGEBASEELEMENT",
        "Reddit chat user",
        2,
    );
    kv(
        &reddit.join("RedditUsers-R1/RedditUsersStore.db"),
        "SELECT json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.id'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.displayName'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.karma.total'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.karma.fromPosts'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.karma.fromComments'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.isVerified'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.profile.isNsfw'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.isBlocked'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.isAcceptingChats'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.isAcceptingPMs'), json_extract(CAST(substr(ZVALUE, 2) AS TEXT), '$.profile.createdAt'), ZACCESSDATE, ZUPDATEDATE FROM ZKEYVALUESTORAGEBASEELEMENT",
        "Reddit user",
        1,
    );
    let owner = run.owner("lena-iphone").to_lowercase();
    assert!(owner.contains("account_id=reddit:t2_1w7k2q9"), "{owner}");
    run.assert_noted(
        "lena-iphone",
        &[(
            "t2_ghost/MatrixUsers-X/RoomsUsersService.db",
            "no table ZKEYVALUESTORAGEBASEELEMENT",
        )],
    );
    // Lena's iPhone and Omar's Android phone: each the other's chat partner
    let with = crate::who::resolved(&run);
    assert!(
        with("lena-iphone/owner").contains(&"omar/reddit:t2_1w7k2q9".to_string()),
        "{:#?}",
        with("lena-iphone/owner")
    );
    assert!(
        with("omar/owner").contains(&"lena-iphone/reddit:t2_8hz3m0p".to_string()),
        "{:#?}",
        with("omar/owner")
    );
}
