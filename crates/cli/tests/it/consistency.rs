//! An inconsistent case store is said so, and repaired (issue 24). Before the run lease, two
//! `masf run` racing on one case left graph events that contradict each other — one phenomenon
//! id naming an Android and a USB phenomenon — after which every run failed on an idempotency
//! conflict, and `masf status`, `verify` and `report` exited 0, the report showing what the
//! fold kept. These tests build such a store the way the race did (two writers, each numbering
//! from the same empty graph) and check that every command now names the problem, that `masf
//! run` refuses to add to it, and that `masf repair` makes the case whole again — the same
//! report as a single run, the examiner's decisions kept — without deleting an event.

use std::collections::BTreeMap;
use std::path::Path;

use masf_store::{NewEvent, NewInvocation, Store};
use serde_json::Value;

use crate::support::{demo_subset, masf, masf_ok, normalised, run_case};

fn text(out: &std::process::Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn new_event(e: &masf_store::StoredEvent, payload: Value) -> NewEvent {
    NewEvent {
        kind: e.kind.clone(),
        payload,
        actor_kind: e.actor_kind,
        actor_id: e.actor_id.clone(),
        idempotency_key: e.idempotency_key.clone(),
        causation_seq: None,
        ts: e.ts,
        versions: e.versions.clone(),
    }
}

/// The store two unguarded writers leave: both started from the empty graph, one recorded the
/// Android phone's findings, the other the USB stick's, each numbering its phenomena and
/// entities from 1 — then each died on the other's keys. Built from a clean run's log: its
/// tool calls and intake as they are, the Android writer's events as recorded, the USB
/// writer's renumbered onto the ids the Android writer used, the two interleaved.
fn raced_store(clean: &Path, into: &Path) {
    let clean = Store::open_read_only(clean).unwrap();
    let mut store = Store::open(into).unwrap();
    for r in clean.all_invocations().unwrap() {
        let output = clean.invocation_output(&r.invocation_id).unwrap();
        let copied = store
            .record_invocation(&NewInvocation {
                source_id: r.source_id,
                tool: r.tool,
                args: r.args,
                status: r.status,
                reason: r.reason,
                cached_from: r.cached_from,
                output,
                agent: r.agent,
                task_id: r.task_id,
                ts: r.ts,
                duration_ms: r.duration_ms,
                versions: r.versions,
                idempotency_key: r.idempotency_key,
            })
            .unwrap();
        assert_eq!(copied.invocation_id, r.invocation_id);
    }
    let events = clean.events(0).unwrap();
    let first_graph = events
        .iter()
        .position(|e| e.kind == "PhenomenonRecorded")
        .unwrap();
    for e in &events[..first_graph] {
        store.append(&new_event(e, e.payload.clone())).unwrap();
    }
    let of_source = |source: &str| -> Vec<&masf_store::StoredEvent> {
        events
            .iter()
            .filter(|e| match e.kind.as_str() {
                "PhenomenonRecorded" => e.payload["phenomenon"]["source_id"] == source,
                "IdentityObserved" => e.payload["source_id"] == source,
                _ => false,
            })
            .collect()
    };
    let android = of_source("src-android");
    let usb = of_source("src-usb");
    // The ids each writer gave, in its order.
    let ids = |events: &[&masf_store::StoredEvent], kind: &str, field: &str| -> Vec<String> {
        let mut seen = Vec::new();
        for e in events.iter().filter(|e| e.kind == kind) {
            let id = e.payload.pointer(field).and_then(Value::as_str).unwrap();
            if !seen.iter().any(|s| s == id) {
                seen.push(id.to_string());
            }
        }
        seen
    };
    let mut renumber: BTreeMap<String, String> = BTreeMap::new();
    for (kind, field) in [
        ("PhenomenonRecorded", "/phenomenon/id"),
        ("IdentityObserved", "/entity_id"),
    ] {
        for (u, a) in ids(&usb, kind, field)
            .into_iter()
            .zip(ids(&android, kind, field))
        {
            renumber.insert(u, a);
        }
    }
    assert!(renumber.len() > 5, "the demo's USB stick has findings");
    let moved = |e: &masf_store::StoredEvent| {
        let mut payload = e.payload.clone();
        for field in ["/phenomenon/id", "/entity_id", "/identifier/phenomenon_id"] {
            if let Some(v) = payload.pointer_mut(field)
                && let Some(new) = v.as_str().and_then(|id| renumber.get(id))
            {
                *v = Value::String(new.clone());
            }
        }
        new_event(e, payload)
    };
    let (mut a, mut u) = (android.iter(), usb.iter());
    loop {
        let next_a = a.next().map(|e| new_event(e, e.payload.clone()));
        let next_u = u.next().map(|e| moved(e));
        if next_a.is_none() && next_u.is_none() {
            break;
        }
        for e in next_a.into_iter().chain(next_u) {
            store.append(&e).unwrap();
        }
    }
}

#[test]
fn a_raced_store_is_named_by_every_command_refused_by_run_and_repaired() {
    let dir = tempfile::tempdir().unwrap();
    // The two sources whose findings the race mixed up.
    let case = demo_subset(dir.path(), &["src-usb", "src-android"]);
    let clean = dir.path().join("clean");
    run_case(&case, &clean, &dir.path().join("out-clean"));
    let expected = normalised(&dir.path().join("out-clean/report.json"));

    let work = dir.path().join("raced");
    raced_store(&clean, &work);
    let w = work.to_str().unwrap();

    // Every command that reads the case says what is wrong, and exits 1.
    for args in [
        vec!["status", &case, "--work", w],
        vec!["status", &case, "--work", w, "--json"],
        vec!["verify", &case, "--work", w],
    ] {
        let out = masf(&args);
        assert_eq!(out.status.code(), Some(1), "masf {args:?}:\n{}", text(&out));
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("names two records: a phenomenon of src-android")
                && said.contains("a phenomenon of src-usb"),
            "masf {args:?} does not name the duplicate:\n{said}"
        );
    }
    let status: Value =
        serde_json::from_slice(&masf(&["status", &case, "--work", w, "--json"]).stdout).unwrap();
    let problems = status["consistency"]["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p["kind"] == "duplicate_id"),
        "{problems:?}"
    );
    let out_report = dir.path().join("out-report");
    let out = masf(&[
        "report",
        &case,
        "--work",
        w,
        "--out",
        out_report.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("masf repair"), "{}", text(&out));
    assert!(
        !out_report.join("report.json").exists(),
        "a report was written"
    );
    // A run refuses to add to it (it used to fail on an idempotency conflict, every time).
    let out = masf(&[
        "run",
        &case,
        "--work",
        w,
        "--out",
        out_report.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("is inconsistent") && text(&out).contains("masf repair"),
        "{}",
        text(&out)
    );
    let before = Store::open_read_only(&work).unwrap().events(0).unwrap();

    // Repair: the graph is derived again; nothing is deleted.
    let out_repair = dir.path().join("out-repair");
    let repaired = masf(&[
        "repair",
        &case,
        "--work",
        w,
        "--out",
        out_repair.to_str().unwrap(),
    ]);
    assert!(repaired.status.success(), "{}", text(&repaired));
    assert!(
        text(&repaired).contains("graph rebuilt (epoch 1)"),
        "{}",
        text(&repaired)
    );
    let after = Store::open_read_only(&work).unwrap().events(0).unwrap();
    assert_eq!(
        &after[..before.len()],
        &before[..],
        "an event changed or went"
    );
    assert_eq!(
        after.iter().filter(|e| e.kind == "GraphRebuilt").count(),
        1,
        "one rebuild"
    );
    assert_eq!(normalised(&out_repair.join("report.json")), expected);
    for command in ["status", "verify"] {
        let out = masf(&[command, &case, "--work", w]);
        assert!(out.status.success(), "masf {command}:\n{}", text(&out));
    }
    // Repaired, the case runs again like any other, and a second repair finds nothing to do.
    let out_again = dir.path().join("out-again");
    run_case(&case, &work, &out_again);
    assert_eq!(normalised(&out_again.join("report.json")), expected);
    let again = masf_ok(&["repair", &case, "--work", w]);
    assert!(again.contains("nothing to repair"), "{again}");
}

#[test]
fn a_repair_makes_the_examiners_decisions_again_on_the_rebuilt_graph() {
    let dir = tempfile::tempdir().unwrap();
    // Two sources whose people link: live edges for the examiner to decide on.
    let case = demo_subset(dir.path(), &["src-usb", "src-iphone"]);
    let work = dir.path().join("work");
    let w = work.to_str().unwrap();
    run_case(&case, &work, &dir.path().join("out-1"));
    let links: Value =
        serde_json::from_str(&masf_ok(&["links", &case, "--work", w, "--json"])).unwrap();
    let live = links
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["state"] == "live")
        .expect("a live edge")
        .clone();
    let edge = live["id"].as_str().unwrap();
    masf_ok(&[
        "retract",
        &case,
        "--work",
        w,
        edge,
        "--reason",
        "not the same person",
    ]);
    let expected_dir = dir.path().join("out-expected");
    masf_ok(&[
        "report",
        &case,
        "--work",
        w,
        "--out",
        expected_dir.to_str().unwrap(),
    ]);
    let expected = normalised(&expected_dir.join("report.json"));

    // A second writer's record under an id already taken.
    let mut store = Store::open(&work).unwrap();
    let recorded = store.events_of_kind("PhenomenonRecorded").unwrap();
    let (first, last) = (&recorded[0], recorded.last().unwrap());
    let mut payload = last.payload.clone();
    payload["digest"] = Value::String("0".repeat(32));
    payload["phenomenon"]["id"] = first.payload["phenomenon"]["id"].clone();
    let mut forged = new_event(last, payload);
    forged.idempotency_key = format!("graph/phenomenon/{}", "0".repeat(32));
    store.append(&forged).unwrap();
    drop(store);
    assert_eq!(masf(&["status", &case, "--work", w]).status.code(), Some(1));

    let out = dir.path().join("out-repair");
    let repaired = masf_ok(&["repair", &case, "--work", w, "--out", out.to_str().unwrap()]);
    assert!(
        repaired.contains(&format!("retraction of {edge} by J. Doe -> sa-"))
            && repaired.contains("made again"),
        "{repaired}"
    );
    // The same two entities, under their new ids, are still kept apart.
    let links: Value =
        serde_json::from_str(&masf_ok(&["links", &case, "--work", w, "--json"])).unwrap();
    let ends = |l: &Value| {
        let mut pair = [
            (l["a"]["source_id"].clone(), l["a"]["context"].clone()),
            (l["b"]["source_id"].clone(), l["b"]["context"].clone()),
        ]
        .map(|(s, c)| format!("{s}|{c}"));
        pair.sort();
        pair
    };
    let now = links
        .as_array()
        .unwrap()
        .iter()
        .find(|l| ends(l) == ends(&live))
        .expect("the edge of the same two entities");
    assert_eq!(now["state"], "retracted", "{now}");
    let reason = now["decisions"][0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("not the same person") && reason.contains(edge),
        "{reason}"
    );
    assert_eq!(normalised(&out.join("report.json")), expected);
    assert!(masf(&["status", &case, "--work", w]).status.success());
}

#[test]
fn a_hole_in_the_log_is_named_and_repair_leaves_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    let case = demo_subset(dir.path(), &["src-usb"]);
    let work = dir.path().join("work");
    let w = work.to_str().unwrap();
    run_case(&case, &work, &dir.path().join("out"));
    let conn = rusqlite::Connection::open(work.join("case.sqlite")).unwrap();
    conn.execute_batch("DROP TRIGGER events_no_delete; DELETE FROM events WHERE seq = 7;")
        .unwrap();
    drop(conn);
    let before = Store::open_read_only(&work).unwrap().events(0).unwrap();

    let status = masf(&["status", &case, "--work", w]);
    assert_eq!(status.status.code(), Some(1), "{}", text(&status));
    assert!(
        text(&status).contains("problem: events seq 7 is missing"),
        "{}",
        text(&status)
    );
    let repair = masf(&["repair", &case, "--work", w]);
    assert_eq!(repair.status.code(), Some(1), "{}", text(&repair));
    assert!(
        text(&repair).contains("restore the work folder from a backup"),
        "{}",
        text(&repair)
    );
    // Nothing appended but the repair's lease.
    let after = Store::open_read_only(&work).unwrap().events(0).unwrap();
    assert_eq!(&after[..before.len()], &before[..]);
    let added: Vec<&str> = after[before.len()..]
        .iter()
        .map(|e| e.kind.as_str())
        .collect();
    assert_eq!(added, ["RunLeased"]);
}
