//! Issue 20's size target, whole: the report of a generated case with 100,000 phenomena and
//! 1,000,000 timeline entries (ten times per phenomenon, four sources, four encodings) is built
//! and written in every format (report.json, report.html with its pages, report.md,
//! report.case.jsonld). Prints the seconds of each step, the files' sizes and the process's
//! peak RSS (VmHWM), and PASS/FAIL against < 60 s and < 2 GiB.
//!
//! `cargo bench -p masf-report --bench report_scale` (`-- N` for another phenomenon count)

use std::collections::BTreeMap;
use std::time::Instant;

use masf_graph::{GraphEvent, GraphState, Phenomenon, Region, Scoring};
use masf_report::model::CaseInfo;
use masf_report::timeline::{SourceMeta, build};
use serde_json::json;

/// Times per phenomenon.
const TIMES: usize = 10;

fn graph(n: usize) -> GraphState {
    let mut state = GraphState::new(Scoring::default());
    let fact = |t: &str, v: &str| {
        json!({"fact_type": t, "value": v, "invocation_id": format!("inv-{:06}", 1 + v.len() % 7),
               "match": {"method": "verbatim"}})
    };
    for i in 0..n {
        let (source, enc) = match i % 4 {
            0 => ("src-iphone", "apple_nanos"),
            1 => ("src-android", "unix_millis"),
            2 => ("src-usb", "fat_local"),
            _ => ("src-laptop", "local_text"),
        };
        let mut facts = vec![
            fact(
                "text",
                &format!("message {i}: the USDT went to the usual address"),
            ),
            fact("phone", &format!("+8526123{:04}", i % 10_000)),
        ];
        let mut times = Vec::new();
        for k in 0..TIMES {
            let j = (i * TIMES + k) as i64;
            let raw = match enc {
                "apple_nanos" => format!("{}", 761_578_800_000_000_000_i64 + j * 1_000_000_007),
                "unix_millis" => format!("{}", 1_739_362_530_000_i64 + j * 997),
                "fat_local" => format!(
                    "2025-02-{:02}T{:02}:{:02}:{:02}.00 (local)",
                    1 + j % 28,
                    j % 24,
                    j % 60,
                    (j % 30) * 2
                ),
                _ => format!("2025-10-{:02} {:02}:{:02}:00", 1 + j % 31, j % 24, j % 60),
            };
            times.push(
                json!({"fact": facts.len(), "encoding": enc, "description": format!("Event {k}")}),
            );
            facts.push(fact("timestamp", &raw));
        }
        let ph: Phenomenon = serde_json::from_value(json!({
            "id": format!("ph-{:06}", i + 1),
            "source_id": source,
            "agent": "bench-triage",
            "task_id": format!("triage/{source}"),
            "category": "messages",
            "title": format!("Message {i}"),
            "verified_facts": facts,
            "interpretation": "",
            "warnings": [],
            "times": times,
        }))
        .expect("phenomenon");
        state.apply(&GraphEvent::PhenomenonRecorded {
            digest: format!("d{i}"),
            phenomenon: ph,
        });
    }
    state
}

fn sources() -> Vec<SourceMeta> {
    [
        ("src-iphone", "Asia/Hong_Kong"),
        ("src-android", "Asia/Hong_Kong"),
        ("src-usb", "Asia/Hong_Kong"),
        ("src-laptop", "Europe/London"),
    ]
    .into_iter()
    .map(|(id, zone)| SourceMeta {
        id: id.into(),
        label: id.into(),
        timezone: zone.into(),
        phone_region: Some(Region::parse("HK").expect("HK is a region")),
    })
    .collect()
}

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
    let state = graph(n);
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
