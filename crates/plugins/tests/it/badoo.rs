//! Badoo on Android (`android::bumble`, the chat platform Badoo shares with Bumble): two phones'
//! `ChatComDatabase` and `CombinedConnectionsDatabase` built by the sqlite3 CLI with the columns
//! ALEAPP's Badoo modules query (no public copy is in the corpus), the second phone's of an
//! older layout (no direction, photos, work or education). Every row and field of ALEAPP's
//! get_badoo_chat, get_badoo_messages (its partner mapping by encrypted user id, its payload
//! reading by type: text, question-game answers, media URL) and get_badoo_conn (the sqlite3
//! CLI) is found; Dana's phone's user is the one sender of its outgoing messages, and resolves
//! with the match Ravi's phone keeps for her. Beside them a truncated copy and a store of
//! another layout (noted), and Bumble's reading of its own store is unchanged (bumble.rs).

use crate::android_support::{check, rows_in, triage};

const DANA_CHAT: &str = "CREATE TABLE message (id TEXT PRIMARY KEY, conversation_id TEXT, sender_id TEXT, recipient_id TEXT, created_timestamp INTEGER, modified_timestamp INTEGER, payload_type TEXT, payload TEXT, is_incoming INTEGER);
CREATE TABLE conversation_info (user_id TEXT PRIMARY KEY, gender INTEGER, user_name TEXT, user_image_url TEXT, age INTEGER, user_photos TEXT, work TEXT, education TEXT, encrypted_user_id TEXT);
INSERT INTO conversation_info VALUES ('618830555', 0, 'Ravi', 'https://pd.badoocdn.example/p/ravi.jpg', 34, '[{\"id\":\"1\",\"url\":\"https://pd.badoocdn.example/p/ravi-1.jpg\"},{\"id\":\"2\",\"url\":\"https://pd.badoocdn.example/p/ravi-2.jpg\"}]', 'Freight broker', 'University of Leeds', 'zAhMACjYxODgzMDU1NQ');
INSERT INTO conversation_info VALUES ('618830777', 1, 'Lena', NULL, 29, '[]', NULL, NULL, 'zAhMACjYxODgzMDc3Nw');
INSERT INTO message VALUES ('m1', '618830555', 'zAhMACjYxODgzMDIyMQ', 'zAhMACjYxODgzMDU1NQ', 1701340800000, 1701340800000, 'TEXT', '{\"text\":\"send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 first\"}', 0);
INSERT INTO message VALUES ('m2', '618830555', 'zAhMACjYxODgzMDU1NQ', 'zAhMACjYxODgzMDIyMQ', 1701340860000, 1701340900000, 'QUESTION_GAME', '{\"text\":\"Beach or mountains?\",\"answer_own\":\"Mountains\",\"answer_other\":\"Beach\"}', 1);
INSERT INTO message VALUES ('m3', '618830555', 'zAhMACjYxODgzMDU1NQ', 'zAhMACjYxODgzMDIyMQ', 1701340920000, 1701340920000, 'IMAGE', '{\"url\":\"https://pd.badoocdn.example/m/m3.jpg\"}', 1);
INSERT INTO message VALUES ('m4', '618830777', 'zAhMACjYxODgzMDc3Nw', 'zAhMACjYxODgzMDIyMQ', 1701200000000, 1701200000000, 'AUDIO', '{\"url\":\"https://pd.badoocdn.example/a/m4.m4a\"}', 1);";

const DANA_CONNECTIONS: &str = "CREATE TABLE connection (id TEXT PRIMARY KEY, name TEXT, gender TEXT, origin TEXT, sort_timestamp INTEGER, avatar_url TEXT, display_message TEXT);
INSERT INTO connection VALUES ('618830555', 'Ravi', 'MALE', 'MESSAGES', 1701340920000, 'https://pd.badoocdn.example/p/ravi.jpg', 'Photo');
INSERT INTO connection VALUES ('618830999', 'Tom', 'MALE', 'PROFILE_VISITORS', 1701100000000, NULL, NULL);";

const RAVI_CHAT: &str = "CREATE TABLE message (id TEXT PRIMARY KEY, sender_id TEXT, recipient_id TEXT, created_timestamp INTEGER, payload_type TEXT, payload TEXT);
CREATE TABLE conversation_info (user_id TEXT PRIMARY KEY, gender INTEGER, user_name TEXT, user_image_url TEXT, age INTEGER, encrypted_user_id TEXT);
INSERT INTO conversation_info VALUES ('618830221', 1, 'Dana', NULL, 33, 'zAhMACjYxODgzMDIyMQ');
INSERT INTO message VALUES ('m1', 'zAhMACjYxODgzMDIyMQ', 'zAhMACjYxODgzMDU1NQ', 1701340800000, 'TEXT', '{\"text\":\"send 0.5 ETH to 0x52908400098527886E0F7030069857D2E4169EE7 first\"}');
INSERT INTO message VALUES ('m2', 'zAhMACjYxODgzMDU1NQ', 'zAhMACjYxODgzMDIyMQ', 1701340860000, 'TEXT', '{\"text\":\"done\"}');";

