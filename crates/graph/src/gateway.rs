//! The write gateway: the only way to change the graph (DESIGN §6).
//!
//! Each method checks a request against the current state and the invocation log and returns a
//! [`Verdict`] — a value, never an `Err`. An accepted verdict carries the events to persist; the
//! caller persists them (the store, under their idempotency keys) and then applies them to the
//! state. A rejected verdict carries one rejection event, so the audit shows what was refused.
//! Callers serialise gateway calls with their apply (one writer), so ids assigned from the
//! state's counters are unique.
//!
//! Repeating a request that was already accepted is answered with the existing id, no events
//! and a [`WarningKind::Duplicate`] warning: re-running a killed run never duplicates anything.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::events::{GraphEvent, RejectCode, Rejection, digest, identity_digest};
use crate::grounding::{
    Asker, FailingFact, InvocationLog, ReadOnce, ground_facts, recent_invocations,
};
use crate::identifiers::{self, IdType, Region, collapse_whitespace};
use crate::lint::lint_interpretation;
use crate::model::{
    Decision, EntityKind, FactClaim, FactType, HypothesisKind, Identifier, Lead, LeadStatus,
    Phenomenon, TimeMark, Warning, WarningKind,
};
use crate::scoring::EdgeType;
use crate::state::GraphState;

/// The gateway's answer to a request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// The request is accepted.
    Accepted {
        /// The id of what was created or found: a phenomenon, hypothesis, entity or lead id;
        /// for `link` the hypothesis id; for rounds `round-N`.
        id: String,
        /// The events to persist, then apply (none when the request repeats an earlier one).
        events: Vec<GraphEvent>,
        /// Warnings for the agent and the examiner (lint, rescue, duplicate).
        warnings: Vec<Warning>,
    },
    /// The request is refused; nothing but the rejection event is written.
    Rejected {
        /// Why, as a code.
        code: RejectCode,
        /// Why, in words meant for the agent.
        reason: String,
        /// The facts that could not be grounded (grounding rejections).
        failing_facts: Vec<FailingFact>,
        /// Ids of invocations that contain a failing value when several do (cite one).
        candidates: Vec<String>,
        /// The agent's recent real invocation ids in its task.
        recent_invocations: Vec<String>,
        /// The rejection event to persist.
        events: Vec<GraphEvent>,
    },
}

impl Verdict {
    /// The events to persist, then apply.
    pub fn events(&self) -> &[GraphEvent] {
        match self {
            Self::Accepted { events, .. } | Self::Rejected { events, .. } => events,
        }
    }

    /// True for [`Verdict::Accepted`].
    pub fn is_accepted(&self) -> bool {
        matches!(self, Self::Accepted { .. })
    }

    /// The accepted id, if accepted.
    pub fn id(&self) -> Option<&str> {
        match self {
            Self::Accepted { id, .. } => Some(id),
            Self::Rejected { .. } => None,
        }
    }
}

/// A request to record a phenomenon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewPhenomenon {
    /// The source it was found in.
    pub source_id: String,
    /// The recording agent.
    pub agent: String,
    /// The agent's task.
    pub task_id: String,
    /// The artefact category.
    pub category: String,
    /// A one-line title.
    pub title: String,
    /// The facts to verify.
    pub facts: Vec<FactClaim>,
    /// The agent's analysis (linted, never verified).
    #[serde(default)]
    pub interpretation: String,
    /// How to read local phone numbers (the source's region default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone_region: Option<Region>,
    /// Which timestamp facts are times of events, with their encoding (for the timeline).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub times: Vec<TimeMark>,
}

/// Why the request's time marks are invalid, if they are: each must point at a timestamp fact
/// and say what happened; a fact is marked at most once.
fn time_mark_problem(req: &NewPhenomenon) -> Option<String> {
    let mut seen = std::collections::BTreeSet::new();
    for (i, mark) in req.times.iter().enumerate() {
        let Some(fact) = req.facts.get(mark.fact) else {
            return Some(format!(
                "times[{i}] points at fact {} but the phenomenon has {} facts",
                mark.fact,
                req.facts.len()
            ));
        };
        if fact.fact_type != FactType::Timestamp {
            return Some(format!(
                "times[{i}] points at fact {} which is a {} fact, not a timestamp",
                mark.fact,
                fact.fact_type.as_str()
            ));
        }
        if mark.description.trim().is_empty() {
            return Some(format!("times[{i}] needs a description of what happened"));
        }
        if !seen.insert(mark.fact) {
            return Some(format!("times[{i}] marks fact {} a second time", mark.fact));
        }
    }
    None
}

/// A request to add a hypothesis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewHypothesis {
    /// Who proposes it.
    pub proposed_by: String,
    /// What is claimed.
    pub statement: String,
    /// What it is about.
    pub kind: HypothesisKind,
    /// Prior probability in (0, 1); the scoring's prior for the kind when absent
    /// ([`crate::Scoring::prior_for`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<f64>,
    /// The entity ids it is about, if it names them (a coreference hypothesis names its two
    /// entities); each must exist. Not part of the duplicate check: the statement is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<String>,
}

