//! Phase 1 of `masf run`: the triage agents of the plugins on every registered source.

use std::sync::Arc;

use masf_agents::{Plugins, Session, SourceInfo, TriageReport, triage_all};
use masf_case::ScoringConfig;
use masf_graph::{EdgeType, Scoring};
use masf_tools::{Catalog, Invoker, Limits};

use crate::{ApiError, CaseCtx, Clock, ErrorCode};

/// The plugins of this build (the composition root: the only place that names the plugin
/// crate).
pub fn plugins() -> Plugins {
    masf_plugins::all()
}

/// The standard catalog with every plugin's tools.
pub fn catalog() -> Catalog {
    plugins().catalog()
}

/// The graph's scoring parameters from `config.yaml`.
pub fn scoring(c: &ScoringConfig) -> Scoring {
    let lr = &c.log10_lr;
    Scoring {
        prior: c.prior,
        supported_at: c.supported_at,
        refuted_at: c.refuted_at,
        log10_lr: [
            (EdgeType::DirectEvidence, lr.direct_evidence),
            (EdgeType::Supports, lr.supports),
            (EdgeType::ConsequenceObserved, lr.consequence_observed),
            (EdgeType::PrerequisiteMet, lr.prerequisite_met),
            (EdgeType::Weakens, lr.weakens),
            (EdgeType::Contradicts, lr.contradicts),
        ]
        .into(),
        // config.yaml has no per-kind priors yet: the graph's defaults (coreference 0.1).
        kind_priors: masf_graph::scoring::default_kind_priors(),
    }
}

/// Opens an agent session on the case: its store, every declared source, the plugins' catalog.
pub fn session(ctx: &CaseCtx, clock: Arc<dyn Clock>) -> Result<Session, ApiError> {
    let plugins = plugins();
    let invoker = Invoker::new(Arc::new(plugins.catalog()), Limits::from(&ctx.config.tools));
    let sources = ctx
        .case
        .sources
        .iter()
        .map(|s| SourceInfo {
            id: s.id.clone(),
            label: s.label.clone(),
            path: s.path.clone(),
            owner: s.owner.clone(),
            timezone: s.timezone.clone(),
        })
        .collect();
    Session::open(
        &ctx.work_dir,
        scoring(&ctx.config.scoring),
        invoker,
        sources,
        Arc::new(move || clock.now()),
    )
    .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))
}

/// Triages every source with the plugin that fits it.
pub(crate) fn triage(ctx: &CaseCtx, clock: Arc<dyn Clock>) -> Result<Vec<TriageReport>, ApiError> {
    let session = session(ctx, clock)?;
    let parallelism = match usize::try_from(ctx.config.run.parallelism).unwrap_or(1) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    triage_all(&session, &plugins(), parallelism)
        .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))
}
