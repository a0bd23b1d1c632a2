//! wifianalyticsd's geotags (`ios::wifianalytics`) and the network interface list
//! (`ios::netinterfaces`) on two iPhones, written by `tests/fixtures/iosapps5/iosapps5.py`
//! (Python's sqlite3 and plistlib; the files, tables, columns and keys iLEAPP's wifiAnalytics
//! and wifiIdentifiers read). The generator's record is the oracle: every geotag with its
//! position, date, access point (BSSID, last seen) and network (SSID) — iPhone B's older store
//! without ZLASTSEEN nor ZNETWORK, iPhone A's geotag at 0/0 said to be no position and its
//! geotag without an access point kept —, every interface with its hardware address (hex as
//! `parse_plist` prints it), name, BSD name and type, none where it keeps none. iPhone B's copy
//! of DeviceAnalyticsModel.sqlite without ZGEOTAG and its cut NetworkInterfaces.plist are noted
//! while the rest is read.

use crate::android_support::{generate, has_fact, triage};

/// Whether a printed number is the oracle's.
fn same(printed: &str, v: &serde_json::Value) -> bool {
    v.as_f64()
        .is_some_and(|x| printed.parse::<f64>().ok() == Some(x))
}

/// Whether `p` holds a fact whose value is the oracle's number `v`.
fn has_number(p: &masf_graph::Phenomenon, v: &serde_json::Value) -> bool {
    p.verified_facts.iter().any(|f| same(&f.value, v))
}

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

#[test]
fn wifi_geotags_and_network_interfaces_on_two_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps5/iosapps5.py",
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
        for p in all.iter().filter(|p| {
            p.title.starts_with("Wi-Fi geotag") || p.title.starts_with("Network interface")
        }) {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }

        // geotags: one per ZGEOTAG row, found by its date
        let geotags: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Wi-Fi geotag"))
            .collect();
        let rows = o["geotags"].as_array().unwrap();
        assert_eq!(geotags.len(), rows.len(), "{geotags:#?}");
        for g in rows {
            let p = geotags
                .iter()
                .find(|p| {
                    time_of(p, "Wi-Fi network geotagged").is_some_and(|v| same(v, &g["ZDATE"]))
                })
                .unwrap_or_else(|| panic!("{g}: {geotags:#?}"));
            assert_eq!(p.category, "locations");
            assert!(
                has_number(p, &g["ZLATITUDE"]) && has_number(p, &g["ZLONGITUDE"]),
                "{p:#?}"
            );
            match (g["ZSSID"].as_str(), g["ZBSSID"].as_str()) {
                (Some(s), Some(b)) => {
                    assert_eq!(p.title, format!("Wi-Fi geotag {s} ({b})"));
                    assert!(has_fact(p, s) && has_fact(p, b), "{p:#?}");
                }
                (None, Some(b)) => {
                    assert_eq!(p.title, format!("Wi-Fi geotag {b}"));
                    assert!(has_fact(p, b));
                }
                _ => assert_eq!(p.title, format!("Wi-Fi geotag {}", g["Z_PK"])),
            }
            match g.get("ZLASTSEEN").filter(|v| !v.is_null()) {
                Some(v) => assert!(same(time_of(p, "Wi-Fi access point last seen").unwrap(), v)),
                None => assert!(time_of(p, "Wi-Fi access point last seen").is_none()),
            }
            let zero =
                g["ZLATITUDE"].as_f64() == Some(0.0) && g["ZLONGITUDE"].as_f64() == Some(0.0);
            assert_eq!(
                p.interpretation.contains("no position recorded"),
                zero,
                "{}",
                p.interpretation
            );
        }

        // interfaces: hardware address as hex, names, type; none kept for the cellular one
        let ifs = &o["interfaces"];
        let listed: Vec<_> = all
            .iter()
            .filter(|p| p.title.starts_with("Network interface "))
            .collect();
        let list = ifs["list"].as_array().unwrap();
        assert_eq!(listed.len(), list.len(), "{listed:#?}");
        for i in list {
            let bsd = i["bsd"].as_str().unwrap();
            let title = format!(
                "Network interface {} {bsd}",
                i["name"].as_str().unwrap_or("(unnamed)")
            );
            let p = listed
                .iter()
                .find(|p| p.title == title)
                .unwrap_or_else(|| panic!("{title}: {listed:#?}"));
            assert_eq!(p.category, "device");
            assert!(has_fact(p, i["path"].as_str().unwrap()), "{p:#?}");
            match i["mac"].as_str() {
                Some(m) => {
                    assert!(has_fact(p, m), "{p:#?}");
                    assert!(p.interpretation.contains(&format!("hardware address {m}")));
                }
                None => assert!(p.interpretation.contains("No hardware address")),
            }
            if let Some(t) = i["type"].as_str() {
                assert!(has_fact(p, t));
            }
            if i["type"] == "IEEE80211" {
                assert!(
                    p.interpretation
                        .contains("Wi-Fi interface's own hardware address")
                );
            }
            if let Some(m) = ifs["model"].as_str() {
                assert!(has_fact(p, m));
            }
        }
        // a network names no one: no identity from either artefact
        let ids = run.identifiers(source);
        for i in list {
            if let Some(m) = i["mac"].as_str() {
                assert!(!ids.iter().any(|(_, n)| n.contains(m)), "{ids:?}");
            }
        }
    }
    // iPhone B: the copy without ZGEOTAG and the cut interface list are noted
    run.assert_noted(
        "b",
        &[
            (
                o["b"]["geotags_noted"].as_str().unwrap(),
                "no ZGEOTAG table",
            ),
            (o["b"]["interfaces_noted"].as_str().unwrap(), ""),
        ],
    );
    assert!(
        run.unparsed("a")
            .iter()
            .all(|u| !u.artefact.ends_with("DeviceAnalyticsModel.sqlite")
                && !u.artefact.ends_with("NetworkInterfaces.plist")),
        "{:#?}",
        run.unparsed("a")
    );
    assert!(
        !run.unparsed("b").iter().any(|u| u.artefact.ends_with(
            "root/Library/Application Support/com.apple.wifianalyticsd/DeviceAnalyticsModel.sqlite"
        ) || u
            .artefact
            .ends_with("preferences/SystemConfiguration/NetworkInterfaces.plist")),
        "{:#?}",
        run.unparsed("b")
    );
}
