//! `masf repair` (issue 24).
//!
//! [`check`] (in [`crate::check`]) finds what a sound store never holds (see `masf_tools::consistency`): holes in a
//! log, graph events that do not parse, one id naming two records, references to records that
//! do not exist, facts citing invocations that are not logged.
//!
//! There is no cached projection to rebuild: every view is folded from the events each time.
//! What can go wrong is the events themselves — two writers that raced without the lease left
//! graph events that contradict each other, which no fold can make right and which no later
//! run can add to without conflicting. [`repair`] never deletes or edits an event: it appends
//! one `GraphRebuilt` event that supersedes every graph event before it (kept in the log, no
//! longer folded; the examiner's decisions in effect are copied into it), re-derives the graph
//! by running the case again under the lease (the agents' tool calls are served from the
//! invocation cache, so the same recorded outputs ground the same facts, under new ids), makes
//! the copied decisions again on the rebuilt graph — an edge is found again by its two
//! entities' source and context — and writes the report. A hole in a log cannot be mended by
//! appending: repair says so and changes nothing.

use std::sync::Arc;

use masf_graph::{Call, Decision, GraphState, SameAsRequest, Verdict, same_as_id};
use masf_store::{ActorKind, NewEvent};
use masf_tools::consistency::Consistency;
use masf_tools::{CarriedDecision, GRAPH_REBUILT, GraphRebuilt};
use serde::Serialize;

use crate::check::check;
use crate::{ApiError, CaseCtx, Clock, ErrorCode, IntakeReport, Progress, RunLease, RunOptions};

/// What [`repair`] did.
#[derive(Debug, Clone, Serialize)]
pub struct Repaired {
    /// The check before.
    pub before: Consistency,
    /// The `GraphRebuilt` event appended (its seq and epoch), if the graph was rebuilt.
    pub rebuilt_at: Option<i64>,
    pub epoch: u32,
    /// The run that derived the graph again.
    pub run: Option<IntakeReport>,
    /// The examiner's decisions made again on the rebuilt graph.
    pub decisions: Vec<CarriedOver>,
    /// The check after.
    pub after: Consistency,
}

/// One examiner decision carried over a rebuild.
#[derive(Debug, Clone, Serialize)]
pub struct CarriedOver {
    pub decision: CarriedDecision,
    /// The edge it is on now; `None` when the rebuilt graph lacks one of its entities.
    pub edge_id: Option<String>,
    /// Whether it was recorded (false when the rebuilt graph lacks the edge's entities or the
    /// gateway refused it; `note` says why).
    pub recorded: bool,
    pub note: String,
}

/// Repairs the case store under the lease: see the module documentation. `examiner` is who
/// asked (the `GraphRebuilt` event's actor). A consistent store is left alone.
pub fn repair(
    ctx: &mut CaseCtx,
    lease: &RunLease,
    examiner: &str,
    opts: &RunOptions,
    clock: Arc<dyn Clock>,
    progress: &dyn Progress,
) -> Result<Repaired, ApiError> {
    lease.check_for(ctx)?;
    let before = check(ctx)?;
    let mut out = Repaired {
        after: before.clone(),
        before,
        rebuilt_at: None,
        epoch: 0,
        run: None,
        decisions: Vec::new(),
    };
    if !out.before.repairable() {
        return Ok(out);
    }
    let (state, cursor) =
        masf_tools::fold_graph_at(&ctx.store, crate::compose::scoring(&ctx.config.scoring))
            .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))?;
    let rebuilt = GraphRebuilt {
        epoch: cursor.epoch + 1,
        problems: out
            .before
            .problems
            .iter()
            .map(ToString::to_string)
            .collect(),
        decisions: decisions_in_effect(&state),
    };
    let appended = ctx.store.append(&NewEvent {
        kind: GRAPH_REBUILT.to_string(),
        payload: serde_json::to_value(&rebuilt)
            .map_err(|e| ApiError::new(ErrorCode::Io, e.to_string()))?,
        actor_kind: ActorKind::Examiner,
        actor_id: examiner.to_string(),
        idempotency_key: format!("graph-rebuilt/{}", rebuilt.epoch),
        causation_seq: None,
        ts: clock.now(),
        versions: Default::default(),
    })?;
    out.rebuilt_at = Some(appended.seq);
    out.epoch = rebuilt.epoch;
    let mut run = crate::intake::run_phases(ctx, opts, clock.clone(), progress)?;
    out.decisions = carry(ctx, &rebuilt.decisions, clock.clone())?;
    crate::intake::finish(ctx, &mut run, clock.as_ref(), progress)?;
    out.run = Some(run);
    out.after = check(ctx)?;
    Ok(out)
}

/// The last examiner decision of every `same_as` edge that has one, with its entities named
/// by source and context.
fn decisions_in_effect(state: &GraphState) -> Vec<CarriedDecision> {
    let ends = |id: &str| {
        state
            .entities()
            .get(id)
            .map(|e| (e.source_id.clone(), e.context.clone()))
    };
    state
        .same_as()
        .values()
        .filter_map(|edge| {
            let last = edge.decisions.last()?;
            Some(CarriedDecision {
                edge_id: edge.id.clone(),
                a: ends(&edge.a)?,
                b: ends(&edge.b)?,
                decision: last.decision,
                by: last.by.clone(),
                at: last.at.clone(),
                reason: last.reason.clone(),
            })
        })
        .collect()
}

/// Makes `decisions` again on the rebuilt graph, as the examiners who made them.
fn carry(
    ctx: &CaseCtx,
    decisions: &[CarriedDecision],
    clock: Arc<dyn Clock>,
) -> Result<Vec<CarriedOver>, ApiError> {
    if decisions.is_empty() {
        return Ok(Vec::new());
    }
    let session = crate::compose::session(ctx, clock.clone())?;
    let mut out = Vec::new();
    for d in decisions {
        let find = |(source, context): &(String, String)| {
            let state = session.state().ok()?;
            state
                .entities()
                .values()
                .find(|e| &e.source_id == source && &e.context == context)
                .map(|e| e.id.clone())
        };
        let (Some(a), Some(b)) = (find(&d.a), find(&d.b)) else {
            out.push(CarriedOver {
                decision: d.clone(),
                edge_id: None,
                recorded: false,
                note: "the rebuilt graph has not both entities of the edge".to_string(),
            });
            continue;
        };
        let edge_id = same_as_id(&a, &b);
        let request = SameAsRequest {
            edge_id: edge_id.clone(),
            examiner: d.by.clone(),
            at: clock.now().to_string(),
            reason: format!(
                "{} (decided on {} at {}; made again after masf repair)",
                d.reason, d.edge_id, d.at
            ),
        };
        let call = match d.decision {
            Decision::Approve => Call::ApproveSameAs(request),
            Decision::Retract => Call::RetractSameAs(request),
        };
        let verdict = session
            .submit(ActorKind::Examiner, &d.by, &call)
            .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))?;
        let (recorded, note) = match verdict {
            Verdict::Rejected { reason, .. } => (false, reason),
            Verdict::Accepted { events, .. } if events.is_empty() => {
                (false, "already in effect".to_string())
            }
            Verdict::Accepted { .. } => (true, String::new()),
        };
        out.push(CarriedOver {
            decision: d.clone(),
            edge_id: Some(edge_id),
            recorded,
            note,
        });
    }
    Ok(out)
}
