//! The store-backed [`InvocationLog`] the graph gateway grounds facts against.

use std::borrow::Cow;

use masf_graph::{Applied, GraphEvent, GraphState, InvocationLog, InvocationView, Scoring};
use masf_store::{Store, StoreError, StoredEvent};
use serde::{Deserialize, Serialize};

/// Reads invocations from the case store for grounding.
///
/// Outputs are read with [`Store::invocation_output`], which re-hashes them: an output altered
/// on disk reads as absent, so grounding fails safe. Structured outputs are not stored: a view's
/// `structured` is the text re-parsed when the text is itself a JSON object or array (as
/// `parse_plist` writes), `None` otherwise.
#[derive(Debug, Clone, Copy)]
pub struct StoreLog<'a> {
    store: &'a Store,
}

impl<'a> StoreLog<'a> {
    /// A log over `store`.
    pub fn new(store: &'a Store) -> Self {
        Self { store }
    }
}

impl InvocationLog for StoreLog<'_> {
    fn get(&self, id: &str) -> Option<InvocationView<'_>> {
        let record = self.store.invocation(id).ok()??;
        let output = self.store.invocation_output(id).ok()?;
        let structured = json_output(&output).map(Cow::Owned);
        Some(InvocationView {
            id: Cow::Owned(record.invocation_id),
            source_id: Cow::Owned(record.source_id),
            agent: Cow::Owned(record.agent),
            task_id: Cow::Owned(record.task_id),
            output: Cow::Owned(output),
            structured,
        })
    }

    fn ids_for(&self, agent: &str, task_id: &str) -> Cow<'_, [String]> {
        // Answered from the store's (agent, task_id) index, oldest first.
        let ids = self
            .store
            .invocations_for(agent, task_id)
            .map(|records| records.into_iter().map(|r| r.invocation_id).collect())
            .unwrap_or_default();
        Cow::Owned(ids)
    }
}

/// The output as JSON when it is a JSON object or array.
fn json_output(output: &[u8]) -> Option<serde_json::Value> {
    let first = output.iter().find(|b| !b.is_ascii_whitespace())?;
    if *first != b'{' && *first != b'[' {
        return None;
    }
    serde_json::from_slice(output).ok()
}

/// Why the graph could not be folded from a store.
#[derive(Debug, thiserror::Error)]
pub enum FoldError {
    /// The store failed.
    #[error("case store: {0}")]
    Store(#[from] StoreError),
    /// A stored graph event does not parse.
    #[error("stored event {seq} ({kind}) is not a graph event: {reason}")]
    BadEvent {
        /// Its seq.
        seq: i64,
        /// Its kind.
        kind: String,
        /// The parse error.
        reason: String,
    },
}

/// The event kind that starts the graph afresh (`masf repair`): the graph events before it are
/// superseded — kept in the log, no longer folded — and the graph is derived again by the
/// next run, from the recorded tool outputs (served from the invocation cache).
pub const GRAPH_REBUILT: &str = "GraphRebuilt";

/// The payload of a [`GRAPH_REBUILT`] event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphRebuilt {
    /// Its number: 1 for the first rebuild of a case, then 2, …
    pub epoch: u32,
    /// Why: the problems the consistency check found in the superseded graph.
    pub problems: Vec<String>,
    /// The examiner's decisions on `same_as` edges in effect in the superseded graph, each
    /// with the two entities as (source, context), to be made again on the rebuilt graph.
    #[serde(default)]
    pub decisions: Vec<CarriedDecision>,
}

/// An examiner's decision on a `same_as` edge, named by what its entities are rather than by
/// ids (ids are assigned afresh when the graph is rebuilt).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CarriedDecision {
    /// The edge's id in the superseded graph.
    pub edge_id: String,
    /// One entity: (source id, context).
    pub a: (String, String),
    /// The other.
    pub b: (String, String),
    /// The last decision on the edge.
    pub decision: masf_graph::Decision,
    /// Who made it.
    pub by: String,
    /// When (as recorded).
    pub at: String,
    /// Why.
    pub reason: String,
}

