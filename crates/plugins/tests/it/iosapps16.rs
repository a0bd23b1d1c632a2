//! Tile's discovered trackers (`ios::tilediscovered`), Dahua DMSS (`ios::dmssios`), Hik-Connect
//! (`ios::hikvisionios`) and Google Duo / Meet (`ios::googleduoios`) on three iPhones, written by
//! `tests/fixtures/iosapps16/iosapps16.py` (Python's sqlite3 and plistlib; the files, tables and
//! columns iLEAPP's tileAppDisc, dmss, hikvision and googleDuo read). The generator's record is
//! the oracle: every discovered Tile with its UUID and last-modified time (Cocoa seconds; none
//! on iPhone B's older table); every DMSS device with its address, port, login user name, a
//! stored password said, its DDNS configuration, every channel with its device; the alarm hub's
//! sensors, the account's cloud devices (each by serial number as a `dmss-device:` device) and
//! the alarm messages with what they mean and their local time (a Unix number on B); every
//! Hik-Connect device (`hikvision-device:` by serial), channel and usage-log record; every Duo
//! contact (a `duo:` person), call (the local user the owner, the other party a `duo:` person)
//! and clip with their times. The DMSS and Duo containers are named by their metadata plist
//! (A), a cloud store or the backup's folder name (B), the app's preferences (C). Tree C: cut
//! and foreign copies of each store (noted) beside good ones (read), and other apps' files of
//! the generic names, or the names out of place, neither read nor noted. No password, DDNS
//! password or the app PIN of DMSS's `configFile1` (never opened) is in any output of the run.

use crate::android_support::{generate, has_fact, has_path, time_values, titled, triage};

/// The texts of an oracle array.
fn strs(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

/// Whether an artefact is one of these readers' stores.
fn ours(artefact: &str) -> bool {
    [
        "/com.thetileapp.tile-DiscoveredTileDB.sqlite",
        "/Devices.sqlite3",
        "/DMSSCloud.sqlite",
        "/database.hik",
        "/YSDCLogItem.sqlite",
        "/DataStore",
        "/configFile1",
    ]
    .iter()
    .any(|s| artefact.ends_with(s))
}

#[test]
fn iosapps16_tile_dmss_hikvision_and_duo_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps16/iosapps16.py",
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
        let want = &o[source];
        let all = run.all_phenomena(source);
        let titles: Vec<&str> = all.iter().map(|p| p.title.as_str()).collect();

        // as many phenomena of each kind as the oracle has rows, none more
        for (prefix, n) in want["counts"].as_object().unwrap() {
            let found = all
                .iter()
                .filter(|p| p.title.starts_with(prefix.as_str()))
                .count();
            assert_eq!(
                found as u64,
                n.as_u64().unwrap(),
                "{source} {prefix}: {titles:#?}"
            );
        }

        // every row: its title, category, every field as a fact, its times, the owner's proof
        for e in want["phen"].as_array().unwrap() {
            let title = e["title"].as_str().unwrap();
            let p = titled(&all, title);
            assert_eq!(p.category, e["category"].as_str().unwrap(), "{title}");
            assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
            for f in strs(&e["facts"]) {
                assert!(has_fact(p, f), "{source} {title}: {f}: {p:#?}");
            }
            let times: Vec<String> = strs(&e["times"]).iter().map(|s| s.to_string()).collect();
            assert_eq!(time_values(p), times, "{source} {title}: {p:#?}");
            for s in strs(&e["paths"]) {
                assert!(has_path(p, s), "{source} {title}: {s}: {p:#?}");
            }
        }

        // the local user of Duo's calls and clips is the owner; contacts, other parties and
        // devices are entities of their own
        let owner = run.owner(source);
        for id in strs(&want["owner"]) {
            assert!(owner.contains(id), "{source}: {id} in {owner}");
        }
        let entities = run.entities(source);
        for kind in ["devices", "persons"] {
            for pair in want[kind].as_array().unwrap() {
                let (context, value) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
                let value = value.trim_start_matches('+').to_lowercase();
                assert!(
                    entities
                        .iter()
                        .any(|e| e.starts_with(&format!("{context} ["))
                            && e.to_lowercase().contains(&value)),
                    "{source}: {context} with {value}: {entities:#?}"
                );
                assert!(!owner.to_lowercase().contains(&value), "{value} in {owner}");
            }
        }

        // the notes: each damaged store, and none for another app's file or one out of place
        let noted: Vec<(&str, &str)> = want["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
            .collect();
        run.assert_noted(source, &noted);
        for u in run.unparsed(source) {
            if ours(&u.artefact) {
                assert!(
                    noted.iter().any(|(p, _)| u.artefact.ends_with(p)),
                    "{source}: unexpected note {u:#?}"
                );
            }
        }
        for q in strs(&want["quiet"]) {
            assert!(
                !run.unparsed(source).iter().any(|u| u.artefact.ends_with(q)),
                "{source}: {q} noted"
            );
        }
        for t in strs(&want["absent_titles"]) {
            assert!(!titles.contains(&t), "{source}: {t} read");
        }

        // never a password, a DDNS password or the app's PIN, in a phenomenon or any output;
        // the PIN file is never opened
        let secrets = strs(&want["secrets"]);
        for (tool, args, text) in run.outputs(source) {
            assert!(!args.contains("configFile1"), "{tool} {args}");
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            for x in &secrets {
                assert!(!text.contains(x), "{x} in {tool} {args}");
            }
        }
        for p in &all {
            for x in &secrets {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{x}: {p:#?}"
                );
            }
        }
    }
    // the stores of phones A and B hold secrets the test looks for
    assert!(strs(&o["a"]["secrets"]).len() >= 6);
    assert!(!strs(&o["b"]["secrets"]).is_empty());
}
