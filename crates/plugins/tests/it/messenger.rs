//! Facebook Messenger's msys store (`plugins::messenger`) on two phones: LEUNG's Android phone
//! (`com.facebook.orca/databases/msys_database_<uid>`) and CHAN's iPhone
//! (`…/lightspeed-userDatabases/<uid>.db`), the same store built by the sqlite3 CLI
//! (`tests/fixtures/messenger/msys.sql`) and named after each phone's user. Every contact,
//! message and call of ALEAPP's msys queries (run by the CLI) is found with its fields; each
//! store's own id is its phone's user; the two users link across the phones by their Facebook
//! ids. Beside them a truncated copy and a store of another layout, each noted.

use std::path::Path;
use std::process::Command;

use masf_graph::Phenomenon;

use crate::android_support::{Run, triage};
use crate::browsers::sqlite3;

const LEUNG: &str = "100012345678901";
const CHAN: &str = "100098765432101";

fn build(db: &Path) {
    crate::android_support::sqlite_fixture(db, "messenger/msys.sql", "SELECT 1;");
}

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

/// Every row of ALEAPP's contacts, messages and calls queries in the phenomena of `source`.
fn check(run: &Run, source: &str, db: &Path, me: &str) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let find = |prefix: &str, v: &str| -> &Phenomenon {
        all.iter()
            .find(|p| p.title.starts_with(prefix) && has(p, v))
            .unwrap_or_else(|| {
                panic!(
                    "{source}: {prefix} with {v}: {:#?}",
                    all.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            })
    };
    for row in sqlite3(
        db,
        "SELECT id, name, username, profile_picture_large_url, email_address, phone_number FROM contacts",
    ) {
        let p = find("Facebook Messenger ", &format!("facebook:{}", row[0]));
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
    for row in sqlite3(
        db,
        "SELECT m.message_id, m.timestamp_ms, m.sender_id, m.thread_key, m.text, a.title_text, a.filename, a.playable_url_mime_type, a.playable_url, t.native_url, r.reaction, r.reaction_creation_timestamp_ms \
         FROM messages m JOIN contacts c ON c.id = m.sender_id LEFT JOIN attachments a ON a.message_id = m.message_id \
         LEFT JOIN attachment_ctas t ON t.message_id = m.message_id LEFT JOIN reactions r ON r.message_id = m.message_id",
    ) {
        let p = find("Facebook Messenger message ", &row[0]);
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
        assert_eq!(
            p.title.contains(" sent in thread "),
            row[2] == me,
            "{}",
            p.title
        );
    }
    for row in sqlite3(
        db,
        "SELECT call_timestamp_ms, thread_key, call_duration, call_direction, call_media_type FROM call_log",
    ) {
        let p = find("Facebook Messenger ", &row[0]);
        assert!(has(p, &row[1]) && has(p, &row[2]), "{p:#?}");
        let dir = if row[3] == "1" {
            "outgoing"
        } else {
            "incoming"
        };
        assert!(p.title.contains(dir), "{}", p.title);
        assert_eq!(p.title.contains("video call"), row[4] == "2");
    }
}

#[test]
fn messenger_on_an_android_phone_and_an_iphone_links_the_two_users() {
    let tmp = tempfile::tempdir().unwrap();
    let android = tmp.path().join("android");
    let databases = android.join("data/data/com.facebook.orca/databases");
    let leung_db = databases.join(format!("msys_database_{LEUNG}"));
    build(&leung_db);
    std::fs::create_dir_all(android.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(android.join("data/user/0/com.android.providers.telephony")).unwrap();
    // a truncated copy (another account's) and a store of another layout
    let bytes = std::fs::read(&leung_db).unwrap();
    std::fs::write(
        databases.join("msys_database_100000000000001"),
        &bytes[..bytes.len() / 3],
    )
    .unwrap();
    let out = Command::new("sqlite3")
        .arg(databases.join("msys_database_100000000000002"))
        .arg("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE messages (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO messages VALUES (1, 'x');")
        .status()
        .unwrap();
    assert!(out.success());
    let iphone = tmp.path().join("iphone");
    let chan_db = iphone.join(format!(
        "private/var/mobile/Containers/Shared/AppGroup/6A1C2F3E-7B8D-4E9F-A0B1-C2D3E4F5A6B7/lightspeed-userDatabases/{CHAN}.db"
    ));
    build(&chan_db);
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("android", &android, "Asia/Hong_Kong", Some("HK")),
        ("iphone", &iphone, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert_eq!(run.report("iphone").plugin.as_deref(), Some("ios"));
    check(&run, "android", &leung_db, LEUNG);
    check(&run, "iphone", &chan_db, CHAN);

    // each store's own id is its phone's user; the other is a facebook: person
    let android_entities = run.entities("android");
    for want in [
        format!(
            "owner [Person] device owner: account_id=facebook-user:yl.leung.hk, account_id=facebook:{LEUNG}, display_name=leung yuk lam, email=yl.leung@example.com, phone=+85269871122, wallet=0x1850ce0e73407a9997c467babc60fe887c567625"
        ),
        format!(
            "facebook:{CHAN} [Person] Man Ho Chan: account_id=facebook-user:chan.mh, account_id=facebook:{CHAN}, display_name=man ho chan, phone=+85298765432, wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2"
        ),
    ] {
        assert!(
            android_entities.contains(&want),
            "{want}: {android_entities:#?}"
        );
    }
    assert!(
        run.entities("iphone").iter().any(|e| e
            .starts_with(&format!("facebook:{LEUNG} [Person] Leung Yuk Lam:"))
            && e.contains("wallet=0x1850ce0e73407a9997c467babc60fe887c567625")),
        "{:#?}",
        run.entities("iphone")
    );

    let with = crate::who::resolved(&run);
    assert!(
        with("android/owner").contains(&format!("iphone/facebook:{LEUNG}")),
        "{:#?}",
        with("android/owner")
    );
    assert!(
        with("iphone/owner").contains(&format!("android/facebook:{CHAN}")),
        "{:#?}",
        with("iphone/owner")
    );

    run.assert_noted(
        "android",
        &[
            ("msys_database_100000000000001", "malformed"),
            (
                "msys_database_100000000000002",
                "table messages lacks message_id, thread_key, timestamp_ms, sender_id",
            ),
        ],
    );
}
