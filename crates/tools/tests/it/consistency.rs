//! The consistency check over a real store, one kind of problem at a time: given the events
//! two unguarded writers (or a hand-edited log) would leave, the check names each, and a
//! `GraphRebuilt` event supersedes them.

use masf_graph::{
    EdgeType, Fact, FactType, GraphEvent, MatchInfo, MatchMethod, Phenomenon, Scoring,
};
use masf_store::{ActorKind, NewEvent, Store};
use masf_tools::consistency::{ProblemKind, check};
use serde_json::{Value, json};

fn phenomenon(id: &str, source: &str, invocation: &str) -> GraphEvent {
    GraphEvent::PhenomenonRecorded {
        digest: format!("digest-of-{source}-{id}"),
        phenomenon: Phenomenon {
            id: id.into(),
            source_id: source.into(),
            agent: "triage".into(),
            task_id: "task".into(),
            category: "files".into(),
            title: format!("found on {source}"),
            verified_facts: vec![Fact {
                fact_type: FactType::Path,
                value: "/a".into(),
                invocation_id: invocation.into(),
                matched: MatchInfo {
                    method: MatchMethod::Verbatim,
                    normalisation: None,
                    field: None,
                    span: None,
                    rescued_from: None,
                },
            }],
            interpretation: String::new(),
            warnings: vec![],
            times: vec![],
        },
    }
}

fn append(store: &mut Store, kind: &str, key: &str, payload: Value) {
    store
        .append(&NewEvent {
            kind: kind.into(),
            payload,
            actor_kind: ActorKind::Agent,
            actor_id: "triage".into(),
            idempotency_key: key.into(),
            causation_seq: None,
            ts: jiff::Timestamp::from_second(1_700_000_000).unwrap(),
            versions: Default::default(),
        })
        .unwrap();
}

fn graph(store: &mut Store, event: &GraphEvent) {
    append(
        store,
        event.kind(),
        &event.idempotency_key(),
        event.to_payload(),
    );
}

/// Appends `events` after one sound phenomenon (`ph-000001`, citing a logged invocation) and
/// checks that the store shows exactly `expect`: (kind, seq, words the message holds).
fn check_problems(events: &[(&str, Value)], expect: &[(ProblemKind, Option<i64>, &[&str])]) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let inv = store
        .record_invocation(&masf_store::NewInvocation {
            source_id: "src-a".into(),
            tool: "list_dir".into(),
            args: "{}".into(),
            status: masf_store::InvocationStatus::Ok,
            reason: None,
            cached_from: None,
            output: b"/a".to_vec(),
            agent: "triage".into(),
            task_id: "task".into(),
            ts: jiff::Timestamp::from_second(1_700_000_000).unwrap(),
            duration_ms: 0,
            versions: Default::default(),
            idempotency_key: None,
        })
        .unwrap();
    assert_eq!(inv.invocation_id, "inv-000001");
    graph(&mut store, &phenomenon("ph-000001", "src-a", "inv-000001"));
    for (i, (kind, payload)) in events.iter().enumerate() {
        append(&mut store, kind, &format!("k{i}"), payload.clone());
    }
    let found = check(&store, Scoring::default()).unwrap();
    let got: Vec<(ProblemKind, Option<i64>)> =
        found.problems.iter().map(|p| (p.kind, p.seq)).collect();
    let want: Vec<(ProblemKind, Option<i64>)> = expect.iter().map(|(k, s, _)| (*k, *s)).collect();
    assert_eq!(got, want, "{:#?}", found.problems);
    for (p, (_, _, words)) in found.problems.iter().zip(expect) {
        for w in *words {
            assert!(p.message.contains(w), "{:?} lacks {w:?}", p.message);
        }
    }
    assert_eq!(found.ok(), expect.is_empty());
    assert_eq!(found.events, 1 + events.len() as u64);
}

#[test]
fn a_sound_graph_has_no_problem() {
    let second = phenomenon("ph-000002", "src-b", "inv-000001").to_payload();
    check_problems(&[("PhenomenonRecorded", second)], &[]);
}

