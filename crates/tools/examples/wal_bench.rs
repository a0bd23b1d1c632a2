//! Benchmark of `sqlite_wal_history` (bench/wal.sh): the tool on a database folder's `<db>` with
//! its `-wal`, `runs` times, median seconds and the rows it recovered; the script times the
//! sqlite3 CLI reading the same table beside it.
//!
//!   wal_bench <folder> <db file name> <table> <runs>

use std::time::Instant;

use masf_tools::{Catalog, SourceCtx};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, folder, db, table, runs] = &args[..] else {
        eprintln!("usage: wal_bench <folder> <db file name> <table> <runs>");
        std::process::exit(2);
    };
    let runs: usize = runs.parse().expect("runs");
    let catalog = Catalog::standard();
    let tool = catalog.get("sqlite_wal_history").expect("tool");
    let mut times = Vec::new();
    let mut rows = 0;
    for _ in 0..runs {
        // a fresh source each run: the working copy is made again, as on a new case
        let src = SourceCtx::open("bench", std::path::Path::new(folder)).expect("source");
        let start = Instant::now();
        let out = tool
            .run(
                &src,
                &json!({"path": format!("/{db}"), "table": table, "limit": 100000}),
            )
            .expect("run");
        times.push(start.elapsed().as_secs_f64());
        rows = out
            .structured
            .as_ref()
            .map_or(0, |s| s["rows"].as_u64().unwrap_or(0));
    }
    times.sort_by(f64::total_cmp);
    println!("{:.3} {rows}", times[times.len() / 2]);
}
