//! The orchestrator (DESIGN §10): phase 1 triage, phase 2 hypotheses across sources (from the
//! planners it is given), phase 3 the strategist loop. Phases 4 and 5 (timeline, report) are
//! renderings of the resulting graph and live above this crate.
//!
//! Every phase is idempotent on the store, so a run killed at any point and run again goes
//! through the same phases, finds its earlier work as duplicates, resumes an open round, and
//! ends in the same graph.

use masf_graph::views::{Coverage, graph_overview, marginal_yield, source_coverage};
use masf_graph::{
    Call, CompleteRound, GraphState, LeadStatus, LeadUpdate, NewLead, StartRound, Verdict,
};
use masf_store::ActorKind;
use serde::Serialize;
use serde_json::json;

use crate::budget::Counter;
use crate::context::AgentCtx;
use crate::corroborate::{corroborate, identifiers_of};
use crate::llm::{Assignment, LlmTaskReport, LlmTeam, StrategistReport, TaskOutcome};
use crate::plugin::Plugins;
use crate::session::{RuntimeError, Session, SourceInfo};
use crate::strategist::{self, CORROBORATOR, Decision, STRATEGIST, SourceAgent, Views};
use crate::triage::{TriageReport, triage_all};

/// A phase-2 rule set that proposes hypotheses and links (coreference, ownership, …) from the
/// graph. Pure: it reads the state and returns gateway calls; planning again after they are
/// applied returns nothing new.
pub trait Planner: Send + Sync {
    /// The agent name its calls are made as (`resolver`, `ownership`).
    fn name(&self) -> &'static str;
    /// The calls that are new given `state`.
    fn plan(&self, state: &GraphState, sources: &[SourceInfo]) -> Vec<Call>;
}

/// What one strategist round did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundSummary {
    /// The round number.
    pub number: u32,
    /// The leads run, with how each ended.
    pub leads: Vec<(String, String, String)>,
    /// The strategist's rationale.
    pub rationale: String,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSummary {
    /// Phase 1, per source.
    pub triage: Vec<TriageReport>,
    /// Phase 2 (and re-judging after rounds): gateway calls accepted with new events.
    pub planned: usize,
    /// Phase 3 rounds run in this segment.
    pub rounds: Vec<RoundSummary>,
    /// Why the strategist declared the investigation complete (empty when halted before).
    pub completion: String,
    /// The LLM agents' tasks (unparsed artefacts, sources no plugin fits, leads).
    pub llm_tasks: Vec<LlmTaskReport>,
    /// The LLM strategist's consultations.
    pub strategist_reports: Vec<StrategistReport>,
}

/// The phases over one session.
pub struct Orchestrator<'a> {
    /// The session.
    pub session: &'a Session,
    /// The plugins.
    pub plugins: &'a Plugins,
    /// Phase-2 planners, in order.
    pub planners: Vec<Box<dyn Planner>>,
    /// The strategist's limits.
    pub limits: strategist::Limits,
    /// Sources triaged at once.
    pub parallelism: usize,
    /// The LLM agents (and strategist) when a model is configured; `None` keeps the run
    /// deterministic.
    pub llm: Option<LlmTeam>,
}

