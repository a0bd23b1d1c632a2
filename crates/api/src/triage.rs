//! The agent phases of `masf run` as one run segment (DESIGN §10): the triage agents of the
//! plugins on every registered source, then the planners of `masf_agents` (coreference and
//! control by its `resolver`, ownership) and the LLM agents and strategist when configured, under the
//! budget; pause and grant. The session and the plugins come from [`crate::compose`].

use std::sync::Arc;

use masf_agents::{Plugins, TriageReport};

use crate::compose::{plugins, session};
use crate::{ApiError, CaseCtx, Clock, ErrorCode};

/// The LLM agents (and, with `strategist.kind: llm`, the LLM strategist) that `config.yaml`
/// `llm:` describes, the API key read through `env`. `None` for `provider: none`: nothing is
/// built and no connection is ever opened.
pub fn llm_team(
    ctx: &CaseCtx,
    plugins: &Plugins,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<masf_agents::llm::LlmTeam>, ApiError> {
    let Some(client) = masf_agents::llm::LlmClient::from_config(&ctx.config.llm, env)
        .map_err(|e| ApiError::new(ErrorCode::ConfigInvalid, e.to_string()))?
    else {
        return Ok(None);
    };
    let model: Arc<dyn masf_agents::llm::ChatModel> = Arc::new(client);
    let settings = masf_agents::llm::Settings {
        max_tokens: Some(ctx.config.llm.max_tokens),
        ..masf_agents::llm::Settings::default()
    };
    let accounting = Arc::new(masf_agents::llm::Accounting::new(
        masf_agents::llm::Prices::from_config(&ctx.config.llm),
    ));
    Ok(Some(masf_agents::llm::LlmTeam::new(
        model,
        accounting,
        plugins,
        settings,
        ctx.config.strategist.kind == masf_case::StrategistKind::Llm,
    )))
}

/// The run's caps from `config.yaml` `budgets:`.
pub fn caps(ctx: &CaseCtx) -> masf_agents::Caps {
    let b = &ctx.config.budgets;
    masf_agents::Caps {
        tool_calls: b.tool_calls,
        rounds: u64::from(b.rounds),
        wall_clock_s: b.wall_clock_s,
        tokens: b.tokens,
        warn_at: b.warn_at.clone(),
    }
}

fn runtime(e: masf_agents::RuntimeError) -> ApiError {
    ApiError::new(ErrorCode::Store, e.to_string())
}

/// Where a run ended.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RunOutcome {
    /// The run's state after this segment.
    pub state: masf_agents::RunState,
    /// The run segment (1 for the first run, +1 per resume).
    pub segment: u32,
    /// Why it stopped early, if it did.
    pub halt: Option<masf_agents::Halt>,
    /// The budget after the segment.
    pub budget: masf_graph::views::BudgetStatus,
    /// Strategist rounds run in this segment.
    pub rounds: Vec<masf_agents::RoundSummary>,
    /// Hypothesis-planner calls accepted (phase 2 and re-judging).
    pub planned: usize,
    /// Why the strategist declared the investigation complete.
    pub completion: String,
    /// Entity resolution after the run: coreference hypotheses, same_as edges, actors.
    pub resolution: crate::ResolveReport,
    /// The LLM agents' tasks of this segment (empty with `llm.provider: none`).
    pub llm_tasks: Vec<masf_agents::llm::LlmTaskReport>,
    /// The LLM strategist's consultations of this segment.
    pub strategist_reports: Vec<masf_agents::llm::StrategistReport>,
}

