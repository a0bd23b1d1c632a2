//! `masf run` writes the report: report.json validates against schemas/report.schema.json,
//! every verified fact is found in its invocation's published output file whose SHA-256 is the
//! recorded one, and evidence strings are rendered as text, never as markup.

use std::path::Path;
use std::process::Command;

use crate::support::{masf_ok, oracle, repo};

fn validate(report: &Path) {
    let schema = repo().join("schemas/report.schema.json");
    let check = Command::new("python3")
        .args([
            "-c",
            "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
        ])
        .arg(report)
        .arg(&schema)
        .output()
        .expect("python3 runs");
    assert!(
        check.status.success(),
        "report.json does not validate: {}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn the_demo_report_validates_and_every_fact_is_in_its_published_output() {
    let work = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let case = repo().join("case.yaml");
    masf_ok(&[
        "run",
        case.to_str().unwrap(),
        "--work",
        work.path().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let json_path = out.path().join("report.json");
    validate(&json_path);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(report["schema"], "masforensics.report/1");
    assert_eq!(report["sources"].as_array().unwrap().len(), 4);

    let invocations = report["invocations"].as_array().unwrap();
    let by_id: std::collections::BTreeMap<&str, &serde_json::Value> = invocations
        .iter()
        .map(|i| (i["id"].as_str().unwrap(), i))
        .collect();
    // Every published output has its recorded SHA-256 (sha256sum as the oracle, on a sample).
    for inv in invocations.iter().step_by(7) {
        let file = out.path().join(inv["output_path"].as_str().unwrap());
        assert_eq!(oracle("sha256sum", &file), inv["output_sha256"], "{file:?}");
    }
    let mut facts = 0;
    for p in report["phenomena"].as_array().unwrap() {
        for f in p["verified_facts"].as_array().unwrap() {
            let inv = by_id[f["invocation_id"].as_str().unwrap()];
            let bytes =
                std::fs::read(out.path().join(inv["output_path"].as_str().unwrap())).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            if f["match_method"] == "verbatim" {
                assert!(
                    text.contains(f["value"].as_str().unwrap()),
                    "{} fact {} not in {}",
                    p["id"],
                    f["value"],
                    inv["output_path"]
                );
            }
            facts += 1;
        }
    }
    assert!(facts > 100, "{facts} facts");
    // The partial-report banner is absent from a completed run; the HTML is self-contained.
    let html = std::fs::read_to_string(out.path().join("report.html")).unwrap();
    assert!(!html.contains("This report is partial"));
    for external in ["<script", "http://", "https://", "<link", "@import"] {
        assert!(!html.contains(external), "report.html contains {external}");
    }
    let md = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(md.starts_with("# Case demo-2025-individual"));
}

#[test]
fn evidence_strings_are_text_in_the_html_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("ev");
    std::fs::create_dir_all(&evidence).unwrap();
    let evil = "<img src=x onerror=alert(1)>.txt";
    std::fs::write(
        evidence.join(evil),
        "contact <b>me</b> at evil|pipe@example.com or +852 6123 4567\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("case.yaml"),
        "case:\n  id: xss\n  title: \"<script>alert(2)</script>\"\n  examiner: T\n  timezone: Asia/Hong_Kong\nsources:\n  - id: src-folder\n    label: \"<i>folder</i>\"\n    path: ev\n",
    )
    .unwrap();
    let case = dir.path().join("case.yaml");
    let out = dir.path().join("out");
    masf_ok(&[
        "run",
        case.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    validate(&out.join("report.json"));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;.txt"),
        "the file name is shown, escaped"
    );
    for raw in [
        "<img src=x",
        "<script>alert(2)",
        "<i>folder</i>",
        "<b>me</b>",
    ] {
        assert!(!html.contains(raw), "report.html renders {raw} as markup");
    }
    // Markdown: outside code spans (which CommonMark renders as text) the name is escaped.
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let outside_code: String = md
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect();
    let unescaped = outside_code
        .match_indices("<img src=x")
        .any(|(i, _)| !outside_code[..i].ends_with('\\'));
    assert!(!unescaped, "report.md renders the name as markup");
    assert!(md.contains("\\<img src=x onerror=alert(1)\\>.txt"), "{md}");
}
