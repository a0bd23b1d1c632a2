//! Facebook's `threads_db2` (`android::fbthreads`), the store Messenger and the Facebook app
//! kept before msys, on WONG's Android phone: the current layout beside its `threads_db2-uid`
//! (`tests/fixtures/messenger/threads_db2.sql`) and the 2014 layout in the Facebook app's folder
//! with no uid file (`threads_db2_2014.sql`), both built by the sqlite3 CLI. Every row and field
//! of ALEAPP's threads_db2 chats, calls and contacts queries (run here by the CLI) is found;
//! the uid file makes the owner and the direction, its absence makes neither. CHAN's iPhone
//! holds his msys store: the Facebook id WONG's phone knows him by joins the two. Beside them
//! a truncated copy, a store of another layout and a uid file that holds no id, each noted.

use std::path::Path;

use masf_graph::Phenomenon;

use crate::android_support::{Run, sqlite_fixture, triage};
use crate::browsers::sqlite3;

const WONG: &str = "100077788899900";
const CHAN: &str = "100098765432101";

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn find<'a>(all: &'a [Phenomenon], prefix: &str, v: &str) -> &'a Phenomenon {
    all.iter()
        .find(|p| p.title.starts_with(prefix) && has(p, v))
        .unwrap_or_else(|| {
            panic!(
                "{prefix} with {v}: {:#?}",
                all.iter().map(|p| &p.title).collect::<Vec<_>>()
            )
        })
}

/// ALEAPP's chats, calls and contacts rows of the current layout at `db`, in `run`'s phenomena.
fn check_current(run: &Run, db: &Path) {
    let all = run.all_phenomena("wong");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let chats = sqlite3(
        db,
        "SELECT messages.timestamp_ms, json_extract(messages.sender, '$.name'), substr(json_extract(messages.sender, '$.user_key'),10), \
         messages.thread_key, messages.text, messages.snippet, json_extract(messages.attachments, '$[0].filename'), \
         json_extract(messages.shares, '$[0].name'), json_extract(messages.shares, '$[0].description'), json_extract(messages.shares, '$[0].href'), \
         message_reactions.reaction, message_reactions.reaction_timestamp, messages.msg_id \
         FROM messages, threads LEFT JOIN message_reactions ON message_reactions.msg_id = messages.msg_id \
         WHERE messages.thread_key=threads.thread_key AND generic_admin_message_extensible_data IS NULL AND msg_type != -1 \
         AND json_valid(messages.sender)",
    );
    assert_eq!(chats.len(), 3, "{chats:?}");
    for row in &chats {
        let p = find(&all, "Facebook Messenger message ", &row[12]);
        for v in &row[..12] {
            assert!(v.is_empty() || has(p, v), "{v} in {p:#?}");
        }
        assert_eq!(p.title.contains(" sent in "), row[2] == WONG, "{}", p.title);
    }
    // the row ALEAPP's json_extract fails on (its sender is not JSON) and the msg_type -1 row
    // are read too
    let p = find(&all, "Facebook Messenger message ", "mid.$gAA6");
    assert!(
        has(p, "ok") && p.title.contains("an unnamed sender"),
        "{p:#?}"
    );
    find(&all, "Facebook Messenger message ", "mid.$gAA7");
    let first = find(&all, "Facebook Messenger message ", "mid.$gAA3");
    assert!(
        has(first, "22.2976") && has(first, "114.1688") && has(first, "Harbour deal"),
        "{first:#?}"
    );
    let calls = sqlite3(
        db,
        "SELECT messages.timestamp_ms - 1000 * json_extract(messages.generic_admin_message_extensible_data, '$.call_duration'), \
         json_extract(messages.generic_admin_message_extensible_data, '$.call_duration'), \
         json_extract(messages.generic_admin_message_extensible_data, '$.caller_id'), \
         json_extract(messages.sender, '$.name'), \
         json_extract(messages.generic_admin_message_extensible_data, '$.video'), messages.thread_key \
         FROM messages, threads WHERE messages.thread_key=threads.thread_key AND generic_admin_message_extensible_data NOT NULL",
    );
    assert_eq!(calls.len(), 2);
    for row in &calls {
        let p = find(&all, "Facebook Messenger ", &row[0]);
        assert_eq!(p.category, "calls");
        for v in [&row[1], &row[2], &row[3], &row[5]] {
            assert!(has(p, v), "{v} in {p:#?}");
        }
        let dir = if row[2] == WONG {
            "outgoing"
        } else {
            "incoming"
        };
        assert!(p.title.contains(dir), "{}", p.title);
        assert_eq!(p.title.contains("video call"), row[4] == "1", "{}", p.title);
        assert!(p.title.ends_with("with Man Ho Chan"), "{}", p.title);
    }
    let contacts = sqlite3(
        db,
        "SELECT user_key, first_name, last_name, username, CASE WHEN json_valid(profile_pic_square) THEN json_extract(profile_pic_square, '$[0].url') END, \
         friendship_status, contact_relationship_status FROM thread_users",
    );
    assert_eq!(contacts.len(), 3);
    for row in &contacts {
        let p = all
            .iter()
            .find(|p| {
                p.category != "messages"
                    && p.category != "calls"
                    && has(p, &row[0])
                    && has(p, "/data/data/com.facebook.orca/databases/threads_db2")
            })
            .unwrap_or_else(|| panic!("{}", row[0]));
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{v} in {p:#?}");
        }
        assert_eq!(
            p.title.contains("(the device's user)"),
            row[0].ends_with(WONG),
            "{}",
            p.title
        );
    }
    let account = find(&all, "Facebook account ", WONG);
    assert!(account.title.contains("threads_db2-uid"), "{account:#?}");
}

