//! The strategist's views over a folded graph.

use masf_graph::{
    EdgeType, GraphEvent, GraphState, Scoring, evidence_matrix, graph_overview, marginal_yield,
};

use crate::support::{edge_event, hypothesis_event, phenomenon_event};

fn round_started(number: u32, state: &GraphState) -> GraphEvent {
    GraphEvent::RoundStarted {
        number,
        started_by: "strategist".into(),
        before: state.snapshot(),
    }
}

fn round_completed(number: u32, state: &GraphState) -> GraphEvent {
    GraphEvent::RoundCompleted {
        number,
        completed_by: "strategist".into(),
        rationale: format!("round {number}"),
        after: state.snapshot(),
    }
}

/// Round 1 finds two phenomena and supports hyp-1 from two sources; rounds 2 and 3 find nothing.
fn investigated() -> GraphState {
    let mut state = GraphState::new(Scoring::default());
    let apply = |state: &mut GraphState, event: GraphEvent| {
        state.apply(&event);
    };
    apply(&mut state, hypothesis_event("hyp-000001", 0.5));
    apply(&mut state, hypothesis_event("hyp-000002", 0.5));
    let e = round_started(1, &state);
    apply(&mut state, e);
    apply(&mut state, phenomenon_event("ph-000001", "src-iphone"));
    apply(&mut state, phenomenon_event("ph-000002", "src-android"));
    apply(
        &mut state,
        edge_event("hyp-000001", "ph-000001", EdgeType::Supports),
    );
    apply(
        &mut state,
        edge_event("hyp-000001", "ph-000002", EdgeType::Supports),
    );
    apply(
        &mut state,
        edge_event("hyp-000002", "ph-000002", EdgeType::Weakens),
    );
    let e = round_completed(1, &state);
    apply(&mut state, e);
    for n in 2..=3 {
        let e = round_started(n, &state);
        apply(&mut state, e);
        let e = round_completed(n, &state);
        apply(&mut state, e);
    }
    state
}

#[test]
fn marginal_yield_counts_rounds_and_trailing_zero_yield() {
    let state = investigated();
    let y = marginal_yield(&state, 2);
    let rounds: Vec<_> = y
        .rounds
        .iter()
        .map(|r| {
            (
                r.round,
                r.new_phenomena,
                r.new_edges,
                r.status_flips,
                r.zero_yield,
            )
        })
        .collect();
    assert_eq!(rounds, [(2, 0, 0, 0, true), (3, 0, 0, 0, true)]);
    assert_eq!(y.trailing_zero_yield_rounds, 2);
    let all = marginal_yield(&state, 10);
    assert_eq!(
        (
            all.rounds[0].new_phenomena,
            all.rounds[0].new_edges,
            all.rounds[0].status_flips
        ),
        (2, 3, 1)
    );
}

#[test]
fn overview_shows_distinct_sources_and_flips_of_the_last_round() {
    let state = investigated();
    let overview = graph_overview(&state);
    let rows: Vec<_> = overview
        .hypotheses
        .iter()
        .map(|h| {
            (
                h.id.as_str(),
                h.edges_in,
                h.distinct_sources,
                h.status,
                h.recent_flip,
            )
        })
        .collect();
    use masf_graph::Status::*;
    // The last completed round (3) flipped nothing.
    assert_eq!(
        rows,
        [
            ("hyp-000001", 2, 2, Supported, false),
            ("hyp-000002", 1, 1, Active, false)
        ]
    );
    let sources: Vec<_> = overview
        .sources
        .iter()
        .map(|s| (s.source_id.as_str(), s.phenomena, s.hypotheses))
        .collect();
    assert_eq!(sources, [("src-android", 1, 2), ("src-iphone", 1, 1)]);
    assert_eq!(overview.last_round, 3);
}

#[test]
fn the_evidence_matrix_lists_every_edge() {
    let matrix = evidence_matrix(&investigated());
    assert_eq!(matrix.hypotheses, ["hyp-000001", "hyp-000002"]);
    assert_eq!(matrix.phenomena, ["ph-000001", "ph-000002"]);
    let cells: Vec<_> = matrix
        .cells
        .iter()
        .map(|c| {
            (
                c.hypothesis_id.as_str(),
                c.phenomenon_id.as_str(),
                c.edge_type,
                c.contribution,
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("hyp-000001", "ph-000001", EdgeType::Supports, 1.0),
            ("hyp-000001", "ph-000002", EdgeType::Supports, 0.5),
            ("hyp-000002", "ph-000002", EdgeType::Weakens, -0.5),
        ]
    );
}
