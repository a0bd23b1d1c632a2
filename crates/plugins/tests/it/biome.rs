//! Biome (`ios::biome`, `read_segb`): an iPhone of iOS 16 (SEGB v1) and one of iOS 17 (SEGB v2).
//! No public Biome stream is in the corpus, so `tests/fixtures/biome/biome.py` writes them: each
//! record's payload by Google's protobuf runtime with the field numbers iLEAPP's Biome modules
//! read, the SEGB framing after CCL Solutions' published layout (iLEAPP's own modules and
//! `ccl_segb`, run on the same files during development, read every record alike). The
//! generator's record of what it wrote is the oracle: every app-in-focus, Bluetooth, Safari,
//! backlight, plugged-in, notification, now-playing, location-visit, app-installation,
//! Siri-remembered call, message and intent, Wallet, Wi-Fi, Safari navigation, web usage,
//! share-sheet, CarPlay and text-input record is found with its fields and times, and every
//! record of the streams read field by field (time zone, note content, app location activity,
//! app activity, audio and media routes, emergency call, OS build, Settings search, device states,
//! battery level, DuetKnowledge events — one of a stream iLEAPP has no module for), the other
//! party's handles observed (never the device's user's); the records a Mac synced into
//! `remote/<device>/` are said to be the Mac's, named from Biome's `sync.db`, whose peers are
//! recorded and observed by name; v2's deleted record is read and said deleted; a truncated file
//! and a foreign one are noted and the rest is read.

use std::path::Path;

use crate::android_support::{generate, has_fact, triage};

fn iphone(root: &Path, version: u8) -> serde_json::Value {
    let oracle = root.with_extension("oracle.json");
    let v = version.to_string();
    generate(
        "protobuf",
        "tests/fixtures/biome/biome.py",
        &[root.as_os_str(), v.as_ref(), oracle.as_os_str()],
        &oracle,
    )
}

/// A double as `serde_json` writes it (the tool's output).
fn d(v: &serde_json::Value) -> String {
    serde_json::Value::from(v.as_f64().unwrap()).to_string()
}

