//! Withings Health Mate (`ios::withingsios`), AllTrails (`ios::alltrailsios`) and Amazon Shopping
//! (`ios::amazonios`) for iOS on three iPhones, written by `tests/fixtures/iosapps24/iosapps24.py`
//! (Python's sqlite3, plistlib and json) with the paths, tables, columns, keys and members
//! iLEAPP's WithingsHealthMate, allTrails and amazonShopping modules read. The generator's record
//! is the oracle: every phenomenon with its title, category, each fact as the tool output prints it
//! (and no other fact but its files' paths and the times) and each time as stored; the owner's
//! identifiers (the Withings user with the only e-mail, the AllTrails account of the app's profile
//! or the store's only user, the Amazon customer and the only Amazon profile), the other users as
//! persons (`withings:`, `alltrails:`, `amazon:`), the Withings devices by Bluetooth address; the
//! notes of phone C (cut and foreign stores, files and responses); other apps' files of the same
//! generic names in containers their metadata gives to other bundles, neither read nor noted; the
//! Withings account file's tokens in no output; the Amazon preferences' session id and push token
//! in no phenomenon. Phone A has the current layouts; phone B older or variant ones (containers
//! found by their preferences only, fewer columns and tables, Amazon's `persist:root` in its MD5
//! file with two profiles, an orders response in `fsCachedData/`); phone C the damaged copies
//! beside good stores.

use crate::android_support::{generate, has_fact, has_path, time_values, triage};

/// The titles of the three readers' phenomena begin so.
const OURS: [&str; 3] = ["Withings ", "AllTrails ", "Amazon "];

/// Words of the artefacts the three readers note (their files' names and folders).
const OUR_FILES: [&str; 11] = [
    "Application Support/account",
    "_Tracks",
    "_HM3Timeline",
    "_vasistas",
    "associated_device.sqlite",
    "AllTrails.sqlite",
    "com.amazon.Amazon",
    "RCTAsyncLocalStorage_V1",
    "amzn1.account.",
    "ssnapImageCacheRegistry.db",
    "fsCachedData",
];

/// The strings of a JSON array (none when absent).
fn strs(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn iosapps24_withings_alltrails_amazon_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps24/iosapps24.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|s| tmp.path().join(s)).collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/Zurich", Some("CH")),
        ("b", &dirs[1], "Europe/Oslo", Some("NO")),
        ("c", &dirs[2], "Europe/Rome", Some("IT")),
    ]);
    assert_eq!(run.rejections(), Vec::<String>::new());
    for source in ["a", "b", "c"] {
        let want = &o[source];
        let all = run.all_phenomena(source);
        let ours: Vec<_> = all
            .iter()
            .filter(|p| OURS.iter().any(|x| p.title.starts_with(x)))
            .collect();
        let rows = want["phenomena"].as_array().unwrap();
        assert_eq!(
            ours.len(),
            rows.len(),
            "{source}: {:#?}",
            ours.iter().map(|p| &p.title).collect::<Vec<_>>()
        );
        for r in rows {
            let title = r["title"].as_str().unwrap();
            let key = r["key"].as_str();
            let p = ours
                .iter()
                .find(|p| p.title == title && key.is_none_or(|k| has_fact(p, k)))
                .unwrap_or_else(|| {
                    panic!(
                        "{source}: {title} ({key:?}): {:#?}",
                        ours.iter().map(|p| &p.title).collect::<Vec<_>>()
                    )
                });
            assert_eq!(p.category, r["category"].as_str().unwrap(), "{title}");
            assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
            let facts = strs(&r["facts"]);
            for f in &facts {
                assert!(has_fact(p, f), "{source}: {title}: {f}: {p:#?}");
            }
            let paths = strs(&r["paths"]);
            for path in &paths {
                assert!(has_path(p, path), "{source}: {title}: {path}: {p:#?}");
            }
            let mut times: Vec<String> = strs(&r["times"]).iter().map(|t| t.to_string()).collect();
            times.sort();
            assert_eq!(time_values(p), times, "{source}: {title}: {p:#?}");
            // no fact but the oracle's, the files' paths and the times
            for f in &p.verified_facts {
                assert!(
                    facts.contains(&f.value.as_str())
                        || times.contains(&f.value)
                        || paths.iter().any(|x| f.value.ends_with(x)),
                    "{source}: {title}: {} is not in the oracle: {p:#?}",
                    f.value
                );
            }
            for s in strs(&r["absent"]) {
                assert!(!has_fact(p, s), "{source}: {title}: {s}");
            }
        }

        // identities: the owner's, each other user a person of their own, the devices
        let owner = run.owner(source);
        for id in want["owner"].as_array().unwrap() {
            let (t, v) = (id[0].as_str().unwrap(), id[1].as_str().unwrap());
            assert!(
                owner.contains(&format!("{t}={v}")),
                "{source}: the owner lacks {t}={v}: {owner}"
            );
        }
        let entities = run.entities(source);
        for id in want["persons"].as_array().unwrap() {
            let (context, t, v) = (
                id[0].as_str().unwrap(),
                id[1].as_str().unwrap(),
                id[2].as_str().unwrap(),
            );
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("{context} [Person]"))
                        && e.contains(&format!("{t}={v}"))),
                "{source}: {context} {t}={v}: {entities:#?}"
            );
            assert!(
                !owner.contains(&format!("{t}={v}")),
                "{source}: {t}={v} is another user's, not the owner's: {owner}"
            );
        }
        for id in want["devices"].as_array().unwrap() {
            let (context, t, v) = (
                id[0].as_str().unwrap(),
                id[1].as_str().unwrap(),
                id[2].as_str().unwrap(),
            );
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("{context} [Device]"))
                        && e.contains(&format!("{t}={v}"))),
                "{source}: {context} {t}={v}: {entities:#?}"
            );
        }

        // the notes: each expected one, and no other note of the three apps' files
        let expected: Vec<(&str, &str)> = want["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
            .collect();
        run.assert_noted(source, &expected);
        let notes = run.unparsed(source);
        for n in notes
            .iter()
            .filter(|n| OUR_FILES.iter().any(|w| n.artefact.contains(w)))
        {
            assert!(
                expected
                    .iter()
                    .any(|(suffix, word)| n.artefact.ends_with(suffix) && n.reason.contains(word)),
                "{source}: unexpected note {n:#?}"
            );
        }
        // other apps' files of the same names: neither read nor noted
        for u in strs(&want["unread"]) {
            assert!(
                !all.iter()
                    .any(|p| p.verified_facts.iter().any(|f| f.value.ends_with(u))),
                "{source}: {u} was read"
            );
            assert!(
                !notes.iter().any(|n| n.artefact.ends_with(u)),
                "{source}: {u} was noted"
            );
        }

        // the account file's tokens in no output; the preferences' session id and push token in
        // no phenomenon (parse_plist reads the file whole)
        for (tool, args, text) in run.outputs(source) {
            if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                continue;
            }
            for x in strs(&want["secrets"]) {
                assert!(!text.contains(x), "{source}: {x} in {tool} {args}");
            }
        }
        for x in strs(&want["secrets"])
            .into_iter()
            .chain(strs(&want["plist_secrets"]))
        {
            for p in &all {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(x)),
                    "{source}: {x}: {p:#?}"
                );
            }
        }
    }
}
