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
//! # Module details
//!
//! - [`grounding`]: a fact's value must occur in an output of an invocation of the same agent and
//!   task, read through the `InvocationLog` trait the store side implements
//!   (`masf_tools::StoreLog`); each cited output is read once per judgement through `ReadOnce`,
//!   however many facts cite it. `ground_fact` is the check. Look-alike repair of OCR-misread
//!   wallet addresses is a recorded normalisation that must pass the address checksum.
//! - [`identifiers`]: E.164 phones through libphonenumber's metadata (the `phonenumber` crate)
//!   with the source's [`Region`] (ISO 3166-1 alpha-2; from an IMSI's MCC, an ICCID, an
//!   international number or a locale), WhatsApp JIDs and LIDs, e-mail,
//!   EIP-55/Base58Check/Bech32 wallets, IMEI Luhn, address-book GUIDs. `identifiers::placeholder`
//!   names the documented sentinels (`local`, all-zero IMEIs, emulator ids, default device names,
//!   …) that are never strong and join nothing.
//! - [`views`]: besides the strategist's four views, `artefact_coverage`, the table of the
//!   report and `masf coverage`: each catalogue artefact parsed / could not parse / read with
//!   nothing recorded / not present (only once a `TriageFinished` event says the plugin's triage
//!   ran to its end) / not examined, from invocations, the phenomena citing them and
//!   `ArtefactUnparsed` notes.
//! - [`resolution`]: entity resolution (DESIGN §8; docs/entity-resolution.md). The one table of
//!   identifier strength and single-valuedness (placeholders and demoted device values, such as a
//!   serial or IMEI owned by three unrelated sources' devices, have no key); name keys and
//!   Jaro–Winkler similarity; blocking through an inverted index (never all pairs); pair
//!   evidence. A *contact claim* (a phone, e-mail or app account id its writer named as their
//!   own, `Identifier::is_claim`) is one `direct_evidence` edge from the claim, kept apart from
//!   the same value held as the entity's own; claims on a value that rivals (a device's owner and
//!   a person of that device) both make compete by weight (`resolution/claims.rs`,
//!   `resolution::Contest`). Then the planner `plan(&GraphState) -> Vec<Call>`, `links`,
//!   `explain` (`masf links --why`), `actors` (union-find over live and approved `same_as` edges;
//!   documents and screenshots that mention several actors join none; a wallet joins the one
//!   actor that controls it, none when two do, listed as `contested`) and `actor_scope`, the one
//!   rule by which `masf timeline --actor` and the desktop Timeline filter an actor.
//! - `resolution::control`: wallet addresses held by person entities are claims, never
//!   coreference keys (`resolution::Prepared`). A `named:`/`author:` entity's claim goes to the
//!   one actor known by its name, a document mention's to the one actor it is attached to;
//!   control hypotheses (`<wallet> is controlled by <person>`) are scored against competing
//!   claims.
//! - `same_as` edges (relation `coreference` or `control`) are derived by the reducer from
//!   coreference and control hypotheses and from the examiner's `SameAsApproved` /
//!   `SameAsRetracted` events.
//! - [`tags`] (issue 21): `Target` (phenomenon, fact, entity, actor, timeline entry, file, search
//!   hit; a JSON object tagged by `kind`; text forms `ph-000012`, `ph-000012#fact2`,
//!   `ph-000012#time1`, `ent-…`, `actor-…`, `SOURCE[#LAYER]:/path`, `inv-000014#hit3`, the third
//!   hit line of a logged `search_index` call). `MarkEvent` has six kinds
//!   (`Tagged`/`Untagged`, `Bookmarked`/`Unbookmarked`, `NoteAdded`/`NoteWithdrawn`) and is not a
//!   graph event, so a rebuild leaves marks in effect; each is numbered among its target's events,
//!   keyed `examiner/…`, and carries a description of the target as it was. `Marks` is their fold,
//!   folded apart from the graph. `judge` decides what a request writes: a target that does not
//!   exist is refused naming the id and what exists; files and search hits are checked through
//!   the `FileCheck` trait the caller implements (`masf_tools::marks::SourceFiles` opens the
//!   source, and reads the search's logged output from the store); free-text tags keep the
//!   spelling first used, the four defaults first.
//!
//! # From the graph to actors, leads and the report
//!
//! ```text
//!  GraphState ──resolution::plan──► coreference hypotheses ──reducer──► same_as edges
//!       │      (then control hypotheses: "<wallet> is controlled by <person>" ─► relation control)
//!       │                                  (examiner: SameAsApproved / SameAsRetracted)
//!       │                                             └─► actors (union of live edges)
//!       ├─ examiner marks (tags::judge ─► masf_tools::marks::write; folded apart from the graph)
//!       │      ─► masf tags, timeline --tag, the report's "Tagged items" and --tagged-only
//!       ├─ ownership planner (masf-agents) ─► "<person> is the user of <source>" hypotheses
//!       ├─ strategist::decide(views) (masf-agents) ─► leads ─► corroborator, follow_lead ─► rounds
//!       └─ masf_report::timeline::build ─► Timeline;  masf_report::build ─► report.json/.html/.md
//! ```
//!
//! The gateway's conformance suite is data: `crates/graph/tests/conformance/*.json`, run by
//! `crates/graph/tests/it/conformance.rs`.
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
//! - Confidence is computed from the table, never given; it does not depend on edge order
//!   (`scoring::score`; property test `log_odds_do_not_depend_on_edge_order`).
//! - Only the gateway changes the graph: [`Gateway`] is the only producer of [`GraphEvent`]s, and
//!   every fact passes `grounding::ground_fact` (conformance suite in
//!   `crates/graph/tests/conformance/`).
//! - A re-run never records a change twice: the content-derived `GraphEvent::idempotency_key`,
//!   and the gateway answers repeats without events (kill-and-rerun test in
//!   `crates/graph/tests/it/persist.rs`).
//! - A forwarded "my number is …" never joins two people: `resolution::Contest` makes claims on a
//!   value that rivals both make compete by weight (test
//!   `a_forwarded_my_number_is_a_rival_claim_that_joins_no_two_people`; on real bytes, the
//!   plugins' `contact_claims` tests).
//! - A wallet never joins two people: `resolution::Prepared` gives a wallet held by a person no
//!   coreference key, and `actors` joins neither of two actors that control one wallet, listing
//!   it as `contested` (`crates/graph/tests/it/resolution.rs`).
//! - Actors are never merged by a similar name alone: with the coreference prior and weights of
//!   [`resolution`], a name alone stays at 0.65, below the 0.8 threshold (the demo test
//!   `crates/cli/tests/it/demo_case.rs` keeps the decoy a candidate).
//! - A mark on something that does not exist is refused, naming it: `tags::judge`
//!   (`crates/graph/tests/it/tags.rs`, `crates/cli/tests/it/tags.rs`).

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
pub use grounding::{
    Asker, FailingFact, InvocationLog, InvocationView, Occurrences, ground_fact, ground_facts,
    occurrences,
};
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
