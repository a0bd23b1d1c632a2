//! Google Play services' semantic location raw signals (`android::semloc`) on two Android
//! phones, written by `tests/fixtures/semloc/semloc.py` (Google's LevelDB through plyvel, each
//! value a Protocol Buffers message in the layout ALEAPP's appSemloc reads). The generator's
//! record is the oracle: every fix with its coordinates as `leveldb_records` prints them, the
//! degrees of the title (negative ones from 64-bit varints and from fixed32), its accuracy and
//! time, whether its key was deleted since; a record that is no fix noted; another app's store
//! of the same layout never read; a log cut in its second record noted with its first fix read.

use crate::android_support::{generate, has_fact, time_values, triage};

#[test]
fn google_semantic_location_raw_signals_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "plyvel",
        "tests/fixtures/semloc/semloc.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let fixes = |source: &str| -> Vec<masf_graph::Phenomenon> {
        run.all_phenomena(source)
            .into_iter()
            .filter(|p| p.title.starts_with("Google raw location signal "))
            .collect()
    };
    for (source, expected) in [
        ("a", o["a"].as_array().unwrap().clone()),
        (
            "b",
            o["b"]
                .as_array()
                .unwrap()
                .iter()
                .chain(o["b_user10"].as_array().unwrap())
                .cloned()
                .collect::<Vec<_>>(),
        ),
    ] {
        let found = fixes(source);
        assert_eq!(found.len(), expected.len(), "{found:#?}");
        for f in &expected {
            let ts = f["ts"].as_str().unwrap();
            let p = found
                .iter()
                .find(|p| time_values(p) == vec![ts.to_string()])
                .unwrap_or_else(|| panic!("{ts}: {found:#?}"));
            assert_eq!(p.title, f["title"].as_str().unwrap());
            assert_eq!(p.category, "locations");
            for k in ["lat_shown", "lon_shown", "acc"] {
                let v = f[k].as_str().unwrap();
                assert!(has_fact(p, v), "{k} {v}: {p:#?}");
            }
            assert_eq!(
                p.interpretation.contains("its key was deleted since"),
                f["deleted"].as_bool().unwrap(),
                "{p:#?}"
            );
        }
    }
    // a negative longitude read as signed degrees, from a varint and from a fixed32
    let b = fixes("b");
    assert!(b.iter().any(|p| p.title.ends_with(", -79.3831800")));
    assert!(b.iter().any(|p| p.title.ends_with(", -79.3870600")));
    assert!(
        b.iter()
            .any(|p| p.title == "Google raw location signal -33.8688200, 151.2092900")
    );
    // another app's store of the same layout is not read
    let foreign = o["a_foreign"][0]["title"].as_str().unwrap();
    assert!(!fixes("a").iter().any(|p| p.title == foreign));
    run.assert_noted(
        "a",
        &[(
            "com.google.android.gms/app_semanticlocation_rawsignal_db/CURRENT",
            "no location fix",
        )],
    );
    run.assert_noted(
        "b",
        &[(
            "user/10/com.google.android.gms/app_semanticlocation_rawsignal_db/CURRENT",
            "damaged",
        )],
    );
}
