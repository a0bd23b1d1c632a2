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
//! | a claim on the same address by a person of *another* actor whose claims on it weigh at least as much | `contradicts` (−2) |
//! | a claim by another actor whose claims weigh less (a payer who once quoted the payee's address) | `weakens` (−0.5) |
//!
//! A claim weighs 2 when a cue word before the address named its holder (`Identifier::cue`:
//! "my address is …", "sent … to …"), 1 when nothing did (a bare address, read as the
//! writer's). Claims are weighed per actor (entities joined by live coreference edges); edges
//! of one type decay harmonically (+2, +1, +0.67, …). With the control prior 0.25
//! (`L₀ = −0.477`), one claim is `L = 1.52` (0.97, supported); two actors whose claims weigh
//! the same cancel out (one claim each: `L = −0.48`; two each: `2 + 1 − 2 − 1`, the same:
//! 0.25, undecided, so neither gains the address); against a lighter competitor the holder's
//! claims stay supported while the competitor's are refuted. Claims of entities that are one
//! actor (the owner's own number in another phone's messages) corroborate instead of
//! competing. Who competes depends on coreference,
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

use super::{UnionFind, is_mention, key, plan_pair};
use crate::gateway::Call;
use crate::identifiers::IdType;
use crate::model::{Entity, EntityKind, HypothesisKind, Relation};
use crate::scoring::{EdgeType, Scoring, Status, score};
use crate::state::GraphState;

/// The statement of a control hypothesis, revision `revision` (from 1).
pub fn control_statement(controlled: &str, person: &str, revision: usize) -> String {
    if revision <= 1 {
        format!("{controlled} is controlled by {person}")
    } else {
        format!("{controlled} is controlled by {person} (revision {revision})")
    }
}

/// For each entity (in `state.entities()` order), the root of its actor under live
/// coreference edges only (mentions included as ordinary entities: good enough to tell
/// whether two claimants are one actor).
fn coreference_roots(state: &GraphState, entities: &[&Entity]) -> Vec<usize> {
    let index: HashMap<&str, usize> = entities
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    let mut uf = UnionFind::new(entities.len());
    for edge in state.same_as().values() {
        if edge.is_live()
            && edge.relation == Relation::Coreference
            && let (Some(&a), Some(&b)) = (index.get(edge.a.as_str()), index.get(edge.b.as_str()))
        {
            uf.union(a, b);
        }
    }
    (0..entities.len()).map(|i| uf.find(i)).collect()
}

/// The evidence of every control hypothesis the claims call for: per (wallet entity, person
/// entity) as indices into `entities`, the phenomena to link and their edge types (see the
/// module documentation). `root[i]` is entity `i`'s coreference actor. Linear in the claims
/// but for the claims on one address, which are compared with each other.
pub fn wanted_control<'a>(
    entities: &[&'a Entity],
    root: &[usize],
) -> BTreeMap<(usize, usize), Vec<(&'a str, EdgeType)>> {
    let mut planned: BTreeMap<(usize, usize), Vec<(&'a str, EdgeType)>> = BTreeMap::new();
    // Claims (person index, phenomenon, weight: 2 with a cue word, 1 bare) and wallet entities
    // (in id order) by address.
    let mut claims: HashMap<&'a str, Vec<(usize, &'a str, usize)>> = HashMap::new();
    let mut wallets: HashMap<&'a str, Vec<usize>> = HashMap::new();
    for (i, e) in entities.iter().enumerate() {
        let person = e.kind == EntityKind::Person && !is_mention(e);
        if !person && e.kind != EntityKind::Wallet {
            continue;
        }
        for id in &e.identifiers {
            if id.id_type != IdType::Wallet || key(id).1.is_empty() {
                continue;
            }
            if person {
                claims.entry(id.normalized.as_str()).or_default().push((
                    i,
                    id.phenomenon_id.as_str(),
                    1 + usize::from(id.cue.is_some()),
                ));
            } else {
                wallets.entry(id.normalized.as_str()).or_default().push(i);
            }
        }
    }
    let root_of = |i: usize| root.get(i).copied().unwrap_or(i);
    for (address, on_address) in &claims {
        let Some(held) = wallets.get(address) else {
            continue;
        };
        let mut per_actor: HashMap<usize, usize> = HashMap::new();
        for &(p, _, weight) in on_address {
            *per_actor.entry(root_of(p)).or_default() += weight;
        }
        for &(person, phenomenon, _) in on_address {
            let Some(e) = entities.get(person) else {
                continue;
            };
            // The wallet entity of the claim's own source, else the first holding the address.
            let Some(&wallet) = held
                .iter()
                .find(|&&w| entities.get(w).is_some_and(|w| w.source_id == e.source_id))
                .or_else(|| held.first())
            else {
                continue;
            };
            let wanted = planned.entry((wallet, person)).or_default();
            wanted.push((phenomenon, EdgeType::DirectEvidence));
            let mine = root_of(person);
            let own = per_actor.get(&mine).copied().unwrap_or(0);
            for &(other, theirs_phenomenon, _) in on_address {
                let theirs = root_of(other);
                if theirs == mine {
                    // The same actor wrote it as theirs elsewhere too (another message,
                    // another phone): corroboration.
                    if theirs_phenomenon != phenomenon {
                        wanted.push((theirs_phenomenon, EdgeType::Supports));
                    }
                    continue;
                }
                // An actor whose claims on the address weigh at least as much contradicts this
                // one; a lighter one (a payer who once quoted the payee's address) only
                // weakens it.
                let edge = if per_actor.get(&theirs).copied().unwrap_or(0) >= own {
                    EdgeType::Contradicts
                } else {
                    EdgeType::Weakens
                };
                wanted.push((theirs_phenomenon, edge));
            }
        }
    }
    for wanted in planned.values_mut() {
        wanted.sort();
        wanted.dedup();
    }
    planned
}

/// The (wallet, person) index pairs whose control hypothesis would be supported, computed
/// without a graph (for the benchmark): [`wanted_control`] scored with the control prior.
pub fn supported_control(
    entities: &[&Entity],
    root: &[usize],
    scoring: &Scoring,
) -> Vec<(usize, usize)> {
    let prior = scoring.prior_for(HypothesisKind::Control);
    wanted_control(entities, root)
        .into_iter()
        .filter(|(_, wanted)| {
            score(scoring, prior, wanted.iter().map(|(p, t)| (*t, *p))).status == Status::Supported
        })
        .map(|(pair, _)| pair)
        .collect()
}

/// The gateway calls that bring the control hypotheses to the current claims (see the module
/// documentation), as agent [`super::RESOLVER`]. Empty when they are up to date.
pub fn plan_control(state: &GraphState) -> Vec<Call> {
    let entities: Vec<&Entity> = state.entities().values().collect();
    let root = coreference_roots(state, &entities);
    let mut calls = Vec::new();
    let planned = wanted_control(&entities, &root)
        .into_iter()
        .filter_map(|((w, p), wanted)| {
            Some((
                (entities.get(w)?.id.clone(), entities.get(p)?.id.clone()),
                wanted
                    .into_iter()
                    .map(|(ph, t)| (ph.to_owned(), t))
                    .collect::<Vec<(String, EdgeType)>>(),
            ))
        });
    for ((wallet, person), wanted) in planned {
        plan_pair(
            state,
            HypothesisKind::Control,
            [&wallet, &person],
            &|n| control_statement(&wallet, &person, n),
            wanted,
            &mut calls,
        );
    }
    calls
}
