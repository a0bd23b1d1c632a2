//! Personalization Portrait (`ios::portrait`), the App Store's storeUser.db and analytics store
//! (`ios::amdsqlite`) and TikTok's reply copies and search history (`ios::tiktokim`) on three
//! iPhones, written by `tests/fixtures/iosapps9/iosapps9.py` (Python's sqlite3 and plistlib, a
//! keyed archive by `tests/fixtures/keyedarchive.py`; the files, tables, columns and keys
//! iLEAPP's personalizationPortrait, AMDSQLiteDB, storeUser, tikTokReplied and AWESearch read).
//! The generator's record is the oracle: every Portrait place, named entity and topic with its
//! fields and its source's app, group, document and time (a place whose source is gone keeps
//! its own fields; iPhone B's first schema has no topics and no sync flag on entities); every
//! App Store account event (its Apple ID and DSID the owner's), current app, purchase (the
//! Apple ID of its purchaser DSID; the purchase and artwork tokens in no output), usage event
//! (named from current_apps, else the purchase history, else by its id; the Apple ID of its user
//! id) and storage row (iPhone B's older stores without them); every TikTok reply row naming a
//! quoted message (TIMMessageKVORM joined to TIMMessageORM on A, TIMMessageNewPropertyORM on
//! B; a KV row that is no reply not read) with both senders' nicknames and the quoted sender as
//! a person, and every search (a keyed archive's historyList on A, a list on B). iPhone C's cut
//! and foreign copies are noted.

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed number is the oracle's.
fn same(printed: &str, v: &serde_json::Value) -> bool {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .is_some_and(|x| printed.parse::<f64>().ok() == Some(x))
}

/// Whether `p` holds the oracle's value `v`: a text as written, a number as a number.
fn holds(p: &masf_graph::Phenomenon, v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => has_fact(p, s),
        _ => p.verified_facts.iter().any(|f| same(&f.value, v)),
    }
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// Whether the time marked `what` of `p` is the oracle's number `v`, or absent when `v` is null.
fn time_is(p: &masf_graph::Phenomenon, what: &str, v: &serde_json::Value) -> bool {
    match (time_of(p, what), v) {
        (None, serde_json::Value::Null) => true,
        (Some(t), v) => same(t, v),
        _ => false,
    }
}

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

/// Asserts that `p` holds every member of the oracle's row `r` but those in `skip`.
fn holds_row(p: &masf_graph::Phenomenon, r: &serde_json::Value, skip: &[&str]) {
    for (k, v) in r.as_object().unwrap() {
        if skip.contains(&k.as_str()) || v.is_null() || v.is_object() {
            continue;
        }
        assert!(holds(p, v), "{k} {v}: {p:#?}");
    }
}

