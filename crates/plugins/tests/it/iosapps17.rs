//! The Wi-Fi network store `WiFiNetworkStoreModel.sqlite` (`ios::wifistoremodel`), the system
//! configuration's `preferences.plist` (`ios::sysconfprefs`) and the Personal Hotspot DHCP
//! server's `dhcpd_leases` (`ios::dhcpserverleases`) on three iPhones, written by
//! `tests/fixtures/iosapps17/iosapps17.py` (Python's sqlite3 and plistlib; the tables, columns,
//! keys and lines iLEAPP's wifiNetworkStoreModel, preferencesPlist and dhcphp read). The
//! generator's record is the oracle: every network record (SSID, `Z_PK`, entity name, auth flag
//! as stored, the geotags linking to it by each relationship, counted), every geotag (position,
//! BSSID, the linked networks' `Z_PK` and SSID, tagged count where the store has it; its Cocoa
//! date as an `apple_seconds` time, none when NULL; 0/0 and a geotag with no link said), the
//! device's names and model with the current set, every network service with its interface,
//! addresses, DNS servers and proxies (in the current set or not, said), and every complete
//! lease (name, address, hardware address after its type, identifier, the hexadecimal lease end
//! kept as text: no time), each fact as the tool prints it. The computer name is observed as
//! the device's name. iPhone A has the iOS 14 store and a binary plist; iPhone B the iOS 12
//! store under `com.apple.wifianalyticsd/` (no `ZTAGGEDCOUNT`, a network without SSID, a geotag
//! without link), an XML plist without host name or sets and with a PPP service (its keychain
//! reference and user name never facts), a lease without name; iPhone C a good copy of each, a
//! cut copy and a foreign file of each name (all noted; the cut lease file's first lease read),
//! and an app's own `preferences.plist` and `Library/db/dhcpd_leases` (neither read nor noted).

use crate::android_support::{generate, has_fact, titled, triage};

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

fn s(v: &serde_json::Value) -> &str {
    v.as_str().unwrap()
}

/// The phenomena of `all` titled `prefix…`, one per oracle row of `rows` (by its title), each in
/// `category`, without warnings and holding every fact the row lists.
fn each_row<'a>(
    all: &'a [masf_graph::Phenomenon],
    prefix: &str,
    rows: &'a serde_json::Value,
    category: &str,
) -> Vec<(&'a masf_graph::Phenomenon, &'a serde_json::Value)> {
    let rows = rows.as_array().unwrap();
    let found = all.iter().filter(|p| p.title.starts_with(prefix)).count();
    assert_eq!(
        found,
        rows.len(),
        "{prefix}: {:#?}",
        all.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    rows.iter()
        .map(|r| {
            let p = titled(all, s(&r["title"]));
            assert_eq!(p.category, category, "{p:#?}");
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
            for v in r["facts"].as_array().unwrap() {
                assert!(has_fact(p, s(v)), "{}: {v}: {p:#?}", p.title);
            }
            (p, r)
        })
        .collect()
}

/// Whether a note's artefact is one of these readers' files.
fn ours(artefact: &str) -> bool {
    let name = artefact.rsplit('/').next().unwrap_or(artefact);
    name == "WiFiNetworkStoreModel.sqlite"
        || name == "preferences.plist"
        || name.starts_with("dhcpd_leases")
}

#[test]
fn iosapps17_wifi_store_system_configuration_and_hotspot_leases() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps17/iosapps17.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|t| tmp.path().join(t)).collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/Zurich", Some("CH")),
        ("b", &dirs[1], "Europe/Oslo", Some("NO")),
        ("c", &dirs[2], "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());

    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let want = &o[source];

        // the store's networks: no time (the store keeps none)
        for (p, _) in each_row(
            &all,
            "Wi-Fi network store network ",
            &want["networks"],
            "wifi",
        ) {
            assert!(p.times.is_empty(), "{p:#?}");
            assert!(p.interpretation.contains("authFlag is as stored"));
        }

        // its geotags: the date as Cocoa seconds, 0/0 and a missing link said
        for (p, r) in each_row(
            &all,
            "Wi-Fi network store geotag ",
            &want["geotags"],
            "locations",
        ) {
            match r["date"].as_str() {
                Some(d) => {
                    assert_eq!(p.times.len(), 1, "{p:#?}");
                    assert_eq!(time_of(p, "Wi-Fi network store geotag dated"), Some(d));
                    assert_eq!(p.times[0].encoding, masf_graph::TimeEncoding::AppleSeconds);
                }
                None => assert!(p.times.is_empty(), "{p:#?}"),
            }
            assert_eq!(
                p.interpretation.contains("The position is 0/0"),
                r["zero"].as_bool().unwrap(),
                "{}",
                p.interpretation
            );
            assert_eq!(
                p.interpretation.contains("links to no network record"),
                !r["linked"].as_bool().unwrap(),
                "{}",
                p.interpretation
            );
            assert!(p.interpretation.contains("not a band the store records"));
        }

        // the system configuration: names and model, the computer name the device's
        for (p, _) in each_row(&all, "System configuration of ", &want["system"], "device") {
            assert!(p.times.is_empty(), "{p:#?}");
        }
        let name = s(&want["device_name"]);
        assert!(
            run.identifiers(source)
                .iter()
                .any(|(t, v)| t == "device_name" && v == name),
            "{source}: {name}: {:?}",
            run.identifiers(source)
        );

        // the network services, in the current set or not
        for (p, r) in each_row(&all, "Network service ", &want["services"], "device") {
            let member = p
                .interpretation
                .contains("It is a service of the current set");
            let outside = p
                .interpretation
                .contains("The current set does not list it");
            match r["in_set"].as_bool() {
                Some(true) => assert!(member && !outside, "{}", p.interpretation),
                Some(false) => assert!(outside && !member, "{}", p.interpretation),
                None => assert!(!member && !outside, "{}", p.interpretation),
            }
        }

        // the hotspot's leases: the lease end kept as text, no time
        for (p, _) in each_row(&all, "Personal Hotspot lease ", &want["leases"], "wifi") {
            assert!(p.times.is_empty(), "{p:#?}");
            assert!(
                p.interpretation.contains("hexadecimal"),
                "{}",
                p.interpretation
            );
        }

        // what must not be read: an app's own files, a cut lease, unread keys and the PPP
        // service's keychain reference and user name
        for x in want["unread"].as_array().unwrap() {
            for p in &all {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(s(x))),
                    "{x}: {p:#?}"
                );
            }
            assert!(
                !run.identifiers(source)
                    .iter()
                    .any(|(_, v)| v.contains(&s(x).to_lowercase())),
                "{x}"
            );
        }

        // the notes: exactly the damaged files of these names, never an app's own
        let mut noted: Vec<String> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| ours(&u.artefact))
            .map(|u| u.artefact.trim_start_matches('/').to_string())
            .collect();
        noted.sort();
        noted.dedup();
        let mut expected: Vec<String> = want["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| s(&n[0]).to_string())
            .collect();
        expected.sort();
        assert_eq!(noted, expected, "{source}: {:#?}", run.unparsed(source));
        for app in want["apps"].as_array().unwrap() {
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.ends_with(s(app))),
                "{app}"
            );
        }
    }
    let pairs: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (s(&n[0]), s(&n[1])))
        .collect();
    run.assert_noted("c", &pairs);
}
