//! The agent runtime (DESIGN §9–§10): a [`Session`] joins the case store, the tool catalog and
//! the folded graph so that agents can call tools (every call logged) and write the graph (only
//! through the gateway, every accepted or rejected request persisted as events). An
//! [`AgentCtx`] is one agent working one task on one source. Plugins are seen only through the
//! [`Plugin`] trait: this crate never names a device type or an artefact.
//!
//! # Data flow of one triage task
//!
//! ```text
//!  Plugin::triage(&AgentCtx)
//!     ├─ ctx.call(tool, args) ──► Invoker ──► tool on the source ──► invocation row (store)
//!     ├─ ctx.record(draft)    ──► Gateway (state + StoreLog) ──► Verdict
//!     │                              └─ events appended under their idempotency keys, then
//!     │                                 applied to the in-memory GraphState
//!     └─ ctx.unparsed(artefact, reason) ──► `ArtefactUnparsed` event ("could not parse X because Y")
//! ```
//!
//! # The session and the agent context
//!
//! - `Session` joins one case store (a dedicated connection for graph writes, a pool for tool
//!   calls so agents on several threads call tools at once), the `Invoker`, the sources (each
//!   scanned once, on first use) and the graph folded from the store's graph events.
//!   `Session::submit` is the one write path: the gateway judges the request on the current state
//!   and the logged invocations; the verdict's events are appended under their idempotency keys
//!   (`FoldCursor::key`) only if no graph event was appended since the seq the state was folded to
//!   (`append_batch_unless_newer`; otherwise the state catches up and the request is judged
//!   again, so another writer's records never share an id with this one's), and then applied.
//!   `Session::submit_with` adds provenance (an LLM's versions) and names the graph event an
//!   examiner decision was taken on.
//! - `AgentCtx` is one agent on one task and source: `call`, `record`, `observe`, `submit`,
//!   `unparsed`, and `artefact`, one artefact read under the per-artefact time limit
//!   `tools.artefact_timeout_s` (once it has passed, the artefact's next call fails with
//!   `RuntimeError::ArtefactTimeLimit`, the scope notes the artefact as not parsed and the triage
//!   goes on). It counts what it did (`TaskTally`).
//! - [`budget`] counts tool calls, rounds, wall-clock seconds and tokens against the caps (raised
//!   by `BudgetGranted` events; a killed run continues its count) and refuses a call at a cap.
//!   [`run`] folds the lifecycle (`RunState`, `RunControl` pause requests from other processes,
//!   grants, warnings). `Session::invoke` checks both before every call, so a halt (pause,
//!   budget) stops every agent at its next call.
//! - [`region`] reads back the `phone-region` phenomenon a plugin recorded, for every later
//!   agent, the timeline and `masf verify`.
//!
//! # Plugins and the phases
//!
//! - The `Plugin` trait (detect, tools, expected artefacts, categorise, triage, `follow_lead`) is
//!   how the core sees evidence types. `Plugins::choose` picks the best-fitting one by its
//!   `detect()` score; `Plugins::fitting` adds every other plugin that recognised the source's
//!   content (score ≥ `RECOGNISED`, 60: an iPhone tree on a USB stick that a generic plugin also takes);
//!   `Plugins::catalog` registers their tools.
//! - `triage_all` is phase 1: one task per source and fitting plugin (`triage/<source>`, then
//!   `triage/<source>/<plugin>`), one `TriageReport` each. It records `TriageFinished` when a
//!   plugin's triage ran to its end on a source (coverage then says "not present" of what the
//!   plugin did not read).
//! - `Orchestrator` runs the phases: triage, then the phase-2 `Planner`s (pure rule sets
//!   returning gateway calls, applied to a fixpoint: coreference and control in [`resolver`]
//!   over `masf_graph::resolution`, ownership in [`ownership`], `<person> is the user of <source>`), then the strategist loop.
//!   Each round the rule `strategist::decide` reads the four views (logged as invocations on the
//!   pseudo-source `(case)`) and proposes leads (corroboration of single-source hypotheses,
//!   unexamined expected artefacts, conflicting edges; deduplicated on the four-part key) or
//!   declares completion (two zero-yield rounds, the round cap, or nothing left to do). Leads are
//!   run by their target agent (`Plugin::follow_lead`, or the core corroborator,
//!   [`corroborate`], which searches a source for a hypothesis's identifiers with `search_text`
//!   and records what it finds without linking it); the planners re-judge; the round completes
//!   with its rationale. An open round left by a killed run is finished first, and plugin leads
//!   run in their own triage task, so a killed run, run again, gives the same report
//!   (`crates/cli/tests/it/resume.rs` kills `masf run` at three moments).
//!
//! The crate names no plugin and parses no format; `masf_api::compose` is the one place plugins
//! are composed in.
//!
//! # LLM agents ([`llm`], issue 9; docs/llm-agents.md)
//!
//! The model boundary:
//!
//! - `llm::wire`: OpenAI chat-completions types, flat in Rust and nested on the wire;
//!   `request_body`, `parse_completion`, usage estimated when a server reports none.
//! - `llm::client`: the `ChatModel` trait; `LlmClient`, blocking `reqwest` with rustls on the
//!   runtime's std threads (no async in the core). `LlmClient::from_config` returns `Ok(None)`
//!   for `provider: none` before anything is built. Per-request timeout, bounded retries with
//!   exponential back-off and seeded jitter (`RetryPolicy`, `Jitter`), `Retry-After` capped,
//!   `max_tokens` capped at `llm.max_tokens`. The key is read once through an env lookup, held
//!   only as a sensitive header value, redacted from `Debug` and from server error excerpts;
//!   errors are a typed `LlmError`.
//! - `llm::usage`: `metered_chat` checks the run, reserves the call's tokens under the cap
//!   (`prompt_token_bound`, one token per request byte plus a template allowance, and the
//!   completion granted, sent as a bounded `max_tokens`; refused, halting the run
//!   (`halted_budget`), when fewer than `MIN_COMPLETION_TOKENS` fit), calls, settles the
//!   reservation to the reported usage (charged to `Counter::Tokens`), persists an `LlmCall`
//!   event with model, prompt version and allowance, and adds to `Accounting` per agent and per
//!   round with a cost estimate from `llm.cost_per_mtok_*`. A call reported over its allowance is
//!   flagged and halts the run, so the cap is never passed. `Session::set_caps` restores the
//!   tokens of the current run from the `LlmCall` events. Its outer error halts the run; its inner
//!   error is the provider's failure, for the calling agent to turn into a failed task.
//!
//! On it, the LLM side of a run:
//!
//! - `llm::tools`: the evidence tools' specs generated from the catalog; the graph and workflow
//!   tools, their enumerations generated from the graph's types, their arguments parsed into
//!   gateway `Call`s.
//! - `llm::evidence`: outputs wrapped by `delimit` in `<<<EVIDENCE …>>>` markers whose nonce is
//!   the hash of the shown text, in `tool` messages only.
//! - `llm::prompts`: the versioned files of `prompts/`, version = stem + SHA-256 prefix;
//!   `Provenance` is `versions.model` and `versions.prompt`, on every event an LLM caused.
//! - `llm::agent`: `LlmAgent::run`, INVESTIGATE → RECORD → LINK → ANSWER, each phase offering only
//!   its tools; a mandatory record; the narrowed retry after a rejection or an exhausted
//!   INVESTIGATE; verdicts returned with failing facts and the agent's real invocation ids; a
//!   provider failure is `TaskOutcome::Failed`; an `LlmTaskFinished` event closes every task.
//! - `llm::strategist`: `LlmStrategist::decide`, the four views as logged read-only tools,
//!   `propose_lead` / `declare_investigation_complete` checked in code (known agent and source,
//!   existing hypothesis, the four-part dedup key, `max_leads`).
//! - `LlmTeam`: one agent per plugin, the generalist, the strategist.
//!
//! The `Orchestrator`'s `llm` field makes a run mixed: after triage and planning, the LLM agents
//! take the unparsed artefacts and the sources no plugin fits; each round the LLM strategist is
//! asked unless a hard stop applies, the rules deciding when it does not.
//!
//! # Invariants kept here
//!
//! - Agents write the graph only through the gateway: `Session::submit` is the only place their
//!   requests reach the graph. A re-run served from the cache records nothing twice: a
//!   phenomenon's digest leaves out the invocation ids its facts cite (`tests/it` re-runs triage
//!   on the same store).
//! - No id names two records: `Session::submit_with` appends through
//!   `Store::append_batch_unless_newer` and re-judges after catching up (`tests/it`, two sessions
//!   on one store).
//! - Budgets are enforced by the runtime, not by prompts: `Session::invoke` charges
//!   `budget::Budget` before every tool call (`tests/it` halts at a cap and resumes after a
//!   grant); model tokens through `metered_chat` (`tests/it/llm_usage.rs`).
//! - `llm.provider: none` opens no connection (`crates/cli/tests/it/llm_offline.rs` runs the
//!   whole demo with `base_url` at a live loopback server and counts zero connections).
//! - The API key is read from the environment only and never logged, stored or shown
//!   (`tests/it/llm_client.rs` captures every TRACE log line and every error of a run against a
//!   key-echoing server).
//! - A model's facts enter the graph only through the gateway, grounded in its own invocations of
//!   its task: `llm::agent` submits every record through `Session::submit_with`, and the phase's
//!   tool set is fixed in code (`tests/it/llm.rs` lands zero of 12,000 adversarial facts
//!   ungrounded and survives an evidence file with instructions and fake tool calls).
//! - Evidence reaches a model only as delimited data (`llm::evidence::delimit`; the injection test
//!   checks a fake end marker stays inside the block).
//! - Every event an LLM caused names its model and prompt version: `Session::submit_with` adds
//!   `llm::Provenance::versions` to the batch; `LlmCall`, `LlmTaskFinished` and the agent's
//!   invocations (`Invoker::invoke_with`) carry them; the report shows them per phenomenon
//!   (`crates/cli/tests/it/llm_mixed.rs`).

pub mod budget;
pub mod context;
pub mod corroborate;
pub mod llm;
pub mod llm_call;
pub mod orchestrator;
pub mod ownership;
pub mod plugin;
pub mod region;
pub mod resolver;
pub mod run;
pub mod session;
pub mod strategist;
pub mod triage;

pub use budget::{BudgetGranted, Caps, Counter, Exhausted, Reservation};
pub use context::{AgentCtx, Observation, PhenomenonDraft, TaskTally};
pub use orchestrator::{Orchestrator, Planner, RoundSummary, RunSummary};
pub use ownership::{CasePerson, OwnershipPlanner};
pub use plugin::{Detection, DeviceType, Plugin, Plugins, RECOGNISED, Typing};
pub use resolver::{ResolveReport, ResolverPlanner};
pub use run::{ControlAction, RunControl, RunProjection, RunState, RunStateChanged};
pub use session::{
    ARTEFACT_UNPARSED, ArtefactUnparsed, Halt, RuntimeError, Session, SourceInfo, TRIAGE_FINISHED,
    TriageFinished,
};
pub use triage::{TriageReport, triage_all};
