//! Phase 1 of a run (DESIGN §10): every source triaged by the agent of the plugin that fits
//! it, sources in parallel up to the configured parallelism.

use std::sync::Mutex;

use serde::Serialize;

use crate::context::{AgentCtx, TaskTally};
use crate::plugin::Plugins;
use crate::session::{RuntimeError, Session};

/// What triage did on one source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TriageReport {
    /// The source.
    pub source_id: String,
    /// The plugin chosen, if one fits.
    pub plugin: Option<String>,
    /// Why it was chosen (or why none was).
    pub reasons: Vec<String>,
    /// The agent that ran.
    pub agent: Option<String>,
    /// The task id (`triage/<source>`).
    pub task_id: String,
    /// What the task did.
    pub tally: TaskTally,
    /// Why the source could not be opened, if it could not.
    pub error: Option<String>,
    /// Set when the run halted (pause or budget) during this source's triage.
    pub halted: Option<crate::session::Halt>,
}

/// Triages every source of the session (see the module documentation). A source that cannot
/// be opened (`error`) or that no plugin fits (`plugin: None`, with the reason) gets a report
/// saying so; a halt (pause, budget) stops every worker at its next tool call and is reported
/// per source (`halted`) and by [`Session::halted`]; only a store failure is an `Err`.
pub fn triage_all(
    session: &Session,
    plugins: &Plugins,
    parallelism: usize,
) -> Result<Vec<TriageReport>, RuntimeError> {
    let ids: Vec<String> = session.sources().map(|s| s.id.clone()).collect();
    let queue = Mutex::new(ids.clone().into_iter());
    let results = Mutex::new(Vec::new());
    let workers = parallelism.clamp(1, ids.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().ok().and_then(|mut q| q.next());
                    let Some(id) = next else { break };
                    let report = triage_one(session, plugins, &id);
                    if let Ok(mut r) = results.lock() {
                        r.push((id, report));
                    }
                }
            });
        }
    });
    let mut results = results
        .into_inner()
        .map_err(|_| RuntimeError::Poisoned("triage results"))?;
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    for (_, r) in results {
        out.extend(r?);
    }
    Ok(out)
}

fn triage_one(
    session: &Session,
    plugins: &Plugins,
    source_id: &str,
) -> Result<Vec<TriageReport>, RuntimeError> {
    let task_id = format!("triage/{source_id}");
    let mut report = TriageReport {
        source_id: source_id.to_string(),
        plugin: None,
        reasons: Vec::new(),
        agent: None,
        task_id: task_id.clone(),
        tally: TaskTally::default(),
        error: None,
        halted: None,
    };
    match session.check_running() {
        Ok(()) => {}
        Err(RuntimeError::Halted(h)) => {
            report.halted = Some(h);
            return Ok(vec![report]);
        }
        Err(e) => return Err(e),
    }
    let ctx = match session.source(source_id) {
        Ok(ctx) => ctx,
        Err(RuntimeError::Source { reason, .. }) => {
            report.error = Some(reason);
            return Ok(vec![report]);
        }
        Err(e) => return Err(e),
    };
    let fitting = plugins.fitting(&ctx);
    if fitting.is_empty() {
        report.reasons = vec![format!(
            "no plugin fits a source sniffed as {}",
            plugins.typing(&ctx.scan).evidence_type
        )];
        return Ok(vec![report]);
    }
    let mut reports = Vec::new();
    for (i, (plugin, detection)) in fitting.into_iter().enumerate() {
        // The best-fitting plugin keeps the task id of a one-plugin triage (a case triaged
        // before keeps its records); each further one has its own task.
        let task_id = if i == 0 {
            task_id.clone()
        } else {
            format!("{task_id}/{}", plugin.name())
        };
        let agent = plugin.agent_name();
        let mut report = TriageReport {
            source_id: source_id.to_string(),
            plugin: Some(plugin.name().to_string()),
            reasons: detection.reasons,
            agent: Some(agent.clone()),
            task_id: task_id.clone(),
            tally: TaskTally::default(),
            error: None,
            halted: None,
        };
        let actx = AgentCtx::new(session, &agent, &task_id, source_id)?;
        tracing::info!(source = source_id, plugin = plugin.name(), "triage starts");
        let halted = match plugin.triage(&actx) {
            Ok(()) => {
                session.note_triage_finished(&crate::session::TriageFinished {
                    source_id: source_id.to_string(),
                    plugin: plugin.name().to_string(),
                    agent: agent.clone(),
                    task_id: task_id.clone(),
                })?;
                false
            }
            Err(RuntimeError::Halted(h)) => {
                report.halted = Some(h);
                true
            }
            Err(e) => return Err(e),
        };
        report.tally = actx.tally();
        reports.push(report);
        if halted {
            break;
        }
    }
    Ok(reports)
}
