//! Chromium's offline pages (`android::offlinepages`) on two Android phones and a third tree,
//! written by `tests/fixtures/offlinepages/offlinepages.py` (Python's sqlite3, `offlinepages_v1`
//! as Chromium creates it; the saved pages written by Python's email library as Blink and
//! Internet Explorer write MHTML). The generator's record is the oracle: every saved page of
//! Chrome's store (the current layout: requesting app, download id, digest, snippet) and of
//! Samsung Internet's (Chromium 57's layout, the absent columns read as NULL) with each value
//! and time as stored and the meaning of its client namespace; every archive with its address,
//! title (an encoded word decoded in the interpretation, a folded title unfolded), date, writer,
//! size and the file's modification time; an IE archive without Snapshot-Content-Location named
//! by its file; a truncated store, an HTML page named `.mhtml` and an empty `.mht` noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn offlinepages_chromium_offline_pages_and_mhtml_archives_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/offlinepages/offlinepages.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
        ("c", &c, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let all = run.all_phenomena(source);
        let browser = o[source]["browser"].as_str().unwrap();
        // every saved page of the store, each value and time as stored
        let pages = o[source]["pages"].as_array().unwrap();
        let prefix = format!("{browser} offline page ");
        assert_eq!(
            all.iter().filter(|p| p.title.starts_with(&prefix)).count(),
            pages.len(),
            "{source}"
        );
        for page in pages {
            let url = page["online_url"].as_str().unwrap();
            let p = titled(&all, &format!("{prefix}{url}"));
            assert_eq!(p.category, "web");
            for (key, value) in page.as_object().unwrap() {
                if key == "times" {
                    continue;
                }
                let v = value.as_str().unwrap();
                assert!(has_fact(p, v), "{source} {key} {v}: {p:#?}");
            }
            let want: Vec<String> = page["times"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            assert_eq!(time_values(p), want, "{p:#?}");
        }
        // every archive: its header's values, its size and the file's modification time
        for ar in o[source]["archives"].as_array().unwrap() {
            let title = match ar["url"].as_str() {
                Some(u) => format!("Saved web page {u}"),
                None => format!("Saved web page {}", ar["file"].as_str().unwrap()),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "web");
            let path = ar["path"].as_str().unwrap();
            assert!(
                p.verified_facts.iter().any(|f| f.value.ends_with(path)),
                "{path}: {p:#?}"
            );
            for key in ["url", "subject", "date", "from", "size"] {
                if let Some(v) = ar[key].as_str() {
                    assert!(has_fact(p, v), "{key} {v}: {p:#?}");
                }
            }
            assert_eq!(
                time_values(p),
                vec![ar["modified"].as_str().unwrap().to_string()]
            );
            let decoded = ar["decoded"].as_str().unwrap();
            assert!(
                p.interpretation.contains(decoded),
                "{decoded}: {}",
                p.interpretation
            );
        }
    }
    let all = run.all_phenomena("a");
    // a page saved for another app, whose archive went missing: who asked, and since when gone
    let gone = titled(
        &all,
        "Chrome offline page https://news.example.hk/2024/03/04/typhoon-signal",
    );
    assert!(
        gone.times
            .iter()
            .any(|t| t.description == "Offline page's archive found missing"),
        "{gone:#?}"
    );
    // a recent tab Chrome kept by itself, said so from its client namespace
    let tab = titled(
        &all,
        "Chrome offline page https://www.ferry.hk/timetable/central-lamma",
    );
    assert!(
        tab.interpretation
            .contains("a recent tab the browser kept by itself"),
        "{}",
        tab.interpretation
    );
    // Samsung Internet's older layout: no digest, download id or requesting app read as facts
    let all = run.all_phenomena("b");
    let older = titled(
        &all,
        "Samsung Internet offline page https://longreads.example.org/the-last-ferry",
    );
    assert_eq!(
        older.verified_facts.len(),
        // the store's path and each value of the oracle's row (its two times among them)
        1 + (o["b"]["pages"][0].as_object().unwrap().len() - 1),
        "{older:#?}"
    );
    // the damaged tree: a truncated store, an HTML page and an empty file noted, nothing read
    run.assert_noted(
        "c",
        &[
            ("Offline Pages/metadata/OfflinePages.db", "malformed"),
            ("Not really.mhtml", "not an MHTML archive"),
            ("empty.mht", "not an MHTML archive"),
        ],
    );
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Saved web page") || p.title.contains("offline page")),
    );
}
