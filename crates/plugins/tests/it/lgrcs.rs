//! LG's RCS tables of `mmssms.db` (`android::lgrcs`) on two Android phones and a third tree,
//! written by `tests/fixtures/lgrcs/lgrcs.py` (Python's sqlite3, the `message` and `file_info`
//! tables ALEAPP's lgRCS reads, beside AOSP's `sms`). The generator's record is the oracle: every
//! RCS message with its party, text, thread, message id, time and file transfer; every chat with
//! its numbers, count and first and last time; the numbers observed as parties; the SMS still
//! read by the SMS reader and never as RCS; phone B's older `message` without `file_info` read;
//! phone C's `message` of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn lgrcs_chats_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/lgrcs/lgrcs.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/Los_Angeles", Some("US")),
        ("b", &b, "Europe/London", Some("GB")),
        ("c", &c, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();

    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let messages = o[source]["messages"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("LG RCS message "))
            .collect();
        assert_eq!(found.len(), messages.len(), "{source}: {found:#?}");
        let ids = run.identifiers(source);
        for m in messages {
            let (rid, address) = (s(&m["rid"]), s(&m["address"]));
            let title = match m.get("file_name").and_then(|v| v.as_str()) {
                Some(file) => format!("LG RCS message {rid} with {address}: file {file}"),
                None => format!("LG RCS message {rid} with {address}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "messages");
            for k in [
                "address",
                "body",
                "thread_id",
                "message_id",
                "file_name",
                "file_path",
                "file_size",
                "thumb_file_path",
                "thumb_file_size",
                "file_xml_path",
            ] {
                if let Some(v) = m.get(k).and_then(|v| v.as_str()) {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(&m["date"])], "{p:#?}");
            // the other party, observed as SMS parties are
            assert!(
                ids.iter().any(|(t, n)| t == "phone" && *n == address),
                "{address}: {ids:?}"
            );
        }
        // one chat per thread: its numbers (a group chat's several), count, first and last
        let chats = o[source]["chats"].as_object().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("LG RCS chat "))
            .collect();
        assert_eq!(found.len(), chats.len(), "{source}: {found:#?}");
        for (thread, chat) in chats {
            let p = found
                .iter()
                .find(|p| p.title.starts_with(&format!("LG RCS chat {thread} with ")))
                .unwrap_or_else(|| panic!("chat {thread}: {found:#?}"));
            assert!(has_fact(p, thread) && has_fact(p, &chat["count"].to_string()));
            for a in chat["addresses"].as_array().unwrap() {
                assert!(has_fact(p, &s(a)), "{a}: {p:#?}");
            }
            let mut times = vec![s(&chat["first"]), s(&chat["last"])];
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
            assert_eq!(
                p.interpretation.contains("a group chat"),
                chat["addresses"].as_array().unwrap().len() > 1,
                "{p:#?}"
            );
        }
    }
    // the SMS beside them are the SMS reader's, never an RCS message
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        for body in o[source]["sms"].as_array().unwrap() {
            let body = s(body);
            assert!(
                all.iter()
                    .any(|p| p.title.starts_with("SMS ") && has_fact(p, &body)),
                "{source}: SMS {body}"
            );
            assert!(
                !all.iter()
                    .any(|p| p.title.starts_with("LG RCS ") && has_fact(p, &body)),
                "{source}: SMS {body} read as RCS"
            );
        }
    }
    // B's older table: no read, is-file or file columns, no file_info table
    let all = run.all_phenomena("b");
    let p = titled(&all, "LG RCS message 1 with +447700900321");
    assert!(p.interpretation.contains("read not stored"), "{p:#?}");
    // C: a `message` table of another layout is noted, nothing recorded of it
    run.assert_noted("c", &[("mmssms.db", "date, address")]);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("LG RCS "))
    );
}
