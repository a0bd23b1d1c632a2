//! Building and exporting the timeline of 100,000 phenomena in four sources and four
//! encodings (Apple ns, Unix ms, FAT local in Hong Kong, naive text in London).
//! `cargo bench -p masf-report --bench timeline`

use criterion::{Criterion, criterion_group, criterion_main};
use masf_graph::{GraphEvent, GraphState, Phenomenon, Region, Scoring};
use masf_report::timeline::export::write_csv;
use masf_report::timeline::{SourceMeta, build};
use serde_json::json;

const N: usize = 100_000;

fn graph() -> GraphState {
    let mut state = GraphState::new(Scoring::default());
    for i in 0..N {
        let (source, raw, enc) = match i % 4 {
            0 => (
                "src-iphone",
                format!(
                    "{}",
                    761_578_800_000_000_000_i64 + (i as i64) * 1_000_000_007
                ),
                "apple_nanos",
            ),
            1 => (
                "src-android",
                format!("{}", 1_739_362_530_000_i64 + (i as i64) * 997),
                "unix_millis",
            ),
            2 => (
                "src-usb",
                format!(
                    "2025-02-{:02}T{:02}:{:02}:{:02}.00 (local)",
                    1 + i % 28,
                    i % 24,
                    i % 60,
                    (i % 30) * 2
                ),
                "fat_local",
            ),
            _ => (
                "src-laptop",
                format!("2025-10-{:02} {:02}:{:02}:00", 1 + i % 31, i % 24, i % 60),
                "local_text",
            ),
        };
        let fact = |t: &str, v: &str| {
            json!({"fact_type": t, "value": v, "invocation_id": "inv-000001",
                   "match": {"method": "verbatim"}})
        };
        let ph: Phenomenon = serde_json::from_value(json!({
            "id": format!("ph-{:06}", i + 1),
            "source_id": source,
            "agent": "bench-triage",
            "task_id": format!("triage/{source}"),
            "category": "messages",
            "title": format!("Message {i}"),
            "verified_facts": [fact("timestamp", &raw), fact("phone", &format!("6123{:04}", i % 10_000))],
            "interpretation": "",
            "warnings": [],
            "times": [{"fact": 0, "encoding": enc, "description": "Message received"}],
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

fn bench(c: &mut Criterion) {
    let state = graph();
    let sources = sources();
    let mut g = c.benchmark_group("timeline_100k");
    g.sample_size(10);
    g.bench_function("build", |b| {
        b.iter(|| build(&state, &sources, "Asia/Hong_Kong"))
    });
    let t = build(&state, &sources, "Asia/Hong_Kong");
    assert_eq!(t.entries.len(), N);
    g.bench_function("csv", |b| {
        b.iter(|| {
            let mut sink = std::io::sink();
            write_csv(&mut sink, &t).expect("csv")
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
