//! The invocation wrapper: every call recorded, the cache, the limits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use masf_store::InvocationStatus;
use masf_tools::{Applicability, Catalog, Limits, SourceCtx, Tool, ToolError, ToolOutput};
use serde_json::{Value, json};

use crate::support::{android, call, invoker, store, usb};

/// Test-only: with `{"hang": true}` waits until [`release_the_hung_call`] (a tool that cannot
/// finish within any limit by itself, however fast the machine), else answers at once.
struct Hang;

static RELEASED: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());
static HUNG_CALL_ENDED: AtomicBool = AtomicBool::new(false);

fn release_the_hung_call() {
    *RELEASED.0.lock().unwrap() = true;
    RELEASED.1.notify_all();
}

impl Tool for Hang {
    fn name(&self) -> &str {
        "test_hang"
    }
    fn description(&self) -> &str {
        "Test only: hangs until the test releases it, or answers at once."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {"hang": {"type": "boolean"}}, "required": ["hang"]})
    }
    fn applicability(&self) -> Applicability {
        Applicability::ANY
    }
    fn run(&self, _ctx: &SourceCtx, args: &Value) -> Result<ToolOutput, ToolError> {
        if args["hang"].as_bool() == Some(true) {
            let mut released = RELEASED.0.lock().unwrap();
            while !*released {
                released = RELEASED.1.wait(released).unwrap();
            }
            HUNG_CALL_ENDED.store(true, Ordering::SeqCst);
            return Ok(ToolOutput::text("released\n".to_string()));
        }
        Ok(ToolOutput::text("at once\n".to_string()))
    }
}

/// Test-only: panics.
struct Panicky;

