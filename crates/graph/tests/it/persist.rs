//! Through a real case store: events appended, the store reopened, the graph folded back; and a
//! run killed after any call, re-run from the start, ends in the same state with no duplicate.

use std::collections::BTreeSet;
use std::path::Path;

use masf_graph::{
    Call, CompleteRound, EdgeType, EntityKind, FactClaim, FactType, Gateway, GraphEvent,
    GraphState, HypothesisKind, IdType, IdentityObservation, LeadStatus, LeadUpdate, LinkRequest,
    MemoryInvocation, MemoryLog, NewHypothesis, NewLead, NewPhenomenon, Region, Scoring,
    StartRound,
};
use masf_store::{ActorKind, NewEvent, Store};
use proptest::prelude::*;

use crate::support::any_event;

fn new_event(event: &GraphEvent) -> NewEvent {
    NewEvent {
        kind: event.kind().to_owned(),
        payload: event.to_payload(),
        actor_kind: ActorKind::Agent,
        actor_id: "test".into(),
        idempotency_key: event.idempotency_key(),
        causation_seq: None,
        ts: jiff::Timestamp::from_second(1_700_000_000).expect("valid time"),
        versions: Default::default(),
    }
}

fn fold_store(dir: &Path) -> (GraphState, usize) {
    let store = Store::open_read_only(dir).expect("store opens");
    let mut count = 0;
    let state = store
        .fold(GraphState::new(Scoring::default()), |mut state, stored| {
            count += 1;
            assert!(
                GraphEvent::KINDS.contains(&stored.kind.as_str()),
                "{}",
                stored.kind
            );
            let event =
                GraphEvent::from_payload(&stored.payload).expect("stored payload is an event");
            assert_eq!(event.kind(), stored.kind);
            state.apply(&event);
            state
        })
        .expect("store folds");
    (state, count)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Random event sequences appended to a real store, reopened and folded, give the state of
    /// folding them in memory (events are first made unique per idempotency key, as the store
    /// requires).
    #[test]
    fn random_events_survive_the_store(events in prop::collection::vec(any_event(), 0..60)) {
        let mut seen = BTreeSet::new();
        let events: Vec<GraphEvent> = events.into_iter().filter(|e| seen.insert(e.idempotency_key())).collect();
        let dir = tempfile::tempdir().expect("temp dir");
        {
            let mut store = Store::open(dir.path()).expect("store opens");
            let batch: Vec<NewEvent> = events.iter().map(new_event).collect();
            store.append_batch(&batch).expect("events append");
        }
        let (state, count) = fold_store(dir.path());
        prop_assert_eq!(count, events.len());
        prop_assert_eq!(state, GraphState::fold(Scoring::default(), &events));
    }
}

fn log() -> MemoryLog {
    let inv = |n: u32, output: &str| MemoryInvocation {
        id: format!("inv-{n:06}"),
        source_id: "src-iphone".into(),
        agent: "ios-triage".into(),
        task_id: "t1".into(),
        output: output.as_bytes().to_vec(),
        structured: None,
    };
    [
        inv(1, "/private/var/mobile/Library/SMS/sms.db size=4096\n"),
        inv(2, "handle 1: +852 6123 4567, Leung.YL@Example.com\n"),
        inv(3, "Accounts3: leung.yl@icloud.com\n"),
    ]
    .into_iter()
    .collect()
}

