//! Inputs nested far deeper than any real artefact (issue 24): every recursive parser gives a
//! typed error or a recorded reason, and the process goes on. The inputs are written by
//! `tests/fixtures/deep/generate.py` (plistlib, zipfile, gzip, mkdirat, mkfs.ext4 + debugfs)
//! or, where no tool writes them without recursing itself, crafted here.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use masf_store::InvocationStatus;
use masf_tools::{Catalog, Invoked, Limits, SourceCtx};
use serde_json::{Value, json};

use crate::support::{call, invoker, store};

/// How deep the fuzz-style inputs go.
const DEEP: usize = 10_000;

/// Runs the generator: `generate.py MODE DEPTH OUT`.
pub fn generate(mode: &str, depth: usize, out: &Path) {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/deep/generate.py");
    let status = Command::new("python3")
        .arg(script)
        .args([mode, &depth.to_string()])
        .arg(out)
        .status()
        .expect("python3 runs");
    assert!(status.success(), "generate.py {mode} {depth}");
}

/// A folder source holding `files` (path inside the folder → bytes or a generator mode).
fn folder(dir: &Path, files: &[(&str, &[u8])]) -> PathBuf {
    let root = dir.join("evidence");
    for (path, bytes) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    std::fs::create_dir_all(&root).unwrap();
    root
}

fn invoke(src: &Arc<SourceCtx>, tool: &str, args: Value) -> Invoked {
    let (_dir, mut store) = store();
    let inv = invoker(Catalog::standard(), Limits::default());
    call(&inv, &mut store, src, tool, args, "agent", "task", 0)
}

fn failed_with(got: &Invoked, needle: &str) {
    assert_eq!(got.record.status, InvocationStatus::Failed, "{got:?}");
    let reason = got.record.reason.as_deref().unwrap_or_default();
    assert!(reason.contains(needle), "{reason}");
}

/// The failure measured on main (issue 24): `parse_plist` on a binary plist nested 3,000
/// levels overflowed its thread's stack and aborted the process (rc 134). Now it is a failed
/// call naming the limit and where in the file it was passed.
#[test]
fn a_binary_plist_3000_levels_deep_is_a_failed_call_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let plist = dir.path().join("SystemVersion.plist");
    generate("plist", 3000, &plist);
    let bytes = std::fs::read(&plist).unwrap();
    let root = folder(
        dir.path(),
        &[("System/Library/CoreServices/SystemVersion.plist", &bytes)],
    );
    let src = Arc::new(SourceCtx::open("src-folder", &root).unwrap());
    let got = invoke(
        &src,
        "parse_plist",
        json!({"path": "/System/Library/CoreServices/SystemVersion.plist"}),
    );
    failed_with(
        &got,
        "plist /System/Library/CoreServices/SystemVersion.plist: plist arrays and dictionaries nested deeper than 100 levels at offset ",
    );
}

/// A folder source holding one file `name` with `bytes`.
fn one_file(dir: &Path, name: &str, bytes: &[u8]) -> Arc<SourceCtx> {
    let root = folder(dir, &[(name, bytes)]);
    Arc::new(SourceCtx::open("src-folder", &root).unwrap())
}

#[test]
fn plists_10000_levels_deep_fail_with_the_limit_and_the_offset() {
    let dir = tempfile::tempdir().unwrap();
    // Binary, written by plistlib: 10,000 nested dictionaries.
    let path = dir.path().join("gen.plist");
    generate("plist", DEEP, &path);
    let binary = std::fs::read(&path).unwrap();
    // XML and OpenStep text, crafted: no writer makes them without recursing itself.
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">{}<string>leaf</string>{}</plist>\n",
        "<array>".repeat(DEEP),
        "</array>".repeat(DEEP)
    );
    let head = xml.find("<array>").unwrap();
    let text = format!("{}\"leaf\"{}", "(".repeat(DEEP), ")".repeat(DEEP));
    for (name, bytes, offset) in [
        ("binary.plist", binary, None),
        // The 101st <array> is the one refused: the parser had read just past it.
        (
            "xml.plist",
            xml.into_bytes(),
            Some(head + 101 * "<array>".len()),
        ),
        ("text.plist", text.into_bytes(), None),
    ] {
        let src = one_file(dir.path(), name, &bytes);
        let got = invoke(&src, "parse_plist", json!({"path": format!("/{name}")}));
        failed_with(
            &got,
            &format!(
                "plist /{name}: plist arrays and dictionaries nested deeper than 100 levels at offset "
            ),
        );
        if let Some(at) = offset {
            failed_with(&got, &format!("at offset {at}"));
        }
    }
}

#[test]
fn a_keyed_archive_10000_objects_deep_is_unwrapped_to_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gen.plist");
    generate("archive", DEEP, &path);
    let src = one_file(dir.path(), "archive.plist", &std::fs::read(&path).unwrap());
    let got = invoke(&src, "parse_plist", json!({"path": "/archive.plist"}));
    assert_eq!(got.record.status, InvocationStatus::Ok, "{got:?}");
    // The archive itself is flat; its object graph is cut at 64 levels, visibly.
    assert!(
        got.output
            .text
            .contains("\"$truncated\": \"nesting deeper than 64\""),
        "{}",
        got.output.text
    );
    assert_eq!(got.output.structured.unwrap()["nskeyedarchiver"], true);
}

