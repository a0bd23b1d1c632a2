//! Biome (`ios::biome`, `read_segb`): an iPhone of iOS 16 (SEGB v1) and one of iOS 17 (SEGB v2).
//! No public Biome stream is in the corpus, so `tests/fixtures/biome/biome.py` writes them: each
//! record's payload by Google's protobuf runtime with the field numbers iLEAPP's Biome modules
//! read, the SEGB framing after CCL Solutions' published layout (iLEAPP's own modules and
//! `ccl_segb`, run on the same files during development, read every record alike). The
//! generator's record of what it wrote is the oracle: every app-in-focus, Bluetooth, Safari,
//! backlight, plugged-in, notification, now-playing, location-visit and app-installation record is found with its fields and times; v2's deleted record is
//! read and said deleted; a truncated file and a foreign one are noted and the rest is read.

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
        let ids = run.identifiers(source);
        assert!(
            ids.contains(&("bluetooth_address".into(), "AA:BB:CC:11:22:33".into())),
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
