//! Ornet / Tor Browser's stores (`android::ornet`) on two Android phones and a third tree, written
//! by `tests/fixtures/ornet/ornet.py` (Python's sqlite3, the tables and columns ALEAPP's
//! OrnetBrowser reads). The generator's record is the oracle: every visit with its date and time
//! joined as stored, every bookmark with its folder, suggestion, open tab with the number its
//! preview file is named by, frequent site, search, download and the preferences; phone B's older
//! layout read (no `time`, no folders, no preview file, no searches, no download status); the
//! profile's cookie host read by `android::fenix` with its value in no output; on phone C a
//! truncated copy and a store of another layout noted, another app's `appDatabase` neither read
//! nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn ornet_history_bookmarks_tabs_downloads_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/ornet/ornet.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Berlin", Some("DE")),
        ("b", &b, "America/Chicago", Some("US")),
        ("c", &c, "Europe/Berlin", Some("DE")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let visits = o["history"].as_array().unwrap();
        assert_eq!(count("Ornet visited "), visits.len());
        for h in visits {
            let p = titled(&all, &format!("Ornet visited {}", s(&h["url"])));
            assert_eq!(p.category, "web");
            assert!(has_fact(p, &s(&h["title"])), "{p:#?}");
            assert!(has_fact(p, &h["id"].to_string()), "{p:#?}");
            // the date and time joined as stored (phone B keeps both in `date`)
            let visited = match h.get("time") {
                Some(t) => format!("{} {}", s(&h["date"]), s(t)),
                None => s(&h["date"]),
            };
            assert_eq!(time_values(p), vec![visited]);
        }
        let marks = o["bookmarks"].as_array().unwrap();
        assert_eq!(count("Ornet bookmark "), marks.len());
        for m in marks {
            let p = titled(&all, &format!("Ornet bookmark {}", s(&m["title"])));
            assert!(has_fact(p, &s(&m["url"])), "{p:#?}");
            match m.get("folder").and_then(|f| f.as_str()) {
                Some(f) => assert!(has_fact(p, f), "{p:#?}"),
                None => assert!(!has_fact(p, "Research"), "{p:#?}"),
            }
        }
        for g in o["suggestions"].as_array().unwrap() {
            let p = titled(&all, &format!("Ornet suggestion {}", s(&g["title"])));
            assert!(has_fact(p, &s(&g["url"])), "{p:#?}");
        }
        let tabs = o["tabs"].as_array().unwrap();
        assert_eq!(count("Ornet open tab "), tabs.len());
        for t in tabs {
            let p = titled(&all, &format!("Ornet open tab {}", s(&t["title"])));
            assert!(has_fact(p, &s(&t["url"])), "{p:#?}");
            assert!(has_fact(p, &t["tabid"].to_string()), "{p:#?}");
            match t.get("file") {
                Some(f) => {
                    assert!(has_fact(p, &s(f)), "{p:#?}");
                    assert_eq!(time_values(p), vec![s(&t["ms"])]);
                }
                None => assert!(p.times.is_empty(), "{p:#?}"),
            }
        }
        for f in o["frequents"].as_array().unwrap() {
            let p = titled(&all, &format!("Ornet frequent site {}", s(&f["url"])));
            assert!(has_fact(p, &f["count"].to_string()), "{p:#?}");
            assert!(has_fact(p, &s(&f["title"])), "{p:#?}");
        }
        let searches = o
            .get("searches")
            .and_then(|x| x.as_array())
            .cloned()
            .unwrap_or_default();
        assert_eq!(count("Ornet search "), searches.len());
        for q in &searches {
            titled(&all, &format!("Ornet search {}", s(&q["title"])));
        }
        for d in o["downloads"].as_array().unwrap() {
            let p = titled(&all, &format!("Ornet download {}", s(&d["file_name"])));
            for k in ["url", "dir_path"] {
                assert!(has_fact(p, &s(&d[k])), "{k}: {p:#?}");
            }
            for k in ["total_bytes", "downloaded_bytes"] {
                assert!(has_fact(p, &d[k].to_string()), "{k}: {p:#?}");
            }
            match d.get("status") {
                Some(st) => assert!(has_fact(p, &s(st)), "{p:#?}"),
                None => assert!(!has_fact(p, "COMPLETED"), "{p:#?}"),
            }
            assert_eq!(time_values(p), vec![d["last_modified_at"].to_string()]);
        }
    }
    // phone A's preferences and the profile's cookie host (android::fenix, never the value)
    let all = run.all_phenomena("a");
    let prefs = titled(&all, "Ornet preferences");
    let pr = &o["a"]["prefs"];
    assert!(
        has_fact(prefs, &s(&pr["selectedSearchEngine"])),
        "{prefs:#?}"
    );
    assert!(has_fact(prefs, &pr["currentTab"].to_string()), "{prefs:#?}");
    assert_eq!(
        time_values(prefs),
        vec![pr["last_app_close_time"].to_string()]
    );
    titled(
        &all,
        &format!("Firefox cookies of {}", s(&o["a"]["cookie_host"])),
    );
    assert!(
        !run.all_phenomena("b")
            .iter()
            .any(|p| p.title == "Ornet preferences")
    );
    for source in ["a", "b", "c"] {
        for (tool, args, text) in run.outputs(source) {
            for secret in o["secrets"].as_array().unwrap() {
                assert!(!text.contains(&s(secret)), "{secret} in {tool} {args}");
            }
        }
    }
    // phone C: the damaged copies noted, another app's appDatabase left alone
    run.assert_noted(
        "c",
        &[
            (
                "user/10/com.ornet.torbrowser/databases/appDatabase",
                "malformed",
            ),
            (
                "user/11/com.ornet.torbrowser/databases/appDatabase",
                "none of the tables",
            ),
        ],
    );
    let other = s(&o["other_url"]);
    assert!(
        !run.all_phenomena("c")
            .iter()
            .any(|p| p.title.starts_with("Ornet ")
                || p.verified_facts.iter().any(|f| f.value == other)),
        "another app's appDatabase read"
    );
    assert!(
        !run.unparsed("c")
            .iter()
            .any(|u| u.artefact.contains("com.other.notes")),
        "another app's appDatabase noted"
    );
}
