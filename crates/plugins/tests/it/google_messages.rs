//! Google Messages (`android::bugle`) on two phones' data trees: a Pixel's `bugle_db` built by
//! the sqlite3 CLI from AOSP Messaging's schema with the two columns Google Messages added to
//! `parts` (`tests/fixtures/google-messages/bugle_db.sql`), and an older phone's copy of the same
//! database without those columns (dropped by sqlite3's `ALTER TABLE`). Every row of ALEAPP's
//! `googleMessages` query, run by the sqlite3 CLI, is found with each of its fields; the SIM
//! number of the self participant is the owner's, counterparties are attributed, wallet
//! addresses are claims by direction. Beside them: a truncated copy and a `bugle_db` of another
//! schema, each noted with its reason while the rest of the phone is read.

use std::path::Path;
use std::process::Command;

use masf_graph::Phenomenon;

use crate::android_support::{Run, triage};
use crate::browsers::sqlite3;

const APP: &str = "com.google.android.apps.messaging/databases/bugle_db";

fn build(db: &Path, then: &str) {
    crate::android_support::sqlite_fixture(db, "google-messages/bugle_db.sql", then);
}

fn android_tree(root: &Path) {
    std::fs::create_dir_all(root.join("data/system/users/0")).unwrap();
    std::fs::create_dir_all(root.join("data/user/0/com.android.providers.telephony")).unwrap();
}

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

/// Every row of ALEAPP's query (parts ⋈ messages ⋈ participants ⋈ conversations) found in
/// the message phenomenon of its part, with every field the layout has.
fn check(run: &Run, source: &str, db: &Path, new_layout: bool) {
    let all = run.all_phenomena(source);
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let extra = if new_layout {
        "parts.file_size_bytes, parts.local_cache_path"
    } else {
        "-1, ''"
    };
    let rows = sqlite3(
        db,
        &format!(
            "SELECT parts.message_id, parts.timestamp, parts.content_type, conversations.name, \
             participants.display_destination, parts.text, {extra}, parts.conversation_id, \
             CASE WHEN participants.sub_id IS NULL THEN '' WHEN participants.sub_id != -2 THEN 'Outgoing' ELSE 'Incoming' END \
             FROM parts JOIN messages ON messages._id = parts.message_id \
             JOIN participants ON participants._id = messages.sender_id \
             JOIN conversations ON conversations._id = parts.conversation_id ORDER BY parts.timestamp"
        ),
    );
    assert_eq!(rows.len(), 6, "{rows:?}");
    for row in &rows {
        let prefix = format!("Google Messages message {} ", row[0]);
        let p = all
            .iter()
            .find(|p| p.title.starts_with(&prefix))
            .unwrap_or_else(|| panic!("{prefix}"));
        assert!(has(p, &row[1]), "timestamp {}: {p:#?}", row[1]);
        for v in [&row[2], &row[3], &row[4], &row[5]] {
            assert!(v.is_empty() || has(p, v), "{v}: {p:#?}");
        }
        if row[6] != "-1" {
            assert!(has(p, &row[6]), "size {}", row[6]);
        }
        assert!(row[7].is_empty() || has(p, &row[7]), "{}", row[7]);
        assert!(
            p.interpretation
                .contains(&format!("in conversation {}", row[8])),
            "{}",
            p.interpretation
        );
        let direction = if row[9] == "Outgoing" {
            " to "
        } else {
            " from "
        };
        assert!(p.title.contains(direction), "{}: {}", row[9], p.title);
    }
    // one phenomenon per message, its parts together
    let messages: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("Google Messages message "))
        .collect();
    assert_eq!(messages.len(), 5);
    let mms = messages
        .iter()
        .find(|p| p.title.starts_with("Google Messages message 3 "))
        .unwrap();
    assert_eq!(
        mms.title, "Google Messages message 3 from +85298765432",
        "{mms:#?}"
    );
    for v in [
        "Receipt attached",
        "content://mms/part/31",
        "image/jpeg",
        "USDT receipt",
        "1739588390000",
    ] {
        assert!(has(mms, v), "{v}");
    }
    assert!(
        mms.interpretation
            .contains("MMS received from +85298765432")
    );
    assert!(mms.interpretation.contains("read no, seen yes"));
    assert!(
        mms.interpretation
            .contains("2 parts of which 1 an attachment")
    );
    let draft = messages
        .iter()
        .find(|p| p.title.starts_with("Google Messages message 5 "))
        .unwrap();
    // a group conversation: no single other participant
    assert_eq!(
        draft.title,
        "Google Messages message 5 (draft) to FUNG CC, 9000 1111"
    );
    assert_eq!(draft.times[0].description, "Draft saved");
    assert!(draft.interpretation.contains("draft (status 3)"));
    assert!(draft.interpretation.contains("with 2 other participant(s)"));
    let sim = all
        .iter()
        .find(|p| p.title == "Google Messages sends from +85261234567 (SIM subscription 1)")
        .expect("self participant");
    assert!(has(sim, "CMHK"));
    assert_eq!(
        all.iter()
            .filter(|p| p.title.starts_with("Google Messages sends from"))
            .count(),
        1,
        "the default self participant has no number"
    );
}

