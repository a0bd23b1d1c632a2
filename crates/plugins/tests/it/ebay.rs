//! eBay (`android::ebay`) on two Android phones and a third tree, written by
//! `tests/fixtures/ebay/ebay.py` (Python's sqlite3, the stores, tables and columns ALEAPP's ebay
//! reads). The generator's record is the oracle: every watched listing, recent search, kept
//! query, followed seller, app session (screens, calls), app state entry, configuration record,
//! share channel and distinct user id with its values and times; the public user id observed as
//! the owner's `ebay:<id>`, the hashed ids not; phone B's older tables read (absent columns
//! NULL, absent tables passed over); on tree C a store of another layout and a truncated copy
//! noted while its suggestions.db is read; and no secret (a token-named entry's value, the push
//! token, the encrypted registration blob) in any output of the run.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

#[test]
fn ebay_searches_watch_list_sellers_and_user_ids_on_two_phones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/ebay/ebay.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let run = triage(&[
        ("a", &a, "Europe/London", Some("GB")),
        ("b", &b, "America/Chicago", Some("US")),
        ("c", &c, "America/Chicago", Some("US")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    let s = |v: &serde_json::Value, k: &str| {
        v[k].as_str().filter(|x| !x.is_empty()).map(str::to_string)
    };
    let list = |v: &serde_json::Value| v.as_array().cloned().unwrap_or_default();
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        // the watch list
        let watch = list(&o["watch"]);
        assert_eq!(count("eBay watched listing "), watch.len(), "{source}");
        for w in &watch {
            let p = titled(
                &all,
                &format!("eBay watched listing {}", s(w, "title").unwrap()),
            );
            assert_eq!(p.category, "transactions");
            for k in [
                "listingId",
                "variationId",
                "listingImageUrl",
                "aspects",
                "isPartial",
                "key",
            ] {
                if let Some(v) = s(w, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(w, "listingEndDate").unwrap()]);
        }
        // recent searches and the queries suggestions.db kept
        let searches = list(&o["searches"]);
        assert_eq!(count("eBay recent search "), searches.len(), "{source}");
        for r in &searches {
            let p = titled(
                &all,
                &format!("eBay recent search {}", s(r, "keyword").unwrap()),
            );
            assert_eq!(p.category, "web");
            for k in [
                "categoryId",
                "searchResultCount",
                "sellerPrefix",
                "isSpelledCorrectly",
                "userId",
                "uid",
            ] {
                if let Some(v) = s(r, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_values(p), vec![s(r, "timestamp").unwrap()]);
        }
        let kept = list(&o["suggestions"]);
        assert_eq!(count("eBay search query "), kept.len(), "{source}");
        for q in &kept {
            let p = titled(
                &all,
                &format!("eBay search query {}", s(q, "query").unwrap()),
            );
            assert_eq!(p.category, "web");
            assert_eq!(time_values(p), vec![s(q, "date").unwrap()]);
        }
        // followed sellers: the flag as stored, no time
        let sellers = list(&o["sellers"]);
        assert_eq!(count("eBay followed seller "), sellers.len(), "{source}");
        for f in &sellers {
            let p = titled(
                &all,
                &format!("eBay followed seller {}", s(f, "sellerId").unwrap()),
            );
            assert_eq!(p.category, "contacts");
            assert!(has_fact(p, &s(f, "following").unwrap()), "{p:#?}");
            assert!(has_fact(p, &s(f, "hashedUserId").unwrap()), "{p:#?}");
            assert!(p.times.is_empty(), "{p:#?}");
        }
        // app sessions with their screens and calls (none on phone B's older store)
        let sessions = list(&o["sessions"]);
        assert_eq!(count("eBay app session "), sessions.len(), "{source}");
        for se in &sessions {
            let p = titled(
                &all,
                &format!("eBay app session {}", s(se, "guid").unwrap()),
            );
            assert_eq!(p.category, "app_usage");
            assert!(has_fact(p, &s(se, "calls").unwrap()), "{p:#?}");
            assert!(has_fact(p, &s(se, "since_boot").unwrap()), "{p:#?}");
            let mut want: Vec<String> = list(&se["screens"])
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            want.sort();
            if !want.is_empty() {
                assert!(
                    p.verified_facts.iter().any(|f| {
                        let mut got: Vec<String> = f.value.split(',').map(str::to_string).collect();
                        got.sort();
                        got == want
                    }),
                    "screens {want:?}: {p:#?}"
                );
            }
            assert_eq!(time_values(p), vec![s(se, "start").unwrap()]);
        }
        // the app's state entries: the value and its column, a secret's withheld
        let state = list(&o["state"]);
        assert_eq!(count("eBay app state "), state.len(), "{source}");
        for e in &state {
            let stamp = s(e, "timestamp").unwrap();
            let title = format!("eBay app state {}", s(e, "key").unwrap());
            let p = all
                .iter()
                .find(|p| p.title == title && has_fact(p, &stamp))
                .unwrap_or_else(|| panic!("{title}: {all:#?}"));
            assert!(has_fact(p, &s(e, "publicUserId").unwrap()), "{p:#?}");
            for k in ["value", "stored_in", "encrypted_bytes"] {
                if let Some(v) = s(e, k) {
                    assert!(has_fact(p, &v), "{k}: {p:#?}");
                }
            }
            assert_eq!(
                has_fact(p, "withheld: the key names a secret"),
                e["withheld"].as_bool() == Some(true),
                "{p:#?}"
            );
            assert_eq!(time_values(p), vec![stamp]);
        }
        // the configuration record and the share channels (phone A only)
        let config = list(&o["config"]);
        assert_eq!(count("eBay app configuration "), config.len(), "{source}");
        for cf in &config {
            let p = titled(
                &all,
                &format!("eBay app configuration {}", s(cf, "appVersion").unwrap()),
            );
            assert_eq!(p.category, "apps");
            for k in [
                "siteCode",
                "languageCode",
                "androidSdk",
                "environment",
                "responseLevel",
                "rolloutThreshold",
                "eTag",
            ] {
                assert!(has_fact(p, &s(cf, k).unwrap()), "{k}: {p:#?}");
            }
            assert!(has_fact(p, &s(o, "config_values").unwrap()), "{p:#?}");
            assert_eq!(time_values(p), vec![s(cf, "timestamp").unwrap()]);
        }
        let shares = list(&o["shares"]);
        assert_eq!(count("eBay share channel "), shares.len(), "{source}");
        for sh in &shares {
            let p = titled(
                &all,
                &format!("eBay share channel {}", s(sh, "channelName").unwrap()),
            );
            assert!(has_fact(p, &s(sh, "id").unwrap()), "{p:#?}");
            assert_eq!(time_values(p), vec![s(sh, "value").unwrap()]);
        }
        // every distinct user id, per column; the public id the owner's, the hashed not
        let ids = list(&o["user_ids"]);
        assert_eq!(count("eBay user id "), ids.len(), "{source}");
        let owner = run.owner(source);
        let owned: Vec<String> = ids
            .iter()
            .filter(|id| id["owner"].as_bool() == Some(true))
            .filter_map(|id| s(id, "id"))
            .collect();
        for id in &ids {
            let v = s(id, "id").unwrap();
            let p = titled(
                &all,
                &format!("eBay user id {v} ({})", s(id, "table").unwrap()),
            );
            assert_eq!(p.category, "accounts");
            assert!(has_fact(p, &v), "{p:#?}");
            assert_eq!(
                owner.contains(&format!("account_id=ebay:{v}")),
                owned.contains(&v),
                "{v}: {owner}"
            );
        }
        for q in list(&o["owner"]) {
            assert!(
                owner.contains(&format!("account_id={}", q.as_str().unwrap())),
                "{owner}"
            );
        }
        // never a secret, in a phenomenon or in any output the run logged
        let secrets: Vec<String> = list(&o["secrets"])
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect();
        assert_eq!(secrets.is_empty(), source == "b");
        for (tool, args, text) in run.outputs(source) {
            for sec in &secrets {
                assert!(!text.contains(sec.as_str()), "{sec} in {tool} {args}");
            }
        }
        for p in &all {
            for sec in &secrets {
                assert!(
                    !p.verified_facts
                        .iter()
                        .any(|f| f.value.contains(sec.as_str())),
                    "{sec}: {p:#?}"
                );
            }
        }
    }
    // tree C: the store of another layout and the truncated copy noted, suggestions.db read
    let all = run.all_phenomena("c");
    for q in list(&o["c"]["suggestions"]) {
        let p = titled(
            &all,
            &format!("eBay search query {}", q["query"].as_str().unwrap()),
        );
        assert_eq!(
            time_values(p),
            vec![q["date"].as_str().unwrap().to_string()]
        );
    }
    assert!(!all.iter().any(|p| p.title.starts_with("eBay user id ")));
    run.assert_noted(
        "c",
        &[
            (
                "data/data/com.ebay.mobile/databases/nautilus_db",
                "none of the tables read",
            ),
            ("user/10/com.ebay.mobile/databases/nautilus_db", "malformed"),
        ],
    );
}
