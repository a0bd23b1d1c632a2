//! The graph state and its reducer: `state = fold(apply, events)`.
//!
//! [`GraphState::apply`] is total and deterministic: an event that was already applied (same
//! idempotency key) changes nothing, and an event that does not fit the state (an edge to a
//! missing hypothesis, a second round while one is open, an id already in use) is ignored and
//! reported as [`Applied::Ignored`]. The gateway never produces such events; folding a log that
//! holds them still gives one well-defined state.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::events::{GraphEvent, Rejection};
use crate::model::{
    ConfidenceLogEntry, Decision, Edge, Entity, Hypothesis, HypothesisKind, HypothesisSnapshot,
    InvestigationRound, Lead, Phenomenon, Relation, RoundSnapshot, SameAs, SameAsDecision,
    SameAsState, round_deltas,
};
use crate::scoring::{Scoring, Status, score};

/// What [`GraphState::apply`] did with an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// The state changed.
    Changed,
    /// An event with the same idempotency key was applied before; nothing changed.
    AlreadyApplied,
    /// The event does not fit the state; nothing changed. The reason is for diagnostics.
    Ignored(&'static str),
}

/// The Grounded Evidence Graph, as folded from its events. Read it through the accessors and
/// the views; change it only by applying events that the [`crate::Gateway`] produced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphState {
    #[serde(skip)]
    scoring: Scoring,
    phenomena: BTreeMap<String, Phenomenon>,
    hypotheses: BTreeMap<String, Hypothesis>,
    entities: BTreeMap<String, Entity>,
    leads: BTreeMap<String, Lead>,
    rounds: BTreeMap<u32, InvestigationRound>,
    rejections: Vec<Rejection>,
    same_as: BTreeMap<String, SameAs>,
    #[serde(skip)]
    index: Index,
}

/// Lookups the gateway needs, rebuilt by the fold (never persisted).
#[derive(Debug, Clone, Default, PartialEq)]
struct Index {
    applied_keys: BTreeSet<String>,
    phenomenon_by_digest: BTreeMap<String, String>,
    hypothesis_by_digest: BTreeMap<String, String>,
    lead_by_digest: BTreeMap<String, String>,
    entity_by_identity: BTreeMap<String, String>,
    entity_by_context: BTreeMap<(String, String), String>,
    /// Coreference hypotheses by their (lower, higher) entity pair, oldest first.
    coreference: BTreeMap<(String, String), Vec<String>>,
    next: Counters,
}

/// The next number of each id prefix.
#[derive(Debug, Clone, PartialEq)]
struct Counters {
    phenomenon: u64,
    hypothesis: u64,
    entity: u64,
    lead: u64,
}

impl Default for Counters {
    fn default() -> Self {
        Self {
            phenomenon: 1,
            hypothesis: 1,
            entity: 1,
            lead: 1,
        }
    }
}

/// Id prefixes: `ph-000001`, `hyp-000001`, `ent-000001`, `lead-000001`.
pub(crate) const PHENOMENON_PREFIX: &str = "ph";
pub(crate) const HYPOTHESIS_PREFIX: &str = "hyp";
pub(crate) const ENTITY_PREFIX: &str = "ent";
pub(crate) const LEAD_PREFIX: &str = "lead";

fn format_id(prefix: &str, n: u64) -> String {
    format!("{prefix}-{n:06}")
}

/// `sa-000003-000007` for `ent-000003` and `ent-000007` (in either order).
pub fn same_as_id(a: &str, b: &str) -> String {
    let (a, b) = ordered_pair(a, b);
    let number = |id: &str| {
        id.strip_prefix(ENTITY_PREFIX)
            .and_then(|rest| rest.strip_prefix('-'))
            .map_or_else(|| id.to_owned(), str::to_owned)
    };
    format!("sa-{}-{}", number(&a), number(&b))
}

/// The pair in id order.
pub(crate) fn ordered_pair(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_owned(), b.to_owned())
    } else {
        (b.to_owned(), a.to_owned())
    }
}

/// The entity pair of a coreference or control hypothesis (two distinct subjects), in id
/// order: the pair its `same_as` edge joins.
fn coreference_pair(kind: HypothesisKind, subjects: &[String]) -> Option<(String, String)> {
    match (kind, subjects) {
        (HypothesisKind::Coreference | HypothesisKind::Control, [a, b]) if a != b => {
            Some(ordered_pair(a, b))
        }
        _ => None,
    }
}

