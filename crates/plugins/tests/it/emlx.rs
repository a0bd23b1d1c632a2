//! Apple Mail's stored messages (`ios::emlx`): messages written by Python's email package with
//! Apple Mail's `.emlx` framing (`tests/fixtures/email/email_messages.py`; no public `.emlx` is in
//! the corpus), placed where two iPhones keep them — iOS 13+'s `Mail/MessageData/<id>/` and an
//! older account folder `Mail/<account>/INBOX.mbox/Messages/`. Python's parser, run on the same
//! bytes, is the oracle: every address (Cc and Bcc included) with its display name, the subject
//! and Date decoded, the message id, the attachment, the body; Mail's received time from its
//! property list; a partial download said; bytes that are no message noted, the rest read.

use masf_graph::Phenomenon;
use serde_json::Value;

use crate::android_support::{generate, has_fact, triage};

/// The time of `p` described `mark`.
fn time_of<'a>(p: &'a Phenomenon, mark: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|t| t.description == mark)
        .map(|t| p.verified_facts[t.fact].value.as_str())
}

fn check(p: &Phenomenon, o: &Value) {
    assert_eq!(p.category, "mail");
    assert_eq!(
        p.title,
        format!("E-mail: {}", o["subject"].as_str().unwrap())
    );
    for key in ["from", "to", "cc", "bcc", "reply_to"] {
        for a in o[key].as_array().into_iter().flatten() {
            for v in [&a["name"], &a["address"]] {
                let v = v.as_str().unwrap();
                assert!(v.is_empty() || has_fact(p, v), "{key} {v}: {p:#?}");
            }
        }
    }
    assert!(has_fact(p, o["subject"].as_str().unwrap()));
    assert!(has_fact(p, o["message_id"].as_str().unwrap()));
    assert_eq!(
        time_of(p, "E-mail date (Date header)"),
        Some(o["unix"].to_string().as_str())
    );
    for a in o["attachments"].as_array().unwrap() {
        assert!(has_fact(p, a["name"].as_str().unwrap()), "{p:#?}");
        assert!(has_fact(p, &a["bytes"].to_string()), "{p:#?}");
    }
    // the body, as the output escapes it
    let body = masf_tools::sqlite::escape_cell(&o["body"].as_str().unwrap().replace("\r\n", "\n"));
    assert!(
        p.verified_facts
            .iter()
            .any(|f| f.value.replace("\\r", "") == body),
        "{body}: {p:#?}"
    );
}

#[test]
fn apple_mail_emlx_messages_on_two_devices() {
    let tmp = tempfile::tempdir().unwrap();
    let gen_dir = tmp.path().join("gen");
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/email/email_messages.py",
        &[gen_dir.as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let place = |from: &str, to: &std::path::Path| {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(gen_dir.join(from), to).unwrap();
    };
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let mail_a = a.join("private/var/mobile/Library/Mail");
    for (id, name) in [
        ("3001", "3001.emlx"),
        ("3002", "3002.emlx"),
        ("3003", "3003.partial.emlx"),
    ] {
        place(
            &format!("Mail/MessageData/{id}/{name}"),
            &mail_a.join(format!("MessageData/{id}/{name}")),
        );
    }
    let mail_b = b.join("mobile/Library/Mail");
    place(
        "Mail/MessageData/3001/3001.emlx",
        &mail_b.join("IMAP-zoe@example.ch/INBOX.mbox/Messages/77.emlx"),
    );
    place(
        "Downloads/notmail.eml",
        &mail_b.join("IMAP-zoe@example.ch/INBOX.mbox/Messages/78.emlx"),
    );
    // an .emlx outside a Mail folder, and an .eml: not Apple Mail's store
    place(
        "Mail/MessageData/3002/3002.emlx",
        &b.join("mobile/Downloads/x.emlx"),
    );
    place("Downloads/invoice.eml", &mail_b.join("invoice.eml"));

    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    assert!(run.unparsed("a").is_empty(), "{:#?}", run.unparsed("a"));

    let all = run.all_phenomena("a");
    let mail: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("E-mail"))
        .collect();
    assert_eq!(mail.len(), 3, "{mail:#?}");
    for name in ["3001.emlx", "3002.emlx"] {
        let p = mail
            .iter()
            .find(|p| p.interpretation.contains(&format!("/{name}:")))
            .unwrap();
        check(p, &o[name]);
        assert!(
            p.interpretation.contains(&format!(
                "global message id {}",
                name.trim_end_matches(".emlx")
            )),
            "{}",
            p.interpretation
        );
    }
    let first = mail
        .iter()
        .find(|p| p.interpretation.contains("/3001.emlx:"))
        .unwrap();
    assert_eq!(time_of(first, "E-mail received (Mail)"), Some("1709653330"));
    assert_eq!(
        time_of(first, "E-mail last viewed (Mail)"),
        Some("1709660000")
    );
    assert!(has_fact(first, "4711"));
    let partial = mail
        .iter()
        .find(|p| p.interpretation.contains("/3003.partial.emlx:"))
        .unwrap();
    assert_eq!(
        partial.title,
        format!(
            "E-mail: {}",
            o["3003.partial.emlx"]["subject"].as_str().unwrap()
        )
    );
    assert!(
        partial.interpretation.contains("only partly downloaded"),
        "{}",
        partial.interpretation
    );

    let all = run.all_phenomena("b");
    let mail: Vec<&Phenomenon> = all
        .iter()
        .filter(|p| p.title.starts_with("E-mail"))
        .collect();
    assert_eq!(mail.len(), 1, "{mail:#?}");
    check(mail[0], &o["3001.emlx"]);
    assert!(!mail[0].interpretation.contains("global message id"));
    run.assert_noted(
        "b",
        &[("INBOX.mbox/Messages/78.emlx", "not an e-mail message")],
    );
}
