//! Cross-source entity resolution (DESIGN §8): identity observations through the gateway, the
//! planner's coreference hypotheses, `same_as` edges, examiner decisions and actors.

use std::collections::BTreeSet;
use std::time::Instant;

use masf_graph::resolution::{self, Actor};
use masf_graph::{
    Call, Entity, EntityKind, Gateway, GraphEvent, GraphState, IdType, IdentityObservation,
    MemoryInvocation, MemoryLog, Region, RejectCode, SameAsRequest, SameAsState, Scoring, Status,
    Verdict,
};
use proptest::prelude::*;

use crate::synthetic;

/// A graph built by observations through the gateway, with every event kept.
pub(crate) struct World {
    log: MemoryLog,
    pub(crate) state: GraphState,
    events: Vec<GraphEvent>,
    invocations: usize,
}

/// One identity observation: (source, context, kind, label, type, value as written).
type Obs = (
    &'static str,
    &'static str,
    EntityKind,
    &'static str,
    IdType,
    &'static str,
);

impl World {
    pub(crate) fn new() -> Self {
        Self {
            log: MemoryLog::new(),
            state: GraphState::new(Scoring::default()),
            events: Vec::new(),
            invocations: 0,
        }
    }

    fn submit(&mut self, call: &Call) -> Verdict {
        let verdict = Gateway::new(&self.state, &self.log).handle(call);
        for event in verdict.events() {
            self.state.apply(event);
            self.events.push(event.clone());
        }
        verdict
    }

    /// Observes a value as the source's triage agent would: the value is in a tool output.
    fn observe(&mut self, obs: Obs) -> String {
        let (source, context, kind, label, id_type, value) = obs;
        self.observe_in(source, context, kind, label, id_type, value, "HK", None)
    }

    /// [`World::observe`] with the source's phone region.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn observe_in(
        &mut self,
        source: &str,
        context: &str,
        kind: EntityKind,
        label: &str,
        id_type: IdType,
        value: &str,
        region: &str,
        cue: Option<&str>,
    ) -> String {
        let obs = (source, context, kind, label, id_type, value);
        self.invocations += 1;
        let id = format!("inv-{:06}", self.invocations);
        let agent = format!("{source}-triage");
        let task = format!("triage/{source}");
        self.log.push(MemoryInvocation {
            id: id.clone(),
            source_id: source.into(),
            agent: agent.clone(),
            task_id: task.clone(),
            output: format!("row: {value}\n").into_bytes(),
            structured: None,
        });
        let verdict = self.submit(&Call::ObserveIdentity(IdentityObservation {
            agent,
            task_id: task,
            source_id: source.into(),
            context: context.into(),
            entity_kind: kind,
            label: label.into(),
            id_type,
            value: value.into(),
            invocation_id: id,
            phone_region: Some(Region::parse(region).expect("a region")),
            interpretation: String::new(),
            cue: cue.map(str::to_owned),
        }));
        assert!(verdict.is_accepted(), "{obs:?}: {verdict:?}");
        verdict.id().unwrap_or_default().to_owned()
    }

    /// Plans and applies until the planner has nothing left; returns the passes it took.
    pub(crate) fn settle(&mut self) -> usize {
        for pass in 0..resolution::MAX_PASSES {
            let calls = resolution::plan(&self.state);
            if calls.is_empty() {
                return pass;
            }
            for call in &calls {
                let verdict = self.submit(call);
                assert!(verdict.is_accepted(), "{call:?}: {verdict:?}");
            }
        }
        panic!("the planner did not settle in 7 passes");
    }

    fn decide(&mut self, approve: bool, edge: &str, reason: &str) -> Verdict {
        let req = SameAsRequest {
            edge_id: edge.into(),
            examiner: "examiner.wong".into(),
            at: "2026-11-30T17:00:00Z".into(),
            reason: reason.into(),
        };
        self.submit(&if approve {
            Call::ApproveSameAs(req)
        } else {
            Call::RetractSameAs(req)
        })
    }

    pub(crate) fn entity(&self, source: &str, context: &str) -> &Entity {
        self.state
            .entities()
            .values()
            .find(|e| e.source_id == source && e.context == context)
            .expect("entity exists")
    }

    fn edge_between(&self, a: (&str, &str), b: (&str, &str)) -> String {
        masf_graph::same_as_id(&self.entity(a.0, a.1).id, &self.entity(b.0, b.1).id)
    }
}

/// Actors as sets of (source, context), independent of entity ids.
fn actor_sets(state: &GraphState) -> BTreeSet<BTreeSet<(String, String)>> {
    resolution::actors(state)
        .iter()
        .map(|a| {
            a.entities
                .iter()
                .map(|id| {
                    let e = &state.entities()[id];
                    (e.source_id.clone(), e.context.clone())
                })
                .collect()
        })
        .collect()
}

fn actor_of<'a>(actors: &'a [Actor], entity: &str) -> &'a Actor {
    actors
        .iter()
        .find(|a| a.entities.iter().any(|e| e == entity))
        .expect("every entity is in an actor")
}

const P: EntityKind = EntityKind::Person;
const D: EntityKind = EntityKind::Device;

/// The demo's people in miniature: LEUNG across four sources, the decoy LEUNG Y L, CHAN on
/// two sources, and a document that mentions both LEUNG and CHAN.
const CASE: [Obs; 16] = [
    (
        "src-usb",
        "author:LEUNG YL",
        P,
        "LEUNG YL",
        IdType::DisplayName,
        "LEUNG YL",
    ),
    (
        "src-usb",
        "document:/notes.txt",
        P,
        "",
        IdType::Phone,
        "+852 6123 4567",
    ),
    (
        "src-android",
        "contact:1",
        P,
        "Leung YL",
        IdType::DisplayName,
        "Leung YL",
    ),
    (
        "src-android",
        "contact:1",
        P,
        "Leung YL",
        IdType::Phone,
        "61234567",
    ),
    (
        "src-android",
        "contact:1",
        P,
        "Leung YL",
        IdType::Email,
        "YL.LEUNG@example.com",
    ),
    (
        "src-iphone",
        "handle:2",
        P,
        "",
        IdType::Email,
        "yl.leung@example.com",
    ),
    (
        "src-iphone",
        "handle:1",
        P,
        "",
        IdType::Phone,
        "+85261234567",
    ),
    (
        "src-iphone",
        "contact:2",
        P,
        "LEUNG Y L",
        IdType::DisplayName,
        "LEUNG Y L",
    ),
    (
        "src-iphone",
        "contact:2",
        P,
        "LEUNG Y L",
        IdType::Phone,
        "+852 6987 1122",
    ),
    (
        "src-iphone",
        "contact:2",
        P,
        "LEUNG Y L",
        IdType::Email,
        "yeeling.leung@example.net",
    ),
    (
        "src-android",
        "owner",
        P,
        "CHAN MH",
        IdType::Phone,
        "+85298765432",
    ),
    (
        "src-android",
        "owner",
        P,
        "CHAN MH",
        IdType::GoogleAccount,
        "chan.mh@example.net",
    ),
    (
        "src-iphone",
        "contact:1",
        P,
        "CHAN Man Ho",
        IdType::Phone,
        "+852 9876 5432",
    ),
    (
        "src-iphone",
        "contact:1",
        P,
        "CHAN Man Ho",
        IdType::Email,
        "Chan.MH@example.net",
    ),
    (
        "src-usb",
        "document:/Documents/Payment.docx",
        P,
        "",
        IdType::Email,
        "YL.Leung@example.com",
    ),
    (
        "src-usb",
        "document:/Documents/Payment.docx",
        P,
        "",
        IdType::Phone,
        "98765432",
    ),
];

fn case_world() -> World {
    let mut w = World::new();
    for obs in CASE {
        w.observe(obs);
    }
    w.settle();
    w
}

#[test]
fn one_phone_in_five_formats_joins_five_sources_and_one_digit_off_does_not() {
    let mut w = World::new();
    let formats = [
        "+852 6123 4567",
        "61234567",
        "(852) 6123-4567",
        "852-6123-4567",
        "00852 6123 4567",
    ];
    let sources = ["src-a", "src-b", "src-c", "src-d", "src-e"];
    for (source, format) in sources.iter().zip(formats) {
        let source: &'static str = source;
        w.observe((source, "contact:1", P, "", IdType::Phone, format));
    }
    w.observe(("src-f", "contact:1", P, "", IdType::Phone, "6123 4568"));
    w.settle();
    let sets = actor_sets(&w.state);
    let five: BTreeSet<(String, String)> = sources
        .iter()
        .map(|s| ((*s).to_owned(), "contact:1".to_owned()))
        .collect();
    assert!(sets.contains(&five), "{sets:?}");
    let lone = BTreeSet::from([("src-f".to_owned(), "contact:1".to_owned())]);
    assert!(sets.contains(&lone), "{sets:?}");
    assert_eq!(sets.len(), 2);
    // Every pair of the five shares the phone: ten supported hypotheses, ten live edges.
    assert_eq!(w.state.same_as().len(), 10);
    assert!(
        w.state
            .same_as()
            .values()
            .all(|e| e.state == SameAsState::Live)
    );
}

