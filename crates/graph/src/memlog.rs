//! An in-memory [`InvocationLog`] for tests, benchmarks and tools that hold their log in memory.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::grounding::{InvocationLog, InvocationView};

/// One invocation held by a [`MemoryLog`]. In data files `output` is text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryInvocation {
    /// Its id.
    pub id: String,
    /// The source the tool was bound to.
    pub source_id: String,
    /// The agent that made the call.
    pub agent: String,
    /// The task it was made in.
    pub task_id: String,
    /// The text output.
    #[serde(with = "text_bytes")]
    pub output: Vec<u8>,
    /// The structured output, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured: Option<Value>,
}

mod text_bytes {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&String::from_utf8_lossy(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        Ok(String::deserialize(d)?.into_bytes())
    }
}

/// Invocations in memory, indexed by id and by (agent, task) in insertion order.
#[derive(Debug, Clone, Default)]
pub struct MemoryLog {
    by_id: HashMap<String, MemoryInvocation>,
    by_agent_task: HashMap<(String, String), Vec<String>>,
}

impl MemoryLog {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an invocation (the most recent of its agent and task). An invocation with an id
    /// already present replaces the earlier one's content but keeps its place.
    pub fn push(&mut self, invocation: MemoryInvocation) {
        let key = (invocation.agent.clone(), invocation.task_id.clone());
        if let Some(old) = self.by_id.get(&invocation.id) {
            let old_key = (old.agent.clone(), old.task_id.clone());
            if old_key != key {
                if let Some(ids) = self.by_agent_task.get_mut(&old_key) {
                    ids.retain(|id| *id != invocation.id);
                }
                self.by_agent_task
                    .entry(key)
                    .or_default()
                    .push(invocation.id.clone());
            }
        } else {
            self.by_agent_task
                .entry(key)
                .or_default()
                .push(invocation.id.clone());
        }
        self.by_id.insert(invocation.id.clone(), invocation);
    }

    /// Number of invocations.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// True when the log holds no invocation.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}

impl FromIterator<MemoryInvocation> for MemoryLog {
    fn from_iter<I: IntoIterator<Item = MemoryInvocation>>(iter: I) -> Self {
        let mut log = Self::new();
        for invocation in iter {
            log.push(invocation);
        }
        log
    }
}

impl InvocationLog for MemoryLog {
    fn get(&self, id: &str) -> Option<InvocationView<'_>> {
        self.by_id.get(id).map(|inv| InvocationView {
            id: Cow::Borrowed(&inv.id),
            source_id: Cow::Borrowed(&inv.source_id),
            agent: Cow::Borrowed(&inv.agent),
            task_id: Cow::Borrowed(&inv.task_id),
            output: Cow::Borrowed(&inv.output),
            structured: inv.structured.as_ref().map(Cow::Borrowed),
        })
    }

    fn ids_for(&self, agent: &str, task_id: &str) -> Cow<'_, [String]> {
        // The key is owned; a lookup by borrowed parts would need a custom key type, and this
        // is a test and benchmark implementation.
        match self
            .by_agent_task
            .get(&(agent.to_owned(), task_id.to_owned()))
        {
            Some(ids) => Cow::Borrowed(ids),
            None => Cow::Borrowed(&[]),
        }
    }
}
