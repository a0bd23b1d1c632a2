//! Android's notification history (`android::notifications`): two phones'
//! `system_ce/<user>/notification_history/history/<time>` files written by Google's protobuf
//! runtime from `tests/fixtures/notification-history/notification_history.py` with the field
//! numbers of AOSP's `notificationhistory.proto` (phone A: pooled packages and channels, as
//! Android writes them, two users; phone B: strings written out, and a file cut short). The
//! generator's record is the oracle, and ALEAPP's `notificationHistory` parser (its compiled
//! proto) reads the same rows on these files: every notification is found with its app,
//! channel, title, text, user, uid and posted time; the cut file is noted and the rest read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn notification_history_pooled_and_plain_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/notification-history/notification_history.py",
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
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.category == "notifications")
            .collect();
        let expected = o[source].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{source}: {found:#?}");
        for n in expected {
            let s = |k: &str| n[k].as_str().unwrap();
            let title = format!("Notification of {}: {}", s("package"), s("title"));
            let p = found
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{source}: {title} in {found:#?}"));
            for k in ["package", "title", "text", "channel_name", "channel_id"] {
                assert!(has_fact(p, s(k)), "{k}: {p:#?}");
            }
            for k in ["uid", "user", "posted"] {
                assert!(has_fact(p, &n[k].to_string()), "{k}: {p:#?}");
            }
            if let Some(c) = n.get("conversation") {
                assert!(has_fact(p, c.as_str().unwrap()), "{p:#?}");
            }
            if let Some(i) = n.get("icon") {
                assert!(has_fact(p, i.as_str().unwrap()), "{p:#?}");
            }
            assert_eq!(p.times.len(), 1, "{p:#?}");
            assert!(
                p.interpretation
                    .contains(&format!("user {}'s notification history", n["user"])),
                "{}",
                p.interpretation
            );
        }
    }
    run.assert_noted(
        "b",
        &[("/notification_history/history/1732990000000", "protobuf")],
    );
    assert!(run.unparsed("a").is_empty(), "{:#?}", run.unparsed("a"));
}
