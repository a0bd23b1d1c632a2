//! imo on Android (`android::imo`) on two phones — DFIR Two's `com.imo.android.imoim` stores
//! (`tests/fixtures/imo/`, built by the sqlite3 CLI with the columns ALEAPP and Autopsy query)
//! and Lee's older `com.imo.android.imous` ones without `imdata`/`message_read` — and an
//! iPhone holding the corpus's imo store (plaso's `IMODb2.sqlite`). Every row and field of
//! ALEAPP's imo messages query (run here by the CLI, its attachment path taken from `imdata` as
//! ALEAPP takes it) is found, and the messages its INNER JOIN drops (a partner with no buddy
//! row) too; the direction is read as ALEAPP reads it and any other value reported as stored;
//! the signed-in accounts are the owners, and the three phones resolve each other's users by
//! their imo user ids. Beside them a truncated copy and a store of another layout (noted) and
//! another app's `imofriends.db` and `accountdb.db` (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};
use crate::browsers::sqlite3;

const DFIR_TWO: &str = "2000810370507916";
const JOSH: &str = "2002144460145418";
const LEE: &str = "2007000000000001";

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

#[test]
fn imo_on_two_android_phones_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let two = tmp.path().join("two");
    let dir = two.join("data/data/com.imo.android.imoim/databases");
    let db = dir.join("imofriends.db");
    sqlite_fixture(&db, "imo/imofriends.sql", "SELECT 1;");
    sqlite_fixture(&dir.join("accountdb.db"), "imo/accountdb.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &two,
        "com.imo.android.imoim/databases/imofriends.db",
        "CREATE TABLE messages (_id INTEGER PRIMARY KEY, last_message TEXT); INSERT INTO messages VALUES (1, 'x');",
    );
    for name in ["imofriends.db", "accountdb.db"] {
        let other = two.join("data/data/com.example.chat/databases").join(name);
        std::fs::create_dir_all(other.parent().unwrap()).unwrap();
        std::fs::copy(dir.join(name), &other).unwrap();
    }
    std::fs::create_dir_all(two.join("data/system/users/0")).unwrap();

    let lee = tmp.path().join("lee");
    let ldir = lee.join("data/data/com.imo.android.imous/databases");
    std::fs::create_dir_all(&ldir).unwrap();
    crate::ios_nearby::sqlite3(
        &ldir.join("accountdb.db"),
        &format!(
            "CREATE TABLE account (uid TEXT, name TEXT); INSERT INTO account VALUES ('{LEE}', 'Lee W');"
        ),
    );
    let ldb = ldir.join("imofriends.db");
    crate::ios_nearby::sqlite3(
        &ldb,
        &format!(
            "CREATE TABLE friends (buid TEXT, name TEXT); \
             CREATE TABLE messages (buid TEXT, last_message TEXT, timestamp INTEGER, message_type INTEGER); \
             INSERT INTO friends VALUES ('{DFIR_TWO}', 'dfir two'); \
             INSERT INTO messages VALUES ('{DFIR_TWO}', 'sent you the ledger', 1700000290000000000, 2);"
        ),
    );
    std::fs::create_dir_all(lee.join("data/system/users/0")).unwrap();

    let iphone = tmp.path().join("iphone");
    let ios_db = iphone.join("private/var/mobile/Containers/Data/Application/5C4D1E2F-0A1B-4C3D-9E8F-112233445566/Documents/IMODb2.sqlite");
    std::fs::create_dir_all(ios_db.parent().unwrap()).unwrap();
    std::fs::copy(
        crate::ios_support::public("ios/plaso-IMODb2.sqlite"),
        &ios_db,
    )
    .unwrap();
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("two", &two, "America/New_York", Some("US")),
        ("lee", &lee, "Asia/Hong_Kong", Some("HK")),
        ("iphone", &iphone, "America/New_York", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // ALEAPP's query, its attachment path as ALEAPP takes it from imdata (original_path, else
    // local_path); ALEAPP's INNER JOIN drops the message whose partner has no buddy row, which
    // is read too
    for (source, db, sql) in [
        (
            "two",
            &db,
            "SELECT messages.buid, last_message, timestamp, CASE message_type WHEN 1 THEN 'Incoming' WHEN 2 THEN 'Outgoing' ELSE message_type END, message_read, \
             CASE WHEN json_valid(imdata) THEN coalesce(json_extract(imdata, '$.original_path'), json_extract(imdata, '$.local_path')) END, friends.name \
             FROM messages LEFT JOIN friends ON friends.buid = messages.buid",
        ),
        (
            "lee",
            &ldb,
            "SELECT messages.buid, last_message, timestamp, CASE message_type WHEN 1 THEN 'Incoming' WHEN 2 THEN 'Outgoing' ELSE message_type END, NULL, NULL, friends.name \
             FROM messages LEFT JOIN friends ON friends.buid = messages.buid",
        ),
    ] {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let rows = sqlite3(db, sql);
        assert!(!rows.is_empty());
        for row in &rows {
            let p = all
                .iter()
                .find(|p| p.title.starts_with("imo message ") && has(p, &row[0]) && has(p, &row[1]))
                .unwrap_or_else(|| panic!("{source}: {row:?}"));
            assert_eq!(p.category, "messages");
            for v in [&row[2], &row[5], &row[6]] {
                assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
            }
            match row[3].as_str() {
                "Outgoing" => assert!(p.title.starts_with("imo message sent to "), "{}", p.title),
                "Incoming" => assert!(p.title.starts_with("imo message from "), "{}", p.title),
                other => assert!(
                    p.interpretation
                        .contains(&format!("message_type {other}, not documented")),
                    "{}",
                    p.interpretation
                ),
            }
            if !row[4].is_empty() {
                assert!(
                    p.interpretation.contains(&format!("read flag {}", row[4])),
                    "{}",
                    p.interpretation
                );
            }
            let mark = p.times.first().expect("a time");
            assert_eq!(p.verified_facts[mark.fact].value, row[2]);
            assert_eq!(mark.encoding, masf_graph::TimeEncoding::UnixNanos);
        }
        for row in sqlite3(db, "SELECT buid, coalesce(name, '') FROM friends") {
            let p = all
                .iter()
                .find(|p| p.title.starts_with("imo buddy ") && has(p, &row[0]))
                .unwrap_or_else(|| panic!("{source}: {row:?}"));
            assert!(row[1].is_empty() || has(p, &row[1]), "{p:#?}");
        }
    }
    let all = run.all_phenomena("two");
    let account = all
        .iter()
        .find(|p| p.title == format!("imo account {DFIR_TWO}"))
        .expect("the account");
    assert!(has(account, "ThisIs DfirTwo"), "{account:#?}");
    // only imo's stores are read
    assert!(
        !all.iter().any(|p| p.title.starts_with("imo ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.chat"))),
        "another app's store was read"
    );
    let ents = run.entities("two");
    assert!(
        ents.iter()
            .any(|e| e.starts_with(&format!("imo:{LEE} [Person] Lee W:"))
                && e.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{ents:#?}"
    );

    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("two/owner", format!("iphone/imo:{DFIR_TWO}")),
        ("two/owner", format!("lee/imo:{DFIR_TWO}")),
        ("lee/owner", format!("two/imo:{LEE}")),
        (
            &format!("two/imo:{JOSH}") as &str,
            format!("iphone/imo:{JOSH}"),
        ),
    ] {
        assert!(
            with(member).contains(&known_as),
            "{member}: {:#?}",
            with(member)
        );
    }

    run.assert_noted(
        "two",
        &[
            (
                "user/10/com.imo.android.imoim/databases/imofriends.db",
                "malformed",
            ),
            (
                "user/11/com.imo.android.imoim/databases/imofriends.db",
                "table messages lacks buid, timestamp",
            ),
        ],
    );
}
