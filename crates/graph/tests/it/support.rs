//! Builders and generators shared by the test modules.

use masf_graph::model::{Fact, MatchInfo, MatchMethod};
use masf_graph::{
    EdgeType, EntityKind, FactType, GraphEvent, HypothesisKind, IdType, Identifier, Lead,
    LeadStatus, Phenomenon, RoundSnapshot, Strength,
};
use proptest::prelude::*;

pub fn phenomenon_event(id: &str, source_id: &str) -> GraphEvent {
    GraphEvent::PhenomenonRecorded {
        digest: format!("digest-{id}"),
        phenomenon: Phenomenon {
            id: id.to_owned(),
            source_id: source_id.to_owned(),
            agent: "agent".into(),
            task_id: "task".into(),
            category: "messages".into(),
            title: format!("phenomenon {id}"),
            verified_facts: vec![Fact {
                fact_type: FactType::Text,
                value: format!("value of {id}"),
                invocation_id: "inv-000001".into(),
                matched: MatchInfo {
                    method: MatchMethod::Verbatim,
                    normalisation: None,
                    field: None,
                    span: None,
                    rescued_from: None,
                },
            }],
            interpretation: String::new(),
            warnings: Vec::new(),
            times: Vec::new(),
        },
    }
}

pub fn hypothesis_event(id: &str, prior: f64) -> GraphEvent {
    GraphEvent::HypothesisAdded {
        digest: format!("digest-{id}"),
        id: id.to_owned(),
        statement: format!("statement {id}"),
        hypothesis_kind: HypothesisKind::Activity,
        subjects: Vec::new(),
        proposed_by: "strategist".into(),
        prior,
    }
}

pub fn edge_event(hypothesis_id: &str, phenomenon_id: &str, edge_type: EdgeType) -> GraphEvent {
    GraphEvent::EdgeLinked {
        hypothesis_id: hypothesis_id.to_owned(),
        phenomenon_id: phenomenon_id.to_owned(),
        edge_type,
        linked_by: "strategist".into(),
    }
}

pub fn edge_type() -> impl Strategy<Value = EdgeType> {
    prop::sample::select(EdgeType::ALL.to_vec())
}

fn pick(prefix: &'static str, n: u32) -> impl Strategy<Value = String> {
    (1..=n).prop_map(move |i| format!("{prefix}-{i:06}"))
}

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a",
        "b",
        "src-1",
        "src-2",
        "t1",
        "ünïcode",
        "x y",
        "\"quoted\"",
        "",
    ])
    .prop_map(str::to_owned)
}

/// Any event, with ids from small pools so that references often hit, and arbitrary floats
/// where events carry them.
pub fn any_event() -> impl Strategy<Value = GraphEvent> {
    prop_oneof![
        (pick("ph", 6), word()).prop_map(|(id, source)| phenomenon_event(&id, &source)),
        (pick("hyp", 3), 0.001f64..0.999).prop_map(|(id, prior)| hypothesis_event(&id, prior)),
        (pick("hyp", 3), pick("ph", 6), edge_type()).prop_map(|(h, p, t)| edge_event(&h, &p, t)),
        (
            pick("ent", 3),
            pick("ph", 6),
            word(),
            word(),
            prop::sample::select(IdType::ALL.to_vec())
        )
            .prop_map(|(entity_id, phenomenon_id, source_id, value, id_type)| {
                GraphEvent::IdentityObserved {
                    digest: format!("{source_id}/{value}/{id_type}"),
                    entity_id,
                    entity_kind: EntityKind::Person,
                    label: value.clone(),
                    source_id,
                    context: "ctx".into(),
                    identifier: Identifier {
                        id_type,
                        value: value.clone(),
                        normalized: value.to_lowercase(),
                        strength: Strength::Strong,
                        phenomenon_id,
                        cue: None,
                    },
                }
            }),
        (
            pick("lead", 3),
            prop::option::of(pick("hyp", 3)),
            edge_type(),
            word(),
            0u32..3
        )
            .prop_map(
                |(
                    id,
                    motivating_hypothesis,
                    expected_evidence_type,
                    target_agent,
                    round_number,
                )| {
                    GraphEvent::LeadProposed {
                        digest: format!("{id}/{target_agent}"),
                        lead: Lead {
                            id,
                            proposed_by: "strategist".into(),
                            motivating_hypothesis,
                            expected_evidence_type,
                            target_agent,
                            source_id: "src-1".into(),
                            round_number,
                            status: LeadStatus::Pending,
                            rationale: "r".into(),
                        },
                    }
                }
            ),
        (
            pick("lead", 3),
            prop::sample::select(vec![
                LeadStatus::Running,
                LeadStatus::Done,
                LeadStatus::Failed,
                LeadStatus::Cancelled
            ])
        )
            .prop_map(|(lead_id, status)| GraphEvent::LeadStatusChanged {
                lead_id,
                status,
                by: "orchestrator".into(),
                note: String::new(),
            }),
        (1u32..4, 0usize..9, -50.0f64..50.0).prop_map(|(number, phenomena, log_odds)| {
            GraphEvent::RoundStarted {
                number,
                started_by: "strategist".into(),
                before: snapshot(phenomena, log_odds),
            }
        }),
        (1u32..4, 0usize..9, -50.0f64..50.0, word()).prop_map(
            |(number, phenomena, log_odds, rationale)| GraphEvent::RoundCompleted {
                number,
                completed_by: "strategist".into(),
                rationale,
                after: snapshot(phenomena, log_odds),
            }
        ),
    ]
}

fn snapshot(phenomena: usize, log_odds: f64) -> RoundSnapshot {
    let status = if log_odds > 0.6 {
        masf_graph::Status::Supported
    } else {
        masf_graph::Status::Active
    };
    RoundSnapshot {
        phenomena,
        edges: phenomena / 2,
        hypotheses: [(
            "hyp-000001".to_owned(),
            masf_graph::model::HypothesisSnapshot { status, log_odds },
        )]
        .into_iter()
        .collect(),
    }
}
