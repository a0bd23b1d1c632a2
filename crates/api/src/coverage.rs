//! `masf coverage` and the report's coverage tables (issue 17, part 4): for each source and
//! each plugin that examined it, every artefact of the plugin's catalogue with what came of it —
//! parsed (phenomena recorded), could not parse (why), read with nothing recorded, not present,
//! or not examined — so an examiner sees what was and was not looked at.
//!
//! Everything is derived from what is recorded (invocations, phenomena, `ArtefactUnparsed`
//! and `TriageFinished` events) by [`masf_graph::views::artefact_coverage`]; nothing here
//! reads evidence.

use std::collections::{BTreeMap, BTreeSet};

use masf_graph::GraphState;
use masf_graph::views::{CoverageItem, CoverageRecord, InvocationSummary, artefact_coverage};
use serde::Serialize;

use crate::{ApiError, CaseCtx};

/// The coverage of one source by one plugin's catalogue.
#[derive(Debug, Clone, Serialize)]
pub struct SourceCoverage {
    /// The source.
    pub source_id: String,
    /// The plugin whose catalogue this is.
    pub plugin: String,
    /// Whether the plugin's triage ran to its end on the source (only then is an artefact
    /// that was not read "not present").
    pub searched: bool,
    /// One per catalogue entry, in catalogue order.
    pub items: Vec<CoverageItem>,
}

/// The coverage of every source of the case (see the module documentation).
pub fn coverage(ctx: &CaseCtx) -> Result<Vec<SourceCoverage>, ApiError> {
    let state = crate::compose::graph_state(ctx)?;
    coverage_with(ctx, &state)
}

/// [`coverage`] on an already folded graph.
pub(crate) fn coverage_with(
    ctx: &CaseCtx,
    state: &GraphState,
) -> Result<Vec<SourceCoverage>, ApiError> {
    let plugins = crate::compose::plugins();
    // One pass over the invocations: their summaries, and which agents called a tool where.
    let mut invocations = Vec::new();
    let mut agents_on: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    ctx.store.for_each_invocation(|r| {
        agents_on
            .entry(r.source_id.clone())
            .or_default()
            .insert(r.agent);
        invocations.push(InvocationSummary {
            id: r.invocation_id,
            source_id: r.source_id,
            tool: r.tool,
            args: r.args,
        });
        Ok::<(), ApiError>(())
    })?;
    // Which plugins examined a source: one whose triage finished, or whose agent called a tool
    // on it (a triage halted by a pause or a budget).
    let mut examined_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut finished: BTreeSet<(String, String)> = BTreeSet::new();
    for e in ctx.store.events_of_kind(masf_agents::TRIAGE_FINISHED)? {
        if let Ok(t) = serde_json::from_value::<masf_agents::TriageFinished>(e.payload) {
            examined_by
                .entry(t.source_id.clone())
                .or_default()
                .insert(t.plugin.clone());
            finished.insert((t.source_id, t.plugin));
        }
    }
    let agent_plugin: BTreeMap<String, String> = plugins
        .iter()
        .map(|p| (p.agent_name(), p.name().to_string()))
        .collect();
    for (source, agents) in &agents_on {
        for a in agents {
            if let Some(p) = agent_plugin.get(a) {
                examined_by
                    .entry(source.clone())
                    .or_default()
                    .insert(p.clone());
            }
        }
    }

    let mut phenomena: BTreeMap<&str, Vec<Vec<String>>> = BTreeMap::new();
    for p in state.phenomena().values() {
        let cited: BTreeSet<&str> = p
            .verified_facts
            .iter()
            .map(|f| f.invocation_id.as_str())
            .collect();
        phenomena
            .entry(p.source_id.as_str())
            .or_default()
            .push(cited.into_iter().map(str::to_string).collect());
    }
    let mut problems: BTreeMap<String, Vec<(String, String, Option<String>)>> = BTreeMap::new();
    for e in ctx.store.events_of_kind(masf_agents::ARTEFACT_UNPARSED)? {
        if let Ok(n) = serde_json::from_value::<masf_agents::ArtefactUnparsed>(e.payload) {
            problems
                .entry(n.source_id)
                .or_default()
                .push((n.artefact, n.reason, n.invocation_id));
        }
    }

    let mut out = Vec::new();
    for source in ctx.case.sources.iter().map(|s| s.id.as_str()) {
        for plugin_name in examined_by.get(source).into_iter().flatten() {
            let Some(plugin) = plugins.get(plugin_name) else {
                continue;
            };
            let catalogue = plugin.expected_artefacts();
            if catalogue.is_empty() {
                continue;
            }
            let searched = finished.contains(&(source.to_string(), plugin_name.clone()));
            let record = CoverageRecord {
                phenomena: phenomena.get(source).cloned().unwrap_or_default(),
                problems: problems.get(source).cloned().unwrap_or_default(),
                searched,
            };
            let cov = artefact_coverage(source, &catalogue, &invocations, &record);
            out.push(SourceCoverage {
                source_id: source.to_string(),
                plugin: plugin_name.clone(),
                searched,
                items: cov.items,
            });
        }
    }
    Ok(out)
}