impl Orchestrator<'_> {
    /// Runs the phases. A halt (pause, budget) comes back as [`RuntimeError::Halted`] after the
    /// work done so far is recorded; `summary` holds what was done until then.
    pub fn run(&self, summary: &mut RunSummary) -> Result<(), RuntimeError> {
        summary.triage = triage_all(self.session, self.plugins, self.parallelism)?;
        if let Some(h) = self.session.halted() {
            return Err(RuntimeError::Halted(h));
        }
        summary.planned += self.plan()?;
        if let Some(team) = &self.llm {
            self.llm_pass(team, summary)?;
            summary.planned += self.plan()?;
        }
        self.strategist_loop(summary)
    }

    /// Mixed runs: after the deterministic agents, the LLM agents take what no rule read — the
    /// artefacts noted as unparsed (by the LLM agent of the source's plugin) and the sources no
    /// plugin fits (by the generalist) — one task per source, sources in parallel.
    fn llm_pass(&self, team: &LlmTeam, summary: &mut RunSummary) -> Result<(), RuntimeError> {
        let mut work: Vec<(String, String, String, Assignment)> = Vec::new();
        let notes = self.session.unparsed()?;
        for t in &summary.triage {
            if t.error.is_some() {
                continue;
            }
            let artefacts: Vec<String> = notes
                .iter()
                .filter(|n| n.source_id == t.source_id && !n.agent.starts_with("llm-"))
                .map(|n| format!("{} — {}", n.artefact, n.reason))
                .collect();
            let (task, goal) = match (&t.plugin, artefacts.is_empty()) {
                (None, _) => (
                    format!("llm/triage/{}", t.source_id),
                    "No rule-based agent fits this source: examine it and record what matters to the case (people, identifiers, messages, transactions, documents)."
                        .to_string(),
                ),
                (Some(_), false) => (
                    format!("llm/unparsed/{}", t.source_id),
                    "The rule-based agent could not parse the artefacts listed below: read them and record what they hold."
                        .to_string(),
                ),
                (Some(_), true) => continue,
            };
            let Some(agent) = team.for_plugin(t.plugin.as_deref()) else {
                continue;
            };
            // A source examined by several plugins is handed to the LLM agent once per task.
            if work
                .iter()
                .any(|(s, _, tk, _)| *s == t.source_id && *tk == task)
            {
                continue;
            }
            // Finished in an earlier segment of this run: not asked again.
            if agent.finished(self.session, &task)? {
                continue;
            }
            work.push((
                t.source_id.clone(),
                agent.name.clone(),
                task,
                Assignment {
                    goal,
                    artefacts,
                    hypothesis: None,
                    rationale: None,
                },
            ));
        }
        let queue = std::sync::Mutex::new(work.into_iter());
        let results = std::sync::Mutex::new(Vec::new());
        let workers = self.parallelism.max(1);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        let next = queue.lock().ok().and_then(|mut q| q.next());
                        let Some((source, agent, task, assignment)) = next else {
                            break;
                        };
                        let Some(agent) = team.agent(&agent) else {
                            continue;
                        };
                        let result = AgentCtx::new(self.session, &agent.name, &task, &source)
                            .map(|ctx| ctx.with_provenance(agent.provenance().versions()))
                            .and_then(|ctx| agent.run(&ctx, &assignment));
                        let stop = result.is_err();
                        if let Ok(mut r) = results.lock() {
                            r.push(result);
                        }
                        if stop {
                            break;
                        }
                    }
                });
            }
        });
        let results = results
            .into_inner()
            .map_err(|_| RuntimeError::Poisoned("LLM task results"))?;
        let mut first_err = None;
        for r in results {
            match r {
                Ok(report) => summary.llm_tasks.push(report),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        summary.llm_tasks.sort_by(|a, b| a.task_id.cmp(&b.task_id));
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Applies the planners until they propose nothing new (at most 8 passes: a planner may
    /// need the hypotheses of one pass to link in the next).
    pub fn plan(&self) -> Result<usize, RuntimeError> {
        let sources: Vec<SourceInfo> = self.session.sources().cloned().collect();
        let mut accepted = 0;
        for _ in 0..8 {
            let calls: Vec<(&'static str, Call)> = {
                let state = self.session.state()?;
                self.planners
                    .iter()
                    .flat_map(|p| p.plan(&state, &sources).into_iter().map(|c| (p.name(), c)))
                    .collect()
            };
            let mut new = 0;
            for (agent, call) in &calls {
                self.session.check_running()?;
                let verdict = self.session.submit(ActorKind::Agent, agent, call)?;
                if let Verdict::Accepted { events, .. } = &verdict
                    && !events.is_empty()
                {
                    new += 1;
                }
            }
            accepted += new;
            if new == 0 {
                break;
            }
        }
        Ok(accepted)
    }

    fn source_agents(&self) -> Vec<SourceAgent> {
        self.session
            .sources()
            .map(|s| SourceAgent {
                source_id: s.id.clone(),
                agent: self
                    .session
                    .source(&s.id)
                    .ok()
                    .and_then(|ctx| self.plugins.choose(&ctx))
                    .map(|(p, _)| p.agent_name()),
            })
            .collect()
    }

    fn coverage(&self) -> Result<Vec<Coverage>, RuntimeError> {
        let invocations = self.session.invocation_summaries()?;
        let mut out = Vec::new();
        for s in self.session.sources() {
            let Ok(ctx) = self.session.source(&s.id) else {
                continue;
            };
            if let Some((plugin, _)) = self.plugins.choose(&ctx) {
                out.push(source_coverage(
                    &s.id,
                    &plugin.expected_artefacts(),
                    &invocations,
                ));
            }
        }
        Ok(out)
    }

    fn strategist_loop(&self, summary: &mut RunSummary) -> Result<(), RuntimeError> {
        let sources = self.source_agents();
        loop {
            self.session.check_running()?;
            // A round left open by an interrupted run is finished first.
            let open = self.session.state()?.open_round().map(|r| r.number);
            if let Some(number) = open {
                let leads = self.run_leads(number, &mut summary.llm_tasks)?;
                summary.planned += self.plan()?;
                let rationale = "finished after an interruption".to_string();
                self.complete_round(number, &rationale)?;
                summary.rounds.push(RoundSummary {
                    number,
                    leads,
                    rationale,
                });
                continue;
            }
            let (overview, yield_, number) = {
                let state = self.session.state()?;
                let overview = graph_overview(&state);
                let number = overview.last_round + 1;
                (overview, marginal_yield(&state, 5), number)
            };
            let coverage = self.coverage()?;
            let budget = self.session.budget().status();
            let task = format!("round-{number}");
            self.session.log_view(
                STRATEGIST,
                &task,
                "graph_overview",
                &json!({}),
                &canonical_text(&overview),
            )?;
            for c in &coverage {
                self.session.log_view(
                    STRATEGIST,
                    &task,
                    "source_coverage",
                    &json!({"source_id": c.source_id}),
                    &canonical_text(c),
                )?;
            }
            self.session.log_view(
                STRATEGIST,
                &task,
                "marginal_yield",
                &json!({"n": 5}),
                &canonical_text(&yield_),
            )?;
            self.session.log_view(
                STRATEGIST,
                &task,
                "budget_status",
                &json!({}),
                &canonical_text(&budget),
            )?;
            let views = Views {
                overview: &overview,
                coverage: &coverage,
                yield_: &yield_,
                budget: &budget,
            };
            let rule = {
                let state = self.session.state()?;
                strategist::decide(&state, &views, &sources, self.limits)
            };
            // The LLM strategist is asked unless a hard stop (budget, round cap, zero yield)
            // already ends the investigation; with no valid answer the rules decide.
            let mut versions = masf_store::Versions::new();
            let decision = match self.llm.as_ref().and_then(|t| t.strategist.as_ref()) {
                Some(llm) if strategist::hard_stop(&views, self.limits).is_none() => {
                    let mut agents: Vec<String> =
                        sources.iter().filter_map(|s| s.agent.clone()).collect();
                    agents.push(CORROBORATOR.to_string());
                    agents.extend(self.llm.iter().flat_map(LlmTeam::names));
                    agents.sort();
                    agents.dedup();
                    let source_ids: Vec<String> =
                        sources.iter().map(|s| s.source_id.clone()).collect();
                    let (decided, report) = llm.decide(
                        self.session,
                        &crate::llm::strategist::Round {
                            number,
                            views: &views,
                            agents: &agents,
                            sources: &source_ids,
                            limits: self.limits,
                        },
                    )?;
                    summary.strategist_reports.push(report);
                    match decided {
                        Some(d) => {
                            versions = llm.provenance().versions();
                            d
                        }
                        None => rule,
                    }
                }
                _ => rule,
            };
            match decision {
                Decision::Complete { rationale } => {
                    summary.completion = rationale;
                    return Ok(());
                }
                Decision::Leads { leads, rationale } => {
                    self.session.charge(Counter::Rounds, 1)?;
                    self.submit_with(
                        &Call::StartRound(StartRound {
                            by: STRATEGIST.to_string(),
                            number,
                        }),
                        &versions,
                    )?;
                    for lead in leads {
                        self.submit_with(
                            &Call::ProposeLead(NewLead {
                                round_number: Some(number),
                                ..lead
                            }),
                            &versions,
                        )?;
                    }
                    let ran = self.run_leads(number, &mut summary.llm_tasks)?;
                    summary.planned += self.plan()?;
                    self.complete_round_with(number, &rationale, &versions)?;
                    summary.rounds.push(RoundSummary {
                        number,
                        leads: ran,
                        rationale,
                    });
                }
            }
        }
    }

    fn submit(&self, call: &Call) -> Result<Verdict, RuntimeError> {
        self.session.submit(ActorKind::Agent, STRATEGIST, call)
    }

    fn submit_with(
        &self,
        call: &Call,
        versions: &masf_store::Versions,
    ) -> Result<Verdict, RuntimeError> {
        self.session
            .submit_with(ActorKind::Agent, STRATEGIST, call, versions)
    }

    fn complete_round(&self, number: u32, rationale: &str) -> Result<(), RuntimeError> {
        self.complete_round_with(number, rationale, &masf_store::Versions::new())
    }

    fn complete_round_with(
        &self,
        number: u32,
        rationale: &str,
        versions: &masf_store::Versions,
    ) -> Result<(), RuntimeError> {
        self.submit_with(
            &Call::CompleteRound(CompleteRound {
                by: STRATEGIST.to_string(),
                number,
                rationale: rationale.to_string(),
            }),
            versions,
        )?;
        Ok(())
    }

    /// Runs the round's pending (or interrupted) leads; returns (lead, target, outcome).
    fn run_leads(
        &self,
        number: u32,
        llm_tasks: &mut Vec<LlmTaskReport>,
    ) -> Result<Vec<(String, String, String)>, RuntimeError> {
        let todo: Vec<masf_graph::Lead> = self
            .session
            .state()?
            .leads()
            .values()
            .filter(|l| {
                l.round_number == number
                    && matches!(l.status, LeadStatus::Pending | LeadStatus::Running)
            })
            .cloned()
            .collect();
        let mut out = Vec::new();
        for lead in todo {
            self.session.check_running()?;
            if lead.status == LeadStatus::Pending {
                self.set_status(&lead.id, LeadStatus::Running, "")?;
            }
            // A plugin's agent works a lead in its own triage task on that source, so what it
            // finds again is recognised as already recorded (findings are unique per agent and
            // task); the corroborator works each lead in a task of its own.
            let llm_agent = self.llm.as_ref().and_then(|t| t.agent(&lead.target_agent));
            let task = if lead.target_agent == CORROBORATOR || llm_agent.is_some() {
                format!("lead/{}", lead.id)
            } else {
                format!("triage/{}", lead.source_id)
            };
            let mut ctx = AgentCtx::new(self.session, &lead.target_agent, &task, &lead.source_id)?;
            if let Some(agent) = llm_agent {
                ctx = ctx.with_provenance(agent.provenance().versions());
            }
            let result = if let Some(agent) = llm_agent {
                // An LLM agent works the lead in a task of its own; a provider failure fails
                // the lead, not the run.
                let mut agent = agent.clone();
                agent.round = number;
                agent
                    .run(
                        &ctx,
                        &Assignment {
                            goal: format!(
                                "Strategist lead {}: look in this source for evidence on the \
                                 hypothesis named below (expected edge: {}).",
                                lead.id,
                                lead.expected_evidence_type.as_str()
                            ),
                            artefacts: Vec::new(),
                            hypothesis: lead.motivating_hypothesis.clone(),
                            rationale: Some(lead.rationale.clone()),
                        },
                    )
                    .map(|report| {
                        let note = match &report.outcome {
                            TaskOutcome::Failed { reason } => Err(reason.clone()),
                            _ => Ok(format!("{} new phenomena", report.recorded)),
                        };
                        llm_tasks.push(report);
                        note
                    })
            } else if lead.target_agent == CORROBORATOR {
                let values = match lead.motivating_hypothesis.as_deref() {
                    Some(h) => identifiers_of(&*self.session.state()?, h),
                    None => Default::default(),
                };
                corroborate(
                    &ctx,
                    lead.motivating_hypothesis.as_deref().unwrap_or(""),
                    &values,
                )
                .map(|n| Ok(format!("{n} file(s) with its identifiers recorded")))
            } else if let Some(plugin) = self
                .plugins
                .iter()
                .find(|p| p.agent_name() == lead.target_agent)
            {
                plugin.follow_lead(&ctx, &lead).map(|()| {
                    let t = ctx.tally();
                    Ok(format!("{} new phenomena", t.phenomena))
                })
            } else {
                Ok(Ok(format!("no agent named {}", lead.target_agent)))
            };
            match result {
                Ok(Err(note)) => {
                    self.set_status(&lead.id, LeadStatus::Failed, &note)?;
                    out.push((lead.id.clone(), lead.target_agent.clone(), note));
                }
                Ok(Ok(note)) => {
                    self.set_status(&lead.id, LeadStatus::Done, &note)?;
                    out.push((lead.id.clone(), lead.target_agent.clone(), note));
                }
                Err(RuntimeError::Halted(h)) => return Err(RuntimeError::Halted(h)),
                Err(e) => {
                    let note = e.to_string();
                    self.set_status(&lead.id, LeadStatus::Failed, &note)?;
                    out.push((lead.id.clone(), lead.target_agent.clone(), note));
                }
            }
        }
        Ok(out)
    }

    fn set_status(
        &self,
        lead_id: &str,
        status: LeadStatus,
        note: &str,
    ) -> Result<(), RuntimeError> {
        self.submit(&Call::SetLeadStatus(LeadUpdate {
            by: STRATEGIST.to_string(),
            lead_id: lead_id.to_string(),
            status,
            note: note.to_string(),
        }))?;
        Ok(())
    }
}

/// Canonical JSON text of a view (sorted keys, so the logged output is deterministic).
fn canonical_text<T: Serialize>(view: &T) -> String {
    let v = serde_json::to_value(view).unwrap_or(serde_json::Value::Null);
    masf_tools::canonical_json(&v)
}