#[test]
fn shared_strong_identifier_links_and_similar_name_alone_stays_below_threshold() {
    let w = case_world();
    let s = &w.state;
    let leung_android = w.entity("src-android", "contact:1").id.clone();
    let decoy = w.entity("src-iphone", "contact:2").id.clone();
    let author = w.entity("src-usb", "author:LEUNG YL").id.clone();
    // The decoy is a candidate (similar name) with a hypothesis below the threshold and no
    // same_as edge.
    for other in [&leung_android, &author] {
        let hyps = s.coreference_hypotheses(&decoy, other);
        assert_eq!(hyps.len(), 1, "decoy and {other} are a candidate pair");
        let h = &s.hypotheses()[&hyps[0]];
        assert_eq!(h.status, Status::Active, "{h:?}");
        assert!(h.confidence < 0.8 && h.confidence > 0.2, "{}", h.confidence);
        assert!(
            h.edges
                .iter()
                .all(|e| e.edge_type == masf_graph::EdgeType::PrerequisiteMet)
        );
        assert!(
            !s.same_as()
                .contains_key(&masf_graph::same_as_id(&decoy, other))
        );
    }
    // The same name alone (LEUNG YL = Leung YL) is no link either.
    let h = &s.hypotheses()[&s.coreference_hypotheses(&author, &leung_android)[0]];
    assert_eq!(h.status, Status::Active);
    // One shared phone is: the Android contact and the iPhone handle.
    let handle = w.entity("src-iphone", "handle:1").id.clone();
    let h = &s.hypotheses()[&s.coreference_hypotheses(&handle, &leung_android)[0]];
    assert_eq!(h.status, Status::Supported);
    assert!(
        (h.log_odds - (0.25f64 / 0.75).log10() - 3.0).abs() < 1e-9,
        "{}",
        h.log_odds
    );
    // Its edges cite the identity phenomena that observed the phone.
    let cited: BTreeSet<&str> = h.edges.iter().map(|e| e.phenomenon_id.as_str()).collect();
    let observed: BTreeSet<&str> = [&handle, &leung_android]
        .iter()
        .flat_map(|id| s.entities()[*id].identifiers.iter())
        .filter(|i| i.normalized == "+85261234567")
        .map(|i| i.phenomenon_id.as_str())
        .collect();
    assert_eq!(cited, observed);

    let actors = resolution::actors(s);
    let leung = actor_of(&actors, &leung_android);
    // The contact, two handles, and notes.txt (a mention of LEUNG alone joins him).
    assert_eq!(leung.entities.len(), 4, "{leung:?}");
    let notes = w.entity("src-usb", "document:/notes.txt").id.clone();
    assert!(leung.entities.contains(&notes));
    assert_eq!(leung.sources, ["src-android", "src-iphone", "src-usb"]);
    assert_eq!(leung.label, "Leung YL");
    assert_eq!(leung.joined_by.len(), 3);
    assert!(actor_of(&actors, &decoy).entities == [decoy.clone()]);
    assert!(actor_of(&actors, &author).entities == [author.clone()]);
    // CHAN: Google account = iPhone contact e-mail, and the phone.
    let chan = actor_of(&actors, &w.entity("src-android", "owner").id);
    assert_eq!(chan.entities.len(), 2);
    // The docx names both LEUNG and CHAN: it is listed under both and belongs to neither.
    let doc = w
        .entity("src-usb", "document:/Documents/Payment.docx")
        .id
        .clone();
    assert!(leung.mentioned_in.contains(&doc), "{leung:?}");
    assert!(chan.mentioned_in.contains(&doc), "{chan:?}");
    assert!(!leung.entities.contains(&doc) && !chan.entities.contains(&doc));
    assert!(actors.iter().all(|a| !a.entities.contains(&doc)));
    assert_ne!(leung.id, chan.id);
    // The timeline's actor rule: asked by the actor's id or by one of its entities' ids, the
    // same scope — his phone number and the phenomena that observed it, and the sources where
    // he is the owner or the device (none: he owns none of the three).
    let scope = resolution::actor_scope(s, &leung.id).unwrap();
    assert_eq!(resolution::actor_scope(s, &notes).unwrap(), scope);
    assert_eq!(scope.actor_id, leung.id);
    assert!(scope.identifiers.contains("+85261234567"), "{scope:?}");
    assert!(observed.iter().all(|p| scope.phenomena.contains(*p)));
    assert!(scope.sources.is_empty(), "{scope:?}");
    let owner = resolution::actor_scope(s, &chan.id).unwrap();
    assert!(owner.sources.contains("src-android"), "{owner:?}");
    let unknown = resolution::actor_scope(s, "actor-nope").unwrap_err();
    assert!(unknown.joined.contains(&leung.id) && unknown.joined.contains(&chan.id));
    assert!(
        unknown
            .to_string()
            .starts_with("no actor or entity \"actor-nope\"")
    );
    // Planning again writes nothing.
    assert!(resolution::plan(s).is_empty());
}

#[test]
fn conflicting_single_valued_identifiers_refute_and_a_later_match_revises() {
    let mut w = World::new();
    // Two device entities share a SIM (ICCID) but have different serials: not one device.
    w.observe(("src-a", "device", D, "", IdType::Serial, "R5CT21XYZ9K"));
    w.observe((
        "src-a",
        "device",
        D,
        "",
        IdType::Iccid,
        "89852120000471108152",
    ));
    w.observe(("src-b", "device", D, "", IdType::Serial, "F2LXK0ABCD12"));
    w.observe((
        "src-b",
        "device",
        D,
        "",
        IdType::Iccid,
        "89852120000471108152",
    ));
    // Two more with different IMEIs and nothing shared: a conflict alone creates no pair.
    w.observe(("src-c", "device", D, "", IdType::Imei, "490154203237518"));
    w.observe(("src-d", "device", D, "", IdType::Imei, "353911104285730"));
    w.settle();
    let (a, b) = (
        w.entity("src-a", "device").id.clone(),
        w.entity("src-b", "device").id.clone(),
    );
    let h = &w.state.hypotheses()[&w.state.coreference_hypotheses(&a, &b)[0]];
    // The shared SIM (+3) and the conflicting serials (−3) cancel: back at the prior.
    assert_eq!(h.status, Status::Active, "{h:?}");
    assert!((h.confidence - 0.25).abs() < 1e-9, "{h:?}");
    assert!(w.state.same_as().is_empty());
    let (c, d) = (
        w.entity("src-c", "device").id.clone(),
        w.entity("src-d", "device").id.clone(),
    );
    assert!(w.state.coreference_hypotheses(&c, &d).is_empty());

    // src-d's device turns out to carry src-c's IMEI too (a dual-SIM phone): the pair shares
    // one, the conflict is gone, and the planner revises the hypothesis.
    w.observe(("src-d", "device", D, "", IdType::Imei, "490154203237518"));
    w.settle();
    let revisions = w.state.coreference_hypotheses(&c, &d);
    assert_eq!(
        revisions.len(),
        1,
        "no conflict edge was linked before, so no revision"
    );
    // Now with a conflict first: src-e's serial differs from src-a's, then it shows src-a's too.
    w.observe(("src-e", "device", D, "", IdType::Serial, "ZZ0000000001"));
    w.observe((
        "src-e",
        "device",
        D,
        "",
        IdType::Iccid,
        "89852120000471108152",
    ));
    w.settle();
    let e = w.entity("src-e", "device").id.clone();
    let first = w.state.coreference_hypotheses(&a, &e).to_vec();
    assert_eq!(first.len(), 1);
    assert_ne!(w.state.hypotheses()[&first[0]].status, Status::Supported);
    w.observe(("src-e", "device", D, "", IdType::Serial, "R5CT21XYZ9K"));
    w.settle();
    let revisions = w.state.coreference_hypotheses(&a, &e).to_vec();
    assert_eq!(
        revisions.len(),
        2,
        "the contradicts edge became a match: a new revision"
    );
    let current = &w.state.hypotheses()[&revisions[1]];
    assert_eq!(current.status, Status::Supported, "{current:?}");
    assert!(current.statement.ends_with("(revision 2)"));
    let edge = &w.state.same_as()[&masf_graph::same_as_id(&a, &e)];
    assert_eq!(edge.hypothesis_id, revisions[1]);
    assert_eq!(edge.hypotheses, revisions);
    assert_eq!(edge.state, SameAsState::Live);
    // The first revision is still in the log.
    assert!(w.state.hypotheses().contains_key(&revisions[0]));
}

