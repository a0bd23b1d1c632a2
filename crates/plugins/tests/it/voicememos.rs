//! Voice Memos (`ios::voicememos`): two iPhones' stores written by the sqlite3 CLI from
//! `tests/fixtures/voicememos/voicememos.py` (`CloudRecordings.db` of iOS 14 to 16 with a folder,
//! a deleted memo and one without audio; iOS 11's `Recordings.db`). The generator's record is the
//! oracle, and iLEAPP's `voice_memos`, run on the same files, lists the same recordings (date,
//! duration, title, whether a file is recorded): every memo is found with its values; the
//! deleted one says it is in Recently Deleted with its eviction time.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn voice_memos_cloud_and_old_stores() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/voicememos/voicememos.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let memos: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Voice memo "))
            .collect();
        let rows = o[source].as_array().unwrap();
        assert_eq!(memos.len(), rows.len(), "{memos:#?}");
        for r in rows {
            let title = r
                .get("ZCUSTOMLABELFORSORTING")
                .or(r.get("ZCUSTOMLABEL"))
                .and_then(|v| v.as_str())
                .unwrap();
            let p = memos
                .iter()
                .find(|p| p.title == format!("Voice memo {}: {title}", r["Z_PK"]))
                .unwrap_or_else(|| panic!("{title}: {memos:#?}"));
            assert_eq!(p.category, "media");
            for k in ["ZDURATION", "ZPATH", "ZUNIQUEID", "ZCUSTOMLABEL", "folder"] {
                match r.get(k) {
                    Some(serde_json::Value::String(v)) => {
                        assert!(has_fact(p, v), "{k}: {p:#?}")
                    }
                    Some(serde_json::Value::Number(n)) => {
                        assert!(has_fact(p, &n.to_string()), "{k}: {p:#?}")
                    }
                    _ => {}
                }
            }
            let evicted = r.get("ZEVICTIONDATE").is_some_and(|v| !v.is_null());
            assert_eq!(p.times.len(), 1 + usize::from(evicted), "{p:#?}");
            assert_eq!(
                p.interpretation.contains("in Recently Deleted"),
                evicted,
                "{}",
                p.interpretation
            );
            assert_eq!(
                p.interpretation.contains("no audio file recorded"),
                r["ZPATH"].is_null(),
                "{}",
                p.interpretation
            );
        }
    }
}
