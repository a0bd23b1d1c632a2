//! TikTok and Douyin on Android (`android::tiktok`): KA WAI's phone with TikTok
//! (`com.zhiliaoapp.musically`: `<uid>_im.db`, `db_im_xx`, `db_im_contact`, built by the sqlite3
//! CLI from `tests/fixtures/tiktok/`) and LAM's phone with TikTok Lite's sibling
//! `com.ss.android.ugc.trill` signed in as the user KA WAI talks with, plus Douyin on the same
//! phone under another uid namespace. Every row and field of ALEAPP's TikTok messages and
//! contacts queries (run here by the CLI) is found; the two phones' users resolve to each other
//! by uid; a Douyin uid never joins a TikTok one; a message whose content is not JSON is still
//! read; a truncated store and one of another layout are noted; another app's `_im.db` is
//! passed over.

use std::path::Path;

use masf_graph::Phenomenon;

use crate::android_support::{Run, sqlite_fixture, triage};
use crate::browsers::sqlite3;

const KAWAI: &str = "6800000000000000001";
const LAM: &str = "6811111111111111111";

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn check(run: &Run, source: &str, dir: &Path, me: &str) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let msgs = sqlite3(
        &dir.join(format!("{me}_im.db")),
        "SELECT msg_uuid, created_time, sender, conversation_id, json_extract(content, '$.text'), json_extract(content, '$.display_name'), \
         json_extract(content, '$.url.url_list[0]') FROM msg WHERE json_valid(content)",
    );
    assert!(!msgs.is_empty());
    for row in &msgs {
        let p = all
            .iter()
            .find(|p| p.category == "messages" && has(p, &row[0]))
            .unwrap_or_else(|| panic!("{source}: message {}", row[0]));
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
        assert_eq!(p.title.contains(" sent to "), row[2] == me, "{}", p.title);
    }
    for (db, table) in [
        ("db_im_xx", "SIMPLE_USER"),
        ("db_im_contact", "IM_USER_BASE_INFO"),
    ] {
        if !dir.join(db).exists() {
            continue;
        }
        for row in sqlite3(
            &dir.join(db),
            &format!(
                "SELECT UID, NICK_NAME, UNIQUE_ID, CASE WHEN json_valid(AVATAR_THUMB) THEN json_extract(AVATAR_THUMB, '$.url_list[0]') END FROM {table}"
            ),
        ) {
            let p = all
                .iter()
                .find(|p| {
                    p.category != "messages"
                        && has(p, &row[0])
                        && p.verified_facts.iter().any(|f| f.value.ends_with(db))
                })
                .unwrap_or_else(|| panic!("{source}: {table} {}", row[0]));
            for v in &row[1..] {
                assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
            }
            assert_eq!(
                p.title.contains("(the device's user)"),
                row[0] == me,
                "{}",
                p.title
            );
        }
    }
}

