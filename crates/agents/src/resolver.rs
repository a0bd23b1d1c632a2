//! The resolver (phase 2, beside the ownership planner): cross-source entity resolution over
//! the case graph (DESIGN §8). It plans the coreference and control hypotheses and their edges
//! with `masf_graph::resolution::plan` (pure) and writes them through the session's one gateway
//! path, as agent `resolver`; as a [`Planner`] it also re-judges after each strategist round.

use masf_graph::resolution::{self, RESOLVER};
use masf_graph::{Call, GraphState, Verdict};
use masf_store::ActorKind;
use serde::Serialize;

use crate::orchestrator::Planner;
use crate::session::{RuntimeError, Session, SourceInfo};

/// What one resolver pass wrote.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ResolveReport {
    /// Planning passes until nothing was left (links need the new hypotheses' ids).
    pub passes: usize,
    /// Whether the planner had nothing left to do at the end (false would be a bug: the
    /// pass stopped after its limit).
    pub settled: bool,
    /// Coreference hypotheses added (first versions and revisions); after a run, those in the
    /// graph.
    pub hypotheses_added: usize,
    /// Edges linked to them; after a run, those in the graph.
    pub edges_linked: usize,
    /// Calls the gateway refused (none expected; each is in the event log).
    pub rejected: usize,
    /// `same_as` edges in the graph after the pass, and how many join entities.
    pub same_as: usize,
    pub same_as_live: usize,
    /// Actors after the pass, and how many hold more than one entity.
    pub actors: usize,
    pub actors_joined: usize,
}

/// Brings the coreference and control hypotheses up to the graph's identities (see
/// `masf_graph::resolution::plan`) on an open session, as agent `resolver`: plans, submits
/// through the session's gateway, and plans again until nothing is left (links need the new
/// hypotheses' ids), at most `MAX_PASSES` times. Idempotent.
pub fn resolve_in(session: &Session) -> Result<ResolveReport, RuntimeError> {
    let mut report = ResolveReport::default();
    for pass in 0..=resolution::MAX_PASSES {
        let calls = {
            let state = session.state()?;
            resolution::plan(&state)
        };
        if calls.is_empty() {
            report.settled = true;
            break;
        }
        if pass == resolution::MAX_PASSES {
            break;
        }
        report.passes += 1;
        for call in &calls {
            let verdict = session.submit(ActorKind::Agent, RESOLVER, call)?;
            match (&verdict, call) {
                (Verdict::Rejected { .. }, _) => report.rejected += 1,
                (Verdict::Accepted { events, .. }, _) if events.is_empty() => {}
                (_, Call::AddHypothesis(_)) => report.hypotheses_added += 1,
                (_, Call::Link(_)) => report.edges_linked += 1,
                _ => {}
            }
        }
    }
    let state = session.state()?;
    summarise(&state, &mut report);
    Ok(report)
}

/// The resolver as a phase-2 planner of the orchestrator (it also re-judges after each
/// strategist round).
pub struct ResolverPlanner;

impl Planner for ResolverPlanner {
    fn name(&self) -> &'static str {
        RESOLVER
    }
    fn plan(&self, state: &GraphState, _sources: &[SourceInfo]) -> Vec<Call> {
        resolution::plan(state)
    }
}

/// The resolution's state after a run: coreference hypotheses and their edges in the graph,
/// `same_as` edges and actors (what the run's planners wrote is counted by the run).
pub fn summary(state: &GraphState) -> ResolveReport {
    let coref: Vec<_> = state
        .hypotheses()
        .values()
        .filter(|h| {
            matches!(
                h.kind,
                masf_graph::HypothesisKind::Coreference | masf_graph::HypothesisKind::Control
            )
        })
        .collect();
    let mut report = ResolveReport {
        passes: 0,
        settled: resolution::plan(state).is_empty(),
        hypotheses_added: coref.len(),
        edges_linked: coref.iter().map(|h| h.edges.len()).sum(),
        ..ResolveReport::default()
    };
    summarise(state, &mut report);
    report
}

fn summarise(state: &GraphState, report: &mut ResolveReport) {
    report.same_as = state.same_as().len();
    report.same_as_live = state.same_as().values().filter(|e| e.is_live()).count();
    let actors = resolution::actors(state);
    report.actors = actors.len();
    report.actors_joined = actors.iter().filter(|a| a.entities.len() > 1).count();
}