#[test]
fn retract_splits_replanning_keeps_it_and_approve_restores() {
    let mut w = case_world();
    let contact = ("src-android", "contact:1");
    let handle = ("src-iphone", "handle:1");
    let edge = w.edge_between(contact, handle);
    let contact_id = w.entity(contact.0, contact.1).id.clone();
    let handle_id = w.entity(handle.0, handle.1).id.clone();
    let together = |w: &World| {
        let actors = resolution::actors(&w.state);
        actor_of(&actors, &contact_id).id == actor_of(&actors, &handle_id).id
    };
    assert!(together(&w));

    // Refusals: unknown edge, empty reason, missing examiner.
    let v = w.decide(false, "sa-999998-999999", "no such edge");
    assert!(
        matches!(
            v,
            Verdict::Rejected {
                code: RejectCode::UnknownEdge,
                ..
            }
        ),
        "{v:?}"
    );
    let v = w.decide(false, &edge, "  ");
    assert!(
        matches!(
            v,
            Verdict::Rejected {
                code: RejectCode::InvalidRequest,
                ..
            }
        ),
        "{v:?}"
    );

    let before = w.events.len();
    let v = w.decide(false, &edge, "the handle is a shared family number");
    assert!(v.is_accepted(), "{v:?}");
    assert_eq!(w.state.same_as()[&edge].state, SameAsState::Retracted);
    assert!(
        !together(&w),
        "retracting the only edge between them splits the actor"
    );
    // Retracting again is a duplicate.
    assert!(w.decide(false, &edge, "again").events().is_empty());
    // Re-planning changes nothing: the retraction stands, the hypothesis is still supported.
    assert_eq!(w.settle(), 0);
    let e = &w.state.same_as()[&edge];
    assert_eq!(e.state, SameAsState::Retracted);
    assert_eq!(
        w.state.hypotheses()[&e.hypothesis_id].status,
        Status::Supported
    );

    let v = w.decide(true, &edge, "confirmed by the subscriber record");
    assert!(v.is_accepted(), "{v:?}");
    assert_eq!(w.state.same_as()[&edge].state, SameAsState::Approved);
    assert!(together(&w));
    // Nothing was lost: every earlier event is still there and the log folds to the state.
    assert_eq!(w.events.len(), before + 2);
    let kinds: Vec<&str> = w.events[before..].iter().map(GraphEvent::kind).collect();
    assert_eq!(kinds, ["SameAsRetracted", "SameAsApproved"]);
    let decisions = &w.state.same_as()[&edge].decisions;
    assert_eq!(decisions.len(), 2);
    assert_eq!(decisions[0].reason, "the handle is a shared family number");
    assert_eq!(decisions[0].by, "examiner.wong");
    assert_eq!(GraphState::fold(Scoring::default(), &w.events), w.state);
}

#[test]
fn approve_pins_an_edge_whose_hypothesis_falls_below() {
    let mut w = World::new();
    w.observe((
        "src-a",
        "device",
        D,
        "",
        IdType::Iccid,
        "89852120000471108152",
    ));
    w.observe((
        "src-b",
        "device",
        D,
        "",
        IdType::Iccid,
        "89852120000471108152",
    ));
    w.settle();
    let (a, b) = (
        w.entity("src-a", "device").id.clone(),
        w.entity("src-b", "device").id.clone(),
    );
    let edge = masf_graph::same_as_id(&a, &b);
    assert_eq!(w.state.same_as()[&edge].state, SameAsState::Live);
    assert!(
        w.decide(true, &edge, "same handset per the carrier")
            .is_accepted()
    );
    // Then conflicting serials arrive: the hypothesis falls below the threshold, but the
    // approval holds the edge live.
    w.observe(("src-a", "device", D, "", IdType::Serial, "AAA111"));
    w.observe(("src-b", "device", D, "", IdType::Serial, "BBB222"));
    w.settle();
    let e = &w.state.same_as()[&edge];
    assert_ne!(
        w.state.hypotheses()[&e.hypothesis_id].status,
        Status::Supported
    );
    assert_eq!(e.state, SameAsState::Approved);
    assert_eq!(resolution::actors(&w.state).len(), 1);
}

/// Persons and devices whose observations the order-independence property shuffles.
const POOL: [Obs; 14] = [
    (
        "s1",
        "owner",
        P,
        "FUNG CC",
        IdType::AppleId,
        "fung.cc@example.org",
    ),
    ("s1", "owner", P, "FUNG CC", IdType::Phone, "85254321098"),
    ("s2", "contact:2", P, "FUNG CC", IdType::Phone, "54321098"),
    (
        "s2",
        "contact:2",
        P,
        "FUNG CC",
        IdType::Email,
        "Fung.CC@example.org",
    ),
    (
        "s3",
        "handle:9",
        P,
        "",
        IdType::Email,
        "fung.cc@example.org",
    ),
    (
        "s3",
        "contact:4",
        P,
        "FUNG C C",
        IdType::DisplayName,
        "FUNG C C",
    ),
    (
        "s3",
        "contact:4",
        P,
        "FUNG C C",
        IdType::Phone,
        "+852 5555 0000",
    ),
    ("s1", "device", D, "", IdType::Imei, "353911104285730"),
    ("s2", "device", D, "", IdType::Imei, "490154203237518"),
    ("s2", "device", D, "", IdType::Iccid, "89852000123456789013"),
    ("s3", "device", D, "", IdType::Iccid, "89852000123456789013"),
    ("s3", "device", D, "", IdType::Imei, "353911104285730"),
    ("s3", "device", D, "", IdType::Imei, "490154203237518"),
    ("s1", "device", D, "", IdType::Serial, "C39XK1"),
];

fn baseline() -> BTreeSet<BTreeSet<(String, String)>> {
    let mut w = World::new();
    for obs in POOL {
        w.observe(obs);
    }
    w.settle();
    actor_sets(&w.state)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Shuffled arrival, with the resolver run at random moments in between, ends in the same
    /// actors as observing everything first and resolving once.
    #[test]
    fn actors_do_not_depend_on_arrival_order(
        order in Just((0..POOL.len()).collect::<Vec<_>>()).prop_shuffle(),
        plan_after in prop::collection::vec(any::<bool>(), POOL.len()),
    ) {
        let mut w = World::new();
        for (i, &k) in order.iter().enumerate() {
            w.observe(POOL[k]);
            if plan_after[i] {
                w.settle();
            }
        }
        w.settle();
        prop_assert_eq!(actor_sets(&w.state), baseline());
        prop_assert!(resolution::plan(&w.state).is_empty());
    }
}

#[test]
fn baseline_actors_are_the_expected_ones() {
    let sets = baseline();
    let set = |items: &[(&str, &str)]| -> BTreeSet<(String, String)> {
        items
            .iter()
            .map(|(s, c)| ((*s).to_owned(), (*c).to_owned()))
            .collect()
    };
    assert!(sets.contains(&set(&[
        ("s1", "owner"),
        ("s2", "contact:2"),
        ("s3", "handle:9")
    ])));
    assert!(sets.contains(&set(&[("s3", "contact:4")])), "{sets:?}");
    // s3's dual-SIM device shares an IMEI with s1 and s2, and the SIM with s2.
    assert!(sets.contains(&set(&[
        ("s1", "device"),
        ("s2", "device"),
        ("s3", "device")
    ])));
    assert_eq!(sets.len(), 3);
}

fn refs(s: &synthetic::Synthetic) -> Vec<&Entity> {
    s.entities.iter().collect()
}

#[test]
fn blocking_grows_linearly_and_finds_the_true_clusters() {
    let mut per_entity = Vec::new();
    for n in [10_000, 100_000] {
        let s = synthetic::generate(n, 7);
        let started = Instant::now();
        let r = resolution::resolve_in_memory(&refs(&s), &Scoring::default());
        let took = started.elapsed();
        let ratio = r.candidates as f64 / n as f64;
        println!(
            "{n} entities, {} identifiers: {} candidate pairs ({ratio:.2} per entity), {} supported, {} clusters, {took:?}",
            s.identifiers(),
            r.candidates,
            r.supported.len(),
            r.clusters.len()
        );
        assert!(s.identifiers() >= 3 * n - n / 10, "{}", s.identifiers());
        // All pairs would be n²/2 = 5·10⁹ at 100,000; the blocks give a few per entity.
        assert!(ratio < 6.0, "{ratio} candidate pairs per entity at {n}");
        assert_eq!(r.clusters, s.true_clusters(), "clusters at {n}");
        per_entity.push(ratio);
    }
    // Roughly linear: ten times the entities, less than twice the pairs per entity (all pairs
    // would be ten times as many per entity). What grows is people sharing a name from the
    // fixed pool of 27,040 names; the name-block limit (50) bounds it.
    assert!(per_entity[1] < per_entity[0] * 2.0, "{per_entity:?}");
}

