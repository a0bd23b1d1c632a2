//! OkHttp's response caches (`android::okhttpcache`, the `read_okhttp_cache` tool) on two
//! Android phones and a third tree, written by the real OkHttp library
//! (`tests/fixtures/okhttpcache/generate.sh`: Debian's libokhttp-java fetching from local HTTP
//! and HTTPS servers). The generator's oracle names every URL fetched, the key OkHttp's own
//! `Cache.key` gives it and whether it was kept or removed; the metadata files OkHttp wrote are
//! the oracle of the times. Phone A: a shop app over HTTPS (TLS section, a response read again
//! from the cache, one removed, a POST never cached, a bearer token and a session cookie that
//! no output may hold); phone B: a news app over plain HTTP under `/data/user/0`; tree C: a
//! journal that is none (noted), a cache with a cut metadata file and a bad journal line
//! (noted, its other responses read), and two other `DiskLruCache` journals (Glide's and
//! another's: neither read nor noted).

use std::path::Path;

use crate::android_support::{has_fact, repo, titled, triage};

/// The value of `header` in an OkHttp metadata file.
fn header(meta: &str, header: &str) -> String {
    meta.lines()
        .find_map(|l| l.strip_prefix(&format!("{header}: ")))
        .unwrap_or_else(|| panic!("{header} in {meta}"))
        .to_string()
}

fn copy_tree(from: &Path, to: &Path) {
    for e in walk(from) {
        let rel = e.strip_prefix(from).unwrap();
        let dst = to.join(rel);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(&e, &dst).unwrap();
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn okhttp_caches_on_two_phones_with_secrets_redacted() {
    let fixture = repo("tests/fixtures/okhttpcache");
    let o: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture.join("oracle.json")).unwrap())
            .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for t in ["a", "b", "c"] {
        copy_tree(&fixture.join(t), &tmp.path().join(t));
    }
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Zurich", Some("CH")),
        ("c", &c, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let secrets: Vec<&str> = o["secrets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    for (source, root) in [("a", &a), ("b", &b)] {
        let want = &o[source];
        let package = want["package"].as_str().unwrap();
        let folder = want["folder"].as_str().unwrap();
        let all = run.all_phenomena(source);
        let entries = want["entries"].as_array().unwrap();
        let kept: Vec<_> = entries.iter().filter(|e| e["state"] == "clean").collect();
        let found: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("OkHttp cache of "))
            .collect();
        assert_eq!(found.len(), kept.len(), "{source}: {found:#?}");
        for e in &kept {
            let url = e["url"].as_str().unwrap();
            let key = e["key"].as_str().unwrap();
            let p = titled(&all, &format!("OkHttp cache of {package}: GET {url}"));
            assert_eq!(p.category, "web");
            assert!(has_fact(p, url) && has_fact(p, key) && has_fact(p, folder));
            assert!(has_fact(p, "HTTP/1.1 200 OK"), "{p:#?}");
            assert!(has_fact(p, "true"), "key is MD5 of the URL: {p:#?}");
            assert!(has_fact(p, &e["reads"].to_string()), "{p:#?}");
            // the times OkHttp wrote, as Unix ms time marks
            let meta = std::fs::read_to_string(
                root.join(folder.trim_start_matches('/'))
                    .join(format!("{key}.0")),
            )
            .unwrap();
            let mut times: Vec<(String, String)> = p
                .times
                .iter()
                .map(|m| {
                    assert_eq!(m.encoding, masf_graph::TimeEncoding::UnixMillis);
                    (
                        m.description.clone(),
                        p.verified_facts[m.fact].value.clone(),
                    )
                })
                .collect();
            times.sort();
            assert_eq!(
                times,
                vec![
                    (
                        "Request sent (OkHttp)".to_string(),
                        header(&meta, "OkHttp-Sent-Millis")
                    ),
                    (
                        "Response received (OkHttp)".to_string(),
                        header(&meta, "OkHttp-Received-Millis")
                    ),
                ]
            );
            assert!(has_fact(p, &header(&meta, "Content-type")), "{p:#?}");
            if url.starts_with("https://") {
                assert!(has_fact(p, "TLS_AES_256_GCM_SHA384") || has_fact(p, "TLSv1.3"));
            }
        }
        // the folder's summary counts the removed response, whose URL the journal no longer has
        let removed = entries.iter().filter(|e| e["state"] == "removed").count();
        let summary = titled(&all, &format!("OkHttp cache {folder}"));
        let text = &summary.verified_facts[1].value;
        assert!(
            text.contains(&format!("{} entries", entries.len())),
            "{text}"
        );
        if removed > 0 {
            assert!(text.contains(&format!("{removed} removed")), "{text}");
        }
        assert!(
            run.unparsed(source).is_empty(),
            "{:#?}",
            run.unparsed(source)
        );
    }
    // the secrets: in no logged output of a parsing tool, in no fact, on any tree
    for source in ["a", "b", "c"] {
        for (tool, args, text) in run.outputs(source) {
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            for x in &secrets {
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
        }
        for p in run.all_phenomena(source) {
            for x in &secrets {
                assert!(!p.verified_facts.iter().any(|f| f.value.contains(x)));
            }
        }
    }
    // the shop's bearer token and cookie were there, redacted
    let shop = run.all_phenomena("a");
    assert!(shop.iter().any(|p| p.verified_facts.iter().any(|f| {
        f.value
            .contains("[redacted by MASForensics: Authorization of 27 characters]")
    })));

    // C: the journal that is none and the cut metadata file noted, the cut cache's other
    // responses read; the Glide and other DiskLruCache journals neither read nor noted
    run.assert_noted(
        "c",
        &[
            (
                "com.example.broken/cache/http/journal",
                "not a DiskLruCache journal",
            ),
            ("com.example.cut/cache/http_cache/journal", "the file ends"),
            (
                "com.example.cut/cache/http_cache/journal",
                "no journal operation",
            ),
        ],
    );
    // (Glide's folder is the Glide reader's: whatever it records or notes there is its own)
    let notes = run.unparsed("c");
    assert!(
        !notes
            .iter()
            .any(|u| u.artefact.contains("com.example.other")),
        "{notes:#?}"
    );
    let c_all = run.all_phenomena("c");
    let cut: Vec<_> = c_all
        .iter()
        .filter(|p| p.title.starts_with("OkHttp cache of com.example.cut: "))
        .collect();
    assert_eq!(cut.len(), 3, "{cut:#?}");
    assert!(!c_all.iter().any(|p| p.title.starts_with("OkHttp cache")
        && (p.title.contains("gallery") || p.title.contains("com.example.other"))));
    assert!(!c_all.iter().any(|p| p.title.contains("com.example.other")));
}