/// An examiner's decision on a `same_as` edge (approve or retract).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SameAsRequest {
    /// The edge (`sa-000003-000007`).
    pub edge_id: String,
    /// The examiner.
    pub examiner: String,
    /// When, as the caller's clock says (RFC 3339).
    pub at: String,
    /// Why (required).
    pub reason: String,
}

/// A request to link a phenomenon to a hypothesis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkRequest {
    /// Who links.
    pub agent: String,
    /// The agent's task, if it has one (for the recent invocations in a rejection).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// The phenomenon.
    pub phenomenon_id: String,
    /// The hypothesis.
    pub hypothesis_id: String,
    /// The edge type.
    pub edge_type: EdgeType,
}

/// A request to observe an identifier of the tentative entity of (source, context).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdentityObservation {
    /// The observing agent.
    pub agent: String,
    /// Its task.
    pub task_id: String,
    /// The source.
    pub source_id: String,
    /// The agent's context that scopes the entity (`device-owner`, `contact:12`, …).
    pub context: String,
    /// What the entity is.
    pub entity_kind: EntityKind,
    /// A label for a new entity.
    #[serde(default)]
    pub label: String,
    /// The identifier's type.
    pub id_type: IdType,
    /// The identifier as read.
    pub value: String,
    /// The invocation whose output contains it.
    pub invocation_id: String,
    /// How to read local phone numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone_region: Option<Region>,
    /// The agent's note on the observation (linted like an interpretation).
    #[serde(default)]
    pub interpretation: String,
    /// For a wallet held by a person (a control claim): the word before the address in the
    /// text that named this person its holder (`my`, `sent`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cue: Option<String>,
}

/// A request to propose a lead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewLead {
    /// Who proposes it.
    pub proposed_by: String,
    /// The hypothesis it serves, if any.
    #[serde(default)]
    pub motivating_hypothesis: Option<String>,
    /// The edge type its worker should produce.
    pub expected_evidence_type: EdgeType,
    /// The agent meant to run it.
    pub target_agent: String,
    /// The source it is about.
    pub source_id: String,
    /// Its round; the open round (or 0) when absent.
    #[serde(default)]
    pub round_number: Option<u32>,
    /// Why.
    #[serde(default)]
    pub rationale: String,
}

impl NewLead {
    /// Its deduplication key (the same four parts as [`crate::model::Lead::key`]).
    pub fn key(&self) -> crate::model::LeadKey {
        (
            self.motivating_hypothesis.clone(),
            self.expected_evidence_type,
            self.target_agent.clone(),
            self.source_id.clone(),
        )
    }
}

/// A request to move a lead to another status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeadUpdate {
    /// Who moves it.
    pub by: String,
    /// The lead.
    pub lead_id: String,
    /// The new status.
    pub status: LeadStatus,
    /// Why, or what came of it.
    #[serde(default)]
    pub note: String,
}

/// A request to start round `number`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartRound {
    /// Who starts it.
    pub by: String,
    /// The round number: one past the last round.
    pub number: u32,
}

/// A request to complete round `number`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompleteRound {
    /// Who completes it.
    pub by: String,
    /// The open round's number.
    pub number: u32,
    /// The strategist's decision rationale.
    #[serde(default)]
    pub rationale: String,
}

/// Any gateway request, for dispatch from data (`{"call": "link", "args": {…}}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "call", content = "args", rename_all = "snake_case")]
pub enum Call {
    /// [`Gateway::record_phenomenon`].
    RecordPhenomenon(NewPhenomenon),
    /// [`Gateway::add_hypothesis`].
    AddHypothesis(NewHypothesis),
    /// [`Gateway::link`].
    Link(LinkRequest),
    /// [`Gateway::observe_identity`].
    ObserveIdentity(IdentityObservation),
    /// [`Gateway::approve_same_as`].
    ApproveSameAs(SameAsRequest),
    /// [`Gateway::retract_same_as`].
    RetractSameAs(SameAsRequest),
    /// [`Gateway::propose_lead`].
    ProposeLead(NewLead),
    /// [`Gateway::set_lead_status`].
    SetLeadStatus(LeadUpdate),
    /// [`Gateway::start_round`].
    StartRound(StartRound),
    /// [`Gateway::complete_round`].
    CompleteRound(CompleteRound),
}

impl Call {
    /// This call with its decision time set to `at`, for the examiner's decisions (the others
    /// carry no time of their own): a session dates a decision when it writes it, on the graph
    /// it decides on, so that the decision can never read as older than that graph.
    pub fn dated(&self, at: &str) -> Option<Call> {
        match self {
            Call::ApproveSameAs(r) => Some(Call::ApproveSameAs(SameAsRequest {
                at: at.to_owned(),
                ..r.clone()
            })),
            Call::RetractSameAs(r) => Some(Call::RetractSameAs(SameAsRequest {
                at: at.to_owned(),
                ..r.clone()
            })),
            _ => None,
        }
    }
}