#[test]
fn biome_streams_of_segb_v1_and_v2() {
    let tmp = tempfile::tempdir().unwrap();
    let (v1, v2) = (tmp.path().join("ios16"), tmp.path().join("ios17"));
    let oracles = [("ios16", iphone(&v1, 1)), ("ios17", iphone(&v2, 2))];
    // a truncated copy and a foreign file beside iOS 17's records
    let local = v2.join("private/var/mobile/Library/Biome/streams/restricted/App.InFocus/local");
    let whole = std::fs::read(local.join("781234567890123")).unwrap();
    std::fs::write(local.join("781234567890124"), &whole[..whole.len() - 40]).unwrap();
    std::fs::write(local.join("781234567890125"), b"not a SEGB file at all").unwrap();
    // iOS 16's sync.db cut short: noted, its peers unnamed, the streams still read
    let sync = v1.join("private/var/mobile/Library/Biome/sync/sync.db");
    let whole = std::fs::read(&sync).unwrap();
    std::fs::write(&sync, &whole[..100]).unwrap();

    let run = triage(&[
        ("ios16", &v1, "Europe/Lisbon", Some("PT")),
        ("ios17", &v2, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, o) in &oracles {
        let all = run.all_phenomena(source);
        for p in &all {
            assert!(p.warnings.is_empty(), "{}: {:#?}", p.title, p.warnings);
        }
        let find = |title: &str, fact: &str| {
            all.iter()
                .find(|p| p.title.starts_with(title) && has_fact(p, fact))
                .unwrap_or_else(|| panic!("{source}: {title} with {fact}"))
        };
        for r in o["infocus"].as_array().unwrap() {
            let bundle = r["bundle"].as_str().unwrap();
            let title = if r["state"] == 1 {
                "App in focus: "
            } else {
                "App left the foreground: "
            };
            let p = find(&format!("{title}{bundle}"), &d(&r["start"]));
            assert!(has_fact(p, bundle));
        }
        for r in o["bluetooth"].as_array().unwrap() {
            let p = find("Bluetooth device ", r["address"].as_str().unwrap());
            assert!(has_fact(p, r["name"].as_str().unwrap()));
        }
        for r in o["safari"].as_array().unwrap() {
            let p = find("Safari visit: ", r["url"].as_str().unwrap());
            assert!(has_fact(p, r["title"].as_str().unwrap()));
            assert!(has_fact(p, &d(&r["start"])));
        }
        for r in o["backlight"].as_array().unwrap() {
            let on = if r["state"] == 1 {
                "Screen on"
            } else {
                "Screen off"
            };
            find(on, &d(&r["time"]));
        }
        for r in o["plugged"].as_array().unwrap() {
            let p = find("Device plugged in", &d(&r["start"]));
            assert!(has_fact(p, &d(&r["end"])));
        }
        for r in o["notification"].as_array().unwrap() {
            let p = find(
                &format!("Notification of {}", r["bundle"].as_str().unwrap()),
                &d(&r["time"]),
            );
            assert!(has_fact(p, r["title"].as_str().unwrap()));
            assert!(has_fact(p, r["body"].as_str().unwrap()));
        }
        for r in o["nowplaying"].as_array().unwrap() {
            let p = find(
                &format!(
                    "Now playing in {}: {}",
                    r["bundle"].as_str().unwrap(),
                    r["title"].as_str().unwrap()
                ),
                &d(&r["time"]),
            );
            assert!(
                p.interpretation
                    .contains("output to iPhone and Ana's AirPods Pro")
            );
        }
        for r in o["visit"].as_array().unwrap() {
            let title = match r["name"].as_str() {
                Some(n) => format!("Visit at {n}"),
                None => format!("Visit at {}, {}", d(&r["lat"]), d(&r["lon"])),
            };
            let p = find(&title, &d(&r["lat"]));
            assert!(has_fact(p, &d(&r["lon"])));
            assert!(has_fact(p, &d(&r["arrival"])) && has_fact(p, &d(&r["departure"])));
            assert!(p.interpretation.contains("need corroborating"));
        }
        for r in o["install"].as_array().unwrap() {
            let p = find(
                &format!(
                    "App installation event: {} {}",
                    r["bundle"].as_str().unwrap(),
                    r["version"].as_str().unwrap()
                ),
                &d(&r["time"]),
            );
            assert!(has_fact(p, r["bundle"].as_str().unwrap()));
        }
        for r in o["calls"].as_array().unwrap() {
            let handle = r["handle"].as_str().unwrap();
            let p = find(
                &format!(
                    "{} call {} {handle}",
                    if r["direction"] == 2 {
                        "Outgoing"
                    } else {
                        "Incoming"
                    },
                    if r["direction"] == 2 { "to" } else { "with" },
                ),
                &d(&r["date"]),
            );
            assert!(has_fact(p, handle) && has_fact(p, r["bundle"].as_str().unwrap()));
            if let Some(name) = r["name"].as_str() {
                assert!(has_fact(p, name), "{p:#?}");
            }
        }
        for r in o["messages"].as_array().unwrap() {
            let handle = r["handle"].as_str().unwrap();
            let name = r["name"].as_str().unwrap();
            let (dir, to) = if r["direction"] == 2 {
                ("Outgoing", "to")
            } else {
                ("Incoming", "with")
            };
            let p = find(
                &format!("{dir} message {to} {handle} ({name})"),
                &d(&r["date"]),
            );
            assert!(has_fact(p, name));
            match r["remote"].as_str() {
                // the Mac's record, named from sync.db where it could be read
                Some(mac) => assert!(
                    p.title.ends_with(&if *source == "ios17" {
                        format!("(synced from Ana's MacBook Pro ({mac}))")
                    } else {
                        format!("(synced from the device {mac})")
                    }) && p.interpretation.contains("happened on that device"),
                    "{}",
                    p.title
                ),
                None => assert!(!p.title.contains("synced"), "{}", p.title),
            }
        }
        for r in o["intents"].as_array().unwrap() {
            let p = find(
                &format!(
                    "Siri intent {} in {}",
                    r["intent"].as_str().unwrap(),
                    r["bundle"].as_str().unwrap()
                ),
                &d(&r["date"]),
            );
            assert!(has_fact(p, r["parameter"].as_str().unwrap()));
        }
        for r in o["wallet"].as_array().unwrap() {
            let p = find(
                &format!("Wallet transaction with {}", r["card"].as_str().unwrap()),
                r["uuid"].as_str().unwrap(),
            );
            assert!(has_fact(p, r["card"].as_str().unwrap()));
        }
        for r in o["wifi"].as_array().unwrap() {
            let state = if r["connect"] == 1 {
                "connected"
            } else {
                "disconnected"
            };
            find(
                &format!("Wi-Fi {} {state}", r["ssid"].as_str().unwrap()),
                r["ssid"].as_str().unwrap(),
            );
        }
        for r in o["navigations"].as_array().unwrap() {
            let p = find(
                &format!("Safari navigation: {}", r["url"].as_str().unwrap()),
                &d(&r["time"]),
            );
            assert!(has_fact(p, r["host"].as_str().unwrap()));
        }
        for r in o["webusage"].as_array().unwrap() {
            find(
                &format!(
                    "Web usage in {}: {}",
                    r["bundle"].as_str().unwrap(),
                    r["url"].as_str().unwrap()
                ),
                &d(&r["time"]),
            );
        }
        for r in o["sharesheet"].as_array().unwrap() {
            find(
                &format!(
                    "Shared to {} with {}",
                    r["handle"].as_str().unwrap(),
                    r["bundle"].as_str().unwrap()
                ),
                &d(&r["time"]),
            );
        }
        for r in o["carplay"].as_array().unwrap() {
            let p = find("CarPlay connected", &d(&r["start"]));
            assert!(has_fact(p, &d(&r["end"])));
        }
        for r in o["textinput"].as_array().unwrap() {
            let p = find(
                &format!("Text input in {}", r["bundle"].as_str().unwrap()),
                &d(&r["start"]),
            );
            assert!(has_fact(p, &d(&r["duration"])));
        }
        for r in o["simple"].as_array().unwrap() {
            let title = r["title"].as_str().unwrap();
            let p = all.iter().find(|p| p.title == title).unwrap_or_else(|| {
                panic!(
                    "{source}: {title} in {:#?}",
                    all.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            });
            for f in r["facts"].as_array().unwrap() {
                let v = f.as_str().map(str::to_string).unwrap_or_else(|| d(f));
                assert!(has_fact(p, &v), "{title}: {v} in {p:#?}");
            }
        }
        for r in o["remote"].as_array().unwrap() {
            let mac = r["device"].as_str().unwrap();
            let p = find(
                &format!(
                    "App in focus: {} (synced from {})",
                    r["bundle"].as_str().unwrap(),
                    if *source == "ios17" {
                        format!("Ana's MacBook Pro ({mac})")
                    } else {
                        format!("the device {mac}")
                    }
                ),
                &d(&r["start"]),
            );
            assert!(p.interpretation.contains("remote/"), "{p:#?}");
        }
        if *source == "ios16" {
            run.assert_noted(source, &[("Biome/sync/sync.db", "malformed")]);
            continue;
        }
        for r in o["peers"].as_array().unwrap() {
            let name = r["name"].as_str().unwrap();
            let title = if r["me"] == 1 {
                format!("This device, {name} (Biome sync peer)")
            } else {
                format!("Synced device {name} (Biome sync peer)")
            };
            let p = find(&title, r["id"].as_str().unwrap());
            assert!(has_fact(p, r["model"].as_str().unwrap()));
        }
        let ids = run.identifiers(source);
        for id in [
            ("bluetooth_address", "AA:BB:CC:11:22:33"),
            // the other party of calls, messages and a shared conversation
            ("phone", "+351912345678"),
            ("phone", "+351934567890"),
            ("email", "carla.dias@example.org"),
            // the conversation Siri's proactive harvesting kept a message of
            ("phone", "+351911223344"),
            // the account's devices by name
            ("device_name", "ana's macbook pro"),
            ("device_name", "ana's iphone"),
        ] {
            assert!(
                ids.contains(&(id.0.into(), id.1.into())),
                "{id:?} in {ids:?}"
            );
        }
        // a received message's recipient is the device's user: not a counterparty
        assert!(
            !ids.contains(&("email".into(), "ana.moura@example.com".into())),
            "{ids:?}"
        );
    }
    // iOS 17's deleted record: read, said deleted
    let all = run.all_phenomena("ios17");
    assert!(
        all.iter()
            .any(|p| p.title == "App in focus: com.burbn.instagram (a deleted record)"),
        "{:#?}",
        all.iter().map(|p| &p.title).collect::<Vec<_>>()
    );
    let notes = run.unparsed("ios17");
    assert!(
        notes
            .iter()
            .any(|u| u.reason.contains("781234567890125") && u.reason.contains("not a SEGB file")),
        "{notes:#?}"
    );
    assert!(
        notes.iter().any(|u| u.reason.contains("781234567890124")),
        "{notes:#?}"
    );
}
