//! Who is who on real bytes (issue 16, parts 1–3): iLEAPP's iOS test cases of three devices
//! (an iOS 15 phone's WhatsApp, Magnet's MVS 2023 iPhone, Belkasoft CTF 6's iPhone) and
//! plaso's Android emulator databases, triaged together in one session and resolved; the
//! actors are compared with the hand-checked gold file `who/gold.json` (how each group was
//! derived, with the sqlite3 queries, is written in it).
//!
//! On the gold file: every group the data ties together is one actor, no actor holds
//! entities of two groups (0 false merges), and the placeholders it lists are observed by no
//! entity and join nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use masf_graph::resolution::{self, RESOLVER};
use serde_json::Value;

use crate::android_support::{Run, triage};

fn gold() -> Value {
    let text = include_str!("who/gold.json");
    serde_json::from_str(text).expect("gold.json parses")
}

/// The evidence of a gold source: an iLEAPP zip, or plaso's Android databases as a folder.
fn evidence(source: &Value, tmp: &std::path::Path) -> PathBuf {
    let corpus = |rel: &str| masf_testkit::corpus::path(rel);
    if let Some(zip) = source["zip"].as_str() {
        return corpus(zip);
    }
    let folder = tmp.join(source["id"].as_str().expect("id"));
    std::fs::create_dir_all(&folder).expect("folder");
    for f in source["files"].as_array().expect("files or zip") {
        let (from, to) = (
            f[0].as_str().expect("corpus path"),
            f[1].as_str().expect("name"),
        );
        std::fs::copy(corpus(from), folder.join(to)).expect("copy");
    }
    folder
}

/// Plans and applies coreference until nothing is left.
pub(crate) fn resolve(run: &Run) {
    for _ in 0..resolution::MAX_PASSES {
        let calls = resolution::plan(&run.session.state().expect("state"));
        if calls.is_empty() {
            return;
        }
        for call in &calls {
            let verdict = run
                .session
                .submit(masf_store::ActorKind::Agent, RESOLVER, call)
                .expect("submit");
            assert!(verdict.is_accepted(), "{call:?}: {verdict:?}");
        }
    }
    panic!("resolution did not settle");
}

/// Resolves `run` ([`resolve`]) and answers, for an entity named `source/context`, the
/// `source/context` names of every entity of its actor (empty when it has none).
pub(crate) fn resolved(run: &Run) -> impl Fn(&str) -> Vec<String> {
    resolve(run);
    let state = run.session.state().expect("state");
    let actors = resolution::actors(&state);
    let name = |id: &str| {
        let e = &state.entities()[id];
        format!("{}/{}", e.source_id, e.context)
    };
    let groups: Vec<Vec<String>> = actors
        .iter()
        .map(|a| a.entities.iter().map(|e| name(e)).collect())
        .collect();
    move |member: &str| {
        groups
            .iter()
            .find(|g| g.iter().any(|e| e == member))
            .cloned()
            .unwrap_or_default()
    }
}

/// Per device: (gold groups of two or more, of them joined fully, false merges).
type Score = BTreeMap<String, (usize, usize, usize)>;

