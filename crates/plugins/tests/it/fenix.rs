//! Firefox for Android's downloads, closed tabs and top sites and two Firefox profiles'
//! permissions and cookies (`android::fenix`), written by `tests/fixtures/fenix/fenix.py`
//! (Python's sqlite3, Mozilla's CREATE statements, the columns ALEAPP's firefox modules read):
//! an Android phone (with a Beta build's downloads store of the older layout) and a Windows
//! profile. The generator's record is the oracle: every download, closed tab, top site and
//! permission with its values and time; each cookie host with its count, names and times — and
//! no cookie value in any logged output. A `cookies.sqlite` outside a profile is not read.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn firefox_downloads_tabs_sites_permissions_and_cookies() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/fenix/fenix.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Asia/Hong_Kong", Some("HK")),
        ("b", &b, "Asia/Hong_Kong", Some("HK")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        for d in o["downloads"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Firefox download: {}", d["file_name"].as_str().unwrap()),
            );
            assert_eq!(p.category, "web");
            let folder = d
                .get("directory_path")
                .or(d.get("destination_directory"))
                .unwrap();
            for v in [&d["url"], &d["content_type"], folder] {
                assert!(has_fact(p, v.as_str().unwrap()), "{v}: {p:#?}");
            }
            assert!(has_fact(p, &d["status"].to_string()));
            assert_eq!(time_values(p), vec![d["created_at"].to_string()]);
        }
        for t in o["closed"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Firefox tab closed: {}", t["title"].as_str().unwrap()),
            );
            assert!(has_fact(p, t["url"].as_str().unwrap()));
            assert_eq!(time_values(p), vec![t["created_at"].to_string()]);
        }
        for t in o["top"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!("Firefox top site: {}", t["title"].as_str().unwrap()),
            );
            assert!(has_fact(p, &t["is_default"].to_string()));
        }
        for pm in o["perms"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Firefox permission {} for {}",
                    pm["type"].as_str().unwrap(),
                    pm["origin"].as_str().unwrap()
                ),
            );
            assert!(has_fact(p, &pm["permission"].to_string()));
            // an expiry of 0 is no time
            assert_eq!(time_values(p), vec![pm["modificationTime"].to_string()]);
        }
        let cookie_hosts: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Firefox cookies of "))
            .collect();
        let expected = o["cookies"].as_object().unwrap();
        assert_eq!(cookie_hosts.len(), expected.len(), "{cookie_hosts:#?}");
        for (host, h) in expected {
            let p = titled(&all, &format!("Firefox cookies of {host}"));
            assert!(has_fact(p, &h["count"].to_string()));
            for name in h["names"].as_array().unwrap() {
                let name = name.as_str().unwrap();
                assert!(
                    p.verified_facts.iter().any(|f| f.value.contains(name)),
                    "{name}: {p:#?}"
                );
            }
            let mut want = vec![h["first"].to_string(), h["last"].to_string()];
            want.sort();
            want.dedup();
            let mut got = time_values(p);
            got.dedup();
            assert_eq!(got, want);
        }
        for (_, _, text) in run.outputs(source) {
            assert!(!text.contains("COOKIE-SECRET"), "a cookie value was read");
        }
    }
    assert!(
        !run.all_phenomena("b")
            .iter()
            .any(|p| p.title == "Firefox cookies of other.example")
    );
}
