//! The store-backed [`InvocationLog`] the graph gateway grounds facts against.

use std::borrow::Cow;

use masf_graph::{InvocationLog, InvocationView};
use masf_store::Store;

/// Reads invocations from the case store for grounding.
///
/// Outputs are read with [`Store::invocation_output`], which re-hashes them: an output altered
/// on disk reads as absent, so grounding fails safe. Structured outputs are not stored; views
/// carry the canonical text only (`structured: None`).
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
        Some(InvocationView {
            id: Cow::Owned(record.invocation_id),
            source_id: Cow::Owned(record.source_id),
            agent: Cow::Owned(record.agent),
            task_id: Cow::Owned(record.task_id),
            output: Cow::Owned(output),
            structured: None,
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
