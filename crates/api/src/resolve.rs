//! Cross-source entity resolution over the case graph (DESIGN §8) as the CLI and the app ask
//! for it: the resolver's pass (`masf_agents::resolver`), the `same_as` links, the examiner's
//! decisions and the actors. The logic is in `masf_graph::resolution`; this module loads the
//! graph from the store and writes through the session's one gateway path.

use std::sync::Arc;

use masf_agents::Session;
use masf_graph::resolution::{self, Actor, LinkView};
use masf_graph::{Call, GraphState, SameAsRequest, Verdict};
use masf_store::ActorKind;
use serde::Serialize;

pub use masf_agents::resolver::ResolveReport;

use crate::{ApiError, CaseCtx, Clock, ErrorCode};

/// Brings the coreference hypotheses up to the graph's identities (see
/// `masf_graph::resolution::plan`), as agent `resolver`. Idempotent.
pub fn resolve(ctx: &CaseCtx, clock: Arc<dyn Clock>) -> Result<ResolveReport, ApiError> {
    let session = crate::compose::session(ctx, clock)?;
    resolve_in(&session)
}

/// [`resolve`] on an open session (`masf_agents::resolver::resolve_in`).
pub fn resolve_in(session: &Session) -> Result<ResolveReport, ApiError> {
    masf_agents::resolver::resolve_in(session).map_err(runtime)
}

/// The graph folded from the case's event log (read-only; no session needed).
pub fn graph(ctx: &CaseCtx) -> Result<GraphState, ApiError> {
    crate::compose::graph_state(ctx)
}

/// Every `same_as` edge (live, dormant, approved, retracted) and every candidate pair below
/// the threshold, with the evidence of its current hypothesis and the examiner's decisions.
pub fn links(ctx: &CaseCtx) -> Result<Vec<LinkView>, ApiError> {
    Ok(resolution::links(&graph(ctx)?))
}

/// Why `edge_id` (an edge or a candidate pair from [`links`]) stands as it does: every edge of
/// its hypothesis with the phenomenon it cites, that phenomenon's facts, and the logged tool
/// invocation each fact was verified against (`masf links --why`).
pub fn why(ctx: &CaseCtx, edge_id: &str) -> Result<Why, ApiError> {
    let state = graph(ctx)?;
    let Some(explanation) = resolution::explain(&state, edge_id) else {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("no same_as edge or candidate pair has the id {edge_id:?} (see `masf links`)"),
        ));
    };
    let mut invocations = std::collections::BTreeMap::new();
    for e in &explanation.evidence {
        for f in &e.facts {
            if invocations.contains_key(&f.invocation_id) {
                continue;
            }
            if let Some(r) = ctx.store.invocation(&f.invocation_id)? {
                invocations.insert(
                    f.invocation_id.clone(),
                    WhyInvocation {
                        tool: r.tool,
                        args: r.args,
                        source_id: r.source_id,
                        status: r.status.as_str().to_owned(),
                        output_sha256: r.output_sha256,
                    },
                );
            }
        }
    }
    Ok(Why {
        explanation,
        invocations,
    })
}

/// [`why`]'s answer.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
#[ts(as = "WhyShape")]
pub struct Why {
    /// The link and its evidence, explained.
    #[serde(flatten)]
    pub explanation: resolution::Explanation,
    /// The invocations the facts cite, by id.
    pub invocations: std::collections::BTreeMap<String, WhyInvocation>,
}

/// The TypeScript shape of [`Why`] as serde writes it (the explanation flattened; see
/// `masf_report::ts_shapes`).
#[derive(ts_rs::TS)]
#[ts(rename = "Why")]
#[allow(dead_code)]
pub struct WhyShape {
    link: masf_report::ts_shapes::LinkView,
    evidence: Vec<masf_report::ts_shapes::ExplainedEvidence>,
    /// The invocations the facts cite, by id.
    invocations: std::collections::BTreeMap<String, WhyInvocation>,
}

