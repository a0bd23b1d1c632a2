//! The generated case the report benchmarks share (`timeline`, `report_scale`).

use masf_graph::{GraphEvent, GraphState, Phenomenon, Region, Scoring};
use masf_report::timeline::SourceMeta;
use serde_json::json;

/// `n` generated phenomena in four sources and four encodings (Apple ns, Unix ms, FAT local
/// in Hong Kong, naive text in London), each with a message text, a phone and `times` times.
pub fn graph(n: usize, times_per: usize) -> GraphState {
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
        for k in 0..times_per {
            let j = (i * times_per + k) as i64;
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

/// The four sources with their zones.
pub fn sources() -> Vec<SourceMeta> {
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
