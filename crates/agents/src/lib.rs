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

pub mod budget;
pub mod context;
pub mod corroborate;
pub mod llm;
pub mod llm_call;
pub mod orchestrator;
pub mod ownership;
pub mod plugin;
pub mod region;
pub mod run;
pub mod session;
pub mod strategist;
pub mod triage;

pub use budget::{BudgetGranted, Caps, Counter, Exhausted, Reservation};
pub use context::{AgentCtx, Observation, PhenomenonDraft, TaskTally};
pub use orchestrator::{Orchestrator, Planner, RoundSummary, RunSummary};
pub use ownership::{CasePerson, OwnershipPlanner};
pub use plugin::{Detection, Plugin, Plugins, RECOGNISED};
pub use run::{ControlAction, RunControl, RunProjection, RunState, RunStateChanged};
pub use session::{
    ARTEFACT_UNPARSED, ArtefactUnparsed, Halt, RuntimeError, Session, SourceInfo, TRIAGE_FINISHED,
    TriageFinished,
};
pub use triage::{TriageReport, triage_all};
