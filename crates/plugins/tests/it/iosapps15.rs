//! Life360 (`ios::life360ios`), Pinterest (`ios::pinterestios`), Kleinanzeigen
//! (`ios::kleinanzeigenios`, and `ios::kijiji` leaving its caches alone) and Netflix
//! (`ios::netflixios`) for iOS on three iPhones, written by
//! `tests/fixtures/iosapps15/iosapps15.py` (Python's sqlite3, plistlib and json; the NSKeyedArchiver
//! archives built by hand) with the paths, tables, columns, keys and members iLEAPP's life360,
//! pinterest, kleinanzeigen.de and netflix modules read. The generator's record is the oracle:
//! every phenomenon with its title, category, each fact as the tool output prints it (and no other
//! fact but its files' paths and times) and each time as stored; the owner's identifiers (the
//! signed-in Life360 member, the Pinterest and Kleinanzeigen accounts, Netflix's login) and the
//! other users as persons (`life360:`, `pinterest:`, `kleinanzeigen:`); the notes of phone C (a
//! log line whose JSON is cut, cut and foreign stores, archives and caches); other apps' files of
//! the same generic names in containers their metadata gives to other bundles, neither read nor
//! noted; Netflix's profile lock PIN in no output; the preferences' tokens in no phenomenon.
//! Phone A has the current layouts (a second Netflix cache of an older app version repeating the
//! account: recorded once); phone B older or variant layouts (containers found by their
//! preferences or metadata only, an older chat store, log members as strings, one activeUser
//! with NSDate dates, the profile as JSON text, a conversation without messages, the older
//! bookmark key); phone C the damaged copies and a Kijiji cache that Kijiji's reader alone reads.

use crate::android_support::{generate, has_fact, has_path, time_values, triage};

/// The titles of the four readers' phenomena begin so.
const OURS: [&str; 4] = ["Life360 ", "Pinterest ", "Kleinanzeigen ", "Netflix "];

/// Words of the artefacts the four readers note (their files' names and folders).
const OUR_FILES: [&str; 10] = [
    "Messaging.sqlite",
    "com.life360.safetymap",
    "activeUser",
    "PINRemoteModelCache",
    "pinterest.plist",
    "ebaykleinanzeigen",
    "conversation_cache",
    ".last_search_query",
    "gqlData",
    "com.netflix.Netflix",
];

/// The strings of a JSON array (none when absent).
fn strs(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn iosapps15_life360_pinterest_kleinanzeigen_netflix_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps15/iosapps15.py",
        &[tmp.path().as_os_str(), oracle_file.as_os_str()],
        &oracle_file,
    );
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|s| tmp.path().join(s)).collect();
    let run = triage(&[
        ("a", &dirs[0], "Europe/Zurich", Some("CH")),
        ("b", &dirs[1], "Europe/Oslo", Some("NO")),
        ("c", &dirs[2], "Europe/Berlin", Some("DE")),
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

        // identities: the owner's, and each other user a person of their own
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

        // the notes: each expected one, and no other note of the four apps' files
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
        // Kijiji's reader leaves Kleinanzeigen's caches alone and still reads its own
        assert_eq!(
            all.iter()
                .filter(|p| p.title.starts_with("Kijiji "))
                .count() as u64,
            want["kijiji"].as_u64().unwrap(),
            "{source}"
        );

        // never the profile lock PIN in any output; the preferences' tokens in no phenomenon
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
