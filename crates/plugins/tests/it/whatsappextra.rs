//! WhatsApp's message add-ons (`android::whatsappextra`) on two Android phones, written by
//! `tests/fixtures/whatsappextra/whatsappextra.py` (Python's sqlite3, the tables and columns
//! ALEAPP's `whatsAppExtended` reads, with WhatsApp's own `jid`, `chat` and `message`). The
//! generator's record is the oracle: every reaction, edit, message deleted for everyone, poll,
//! receipt and system event with its facts and stored times; a number change's two JIDs on one
//! person; the messages themselves recorded once (by `android::whatsapp`, not again); an older
//! variant on phone B read; a truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// The title prefixes of this reader's phenomena.
const OURS: &[&str] = &[
    "WhatsApp reaction ",
    "WhatsApp message edited ",
    "WhatsApp message deleted for everyone ",
    "WhatsApp poll ",
    "WhatsApp receipt from ",
    "WhatsApp number change ",
    "WhatsApp system event ",
];

#[test]
fn whatsapp_add_ons_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/whatsappextra/whatsappextra.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, messages) in [("a", 9), ("b", 4)] {
        let all = run.all_phenomena(source);
        let expected = o[source].as_array().unwrap();
        let ours: Vec<&str> = all
            .iter()
            .filter(|p| OURS.iter().any(|s| p.title.starts_with(s)))
            .map(|p| p.title.as_str())
            .collect();
        assert_eq!(ours.len(), expected.len(), "{ours:#?}");
        for e in expected {
            let p = titled(&all, e["title"].as_str().unwrap());
            assert_eq!(p.category, "messages", "{p:#?}");
            for v in e["facts"].as_array().unwrap() {
                let v = v.as_str().unwrap();
                assert!(has_fact(p, v), "{v}: {p:#?}");
            }
            let times: Vec<String> = e["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        // each message is recorded once, by the WhatsApp reader: none again by this one
        let recorded = all
            .iter()
            .filter(|p| {
                p.title.starts_with("WhatsApp message sent to ")
                    || p.title.starts_with("WhatsApp message received ")
            })
            .count();
        assert_eq!(recorded, messages, "{source}");
    }
    // phone A: the poll's options with their vote totals, the deleting admin, the prior subject
    let all = run.all_phenomena("a");
    let poll = titled(
        &all,
        "WhatsApp poll Cleaning day this week? sent in group Flat share Kreuzberg (120363055500011122@g.us)",
    );
    assert!(has_fact(poll, "Saturday (2); Sunday (1)"), "{poll:#?}");
    assert!(
        poll.interpretation.contains("Saturday (2); Sunday (1)"),
        "{}",
        poll.interpretation
    );
    // a number change: the old and the new JID on the new one's person
    let old = o["number_change"]["old"].as_str().unwrap();
    let new = o["number_change"]["new"].as_str().unwrap();
    let entities = run.entities("a");
    let person = entities
        .iter()
        .find(|e| e.starts_with(&format!("handle:{new} [")))
        .unwrap_or_else(|| panic!("{new}: {entities:#?}"));
    for jid in [old, new] {
        let number = jid.trim_end_matches("@s.whatsapp.net");
        assert!(person.contains(number), "{jid}: {person}");
    }
    // the recipients of the device user's messages and the reacting member are people
    for jid in [
        "4917611112222@s.whatsapp.net",
        "4915233334444@s.whatsapp.net",
    ] {
        assert!(
            entities
                .iter()
                .any(|e| e.starts_with(&format!("handle:{jid} ["))),
            "{jid}: {entities:#?}"
        );
    }
    // the group names no person
    assert!(
        !entities
            .iter()
            .any(|e| e.starts_with("handle:120363055500011122@g.us")),
        "{entities:#?}"
    );
    run.assert_noted(
        "b",
        &[
            ("user/10/com.whatsapp/databases/msgstore.db", "malformed"),
            (
                "user/11/com.whatsapp/databases/msgstore.db",
                "message_add_on_reaction lacks reaction",
            ),
        ],
    );
}
