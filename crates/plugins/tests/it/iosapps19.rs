//! The people, faces and albums of the Photos library (`ios::photospeople`,
//! `ios::photosalbums`) on three iPhones, written by `tests/fixtures/iosapps19/iosapps19.py`
//! (Python's sqlite3 and plistlib: the tables and columns iLEAPP's Ph015, Ph016, Ph020, Ph021
//! and Ph022 read, a contact-matching dictionary archived as NSKeyedArchiver does). The
//! generator's record is the oracle: every person with its names, UUID, contact link, the
//! dictionary's members, its decoded verified, favourite, age and gender, the faces linked to it;
//! every face with its asset (file, `Z_PK`, UUID), person, face or torso, every estimate decoded
//! as the reader's query words it and the values as stored; every album with its kind, title,
//! counts, flags, sort, folder and the assets the join table lists for it, its times; every row
//! of the album-asset join table with the album and the asset. iPhone A has the iOS 18 layout
//! (`ZASSETFORFACE`/`ZPERSONFORFACE`, a torso-only detection, `Z_30ASSETS`, decoy join tables),
//! iPhone B the iOS 13 one (`ZGENERICASSET`, `ZASSET`/`ZPERSON` faces without the iOS 15
//! estimates, `Z_26ASSETS` with `Z_34ASSETS`, no album creation date), iPhone C the iOS 16 one
//! (`Z_28ASSETS`) beside a cut copy (noted by each reader's call), a foreign library (noted once,
//! by the Photos reader: people and albums pass it over) and an app's own `Photos.sqlite` (neither read nor noted). The person with an
//! identifier in clear is observed as `photos-person:<UUID>` with it; names alone are no
//! identity and none is the device's user; the face prints and face crops are never read.

use std::collections::BTreeMap;

use crate::android_support::{generate, has_fact, has_path, time_values, titled, triage};

