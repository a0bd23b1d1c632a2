//! geod's place cache (`ios::geodplaces`), geod's app counts and map tiles (`ios::geodapps`),
//! Apple Wallet's cached cards (`ios::walletcards`) and Google Maps' cached routes
//! (`ios::gmaproutes`) on two iPhones, written by `tests/fixtures/iosgeo/iosgeo.py` (Python's
//! sqlite3, plistlib and gzip; Protocol Buffers and NSKeyedArchiver written by hand; the files,
//! tables, columns and keys iLEAPP's geodPDPlaceCache, geodApplications, geodMapTiles,
//! appleWalletCards and cacheRoutesGmap read). The generator's record is the oracle: every
//! place lookup with its key, hash, times and every string of its place (iPhone B's place kept
//! gzip-compressed), the lookup whose place is gone; every AP.db row (Cocoa seconds on A, the
//! older `dailycounts` with UTC text on B); the map tiles grouped by the second they were last
//! used (A's `tiles`/`data`/`access_times`, B's older `image`); every cached card by its last
//! four digits, length, type, expiry and time — and no output, fact, title or interpretation
//! holding a card number; every route's distinct points. iPhone B's cut PDPlaceCache.db, its
//! place that is no message, its Passbook Cache.db without the URL-cache tables and its cut
//! route file are noted while the rest is read; another app's AP.db is passed over.

use crate::android_support::{generate, has_fact, titled, triage};

/// Whether a printed number is the oracle's.
fn same(printed: &str, v: &serde_json::Value) -> bool {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .is_some_and(|x| printed.parse::<f64>().ok() == Some(x))
}

/// Whether `p` holds a fact whose value is the oracle's number `v`.
fn has_number(p: &masf_graph::Phenomenon, v: &serde_json::Value) -> bool {
    p.verified_facts.iter().any(|f| same(&f.value, v))
}

/// A string as a JSON output holds it (quotes and backslashes escaped).
fn in_json(s: &str) -> String {
    let j = serde_json::to_string(s).unwrap();
    j[1..j.len() - 1].to_string()
}

