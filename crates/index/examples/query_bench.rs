//! Times `masf_index::search` (open the index, run the query, locate each hit's match) for
//! every query of a file, one query a line, each `ROUNDS` times; prints p50, p95 and max in ms.
//!
//!   query_bench INDEX_DIR QUERIES_FILE [ROUNDS]

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, file, rest @ ..] = args.as_slice() else {
        eprintln!("usage: query_bench INDEX_DIR QUERIES_FILE [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = rest.first().and_then(|r| r.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(file).expect("queries file");
    let queries: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut times = Vec::new();
    let mut hits = 0usize;
    for _ in 0..rounds {
        for q in &queries {
            let query = masf_index::Query {
                text: (*q).to_string(),
                limit: 100,
                ..Default::default()
            };
            let started = Instant::now();
            let found = masf_index::search(std::path::Path::new(dir), &query, None)
                .unwrap_or_else(|e| panic!("{q}: {e}"));
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            hits += found.len();
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |p: f64| times[((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1];
    println!(
        "queries {} hits {hits} p50_ms {:.2} p95_ms {:.2} max_ms {:.2}",
        times.len(),
        at(0.50),
        at(0.95),
        at(1.0)
    );
}
