//! The rule-based strategist (DESIGN §10, phase 3): each round it reads the four read-only
//! views and either proposes 1–N leads or declares the investigation complete. Pure: the views
//! come in, a decision goes out; the orchestrator logs the views as invocations and submits the
//! leads through the gateway.
//!
//! Rules, in order:
//! 1. Stop after `zero_yield_rounds_to_stop` trailing rounds that produced no new phenomenon,
//!    edge or status flip, or when the round cap is reached, or when a budget is exhausted.
//! 2. Corroboration: an `active` hypothesis whose evidence rests on a single source gets a lead
//!    on each other source, for the corroborating worker (which searches that source for the
//!    hypothesis's identifiers).
//! 3. Coverage: an `active` hypothesis whose source has an expected artefact not yet examined
//!    gets a lead for that source's triage agent.
//! 4. Conflict: a hypothesis with both positive and negative edges gets corroboration leads on
//!    the sources none of its evidence comes from.
//!
//! Candidates are ordered by hypothesis id then source id; leads already proposed (the
//! gateway's four-part key) are skipped; at most `max_leads` are proposed. No candidate left:
//! the investigation is complete.

use std::collections::BTreeSet;

use masf_graph::views::{BudgetStatus, Coverage, MarginalYield, Overview};
use masf_graph::{EdgeType, GraphState, Lead, LeadKey, NewLead, Status};
use serde::Serialize;

/// The strategist's agent name.
pub const STRATEGIST: &str = "strategist";
/// The worker that searches a source for a hypothesis's identifiers.
pub const CORROBORATOR: &str = "corroborator";

/// What the strategist sees.
pub struct Views<'a> {
    /// `graph_overview`.
    pub overview: &'a Overview,
    /// `source_coverage` of every source.
    pub coverage: &'a [Coverage],
    /// `marginal_yield`.
    pub yield_: &'a MarginalYield,
    /// `budget_status`.
    pub budget: &'a BudgetStatus,
}

/// The strategist's limits (from `config.yaml` `strategist:`).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Round cap.
    pub max_rounds: u32,
    /// Leads per round.
    pub max_leads: usize,
    /// Trailing zero-yield rounds that end the investigation.
    pub zero_yield_rounds_to_stop: usize,
}

/// A source and the agent that triages it.
#[derive(Debug, Clone)]
pub struct SourceAgent {
    /// The source.
    pub source_id: String,
    /// Its triage agent, if a plugin fits it.
    pub agent: Option<String>,
}

/// The decision of one round.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// Run these leads this round.
    Leads {
        /// The leads (without round number: the open round).
        leads: Vec<NewLead>,
        /// Why.
        rationale: String,
    },
    /// The investigation is complete.
    Complete {
        /// Why.
        rationale: String,
    },
}

/// Rule 1, the hard stops (budget exhausted, zero-yield rounds, round cap): the rationale when
/// one ends the investigation. Applied to the LLM strategist too, before it is asked.
pub fn hard_stop(views: &Views<'_>, limits: Limits) -> Option<String> {
    if views.budget.exhausted {
        return Some("a budget is exhausted".to_string());
    }
    let trailing = views.yield_.trailing_zero_yield_rounds;
    if limits.zero_yield_rounds_to_stop > 0 && trailing >= limits.zero_yield_rounds_to_stop {
        return Some(format!(
            "{trailing} consecutive rounds added no phenomenon, edge or status change"
        ));
    }
    if views.overview.last_round >= limits.max_rounds {
        return Some(format!("the round cap of {} is reached", limits.max_rounds));
    }
    None
}

/// Decides one round (see the module documentation).
pub fn decide(
    state: &GraphState,
    views: &Views<'_>,
    sources: &[SourceAgent],
    limits: Limits,
) -> Decision {
    if let Some(rationale) = hard_stop(views, limits) {
        return Decision::Complete { rationale };
    }
    let used: BTreeSet<LeadKey> = state.leads().values().map(Lead::key).collect();
    let mut leads: Vec<NewLead> = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    let mut push = |lead: NewLead, why: String| {
        let key = lead.key();
        if leads.len() < limits.max_leads
            && !used.contains(&key)
            && !leads.iter().any(|l| l.key() == key)
        {
            leads.push(lead);
            reasons.push(why);
        }
    };
    for row in &views.overview.hypotheses {
        let Some(h) = state.hypotheses().get(&row.id) else {
            continue;
        };
        let evidence_sources: BTreeSet<&str> = h
            .edges
            .iter()
            .filter_map(|e| state.phenomena().get(&e.phenomenon_id))
            .map(|p| p.source_id.as_str())
            .collect();
        let positive = h.edges.iter().any(|e| e.base > 0.0);
        let negative = h.edges.iter().any(|e| e.base < 0.0);
        let lead = |target: &str, source: &str, rationale: String| NewLead {
            proposed_by: STRATEGIST.to_string(),
            motivating_hypothesis: Some(h.id.clone()),
            expected_evidence_type: EdgeType::Supports,
            target_agent: target.to_string(),
            source_id: source.to_string(),
            round_number: None,
            rationale,
        };
        if h.status == Status::Active && evidence_sources.len() == 1 {
            let only = evidence_sources.iter().next().copied().unwrap_or_default();
            for s in sources.iter().filter(|s| s.source_id != only) {
                let why = format!(
                    "{} rests on one source ({only}): search {} for its identifiers",
                    h.id, s.source_id
                );
                push(lead(CORROBORATOR, &s.source_id, why.clone()), why);
            }
        }
        if h.status == Status::Active {
            for src in &evidence_sources {
                let missing: Vec<&str> = views
                    .coverage
                    .iter()
                    .filter(|c| c.source_id == *src)
                    .flat_map(|c| c.items.iter().filter(|i| !i.examined))
                    .map(|i| i.name.as_str())
                    .collect();
                let agent = sources
                    .iter()
                    .find(|s| s.source_id == *src)
                    .and_then(|s| s.agent.clone());
                if let (false, Some(agent)) = (missing.is_empty(), agent) {
                    let why = format!(
                        "{} depends on {src}, where {} not examined",
                        h.id,
                        if missing.len() == 1 {
                            format!("{} is", missing[0])
                        } else {
                            format!("{} are", missing.join(", "))
                        }
                    );
                    push(lead(&agent, src, why.clone()), why);
                }
            }
        }
        if positive && negative {
            for s in sources
                .iter()
                .filter(|s| !evidence_sources.contains(s.source_id.as_str()))
            {
                let why = format!(
                    "{} has conflicting edges: search {} for its identifiers",
                    h.id, s.source_id
                );
                push(lead(CORROBORATOR, &s.source_id, why.clone()), why);
            }
        }
    }
    if leads.is_empty() {
        Decision::Complete {
            rationale: "no hypothesis needs more evidence that a lead could bring".to_string(),
        }
    } else {
        Decision::Leads {
            leads,
            rationale: reasons.join("; "),
        }
    }
}
