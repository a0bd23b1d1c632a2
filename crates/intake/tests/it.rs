//! Intake on real evidence: the demo's two-segment E01 (written by ewfacquire) and a folder,
//! hashed as `sha256sum`/`md5sum` hash them, the media verified against the hashes the image
//! stores, registered once (a rerun adds nothing), amended when the examiner edits a label,
//! and a source that cannot be read (a FIFO) recorded as unreadable while the others go on.

use std::path::{Path, PathBuf};
use std::process::Command;

use masf_case::Case;
use masf_intake::{NoProgress, register, registry};
use masf_store::Store;

fn demo(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/demo/evidence")
        .join(name)
        .canonicalize()
        .expect("demo evidence")
}

fn case(dir: &Path, usb_label: &str, extra: &str) -> Case {
    let text = format!(
        "case:\n  id: intake-test\n  title: Intake\n  examiner: T. Ester\n  timezone: UTC\n\
         sources:\n  - id: src-usb\n    label: {usb_label}\n    path: {}\n  \
         - id: src-screens\n    label: Screens\n    path: {}\n{extra}",
        demo("usb.E01").display(),
        demo("screenshots").display(),
    );
    let file = dir.join("case.yaml");
    std::fs::write(&file, &text).expect("case.yaml");
    Case::load(&file).expect("case loads")
}

fn tool_digest(tool: &str, path: &Path) -> String {
    let out = Command::new(tool).arg(path).output().expect("coreutils");
    String::from_utf8(out.stdout).expect("utf-8")[..if tool == "md5sum" { 32 } else { 64 }]
        .to_string()
}

fn now() -> jiff::Timestamp {
    jiff::Timestamp::from_second(1_764_000_000).expect("time")
}

#[test]
fn sources_are_registered_once_with_the_digests_coreutils_compute() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = Store::open(&dir.path().join("work")).expect("store");
    let typed =
        |s: &masf_case::SourceSpec| (Some(format!("type-of-{}", s.id)), vec!["asked".into()]);

    let first = register(
        &case(dir.path(), "USB", ""),
        &mut store,
        &now,
        &NoProgress,
        &typed,
    )
    .expect("intake");
    assert_eq!(first.events_added, 2, "{first:?}");
    assert!(first.problems.is_empty(), "{:?}", first.problems);
    let usb = &first.sources[0];
    assert_eq!(usb.detected_type.as_deref(), Some("type-of-src-usb"));
    assert_eq!(usb.files_kind, "ewf_segments");
    assert_eq!(usb.files.len(), 2, "both segments");
    for f in &usb.files {
        let path = Path::new(&f.path);
        assert_eq!(f.sha256, tool_digest("sha256sum", path), "{}", f.path);
        assert_eq!(f.md5, tool_digest("md5sum", path), "{}", f.path);
    }
    let media = usb.media.as_ref().expect("an E01's media is verified");
    assert_eq!(
        (media.md5_check.as_str(), media.bad_chunks.len()),
        ("verified", 0)
    );
    assert_eq!(media.stored_md5.as_deref(), Some(media.md5.as_str()));
    assert_eq!(first.sources[1].files.len(), 5);

    // a rerun adds nothing; an edited label is one amendment
    let again = register(
        &case(dir.path(), "USB", ""),
        &mut store,
        &now,
        &NoProgress,
        &typed,
    )
    .expect("again");
    assert_eq!(again.events_added, 0);
    assert!(again.sources.iter().all(|s| !s.newly_added));
    let amended = register(
        &case(dir.path(), "USB stick of the suspect", ""),
        &mut store,
        &now,
        &NoProgress,
        &typed,
    )
    .expect("amend");
    assert_eq!(amended.events_added, 1);
    let (reg, _) = registry(&store).expect("registry");
    assert_eq!(reg.sources["src-usb"].label, "USB stick of the suspect");
}

#[test]
fn a_source_that_cannot_be_read_is_recorded_and_the_others_go_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("pipe.bin");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let mut store = Store::open(&dir.path().join("work")).expect("store");
    let extra = format!(
        "  - id: src-pipe\n    label: Pipe\n    path: {}\n",
        fifo.display()
    );
    let typed = |_: &masf_case::SourceSpec| (None, vec!["not scanned".into()]);
    let done = register(
        &case(dir.path(), "USB", &extra),
        &mut store,
        &now,
        &NoProgress,
        &typed,
    )
    .expect("intake goes on");
    assert_eq!(done.sources.len(), 2, "the two readable sources");
    assert_eq!(done.problems.len(), 1, "{:?}", done.problems);
    assert!(
        done.problems[0].starts_with("src-pipe: not registered:"),
        "{:?}",
        done.problems
    );
    let (reg, _) = registry(&store).expect("registry");
    assert!(reg.unreadable.contains_key("src-pipe"), "{reg:?}");
    assert!(!reg.sources.contains_key("src-pipe"));
}
