//! The ownership planner (phase 2): for every source whose owner the case declares, the
//! hypothesis "<person> is the user of <source>", with edges from the identities observed:
//!
//! | observation | edge |
//! |---|---|
//! | the source's `owner` entity carries the person's name (name key equal, DESIGN §8) | `direct_evidence` |
//! | an `author:` entity of the source carries the person's name (documents they wrote) | `supports` |
//! | the source's `owner` entity shares an actor with an entity of *another* source that carries the person's name (e.g. the owner's number saved under that name in someone else's phone) | `supports` |
//! | the source's `owner` entity carries *another* case person's name | `contradicts` |
//!
//! Names are compared by [`masf_graph::resolution::name_key`] (case, spacing, punctuation and
//! token order ignored; a look-alike such as `LEUNG Y L` for `LEUNG YL` is not equal). Each
//! edge cites the identity phenomenon that observed the name or the shared identifier. Pure:
//! it reads the graph and returns gateway calls; planning again after they are applied
//! returns nothing.

use std::collections::{BTreeMap, BTreeSet};

use masf_graph::resolution::{actors, name_key};
use masf_graph::{
    Call, EdgeType, Entity, GraphState, HypothesisKind, IdType, LinkRequest, NewHypothesis,
};

use crate::orchestrator::Planner;
use crate::session::SourceInfo;

/// The planner's agent name.
pub const OWNERSHIP: &str = "ownership";

/// A person of the case with the names they are known by.
#[derive(Debug, Clone)]
pub struct CasePerson {
    /// The case's person id.
    pub id: String,
    /// The name, then aliases.
    pub names: Vec<String>,
}

/// See the module documentation.
pub struct OwnershipPlanner {
    /// The case's persons.
    pub persons: Vec<CasePerson>,
}

/// The statement of the ownership hypothesis of a person and a source.
pub fn statement(person: &CasePerson, source: &SourceInfo) -> String {
    format!(
        "{} ({}) is the user of {} ({})",
        person.names.first().map_or("?", String::as_str),
        person.id,
        source.label,
        source.id
    )
}

/// The name keys an entity carries (its label and its display names / nicknames), each with
/// the phenomenon that observed it (the label's: the entity's first identifier's).
fn names(entity: &Entity) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = entity
        .identifiers
        .iter()
        .filter(|i| matches!(i.id_type, IdType::DisplayName | IdType::Nickname))
        .map(|i| (name_key(&i.value), i.phenomenon_id.clone()))
        .collect();
    if let Some(first) = entity.identifiers.first()
        && !entity.label.trim().is_empty()
    {
        out.push((name_key(&entity.label), first.phenomenon_id.clone()));
    }
    out
}

impl Planner for OwnershipPlanner {
    fn name(&self) -> &'static str {
        OWNERSHIP
    }

    fn plan(&self, state: &GraphState, sources: &[SourceInfo]) -> Vec<Call> {
        let keys: BTreeMap<&str, BTreeSet<String>> = self
            .persons
            .iter()
            .map(|p| (p.id.as_str(), p.names.iter().map(|n| name_key(n)).collect()))
            .collect();
        let actor_of: BTreeMap<String, Vec<String>> = actors(state)
            .into_iter()
            .flat_map(|a| {
                let members = a.entities.clone();
                a.entities.into_iter().map(move |e| (e, members.clone()))
            })
            .collect();
        let mut calls = Vec::new();
        for source in sources {
            let Some(owner) = source.owner.as_deref() else {
                continue;
            };
            let Some(person) = self.persons.iter().find(|p| p.id == owner) else {
                continue;
            };
            let mine = &keys[owner];
            let statement = statement(person, source);
            let Some(h) = state
                .hypotheses()
                .values()
                .find(|h| h.kind == HypothesisKind::Ownership && h.statement == statement)
            else {
                calls.push(Call::AddHypothesis(NewHypothesis {
                    proposed_by: OWNERSHIP.to_string(),
                    statement,
                    kind: HypothesisKind::Ownership,
                    prior: None,
                    subjects: Vec::new(),
                }));
                continue;
            };
            let mut edges: BTreeMap<String, EdgeType> = BTreeMap::new();
            let mut add = |ph: &str, t: EdgeType| {
                edges.entry(ph.to_string()).or_insert(t);
            };
            for e in state
                .entities()
                .values()
                .filter(|e| e.source_id == source.id)
            {
                let is_owner = e.context == "owner";
                let is_author = e.context.starts_with("author:");
                if !is_owner && !is_author {
                    continue;
                }
                for (key, ph) in names(e) {
                    if mine.contains(&key) {
                        add(
                            &ph,
                            if is_owner {
                                EdgeType::DirectEvidence
                            } else {
                                EdgeType::Supports
                            },
                        );
                    } else if is_owner
                        && keys.iter().any(|(id, k)| *id != owner && k.contains(&key))
                    {
                        add(&ph, EdgeType::Contradicts);
                    }
                }
                if !is_owner {
                    continue;
                }
                // Corroboration from other sources: an entity of the owner's actor, elsewhere,
                // saved under the person's name; cite its observation of an identifier the
                // owner entity holds too.
                let owner_ids: BTreeSet<&str> = e
                    .identifiers
                    .iter()
                    .map(|i| i.normalized.as_str())
                    .collect();
                for other_id in actor_of.get(&e.id).into_iter().flatten() {
                    let Some(other) = state.entities().get(other_id) else {
                        continue;
                    };
                    if other.source_id == source.id
                        || !names(other).iter().any(|(k, _)| mine.contains(k))
                    {
                        continue;
                    }
                    if let Some(shared) = other
                        .identifiers
                        .iter()
                        .find(|i| owner_ids.contains(i.normalized.as_str()))
                    {
                        add(&shared.phenomenon_id, EdgeType::Supports);
                    }
                }
            }
            for (ph, edge_type) in edges {
                if h.edges.iter().any(|e| e.phenomenon_id == ph) {
                    continue;
                }
                calls.push(Call::Link(LinkRequest {
                    agent: OWNERSHIP.to_string(),
                    task_id: None,
                    phenomenon_id: ph,
                    hypothesis_id: h.id.clone(),
                    edge_type,
                }));
            }
        }
        calls
    }
}
