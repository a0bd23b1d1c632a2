//! What three Android phones' keyboards kept (`android::keyboard`), written by
//! `tests/fixtures/androidkeyboard/keyboard.py` (Python's sqlite3 and Google's protobuf runtime, the
//! tables and columns ALEAPP's gboard, samsung_honeyboard_clipboard and userDict read). The
//! generator's record is the oracle: every Gboard clip with its time, every typing event with
//! each piece of its text (the payload message decoded by `sqlite_query`), the typing sessions,
//! the user dictionary's words; Samsung Keyboard's clips in both schemas, with the app copied
//! from and the Secure Folder's user, and the clip deleted after it was written read back from
//! the write-ahead log; Gboard's older `tf_table` cache joined by session; a user_dict.db without
//! its table noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn head(s: &str) -> String {
    let mut h: String = s.chars().take(60).collect();
    if h.len() < s.len() {
        h.push('…');
    }
    h
}

#[test]
fn keyboards_clipboards_typing_and_dictionary_on_three_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/androidkeyboard/keyboard.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|s| tmp.path().join(s)).collect();
    let run = triage(&[
        ("a", &dirs[0], "Asia/Hong_Kong", Some("HK")),
        ("b", &dirs[1], "Asia/Hong_Kong", Some("HK")),
        ("c", &dirs[2], "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    // phone A: Gboard's clips, typing events and sessions; the user dictionary
    let all = run.all_phenomena("a");
    let clips: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Copied to the clipboard (Gboard): "))
        .collect();
    assert_eq!(clips.len(), 3, "{clips:#?}");
    for c in o["a"]["clips"].as_array().unwrap() {
        let shown = c["text"]
            .as_str()
            .map(head)
            .or_else(|| c["uri"].as_str().map(str::to_string))
            .unwrap();
        let p = titled(&all, &format!("Copied to the clipboard (Gboard): {shown}"));
        assert_eq!(p.category, "keyboard");
        for k in ["text", "uri"] {
            if let Some(v) = c[k].as_str() {
                assert!(has_fact(p, v), "{k}: {p:#?}");
            }
        }
        assert_eq!(time_values(p), vec![c["timestamp"].to_string()]);
        assert_eq!(
            p.interpretation.contains("pinned (item_type 1)"),
            c["item_type"] == 1,
            "{}",
            p.interpretation
        );
    }
    let typed: Vec<_> = all
        .iter()
        .filter(|p| p.title.starts_with("Typed in "))
        .collect();
    // the event whose payload is no message is passed over
    assert_eq!(typed.len(), 2, "{typed:#?}");
    for e in o["a"]["events"].as_array().unwrap() {
        let pieces: Vec<&str> = e["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let p = titled(
            &all,
            &format!(
                "Typed in {} (Gboard): {}",
                e["f2"].as_str().unwrap(),
                head(&pieces.concat())
            ),
        );
        for piece in &pieces {
            assert!(has_fact(p, piece), "{piece}: {p:#?}");
        }
        assert!(has_fact(p, e["f4"].as_str().unwrap()) && has_fact(p, &e["f5"].to_string()));
        assert_eq!(time_values(p), vec![e["f9"].to_string()]);
    }
    for s in o["a"]["sessions"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "Gboard typing session in {}",
                s["package_name"].as_str().unwrap()
            ),
        );
        let mut want = vec![s["_session_id"].to_string(), s["_timestamp_"].to_string()];
        want.sort();
        assert_eq!(time_values(p), want);
    }
    for w in o["a"]["words"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "Word added to the user dictionary: {}",
                w["word"].as_str().unwrap()
            ),
        );
        for k in ["shortcut", "locale"] {
            if let Some(v) = w[k].as_str() {
                assert!(has_fact(p, v), "{k}: {p:#?}");
            }
        }
        assert!(p.times.is_empty());
    }

    // phone B: Samsung Keyboard's clips, the deleted one recovered; Gboard's older cache
    let all = run.all_phenomena("b");
    for c in o["b"]["samsung"].as_array().unwrap() {
        let p = titled(
            &all,
            &format!(
                "Copied to the clipboard (Samsung Keyboard): {}",
                head(c["text"].as_str().unwrap())
            ),
        );
        for k in ["text", "caller_package_name", "mime_type"] {
            assert!(has_fact(p, c[k].as_str().unwrap()), "{k}: {p:#?}");
        }
        assert!(has_fact(p, &c["user_id"].to_string()));
        assert_eq!(time_values(p), vec![c["time_stamp"].to_string()]);
    }
    let deleted = &o["b"]["samsung_deleted"][0];
    let p = titled(
        &all,
        &format!(
            "Deleted clip of Samsung Keyboard: {} (recovered)",
            head(deleted["text"].as_str().unwrap())
        ),
    );
    assert!(has_fact(
        p,
        deleted["caller_package_name"].as_str().unwrap()
    ));
    assert_eq!(time_values(p), vec![deleted["time_stamp"].to_string()]);
    assert!(p.interpretation.contains("deleted"), "{}", p.interpretation);
    // no live clip is also said to be recovered
    assert_eq!(
        all.iter()
            .filter(|p| p.title.ends_with("(recovered)"))
            .count(),
        1
    );
    let tf = &o["b"]["tf"];
    let p = titled(
        &all,
        &format!(
            "Typed in {} (Gboard): {}",
            tf["app"].as_str().unwrap(),
            tf["text"].as_str().unwrap()
        ),
    );
    assert!(
        has_fact(p, tf["text"].as_str().unwrap()) && has_fact(p, tf["field"].as_str().unwrap())
    );
    let mut want: Vec<String> = tf["times"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.to_string())
        .collect();
    want.sort();
    assert_eq!(time_values(p), want);

    // phone C: the older clipboard (the app's uid), a user_dict.db without words
    let all = run.all_phenomena("c");
    let c = &o["c"]["samsung"][0];
    let p = titled(
        &all,
        &format!(
            "Copied to the clipboard (Samsung Keyboard): {}",
            c["text"].as_str().unwrap()
        ),
    );
    assert!(has_fact(p, c["html"].as_str().unwrap()) && has_fact(p, "10077"));
    assert!(
        p.interpretation.contains("type HTML"),
        "{}",
        p.interpretation
    );
    run.assert_noted("c", &[("user_dict.db", "words")]);
}