#[test]
fn threads_db2_on_an_android_phone_with_and_without_its_uid_file_links_to_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let wong = tmp.path().join("wong");
    let orca = wong.join("data/data/com.facebook.orca/databases");
    let db = orca.join("threads_db2");
    sqlite_fixture(&db, "messenger/threads_db2.sql", "SELECT 1;");
    std::fs::write(orca.join("threads_db2-uid"), format!("{WONG}\n")).unwrap();
    let katana = wong.join("data/data/com.facebook.katana/databases/threads_db2");
    sqlite_fixture(&katana, "messenger/threads_db2_2014.sql", "SELECT 1;");
    // a truncated copy with a uid file holding no id, and a store of another layout
    let user10 = wong.join("data/user/10/com.facebook.orca/databases");
    std::fs::create_dir_all(&user10).unwrap();
    let bytes = std::fs::read(&db).unwrap();
    std::fs::write(user10.join("threads_db2"), &bytes[..bytes.len() / 3]).unwrap();
    std::fs::write(user10.join("threads_db2-uid"), "not an id\n").unwrap();
    let other = wong.join("data/user/11/com.facebook.orca/databases/threads_db2");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    crate::ios_nearby::sqlite3(
        &other,
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO messages VALUES (1, 'x');",
    );
    std::fs::create_dir_all(wong.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(wong.join("data/user/0/com.android.providers.telephony")).unwrap();
    let iphone = tmp.path().join("iphone");
    let chan_db = iphone.join(format!(
        "private/var/mobile/Containers/Shared/AppGroup/6A1C2F3E-7B8D-4E9F-A0B1-C2D3E4F5A6B7/lightspeed-userDatabases/{CHAN}.db"
    ));
    sqlite_fixture(&chan_db, "messenger/msys.sql", "SELECT 1;");
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("wong", &wong, "Asia/Hong_Kong", Some("HK")),
        ("iphone", &iphone, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    check_current(&run, &db);

    // the 2014 layout (thread_id, pic_square) without a uid file: read, no direction, no owner
    let all = run.all_phenomena("wong");
    for row in sqlite3(
        &katana,
        "SELECT msg_id, thread_id, text, timestamp_ms, json_extract(sender, '$.name') FROM messages",
    ) {
        let p = find(&all, "Facebook Messenger message from ", &row[0]);
        for v in &row[1..] {
            assert!(has(p, v), "{v} in {p:#?}");
        }
        assert!(
            p.interpretation.contains("the direction is not known"),
            "{}",
            p.interpretation
        );
    }
    let phone_user = find(
        &all,
        "Facebook Messenger user ",
        "PHONE_NUMBER:+85261234567",
    );
    assert!(has(phone_user, "+85261234567"), "{phone_user:#?}");
    let entities = run.entities("wong");
    assert!(
        entities
            .iter()
            .any(|e| e.starts_with("owner [Person] device owner:")
                && e.contains(&format!("account_id=facebook:{WONG}"))
                && e.contains("account_id=facebook-user:kawai.wong.77")),
        "{entities:#?}"
    );
    assert!(
        entities.iter().any(
            |e| e.starts_with(&format!("facebook:{CHAN} [Person] Man Ho Chan:"))
                && e.contains("wallet=0x52908400098527886e0f7030069857d2e4169ee7")
        ),
        "{entities:#?}"
    );

    let chan = crate::who::resolved(&run)("iphone/owner");
    assert!(chan.contains(&format!("wong/facebook:{CHAN}")), "{chan:#?}");

    run.assert_noted(
        "wong",
        &[
            (
                "user/10/com.facebook.orca/databases/threads_db2",
                "malformed",
            ),
            ("threads_db2-uid", "is not a Facebook id"),
            (
                "user/11/com.facebook.orca/databases/threads_db2",
                "table messages lacks msg_id, thread_key, timestamp_ms, sender",
            ),
        ],
    );
}
