//! Control attribution (issue 16, part 4): which person controls a wallet.
//!
//! A **claim** is a wallet address held as an identifier by a *person* entity: the plugins
//! observe it there when the evidence says whose it is. The patterns, and whom each claim is
//! attributed to ([`claimants`]):
//!
//! | pattern (plugin) | entity holding the claim | attributed to |
//! |---|---|---|
//! | outgoing message or note, "my address …" (Android, iOS) | `owner` | its own actor |
//! | incoming message from a contact (Android, iOS) | the sender's card or `handle:` | its own actor |
//! | a party named right before the address — "Payee: LEUNG YL", "to CHAN MH, TRC20 address …" (documents, messages) | `named:<name>` | the one actor whose person entities carry that name (display name or nickname, equal by [`super::name_key`]); nobody when none or several do |
//! | a bare or "my" address in a document, from its metadata author (disk) | `author:<name>` | as `named:` |
//! | a document about one person: "me: +852 …, USDT receive: …" (disk) | the `document:` mention | the one actor the mention is attached to by its phones and e-mails; nobody when it names several |
//!
//! A name decides only when exactly one actor is known by it, so a look-alike ("LEUNG Y L"
//! for "LEUNG YL") never gains an address and two people saved under one name gain none.
//! Every claim is grounded like any identity observation: its phenomenon cites the message
//! row or document text in a logged tool output, and its interpretation says which pattern
//! and cue it is. A wallet held by a person is never a coreference key
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

use std::collections::{BTreeMap, BTreeSet, HashMap};

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
/// coreference edges only. A mention (a document's or screenshot's identifiers) bridges
/// nothing: it takes the root of the one actor its live edges reach, and keeps its own when
/// they reach none or several (as in [`super::actors`]).
fn coreference_roots(state: &GraphState, entities: &[&Entity]) -> Vec<usize> {
    let index: HashMap<&str, usize> = entities
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    let mention: Vec<bool> = entities.iter().map(|e| is_mention(e)).collect();
    let live: Vec<(usize, usize)> = state
        .same_as()
        .values()
        .filter(|e| e.is_live() && e.relation == Relation::Coreference)
        .filter_map(|e| Some((*index.get(e.a.as_str())?, *index.get(e.b.as_str())?)))
        .collect();
    let mut uf = UnionFind::new(entities.len());
    for &(a, b) in &live {
        if !mention[a] && !mention[b] {
            uf.union(a, b);
        }
    }
    let mut reached: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for &(a, b) in &live {
        match (mention[a], mention[b]) {
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
        .map(|i| match reached.get(&i) {
            Some(roots) if roots.len() == 1 => roots.first().copied().unwrap_or(i),
            _ if mention[i] => i,
            _ => uf.find(i),
        })
        .collect()
}

/// Whether a person entity stands for someone known only by a name the evidence gives: a
/// document's author (`author:<name>`) or a party named beside an address (`named:<name>`,
/// "Payee: LEUNG YL"). Its claims go to the one actor known by that name
/// ([`wanted_control`]).
pub fn is_named(entity: &Entity) -> bool {
    entity.kind == EntityKind::Person
        && NAMED_CONTEXT_PREFIXES
            .iter()
            .any(|p| entity.context.starts_with(p))
}

/// Context prefixes of the person entities [`is_named`] selects.
pub const NAMED_CONTEXT_PREFIXES: [&str; 2] = ["author:", "named:"];

/// Where an entity is, as the evidence names it: (source, context). Orders representatives
/// independently of entity ids.
fn place<'a>(entities: &[&'a Entity], i: usize) -> (&'a str, &'a str) {
    entities
        .get(i)
        .map_or(("", ""), |e| (e.source_id.as_str(), e.context.as_str()))
}

/// The name keys ([`super::name_key`]) of an entity's display names and nicknames.
fn name_keys(entity: &Entity) -> impl Iterator<Item = String> + '_ {
    entity
        .identifiers
        .iter()
        .filter(|id| matches!(id.id_type, IdType::DisplayName | IdType::Nickname))
        .map(|id| key(id).1)
        .filter(|k| !k.is_empty())
}

/// Who a claim is attributed to: the actor (a root) and the person entity its hypothesis
/// names.
#[derive(Debug, Clone, Copy)]
struct Claimant {
    root: usize,
    person: usize,
}

