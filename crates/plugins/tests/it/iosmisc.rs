//! Quick Look's iCloud thumbnail cache (`ios::quicklook`), the keyboard's query predictions
//! (`ios::querypredictions`) and Siri's voice trigger enrolment (`ios::voicetrigger`) of two
//! iPhones written by `tests/fixtures/iosmisc/iosmisc.py` (Python's sqlite3 and json, with the
//! tables, columns and keys iLEAPP's quickLook, queryPredictions and voiceTriggers read). The
//! generator's record is the oracle: every thumbnail row (phone A's only in the `-wal`) with its
//! path, size and hit time; every prediction message with its text, direction, ids and time;
//! every recording with its day, device, utterance path and the `.wav` beside it or not; a
//! predictions store without `content` and a cut JSON noted, `meta_version.json` passed over.

use masf_graph::TimeEncoding;

use crate::android_support::{generate, has_fact, triage};

#[test]
fn quick_look_predictions_and_voice_trigger_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosmisc/iosmisc.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Madrid", Some("ES")),
        ("b", &b, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);

        let thumbs: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Quick Look thumbnail of "))
            .collect();
        let expected = o["thumbnails"].as_array().unwrap();
        assert_eq!(thumbs.len(), expected.len(), "{source}: {thumbs:#?}");
        for r in expected {
            let seen = r["last_seen_path"].as_str().unwrap();
            let p = thumbs
                .iter()
                .find(|p| has_fact(p, seen))
                .unwrap_or_else(|| panic!("{seen}"));
            assert_eq!(p.category, "files");
            assert!(has_fact(p, &r["size"].to_string()));
            match r["last_hit_date"].as_i64() {
                Some(t) => {
                    assert_eq!(p.times.len(), 1);
                    assert_eq!(p.times[0].encoding, TimeEncoding::UnixSeconds);
                    let v: f64 = p.verified_facts[p.times[0].fact].value.parse().unwrap();
                    assert_eq!(v, t as f64);
                }
                None => assert!(p.times.is_empty()),
            }
        }

        let predictions: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Keyboard prediction store: message "))
            .collect();
        let expected = o["predictions"].as_array().map_or(&[][..], Vec::as_slice);
        assert_eq!(
            predictions.len(),
            expected.len(),
            "{source}: {predictions:#?}"
        );
        for m in expected {
            let text = m["content"].as_str().unwrap();
            let p = predictions
                .iter()
                .find(|p| has_fact(p, text))
                .unwrap_or_else(|| panic!("{text}"));
            assert_eq!(p.category, "messages");
            let sent = m["isSent"] == 1;
            assert!(p.title.ends_with(if sent { "sent" } else { "received" }));
            for k in ["conversationId", "uuid"] {
                assert!(has_fact(p, m[k].as_str().unwrap()), "{k}");
            }
            assert_eq!(
                p.times[0].description,
                if sent {
                    "Message sent"
                } else {
                    "Message received"
                }
            );
        }

        let voices: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Siri voice trigger recording "))
            .collect();
        let expected = o["voice"].as_array().unwrap();
        assert_eq!(voices.len(), expected.len(), "{source}: {voices:#?}");
        for r in expected {
            let n = r["n"].as_str().unwrap();
            let meta = &r["meta"];
            let product = meta["productType"].as_str().unwrap();
            let p = voices
                .iter()
                .find(|p| {
                    p.title == format!("Siri voice trigger recording {n} (recorded on {product})")
                })
                .unwrap_or_else(|| panic!("{n}: {voices:#?}"));
            assert_eq!(p.category, "media");
            for (_, v) in meta.as_object().unwrap() {
                assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
            }
            let wav = r["wav"].as_bool().unwrap();
            assert_eq!(
                p.verified_facts
                    .iter()
                    .any(|f| f.value.ends_with(&format!("/td/audio/{n}.wav"))
                        && f.value.starts_with("/private/")),
                wav,
                "{p:#?}"
            );
        }
    }
    run.assert_noted(
        "b",
        &[
            ("Keyboard/query_predictions.db", "content"),
            ("td/audio/2.json", ""),
        ],
    );
}
