//! Language models (issue 9): the OpenAI-compatible wire types ([`wire`]), the blocking client
//! with its retry policy ([`client`]) and the accounting of calls against the run budget
//! ([`usage`]); on them, the LLM knowledge-source agents ([`agent`]) and the LLM strategist
//! ([`strategist`]), their versioned prompts ([`prompts`], files in `prompts/`), the tools they
//! are offered ([`tools`], generated from the catalog and the graph's types) and evidence
//! passed as delimited data ([`evidence`]). The agents never see the key, the socket or the
//! retry loop: they see a [`ChatModel`] and call it through [`metered_chat`].
//!
//! The model proposes, code decides: every tool call goes through the same invoker (logged,
//! budgeted) and every write through the same gateway (grounded) as a deterministic agent's.

pub mod agent;
pub mod client;
pub mod evidence;
pub mod prompts;
pub mod strategist;
pub mod tools;
pub mod usage;
pub mod wire;

pub use agent::{Assignment, Focus, GENERALIST, LlmAgent, LlmTaskReport, Settings, TaskOutcome};
pub use client::{ChatModel, Jitter, LlmClient, LlmError, RetryPolicy};
pub use prompts::{Prompt, Provenance};
pub use strategist::{LLM_STRATEGIST, LlmStrategist, StrategistReport};
pub use usage::{
    Accounting, CallSite, LLM_CALL, LlmCall, MIN_COMPLETION_TOKENS, Prices,
    TEMPLATE_ALLOWANCE_TOKENS, Tally, UsageReport, calls_in_store, metered_chat,
    prompt_token_bound,
};
pub use wire::{
    ChatMessage, ChatRequest, ChatResponse, Role, ToolCall, ToolChoice, ToolSpec, Usage,
};

use std::collections::BTreeSet;
use std::sync::Arc;

use masf_tools::Catalog;

use crate::plugin::Plugins;

/// The LLM side of a run: one agent per plugin type, the generalist, and optionally the LLM
/// strategist, all on one model.
#[derive(Clone)]
pub struct LlmTeam {
    /// The agents (`llm-<plugin>` …, then [`GENERALIST`]).
    pub agents: Vec<LlmAgent>,
    /// The LLM strategist, when `strategist.kind: llm`.
    pub strategist: Option<LlmStrategist>,
}

impl LlmTeam {
    /// One agent per plugin (the standard catalog plus the plugin's tools, its expected
    /// artefacts as focus), the generalist (every tool), and the strategist if asked for.
    pub fn new(
        model: Arc<dyn ChatModel>,
        accounting: Arc<Accounting>,
        plugins: &Plugins,
        settings: Settings,
        llm_strategist: bool,
    ) -> Self {
        let standard: BTreeSet<String> = Catalog::standard()
            .names()
            .into_iter()
            .map(str::to_string)
            .collect();
        let mut agents: Vec<LlmAgent> = plugins
            .iter()
            .map(|p| {
                let mut tools = standard.clone();
                tools.extend(p.tools().iter().map(|t| t.name().to_string()));
                LlmAgent {
                    name: format!("llm-{}", p.name()),
                    focus: Some(Focus {
                        plugin: p.name().to_string(),
                        artefacts: p.expected_artefacts().into_iter().map(|a| a.name).collect(),
                        tools,
                    }),
                    model: model.clone(),
                    settings,
                    accounting: accounting.clone(),
                    round: 0,
                }
            })
            .collect();
        agents.push(LlmAgent {
            name: GENERALIST.to_string(),
            focus: None,
            model: model.clone(),
            settings,
            accounting: accounting.clone(),
            round: 0,
        });
        Self {
            agents,
            strategist: llm_strategist.then(|| LlmStrategist {
                model,
                turns: 8,
                max_output_bytes: settings.max_output_bytes,
                accounting,
            }),
        }
    }

    /// The agent of that name.
    pub fn agent(&self, name: &str) -> Option<&LlmAgent> {
        self.agents.iter().find(|a| a.name == name)
    }

    /// The agent for a source the plugin `plugin` fits (`None`: no plugin fits): the plugin's
    /// LLM agent, else the generalist.
    pub fn for_plugin(&self, plugin: Option<&str>) -> Option<&LlmAgent> {
        plugin
            .and_then(|p| self.agent(&format!("llm-{p}")))
            .or_else(|| self.agent(GENERALIST))
    }

    /// The agents' names.
    pub fn names(&self) -> Vec<String> {
        self.agents.iter().map(|a| a.name.clone()).collect()
    }
}
