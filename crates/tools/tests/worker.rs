//! Tools in worker processes (issue 24, part 2): a tool that aborts, overflows its stack,
//! exhausts the worker's memory limit, panics or never ends is one recorded call — `failed`
//! with the worker's exit and last words, or `timed_out` — and the calls after it, on the same
//! source, are answered by a new worker; the caller's process never sees the crash.
//!
//! This test has its own `main` (harness = false): run with the argument `serve`, the binary
//! is the worker — the real [`masf_tools::worker::serve`] over the standard catalog plus the
//! hostile tools below — and otherwise it is the caller that starts itself as its workers.
//! Tools of the same catalog run the same code in both roles.

use std::io::BufReader;
use std::sync::Arc;
use std::time::Duration;

use masf_store::{InvocationStatus, Store};
use masf_tools::worker::WorkerCommand;
use masf_tools::{
    Applicability, Call, Catalog, Invoked, Invoker, Limits, SourceCtx, Tool, ToolError, ToolOutput,
};
use serde_json::{Value, json};

/// A tool that misbehaves in one of the ways a parser of hostile evidence can.
struct Hostile(&'static str);

fn deeper(n: u64) -> u64 {
    // A frame that cannot be optimised away, without end (no u64 is ever that deep).
    if n == u64::MAX {
        return 0;
    }
    let frame = std::hint::black_box([n; 64]);
    deeper(frame[3] + 1) + frame[7]
}

impl Tool for Hostile {
    fn name(&self) -> &str {
        self.0
    }
    fn description(&self) -> &str {
        "misbehaves (test only)"
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn applicability(&self) -> Applicability {
        Applicability::ANY
    }
    fn run(&self, _: &SourceCtx, _: &Value) -> Result<ToolOutput, ToolError> {
        match self.0 {
            "test_abort" => std::process::abort(),
            "test_overflow" => Ok(ToolOutput::text(deeper(0).to_string())),
            "test_hog" => {
                // Memory touched page by page, without end: only a limit stops it.
                let mut held: Vec<Vec<u8>> = Vec::new();
                loop {
                    held.push(vec![1u8; 1 << 20]);
                    std::hint::black_box(&held);
                }
            }
            "test_panic" => panic!("a corrupt header at offset 0x1f"),
            "test_forever" => loop {
                // Never checks its deadline, never ends.
                std::thread::sleep(Duration::from_secs(1));
            },
            "test_big" => Ok(ToolOutput::text("x".repeat(4096))),
            _ => Err(ToolError::Other("no such hostile tool".to_string())),
        }
    }
}

const HOSTILE: [&str; 6] = [
    "test_abort",
    "test_overflow",
    "test_hog",
    "test_panic",
    "test_forever",
    "test_big",
];

fn catalog() -> Catalog {
    let mut catalog = Catalog::standard();
    for name in HOSTILE {
        catalog.register(Arc::new(Hostile(name)));
    }
    catalog
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("serve") {
        let code = masf_tools::worker::serve(
            &catalog(),
            BufReader::new(std::io::stdin().lock()),
            std::io::stdout().lock(),
        );
        std::process::exit(code);
    }
    // As in the CLI (`masf … | head` ends quietly): writing to a closed pipe would end this
    // process, so the scenario shows that the caller never writes to a dead worker's pipe.
    // SAFETY: before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // The test harness's protocol, as far as a one-scenario binary needs it: `--list` (what
    // cargo-nextest asks first) names the scenario, `--ignored` lists none (it is not ignored),
    // and a name filter that is not the scenario's runs nothing. Other flags are the harness's
    // own (`--nocapture`, `--exact`, …) and change nothing here.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    if flag("--list") {
        if !flag("--ignored") {
            println!("{SCENARIO}: test");
        }
        return;
    }
    // The harness's flags that take a value: the value is no filter.
    const VALUED: [&str; 6] = [
        "--format",
        "--test-threads",
        "--skip",
        "--color",
        "--logfile",
        "--shuffle-seed",
    ];
    let filters: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            !a.starts_with('-') && (*i == 0 || !VALUED.contains(&args[i - 1].as_str()))
        })
        .map(|(_, a)| a)
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| SCENARIO.contains(f.as_str())) {
        return;
    }
    hostile_tools_cost_their_call_only();
    println!("test {SCENARIO} ... ok");
}