/// The write gateway over a state and an invocation log. It only reads both: the verdict's
/// events are the change.
pub struct Gateway<'a, L: InvocationLog + ?Sized> {
    state: &'a GraphState,
    log: &'a L,
}

impl<L: InvocationLog + ?Sized> Clone for Gateway<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: InvocationLog + ?Sized> Copy for Gateway<'_, L> {}

impl<'a, L: InvocationLog + ?Sized> Gateway<'a, L> {
    /// A gateway deciding against `state` and `log`.
    pub fn new(state: &'a GraphState, log: &'a L) -> Self {
        Self { state, log }
    }

    /// Dispatches a [`Call`].
    pub fn handle(&self, call: &Call) -> Verdict {
        match call {
            Call::RecordPhenomenon(r) => self.record_phenomenon(r),
            Call::AddHypothesis(r) => self.add_hypothesis(r),
            Call::Link(r) => self.link(r),
            Call::ObserveIdentity(r) => self.observe_identity(r),
            Call::ApproveSameAs(r) => self.decide_same_as(r, Decision::Approve),
            Call::RetractSameAs(r) => self.decide_same_as(r, Decision::Retract),
            Call::ProposeLead(r) => self.propose_lead(r),
            Call::SetLeadStatus(r) => self.set_lead_status(r),
            Call::StartRound(r) => self.start_round(r),
            Call::CompleteRound(r) => self.complete_round(r),
        }
    }

