//! Crash safety: `masf run` killed with SIGKILL at several moments, then run again, ends in the
//! same report as an uninterrupted run — same phenomena, hypotheses, same_as edges, actors and
//! timeline — with no duplicate phenomenon. Ids are compared through what they name: ids are
//! assigned in recording order, and sources are triaged in parallel, so `ph-`/`ent-`/`hyp-`/
//! `inv-` numbers may differ between any two runs (documented in the README).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{masf_ok, repo};

fn s(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// The report with every id replaced by what it names, every list sorted.
fn normalised(report: &Path) -> Value {
    let r: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    let entity: BTreeMap<String, String> = r["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                s(&e["id"]),
                format!("{}|{}", s(&e["source_ids"][0]), s(&e["context"])),
            )
        })
        .collect();
    let ents = regex::Regex::new(r"ent-\d{6,}").unwrap();
    let name_entities = |text: &str| {
        ents.replace_all(text, |c: &regex::Captures| entity[&c[0]].clone())
            .into_owned()
    };
    let mut phenomenon: BTreeMap<String, String> = BTreeMap::new();
    let mut phenomena: Vec<Value> = Vec::new();
    for p in r["phenomena"].as_array().unwrap() {
        let facts: Vec<Value> = p["verified_facts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| json!([f["type"], f["value"]]))
            .collect();
        let key = format!(
            "{}|{}|{}|{}|{}",
            s(&p["source_id"]),
            s(&p["agent"]),
            s(&p["category"]),
            name_entities(&s(&p["title"])),
            serde_json::to_string(&facts).unwrap()
        );
        phenomenon.insert(s(&p["id"]), key.clone());
        phenomena.push(json!([key, name_entities(&s(&p["interpretation"]))]));
    }
    let before = phenomena.len();
    phenomena.sort_by_key(|v| v.to_string());
    phenomena.dedup();
    assert_eq!(phenomena.len(), before, "a phenomenon was recorded twice");
    let mut hypotheses: Vec<Value> = r["hypotheses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let mut edges: Vec<Value> = h["edges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| json!([phenomenon[&s(&e["phenomenon_id"])], e["edge_type"]]))
                .collect();
            edges.sort_by_key(|v| v.to_string());
            // A coreference statement names its two entities in id order, which is recording
            // order: compare the pair as a set.
            let statement = if h["kind"] == "coreference" {
                let mut pair: Vec<String> = ents
                    .find_iter(&s(&h["statement"]))
                    .map(|m| entity[m.as_str()].clone())
                    .collect();
                pair.sort();
                format!("{pair:?} are the same actor")
            } else {
                name_entities(&s(&h["statement"]))
            };
            json!({
                "kind": h["kind"],
                "statement": statement,
                "status": h["status"],
                "confidence": format!("{:.9}", h["confidence"].as_f64().unwrap()),
                "distinct_sources": h["distinct_sources"],
                "edges": edges,
            })
        })
        .collect();
    hypotheses.sort_by_key(|v| v.to_string());
    let mut same_as: Vec<Value> = r["same_as"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let mut pair = [entity[&s(&l["a"])].clone(), entity[&s(&l["b"])].clone()];
            pair.sort();
            json!([pair, l["state"]])
        })
        .collect();
    same_as.sort_by_key(|v| v.to_string());
    let mut actors: Vec<Value> = r["actors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let mut members: Vec<String> = a["entity_ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| entity[&s(e)].clone())
                .collect();
            members.sort();
            json!(members)
        })
        .collect();
    actors.sort_by_key(|v| v.to_string());
    let mut timeline: Vec<Value> = r["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!([
                t["utc"],
                t["source_id"],
                t["raw"],
                t["encoding"],
                t["description"],
                phenomenon[&s(&t["phenomenon_id"])]
            ])
        })
        .collect();
    timeline.sort_by_key(|v| v.to_string());
    let mut not_read: Vec<Value> = r["not_read"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| json!([n["source_id"], n["what"], n["reason"]]))
        .collect();
    not_read.sort_by_key(|v| v.to_string());
    json!({
        "phenomena": phenomena,
        "hypotheses": hypotheses,
        "same_as": same_as,
        "actors": actors,
        "timeline": timeline,
        "not_read": not_read,
    })
}

fn run_to_end(case: &str, work: &Path, out: &Path) {
    masf_ok(&[
        "run",
        case,
        "--work",
        work.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
}

#[test]
fn a_run_killed_at_any_moment_then_run_again_gives_the_same_report() {
    let case = repo().join("case.yaml");
    let case = case.to_str().unwrap();
    let base = tempfile::tempdir().unwrap();
    run_to_end(case, &base.path().join("work"), &base.path().join("out"));
    let expected = normalised(&base.path().join("out/report.json"));
    assert!(!expected["phenomena"].as_array().unwrap().is_empty());

    for delay_ms in [150u64, 500, 1200] {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let out = dir.path().join("out");
        let mut child = Command::new(env!("CARGO_BIN_EXE_masf"))
            .args(["run", case, "--work", work.to_str().unwrap(), "--out"])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        run_to_end(case, &work, &out);
        let got = normalised(&out.join("report.json"));
        for part in [
            "phenomena",
            "hypotheses",
            "same_as",
            "actors",
            "timeline",
            "not_read",
        ] {
            assert_eq!(
                got[part], expected[part],
                "{part} differ after a kill at {delay_ms} ms"
            );
        }
    }
}