/// The one scenario's name, as the test harness would give it.
const SCENARIO: &str = "hostile_tools_cost_their_call_only";

fn evidence(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/demo/evidence")
        .join(name)
}

fn call(inv: &Invoker, store: &mut Store, src: &Arc<SourceCtx>, tool: &str, at: i64) -> Invoked {
    call_with(inv, store, src, tool, json!({}), at)
}

fn call_with(
    inv: &Invoker,
    store: &mut Store,
    src: &Arc<SourceCtx>,
    tool: &str,
    args: Value,
    at: i64,
) -> Invoked {
    inv.invoke(
        store,
        src,
        Call {
            tool,
            args: &args,
            agent: "a",
            task_id: "t",
            ts: jiff::Timestamp::from_second(1_740_000_000 + at).unwrap(),
        },
    )
    .unwrap()
}

fn hostile_tools_cost_their_call_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("work")).unwrap();
    let me = std::env::current_exe().unwrap();
    let worker = |max_memory_mb: u64| WorkerCommand {
        program: me.clone(),
        args: vec!["serve".into()],
        max_memory_bytes: max_memory_mb << 20,
    };
    // Limits far beyond what any real call here needs, so that a loaded machine cannot reach
    // them; only `test_forever`, which never ends, meets its limit.
    let patient = Limits {
        timeout: Duration::from_secs(600),
        max_output_bytes: 1024,
    };
    let inv = Invoker::new(Arc::new(catalog()), patient).with_workers(worker(1024));
    let usb = Arc::new(SourceCtx::open("src-usb", &evidence("usb.E01")).unwrap());

    // A real tool on a real E01 (ewfacquire's), answered by a worker as by a thread.
    let threads = Invoker::new(Arc::new(catalog()), patient);
    let ls = json!({"path": "/"});
    let by_worker = call_with(&inv, &mut store, &usb, "list_dir", ls.clone(), 1);
    assert_eq!(by_worker.record.status, InvocationStatus::Ok);
    let by_thread = threads.invoke(
        &mut store,
        &usb,
        Call {
            tool: "list_dir",
            args: &ls,
            agent: "b",
            task_id: "t",
            ts: jiff::Timestamp::from_second(1_740_000_002).unwrap(),
        },
    );
    let by_thread = by_thread.unwrap();
    assert_eq!(by_thread.record.status, InvocationStatus::Cached);
    assert_eq!(
        by_thread.output.text, by_worker.output.text,
        "the cache served the worker's answer"
    );
    let fresh = threads
        .clone()
        .with_cache(false)
        .invoke(
            &mut store,
            &usb,
            Call {
                tool: "list_dir",
                args: &ls,
                agent: "b",
                task_id: "t",
                ts: jiff::Timestamp::from_second(1_740_000_003).unwrap(),
            },
        )
        .unwrap();
    assert_eq!(fresh.output.text, by_worker.output.text);

    let expect: [(&str, InvocationStatus, &[&str]); 4] = [
        (
            "test_abort",
            InvocationStatus::Failed,
            &["the tool test_abort crashed", "signal 6 (SIGABRT)"],
        ),
        (
            "test_overflow",
            InvocationStatus::Failed,
            &["the tool test_overflow crashed", "overflowed its stack"],
        ),
        (
            "test_hog",
            InvocationStatus::Failed,
            &[
                "the tool test_hog crashed",
                "memory limit is 1024 MiB",
                "memory allocation of",
            ],
        ),
        (
            "test_panic",
            InvocationStatus::Failed,
            &["the tool test_panic panicked: a corrupt header at offset 0x1f"],
        ),
    ];
    for (i, (tool, status, says)) in expect.into_iter().enumerate() {
        let at = 10 + 2 * i as i64;
        let bad = call(&inv, &mut store, &usb, tool, at);
        let reason = bad.record.reason.clone().unwrap_or_default();
        assert_eq!(bad.record.status, status, "{tool}: {reason}");
        for said in says {
            assert!(reason.contains(said), "{tool}: {reason:?} lacks {said:?}");
        }
        assert!(!reason.contains('\n'), "{reason:?}");
        // The next call on the same source is answered (by a new worker where one died).
        let next = call_with(&inv, &mut store, &usb, "list_dir", ls.clone(), at + 1);
        assert_eq!(next.record.status, InvocationStatus::Cached, "{tool}");
        let fresh = inv
            .clone()
            .with_cache(false)
            .invoke(
                &mut store,
                &usb,
                Call {
                    tool: "list_dir",
                    args: &ls,
                    agent: "a",
                    task_id: "t",
                    ts: jiff::Timestamp::from_second(1_740_000_000 + at + 1).unwrap(),
                },
            )
            .unwrap();
        assert_eq!(fresh.record.status, InvocationStatus::Ok, "after {tool}");
        assert_eq!(fresh.output.text, by_worker.output.text);
    }

    // Output past the limit is refused in the worker, before it crosses the pipe.
    let big = call(&inv, &mut store, &usb, "test_big", 30);
    assert_eq!(big.record.status, InvocationStatus::TooLarge);
    assert!(
        big.record
            .reason
            .unwrap()
            .contains("4096 bytes exceeds the limit of 1024 bytes")
    );

    // A tool that never ends: the worker is killed at the limit (the call cannot finish, so
    // the verdict does not depend on the machine's speed), and the next call is answered.
    let short = Invoker::new(
        Arc::new(catalog()),
        Limits {
            timeout: Duration::from_millis(300),
            max_output_bytes: 1024,
        },
    )
    .with_workers(worker(1024));
    let hung = call(&short, &mut store, &usb, "test_forever", 40);
    assert_eq!(hung.record.status, InvocationStatus::TimedOut);
    assert!(
        hung.record
            .reason
            .unwrap()
            .contains("no answer within the limit of 300 ms; its worker process was stopped")
    );
    let after = call_with(&inv, &mut store, &usb, "stat", json!({"path": "/"}), 41);
    assert_eq!(after.record.status, InvocationStatus::Ok);

    // A worker program that cannot start is a failed call naming it.
    let missing = Invoker::new(Arc::new(catalog()), patient).with_workers(WorkerCommand {
        program: dir.path().join("no-such-program"),
        args: vec![],
        max_memory_bytes: 0,
    });
    let failed = call(&missing, &mut store, &usb, "test_big", 50);
    assert_eq!(failed.record.status, InvocationStatus::Failed);
    assert!(
        failed
            .record
            .reason
            .unwrap()
            .contains("could not start a worker process")
    );

    // A worker that ends before reading its first request (a program that is not a worker):
    // a failed call that says so, and this process, with SIGPIPE's default action, goes on.
    let not_a_worker = Invoker::new(Arc::new(catalog()), patient).with_workers(WorkerCommand {
        program: "/bin/true".into(),
        args: vec![],
        max_memory_bytes: 0,
    });
    for at in 60..63 {
        let failed = call(&not_a_worker, &mut store, &usb, "test_big", at);
        assert_eq!(failed.record.status, InvocationStatus::Failed);
        let reason = failed.record.reason.unwrap();
        assert!(
            reason.contains("the tool test_big crashed: its worker process exited with status 0"),
            "{reason}"
        );
    }

    // Every call is in the log, in order, the crashes included.
    let logged = store.invocations_for("a", "t").unwrap();
    assert!(logged.len() >= 16, "{}", logged.len());
}
