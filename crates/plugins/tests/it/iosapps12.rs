//! The Music library (`ios::medialibrary`) and the software updater's install history
//! (`ios::installhistory`) on two iPhones and a third with damaged copies, written by
//! `tests/fixtures/iosapps12/iosapps12.py` (Python's sqlite3; the files, tables and columns
//! iLEAPP's mediaLibrary and iosInstallHistory read). The generator's record is the oracle:
//! every library item with its title, artist, album, album artist, genre, composer, media kind,
//! play and skip counts, store item id, the buying, downloading and family accounts (DSID and
//! Apple ID) and each time it keeps (Cocoa seconds; 0 no time); every store account with its
//! Apple ID, the properties naming it the library's and its counts — the device's account the
//! owner's (Apple ID and DSID), a family member's and another DSID facts only; every install
//! history row with its update, build, operation type and local date. iPhone B's older library
//! (no `account` table, fewer columns) and its `logs` without `build` and with an operation type
//! no source names are read; iPhone C's cut library and foreign install history are noted. The
//! purchase-history token and redownload parameters appear in no output.

use crate::android_support::{generate, has_fact, titled, triage};

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

#[test]
fn iosapps12_music_library_and_software_update_history_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps12/iosapps12.py",
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
    let ours = |p: &masf_graph::Phenomenon| {
        p.title.starts_with("Media library ") || p.title.starts_with("Software update ")
    };
    for source in ["a", "b", "c"] {
        for p in run.all_phenomena(source).iter().filter(|p| ours(p)) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
    }

    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);

        // every library item, with its names, counts, accounts and times
        let items: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Media library item "))
            .collect();
        let rows = o["items"].as_array().unwrap();
        assert_eq!(items.len(), rows.len(), "{items:#?}");
        for it in rows {
            let title = match it["artist"].as_str() {
                Some(a) => format!("Media library item {} by {a}", s(&it["title"])),
                None => format!("Media library item {}", s(&it["title"])),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "media");
            assert!(has_fact(p, &it["pid"].to_string()), "{p:#?}");
            for k in [
                "title",
                "artist",
                "album",
                "album_artist",
                "genre",
                "composer",
                "kind",
            ] {
                if let Some(v) = it[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            for k in ["plays", "skips"] {
                assert!(has_fact(p, &it[k].to_string()), "{k}: {p:#?}");
            }
            for k in ["dsid", "downloader", "family", "store_item_id"] {
                if let Some(v) = it[k].as_i64() {
                    assert!(has_fact(p, &v.to_string()), "{k}: {p:#?}");
                }
            }
            match (it["apple_id"].as_str(), it["dsid"].as_i64()) {
                (Some(apple), Some(dsid)) => {
                    assert!(has_fact(p, apple), "{p:#?}");
                    assert!(
                        p.interpretation.contains(&format!(
                            "bought with the store account {apple} (DSID {dsid})"
                        )),
                        "{}",
                        p.interpretation
                    );
                }
                (None, Some(dsid)) => assert!(
                    p.interpretation
                        .contains(&format!("bought with the store account DSID {dsid}")),
                    "{}",
                    p.interpretation
                ),
                _ => assert!(
                    !p.interpretation.contains("bought with"),
                    "{}",
                    p.interpretation
                ),
            }
            let times = it["times"].as_object().unwrap();
            assert_eq!(p.times.len(), times.len(), "{p:#?}");
            for (what, v) in times {
                assert_eq!(
                    time_of(p, what),
                    Some(v.to_string().as_str()),
                    "{what}: {p:#?}"
                );
            }
            assert!(p.interpretation.contains("times are Cocoa seconds"));
            assert!(p.interpretation.contains("not that it was played"));
        }

        // every store account; the library's own is the owner's, the others facts only
        let accounts: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Media library store account "))
            .collect();
        let rows = o["accounts"].as_array().unwrap();
        assert_eq!(accounts.len(), rows.len(), "{accounts:#?}");
        let ids = run.identifiers(source);
        let has_id = |ty: &str, v: &str| ids.iter().any(|(t, n)| t == ty && n == v);
        let owner = run.owner(source);
        for acc in rows {
            let dsid = acc["dsid"].to_string();
            let title = match acc["apple_id"].as_str() {
                Some(a) => format!("Media library store account {a} (DSID {dsid})"),
                None => format!("Media library store account DSID {dsid}"),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "accounts");
            assert!(has_fact(p, &dsid), "{p:#?}");
            assert!(has_fact(p, &acc["bought"].to_string()), "{p:#?}");
            assert!(has_fact(p, &acc["downloaded"].to_string()), "{p:#?}");
            let device = acc["device"].as_bool().unwrap();
            for k in acc["keys"].as_array().unwrap() {
                assert!(
                    p.verified_facts.iter().any(|f| f.value.contains(s(k))),
                    "{k}: {p:#?}"
                );
            }
            assert_eq!(
                p.interpretation.contains("the device user's"),
                device,
                "{}",
                p.interpretation
            );
            assert_eq!(has_id("dsid", &dsid), device, "{dsid}: {ids:?}");
            assert_eq!(owner.contains(&format!("dsid={dsid}")), device, "{owner}");
            if let Some(apple) = acc["apple_id"].as_str() {
                assert!(has_fact(p, apple), "{p:#?}");
                assert_eq!(has_id("apple_id", apple), device, "{apple}: {ids:?}");
                assert_eq!(
                    owner.contains(&format!("apple_id={apple}")),
                    device,
                    "{owner}"
                );
            }
        }

        // every install history row
        let history: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Software update "))
            .collect();
        let rows = o["history"].as_array().unwrap();
        assert_eq!(history.len(), rows.len(), "{history:#?}");
        for h in rows {
            let build = h["build"]
                .as_str()
                .map(|b| format!(" ({b})"))
                .unwrap_or_default();
            let name = s(&h["name"]);
            let (title, what) = match h["op"].as_str() {
                Some("install completed") => (
                    format!("Software update installed: {name}{build}"),
                    "Software update install completed",
                ),
                Some("rollback completed") => (
                    format!("Software update rolled back: {name}{build}"),
                    "Software update rollback completed",
                ),
                _ => (
                    format!("Software update history entry {}: {name}{build}", h["id"]),
                    "Software update history entry recorded",
                ),
            };
            let p = titled(&all, &title);
            assert_eq!(p.category, "device");
            assert!(
                has_fact(p, name) && has_fact(p, &h["id"].to_string()),
                "{p:#?}"
            );
            assert!(has_fact(p, &h["operationType"].to_string()), "{p:#?}");
            if let Some(b) = h["build"].as_str() {
                assert!(has_fact(p, b), "{p:#?}");
            }
            assert_eq!(time_of(p, what), Some(s(&h["date"])), "{p:#?}");
            assert_eq!(p.times.len(), 1);
            assert_eq!(
                p.interpretation.contains("is what the updater writes"),
                name == "Unknown Update",
                "{}",
                p.interpretation
            );
            assert_eq!(
                p.interpretation.contains("not known to write"),
                h["op"].is_null(),
                "{}",
                p.interpretation
            );
            assert!(p.interpretation.contains("newest 25 rows"));
        }
        // the stores were read whole: nothing of them noted
        assert!(
            !run.unparsed(source)
                .iter()
                .any(|u| u.artefact.ends_with("MediaLibrary.sqlitedb")
                    || u.artefact.ends_with("installHistory.db")),
            "{:#?}",
            run.unparsed(source)
        );
    }

    // iPhone C: the cut library and the foreign install history are noted; nothing read
    let noted = o["c"]["noted"].as_array().unwrap();
    run.assert_noted("c", &[(s(&noted[0]), ""), (s(&noted[1]), "no logs table")]);
    assert!(!run.all_phenomena("c").iter().any(ours));
    assert!(run.owner("c").is_empty(), "{}", run.owner("c"));

    // the purchase-history token and redownload parameters are never read
    let secrets = o["secrets"].as_array().unwrap();
    assert!(!secrets.is_empty());
    for source in ["a", "b", "c"] {
        for (tool, _, out) in run.outputs(source) {
            for secret in secrets {
                assert!(!out.contains(s(secret)), "{tool} printed {secret}");
            }
        }
    }
}
