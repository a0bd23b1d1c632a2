//! BeReal on iOS (`ios::bereal`): an iPhone's BeReal caches, preferences and chat store, written
//! by `tests/fixtures/bereal/bereal.py` (JSON by Python's json, the plist by plistlib, the chat
//! store by sqlite3, with the keys and columns iLEAPP's BeReal module reads; iLEAPP's BeReal test
//! case is not in the corpus). The generator's record is the oracle: the account (ids, names,
//! phone, device), every friend and request with its status, the blocked user, the address
//! book's contacts, the opened profile, every chat message (direction, sender, text, type, media)
//! and chat (kind, unread, times) are found; the account is the device's user's, the others
//! persons `bereal:<id>`; a cache entry that is not JSON is noted, another app's
//! `PersonRepository` is left alone.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn bereal_caches_preferences_and_chats() {
    let tmp = tempfile::tempdir().unwrap();
    let phone = tmp.path().join("phone");
    let oracle_file = tmp.path().join("phone.oracle.json");
    let o = generate(
        "",
        "tests/fixtures/bereal/bereal.py",
        &[phone.as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let run = triage(&[("phone", &phone, "Europe/Lisbon", Some("PT"))]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let all = run.all_phenomena("phone");
    for p in &all {
        assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
    }
    let titled = |t: &str| {
        all.iter().find(|p| p.title == t).unwrap_or_else(|| {
            panic!(
                "{t} in {:#?}",
                all.iter().map(|p| &p.title).collect::<Vec<_>>()
            )
        })
    };
    let n = |v: &serde_json::Value| v.to_string();
    // the account: the cache's profile and the preferences' id
    let a = &o["account"];
    let acc = all
        .iter()
        .find(|p| {
            p.title == "BeReal account ana.moura" && has_fact(p, a["phone"].as_str().unwrap())
        })
        .unwrap();
    for v in ["fullname", "device"] {
        assert!(has_fact(acc, a[v].as_str().unwrap()), "{v}");
    }
    assert!(has_fact(
        acc,
        &format!("bereal:{}", a["id"].as_str().unwrap())
    ));
    assert!(has_fact(acc, &n(&a["created"])));
    for f in o["friends"].as_array().unwrap() {
        let p = titled(&format!(
            "BeReal {}: {}",
            f["status"].as_str().unwrap(),
            f["username"].as_str().unwrap()
        ));
        assert!(has_fact(
            p,
            &format!("bereal:{}", f["id"].as_str().unwrap())
        ));
        assert!(has_fact(p, f["fullname"].as_str().unwrap()) && has_fact(p, &n(&f["at"])));
    }
    for b in o["blocked"].as_array().unwrap() {
        let p = titled(&format!(
            "BeReal blocked user {}",
            b["username"].as_str().unwrap()
        ));
        assert!(has_fact(p, &n(&b["at"])));
    }
    for c in o["contacts"].as_array().unwrap() {
        let p = titled(&format!(
            "BeReal address-book contact {}",
            c["name"].as_str().unwrap()
        ));
        for ph in c["phones"].as_array().unwrap() {
            assert!(has_fact(p, ph.as_str().unwrap()));
        }
    }
    for pe in o["persons"].as_array().unwrap() {
        let p = titled(&format!(
            "BeReal profile {}",
            pe["username"].as_str().unwrap()
        ));
        assert!(has_fact(p, pe["link"].as_str().unwrap()) && has_fact(p, &n(&pe["friended"])));
    }
    for m in o["messages"].as_array().unwrap() {
        let p = all
            .iter()
            .find(|p| {
                p.title
                    .starts_with(&format!("BeReal {} ", m["kind"].as_str().unwrap()))
                    && has_fact(p, &n(&m["sent"]))
            })
            .unwrap_or_else(|| panic!("{m}"));
        assert!(has_fact(
            p,
            &format!("bereal:{}", m["sender"].as_str().unwrap())
        ));
        if let Some(body) = m["body"].as_str() {
            assert!(has_fact(p, body), "{p:#?}");
        }
        let outgoing = m["outgoing"].as_bool().unwrap();
        assert_eq!(p.title.contains(" sent by "), outgoing, "{}", p.title);
    }
    assert!(all.iter().any(|p| p.title.starts_with("BeReal photo ")
        && has_fact(p, "https://cdn.bereal.network/chat/photo3.webp")));
    for c in o["chats"].as_array().unwrap() {
        let p = titled(&format!(
            "BeReal {} chat {}",
            c["kind"].as_str().unwrap(),
            c["id"].as_str().unwrap()
        ));
        assert!(has_fact(p, &n(&c["created"])) && has_fact(p, &n(&c["updated"])));
        assert!(
            p.interpretation
                .contains(&format!("{} unread", c["unread"])),
            "{}",
            p.interpretation
        );
        // participants named from the preferences, archived plain or keyed alike
        assert!(
            p.interpretation.contains("(bruno.reis)"),
            "{}",
            p.interpretation
        );
    }
    // posts (an opened profile's day, the account's memories, the feed) and their comments
    for po in o["posts"].as_array().unwrap() {
        let p = all
            .iter()
            .find(|p| {
                p.title.starts_with("BeReal post by ")
                    && p.title
                        .ends_with(&format!(": {}", po["caption"].as_str().unwrap()))
            })
            .unwrap_or_else(|| panic!("{po}"));
        let author = po["author"].as_str().unwrap();
        // the account's memories name their author only through the preferences
        assert!(
            has_fact(p, &format!("bereal:{author}")) || author == o["me"],
            "{p:#?}"
        );
        assert!(p.title.contains(&format!("(bereal:{author})")) || author != o["me"]);
        assert!(has_fact(p, &n(&po["taken"])) && has_fact(p, po["url"].as_str().unwrap()));
        if !po["lat"].is_null() {
            assert!(
                has_fact(p, &n(&po["lat"])) && has_fact(p, &n(&po["lon"])),
                "{p:#?}"
            );
        }
    }
    for c in o["comments"].as_array().unwrap() {
        let p = all
            .iter()
            .find(|p| {
                p.title.starts_with("BeReal comment by ")
                    && p.title
                        .ends_with(&format!(": {}", c["text"].as_str().unwrap()))
            })
            .unwrap_or_else(|| panic!("{c}"));
        assert!(has_fact(
            p,
            &format!("bereal:{}", c["by"].as_str().unwrap())
        ));
        assert!(
            p.title
                .contains(&format!("on {} (", c["on"].as_str().unwrap())),
            "{}",
            p.title
        );
    }
    for r in o["realmojis"].as_array().unwrap() {
        let title = format!("BeReal RealMoji {} by ", r["emoji"].as_str().unwrap());
        let p = all
            .iter()
            .find(|p| p.title.starts_with(&title) && has_fact(p, &n(&r["date"])))
            .unwrap_or_else(|| panic!("{r}"));
        assert!(has_fact(
            p,
            &format!("bereal:{}", r["by"].as_str().unwrap())
        ));
        assert!(
            p.title
                .contains(&format!("on {} (", r["on"].as_str().unwrap())),
            "{}",
            p.title
        );
    }
    for pin in o["pinned"].as_array().unwrap() {
        let p = titled(&format!(
            "BeReal pinned memory of {}",
            pin["author"].as_str().unwrap()
        ));
        assert!(has_fact(p, &n(&pin["taken"])) && has_fact(p, pin["url"].as_str().unwrap()));
    }
    // identities: the account is the device's user's; the others are persons bereal:<id>
    let me = format!("bereal:{}", o["me"].as_str().unwrap()).to_lowercase();
    let entities = run.entities("phone");
    assert!(
        entities
            .iter()
            .any(|e| e.starts_with("owner [") && e.to_lowercase().contains(&me)),
        "{entities:#?}"
    );
    for f in o["friends"].as_array().unwrap() {
        let q = format!("bereal:{}", f["id"].as_str().unwrap());
        assert!(
            entities.iter().any(|e| e.starts_with(&format!("{q} ["))),
            "{q} in {entities:#?}"
        );
    }
    // the wallet Bruno wrote in a chat message is his claim
    assert!(
        entities
            .iter()
            .any(|e| e.starts_with("bereal:b7Hq2LpZ9xRt4KsW [")
                && e.to_lowercase()
                    .contains("0x52908400098527886e0f7030069857d2e4169ee7")),
        "{entities:#?}"
    );
    // the other app's PersonRepository is not BeReal's; the entry that is no JSON is noted
    assert!(!all.iter().any(|p| p.title.contains("someone.else")));
    run.assert_noted("phone", &[("PersonRepository/8f14e45f", "")]);
}
