//! Google Call Screen (`android::callscreen`): two phones' `callscreen_transcripts` written by
//! Python's sqlite3 and Google's protobuf runtime from `tests/fixtures/callscreen/callscreen.py`
//! (the `Transcript` columns and the conversation's field numbers ALEAPP's `googleCallScreen`
//! reads; phone B an older table without a recording column and a conversation that is no
//! message). The generator's record is the oracle: every transcript is found with its id,
//! modified time, recording and every utterance's time and text; the undecodable conversation
//! is said and its row still reported.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn call_screen_transcripts_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/callscreen/callscreen.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Warsaw", Some("PL")),
        ("b", &b, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Call Screen transcript "))
            .collect();
        let expected = o[source].as_array().unwrap();
        assert_eq!(found.len(), expected.len(), "{source}: {found:#?}");
        for t in expected {
            let id = t["id"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| p.title == format!("Call Screen transcript {id}"))
                .unwrap_or_else(|| panic!("{id}: {found:#?}"));
            assert_eq!(p.category, "calls");
            assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
            assert!(has_fact(p, t["modified"].as_str().unwrap()));
            if let Some(path) = t["path"].as_str() {
                assert!(has_fact(p, path), "{path}: {p:#?}");
            }
            let utterances = t["utterances"].as_array().unwrap();
            for u in utterances {
                let (at, text) = (u[0].as_str().unwrap(), u[1].as_str().unwrap());
                assert!(has_fact(p, at), "{at}: {p:#?}");
                assert!(has_fact(p, text), "{text}: {p:#?}");
                assert!(p.interpretation.contains(text));
            }
            // modified, and the first and last utterance
            assert_eq!(p.times.len(), 1 + utterances.len().min(2), "{p:#?}");
        }
    }
    let bad = run
        .all_phenomena("b")
        .into_iter()
        .find(|p| p.title == "Call Screen transcript b0b0-78")
        .unwrap();
    assert!(
        bad.interpretation.contains("0 utterance(s)"),
        "{}",
        bad.interpretation
    );
}