impl Tool for Panicky {
    fn name(&self) -> &str {
        "test_panic"
    }
    fn description(&self) -> &str {
        "Test only: panics, as a buggy parser might on a crafted artefact."
    }
    fn args_schema(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn applicability(&self) -> Applicability {
        Applicability::ANY
    }
    fn run(&self, _ctx: &SourceCtx, _args: &Value) -> Result<ToolOutput, ToolError> {
        panic!("crafted artefact")
    }
}

fn catalog() -> Catalog {
    let mut c = Catalog::standard();
    c.register(Arc::new(Hang));
    c.register(Arc::new(Panicky));
    c
}

#[test]
fn every_call_is_recorded_with_canonical_args_and_its_output() {
    let (_dir, mut store) = store();
    let inv = invoker(catalog(), Limits::default()).with_cache(false);
    let src = usb();
    // Keys out of order: recorded sorted.
    let a = call(
        &inv,
        &mut store,
        &src,
        "read_text",
        json!({"path": "/notes.txt", "offset": 0}),
        "triage",
        "t1",
        1,
    );
    assert_eq!(a.record.status, InvocationStatus::Ok);
    assert_eq!(a.record.args, r#"{"offset":0,"path":"/notes.txt"}"#);
    assert_eq!(a.record.source_id, "src-usb");
    assert_eq!(a.record.agent, "triage");
    assert_eq!(a.record.task_id, "t1");
    assert_eq!(a.record.ts, crate::support::ts(1));
    assert_eq!(a.record.cached_from, None);
    assert!(a.output.text.contains("yl.leung@example.com"));
    assert_eq!(
        store.invocation_output(&a.record.invocation_id).unwrap(),
        a.output.text.as_bytes()
    );
    // Same call again without the cache: a second ok record with the same output hash.
    let b = call(
        &inv,
        &mut store,
        &src,
        "read_text",
        json!({"offset": 0, "path": "/notes.txt"}),
        "triage",
        "t1",
        2,
    );
    assert_eq!(b.record.status, InvocationStatus::Ok);
    assert_eq!(b.record.args, a.record.args);
    assert_eq!(b.record.output_sha256, a.record.output_sha256);
    assert_ne!(b.record.invocation_id, a.record.invocation_id);
    assert_eq!(store.invocations_for("triage", "t1").unwrap().len(), 2);
}

#[test]
fn a_cached_answer_is_still_a_recorded_call_of_the_asking_agent() {
    let (_dir, mut store) = store();
    let inv = invoker(catalog(), Limits::default());
    let src = usb();
    let first = call(
        &inv,
        &mut store,
        &src,
        "list_dir",
        json!({"path": "/"}),
        "a1",
        "t1",
        1,
    );
    assert_eq!(first.record.status, InvocationStatus::Ok);
    let second = call(
        &inv,
        &mut store,
        &src,
        "list_dir",
        json!({"path": "/"}),
        "a2",
        "t9",
        2,
    );
    assert_eq!(second.record.status, InvocationStatus::Cached);
    assert_eq!(
        second.record.cached_from.as_deref(),
        Some(first.record.invocation_id.as_str())
    );
    assert_eq!(second.record.agent, "a2");
    assert_eq!(second.record.task_id, "t9");
    assert_eq!(second.record.output_sha256, first.record.output_sha256);
    assert_eq!(second.output.text, first.output.text);
    assert_eq!(store.invocations_for("a2", "t9").unwrap().len(), 1);
    // The cache key includes the source: the same call on another source runs the tool.
    let other = call(
        &inv,
        &mut store,
        &android(),
        "list_dir",
        json!({"partition": "system", "path": "/"}),
        "a2",
        "t9",
        3,
    );
    assert_eq!(other.record.status, InvocationStatus::Ok);
}

#[test]
fn failures_are_recorded_not_raised() {
    let (_dir, mut store) = store();
    let inv = invoker(catalog(), Limits::default());
    let src = usb();
    let cases = [
        ("no_such_tool", json!({})),
        ("read_text", json!({})),
        ("read_text", json!({"path": 3})),
        ("read_text", json!({"path": "/notes.txt", "bogus": 1})),
        ("read_text", json!({"path": "/no/such/file"})),
        ("test_panic", json!({})),
    ];
    for (i, (tool, args)) in cases.iter().enumerate() {
        let r = call(
            &inv,
            &mut store,
            &src,
            tool,
            args.clone(),
            "a",
            "t",
            i as i64,
        );
        assert_eq!(r.record.status, InvocationStatus::Failed, "{tool} {args}");
        let reason = r.record.reason.clone().unwrap();
        assert!(!reason.is_empty());
        assert!(!reason.contains(env!("CARGO_MANIFEST_DIR")), "{reason}");
        assert_eq!(r.record.output_size, 0);
    }
    assert_eq!(store.invocations_for("a", "t").unwrap().len(), cases.len());
    // A failed call is never served from the cache.
    let again = call(
        &inv,
        &mut store,
        &src,
        "read_text",
        json!({"path": "/no/such/file"}),
        "a",
        "t",
        99,
    );
    assert_eq!(again.record.status, InvocationStatus::Failed);
}

#[test]
fn an_output_over_the_limit_is_recorded_too_large() {
    let (_dir, mut store) = store();
    let limits = Limits {
        max_output_bytes: 64,
        ..Limits::default()
    };
    let inv = invoker(catalog(), limits);
    let r = call(
        &inv,
        &mut store,
        &usb(),
        "hexdump",
        json!({"path": "/notes.txt", "length": 256}),
        "a",
        "t",
        1,
    );
    assert_eq!(r.record.status, InvocationStatus::TooLarge);
    assert!(
        r.record
            .reason
            .unwrap()
            .contains("exceeds the limit of 64 bytes")
    );
    assert_eq!(r.record.output_size, 0);
    let small = call(
        &inv,
        &mut store,
        &usb(),
        "read_text",
        json!({"path": "/notes.txt", "length": 10}),
        "a",
        "t",
        2,
    );
    assert_eq!(small.record.status, InvocationStatus::Ok);
}

#[test]
fn a_tool_that_hangs_is_recorded_timed_out_and_the_next_call_still_works() {
    let (_dir, mut store) = store();
    let catalog = Arc::new(catalog());
    let short = masf_tools::Invoker::new(
        catalog.clone(),
        Limits {
            timeout: Duration::from_millis(200),
            ..Limits::default()
        },
    );
    let src = usb();
    let hung = call(
        &short,
        &mut store,
        &src,
        "test_hang",
        json!({"hang": true}),
        "a",
        "t",
        1,
    );
    assert!(
        !HUNG_CALL_ENDED.load(Ordering::SeqCst),
        "the wrapper answered while the tool still ran"
    );
    assert_eq!(hung.record.status, InvocationStatus::TimedOut);
    assert!(hung.record.reason.unwrap().contains("200 ms"));
    // The abandoned call holds nothing the next ones need: the same catalog, source and store
    // answer (under a limit that no answer comes near, so that a loaded machine cannot time
    // them out).
    let patient = masf_tools::Invoker::new(catalog, Limits::default());
    let next = call(
        &patient,
        &mut store,
        &src,
        "list_dir",
        json!({"path": "/"}),
        "a",
        "t",
        2,
    );
    assert_eq!(next.record.status, InvocationStatus::Ok);
    let quick = call(
        &patient,
        &mut store,
        &src,
        "test_hang",
        json!({"hang": false}),
        "a",
        "t",
        3,
    );
    assert_eq!(quick.record.status, InvocationStatus::Ok);
    assert_eq!(quick.output.text, "at once\n");
    assert!(!HUNG_CALL_ENDED.load(Ordering::SeqCst), "still hung");
    release_the_hung_call();
    let ids: Vec<_> = store
        .invocations_for("a", "t")
        .unwrap()
        .into_iter()
        .map(|r| r.status)
        .collect();
    assert_eq!(
        ids,
        [
            InvocationStatus::TimedOut,
            InvocationStatus::Ok,
            InvocationStatus::Ok
        ]
    );
}

#[test]
fn limits_come_from_the_tools_section_of_the_config() {
    let config = masf_case::Config::default();
    let limits = Limits::from(&config.tools);
    assert_eq!(limits.timeout, Duration::from_secs(config.tools.timeout_s));
    assert_eq!(
        limits.max_output_bytes as u64,
        config.tools.max_output_bytes
    );
    assert_eq!(Limits::default(), limits);
}

#[test]
fn a_tampered_cached_output_is_not_served() {
    let (_dir, mut store) = store();
    let inv = invoker(catalog(), Limits::default());
    let src = crate::support::iphone();
    // Large enough to live under objects/ rather than inline.
    let args = json!({"path": "/private/var/mobile/Library/SMS/sms.db-wal", "length": 4096});
    let first = call(&inv, &mut store, &src, "hexdump", args.clone(), "a", "t", 1);
    assert_eq!(first.record.status, InvocationStatus::Ok);
    assert!(
        !first.record.output_inline,
        "{} bytes",
        first.record.output_size
    );
    let object = store.object_path(&first.record.output_sha256);
    let mut perms = std::fs::metadata(&object).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&object, perms).unwrap();
    std::fs::write(&object, b"altered").unwrap();
    let second = call(&inv, &mut store, &src, "hexdump", args, "a", "t", 2);
    assert_eq!(second.record.status, InvocationStatus::Ok);
    assert_eq!(second.output.text, first.output.text);
}

#[test]
fn after_a_tampered_output_the_good_rerun_is_served() {
    let (_dir, mut store) = store();
    let inv = invoker(catalog(), Limits::default());
    let src = crate::support::iphone();
    let args = json!({"path": "/private/var/mobile/Library/SMS/sms.db-wal", "length": 4096});
    let first = call(&inv, &mut store, &src, "hexdump", args.clone(), "a", "t", 1);
    let object = store.object_path(&first.record.output_sha256);
    let mut perms = std::fs::metadata(&object).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&object, perms).unwrap();
    std::fs::write(&object, b"altered").unwrap();
    // The damaged answer is skipped and the tool runs again; its identical answer restores the
    // content-addressed object (the altered file is kept aside), so from then on the cache
    // serves the original call again instead of re-running at every call.
    let second = call(&inv, &mut store, &src, "hexdump", args.clone(), "a", "t", 2);
    assert_eq!(second.record.status, InvocationStatus::Ok);
    let third = call(&inv, &mut store, &src, "hexdump", args, "b", "t", 3);
    assert_eq!(third.record.status, InvocationStatus::Cached);
    assert_eq!(
        third.record.cached_from.as_deref(),
        Some(first.record.invocation_id.as_str())
    );
    assert_eq!(third.output.text, first.output.text);
}

