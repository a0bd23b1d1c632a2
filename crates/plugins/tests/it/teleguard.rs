//! TeleGuard (`crate::teleguard`, read by both plugins): Zoe's iPhone and Max's Android phone,
//! who chat and call each other, their stores written by Python's `sqlite3` with the tables and
//! columns iLEAPP's and ALEAPP's `teleguard` artefacts read (no public copy is in the corpus):
//! the iPhone's with channels, posts and drafts, the Android one of an older layout (no user
//! time, no edit flag, the phone kept under `_currentPhone`). Every row and field of iLEAPP's
//! queries (run by the sqlite3 CLI, times as stored; its Yes/No and direction words are the
//! stored values here, the direction the message's time mark) is found, but the key
//! fingerprints iLEAPP derives (the keys are said to be stored, never copied); both accounts
//! resolve across platforms by their server ids. Beside them a truncated and a foreign store
//! (noted).

use std::path::Path;

use crate::android_support::{check, triage};

const ZOE: &str = "2ZOE7QK4M";
const MAX: &str = "8MAX3TR6P";

/// argv[1]: Zoe's store, argv[2]: her drafts, argv[3]: Max's store.
const WRITE: &str = r#"
import json, sqlite3, sys
zoe, temp, mx, ZOE, MAX = sys.argv[1:6]
db = sqlite3.connect(zoe)
db.executescript("""
CREATE TABLE service (id TEXT PRIMARY KEY, data TEXT);
CREATE TABLE contacts (serverId TEXT PRIMARY KEY, alias TEXT, type TEXT, color INTEGER, avatar BLOB, options TEXT, info TEXT, lastActivityTime INTEGER, lastVisitTime INTEGER, personalId TEXT);
CREATE TABLE messages (id TEXT PRIMARY KEY, chatId TEXT, sender TEXT, receiver TEXT, type TEXT, content TEXT, metadata TEXT, status TEXT, isEdited INTEGER, createDate INTEGER, userTime INTEGER);
CREATE TABLE posts (id TEXT PRIMARY KEY, channelId TEXT, header TEXT, content TEXT, type TEXT, localStatus TEXT, viewsCount INTEGER, likesCount INTEGER, dislikesCount INTEGER, metadata TEXT, media TEXT, createDate INTEGER);
CREATE TABLE channels (id TEXT PRIMARY KEY, alias TEXT, description TEXT, category TEXT, color INTEGER, avatarId TEXT, subscribersCount INTEGER, admin TEXT, postsCount INTEGER, isDeleted INTEGER, language TEXT, type TEXT);
""")
db.execute("INSERT INTO service VALUES ('user', ?)", (json.dumps({'serverId': ZOE, 'alias': 'Zoe', 'userId': 'u-7781', 'personalId': 'zoe.k', 'avatarRefId': 'av-1', 'publicKey': '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----', 'privateKey': '-----BEGIN PRIVATE KEY-----\nSECRETKEYBODY\n-----END PRIVATE KEY-----'}),))
db.execute("INSERT INTO service VALUES ('settings', ?)", (json.dumps({'currentPhone': '+41795550123', 'theme': 'dark'}),))
db.execute("INSERT INTO contacts VALUES (?, 'Max', 'USER', 4280391411, x'ffd8ffe0', '{}', 'met in Basel', 1701340000000, 1701341000000, NULL)", (MAX,))
rows = [
    ('m1', MAX, MAX, ZOE, 'TEXT', 'Send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', None, 'READ', 0, 1701340800000, 1701340799000),
    ('m2', MAX, ZOE, MAX, 'TEXT', 'done', None, 'DELIVERED', 1, 1701340860000, 1701340860000),
    ('m3', MAX, ZOE, MAX, 'MEDIA', None, json.dumps({'files': {'f-91.jpg': {'size': 1234}}}), 'DELIVERED', 0, 1701340900000, 1701340900000),
    ('m4', MAX, MAX, ZOE, 'CALL', 'Incoming call', json.dumps({'isSuccessfull': True, 'subtext': '2 minutes 5 seconds', 'membersText': 'Max', 'callType': 'AUDIO'}), None, 0, 1701341000000, 1701341000000),
    ('m5', 'grp-1', None, None, 'SERVICE', 'Max invited you', None, None, 0, 1701341100000, None),
]
for r in rows:
    db.execute("INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", r)
