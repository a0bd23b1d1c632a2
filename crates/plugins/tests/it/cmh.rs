//! Samsung's CMH store (`android::cmh`) on two Android phones, written by
//! `tests/fixtures/cmh/cmh.py` (Python's sqlite3, the tables and columns ALEAPP's cmh and
//! cmhTags read). The generator's record is the oracle: every image (and the labelled video,
//! not the unlabelled one) with its path, album, position, address, times, scene labels, QR
//! content and recognised text (its 0x1F separators shown as ` | `); every user tag with its
//! linked file and time; phone B's older generation read; a truncated copy and a store of
//! another layout noted.

use crate::android_support::{generate, has_fact, titled, triage};

#[test]
fn samsung_cmh_images_labels_text_and_user_tags_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/cmh/cmh.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Paris", Some("FR")),
        ("b", &b, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let files = o["files"].as_array().unwrap();
        let gallery: Vec<_> = all
            .iter()
            .filter(|p| {
                p.title.starts_with("Samsung gallery ")
                    && !p.title.starts_with("Samsung gallery user tag ")
            })
            .collect();
        assert_eq!(gallery.len(), files.len(), "{gallery:#?}");
        for f in files {
            let p = titled(&all, &s(f, "title").unwrap());
            assert_eq!(p.category, "media");
            for k in [
                "path", "latitude", "bucket", "private", "labels", "codes", "ocr_text", "address",
            ] {
                if let Some(v) = s(f, k) {
                    assert!(has_fact(p, &v), "{k} {v}: {p:#?}");
                }
            }
            let mut times: Vec<(String, String)> = p
                .times
                .iter()
                .map(|t| {
                    (
                        t.description.clone(),
                        p.verified_facts[t.fact].value.clone(),
                    )
                })
                .collect();
            times.sort();
            assert!(
                times.contains(&("Samsung gallery item taken".into(), s(f, "taken").unwrap())),
                "{times:?}"
            );
            assert!(
                times.contains(&("Samsung gallery item added".into(), s(f, "added").unwrap())),
                "{times:?}"
            );
            if let Some(v) = s(f, "ocr_added") {
                assert!(
                    times.contains(&("Samsung gallery text recognised".into(), v)),
                    "{times:?}"
                );
            }
        }
        for skipped in o["skipped"].as_array().unwrap() {
            assert!(
                !gallery
                    .iter()
                    .any(|p| has_fact(p, skipped.as_str().unwrap())),
                "{skipped}"
            );
        }
        let tags = o["user_tags"].as_array().unwrap();
        for u in tags {
            let p = titled(
                &all,
                &format!("Samsung gallery user tag {}", s(u, "tag").unwrap()),
            );
            if let Some(path) = s(u, "path") {
                assert!(has_fact(p, &path), "{p:#?}");
            }
            let recorded: Vec<String> = p
                .times
                .iter()
                .filter(|t| t.description == "Samsung gallery user tag recorded")
                .map(|t| p.verified_facts[t.fact].value.clone())
                .collect();
            assert_eq!(recorded, s(u, "timestamp").into_iter().collect::<Vec<_>>());
        }
        // no identity: the store names no account
        assert!(run.entities(source).iter().all(|e| !e.contains("gallery")));
    }
    // phone A: the ticket's QR content and recognised text on one image
    let all = run.all_phenomena("a");
    let ticket = titled(&all, "Samsung gallery image ticket_qr");
    assert!(
        has_fact(ticket, "https://tickets.example/e/QX81-77Z2")
            && has_fact(ticket, "ADMIT ONE | Gate B"),
        "{ticket:#?}"
    );
    run.assert_noted(
        "b",
        &[
            ("user/10/com.samsung.cmh/databases/cmh.db", "malformed"),
            (
                "user/11/com.samsung.cmh/databases/cmh.db",
                "none of the tables",
            ),
        ],
    );
}
