//! Xiaohongshu's stores (`android::xiaohongshu`) on two Android phones, written by
//! `tests/fixtures/xiaohongshu/xiaohongshu.py` (Python's sqlite3, the table and columns ALEAPP's
//! xiaohongshu reads). The generator's record is the oracle: every play-history entry with its
//! note id, title, description, author and time; each author with an id a `xiaohongshu:<id>`
//! person, the one without an id none; the account the history is filed under the owner's;
//! phone B's older table read; the encrypted `msgDB` and `localRelationDB`, a plain `msgDB` of
//! an unknown layout, a truncated store and one of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn xiaohongshu_play_history_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/xiaohongshu/xiaohongshu.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Shanghai", Some("CN")),
        ("b", &b, "Asia/Shanghai", Some("CN")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let entries = o["entries"].as_array().unwrap();
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Xiaohongshu note "))
                .count(),
            entries.len()
        );
        let entities = run.entities(source);
        for e in entries {
            let shown = s(e, "note_title").or_else(|| s(e, "note_id")).unwrap();
            let p = titled(&all, &format!("Xiaohongshu note {shown}"));
            assert_eq!(p.category, "media");
            for k in ["note_id", "note_desc", "user_name", "author_id", "user_id"] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(e, "timestamp").unwrap()]);
            let name = s(e, "user_name").unwrap();
            match s(e, "qualified") {
                Some(q) => assert!(
                    entities
                        .iter()
                        .any(|x| x.starts_with(&format!("{q} [Person] {name}"))),
                    "{q}: {entities:#?}"
                ),
                // no author id: the name stays a fact
                None => assert!(
                    !entities
                        .iter()
                        .any(|x| x.to_lowercase().contains(&name.to_lowercase())),
                    "{name}: {entities:#?}"
                ),
            }
        }
        let owner = s(o, "owner").unwrap();
        titled(&all, &format!("Xiaohongshu account {owner}"));
        assert!(
            run.owner(source)
                .contains(&format!("account_id=xiaohongshu:{owner}")),
            "{}",
            run.owner(source)
        );
    }
    run.assert_noted(
        "a",
        &[
            (
                "data/com.xingin.xhs/databases/msgDB",
                "does not open as SQLite",
            ),
            (
                "data/com.xingin.xhs/databases/localRelationDB",
                "does not open as SQLite",
            ),
        ],
    );
    run.assert_noted(
        "b",
        &[
            (
                "data/data/com.xingin.xhs/databases/msgDB",
                "opens as plain SQLite (tables: chat_cache",
            ),
            (
                "user/10/com.xingin.xhs/databases/PlayHistoryRecordDB",
                "malformed",
            ),
            (
                "user/11/com.xingin.xhs/databases/PlayHistoryRecordDB",
                "no table historyRecord",
            ),
        ],
    );
}