#[test]
fn json_10000_levels_deep_is_read_as_text_and_refused_as_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!("{}1{}\n", "[".repeat(DEEP), "]".repeat(DEEP));
    let src = one_file(dir.path(), "deep.json", deep.as_bytes());
    let (_d, mut store) = store();
    let inv = invoker(Catalog::standard(), Limits::default());
    let got = call(
        &inv,
        &mut store,
        &src,
        "read_text",
        json!({"path": "/deep.json"}),
        "agent",
        "task",
        0,
    );
    assert_eq!(got.record.status, InvocationStatus::Ok, "{got:?}");
    assert!(got.output.text.contains(&"[".repeat(DEEP)));
    // The grounding log re-parses JSON outputs with serde_json, whose recursion limit (128)
    // refuses this one: no structured view, no crash.
    let log = masf_tools::StoreLog::new(&store);
    let view = masf_graph::InvocationLog::get(&log, &got.record.invocation_id).unwrap();
    assert!(view.structured.is_none());
    assert!(serde_json::from_str::<Value>(&deep).is_err());

    // Arguments that deep are refused before anything serialises them.
    let mut args = json!("x");
    for _ in 0..DEEP {
        // Not json!: it would copy `args` through serde, recursively.
        args = Value::Object(serde_json::Map::from_iter([("path".to_string(), args)]));
    }
    let got = inv
        .invoke(
            &mut store,
            &src,
            masf_tools::Call {
                tool: "read_text",
                args: &args,
                agent: "agent",
                task_id: "task",
                ts: crate::support::ts(1),
            },
        )
        .unwrap();
    failed_with(&got, "arguments nested deeper than 32 levels");
    assert_eq!(
        got.record.args,
        r#"{"$unrecorded":"arguments nested deeper than 32 levels"}"#
    );
    dismantle(args);
}

/// Drops a deep JSON value one level at a time (its own `Drop` recurses once per level).
fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, x)| x)),
            _ => {}
        }
    }
}

#[test]
fn an_office_document_10000_elements_deep_gives_its_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gen.docx");
    generate("docx", DEEP, &path);
    let src = one_file(dir.path(), "deep.docx", &std::fs::read(&path).unwrap());
    let got = invoke(&src, "doc_metadata", json!({"path": "/deep.docx"}));
    // The XML reader is a flat scan: depth does not matter to it.
    assert_eq!(got.record.status, InvocationStatus::Ok, "{got:?}");
    assert!(
        got.output.text.contains("dc:title: Deep title"),
        "{}",
        got.output.text
    );
    assert!(
        got.output.text.contains("dc:creator: LEUNG YL"),
        "{}",
        got.output.text
    );
}

#[test]
fn gzip_nested_10000_times_is_scanned_to_the_layer_bound() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.gz");
    generate("gzip", DEEP, &path);
    let src = Arc::new(SourceCtx::open("src-gz", &path).unwrap());
    assert!(
        src.scan
            .unreadable_summary()
            .contains("layers nested deeper than 6; not scanned further"),
        "{}",
        src.scan.unreadable_summary()
    );
    let got = invoke(&src, "find_files", json!({}));
    failed_with(&got, "layers nested deeper than 6");
}

#[test]
fn a_folder_10000_directories_deep_is_opened_and_walked_to_the_bound_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    generate("tree", DEEP, &root);
    // Folders are read relative to open directory handles (evidence::host): the source opens
    // whatever its depth; the walking tools stop at their bound and name where.
    let src = Arc::new(SourceCtx::open("src-tree", &root).unwrap());
    let got = invoke(&src, "find_files", json!({"name_glob": "leaf.txt"}));
    assert_eq!(got.record.status, InvocationStatus::Ok, "{got:?}");
    assert!(
        got.output
            .text
            .contains("# not descended (deeper than 64 levels): "),
        "{}",
        got.output.text
    );
    let listed = invoke(&src, "list_dir", json!({"path": "/d"}));
    assert_eq!(listed.record.status, InvocationStatus::Ok, "{listed:?}");
    // Cleaned with rm, which walks without recursion (the path is longer than PATH_MAX).
    let rm = Command::new("rm").arg("-rf").arg(&root).status().unwrap();
    assert!(rm.success());
}

#[test]
fn an_ext4_tree_10000_directories_deep_is_walked_to_the_bound_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("deep.ext4");
    generate("ext4", DEEP, &image);
    let src = Arc::new(SourceCtx::open("src-ext4", &image).unwrap());
    let got = invoke(&src, "find_files", json!({"name_glob": "leaf.txt"}));
    assert_eq!(got.record.status, InvocationStatus::Ok, "{got:?}");
    let at_bound = format!("/d{}", "/d".repeat(64));
    assert!(
        got.output.text.contains(&format!(
            "# not descended (deeper than 64 levels): {}",
            masf_evidence::fs::shorten(&at_bound)
        )),
        "{}",
        got.output.text
    );
    assert_eq!(got.output.structured.unwrap()["not_descended"]["total"], 1);
    let got = invoke(&src, "search_text", json!({"patterns": ["bottom"]}));
    assert_eq!(got.record.status, InvocationStatus::Ok, "{got:?}");
    assert!(
        got.output
            .text
            .contains("# not descended (deeper than 64 levels): ")
    );
    // Paths are resolved one component at a time: the bottom is still reachable by name.
    let bottom = format!("{}/leaf.txt", "/d".repeat(DEEP));
    let got = invoke(&src, "read_text", json!({"path": bottom}));
    assert_eq!(got.record.status, InvocationStatus::Ok, "{got:?}");
    assert_eq!(got.output.text, "bottom\n");
}
