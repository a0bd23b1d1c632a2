//! Likee's files (`android::likee`) on two Android phones, written by
//! `tests/fixtures/likee/likee.py` (Python's sqlite3 and bytes, the tables, columns and text
//! ALEAPP's likee reads). The generator's record is the oracle: every user searched with name,
//! Likee ID and user id, each a `likee:<uid>` person; every message with its text, user id and
//! time; every location file's printable runs of its `address` lines (a Cyrillic address
//! among them); phone B's older table read; a truncated `like_pub.db` and a location file
//! without an address noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn likee_searches_messages_and_location_text_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/likee/likee.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Moscow", Some("RU")),
        ("b", &b, "Asia/Dubai", Some("AE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let entities = run.entities(source);
        let searches = o["searches"].as_array().unwrap();
        assert_eq!(count("Likee user searched "), searches.len());
        for e in searches {
            let name = s(e, "history_user_name").unwrap();
            let uid = s(e, "history_user_uid").unwrap();
            let p = titled(&all, &format!("Likee user searched {name}"));
            assert_eq!(p.category, "social");
            assert!(
                has_fact(p, &uid) && has_fact(p, &format!("likee:{uid}")),
                "{p:#?}"
            );
            if let Some(id) = s(e, "history_user_bigo_id") {
                assert!(has_fact(p, &id), "{p:#?}");
            }
            assert!(
                entities
                    .iter()
                    .any(|x| x.starts_with(&format!("likee:{uid} [Person] {name}"))),
                "{uid}: {entities:#?}"
            );
        }
        let messages = o["messages"].as_array().unwrap();
        assert_eq!(count("Likee message, user "), messages.len());
        for m in messages {
            let text = s(m, "content").unwrap();
            let p = all
                .iter()
                .find(|p| p.title.starts_with("Likee message, user ") && has_fact(p, &text))
                .unwrap_or_else(|| panic!("{text}: {all:#?}"));
            assert_eq!(p.category, "messages");
            let uid = s(m, "uid").unwrap();
            assert_eq!(p.title, format!("Likee message, user {uid}"));
            assert_eq!(time_values(p), vec![s(m, "time").unwrap()]);
        }
        let locations = o["locations"].as_array().unwrap();
        assert_eq!(count("Likee location text "), locations.len());
        for f in locations {
            let p = titled(
                &all,
                &format!("Likee location text {}", s(f, "file").unwrap()),
            );
            assert_eq!(p.category, "locations");
            for r in f["runs"].as_array().unwrap() {
                assert!(has_fact(p, r.as_str().unwrap()), "{r}: {p:#?}");
            }
        }
    }
    let all = run.all_phenomena("a");
    let moscow = titled(&all, "Likee location text 1800012345_location.kv");
    assert!(
        has_fact(moscow, "ул. Тверская, 7, Москва, Россия"),
        "{moscow:#?}"
    );
    run.assert_noted(
        "b",
        &[
            ("user/10/video.like/databases/like_pub.db", "malformed"),
            (
                "user/11/video.like/files/1599900999/1599900999_location.kv",
                "no line of the Likee location file",
            ),
        ],
    );
}
