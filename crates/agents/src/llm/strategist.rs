//! The LLM strategist (DESIGN §10, phase 3): a model reads the four views as read-only tools
//! (`graph_overview`, `source_coverage`, `marginal_yield`, `budget_status`; each consultation
//! logged as an invocation on the pseudo-source `(case)` and returned as delimited data) and
//! must record a decision with `propose_lead` or `declare_investigation_complete`.
//!
//! Code decides what a proposal may be: the target agent and source must be among those of the
//! run, the motivating hypothesis must exist, at most `max_leads` per round, and a lead whose
//! `(motivating_hypothesis, expected_evidence_type, target_agent, source_id)` repeats an earlier
//! one (or another of this round) is refused. The hard stops (budget exhausted, round cap,
//! zero-yield rounds) are applied by the orchestrator's rules before the model is asked. A
//! model that decides nothing within its turns, or a provider failure, yields `None`: the
//! orchestrator then takes the rule strategist's decision.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use masf_graph::views::marginal_yield;
use masf_graph::{EdgeType, Lead, LeadKey, NewLead};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::client::ChatModel;
use super::evidence::{Header, delimit};
use super::prompts::{self, Provenance};
use super::tools::{self, names};
use super::usage::{Accounting, CallSite, metered_chat};
use super::wire::{ChatMessage, ChatRequest, ToolChoice, ToolSpec};
use crate::session::{RuntimeError, Session};
use crate::strategist::{Decision, Limits, STRATEGIST, Views};

/// The name leads proposed by the LLM strategist carry in `proposed_by`.
pub const LLM_STRATEGIST: &str = "llm-strategist";

/// The LLM strategist.
#[derive(Clone)]
pub struct LlmStrategist {
    /// The model.
    pub model: Arc<dyn ChatModel>,
    /// Model turns per round.
    pub turns: u32,
    /// Bytes of a view shown at once.
    pub max_output_bytes: usize,
    /// The run's model-call accounting.
    pub accounting: Arc<Accounting>,
}

/// What one round's consultation did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StrategistReport {
    /// The round.
    pub round: u32,
    /// Model id.
    pub model: String,
    /// Prompt version.
    pub prompt_version: String,
    /// Model requests.
    pub model_calls: u32,
    /// Tokens (prompt + completion).
    pub tokens: u64,
    /// Views consulted.
    pub views: Vec<String>,
    /// Proposals refused, with the reason.
    pub refused: Vec<String>,
    /// Set when the provider failed.
    pub failure: Option<String>,
    /// Nanoseconds outside the model client.
    pub runtime_ns: u64,
}

/// The round's frame: who may be targeted, where.
pub struct Round<'a> {
    /// The round number about to start.
    pub number: u32,
    /// The views, computed by the orchestrator.
    pub views: &'a Views<'a>,
    /// Agents a lead may target.
    pub agents: &'a [String],
    /// Sources a lead may be about.
    pub sources: &'a [String],
    /// Limits.
    pub limits: Limits,
}

#[derive(Deserialize)]
struct LeadArgs {
    #[serde(default)]
    motivating_hypothesis: Option<String>,
    expected_evidence_type: EdgeType,
    target_agent: String,
    source_id: String,
    #[serde(default)]
    rationale: String,
}

#[derive(Deserialize)]
struct RationaleArgs {
    #[serde(default)]
    rationale: String,
}

#[derive(Deserialize)]
struct CoverageArgs {
    source_id: String,
}

#[derive(Deserialize)]
struct YieldArgs {
    #[serde(default = "five")]
    n: usize,
}

fn five() -> usize {
    5
}

fn specs(round: &Round<'_>) -> Vec<ToolSpec> {
    let obj = |props: Value, req: &[&str]| json!({"type": "object", "properties": props, "required": req, "additionalProperties": false});
    let spec = |name: &str, description: &str, parameters: Value| ToolSpec {
        name: name.to_string(),
        description: description.to_string(),
        parameters,
    };
    vec![
        spec(
            names::GRAPH_OVERVIEW,
            "Hypotheses with log-odds, confidence, edges, distinct sources, recent flips; sources; pending leads.",
            obj(json!({}), &[]),
        ),
        spec(
            names::SOURCE_COVERAGE,
            "A source's expected artefacts, examined or not.",
            obj(
                json!({"source_id": {"type": "string", "enum": round.sources}}),
                &["source_id"],
            ),
        ),
        spec(
            names::MARGINAL_YIELD,
            "New phenomena, edges and status flips of the last n rounds.",
            obj(
                json!({"n": {"type": "integer", "minimum": 1, "maximum": 50}}),
                &[],
            ),
        ),
        spec(
            names::BUDGET_STATUS,
            "Budget usage against the caps, with warnings.",
            obj(json!({}), &[]),
        ),
        spec(
            names::PROPOSE_LEAD,
            "Propose one lead for this round.",
            obj(
                json!({
                    "motivating_hypothesis": {"type": "string"},
                    "expected_evidence_type": {"type": "string", "enum": tools::edge_types()},
                    "target_agent": {"type": "string", "enum": round.agents},
                    "source_id": {"type": "string", "enum": round.sources},
                    "rationale": {"type": "string"}
                }),
                &[
                    "expected_evidence_type",
                    "target_agent",
                    "source_id",
                    "rationale",
                ],
            ),
        ),
        spec(
            names::DECLARE_COMPLETE,
            "Declare the investigation complete.",
            obj(json!({"rationale": {"type": "string"}}), &["rationale"]),
        ),
        spec(
            names::END_ROUND,
            "End the proposals of this round (after at least one lead).",
            obj(json!({}), &[]),
        ),
    ]
}

