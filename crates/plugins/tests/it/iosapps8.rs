//! NS Vault (`ios::nsvault`), the RongCloud SDK's store of Oops and other apps (`ios::oops`),
//! Uber (`ios::uberplaces`) and Onion Browser (`ios::onionbrowser`) on three iPhones, written by
//! `tests/fixtures/iosapps8/iosapps8.py` (Python's sqlite3, plistlib and json; the files,
//! tables, columns and keys iLEAPP's nsVault, Oops, uberPlaces, uberClient and onionBrowser
//! read). The generator's record is the oracle: every vault album (a locked one said, its
//! password never read) and video with its album, paths, duration, size and time, linked to its
//! hidden file where the media folder holds it, and every other file of that folder; every
//! RongCloud user (qualified `rongcloud:<app key>:<id>`, the device's user's as the owner's),
//! conversation and message with its direction, text, media, location and times, on iPhone B
//! another app's store with the older columns; every Uber place (positions from either column
//! pair, `timestamp_ms` in seconds or milliseconds, `place_result` JSON read in the query, a cut
//! one left out), search hit, the analytics log summarised, the account as the owner's (its
//! token redacted by the tool and never recorded), the reverse-geocoded address, and another
//! app's `database.db` neither read nor noted; every Onion Browser bookmark with its icon file
//! where it lies beside, every HSTS host met (no time mark: the expiration is a future date),
//! the preloaded entries only counted. iPhone C holds a damaged or foreign copy of each store,
//! each noted, and another app's `database.db` and `bookmarks.plist`, not noted.

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed value is the oracle's (a number compared as one, a text as written).
fn same(printed: &str, v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => printed == s,
        _ => v
            .as_f64()
            .is_some_and(|x| printed.parse::<f64>().ok() == Some(x)),
    }
}

