//! Gmail's store of other providers' accounts and mail (`android::gmail::mail`,
//! `com.google.android.gm/databases/EmailProvider.db`) on two Android phones, written by
//! `tests/fixtures/gmail_mail/gmail_mail.py` (Python's sqlite3, the tables and columns ALEAPP's
//! `gmailIMAPAccounts` and `gmailIMAPEmails` read; no public copy is in the corpus). The
//! generator's record — ALEAPP's own queries re-run — is the oracle: every account with its
//! address, shown and sender name and both servers (protocol, host, port, login), observed as the
//! phone's user's; every message with its lists, subject, snippet, folder, attachments and time,
//! titled as received, sent or draft; every other address a correspondent; phone B's older
//! layout read; a truncated copy and a store of another layout noted; and no password or token
//! in any output of the run.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn gmail_other_provider_accounts_and_mail_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/gmail_mail/gmail_mail.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Lisbon", Some("PT")),
        ("b", &b, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let owner = run.owner(source);
        // accounts: one per Account row, with both servers; the address the owner's
        let accounts = o["accounts"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Gmail ") && p.title.contains(" account "))
            .filter(|p| !p.title.starts_with("Gmail active account"))
            .collect();
        assert_eq!(found.len(), accounts.len(), "{found:#?}");
        for acc in accounts {
            let email = s(acc, "email").unwrap();
            let servers = acc["servers"].as_array().unwrap();
            let protocol = s(&servers[0], "protocol").unwrap();
            let p = titled(&all, &format!("Gmail {protocol} account {email}"));
            assert_eq!(p.category, "accounts");
            for k in ["id", "displayName", "senderName"] {
                if let Some(v) = s(acc, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            for server in servers {
                for k in ["protocol", "address", "port", "login"] {
                    let v = s(server, k).unwrap();
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            assert!(
                owner.contains(&format!("email={email}")),
                "{email}: {owner}"
            );
        }
        assert_eq!(
            all.iter()
                .any(|p| p.interpretation.contains("a server password is stored")),
            o["password_stored"].as_bool().unwrap(),
            "{source}"
        );
        // messages: one per Message row, titled by direction, with ALEAPP's fields
        let messages = o["messages"].as_array().unwrap();
        let mails: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Gmail e-mail "))
            .collect();
        assert_eq!(mails.len(), messages.len(), "{mails:#?}");
        for m in messages {
            let p = titled(&all, &s(m, "title").unwrap());
            assert_eq!(p.category, "messages");
            for k in [
                "fromList",
                "toList",
                "replyToList",
                "subject",
                "snippet",
                "displayName",
                "folder",
                "folder_type",
                "account",
                "attachments",
            ] {
                if let Some(v) = s(m, k).filter(|v| !v.is_empty()) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(m, "timeStamp").unwrap()], "{p:#?}");
        }
        // every other address is a correspondent, none of the accounts' is
        let entities = run.entities(source);
        for c in o["correspondents"].as_array().unwrap() {
            let c = c.as_str().unwrap();
            // a no-reply sender is a placeholder address: a fact of its message, no identity
            if c.starts_with("no-reply@") || c.starts_with("noreply@") {
                assert!(
                    !entities
                        .iter()
                        .any(|e| e.starts_with(&format!("handle:{c} "))),
                    "{c}: {entities:#?}"
                );
                continue;
            }
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("handle:{c} "))),
                "{c}: {entities:#?}"
            );
        }
        for own in o["own"].as_array().unwrap() {
            let own = own.as_str().unwrap();
            assert!(
                !entities
                    .iter()
                    .any(|e| e.starts_with(&format!("handle:{own} "))),
                "{own}: {entities:#?}"
            );
        }
        // never a password or token, in a phenomenon or in any output the run logged
        let secrets: Vec<&str> = o["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            for x in &secrets {
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
        }
        for p in &all {
            for x in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{x}: {p:#?}"
                );
            }
        }
    }
    // phone A: the message with two attachments, the draft and the sent reply
    let all = run.all_phenomena("a");
    let guia = titled(
        &all,
        "Gmail e-mail from paulo.reis@barlavento-transportes.example: Guia de transporte 2024/118",
    );
    assert!(
        has_fact(guia, "\"Armazém\" <armazem@barlavento-transportes.example>")
            && has_fact(guia, "<gt-118@barlavento-transportes.example>"),
        "{guia:#?}"
    );
    let draft = titled(&all, "Gmail e-mail draft: Inscrição regata de maio");
    assert!(draft.interpretation.contains("drafted"), "{draft:#?}");
    let sent = titled(&all, "Gmail e-mail sent: Re: Guia de transporte 2024/118");
    assert!(
        has_fact(sent, "contabilidade@carvalho-lda.example"),
        "{sent:#?}"
    );
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.google.android.gm/databases/EmailProvider.db",
                "malformed",
            ),
            (
                "user/11/com.google.android.gm/databases/EmailProvider.db",
                "none of the tables",
            ),
        ],
    );
}
