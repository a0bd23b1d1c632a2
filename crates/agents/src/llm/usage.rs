//! Accounting of model calls (issue 9 §4): prompt and completion tokens, calls, latency and a
//! cost estimate, per agent and per round; every call persisted as an [`LLM_CALL`] event so that
//! a resumed run continues its token budget; tokens charged to the session budget's
//! [`Counter::Tokens`], whose cap halts the run (`halted_budget`) before the next call.

use std::collections::BTreeMap;
use std::sync::Mutex;

use masf_case::LlmConfig;
use serde::{Deserialize, Serialize};

use super::client::{ChatModel, LlmError};
use super::wire::{ChatRequest, ChatResponse, Usage};
use crate::budget::Counter;
use crate::session::{RuntimeError, Session};

/// The event kind of one model call.
pub const LLM_CALL: &str = "LlmCall";

/// Who makes a model call, for accounting and the audit trail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallSite {
    /// The agent (e.g. `llm-chat-reader`, `llm-strategist`).
    pub agent: String,
    /// Its task.
    pub task_id: String,
    /// The strategist round (0 = triage).
    pub round: u32,
    /// The version of the prompt file used (e.g. `agent-chat@3`).
    pub prompt_version: String,
}

/// One model call, as persisted in an [`LLM_CALL`] event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmCall {
    /// Who called.
    #[serde(flatten)]
    pub site: CallSite,
    /// The configured model id.
    pub model: String,
    /// Prompt tokens (0 for a failed call).
    pub prompt_tokens: u64,
    /// Completion tokens (0 for a failed call).
    pub completion_tokens: u64,
    /// Whether the counts were estimated (the server reported none).
    #[serde(default)]
    pub estimated: bool,
    /// Wall time, milliseconds, retries included.
    pub latency_ms: u64,
    /// HTTP attempts (0 when unknown, e.g. a failure before any attempt).
    pub attempts: u32,
    /// The failure kind ([`LlmError::kind`]) of a failed call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Estimated cost in the configured currency, when prices are configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}

impl LlmCall {
    /// Prompt plus completion tokens.
    pub fn tokens(&self) -> u64 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }
}

/// Prices per million tokens (`llm.cost_per_mtok_prompt` / `llm.cost_per_mtok_completion`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Prices {
    /// Per million prompt tokens.
    pub per_mtok_prompt: f64,
    /// Per million completion tokens.
    pub per_mtok_completion: f64,
}

impl Prices {
    /// The prices of `cfg`, when either is set (an unset one counts as 0).
    pub fn from_config(cfg: &LlmConfig) -> Option<Prices> {
        if cfg.cost_per_mtok_prompt.is_none() && cfg.cost_per_mtok_completion.is_none() {
            return None;
        }
        Some(Prices {
            per_mtok_prompt: cfg.cost_per_mtok_prompt.unwrap_or(0.0),
            per_mtok_completion: cfg.cost_per_mtok_completion.unwrap_or(0.0),
        })
    }

    /// The cost of `usage`.
    pub fn cost(&self, usage: &Usage) -> f64 {
        (usage.prompt_tokens as f64 * self.per_mtok_prompt
            + usage.completion_tokens as f64 * self.per_mtok_completion)
            / 1_000_000.0
    }
}

/// Totals over a set of calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Calls made (failed ones included).
    pub calls: u64,
    /// Calls that failed.
    pub failed: u64,
    /// HTTP attempts (retries included).
    pub attempts: u64,
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
    /// Summed wall time, milliseconds.
    pub latency_ms: u64,
    /// Estimated cost (when prices are configured).
    pub cost: Option<f64>,
}

impl Tally {
    fn add(&mut self, c: &LlmCall) {
        self.calls += 1;
        self.failed += u64::from(c.error.is_some());
        self.attempts += u64::from(c.attempts);
        self.prompt_tokens += c.prompt_tokens;
        self.completion_tokens += c.completion_tokens;
        self.latency_ms += c.latency_ms;
        if let Some(cost) = c.cost {
            *self.cost.get_or_insert(0.0) += cost;
        }
    }

    /// Prompt plus completion tokens.
    pub fn tokens(&self) -> u64 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }
}

