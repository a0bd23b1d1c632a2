//! Control attribution (issue 16, part 4): which person controls a wallet.
//!
//! A **claim** is a wallet address held as an identifier by a *person* entity: the plugins
//! observe it there when the evidence says that person wrote it as theirs — the device owner
//! in an outgoing message (the entity of context `owner`), a contact in a message they sent
//! (the entity of the sender's handle). Every claim is grounded like any identity observation:
//! its phenomenon cites the message row in a logged tool output, and its interpretation says
//! which pattern it is. A wallet held by a person is never a coreference key
//! ([`super::Prepared`]): a payer and a payee both write the payee's address.
//!
//! For each claim, the planner adds a hypothesis of kind [`HypothesisKind::Control`],
//! `"<wallet entity> is controlled by <person entity>"` with subjects `[wallet, person]`,
//! where the wallet entity is the one of the claim's own source holding the address (else the
//! first wallet entity holding it), and links:
//!
//! | evidence | edge |
//! |---|---|
//! | the claim itself (the person wrote the address as theirs) | `direct_evidence` (+2) |
//! | another claim on the address by the same actor (another message, another phone) | `supports` (+1) |
//! | a claim on the same address by a person of *another* actor with at least as many claims on it | `contradicts` (−2) |
//! | a claim by another actor with fewer claims on it (a payer who once quoted the payee's address) | `weakens` (−0.5) |
//!
//! Claims are counted per actor (entities joined by live coreference edges); edges of one type
//! decay harmonically (+2, +1, +0.67, …). With the control prior 0.25 (`L₀ = −0.477`), one
//! claim is `L = 1.52` (0.97, supported); two actors with as many claims each cancel out (one
//! claim each: `L = −0.48`; two each: `2 + 1 − 2 − 1`, the same: 0.25, undecided, so neither
//! gains the address); against a competitor with fewer claims the holder's claims stay
//! supported while the competitor's are refuted. Claims of entities that are one actor (the
//! owner's own number in another phone's messages) corroborate instead of competing. Who competes depends on coreference,
//! so control is planned only once coreference is settled, and a hypothesis whose resolver
//! edges no longer match (two claimants became one actor) gets a new revision, as coreference
//! hypotheses do.
//!
//! A supported control hypothesis makes a `same_as` edge of relation `control`; the examiner
//! approves or retracts it like any other. In [`super::actors`] a wallet cluster joins the
//! actor of the person controlling it when exactly one actor does; a wallet two actors hold
//! live control edges on joins neither and is listed in each one's `contested`. So control
//! never joins two people.

use std::collections::{BTreeMap, HashMap};

use super::{RESOLVER, UnionFind, is_mention, key};
use crate::gateway::{Call, LinkRequest, NewHypothesis};
use crate::identifiers::IdType;
use crate::model::{Entity, EntityKind, HypothesisKind, Relation};
use crate::scoring::EdgeType;
use crate::state::GraphState;

/// The statement of a control hypothesis, revision `revision` (from 1).
pub fn control_statement(controlled: &str, person: &str, revision: usize) -> String {
    if revision <= 1 {
        format!("{controlled} is controlled by {person}")
    } else {
        format!("{controlled} is controlled by {person} (revision {revision})")
    }
}

/// One claim: `person` wrote `address` as theirs, observed by `phenomenon_id`.
#[derive(Debug, Clone)]
pub struct Claim<'a> {
    /// The person entity.
    pub person: &'a Entity,
    /// The wallet address, normalised.
    pub address: &'a str,
    /// The identity phenomenon that observed it.
    pub phenomenon_id: &'a str,
}

/// Every claim of the graph: wallet identifiers held by person entities (mentions excluded:
/// a document naming someone's address says nothing about whose it is), placeholders not.
pub fn claims(state: &GraphState) -> Vec<Claim<'_>> {
    let mut out = Vec::new();
    for e in state.entities().values() {
        if e.kind != EntityKind::Person || is_mention(e) {
            continue;
        }
        for i in &e.identifiers {
            if i.id_type == IdType::Wallet && !key(i).1.is_empty() {
                out.push(Claim {
                    person: e,
                    address: &i.normalized,
                    phenomenon_id: &i.phenomenon_id,
                });
            }
        }
    }
    out
}

/// For each entity id, the root of its actor under live coreference edges only (mentions
/// included as ordinary entities: good enough to tell whether two claimants are one actor).
fn coreference_roots(state: &GraphState) -> HashMap<&str, usize> {
    let ids: Vec<&str> = state.entities().keys().map(String::as_str).collect();
    let index: HashMap<&str, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let mut uf = UnionFind::new(ids.len());
    for edge in state.same_as().values() {
        if edge.is_live()
            && edge.relation == Relation::Coreference
            && let (Some(&a), Some(&b)) = (index.get(edge.a.as_str()), index.get(edge.b.as_str()))
        {
            uf.union(a, b);
        }
    }
    ids.iter()
        .enumerate()
        .map(|(i, id)| (*id, uf.find(i)))
        .collect()
}

