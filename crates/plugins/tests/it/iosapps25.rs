//! The Photos app's, the Camera's and the media analysis daemon's preferences, the Camera's Smart
//! Sharing metadata, the Photos library's iCloud service enable logs and a UFED extraction's
//! device values (`ios::photosplists`) on three iPhones, written by
//! `tests/fixtures/iosapps25/iosapps25.py` (Python's plistlib, binary and XML, NSKeyedArchiver
//! archives built by hand; the files and members iLEAPP's Ph080comappleMobileSlideShowPlist,
//! Ph081comappleCameraPlist, Ph082comappleMediaAnalysisDPlist,
//! Ph084CameraSmartSharingMetadataPlist, Ph085acntsdcloudServiceEnableLogplist,
//! Ph086astsdcloudServiceEnableLogplist and Ph087UFEDdevcievaluesplist read). The generator's
//! record is the oracle: every property of each preference plist and of the device values (its
//! scalars below it, archived data opened, dates and `CLLocation` fix times as time marks, a
//! property holding a position a `locations` phenomenon), the Smart Sharing metadata and each of
//! its home and frequent locations, every enable-log event with its service, switch, reason and
//! time — each a phenomenon holding exactly those facts and times. iPhone A has iOS 18's files
//! (binary, every kind of value; the device values' IMEI, serial, UDID, name, ICCID, IMSI and
//! Bluetooth address the device's, its phone number the owner's); iPhone B older ones (XML, a
//! position without a fix time, a frequent location without coordinates, log events without a
//! reason or a switch, no phone number); iPhone C good files beside a cut and a foreign copy of
//! each kind (noted), a log entry that is no dictionary (noted), and other apps' files named
//! `cloudServiceEnableLog.plist` and `device_values.plist` (neither read nor noted). Long data
//! values (a public key, an opaque view state) are said, never copied into a phenomenon.

use crate::android_support::{generate, has_fact, triage};

/// The value of the time marked `what` of `p`, if any.
fn time_of<'a>(p: &'a masf_graph::Phenomenon, what: &str) -> Option<&'a str> {
    p.times
        .iter()
        .find(|m| m.description == what)
        .map(|m| p.verified_facts[m.fact].value.as_str())
}