/// ALEAPP's get_badoo_messages: the partner is the user whose encrypted id is the sender's,
/// else the recipient's; the message by payload type (text; a question game's text and both
/// answers; a media message's URL). Times as stored.
const MESSAGES: &str = "SELECT m.created_timestamp, COALESCE((SELECT user_name FROM conversation_info WHERE encrypted_user_id = m.sender_id), (SELECT user_name FROM conversation_info WHERE encrypted_user_id = m.recipient_id)), m.sender_id, m.recipient_id, m.payload_type, \
CASE WHEN m.payload_type IN ('TEXT', 'QUESTION_GAME') THEN json_extract(m.payload, '$.text') END, \
CASE WHEN m.payload_type = 'QUESTION_GAME' THEN json_extract(m.payload, '$.answer_own') END, \
CASE WHEN m.payload_type = 'QUESTION_GAME' THEN json_extract(m.payload, '$.answer_other') END, \
CASE WHEN m.payload_type IN ('INSTANT_VIDEO', 'AUDIO', 'IMAGE') THEN json_extract(m.payload, '$.url') END FROM message m";

/// ALEAPP's get_badoo_chat (gender as stored: it words 0 Male, 1 Female, else Other).
const CHATS: &str = "SELECT user_id, gender, user_name, user_image_url, age, work, education, encrypted_user_id FROM conversation_info";

#[test]
fn badoo_messages_matches_and_connections_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let rel = "com.badoo.mobile/databases/ChatComDatabase";
    let (a, b) = (tmp.path().join("dana"), tmp.path().join("ravi"));
    let (adb, bdb) = (a.join("data/data").join(rel), b.join("data/data").join(rel));
    let conn = a.join("data/data/com.badoo.mobile/databases/CombinedConnectionsDatabase");
    crate::ios_nearby::sqlite3(&adb, DANA_CHAT);
    crate::ios_nearby::sqlite3(&conn, DANA_CONNECTIONS);
    crate::ios_nearby::sqlite3(&bdb, RAVI_CHAT);
    crate::android_support::damaged_copies(
        &a,
        rel,
        "CREATE TABLE message (id TEXT, body TEXT); INSERT INTO message VALUES ('1', 'x');",
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
    assert_eq!(check(&all, "Badoo message", &adb, MESSAGES, 0), 4);
    // the photo URLs of user_photos, one a fact (ALEAPP lists them one a line)
    let matches: Vec<&masf_graph::Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Badoo match"))
        .collect();
    assert_eq!(rows_in(&matches, &adb, CHATS, 0, ""), 2);
    assert_eq!(matches.len(), 2);
    assert_eq!(
        rows_in(
            &matches,
            &adb,
            "SELECT user_id, (SELECT group_concat(json_extract(p.value, '$.url'), '|') FROM json_each(user_photos) p) FROM conversation_info WHERE json_array_length(user_photos) > 0",
            0,
            "|"
        ),
        1
    );
    assert_eq!(
        check(
            &all,
            "Badoo connection",
            &conn,
            "SELECT id, name, gender, origin, sort_timestamp, avatar_url, display_message FROM connection",
            0
        ),
        2
    );
    assert!(all.iter().any(|p| p.title == "Badoo message sent to Ravi"));
    assert!(all.iter().any(|p| p.title == "Badoo message from Lena"));
    let ball = run.all_phenomena("ravi");
    assert_eq!(
        check(
            &ball,
            "Badoo message with",
            &bdb,
            "SELECT created_timestamp, (SELECT user_name FROM conversation_info WHERE encrypted_user_id IN (m.sender_id, m.recipient_id)), sender_id, recipient_id, payload_type, json_extract(payload, '$.text') FROM message m",
            0
        ),
        2
    );
    assert_eq!(
        check(
            &ball,
            "Badoo match",
            &bdb,
            "SELECT user_id, gender, user_name, age, encrypted_user_id FROM conversation_info",
            0
        ),
        1
    );
    // Dana is the one sender of her phone's outgoing messages, by her encrypted id; Ravi's
    // phone keeps her as a match by user id and encrypted id: one person
    let owner = run.owner("dana");
    assert!(
        owner.contains("account_id=badoo:zahmacjyxodgzmdiymq")
            || owner.contains("account_id=badoo:zAhMACjYxODgzMDIyMQ"),
        "{owner}"
    );
    assert!(
        owner.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7"),
        "{owner}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("dana/owner", "ravi/badoo:618830221"),
        ("dana/badoo:618830555", "dana/badoo:zAhMACjYxODgzMDU1NQ"),
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
                "user/10/com.badoo.mobile/databases/ChatComDatabase",
                "malformed",
            ),
            (
                "user/11/com.badoo.mobile/databases/ChatComDatabase",
                "table message lacks created_timestamp, sender_id",
            ),
        ],
    );
}
