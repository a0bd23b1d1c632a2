//! The AppConduit log (`ios::appconduit`), Oura (`ios::oura`), SBB Mobile (`ios::sbb`),
//! MeteoSwiss (`ios::swissmeteo`) and Home Depot (`ios::homedepot`) on two iPhones, written by
//! `tests/fixtures/iosapps3/iosapps3.py` (Python's sqlite3, plistlib and json, keyed archives by
//! `tests/fixtures/keyedarchive.py`; the files, lines, tables, columns and keys iLEAPP's
//! appConduit, Oura, sbbmobile, swissmeteo and home_depot read). The generator's record is the
//! oracle: every watch connection and disconnection with its time as written, IDS device id,
//! pairing id, and the product type and build of its pairing id's first connection (found in
//! the other log); the Oura account with its e-mail, UID and Segment ids as the owner's
//! (`oura:<UID>`), each ring by its Bluetooth id with the profile's model, colour, size and
//! firmware on the first, its battery and low-battery records (JSON as data and as text in a
//! string), the ring's last known position; every SBB search with its places, types and result
//! coordinates (iPhone B's older table without them) and every EasyRide journey paired by time
//! as iLEAPP pairs them (a line written out of key order, a check-in without check-out, a
//! check-out alone); every MeteoSwiss forecast looked at with its postal code's place and centre
//! (LV03 and LV95 turned into degrees in the query), every app opening with its position; the
//! Home Depot account of each source (a keyed archive, JSON data, userInfo.txt; on B JSON text in
//! a string) as the owner's, its local store, the last known location and the saved searches.
//! Other apps' Segment, UUID-named and userInfo.txt files are not read. Noted on iPhone B: a
//! cut com.ouraring.oura.plist, an SBB logs store that is no database, a
//! favorites_prediction_db.sqlite with neither table and a cut userInfo.txt.

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

