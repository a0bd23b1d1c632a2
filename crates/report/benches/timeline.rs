//! Building and exporting the timeline of 100,000 phenomena in four sources and four
//! encodings (Apple ns, Unix ms, FAT local in Hong Kong, naive text in London; `support/generated.rs`).
//! `cargo bench -p masf-report --bench timeline`

use criterion::{Criterion, criterion_group, criterion_main};
use masf_report::timeline::build;
use masf_report::timeline::export::write_csv;

const N: usize = 100_000;

#[path = "support/generated.rs"]
mod generated;
use generated::sources;

fn graph() -> masf_graph::GraphState {
    generated::graph(N, 1)
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