/// Runs the agent phases as one run segment under the configured budget (raised by grants):
/// records `active`, triages every source with the plugin that fits it, and closes the
/// segment `completed`, or `paused` / `halted_budget` when stopped at a safe point.
pub(crate) fn triage(
    ctx: &CaseCtx,
    clock: Arc<dyn Clock>,
) -> Result<(Vec<TriageReport>, RunOutcome), ApiError> {
    let mut session = session(ctx, clock)?;
    session.set_caps(caps(ctx)).map_err(runtime)?;
    let segment = session.begin_segment("run").map_err(runtime)?;
    let parallelism = match usize::try_from(ctx.config.run.parallelism).unwrap_or(1) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let plugins = plugins();
    let llm = llm_team(ctx, &plugins, &|k| std::env::var(k).ok())?;
    let st = &ctx.config.strategist;
    let orchestrator = masf_agents::Orchestrator {
        session: &session,
        plugins: &plugins,
        planners: vec![
            Box::new(masf_agents::ResolverPlanner),
            Box::new(masf_agents::OwnershipPlanner {
                persons: ctx
                    .case
                    .meta
                    .persons
                    .iter()
                    .map(|p| masf_agents::CasePerson {
                        id: p.id.clone(),
                        names: std::iter::once(p.name.clone())
                            .chain(p.aliases.iter().cloned())
                            .collect(),
                    })
                    .collect(),
            }),
        ],
        limits: masf_agents::strategist::Limits {
            max_rounds: st.max_rounds,
            max_leads: usize::try_from(st.max_leads_per_round).unwrap_or(usize::MAX),
            zero_yield_rounds_to_stop: usize::try_from(st.zero_yield_rounds_to_stop)
                .unwrap_or(usize::MAX),
        },
        parallelism,
        llm,
    };
    let mut summary = masf_agents::RunSummary {
        triage: Vec::new(),
        planned: 0,
        rounds: Vec::new(),
        completion: String::new(),
        llm_tasks: Vec::new(),
        strategist_reports: Vec::new(),
    };
    match orchestrator.run(&mut summary) {
        Ok(()) | Err(masf_agents::RuntimeError::Halted(_)) => {}
        Err(e) => {
            // The runtime itself failed: say so in the log, then report the error.
            let _ = session.end_segment(masf_agents::RunState::Failed, "run", &e.to_string());
            return Err(runtime(e));
        }
    }
    let reports = summary.triage;
    let halt = session.halted();
    let state = halt
        .as_ref()
        .map_or(masf_agents::RunState::Completed, masf_agents::Halt::state);
    let reason = halt
        .as_ref()
        .map_or_else(|| summary.completion.clone(), masf_agents::Halt::reason);
    session
        .end_segment(state, "run", &reason)
        .map_err(runtime)?;
    Ok((
        reports,
        RunOutcome {
            state,
            segment,
            halt,
            budget: session.budget().status(),
            rounds: summary.rounds,
            planned: summary.planned,
            completion: summary.completion,
            resolution: masf_agents::resolver::summary(&*session.state().map_err(runtime)?),
            llm_tasks: summary.llm_tasks,
            strategist_reports: summary.strategist_reports,
        },
    ))
}

/// Asks a running `masf run` of this case (another process) to pause at its next safe point
/// (`masf_agents::run::request_pause`).
pub fn pause(ctx: &mut CaseCtx, by: &str, reason: &str, clock: &dyn Clock) -> Result<(), ApiError> {
    masf_agents::run::request_pause(&mut ctx.store, by, reason, clock.now())?;
    Ok(())
}

/// Records the examiner's grants of more budget (before a resumed run); a budget's name must
/// be one of the counters (`masf_agents::run::record_grants`).
pub fn grant(
    ctx: &mut CaseCtx,
    grants: &[(String, u64)],
    by: &str,
    reason: &str,
    clock: &dyn Clock,
) -> Result<(), ApiError> {
    let parsed = grants
        .iter()
        .map(|(name, amount)| {
            masf_agents::Counter::parse(name)
                .map(|c| (c, *amount))
                .ok_or_else(|| {
                    ApiError::new(
                        ErrorCode::BadRequest,
                        format!(
                            "unknown budget {name:?}: one of tool_calls, rounds, wall_clock_s, tokens"
                        ),
                    )
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    masf_agents::run::record_grants(&mut ctx.store, &parsed, by, reason, clock.now())?;
    Ok(())
}