/// Whether `p` holds a number within 2·10⁻⁶ of `v` (a position computed in the query).
fn has_close(p: &masf_graph::Phenomenon, v: f64) -> bool {
    p.verified_facts
        .iter()
        .any(|f| f.value.parse::<f64>().is_ok_and(|x| (x - v).abs() <= 2e-6))
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// Whether the time marked `what` of `p` is the oracle's value `v` (as written, or the same
/// number), or absent when `v` is null.
fn time_is(p: &masf_graph::Phenomenon, what: &str, v: &serde_json::Value) -> bool {
    match (time_of(p, what), v) {
        (None, serde_json::Value::Null) => true,
        (Some(t), v) => v.as_str() == Some(t) || same(t, v),
        _ => false,
    }
}

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

#[test]
fn watch_connections_oura_sbb_meteoswiss_and_home_depot_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps3/iosapps3.py",
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
        let ids = run.identifiers(source);
        let owner = run.owner(source);
        let ours: Vec<_> = all
            .iter()
            .filter(|p| {
                [
                    "Paired Apple Watch",
                    "Oura ",
                    "SBB ",
                    "MeteoSwiss ",
                    "Home Depot ",
                ]
                .iter()
                .any(|w| p.title.starts_with(w))
            })
            .collect();
        for p in &ours {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }

        // AppConduit: every connection and disconnection, the watch by its ids (facts only)
        let events = o["conduit"].as_array().unwrap();
        let conduit: Vec<_> = ours
            .iter()
            .filter(|p| p.title.ends_with("(AppConduit log)"))
            .collect();
        assert_eq!(conduit.len(), events.len(), "{conduit:#?}");
        for e in events {
            let on = e["connected"] == true;
            let what = if on {
                "Paired Apple Watch connected"
            } else {
                "Paired Apple Watch disconnected"
            };
            let p = conduit
                .iter()
                .find(|p| {
                    p.title == format!("{what} (AppConduit log)") && has_fact(p, s(&e["time"]))
                })
                .unwrap_or_else(|| panic!("{e}: {conduit:#?}"));
            assert_eq!(p.category, "device");
            assert_eq!(
                time_of(p, &format!("{what} (AppConduit log)")),
                Some(s(&e["time"]))
            );
            assert!(
                has_fact(p, s(&e["device"])) && has_fact(p, s(&e["pairing"])),
                "{p:#?}"
            );
            // the product type and build: the line's own, or its pairing id's first connection
            let first = events
                .iter()
                .find(|c| c["connected"] == true && c["pairing"] == e["pairing"])
                .unwrap();
            assert!(
                has_fact(p, s(&first["product"])) && has_fact(p, s(&first["build"])),
                "{p:#?}"
            );
            assert!(
                !ids.iter()
                    .any(|(_, n)| n.contains(&s(&e["device"]).to_lowercase())
                        || n.contains(s(&e["device"]))),
                "{ids:?}"
            );
        }

        // Oura: the account is the owner's; rings and the last known position
        let ou = &o["oura"];
        let email = s(&ou["emails"][0]);
        let p = titled(&all, &format!("Oura account {email}"));
        assert_eq!(p.category, "accounts");
        for k in ["uid", "device_uid", "segment_user", "anonymous"] {
            if let Some(v) = ou[k].as_str() {
                assert!(has_fact(p, v), "{k}: {p:#?}");
            }
        }
        for (what, t) in ou["times"].as_object().unwrap() {
            assert!(time_is(p, what, t), "{what}: {p:#?}");
        }
        assert!(owner.contains(&format!("email={email}")), "{owner}");
        assert!(
            owner.contains(&format!("account_id=oura:{}", s(&ou["uid"]))),
            "{owner}"
        );
        let rings = ou["rings"].as_array().unwrap();
        let first_ring = if rings.is_empty() {
            titled(&all, "Oura ring")
        } else {
            for r in rings {
                let p = titled(&all, &format!("Oura ring {}", s(r)));
                assert_eq!(p.category, "device");
                assert!(has_fact(p, s(r)));
                assert!(!ids.iter().any(|(_, n)| n.contains(s(r))), "{ids:?}");
            }
            titled(&all, &format!("Oura ring {}", s(&rings[0])))
        };
        for v in ou["profile"].as_array().unwrap() {
            assert!(has_fact(first_ring, s(v)), "{v}: {first_ring:#?}");
        }
        for (what, t) in ou["ring_dates"].as_object().unwrap() {
            assert!(time_is(first_ring, what, t), "{what}: {first_ring:#?}");
        }
        if let Some(bat) = ou["battery"].as_object() {
            assert!(has_fact(first_ring, s(&bat["level"])));
            assert!(time_is(
                first_ring,
                "Oura ring battery level recorded",
                &bat["time"]
            ));
            let low = &ou["low"];
            for k in ["level", "hours", "type"] {
                assert!(has_fact(first_ring, s(&low[k])), "{k}: {first_ring:#?}");
            }
            assert!(time_is(
                first_ring,
                "Oura ring low-battery notification",
                &low["time"]
            ));
        }
        match ou["location"].as_object() {
            Some(l) => {
                let p = titled(&all, "Oura ring last known location");
                assert_eq!(p.category, "locations");
                for k in ["latitude", "longitude", "altitude", "horizontalAccuracy"] {
                    assert!(has_number(p, &l[k]), "{k}: {p:#?}");
                }
                assert!(time_is(p, "Oura ring last located", &l["timestamp"]));
            }
            None => assert!(
                !all.iter()
                    .any(|p| p.title == "Oura ring last known location")
            ),
        }
        for v in ou["foreign"].as_array().unwrap() {
            assert!(
                !all.iter()
                    .any(|p| p.verified_facts.iter().any(|f| f.value.contains(s(v)))),
                "{v} was read"
            );
        }

        // SBB: searches and EasyRide journeys paired by time
        let sbb = &o["sbb"];
        for e in sbb["searches"].as_array().unwrap() {
            let p = titled(
                &all,
                &format!(
                    "SBB timetable search from {} to {}",
                    s(&e["from"]),
                    s(&e["to"])
                ),
            );
            assert_eq!(p.category, "locations");
            for k in ["from", "to", "from_type", "to_type"] {
                if let Some(v) = e[k].as_str() {
                    assert!(has_fact(p, v), "{k}: {p:#?}");
                }
            }
            for k in ["lat", "lon"] {
                if !e[k].is_null() {
                    assert!(has_number(p, &e[k]), "{k}: {p:#?}");
                }
            }
            assert_eq!(time_of(p, "SBB timetable searched"), Some(s(&e["time"])));
        }
        let journeys: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("SBB EasyRide"))
            .collect();
        let pairs = sbb["journeys"].as_array().unwrap();
        assert_eq!(journeys.len(), pairs.len(), "{journeys:#?}");
        for pair in pairs {
            let (i, out) = (&pair[0], &pair[1]);
            let p = journeys
                .iter()
                .find(|p| {
                    time_is(p, "SBB EasyRide checked in", i)
                        && time_is(p, "SBB EasyRide checked out", out)
                })
                .unwrap_or_else(|| panic!("{pair}: {journeys:#?}"));
            assert_eq!(p.category, "locations");
            let title = match (i.is_null(), out.is_null()) {
                (false, false) => "SBB EasyRide journey",
                (false, true) => "SBB EasyRide check-in without check-out",
                _ => "SBB EasyRide check-out without check-in",
            };
            assert_eq!(p.title, title);
        }

        // MeteoSwiss: forecasts looked at with their place, app openings with the position
        let me = &o["meteo"];
        for e in me["interactions"].as_array().unwrap() {
            let place = &e["place"];
            let title = match place["name"].as_str() {
                Some(n) => format!("MeteoSwiss forecast viewed for {} {n}", s(&e["plz"])),
                None => format!("MeteoSwiss forecast viewed for {}", s(&e["plz"])),
            };
            let p = all
                .iter()
                .find(|p| {
                    p.title == title
                        && time_of(p, "MeteoSwiss forecast viewed") == Some(s(&e["time"]))
                })
                .unwrap_or_else(|| panic!("{title}: {e}"));
            assert_eq!(p.category, "locations");
            assert!(has_fact(p, s(&e["plz"])));
            for k in ["lat", "lon"] {
                if !e[k].is_null() {
                    assert!(has_number(p, &e[k]), "{k}: {p:#?}");
                }
            }
            if place.is_object() {
                assert!(has_fact(p, s(&place["name"])) && has_number(p, &place["altitude"]));
                for k in ["lat", "lon"] {
                    assert!(has_close(p, place[k].as_f64().unwrap()), "{k}: {p:#?}");
                }
                assert!(p.interpretation.contains("localdata.sqlite"));
            }
        }
        let opens: Vec<_> = ours
            .iter()
            .filter(|p| p.title.starts_with("MeteoSwiss app opened"))
            .collect();
        assert_eq!(opens.len(), me["opens"].as_array().unwrap().len());
        for e in me["opens"].as_array().unwrap() {
            let p = opens
                .iter()
                .find(|p| time_of(p, "MeteoSwiss app opened") == Some(s(&e["time"])))
                .unwrap_or_else(|| panic!("{e}: {opens:#?}"));
            assert!(
                has_number(p, &e["lat"]) && has_number(p, &e["lon"]),
                "{p:#?}"
            );
        }

        // Home Depot: each source's account as the owner's, its store, location, searches
        let hd = &o["homedepot"];
        let accounts = hd["accounts"].as_array().unwrap();
        for acc in accounts {
            let logon = s(&acc["logonId"]);
            let p = titled(
                &all,
                &format!("Home Depot account {logon} ({})", s(&acc["source"])),
            );
            assert_eq!(p.category, "accounts");
            for k in [
                "userId", "logonId", "first", "last", "phone", "zip", "customer", "store_id",
            ] {
                assert!(has_fact(p, s(&acc[k])), "{k}: {p:#?}");
            }
            for id in acc["preferred"].as_array().unwrap() {
                assert!(has_fact(p, s(id)), "{id}: {p:#?}");
            }
            assert!(owner.contains(&format!("email={logon}")), "{owner}");
            assert!(
                owner.contains(&format!("phone={}", s(&acc["phone"]))),
                "{owner}"
            );
            let qualified = format!("account_id=homedepot:{}", s(&acc["userId"]));
            assert_eq!(
                owner.contains(&qualified),
                acc["qualified"] == true,
                "{owner}"
            );
        }
        let store = &accounts[0]["store"];
        let stores: Vec<_> = ours
            .iter()
            .filter(|p| p.title == format!("Home Depot local store {}", s(&store["name"])))
            .collect();
        assert_eq!(stores.len(), accounts.len(), "{stores:#?}");
        for p in stores {
            assert_eq!(p.category, "locations");
            for k in ["street", "city", "state", "postal", "phone"] {
                assert!(has_fact(p, s(&store[k])), "{k}: {p:#?}");
            }
            for k in ["lat", "lng"] {
                assert!(has_number(p, &store[k]), "{k}: {p:#?}");
            }
        }
        match hd["location"].as_object() {
            Some(l) => {
                let p = titled(&all, "Home Depot last known location");
                assert_eq!(p.category, "locations");
                for k in ["lat", "lon", "accuracy", "altitude"] {
                    assert!(has_number(p, &l[k]), "{k}: {p:#?}");
                }
                assert!(time_is(p, "Home Depot app located the device", &l["time"]));
            }
            None => assert!(
                !all.iter()
                    .any(|p| p.title == "Home Depot last known location")
            ),
        }
        let searches = hd["searches"].as_array().unwrap();
        assert_eq!(
            ours.iter()
                .filter(|p| p.title.starts_with("Home Depot saved search "))
                .count(),
            searches.len()
        );
        for e in searches {
            let term = s(&e["term"]);
            let p = titled(&all, &format!("Home Depot saved search {term}"));
            assert_eq!(p.category, "web");
            assert!(has_fact(p, term));
            assert!(time_is(p, "Home Depot search saved", &e["time"]), "{p:#?}");
            assert_eq!(p.interpretation.contains("no longer"), e["listed"] == false);
        }
        for v in hd["foreign"].as_array().into_iter().flatten() {
            assert!(
                !all.iter()
                    .any(|p| p.verified_facts.iter().any(|f| f.value.contains(s(v)))),
                "{v} was read"
            );
            assert!(!owner.contains(&s(v).to_lowercase()), "{owner}");
        }
    }
    // iPhone A: nothing of these apps noted
    for read in [
        "AppConduit.log.0",
        "AppConduit.log.1",
        "com.ouraring.oura.plist",
        ".sqlite",
        "homedepot.plist",
        "userInfo.txt",
    ] {
        assert!(
            !run.unparsed("a").iter().any(|u| u.artefact.ends_with(read)),
            "{read}: {:#?}",
            run.unparsed("a")
        );
    }
    // iPhone B: the cut Oura plist, the SBB store that is no database, the MeteoSwiss store
    // with neither table, the cut userInfo.txt
    let b = &o["b"];
    run.assert_noted(
        "b",
        &[
            (s(&b["oura"]["noted"]), "parse_plist"),
            (
                s(&b["meteo"]["noted"]),
                "neither plz_interaction nor app_open",
            ),
            (s(&b["homedepot"]["noted"]), "read_json"),
        ],
    );
    let sbb_note = s(&b["sbb"]["noted"]);
    assert!(
        run.unparsed("b")
            .iter()
            .any(|u| u.artefact.ends_with(sbb_note)
                && (u.reason.contains("not a database") || u.reason.contains("malformed"))),
        "{:#?}",
        run.unparsed("b")
    );
    // and nothing of the B files that were read is noted
    for read in [
        "00000000B601/Library/Preferences/com.ouraring.oura.plist",
        "00000000B701/Documents/ch.sbb.coredata.logs.sqlite",
        "ch.sbb.coredata.searchhistory.sqlite",
        "00000000B801/Library/Application Support/databases/favorites_prediction_db.sqlite",
        "group.com.thehomedepot.homedepot.plist",
        "AppConduit.log.0",
    ] {
        assert!(
            !run.unparsed("b").iter().any(|u| u.artefact.ends_with(read)),
            "{read}: {:#?}",
            run.unparsed("b")
        );
    }
}