/// The texts of a JSON array of strings.
fn strings(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

/// Whether a phenomenon is this reader's.
fn ours(title: &str) -> bool {
    [
        "Photos app setting ",
        "Camera setting ",
        "Media analysis setting ",
        "Camera Smart Sharing ",
        "Photos cloud service event ",
        "UFED device value ",
    ]
    .iter()
    .any(|p| title.starts_with(p))
}

/// The files this reader reads.
const FILES: [&str; 6] = [
    "/com.apple.mobileslideshow.plist",
    "/com.apple.camera.plist",
    "/com.apple.mediaanalysisd.plist",
    "/camera_smart_sharing_metadata.plist",
    "/cloudServiceEnableLog.plist",
    "/device_values.plist",
];

#[test]
fn iosapps25_photos_camera_plists_icloud_enable_logs_and_ufed_device_values() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps25/iosapps25.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|s| tmp.path().join(s)).collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/Zurich", Some("CH")),
        ("b", &dirs[1], "Europe/Oslo", Some("NO")),
        ("c", &dirs[2], "Europe/Paris", Some("FR")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c"] {
        let all = run.all_phenomena(source);
        let read: Vec<_> = all.iter().filter(|p| ours(&p.title)).collect();
        let want = o[source]["phenomena"].as_array().unwrap();
        assert_eq!(
            read.len(),
            want.len(),
            "{source}: {:#?}",
            read.iter().map(|p| &p.title).collect::<Vec<_>>()
        );
        for w in want {
            let title = w["title"].as_str().unwrap();
            let p = read.iter().find(|p| p.title == title).unwrap_or_else(|| {
                panic!(
                    "{source} {title}: {:#?}",
                    read.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            });
            assert_eq!(p.category, w["category"].as_str().unwrap(), "{title}");
            assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
            let rel = w["path"].as_str().unwrap();
            assert!(
                p.verified_facts
                    .iter()
                    .any(|f| f.fact_type == masf_graph::FactType::Path && f.value.ends_with(rel)),
                "{rel}: {p:#?}"
            );
            let facts = strings(&w["facts"]);
            for v in &facts {
                assert!(has_fact(p, v), "{source} {title}: {v}: {p:#?}");
            }
            let times = w["times"].as_object().unwrap();
            for (what, v) in times {
                assert_eq!(
                    time_of(p, what),
                    v.as_str(),
                    "{source} {title}: {what}: {p:#?}"
                );
                let m = p.times.iter().find(|m| m.description == *what).unwrap();
                // a CLLocation's fix time is Cocoa seconds, every other a plist date
                let want_enc = if v.as_str().unwrap().parse::<f64>().is_ok() {
                    masf_graph::TimeEncoding::AppleSeconds
                } else {
                    masf_graph::TimeEncoding::Iso8601
                };
                assert_eq!(m.encoding, want_enc, "{title}: {what}");
            }
            assert_eq!(p.times.len(), times.len(), "{source} {title}: {p:#?}");
            // the path, the values and the times: nothing more
            assert_eq!(
                p.verified_facts.len(),
                1 + facts.len() + times.len(),
                "{source} {title}: {p:#?}"
            );
            for s in strings(&w["says"]) {
                assert!(
                    p.interpretation.contains(s),
                    "{title}: {s}: {}",
                    p.interpretation
                );
            }
        }
        // the UFED identifiers are typed as what they are
        for p in &read {
            let typed = |key: &str, t: masf_graph::FactType| {
                if p.title == format!("UFED device value {key}") {
                    assert!(p.verified_facts.iter().any(|f| f.fact_type == t), "{p:#?}");
                }
            };
            typed(
                "InternationalMobileEquipmentIdentity",
                masf_graph::FactType::Imei,
            );
            typed("SerialNumber", masf_graph::FactType::Serial);
            typed("PhoneNumber", masf_graph::FactType::Phone);
        }

        // the device's own identifiers are the examined device's, its number the owner's
        let entities = run.entities(source);
        for id in strings(&o[source]["device"]) {
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with("device [") && e.contains(id)),
                "{source}: {id}: {entities:#?}"
            );
        }
        let owner = run.owner(source);
        for id in strings(&o[source]["owner"]) {
            assert!(owner.contains(id), "{source}: {id}: {owner}");
        }
        // the Smart Sharing identities and the enable logs name no one
        let ids = run.identifiers(source);
        assert!(
            !ids.iter()
                .any(|(_, v)| v.contains("6C3B9F0A") || v.contains("A0B1C2D3")),
            "{ids:?}"
        );

        // the notes: exactly those expected of these files
        let notes: Vec<_> = run
            .unparsed(source)
            .into_iter()
            .filter(|u| FILES.iter().any(|f| u.artefact.ends_with(f)))
            .collect();
        let expected = o[source]["noted"].as_array().unwrap();
        assert_eq!(notes.len(), expected.len(), "{source}: {notes:#?}");
        for n in expected {
            let (rel, word) = (n[0].as_str().unwrap(), n[1].as_str().unwrap());
            assert!(
                notes
                    .iter()
                    .any(|u| u.artefact.trim_start_matches('/') == rel && u.reason.contains(word)),
                "{source}: {rel} noted with {word:?}: {notes:#?}"
            );
        }

        // other apps' files of the same names: neither read nor noted
        for rel in strings(&o[source]["not_read"]) {
            assert!(
                !all.iter()
                    .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with(rel))),
                "{rel}"
            );
            assert!(
                !run.unparsed(source)
                    .iter()
                    .any(|u| u.artefact.ends_with(rel)),
                "{rel}"
            );
        }
        assert!(
            !all.iter().any(|p| p.title.contains("DECOY00000")
                || p.verified_facts.iter().any(|f| f.value == "DECOY00000")),
            "{source}"
        );

        // long data values are said, never copied
        for blob in strings(&o[source]["not_copied"]) {
            for q in &all {
                assert!(
                    !q.verified_facts.iter().any(|f| f.value.contains(blob)),
                    "{q:#?}"
                );
                assert!(!q.interpretation.contains(blob), "{}", q.title);
            }
        }
    }
}