#[test]
fn blocking_gives_the_same_clusters_as_brute_force() {
    // The first 1,500 entities of a 10,000 set: the 100-entity hotline block (linked as a
    // chain, above the limit of 64) and the people and devices after it.
    let s = synthetic::generate(10_000, 11);
    let entities: Vec<&Entity> = s.entities.iter().take(1_500).collect();
    let blocked = resolution::resolve_in_memory(&entities, &Scoring::default());
    let all_pairs = (0..entities.len()).flat_map(|i| (i + 1..entities.len()).map(move |j| (i, j)));
    let supported = resolution::supported_pairs(&entities, &Scoring::default(), all_pairs);
    assert!(
        supported.len() > blocked.supported.len(),
        "the chain proposes fewer pairs"
    );
    let brute = resolution::clusters(entities.len(), &supported);
    assert_eq!(blocked.clusters, brute);
    let truth: Vec<Vec<usize>> = s
        .true_clusters()
        .into_iter()
        .map(|g| g.into_iter().filter(|&i| i < 1_500).collect::<Vec<_>>())
        .filter(|g| !g.is_empty())
        .collect();
    assert_eq!(blocked.clusters, truth);
}

#[test]
fn names_count_once_per_entity_however_many_spellings() {
    let mut w = World::new();
    w.observe((
        "s1",
        "contact:1",
        P,
        "LEUNG YL",
        IdType::DisplayName,
        "LEUNG YL",
    ));
    w.observe((
        "s1",
        "contact:1",
        P,
        "LEUNG YL",
        IdType::Nickname,
        "Leung Y L",
    ));
    w.observe((
        "s1",
        "contact:1",
        P,
        "LEUNG YL",
        IdType::DisplayName,
        "YL LEUNG",
    ));
    w.observe((
        "s2",
        "contact:9",
        P,
        "LEUNG Y.L.",
        IdType::DisplayName,
        "LEUNG Y.L.",
    ));
    w.observe((
        "s2",
        "contact:9",
        P,
        "LEUNG Y.L.",
        IdType::Nickname,
        "leung yl",
    ));
    w.settle();
    let (a, b) = (
        w.entity("s1", "contact:1").id.clone(),
        w.entity("s2", "contact:9").id.clone(),
    );
    let h = &w.state.hypotheses()[&w.state.coreference_hypotheses(&a, &b)[0]];
    assert_eq!(h.edges.len(), 2, "{h:?}");
    assert_eq!(h.status, Status::Active);
    assert!((h.confidence - 0.652).abs() < 1e-3, "{}", h.confidence);
    assert!(w.state.same_as().is_empty());
}

#[test]
fn edges_other_agents_link_are_kept_and_cause_no_revision() {
    let mut w = World::new();
    w.observe((
        "s1",
        "contact:1",
        P,
        "FUNG CC",
        IdType::DisplayName,
        "FUNG CC",
    ));
    w.observe((
        "s2",
        "contact:5",
        P,
        "Fung CC",
        IdType::DisplayName,
        "Fung CC",
    ));
    let phone = w.observe(("s2", "contact:5", P, "Fung CC", IdType::Phone, "54321098"));
    w.settle();
    let (a, b) = (
        w.entity("s1", "contact:1").id.clone(),
        w.entity("s2", "contact:5").id.clone(),
    );
    let hyp = w.state.coreference_hypotheses(&a, &b)[0].clone();
    assert_eq!(w.state.hypotheses()[&hyp].status, Status::Active);
    // The examiner's strategist links s2's phone observation as support (it knows more).
    let ph = w.state.entities()[&phone].identifiers[1]
        .phenomenon_id
        .clone();
    let v = w.submit(&Call::Link(masf_graph::LinkRequest {
        agent: "strategist".into(),
        task_id: None,
        phenomenon_id: ph,
        hypothesis_id: hyp.clone(),
        edge_type: masf_graph::EdgeType::Supports,
    }));
    assert!(v.is_accepted(), "{v:?}");
    assert_eq!(
        w.settle(),
        0,
        "the resolver leaves other agents' edges alone"
    );
    assert_eq!(
        w.state.coreference_hypotheses(&a, &b),
        std::slice::from_ref(&hyp)
    );
    assert_eq!(w.state.hypotheses()[&hyp].status, Status::Supported);
    assert_eq!(
        w.state.same_as()[&masf_graph::same_as_id(&a, &b)].state,
        SameAsState::Live
    );
}

/// Placeholders join nothing: the iTunes Store user name `local` on two phones, an all-zero
/// IMEI, `unknown` serials and the default device name are observed (weak), but no pair of
/// entities gets a hypothesis from them; a real shared Apple ID still joins.
#[test]
fn placeholders_join_no_two_entities() {
    let mut w = World::new();
    for src in ["src-a", "src-b", "src-c"] {
        w.observe((src, "owner", P, "device owner", IdType::AppleId, "local"));
        w.observe((src, "device", D, "", IdType::Imei, "000000000000000"));
        w.observe((src, "device", D, "", IdType::Serial, "unknown"));
        w.observe((src, "device", D, "", IdType::DeviceName, "iPhone"));
        w.observe((
            src,
            "owner",
            P,
            "device owner",
            IdType::DisplayName,
            "(null)",
        ));
    }
    w.settle();
    assert!(
        w.state.hypotheses().is_empty(),
        "{:?}",
        w.state.hypotheses()
    );
    assert_eq!(resolution::actors(&w.state).len(), 6);
    for e in w.state.entities().values() {
        assert!(
            e.identifiers
                .iter()
                .all(|i| i.strength == masf_graph::Strength::Weak),
            "{e:?}"
        );
    }
    // The same owners with a real shared Apple ID: joined by it, not by `local`.
    w.observe((
        "src-a",
        "owner",
        P,
        "device owner",
        IdType::AppleId,
        "fung.cc@icloud.com",
    ));
    w.observe((
        "src-b",
        "owner",
        P,
        "device owner",
        IdType::AppleId,
        "Fung.CC@iCloud.com",
    ));
    w.settle();
    let a = w.entity("src-a", "owner").id.clone();
    let b = w.entity("src-b", "owner").id.clone();
    let c = w.entity("src-c", "owner").id.clone();
    let h = &w.state.hypotheses()[&w.state.coreference_hypotheses(&a, &b)[0]];
    assert_eq!(h.status, Status::Supported);
    assert!(
        h.edges.iter().all(|e| {
            let ph = &w.state.phenomena()[&e.phenomenon_id];
            ph.title.contains("fung.cc@icloud.com")
        }),
        "{h:?}"
    );
    assert!(w.state.coreference_hypotheses(&a, &c).is_empty());
}

/// A number written nationally, internationally and as a WhatsApp JID is one identifier under
/// the source's region (US here), and a LID that looks like a number joins no phone.
#[test]
fn national_international_and_jid_forms_join() {
    let mut w = World::new();
    let us = Region::parse("US").expect("US");
    for (src, ctx, id_type, value) in [
        ("src-a", "contact:5", IdType::Phone, "(919) 888-7386"),
        ("src-b", "contact:1", IdType::Phone, "+1 919 888 7386"),
        (
            "src-a",
            "handle:19198887386@s.whatsapp.net",
            IdType::Phone,
            "19198887386@s.whatsapp.net",
        ),
        (
            "src-c",
            "handle:19198887386@lid",
            IdType::WhatsappLid,
            "19198887386@lid",
        ),
    ] {
        w.invocations += 1;
        let id = format!("inv-{:06}", w.invocations);
        w.log.push(MemoryInvocation {
            id: id.clone(),
            source_id: src.into(),
            agent: format!("{src}-triage"),
            task_id: format!("triage/{src}"),
            output: format!("row: {value}\n").into_bytes(),
            structured: None,
        });
        let verdict = w.submit(&Call::ObserveIdentity(IdentityObservation {
            agent: format!("{src}-triage"),
            task_id: format!("triage/{src}"),
            source_id: src.into(),
            context: ctx.into(),
            entity_kind: P,
            label: String::new(),
            id_type,
            value: value.into(),
            invocation_id: id,
            phone_region: Some(us),
            interpretation: String::new(),
            cue: None,
        }));
        assert!(verdict.is_accepted(), "{value}: {verdict:?}");
    }
    w.settle();
    let sets = actor_sets(&w.state);
    let joined: BTreeSet<(String, String)> = [
        ("src-a", "contact:5"),
        ("src-b", "contact:1"),
        ("src-a", "handle:19198887386@s.whatsapp.net"),
    ]
    .iter()
    .map(|(s, c)| ((*s).to_owned(), (*c).to_owned()))
    .collect();
    assert!(sets.contains(&joined), "{sets:?}");
    assert_eq!(sets.len(), 2, "the LID stays alone: {sets:?}");
}

