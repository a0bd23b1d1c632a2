//! Language models (issue 9): the OpenAI-compatible wire types ([`wire`]), the blocking client
//! with its retry policy ([`client`]) and the accounting of calls against the run budget
//! ([`usage`]). The agents built on them never see the key, the socket or the retry loop: they
//! see a [`ChatModel`] and call it through [`metered_chat`].

pub mod client;
pub mod usage;
pub mod wire;

pub use client::{ChatModel, Jitter, LlmClient, LlmError, RetryPolicy};
pub use usage::{
    Accounting, CallSite, LLM_CALL, LlmCall, Prices, Tally, UsageReport, calls_in_store,
    metered_chat,
};
pub use wire::{
    ChatMessage, ChatRequest, ChatResponse, Role, ToolCall, ToolChoice, ToolSpec, Usage,
};
