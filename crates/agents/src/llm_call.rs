//! The record of one model call, as a run's store keeps it (an [`LLM_CALL`] event): who called,
//! the tokens, the latency and the cost. Apart from the client that makes the calls
//! ([`crate::llm`]) so that the session, which persists and replays these records, does not
//! import the client that imports the session.

use serde::{Deserialize, Serialize};

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
    /// The failure kind ([`crate::llm::LlmError::kind`]) of a failed call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Estimated cost in the configured currency, when prices are configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// Under a token cap: the tokens this call was allowed (its prompt bound plus the
    /// completion tokens granted, sent as `max_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_tokens: Option<u64>,
    /// The provider reported more completion tokens than the `max_tokens` sent (it ignored
    /// it), or more tokens than `allowed_tokens` (the prompt bound was low): the run halted
    /// after this call.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub over_allowance: bool,
}

impl LlmCall {
    /// Prompt plus completion tokens.
    pub fn tokens(&self) -> u64 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }
}
