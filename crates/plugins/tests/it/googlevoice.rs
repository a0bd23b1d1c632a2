//! Google Voice for Android (`android::googlevoice`) on two phones and a third tree, written by
//! `tests/fixtures/googlevoice/googlevoice.py` (Python's sqlite3 and a stdlib Protocol Buffers
//! writer: `AccountData.pb`, the `VoiceAccountCache` key-value store and `LegacyMsgDbInstance.db`
//! with the field numbers ALEAPP's googleVoice reads). The generator's record is the oracle: the
//! account (e-mail, name, number), the Google Voice and linked numbers, every text, group text,
//! call, voicemail (its transcript's segments) and unnamed record with its ids, numbers, text,
//! duration as stored and time (Unix ms); the owner's e-mail, name and numbers; every other
//! number a counterparty; phone B's `message_t` without `conversation_id` read; tree C's cut and
//! foreign copies noted, a blob that is no message counted and noted beside a good text read,
//! and another app's files of the same names neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s<'a>(v: &'a serde_json::Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(|x| x.as_str()).filter(|x| !x.is_empty())
}

fn check_records(all: &[masf_graph::Phenomenon], records: &serde_json::Value, source: &str) {
    for r in records.as_array().unwrap() {
        let p = titled(all, s(r, "title").unwrap());
        assert_eq!(p.category, s(r, "category").unwrap(), "{source}: {p:#?}");
        for v in r["facts"].as_array().unwrap() {
            let v = v.as_str().unwrap();
            assert!(has_fact(p, v), "{source} {v}: {p:#?}");
        }
        assert_eq!(
            time_values(p),
            vec![s(r, "time").unwrap().to_string()],
            "{p:#?}"
        );
    }
}

#[test]
fn google_voice_account_numbers_texts_calls_and_voicemails() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/googlevoice/googlevoice.py",
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
        ("b", &b, "America/New_York", Some("US")),
        ("c", &c, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let want = &o[source];
        let all = run.all_phenomena(source);

        // the account entry of AccountData.pb
        let acc = &want["account"];
        let p = titled(&all, s(acc, "title").unwrap());
        assert_eq!(p.category, "accounts");
        for k in ["email", "name", "number"] {
            assert!(has_fact(p, s(acc, k).unwrap()), "{source} {k}: {p:#?}");
        }

        // the cached numbers
        let nums = &want["numbers"];
        let p = titled(&all, s(nums, "title").unwrap());
        assert!(has_fact(p, s(nums, "voice").unwrap()), "{p:#?}");
        for l in nums["linked"].as_array().unwrap() {
            assert!(has_fact(p, l.as_str().unwrap()), "{p:#?}");
        }

        // every record, and no more
        check_records(&all, &want["records"], source);
        let found = all
            .iter()
            .filter(|p| {
                p.category != "identity"
                    && p.title.starts_with("Google Voice ")
                    && !p.title.starts_with("Google Voice account ")
                    && !p.title.starts_with("Google Voice number ")
            })
            .count();
        assert_eq!(found, want["records"].as_array().unwrap().len(), "{source}");

        // the owner: the account's e-mail and name, its numbers; the others as counterparties
        let owner = run.owner(source);
        assert!(owner.contains(s(want, "email").unwrap()), "{owner}");
        assert!(
            owner.contains(&s(acc, "name").unwrap().to_lowercase()),
            "{owner}"
        );
        for n in want["own"].as_array().unwrap() {
            assert!(
                owner.contains(n.as_str().unwrap().trim_start_matches('+')),
                "{n}: {owner}"
            );
        }
        let entities = run.entities(source);
        for n in want["parties"].as_array().unwrap() {
            let digits = n.as_str().unwrap().trim_start_matches('+');
            assert!(
                entities
                    .iter()
                    .any(|e| !e.starts_with("owner ") && e.contains(digits)),
                "{n}: {entities:#?}"
            );
            assert!(!owner.contains(digits), "{n}: {owner}");
        }
    }
    // phone A's voicemails: Google's transcript, and the welcome voicemail said to be no call
    let all = run.all_phenomena("a");
    let vm = titled(&all, "Google Voice voicemail from +14155550155");
    assert!(
        vm.interpretation.contains("Hi it's Sam, call me back."),
        "{vm:#?}"
    );
    let welcome = titled(&all, "Google Voice voicemail from +16505550199");
    assert!(
        welcome.interpretation.contains("welcome voicemail"),
        "{welcome:#?}"
    );

    // the catalogue's detector finds the reads
    {
        use masf_agents::Plugin;
        let e = masf_plugins::android::AndroidPlugin
            .expected_artefacts()
            .into_iter()
            .find(|e| e.name == "Google Voice stores")
            .expect("in the catalogue");
        let args: Vec<String> = run.outputs("a").into_iter().map(|(_, a, _)| a).collect();
        assert!(
            args.iter()
                .any(|a| e.detector.iter().any(|d| a.contains(d.as_str()))),
            "{:?}",
            e.detector
        );
    }

    // tree C
    let want = &o["c"];
    let noted: Vec<(&str, &str)> = want["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    check_records(&run.all_phenomena("c"), &want["records"], "c");
    for rel in want["not_read"].as_array().unwrap() {
        let rel = rel.as_str().unwrap();
        assert!(
            !run.unparsed("c").iter().any(|u| u.artefact.ends_with(rel)),
            "{rel}: {:#?}",
            run.unparsed("c")
        );
        assert!(
            !run.outputs("c").iter().any(|(tool, args, _)| matches!(
                tool.as_str(),
                "sqlite_query" | "sqlite_tables" | "read_protobuf"
            ) && args.contains(rel)),
            "{rel} read"
        );
    }
    for v in want["foreign_values"].as_array().unwrap() {
        let v = v.as_str().unwrap();
        assert!(
            !run.outputs("c").iter().any(|(_, _, text)| text.contains(v)),
            "{v}"
        );
    }
}
