//! Run lifecycle from the command line: a tiny tool-call budget halts the run in
//! `halted_budget` with a partial report that says so, and `masf resume --grant` finishes it
//! with the same findings as an uninterrupted run; a corrupt source does not stop the others,
//! and the report names it.

use std::process::Command;

use serde_json::Value;

use crate::support::{masf, masf_ok, repo};

fn report(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap()
}

#[test]
fn a_budget_cap_halts_the_run_and_a_grant_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let case = repo().join("case.yaml");
    let case = case.to_str().unwrap();
    // An uninterrupted run, for comparison.
    let (base_work, base_out) = (dir.path().join("base-work"), dir.path().join("base-out"));
    masf_ok(&[
        "run",
        case,
        "--work",
        base_work.to_str().unwrap(),
        "--out",
        base_out.to_str().unwrap(),
    ]);
    let expected = report(&base_out)["phenomena"].as_array().unwrap().len();

    let config = dir.path().join("config.yaml");
    std::fs::write(&config, "budgets:\n  tool_calls: 12\n").unwrap();
    let (work, out) = (dir.path().join("work"), dir.path().join("out"));
    let args = [
        "--work",
        work.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ];
    let halted = masf(
        &[
            &["run", case][..],
            &args[..],
            &["--out", out.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(halted.status.code(), Some(3), "{halted:?}");
    let text = String::from_utf8_lossy(&halted.stdout);
    assert!(text.contains("run halted_budget"), "{text}");
    let partial = report(&out);
    assert_eq!(partial["generated"]["run_state"], "halted_budget");
    assert!(partial["phenomena"].as_array().unwrap().len() < expected);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("This report is partial: the run is halted_budget"));
    let status: Value = serde_json::from_str(&masf_ok(
        &[&["status", case][..], &args[..], &["--json"]].concat(),
    ))
    .unwrap();
    assert_eq!(status["run"]["state"], "halted_budget");
    // 70 % and 90 % of the cap were announced before it was reached.
    assert_eq!(status["run"]["warnings"].as_array().unwrap().len(), 2);

    // The examiner grants more; the run resumes and completes.
    let resumed = masf(
        &[
            &["resume", case][..],
            &args[..],
            &["--grant", "tool_calls=100000", "--reason", "test"],
        ]
        .concat(),
    );
    assert_eq!(resumed.status.code(), Some(0), "{resumed:?}");
    let status: Value = serde_json::from_str(&masf_ok(
        &[&["status", case][..], &args[..], &["--json"]].concat(),
    ))
    .unwrap();
    assert_eq!(status["run"]["state"], "completed");
    assert_eq!(status["run"]["grants"][0]["amount"], 100000);
    // The report beside the case was rewritten by the resumed run (default out: masf-report/
    // beside case.yaml is not used here: compare through a fresh report).
    let final_out = dir.path().join("final");
    masf_ok(
        &[
            &["report", case][..],
            &args[..],
            &["--out", final_out.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(
        report(&final_out)["phenomena"].as_array().unwrap().len(),
        expected
    );
    assert_eq!(report(&final_out)["generated"]["run_state"], "completed");
}

#[test]
fn a_corrupt_source_is_named_and_the_others_are_examined() {
    let dir = tempfile::tempdir().unwrap();
    let ev = repo().join("tests/fixtures/demo/evidence");
    // The iPhone zip cut in half (its central directory gone), next to the intact screenshots.
    let zip = std::fs::read(ev.join("iphone_ffs.zip")).unwrap();
    std::fs::write(dir.path().join("broken.zip"), &zip[..zip.len() / 2]).unwrap();
    let copy = Command::new("cp")
        .arg("-r")
        .arg(ev.join("screenshots"))
        .arg(dir.path().join("shots"))
        .status()
        .unwrap();
    assert!(copy.success());
    std::fs::write(
        dir.path().join("case.yaml"),
        "case:\n  id: corrupt\n  title: One corrupt source\n  examiner: T\n  timezone: Asia/Hong_Kong\n\
         sources:\n  - id: src-broken\n    label: truncated zip\n    path: broken.zip\n\
         \x20 - id: src-shots\n    label: screenshots\n    path: shots\n",
    )
    .unwrap();
    let case = dir.path().join("case.yaml");
    let out = dir.path().join("out");
    let run = masf(&[
        "run",
        case.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "the run completes for the others: {run:?}"
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("not examined: src-broken") && stderr.contains("truncated"),
        "{stderr}"
    );
    let r = report(&out);
    let not_read: Vec<&Value> = r["not_read"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["source_id"] == "src-broken")
        .collect();
    assert!(
        !not_read.is_empty(),
        "the report names the corrupt source: {:#}",
        r["not_read"]
    );
    assert!(
        r["phenomena"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["source_id"] == "src-shots"),
        "the screenshots were still examined"
    );
}

#[test]
fn the_event_stream_delivers_every_record_of_the_run_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let case = repo().join("case.yaml");
    let (work, out) = (dir.path().join("work"), dir.path().join("out"));
    let run = masf(&[
        "run",
        case.to_str().unwrap(),
        "--work",
        work.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--events",
        "jsonl",
    ]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let items: Vec<Value> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    let seqs = |stream: &str| -> Vec<i64> {
        items
            .iter()
            .filter(|i| i["stream"] == stream)
            .map(|i| i["seq"].as_i64().unwrap())
            .collect()
    };
    // Every event and every invocation of the log, once each, in order.
    let events = masf_ok(&[
        "events",
        case.to_str().unwrap(),
        "--work",
        work.to_str().unwrap(),
        "--jsonl",
    ]);
    let logged: Vec<i64> = events
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["seq"]
                .as_i64()
                .unwrap()
        })
        .collect();
    assert_eq!(seqs("event"), logged);
    let report = report(&out);
    assert_eq!(
        seqs("invocation").len(),
        report["invocations"].as_array().unwrap().len()
    );
    let kinds: Vec<&str> = items
        .iter()
        .filter(|i| i["stream"] == "event")
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    // Who ran comes first: the run's lease, then intake.
    assert_eq!(kinds.first(), Some(&"RunLeased"));
    assert_eq!(kinds.get(1), Some(&"SourceAdded"));
    assert_eq!(kinds.last(), Some(&"RunState"));
    assert!(kinds.contains(&"PhenomenonRecorded") && kinds.contains(&"HypothesisAdded"));
    assert!(String::from_utf8_lossy(&run.stderr).contains("run completed"));
}
