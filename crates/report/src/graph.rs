//! The graph as the report reads it: folded, read-only, from the case store's graph events.

use masf_graph::{GraphEvent, GraphState, Scoring};
use masf_store::{Store, StoreError};

/// Why the graph could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
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

/// Folds every graph event of `store`, in order, into a [`GraphState`] (the same fold as an
/// agent session's; events of other kinds are skipped).
pub fn load_graph(store: &Store, scoring: Scoring) -> Result<GraphState, LoadError> {
    let mut state = GraphState::new(scoring);
    store.for_each_event(0, |stored| -> Result<(), LoadError> {
        if !GraphEvent::KINDS.contains(&stored.kind.as_str()) {
            return Ok(());
        }
        let event = GraphEvent::from_payload(&stored.payload).map_err(|e| LoadError::BadEvent {
            seq: stored.seq,
            kind: stored.kind.clone(),
            reason: e.to_string(),
        })?;
        state.apply(&event);
        Ok(())
    })?;
    Ok(state)
}