    /// Records a phenomenon if every fact is grounded (DESIGN §6): each fact must cite an
    /// invocation of this agent in this task whose output contains the value (verbatim, as a
    /// structured field, or after a recorded normalisation), or be rescued to the agent's only
    /// such invocation. Any failing fact rejects the whole phenomenon, listing the failing
    /// facts, the candidates and the agent's recent invocations. The interpretation is linted:
    /// uncovered paths, times, hashes and identifiers become warnings.
    pub fn record_phenomenon(&self, req: &NewPhenomenon) -> Verdict {
        let call = "record_phenomenon";
        let request = to_value(req);
        let missing = missing_fields(&[
            ("source_id", &req.source_id),
            ("agent", &req.agent),
            ("task_id", &req.task_id),
            ("category", &req.category),
            ("title", &req.title),
        ]);
        if let Some(reason) = missing {
            return self.refuse(
                call,
                &req.agent,
                Some(&req.task_id),
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        if req.facts.is_empty() {
            let reason = "a phenomenon needs at least one verified fact".to_owned();
            return self.refuse(
                call,
                &req.agent,
                Some(&req.task_id),
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        if let Some(reason) = time_mark_problem(req) {
            return self.refuse(
                call,
                &req.agent,
                Some(&req.task_id),
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        let mut draft_parts = json!([
            "phenomenon",
            req.agent,
            req.task_id,
            req.source_id,
            req.category,
            req.title,
            // Facts without their citations: a re-run cites the cached twin of the call it
            // made the first time, and the same finding must still be a duplicate.
            req.facts
                .iter()
                .map(|f| json!([f.fact_type, f.value]))
                .collect::<Vec<_>>(),
            req.interpretation,
        ]);
        // Time marks join the digest only when present, so digests of phenomena without times
        // are the same as before marks existed.
        if !req.times.is_empty()
            && let Some(parts) = draft_parts.as_array_mut()
        {
            parts.push(json!(req.times));
        }
        let draft = digest(&draft_parts);
        if let Some(id) = self.state.phenomenon_by_digest(&draft) {
            return duplicate(id, "this phenomenon was already recorded");
        }
        let asker = Asker {
            agent: &req.agent,
            task_id: &req.task_id,
            region: req.phone_region.as_ref(),
        };
        // Each cited output is read once for the grounding, the warnings and the lint.
        let log = ReadOnce::new(self.log, req.facts.iter().map(|f| f.invocation_id.as_str()));
        let facts = match ground_facts(&log, &asker, &req.facts) {
            Ok(facts) => facts,
            Err(failing) => return self.grounding_rejection(call, &asker, draft, failing, request),
        };
        let mut warnings = rescue_warnings(&facts);
        warnings.extend(source_warnings(&log, &facts, &req.source_id));
        warnings.extend(lint_interpretation(
            &log,
            &req.interpretation,
            &facts,
            asker.region,
        ));
        let id = self.state.next_phenomenon_id();
        let phenomenon = Phenomenon {
            id: id.clone(),
            source_id: req.source_id.clone(),
            agent: req.agent.clone(),
            task_id: req.task_id.clone(),
            category: req.category.clone(),
            title: req.title.clone(),
            verified_facts: facts,
            interpretation: req.interpretation.clone(),
            warnings: warnings.clone(),
            times: req.times.clone(),
        };
        Verdict::Accepted {
            id,
            events: vec![GraphEvent::PhenomenonRecorded {
                digest: draft,
                phenomenon,
            }],
            warnings,
        }
    }

    /// Adds a hypothesis; the same (kind, statement) again answers with the existing id.
    pub fn add_hypothesis(&self, req: &NewHypothesis) -> Verdict {
        let call = "add_hypothesis";
        let request = to_value(req);
        let statement = collapse_whitespace(&req.statement);
        if let Some(reason) =
            missing_fields(&[("proposed_by", &req.proposed_by), ("statement", &statement)])
        {
            return self.refuse(
                call,
                &req.proposed_by,
                None,
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        if let Some(unknown) = req
            .subjects
            .iter()
            .find(|id| !self.state.entities().contains_key(*id))
        {
            let reason = format!("no entity has the id {unknown:?}");
            return self.refuse(
                call,
                &req.proposed_by,
                None,
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        if req.kind == HypothesisKind::Control
            && let Some(reason) = control_subjects_problem(self.state, &req.subjects)
        {
            return self.refuse(
                call,
                &req.proposed_by,
                None,
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        let prior = req
            .prior
            .unwrap_or_else(|| self.state.scoring().prior_for(req.kind));
        if !(prior > 0.0 && prior < 1.0) {
            let reason = format!("the prior must be in (0, 1), got {prior}");
            return self.refuse(
                call,
                &req.proposed_by,
                None,
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        let digest = digest(&json!(["hypothesis", req.kind, statement]));
        if let Some(id) = self.state.hypothesis_by_digest(&digest) {
            return duplicate(id, "this hypothesis already exists");
        }
        let id = self.state.next_hypothesis_id();
        accepted(
            id.clone(),
            vec![GraphEvent::HypothesisAdded {
                digest,
                id,
                statement,
                hypothesis_kind: req.kind,
                subjects: req.subjects.clone(),
                proposed_by: req.proposed_by.clone(),
                prior,
            }],
        )
    }

    /// Links a phenomenon to a hypothesis with an edge type. Unknown phenomenon, hypothesis or
    /// edge type (one without a weight in the scoring table) is refused; linking the same pair
    /// again with the same type is a duplicate, with another type a conflict.
    pub fn link(&self, req: &LinkRequest) -> Verdict {
        let call = "link";
        let request = to_value(req);
        let task = req.task_id.as_deref();
        if !self.state.phenomena().contains_key(&req.phenomenon_id) {
            let reason = format!("no phenomenon has the id {:?}", req.phenomenon_id);
            return self.refuse(
                call,
                &req.agent,
                task,
                RejectCode::UnknownPhenomenon,
                reason,
                request,
            );
        }
        let Some(hypothesis) = self.state.hypotheses().get(&req.hypothesis_id) else {
            let reason = format!("no hypothesis has the id {:?}", req.hypothesis_id);
            return self.refuse(
                call,
                &req.agent,
                task,
                RejectCode::UnknownHypothesis,
                reason,
                request,
            );
        };
        if self.state.scoring().base(req.edge_type).is_none() {
            let reason = format!(
                "the edge type {} has no weight in the scoring table",
                req.edge_type.as_str()
            );
            return self.refuse(
                call,
                &req.agent,
                task,
                RejectCode::UnknownEdgeType,
                reason,
                request,
            );
        }
        if let Some(edge) = hypothesis
            .edges
            .iter()
            .find(|e| e.phenomenon_id == req.phenomenon_id)
        {
            if edge.edge_type == req.edge_type {
                return duplicate(&req.hypothesis_id, "this edge already exists");
            }
            let reason = format!(
                "{} is already linked to {} as {}",
                req.phenomenon_id,
                req.hypothesis_id,
                edge.edge_type.as_str()
            );
            return self.refuse(
                call,
                &req.agent,
                task,
                RejectCode::Conflict,
                reason,
                request,
            );
        }
        accepted(
            req.hypothesis_id.clone(),
            vec![GraphEvent::EdgeLinked {
                hypothesis_id: req.hypothesis_id.clone(),
                phenomenon_id: req.phenomenon_id.clone(),
                edge_type: req.edge_type,
                linked_by: req.agent.clone(),
            }],
        )
    }

    /// Observes an identifier: normalises it ([`identifiers::normalize`]; an invalid value is
    /// refused), grounds it like a fact, records it as an `identity` phenomenon, and attaches it
    /// to the tentative entity of (source, context), created by its first observation. The
    /// verdict's id is the entity id.
    pub fn observe_identity(&self, req: &IdentityObservation) -> Verdict {
        let call = "observe_identity";
        let request = to_value(req);
        let task = Some(req.task_id.as_str());
        if let Some(reason) = missing_fields(&[
            ("agent", &req.agent),
            ("task_id", &req.task_id),
            ("source_id", &req.source_id),
            ("context", &req.context),
        ]) {
            return self.refuse(
                call,
                &req.agent,
                task,
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        let normalized =
            match identifiers::normalize(req.id_type, &req.value, req.phone_region.as_ref()) {
                Ok(normalized) => normalized,
                Err(e) => {
                    let reason = format!("{:?} is not a valid {}: {e}", req.value, req.id_type);
                    return self.refuse(
                        call,
                        &req.agent,
                        task,
                        RejectCode::InvalidIdentifier,
                        reason,
                        request,
                    );
                }
            };
        let existing = self.state.entity_by_context(&req.source_id, &req.context);
        if let Some(entity) = existing.filter(|e| e.kind != req.entity_kind) {
            let reason = format!(
                "the context {:?} of {} already holds {} ({:?}), not a {:?} entity",
                req.context, req.source_id, entity.id, entity.kind, req.entity_kind
            );
            return self.refuse(
                call,
                &req.agent,
                task,
                RejectCode::Conflict,
                reason,
                request,
            );
        }
        // A cue is one word (letters only, as the plugins read them); anything else is not
        // kept.
        let cue = req
            .cue
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty() && c.len() <= 32 && c.chars().all(char::is_alphabetic))
            .map(str::to_lowercase);
        // A contact claim is its own identifier beside the same value held as the person's
        // own (`Identifier::is_claim`): whichever comes first, both are kept.
        let digest = if cue.is_some() && crate::model::is_claimable(req.id_type) {
            identity_digest(
                &req.source_id,
                &req.context,
                req.id_type,
                &format!("{normalized}#claim"),
            )
        } else {
            identity_digest(&req.source_id, &req.context, req.id_type, &normalized)
        };
        if let Some(id) = self.state.entity_by_identity(&digest) {
            return duplicate(id, "this identifier was already observed for this entity");
        }
        let asker = Asker {
            agent: &req.agent,
            task_id: &req.task_id,
            region: req.phone_region.as_ref(),
        };
        let claim = FactClaim {
            fact_type: req.id_type.fact_type(),
            value: req.value.clone(),
            invocation_id: req.invocation_id.clone(),
        };
        let log = ReadOnce::new(self.log, [claim.invocation_id.as_str()]);
        let facts = match ground_facts(&log, &asker, std::slice::from_ref(&claim)) {
            Ok(facts) => facts,
            Err(failing) => {
                return self.grounding_rejection(call, &asker, digest, failing, request);
            }
        };
        let mut warnings = rescue_warnings(&facts);
        warnings.extend(source_warnings(&log, &facts, &req.source_id));
        warnings.extend(lint_interpretation(
            &log,
            &req.interpretation,
            &facts,
            asker.region,
        ));
        let phenomenon_id = self.state.next_phenomenon_id();
        let entity_id = existing.map_or_else(|| self.state.next_entity_id(), |e| e.id.clone());
        let phenomenon = Phenomenon {
            id: phenomenon_id.clone(),
            source_id: req.source_id.clone(),
            agent: req.agent.clone(),
            task_id: req.task_id.clone(),
            category: "identity".into(),
            title: format!("{} {} observed in {}", req.id_type, normalized, req.context),
            verified_facts: facts,
            interpretation: req.interpretation.clone(),
            warnings: warnings.clone(),
            times: Vec::new(),
        };
        let identifier = Identifier {
            id_type: req.id_type,
            value: req.value.clone(),
            normalized,
            strength: identifiers::strength_of(req.id_type, &req.value),
            phenomenon_id,
            cue,
        };
        Verdict::Accepted {
            id: entity_id.clone(),
            events: vec![
                GraphEvent::PhenomenonRecorded {
                    digest: digest.clone(),
                    phenomenon,
                },
                GraphEvent::IdentityObserved {
                    digest,
                    entity_id,
                    entity_kind: req.entity_kind,
                    // The first non-empty label names the entity.
                    label: existing
                        .map(|e| e.label.clone())
                        .filter(|label| !label.is_empty())
                        .unwrap_or_else(|| req.label.clone()),
                    source_id: req.source_id.clone(),
                    context: req.context.clone(),
                    identifier,
                },
            ],
            warnings,
        }
    }

    /// Pins a `same_as` edge live. A candidate pair (a coreference hypothesis below the
    /// threshold, with no edge yet) can be approved too: the approval creates its edge.
    pub fn approve_same_as(&self, req: &SameAsRequest) -> Verdict {
        self.decide_same_as(req, Decision::Approve)
    }

    /// Vetoes a `same_as` edge; the reason is required. A later approval undoes it.
    pub fn retract_same_as(&self, req: &SameAsRequest) -> Verdict {
        self.decide_same_as(req, Decision::Retract)
    }

    /// An examiner decision: the edge must exist (or, to approve, the candidate pair) and the
    /// examiner, time and reason be given.
    /// Deciding what the last decision already decided is a duplicate; nothing is deleted,
    /// each decision is a new event numbered among the edge's decisions.
    fn decide_same_as(&self, req: &SameAsRequest, decision: Decision) -> Verdict {
        let call = match decision {
            Decision::Approve => "approve_same_as",
            Decision::Retract => "retract_same_as",
        };
        let request = to_value(req);
        if let Some(reason) = missing_fields(&[
            ("edge_id", &req.edge_id),
            ("examiner", &req.examiner),
            ("at", &req.at),
            ("reason", &req.reason),
        ]) {
            return self.refuse(
                call,
                &req.examiner,
                None,
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        let candidate = self.state.candidate_pair(&req.edge_id).is_some();
        let Some(edge) = self.state.same_as().get(&req.edge_id) else {
            if candidate && decision == Decision::Approve {
                // A candidate pair below the threshold: the approval creates its edge.
                return accepted(
                    req.edge_id.clone(),
                    vec![GraphEvent::SameAsApproved {
                        edge_id: req.edge_id.clone(),
                        number: 1,
                        by: req.examiner.clone(),
                        at: req.at.clone(),
                        reason: req.reason.trim().to_owned(),
                    }],
                );
            }
            let reason = if candidate {
                format!(
                    "{} is a candidate pair below the threshold, not a same_as edge: there is \
                     nothing to retract (it joins nothing)",
                    req.edge_id
                )
            } else {
                format!(
                    "no same_as edge has the id {:?} (see `masf links`)",
                    req.edge_id
                )
            };
            return self.refuse(
                call,
                &req.examiner,
                None,
                RejectCode::UnknownEdge,
                reason,
                request,
            );
        };
        if edge.decisions.last().map(|d| d.decision) == Some(decision) {
            return duplicate(&edge.id, "the last decision on this edge is the same");
        }
        let number = u32::try_from(edge.decisions.len())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        let (edge_id, by, at, reason) = (
            edge.id.clone(),
            req.examiner.clone(),
            req.at.clone(),
            req.reason.trim().to_owned(),
        );
        let event = match decision {
            Decision::Approve => GraphEvent::SameAsApproved {
                edge_id,
                number,
                by,
                at,
                reason,
            },
            Decision::Retract => GraphEvent::SameAsRetracted {
                edge_id,
                number,
                by,
                at,
                reason,
            },
        };
        accepted(edge.id.clone(), vec![event])
    }

    /// Proposes a lead, deduplicated on (motivating hypothesis, expected evidence type, target
    /// agent, source): a repeat answers with the existing lead's id and no events.
    pub fn propose_lead(&self, req: &NewLead) -> Verdict {
        let call = "propose_lead";
        let request = to_value(req);
        if let Some(reason) = missing_fields(&[
            ("proposed_by", &req.proposed_by),
            ("target_agent", &req.target_agent),
            ("source_id", &req.source_id),
        ]) {
            return self.refuse(
                call,
                &req.proposed_by,
                None,
                RejectCode::InvalidRequest,
                reason,
                request,
            );
        }
        if let Some(h) = req
            .motivating_hypothesis
            .as_ref()
            .filter(|h| !self.state.hypotheses().contains_key(*h))
        {
            let reason = format!("no hypothesis has the id {h:?}");
            return self.refuse(
                call,
                &req.proposed_by,
                None,
                RejectCode::UnknownHypothesis,
                reason,
                request,
            );
        }
        let digest = digest(&json!([
            "lead",
            req.motivating_hypothesis,
            req.expected_evidence_type,
            req.target_agent,
            req.source_id,
        ]));
        if let Some(id) = self.state.lead_by_digest(&digest) {
            return duplicate(
                id,
                "the same lead (hypothesis, evidence type, agent, source) exists",
            );
        }
        let round_number = req
            .round_number
            .unwrap_or_else(|| self.state.open_round().map_or(0, |r| r.number));
        let id = self.state.next_lead_id();
        let lead = Lead {
            id: id.clone(),
            proposed_by: req.proposed_by.clone(),
            motivating_hypothesis: req.motivating_hypothesis.clone(),
            expected_evidence_type: req.expected_evidence_type,
            target_agent: req.target_agent.clone(),
            source_id: req.source_id.clone(),
            round_number,
            status: LeadStatus::Pending,
            rationale: req.rationale.clone(),
        };
        accepted(id, vec![GraphEvent::LeadProposed { digest, lead }])
    }

    /// Moves a lead: pending → running | cancelled, running → done | failed. Asking for the
    /// status it already has is a duplicate.
    pub fn set_lead_status(&self, req: &LeadUpdate) -> Verdict {
        let call = "set_lead_status";
        let request = to_value(req);
        let Some(lead) = self.state.leads().get(&req.lead_id) else {
            let reason = format!("no lead has the id {:?}", req.lead_id);
            return self.refuse(
                call,
                &req.by,
                None,
                RejectCode::UnknownLead,
                reason,
                request,
            );
        };
        if lead.status == req.status {
            return duplicate(&lead.id, "the lead already has this status");
        }
        if !lead.status.can_become(req.status) {
            let reason = format!(
                "{} is {} and cannot become {}",
                lead.id,
                lead.status.as_str(),
                req.status.as_str()
            );
            return self.refuse(
                call,
                &req.by,
                None,
                RejectCode::InvalidTransition,
                reason,
                request,
            );
        }
        accepted(
            lead.id.clone(),
            vec![GraphEvent::LeadStatusChanged {
                lead_id: lead.id.clone(),
                status: req.status,
                by: req.by.clone(),
                note: req.note.clone(),
            }],
        )
    }

    /// Starts round `number` with a snapshot of the graph. Idempotent: a round that exists
    /// (open or completed) answers without events. Rounds start in sequence, one at a time.
    pub fn start_round(&self, req: &StartRound) -> Verdict {
        let call = "start_round";
        let request = to_value(req);
        if self.state.rounds().contains_key(&req.number) {
            return duplicate(&round_id(req.number), "this round was already started");
        }
        if let Some(open) = self.state.open_round() {
            let reason = format!("round {} is still open: complete it first", open.number);
            return self.refuse(
                call,
                &req.by,
                None,
                RejectCode::RoundSequence,
                reason,
                request,
            );
        }
        let expected = self
            .state
            .rounds()
            .keys()
            .next_back()
            .map_or(1, |n| n.saturating_add(1));
        if req.number != expected {
            let reason = format!("the next round is {expected}, not {}", req.number);
            return self.refuse(
                call,
                &req.by,
                None,
                RejectCode::RoundSequence,
                reason,
                request,
            );
        }
        accepted(
            round_id(req.number),
            vec![GraphEvent::RoundStarted {
                number: req.number,
                started_by: req.by.clone(),
                before: self.state.snapshot(),
            }],
        )
    }

    /// Completes round `number` with a snapshot of the graph and the rationale; its new
    /// phenomena, edges and status flips are derived. Idempotent on a completed round.
    pub fn complete_round(&self, req: &CompleteRound) -> Verdict {
        let call = "complete_round";
        let request = to_value(req);
        let Some(round) = self.state.rounds().get(&req.number) else {
            let reason = format!("round {} was not started", req.number);
            return self.refuse(
                call,
                &req.by,
                None,
                RejectCode::RoundSequence,
                reason,
                request,
            );
        };
        if !round.is_open() {
            return duplicate(&round_id(req.number), "this round was already completed");
        }
        accepted(
            round_id(req.number),
            vec![GraphEvent::RoundCompleted {
                number: req.number,
                completed_by: req.by.clone(),
                rationale: req.rationale.clone(),
                after: self.state.snapshot(),
            }],
        )
    }

    fn refuse(
        &self,
        call: &str,
        by: &str,
        task_id: Option<&str>,
        code: RejectCode,
        reason: String,
        request: Value,
    ) -> Verdict {
        let recent = task_id
            .map(|t| recent_invocations(self.log, by, t))
            .unwrap_or_default();
        // The reason is part of the key: the same request refused again for the same reason (a
        // re-run) is one event, refused for another reason (the state moved on) is another.
        let digest = digest(&json!(["rejected", call, request, code, reason]));
        let rejection = Rejection {
            call: call.to_owned(),
            by: by.to_owned(),
            task_id: task_id.map(str::to_owned),
            code,
            reason: reason.clone(),
            failing_facts: Vec::new(),
            recent_invocations: recent.clone(),
            request,
        };
        Verdict::Rejected {
            code,
            reason,
            failing_facts: Vec::new(),
            candidates: Vec::new(),
            recent_invocations: recent,
            events: vec![GraphEvent::RequestRejected { digest, rejection }],
        }
    }

    fn grounding_rejection(
        &self,
        call: &str,
        asker: &Asker<'_>,
        draft: String,
        failing: Vec<FailingFact>,
        request: Value,
    ) -> Verdict {
        let recent = recent_invocations(self.log, asker.agent, asker.task_id);
        let mut candidates: Vec<String> = failing
            .iter()
            .flat_map(|f| f.candidates.iter().cloned())
            .collect();
        candidates.sort();
        candidates.dedup();
        let reason = grounding_reason(&failing, asker, &recent);
        let rejection = Rejection {
            call: call.to_owned(),
            by: asker.agent.to_owned(),
            task_id: Some(asker.task_id.to_owned()),
            code: RejectCode::GroundingFailed,
            reason: reason.clone(),
            failing_facts: failing.clone(),
            recent_invocations: recent.clone(),
            request,
        };
        Verdict::Rejected {
            code: RejectCode::GroundingFailed,
            reason,
            failing_facts: failing,
            candidates,
            recent_invocations: recent,
            events: vec![GraphEvent::PhenomenonRejected {
                digest: digest(&json!(["phenomenon-rejected", draft, rejection.reason])),
                rejection,
            }],
        }
    }
}

/// `round-N`.
pub fn round_id(number: u32) -> String {
    format!("round-{number}")
}

fn accepted(id: String, events: Vec<GraphEvent>) -> Verdict {
    Verdict::Accepted {
        id,
        events,
        warnings: Vec::new(),
    }
}

fn duplicate(id: &str, message: &str) -> Verdict {
    Verdict::Accepted {
        id: id.to_owned(),
        events: Vec::new(),
        warnings: vec![Warning {
            kind: WarningKind::Duplicate,
            text: Some(id.to_owned()),
            message: format!("{message}: nothing new was written"),
        }],
    }
}

fn rescue_warnings(facts: &[crate::model::Fact]) -> Vec<Warning> {
    facts
        .iter()
        .filter_map(|f| {
            let rescue = f.matched.rescued_from.as_ref()?;
            Some(Warning {
                kind: WarningKind::RescuedCitation,
                text: Some(f.value.clone()),
                message: format!(
                    "the citation of {:?} was rewritten from {} ({}) to {}, the only one of your \
                     invocations in this task that contains it",
                    f.value,
                    rescue.cited,
                    rescue.problem.describe(),
                    f.invocation_id
                ),
            })
        })
        .collect()
}

fn grounding_reason(failing: &[FailingFact], asker: &Asker<'_>, recent: &[String]) -> String {
    let mut reason = format!(
        "{} fact(s) could not be grounded, so nothing was recorded:",
        failing.len()
    );
    for f in failing {
        reason.push_str(&format!(
            "\n- fact {} ({} {:?}) citing {}: {}",
            f.index,
            f.fact_type.as_str(),
            f.value,
            f.invocation_id,
            f.problem.describe()
        ));
        if f.candidates.len() > 1 {
            reason.push_str(&format!(
                "; several of your invocations contain it, cite one of: {}",
                f.candidates.join(", ")
            ));
        } else if !f.tried.is_empty() {
            reason.push_str(&format!(
                "; none of your invocations in this task contains it (tried {})",
                f.tried.join(", ")
            ));
        }
    }
    if recent.is_empty() {
        reason.push_str(&format!(
            "\nYou ({}) have made no tool call in task {} yet.",
            asker.agent, asker.task_id
        ));
    } else {
        reason.push_str(&format!(
            "\nYour recent invocations in task {}: {}.",
            asker.task_id,
            recent.join(", ")
        ));
    }
    reason
}

fn missing_fields(fields: &[(&str, &String)]) -> Option<String> {
    let missing: Vec<&str> = fields
        .iter()
        .filter(|(_, value)| value.trim().is_empty())
        .map(|(name, _)| *name)
        .collect();
    (!missing.is_empty()).then(|| format!("missing or empty: {}", missing.join(", ")))
}

fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Warns about facts whose invocation was bound to another source (cross-source tools do this
/// legitimately; a triage agent doing it has probably mixed up its sources).
fn source_warnings<L: InvocationLog + ?Sized>(
    log: &L,
    facts: &[crate::model::Fact],
    source_id: &str,
) -> Vec<Warning> {
    facts
        .iter()
        .filter_map(|f| {
            let view = log.get(&f.invocation_id)?;
            (view.source_id != source_id).then(|| Warning {
                kind: WarningKind::OtherSource,
                text: Some(f.invocation_id.clone()),
                message: format!(
                    "{} ran on source {}, not on {source_id}, the phenomenon's source",
                    f.invocation_id, view.source_id
                ),
            })
        })
        .collect()
}

/// Why `subjects` cannot be those of a control hypothesis, if they cannot: exactly two
/// entities, the controlled one (not a person) first, then the person.
fn control_subjects_problem(state: &GraphState, subjects: &[String]) -> Option<String> {
    let [controlled, person] = subjects else {
        return Some(format!(
            "a control hypothesis names two subjects, [controlled entity, person entity]; got {}",
            subjects.len()
        ));
    };
    let kind = |id: &str| state.entities().get(id).map(|e| e.kind);
    match (kind(controlled), kind(person)) {
        (Some(EntityKind::Person), _) => Some(format!(
            "the first subject of a control hypothesis is what is controlled, not a person: \
             {controlled} is a person entity"
        )),
        (_, Some(k)) if k != EntityKind::Person => Some(format!(
            "the second subject of a control hypothesis is the person who controls: {person} is \
             a {k:?} entity"
        )),
        _ if controlled == person => Some("the two subjects are one entity".to_owned()),
        _ => None,
    }
}
