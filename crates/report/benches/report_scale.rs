//! Issue 20's size target, whole: the report of a generated case with 100,000 phenomena and
//! 1,000,000 timeline entries (ten times per phenomenon, four sources, four encodings) is built
//! and written in every format (report.json, report.html with its pages, report.md,
//! report.case.jsonld). Prints the seconds of each step, the files' sizes and the process's
//! peak RSS (VmHWM), and PASS/FAIL against < 60 s and < 2 GiB.
//!
//! `cargo bench -p masf-report --bench report_scale` (`-- N` for another phenomenon count)

use std::collections::BTreeMap;
use std::time::Instant;

use masf_report::model::CaseInfo;
use masf_report::timeline::build;
use serde_json::json;

/// Times per phenomenon.
const TIMES: usize = 10;

#[path = "support/generated.rs"]
mod generated;
use generated::{graph, sources};

/// The process's peak resident set (VmHWM), in MiB.
fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn size_mib(path: &std::path::Path) -> f64 {
    std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / (1 << 20) as f64)
}

fn main() {
    // `cargo bench` passes `--bench`; a number among the arguments sets the phenomena.
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(100_000);
    let t0 = Instant::now();
    let state = graph(n, TIMES);
    let generated = t0.elapsed().as_secs_f64();
    let rss_graph = peak_rss_mib();

    let t = Instant::now();
    let timeline = build(&state, &sources(), "Asia/Hong_Kong");
    let timeline_s = t.elapsed().as_secs_f64();
    let rss_timeline = peak_rss_mib();
    assert_eq!(timeline.entries.len(), n * TIMES);

    let t = Instant::now();
    let report = masf_report::build(masf_report::ReportInput {
        case: CaseInfo {
            id: "bench".into(),
            title: "Report at scale (generated)".into(),
            timezone: "Asia/Hong_Kong".into(),
            examiner: "Bench".into(),
            persons: Vec::new(),
        },
        sources: Vec::new(),
        not_read: Vec::new(),
        invocations: Vec::new(),
        state: &state,
        timeline: &timeline,
        generated: json!({"tool": "bench"}),
        llm_provenance: BTreeMap::new(),
        tagged: Vec::new(),
        tagged_only: false,
    });
    let model_s = t.elapsed().as_secs_f64();
    let rss_model = peak_rss_mib();

    let dir = std::env::temp_dir().join(format!("masf-report-scale-{}", std::process::id()));
    let t = Instant::now();
    let written = masf_report::write_report(&report, &dir).expect("report written");
    let write_s = t.elapsed().as_secs_f64();
    let total = timeline_s + model_s + write_s;
    let rss = peak_rss_mib();
    println!(
        "report at scale: {n} phenomena, {} timeline entries (generated in {generated:.1} s, not counted)",
        timeline.entries.len()
    );
    println!(
        "  timeline {timeline_s:.1} s, model {model_s:.1} s, write {write_s:.1} s: {total:.1} s; peak RSS {rss:.0} MiB"
    );
    println!(
        "  peak RSS after the graph {rss_graph:.0} MiB, the timeline {rss_timeline:.0} MiB, the model {rss_model:.0} MiB, writing {rss:.0} MiB"
    );
    println!(
        "  report.json {:.0} MiB, report.html {:.1} MiB + {} pages, report.md {:.0} MiB, report.case.jsonld {:.0} MiB",
        size_mib(&written.json),
        size_mib(&written.html),
        written.html_pages,
        size_mib(&written.markdown),
        size_mib(&written.case_jsonld),
    );
    println!(
        "  target < 60 s: {}; < 2 GiB: {}",
        if total < 60.0 { "PASS" } else { "FAIL" },
        if rss < 2048.0 { "PASS" } else { "FAIL" }
    );
    let _ = std::fs::remove_dir_all(&dir);
}
