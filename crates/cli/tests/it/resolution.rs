//! `masf links`, `masf retract`, `masf approve`, `masf actors` on a case store whose identity
//! observations were made through a real session: real tool calls (`read_text`) on real
//! folder sources, grounded by the gateway, then resolved by `masf_api::resolve`.

use std::path::Path;
use std::sync::Arc;

use masf_api::{Clock, OpenCase};
use masf_graph::{Call, EntityKind, IdType, IdentityObservation};
use masf_store::ActorKind;
use serde_json::Value;

use crate::support::{case_conforms, case_validate, masf, masf_ok};

struct Fixed;

impl Clock for Fixed {
    fn now(&self) -> jiff::Timestamp {
        "2026-11-30T09:00:00Z".parse().expect("a timestamp")
    }
}

/// Two folder sources: a phone's export and a USB stick's notes, with LEUNG's phone in two
/// formats, CHAN's e-mail in two cases, and the look-alike "LEUNG Y L" with other numbers.
fn make_case(dir: &Path) {
    let phone = dir.join("evidence/phone");
    let usb = dir.join("evidence/usb");
    std::fs::create_dir_all(&phone).unwrap();
    std::fs::create_dir_all(&usb).unwrap();
    std::fs::write(
        phone.join("contacts.txt"),
        "1|Leung YL|61234567|yl.leung@example.com\n\
         2|LEUNG Y L|+852 6987 1122|yeeling.leung@example.net\n\
         3|CHAN MH|98765432|Chan.MH@example.net\n",
    )
    .unwrap();
    std::fs::write(
        usb.join("notes.txt"),
        "author: LEUNG YL\nmy number +852 6123 4567\ncc chan.mh@example.net\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("case.yaml"),
        "case:\n  id: er-test\n  title: Entity resolution test\n  examiner: J. Doe\n  \
         timezone: Asia/Hong_Kong\nsources:\n  - id: src-phone\n    label: Phone export\n    \
         path: evidence/phone\n  - id: src-usb\n    label: USB notes\n    path: evidence/usb\n",
    )
    .unwrap();
}

/// Observes identities as triage agents would: one `read_text` call per file, each value
/// grounded in its output.
fn observe_all(case: &Path) {
    let ctx = masf_api::open_case(&OpenCase {
        case_file: case.to_path_buf(),
        work: None,
        config: None,
    })
    .unwrap();
    let session = masf_api::session(&ctx, Arc::new(Fixed)).unwrap();
    let read = |agent: &str, source: &str, path: &str| {
        session
            .invoke(
                agent,
                &format!("triage/{source}"),
                source,
                "read_text",
                &serde_json::json!({ "path": path }),
            )
            .unwrap()
            .record
            .invocation_id
    };
    let contacts = read("test-triage", "src-phone", "/contacts.txt");
    let notes = read("test-triage", "src-usb", "/notes.txt");
    let observations: [(&str, &str, &str, IdType, &str, &str); 10] = [
        (
            "src-phone",
            "contact:1",
            "Leung YL",
            IdType::DisplayName,
            "Leung YL",
            &contacts,
        ),
        (
            "src-phone",
            "contact:1",
            "Leung YL",
            IdType::Phone,
            "61234567",
            &contacts,
        ),
        (
            "src-phone",
            "contact:1",
            "Leung YL",
            IdType::Email,
            "yl.leung@example.com",
            &contacts,
        ),
        (
            "src-phone",
            "contact:2",
            "LEUNG Y L",
            IdType::DisplayName,
            "LEUNG Y L",
            &contacts,
        ),
        (
            "src-phone",
            "contact:2",
            "LEUNG Y L",
            IdType::Phone,
            "+852 6987 1122",
            &contacts,
        ),
        (
            "src-phone",
            "contact:3",
            "CHAN MH",
            IdType::Email,
            "Chan.MH@example.net",
            &contacts,
        ),
        (
            "src-usb",
            "owner",
            "LEUNG YL",
            IdType::DisplayName,
            "LEUNG YL",
            &notes,
        ),
        (
            "src-usb",
            "owner",
            "LEUNG YL",
            IdType::Phone,
            "+852 6123 4567",
            &notes,
        ),
        (
            "src-usb",
            "handle:chan",
            "",
            IdType::Email,
            "chan.mh@example.net",
            &notes,
        ),
        (
            "src-usb",
            "author:LEUNG YL",
            "LEUNG YL",
            IdType::DisplayName,
            "LEUNG YL",
            &notes,
        ),
    ];
    for (source, context, label, id_type, value, invocation) in observations {
        let call = Call::ObserveIdentity(IdentityObservation {
            agent: "test-triage".into(),
            task_id: format!("triage/{source}"),
            source_id: source.into(),
            context: context.into(),
            entity_kind: EntityKind::Person,
            label: label.into(),
            id_type,
            value: value.into(),
            invocation_id: invocation.to_owned(),
            phone_region: masf_graph::Region::parse("HK").ok(),
            interpretation: String::new(),
            cue: None,
        });
        let verdict = session
            .submit(ActorKind::Agent, "test-triage", &call)
            .unwrap();
        assert!(verdict.is_accepted(), "{value}: {verdict:?}");
    }
    drop(session);
    let report = masf_api::resolve(&ctx, Arc::new(Fixed)).unwrap();
    assert!(
        report.hypotheses_added > 0 && report.edges_linked > 0,
        "{report:?}"
    );
    // Resolving again writes nothing.
    let again = masf_api::resolve(&ctx, Arc::new(Fixed)).unwrap();
    assert_eq!(
        (again.hypotheses_added, again.edges_linked),
        (0, 0),
        "{again:?}"
    );
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&masf_ok(args)).expect("JSON on stdout")
}

