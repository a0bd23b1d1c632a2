//! The gateway conformance suite: one JSON file per case in `tests/conformance/`, run by one
//! test that reports every failing case by file name.
//!
//! A case file:
//!
//! ```json
//! {
//!   "about": "what the case shows",
//!   "scoring": { … },                      // optional, default Scoring
//!   "defaults": { "agent": "a", … },        // optional: merged into record_phenomenon and
//!                                           // observe_identity args that lack these keys
//!   "invocations": [ { "id", "source_id", "agent", "task_id", "output", "structured"? } ],
//!   "given_events": [ GraphEvent, … ],      // optional: folded first
//!   "given": [ { "call", "args" } ],        // optional: calls that must be accepted, applied
//!   "steps": [ { "call", "args", "expect": { …subset of the serialised Verdict… } } ],
//!   "state": { …subset of the serialised GraphState… },   // optional
//!   "counts": { "phenomena": 1, … }         // optional, exact
//! }
//! ```
//!
//! `expect` and `state` are matched as subsets: objects need the listed keys (a `null` means
//! absent or null), arrays need the same length, and `{"$approx": x, "$tol": t}`,
//! `{"$contains": "text"}` and `{"$len": n}` loosen a comparison.
//!
//! Beyond what each file states, every step is checked for: events that survive a JSON round
//! trip unchanged; repeating the call on the new state writes nothing new (an accepted call
//! answers with no events, a rejected one only with events already applied); and the state
//! built step by step equals the fold of all events.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use masf_graph::{
    Applied, Call, Gateway, GraphEvent, GraphState, MemoryInvocation, MemoryLog, Scoring, Verdict,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    about: String,
    #[serde(default)]
    scoring: Option<Scoring>,
    #[serde(default)]
    defaults: Map<String, Value>,
    #[serde(default)]
    invocations: Vec<MemoryInvocation>,
    #[serde(default)]
    given_events: Vec<GraphEvent>,
    #[serde(default)]
    given: Vec<CallSpec>,
    steps: Vec<Step>,
    #[serde(default)]
    state: Option<Value>,
    #[serde(default)]
    counts: Option<BTreeMap<String, usize>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CallSpec {
    call: String,
    args: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    call: String,
    args: Value,
    expect: Value,
}

fn case_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

#[test]
fn conformance_suite() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(case_dir())
        .expect("tests/conformance exists")
        .map(|entry| entry.expect("readable directory").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 40,
        "the suite has {} cases, fewer than 40",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if let Err(problems) = run_file(path) {
            failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} conformance cases failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    println!("{} conformance cases passed", files.len());
}

