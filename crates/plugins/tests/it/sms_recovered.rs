//! Messages recovered from `sms.db`'s write-ahead log (`ios::sms` with `sqlite_wal_history`):
//! two iPhones' databases written in WAL mode by Python's sqlite3 and copied while open
//! (`tests/fixtures/wal/sms_wal.py`) — iOS 16's layout with messages deleted (one naming a
//! wallet, one inserted and deleted inside the log) and one edited, and an older layout with one
//! deleted. Every deleted message and the edited one's earlier text are recorded, each with its
//! GUID, handle, time and text as the generator wrote them (its oracle), said recovered and from
//! which page version; the live messages are recorded once, as before; the wallet in a deleted
//! message is still the sender's claim.

use masf_graph::Phenomenon;

use crate::android_support::{generate, has_fact, triage};

#[test]
fn deleted_and_edited_messages_come_back_from_the_log_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/wal/sms_wal.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "America/Los_Angeles", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, live) in [("a", 118), ("b", 59)] {
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
        let all = run.all_phenomena(source);
        let recovered: Vec<&Phenomenon> = all
            .iter()
            .filter(|p| p.title.ends_with("(recovered)"))
            .collect();
        let messages = all
            .iter()
            .filter(|p| p.category == "messages" && !p.title.ends_with("(recovered)"))
            .filter(|p| p.interpretation.starts_with("Message ROWID"))
            .count();
        assert_eq!(messages, live, "{source}: the live messages, once each");
        let oracle = &o[source];
        let want = oracle["deleted"].as_object().unwrap().len()
            + oracle["changed"].as_object().unwrap().len();
        assert_eq!(recovered.len(), want, "{recovered:#?}");
        for (kind, word) in [("deleted", "Deleted"), ("changed", "Earlier version of")] {
            for (rowid, m) in oracle[kind].as_object().unwrap() {
                let from_me = m["is_from_me"] == 1;
                let handle = oracle["handles"][m["handle_id"].to_string()]
                    .as_str()
                    .unwrap();
                let title = format!(
                    "{word} message {rowid} {} {handle} (recovered)",
                    if from_me { "sent to" } else { "received from" }
                );
                let p = recovered
                    .iter()
                    .find(|p| p.title == title)
                    .unwrap_or_else(|| panic!("{title}: {recovered:#?}"));
                assert_eq!(p.category, "messages");
                for v in [&m["guid"], &m["text"]] {
                    assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
                }
                assert!(has_fact(p, handle));
                let t = &p.verified_facts[p.times[0].fact].value;
                assert_eq!(t, &m["date"].to_string());
                assert!(
                    p.interpretation.contains("still holds it"),
                    "{}",
                    p.interpretation
                );
            }
        }
    }
    // the wallet named in a deleted received message: the sender's claim, as in a live one
    let ids = run.identifiers("a");
    assert!(
        ids.iter()
            .any(|(t, v)| t == "wallet" && v.contains("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")),
        "{ids:?}"
    );
}
