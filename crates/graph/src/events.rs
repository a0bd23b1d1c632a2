//! Graph events: every change of the graph is one of these (DESIGN §1.6, §11).
//!
//! Events are serialised as JSON objects tagged by `kind` (`{"kind": "EdgeLinked", …}`); the
//! kind names are stable and are also what the store's `kind` column holds. Each event has an
//! [`GraphEvent::idempotency_key`] that is derived from its *content* (never from a counter),
//! so a run killed after persisting an event and re-run does not record it twice: the gateway
//! finds the content already in the folded state and answers without events, and the store
//! refuses a second event under the same key.
//!
//! Events carry no derived numbers: ranks, contributions, log-odds, confidence and round deltas
//! are computed by the reducer, so a fold gives the same state whatever the scoring history.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::grounding::FailingFact;
use crate::identifiers::IdType;
use crate::model::{
    EntityKind, HypothesisKind, Identifier, Lead, LeadStatus, Phenomenon, RoundSnapshot,
};
use crate::scoring::EdgeType;

/// One change of the graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum GraphEvent {
    /// A phenomenon whose every fact is grounded.
    PhenomenonRecorded {
        /// Digest of the request (agent, task, source, category, title, claims,
        /// interpretation): a repeated request is the same phenomenon.
        digest: String,
        /// The phenomenon, with its verified facts.
        phenomenon: Phenomenon,
    },
    /// A phenomenon (or identity observation) refused by grounding; nothing else was written.
    PhenomenonRejected {
        /// Digest of the refused request.
        digest: String,
        /// What was refused and why.
        rejection: Rejection,
    },
    /// Any other refused gateway request (unknown ids, invalid identifiers, round order, …).
    RequestRejected {
        /// Digest of the refused request.
        digest: String,
        /// What was refused and why.
        rejection: Rejection,
    },
    /// A new hypothesis.
    HypothesisAdded {
        /// Digest of (kind, statement with white space collapsed).
        digest: String,
        /// `hyp-000001`, …
        id: String,
        /// What is claimed.
        statement: String,
        /// What it is about.
        hypothesis_kind: HypothesisKind,
        /// The ids it is about (a coreference hypothesis: its two entities).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        subjects: Vec<String>,
        /// Who proposed it.
        proposed_by: String,
        /// Its prior probability.
        prior: f64,
    },
    /// A phenomenon → hypothesis edge.
    EdgeLinked {
        /// The hypothesis.
        hypothesis_id: String,
        /// The phenomenon.
        phenomenon_id: String,
        /// The edge type.
        edge_type: EdgeType,
        /// Who linked it.
        linked_by: String,
    },
    /// A typed identifier observed for the tentative entity of (source, context); the entity is
    /// created by its first observation.
    IdentityObserved {
        /// Digest of (source, context, identifier type, normalised value).
        digest: String,
        /// The entity (`ent-000001`, …).
        entity_id: String,
        /// What the entity is.
        entity_kind: EntityKind,
        /// The entity's label, as given by the first observation.
        label: String,
        /// The source.
        source_id: String,
        /// The agent's context that scopes the entity.
        context: String,
        /// The identifier, grounded by its phenomenon.
        identifier: Identifier,
    },
    /// The examiner pinned a `same_as` edge live (DESIGN §8).
    SameAsApproved {
        /// The edge (`sa-000003-000007`).
        edge_id: String,
        /// The decision's number among the edge's decisions, from 1 (its key).
        number: u32,
        /// The examiner.
        by: String,
        /// When, as given by the caller (RFC 3339).
        at: String,
        /// Why.
        reason: String,
    },
    /// The examiner vetoed a `same_as` edge (DESIGN §8); a later approval undoes it.
    SameAsRetracted {
        /// The edge (`sa-000003-000007`).
        edge_id: String,
        /// The decision's number among the edge's decisions, from 1 (its key).
        number: u32,
        /// The examiner.
        by: String,
        /// When, as given by the caller (RFC 3339).
        at: String,
        /// Why (required).
        reason: String,
    },
    /// A new lead.
    LeadProposed {
        /// Digest of (motivating hypothesis, expected evidence type, target agent, source).
        digest: String,
        /// The lead.
        lead: Lead,
    },
    /// A lead moved on.
    LeadStatusChanged {
        /// The lead.
        lead_id: String,
        /// Its new status.
        status: LeadStatus,
        /// Who moved it.
        by: String,
        /// Why, or what came of it.
        note: String,
    },
    /// A strategist round started.
    RoundStarted {
        /// Its number.
        number: u32,
        /// Who started it.
        started_by: String,
        /// The graph at its start.
        before: RoundSnapshot,
    },
    /// A strategist round completed.
    RoundCompleted {
        /// Its number.
        number: u32,
        /// Who completed it.
        completed_by: String,
        /// The strategist's decision rationale.
        rationale: String,
        /// The graph at its end.
        after: RoundSnapshot,
    },
}

