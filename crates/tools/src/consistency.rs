//! The consistency check of a case store (issue 24): what a sound store never holds.
//!
//! - a hole in the numbering of the event or invocation log ([`Store::sequence_gaps`]): rows
//!   removed behind the append-only triggers' back; nothing appended can mend it;
//! - a graph event that does not parse;
//! - a graph event the fold has to ignore: one record id bound to two records (two phenomena
//!   named `ph-000012`, an entity id given to a second context), a reference to a phenomenon,
//!   hypothesis, lead or edge that does not exist, a decision or round out of sequence. The
//!   gateway never produces such an event on the graph it folded, and a writer appends only
//!   when nothing was appended since it folded (`Store::append_batch_unless_newer`), so these
//!   appear only when two writers raced without that guard (issue 24's corrupted cases) or the
//!   log was edited;
//! - a verified fact citing an invocation that is not in the invocation log;
//! - an examiner's tag, bookmark or note event (`masf_graph::tags`) that does not parse or does
//!   not follow from the ones before it (numbered out of sequence, removing what is not on,
//!   a note id in use): [`ProblemKind::MarkOutOfSequence`]. Marks are not graph events, so a
//!   rebuild does not supersede such a problem.
//!
//! Problems of graph events superseded by a rebuild ([`crate::GRAPH_REBUILT`], `masf repair`) are
//! counted apart: they stay in the log as history and no longer shape the graph.

use std::collections::{HashMap, HashSet};

use masf_graph::{Applied, GraphEvent, GraphState, Scoring};
use masf_store::{Store, StoreError};
use serde::Serialize;

use crate::log::{Fed, FoldCursor, FoldError, feed};