/// A strong value that the devices of three unrelated sources hold as their own (a default
/// serial) is demoted: it joins none of them, and the actors say why; the same value on three
/// sources whose owners share an Apple ID (one person's phones) is not.
#[test]
fn a_value_owned_by_several_unrelated_devices_is_demoted() {
    let mut w = World::new();
    for (src, imei, apple) in [
        ("src-a", "353911104285730", "a.owner@icloud.com"),
        ("src-b", "490154203237518", "b.owner@icloud.com"),
        ("src-c", "356938035643809", "c.owner@icloud.com"),
    ] {
        w.observe((src, "device", D, "", IdType::Serial, "C02XK0DEF001"));
        w.observe((src, "device", D, "", IdType::Imei, imei));
        w.observe((src, "owner", P, "device owner", IdType::AppleId, apple));
    }
    w.settle();
    assert!(
        w.state.hypotheses().is_empty(),
        "{:?}",
        w.state.hypotheses()
    );
    let entities: Vec<&Entity> = w.state.entities().values().collect();
    let demoted = resolution::demotions(&entities);
    assert_eq!(demoted.len(), 1, "{demoted:?}");
    assert_eq!(demoted[0].normalized, "C02XK0DEF001");
    assert_eq!(demoted[0].sources, ["src-a", "src-b", "src-c"]);
    assert!(
        demoted[0].reason.contains("3 groups"),
        "{}",
        demoted[0].reason
    );
    let actors = resolution::actors(&w.state);
    let serial = actors
        .iter()
        .flat_map(|a| &a.identifiers)
        .find(|i| i.normalized == "C02XK0DEF001")
        .expect("the serial is listed");
    assert!(
        serial
            .not_used
            .as_deref()
            .is_some_and(|why| why.starts_with("demoted: ")),
        "{serial:?}"
    );

    // One person's three phones (one Apple ID) sharing the serial: not demoted, joined.
    let mut w = World::new();
    for src in ["src-a", "src-b", "src-c"] {
        w.observe((src, "device", D, "", IdType::Serial, "C02XK0DEF001"));
        w.observe((
            src,
            "owner",
            P,
            "device owner",
            IdType::AppleId,
            "one.owner@icloud.com",
        ));
    }
    w.settle();
    let entities: Vec<&Entity> = w.state.entities().values().collect();
    assert!(resolution::demotions(&entities).is_empty());
    let sets = actor_sets(&w.state);
    assert_eq!(
        sets.len(),
        2,
        "the devices are one, the owners are one: {sets:?}"
    );
}

// Control attribution (issue 16, part 4): wallets held by person entities are claims.

const W: EntityKind = EntityKind::Wallet;
const BTC: &str = "bc1q7067uww8q52athgrmrdeshcd7cj5x9yfapwezn";
const TRON: &str = "TRh4MqLekE9MbxTkLrQ673AHbsU46khwF2";

/// Two phones: FUNG owns the iPhone and wrote his BTC address in an outgoing message; on
/// CHAN's Android the same address came in from FUNG's number; CHAN sent his TRON address.
/// A screenshot folder holds both addresses and no person.
fn wallet_case() -> World {
    let mut w = World::new();
    for obs in [
        (
            "src-iphone",
            "owner",
            P,
            "device owner",
            IdType::Phone,
            "+852 5432 1098",
        ),
        (
            "src-iphone",
            "owner",
            P,
            "device owner",
            IdType::Wallet,
            BTC,
        ),
        ("src-iphone", "wallet:btc", W, BTC, IdType::Wallet, BTC),
        (
            "src-android",
            "owner",
            P,
            "device owner",
            IdType::Phone,
            "+852 9876 5432",
        ),
        (
            "src-android",
            "owner",
            P,
            "device owner",
            IdType::Wallet,
            TRON,
        ),
        ("src-android", "wallet:tron", W, TRON, IdType::Wallet, TRON),
        (
            "src-android",
            "contact:2",
            P,
            "FUNG CC",
            IdType::Phone,
            "54321098",
        ),
        (
            "src-android",
            "contact:2",
            P,
            "FUNG CC",
            IdType::Wallet,
            BTC,
        ),
        ("src-android", "wallet:btc", W, BTC, IdType::Wallet, BTC),
        ("src-screens", "wallet:btc", W, BTC, IdType::Wallet, BTC),
        ("src-screens", "wallet:tron", W, TRON, IdType::Wallet, TRON),
    ] {
        w.observe(obs);
    }
    w
}

fn control_edges(state: &GraphState) -> Vec<&masf_graph::SameAs> {
    state
        .same_as()
        .values()
        .filter(|e| e.relation == masf_graph::Relation::Control)
        .collect()
}

#[test]
fn a_wallet_its_writer_sends_joins_the_writers_actor_and_never_two_people() {
    let mut w = wallet_case();
    w.settle();
    // Wallet keys on people never pair people: FUNG (iPhone owner) and FUNG (Android
    // contact) are one actor by the phone number, not by the address.
    let actors = resolution::actors(&w.state);
    let fung = actor_of(&actors, &w.entity("src-iphone", "owner").id);
    let chan = actor_of(&actors, &w.entity("src-android", "owner").id);
    assert_ne!(fung.id, chan.id);
    for (source, context) in [
        ("src-android", "contact:2"),
        ("src-iphone", "wallet:btc"),
        ("src-android", "wallet:btc"),
        ("src-screens", "wallet:btc"),
    ] {
        assert!(
            fung.entities.contains(&w.entity(source, context).id),
            "{source} {context} in FUNG's actor: {fung:?}"
        );
    }
    for (source, context) in [
        ("src-android", "wallet:tron"),
        ("src-screens", "wallet:tron"),
    ] {
        assert!(
            chan.entities.contains(&w.entity(source, context).id),
            "{chan:?}"
        );
    }
    // Two claims of one actor do not compete, they corroborate: FUNG's two hypotheses each
    // have their own claim (direct, +2) and the other (supports, +1); CHAN's one only its own.
    let edges = control_edges(&w.state);
    assert_eq!(edges.len(), 3, "{edges:?}");
    let l0 = (0.25f64 / 0.75).log10();
    for e in &edges {
        let h = &w.state.hypotheses()[&e.hypothesis_id];
        assert_eq!(h.kind, masf_graph::HypothesisKind::Control);
        assert_eq!(h.status, Status::Supported, "{h:?}");
        let chan = h.subjects[1] == w.entity("src-android", "owner").id;
        let (edges_expected, gain) = if chan { (1, 2.0) } else { (2, 3.0) };
        assert_eq!(h.edges.len(), edges_expected, "{h:?}");
        assert!((h.log_odds - l0 - gain).abs() < 1e-9, "{h:?}");
        assert_eq!(e.state, SameAsState::Live);
    }
    // The links view says which relation each edge is, and explains the claim.
    let views = resolution::links(&w.state);
    let control: Vec<_> = views
        .iter()
        .filter(|l| l.relation == masf_graph::Relation::Control)
        .collect();
    assert_eq!(control.len(), 3);
    for l in &control {
        let why = resolution::explain(&w.state, &l.id).expect("explained");
        assert_eq!(why.evidence.len(), l.evidence.len());
        assert!(!why.evidence.is_empty());
        for e in &why.evidence {
            assert_eq!(e.edge.id_type, Some(IdType::Wallet));
            assert!(!e.facts.is_empty(), "{e:?}");
        }
    }
    assert!(resolution::explain(&w.state, "sa-999998-999999").is_none());
    assert_eq!(w.settle(), 0, "settled");
}

/// The BTC control hypotheses and their contradicting / weakening edge counts.
fn btc_hypotheses(w: &World) -> Vec<&masf_graph::Hypothesis> {
    let btc_wallets: Vec<String> = w
        .state
        .entities()
        .values()
        .filter(|e| e.context == "wallet:btc")
        .map(|e| e.id.clone())
        .collect();
    w.state
        .hypotheses()
        .values()
        .filter(|h| {
            h.kind == masf_graph::HypothesisKind::Control && btc_wallets.contains(&h.subjects[0])
        })
        .collect()
}

fn edges_of(h: &masf_graph::Hypothesis, t: masf_graph::EdgeType) -> usize {
    h.edges.iter().filter(|e| e.edge_type == t).count()
}