fn strs(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn iosapps19_photos_people_faces_and_albums_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps19/iosapps19.py",
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
    let store = masf_store::Store::open(run._dir.path()).unwrap();
    let args_of: BTreeMap<String, String> = store
        .all_invocations()
        .unwrap()
        .into_iter()
        .map(|i| (i.invocation_id, i.args))
        .collect();

    for source in ["a", "b", "c"] {
        let want = &o[source];
        let all = run.all_phenomena(source);
        let lib = want["library"].as_str().unwrap();
        let join = want["join"].as_str().unwrap();

        // every oracle row is a phenomenon holding every field as a fact
        for (kind, category) in [
            ("persons", "contacts"),
            ("faces", "media"),
            ("albums", "media"),
            ("members", "media"),
        ] {
            for r in want[kind].as_array().unwrap() {
                let title = r["title"].as_str().unwrap();
                let p = titled(&all, title);
                assert_eq!(p.category, category, "{title}");
                assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
                assert!(has_path(p, lib), "{title}: {p:#?}");
                for v in strs(&r["facts"]) {
                    assert!(has_fact(p, &v), "{source} {title}: {v}: {p:#?}");
                }
                match kind {
                    "albums" => {
                        // the album's times, Core Data seconds as stored
                        let mut t = strs(&r["times"]);
                        t.sort();
                        assert_eq!(time_values(p), t, "{title}");
                        assert!(
                            p.times
                                .iter()
                                .all(|m| m.encoding == masf_graph::TimeEncoding::AppleSeconds),
                            "{p:#?}"
                        );
                        assert!(p.interpretation.contains(&format!("{join} lists")));
                    }
                    "members" => {
                        assert!(p.times.is_empty(), "{p:#?}");
                        // the join table found by its columns, whatever its number
                        assert!(
                            p.interpretation
                                .contains(&format!("A row of {join} (the album-asset join table")),
                            "{}",
                            p.interpretation
                        );
                    }
                    "persons" => {
                        assert!(p.times.is_empty(), "{p:#?}");
                        assert!(p.interpretation.contains("not a verified identity"));
                    }
                    _ => {
                        assert!(p.times.is_empty(), "{p:#?}");
                        assert!(p.interpretation.contains("automatic guesses"));
                        assert!(
                            p.interpretation
                                .contains("face print and face crop are not read")
                        );
                    }
                }
            }
        }
        // and nothing more: as many phenomena as rows of each kind
        let count = |f: &dyn Fn(&str) -> bool| all.iter().filter(|p| f(&p.title)).count();
        let n = |k: &str| want[k].as_array().unwrap().len();
        assert_eq!(
            count(&|t: &str| t.starts_with("Photos person ")),
            n("persons"),
            "{source}"
        );
        assert_eq!(
            count(&|t: &str| t.starts_with("Photos face ")),
            n("faces"),
            "{source}"
        );
        assert_eq!(
            count(&|t: &str| t.starts_with("Photos album ") && !t.contains(" holds ")),
            n("albums"),
            "{source}"
        );
        assert_eq!(
            count(&|t: &str| t.starts_with("Photos album ") && t.contains(" holds ")),
            n("members"),
            "{source}"
        );

        // identities: the person with identifiers in clear, under its own context; names alone
        // are no identity, and none of them is the device's user
        let entities = run.entities(source);
        let ids = run.identifiers(source);
        for x in want["ids"].as_array().unwrap() {
            let (context, ty, value) = (
                x[0].as_str().unwrap(),
                x[1].as_str().unwrap(),
                x[2].as_str().unwrap(),
            );
            assert!(
                ids.iter().any(|(t, v)| t == ty && v == value),
                "{source}: {ty} {value}: {ids:?}"
            );
            assert!(
                entities
                    .iter()
                    .any(|e| e.starts_with(&format!("{context} ["))
                        && e.contains(&format!("{ty}={value}"))),
                "{source}: {context} {ty}={value}: {entities:#?}"
            );
        }
        let owner = run.owner(source);
        for x in want["ids"].as_array().unwrap() {
            assert!(!owner.contains(x[2].as_str().unwrap()), "{owner}");
        }
        for name in strs(&want["unobserved"]) {
            assert!(
                !entities.iter().any(|e| e.contains(&format!("] {name}:"))),
                "{source}: {name} observed: {entities:#?}"
            );
        }

        // the face prints and face crops are never selected, never in a reading tool's output
        let secrets = strs(&want["secrets"]);
        for (tool, args, text) in run.outputs(source) {
            if tool != "sqlite_query" || !args.contains("Photos.sqlite") {
                continue;
            }
            assert!(!args.contains("ZDETECTEDFACEPRINT"), "{args}");
            assert!(!args.contains("ZRESOURCEDATA"), "{args}");
            for x in &secrets {
                assert!(!text.contains(x.as_str()), "{x} in {tool} {args}");
            }
        }
        for p in &all {
            for x in &secrets {
                assert!(
                    !p.verified_facts
                        .iter()
                        .any(|f| f.value.contains(x.as_str())),
                    "{x}: {p:#?}"
                );
            }
        }

        // the libraries of A and B, and C's good one, read without a note
        let notes = run.unparsed(source);
        assert!(
            !notes.iter().any(|u| u.artefact.ends_with(lib)),
            "{source}: {notes:#?}"
        );
    }
    // the secrets the test looks for are there
    assert!(strs(&o["a"]["secrets"]).len() >= 6);
    assert!(!strs(&o["b"]["secrets"]).is_empty());

    // iPhone C: the foreign library noted (by the Photos reader, naming what it lacks)
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    // the cut copy noted (once: the first reader's call that fails on it names it; the other
    // readers of the library do not open it again) and nothing read from it
    let cut = o["c"]["cut"].as_str().unwrap();
    let notes_c = run.unparsed("c");
    let cut_calls: Vec<String> = notes_c
        .iter()
        .filter(|u| u.artefact.ends_with(cut))
        .filter_map(|u| u.invocation_id.as_ref())
        .filter_map(|id| args_of.get(id).cloned())
        .collect();
    assert!(!cut_calls.is_empty(), "{notes_c:#?}");
    // the app's own Photos.sqlite: neither read nor noted
    let not_read = strs(&o["c"]["not_read"]);
    let app = &not_read[0];
    assert!(
        !notes_c.iter().any(|u| u.artefact.ends_with(app.as_str())),
        "{notes_c:#?}"
    );
    for (tool, args, _) in run.outputs("c") {
        assert!(
            tool != "sqlite_query" || !args.contains(app.as_str()),
            "{tool} {args}"
        );
    }
    for p in run.all_phenomena("c") {
        for decoy in &not_read[1..] {
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.value.contains(decoy.as_str())),
                "{decoy}: {p:#?}"
            );
        }
    }
}