fn canonical<T: Serialize>(v: &T) -> String {
    masf_tools::canonical_json(&serde_json::to_value(v).unwrap_or(Value::Null))
}

impl LlmStrategist {
    /// Which model and prompt its events carry.
    pub fn provenance(&self) -> Provenance {
        Provenance {
            model: self.model.model_id().to_string(),
            prompt: prompts::strategist().version.clone(),
        }
    }

    /// Asks the model for the round's decision. `Ok((None, _))`: no valid decision (the caller
    /// falls back to the rules). Only a halt or a store failure is an `Err`.
    pub fn decide(
        &self,
        session: &Session,
        round: &Round<'_>,
    ) -> Result<(Option<Decision>, StrategistReport), RuntimeError> {
        let started = Instant::now();
        let mut model_time = Duration::ZERO;
        let provenance = self.provenance();
        let mut report = StrategistReport {
            round: round.number,
            model: provenance.model.clone(),
            prompt_version: provenance.prompt.clone(),
            ..StrategistReport::default()
        };
        let task = format!("round-{}", round.number);
        let specs = specs(round);
        let used: BTreeSet<LeadKey> = session.state()?.leads().values().map(Lead::key).collect();
        let mut messages = vec![
            ChatMessage::system(prompts::strategist().text),
            ChatMessage::user(format!(
                "Round {} is about to start. Propose at most {} lead(s), or declare the \
                 investigation complete.\nTarget agents: {}\nSources: {}",
                round.number,
                round.limits.max_leads,
                round.agents.join(", "),
                round.sources.join(", ")
            )),
        ];
        let mut leads: Vec<NewLead> = Vec::new();
        let mut reasons: Vec<String> = Vec::new();
        let mut decision = None;
        for _ in 0..self.turns {
            let req = ChatRequest {
                messages: messages.clone(),
                tools: specs.clone(),
                tool_choice: if leads.is_empty() {
                    ToolChoice::Required
                } else {
                    ToolChoice::Auto
                },
                max_tokens: None,
            };
            let site = CallSite {
                agent: LLM_STRATEGIST.to_string(),
                task_id: task.clone(),
                round: round.number,
                prompt_version: provenance.prompt.clone(),
            };
            let t = Instant::now();
            let result = metered_chat(session, &self.accounting, &*self.model, &site, &req)?;
            model_time += t.elapsed();
            report.model_calls += 1;
            let resp = match result {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!(error = %e, "LLM strategist failed; the rules decide");
                    report.failure = Some(e.to_string());
                    break;
                }
            };
            report.tokens += resp.usage.prompt_tokens + resp.usage.completion_tokens;
            let calls = resp.message.tool_calls.clone();
            messages.push(resp.message);
            if calls.is_empty() {
                if !leads.is_empty() {
                    break;
                }
                messages.push(ChatMessage::user(
                    "A decision is mandatory: call propose_lead or declare_investigation_complete.",
                ));
                continue;
            }
            let mut end = false;
            for call in &calls {
                let result = match call.name.as_str() {
                    v @ (names::GRAPH_OVERVIEW
                    | names::SOURCE_COVERAGE
                    | names::MARGINAL_YIELD
                    | names::BUDGET_STATUS) => {
                        let output = match v {
                            names::GRAPH_OVERVIEW => {
                                Ok((json!({}), canonical(round.views.overview)))
                            }
                            names::BUDGET_STATUS => Ok((json!({}), canonical(round.views.budget))),
                            names::MARGINAL_YIELD => {
                                match tools::parse_args::<YieldArgs>(&call.arguments) {
                                    Ok(a) => {
                                        let n = a.n.clamp(1, 50);
                                        let state = session.state()?;
                                        Ok((json!({"n": n}), canonical(&marginal_yield(&state, n))))
                                    }
                                    Err(e) => Err(e),
                                }
                            }
                            _ => tools::parse_args::<CoverageArgs>(&call.arguments).and_then(|a| {
                                round
                                    .views
                                    .coverage
                                    .iter()
                                    .find(|c| c.source_id == a.source_id)
                                    .map(|c| (json!({"source_id": a.source_id}), canonical(c)))
                                    .ok_or_else(|| {
                                        format!("no coverage for source {:?}", a.source_id)
                                    })
                            }),
                        };
                        match output {
                            Ok((args, text)) => {
                                let rec = session.log_view(STRATEGIST, &task, v, &args, &text)?;
                                report.views.push(v.to_string());
                                delimit(
                                    &Header {
                                        invocation_id: &rec.invocation_id,
                                        tool: v,
                                        status: "ok",
                                        sha256: &rec.output_sha256,
                                    },
                                    &text,
                                    0,
                                    self.max_output_bytes,
                                )
                            }
                            Err(e) => {
                                report.refused.push(e.clone());
                                json!({"refused": e}).to_string()
                            }
                        }
                    }
                    names::PROPOSE_LEAD => match tools::parse_args::<LeadArgs>(&call.arguments) {
                        Err(e) => {
                            report.refused.push(e.clone());
                            json!({"refused": e}).to_string()
                        }
                        Ok(a) => {
                            let lead = NewLead {
                                proposed_by: LLM_STRATEGIST.to_string(),
                                motivating_hypothesis: a
                                    .motivating_hypothesis
                                    .filter(|h| !h.is_empty()),
                                expected_evidence_type: a.expected_evidence_type,
                                target_agent: a.target_agent,
                                source_id: a.source_id,
                                round_number: None,
                                rationale: a.rationale,
                            };
                            match self.check(session, round, &used, &leads, &lead)? {
                                Some(why) => {
                                    report.refused.push(why.clone());
                                    json!({"refused": why}).to_string()
                                }
                                None => {
                                    reasons.push(lead.rationale.clone());
                                    leads.push(lead);
                                    json!({"queued": leads.len(), "max": round.limits.max_leads})
                                        .to_string()
                                }
                            }
                        }
                    },
                    names::DECLARE_COMPLETE => {
                        let a = tools::parse_args::<RationaleArgs>(&call.arguments)
                            .map(|a| a.rationale)
                            .unwrap_or_default();
                        let rationale = if a.trim().is_empty() {
                            "the LLM strategist declared the investigation complete".to_string()
                        } else {
                            a
                        };
                        decision = Some(Decision::Complete { rationale });
                        json!({"ok": true}).to_string()
                    }
                    names::END_ROUND if !leads.is_empty() => {
                        end = true;
                        json!({"ok": true}).to_string()
                    }
                    names::END_ROUND => {
                        let why = "propose a lead first, or declare the investigation complete"
                            .to_string();
                        report.refused.push(why.clone());
                        json!({"refused": why}).to_string()
                    }
                    other => {
                        let why = format!("no tool {other:?}");
                        report.refused.push(why.clone());
                        json!({"refused": why}).to_string()
                    }
                };
                messages.push(ChatMessage::tool_result(call.id.clone(), result));
            }
            if decision.is_some() || end || leads.len() >= round.limits.max_leads {
                break;
            }
        }
        if decision.is_none() && !leads.is_empty() {
            decision = Some(Decision::Leads {
                leads,
                rationale: reasons.join("; "),
            });
        }
        report.runtime_ns = u64::try_from(started.elapsed().saturating_sub(model_time).as_nanos())
            .unwrap_or(u64::MAX);
        Ok((decision, report))
    }

    /// Why a proposal is refused, if it is.
    fn check(
        &self,
        session: &Session,
        round: &Round<'_>,
        used: &BTreeSet<LeadKey>,
        queued: &[NewLead],
        lead: &NewLead,
    ) -> Result<Option<String>, RuntimeError> {
        if queued.len() >= round.limits.max_leads {
            return Ok(Some(format!(
                "at most {} lead(s) per round",
                round.limits.max_leads
            )));
        }
        if !round.agents.contains(&lead.target_agent) {
            return Ok(Some(format!("no agent named {:?}", lead.target_agent)));
        }
        if !round.sources.contains(&lead.source_id) {
            return Ok(Some(format!("no source {:?}", lead.source_id)));
        }
        if let Some(h) = &lead.motivating_hypothesis
            && !session.state()?.hypotheses().contains_key(h)
        {
            return Ok(Some(format!("no hypothesis has the id {h:?}")));
        }
        let k = lead.key();
        if used.contains(&k) || queued.iter().any(|q| q.key() == k) {
            return Ok(Some(
                "the same lead (hypothesis, evidence type, agent, source) was already proposed"
                    .to_string(),
            ));
        }
        Ok(None)
    }
}