/// Finds, for each person entity holding a wallet address, the actor its claim is
/// attributed to (see the module documentation): its own for a person of a source; the one
/// actor that carries the name of a named entity (by [`super::name_key`], from the display
/// names and nicknames of ordinary person entities; none when no actor or several do); the
/// one actor a mention is attached to (none when it is attached to none or several).
fn claimants(entities: &[&Entity], root: &[usize]) -> HashMap<usize, Claimant> {
    let root_of = |i: usize| root.get(i).copied().unwrap_or(i);
    let ordinary = |e: &Entity| e.kind == EntityKind::Person && !is_mention(e) && !is_named(e);
    // Per name key, the actors carrying it with their first entity carrying it; per actor,
    // its first ordinary person entity.
    let mut by_name: HashMap<String, BTreeMap<usize, usize>> = HashMap::new();
    let mut first_person: HashMap<usize, usize> = HashMap::new();
    let holds_wallet = |e: &Entity| e.identifiers.iter().any(|id| id.id_type == IdType::Wallet);
    let any_named = entities.iter().any(|e| is_named(e) && holds_wallet(e));
    for (i, e) in entities.iter().enumerate() {
        if !ordinary(e) {
            continue;
        }
        // The representative of an actor (and of a name in it) is its entity first by
        // (source, context): what the evidence says, not the order entities were created in
        // (which differs between runs whose triage workers interleave differently).
        let keep_first = |first: &mut usize| {
            if place(entities, i) < place(entities, *first) {
                *first = i;
            }
        };
        keep_first(first_person.entry(root_of(i)).or_insert(i));
        if !any_named {
            continue;
        }
        for k in name_keys(e) {
            keep_first(by_name.entry(k).or_default().entry(root_of(i)).or_insert(i));
        }
    }
    let mut out = HashMap::new();
    for (i, e) in entities.iter().enumerate() {
        if e.kind != EntityKind::Person || !holds_wallet(e) {
            continue;
        }
        let claimant = if is_mention(e) {
            first_person.get(&root_of(i)).map(|&person| Claimant {
                root: root_of(i),
                person,
            })
        } else if is_named(e) {
            let mut found: BTreeMap<usize, usize> = BTreeMap::new();
            for k in name_keys(e) {
                for (&r, &person) in by_name.get(&k).into_iter().flatten() {
                    found.entry(r).or_insert(person);
                }
            }
            match found.into_iter().collect::<Vec<_>>().as_slice() {
                [(r, person)] => Some(Claimant {
                    root: *r,
                    person: *person,
                }),
                _ => None,
            }
        } else {
            Some(Claimant {
                root: root_of(i),
                person: i,
            })
        };
        if let Some(c) = claimant {
            out.insert(i, c);
        }
    }
    out
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
    let claimant = claimants(entities, root);
    // Claims (claimant, phenomenon, weight: 2 with a cue word, 1 bare) and wallet entities
    // (in id order) by address.
    let mut claims: HashMap<&'a str, Vec<(Claimant, usize, &'a str, usize)>> = HashMap::new();
    let mut wallets: HashMap<&'a str, Vec<usize>> = HashMap::new();
    for (i, e) in entities.iter().enumerate() {
        let person = e.kind == EntityKind::Person;
        if !person && e.kind != EntityKind::Wallet {
            continue;
        }
        for id in &e.identifiers {
            if id.id_type != IdType::Wallet || key(id).1.is_empty() {
                continue;
            }
            if person {
                if let Some(&c) = claimant.get(&i) {
                    claims.entry(id.normalized.as_str()).or_default().push((
                        c,
                        i,
                        id.phenomenon_id.as_str(),
                        1 + usize::from(id.cue.is_some()),
                    ));
                }
            } else {
                wallets.entry(id.normalized.as_str()).or_default().push(i);
            }
        }
    }
    for (address, on_address) in &claims {
        let Some(held) = wallets.get(address) else {
            continue;
        };
        let mut per_actor: HashMap<usize, usize> = HashMap::new();
        for &(c, _, _, weight) in on_address {
            *per_actor.entry(c.root).or_default() += weight;
        }
        for &(c, holder, phenomenon, _) in on_address {
            let Some(e) = entities.get(holder) else {
                continue;
            };
            // The wallet entity of the claim's own source, else the first (by source and
            // context) holding the address.
            let Some(&wallet) = held
                .iter()
                .find(|&&w| entities.get(w).is_some_and(|w| w.source_id == e.source_id))
                .or_else(|| held.iter().min_by_key(|&&w| place(entities, w)))
            else {
                continue;
            };
            let wanted = planned.entry((wallet, c.person)).or_default();
            wanted.push((phenomenon, EdgeType::DirectEvidence));
            let mine = c.root;
            let own = per_actor.get(&mine).copied().unwrap_or(0);
            for &(other, _, theirs_phenomenon, _) in on_address {
                let theirs = other.root;
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

/// A (controlled entity, person entity) pair of ids.
type Pair = (String, String);

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
    let planned: Vec<(Pair, Vec<(String, EdgeType)>)> = planned.collect();
    // A pair no claim calls for any more (a name that became ambiguous, a mention now attached
    // to two actors) gets a revision without evidence: back at the prior, its edge dormant.
    let wanted_pairs: BTreeSet<(&str, &str)> = planned
        .iter()
        .map(|((w, p), _)| (w.as_str(), p.as_str()))
        .collect();
    let withdrawn: BTreeSet<(String, String)> = state
        .hypotheses()
        .values()
        .filter(|h| h.kind == HypothesisKind::Control && h.subjects.len() == 2)
        .map(|h| (h.subjects[0].clone(), h.subjects[1].clone()))
        .filter(|(w, p)| !wanted_pairs.contains(&(w.as_str(), p.as_str())))
        .collect();
    for (wallet, person) in &withdrawn {
        plan_pair(
            state,
            HypothesisKind::Control,
            [wallet, person],
            &|n| control_statement(wallet, person, n),
            Vec::new(),
            &mut calls,
        );
    }
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
