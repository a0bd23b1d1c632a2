//! CapCut (`android::capcut`) on two Android phones and a third tree, written by
//! `tests/fixtures/capcut/capcut.py` (Python's sqlite3, the store, tables, columns and preference
//! keys ALEAPP's capCut reads). The generator's record is the oracle: every session with its
//! UUID, versions, event count, pages and times; every event with its tag, label, parameters,
//! user id, session and time; each preferences file with its ids and the install time; the
//! signed-in user id observed as the owner's `capcut:<id>` (none on phone B, whose events are all
//! before sign-in); phone B's older store (no `ext_json`, `event_index`, `page`) read; TikTok's
//! own `applog_stats.xml` not read; on tree C a store of another layout, a truncated copy and
//! preferences that are not XML noted while its other preferences are read.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn capcut_sessions_events_and_device_ids_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/capcut/capcut.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Asia/Singapore", Some("SG")),
        ("b", &b, "Europe/Madrid", Some("ES")),
        ("c", &c, "Europe/Madrid", Some("ES")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| v[k].as_str().map(str::to_string);
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        // sessions: one each, with the events and pages that name it
        let sessions = o["sessions"].as_array().unwrap();
        assert_eq!(count("CapCut session "), sessions.len(), "{source}");
        for se in sessions {
            let p = titled(&all, &format!("CapCut session {}", s(se, "value").unwrap()));
            assert_eq!(p.category, "app_usage");
            for k in ["_id", "duration", "app_version", "version_code", "events"] {
                assert!(has_fact(p, &s(se, k).unwrap()), "{k}: {p:#?}");
            }
            let pages: Vec<&str> = se["pages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap())
                .collect();
            if !pages.is_empty() {
                assert!(has_fact(p, &pages.join(", ")), "pages: {p:#?}");
            }
            let mut times = vec![
                s(se, "timestamp").unwrap(),
                s(se, "first").unwrap(),
                s(se, "last").unwrap(),
            ];
            times.sort();
            assert_eq!(time_values(p), times, "{p:#?}");
        }
        // events: one each, every stored value a fact, the time the event's
        let events = o["events"].as_array().unwrap();
        assert_eq!(count("CapCut event "), events.len(), "{source}");
        for ev in events {
            let tag = s(ev, "tag").unwrap();
            let title = match s(ev, "label") {
                Some(label) => format!("CapCut event {tag} ({label})"),
                None => format!("CapCut event {tag}"),
            };
            let stamp = s(ev, "timestamp").unwrap();
            let p = all
                .iter()
                .find(|p| p.title == title && has_fact(p, &stamp))
                .unwrap_or_else(|| panic!("{title} at {stamp}: {all:#?}"));
            assert_eq!(p.category, "app_usage");
            for k in [
                "_id",
                "category",
                "value",
                "ext_value",
                "ext_json",
                "user_id",
                "session_id",
                "event_index",
                "session_uuid",
            ] {
                if let Some(v) = s(ev, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![stamp]);
            let user = s(ev, "user_id").unwrap();
            assert_eq!(
                has_fact(p, &format!("capcut:{user}")),
                user != "0",
                "the account is qualified only when one was signed in: {p:#?}"
            );
        }
        // the signed-in user id is the owner's; phone B had none
        let owner = run.owner(source);
        let owned: Vec<&str> = o["owner"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        for q in &owned {
            assert!(owner.contains(&format!("account_id={q}")), "{owner}");
        }
        if owned.is_empty() {
            assert!(!owner.contains("capcut:"), "{owner}");
        }
        // each preferences file holding an id: one `device` phenomenon with its values
        let prefs = o["prefs"].as_object().unwrap();
        assert_eq!(count("CapCut preferences "), prefs.len(), "{source}");
        for (file, keys) in prefs {
            let p = titled(&all, &format!("CapCut preferences {file}"));
            assert_eq!(p.category, "device");
            for (k, v) in keys.as_object().unwrap() {
                let v = v.as_str().unwrap();
                if k == "monitor_install_time3" {
                    assert_eq!(time_values(p), vec![v.to_string()], "{p:#?}");
                } else {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
        }
        // device and install ids are no identity
        let entities = run.entities(source).join("\n");
        for keys in prefs.values() {
            for v in keys.as_object().unwrap().values() {
                assert!(!entities.contains(v.as_str().unwrap()), "{entities}");
            }
        }
    }
    // phone A: the two candidate ids side by side, TikTok's own preferences not read
    let all = run.all_phenomena("a");
    let other = o["a"]["other_app_device_id"].as_str().unwrap();
    assert!(
        !all.iter()
            .any(|p| p.verified_facts.iter().any(|f| f.value == other)),
        "TikTok's applog_stats.xml is not CapCut's"
    );
    // tree C: the damaged stores and the preferences that are not XML noted, the rest read
    let all = run.all_phenomena("c");
    assert!(!all.iter().any(|p| p.title.starts_with("CapCut session ")
        || p.title.starts_with("CapCut event ")));
    let p = titled(&all, "CapCut preferences common_config.xml");
    for v in o["c"]["prefs"]["common_config.xml"]
        .as_object()
        .unwrap()
        .values()
    {
        assert!(has_fact(p, v.as_str().unwrap()), "{p:#?}");
    }
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.lemon.lvoverseas/databases/ss_app_log.db",
                "neither event nor session",
            ),
            (
                "user/10/com.lemon.lvoverseas/databases/ss_app_log.db",
                "malformed",
            ),
            ("com.lemon.lvoverseas/shared_prefs/applog_stats.xml", ""),
        ],
    );
}
