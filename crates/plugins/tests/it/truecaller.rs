//! Truecaller on Android (`android::truecaller`): one phone's `tc.db`, `insights.db` and
//! `calling-cache.db` (`tests/fixtures/truecaller/`, built by the sqlite3 CLI with the columns
//! ALEAPP's truecaller module queries) and another's `tc.db` of an older layout (fewer columns,
//! no messaging table). Every row and field of ALEAPP's five queries (run here by the CLI, absent
//! columns as NULL) is found; a call's number is the call's other party and the cached contact
//! holding it is observed under its own context with the directory's name, so the two resolve
//! to one person by the number; a messaging peer likewise. Beside them a truncated copy and a
//! store of another layout (noted) and another app's `tc.db` (passed over).

use masf_graph::Phenomenon;

use crate::android_support::{sqlite_fixture, triage};

fn has(p: &Phenomenon, v: &str) -> bool {
    p.verified_facts.iter().any(|f| f.value == v)
}

const HISTORY: &str = "SELECT timestamp, duration, ringing_duration, normalized_number, raw_number, cached_name, country_code, number_type, type, action, feature, filter_source, is_important_call, important_call_note, assistant_state, subscription_id, tc_id, event_id, call_log_id FROM history ORDER BY timestamp DESC";
const CONTACTS: &str = "SELECT rc.contact_search_time, rc.insert_timestamp, rc.contact_name, rc.contact_default_number, (SELECT group_concat(d.data1, ', ') FROM data d WHERE d.data_raw_contact_id = rc._id AND d.data_type = 4), rc.contact_alt_name, rc.contact_transliterated_name, rc.contact_company, rc.contact_job_title, rc.contact_about, rc.contact_gender, rc.contact_spam_score, rc.contact_spam_type, rc.spam_categories, rc.is_suspected_fraud, rc.contact_badges, rc.contact_is_favorite, rc.contact_source, rc.contact_image_url, rc.search_query, rc.tc_id, rc.contact_phonebook_id FROM raw_contact rc ORDER BY rc.contact_search_time DESC";
const IM: &str = "SELECT date, registration_timestamp, normalized_number, fallback_name, im_peer_id, tc_id, join_im_notification FROM msg_im_users ORDER BY date DESC";
const SENDERS: &str = "SELECT sender, sender_name, sender_type, country_code, source_type, smart_features_status, grammars_enabled FROM sender_info ORDER BY sender";
const CACHE: &str =
    "SELECT timestamp, number, state, maxAgeSeconds FROM call_cache ORDER BY timestamp DESC";

/// Every row of `sql` on `db` is one of `found`, holding each value (lists value by value).
fn every_field(db: &std::path::Path, sql: &str, found: &[&Phenomenon], key: usize, what: &str) {
    assert_eq!(
        crate::android_support::rows_in(found, db, sql, key, ", "),
        found.len(),
        "{what}"
    );
}

