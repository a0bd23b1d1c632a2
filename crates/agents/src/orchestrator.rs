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
        self.strategist_loop(summary)
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
                let leads = self.run_leads(number)?;
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
            let decision = {
                let state = self.session.state()?;
                strategist::decide(
                    &state,
                    &Views {
                        overview: &overview,
                        coverage: &coverage,
                        yield_: &yield_,
                        budget: &budget,
                    },
                    &sources,
                    self.limits,
                )
            };
            match decision {
                Decision::Complete { rationale } => {
                    summary.completion = rationale;
                    return Ok(());
                }
                Decision::Leads { leads, rationale } => {
                    self.session.charge(Counter::Rounds, 1)?;
                    self.submit(&Call::StartRound(StartRound {
                        by: STRATEGIST.to_string(),
                        number,
                    }))?;
                    for lead in leads {
                        self.submit(&Call::ProposeLead(NewLead {
                            round_number: Some(number),
                            ..lead
                        }))?;
                    }
                    let ran = self.run_leads(number)?;
                    summary.planned += self.plan()?;
                    self.complete_round(number, &rationale)?;
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

    fn complete_round(&self, number: u32, rationale: &str) -> Result<(), RuntimeError> {
        self.submit(&Call::CompleteRound(CompleteRound {
            by: STRATEGIST.to_string(),
            number,
            rationale: rationale.to_string(),
        }))?;
        Ok(())
    }

    /// Runs the round's pending (or interrupted) leads; returns (lead, target, outcome).
    fn run_leads(&self, number: u32) -> Result<Vec<(String, String, String)>, RuntimeError> {
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
            let task = if lead.target_agent == CORROBORATOR {
                format!("lead/{}", lead.id)
            } else {
                format!("triage/{}", lead.source_id)
            };
            let ctx = AgentCtx::new(self.session, &lead.target_agent, &task, &lead.source_id)?;
            let result = if lead.target_agent == CORROBORATOR {
                let values = match lead.motivating_hypothesis.as_deref() {
                    Some(h) => identifiers_of(&*self.session.state()?, h),
                    None => Default::default(),
                };
                corroborate(
                    &ctx,
                    lead.motivating_hypothesis.as_deref().unwrap_or(""),
                    &values,
                )
                .map(|n| format!("{n} file(s) with its identifiers recorded"))
            } else if let Some(plugin) = self
                .plugins
                .iter()
                .find(|p| p.agent_name() == lead.target_agent)
            {
                plugin.follow_lead(&ctx, &lead).map(|()| {
                    let t = ctx.tally();
                    format!("{} new phenomena", t.phenomena)
                })
            } else {
                Ok(format!("no agent named {}", lead.target_agent))
            };
            match result {
                Ok(note) => {
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
