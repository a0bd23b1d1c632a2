//! Facts grounded through the graph gateway against invocations recorded in a real store.

use masf_graph::{FactClaim, FactType, Gateway, GraphState, NewPhenomenon, Scoring, Verdict};
use masf_tools::{Limits, StoreLog};
use serde_json::json;

use crate::support::{call, invoker, store, usb};

fn phenomenon(inv_id: &str, fact_type: FactType, value: &str) -> NewPhenomenon {
    NewPhenomenon {
        source_id: "src-usb".into(),
        agent: "triage".into(),
        task_id: "t1".into(),
        category: "document".into(),
        title: "notes on the USB stick".into(),
        facts: vec![FactClaim {
            fact_type,
            value: value.into(),
            invocation_id: inv_id.into(),
        }],
        interpretation: String::new(),
        phone_region: None,
        times: Vec::new(),
    }
}

#[test]
fn a_fact_in_a_logged_output_is_accepted_and_one_not_in_it_is_rejected() {
    let (_dir, mut store) = store();
    let inv = invoker(masf_tools::Catalog::standard(), Limits::default());
    let src = usb();
    let listing = call(
        &inv,
        &mut store,
        &src,
        "list_dir",
        json!({"path": "/"}),
        "triage",
        "t1",
        1,
    );
    let text = call(
        &inv,
        &mut store,
        &src,
        "read_text",
        json!({"path": "/notes.txt"}),
        "triage",
        "t1",
        2,
    );
    let state = GraphState::new(Scoring::default());
    let log = StoreLog::new(&store);
    let gateway = Gateway::new(&state, &log);

    let ok = gateway.record_phenomenon(&phenomenon(
        &text.record.invocation_id,
        FactType::Email,
        "yl.leung@example.com",
    ));
    assert!(matches!(ok, Verdict::Accepted { .. }), "{ok:?}");
    let path = gateway.record_phenomenon(&phenomenon(
        &listing.record.invocation_id,
        FactType::Path,
        "/notes.txt",
    ));
    assert!(matches!(path, Verdict::Accepted { .. }), "{path:?}");

    let absent = gateway.record_phenomenon(&phenomenon(
        &text.record.invocation_id,
        FactType::Email,
        "nobody@example.org",
    ));
    match absent {
        Verdict::Rejected { failing_facts, .. } => assert_eq!(failing_facts.len(), 1),
        other => panic!("expected a rejection, got {other:?}"),
    }

    // Another agent cannot cite these invocations.
    let mut other = phenomenon(
        &text.record.invocation_id,
        FactType::Email,
        "yl.leung@example.com",
    );
    other.agent = "someone_else".into();
    assert!(matches!(
        gateway.record_phenomenon(&other),
        Verdict::Rejected { .. }
    ));
}

#[test]
fn the_store_log_lists_an_agents_calls_oldest_first() {
    use masf_graph::InvocationLog;
    let (_dir, mut store) = store();
    let inv = invoker(masf_tools::Catalog::standard(), Limits::default());
    let src = usb();
    let a = call(
        &inv,
        &mut store,
        &src,
        "list_dir",
        json!({"path": "/"}),
        "x",
        "t",
        1,
    );
    call(
        &inv,
        &mut store,
        &src,
        "list_dir",
        json!({"path": "/"}),
        "y",
        "t",
        2,
    );
    let b = call(
        &inv,
        &mut store,
        &src,
        "stat",
        json!({"path": "/notes.txt"}),
        "x",
        "t",
        3,
    );
    let log = StoreLog::new(&store);
    assert_eq!(
        log.ids_for("x", "t").into_owned(),
        vec![
            a.record.invocation_id.clone(),
            b.record.invocation_id.clone()
        ]
    );
    let view = log.get(&b.record.invocation_id).unwrap();
    assert_eq!(view.output.as_ref(), b.output.text.as_bytes());
    assert_eq!(view.agent, "x");
    assert!(log.get("inv-999999").is_none());
}

#[test]
fn a_wal_only_value_is_grounded_through_sqlite_query() {
    let (_dir, mut store) = store();
    let inv = invoker(masf_tools::Catalog::standard(), Limits::default());
    let src = crate::support::iphone();
    let q = call(
        &inv,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": "/private/var/mobile/Library/SMS/sms.db", "sql": "SELECT ROWID, text FROM message WHERE ROWID = 6"}),
        "triage",
        "t1",
        1,
    );
    let state = GraphState::new(Scoring::default());
    let log = StoreLog::new(&store);
    let gateway = Gateway::new(&state, &log);
    let mut req = phenomenon(
        &q.record.invocation_id,
        FactType::Wallet,
        "0x1850cE0E73407A9997C467BABc60fe887C567625",
    );
    req.source_id = "src-iphone".into();
    let verdict = gateway.record_phenomenon(&req);
    assert!(matches!(verdict, Verdict::Accepted { .. }), "{verdict:?}");
}

#[test]
fn json_outputs_are_offered_as_structured_output() {
    use masf_graph::InvocationLog;
    let (_dir, mut store) = store();
    let inv = invoker(masf_tools::Catalog::standard(), Limits::default());
    let src = crate::support::iphone();
    let plist = call(
        &inv,
        &mut store,
        &src,
        "parse_plist",
        json!({"path": "/System/Library/CoreServices/SystemVersion.plist"}),
        "x",
        "t",
        1,
    );
    let listing = call(
        &inv,
        &mut store,
        &src,
        "list_dir",
        json!({"path": "/"}),
        "x",
        "t",
        2,
    );
    let log = StoreLog::new(&store);
    let view = log.get(&plist.record.invocation_id).unwrap();
    assert_eq!(view.structured.unwrap()["ProductVersion"], "17.3.1");
    assert!(
        log.get(&listing.record.invocation_id)
            .unwrap()
            .structured
            .is_none()
    );
}
