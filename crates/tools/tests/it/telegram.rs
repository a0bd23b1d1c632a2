//! Telegram's stored messages (`sqlite_query`'s `telegram` option, `masf_tools::tl`) on the
//! public samples of Telegram for Android message BLOBs (tsusanka/telegram-extractor, in the
//! corpus): read field by field, inside a `cache4.db` built at test time by the sqlite3 CLI with
//! the 2016 client's `messages` table; truncations and the other sample blobs read as nothing.

use std::process::Command;

use masf_testkit::corpus;
use masf_tools::SourceCtx;
use serde_json::{Value, json};

use crate::support::run;

const SAMPLES: [&str; 2] = [
    "android/telegram/telegramextractor-regular-message-1.dat",
    "android/telegram/telegramextractor-regular-message-2.dat",
];

#[test]
fn stored_secret_chat_messages_are_read_field_by_field() {
    let m: Vec<Value> = SAMPLES
        .iter()
        .map(|s| {
            serde_json::from_str(&masf_tools::tl::message_cell(&corpus::bytes(s)).unwrap()).unwrap()
        })
        .collect();
    assert_eq!(
        m[0],
        json!({"constructor": "0x555555f9", "read": "message_secret", "id": -210008, "out": true,
               "ttl": 0, "from": "telegram:262250033", "to": "telegram:62132081",
               "date": 1476521090, "text": "Hi how are you?"})
    );
    assert_eq!(m[1]["id"], -210004);
    assert_eq!(m[1]["date"], 1476291798);
    assert_eq!(m[1]["text"], "This is a very long message");
    // the secret chat's own record and the connection config are no messages
    for other in [
        "android/telegram/telegramextractor-encrypted-chat-info.dat",
        "android/telegram/telegramextractor-tgnet.dat",
    ] {
        assert_eq!(
            masf_tools::tl::message_cell(&corpus::bytes(other)),
            None,
            "{other}"
        );
    }
    // every truncation reads as nothing or as the same message, never as something else
    for s in SAMPLES {
        let b = corpus::bytes(s);
        let whole = masf_tools::tl::message_cell(&b).unwrap();
        for cut in 0..b.len() {
            if let Some(got) = masf_tools::tl::message_cell(&b[..cut]) {
                let got: Value = serde_json::from_str(&got).unwrap();
                let whole: Value = serde_json::from_str(&whole).unwrap();
                assert_eq!(got["text"], whole["text"], "{s} cut at {cut}");
                assert_eq!(got["date"], whole["date"], "{s} cut at {cut}");
            }
        }
    }
}

#[test]
fn sqlite_query_renders_message_blobs_of_a_cache4_db() {
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("data/org.telegram.messenger/files");
    std::fs::create_dir_all(&files).unwrap();
    let db = files.join("cache4.db");
    let hex = |s: &str| {
        corpus::bytes(s)
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect::<String>()
    };
    let sql = format!(
        "CREATE TABLE messages(mid INTEGER PRIMARY KEY, uid INTEGER, read_state INTEGER, send_state INTEGER, date INTEGER, data BLOB, out INTEGER, ttl INTEGER, media INTEGER, replydata BLOB, imp INTEGER);
INSERT INTO messages VALUES (-210008, 266858154349936640, 0, 0, 1476521090, X'{}', 1, 0, 0, NULL, 0);
INSERT INTO messages VALUES (-210004, 266858154349936640, 0, 0, 1476291798, X'{}', 1, 0, 0, NULL, 0);
INSERT INTO messages VALUES (1, 62132081, 0, 0, 1476291800, X'00010203', 0, 0, 0, NULL, 0);",
        hex(SAMPLES[0]),
        hex(SAMPLES[1])
    );
    let out = Command::new("sqlite3").arg(&db).arg(sql).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ctx = SourceCtx::open("s", tmp.path()).unwrap();
    let out = run(
        &ctx,
        "sqlite_query",
        json!({"path": "/data/org.telegram.messenger/files/cache4.db", "telegram": true,
               "sql": "SELECT mid, date, out, data FROM messages ORDER BY mid"}),
    );
    let lines: Vec<&str> = out.text.lines().collect();
    assert_eq!(lines[0], "mid\tdate\tout\tdata");
    assert!(
        lines[1].starts_with("-210008\t1476521090\t1\ttl:{"),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("\"text\":\"Hi how are you?\""));
    assert!(lines[1].contains("\"from\":\"telegram:262250033\""));
    assert!(lines[2].contains("\"text\":\"This is a very long message\""));
    // a blob that is no message stays hex
    assert!(lines[3].ends_with("\tx'00010203'"), "{}", lines[3]);
}

