//! iOS benchmark driver (run by `bench/ios.sh`): triage of an iOS-like zip through the real
//! runtime (intake scan, plugin detection, `ios-triage` on a case store), then the `sms.db`
//! message query through the `sqlite_query` tool against the `sqlite3` CLI running the same
//! statement on the extracted file: with the source's working copy reused, and cold (the copy
//! out of the zip included) against `unzip -p` + the CLI.
//!
//!   ios_bench ZIP EXTRACTED_SMS_DB RUNS FILES

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

use masf_agents::{Session, SourceInfo, triage_all};
use masf_graph::Scoring;
use masf_plugins::ios::sms::message_sql;
use masf_tools::sqlite::SqliteQuery;
use masf_tools::{Invoker, Limits, SourceCtx, Tool};

const SMS: &str = "/private/var/mobile/Library/SMS/sms.db";
const PAGE: u64 = 100_000;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The message query restricted to one page of ROWIDs (the tool returns at most 100,000 rows).
fn page_sql(page: u64) -> String {
    message_sql().replace(
        "ORDER BY m.ROWID",
        &format!(
            "WHERE m.ROWID > {} AND m.ROWID <= {} ORDER BY m.ROWID",
            page * PAGE,
            (page + 1) * PAGE
        ),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (zip, db, runs) = (&args[1], &args[2], args[3].parse::<usize>().expect("runs"));
    let files: usize = args[4].parse().expect("files");
    // 1. Triage through the runtime.
    let mut triage_secs = Vec::new();
    let mut tool_secs = Vec::new();
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
        assert_eq!(r.plugin.as_deref(), Some("ios"), "{r:?}");
        assert_eq!(r.tally.rejections, 0, "{r:?}");
        eprintln!("triage tally: {:?}", r.tally);
        let store = masf_store::Store::open(dir.path()).expect("store");
        let calls_ms: u64 = store
            .invocations_for("ios-triage", "triage/src-bench")
            .expect("invocations")
            .iter()
            .map(|i| i.duration_ms)
            .sum();
        tool_secs.push(calls_ms as f64 / 1000.0);
    }
    let t = median(triage_secs);
    println!(
        "triage: {t:.3} s for {files} files ({:.0} files/s)",
        files as f64 / t
    );
    println!(
        "  of which tool calls {:.3} s (as logged); the rest is opening the source and recording through the gateway",
        median(tool_secs)
    );

    // 2. The message query: our tool path vs the sqlite3 CLI. Each run opens the zip as a new
    // source (not timed): its first call copies sms.db out of the zip ("cold"), later calls on
    // the same source reuse that working copy ("warm", as in a triage whose schema call came
    // first).
    let pages = 2u64;
    let query = |ctx: &SourceCtx| {
        let mut n = 0;
        for p in 0..pages {
            let out = SqliteQuery
                .run(
                    ctx,
                    &serde_json::json!({"path": SMS, "sql": page_sql(p), "limit": PAGE}),
                )
                .expect("query");
            n += out.text.lines().count() - 1;
        }
        n
    };
    let mut cold = Vec::new();
    let mut ours = Vec::new();
    let mut cli = Vec::new();
    let mut copy_zip = Vec::new();
    let mut rows = 0;
    for _ in 0..runs {
        let ctx = SourceCtx::open("src-bench", std::path::Path::new(zip)).expect("open zip");
        let t = Instant::now();
        rows = query(&ctx);
        cold.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        assert_eq!(query(&ctx), rows);
        ours.push(t.elapsed().as_secs_f64());
        assert_eq!(ctx.sqlite_copies().copies_made(), 1);
        // The working copy alone: a one-row query on another fresh source.
        let fresh = SourceCtx::open("src-bench", std::path::Path::new(zip)).expect("open zip");
        let t = Instant::now();
        SqliteQuery
            .run(
                &fresh,
                &serde_json::json!({"path": SMS, "sql": "SELECT 1", "limit": 1}),
            )
            .expect("query");
        copy_zip.push(t.elapsed().as_secs_f64());
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
    // The same queries on the extracted folder, cold (a plain file copy instead of inflating
    // the zip member).
    let tree = std::path::Path::new(db)
        .ancestors()
        .nth(6)
        .expect("tree root")
        .to_path_buf();
    let mut on_folder = Vec::new();
    for _ in 0..runs {
        let folder = SourceCtx::open("src-tree", &tree).expect("open tree");
        let t = Instant::now();
        query(&folder);
        on_folder.push(t.elapsed().as_secs_f64());
    }
    println!(
        "  working copy out of the zip {:.3} s (once per source); the same two queries on the extracted folder, cold: {:.3} s (ratio to the CLI on the same file {:.2})",
        median(copy_zip),
        median(on_folder.clone()),
        median(on_folder) / median(cli.clone())
    );
    // The query and the tool's TSV rendering alone on the extracted file (no working copy).
    let render = || {
        let conn = rusqlite::Connection::open_with_flags(
            db,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .expect("open");
        let t = Instant::now();
        for p in 0..pages {
            let mut stmt = conn.prepare(&page_sql(p)).expect("prepare");
            let n = stmt.column_count();
            let mut rows = stmt.query([]).expect("query");
            let mut text = String::new();
            while let Some(row) = rows.next().expect("row") {
                for i in 0..n {
                    if i > 0 {
                        text.push('\t');
                    }
                    masf_tools::sqlite::push_cell(&mut text, row.get_ref(i).expect("cell"));
                }
                text.push('\n');
            }
            std::hint::black_box(&text);
        }
        t.elapsed().as_secs_f64()
    };
    let text_only = median((0..runs).map(|_| render()).collect());
    println!(
        "  query + TSV rendering alone on the extracted file: {text_only:.3} s (ratio to the CLI {:.2})",
        text_only / median(cli.clone())
    );
    // The CLI from the zip: extract sms.db once (unzip -p), then the same two queries.
    let mut cli_zip = Vec::new();
    let scratch = tempfile::tempdir().expect("tempdir");
    let extracted = scratch.path().join("sms.db");
    for _ in 0..runs {
        let t = Instant::now();
        let out = std::fs::File::create(&extracted).expect("create");
        let st = Command::new("unzip")
            .args(["-p", zip, SMS.trim_start_matches('/')])
            .stdout(out)
            .status()
            .expect("unzip");
        assert!(st.success());
        for p in 0..pages {
            let st = Command::new("sqlite3")
                .args(["-readonly", "-separator", "\t", "-header"])
                .arg(&extracted)
                .arg(page_sql(p))
                .stdout(Stdio::null())
                .status()
                .expect("sqlite3");
            assert!(st.success());
        }
        cli_zip.push(t.elapsed().as_secs_f64());
    }
    let (o, c, k, z) = (median(ours), median(cli), median(cold), median(cli_zip));
    println!(
        "  cold, from the zip on both sides: sqlite_query on a new source {k:.3} s, unzip -p + sqlite3 CLI {z:.3} s, ratio {:.2}",
        k / z
    );
    println!(
        "sms.db message query ({rows} rows), working copy reused: sqlite_query {o:.3} s, sqlite3 CLI {c:.3} s, ratio {:.2}",
        o / c
    );
}
