//! Biome's sets (`ios::biomesets`): two iPhones' `Library/Biome/sets/Default/<set>/Database/Set.db`
//! written by `tests/fixtures/biome/sets.py` (sqlite3; each record's content a Protocol Buffers
//! message by Google's runtime with iLEAPP's field numbers), one in the layout to iOS 18
//! (`provenance` ⋈ `instance`), one in iOS 26's (`metacontent_provenance`). The generator's
//! record is the oracle: every record of the six sets with its fields and time, the Find My
//! device observed by name; a `Set.db` without its `content` table is noted and the rest read.

use crate::android_support::{generate, has_fact, triage};

#[test]
fn biome_sets_of_ios_18_and_ios_26() {
    let tmp = tempfile::tempdir().unwrap();
    let mut oracles = Vec::new();
    for (name, layout) in [("ios18", "18"), ("ios26", "26")] {
        let root = tmp.path().join(name);
        let oracle = tmp.path().join(format!("{name}.json"));
        let o = generate(
            "protobuf",
            "tests/fixtures/biome/sets.py",
            &[root.as_os_str(), layout.as_ref(), oracle.as_os_str()],
            &oracle,
        );
        oracles.push((name, root, o));
    }
    // a Set.db of another layout: noted, the other sets still read
    let foreign = oracles[0]
        .1
        .join("private/var/mobile/Library/Biome/sets/Default/Contacts.Contact/Database/Set.db");
    let st = std::process::Command::new("sqlite3")
        .arg(&foreign)
        .arg("ALTER TABLE content RENAME TO other;")
        .status()
        .unwrap();
    assert!(st.success());
    let run = triage(&[
        ("ios18", &oracles[0].1, "Europe/Lisbon", Some("PT")),
        ("ios26", &oracles[1].1, "Europe/Lisbon", Some("PT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for (source, _, o) in &oracles {
        let all = run.all_phenomena(source);
        for r in o["sets"].as_array().unwrap() {
            let title = r["title"].as_str().unwrap();
            if *source == "ios18" && title.starts_with("Contact (Biome set)") {
                assert!(!all.iter().any(|p| p.title == title));
                continue;
            }
            let p = all.iter().find(|p| p.title == title).unwrap_or_else(|| {
                panic!(
                    "{source}: {title} in {:#?}",
                    all.iter().map(|p| &p.title).collect::<Vec<_>>()
                )
            });
            for f in r["facts"].as_array().unwrap() {
                let v = f.as_str().unwrap();
                assert!(has_fact(p, v), "{source} {title}: {v} in {p:#?}");
            }
            assert_eq!(p.times.len(), 1, "{source} {title}");
        }
        let installed = all
            .iter()
            .find(|p| p.title == "Installed app (Biome set): Trust Wallet")
            .unwrap();
        assert!(
            installed
                .interpretation
                .contains("field 5 \"x-extra\" (as stored)"),
            "{}",
            installed.interpretation
        );
        let ids = run.identifiers(source);
        let device = o["findmy_device"].as_str().unwrap();
        assert!(
            ids.contains(&("device_name".into(), device.into())),
            "{device} in {ids:?}"
        );
    }
    run.assert_noted(
        "ios18",
        &[("Contacts.Contact/Database/Set.db", "no content table")],
    );
}