#[test]
fn a_call_that_does_not_fit_the_source_is_refused_naming_the_tools_that_do() {
    let public = |p: &str| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(p)
    };
    let (_dir, mut store) = store();
    let inv = invoker(catalog(), Limits::default());
    // A GPT disk whose one partition holds no file system: an image, but no tree.
    let bare = Arc::new(
        SourceCtx::open(
            "src-bare",
            &masf_testkit::corpus::path("disk/blsforme-nvme0n1-gpt.raw"),
        )
        .unwrap(),
    );
    let shape = bare.shape();
    assert!(shape.image && !shape.tree && !shape.file, "{shape:?}");
    let refused = call(
        &inv,
        &mut store,
        &bare,
        "list_dir",
        json!({"path": "/"}),
        "a",
        "t",
        1,
    );
    assert_eq!(refused.record.status, InvocationStatus::Failed);
    let reason = refused.record.reason.unwrap();
    assert!(
        reason.starts_with(
            "not applicable: list_dir reads a readable file system or tree; \
             source src-bare (disk_image) offers a disk image ("
        ),
        "{reason}"
    );
    assert!(
        reason
            .ends_with("; tools for this source: fs_info, partition_table, test_hang, test_panic"),
        "{reason}"
    );
    assert!(!reason.contains(env!("CARGO_MANIFEST_DIR")), "{reason}");
    let table = call(
        &inv,
        &mut store,
        &bare,
        "partition_table",
        json!({}),
        "a",
        "t",
        2,
    );
    assert_eq!(table.record.status, InvocationStatus::Ok);

    // A folder is a tree, not an image: partition tables do not apply.
    let folder = Arc::new(SourceCtx::open("src-shots", &public("media")).unwrap());
    let refused = call(
        &inv,
        &mut store,
        &folder,
        "partition_table",
        json!({}),
        "a",
        "t",
        3,
    );
    assert_eq!(refused.record.status, InvocationStatus::Failed);
    let reason = refused.record.reason.unwrap();
    assert!(
        reason.starts_with(
            "not applicable: partition_table reads a disk image; source src-shots \
             (folder) offers a readable file system or tree; tools for this source: "
        ),
        "{reason}"
    );
    assert!(
        reason.contains("list_dir") && !reason.contains("partition_table,"),
        "{reason}"
    );

    // A single file offers neither: only the tools that read any source apply.
    let single = Arc::new(SourceCtx::open("src-one", &public("media/shot_02.png")).unwrap());
    let refused = call(
        &inv,
        &mut store,
        &single,
        "sqlite_tables",
        json!({"path": "/"}),
        "a",
        "t",
        4,
    );
    let reason = refused.record.reason.unwrap();
    assert!(
        reason.contains("source src-one (file) offers a single file"),
        "{reason}"
    );
    let info = call(&inv, &mut store, &single, "fs_info", json!({}), "a", "t", 5);
    assert_eq!(info.record.status, InvocationStatus::Ok);
}
