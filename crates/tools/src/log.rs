//! The store-backed [`InvocationLog`] the graph gateway grounds facts against.

use std::borrow::Cow;

use masf_graph::{GraphEvent, GraphState, InvocationLog, InvocationView, Scoring};
use masf_store::{Store, StoreError};

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

/// Folds every graph event of `store`, in order, into a [`GraphState`] (events of other kinds
/// are skipped). The one fold used by agent sessions, the report and the API.
pub fn fold_graph(store: &Store, scoring: Scoring) -> Result<GraphState, FoldError> {
    let mut state = GraphState::new(scoring);
    store.for_each_event(0, |stored| -> Result<(), FoldError> {
        if !GraphEvent::KINDS.contains(&stored.kind.as_str()) {
            return Ok(());
        }
        let event = GraphEvent::from_payload(&stored.payload).map_err(|e| FoldError::BadEvent {
            seq: stored.seq,
            kind: stored.kind.clone(),
            reason: e.to_string(),
        })?;
        state.apply(&event);
        Ok(())
    })?;
    Ok(state)
}
