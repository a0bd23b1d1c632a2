//! The resources of the Photos library's assets and their analysis state
//! (`ios::photosresources`) and the GPS routes of Apple Health's workouts (`ios::workoutroutes`)
//! on three iPhones, written by `tests/fixtures/iosapps26/iosapps26.py` (Python's sqlite3: the
//! tables and columns iLEAPP's Ph050, Ph051, Ph094–Ph098/Ph126 and `FitnessWorkoutsLocationData`
//! read). The generator's record is the oracle: every `ZINTERNALRESOURCE` row with its asset,
//! its values as stored, its codes as the reader's query words them, its type identifier, the
//! verdict on an original (on the device, or not with or without an iCloud fingerprint) and its
//! times; each library's tally of originals; each analysed asset; each route's summary (points,
//! first and last point and time, bounding box, altitude, speed, accuracy, its object and
//! workout) titled with the workout as the Health reader titles it — never one phenomenon per
//! point. iPhone A has the iOS 18 library and the iOS 17+ Health store (source/destination
//! associations, a deleted link, a link to an object that is no workout), iPhone B the iOS 13
//! library (`ZGENERICASSET`, `ZUNIFORMTYPEIDENTIFIER` rows) and the iOS 15 store (`workouts`
//! with the activity type, parent/child associations), iPhone C iOS 16 ones beside a cut copy
//! of each (noted by the first reader whose call fails on it), a foreign copy of each (noted by
//! these readers, naming what the table lacks) and an app's own files of both names (neither
//! read nor noted). The store's key data of a resource is never read.

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
fn iosapps26_photos_resources_and_workout_routes_on_three_iphones() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let o = generate(
        "",
        "tests/fixtures/iosapps26/iosapps26.py",
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
        let health = want["health"].as_str().unwrap();

        // every oracle row is a phenomenon holding every field as a fact and its times
        for (kind, category, file) in [
            ("resources", "media", lib),
            ("tallies", "media", lib),
            ("analyses", "media", lib),
            ("routes", "locations", health),
        ] {
            for r in want[kind].as_array().unwrap() {
                let title = r["title"].as_str().unwrap();
                let p = titled(&all, title);
                assert_eq!(p.category, category, "{title}");
                assert!(p.warnings.is_empty(), "{title}: {:#?}", p.warnings);
                assert!(has_path(p, file), "{title}: {p:#?}");
                for v in strs(&r["facts"]) {
                    assert!(has_fact(p, &v), "{source} {title}: {v}: {p:#?}");
                }
                let mut t = strs(&r["times"]);
                t.sort();
                assert_eq!(time_values(p), t, "{source} {title}");
                assert!(
                    p.times
                        .iter()
                        .all(|m| m.encoding == masf_graph::TimeEncoding::AppleSeconds),
                    "{p:#?}"
                );
                match kind {
                    "resources" => assert!(
                        p.interpretation.contains("ZINTERNALRESOURCE Z_PK")
                            && p.interpretation.contains("Core Data seconds"),
                        "{}",
                        p.interpretation
                    ),
                    "routes" => assert!(
                        p.interpretation.contains("summarised in the query"),
                        "{}",
                        p.interpretation
                    ),
                    _ => {}
                }
            }
        }
        // and nothing more: one phenomenon per resource, library, analysed asset and route
        let count = |prefix: &str| all.iter().filter(|p| p.title.starts_with(prefix)).count();
        let n = |k: &str| want[k].as_array().unwrap().len();
        assert_eq!(count("Photos resource "), n("resources"), "{source}");
        assert_eq!(
            count("Photos library originals: "),
            n("tallies"),
            "{source}"
        );
        assert_eq!(
            count("Photos analysis of asset "),
            n("analyses"),
            "{source}"
        );
        assert_eq!(count("Workout route "), n("routes"), "{source}");

        // the optimised original is said so; the route names its workout as the Health reader
        // titles it
        for r in want["resources"].as_array().unwrap() {
            if let Some(verdict) = r["original"].as_str() {
                assert!(has_fact(
                    titled(&all, r["title"].as_str().unwrap()),
                    verdict
                ));
            }
        }
        for w in strs(&want["workouts"]) {
            let p = titled(&all, &w);
            assert!(has_path(p, health), "{w}: {p:#?}");
        }

        // the store's key data of a resource is never selected, never in a reading tool's output
        let secrets = strs(&want["secrets"]);
        assert!(!secrets.is_empty());
        for (tool, args, text) in run.outputs(source) {
            if tool != "sqlite_query" || !args.contains("Photos.sqlite") {
                continue;
            }
            assert!(!args.contains("ZDATASTOREKEYDATA"), "{args}");
            for x in &secrets {
                assert!(!text.contains(x.as_str()), "{x} in {tool} {args}");
            }
        }

        // the good library and store are read without a note
        let notes = run.unparsed(source);
        assert!(
            !notes
                .iter()
                .any(|u| u.artefact.ends_with(lib) || u.artefact.ends_with(health)),
            "{source}: {notes:#?}"
        );
    }

    // iPhone C: the foreign copies noted by these readers, naming what the table lacks
    let noted: Vec<(&str, &str)> = o["c"]["noted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n[0].as_str().unwrap(), n[1].as_str().unwrap()))
        .collect();
    run.assert_noted("c", &noted);
    let all_c = run.all_phenomena("c");
    // the cut copies noted (by the first reader whose call fails on them) and nothing read
    let notes_c = run.unparsed("c");
    for cut in strs(&o["c"]["cut"]) {
        let calls: Vec<String> = notes_c
            .iter()
            .filter(|u| u.artefact.ends_with(cut.as_str()))
            .filter_map(|u| u.invocation_id.as_ref())
            .filter_map(|id| args_of.get(id).cloned())
            .collect();
        assert!(!calls.is_empty(), "{cut}: {notes_c:#?}");
        assert!(
            !all_c
                .iter()
                .any(|p| (p.title.starts_with("Photos resource ")
                    || p.title.starts_with("Workout route "))
                    && has_path(p, &cut)),
            "{cut}"
        );
    }
    // the apps' own files: neither read nor noted
    let not_read = strs(&o["c"]["not_read"]);
    for app in &not_read[..2] {
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
    }
    for p in &all_c {
        for decoy in &not_read[2..] {
            assert!(
                !p.verified_facts
                    .iter()
                    .any(|f| f.value.contains(decoy.as_str())),
                "{decoy}: {p:#?}"
            );
        }
    }
}