/// The gateway calls that bring the control hypotheses to the current claims (see the module
/// documentation), as agent [`RESOLVER`]. Empty when they are up to date.
pub fn plan_control(state: &GraphState) -> Vec<Call> {
    let claims = claims(state);
    if claims.is_empty() {
        return Vec::new();
    }
    // Wallet entities by address, in id order.
    let mut wallets: HashMap<&str, Vec<&Entity>> = HashMap::new();
    for e in state.entities().values() {
        if e.kind != EntityKind::Wallet {
            continue;
        }
        for i in &e.identifiers {
            if i.id_type == IdType::Wallet && !key(i).1.is_empty() {
                wallets.entry(i.normalized.as_str()).or_default().push(e);
            }
        }
    }
    let roots = coreference_roots(state);
    let root = |e: &Entity| roots.get(e.id.as_str()).copied();
    let mut by_address: BTreeMap<&str, Vec<&Claim<'_>>> = BTreeMap::new();
    for c in &claims {
        by_address.entry(c.address).or_default().push(c);
    }
    let mut calls = Vec::new();
    // One hypothesis per (wallet entity, person): a person's claims on one address.
    let mut planned: BTreeMap<(String, String), Vec<(String, EdgeType)>> = BTreeMap::new();
    for c in &claims {
        let Some(held) = wallets.get(c.address) else {
            continue;
        };
        let Some(wallet) = held
            .iter()
            .find(|w| w.source_id == c.person.source_id)
            .or_else(|| held.first())
        else {
            continue;
        };
        let wanted = planned
            .entry((wallet.id.clone(), c.person.id.clone()))
            .or_default();
        wanted.push((c.phenomenon_id.to_owned(), EdgeType::DirectEvidence));
        let on_address = by_address.get(c.address).map_or(&[][..], Vec::as_slice);
        let claims_of =
            |r: Option<usize>| on_address.iter().filter(|o| root(o.person) == r).count();
        let own = claims_of(root(c.person));
        for other in on_address {
            let theirs = root(other.person);
            if theirs == root(c.person) {
                // The same actor wrote it as theirs elsewhere too (another message, another
                // phone): corroboration.
                if other.phenomenon_id != c.phenomenon_id {
                    wanted.push((other.phenomenon_id.to_owned(), EdgeType::Supports));
                }
                continue;
            }
            // An actor with at least as many claims on the address contradicts this one; one
            // with fewer (a payer who once quoted the payee's address) only weakens it.
            let edge = if claims_of(theirs) >= own {
                EdgeType::Contradicts
            } else {
                EdgeType::Weakens
            };
            wanted.push((other.phenomenon_id.to_owned(), edge));
        }
    }
    for ((wallet, person), mut wanted) in planned {
        wanted.sort();
        wanted.dedup();
        let revisions = state.coreference_hypotheses(&wallet, &person);
        let current = revisions.last().and_then(|id| state.hypotheses().get(id));
        let new_revision = |n: usize| {
            Call::AddHypothesis(NewHypothesis {
                proposed_by: RESOLVER.to_owned(),
                statement: control_statement(&wallet, &person, n),
                kind: HypothesisKind::Control,
                prior: None,
                subjects: vec![wallet.clone(), person.clone()],
            })
        };
        let Some(hypothesis) = current else {
            calls.push(new_revision(1));
            continue;
        };
        let wanted_type: BTreeMap<&str, EdgeType> =
            wanted.iter().map(|(p, t)| (p.as_str(), *t)).collect();
        let stale = hypothesis
            .edges
            .iter()
            .filter(|e| e.linked_by == RESOLVER)
            .any(|e| wanted_type.get(e.phenomenon_id.as_str()) != Some(&e.edge_type));
        if stale {
            calls.push(new_revision(revisions.len() + 1));
            continue;
        }
        // Negative edges first, as for coreference: the confidence only rises while the
        // batch is applied.
        wanted.sort_by(|x, y| {
            let base = |t: EdgeType| state.scoring().base(t).unwrap_or(0.0);
            base(x.1).total_cmp(&base(y.1)).then_with(|| x.0.cmp(&y.0))
        });
        for (phenomenon_id, edge_type) in wanted {
            if !hypothesis
                .edges
                .iter()
                .any(|e| e.phenomenon_id == phenomenon_id)
            {
                calls.push(Call::Link(LinkRequest {
                    agent: RESOLVER.to_owned(),
                    task_id: None,
                    phenomenon_id,
                    hypothesis_id: hypothesis.id.clone(),
                    edge_type,
                }));
            }
        }
    }
    calls
}
