//! Google Maps' text-to-speech cache (`android::mapstts`) on two Android phones and a third tree,
//! written by `tests/fixtures/mapstts/mapstts.py` (real PCM WAV files from Python's `wave`
//! module, named `<number>_<Unix ms>` in `app_tts-cache/` as ALEAPP's googlemapaudio finds
//! them). The generator's record is the oracle: every instruction file with its path, name, the
//! number and the time in its name, size, modified time, the container's marker and the text one
//! file carries in its INFO chunk; phone A's lock file passed over; phone B's stereo files and its
//! empty file (listed, said empty); phone C's cut copy and a file of the name that is no audio
//! noted while listed, and another app's `app_tts-cache` neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s(v: &serde_json::Value) -> String {
    v.as_str().unwrap().to_string()
}

#[test]
fn google_maps_tts_cache_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/mapstts/mapstts.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "America/Toronto", Some("CA")),
        ("b", &b, "Europe/Amsterdam", Some("NL")),
        ("c", &c, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let files = o[source]["files"].as_array().unwrap();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Google Maps spoken instruction "))
            .collect();
        assert_eq!(found.len(), files.len(), "{source}: {found:#?}");
        for f in files {
            let p = titled(
                &all,
                &format!("Google Maps spoken instruction {}", s(&f["name"])),
            );
            assert_eq!(p.category, "locations");
            for k in ["path", "name", "number", "size"] {
                assert!(has_fact(p, &s(&f[k])), "{source} {k}: {p:#?}");
            }
            if let Some(m) = f["marker"].as_str() {
                assert!(has_fact(p, m), "{source} marker {m}: {p:#?}");
            }
            if let Some(t) = f["text"].as_str() {
                assert!(has_fact(p, t), "{source} text {t}: {p:#?}");
            }
            let mut want = vec![s(&f["stamp"]), s(&f["modified"])];
            want.sort();
            assert_eq!(time_values(p), want, "{p:#?}");
        }
    }
    // the WAV header is described; the lock file is passed over
    let all = run.all_phenomena("a");
    assert!(
        all.iter().any(|p| p
            .interpretation
            .contains("PCM, 1 channel, 16000 Hz, 16-bit")),
        "{all:#?}"
    );
    assert!(!all.iter().any(|p| p.title.contains("tts_cache.lock")));
    let all = run.all_phenomena("b");
    assert!(
        all.iter()
            .any(|p| p.interpretation.contains("2 channels, 22050 Hz")),
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|p| p.title.ends_with("-5_1698830000003") && p.interpretation.contains("empty"))
    );
    assert!(
        !run.unparsed("b")
            .iter()
            .any(|u| u.artefact.contains("app_tts-cache")),
        "the empty file is not noted"
    );

    // C: the cut copy and the file that is no audio noted; another app's cache passed over
    run.assert_noted(
        "c",
        &[
            (&s(&o["c"]["cut"]), "cut"),
            (&s(&o["c"]["foreign"]), "no audio format"),
        ],
    );
    let other = s(&o["c"]["other"]);
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.ends_with(&other)),
        "another app's file noted"
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Google Maps") && has_fact(p, &other)),
        "another app's file read"
    );
    for (tool, args, _) in run.outputs("c") {
        assert!(
            !(matches!(tool.as_str(), "hexdump" | "strings") && args.contains("com.example.navi")),
            "{tool} {args}"
        );
    }
}