#[test]
fn one_id_for_two_records_is_named_with_both() {
    let twin = phenomenon("ph-000001", "src-b", "inv-000001").to_payload();
    check_problems(
        &[("PhenomenonRecorded", twin)],
        &[(
            ProblemKind::DuplicateId,
            Some(2),
            &[
                "ph-000001 names two records",
                "a phenomenon of src-a by triage: \"found on src-a\" (event 1)",
                "a phenomenon of src-b",
            ],
        )],
    );
}

#[test]
fn references_to_missing_records_and_unlogged_invocations_are_dangling() {
    let edge = GraphEvent::EdgeLinked {
        hypothesis_id: "hyp-000009".into(),
        phenomenon_id: "ph-000001".into(),
        edge_type: EdgeType::Supports,
        linked_by: "resolver".into(),
    };
    let unlogged = phenomenon("ph-000002", "src-b", "inv-000042").to_payload();
    check_problems(
        &[
            ("EdgeLinked", edge.to_payload()),
            ("PhenomenonRecorded", unlogged),
        ],
        &[
            (
                ProblemKind::DanglingReference,
                Some(2),
                &["hyp-000009 ← ph-000001", "unknown hypothesis"],
            ),
            (
                ProblemKind::DanglingReference,
                Some(3),
                &["ph-000002 fact 1 cites inv-000042"],
            ),
        ],
    );
}

#[test]
fn an_unparsable_graph_event_and_a_round_out_of_sequence_are_named() {
    let round = json!({"kind": "RoundCompleted", "number": 4, "completed_by": "strategist",
        "rationale": "", "after": {"phenomena": 0, "edges": 0, "hypotheses": {}}});
    check_problems(
        &[
            (
                "PhenomenonRecorded",
                json!({"kind": "PhenomenonRecorded", "nonsense": 1}),
            ),
            ("RoundCompleted", round),
        ],
        &[
            (ProblemKind::UnreadableEvent, Some(2), &["does not parse"]),
            (
                ProblemKind::OutOfSequence,
                Some(3),
                &["round 4", "round not started"],
            ),
        ],
    );
}

#[test]
fn a_rebuild_supersedes_the_problems_before_it_and_a_later_one_counts_again() {
    let twin = phenomenon("ph-000001", "src-b", "inv-000001").to_payload();
    let rebuilt = json!({"epoch": 1, "problems": ["ph-000001 names two records"]});
    let after = phenomenon("ph-000001", "src-c", "inv-000001").to_payload();
    check_problems(
        &[
            ("PhenomenonRecorded", twin.clone()),
            ("GraphRebuilt", rebuilt),
            // The rebuilt graph starts empty: ph-000001 is free again …
            ("PhenomenonRecorded", after),
        ],
        &[],
    );
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    graph(&mut store, &phenomenon("ph-000001", "src-a", "inv-000001"));
    append(&mut store, "PhenomenonRecorded", "twin", twin.clone());
    append(
        &mut store,
        "GraphRebuilt",
        "r1",
        json!({"epoch": 1, "problems": []}),
    );
    append(&mut store, "PhenomenonRecorded", "b", twin);
    let other = phenomenon("ph-000001", "src-d", "inv-000001").to_payload();
    append(&mut store, "PhenomenonRecorded", "d", other);
    let found = check(&store, Scoring::default()).unwrap();
    assert_eq!(found.epoch, 1);
    // … the problems before the rebuild are history; those after it count (this store logged
    // no invocation: the fact of the current ph-000001 dangles).
    assert_eq!(found.superseded, 1, "{:#?}", found.problems);
    let kinds: Vec<_> = found.problems.iter().map(|p| (p.kind, p.seq)).collect();
    assert_eq!(
        kinds,
        [
            (ProblemKind::DuplicateId, Some(5)),
            (ProblemKind::DanglingReference, Some(4)),
        ]
    );
}
