//! Group calls (`ios::groupcalls`: the remote participants of `CallHistory.storedata`'s calls
//! and `interactionC.db`'s call interactions with several), WhatsApp's reactions, channel
//! tallies, group events and membership changes (`ios::whatsappextended`), OrNET Browser's
//! preferences (`ios::ornetios`) and saved web pages (`ios::offlinepagesios`) on three iPhones,
//! written by `tests/fixtures/iosapps27/iosapps27.py` (Python's sqlite3 and plistlib; WhatsApp's
//! ZRECEIPTINFO by Google's protobuf runtime at the field numbers iLEAPP's whatsAppExtended
//! decodes). The generator's record is the oracle: every phenomenon with its title, category,
//! every fact as the output writes it and its time values, and nothing more of these readers;
//! the direct calls, the call without participants, the direct call interaction, the group
//! message and the receipt record without reactions not recorded; the participants, reactors
//! and members as persons (phones, e-mails, `whatsapp_lid`), never the account's own JID; the
//! notes of iPhone B (a store without `ZGROUPEVENTTYPE`) and of iPhone C (cut and foreign copies
//! of each database, a cut and an array-rooted OrNET plist, an HTML page named `.mhtml`), the
//! good page beside them read, a plist of OrNET's name outside `Library/Preferences` neither
//! read nor noted; and no WhatsApp media key in any output of the run.

use crate::android_support::{generate, has_fact, time_values, titled, triage};

/// The texts of a JSON array.
fn strs(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default()
}

/// The title prefixes of the phenomena these readers record.
const READ: [&str; 7] = [
    "Group call ",
    "WhatsApp reaction ",
    "WhatsApp channel reactions ",
    "WhatsApp group event ",
    "WhatsApp group membership change ",
    "OrNET Browser ",
    "Saved web page ",
];

/// Words of the notes these readers write (other readers of the same files note them too).
const OURS: [&str; 6] = [
    "group calls",
    "WhatsApp's reactions",
    "WhatsApp's group",
    "OrNET Browser",
    "MHTML",
    "ZRECEIPTINFO",
];

#[test]
fn iosapps27_group_calls_whatsapp_extended_ornet_and_saved_pages_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "protobuf",
        "tests/fixtures/iosapps27/iosapps27.py",
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
        let read: Vec<_> = all
            .iter()
            .filter(|p| READ.iter().any(|r| p.title.starts_with(r)))
            .collect();
        let expected = want["phenomena"].as_array().unwrap();
        assert_eq!(
            read.len(),
            expected.len(),
            "{source}: {:#?}",
            read.iter().map(|p| &p.title).collect::<Vec<_>>()
        );
        // every phenomenon with every fact, its category and its times
        for e in expected {
            let title = e["title"].as_str().unwrap();
            let p = titled(&all, title);
            assert_eq!(p.category, e["category"].as_str().unwrap(), "{title}");
            assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
            for f in strs(&e["facts"]) {
                assert!(has_fact(p, f), "{source} {title}: {f}: {p:#?}");
            }
            let mut times: Vec<String> = strs(&e["times"]).iter().map(|t| t.to_string()).collect();
            times.sort();
            assert_eq!(time_values(p), times, "{source} {title}: {p:#?}");
        }
        // what is no group call, no reaction: not recorded
        for a in want["absent"].as_array().unwrap() {
            let (mode, text) = (a[0].as_str().unwrap(), a[1].as_str().unwrap());
            assert!(
                !read.iter().any(|p| if mode == "prefix" {
                    p.title.starts_with(text)
                } else {
                    p.title.ends_with(text)
                }),
                "{source}: {mode} {text}: {:#?}",
                read.iter().map(|p| &p.title).collect::<Vec<_>>()
            );
        }
        // participants, reactors and members as persons; never the account's own JID
        let ids = run.identifiers(source);
        for person in want["persons"].as_array().unwrap() {
            let (ty, v) = (person[0].as_str().unwrap(), person[1].as_str().unwrap());
            assert!(
                ids.iter().any(|(t, n)| t == ty && n == v),
                "{source}: {ty} {v}: {ids:?}"
            );
        }
        let entities = run.entities(source);
        for c in strs(&want["not_contexts"]) {
            assert!(
                !entities.iter().any(|e| e.starts_with(&format!("{c} ["))),
                "{source}: {c}: {entities:#?}"
            );
        }
        // the notes: those expected, and none of these readers' elsewhere
        let noted: Vec<(&str, &str)> = want["noted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
            .collect();
        run.assert_noted(source, &noted);
        let notes = run.unparsed(source);
        for n in &notes {
            if OURS.iter().any(|w| n.reason.contains(w)) {
                assert!(
                    noted.iter().any(|(suffix, _)| n.artefact.ends_with(suffix)),
                    "{source}: unexpected note {n:#?}"
                );
            }
        }
        for suffix in strs(&want["unnoted"]) {
            assert!(
                !notes.iter().any(|n| n.artefact.ends_with(suffix)),
                "{source}: {suffix}: {notes:#?}"
            );
        }
        // never a media key, in a phenomenon or in any output of a reading tool
        for secret in strs(&want["secrets"]) {
            for (tool, args, text) in run.outputs(source) {
                if matches!(tool.as_str(), "read_text" | "hexdump" | "strings") {
                    continue;
                }
                assert!(!text.contains(secret), "{secret} in {tool} {args}");
            }
            for p in &all {
                assert!(
                    !p.verified_facts.iter().any(|f| f.value.contains(secret)),
                    "{secret}: {p:#?}"
                );
            }
        }
    }
    // iPhone C: the good page beside the damaged and foreign copies is read
    let c = run.all_phenomena("c");
    titled(
        &c,
        "Saved web page https://trains.example.fr/horaires/lyon-paris",
    );
    // the reaction of the device's user (iPhone B) is said, not a person
    let b = run.all_phenomena("b");
    let own = titled(
        &b,
        "WhatsApp reaction \u{1F6A2} by 4741112222@s.whatsapp.net to message 1",
    );
    assert!(
        own.interpretation.contains("the device's user reacted"),
        "{}",
        own.interpretation
    );
    // a reaction without a reactor says so
    let a = run.all_phenomena("a");
    let anonymous = titled(&a, "WhatsApp reaction \u{1F602} to message 2");
    assert!(
        anonymous.interpretation.contains("names no reactor"),
        "{}",
        anonymous.interpretation
    );
}
