//! The Grounded Evidence Graph (DESIGN §5–§8, §10): what agents found, what they conclude, and
//! the code that decides what may be recorded. Pure: no I/O, no clock, no randomness.
//!
//! # Bird's eye
//!
//! ```text
//!  agent ──request──► Gateway ──reads──► GraphState (folded)  +  InvocationLog (trait; the store)
//!                        │
//!                        ▼
//!                     Verdict::{Accepted{events, warnings}, Rejected{failing_facts, candidates, …}}
//!                        │  caller persists verdict.events() under their idempotency keys,
//!                        ▼  then applies them
//!                  GraphState::apply(&GraphEvent)      state = fold(events)
//!                        │
//!                        ▼
//!                  views: graph_overview, marginal_yield, source_coverage, budget_status
//! ```
//!
//! - [`model`]: phenomena (verified facts + interpretation), hypotheses with scored edges,
//!   entities with typed identifiers, leads, investigation rounds.
//! - [`events`]: [`GraphEvent`], the only kind of change, tagged by `kind` with stable names, each
//!   with a content-derived [`GraphEvent::idempotency_key`]. Rejections are events too.
//! - [`state`]: [`GraphState`] and its total, idempotent reducer.
//! - [`gateway`]: [`Gateway`], the only producer of events: `record_phenomenon`,
//!   `add_hypothesis`, `link`, `observe_identity`, `propose_lead`, `set_lead_status`,
//!   `start_round`, `complete_round`. Each returns a [`Verdict`], never an `Err`.
//! - [`grounding`]: the check that a fact's value occurs in an output of the same agent and task
//!   (verbatim with `memmem`, as a structured field, or after a recorded [`Normalisation`]), the
//!   rescue rule, and the [`InvocationLog`] trait; [`MemoryLog`] implements it in memory.
//! - [`lint`]: interpretation warnings for paths, times, hashes and identifiers no output backs.
//! - [`identifiers`]: the one place identifiers are normalised (E.164 phones, e-mail, wallets
//!   with EIP-55/Base58Check/Bech32, IMEI Luhn) and typed strong or weak.
//! - [`scoring`]: log-odds with harmonic decay per (hypothesis, edge type), independent of
//!   arrival order.
//! - [`tags`]: the examiner's tags, bookmarks and notes — their targets, events (not graph
//!   events), fold and the judgement of a request.
//! - [`views`]: the strategist's read-only views (`graph_overview`, `marginal_yield`,
//!   `source_coverage`, `budget_status`) and the hypothesis × evidence matrix.
//!
//! # Ids
//!
//! Ids are `ph-000001`, `hyp-000001`, `ent-000001`, `lead-000001` (from counters in the state,
//! so in recording order) and `round-N`. Ids are *not* what deduplicates: every event's
//! idempotency key comes from its content (a digest of the request, or the ids it joins), and
//! the gateway answers a repeated request with the existing id and no events. So a run killed
//! at any point and re-run on the folded state records nothing twice.
//!
//! # Invariants kept here
//!
//! - A fact is accepted only if its value occurs in an output of an invocation made by the same
//!   agent in the same task; rescue never looks outside that agent's task.
//! - A phenomenon is recorded whole or not at all.
//! - Confidence is computed from the table, never given; it does not depend on edge order.

#![warn(missing_docs)]

pub mod events;
pub mod gateway;
pub mod grounding;
pub mod identifiers;
pub mod lint;
mod memlog;
pub mod model;
pub mod resolution;
pub mod scoring;
pub mod state;
pub mod tags;
pub mod views;

pub use events::{GraphEvent, RejectCode, Rejection};
pub use gateway::{
    Call, CompleteRound, Gateway, IdentityObservation, LeadUpdate, LinkRequest, NewHypothesis,
    NewLead, NewPhenomenon, SameAsRequest, StartRound, Verdict,
};
pub use grounding::{Asker, FailingFact, InvocationLog, InvocationView, ground_fact, ground_facts};
pub use identifiers::{IdType, IdentifierError, Region, Strength};
pub use memlog::{MemoryInvocation, MemoryLog};
pub use model::{
    CitationProblem, ConfidenceLogEntry, Decision, Edge, Entity, EntityKind, Fact, FactClaim,
    FactType, Hypothesis, HypothesisKind, Identifier, InvestigationRound, Lead, LeadKey,
    LeadStatus, MatchInfo, MatchMethod, Normalisation, Phenomenon, Relation, RoundSnapshot, SameAs,
    SameAsDecision, SameAsState, StatusFlip, TimeEncoding, TimeMark, Warning, WarningKind,
};
pub use scoring::{EdgeType, Scoring, Status};
pub use state::{Applied, GraphState, same_as_id};
pub use views::{
    ArtefactStatus, BudgetCounter, BudgetStatus, Coverage, CoverageRecord, EvidenceMatrix,
    ExpectedArtefact, InvocationSummary, MarginalYield, Overview, artefact_coverage, budget_status,
    evidence_matrix, graph_overview, marginal_yield, source_coverage,
};