/// Telethon's objects of five TL layers (`tests/fixtures/android-telegram/telethon-blobs.json`,
/// written by its `telethon_blobs.py` under Telethon 1.10.10 … 1.40.0): every message gives its
/// date and text; the sender and the conversation come out wherever the object has them (an
/// `int` sender in layer 106, a `Peer` since, 64-bit ids from 133, `flags2` from 181), a channel
/// post has no sender; every user is read with its id, names, user name and phone.
#[test]
fn telethon_objects_of_five_layers_give_sender_conversation_and_user() {
    let path = masf_testkit::corpus::repo_root()
        .join("tests/fixtures/android-telegram/telethon-blobs.json");
    let text = std::fs::read_to_string(path).unwrap();
    let layers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        layers
            .iter()
            .map(|l| l["layer"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [106, 125, 133, 167, 214]
    );
    let hex = |v: &Value| -> Vec<u8> {
        let s = v.as_str().unwrap();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    };
    for l in &layers {
        let layer = l["layer"].as_i64().unwrap();
        let m: Vec<Value> = l["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| serde_json::from_str(&masf_tools::tl::message_cell(&hex(b)).unwrap()).unwrap())
            .collect();
        let base = 1_764_200_000 + layer * 100;
        let expect = [
            (
                Some("telegram:777000111"),
                "telegram-chat:4242",
                false,
                "my ETH address is 0xde709f2102306220921060314715629080e2fb77",
            ),
            (
                Some("telegram:1500000999"),
                "telegram-chat:4242",
                true,
                "noted, sending now",
            ),
            (
                Some("telegram:300400500"),
                "telegram-channel:1777000222",
                false,
                "rate 7.82 today",
            ),
            (
                None,
                "telegram-channel:1777000222",
                false,
                "desk closed tomorrow",
            ),
            (
                Some("telegram:62132081"),
                "telegram:1500000999",
                false,
                "hi Lin",
            ),
        ];
        for (i, (from, to, out, text)) in expect.iter().enumerate() {
            let got = &m[i];
            assert_eq!(got["read"], "date-anchored", "layer {layer} #{i}");
            assert_eq!(got["from"].as_str(), *from, "layer {layer} #{i}: {got}");
            assert_eq!(got["to"], *to, "layer {layer} #{i}: {got}");
            assert_eq!(got["out"], *out, "layer {layer} #{i}");
            assert_eq!(got["id"], 10 * (i as i64 + 1) + layer, "layer {layer} #{i}");
            assert_eq!(got["date"], base + i as i64 + 1, "layer {layer} #{i}");
            assert_eq!(
                got["text"],
                format!("{text} (layer {layer})"),
                "layer {layer} #{i}"
            );
        }
        let users: Vec<Value> = l["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| serde_json::from_str(&masf_tools::tl::cell(&hex(b)).unwrap()).unwrap())
            .collect();
        assert_eq!(users[0]["id"], "telegram:1500000999", "layer {layer}");
        assert_eq!(users[0]["self"], true);
        assert_eq!(users[0]["username"], "lin_ho_otc");
        assert_eq!(users[0]["phone"], "85260001234");
        assert_eq!(users[1]["id"], "telegram:777000111");
        assert_eq!(users[1]["contact"], true);
        assert_eq!(users[1]["first_name"], "Ka Lok");
        assert_eq!(users[2]["last_name"], "Chan");
        // the stand-in access hash never comes out
        assert!(
            users
                .iter()
                .all(|u| !u.to_string().contains("81985529216486895"))
        );
        // a message cut inside its header gives no sender: nothing is made up
        let first = hex(&l["messages"][0]);
        for cut in 1..16.min(first.len()) {
            if let Some(v) = masf_tools::tl::message_cell(&first[..cut]) {
                panic!("layer {layer}: {cut} bytes read as {v}");
            }
        }
    }
}