/// The event kinds that change the folded graph: the graph's own and [`GRAPH_REBUILT`].
pub fn graph_kinds() -> Vec<&'static str> {
    GraphEvent::KINDS
        .iter()
        .copied()
        .chain([GRAPH_REBUILT])
        .collect()
}

/// Where a fold of the graph stands in the store's log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FoldCursor {
    /// The graph's epoch: how many [`GRAPH_REBUILT`] events were folded (0 before any).
    pub epoch: u32,
    /// The seq of the last [`GRAPH_REBUILT`] event folded (0 before any): the graph is the fold
    /// of the graph events after it.
    pub rebuilt_at: i64,
    /// The last seq fed to the fold.
    pub seq: i64,
}

impl FoldCursor {
    /// The idempotency key `event` is stored under in the current epoch: its content key
    /// ([`GraphEvent::idempotency_key`]) in the first epoch, prefixed by `rebuilt-N/` after the
    /// N-th rebuild, so that the rebuilt graph's events never meet the superseded ones' keys.
    pub fn key(&self, event: &GraphEvent) -> String {
        match self.epoch {
            0 => event.idempotency_key(),
            n => format!("rebuilt-{n}/{}", event.idempotency_key()),
        }
    }
}

/// What [`feed`] did with a stored event.
#[derive(Debug, Clone, PartialEq)]
pub enum Fed {
    /// Not a graph event.
    Skipped,
    /// A graph event, and what the state did with it.
    Graph(Box<GraphEvent>, Applied),
    /// A [`GRAPH_REBUILT`] event: the state is empty again.
    Rebuilt,
}

/// Feeds one stored event to a fold: a graph event is applied to `state`, a [`GRAPH_REBUILT`]
/// event empties it and opens the next epoch, any other kind is skipped. Events must come in
/// seq order.
pub fn feed(
    state: &mut GraphState,
    cursor: &mut FoldCursor,
    stored: &StoredEvent,
) -> Result<Fed, FoldError> {
    cursor.seq = cursor.seq.max(stored.seq);
    if stored.kind == GRAPH_REBUILT {
        let rebuilt: GraphRebuilt =
            serde_json::from_value(stored.payload.clone()).map_err(|e| FoldError::BadEvent {
                seq: stored.seq,
                kind: stored.kind.clone(),
                reason: e.to_string(),
            })?;
        *state = GraphState::new(state.scoring().clone());
        cursor.epoch = rebuilt.epoch.max(cursor.epoch.saturating_add(1));
        cursor.rebuilt_at = stored.seq;
        return Ok(Fed::Rebuilt);
    }
    if !GraphEvent::KINDS.contains(&stored.kind.as_str()) {
        return Ok(Fed::Skipped);
    }
    let event = GraphEvent::from_payload(&stored.payload).map_err(|e| FoldError::BadEvent {
        seq: stored.seq,
        kind: stored.kind.clone(),
        reason: e.to_string(),
    })?;
    let applied = state.apply(&event);
    Ok(Fed::Graph(Box::new(event), applied))
}

/// Folds every graph event of `store`, in order, into a [`GraphState`] (events of other kinds
/// are skipped; a [`GRAPH_REBUILT`] event starts it afresh). The one fold used by agent
/// sessions, the report and the API.
pub fn fold_graph(store: &Store, scoring: Scoring) -> Result<GraphState, FoldError> {
    Ok(fold_graph_at(store, scoring)?.0)
}

/// [`fold_graph`], with where the fold stands.
pub fn fold_graph_at(
    store: &Store,
    scoring: Scoring,
) -> Result<(GraphState, FoldCursor), FoldError> {
    let mut state = GraphState::new(scoring);
    let mut cursor = FoldCursor::default();
    store.for_each_event(0, |stored| -> Result<(), FoldError> {
        feed(&mut state, &mut cursor, &stored)?;
        Ok(())
    })?;
    Ok((state, cursor))
}