/// A string as a `sqlite_query` JSON cell holds it (`protobuf:`: JSON-escaped, then its
/// backslashes doubled by the cell's escaping).
fn in_json_cell(s: &str) -> String {
    in_json(s).replace('\\', "\\\\")
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// Whether `p` holds a fact listing exactly `items` (comma-separated, in any order).
fn has_list(p: &masf_graph::Phenomenon, items: &[String]) -> bool {
    let mut want = items.to_vec();
    want.sort();
    p.verified_facts.iter().any(|f| {
        let mut got: Vec<String> = f.value.split(',').map(str::to_string).collect();
        got.sort();
        got == want
    })
}

#[test]
fn geod_places_tiles_wallet_cards_and_google_routes_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosgeo/iosgeo.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let run = triage(&[
        ("a", &a, "Europe/Zurich", Some("CH")),
        ("b", &b, "Europe/Oslo", Some("NO")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b"] {
        let o = &o[source];
        let all = run.all_phenomena(source);
        let ours: Vec<_> = all
            .iter()
            .filter(|p| {
                [
                    "Apple Maps cached place",
                    "Apple Maps place lookup",
                    "Apple map services used by",
                    "Apple Maps tiles used",
                    "Apple Wallet card",
                    "Google Maps cached route",
                ]
                .iter()
                .any(|w| p.title.starts_with(w))
            })
            .collect();
        for p in &ours {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }

        // geod's place cache: one per lookup, the place's strings, the lookup whose place is gone
        let lookups: Vec<_> = ours
            .iter()
            .filter(|p| {
                p.title.starts_with("Apple Maps cached place")
                    || p.title.starts_with("Apple Maps place lookup")
            })
            .collect();
        let places = o["places"].as_array().unwrap();
        assert_eq!(lookups.len(), places.len(), "{lookups:#?}");
        for l in places {
            let key = l["requestkey"].as_str().unwrap();
            let p = lookups
                .iter()
                .find(|p| has_fact(p, key))
                .unwrap_or_else(|| panic!("{key}: {lookups:#?}"));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, l["pdplacehash"].as_str().unwrap()), "{p:#?}");
            let strings: Vec<&str> = l["strings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect();
            for s in &strings {
                assert!(has_fact(p, &in_json_cell(s)), "{s}: {p:#?}");
            }
            if strings.is_empty() {
                assert!(
                    p.title.starts_with("Apple Maps place lookup "),
                    "{}",
                    p.title
                );
            } else {
                let name = p.title.strip_prefix("Apple Maps cached place ").unwrap();
                assert!(
                    strings.contains(&name) && name.chars().count() >= 3,
                    "{}",
                    p.title
                );
            }
            assert!(same(
                time_of(p, "Apple Maps place lookup last used").unwrap(),
                &l["lastaccesstime"]
            ));
            match l["expiretime"].as_i64() {
                Some(e) => assert_eq!(
                    time_of(p, "Apple Maps cached place expires"),
                    Some(e.to_string().as_str())
                ),
                None => assert!(time_of(p, "Apple Maps cached place expires").is_none()),
            }
            assert!(
                p.interpretation
                    .contains("not necessarily where the phone was")
            );
            assert!(p.interpretation.contains("position"));
        }

        // geod's AP.db: one per row, Cocoa seconds or UTC text
        for r in o["apps"].as_array().unwrap() {
            let app = r["app_id"].as_str().unwrap();
            let p = titled(&all, &format!("Apple map services used by {app}"));
            assert_eq!(p.category, "app_usage");
            assert!(
                has_fact(p, app) && has_number(p, &r["count_type"]),
                "{p:#?}"
            );
            let at = time_of(p, "Map services use counted").unwrap();
            match r.get("unix") {
                Some(unix) => {
                    assert_eq!(at, unix.to_string());
                    assert!(has_fact(p, r["createtime"].as_str().unwrap()));
                }
                None => assert!(same(at, &r["createtime"]), "{at}"),
            }
            assert!(p.interpretation.contains(r["table"].as_str().unwrap()));
        }
        assert!(!all.iter().any(|p| p.title.contains("com.example.notgeod")));

        // geod's map tiles: one per second of use
        let tiles: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("Apple Maps tiles used"))
            .collect();
        let groups = o["tiles"].as_array().unwrap();
        assert_eq!(tiles.len(), groups.len(), "{tiles:#?}");
        for g in groups {
            let ts = g["timestamp"].as_i64().unwrap().to_string();
            let p = tiles
                .iter()
                .find(|p| time_of(p, "Map tiles last used") == Some(ts.as_str()))
                .unwrap_or_else(|| panic!("{ts}: {tiles:#?}"));
            assert_eq!(p.category, "locations");
            let n = g["tiles"].as_i64().unwrap();
            assert_eq!(
                p.title,
                format!(
                    "Apple Maps tiles used ({n} tile{})",
                    if n == 1 { "" } else { "s" }
                )
            );
            assert!(has_number(p, &g["bytes"]), "{p:#?}");
            let list = |k: &str| -> Vec<String> {
                g[k].as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .collect()
            };
            assert!(
                has_list(p, &list("tilesets")) && has_list(p, &list("kinds")),
                "{p:#?}"
            );
            assert!(
                p.interpretation
                    .contains("not necessarily where the phone was")
            );
        }

        // Wallet's cached cards: the last four digits only
        let cards: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("Apple Wallet card"))
            .collect();
        let oracle_cards = o["cards"].as_array().unwrap();
        let outputs = run.outputs(source);
        assert_eq!(cards.len(), oracle_cards.len(), "{cards:#?}");
        for c in oracle_cards {
            let last = c["last_four"].as_str().unwrap();
            let p = titled(
                &all,
                &format!(
                    "Apple Wallet card ending {last} ({})",
                    c["type"].as_str().unwrap()
                ),
            );
            assert_eq!(p.category, "accounts");
            for k in ["last_four", "expiry", "url"] {
                assert!(has_fact(p, c[k].as_str().unwrap()), "{k}: {p:#?}");
            }
            assert!(has_number(p, &c["digits"]));
            assert_eq!(
                time_of(p, "Wallet card data cached"),
                Some(c["unix"].to_string().as_str())
            );
            assert!(p.interpretation.contains("the number is not recorded"));
            // the number itself is nowhere: no phenomenon, no tool output
            let number = c["number"].as_str().unwrap();
            for q in &all {
                assert!(
                    !q.title.contains(number)
                        && !q.interpretation.contains(number)
                        && !q.verified_facts.iter().any(|f| f.value.contains(number)),
                    "{number} in {q:#?}"
                );
            }
            for (tool, args, out) in &outputs {
                assert!(!out.contains(number), "{tool} {args} printed a card number");
            }
        }

        // Google Maps' cached routes: each distinct point, the file name's time
        for r in o["routes"].as_array().unwrap() {
            let points = r["points"].as_array().unwrap();
            let ms = r["ms"].as_i64().unwrap().to_string();
            let p = titled(
                &all,
                &format!("Google Maps cached route {ms} ({} points)", points.len()),
            );
            assert_eq!(p.category, "locations");
            assert_eq!(
                time_of(p, "Google Maps route cached (file name)"),
                Some(ms.as_str())
            );
            for pt in points {
                assert!(
                    has_number(p, &pt["_coordinateLat"]) && has_number(p, &pt["_coordinateLong"]),
                    "{pt}: {p:#?}"
                );
                if let Some(t) = pt["_title"].as_str() {
                    assert!(has_fact(p, &in_json(t)), "{t}: {p:#?}");
                }
            }
            assert!(p.interpretation.contains("not a trip the phone made"));
        }
    }
    // iPhone A: nothing of these stores is noted
    for u in run.unparsed("a") {
        assert!(
            !["com.apple.geod", "com.apple.Passbook", "CachedRoutes"]
                .iter()
                .any(|w| u.artefact.contains(w)),
            "{u:#?}"
        );
    }
    // iPhone B: the cut database, the place that is no message, the Cache.db of another layout,
    // the cut route file
    let b = &o["b"];
    run.assert_noted(
        "b",
        &[
            (
                "mobile/Library/Caches/com.apple.geod/PDPlaceCache.db",
                "do not decode as Protocol Buffers",
            ),
            (b["cards_noted"].as_str().unwrap(), "unexpected schema"),
            (b["routes_noted"].as_str().unwrap(), "parse_plist"),
        ],
    );
    let cut = b["places_noted"].as_str().unwrap();
    assert!(
        run.unparsed("b").iter().any(|u| u.artefact.ends_with(cut)
            && (u.reason.contains("not a database") || u.reason.contains("malformed"))),
        "{:#?}",
        run.unparsed("b")
    );
    // and nothing of the B stores that were read is noted
    for read in [
        "com.apple.geod/AP.db",
        "Documents/AP.db",
        "MapTiles.sqlitedb",
        "00000000B701/Library/Caches/com.apple.Passbook/Cache.db",
        "CachedRoutes/1598180000456.plist",
    ] {
        assert!(
            !run.unparsed("b").iter().any(|u| u.artefact.ends_with(read)),
            "{read}: {:#?}",
            run.unparsed("b")
        );
    }
}