#[test]
fn tiktok_and_douyin_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let kawai = tmp.path().join("kawai");
    let dir = kawai.join("data/data/com.zhiliaoapp.musically/databases");
    sqlite_fixture(
        &dir.join(format!("{KAWAI}_im.db")),
        "tiktok/im.sql",
        "SELECT 1;",
    );
    sqlite_fixture(&dir.join("db_im_xx"), "tiktok/db_im_xx.sql", "SELECT 1;");
    sqlite_fixture(
        &dir.join("db_im_contact"),
        "tiktok/db_im_contact.sql",
        "SELECT 1;",
    );
    // a truncated store, one of another layout, another app's _im.db
    let bytes = std::fs::read(dir.join(format!("{KAWAI}_im.db"))).unwrap();
    std::fs::write(
        dir.join("6899999999999999999_im.db"),
        &bytes[..bytes.len() / 3],
    )
    .unwrap();
    crate::ios_nearby::sqlite3(
        &dir.join("6888888888888888888_im.db"),
        "CREATE TABLE msg (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO msg VALUES (1, 'x');",
    );
    let other = kawai.join("data/data/com.example.chat/databases");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(
        dir.join(format!("{KAWAI}_im.db")),
        other.join(format!("{KAWAI}_im.db")),
    )
    .unwrap();
    std::fs::create_dir_all(kawai.join("data/system/users/0")).unwrap();

    // LAM's phone: TikTok (trill) signed in as LAM, talking with KA WAI; Douyin under the
    // same digits as KA WAI's uid, another service
    let lam = tmp.path().join("lam");
    let ldir = lam.join("data/data/com.ss.android.ugc.trill/databases");
    let swap = format!(
        "UPDATE msg SET sender = CASE sender WHEN {KAWAI} THEN {LAM} WHEN {LAM} THEN {KAWAI} ELSE sender END; \
         UPDATE msg SET conversation_id = replace(replace(replace(conversation_id, '{KAWAI}', 'A'), '{LAM}', '{KAWAI}'), 'A', '{LAM}');"
    );
    sqlite_fixture(&ldir.join(format!("{LAM}_im.db")), "tiktok/im.sql", &swap);
    let douyin = lam.join("data/data/com.ss.android.ugc.aweme/databases");
    sqlite_fixture(&douyin.join("db_im_xx"), "tiktok/db_im_xx.sql", "SELECT 1;");
    std::fs::create_dir_all(lam.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("kawai", &kawai, "Asia/Hong_Kong", Some("HK")),
        ("lam", &lam, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    check(&run, "kawai", &dir, KAWAI);
    check(&run, "lam", &ldir, LAM);

    let all = run.all_phenomena("kawai");
    assert!(
        all.iter()
            .any(|p| p.title == "TikTok message from x" && p.interpretation.contains("deleted 1")),
        "{:#?}",
        all.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    assert!(
        !all.iter().any(|p| p.category == "messages"
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.chat"))),
        "another app's _im.db was read"
    );
    let ents = run.entities("kawai");
    assert!(
        ents.iter()
            .any(|e| e.starts_with("owner [Person] device owner:")
                && e.contains(&format!("account_id=tiktok:{KAWAI}"))
                && e.contains("account_id=tiktok-user:kawai.hk")),
        "{ents:#?}"
    );
    assert!(
        ents.iter()
            .any(|e| e.starts_with(&format!("tiktok:{LAM} [Person]"))
                && e.contains("account_id=tiktok-user:lam.otc")
                && e.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")),
        "{ents:#?}"
    );
    assert!(
        run.entities("lam")
            .iter()
            .any(|e| e.starts_with(&format!("douyin:{KAWAI} [Person]"))),
        "{:#?}",
        run.entities("lam")
    );

    let with = crate::who::resolved(&run);
    assert!(
        with("kawai/owner").contains(&format!("lam/tiktok:{KAWAI}")),
        "{:#?}",
        with("kawai/owner")
    );
    assert!(
        with("lam/owner").contains(&format!("kawai/tiktok:{LAM}")),
        "{:#?}",
        with("lam/owner")
    );
    assert!(
        !with("kawai/owner").contains(&format!("lam/douyin:{KAWAI}")),
        "a Douyin uid joined a TikTok one: {:#?}",
        with("kawai/owner")
    );

    run.assert_noted(
        "kawai",
        &[
            ("6899999999999999999_im.db", "malformed"),
            (
                "6888888888888888888_im.db",
                "table msg lacks created_time, sender, content",
            ),
        ],
    );
}

/// The same service on an iPhone: LAM's `ChatFiles/<uid>/db.sqlite` and `AwemeIM.db`
/// (`tests/fixtures/tiktok/ios_*.sql`) beside KA WAI's Android phone. Every row and field of
/// iLEAPP's TikTok messages and contacts queries (run here by the CLI) is found; each phone's
/// user is the other's contact by uid.
#[test]
fn tiktok_on_an_android_phone_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let kawai = tmp.path().join("kawai");
    let dir = kawai.join("data/data/com.zhiliaoapp.musically/databases");
    sqlite_fixture(
        &dir.join(format!("{KAWAI}_im.db")),
        "tiktok/im.sql",
        "SELECT 1;",
    );
    sqlite_fixture(&dir.join("db_im_xx"), "tiktok/db_im_xx.sql", "SELECT 1;");
    std::fs::create_dir_all(kawai.join("data/system/users/0")).unwrap();
    let iphone = tmp.path().join("iphone");
    let app = iphone.join(
        "private/var/mobile/Containers/Data/Application/1C2D3E4F-5A6B-4C7D-8E9F-A0B1C2D3E4F5/Library/Application Support",
    );
    let chat = app.join(format!("ChatFiles/{LAM}/db.sqlite"));
    sqlite_fixture(&chat, "tiktok/ios_chat.sql", "SELECT 1;");
    let aweme = app.join("AwemeIM.db");
    sqlite_fixture(&aweme, "tiktok/ios_aweme.sql", "SELECT 1;");
    // another app's db.sqlite, and a chat folder whose store has another layout
    crate::ios_nearby::sqlite3(
        &app.join("Other/db.sqlite"),
        "CREATE TABLE t (x); INSERT INTO t VALUES (1);",
    );
    crate::ios_nearby::sqlite3(
        &app.join("ChatFiles/6877777777777777777/db.sqlite"),
        "CREATE TABLE TIMMessageORM (identifier TEXT, body TEXT);",
    );
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("kawai", &kawai, "Asia/Hong_Kong", Some("HK")),
        ("iphone", &iphone, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert_eq!(run.report("iphone").plugin.as_deref(), Some("ios"));
    let all = run.all_phenomena("iphone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let msgs: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("TikTok message "))
        .collect();
    let rows = sqlite3(
        &chat,
        "SELECT localCreatedAt, sender, CASE WHEN json_valid(content) THEN json_extract(content, '$.text') END, \
         CASE WHEN json_valid(content) THEN json_extract(content, '$.tips') END, serverCreatedAt, belongingConversationIdentifier FROM TIMMessageORM",
    );
    assert_eq!(msgs.len(), rows.len());
    for row in &rows {
        let p = msgs
            .iter()
            .find(|p| has(p, &row[0]) && has(p, &row[1]))
            .unwrap_or_else(|| panic!("{row:?}"));
        for v in &row[2..] {
            assert!(v.is_empty() || has(p, v), "{v} in {p:#?}");
        }
        assert_eq!(p.title.contains(" sent to "), row[1] == LAM, "{}", p.title);
    }
    for row in sqlite3(
        &aweme,
        "SELECT uid, customID, nickname, url1, latestChatTimestamp FROM AwemeContactsV5",
    ) {
        let p = all
            .iter()
            .find(|p| p.category != "messages" && has(p, &row[0]) && has(p, &row[2]))
            .unwrap_or_else(|| panic!("{row:?}"));
        for v in &row[1..] {
            assert!(has(p, v), "{v} in {p:#?}");
        }
        assert_eq!(
            p.title.contains("(the device's user)"),
            row[0] == LAM,
            "{}",
            p.title
        );
    }
    assert!(
        run.entities("iphone")
            .iter()
            .any(|e| e.starts_with("owner [Person] device owner:")
                && e.contains(&format!("account_id=tiktok:{LAM}"))
                && e.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{:#?}",
        run.entities("iphone")
    );

    let with = crate::who::resolved(&run);
    assert!(
        with("kawai/owner").contains(&format!("iphone/tiktok:{KAWAI}")),
        "{:#?}",
        with("kawai/owner")
    );
    assert!(
        with("iphone/owner").contains(&format!("kawai/tiktok:{LAM}")),
        "{:#?}",
        with("iphone/owner")
    );
    let notes = run.unparsed("iphone");
    assert!(
        notes.iter().any(|u| u
            .artefact
            .ends_with("ChatFiles/6877777777777777777/db.sqlite")
            && u.reason.contains("sender, content")),
        "{notes:#?}"
    );
    assert!(
        !notes
            .iter()
            .any(|u| u.artefact.ends_with("Other/db.sqlite")),
        "{notes:#?}"
    );
}