fn run_file(path: &Path) -> Result<(), Vec<String>> {
    let text = std::fs::read_to_string(path).map_err(|e| vec![format!("cannot read: {e}")])?;
    let case: Case = serde_json::from_str(&text).map_err(|e| vec![format!("cannot parse: {e}")])?;
    let mut problems = Vec::new();
    if case.about.trim().is_empty() {
        problems.push("`about` is empty".to_owned());
    }
    let scoring = case.scoring.clone().unwrap_or_default();
    let log: MemoryLog = case.invocations.iter().cloned().collect();
    let mut state = GraphState::new(scoring.clone());
    let mut all_events: Vec<GraphEvent> = Vec::new();
    for event in &case.given_events {
        if state.apply(event) != Applied::Changed {
            problems.push(format!("given event {} did not apply", event.kind()));
        }
        all_events.push(event.clone());
    }
    for (i, given) in case.given.iter().enumerate() {
        let call = match to_call(&given.call, &given.args, &case.defaults) {
            Ok(call) => call,
            Err(e) => return Err(vec![format!("given {i}: {e}")]),
        };
        let verdict = Gateway::new(&state, &log).handle(&call);
        if !verdict.is_accepted() {
            problems.push(format!(
                "given {i} ({}) was rejected: {verdict:?}",
                given.call
            ));
        }
        for event in verdict.events() {
            state.apply(event);
            all_events.push(event.clone());
        }
    }
    for (i, step) in case.steps.iter().enumerate() {
        let label = format!("step {i} ({})", step.call);
        let call = match to_call(&step.call, &step.args, &case.defaults) {
            Ok(call) => call,
            Err(e) => return Err(vec![format!("{label}: {e}")]),
        };
        let verdict = Gateway::new(&state, &log).handle(&call);
        let actual = serde_json::to_value(&verdict).expect("verdicts serialise");
        let mut errors = Vec::new();
        subset(&step.expect, &actual, "verdict", &mut errors);
        if !errors.is_empty() {
            problems.push(format!(
                "{label}: {}\n    actual verdict: {}",
                errors.join("; "),
                serde_json::to_string(&actual).unwrap_or_default()
            ));
        }
        for event in verdict.events() {
            let back = GraphEvent::from_payload(&event.to_payload());
            if back.ok().as_ref() != Some(event) {
                problems.push(format!(
                    "{label}: {} does not survive a JSON round trip",
                    event.kind()
                ));
            }
            state.apply(event);
            all_events.push(event.clone());
        }
        // Re-running the same call after a restart must not write anything new.
        let again = Gateway::new(&state, &log).handle(&call);
        let new_events: Vec<&GraphEvent> = again
            .events()
            .iter()
            .filter(|event| state.clone().apply(event) == Applied::Changed)
            .collect();
        match (&again, new_events.is_empty()) {
            (Verdict::Accepted { events, .. }, _) if !events.is_empty() => {
                problems.push(format!(
                    "{label}: repeating the call gives new events {events:?}"
                ));
            }
            (_, false) => problems.push(format!("{label}: repeating the call changes the state")),
            _ => {}
        }
    }
    if GraphState::fold(scoring, &all_events) != state {
        problems.push("folding all events does not give the state built step by step".to_owned());
    }
    let state_json = serde_json::to_value(&state).expect("states serialise");
    if let Some(expected) = &case.state {
        let mut errors = Vec::new();
        subset(expected, &state_json, "state", &mut errors);
        if !errors.is_empty() {
            problems.push(format!("state: {}", errors.join("; ")));
        }
    }
    if let Some(expected) = &case.counts {
        let actual = counts(&state);
        for (key, want) in expected {
            match actual.get(key.as_str()) {
                Some(got) if got == want => {}
                Some(got) => problems.push(format!("counts.{key}: expected {want}, got {got}")),
                None => problems.push(format!("counts.{key}: no such count")),
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

fn to_call(name: &str, args: &Value, defaults: &Map<String, Value>) -> Result<Call, String> {
    let mut args = args.clone();
    if let (true, Value::Object(map)) = (
        matches!(name, "record_phenomenon" | "observe_identity"),
        &mut args,
    ) {
        for (key, value) in defaults {
            map.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    serde_json::from_value(json!({ "call": name, "args": args }))
        .map_err(|e| format!("bad call: {e}"))
}

fn counts(state: &GraphState) -> BTreeMap<&'static str, usize> {
    BTreeMap::from([
        ("phenomena", state.phenomena().len()),
        ("hypotheses", state.hypotheses().len()),
        ("edges", state.edge_count()),
        ("entities", state.entities().len()),
        (
            "identifiers",
            state.entities().values().map(|e| e.identifiers.len()).sum(),
        ),
        ("leads", state.leads().len()),
        ("rounds", state.rounds().len()),
        ("rejections", state.rejections().len()),
    ])
}

/// Checks that `expected` is a subset of `actual`, collecting differences with their paths.
fn subset(expected: &Value, actual: &Value, path: &str, errors: &mut Vec<String>) {
    if let Value::Object(map) = expected {
        if let Some(want) = map.get("$approx").and_then(Value::as_f64) {
            let tol = map.get("$tol").and_then(Value::as_f64).unwrap_or(1e-9);
            match actual.as_f64() {
                Some(got) if (got - want).abs() <= tol => {}
                _ => errors.push(format!("{path}: expected ≈{want} (±{tol}), got {actual}")),
            }
            return;
        }
        if let Some(want) = map.get("$contains").and_then(Value::as_str) {
            if !actual.as_str().is_some_and(|s| s.contains(want)) {
                errors.push(format!(
                    "{path}: expected text containing {want:?}, got {actual}"
                ));
            }
            return;
        }
        if let Some(want) = map.get("$len").and_then(Value::as_u64) {
            let got = match actual {
                Value::Array(a) => Some(a.len()),
                Value::Object(o) => Some(o.len()),
                Value::String(s) => Some(s.len()),
                _ => None,
            };
            if got != usize::try_from(want).ok() {
                errors.push(format!("{path}: expected length {want}, got {got:?}"));
            }
            return;
        }
        let Value::Object(actual_map) = actual else {
            errors.push(format!("{path}: expected an object, got {actual}"));
            return;
        };
        for (key, want) in map {
            let here = format!("{path}.{key}");
            match (want, actual_map.get(key)) {
                (Value::Null, None | Some(Value::Null)) => {}
                (_, None) => errors.push(format!("{here}: missing")),
                (want, Some(got)) => subset(want, got, &here, errors),
            }
        }
        return;
    }
    match (expected, actual) {
        (Value::Array(want), Value::Array(got)) => {
            if want.len() != got.len() {
                errors.push(format!(
                    "{path}: expected {} items, got {}: {actual}",
                    want.len(),
                    got.len()
                ));
                return;
            }
            for (i, (w, g)) in want.iter().zip(got).enumerate() {
                subset(w, g, &format!("{path}[{i}]"), errors);
            }
        }
        (Value::Number(want), Value::Number(got)) => {
            let (w, g) = (
                want.as_f64().unwrap_or(f64::NAN),
                got.as_f64().unwrap_or(f64::NAN),
            );
            if (w - g).abs() > 1e-9 * w.abs().max(1.0) {
                errors.push(format!("{path}: expected {want}, got {got}"));
            }
        }
        (want, got) if want == got => {}
        (want, got) => errors.push(format!("{path}: expected {want}, got {got}")),
    }
}
