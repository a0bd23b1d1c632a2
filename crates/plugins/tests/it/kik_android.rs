//! Kik on Android (`android::kik`) on two phones — KW's `kikCoreDatabase.db` and
//! `<core id>.kikDatabase.db` (`tests/fixtures/kik/`, built by the sqlite3 CLI) and a second
//! phone's older unprefixed `kikDatabase.db` of fewer columns — and an iPhone holding the
//! corpus's Kik store (plaso's `kik.sqlite`). Every row and field of ALEAPP's Kik messages and
//! users queries (run here by the CLI, the attachment properties pivoted as ALEAPP does) is
//! found; the second phone's contact `lordofriddles_dk1@talk.kik.com` resolves to the iPhone's
//! user of that JID; a truncated copy and a store of another layout are noted.

use std::path::Path;

use masf_graph::Phenomenon;

use crate::android_support::{Run, sqlite_fixture, triage};
use crate::browsers::sqlite3;

const CORE: &str = "51c54d5d-cfda-4355-8ac2-9470dcecd5b2";

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

fn check(run: &Run, source: &str, db: &Path, content: bool) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let attachment = |p: &str| {
        if content {
            format!(
                "(SELECT content_string FROM KIKContentTable c WHERE c.content_id = m.content_id AND c.content_name = '{p}')"
            )
        } else {
            "NULL".to_string()
        }
    };
    let rows = sqlite3(
        db,
        &format!(
            "SELECT m.uid, m.timestamp, m.partner_jid, k.display_name, m.body, m.bin_id, {}, {}, {}, {}, {} \
             FROM messagesTable m LEFT JOIN KIKcontactsTable k ON m.partner_jid = k.jid ORDER BY m.timestamp",
            if content { "m.content_id" } else { "NULL" },
            attachment("file-name"),
            attachment("file-size"),
            attachment("file-url"),
            attachment("app-name"),
        ),
    );
    assert!(!rows.is_empty());
    let msgs: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Kik message "))
        .collect();
    assert_eq!(msgs.len(), rows.len(), "{source}");
    for row in &rows {
        let p = msgs
            .iter()
            .find(|p| has(p, &row[0]) && has(p, &row[1]))
            .unwrap_or_else(|| panic!("{source}: {row:?}"));
        for v in &row[2..] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
    }
    for row in sqlite3(
        db,
        "SELECT jid, display_name, user_name, photo_url FROM KIKcontactsTable",
    ) {
        let p = all
            .iter()
            .find(|p| p.category == "contacts" && p.title.starts_with("Kik ") && has(p, &row[0]))
            .unwrap_or_else(|| panic!("{source}: {row:?}"));
        for v in &row[1..] {
            assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
        }
    }
}

#[test]
fn kik_on_two_android_phones_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let kw = tmp.path().join("kw");
    let dir = kw.join("data/data/kik.android/databases");
    let db = dir.join(format!("{CORE}.kikDatabase.db"));
    sqlite_fixture(&db, "kik/kikDatabase.sql", "SELECT 1;");
    sqlite_fixture(
        &dir.join("kikCoreDatabase.db"),
        "kik/kikCoreDatabase.sql",
        "SELECT 1;",
    );
    let bytes = std::fs::read(&db).unwrap();
    let user10 = kw.join("data/user/10/kik.android/databases");
    std::fs::create_dir_all(&user10).unwrap();
    std::fs::write(user10.join("kikDatabase.db"), &bytes[..bytes.len() / 3]).unwrap();
    let user11 = kw.join("data/user/11/kik.android/databases/kikDatabase.db");
    std::fs::create_dir_all(user11.parent().unwrap()).unwrap();
    crate::ios_nearby::sqlite3(
        &user11,
        "CREATE TABLE messagesTable (_id INTEGER PRIMARY KEY, body VARCHAR); INSERT INTO messagesTable VALUES (1, 'x');",
    );
    std::fs::create_dir_all(kw.join("data/system/users/0")).unwrap();

    let b = tmp.path().join("b");
    let bdb = b.join("data/data/kik.android/databases/kikDatabase.db");
    std::fs::create_dir_all(bdb.parent().unwrap()).unwrap();
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE KIKcontactsTable (_id INTEGER PRIMARY KEY AUTOINCREMENT, jid VARCHAR UNIQUE, display_name VARCHAR, user_name VARCHAR, in_roster INT, is_blocked INT, photo_url VARCHAR); \
         CREATE TABLE messagesTable (_id INTEGER PRIMARY KEY AUTOINCREMENT, body VARCHAR, partner_jid VARCHAR, was_me INT, read_state INT, uid VARCHAR, timestamp LONG, bin_id VARCHAR); \
         INSERT INTO KIKcontactsTable (jid, display_name, user_name, in_roster, is_blocked, photo_url) VALUES ('lordofriddles_dk1@talk.kik.com', 'Lord of Riddles', 'lordofriddles', 1, 0, NULL); \
         INSERT INTO messagesTable (body, partner_jid, was_me, read_state, uid, timestamp, bin_id) VALUES ('riddle me this', 'lordofriddles_dk1@talk.kik.com', 0, 500, 'b-1', 1500000000000, 'lordofriddles_dk1@talk.kik.com');",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let iphone = tmp.path().join("iphone");
    let ios_db = iphone.join("private/var/mobile/Containers/Shared/AppGroup/5B3A2C1D-0E9F-4A8B-9C7D-6E5F4A3B2C1D/cores/private/3f2a9c/kik.sqlite");
    std::fs::create_dir_all(ios_db.parent().unwrap()).unwrap();
    std::fs::copy(crate::ios_support::public("ios/plaso-kik.sqlite"), &ios_db).unwrap();
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("kw", &kw, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "America/New_York", Some("US")),
        ("iphone", &iphone, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    check(&run, "kw", &db, true);
    check(&run, "b", &bdb, false);

    let all = run.all_phenomena("kw");
    let account = all
        .iter()
        .find(|p| p.title == "Kik account kw_trader")
        .expect("the account");
    assert!(has(account, CORE), "{account:#?}");
    let group = all
        .iter()
        .find(|p| p.title == "Kik group Drop team members")
        .expect("the group's members");
    for v in [
        "cash_lam_x3k@talk.kik.com",
        "runner_j_9q2@talk.kik.com",
        "Lam Cash",
    ] {
        assert!(has(group, v), "{v} in {group:#?}");
    }
    let ents = run.entities("kw");
    assert!(
        ents.iter()
            .any(|e| e.starts_with("owner [Person] device owner:")
                && e.contains("nickname=kw_trader")),
        "{ents:#?}"
    );
    assert!(
        ents.iter().any(
            |e| e.starts_with("kik:cash_lam_x3k@talk.kik.com [Person] Lam Cash:")
                && e.contains("wallet=bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")
        ),
        "{ents:#?}"
    );

    let riddler = crate::who::resolved(&run)("b/kik:lordofriddles_dk1@talk.kik.com");
    assert!(
        riddler.iter().any(|e| e.starts_with("iphone/kik:")),
        "{riddler:#?}"
    );

    run.assert_noted(
        "kw",
        &[
            ("user/10/kik.android/databases/kikDatabase.db", "malformed"),
            (
                "user/11/kik.android/databases/kikDatabase.db",
                "table messagesTable lacks partner_jid, was_me, timestamp",
            ),
        ],
    );
}