#[test]
fn who_is_who_on_the_corpus_matches_the_gold_file() {
    let gold = gold();
    let tmp = tempfile::tempdir().expect("tempdir");
    let sources: Vec<(String, PathBuf, String, Option<String>)> = gold["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .map(|s| {
            (
                s["id"].as_str().expect("id").to_string(),
                evidence(s, tmp.path()),
                s["timezone"].as_str().expect("timezone").to_string(),
                s["region"].as_str().map(str::to_string),
            )
        })
        .collect();
    let args: Vec<(&str, &std::path::Path, &str, Option<&str>)> = sources
        .iter()
        .map(|(id, p, z, r)| (id.as_str(), p.as_path(), z.as_str(), r.as_deref()))
        .collect();
    let run = triage(&args);
    assert_eq!(run.rejections(), Vec::<String>::new());
    resolve(&run);
    for (id, ..) in &sources {
        for e in run.entities(id) {
            eprintln!("{id}/{e}");
        }
    }
    let state = run.session.state().expect("state");

    // Every entity, as `source/context`.
    let name = |id: &str| {
        let e = &state.entities()[id];
        format!("{}/{}", e.source_id, e.context)
    };
    let entities: BTreeSet<String> = state.entities().keys().map(|id| name(id)).collect();
    let actors = resolution::actors(&state);
    let actor_of: BTreeMap<String, usize> = actors
        .iter()
        .enumerate()
        .flat_map(|(i, a)| a.entities.iter().map(move |e| (e.clone(), i)))
        .map(|(e, i)| (name(&e), i))
        .collect();

    // The gold partition covers every entity the run made, and nothing else.
    let mut group_of: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut score = Score::new();
    for device in gold["devices"].as_array().expect("devices") {
        let dev = device["id"].as_str().expect("device id").to_string();
        for (g, group) in device["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .enumerate()
        {
            for member in group["entities"].as_array().expect("entities") {
                let m = member.as_str().expect("entity").to_string();
                assert!(
                    group_of.insert(m.clone(), (dev.clone(), g)).is_none(),
                    "{m} in two gold groups"
                );
            }
        }
        score.insert(dev, (0, 0, 0));
    }
    let listed: BTreeSet<String> = group_of.keys().cloned().collect();
    assert_eq!(
        entities.difference(&listed).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "entities the gold file does not list"
    );
    assert_eq!(
        listed.difference(&entities).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "gold entities the run did not make"
    );

    // Groups joined, and false merges (an actor holding entities of two gold groups).
    for device in gold["devices"].as_array().expect("devices") {
        let dev = device["id"].as_str().expect("device id");
        for group in device["groups"].as_array().expect("groups") {
            let members: Vec<&str> = group["entities"]
                .as_array()
                .expect("entities")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            if members.len() < 2 {
                continue;
            }
            let entry = score.get_mut(dev).expect("device");
            entry.0 += 1;
            let first = actor_of.get(members[0]);
            if members.iter().all(|m| actor_of.get(*m) == first) {
                entry.1 += 1;
            }
        }
    }
    for actor in &actors {
        let groups: BTreeSet<&(String, usize)> = actor
            .entities
            .iter()
            .filter_map(|e| group_of.get(&name(e)))
            .collect();
        if groups.len() > 1 {
            for (dev, _) in &groups {
                score.get_mut(dev).expect("device").2 += 1;
            }
            eprintln!(
                "false merge: {:?}",
                actor.entities.iter().map(|e| name(e)).collect::<Vec<_>>()
            );
        }
    }

    // Placeholders: observed by no entity, so they join nothing.
    for p in gold["placeholders"].as_array().expect("placeholders") {
        let value = p.as_str().expect("value");
        for e in state.entities().values() {
            assert!(
                e.identifiers.iter().all(|i| i.value != value),
                "placeholder {value:?} observed for {}",
                name(&e.id)
            );
        }
    }

    // Each source's region, recorded with why: from the evidence where it has one, else as
    // the examiner set it; no record where neither gives one.
    for s in gold["sources"].as_array().expect("sources") {
        let id = s["id"].as_str().expect("id");
        let got = masf_agents::region::recorded(&state, id).map(|r| r.to_string());
        assert_eq!(
            got.as_deref(),
            s["region_used"]["region"].as_str(),
            "recorded region of {id}"
        );
        if let Some(basis) = s["region_used"]["basis"].as_str() {
            let recorded = state
                .phenomena()
                .values()
                .rfind(|p| p.source_id == id && p.category == masf_agents::region::CATEGORY)
                .expect("a phone-region phenomenon");
            assert!(
                recorded.interpretation.contains(basis),
                "{id}: {}",
                recorded.interpretation
            );
        }
    }

    eprintln!("device: groups expected / joined fully / false merges");
    for (dev, (want, joined, false_merges)) in &score {
        eprintln!("{dev}: {want} / {joined} / {false_merges}");
    }
    for (dev, (want, joined, false_merges)) in &score {
        assert_eq!(joined, want, "{dev}: every tied group is one actor");
        assert_eq!(*false_merges, 0, "{dev}: no false merge");
    }
}
