//! Competing contact claims (issue 16): a phone number, e-mail address or app account id
//! that two people known to be different each wrote as their own.
//!
//! A contact claim ([`Identifier::is_claim`]) is one edge of coreference evidence, from the
//! claim ([`super::evidence_prepared`]). The claims on one value come from *parties*: the
//! clusters coreference makes from own values alone, claims left out (a mention attached to
//! the one cluster it reaches, as in [`super::actors`]). Two parties are *rivals* when the
//! evidence says they are different people: one holds a source's `owner` (the device's user)
//! and the other a person entity of the same source that is not its owner (someone the user
//! corresponded with or saved). A value two rivals claim is *contested*, and then all its
//! parties' claims compete, as wallet claims do ([`super::control`]):
//!
//! | evidence in a pair the claim of party P would join, on a contested value | edge |
//! |---|---|
//! | the claim itself | `direct_evidence` (+2), as before |
//! | another claim on the value by P (another message, another phone of P's) | `supports` (+1) |
//! | a claim by another party whose claims weigh at least as much | `contradicts` (−2) |
//! | a claim by another party whose claims weigh less | `weakens` (−0.5) |
//!
//! and two parties' claims meeting each other give no `supports` edge. A party's claims weigh
//! 2 each (every contact claim has its cue). So when B forwards PAT's "my new number is X" to
//! C, B's phone holds two claims on X, B's own (sent) and PAT's handle's (received): rivals.
//! B's claims (B's phone, C's) weigh as much as PAT's (PAT's old phone, B's): neither joins
//! X's owner, B is never joined to PAT, and B's handle on C's phone (whose number B's phone
//! may not know) joins neither; against a writer who told more people the forwarder stays a
//! weaker rival. A value no rivals claim keeps the plain rule: both ends of one message (the
//! sender's phone and the receiver's handle of the sender) support each other. Parties and
//! rivals depend only on the identifiers, never on the order they arrived in.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::{KeySpace, Prepared, UnionFind, evidence_with, is_mention};
use crate::model::{Entity, EntityKind, HypothesisKind, Identifier};
use crate::scoring::{EdgeType, Scoring, Status, score};

/// One claim on a contested value: the claimant (an index into the prepared entities), the
/// phenomenon that observed it and the claimant's party.
#[derive(Debug, Clone, Copy)]
struct Claim<'a> {
    entity: usize,
    phenomenon: &'a str,
    party: usize,
}

/// The claims on one contested value and the weight of each party's claims on it.
type OnValue<'a> = (Vec<Claim<'a>>, HashMap<usize, usize>);

/// The contested values among a set of prepared entities, with each entity's party.
#[derive(Debug, Default)]
pub struct Contest<'a> {
    /// Per entity index, its party (a root of the claim-free clustering). Empty when nothing
    /// is contested.
    party: Vec<usize>,
    /// Per contested key, its claims and the weight of each party's claims.
    contested: HashMap<(KeySpace, &'a str), OnValue<'a>>,
}

