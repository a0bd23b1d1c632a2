//! RandoChat's store (`android::randochat`) on two Android phones, written by
//! `tests/fixtures/randochat/randochat.py` (Python's sqlite3, the tables and columns ALEAPP's
//! RandoChat reads). The generator's record is the oracle: the account with its nickname (the
//! owner's) and search preferences; every stranger with nickname, age, sex, blocked, picture,
//! each a `randochat:<id>` person; every message with its text, direction, time, media file and
//! stranger; phone B's older layout read; a truncated copy and a store of another layout noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn randochat_account_strangers_and_messages_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/randochat/randochat.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "America/Sao_Paulo", Some("BR")),
        ("b", &b, "America/Argentina/Buenos_Aires", Some("AR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        // the account: its settings, the nickname the owner's
        let acc = &o["account"];
        let nick = s(acc, "apelido").unwrap();
        let p = titled(&all, &format!("RandoChat account {nick}"));
        assert_eq!(p.category, "accounts");
        for k in [
            "sexo",
            "idade",
            "language",
            "device_id",
            "idade_de",
            "sexo_search",
        ] {
            if let Some(v) = s(acc, k) {
                assert!(has_fact(p, &v), "{k}: {p:#?}");
            }
        }
        assert!(
            run.owner(source)
                .contains(&format!("nickname={}", nick.to_lowercase())),
            "{}",
            run.owner(source)
        );
        // strangers: one per conversa row, each a randochat:<id> person
        let strangers = o["strangers"].as_array().unwrap();
        assert_eq!(count("RandoChat stranger "), strangers.len());
        let entities = run.entities(source);
        for st in strangers {
            let name = s(st, "apelido").unwrap();
            let id = s(st, "id_pessoa").unwrap();
            let p = titled(&all, &format!("RandoChat stranger {name}"));
            assert_eq!(p.category, "contacts");
            for k in [
                "id_pessoa",
                "idade",
                "sexo",
                "bloqueado",
                "favorite",
                "picture",
            ] {
                if let Some(v) = s(st, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert!(
                entities
                    .iter()
                    .any(|x| x.starts_with(&format!("randochat:{id} [Person] {name}"))),
                "{id}: {entities:#?}"
            );
        }
        // messages: direction by minha, time by direction, the stranger by the conversation
        let messages = o["messages"].as_array().unwrap();
        assert_eq!(count("RandoChat message "), messages.len());
        for m in messages {
            let id = s(m, "message_id").unwrap();
            let p = all
                .iter()
                .find(|p| p.title.starts_with("RandoChat message ") && has_fact(p, &id))
                .unwrap_or_else(|| panic!("{id}: {all:#?}"));
            assert_eq!(p.category, "messages");
            let sent = m["sent"].as_bool().unwrap();
            let who = s(m, "partner")
                .unwrap_or_else(|| format!("conversation {}", s(m, "conversation").unwrap()));
            let expected = if sent {
                format!("RandoChat message to {who}")
            } else {
                format!("RandoChat message from {who}")
            };
            assert_eq!(p.title, expected);
            assert!(
                has_fact(p, if sent { "sent" } else { "received" }),
                "{p:#?}"
            );
            assert_eq!(time_values(p), vec![s(m, "hora").unwrap()]);
            let mark = &p.times[0].description;
            assert_eq!(
                mark,
                if sent {
                    "Message sent"
                } else {
                    "Message received"
                }
            );
            for k in ["text", "url", "partner_id", "conversation"] {
                if let Some(v) = s(m, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
        }
    }
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.random.chat.app/databases/ramdochatV2.db",
                "malformed",
            ),
            (
                "user/11/com.random.chat.app/databases/ramdochatV2.db",
                "none of the tables",
            ),
        ],
    );
}