#[test]
fn a_payer_quoting_the_payees_address_once_loses_it_and_equal_claims_leave_it_undecided() {
    use masf_graph::EdgeType::{Contradicts, Weakens};
    let mut w = wallet_case();
    // LEUNG (another actor: his own number) once writes FUNG's BTC address in an outgoing
    // message ("sent to bc1q…"): one claim against FUNG's two.
    w.observe((
        "src-usb",
        "owner",
        P,
        "LEUNG",
        IdType::Phone,
        "+852 6123 4567",
    ));
    w.observe(("src-usb", "owner", P, "LEUNG", IdType::Wallet, BTC));
    w.observe(("src-usb", "wallet:btc", W, BTC, IdType::Wallet, BTC));
    w.settle();
    let leung_owner = w.entity("src-usb", "owner").id.clone();
    let actors = resolution::actors(&w.state);
    let leung = actor_of(&actors, &leung_owner);
    let fung = actor_of(&actors, &w.entity("src-iphone", "owner").id);
    assert_ne!(leung.id, fung.id, "no person merge through a wallet");
    let btc = w.entity("src-usb", "wallet:btc").id.clone();
    assert!(
        fung.entities.contains(&btc),
        "the payee keeps his address: {fung:?}"
    );
    assert!(!leung.entities.contains(&btc));
    for h in btc_hypotheses(&w) {
        if h.subjects[1] == leung_owner {
            // FUNG's two claims outnumber LEUNG's one: both contradict it.
            assert_eq!(h.status, Status::Refuted, "{h:?}");
            assert_eq!(edges_of(h, Contradicts), 2, "{h:?}");
        } else {
            // LEUNG's single claim only weakens each of FUNG's: L = L0 + 2 - 0.5.
            assert_eq!(h.status, Status::Supported, "{h:?}");
            assert_eq!(
                (edges_of(h, Weakens), edges_of(h, Contradicts)),
                (1, 0),
                "{h:?}"
            );
        }
    }

    // LEUNG writes it a second time (seen on another phone, in a message from his number):
    // two claims each, a tie. Every claim is contradicted, none supported, no one gains it;
    // the revision keeps the superseded edges in the log.
    w.observe((
        "src-ipad",
        "contact:9",
        P,
        "LEUNG",
        IdType::Phone,
        "61234567",
    ));
    w.observe(("src-ipad", "contact:9", P, "LEUNG", IdType::Wallet, BTC));
    w.observe(("src-ipad", "wallet:btc", W, BTC, IdType::Wallet, BTC));
    w.settle();
    let on_btc = btc_hypotheses(&w);
    let current: Vec<_> = on_btc
        .iter()
        .filter(|h| {
            w.state
                .coreference_hypotheses(&h.subjects[0], &h.subjects[1])
                .last()
                == Some(&h.id)
        })
        .collect();
    assert_eq!(current.len(), 4, "{current:?}");
    for h in &current {
        assert_ne!(h.status, Status::Supported, "{h:?}");
        assert_eq!(edges_of(h, Contradicts), 2, "{h:?}");
    }
    assert!(
        on_btc.len() > current.len(),
        "FUNG's hypotheses were revised"
    );
    let actors = resolution::actors(&w.state);
    for who in [("src-usb", "owner"), ("src-iphone", "owner")] {
        let a = actor_of(&actors, &w.entity(who.0, who.1).id);
        assert!(!a.entities.contains(&btc), "{a:?}");
    }
    // The TRON wallet, claimed by CHAN alone, still joins CHAN.
    let chan = actor_of(&actors, &w.entity("src-android", "owner").id);
    assert!(
        chan.entities
            .contains(&w.entity("src-android", "wallet:tron").id)
    );
}

#[test]
fn retracting_a_control_edge_splits_the_wallet_off_and_approving_restores_it() {
    let mut w = wallet_case();
    w.settle();
    let tron = w.entity("src-android", "wallet:tron").id.clone();
    let owner = w.entity("src-android", "owner").id.clone();
    let edge = masf_graph::same_as_id(&tron, &owner);
    let joined = |w: &World| {
        let actors = resolution::actors(&w.state);
        actor_of(&actors, &owner).entities.contains(&tron)
    };
    assert!(joined(&w));
    let before = w.events.len();
    assert!(
        w.decide(false, &edge, "the message quotes a payee")
            .is_accepted()
    );
    assert!(!joined(&w), "retracted: the wallet is its own actor again");
    assert_eq!(
        w.settle(),
        0,
        "the planner leaves the examiner's veto alone"
    );
    assert!(!joined(&w));
    assert!(
        w.decide(true, &edge, "confirmed by the exchange's KYC")
            .is_accepted()
    );
    assert!(joined(&w));
    assert_eq!(w.events.len(), before + 2, "the log keeps both decisions");
    let e = &w.state.same_as()[&edge];
    assert_eq!(e.decisions.len(), 2);
    assert_eq!(e.state, SameAsState::Approved);
}

#[test]
fn a_control_hypothesis_must_name_a_controlled_entity_then_a_person() {
    let mut w = wallet_case();
    let person = w.entity("src-iphone", "owner").id.clone();
    let wallet = w.entity("src-iphone", "wallet:btc").id.clone();
    for (subjects, expected) in [
        (vec![person.clone(), wallet.clone()], "not a person"),
        (vec![wallet.clone()], "two subjects"),
        (
            vec![wallet.clone(), wallet.clone()],
            "the person who controls",
        ),
    ] {
        let verdict = w.submit(&Call::AddHypothesis(masf_graph::NewHypothesis {
            proposed_by: "strategist".into(),
            statement: format!("claim {subjects:?}"),
            kind: masf_graph::HypothesisKind::Control,
            prior: None,
            subjects,
        }));
        match verdict {
            Verdict::Rejected { code, reason, .. } => {
                assert_eq!(code, RejectCode::InvalidRequest);
                assert!(reason.contains(expected), "{reason}");
            }
            other => panic!("accepted: {other:?}"),
        }
    }
}

#[test]
fn control_in_memory_joins_each_wallet_to_its_holder_at_scale() {
    let s = synthetic::generate_with_wallets(10_000, 5);
    let entities: Vec<&Entity> = s.entities.iter().collect();
    let resolved = resolution::resolve_with_control_in_memory(&entities, &Scoring::default());
    // Every wallet entity lands in its holder's cluster, the quoted ones included; no person
    // cluster is merged with another through a wallet.
    assert_eq!(resolved.clusters, s.true_clusters());
    let wallets = entities.iter().filter(|e| e.kind == W).count();
    assert!(wallets > 1_000, "{wallets} wallet entities");
    // Without attribution the wallets stay apart: the clusters differ from the truth.
    let plain = resolution::resolve_in_memory(&entities, &Scoring::default());
    assert_ne!(plain.clusters, s.true_clusters());
}