/// A small investigation: a round, phenomena, a hypothesis with edges, identities, a lead, a
/// rejected phenomenon.
fn script() -> Vec<Call> {
    let fact = |fact_type, value: &str, n: u32| FactClaim {
        fact_type,
        value: value.into(),
        invocation_id: format!("inv-{n:06}"),
    };
    let record = |title: &str, facts: Vec<FactClaim>| {
        Call::RecordPhenomenon(NewPhenomenon {
            source_id: "src-iphone".into(),
            agent: "ios-triage".into(),
            task_id: "t1".into(),
            category: "messages".into(),
            title: title.into(),
            facts,
            interpretation: "Thread in /private/var/mobile/Library/SMS/sms.db.".into(),
            phone_region: Some(Region::parse("HK").expect("HK is a region")),
            times: Vec::new(),
        })
    };
    let observe = |id_type, value: &str, n: u32| {
        Call::ObserveIdentity(IdentityObservation {
            agent: "ios-triage".into(),
            task_id: "t1".into(),
            source_id: "src-iphone".into(),
            context: "device-owner".into(),
            entity_kind: EntityKind::Person,
            label: "LEUNG YL".into(),
            id_type,
            value: value.into(),
            invocation_id: format!("inv-{n:06}"),
            phone_region: Some(Region::parse("HK").expect("HK is a region")),
            interpretation: String::new(),
            cue: None,
        })
    };
    let link = |ph: &str, edge_type| {
        Call::Link(LinkRequest {
            agent: "strategist".into(),
            task_id: None,
            phenomenon_id: ph.into(),
            hypothesis_id: "hyp-000001".into(),
            edge_type,
        })
    };
    vec![
        Call::StartRound(StartRound {
            by: "strategist".into(),
            number: 1,
        }),
        record(
            "sms.db",
            vec![fact(
                FactType::Path,
                "/private/var/mobile/Library/SMS/sms.db",
                1,
            )],
        ),
        record("handle", vec![fact(FactType::Phone, "61234567", 7)]),
        Call::AddHypothesis(NewHypothesis {
            proposed_by: "strategist".into(),
            statement: "LEUNG YL used the iPhone".into(),
            kind: HypothesisKind::Ownership,
            prior: None,
            subjects: Vec::new(),
        }),
        link("ph-000001", EdgeType::Supports),
        link("ph-000002", EdgeType::DirectEvidence),
        observe(IdType::Phone, "+852 6123 4567", 2),
        observe(IdType::Email, "leung.yl@example.com", 2),
        observe(IdType::AppleId, "leung.yl@icloud.com", 3),
        record(
            "nothing",
            vec![fact(FactType::Text, "not in any output", 1)],
        ),
        Call::ProposeLead(NewLead {
            proposed_by: "strategist".into(),
            motivating_hypothesis: Some("hyp-000001".into()),
            expected_evidence_type: EdgeType::Supports,
            target_agent: "android-triage".into(),
            source_id: "src-android".into(),
            round_number: None,
            rationale: "corroborate".into(),
        }),
        Call::SetLeadStatus(LeadUpdate {
            by: "orchestrator".into(),
            lead_id: "lead-000001".into(),
            status: LeadStatus::Running,
            note: String::new(),
        }),
        Call::CompleteRound(CompleteRound {
            by: "strategist".into(),
            number: 1,
            rationale: "continue".into(),
        }),
        Call::StartRound(StartRound {
            by: "strategist".into(),
            number: 2,
        }),
        Call::CompleteRound(CompleteRound {
            by: "strategist".into(),
            number: 2,
            rationale: "done".into(),
        }),
    ]
}

/// Opens the store, folds the graph, runs the first `calls` calls of the script, persisting each
/// verdict's events before applying them, and drops everything (as a kill would).
fn run(dir: &Path, calls: usize) {
    let log = log();
    let mut store = Store::open(dir).expect("store opens");
    let mut state = store
        .fold(GraphState::new(Scoring::default()), |mut s, stored| {
            s.apply(&GraphEvent::from_payload(&stored.payload).expect("event"));
            s
        })
        .expect("store folds");
    for call in script().iter().take(calls) {
        let verdict = Gateway::new(&state, &log).handle(call);
        let batch: Vec<NewEvent> = verdict.events().iter().map(new_event).collect();
        store.append_batch(&batch).expect("events append");
        for event in verdict.events() {
            state.apply(event);
        }
    }
}

#[test]
fn a_run_killed_after_any_call_and_rerun_records_nothing_twice() {
    let whole = tempfile::tempdir().expect("temp dir");
    run(whole.path(), usize::MAX);
    let (expected, expected_count) = fold_store(whole.path());
    assert_eq!(
        expected.phenomena().len(),
        5,
        "2 recorded + 3 identity phenomena"
    );
    assert_eq!(expected.entities().len(), 1);
    assert_eq!(expected.entities()["ent-000001"].identifiers.len(), 3);
    assert_eq!(expected.rejections().len(), 1);
    assert_eq!(expected.rounds().len(), 2);
    assert_eq!(expected.hypotheses()["hyp-000001"].log_odds, 3.0);
    // The second phenomenon cited inv-000007, which does not exist: rescued to inv-000002.
    let rescued = &expected.phenomena()["ph-000002"].verified_facts[0];
    assert_eq!(rescued.invocation_id, "inv-000002");
    assert!(rescued.matched.rescued_from.is_some());

    for killed_after in 0..=script().len() {
        let dir = tempfile::tempdir().expect("temp dir");
        run(dir.path(), killed_after);
        run(dir.path(), usize::MAX);
        let (state, count) = fold_store(dir.path());
        assert_eq!(state, expected, "killed after {killed_after} calls");
        assert_eq!(
            count, expected_count,
            "killed after {killed_after} calls: duplicate events"
        );
    }
}
