//! Shared helpers: the demo sources (scanned once), a store in a temporary folder, a call.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use masf_store::Store;
use masf_tools::{Call, Catalog, Invoked, Invoker, Limits, SourceCtx, Tool, ToolOutput};
use serde_json::Value;

pub fn evidence(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/demo/evidence")
        .join(name)
}

fn cached(cell: &'static OnceLock<Arc<SourceCtx>>, id: &str, file: &str) -> Arc<SourceCtx> {
    cell.get_or_init(|| Arc::new(SourceCtx::open(id, &evidence(file)).expect(file)))
        .clone()
}

pub fn usb() -> Arc<SourceCtx> {
    static CELL: OnceLock<Arc<SourceCtx>> = OnceLock::new();
    cached(&CELL, "src-usb", "usb.E01")
}

pub fn android() -> Arc<SourceCtx> {
    static CELL: OnceLock<Arc<SourceCtx>> = OnceLock::new();
    cached(&CELL, "src-android", "blk0_sda.bin")
}

pub fn iphone() -> Arc<SourceCtx> {
    static CELL: OnceLock<Arc<SourceCtx>> = OnceLock::new();
    cached(&CELL, "src-iphone", "iphone_ffs.zip")
}

/// Runs a catalog tool directly (no logging).
pub fn run(ctx: &SourceCtx, tool: &str, args: Value) -> ToolOutput {
    let catalog = Catalog::standard();
    let t = catalog.get(tool).expect(tool);
    t.run(ctx, &args)
        .unwrap_or_else(|e| panic!("{tool} {args}: {e}"))
}

/// A store in a fresh temporary folder (kept alive by the returned guard).
pub fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("work")).unwrap();
    (dir, store)
}

pub fn ts(secs: i64) -> jiff::Timestamp {
    jiff::Timestamp::from_second(1_740_000_000 + secs).unwrap()
}

pub fn invoker(catalog: Catalog, limits: Limits) -> Invoker {
    Invoker::new(Arc::new(catalog), limits)
}

#[allow(clippy::too_many_arguments)]
pub fn call(
    inv: &Invoker,
    store: &mut Store,
    src: &Arc<SourceCtx>,
    tool: &str,
    args: Value,
    agent: &str,
    task: &str,
    at: i64,
) -> Invoked {
    inv.invoke(
        store,
        src,
        Call {
            tool,
            args: &args,
            agent,
            task_id: task,
            ts: ts(at),
        },
    )
    .unwrap()
}

/// Asserts a tool is in the catalog with a description and an object schema.
pub fn assert_described(t: &dyn Tool) {
    assert!(t.description().len() > 40, "{}", t.name());
    assert_eq!(t.args_schema()["type"], "object", "{}", t.name());
}

/// Runs the fixture generator `script` (a path under the repository) with Python on `root` (a
/// folder it writes) and `<root>.oracle.json`; returns the oracle it wrote.
pub fn generated(script: &str, root: &std::path::Path) -> Value {
    let oracle = root.with_extension("oracle.json");
    let out = std::process::Command::new("python3")
        .arg(masf_testkit::corpus::repo_root().join(script))
        .arg(root)
        .arg(&oracle)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&std::fs::read(&oracle).unwrap()).unwrap()
}