/// What kind of problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// Rows are missing from a log.
    SeqGap,
    /// A stored graph event does not parse.
    UnreadableEvent,
    /// One id names two records.
    DuplicateId,
    /// A reference to something that does not exist.
    DanglingReference,
    /// An event out of sequence with the graph it was appended to.
    OutOfSequence,
    /// A log's hash chain fails: a row was changed, removed or inserted behind the store's back.
    ChainBroken,
    /// An event dated before the event it names as its cause, or an examiner's decision that
    /// does not name the event it was taken on.
    Backdated,
    /// An examiner's tag, bookmark or note event that does not parse or does not follow from
    /// the ones before it: written around masf.
    MarkOutOfSequence,
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Problem {
    /// What kind.
    pub kind: ProblemKind,
    /// The event concerned, if one is.
    pub seq: Option<i64>,
    /// In words, naming the records concerned.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.seq {
            Some(seq) => write!(f, "event {seq}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The outcome of [`check`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
pub struct Consistency {
    /// Events read.
    pub events: u64,
    /// The graph's epoch (rebuilds so far).
    pub epoch: u32,
    /// What is wrong now (empty: the store is consistent).
    pub problems: Vec<Problem>,
    /// Problems of graph events superseded by a rebuild: history, not a fault of the store.
    pub superseded: usize,
}

impl Consistency {
    /// True when nothing is wrong.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// True when every problem is one of the folded graph, which a rebuild supersedes (a hole
    /// in a log cannot be mended by appending).
    pub fn repairable(&self) -> bool {
        !self.problems.is_empty()
            && self.problems.iter().all(|p| {
                !matches!(
                    p.kind,
                    ProblemKind::SeqGap
                        | ProblemKind::ChainBroken
                        | ProblemKind::Backdated
                        | ProblemKind::MarkOutOfSequence
                )
            })
    }
}

/// A record id's first binding: where, and what it names.
struct Binding {
    seq: i64,
    what: String,
}

/// Checks the store: see the module documentation. Reads everything, writes nothing.
pub fn check(store: &Store, scoring: Scoring) -> Result<Consistency, StoreError> {
    let mut out = Consistency::default();
    for gap in store.sequence_gaps()? {
        out.problems.push(Problem {
            kind: ProblemKind::SeqGap,
            seq: None,
            message: gap.to_string(),
        });
    }
    for broken in store.chain_breaks()? {
        out.problems.push(Problem {
            kind: ProblemKind::ChainBroken,
            seq: None,
            message: broken.to_string(),
        });
    }
    // Decisions written since the chain exists name the event they were taken on.
    let chained_from = store
        .chain_heads()?
        .into_iter()
        .find(|h| h.table == "events")
        .and_then(|h| h.upgraded_through)
        .unwrap_or(0);
    let mut times: HashMap<i64, jiff::Timestamp> = HashMap::new();
    let graph_kinds: HashSet<&str> = crate::log::graph_kinds().into_iter().collect();
    let mut last_graph_seq = 0;
    let mut state = GraphState::new(scoring);
    let mut cursor = FoldCursor::default();
    let mut bound: HashMap<String, Binding> = HashMap::new();
    let mut graph_problems: Vec<Problem> = Vec::new();
    let mut marks = masf_graph::tags::Marks::new();
    store.for_each_event(0, |stored| -> Result<(), StoreError> {
        out.events += 1;
        let seq = stored.seq;
        if let Some(p) = backdated(&stored, &times, chained_from, last_graph_seq) {
            out.problems.push(p);
        }
        times.insert(seq, stored.ts);
        if graph_kinds.contains(stored.kind.as_str()) {
            last_graph_seq = seq;
        }
        match crate::marks::mark_event(&stored) {
            Ok(None) => {}
            Ok(Some(event)) => {
                if let Err(reason) = marks.apply(&event) {
                    out.problems.push(Problem {
                        kind: ProblemKind::MarkOutOfSequence,
                        seq: Some(seq),
                        message: format!("{} on {}: {reason}", stored.kind, mark_subject(&event)),
                    });
                }
            }
            Err(e) => out.problems.push(Problem {
                kind: ProblemKind::MarkOutOfSequence,
                seq: Some(seq),
                message: e.to_string(),
            }),
        }
        match feed(&mut state, &mut cursor, &stored) {
            Err(FoldError::BadEvent { reason, kind, .. }) => graph_problems.push(Problem {
                kind: ProblemKind::UnreadableEvent,
                seq: Some(seq),
                message: format!("{kind} does not parse: {reason}"),
            }),
            Err(FoldError::Store(e)) => return Err(e),
            Ok(Fed::Skipped) => {}
            Ok(Fed::Rebuilt) => {
                out.superseded += graph_problems.len();
                graph_problems.clear();
                bound.clear();
            }
            Ok(Fed::Graph(event, Applied::Ignored(reason))) => {
                graph_problems.push(ignored(seq, &event, reason, &bound));
            }
            Ok(Fed::Graph(event, _)) => {
                if let Some((id, what)) = creates(&event) {
                    bound.entry(id).or_insert(Binding { seq, what });
                }
            }
        }
        Ok(())
    })?;
    out.epoch = cursor.epoch;
    let mut invocations = HashSet::new();
    store.for_each_invocation(|r| {
        invocations.insert(r.invocation_id);
        Ok::<(), StoreError>(())
    })?;
    for p in state.phenomena().values() {
        for (i, fact) in p.verified_facts.iter().enumerate() {
            if !invocations.contains(&fact.invocation_id) {
                let seq = bound.get(&p.id).map(|b| b.seq);
                graph_problems.push(Problem {
                    kind: ProblemKind::DanglingReference,
                    seq,
                    message: format!(
                        "{} fact {} cites {}, which is not in the invocation log",
                        p.id,
                        i + 1,
                        fact.invocation_id
                    ),
                });
            }
        }
    }
    out.problems.extend(graph_problems);
    Ok(out)
}

/// The examiner's `same_as` decisions; with the tags, bookmarks and notes
/// (`masf_graph::tags::MarkEvent::KINDS`) they are the decisions taken on the graph as of the
/// event they name as their cause ([`is_decision`]).
pub const DECISION_KINDS: [&str; 2] = ["SameAsApproved", "SameAsRetracted"];

/// Whether an event of `kind` is an examiner decision (see [`DECISION_KINDS`]).
pub fn is_decision(kind: &str) -> bool {
    DECISION_KINDS.contains(&kind) || masf_graph::tags::MarkEvent::KINDS.contains(&kind)
}

/// What a mark event is about, for messages.
fn mark_subject(event: &masf_graph::tags::MarkEvent) -> String {
    use masf_graph::tags::MarkEvent as M;
    match event {
        M::Tagged {
            target,
            tag,
            number,
            ..
        }
        | M::Untagged {
            target,
            tag,
            number,
            ..
        } => {
            format!("{target} tag {tag:?} (event {number} of it)")
        }
        M::Bookmarked { target, number, .. } | M::Unbookmarked { target, number, .. } => {
            format!("{target} bookmark (event {number} of it)")
        }
        M::NoteAdded {
            note_id, target, ..
        } => format!("{target} {note_id}"),
        M::NoteWithdrawn { note_id, .. } => note_id.clone(),
    }
}

/// A problem when `stored` is dated before its cause (by its stored time or, for a decision, the
/// time it gives); or is a decision written since the chain exists that names no cause, or
/// names one older than the last graph event before it. A session appends a decision only on
/// the graph it folded (`Store::append_batch_unless_newer`) and names the last event of that
/// fold, so no graph event ever lies between a decision and its cause: a decision slipped into
/// the log later, or dated back, breaks one of these rules.
fn backdated(
    stored: &masf_store::StoredEvent,
    times: &HashMap<i64, jiff::Timestamp>,
    chained_from: i64,
    last_graph_seq: i64,
) -> Option<Problem> {
    let decision = is_decision(&stored.kind);
    let problem = |message: String| {
        Some(Problem {
            kind: ProblemKind::Backdated,
            seq: Some(stored.seq),
            message,
        })
    };
    let Some(cause) = stored.causation_seq else {
        return if decision && stored.seq > chained_from {
            problem(format!(
                "{} names no event it was decided on: it was not written by masf",
                stored.kind
            ))
        } else {
            None
        };
    };
    let Some(&cause_ts) = times.get(&cause) else {
        return problem(format!(
            "{} names event {cause} as its cause, which is not before it in the log",
            stored.kind
        ));
    };
    if decision && cause < last_graph_seq {
        return problem(format!(
            "{} names event {cause} as the graph it was decided on, but graph event \
             {last_graph_seq} came between: it was not written on the graph it names",
            stored.kind
        ));
    }
    let given = decision
        .then(|| {
            stored
                .payload
                .get("at")?
                .as_str()?
                .parse::<jiff::Timestamp>()
                .ok()
        })
        .flatten();
    for (what, ts) in [("stored", Some(stored.ts)), ("given", given)] {
        if let Some(ts) = ts
            && ts < cause_ts
        {
            return problem(format!(
                "{} is dated {ts} ({what} time), before event {cause} ({cause_ts}) it was decided on",
                stored.kind
            ));
        }
    }
    None
}

/// The id an accepted event binds for the first time, with what it names.
fn creates(event: &GraphEvent) -> Option<(String, String)> {
    match event {
        GraphEvent::PhenomenonRecorded { phenomenon: p, .. } => Some((
            p.id.clone(),
            format!(
                "a phenomenon of {} by {}: {:?}",
                p.source_id, p.agent, p.title
            ),
        )),
        GraphEvent::HypothesisAdded { id, statement, .. } => {
            Some((id.clone(), format!("a hypothesis: {statement:?}")))
        }
        GraphEvent::IdentityObserved {
            entity_id,
            source_id,
            context,
            ..
        } => Some((
            entity_id.clone(),
            format!("the entity of {source_id} {context:?}"),
        )),
        GraphEvent::LeadProposed { lead, .. } => {
            Some((lead.id.clone(), format!("a lead for {}", lead.target_agent)))
        }
        _ => None,
    }
}

/// A problem for an event the fold ignored.
fn ignored(
    seq: i64,
    event: &GraphEvent,
    reason: &'static str,
    bound: &HashMap<String, Binding>,
) -> Problem {
    let kind = event.kind();
    if reason.ends_with("id in use") || reason == "context has another entity" {
        let (id, what) = match event {
            // A second context for an entity id, or a second entity for a context: name the id.
            GraphEvent::IdentityObserved { entity_id, .. } if reason == "entity id in use" => {
                creates(event).unwrap_or_else(|| (entity_id.clone(), String::new()))
            }
            GraphEvent::IdentityObserved {
                entity_id,
                source_id,
                context,
                ..
            } => (
                entity_id.clone(),
                format!(
                    "the entity of {source_id} {context:?}, whose context already has another entity"
                ),
            ),
            _ => creates(event).unwrap_or_default(),
        };
        let first = bound.get(&id).map_or_else(
            || "an earlier record".to_string(),
            |b| format!("{} (event {})", b.what, b.seq),
        );
        return Problem {
            kind: ProblemKind::DuplicateId,
            seq: Some(seq),
            message: format!(
                "{id} names two records: {first} and {what} (event {seq}, {kind}); the fold keeps the first"
            ),
        };
    }
    let dangling = reason.starts_with("unknown");
    Problem {
        kind: if dangling {
            ProblemKind::DanglingReference
        } else {
            ProblemKind::OutOfSequence
        },
        seq: Some(seq),
        message: format!("{kind} {}: {reason}", refers_to(event)),
    }
}

/// The ids an event refers to, for messages.
fn refers_to(event: &GraphEvent) -> String {
    match event {
        GraphEvent::EdgeLinked {
            hypothesis_id,
            phenomenon_id,
            ..
        } => format!("{hypothesis_id} ← {phenomenon_id}"),
        GraphEvent::IdentityObserved {
            entity_id,
            identifier,
            ..
        } => format!("{entity_id} (cites {})", identifier.phenomenon_id),
        GraphEvent::SameAsApproved {
            edge_id, number, ..
        }
        | GraphEvent::SameAsRetracted {
            edge_id, number, ..
        } => format!("{edge_id} decision {number}"),
        GraphEvent::LeadStatusChanged {
            lead_id, status, ..
        } => format!("{lead_id} → {}", status.as_str()),
        GraphEvent::RoundStarted { number, .. } | GraphEvent::RoundCompleted { number, .. } => {
            format!("round {number}")
        }
        GraphEvent::HypothesisAdded { id, .. } => id.clone(),
        GraphEvent::PhenomenonRecorded { phenomenon, .. } => phenomenon.id.clone(),
        GraphEvent::LeadProposed { lead, .. } => lead.id.clone(),
        GraphEvent::PhenomenonRejected { .. } | GraphEvent::RequestRejected { .. } => String::new(),
    }
}
