//! Accounting of model calls (issue 9 §4): prompt and completion tokens, calls, latency and a
//! cost estimate, per agent and per round; every call persisted as an [`LLM_CALL`] event so that
//! a resumed run continues its token budget; tokens charged to the session budget's
//! [`Counter::Tokens`], whose cap holds by construction: each call is bounded beforehand
//! ([`metered_chat`], [`prompt_token_bound`]) so that it cannot take the run past the cap.

use std::collections::BTreeMap;
use std::sync::Mutex;

use masf_case::LlmConfig;
use serde::{Deserialize, Serialize};

use super::client::{ChatModel, LlmError};
use super::wire::{ChatRequest, ChatResponse, Usage, request_body};
use crate::budget::{Budget, Counter, Exhausted, Reservation};
use crate::session::{RuntimeError, Session};

pub use crate::llm_call::{CallSite, LLM_CALL, LlmCall};

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
                allowed_tokens: None,
                over_allowance: false,
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
                allowed_tokens: None,
                over_allowance: false,
            },
        }
    }
}

/// Completion tokens a call must be able to receive to be made at all: below this a reply
/// would be cut before it could say anything useful (one tool call), so under a token cap a
/// call that cannot be granted this many is refused and the run halts `halted_budget`.
pub const MIN_COMPLETION_TOKENS: u64 = 64;

/// Tokens added to every prompt bound for what the server's chat template adds around the
/// serialized request: role markers and separators per message are already outweighed by the
/// JSON's own keys and quotes (`{"role":"tool","content":""}` is 28 bytes for the 3 to 6 special
/// tokens a template spends on a message), but a template may also add a fixed preamble, e.g.
/// the tool-use instructions that Qwen, Hermes and Llama 3.1 templates put before the schemas
/// (well under 200 tokens each).
pub const TEMPLATE_ALLOWANCE_TOKENS: u64 = 256;

/// An upper bound of the prompt tokens of `req` sent to `model_id`: one token per byte of the
/// request body as the client sends it (messages and tool schemas, serialized as JSON), plus
/// [`TEMPLATE_ALLOWANCE_TOKENS`].
///
/// Why one byte per token and not the usual "about four": the byte-level BPE tokenizers of
/// OpenAI-compatible models (GPT's cl100k/o200k, DeepSeek, Qwen, Llama 3) never make a token of
/// less than one byte of the UTF-8 text, and SentencePiece models falling back to bytes
/// (Llama 2, Mistral under llama.cpp or Ollama) spend at most one token per byte too; so a text
/// of n bytes is at most n tokens, whatever it holds. The usual ratios (3 to 4 bytes a token)
/// hold for English prose, not for what forensic tools print: hex dumps, base64, hashes,
/// CJK chats and emoji come down to 1 or 2 bytes a token, and such evidence is exactly what
/// the prompts carry, so any factor above one can be beaten by the evidence. JSON serialization
/// only adds bytes (quotes, keys, escapes) to the text the template renders. The price of the
/// bound is caution: on prose it is about four times the real count, so a run near its cap
/// halts up to about one prompt's bytes early rather than overshooting.
pub fn prompt_token_bound(model_id: &str, req: &ChatRequest) -> u64 {
    // The limit sent does not matter to the bound; the widest one keeps the body's length an
    // upper bound of the body that is sent.
    serde_json::to_vec(&request_body(model_id, req, u32::MAX))
        .map_or(u64::MAX, |b| b.len() as u64)
        .saturating_add(TEMPLATE_ALLOWANCE_TOKENS)
}

/// One metered model call: refuses (halting the run) when the run must stop or the call does
/// not fit in the token budget; otherwise calls `model`, persists an [`LLM_CALL`] event, adds
/// the call to `accounting` and charges its tokens to [`Counter::Tokens`].
///
/// Under a token cap the call cannot take the run past it: before the call, the budget sets
/// aside [`prompt_token_bound`] plus the completion tokens wanted (the request's `max_tokens`,
/// else the model's own limit), or as many as are left, and the request goes out with
/// `max_tokens` bounded to the completion part; when fewer than [`MIN_COMPLETION_TOKENS`] are
/// left after the prompt bound the call is refused without contacting the server. Afterwards
/// the provider's reported usage replaces what was set aside; if it reports more than the
/// call was allowed, the [`LlmCall`] says so (`over_allowance`), a warning is logged and the
/// run halts before the next call.
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
    let prompt_bound = prompt_token_bound(model.model_id(), req);
    let wanted = req
        .max_tokens
        .map(u64::from)
        .into_iter()
        .chain(model.max_completion_tokens())
        .min()
        .unwrap_or(u64::from(u32::MAX));
    let held = Held {
        budget: session.budget(),
        reservation: Some(session.reserve(
            Counter::Tokens,
            prompt_bound.saturating_add(MIN_COMPLETION_TOKENS),
            prompt_bound.saturating_add(wanted),
        )?),
    };
    // A pause or another agent's halt may have come while this one waited for room.
    session.check_running()?;
    let allowed = held.granted().filter(|_| held.is_set_aside());
    let bounded;
    let req = match allowed {
        Some(allowed) => {
            let mut r = req.clone();
            let completion = allowed.saturating_sub(prompt_bound);
            r.max_tokens = Some(u32::try_from(completion).unwrap_or(u32::MAX));
            bounded = r;
            &bounded
        }
        None => req,
    };
    let started = std::time::Instant::now();
    let outcome = model.chat(req);
    let mut call = accounting.call_record(
        site,
        model.model_id(),
        &outcome,
        started.elapsed().as_millis() as u64,
    );
    call.allowed_tokens = allowed;
    let completion_sent = req.max_tokens.map(u64::from);
    call.over_allowance = allowed.is_some_and(|a| call.tokens() > a)
        || completion_sent.is_some_and(|m| allowed.is_some() && call.completion_tokens > m);
    // Settled before anything can fail, so that no other agent waits on a hold that stays.
    let warnings = held.settle(call.tokens());
    session.record_llm_call(&call)?;
    accounting.add(&call);
    session.record_warnings(&warnings)?;
    if let (true, Some(allowed)) = (call.over_allowance, allowed) {
        let budget = session.budget();
        tracing::warn!(agent = %site.agent, task = %site.task_id, allowed,
            charged = call.tokens(),
            "a model call was charged more tokens than it was allowed; the run halts");
        return Err(session.halt_budget(Exhausted {
            overrun: Some((allowed, call.tokens())),
            ..Exhausted::at_cap(
                Counter::Tokens,
                budget.used(Counter::Tokens),
                budget.caps().tokens,
            )
        }));
    }
    Ok(outcome)
}

/// A reservation that is released (as nothing spent) if the call never settles it: an early
/// return or a panic must not leave other agents waiting on it.
struct Held<'a> {
    budget: &'a Budget,
    reservation: Option<Reservation>,
}

impl Held<'_> {
    fn granted(&self) -> Option<u64> {
        self.reservation.map(|r| r.granted)
    }

    fn is_set_aside(&self) -> bool {
        self.reservation.is_some_and(|r| r.is_set_aside())
    }

    fn settle(mut self, spent: u64) -> Vec<crate::budget::BudgetWarning> {
        match self.reservation.take() {
            Some(r) => self.budget.settle(r, spent),
            None => Vec::new(),
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if let Some(r) = self.reservation.take() {
            let _ = self.budget.settle(r, 0);
        }
    }
}