/// A refused gateway request, as the audit shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rejection {
    /// The gateway call (`record_phenomenon`, `link`, …).
    pub call: String,
    /// The agent (or examiner, or system part) that asked.
    pub by: String,
    /// The task it asked in, when the call has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// Why, as a code.
    pub code: RejectCode,
    /// Why, in words meant for the agent (it says which ids to cite instead).
    pub reason: String,
    /// The facts that could not be grounded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failing_facts: Vec<FailingFact>,
    /// The agent's recent real invocation ids in the task.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recent_invocations: Vec<String>,
    /// The refused request.
    pub request: Value,
}

/// Why a gateway request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectCode {
    /// At least one fact is not grounded in an invocation of this agent and task.
    GroundingFailed,
    /// A required field is empty or a value is out of range.
    InvalidRequest,
    /// An identifier does not normalise (bad phone, failed checksum, …).
    InvalidIdentifier,
    /// No phenomenon has the given id.
    UnknownPhenomenon,
    /// No hypothesis has the given id.
    UnknownHypothesis,
    /// No lead has the given id.
    UnknownLead,
    /// No `same_as` edge has the given id.
    UnknownEdge,
    /// The edge type has no weight in the scoring table.
    UnknownEdgeType,
    /// The request contradicts what is recorded (the pair is already linked with another edge
    /// type; the context already holds an entity of another kind).
    Conflict,
    /// Rounds start in sequence, one at a time, and complete after they start.
    RoundSequence,
    /// The lead cannot move to that status from where it is.
    InvalidTransition,
}

impl GraphEvent {
    /// The stable kind name (the `kind` tag), e.g. `PhenomenonRecorded`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::PhenomenonRecorded { .. } => "PhenomenonRecorded",
            Self::PhenomenonRejected { .. } => "PhenomenonRejected",
            Self::RequestRejected { .. } => "RequestRejected",
            Self::HypothesisAdded { .. } => "HypothesisAdded",
            Self::EdgeLinked { .. } => "EdgeLinked",
            Self::IdentityObserved { .. } => "IdentityObserved",
            Self::SameAsApproved { .. } => "SameAsApproved",
            Self::SameAsRetracted { .. } => "SameAsRetracted",
            Self::LeadProposed { .. } => "LeadProposed",
            Self::LeadStatusChanged { .. } => "LeadStatusChanged",
            Self::RoundStarted { .. } => "RoundStarted",
            Self::RoundCompleted { .. } => "RoundCompleted",
        }
    }

    /// Every kind name.
    pub const KINDS: [&'static str; 12] = [
        "PhenomenonRecorded",
        "PhenomenonRejected",
        "RequestRejected",
        "HypothesisAdded",
        "EdgeLinked",
        "IdentityObserved",
        "LeadProposed",
        "LeadStatusChanged",
        "RoundStarted",
        "RoundCompleted",
        "SameAsApproved",
        "SameAsRetracted",
    ];

    /// The key the store deduplicates on, derived from the event's content (`graph/…`).
    pub fn idempotency_key(&self) -> String {
        match self {
            Self::PhenomenonRecorded { digest, .. } => format!("graph/phenomenon/{digest}"),
            Self::PhenomenonRejected { digest, .. } => {
                format!("graph/phenomenon-rejected/{digest}")
            }
            Self::RequestRejected { digest, .. } => format!("graph/request-rejected/{digest}"),
            Self::HypothesisAdded { digest, .. } => format!("graph/hypothesis/{digest}"),
            Self::EdgeLinked {
                hypothesis_id,
                phenomenon_id,
                ..
            } => format!("graph/edge/{hypothesis_id}/{phenomenon_id}"),
            Self::IdentityObserved { digest, .. } => format!("graph/identity/{digest}"),
            Self::SameAsApproved {
                edge_id, number, ..
            }
            | Self::SameAsRetracted {
                edge_id, number, ..
            } => format!("graph/same-as/{edge_id}/{number}"),
            Self::LeadProposed { digest, .. } => format!("graph/lead/{digest}"),
            Self::LeadStatusChanged {
                lead_id, status, ..
            } => {
                format!("graph/lead-status/{lead_id}/{}", status.as_str())
            }
            Self::RoundStarted { number, .. } => format!("graph/round-started/{number}"),
            Self::RoundCompleted { number, .. } => format!("graph/round-completed/{number}"),
        }
    }

    /// The event as the JSON payload the store keeps (with its `kind` tag).
    pub fn to_payload(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Reads an event back from a stored payload.
    pub fn from_payload(payload: &Value) -> Result<Self, serde_json::Error> {
        Self::deserialize(payload)
    }
}

/// The first 128 bits of the SHA-256 of `value`'s JSON text, in hex. Object keys keep their
/// insertion order, so callers build `value` with a fixed field order.
pub(crate) fn digest(value: &Value) -> String {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    let hash = Sha256::digest(&bytes);
    hex::encode(hash.get(..16).unwrap_or_default())
}

/// Digest of an identity observation: (source, context, type, normalised value).
pub(crate) fn identity_digest(
    source_id: &str,
    context: &str,
    id_type: IdType,
    normalized: &str,
) -> String {
    digest(&serde_json::json!([
        "identity",
        source_id,
        context,
        id_type.as_str(),
        normalized
    ]))
}