/// The other claim patterns of issue 16: a party named right before an address in a
/// document ("Payee: LEUNG YL", `named:`), a document's author, and a document about one
/// person ("me: +852 …, receive: …", the `document:` mention). A named claim goes to the one
/// actor known by that exact name — never to a look-alike, never when two actors share the
/// name; a mention's claim to the one actor its phones are — never when they are two.
#[test]
fn named_and_document_claims_join_the_one_person_known_by_that_name_or_number() {
    let mut w = World::new();
    let eth = "0x1850cE0E73407A9997C467BABc60fe887C567625";
    for obs in [
        // LEUNG's phone, and his card under his name in CHAN's phone; a look-alike card.
        (
            "src-usb-phone",
            "owner",
            P,
            "owner",
            IdType::Phone,
            "+852 6123 4567",
        ),
        (
            "src-android",
            "contact:1",
            P,
            "LEUNG YL",
            IdType::DisplayName,
            "LEUNG YL",
        ),
        (
            "src-android",
            "contact:1",
            P,
            "LEUNG YL",
            IdType::Phone,
            "61234567",
        ),
        (
            "src-android",
            "contact:2",
            P,
            "LEUNG Y L",
            IdType::DisplayName,
            "LEUNG Y L",
        ),
        (
            "src-android",
            "contact:2",
            P,
            "LEUNG Y L",
            IdType::Phone,
            "61239999",
        ),
        // FUNG: his own phone.
        (
            "src-iphone",
            "owner",
            P,
            "owner",
            IdType::Phone,
            "+852 9123 0001",
        ),
        // Two different people saved as "CHAN MH".
        (
            "src-android",
            "contact:3",
            P,
            "CHAN MH",
            IdType::DisplayName,
            "CHAN MH",
        ),
        (
            "src-android",
            "contact:3",
            P,
            "CHAN MH",
            IdType::Phone,
            "98765432",
        ),
        (
            "src-iphone",
            "contact:4",
            P,
            "CHAN MH",
            IdType::DisplayName,
            "CHAN MH",
        ),
        (
            "src-iphone",
            "contact:4",
            P,
            "CHAN MH",
            IdType::Phone,
            "98760000",
        ),
        // The documents on a USB stick.
        (
            "src-usb",
            "named:LEUNG YL",
            P,
            "LEUNG YL",
            IdType::DisplayName,
            "LEUNG YL",
        ),
        (
            "src-usb",
            "named:CHAN MH",
            P,
            "CHAN MH",
            IdType::DisplayName,
            "CHAN MH",
        ),
        (
            "src-usb",
            "named:CHAN MH",
            P,
            "CHAN MH",
            IdType::Wallet,
            TRON,
        ),
        (
            "src-usb",
            "author:NOBODY KNOWN",
            P,
            "NOBODY KNOWN",
            IdType::DisplayName,
            "NOBODY KNOWN",
        ),
        (
            "src-usb",
            "author:NOBODY KNOWN",
            P,
            "NOBODY KNOWN",
            IdType::Wallet,
            TRON,
        ),
        (
            "src-usb",
            "document:/notes.txt",
            P,
            "notes",
            IdType::Phone,
            "+852 9123 0001",
        ),
        (
            "src-usb",
            "document:/both.txt",
            P,
            "both",
            IdType::Phone,
            "+852 9123 0001",
        ),
        (
            "src-usb",
            "document:/both.txt",
            P,
            "both",
            IdType::Phone,
            "+852 6123 4567",
        ),
        (
            "src-usb",
            "document:/both.txt",
            P,
            "both",
            IdType::Wallet,
            TRON,
        ),
        ("src-usb", "wallet:eth", W, eth, IdType::Wallet, eth),
        ("src-usb", "wallet:btc", W, BTC, IdType::Wallet, BTC),
        ("src-usb", "wallet:tron", W, TRON, IdType::Wallet, TRON),
    ] {
        w.observe(obs);
    }
    // The claims with their cue words, as the disk plugin observes them.
    w.observe_in(
        "src-usb",
        "named:LEUNG YL",
        P,
        "LEUNG YL",
        IdType::Wallet,
        eth,
        "HK",
        Some("payee"),
    );
    w.observe_in(
        "src-usb",
        "document:/notes.txt",
        P,
        "notes",
        IdType::Wallet,
        BTC,
        "HK",
        Some("receive"),
    );
    w.settle();
    let actors = resolution::actors(&w.state);
    let leung = actor_of(&actors, &w.entity("src-usb-phone", "owner").id);
    let fung = actor_of(&actors, &w.entity("src-iphone", "owner").id);
    let eth_id = w.entity("src-usb", "wallet:eth").id.clone();
    let btc_id = w.entity("src-usb", "wallet:btc").id.clone();
    let tron_id = w.entity("src-usb", "wallet:tron").id.clone();
    assert!(
        leung.entities.contains(&eth_id),
        "payee LEUNG YL: {leung:?}"
    );
    assert!(
        fung.entities.contains(&btc_id),
        "notes about FUNG: {fung:?}"
    );
    let lookalike = actor_of(&actors, &w.entity("src-android", "contact:2").id);
    assert!(!lookalike.entities.contains(&eth_id), "{lookalike:?}");
    assert_ne!(lookalike.id, leung.id);
    // TRON: named "CHAN MH" (two actors), by an author no one is known as, and in a document
    // of two people's numbers: nobody gains it.
    let tron_actor = actor_of(&actors, &tron_id);
    assert_eq!(
        tron_actor
            .entities
            .iter()
            .filter(|e| w.state.entities()[e.as_str()].kind == P)
            .count(),
        0,
        "{tron_actor:?}"
    );
    // The control hypotheses name the person entity that carries the name, cite the claim.
    let edges = control_edges(&w.state);
    assert_eq!(edges.len(), 2, "{edges:?}");
    let card = w.entity("src-android", "contact:1").id.clone();
    let h = edges
        .iter()
        .map(|e| &w.state.hypotheses()[&e.hypothesis_id])
        .find(|h| h.subjects[0] == eth_id)
        .expect("the ETH hypothesis");
    assert_eq!(h.subjects[1], card, "{h:?}");
    assert_eq!(h.status, Status::Supported);
    // No person merge: the named entity and the mention stay out of coreference.
    assert_ne!(leung.id, fung.id);
    assert_eq!(w.settle(), 0, "settled");

    // A later source saves someone else as "LEUNG YL": the name no longer tells who the payee
    // is. The claim is withdrawn (a revision without evidence), the wallet splits off.
    w.observe((
        "src-ipad",
        "contact:7",
        P,
        "LEUNG YL",
        IdType::DisplayName,
        "LEUNG YL",
    ));
    w.observe((
        "src-ipad",
        "contact:7",
        P,
        "LEUNG YL",
        IdType::Phone,
        "55550000",
    ));
    w.settle();
    let actors = resolution::actors(&w.state);
    let leung = actor_of(&actors, &w.entity("src-usb-phone", "owner").id);
    let other = actor_of(&actors, &w.entity("src-ipad", "contact:7").id);
    assert_ne!(leung.id, other.id);
    assert!(!leung.entities.contains(&eth_id), "{leung:?}");
    assert!(!other.entities.contains(&eth_id), "{other:?}");
    let on_eth: Vec<_> = w
        .state
        .hypotheses()
        .values()
        .filter(|h| h.kind == masf_graph::HypothesisKind::Control && h.subjects[0] == eth_id)
        .collect();
    assert_eq!(on_eth.len(), 2, "the claim and its withdrawal: {on_eth:?}");
    assert!(
        on_eth
            .iter()
            .any(|h| h.edges.is_empty() && h.status != Status::Supported)
    );
    // The BTC claim (the mention of FUNG's number) is untouched.
    assert!(
        actor_of(&actors, &w.entity("src-iphone", "owner").id)
            .entities
            .contains(&btc_id)
    );
    assert_eq!(w.settle(), 0, "settled");
}

/// Contact claims (issue 16, part 4): a number a person wrote as their own ("my new number
/// is …") joins the entity that holds it as its own with one `direct_evidence` edge from the
/// claim; two claims support each other; the same value also held as the person's own is kept
/// beside the claim, in either order, and gives the usual two edges; a retraction splits.
#[test]
fn a_claimed_number_joins_its_holder_with_one_edge_and_own_values_win() {
    let prior = (0.25f64 / 0.75).log10();
    let mut w = World::new();
    // On the old phone's contact's device: the sender's handle claims the new number.
    w.observe_in(
        "src-a",
        "handle:+85291110000",
        P,
        "+852 9111 0000",
        IdType::Phone,
        "+852 9111 0000",
        "HK",
        None,
    );
    w.observe_in(
        "src-a",
        "handle:+85291110000",
        P,
        "+852 9111 0000",
        IdType::Phone,
        "+852 6222 3333",
        "HK",
        Some("my"),
    );
    // On a third phone the new number is only a message handle.
    w.observe_in(
        "src-b",
        "handle:+85262223333",
        P,
        "6222 3333",
        IdType::Phone,
        "6222 3333",
        "HK",
        None,
    );
    // An e-mail claimed by two people's handles, and nobody's own.
    w.observe_in(
        "src-c",
        "handle:x",
        P,
        "x",
        IdType::Email,
        "shared@example.org",
        "HK",
        Some("me"),
    );
    w.observe_in(
        "src-d",
        "handle:y",
        P,
        "y",
        IdType::Email,
        "shared@example.org",
        "HK",
        Some("my"),
    );
    w.settle();
    let s = &w.state;
    let sender = w.entity("src-a", "handle:+85291110000");
    assert_eq!(
        sender.identifiers.iter().filter(|i| i.is_claim()).count(),
        1
    );
    let h = &s.hypotheses()
        [&s.coreference_hypotheses(&sender.id, &w.entity("src-b", "handle:+85262223333").id)[0]];
    assert_eq!(h.edges.len(), 1, "{h:?}");
    assert_eq!(h.edges[0].edge_type, masf_graph::EdgeType::DirectEvidence);
    let claim = sender.identifiers.iter().find(|i| i.is_claim()).unwrap();
    assert_eq!(h.edges[0].phenomenon_id, claim.phenomenon_id);
    assert!((h.log_odds - prior - 2.0).abs() < 1e-9, "{}", h.log_odds);
    assert_eq!(h.status, Status::Supported);
    // Two handles on two phones both call the e-mail address theirs, and nothing says they
    // are different people (both ends of one message look so): the claims support each other.
    let h = &s.hypotheses()[&s.coreference_hypotheses(
        &w.entity("src-c", "handle:x").id,
        &w.entity("src-d", "handle:y").id,
    )[0]];
    assert!(
        h.edges
            .iter()
            .all(|e| e.edge_type == masf_graph::EdgeType::Supports)
            && h.edges.len() == 2,
        "{h:?}"
    );
    assert!((h.log_odds - prior - 1.5).abs() < 1e-9, "{}", h.log_odds);

    // The examiner retracts the claim's link: the new number's handle stands alone again.
    let edge = w.edge_between(
        ("src-a", "handle:+85291110000"),
        ("src-b", "handle:+85262223333"),
    );
    assert!(
        w.decide(false, &edge, "the sender relayed a friend's number")
            .is_accepted()
    );
    let actors = resolution::actors(&w.state);
    let b = w.entity("src-b", "handle:+85262223333").id.clone();
    assert_eq!(actor_of(&actors, &b).entities, std::slice::from_ref(&b));

    // The owner writes their own number as a claim before the SIM's record of it is read, and
    // after it on another source: both identifiers are kept, and the own one gives the
    // ordinary pair of edges.
    for claim_first in [true, false] {
        let mut w = World::new();
        let own = |w: &mut World| {
            w.observe_in(
                "src-p",
                "owner",
                P,
                "device owner",
                IdType::Phone,
                "+852 6444 5555",
                "HK",
                None,
            );
        };
        let claim = |w: &mut World| {
            w.observe_in(
                "src-p",
                "owner",
                P,
                "device owner",
                IdType::Phone,
                "+852 6444 5555",
                "HK",
                Some("my"),
            );
        };
        if claim_first {
            claim(&mut w);
            own(&mut w);
        } else {
            own(&mut w);
            claim(&mut w);
        }
        w.observe_in(
            "src-q",
            "contact:1",
            P,
            "PAT",
            IdType::Phone,
            "6444 5555",
            "HK",
            None,
        );
        w.settle();
        let owner = w.entity("src-p", "owner");
        assert_eq!(owner.identifiers.len(), 2, "{owner:?}");
        let h = &w.state.hypotheses()[&w
            .state
            .coreference_hypotheses(&owner.id, &w.entity("src-q", "contact:1").id)[0]];
        assert_eq!(h.edges.len(), 2, "{h:?}");
        assert!(
            h.edges
                .iter()
                .all(|e| e.edge_type == masf_graph::EdgeType::DirectEvidence)
        );
        assert!((h.log_odds - prior - 3.0).abs() < 1e-9);
    }
}

