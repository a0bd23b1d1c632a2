//! The composition root of the api: the plugins of this build, their catalog, the graph's
//! scoring from `config.yaml`, the graph folded from a case's store, an agent session on a
//! case, and the tool worker's loop. Every other module composes from here (no module imports
//! one that imports it back).

use std::io::BufReader;
use std::sync::Arc;

use masf_agents::{Plugins, Session, SourceInfo};
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

/// The graph folded from the case store's graph events (read-only; no session needed).
pub fn graph_state(ctx: &CaseCtx) -> Result<masf_graph::GraphState, ApiError> {
    masf_tools::fold_graph(&ctx.store, scoring(&ctx.config.scoring))
        .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))
}

/// Opens an agent session on the case: its store, every declared source, the plugins' catalog.
pub fn session(ctx: &CaseCtx, clock: Arc<dyn Clock>) -> Result<Session, ApiError> {
    let plugins = plugins();
    let mut invoker = Invoker::new(Arc::new(plugins.catalog()), Limits::from(&ctx.config.tools));
    if let Some(command) = crate::worker::worker_command(&ctx.config) {
        invoker = invoker.with_workers(command);
    }
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
            region: s.region,
            password_env: s.password_env.clone(),
        })
        .collect();
    let session = Session::open(
        &ctx.work_dir,
        scoring(&ctx.config.scoring),
        invoker,
        sources,
        Arc::new(move || clock.now()),
    )
    .map_err(|e| ApiError::new(ErrorCode::Store, e.to_string()))?;
    // The session reads the scans intake made (and keeps the ones it makes for the report).
    let scans = ctx.scans.clone();
    let session = session.with_scanner(Arc::new(move |s: &SourceInfo| {
        // the evidence layer's own words, as a source opened by the session itself gives them
        scans
            .get(&s.id, &s.path, s.password_env.as_deref())
            .map_err(|e| match e {
                crate::ScanFailure::Options(e) | crate::ScanFailure::Content(e) => e,
            })
    }));
    Ok(match ctx.config.tools.artefact_timeout_s {
        0 => session,
        s => session.with_artefact_limit(std::time::Duration::from_secs(s)),
    })
}

/// Serves tool calls of the plugins' catalog on stdin/stdout until stdin ends; the exit
/// status to end with (see [`crate::run_tools_in_workers`]).
pub fn serve_tool_worker() -> i32 {
    masf_tools::worker::serve(
        &plugins().catalog(),
        BufReader::new(std::io::stdin().lock()),
        std::io::stdout().lock(),
    )
}
