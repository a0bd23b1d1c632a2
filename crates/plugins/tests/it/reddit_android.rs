//! Reddit on Android (`android::reddit`): Lena's phone and Omar's, who chat on Reddit, their
//! stores written by Python's `sqlite3` with the tables and columns ALEAPP's nine `reddit`
//! artefacts read (no public copy is in the corpus): Lena's with every store (the account and
//! communities of `reddit_db_<account>`, `matrix_auth`, `matrix-users-db`, a
//! `matrix_session_<id>` with a message, an image, a reaction, a deletion and membership
//! events), Omar's of an older layout (no users store, no account store, events without
//! `redacts`, rooms without a topic). Every row and field of ALEAPP's queries (by the sqlite3
//! CLI) is found; each phone's user is the other's chat partner by `reddit:t2_<id>`. Beside
//! them a truncated session store and a store of another app's schema, noted.

use std::path::Path;

use crate::android_support::{check, triage};

pub(crate) const LENA: &str = "@t2_1w7k2q9:reddit.com";
pub(crate) const OMAR: &str = "@t2_8hz3m0p:reddit.com";

/// argv: Lena's databases folder, Omar's.
pub(crate) const WRITE: &str = r#"
import json, sqlite3, sys, os
lena, omar, LENA, OMAR = sys.argv[1:5]
ROOM = "!dm-88:reddit.com"
def session(path, older, own, other, own_name, other_name):
    db = sqlite3.connect(path)
    redacts = "" if older else ", redacts TEXT"
    topic = "" if older else ", topic TEXT"
    db.executescript(f"""
CREATE TABLE event (eventId TEXT PRIMARY KEY, roomId TEXT, type TEXT, content TEXT, sender TEXT, originServerTs INTEGER, stateKey TEXT{redacts});
CREATE TABLE timeline_event (localId INTEGER PRIMARY KEY, eventId TEXT, roomId TEXT, senderName TEXT, displayIndex INTEGER);
CREATE TABLE room_member_summary (roomId TEXT, userId TEXT, displayName TEXT, avatarUrl TEXT, reason TEXT, membershipStr TEXT, isDirect INTEGER);
CREATE TABLE room_summary (roomId TEXT PRIMARY KEY, displayName TEXT, roomType TEXT, isDirect INTEGER, directUserId TEXT, joinedMembersCount INTEGER, invitedMembersCount INTEGER, hasUnreadMessages INTEGER, lastActivityTime INTEGER{topic});
""")
    events = [
        ("$m1", "m.room.member", {"membership": "join", "displayname": own_name}, own, 1701340000000, own),
        ("$m2", "m.room.member", {"membership": "join", "displayname": other_name}, other, 1701340001000, other),
        ("$e1", "m.room.message", {"msgtype": "m.text", "body": "Send the 0.01 BTC to bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"}, OMAR, 1701340800000, None),
        ("$e2", "m.room.message", {"msgtype": "m.image", "body": "keys.jpg", "url": "mxc://reddit.com/abc123", "com.reddit.blurred_url": "https://i.redd.it/blur/abc123.jpg", "info": {"w": 1024, "h": 768, "mimetype": "image/jpeg"}}, LENA, 1701340860000, None),
        ("$e3", "m.reaction", {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$e1", "key": "👍"}}, LENA, 1701340900000, None),
        ("$e4", "m.room.message", {}, OMAR, 1701340950000, None),
    ]
    for eid, typ, content, sender, ts, sk in events:
        if older:
            db.execute("INSERT INTO event VALUES (?, ?, ?, ?, ?, ?, ?)", (eid, ROOM, typ, json.dumps(content, ensure_ascii=False), sender, ts, sk))
        else:
            db.execute("INSERT INTO event VALUES (?, ?, ?, ?, ?, ?, ?, NULL)", (eid, ROOM, typ, json.dumps(content, ensure_ascii=False), sender, ts, sk))
        db.execute("INSERT INTO timeline_event (eventId, roomId, senderName) VALUES (?, ?, NULL)", (eid, ROOM))
    if not older:
        db.execute("INSERT INTO event VALUES ('$e5', ?, 'm.room.redaction', '{}', ?, 1701340960000, NULL, '$e4')", (ROOM, OMAR))
        db.execute("INSERT INTO timeline_event (eventId, roomId, senderName) VALUES ('$e5', ?, NULL)", (ROOM,))
    for uid, name in [(own, own_name), (other, other_name)]:
        db.execute("INSERT INTO room_member_summary VALUES (?, ?, ?, NULL, NULL, 'JOIN', 1)", (ROOM, uid, name))
    if older:
        db.execute("INSERT INTO room_summary VALUES (?, ?, 'direct', 1, ?, 2, 0, 0, 1701340960000)", (ROOM, other_name, other))
    else:
        db.execute("INSERT INTO room_summary VALUES (?, ?, 'direct', 1, ?, 2, 0, 1, 1701340960000, 'flat keys')", (ROOM, other_name, other))
    db.commit()
def auth(path, uid):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE session_params (sessionId TEXT PRIMARY KEY, userId TEXT, credentialsJson TEXT, homeServerConnectionConfigJson TEXT, isTokenValid INTEGER, date INTEGER)")
    db.execute("INSERT INTO session_params VALUES ('sess-9', ?, '{\"accessToken\": \"SECRETTOKEN\"}', ?, 1, 1701300000000)", (uid, json.dumps({"homeServerUri": "https://matrix.redditspace.com/"})))
    db.commit()
session(os.path.join(lena, "matrix_session_3f2a"), False, LENA, OMAR, "lena_k", "omar_b")
auth(os.path.join(lena, "matrix_auth"), LENA)
db = sqlite3.connect(os.path.join(lena, "matrix-users-db"))
db.execute("CREATE TABLE RedditUserEntity (redditId TEXT PRIMARY KEY, matrixId TEXT, name TEXT, totalKarma INTEGER, cakeday INTEGER, isNsfw INTEGER, isBlocked INTEGER, isAcceptingChats INTEGER, profileIconUrl TEXT, insertTimestamp INTEGER)")
db.execute("INSERT INTO RedditUserEntity VALUES ('t2_8hz3m0p', ?, 'omar_b', 5120, 1500000000, 0, 0, 1, 'https://styles.redditmedia.com/o.png', 1701340001000)", (OMAR,))
db.execute("INSERT INTO RedditUserEntity VALUES ('t2_1w7k2q9', ?, 'lena_k', 310, 1600000000, 0, 0, 1, NULL, 1701340000500)", (LENA,))
db.commit()
db = sqlite3.connect(os.path.join(lena, "reddit_db_lena_k"))
db.executescript("""
CREATE TABLE account (accountId TEXT PRIMARY KEY, name TEXT, createdUtc INTEGER, email TEXT, hasVerifiedEmail INTEGER, phoneCountryCode TEXT, phoneMaskedNumber TEXT, linkKarma INTEGER, commentKarma INTEGER, totalKarma INTEGER, isPremiumSubscriber INTEGER, premiumSinceUtc INTEGER, isMod INTEGER, isEmployee INTEGER, isSuspended INTEGER, coins INTEGER, acceptChats INTEGER, acceptPrivateMessages INTEGER);
CREATE TABLE subreddit (subredditId TEXT PRIMARY KEY, displayNamePrefixed TEXT, title TEXT, subredditType TEXT, subscribers INTEGER, accountsActive INTEGER, publicDescription TEXT, subredditKindWithId TEXT, createdUtc INTEGER);
""")
db.execute("INSERT INTO account VALUES ('1w7k2q9', 'lena_k', 1600000000, 'lena.k@posteo.de', 1, '+49', '*******4417', 120, 190, 310, 0, NULL, 0, 0, 0, 0, 1, 1)")
db.execute("INSERT INTO subreddit VALUES ('2qh1i', 'r/berlin', 'Berlin', 'public', 410000, 812, 'Alles über Berlin', 't5_2qh1i', 1201233000)")
db.commit()
session(os.path.join(omar, "matrix_session_77c1"), True, OMAR, LENA, "omar_b", "lena_k")
auth(os.path.join(omar, "matrix_auth"), OMAR)
"#;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn reddit_on_two_android_phones_of_two_layouts() {
    let tmp = tempfile::tempdir().unwrap();
    let (lena, omar) = (tmp.path().join("lena"), tmp.path().join("omar"));
    let dbs = |root: &Path| root.join("data/data/com.reddit.frontpage/databases");
    for r in [&lena, &omar] {
        std::fs::create_dir_all(dbs(r)).unwrap();
        std::fs::create_dir_all(r.join("data/system/users/0")).unwrap();
    }
    let st = std::process::Command::new("python3")
        .args(["-c", WRITE, s(&dbs(&lena)), s(&dbs(&omar)), LENA, OMAR])
        .status()
        .unwrap();
    assert!(st.success());
    // a truncated copy of Omar's session store and another schema under Reddit's name
    let other = omar.join("data/user/10/com.reddit.frontpage/databases");
    std::fs::create_dir_all(&other).unwrap();
    let bytes = std::fs::read(dbs(&omar).join("matrix_session_77c1")).unwrap();
    std::fs::write(other.join("matrix_session_cut"), &bytes[..bytes.len() / 3]).unwrap();
    crate::ios_nearby::sqlite3(
        &other.join("reddit_db_ghost"),
        "CREATE TABLE kv (k TEXT); INSERT INTO kv VALUES ('x');",
    );
    let run = triage(&[
        ("lena", &lena, "Europe/Berlin", Some("DE")),
        ("omar", &omar, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let l = dbs(&lena);
    let all = run.all_phenomena("lena");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let session = l.join("matrix_session_3f2a");
    // ALEAPP's chat messages, then every event
    assert_eq!(
        check(
            &all.iter()
                .filter(|p| p.title.starts_with("Reddit chat message"))
                .cloned()
                .collect::<Vec<_>>(),
            "Reddit chat message",
            &session,
            "SELECT e.eventId, e.originServerTs, e.sender, COALESCE(rms.displayName, te.senderName, e.sender), json_extract(e.content, '$.body'), json_extract(e.content, '$.msgtype'), json_extract(e.content, '$.url'), json_extract(e.content, '$.\"com.reddit.blurred_url\"'), json_extract(e.content, '$.info.w'), json_extract(e.content, '$.info.h'), json_extract(e.content, '$.info.mimetype'), e.roomId FROM timeline_event te LEFT JOIN event e ON te.eventId = e.eventId LEFT JOIN room_member_summary rms ON e.sender = rms.userId AND rms.roomId = te.roomId WHERE e.type = 'm.room.message'",
            0
        ),
        3
    );
    let events = |all: &[masf_graph::Phenomenon]| -> Vec<masf_graph::Phenomenon> {
        all.iter()
            .filter(|p| p.interpretation.starts_with("event row"))
            .cloned()
            .collect()
    };
    assert_eq!(
        check(
            &events(&all),
            "Reddit chat ",
            &session,
            "SELECT e.eventId, e.originServerTs, e.type, e.sender, e.redacts, e.stateKey, e.roomId FROM event e",
            0
        ),
        7
    );
    assert!(all.iter().any(|p| p.title == "Reddit chat message sent"
        && p.verified_facts.iter().any(|f| f.value == "keys.jpg")));
    assert!(
        all.iter()
            .any(|p| p.title == "Reddit chat message from omar_b"
                && p.interpretation.contains("whose content was removed"))
    );
    assert!(
        all.iter()
            .any(|p| p.title.starts_with("Reddit chat reaction")
                && p.verified_facts.iter().any(|f| f.value == "👍"))
    );
    for (prefix, db, sql, key, rows) in [
        (
            "Reddit chat room",
            "matrix_session_3f2a",
            "SELECT roomId, lastActivityTime, displayName, roomType, isDirect, directUserId, joinedMembersCount, invitedMembersCount, topic, hasUnreadMessages FROM room_summary",
            0,
            1,
        ),
        (
            "Reddit chat member",
            "matrix_session_3f2a",
            "SELECT userId, displayName, membershipStr, isDirect, reason, roomId FROM room_member_summary",
            0,
            2,
        ),
        (
            "Reddit user",
            "matrix-users-db",
            "SELECT redditId, insertTimestamp, name, matrixId, totalKarma, cakeday, isNsfw, isBlocked, isAcceptingChats, profileIconUrl FROM RedditUserEntity",
            0,
            2,
        ),
        (
            "Reddit account",
            "reddit_db_lena_k",
            "SELECT accountId, createdUtc, name, email, hasVerifiedEmail, phoneCountryCode, phoneMaskedNumber, linkKarma, commentKarma, totalKarma, isPremiumSubscriber, isMod, isEmployee, isSuspended, coins, acceptChats, acceptPrivateMessages FROM account",
            0,
            1,
        ),
        (
            "Reddit community",
            "reddit_db_lena_k",
            "SELECT displayNamePrefixed, createdUtc, title, subredditType, subscribers, accountsActive, publicDescription, subredditId, subredditKindWithId FROM subreddit",
            0,
            1,
        ),
        (
            "Reddit chat session",
            "matrix_auth",
            "SELECT userId, date, sessionId, json_extract(homeServerConnectionConfigJson, '$.homeServerUri'), isTokenValid FROM session_params",
            0,
            1,
        ),
    ] {
        assert_eq!(check(&all, prefix, &l.join(db), sql, key), rows, "{prefix}");
    }
    // the access token is never copied
    assert!(!all.iter().any(|p| {
        p.verified_facts
            .iter()
            .any(|f| f.value.contains("SECRETTOKEN"))
    }));
    let owner = run.owner("lena").to_lowercase();
    for id in [
        "account_id=reddit:t2_1w7k2q9",
        "account_id=reddit-user:lena_k",
        "email=lena.k@posteo.de",
    ] {
        assert!(owner.contains(id), "{id} in {owner}");
    }
    // Omar's older layout
    let oall = run.all_phenomena("omar");
    assert_eq!(
        check(
            &events(&oall),
            "Reddit chat ",
            &dbs(&omar).join("matrix_session_77c1"),
            "SELECT e.eventId, e.originServerTs, e.type, e.sender, e.stateKey, e.roomId FROM event e",
            0
        ),
        6
    );
    assert!(
        oall.iter()
            .any(|p| p.title == "Reddit chat message from lena_k")
    );
    run.assert_noted(
        "omar",
        &[
            (
                "user/10/com.reddit.frontpage/databases/matrix_session_cut",
                "malformed",
            ),
            (
                "user/10/com.reddit.frontpage/databases/reddit_db_ghost",
                "none of the tables",
            ),
        ],
    );
    // who is who: each phone's user is the other's chat partner
    let with = crate::who::resolved(&run);
    assert!(
        with("lena/owner").contains(&"omar/reddit:t2_1w7k2q9".to_string()),
        "{:#?}",
        with("lena/owner")
    );
    assert!(
        with("omar/owner").contains(&"lena/reddit:t2_8hz3m0p".to_string()),
        "{:#?}",
        with("omar/owner")
    );
    // Omar wrote the wallet to Lena: his claim, on his phone (sent) and on hers (received)
    assert!(
        run.owner("omar")
            .contains("wallet=bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"),
        "{}",
        run.owner("omar")
    );
}
