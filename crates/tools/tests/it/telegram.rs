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
