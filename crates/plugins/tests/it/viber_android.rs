//! Viber's messages on Android (`android::vibermsg`): `viber_messages` built by the sqlite3 CLI
//! (`tests/fixtures/viber/viber_messages.sql`) on one phone, an older layout (no display names,
//! no attachments) on another. Every row and field of ALEAPP's Viber messages query (run here
//! by the CLI) is found; a received message's sender is a person by number who claims the
//! wallet he wrote, and resolves to the iPhone's Viber user of that number; a truncated copy
//! and a table lacking its key columns are noted; another app's file of the name is passed
//! over.

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};
use crate::browsers::sqlite3;

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

const ALEAPP: &str = "SELECT M.msg_date, convo_participants.from_number, M.conversation_id, M.body, M.send_type, M.extra_uri \
    FROM (SELECT *, group_concat(TO_RESULT.number) AS recipients FROM (SELECT P._id AS FROM_ID, P.conversation_id, PI.number AS FROM_NUMBER \
    FROM participants AS P JOIN participants_info AS PI ON P.participant_info_id = PI._id) AS FROM_RESULT \
    JOIN (SELECT P._id AS TO_ID, P.conversation_id, PI.number FROM participants AS P JOIN participants_info AS PI ON P.participant_info_id = PI._id) AS TO_RESULT \
    ON FROM_RESULT.from_id != TO_RESULT.to_id AND FROM_RESULT.conversation_id = TO_RESULT.conversation_id GROUP BY FROM_RESULT.from_id) AS convo_participants \
    JOIN messages AS M ON M.participant_id = convo_participants.from_id AND M.conversation_id = convo_participants.conversation_id";

#[test]
fn viber_messages_on_two_android_phones_and_an_iphone() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let db = a.join("data/data/com.viber.voip/databases/viber_messages");
    sqlite_fixture(&db, "viber/viber_messages.sql", "SELECT 1;");
    crate::android_support::damaged_copies(
        &a,
        "com.viber.voip/databases/viber_messages",
        "CREATE TABLE messages (_id INTEGER, body TEXT); CREATE TABLE participants (_id INTEGER); CREATE TABLE participants_info (_id INTEGER);",
    );
    let other = a.join("data/data/com.example.chat/databases/viber_messages");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&db, &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();
    let b = tmp.path().join("b");
    let bdb = b.join("data/data/com.viber.voip/databases/viber_messages");
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE participants_info (_id INTEGER PRIMARY KEY, number TEXT); \
         CREATE TABLE participants (_id INTEGER PRIMARY KEY, conversation_id INTEGER, participant_info_id INTEGER); \
         CREATE TABLE messages (_id INTEGER PRIMARY KEY, msg_date INTEGER, conversation_id INTEGER, participant_id INTEGER, body TEXT, send_type INTEGER); \
         INSERT INTO participants_info VALUES (1, '+85255550101'), (2, '+85261234567'); \
         INSERT INTO participants VALUES (1, 7, 1), (2, 7, 2); \
         INSERT INTO messages VALUES (1, 1600000000000, 7, 1, 'hello', 0);",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();
    // the iPhone of Man Ho Chan (+85298765432): his Viber account
    let iphone = tmp.path().join("iphone");
    sqlite_fixture(
        &iphone.join("private/var/mobile/Containers/Shared/AppGroup/0D1C2B3A-4F5E-4D6C-8B7A-9F8E7D6C5B4A/com.viber/settings/Settings.data"),
        "viber/settings.sql",
        "UPDATE Data SET value = '85298765432' WHERE key = '_myCanonizedPhoneNumber';",
    );
    std::fs::create_dir_all(iphone.join("private/var/mobile/Library")).unwrap();

    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
        ("iphone", &iphone, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, db) in [("a", &db), ("b", &bdb)] {
        let all = run.all_phenomena(source);
        let mine: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.starts_with("Viber message "))
            .collect();
        let sql = if source == "a" {
            ALEAPP.to_string()
        } else {
            ALEAPP.replace("M.extra_uri", "NULL")
        };
        let rows = sqlite3(db, &sql);
        assert_eq!(
            mine.len(),
            rows.len(),
            "{source}: only Viber's file is read"
        );
        for row in &rows {
            let p = mine
                .iter()
                .find(|p| has(p, &row[0]))
                .unwrap_or_else(|| panic!("{source}: {row:?}"));
            assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
            for v in [&row[1], &row[2], &row[3], &row[5]] {
                assert!(v.is_empty() || has(p, v), "{source}: {v} in {p:#?}");
            }
            assert_eq!(p.title.contains(" sent in "), row[4] == "1", "{}", p.title);
        }
    }
    assert!(
        run.entities("a")
            .iter()
            .any(|e| e.contains("phone=+85298765432")
                && e.contains("wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2")),
        "{:#?}",
        run.entities("a")
    );
    let with = crate::who::resolved(&run);
    let chan = with("iphone/owner");
    assert!(chan.iter().any(|e| e.starts_with("a/")), "{chan:#?}");
    run.assert_noted(
        "a",
        &[
            (
                "user/10/com.viber.voip/databases/viber_messages",
                "malformed",
            ),
            (
                "user/11/com.viber.voip/databases/viber_messages",
                "table messages lacks msg_date, conversation_id, participant_id",
            ),
        ],
    );
}