/// The accounting report: totals, per agent, per round.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UsageReport {
    /// Everything.
    pub total: Tally,
    /// Per agent name.
    pub by_agent: BTreeMap<String, Tally>,
    /// Per strategist round.
    pub by_round: BTreeMap<u32, Tally>,
}

impl UsageReport {
    /// Folds calls.
    pub fn from_calls<'a>(calls: impl IntoIterator<Item = &'a LlmCall>) -> Self {
        let mut r = UsageReport::default();
        for c in calls {
            r.add(c);
        }
        r
    }

    fn add(&mut self, c: &LlmCall) {
        self.total.add(c);
        self.by_agent
            .entry(c.site.agent.clone())
            .or_default()
            .add(c);
        self.by_round.entry(c.site.round).or_default().add(c);
    }
}

/// Every model call recorded in `store` (all runs, in order): what the report and the status
/// views account from.
pub fn calls_in_store(store: &masf_store::Store) -> Result<Vec<LlmCall>, masf_store::StoreError> {
    Ok(store
        .events_of_kind(LLM_CALL)?
        .iter()
        .filter_map(|e| serde_json::from_value(e.payload.clone()).ok())
        .collect())
}

/// Live accounting of one run's model calls (shared by the agents' threads).
#[derive(Debug, Default)]
pub struct Accounting {
    prices: Option<Prices>,
    report: Mutex<UsageReport>,
}

impl Accounting {
    /// Accounting with optional prices.
    pub fn new(prices: Option<Prices>) -> Self {
        Self {
            prices,
            report: Mutex::new(UsageReport::default()),
        }
    }

    /// The prices.
    pub fn prices(&self) -> Option<Prices> {
        self.prices
    }

    /// Adds a call.
    pub fn add(&self, call: &LlmCall) {
        if let Ok(mut r) = self.report.lock() {
            r.add(call);
        }
    }

    /// The totals so far.
    pub fn report(&self) -> UsageReport {
        self.report.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// The record of one call's outcome.
    pub fn call_record(
        &self,
        site: &CallSite,
        model: &str,
        outcome: &Result<ChatResponse, LlmError>,
        elapsed_ms: u64,
    ) -> LlmCall {
        match outcome {
            Ok(r) => LlmCall {
                site: site.clone(),
                model: model.to_string(),
                prompt_tokens: r.usage.prompt_tokens,
                completion_tokens: r.usage.completion_tokens,
                estimated: r.usage.estimated,
                latency_ms: r.latency_ms,
                attempts: r.attempts,
                error: None,
                cost: self.prices.map(|p| p.cost(&r.usage)),
            },
            Err(e) => LlmCall {
                site: site.clone(),
                model: model.to_string(),
                prompt_tokens: 0,
                completion_tokens: 0,
                estimated: false,
                latency_ms: elapsed_ms,
                attempts: match e {
                    LlmError::RetriesExhausted { attempts, .. } => *attempts,
                    LlmError::Offline | LlmError::MissingKey { .. } | LlmError::Config { .. } => 0,
                    _ => 1,
                },
                error: Some(e.root().kind().to_string()),
                cost: self.prices.map(|_| 0.0),
            },
        }
    }
}

/// One metered model call: refuses (halting the run) when the run must stop or the token budget
/// is spent; otherwise calls `model`, persists an [`LLM_CALL`] event, adds the call to
/// `accounting` and charges its tokens to [`Counter::Tokens`].
///
/// The outer error stops the run (halt, store failure); the inner one is the provider's
/// failure, after the client's bounded retries: the caller fails its task and the run goes on.
pub fn metered_chat(
    session: &Session,
    accounting: &Accounting,
    model: &dyn ChatModel,
    site: &CallSite,
    req: &ChatRequest,
) -> Result<Result<ChatResponse, LlmError>, RuntimeError> {
    session.check_running()?;
    session.charge(Counter::Tokens, 0)?;
    let started = std::time::Instant::now();
    let outcome = model.chat(req);
    let call = accounting.call_record(
        site,
        model.model_id(),
        &outcome,
        started.elapsed().as_millis() as u64,
    );
    session.record_llm_call(&call)?;
    accounting.add(&call);
    session.spend(Counter::Tokens, call.tokens())?;
    Ok(outcome)
}