#[test]
fn truecaller_history_contacts_and_lookups() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let dir = a.join("data/data/com.truecaller/databases");
    for f in ["tc", "insights", "calling-cache"] {
        sqlite_fixture(
            &dir.join(format!("{f}.db")),
            &format!("truecaller/{f}.sql"),
            "SELECT 1;",
        );
    }
    crate::android_support::damaged_copies(
        &a,
        "com.truecaller/databases/tc.db",
        "CREATE TABLE history (number TEXT); INSERT INTO history VALUES ('1');",
    );
    let other = a.join("data/data/com.example.dialer/databases/tc.db");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(dir.join("tc.db"), &other).unwrap();
    std::fs::create_dir_all(a.join("data/system/users/0")).unwrap();

    let b = tmp.path().join("b");
    let bdb = b.join("data/data/com.truecaller/databases/tc.db");
    crate::ios_nearby::sqlite3(
        &bdb,
        "CREATE TABLE history (timestamp INTEGER, duration INTEGER, normalized_number TEXT, raw_number TEXT, cached_name TEXT, type INTEGER, action INTEGER); \
         CREATE TABLE raw_contact (_id INTEGER PRIMARY KEY, contact_search_time INTEGER, contact_name TEXT, contact_default_number TEXT, contact_spam_score INTEGER, tc_id TEXT); \
         INSERT INTO history VALUES (1690000000000, 40, '+85291234001', '91234001', 'Lucky Wong Logistics', 1, 0); \
         INSERT INTO raw_contact VALUES (5, 1689999990000, 'Lucky Wong Logistics', '+85291234001', 0, 'tc_a1');",
    );
    std::fs::create_dir_all(b.join("data/system/users/0")).unwrap();

    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("a");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let of = |all: &[Phenomenon], prefix: &str| -> Vec<Phenomenon> {
        all.iter()
            .filter(|p| p.title.starts_with(prefix))
            .cloned()
            .collect()
    };
    for (prefix, db, sql, key) in [
        ("Truecaller call history", dir.join("tc.db"), HISTORY, 17),
        ("Truecaller cached contact", dir.join("tc.db"), CONTACTS, 0),
        ("Truecaller messaging user", dir.join("tc.db"), IM, 4),
        ("Truecaller SMS sender", dir.join("insights.db"), SENDERS, 0),
        (
            "Truecaller call lookup",
            dir.join("calling-cache.db"),
            CACHE,
            0,
        ),
    ] {
        let found = of(&all, prefix);
        let found: Vec<&Phenomenon> = found.iter().collect();
        every_field(&db, sql, &found, key, prefix);
    }
    // phone B's older layout: ALEAPP's queries with its absent columns as NULL
    let ball = run.all_phenomena("b");
    let found = of(&ball, "Truecaller call history");
    every_field(
        &bdb,
        "SELECT timestamp, duration, normalized_number, raw_number, cached_name, type, action FROM history",
        &found.iter().collect::<Vec<_>>(),
        0,
        "b history",
    );
    let found = of(&ball, "Truecaller cached contact");
    every_field(
        &bdb,
        "SELECT contact_search_time, contact_name, contact_default_number, contact_spam_score, tc_id FROM raw_contact",
        &found.iter().collect::<Vec<_>>(),
        0,
        "b contacts",
    );

    // times in the units ALEAPP's notes establish
    let contact = all
        .iter()
        .find(|p| p.title == "Truecaller cached contact Lucky Wong Logistics")
        .expect("the cached contact");
    let marks: Vec<(&str, &str)> = contact
        .times
        .iter()
        .map(|m| {
            (
                m.description.as_str(),
                contact.verified_facts[m.fact].value.as_str(),
            )
        })
        .collect();
    assert_eq!(
        marks,
        [
            ("Truecaller lookup", "1699999990000"),
            ("Truecaller contact cached", "1699999990")
        ]
    );
    assert!(contact.interpretation.contains("crowd-sourced"));
    // the e-mail row of data (data_type 1) is not a number
    assert!(!has(contact, "lucky@example.org"));

    let ents = run.entities("a");
    assert!(
        ents.iter().any(
            |e| e.starts_with("truecaller:11 [Person] Lucky Wong Logistics:")
                && e.contains("phone=+85291234001")
                && e.contains("phone=+85221234009")
        ),
        "{ents:#?}"
    );
    assert!(
        ents.iter()
            .any(|e| e.starts_with("truecaller-im:im_9f31 [Person] Lucky:")
                && e.contains("phone=+85291234001")),
        "{ents:#?}"
    );
    let with = crate::who::resolved(&run);
    for (member, known_as) in [
        ("a/truecaller:11", "a/handle:+85291234001"),
        ("a/truecaller-im:im_9f31", "a/handle:+85291234001"),
        ("a/handle:+85291234001", "b/handle:+85291234001"),
    ] {
        assert!(
            with(member).iter().any(|m| m == known_as),
            "{member}: {:#?}",
            with(member)
        );
    }
    // only Truecaller's files are read
    assert!(
        !all.iter().any(|p| p.title.starts_with("Truecaller ")
            && p.verified_facts
                .iter()
                .any(|f| f.value.contains("com.example.dialer"))),
        "another app's tc.db was read"
    );
    run.assert_noted(
        "a",
        &[
            ("user/10/com.truecaller/databases/tc.db", "malformed"),
            (
                "user/11/com.truecaller/databases/tc.db",
                "table history lacks timestamp",
            ),
        ],
    );
}
