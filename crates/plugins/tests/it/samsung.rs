//! Samsung's system stores (`android::samsung`) and My Files' operation history
//! (`android::samsungfiles`) on two Samsung phones, written by `tests/fixtures/samsung/samsung.py`
//! (Python's sqlite3, the tables and columns ALEAPP's `shistorylog`, `samsungPrivacyDashboard`,
//! `scontextLog`, `samsungWifiDatabases`, `smyfilesOpHistory`, `samsungSleepDetection` and
//! `samsungBadgeProvider` read). The generator's record is the oracle: every Secure Folder entry
//! with the users it went from and to and its direction; every Privacy Dashboard access with its
//! app, permission group and time; the context log's app sessions and install events; each Wi-Fi
//! geofence with the position ALEAPP would choose; the saved networks; the screen changes and the
//! sleep window; the badges; My Files' operations with the older releases' obfuscated paths
//! decoded (and the newer `#G$` ones not) and the newer releases' items. Phone B's older layouts
//! are read; a truncated ContextLog.db and a permission_db of another layout are noted; another
//! launcher's `badge.db` and another app's `OperationHistory.db` are neither read nor noted.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

fn s(v: &serde_json::Value) -> Option<&str> {
    v.as_str()
}

#[test]
fn samsung_system_stores_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/samsung/samsung.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Prague", Some("CZ")),
        ("b", &b, "America/Toronto", Some("CA")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let ours = [
        "Secure Folder history ",
        "Privacy Dashboard: ",
        "App used (Samsung context log): ",
        "Wi-Fi geofence ",
        "Saved Wi-Fi network ",
        "Screen state ",
        "Sleep detected ",
        "App badge ",
        "My Files ",
    ];
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        for p in all
            .iter()
            .filter(|p| ours.iter().any(|x| p.title.starts_with(x)))
        {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }

        // the Secure Folder's history: the users from and to, into or out of it
        let history = o["history"].as_array().unwrap();
        assert_eq!(count("Secure Folder history "), history.len());
        for e in history {
            let (when, msg) = (s(&e["timestamp"]).unwrap(), s(&e["message"]).unwrap());
            let (title, users) = if msg.starts_with("[0 -> 150]") {
                (
                    format!("Secure Folder history {when}: user 0 to user 150"),
                    Some("into the Secure Folder"),
                )
            } else if msg.starts_with("[150 -> 0]") {
                (
                    format!("Secure Folder history {when}: user 150 to user 0"),
                    Some("out of the Secure Folder"),
                )
            } else {
                (format!("Secure Folder history {when}: {msg}"), None)
            };
            let p = all
                .iter()
                .find(|p| p.title == title && has_fact(p, msg))
                .unwrap_or_else(|| panic!("{title} {msg}"));
            assert_eq!(p.category, "files");
            assert_eq!(time_values(p), vec![when.to_string()]);
            match users {
                Some(d) => assert!(has_fact(p, d) && has_fact(p, "150"), "{p:#?}"),
                None => assert!(
                    !has_fact(p, "into the Secure Folder")
                        && !has_fact(p, "out of the Secure Folder"),
                    "{p:#?}"
                ),
            }
            if let Some(tag) = s(&e["tag"]) {
                assert!(has_fact(p, tag));
            }
        }

        // the Privacy Dashboard: who used which permission, when
        let perms = o["permissions"].as_array().unwrap();
        assert_eq!(count("Privacy Dashboard: "), perms.len());
        for e in perms {
            let p = titled(
                &all,
                &format!(
                    "Privacy Dashboard: {} used {}",
                    s(&e["PACKAGE_NAME"]).unwrap(),
                    s(&e["PERMISSION_GROUP_ID"]).unwrap()
                ),
            );
            assert_eq!(p.category, "apps");
            assert_eq!(
                time_values(p),
                vec![s(&e["ACCESS_TIME"]).unwrap().to_string()]
            );
            for k in [
                "OPERATION_CODE",
                "BACKGROUND",
                "UID",
                "PROXY_NAME",
                "PROXY_ATTRIBUTION_TAG",
            ] {
                if let Some(v) = e.get(k).and_then(s) {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
        }

        // the context log: app sessions and install events
        let sessions = o["use_app"].as_array().unwrap();
        assert_eq!(count("App used (Samsung context log): "), sessions.len());
        for e in sessions {
            let p = all
                .iter()
                .find(|p| {
                    p.title
                        == format!(
                            "App used (Samsung context log): {}",
                            s(&e["app_id"]).unwrap()
                        )
                        && time_values(p).contains(&s(&e["starttime"]).unwrap().to_string())
                })
                .unwrap_or_else(|| panic!("{e}"));
            assert_eq!(p.category, "app_usage");
            let mut want: Vec<String> = ["starttime", "stoptime", "timestamp"]
                .iter()
                .filter_map(|k| s(&e[*k]).map(str::to_string))
                .collect();
            want.sort();
            assert_eq!(time_values(p), want);
            assert!(
                has_fact(p, s(&e["app_sub_id"]).unwrap())
                    && has_fact(p, s(&e["duration"]).unwrap())
            );
        }
        for e in o["manage_app"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "App {} (Samsung context log): {}",
                    s(&e["verification"]).unwrap(),
                    s(&e["installed_app_id"]).unwrap()
                ),
            );
            assert_eq!(p.category, "apps");
            assert_eq!(
                time_values(p),
                vec![s(&e["timestamp"]).unwrap().to_string()]
            );
        }

        // Wi-Fi geofences: the position ALEAPP chooses (base, else major; 1000.0 and -1.0 unset)
        let unset = |v: Option<&str>| v.is_none_or(|v| matches!(v, "1000.0" | "-1.0"));
        let fences = o["geofence"].as_array().unwrap();
        assert_eq!(count("Wi-Fi geofence "), fences.len());
        for e in fences {
            let key = s(&e["config_key"]).unwrap();
            let ssid = key.split('"').nth(1).unwrap();
            let p = titled(&all, &format!("Wi-Fi geofence {ssid}"));
            assert_eq!(p.category, "locations");
            assert!(
                has_fact(p, key) && has_fact(p, s(&e["bssid"]).unwrap()),
                "{p:#?}"
            );
            let (lat, lon) = (s(&e["latitude"]), s(&e["longitude"]));
            let (mlat, mlon) = (s(&e["latitude_major"]), s(&e["longitude_major"]));
            if !unset(lat) && !unset(lon) {
                assert!(has_fact(p, lat.unwrap()) && has_fact(p, lon.unwrap()));
                assert!(has_fact(p, "latitude/longitude"), "{p:#?}");
            } else if !unset(mlat) && !unset(mlon) {
                assert!(has_fact(p, mlat.unwrap()) && has_fact(p, mlon.unwrap()));
                assert!(has_fact(p, "latitude_major/longitude_major"), "{p:#?}");
            } else {
                assert!(
                    !p.verified_facts
                        .iter()
                        .any(|f| f.value == "1000.0" || f.value == "-1.0"),
                    "{p:#?}"
                );
            }
            let mut want: Vec<String> = ["time", "time_major"]
                .iter()
                .filter_map(|k| {
                    s(&e[*k])
                        .filter(|v| !v.is_empty() && *v != "0")
                        .map(str::to_string)
                })
                .collect();
            want.sort();
            assert_eq!(time_values(p), want, "{p:#?}");
        }

        // Samsung's WifiConfigStore.db
        let configs = o["configs"].as_array().unwrap();
        for e in configs {
            let key = s(&e["CONFIG_KEY"]).unwrap();
            let ssid = key.split('"').nth(1).unwrap();
            let p = titled(
                &all,
                &format!("Saved Wi-Fi network {ssid} (Samsung WifiConfigStore.db)"),
            );
            assert_eq!(p.category, "wifi");
            assert!(has_fact(p, key) && has_fact(p, key.rsplit('"').next().unwrap()));
            let created: Vec<String> = s(&e["CREATION_TIME"])
                .filter(|v| *v != "0")
                .map(str::to_string)
                .into_iter()
                .collect();
            assert_eq!(time_values(p), created);
        }

        // sleep detection (phone A only)
        for e in o["screen"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Screen state {} (Samsung sleep detection) {}",
                    s(&e["screenState"]).unwrap(),
                    s(&e["timeText"]).unwrap()
                ),
            );
            assert_eq!(p.category, "device");
            assert_eq!(time_values(p), vec![s(&e["time"]).unwrap().to_string()]);
        }
        for e in o["sleep"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "Sleep detected {} to {}",
                    s(&e["startTimeText"]).unwrap(),
                    s(&e["endTimeText"]).unwrap()
                ),
            );
            assert_eq!(p.category, "health");
            assert_eq!(time_values(p).len(), 3, "{p:#?}");
        }
        assert_eq!(
            count("Screen state "),
            o["screen"].as_array().unwrap().len()
        );

        // badges: Samsung's provider only, another launcher's badge.db not read
        let badges = o["badges"].as_array().unwrap();
        assert_eq!(count("App badge "), badges.len());
        for e in badges {
            let p = titled(
                &all,
                &format!(
                    "App badge {}: {}",
                    s(&e["package"]).unwrap(),
                    s(&e["badgecount"]).unwrap()
                ),
            );
            assert_eq!(p.category, "notifications");
        }

        // My Files' operations: obfuscated paths decoded, `#G$` ones kept as stored
        let ops = o["operations"].as_array().unwrap();
        assert_eq!(count("My Files operation "), ops.len());
        for e in ops {
            let (kind, date) = (s(&e["mOperationType"]).unwrap(), s(&e["mDate"]).unwrap());
            let p = titled(&all, &format!("My Files operation {kind}, {date}"));
            assert_eq!(p.category, "files");
            assert_eq!(time_values(p), vec![date.to_string()]);
            let stored = s(&e["mItemPath"]).unwrap();
            assert!(has_fact(p, stored) && has_fact(p, s(&e["mItemCount"]).unwrap()));
            match o["decoded"].get(stored).and_then(s) {
                Some(path) => assert!(has_fact(p, path), "{path}: {p:#?}"),
                None => assert!(
                    !p.verified_facts
                        .iter()
                        .any(|f| f.value.starts_with("/storage/")),
                    "{p:#?}"
                ),
            }
        }
        let items = o["operation_items"].as_array().unwrap();
        for e in items {
            let src = s(&e["src_path"]).unwrap();
            let op = ops.iter().find(|x| x["_id"] == e["operation_id"]).unwrap();
            let p = titled(
                &all,
                &format!("My Files {}: {src}", s(&op["mOperationType"]).unwrap()),
            );
            if let Some(dst) = s(&e["dst_path"]) {
                assert!(has_fact(p, dst), "{p:#?}");
            }
            assert_eq!(time_values(p), vec![s(&op["mDate"]).unwrap().to_string()]);
        }
        assert_eq!(
            count("My Files ") - count("My Files operation "),
            items.len()
        );
    }
    // the direction on phone A: both ways
    let all = run.all_phenomena("a");
    let out = titled(
        &all,
        "Secure Folder history 2024-06-05 07:02:57: user 150 to user 0",
    );
    assert!(has_fact(out, "out of the Secure Folder"), "{out:#?}");
    run.assert_noted(
        "b",
        &[
            (
                "user/10/com.samsung.android.providers.context/databases/ContextLog.db",
                "malformed",
            ),
            (
                "user/11/com.samsung.android.privacydashboard/databases/permission_db",
                "permissionAccessInformations",
            ),
        ],
    );
    // another launcher's badge.db and another app's OperationHistory.db: not Samsung's
    let b = run.all_phenomena("b");
    assert!(!b.iter().any(|p| p.title.contains("com.example.decoy")));
    assert!(
        !run.unparsed("b")
            .iter()
            .any(|u| u.artefact.contains("com.example.")),
        "{:#?}",
        run.unparsed("b")
    );
}
