//! Identity observations through the gateway: one phone in many spellings is one identifier.

use masf_graph::{
    EntityKind, Gateway, GraphState, IdType, IdentityObservation, MemoryInvocation, MemoryLog,
    Region, Scoring, Verdict,
};

const FORMATS: [&str; 5] = [
    "+852 6123 4567",
    "61234567",
    "(852) 6123-4567",
    "852-6123-4567",
    "00852 6123 4567",
];

fn observe(state: &mut GraphState, log: &MemoryLog, value: &str, n: usize) -> Verdict {
    let request = IdentityObservation {
        agent: "android-triage".into(),
        task_id: "t1".into(),
        source_id: "src-android".into(),
        context: "contact:7".into(),
        entity_kind: EntityKind::Person,
        label: "CHAN MH".into(),
        id_type: IdType::Phone,
        value: value.into(),
        invocation_id: format!("inv-{n:06}"),
        phone_region: Some(Region::parse("HK").expect("HK is a region")),
        interpretation: String::new(),
        cue: None,
    };
    let verdict = Gateway::new(state, log).observe_identity(&request);
    for event in verdict.events() {
        state.apply(event);
    }
    verdict
}

#[test]
fn one_phone_in_five_formats_is_one_identifier_and_one_digit_off_is_another() {
    let mut invocations: Vec<MemoryInvocation> = FORMATS
        .iter()
        .enumerate()
        .map(|(i, format)| MemoryInvocation {
            id: format!("inv-{:06}", i + 1),
            source_id: "src-android".into(),
            agent: "android-triage".into(),
            task_id: "t1".into(),
            output: format!("contacts2.db data1={format}\n").into_bytes(),
            structured: None,
        })
        .collect();
    invocations.push(MemoryInvocation {
        id: "inv-000006".into(),
        source_id: "src-android".into(),
        agent: "android-triage".into(),
        task_id: "t1".into(),
        output: b"contacts2.db data1=6123 4568\n".to_vec(),
        structured: None,
    });
    let log: MemoryLog = invocations.into_iter().collect();
    let mut state = GraphState::new(Scoring::default());
    for (i, format) in FORMATS.iter().enumerate() {
        let verdict = observe(&mut state, &log, format, i + 1);
        assert_eq!(verdict.id(), Some("ent-000001"), "{format}: {verdict:?}");
        assert_eq!(
            verdict.events().len(),
            if i == 0 { 2 } else { 0 },
            "{format}"
        );
    }
    let entity = &state.entities()["ent-000001"];
    assert_eq!(entity.identifiers.len(), 1);
    assert_eq!(entity.identifiers[0].normalized, "+85261234567");

    let verdict = observe(&mut state, &log, "6123 4568", 6);
    assert!(verdict.is_accepted(), "{verdict:?}");
    let entity = &state.entities()["ent-000001"];
    let normalized: Vec<&str> = entity
        .identifiers
        .iter()
        .map(|i| i.normalized.as_str())
        .collect();
    assert_eq!(normalized, ["+85261234567", "+85261234568"]);
}