/// Whether `p` holds a fact that is the oracle's value `v` (null: nothing to check).
fn holds(p: &masf_graph::Phenomenon, v: &serde_json::Value) -> bool {
    v.is_null() || p.verified_facts.iter().any(|f| same(&f.value, v))
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// Whether the time marked `what` of `p` is the oracle's `v` (absent when `v` is null).
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

/// The titles of the phenomena the four readers record.
const PREFIXES: [&str; 5] = [
    "NS Vault ",
    "Hidden in NS Vault",
    "RongCloud ",
    "Uber ",
    "Onion Browser ",
];

#[test]
fn iosapps8_vault_rongcloud_uber_and_onion_browser_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps8/iosapps8.py",
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
        ("c", &c, "Asia/Shanghai", Some("CN")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let ids = run.identifiers(source);
        let owner = run.owner(source);
        let ours: Vec<_> = all
            .iter()
            .filter(|p| PREFIXES.iter().any(|w| p.title.starts_with(w)))
            .collect();
        for p in &ours {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let starting = |w: &str| -> Vec<&masf_graph::Phenomenon> {
            ours.iter()
                .filter(|p| p.title.starts_with(w))
                .copied()
                .collect()
        };

        // NS Vault: albums, videos linked to their files, the folder's other files
        let v = &o["vault"];
        let albums = v["albums"].as_array().unwrap();
        assert_eq!(starting("NS Vault video album ").len(), albums.len());
        for al in albums {
            let p = titled(&all, &format!("NS Vault video album {}", s(&al["title"])));
            assert_eq!(p.category, "files");
            assert!(holds(p, &al["id"]) && holds(p, &al["path"]), "{p:#?}");
            assert!(holds(p, &al["videos"]), "{p:#?}");
            assert_eq!(
                p.interpretation.contains("a password or PIN is stored"),
                al["locked"] == true,
                "{}",
                p.interpretation
            );
        }
        let videos = v["videos"].as_array().unwrap();
        assert_eq!(starting("Hidden in NS Vault: ").len(), videos.len());
        for vd in videos {
            let p = titled(&all, &format!("Hidden in NS Vault: {}", s(&vd["name"])));
            for k in [
                "id", "album", "album_id", "duration", "size", "storage", "thumb",
            ] {
                assert!(holds(p, &vd[k]), "{k}: {p:#?}");
            }
            assert!(
                time_is(p, "NS Vault video row modified", &vd["modified"]),
                "{p:#?}"
            );
            match vd["file"].as_str() {
                Some(f) => {
                    assert!(has_fact(p, f), "{f}: {p:#?}");
                    assert!(p.interpretation.contains("The hidden file is in"));
                }
                None if !vd["storage"].is_null() => {
                    assert!(p.interpretation.contains("holds no file at the row's path"))
                }
                None => assert!(
                    p.interpretation.contains("keeps no folder or storage path"),
                    "{}",
                    p.interpretation
                ),
            }
        }
        let loose = v["loose"].as_array().unwrap();
        assert_eq!(starting("NS Vault hidden file ").len(), loose.len());
        for f in loose {
            let p = titled(&all, &format!("NS Vault hidden file {}", s(f)));
            assert!(p.verified_facts.iter().any(|x| x.value.ends_with(s(f))));
        }

        // RongCloud: users (the device's user's as the owner's), conversations, messages
        let r = &o["rong"];
        for u in r["users"].as_array().unwrap() {
            let own = u["own"] == true;
            let title = format!(
                "RongCloud {} {}{}",
                if own { "account" } else { "user" },
                s(&u["id"]),
                u["name"]
                    .as_str()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            );
            let p = titled(&all, &title);
            assert_eq!(p.category, if own { "accounts" } else { "contacts" });
            let q = s(&u["qualified"]);
            assert!(has_fact(p, q), "{p:#?}");
            assert!(
                ids.iter()
                    .any(|(t, n)| t == "account_id" && n.eq_ignore_ascii_case(q)),
                "{q}: {ids:?}"
            );
            assert_eq!(
                owner.contains(&format!("account_id={q}")),
                own,
                "{q}: {owner}"
            );
        }
        assert_eq!(
            starting("RongCloud user ").len() + starting("RongCloud account ").len(),
            r["users"].as_array().unwrap().len()
        );
        for cv in r["conversations"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "RongCloud {} conversation {} ({})",
                    s(&cv["type"]),
                    s(&cv["target"]),
                    s(&cv["title"])
                ),
            );
            assert!(
                holds(p, &cv["draft"]) && holds(p, &cv["messages"]),
                "{p:#?}"
            );
            assert!(
                time_is(p, "RongCloud conversation's last message", &cv["last"]),
                "{p:#?}"
            );
        }
        let messages = r["messages"].as_array().unwrap();
        assert_eq!(starting("RongCloud message ").len(), messages.len());
        for m in messages {
            let prefix = format!("RongCloud message {} ", m["id"]);
            let p = ours
                .iter()
                .find(|p| p.title.starts_with(&prefix))
                .unwrap_or_else(|| panic!("{prefix}: {ours:#?}"));
            let sent = m["direction"] == "sent";
            assert!(
                p.title.contains(if sent { " sent to " } else { " from " }),
                "{}",
                p.title
            );
            assert!(has_fact(p, s(&m["direction"])) && has_fact(p, s(&m["sender"])));
            for k in [
                "text",
                "class",
                "nick",
                "file",
                "url",
                "poi",
                "latitude",
                "longitude",
            ] {
                assert!(holds(p, &m[k]), "{k}: {p:#?}");
            }
            let what = if sent {
                "Message sent"
            } else {
                "Message received"
            };
            assert!(time_is(p, what, &m["sent"]), "{p:#?}");
            assert!(
                time_is(p, "RongCloud message stored on the device", &m["received"]),
                "{p:#?}"
            );
        }
        if let Some(w) = r["wallet"].as_str() {
            assert!(
                ids.iter().any(|(t, n)| t == "wallet" && n == w),
                "{w}: {ids:?}"
            );
        }

        // Uber: places, hits, the analytics summary, the account, the address
        let u = &o["uber"];
        let places = u["places"].as_array().unwrap();
        assert_eq!(starting("Uber place ").len(), places.len());
        for pl in places {
            let p = titled(
                &all,
                &format!("Uber place {} ({})", s(&pl["title"]), s(&pl["subtitle"])),
            );
            assert_eq!(p.category, "locations");
            for k in [
                "latitude",
                "longitude",
                "tag",
                "uber_id",
                "personal_id",
                "label",
                "address",
                "categories",
                "provider",
                "usage",
                "trips",
                "historical",
            ] {
                assert!(holds(p, &pl[k]), "{k}: {p:#?}");
            }
            assert!(time_is(p, "Uber place row time", &pl["time"]), "{p:#?}");
            assert!(
                time_is(p, "Uber vehicle last used for the place", &pl["last_used"]),
                "{p:#?}"
            );
        }
        let hits = u["hits"].as_array().unwrap();
        assert_eq!(starting("Uber search hit ").len(), hits.len());
        for h in hits {
            let p = titled(
                &all,
                &format!("Uber search hit {}: {}", h["id"], s(&h["title"])),
            );
            assert!(time_is(p, "Uber search hit", &h["time"]), "{p:#?}");
        }
        let summaries = starting("Uber analytics messages with locations in ");
        match u["ur"].as_object() {
            Some(ur) => {
                assert_eq!(summaries.len(), 1);
                let p = summaries[0];
                assert!(p.title.ends_with("/Documents/ur_message.db (summary)"));
                assert!(holds(p, &ur["total"]) && holds(p, &ur["located"]), "{p:#?}");
                let (first, last) = (&ur["first"], &ur["last"]);
                assert!(time_is(
                    p,
                    "Uber analytics first position logged",
                    &first[0]
                ));
                assert!(time_is(p, "Uber analytics last position logged", &last[0]));
                for x in [&first[1], &first[2], &last[1], &last[2]] {
                    assert!(holds(p, x), "{x}: {p:#?}");
                }
                let cities: Vec<&str> = ur["cities"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap())
                    .collect();
                assert!(has_fact(p, &cities.join(", ")), "{p:#?}");
            }
            None => assert!(summaries.is_empty()),
        }
        let acc = &u["account"];
        let shown = acc["email"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("{} {}", s(&acc["first"]), s(&acc["last"])));
        let p = titled(&all, &format!("Uber account {shown}"));
        assert_eq!(p.category, "accounts");
        for k in [
            "first",
            "last",
            "uuid",
            "qualified",
            "phone",
            "city",
            "currency",
        ] {
            assert!(holds(p, &acc[k]), "{k}: {p:#?}");
        }
        assert!(
            time_is(p, "Uber client status last changed", &acc["status_time"]),
            "{p:#?}"
        );
        if let Some(t) = acc["target"].as_array() {
            assert!(holds(p, &t[0]) && holds(p, &t[1]), "{p:#?}");
        }
        assert!(owner.contains(&format!("account_id={}", s(&acc["qualified"]))));
        if let Some(e) = acc["email"].as_str() {
            assert!(owner.contains(&format!("email={e}")), "{owner}");
        }
        match u["address"].as_object() {
            Some(ad) => {
                let p = titled(
                    &all,
                    &format!("Uber reverse-geocoded address {}", s(&ad["address"])),
                );
                assert!(holds(p, &ad["latitude"]) && holds(p, &ad["longitude"]));
            }
            None => assert!(starting("Uber reverse-geocoded address").is_empty()),
        }
        for f in u["foreign"].as_array().unwrap() {
            assert!(!all.iter().any(|p| has_fact(p, s(f))), "{f} was read");
        }

        // Onion Browser: bookmarks with their icons, HSTS hosts met, preloaded ones counted
        let on = &o["onion"];
        let bookmarks = on["bookmarks"].as_array().unwrap();
        assert_eq!(starting("Onion Browser bookmark ").len(), bookmarks.len());
        for bm in bookmarks {
            let p = titled(
                &all,
                &format!(
                    "Onion Browser bookmark {}: {}",
                    s(&bm["name"]),
                    s(&bm["url"])
                ),
            );
            assert_eq!(p.category, "web");
            assert!(holds(p, &bm["icon"]), "{p:#?}");
            match (bm["icon"].as_str(), bm["icon_file"].as_str()) {
                (_, Some(f)) => {
                    assert!(has_fact(p, f), "{p:#?}");
                    assert!(
                        p.interpretation
                            .contains("Its icon file lies beside the plist.")
                    );
                }
                (Some(i), None) => {
                    assert!(
                        !p.verified_facts
                            .iter()
                            .any(|f| f.value.ends_with(&format!("/{i}"))),
                        "{p:#?}"
                    );
                    assert!(
                        p.interpretation
                            .contains("Its icon file is not beside the plist.")
                    );
                }
                (None, None) => assert!(!p.interpretation.contains("icon file")),
            }
        }
        let hsts = on["hsts"].as_array().unwrap();
        assert_eq!(starting("Onion Browser HSTS host ").len(), hsts.len());
        for h in hsts {
            let p = titled(&all, &format!("Onion Browser HSTS host {}", s(&h["host"])));
            assert!(has_fact(p, s(&h["host"])) && has_fact(p, s(&h["expiration"])));
            assert!(has_fact(p, &h["subdomains"].to_string()), "{p:#?}");
            assert!(p.times.is_empty(), "the expiration is no time mark: {p:#?}");
        }
        let preload = starting("Onion Browser HSTS preload entries in ");
        let n = on["preloaded"].as_u64().unwrap();
        if n == 0 {
            assert!(preload.is_empty());
        } else {
            assert_eq!(preload.len(), 1);
            assert!(
                preload[0]
                    .interpretation
                    .contains(&format!("holds {n} entries flagged preloaded")),
                "{}",
                preload[0].interpretation
            );
            for h in on["not_recorded"].as_array().unwrap() {
                assert!(
                    !ours
                        .iter()
                        .any(|p| p.title == format!("Onion Browser HSTS host {}", s(h)))
                );
            }
        }

        // never a secret, in a phenomenon or in any output the run logged
        let secrets: Vec<&str> = o["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .chain(o["uber"]["secrets"].as_array().unwrap())
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(secrets.is_empty(), source == "b");
        for (tool, args, text) in run.outputs(source) {
            for x in &secrets {
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
        }
        for p in &all {
            for x in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{x}: {p:#?}"
                );
            }
        }
        // the live stores and other apps' files of the same names are not noted
        for n in run.unparsed(source) {
            assert!(
                ![
                    "FolderLockAdvanced",
                    "RongCloud",
                    "database.db",
                    "ur_message.db",
                    "RealtimeRider",
                    "bookmarks.plist",
                    "hsts_cache.plist",
                ]
                .iter()
                .any(|w| n.artefact.contains(w)),
                "{n:#?}"
            );
        }
    }

    // iPhone C: each damaged or foreign copy noted, nothing recorded from them; other apps'
    // files of the same generic names neither read nor noted
    let noted: Vec<(String, String)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (s(&n[0]).to_string(), s(&n[1]).to_string()))
        .collect();
    let expected: Vec<(&str, &str)> = noted
        .iter()
        .map(|(a, w)| (a.as_str(), w.as_str()))
        .collect();
    run.assert_noted("c", &expected);
    for n in o["c"]["not_noted"].as_array().unwrap() {
        assert!(
            !run.unparsed("c").iter().any(|u| u.artefact.ends_with(s(n))),
            "{n} noted"
        );
    }
    let c_ours: Vec<String> = run
        .all_phenomena("c")
        .into_iter()
        .filter(|p| PREFIXES.iter().any(|w| p.title.starts_with(w)))
        .map(|p| p.title)
        .collect();
    assert!(c_ours.is_empty(), "{c_ours:#?}");
}