db.execute("INSERT INTO channels VALUES ('ch-5', 'Swiss News', 'Daily news', 'news', 2, 'av-9', 1200, 'no', 3, 0, 'de', 'PUBLIC')")
db.execute("INSERT INTO posts VALUES ('p1', 'ch-5', 'Breaking', 'Rail strike on Monday', 'TEXT', 'READ', 900, 12, 1, NULL, NULL, 1701200000000)")
db.commit()
db = sqlite3.connect(temp)
db.execute("CREATE TABLE draft (serverId TEXT PRIMARY KEY, text TEXT)")
db.execute("INSERT INTO draft VALUES (?, 'meet at 9 at the station')", (MAX,))
db.commit()
db = sqlite3.connect(mx)
db.executescript("""
CREATE TABLE service (id TEXT PRIMARY KEY, data TEXT);
CREATE TABLE contacts (serverId TEXT PRIMARY KEY, alias TEXT, lastActivityTime INTEGER);
CREATE TABLE messages (id TEXT PRIMARY KEY, chatId TEXT, sender TEXT, receiver TEXT, type TEXT, content TEXT, metadata TEXT, status TEXT, createDate INTEGER);
""")
db.execute("INSERT INTO service VALUES ('user', ?)", (json.dumps({'serverId': MAX, 'alias': 'Max'}),))
db.execute("INSERT INTO service VALUES ('settings', ?)", (json.dumps({'_currentPhone': '+41795550177'}),))
db.execute("INSERT INTO contacts VALUES (?, 'Zoe', 1701340000000)", (ZOE,))
db.execute("INSERT INTO messages VALUES ('m1', ?, ?, ?, 'TEXT', 'Send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7', NULL, 'READ', 1701340800000)", (ZOE, MAX, ZOE))
db.execute("INSERT INTO messages VALUES ('m2', ?, ?, ?, 'TEXT', 'done', NULL, 'DELIVERED', 1701340860000)", (ZOE, ZOE, MAX))
db.commit()
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn teleguard_on_an_iphone_and_an_android_phone() {
    let tmp = tempfile::tempdir().unwrap();
    let (zoe, max) = (tmp.path().join("zoe-iphone"), tmp.path().join("max"));
    let lib = zoe.join("private/var/mobile/Containers/Shared/AppGroup/6A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9/Library");
    let app = max.join("data/data/ch.swisscows.messenger.teleguardapp/app_flutter");
    for d in [&lib, &app] {
        std::fs::create_dir_all(d).unwrap();
    }
    let (zdb, ztemp, mdb) = (
        lib.join("teleguard_database.db"),
        lib.join("teleguard_temp.db"),
        app.join("teleguard_database.db"),
    );
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(WRITE)
        .args([s(&zdb), s(&ztemp), s(&mdb), ZOE, MAX])
        .status()
        .unwrap();
    assert!(st.success());
    std::fs::create_dir_all(zoe.join("private/var/mobile/Library")).unwrap();
    std::fs::create_dir_all(max.join("data/system/users/0")).unwrap();
    // a truncated copy and another app's file of that name
    let bytes = std::fs::read(&mdb).unwrap();
    let cut = max.join("data/user/10/ch.swisscows.messenger.teleguardapp/app_flutter");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::write(cut.join("teleguard_database.db"), &bytes[..bytes.len() / 3]).unwrap();
    let other = max.join("data/user/11/ch.swisscows.messenger.teleguardapp/app_flutter");
    std::fs::create_dir_all(&other).unwrap();
    crate::ios_nearby::sqlite3(
        &other.join("teleguard_database.db"),
        "CREATE TABLE kv (k TEXT); INSERT INTO kv VALUES ('x');",
    );
    let run = triage(&[
        ("zoe-iphone", &zoe, "Europe/Zurich", Some("CH")),
        ("max", &max, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("zoe-iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let tg: Vec<masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("TeleGuard"))
        .cloned()
        .collect();
    for (prefix, sql, key, rows) in [
        (
            "TeleGuard",
            "SELECT createDate, userTime, type, sender, receiver, content, metadata, status, isEdited, chatId FROM messages",
            0,
            5,
        ),
        (
            "TeleGuard call",
            "SELECT createDate, json_extract(metadata, '$.callType'), json_extract(metadata, '$.isSuccessfull'), json_extract(metadata, '$.subtext'), json_extract(metadata, '$.membersText'), content, sender, chatId, id FROM messages WHERE type = 'CALL'",
            0,
            1,
        ),
        (
            "TeleGuard chat event",
            "SELECT createDate, content, sender, chatId, id FROM messages WHERE type = 'SERVICE'",
            0,
            1,
        ),
        (
            "TeleGuard contact",
            "SELECT lastActivityTime, serverId, alias, type, color, options, info, lastVisitTime, personalId FROM contacts",
            1,
            1,
        ),
        (
            "TeleGuard channel post",
            "SELECT createDate, channelId, header, content, type, localStatus, viewsCount, likesCount, dislikesCount, metadata, media FROM posts",
            0,
            1,
        ),
        ("TeleGuard channel Swiss", "SELECT * FROM channels", 0, 1),
        (
            "TeleGuard account",
            "SELECT json_extract(data, '$.serverId'), json_extract(data, '$.alias'), json_extract(data, '$.userId'), json_extract(data, '$.personalId'), json_extract(data, '$.avatarRefId'), (SELECT json_extract(data, '$.currentPhone') FROM service WHERE id = 'settings') FROM service WHERE id = 'user'",
            0,
            1,
        ),
    ] {
        let found: Vec<&masf_graph::Phenomenon> = tg
            .iter()
            .filter(|p| {
                // the messages oracle: the messages table's rows only
                let of_messages =
                    prefix != "TeleGuard" || p.interpretation.starts_with("messages row");
                p.title.starts_with(prefix) && of_messages
            })
            .collect();
        assert_eq!(
            crate::android_support::rows_in(&found, &zdb, sql, key, ""),
            rows,
            "{prefix}"
        );
    }
    assert_eq!(
        check(
            &all,
            "TeleGuard draft",
            &ztemp,
            "SELECT serverId, text FROM draft",
            1
        ),
        1
    );
    assert!(all.iter().any(|p| p.title == "TeleGuard draft to Max"
        && p.verified_facts.iter().any(|f| f.value == "Max")));
    // the keys are said, never copied
    assert!(!all.iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value.contains("SECRETKEYBODY"))
    }));
    assert!(all.iter().any(|p| {
        p.interpretation
            .contains("a public and a private key is stored (not copied)")
    }));
    assert!(all.iter().any(|p| p.title == "TeleGuard message to Max"));
    assert!(all.iter().any(|p| p.title == "TeleGuard call from Max"));
    // Max's older store
    let mall = run.all_phenomena("max");
    assert_eq!(
        check(
            &mall,
            "TeleGuard message",
            &mdb,
            "SELECT createDate, type, sender, receiver, content, status, chatId FROM messages",
            0
        ),
        2
    );
    assert!(
        run.owner("max").contains("phone=+41795550177"),
        "{}",
        run.owner("max")
    );
    run.assert_noted(
        "max",
        &[
            (
                "user/10/ch.swisscows.messenger.teleguardapp/app_flutter/teleguard_database.db",
                "malformed",
            ),
            (
                "user/11/ch.swisscows.messenger.teleguardapp/app_flutter/teleguard_database.db",
                "none of the tables",
            ),
        ],
    );
    // who is who across platforms, by the server ids
    assert!(
        run.owner("zoe-iphone")
            .to_lowercase()
            .contains(&format!("account_id=teleguard:{}", ZOE.to_lowercase())),
        "{}",
        run.owner("zoe-iphone")
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("zoe-iphone/owner", format!("max/teleguard:{ZOE}")),
        ("max/owner", format!("zoe-iphone/teleguard:{MAX}")),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    // Max wrote the wallet to Zoe: his claim on both phones
    assert!(
        run.owner("max")
            .contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
    );
}
