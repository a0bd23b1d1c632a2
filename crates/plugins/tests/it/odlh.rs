//! Google's on-device location history (`android::odlh`) of two Android phones, written by
//! `tests/fixtures/odlh/odlh.py` (Python's sqlite3 and Google's protobuf runtime, the tables,
//! columns and message fields ALEAPP's googleOdlh reads). The generator's record is the oracle:
//! every Timeline segment with its start and end, type, id and, where its message holds one,
//! the place's coordinates (stored degrees × 10⁷ as unsigned varints, a negative longitude west
//! of Greenwich wrapped) read as signed degrees; the segment the user edited with its block. A
//! second user's store without the segment table is noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn on_device_timeline_segments_on_two_android_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/odlh/odlh.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let segments: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Timeline segment from "))
            .collect();
        let expected = o["segments"].as_array().unwrap();
        assert_eq!(segments.len(), expected.len(), "{segments:#?}");
        for s in expected {
            let p = titled(&all, &format!("Timeline segment from {}", s["start"]));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, s["segment_id"].as_str().unwrap()));
            assert!(has_fact(p, "obf-gaia-7781"));
            let mut want = vec![s["start"].to_string(), s["end"].to_string()];
            want.sort();
            assert_eq!(time_values(p), want);
            match s["place"].as_array() {
                Some(pl) => {
                    for (v, what) in [(&pl[0], "latitude"), (&pl[1], "longitude")] {
                        let deg = v.as_f64().unwrap();
                        let stored = ((deg * 1e7).round() as i64 as u32).to_string();
                        assert!(has_fact(p, &stored), "{what} {stored}: {p:#?}");
                        assert!(
                            p.interpretation.contains(&format!("{what} {deg}")),
                            "{deg}: {}",
                            p.interpretation
                        );
                    }
                }
                None => assert!(
                    !p.interpretation.contains("latitude"),
                    "{}",
                    p.interpretation
                ),
            }
        }
        for e in o["edits"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Timeline segment edited: {}",
                    e["segment_id"].as_str().unwrap()
                ),
            );
            let mut want: Vec<String> = ["start", "end", "block_start", "block_end"]
                .iter()
                .map(|k| e[*k].to_string())
                .collect();
            want.sort();
            assert_eq!(time_values(p), want);
        }
    }
    run.assert_noted(
        "b",
        &[(
            "user/10/com.google.android.gms/databases/odlh-storage.db",
            "no semantic_segment_table",
        )],
    );
}