/// A `same_as` edge's state: the last decision wins; without one, the hypothesis decides.
fn same_as_state(supported: bool, decisions: &[SameAsDecision]) -> SameAsState {
    match decisions.last().map(|d| d.decision) {
        Some(Decision::Approve) => SameAsState::Approved,
        Some(Decision::Retract) => SameAsState::Retracted,
        None if supported => SameAsState::Live,
        None => SameAsState::Dormant,
    }
}

/// The counter value after seeing `id` (one past its number), or `current` if it has none.
fn bump(current: u64, prefix: &str, id: &str) -> u64 {
    id.strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix('-'))
        .and_then(|n| n.parse::<u64>().ok())
        .map_or(current, |n| current.max(n.saturating_add(1)))
}

impl GraphState {
    /// An empty graph scored with `scoring`.
    pub fn new(scoring: Scoring) -> Self {
        Self {
            scoring,
            phenomena: BTreeMap::new(),
            hypotheses: BTreeMap::new(),
            entities: BTreeMap::new(),
            leads: BTreeMap::new(),
            rounds: BTreeMap::new(),
            rejections: Vec::new(),
            same_as: BTreeMap::new(),
            index: Index::default(),
        }
    }

    /// Folds events, in order, into an empty graph.
    pub fn fold<'e>(scoring: Scoring, events: impl IntoIterator<Item = &'e GraphEvent>) -> Self {
        let mut state = Self::new(scoring);
        for event in events {
            state.apply(event);
        }
        state
    }

    /// The scoring parameters.
    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }

    /// Phenomena by id.
    pub fn phenomena(&self) -> &BTreeMap<String, Phenomenon> {
        &self.phenomena
    }

    /// Hypotheses by id.
    pub fn hypotheses(&self) -> &BTreeMap<String, Hypothesis> {
        &self.hypotheses
    }

    /// Entities by id.
    pub fn entities(&self) -> &BTreeMap<String, Entity> {
        &self.entities
    }

    /// Leads by id.
    pub fn leads(&self) -> &BTreeMap<String, Lead> {
        &self.leads
    }

    /// Rounds by number.
    pub fn rounds(&self) -> &BTreeMap<u32, InvestigationRound> {
        &self.rounds
    }

    /// `same_as` edges by id (DESIGN §8).
    pub fn same_as(&self) -> &BTreeMap<String, SameAs> {
        &self.same_as
    }

    /// The coreference hypotheses about a pair of entities (in either order), oldest first;
    /// the last is the current revision.
    pub fn coreference_hypotheses(&self, a: &str, b: &str) -> &[String] {
        self.index
            .coreference
            .get(&ordered_pair(a, b))
            .map_or(&[], Vec::as_slice)
    }

    /// The pair of entities and its coreference hypotheses whose `same_as` id is `edge_id`,
    /// whether or not the edge exists.
    pub fn candidate_pair(&self, edge_id: &str) -> Option<(&(String, String), &Vec<String>)> {
        self.index
            .coreference
            .iter()
            .find(|(pair, _)| same_as_id(&pair.0, &pair.1) == edge_id)
    }

    /// Every pair of entities with a coreference hypothesis, with its hypotheses oldest first.
    pub fn coreference_pairs(&self) -> impl Iterator<Item = (&(String, String), &Vec<String>)> {
        self.index.coreference.iter()
    }

    /// Every refused request, in order.
    pub fn rejections(&self) -> &[Rejection] {
        &self.rejections
    }

    /// Number of phenomenon → hypothesis edges.
    pub fn edge_count(&self) -> usize {
        self.hypotheses.values().map(|h| h.edges.len()).sum()
    }

    /// The open round, if any.
    pub fn open_round(&self) -> Option<&InvestigationRound> {
        self.rounds.values().find(|r| r.is_open())
    }

    /// The graph's counts and hypothesis statuses now.
    pub fn snapshot(&self) -> RoundSnapshot {
        RoundSnapshot {
            phenomena: self.phenomena.len(),
            edges: self.edge_count(),
            hypotheses: self
                .hypotheses
                .iter()
                .map(|(id, h)| {
                    (
                        id.clone(),
                        HypothesisSnapshot {
                            status: h.status,
                            log_odds: h.log_odds,
                        },
                    )
                })
                .collect(),
        }
    }

    pub(crate) fn next_phenomenon_id(&self) -> String {
        format_id(PHENOMENON_PREFIX, self.index.next.phenomenon)
    }

    pub(crate) fn next_hypothesis_id(&self) -> String {
        format_id(HYPOTHESIS_PREFIX, self.index.next.hypothesis)
    }

    pub(crate) fn next_entity_id(&self) -> String {
        format_id(ENTITY_PREFIX, self.index.next.entity)
    }

    pub(crate) fn next_lead_id(&self) -> String {
        format_id(LEAD_PREFIX, self.index.next.lead)
    }

    pub(crate) fn phenomenon_by_digest(&self, digest: &str) -> Option<&str> {
        self.index
            .phenomenon_by_digest
            .get(digest)
            .map(String::as_str)
    }

    pub(crate) fn hypothesis_by_digest(&self, digest: &str) -> Option<&str> {
        self.index
            .hypothesis_by_digest
            .get(digest)
            .map(String::as_str)
    }

    pub(crate) fn lead_by_digest(&self, digest: &str) -> Option<&str> {
        self.index.lead_by_digest.get(digest).map(String::as_str)
    }

    pub(crate) fn entity_by_identity(&self, digest: &str) -> Option<&str> {
        self.index
            .entity_by_identity
            .get(digest)
            .map(String::as_str)
    }

    pub(crate) fn entity_by_context(&self, source_id: &str, context: &str) -> Option<&Entity> {
        self.index
            .entity_by_context
            .get(&(source_id.to_owned(), context.to_owned()))
            .and_then(|id| self.entities.get(id))
    }

    /// Keeps the `same_as` edge of `pair` in step after hypothesis `changed` about it was
    /// added or scored: the edge is created when a hypothesis about the pair is supported, and
    /// follows the newest revision from then on.
    fn sync_same_as(&mut self, pair: &(String, String), changed: &str) {
        let Some(revisions) = self.index.coreference.get(pair) else {
            return;
        };
        let Some(current) = revisions.last() else {
            return;
        };
        let status_of = |id: &str| self.hypotheses.get(id).map(|h| h.status);
        let supported = status_of(current) == Some(Status::Supported);
        let id = same_as_id(&pair.0, &pair.1);
        match self.same_as.get_mut(&id) {
            Some(edge) => {
                edge.hypothesis_id.clone_from(current);
                edge.hypotheses.clone_from(revisions);
                edge.state = same_as_state(supported, &edge.decisions);
            }
            None if status_of(changed) == Some(Status::Supported) => {
                let relation = self
                    .hypotheses
                    .get(current)
                    .map_or(Relation::Coreference, |h| Relation::of(h.kind));
                let edge = SameAs {
                    id: id.clone(),
                    a: pair.0.clone(),
                    b: pair.1.clone(),
                    relation,
                    hypothesis_id: current.clone(),
                    hypotheses: revisions.clone(),
                    state: same_as_state(supported, &[]),
                    decisions: Vec::new(),
                };
                self.same_as.insert(id, edge);
            }
            None => {}
        }
    }

    /// Applies events in order (see [`GraphState::apply`]).
    pub fn apply_all<'e>(&mut self, events: impl IntoIterator<Item = &'e GraphEvent>) {
        for event in events {
            self.apply(event);
        }
    }

    /// Applies one event. Idempotent: an event whose key was applied before changes nothing.
    pub fn apply(&mut self, event: &GraphEvent) -> Applied {
        let key = event.idempotency_key();
        if self.index.applied_keys.contains(&key) {
            return Applied::AlreadyApplied;
        }
        let applied = self.apply_new(event);
        if applied == Applied::Changed {
            self.index.applied_keys.insert(key);
        }
        applied
    }

    fn apply_new(&mut self, event: &GraphEvent) -> Applied {
        match event {
            GraphEvent::PhenomenonRecorded { digest, phenomenon } => {
                if self.phenomena.contains_key(&phenomenon.id) {
                    return Applied::Ignored("phenomenon id in use");
                }
                let next = &mut self.index.next;
                next.phenomenon = bump(next.phenomenon, PHENOMENON_PREFIX, &phenomenon.id);
                self.index
                    .phenomenon_by_digest
                    .insert(digest.clone(), phenomenon.id.clone());
                self.phenomena
                    .insert(phenomenon.id.clone(), phenomenon.clone());
            }
            GraphEvent::PhenomenonRejected { rejection, .. }
            | GraphEvent::RequestRejected { rejection, .. } => {
                self.rejections.push(rejection.clone());
            }
            GraphEvent::HypothesisAdded {
                digest,
                id,
                statement,
                hypothesis_kind,
                subjects,
                proposed_by,
                prior,
            } => {
                if self.hypotheses.contains_key(id) {
                    return Applied::Ignored("hypothesis id in use");
                }
                if !(*prior > 0.0 && *prior < 1.0) {
                    return Applied::Ignored("prior outside (0, 1)");
                }
                let scored = score(&self.scoring, *prior, []);
                let next = &mut self.index.next;
                next.hypothesis = bump(next.hypothesis, HYPOTHESIS_PREFIX, id);
                self.index
                    .hypothesis_by_digest
                    .insert(digest.clone(), id.clone());
                self.hypotheses.insert(
                    id.clone(),
                    Hypothesis {
                        id: id.clone(),
                        statement: statement.clone(),
                        kind: *hypothesis_kind,
                        subjects: subjects.clone(),
                        proposed_by: proposed_by.clone(),
                        prior: *prior,
                        edges: Vec::new(),
                        log_odds: scored.log_odds,
                        confidence: scored.confidence,
                        status: scored.status,
                        distinct_sources: 0,
                        confidence_log: Vec::new(),
                    },
                );
                if let Some(pair) = coreference_pair(*hypothesis_kind, subjects) {
                    self.index
                        .coreference
                        .entry(pair.clone())
                        .or_default()
                        .push(id.clone());
                    self.sync_same_as(&pair, id);
                }
            }
            GraphEvent::EdgeLinked {
                hypothesis_id,
                phenomenon_id,
                edge_type,
                linked_by,
            } => {
                if !self.phenomena.contains_key(phenomenon_id) {
                    return Applied::Ignored("unknown phenomenon");
                }
                let Some(hypothesis) = self.hypotheses.get_mut(hypothesis_id) else {
                    return Applied::Ignored("unknown hypothesis");
                };
                if hypothesis
                    .edges
                    .iter()
                    .any(|e| e.phenomenon_id == *phenomenon_id)
                {
                    return Applied::Ignored("already linked");
                }
                let mut linked_by_of: BTreeMap<&str, &str> = hypothesis
                    .edges
                    .iter()
                    .map(|e| (e.phenomenon_id.as_str(), e.linked_by.as_str()))
                    .collect();
                linked_by_of.insert(phenomenon_id, linked_by);
                let pairs = hypothesis
                    .edges
                    .iter()
                    .map(|e| (e.edge_type, e.phenomenon_id.as_str()))
                    .chain([(*edge_type, phenomenon_id.as_str())]);
                let scored = score(&self.scoring, hypothesis.prior, pairs);
                let edges: Vec<Edge> = scored
                    .edges
                    .iter()
                    .map(|e| Edge {
                        phenomenon_id: e.phenomenon_id.clone(),
                        edge_type: e.edge_type,
                        rank: e.rank,
                        base: e.base,
                        contribution: e.contribution,
                        linked_by: linked_by_of
                            .get(e.phenomenon_id.as_str())
                            .copied()
                            .unwrap_or_default()
                            .to_owned(),
                    })
                    .collect();
                let sources: BTreeSet<&str> = edges
                    .iter()
                    .filter_map(|e| self.phenomena.get(&e.phenomenon_id))
                    .map(|p| p.source_id.as_str())
                    .collect();
                if let Some(new) = edges.iter().find(|e| e.phenomenon_id == *phenomenon_id) {
                    hypothesis.confidence_log.push(ConfidenceLogEntry {
                        phenomenon_id: phenomenon_id.clone(),
                        edge_type: *edge_type,
                        rank: new.rank,
                        base: new.base,
                        contribution: new.contribution,
                        log_odds: scored.log_odds,
                        confidence: scored.confidence,
                        status: scored.status,
                    });
                }
                hypothesis.distinct_sources = sources.len();
                hypothesis.edges = edges;
                hypothesis.log_odds = scored.log_odds;
                hypothesis.confidence = scored.confidence;
                hypothesis.status = scored.status;
                if let Some(pair) = coreference_pair(hypothesis.kind, &hypothesis.subjects) {
                    self.sync_same_as(&pair, hypothesis_id);
                }
            }
            GraphEvent::SameAsApproved {
                edge_id,
                number,
                by,
                at,
                reason,
            }
            | GraphEvent::SameAsRetracted {
                edge_id,
                number,
                by,
                at,
                reason,
            } => {
                let decision = if matches!(event, GraphEvent::SameAsApproved { .. }) {
                    Decision::Approve
                } else {
                    Decision::Retract
                };
                // Approving a candidate pair (a coreference hypothesis that never reached the
                // threshold) creates its edge, pinned by the approval.
                if !self.same_as.contains_key(edge_id)
                    && decision == Decision::Approve
                    && let Some((pair, revisions)) = self.candidate_pair(edge_id)
                    && let Some(current) = revisions.last()
                {
                    let relation = self
                        .hypotheses
                        .get(current)
                        .map_or(Relation::Coreference, |h| Relation::of(h.kind));
                    let edge = SameAs {
                        id: edge_id.clone(),
                        a: pair.0.clone(),
                        b: pair.1.clone(),
                        relation,
                        hypothesis_id: current.clone(),
                        hypotheses: revisions.clone(),
                        state: SameAsState::Dormant,
                        decisions: Vec::new(),
                    };
                    self.same_as.insert(edge_id.clone(), edge);
                }
                let Some(edge) = self.same_as.get_mut(edge_id) else {
                    return Applied::Ignored("unknown same_as edge");
                };
                if usize::try_from(*number).ok() != Some(edge.decisions.len() + 1) {
                    return Applied::Ignored("decisions are numbered in sequence");
                }
                edge.decisions.push(SameAsDecision {
                    decision,
                    by: by.clone(),
                    at: at.clone(),
                    reason: reason.clone(),
                });
                let supported = self
                    .hypotheses
                    .get(&edge.hypothesis_id)
                    .is_some_and(|h| h.status == Status::Supported);
                edge.state = same_as_state(supported, &edge.decisions);
            }
            GraphEvent::IdentityObserved {
                digest,
                entity_id,
                entity_kind,
                label,
                source_id,
                context,
                identifier,
            } => {
                if !self.phenomena.contains_key(&identifier.phenomenon_id) {
                    return Applied::Ignored("unknown phenomenon");
                }
                let context_key = (source_id.clone(), context.clone());
                match self.index.entity_by_context.get(&context_key) {
                    Some(id) if id != entity_id => {
                        return Applied::Ignored("context has another entity");
                    }
                    None if self.entities.contains_key(entity_id) => {
                        return Applied::Ignored("entity id in use");
                    }
                    _ => {}
                }
                let entity = self
                    .entities
                    .entry(entity_id.clone())
                    .or_insert_with(|| Entity {
                        id: entity_id.clone(),
                        kind: *entity_kind,
                        label: label.clone(),
                        source_id: source_id.clone(),
                        context: context.clone(),
                        identifiers: Vec::new(),
                    });
                if entity.label.is_empty() {
                    entity.label.clone_from(label);
                }
                // A contact claim and the same value held as the entity's own are two
                // identifiers (`Identifier::is_claim`).
                if !entity.identifiers.iter().any(|i| {
                    i.id_type == identifier.id_type
                        && i.normalized == identifier.normalized
                        && i.is_claim() == identifier.is_claim()
                }) {
                    entity.identifiers.push(identifier.clone());
                }
                let next = &mut self.index.next;
                next.entity = bump(next.entity, ENTITY_PREFIX, entity_id);
                self.index
                    .entity_by_context
                    .insert(context_key, entity_id.clone());
                self.index
                    .entity_by_identity
                    .insert(digest.clone(), entity_id.clone());
            }
            GraphEvent::LeadProposed { digest, lead } => {
                if self.leads.contains_key(&lead.id) {
                    return Applied::Ignored("lead id in use");
                }
                let next = &mut self.index.next;
                next.lead = bump(next.lead, LEAD_PREFIX, &lead.id);
                self.index
                    .lead_by_digest
                    .insert(digest.clone(), lead.id.clone());
                self.leads.insert(lead.id.clone(), lead.clone());
            }
            GraphEvent::LeadStatusChanged {
                lead_id, status, ..
            } => {
                let Some(lead) = self.leads.get_mut(lead_id) else {
                    return Applied::Ignored("unknown lead");
                };
                if !lead.status.can_become(*status) {
                    return Applied::Ignored("invalid lead transition");
                }
                lead.status = *status;
            }
            GraphEvent::RoundStarted {
                number,
                started_by,
                before,
            } => {
                let expected = self
                    .rounds
                    .keys()
                    .next_back()
                    .map_or(1, |n| n.saturating_add(1));
                if *number != expected || self.open_round().is_some() {
                    return Applied::Ignored("rounds start in sequence, one at a time");
                }
                self.rounds.insert(
                    *number,
                    InvestigationRound {
                        number: *number,
                        started_by: started_by.clone(),
                        before: before.clone(),
                        after: None,
                        rationale: String::new(),
                        new_phenomena: 0,
                        new_edges: 0,
                        status_flips: Vec::new(),
                    },
                );
            }
            GraphEvent::RoundCompleted {
                number,
                rationale,
                after,
                ..
            } => {
                let Some(round) = self.rounds.get_mut(number) else {
                    return Applied::Ignored("round not started");
                };
                if !round.is_open() {
                    return Applied::Ignored("round already completed");
                }
                let (new_phenomena, new_edges, flips) = round_deltas(&round.before, after);
                round.after = Some(after.clone());
                round.rationale = rationale.clone();
                round.new_phenomena = new_phenomena;
                round.new_edges = new_edges;
                round.status_flips = flips;
            }
        }
        Applied::Changed
    }
}
