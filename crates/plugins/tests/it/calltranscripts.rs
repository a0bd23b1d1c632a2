//! The Google Phone app's call transcripts (`android::calltranscripts`) on two Android phones,
//! written by `tests/fixtures/calltranscripts/calltranscripts.py` (Google's protobuf runtime, the
//! field numbers ALEAPP's callTranscription reads). The generator's record is the oracle: every
//! utterance with its text, speaker and time; a file that is no message noted while the rest of
//! the phone is read.

use crate::android_support::{generate, has_fact, time_values, triage};

#[test]
fn call_transcripts_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/calltranscripts/calltranscripts.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Dublin", Some("IE")),
        ("b", &b, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let said: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Said in a recorded call: "))
            .collect();
        let expected = o[source].as_array().unwrap();
        assert_eq!(said.len(), expected.len(), "{source}: {said:#?}");
        for u in expected {
            let text = u["text"].as_str().unwrap();
            let p = said
                .iter()
                .find(|p| has_fact(p, text))
                .unwrap_or_else(|| panic!("{text}: {said:#?}"));
            assert_eq!(p.category, "calls");
            assert!(has_fact(p, u["speaker"].as_str().unwrap()));
            assert_eq!(time_values(p), vec![u["at"].as_str().unwrap().to_string()]);
            assert!(p.interpretation.contains(u["file"].as_str().unwrap()));
        }
    }
    run.assert_noted("b", &[(o["b_bad"].as_str().unwrap(), "")]);
}