impl WhyShape {
    /// Compile-time check: [`Why`] has exactly these fields, of mirrored types.
    #[allow(dead_code)]
    fn mirrors(why: Why) {
        use masf_report::ts_shapes::fits;
        let Why {
            explanation,
            invocations: _,
        } = why;
        let resolution::Explanation { link, evidence } = explanation;
        fits::<_, masf_report::ts_shapes::LinkView>(&link);
        fits::<_, Vec<masf_report::ts_shapes::ExplainedEvidence>>(&evidence);
    }
}

/// A logged tool invocation, briefly.
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct WhyInvocation {
    /// The tool.
    pub tool: String,
    /// Its arguments (JSON).
    pub args: String,
    /// The source it ran on.
    pub source_id: String,
    /// ok, failed, timed_out, …
    pub status: String,
    /// The SHA-256 of its output.
    pub output_sha256: String,
}

/// [`links`] and [`actors`] from one fold of the log.
pub fn links_and_actors(ctx: &CaseCtx) -> Result<(Vec<LinkView>, Vec<Actor>), ApiError> {
    let state = graph(ctx)?;
    Ok((resolution::links(&state), resolution::actors(&state)))
}

/// The actors: connected components of live and approved `same_as` edges.
pub fn actors(ctx: &CaseCtx) -> Result<Vec<Actor>, ApiError> {
    Ok(resolution::actors(&graph(ctx)?))
}

/// The outcome of an examiner decision.
#[derive(Debug, Clone, Serialize)]
pub struct Decided {
    /// The edge after the decision.
    pub link: LinkView,
    /// False when the last decision on the edge was already this one (nothing written).
    pub recorded: bool,
    /// The actors after the decision.
    pub actors: usize,
    pub actors_joined: usize,
}

/// Pins a `same_as` edge live, as `examiner`, with a reason; recorded as a `SameAsApproved`
/// event (actor kind examiner). A retraction is undone by a later approval.
pub fn approve(
    ctx: &CaseCtx,
    edge: &str,
    reason: &str,
    examiner: &str,
    clock: Arc<dyn Clock>,
) -> Result<Decided, ApiError> {
    decide(ctx, edge, reason, examiner, clock, true)
}

/// Vetoes a `same_as` edge, as `examiner`; the reason is required. Recorded as a
/// `SameAsRetracted` event; nothing is deleted.
pub fn retract(
    ctx: &CaseCtx,
    edge: &str,
    reason: &str,
    examiner: &str,
    clock: Arc<dyn Clock>,
) -> Result<Decided, ApiError> {
    decide(ctx, edge, reason, examiner, clock, false)
}

fn decide(
    ctx: &CaseCtx,
    edge: &str,
    reason: &str,
    examiner: &str,
    clock: Arc<dyn Clock>,
    approve: bool,
) -> Result<Decided, ApiError> {
    let at = clock.now().to_string();
    let session = crate::compose::session(ctx, clock)?;
    let request = SameAsRequest {
        edge_id: edge.to_owned(),
        examiner: examiner.to_owned(),
        at,
        reason: reason.to_owned(),
    };
    let call = if approve {
        Call::ApproveSameAs(request)
    } else {
        Call::RetractSameAs(request)
    };
    let verdict = session
        .submit(ActorKind::Examiner, examiner, &call)
        .map_err(runtime)?;
    let recorded = match &verdict {
        Verdict::Rejected { reason, .. } => {
            return Err(ApiError::new(ErrorCode::BadRequest, reason.clone()));
        }
        Verdict::Accepted { events, .. } => !events.is_empty(),
    };
    let state = session.state().map_err(runtime)?;
    let link = resolution::links(&state)
        .into_iter()
        .find(|l| l.id == edge)
        .ok_or_else(|| ApiError::new(ErrorCode::Store, format!("{edge} vanished")))?;
    let actors = resolution::actors(&state);
    Ok(Decided {
        link,
        recorded,
        actors: actors.len(),
        actors_joined: actors.iter().filter(|a| a.entities.len() > 1).count(),
    })
}

fn runtime(e: masf_agents::RuntimeError) -> ApiError {
    ApiError::new(ErrorCode::Store, e.to_string())
}