/// Competing contact claims (issue 16): PAT texts "my new number is 6222 3333" from the old
/// number to B, B forwards the text to C. B's phone holds both B's claim (sent) and PAT's
/// handle's (received): rivals. B's claims (sent on B's phone, received on C's) weigh as much
/// as PAT's (sent on the old phone, received on B's): neither joins the new number's owner,
/// and B is never joined to PAT. Once PAT has told D too, PAT's claims
/// outweigh B's: PAT's old entities join the new number, B's claims are refuted.
#[test]
fn a_forwarded_my_number_is_a_rival_claim_that_joins_no_two_people() {
    let prior = (0.25f64 / 0.75).log10();
    let new = "+852 6222 3333";
    let case = |told_d: bool| {
        let mut w = World::new();
        let own = |w: &mut World, src: &str, ctx: &str, value: &str, cue: Option<&str>| {
            w.observe_in(src, ctx, P, ctx, IdType::Phone, value, "HK", cue);
        };
        own(&mut w, "src-old", "owner", "+852 9111 0000", None);
        own(&mut w, "src-old", "owner", new, Some("my"));
        own(&mut w, "src-b", "owner", "+852 9333 0000", None);
        own(&mut w, "src-b", "owner", new, Some("my"));
        own(
            &mut w,
            "src-b",
            "handle:+85291110000",
            "+852 9111 0000",
            None,
        );
        own(&mut w, "src-b", "handle:+85291110000", new, Some("my"));
        own(
            &mut w,
            "src-c",
            "handle:+85293330000",
            "+852 9333 0000",
            None,
        );
        own(&mut w, "src-c", "handle:+85293330000", new, Some("my"));
        if told_d {
            own(
                &mut w,
                "src-d",
                "handle:+85291110000",
                "+852 9111 0000",
                None,
            );
            own(&mut w, "src-d", "handle:+85291110000", new, Some("my"));
        }
        own(&mut w, "src-new", "owner", new, None);
        w.settle();
        w
    };
    let hypothesis = |w: &World, a: (&str, &str), b: (&str, &str)| {
        let ids = w
            .state
            .coreference_hypotheses(&w.entity(a.0, a.1).id, &w.entity(b.0, b.1).id);
        w.state.hypotheses()[ids.last().expect("a hypothesis")].clone()
    };

    // A tie: every claim toward the new number's owner is at the prior.
    let w = case(false);
    let actors = resolution::actors(&w.state);
    let owner_new = w.entity("src-new", "owner").id.clone();
    assert_eq!(
        actor_of(&actors, &owner_new).entities,
        std::slice::from_ref(&owner_new)
    );
    let pat = actor_of(&actors, &w.entity("src-old", "owner").id);
    assert!(!pat.entities.contains(&w.entity("src-b", "owner").id));
    let h = hypothesis(&w, ("src-b", "owner"), ("src-new", "owner"));
    assert_eq!(
        edges_of(&h, masf_graph::EdgeType::DirectEvidence),
        1,
        "{h:?}"
    );
    assert_eq!(edges_of(&h, masf_graph::EdgeType::Supports), 1, "{h:?}");
    assert_eq!(edges_of(&h, masf_graph::EdgeType::Contradicts), 2, "{h:?}");
    assert!((h.log_odds - prior).abs() < 1e-9, "{}", h.log_odds);
    assert_ne!(h.status, Status::Supported);
    // The rivals' own claims meet without a tie between them.
    assert!(
        w.state
            .coreference_hypotheses(
                &w.entity("src-old", "owner").id,
                &w.entity("src-b", "owner").id
            )
            .is_empty()
    );

    // PAT told D too: PAT's three claims outweigh B's two.
    let w = case(true);
    let actors = resolution::actors(&w.state);
    let pat = actor_of(&actors, &w.entity("src-new", "owner").id);
    for (src, ctx) in [
        ("src-old", "owner"),
        ("src-b", "handle:+85291110000"),
        ("src-d", "handle:+85291110000"),
    ] {
        assert!(pat.entities.contains(&w.entity(src, ctx).id), "{src}/{ctx}");
    }
    for (src, ctx) in [("src-b", "owner"), ("src-c", "handle:+85293330000")] {
        assert!(
            !pat.entities.contains(&w.entity(src, ctx).id),
            "{src}/{ctx}"
        );
    }
    let h = hypothesis(&w, ("src-old", "owner"), ("src-new", "owner"));
    assert_eq!(edges_of(&h, masf_graph::EdgeType::Weakens), 2, "{h:?}");
    assert!(
        (h.log_odds - prior - (2.0 + 1.0 + 0.5 - 0.5 - 0.25)).abs() < 1e-9,
        "{}",
        h.log_odds
    );
    assert_eq!(h.status, Status::Supported);
    let h = hypothesis(&w, ("src-b", "owner"), ("src-new", "owner"));
    assert_eq!(h.status, Status::Refuted, "{h:?}");
}

/// Account-id claims (issue 16): "my WeChat is chan_mh88" written by a person joins the
/// entity a parser knows the WeChat ID of (namespaced `account_id` `wechat:…` or the
/// `wechat` type), like a contact claim; a friend's WeChat ID (no claim) joins nobody;
/// `actors` lists the claimant in `claimed_by`; claims meeting claims support each other.
#[test]
fn a_claimed_wechat_id_joins_the_account_that_holds_it() {
    let mut w = World::new();
    w.observe_in(
        "src-a",
        "handle:+85291110000",
        P,
        "+852 9111 0000",
        IdType::Phone,
        "+852 9111 0000",
        "HK",
        None,
    );
    w.observe_in(
        "src-a",
        "handle:+85291110000",
        P,
        "+852 9111 0000",
        IdType::Wechat,
        "Chan_MH88",
        "HK",
        Some("my"),
    );
    // A WeChat parser's own record of the account, by its namespaced id.
    w.observe_in(
        "src-b",
        "wechat:chan_mh88",
        P,
        "CHAN MH",
        IdType::AccountId,
        "wechat:chan_mh88",
        "HK",
        None,
    );
    w.observe_in(
        "src-c",
        "contact:7",
        P,
        "LEE",
        IdType::Wechat,
        "lee_friend1",
        "HK",
        None,
    );
    w.settle();
    let sender = w.entity("src-a", "handle:+85291110000");
    let claim = sender.identifiers.iter().find(|i| i.is_claim()).unwrap();
    assert_eq!(claim.normalized, "wechat:chan_mh88");
    let actors = resolution::actors(&w.state);
    let actor = actor_of(&actors, &sender.id);
    assert!(
        actor
            .entities
            .contains(&w.entity("src-b", "wechat:chan_mh88").id)
    );
    let listed = actor
        .identifiers
        .iter()
        .find(|i| i.normalized == "wechat:chan_mh88" && i.id_type == IdType::Wechat)
        .unwrap();
    assert_eq!(listed.claimed_by, std::slice::from_ref(&sender.id));
    let lee = w.entity("src-c", "contact:7").id.clone();
    assert_eq!(actor_of(&actors, &lee).entities, std::slice::from_ref(&lee));

    // Claim meets claim: the same Telegram user name and QQ number written as their own by
    // the device's user of one phone and a handle on another support each other (one
    // `supports` edge from each claim: +1, +0.5); the QQ claim joins the namespaced
    // `account_id` `qq:…` a parser holds.
    let prior = (0.25f64 / 0.75).log10();
    let mut w = World::new();
    for (src, ctx) in [("src-x", "owner"), ("src-y", "handle:+85295550000")] {
        w.observe_in(
            src,
            ctx,
            P,
            ctx,
            IdType::TelegramUsername,
            "@Pat_Wong",
            "HK",
            Some("my"),
        );
    }
    w.observe_in(
        "src-z",
        "owner",
        P,
        "owner",
        IdType::AccountId,
        "qq:12345678",
        "HK",
        None,
    );
    w.observe_in(
        "src-y",
        "handle:+85295550000",
        P,
        "handle",
        IdType::Qq,
        "12345678",
        "HK",
        Some("我的"),
    );
    w.settle();
    let x = w.entity("src-x", "owner").id.clone();
    let y = w.entity("src-y", "handle:+85295550000").id.clone();
    let z = w.entity("src-z", "owner").id.clone();
    let h = &w.state.hypotheses()[&w.state.coreference_hypotheses(&x, &y)[0]];
    assert_eq!(edges_of(h, masf_graph::EdgeType::Supports), 2, "{h:?}");
    assert!((h.log_odds - prior - 1.5).abs() < 1e-9, "{}", h.log_odds);
    let actors = resolution::actors(&w.state);
    let one = actor_of(&actors, &x);
    assert!(
        one.entities.contains(&y) && one.entities.contains(&z),
        "{one:?}"
    );
}