#[test]
fn google_messages_on_two_phones_every_aleapp_field_and_the_owner_number() {
    let tmp = tempfile::tempdir().unwrap();
    let pixel = tmp.path().join("pixel");
    android_tree(&pixel);
    let pixel_db = pixel.join("data/data").join(APP);
    build(&pixel_db, "SELECT 1;");
    // an older generation: no file_size_bytes, no local_cache_path; a truncated copy in a
    // second user's folder, and another program's bugle_db
    let older = tmp.path().join("older");
    android_tree(&older);
    let older_db = older.join("data/user/0").join(APP);
    build(
        &older_db,
        "ALTER TABLE parts DROP COLUMN file_size_bytes; ALTER TABLE parts DROP COLUMN local_cache_path;",
    );
    let bytes = std::fs::read(&older_db).unwrap();
    let truncated = older.join("data/user/10").join(APP);
    std::fs::create_dir_all(truncated.parent().unwrap()).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 3]).unwrap();
    let foreign = older.join("data/data/org.example.sms/databases/bugle_db");
    std::fs::create_dir_all(foreign.parent().unwrap()).unwrap();
    let out = Command::new("sqlite3")
        .arg(&foreign)
        .arg("CREATE TABLE conversations (_id INTEGER PRIMARY KEY); CREATE TABLE parts (x); CREATE TABLE participants (_id); CREATE TABLE messages (_id INTEGER PRIMARY KEY, body TEXT); INSERT INTO messages VALUES (1, 'x');")
        .status()
        .unwrap();
    assert!(out.success());

    let run = triage(&[
        ("pixel", &pixel, "Asia/Hong_Kong", Some("HK")),
        ("older", &older, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert_eq!(run.report("pixel").plugin.as_deref(), Some("android"));
    check(&run, "pixel", &pixel_db, true);
    check(&run, "older", &older_db, false);
    let cached = run
        .all_phenomena("pixel")
        .into_iter()
        .find(|p| p.title.starts_with("Google Messages message 3 "))
        .unwrap();
    for v in [
        "48213",
        "/data/user/0/com.google.android.apps.messaging/cache/mms_part_31.jpg",
    ] {
        assert!(has(&cached, v), "{v}");
    }

    // the SIM number is the owner's; the counterparties; wallets claimed by direction: each
    // address is its writer's (the received SMS's sender, the group message's sender), never
    // the reader's
    let entities = run.entities("pixel");
    for want in [
        "owner [Person] device owner: phone=+85261234567",
        "handle:+85298765432 [Person] +85298765432: phone=+85298765432, wallet=TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2",
        "handle:+85251112222 [Person] +85251112222: phone=+85251112222, wallet=bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn",
    ] {
        assert!(entities.iter().any(|e| e == want), "{want}: {entities:#?}");
    }

    let notes = run.unparsed("older");
    let noted = |suffix: &str, word: &str| {
        assert!(
            notes
                .iter()
                .any(|u| u.artefact.ends_with(suffix) && u.reason.contains(word)),
            "{suffix} {word}: {notes:#?}"
        )
    };
    noted(
        "user/10/com.google.android.apps.messaging/databases/bugle_db",
        "malformed",
    );
    noted(
        "org.example.sms/databases/bugle_db",
        "table messages lacks conversation_id, sender_id, received_timestamp",
    );
    assert!(
        run.unparsed("pixel").is_empty(),
        "{:#?}",
        run.unparsed("pixel")
    );
}