#[test]
fn portrait_app_store_and_tiktok_replies_on_three_iphones_iosapps9() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps9/iosapps9.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Oslo", Some("NO")),
        ("c", &c, "Europe/Zurich", Some("CH")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let owner = run.owner(source);
        let entities = run.entities(source);
        let ours: Vec<_> = all
            .iter()
            .filter(|p| {
                [
                    "Personalization Portrait ",
                    "App Store ",
                    "Device storage: ",
                    "TikTok reply ",
                    "TikTok search ",
                ]
                .iter()
                .any(|w| p.title.starts_with(w))
            })
            .collect();
        for p in &ours {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }

        // Personalization Portrait: places, named entities, topics with their sources
        for (key, what, meaning, category) in [
            (
                "places",
                "place",
                "not a place the phone was at",
                "locations",
            ),
            ("entities", "named entity", "not an identity", "app_usage"),
            (
                "topics",
                "topic",
                "not an interest the user declared",
                "app_usage",
            ),
        ] {
            let rows = o["portrait"][key].as_array().unwrap();
            let prefix = format!("Personalization Portrait {what} ");
            assert_eq!(
                ours.iter().filter(|p| p.title.starts_with(&prefix)).count(),
                rows.len(),
                "{key}"
            );
            for r in rows {
                let p = titled(&all, &format!("{prefix}{}", s(&r["label"])));
                assert_eq!(p.category, category);
                holds_row(p, r, &["label", "time", "sync", "remote"]);
                for v in r["source"].as_object().unwrap().values() {
                    assert!(holds(p, v), "{v}: {p:#?}");
                }
                assert!(
                    time_is(
                        p,
                        "Personalization Portrait source document time",
                        &r["time"]
                    ),
                    "{p:#?}"
                );
                if let Some(sync) = r["sync"].as_str() {
                    assert!(has_fact(p, sync), "{p:#?}");
                } else {
                    assert!(
                        !p.verified_facts
                            .iter()
                            .any(|f| f.value.contains("iCloud sync"))
                    );
                }
                assert!(holds(p, &r["remote"]), "{p:#?}");
                assert!(p.interpretation.contains(meaning), "{}", p.interpretation);
                assert_eq!(
                    p.interpretation
                        .contains("no sources row matches its source_id"),
                    r["source"].as_object().unwrap().is_empty(),
                    "{}",
                    p.interpretation
                );
            }
        }
        // a name in text is no identity
        for r in o["portrait"]["entities"].as_array().unwrap() {
            let name = s(&r["name"]).to_lowercase();
            assert!(
                !entities.iter().any(|e| e.to_lowercase().contains(&name)),
                "{entities:?}"
            );
        }

        // storeUser.db: account events (the owner's), current apps, purchase history
        let st = &o["store"];
        let accounts = st["accounts"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("App Store account "))
                .count(),
            accounts.len()
        );
        for r in accounts {
            let title = format!("App Store account {}", s(&r["apple_id"]));
            let p = ours
                .iter()
                .find(|p| {
                    p.title == title
                        && time_is(
                            p,
                            "App Store account event recorded",
                            &r["times"]["timestamp"],
                        )
                })
                .unwrap_or_else(|| panic!("{r}: {ours:#?}"));
            assert_eq!(p.category, "accounts");
            holds_row(p, r, &[]);
            for (k, what) in [
                ("active_start_time", "App Store account active from"),
                ("active_end_time", "App Store account active until"),
            ] {
                assert!(time_is(p, what, &r["times"][k]), "{k}: {p:#?}");
            }
            assert!(
                owner.contains(&format!("apple_id={}", s(&r["apple_id"]))),
                "{owner}"
            );
            assert!(
                owner.contains(&format!("dsid={}", r["account_id"])),
                "{owner}"
            );
        }
        let current = st["current"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("App Store current app "))
                .count(),
            current.len()
        );
        for r in current {
            let p = titled(
                &all,
                &format!(
                    "App Store current app {} ({})",
                    s(&r["item_name"]),
                    s(&r["bundle_id"])
                ),
            );
            assert_eq!(p.category, "apps");
            holds_row(p, r, &["system"]);
            match r["system"].as_str() {
                Some(v) => assert!(has_fact(p, v), "{p:#?}"),
                None => assert!(
                    !p.verified_facts
                        .iter()
                        .any(|f| f.value.contains("system app"))
                ),
            }
            assert!(time_is(
                p,
                "App Store app installed (current_apps)",
                &r["times"]["timestamp"]
            ));
            assert!(time_is(
                p,
                "App Store app deleted (current_apps)",
                &r["times"]["deletion_date"]
            ));
        }
        let purchases = st["purchases"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("App Store purchase history: "))
                .count(),
            purchases.len()
        );
        for r in purchases {
            let p = titled(
                &all,
                &format!(
                    "App Store purchase history: {} ({})",
                    s(&r["title"]),
                    s(&r["bundle_id"])
                ),
            );
            assert_eq!(p.category, "apps");
            holds_row(p, r, &[]);
            assert!(time_is(
                p,
                "App Store purchase",
                &r["times"]["date_purchased"]
            ));
            assert!(
                p.interpretation
                    .contains("does not by itself put the app on this phone")
            );
        }
        // never a purchase or artwork token, in a phenomenon or in any output the run logged
        for secret in o["secrets"].as_array().unwrap().iter().map(s) {
            for (tool, args, text) in run.outputs(source) {
                assert!(!text.contains(secret), "{secret} in {tool} {args}");
            }
            for p in &all {
                assert!(!p.verified_facts.iter().any(|f| f.value.contains(secret)));
            }
        }

        // AMDSQLite.db.0: usage events named from storeUser.db, storage rows
        let events = o["usage"].as_array().unwrap();
        let found: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("App Store usage event: "))
            .collect();
        assert_eq!(found.len(), events.len(), "{found:#?}");
        for e in events {
            let p = found
                .iter()
                .find(|p| {
                    p.title == s(&e["title"]) && time_is(p, "App Store usage event", &e["time"])
                })
                .unwrap_or_else(|| panic!("{e}: {found:#?}"));
            assert_eq!(p.category, "app_usage");
            holds_row(p, e, &["title", "time", "creationTime"]);
            assert!(time_is(
                p,
                "App Store usage event created",
                &e["creationTime"]
            ));
            match e["apple_id"].as_str() {
                Some(a) => assert!(p.interpretation.contains(&format!("the Apple ID {a}"))),
                None => {
                    assert!(
                        p.interpretation
                            .contains("No account_events row has the user id")
                    );
                    assert!(
                        !p.verified_facts.iter().any(|f| f.value.contains('@')),
                        "{p:#?}"
                    );
                }
            }
            assert_eq!(
                p.interpretation.contains("the id alone names the app"),
                e["name"].is_null()
            );
        }
        let storage = o["storage"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("Device storage: "))
                .count(),
            storage.len()
        );
        for r in storage {
            let p = ours
                .iter()
                .find(|p| {
                    p.title
                        == format!(
                            "Device storage: {} GB available of {} GB",
                            r["available"], r["total"]
                        )
                        && time_is(p, "Device storage capacity recorded", &r["time"])
                })
                .unwrap_or_else(|| panic!("{r}: {ours:#?}"));
            assert_eq!(p.category, "device");
        }

        // TikTok: reply copies (the quoted sender a person) and searches
        let tk = &o["tiktok"];
        let me = s(&tk["me"]);
        let replies = tk["replies"].as_array().unwrap();
        let found: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("TikTok reply quoting "))
            .collect();
        assert_eq!(found.len(), replies.len(), "{found:#?}");
        for r in replies {
            let p = found
                .iter()
                .find(|p| p.title == s(&r["title"]) && has_fact(p, s(&r["ref_msg_id"])))
                .unwrap_or_else(|| panic!("{r}: {found:#?}"));
            assert_eq!(p.category, "messages");
            holds_row(p, r, &["title", "rid", "time", "sent"]);
            let table = if source == "a" {
                "TIMMessageKVORM"
            } else {
                "TIMMessageNewPropertyORM"
            };
            assert!(
                p.interpretation
                    .starts_with(&format!("{table} row {} ", r["rid"])),
                "{}",
                p.interpretation
            );
            match r["sent"].as_bool() {
                Some(sent) => {
                    let what = if sent {
                        "Message sent"
                    } else {
                        "Message received"
                    };
                    assert!(time_is(p, what, &r["time"]), "{p:#?}");
                    assert_eq!(
                        p.interpretation.contains("sent by the account's user"),
                        sent
                    );
                }
                None => {
                    assert!(p.times.is_empty(), "{p:#?}");
                    assert!(p.interpretation.contains("TIMMessageORM no longer holds"));
                }
            }
            // the quoted sender is a TikTok person (the account's own uid the owner's)
            let uid = s(&r["ref_sender"]);
            let id = format!("account_id=tiktok:{uid}");
            if uid == me {
                assert!(owner.contains(&id), "{owner}");
            } else {
                assert!(
                    entities
                        .iter()
                        .any(|e| e.starts_with(&format!("tiktok:{uid} [")) && e.contains(&id)),
                    "{entities:?}"
                );
            }
        }
        for v in tk["not_read"].as_array().unwrap().iter().map(s) {
            assert!(
                !found
                    .iter()
                    .any(|p| p.verified_facts.iter().any(|f| f.value.contains(v))),
                "{v} was read"
            );
        }
        let searches = o["searches"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("TikTok search "))
                .count(),
            searches.len()
        );
        for e in searches {
            let keyword = s(&e["keyword"]);
            let p = titled(&all, &format!("TikTok search {keyword}"));
            assert_eq!(p.category, "web");
            assert!(has_fact(p, keyword));
            assert!(time_is(p, "TikTok search made", &e["time"]), "{p:#?}");
        }
        // nothing of these readers noted on A and B
        for read in [
            "PPSQLDatabase.db",
            "storeUser.db",
            "AMDSQLite.db.0",
            "/db.sqlite",
            "AwemeIM.db",
            "AWESearchHistory",
            "AWESearchHistory_7001",
        ] {
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.ends_with(read)),
                "{read}: {:#?}",
                run.unparsed(source)
            );
        }
    }
    // iPhone C: the cut Portrait store and storeUser.db, the foreign analytics store, the chat
    // store without reply tables, the cut and the listless search history: noted, none read
    let c = &o["c"];
    let noted: Vec<&str> = c["noted"].as_array().unwrap().iter().map(s).collect();
    let reasons = c["reasons"].as_object().unwrap();
    let expected: Vec<(&str, &str)> = noted
        .iter()
        .map(|n| (*n, reasons.get(*n).and_then(|r| r.as_str()).unwrap_or("")))
        .collect();
    run.assert_noted("c", &expected);
    let all = run.all_phenomena("c");
    for w in [
        "Personalization Portrait ",
        "App Store ",
        "Device storage: ",
        "TikTok reply ",
        "TikTok search ",
    ] {
        assert!(!all.iter().any(|p| p.title.starts_with(w)), "{w}: {all:#?}");
    }
}