fn actor_with<'a>(actors: &'a Value, context: &str, entities: &Value) -> &'a Value {
    let entity = entities
        .as_object()
        .unwrap()
        .iter()
        .find(|(_, e)| e["context"] == context)
        .map(|(id, _)| id.clone())
        .unwrap();
    actors
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["entities"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e == &entity)
        })
        .unwrap()
}

#[test]
fn links_retract_approve_and_actors_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    make_case(dir.path());
    let case_path = dir.path().join("case.yaml");
    let case = case_path.to_str().unwrap();
    masf_ok(&["run", case]);
    observe_all(&case_path);

    let links = json(&["links", case, "--json"]);
    let links = links.as_array().unwrap();
    // LEUNG: the phone contact and the USB owner share +85261234567; CHAN: the e-mail. (The
    // disk plugin's triage also observed the identifiers the two text files mention, as
    // `document:` entities; their links are not the subject here.)
    let mention = |l: &Value| {
        ["a", "b"].iter().any(|side| {
            l[side]["context"]
                .as_str()
                .is_some_and(|c| c.starts_with("document:"))
        })
    };
    let live: Vec<&Value> = links
        .iter()
        .filter(|l| l["state"] == "live" && !mention(l))
        .collect();
    assert_eq!(live.len(), 2, "{links:#?}");
    let leung = live
        .iter()
        .find(|l| {
            l["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["normalized"] == "+85261234567")
        })
        .expect("the LEUNG link");
    let edge = leung["id"].as_str().unwrap().to_owned();
    assert!(leung["confidence"].as_f64().unwrap() > 0.8);
    // The look-alike is a candidate below the threshold, never a same_as edge.
    let decoy: Vec<&Value> = links
        .iter()
        .filter(|l| l["a"]["label"] == "LEUNG Y L" || l["b"]["label"] == "LEUNG Y L")
        .filter(|l| !mention(l))
        .collect();
    assert!(!decoy.is_empty(), "the similar name is a candidate");
    for l in &decoy {
        assert_eq!(l["state"], "candidate", "{l:#}");
        assert!(l["confidence"].as_f64().unwrap() < 0.8);
    }
    let text = masf_ok(&["links", case]);
    assert!(
        text.contains(&edge) && text.contains("direct_evidence"),
        "{text}"
    );

    let ctx = masf_api::open_case(&OpenCase {
        case_file: case_path.clone(),
        work: None,
        config: None,
    })
    .unwrap();
    let entities = serde_json::to_value(masf_api::graph(&ctx).unwrap().entities()).unwrap();
    drop(ctx);
    let actors = json(&["actors", case, "--json"]);
    let a = actor_with(&actors, "contact:1", &entities);
    assert_eq!(a["entities"].as_array().unwrap().len(), 2, "{a:#}");
    assert_eq!(a["sources"], serde_json::json!(["src-phone", "src-usb"]));
    assert_eq!(a["joined_by"], serde_json::json!([edge]));
    let decoy_actor = actor_with(&actors, "contact:2", &entities);
    assert_eq!(decoy_actor["entities"].as_array().unwrap().len(), 1);

    // Refusals: no reason, unknown edge.
    let out = masf(&["retract", case, &edge, "--reason", " "]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("reason"));
    let out = masf(&["retract", case, "sa-999998-999999", "--reason", "x"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no same_as edge"));
    let out = masf(&["retract", case, &edge]);
    assert_eq!(out.status.code(), Some(2), "--reason is required");

    let log_before = masf_ok(&["events", case, "--jsonl"]);
    let decided = json(&[
        "retract",
        case,
        &edge,
        "--reason",
        "the number was reassigned",
        "--json",
    ]);
    assert_eq!(decided["recorded"], true);
    assert_eq!(decided["link"]["state"], "retracted");
    assert_eq!(decided["link"]["decisions"][0]["by"], "J. Doe");
    let actors = json(&["actors", case, "--json"]);
    let a = actor_with(&actors, "contact:1", &entities);
    assert_eq!(
        a["entities"].as_array().unwrap().len(),
        1,
        "the actor split: {a:#}"
    );
    // Running the case again (intake, triage, resolve) keeps the retraction.
    masf_ok(&["run", case]);
    let links = json(&["links", case, "--json"]);
    let l = links
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == edge.as_str())
        .unwrap();
    assert_eq!(l["state"], "retracted");

    let decided = json(&[
        "approve",
        case,
        &edge,
        "--reason",
        "subscriber record confirms",
        "--examiner",
        "A. Lee",
        "--json",
    ]);
    assert_eq!(decided["link"]["state"], "approved");
    assert_eq!(decided["link"]["decisions"][1]["by"], "A. Lee");
    let actors = json(&["actors", case, "--json"]);
    let a = actor_with(&actors, "contact:1", &entities);
    assert_eq!(
        a["entities"].as_array().unwrap().len(),
        2,
        "approve restores: {a:#}"
    );
    // The text says what made each join: the edge, its relation and state, the identifiers.
    let text = masf_ok(&["actors", case]);
    assert!(
        text.contains(&format!("joined by {edge} (coreference, approved): "))
            && text.contains("phone +85261234567"),
        "{text}"
    );
    // `links --why` explains the edge down to the logged invocations its facts were verified in.
    let why = masf_ok(&["links", case, "--why", &edge]);
    assert!(why.starts_with(&edge), "{why}");
    assert!(why.contains("direct_evidence +2.00"), "{why}");
    assert!(
        why.contains("verified in inv-") && why.contains("read_text"),
        "{why}"
    );
    let why_json = json(&["links", case, "--why", &edge, "--json"]);
    assert_eq!(why_json["link"]["id"], edge.as_str());
    let cited = why_json["evidence"][0]["facts"][0]["invocation_id"]
        .as_str()
        .expect("a cited invocation");
    assert_eq!(
        why_json["invocations"][cited]["tool"], "read_text",
        "{why_json:#}"
    );
    let unknown = masf(&["links", case, "--why", "sa-999998-999999"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("no same_as edge or candidate pair"),
        "{}",
        String::from_utf8_lossy(&unknown.stderr)
    );
    // Nothing was deleted: the log before the decisions is still its prefix, and it holds the
    // two decisions, both examiner events (the run in between added its own run events).
    let events = masf_ok(&["events", case, "--jsonl"]);
    assert!(
        events.starts_with(&log_before),
        "the earlier log is unchanged"
    );
    let decisions: Vec<Value> = events
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["kind"] == "SameAsRetracted" || e["kind"] == "SameAsApproved")
        .collect();
    assert_eq!(decisions.len(), 2);
    assert!(
        decisions.iter().all(|e| e["actor_kind"] == "examiner"),
        "{decisions:#?}"
    );
    // The report's CASE export holds both decisions as the examiner's actions on the link's
    // relationship, and conforms to CASE 1.5.
    let out = dir.path().join("report");
    masf_ok(&["report", case, "--out", out.to_str().unwrap()]);
    let jsonld = std::fs::read_to_string(out.join("report.case.jsonld")).unwrap();
    for what in [
        "retract by",
        "approve by A. Lee: subscriber record confirms",
    ] {
        assert!(jsonld.contains(what), "{what}");
    }
    case_conforms(case_validate(&out.join("report.case.jsonld")));
}
