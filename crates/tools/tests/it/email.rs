//! `read_email` on messages written by Python's email package (`tests/fixtures/email/`): RFC
//! 2047 encoded words in UTF-8 and ISO-8859-1, a folded References header, an attachment, Cc
//! and Bcc; Apple Mail's `.emlx` framing with Mail's property list after the message, and one
//! whose count runs past the end. Python's own parser, run on the same bytes, is the oracle.
//! Bytes that are no message are refused naming the file; the evidence is left unchanged.

use masf_store::InvocationStatus;
use masf_tools::{Catalog, Limits};
use serde_json::json;

use crate::support::{call, generated, invoker, run, store};

/// The lines of `text` starting with `key\t`, split on tabs after the key.
fn lines<'a>(text: &'a str, key: &str) -> Vec<Vec<&'a str>> {
    text.lines()
        .filter_map(|l| l.strip_prefix(&format!("{key}\t")))
        .map(|l| l.split('\t').collect())
        .collect()
}

#[test]
fn messages_and_emlx_files_read_as_python_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("src");
    let oracle = generated("tests/fixtures/email/email_messages.py", &root);
    let files = [
        "Mail/MessageData/3001/3001.emlx",
        "Mail/MessageData/3002/3002.emlx",
        "Mail/MessageData/3003/3003.partial.emlx",
        "Downloads/invoice.eml",
        "Downloads/notmail.eml",
    ];
    let before: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(root.join(f)).unwrap())
        .collect();
    let src = std::sync::Arc::new(masf_tools::SourceCtx::open("src-folder", &root).unwrap());

    for (file, name) in [
        ("Mail/MessageData/3001/3001.emlx", "3001.emlx"),
        ("Mail/MessageData/3002/3002.emlx", "3002.emlx"),
        ("Downloads/invoice.eml", "invoice.eml"),
    ] {
        let o = &oracle[name];
        let got = run(
            &src,
            "read_email",
            json!({"path": format!("/{file}"), "body": true}),
        );
        let text = &got.text;
        for key in ["from", "to", "cc", "bcc", "reply_to"] {
            let want: Vec<(String, String)> = o[key]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| {
                    (
                        a["name"].as_str().unwrap().to_string(),
                        a["address"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            let have: Vec<(String, String)> = lines(text, key)
                .iter()
                .map(|l| (l[0].to_string(), l[1].to_string()))
                .collect();
            assert_eq!(have, want, "{name} {key}:\n{text}");
        }
        assert_eq!(
            lines(text, "subject"),
            vec![vec![o["subject"].as_str().unwrap()]],
            "{text}"
        );
        let date = &lines(text, "date")[0];
        assert_eq!(date[0], o["utc"].as_str().unwrap(), "{text}");
        assert_eq!(date[1], o["unix"].to_string());
        assert_eq!(
            lines(text, "message_id"),
            vec![vec![o["message_id"].as_str().unwrap()]]
        );
        let attachments: Vec<Vec<String>> = o["attachments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                vec![
                    a["name"].as_str().unwrap().to_string(),
                    a["bytes"].to_string(),
                    a["type"].as_str().unwrap().to_string(),
                ]
            })
            .collect();
        let have: Vec<Vec<String>> = lines(text, "attachment")
            .iter()
            .map(|l| l.iter().map(|s| s.to_string()).collect())
            .collect();
        assert_eq!(have, attachments, "{text}");
        // the body, as escaped text (Python keeps the CRLF line ends of the wire form)
        let body = o["body"].as_str().unwrap();
        let have = lines(text, "body")[0][0]
            .replace("\\r", "")
            .replace("\\n", "\n");
        assert_eq!(have, body.replace('\r', ""), "{text}");
        // every header as stored
        assert!(lines(text, "header").len() >= 6, "{text}");
    }
    // the .emlx framing and Mail's property list
    let first = run(
        &src,
        "read_email",
        json!({"path": "/Mail/MessageData/3001/3001.emlx"}),
    );
    assert!(
        first.text.starts_with(&format!(
            "# email /Mail/MessageData/3001/3001.emlx: {} bytes, emlx: message of ",
            before[0].len()
        )),
        "{}",
        first.text
    );
    let plist: Vec<Vec<&str>> = lines(&first.text, "emlx");
    for (k, v) in [
        ("date-received", "1709653330"),
        ("date-last-viewed", "1709660000"),
        ("flags", "8590195713"),
        ("remote-id", "4711"),
        ("conversation-id", "9182736455"),
    ] {
        assert!(plist.contains(&vec![k, v]), "{k}: {plist:?}");
    }
    assert!(
        lines(&first.text, "body").is_empty(),
        "no body unless asked"
    );
    // the folded References header: one line per id, the header unfolded
    let inv = run(
        &src,
        "read_email",
        json!({"path": "/Downloads/invoice.eml"}),
    );
    assert!(oracle["invoice.eml"]["folded"].as_bool().unwrap());
    let refs: Vec<&str> = lines(&inv.text, "references")
        .iter()
        .map(|l| l[0])
        .collect();
    let want: Vec<&str> = oracle["invoice.eml"]["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(refs, want);
    let header = lines(&inv.text, "header")
        .into_iter()
        .find(|l| l[0] == "References")
        .unwrap();
    assert_eq!(header[1].matches("<ref.").count(), 6, "{header:?}");
    // a partial download: read as far as it goes, said to be cut short
    let partial = run(
        &src,
        "read_email",
        json!({"path": "/Mail/MessageData/3003/3003.partial.emlx"}),
    );
    let o = &oracle["3003.partial.emlx"];
    assert!(
        partial.text.lines().next().unwrap().ends_with(&format!(
            "emlx: message of {} bytes, cut short at {}",
            o["announced"], o["present"]
        )),
        "{}",
        partial.text
    );
    assert_eq!(
        lines(&partial.text, "subject"),
        vec![vec![o["subject"].as_str().unwrap()]]
    );
    // no message: refused, naming the file
    let (_store_dir, mut store) = store();
    let inv = invoker(Catalog::standard(), Limits::default());
    let r = call(
        &inv,
        &mut store,
        &src,
        "read_email",
        json!({"path": "/Downloads/notmail.eml"}),
        "a",
        "t",
        1,
    );
    assert_eq!(r.record.status, InvocationStatus::Failed);
    let reason = r.record.reason.unwrap();
    assert!(
        reason.contains("/Downloads/notmail.eml: not an e-mail message"),
        "{reason}"
    );
    // damaged copies of a real message (cut at many offsets, bytes overwritten): each read or
    // refused, never a panic
    let damaged = dir.path().join("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    let whole = &before[0];
    let mut names = Vec::new();
    for (i, at) in (1..whole.len()).step_by(41).enumerate() {
        let mut cut = whole[..at].to_vec();
        if i % 2 == 1 {
            let n = cut.len();
            for b in cut.iter_mut().skip(n / 2).step_by(7) {
                *b ^= 0xa5;
            }
        }
        let name = format!("m{i}.emlx");
        std::fs::write(damaged.join(&name), &cut).unwrap();
        names.push(name);
    }
    let dsrc = masf_tools::SourceCtx::open("damaged", &damaged).unwrap();
    let catalog = Catalog::standard();
    let tool = catalog.get("read_email").unwrap();
    let mut read = 0;
    for name in &names {
        if tool
            .run(&dsrc, &json!({"path": format!("/{name}"), "body": true}))
            .is_ok()
        {
            read += 1;
        }
    }
    assert!(read > 0 && names.len() > 40, "{read} of {}", names.len());
    for (f, b) in files.iter().zip(before) {
        assert_eq!(std::fs::read(root.join(f)).unwrap(), b, "{f}");
    }
}
