//! Android benchmark driver (run by `bench/android.sh`): triage of an Android data extraction
//! zip through the real runtime (intake scan, plugin detection, `android-triage` on a case
//! store) with the process's peak memory, then the SMS query of the Android plugin
//! (`SELECT * FROM sms ORDER BY _id`, in pages of 100,000 rows) through the `sqlite_query` tool
//! against the `sqlite3` CLI running the same statements on the extracted file.
//!
//!   android_bench ZIP EXTRACTED_MMSSMS_DB RUNS FILES

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

use masf_agents::{Session, SourceInfo, triage_all};
use masf_graph::Scoring;
use masf_tools::sqlite::SqliteQuery;
use masf_tools::{Invoker, Limits, SourceCtx, Tool};

const MMSSMS: &str = "/data/data/com.android.providers.telephony/databases/mmssms.db";
const PAGE: u64 = 100_000;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn page_sql(page: u64) -> String {
    format!(
        "SELECT * FROM sms WHERE _id > {} AND _id <= {} ORDER BY _id",
        page * PAGE,
        (page + 1) * PAGE
    )
}

/// The process's peak resident memory (`VmHWM`), MiB.
fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (zip, db, runs) = (&args[1], &args[2], args[3].parse::<usize>().expect("runs"));
    let files: usize = args[4].parse().expect("files");
    let mut triage_secs = Vec::new();
    for _ in 0..runs {
        let dir = tempfile::tempdir().expect("tempdir");
        let plugins = masf_plugins::all();
        let t = Instant::now();
        let session = Session::open(
            dir.path(),
            Scoring::default(),
            Invoker::new(Arc::new(plugins.catalog()), Limits::default()),
            vec![SourceInfo {
                id: "src-bench".into(),
                label: "bench".into(),
                path: zip.into(),
                owner: None,
                timezone: "Asia/Hong_Kong".into(),
                region: None,
                password_env: None,
            }],
            Arc::new(jiff::Timestamp::now),
        )
        .expect("session");
        let reports = triage_all(&session, &plugins, 1).expect("triage");
        triage_secs.push(t.elapsed().as_secs_f64());
        let r = &reports[0];
        assert_eq!(r.plugin.as_deref(), Some("android"), "{r:?}");
        assert_eq!(r.tally.rejections, 0, "{r:?}");
        eprintln!("triage tally: {:?}", r.tally);
    }
    let t = median(triage_secs);
    println!(
        "triage: {t:.3} s for {files} files ({:.0} files/s), peak memory {:.0} MiB",
        files as f64 / t,
        peak_mib()
    );

    let pages = 2u64;
    let query = |ctx: &SourceCtx| {
        let mut n = 0;
        for p in 0..pages {
            let out = SqliteQuery
                .run(
                    ctx,
                    &serde_json::json!({"path": MMSSMS, "sql": page_sql(p), "limit": PAGE}),
                )
                .expect("query");
            n += out.text.lines().count() - 1;
        }
        n
    };
    let mut ours = Vec::new();
    let mut cli = Vec::new();
    let mut rows = 0;
    for _ in 0..runs {
        let ctx = SourceCtx::open("src-bench", std::path::Path::new(zip)).expect("open zip");
        rows = query(&ctx); // the working copy out of the zip, once per source
        let t = Instant::now();
        assert_eq!(query(&ctx), rows);
        ours.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for p in 0..pages {
            let st = Command::new("sqlite3")
                .args(["-readonly", "-separator", "\t", "-header"])
                .arg(db)
                .arg(page_sql(p))
                .stdout(Stdio::null())
                .status()
                .expect("sqlite3");
            assert!(st.success());
        }
        cli.push(t.elapsed().as_secs_f64());
    }
    let (o, c) = (median(ours), median(cli));
    println!(
        "mmssms.db SMS query ({rows} rows), working copy reused: sqlite_query {o:.3} s, sqlite3 CLI {c:.3} s, ratio {:.2}",
        o / c
    );
}
