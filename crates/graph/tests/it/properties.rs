//! Property tests: log-odds independent of edge order, and folds that survive serialisation.

use std::collections::BTreeMap;

use masf_graph::{EdgeType, GraphEvent, GraphState, Scoring};
use proptest::prelude::*;

use crate::support::{any_event, edge_event, edge_type, hypothesis_event, phenomenon_event};

const HYPOTHESES: [&str; 2] = ["hyp-000001", "hyp-000002"];

/// Edges `(edge type, which hypothesis)` for phenomena 1..=n, and a permutation of 0..n.
fn edges_and_order() -> impl Strategy<Value = (Vec<(EdgeType, usize)>, Vec<usize>, f64)> {
    prop::collection::vec((edge_type(), 0..HYPOTHESES.len()), 1..60).prop_flat_map(|edges| {
        let n = edges.len();
        (
            Just(edges),
            Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
            0.01f64..0.99,
        )
    })
}

fn events(edges: &[(EdgeType, usize)], order: &[usize], prior: f64) -> Vec<GraphEvent> {
    let mut events: Vec<GraphEvent> = order
        .iter()
        .map(|&i| phenomenon_event(&format!("ph-{:06}", i + 1), &format!("src-{}", i % 3)))
        .collect();
    events.extend(HYPOTHESES.iter().map(|h| hypothesis_event(h, prior)));
    events.extend(order.iter().map(|&i| {
        let (edge_type, h) = edges[i];
        edge_event(HYPOTHESES[h], &format!("ph-{:06}", i + 1), edge_type)
    }));
    events
}

fn harmonic(n: usize) -> f64 {
    (1..=n).map(|k| 1.0 / k as f64).sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any arrival order of any mix of edge types gives the same edges, ranks, contributions,
    /// log-odds (to the bit), confidence, status and distinct sources; and the log-odds are
    /// `L_prior + Σ_type base(type) · H(n_type)`.
    #[test]
    fn log_odds_do_not_depend_on_edge_order((edges, order, prior) in edges_and_order()) {
        let scoring = Scoring::default();
        let canonical: Vec<usize> = (0..edges.len()).collect();
        let a = GraphState::fold(scoring.clone(), &events(&edges, &canonical, prior));
        let b = GraphState::fold(scoring.clone(), &events(&edges, &order, prior));
        for h in HYPOTHESES {
            let (ha, hb) = (&a.hypotheses()[h], &b.hypotheses()[h]);
            prop_assert_eq!(&ha.edges, &hb.edges);
            prop_assert_eq!(ha.log_odds.to_bits(), hb.log_odds.to_bits());
            prop_assert_eq!(ha.confidence.to_bits(), hb.confidence.to_bits());
            prop_assert_eq!(ha.status, hb.status);
            prop_assert_eq!(ha.distinct_sources, hb.distinct_sources);
            let mut per_type: BTreeMap<EdgeType, usize> = BTreeMap::new();
            for e in &ha.edges {
                *per_type.entry(e.edge_type).or_default() += 1;
                prop_assert!((e.contribution - e.base / f64::from(e.rank)).abs() < 1e-15);
            }
            let closed_form = (prior / (1.0 - prior)).log10()
                + per_type.iter().map(|(t, &n)| scoring.log10_lr[t] * harmonic(n)).sum::<f64>();
            prop_assert!((ha.log_odds - closed_form).abs() < 1e-9, "{} vs {}", ha.log_odds, closed_form);
            prop_assert_eq!(ha.confidence_log.len(), ha.edges.len());
        }
    }

    /// Random event sequences, serialised to JSON and read back, fold to the identical state;
    /// applying every event twice in a row changes nothing.
    #[test]
    fn folds_survive_a_json_round_trip(events in prop::collection::vec(any_event(), 0..80)) {
        let text = serde_json::to_string(&events).expect("events serialise");
        let back: Vec<GraphEvent> = serde_json::from_str(&text).expect("events deserialise");
        prop_assert_eq!(&back, &events);
        let via_payloads: Vec<GraphEvent> = events
            .iter()
            .map(|e| {
                let stored = serde_json::to_string(&e.to_payload()).expect("payload serialises");
                let payload: serde_json::Value = serde_json::from_str(&stored).expect("payload parses");
                GraphEvent::from_payload(&payload).expect("payload is an event")
            })
            .collect();
        let state = GraphState::fold(Scoring::default(), &events);
        prop_assert_eq!(&GraphState::fold(Scoring::default(), &back), &state);
        prop_assert_eq!(&GraphState::fold(Scoring::default(), &via_payloads), &state);
        let doubled = events.iter().flat_map(|e| [e, e]);
        prop_assert_eq!(&GraphState::fold(Scoring::default(), doubled), &state);
    }
}

#[test]
fn eight_direct_and_fifteen_supports_fold_to_8_754() {
    // Phenomena 2, 4, …, 16 are direct evidence, the other 15 support; linked from the end.
    let mut events: Vec<GraphEvent> = (1..=23)
        .map(|i| phenomenon_event(&format!("ph-{i:06}"), "src-usb"))
        .collect();
    events.push(hypothesis_event("hyp-000001", 0.5));
    for i in (1..=23).rev() {
        let edge_type = if i % 2 == 0 && i <= 16 {
            EdgeType::DirectEvidence
        } else {
            EdgeType::Supports
        };
        events.push(edge_event("hyp-000001", &format!("ph-{i:06}"), edge_type));
    }
    let state = GraphState::fold(Scoring::default(), &events);
    let h = &state.hypotheses()["hyp-000001"];
    let naive: f64 = h.edges.iter().map(|e| e.base).sum();
    assert_eq!(naive, 31.0);
    assert!((h.log_odds - (2.0 * harmonic(8) + harmonic(15))).abs() < 1e-12);
    assert!((h.log_odds - 8.754).abs() < 5e-4, "{}", h.log_odds);
    assert_eq!(h.status, masf_graph::Status::Supported);
    assert_eq!(h.distinct_sources, 1);
}