impl<'a> Contest<'a> {
    /// Finds the contested values among `entities` (their candidate pairs `pairs`): claims on
    /// one value by at least two parties. The claim-free clustering is computed only when
    /// some value is claimed by two entities or more.
    pub fn new(entities: &[Prepared<'a>], pairs: &[(usize, usize)], scoring: &Scoring) -> Self {
        let mut claims: HashMap<(KeySpace, &'a str), Vec<(usize, &'a Identifier)>> = HashMap::new();
        for (i, p) in entities.iter().enumerate() {
            for (identifier, k) in p.entity.identifiers.iter().zip(&p.keys) {
                if identifier.is_claim() && !k.1.is_empty() {
                    claims
                        .entry((k.0, identifier.normalized.as_str()))
                        .or_default()
                        .push((i, identifier));
                }
            }
        }
        claims.retain(|_, c| c.len() >= 2);
        if claims.is_empty() {
            return Self::default();
        }
        let party = parties(entities, pairs, scoring);
        let mut contested = HashMap::new();
        for (key, on_value) in claims {
            let mut weight: HashMap<usize, usize> = HashMap::new();
            let list: Vec<Claim<'a>> = on_value
                .iter()
                .map(|&(i, identifier)| {
                    let p = party.get(i).copied().unwrap_or(i);
                    *weight.entry(p).or_default() += 1 + usize::from(identifier.cue.is_some());
                    Claim {
                        entity: i,
                        phenomenon: identifier.phenomenon_id.as_str(),
                        party: p,
                    }
                })
                .collect();
            if weight.len() >= 2 {
                contested.insert(key, (list, weight));
            }
        }
        // Rivals: a party holding a source's owner and one holding another person of it.
        let involved: HashSet<usize> = contested
            .values()
            .flat_map(|(_, weight)| weight.keys().copied())
            .collect();
        let mut owners: HashMap<&str, BTreeSet<usize>> = HashMap::new();
        let mut others: HashMap<&str, BTreeSet<usize>> = HashMap::new();
        for (n, p) in entities.iter().enumerate() {
            let root = party.get(n).copied().unwrap_or(n);
            if p.entity.kind != EntityKind::Person || !involved.contains(&root) {
                continue;
            }
            let side = if p.entity.context == "owner" {
                &mut owners
            } else {
                &mut others
            };
            side.entry(p.entity.source_id.as_str())
                .or_default()
                .insert(root);
        }
        let mut rivals = HashSet::new();
        for (source, owning) in &owners {
            for &o in owning {
                for &x in others.get(source).into_iter().flatten() {
                    if o != x {
                        rivals.insert((o.min(x), o.max(x)));
                    }
                }
            }
        }
        contested.retain(|_, (_, weight)| {
            let parties: Vec<usize> = weight.keys().copied().collect();
            parties.iter().enumerate().any(|(k, &a)| {
                parties
                    .iter()
                    .skip(k + 1)
                    .any(|&b| rivals.contains(&(a.min(b), a.max(b))))
            })
        });
        if contested.is_empty() {
            return Self::default();
        }
        Self { party, contested }
    }

    /// Whether no value is contested.
    pub fn is_empty(&self) -> bool {
        self.contested.is_empty()
    }

    /// Weighs the claim edges of the pair `(i, j)` (indices into `entities`) in `edges`
    /// ([`super::evidence_prepared`]'s output) against the competing claims (see the module
    /// documentation); sorted by phenomenon id as before.
    pub fn weigh(
        &self,
        entities: &[Prepared<'a>],
        (i, j): (usize, usize),
        edges: &mut Vec<(EdgeType, &'a Entity, &'a Identifier)>,
    ) {
        if self.is_empty() {
            return;
        }
        let party_of = |n: usize| self.party.get(n).copied().unwrap_or(n);
        let mut added = Vec::new();
        let mut dropped = BTreeSet::new();
        for (at, &(edge_type, entity, identifier)) in edges.iter().enumerate() {
            if !identifier.is_claim() {
                continue;
            }
            let Some((claims, weight)) = self
                .contested
                .get(&(super::key_space(identifier), identifier.normalized.as_str()))
            else {
                continue;
            };
            let (this, other) = if entities.get(i).is_some_and(|p| p.entity.id == entity.id) {
                (i, j)
            } else {
                (j, i)
            };
            let (mine, theirs) = (party_of(this), party_of(other));
            if mine == theirs {
                // Already one actor without the claim: it decides nothing.
                continue;
            }
            if edge_type == EdgeType::Supports {
                // Two parties' claims on a contested value are no tie between them.
                dropped.insert(at);
                continue;
            }
            let own = weight.get(&mine).copied().unwrap_or(0);
            for c in claims {
                if c.phenomenon == identifier.phenomenon_id || c.entity == this {
                    continue;
                }
                let edge = if c.party == mine {
                    EdgeType::Supports
                } else if weight.get(&c.party).copied().unwrap_or(0) >= own {
                    EdgeType::Contradicts
                } else {
                    EdgeType::Weakens
                };
                let Some(p) = entities.get(c.entity) else {
                    continue;
                };
                if let Some(id) = p
                    .entity
                    .identifiers
                    .iter()
                    .find(|id| id.phenomenon_id == c.phenomenon)
                {
                    added.push((edge, p.entity, id));
                }
            }
        }
        if added.is_empty() && dropped.is_empty() {
            return;
        }
        let mut at = 0;
        edges.retain(|_| {
            at += 1;
            !dropped.contains(&(at - 1))
        });
        edges.extend(added);
        edges.sort_by(|x, y| x.2.phenomenon_id.cmp(&y.2.phenomenon_id));
        edges.dedup_by(|x, y| x.2.phenomenon_id == y.2.phenomenon_id);
    }
}

/// Per entity, the root of its cluster under coreference by own values only (claims left
/// out, [`evidence_with`]); a mention takes the root of the one cluster its supported pairs
/// reach and keeps its own when they reach none or several.
fn parties(entities: &[Prepared<'_>], pairs: &[(usize, usize)], scoring: &Scoring) -> Vec<usize> {
    let prior = scoring.prior_for(HypothesisKind::Coreference);
    let mention: Vec<bool> = entities.iter().map(|p| is_mention(p.entity)).collect();
    let mention_at = |n: usize| mention.get(n).copied().unwrap_or(false);
    let supported: Vec<(usize, usize)> = pairs
        .iter()
        .copied()
        .filter(|&(i, j)| {
            let (Some(a), Some(b)) = (entities.get(i), entities.get(j)) else {
                return false;
            };
            let evidence = evidence_with(a, b, false);
            !evidence.is_empty()
                && score(
                    scoring,
                    prior,
                    evidence
                        .iter()
                        .map(|(t, _, id)| (*t, id.phenomenon_id.as_str())),
                )
                .status
                    == Status::Supported
        })
        .collect();
    let mut uf = UnionFind::new(entities.len());
    for &(a, b) in &supported {
        if !mention_at(a) && !mention_at(b) {
            uf.union(a, b);
        }
    }
    let mut reached: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for &(a, b) in &supported {
        match (mention_at(a), mention_at(b)) {
            (true, false) => {
                reached.entry(a).or_default().insert(uf.find(b));
            }
            (false, true) => {
                reached.entry(b).or_default().insert(uf.find(a));
            }
            _ => {}
        }
    }
    (0..entities.len())
        .map(|n| match reached.get(&n) {
            Some(roots) if roots.len() == 1 => roots.first().copied().unwrap_or(n),
            _ if mention_at(n) => n,
            _ => uf.find(n),
        })
        .collect()
}
