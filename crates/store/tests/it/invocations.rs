//! Recording tool calls, storing and re-checking their outputs, cache lookups.

use std::fs;

use masf_store::{INLINE_OUTPUT_MAX, InvocationStatus, StoreError};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::support::{invocation, open};

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn object_files(dir: &std::path::Path) -> usize {
    let objects = dir.join("objects");
    if !objects.exists() {
        return 0;
    }
    fs::read_dir(objects)
        .unwrap()
        .map(|prefix| fs::read_dir(prefix.unwrap().path()).unwrap().count())
        .sum()
}

#[test]
fn outputs_are_inline_up_to_the_limit_and_objects_above() {
    fn check(size: usize, inline: bool) {
        let dir = tempfile::tempdir().unwrap();
        let mut store = open(dir.path());
        let output: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        let record = store.record_invocation(&invocation(&output)).unwrap();
        assert_eq!(record.invocation_id, "inv-000001");
        assert_eq!(record.output_sha256, sha(&output));
        assert_eq!(record.output_size, size as u64);
        assert_eq!(record.output_inline, inline, "size {size}");
        assert_eq!(
            object_files(dir.path()),
            usize::from(!inline),
            "size {size}"
        );
        if !inline {
            let path = store.object_path(&record.output_sha256);
            assert!(path.starts_with(dir.path().join("objects").join(&record.output_sha256[..2])));
            assert_eq!(fs::read(&path).unwrap(), output);
        }
        assert_eq!(store.invocation_output("inv-000001").unwrap(), output);
        drop(store);
        assert_eq!(
            masf_store::Store::open_read_only(dir.path())
                .unwrap()
                .invocation_output("inv-000001")
                .unwrap(),
            output
        );
    }
    check(0, true);
    check(10, true);
    check(INLINE_OUTPUT_MAX, true);
    check(INLINE_OUTPUT_MAX + 1, false);
    check(3 * 1024 * 1024, false);
}

#[test]
fn records_read_back_with_ids_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let mut failed = invocation(b"permission denied");
    failed.status = InvocationStatus::Failed;
    failed.reason = Some("EACCES".to_owned());
    failed.task_id = "task-2".to_owned();
    let first = store.record_invocation(&invocation(b"a\nb\n")).unwrap();
    let second = store.record_invocation(&failed).unwrap();
    assert_eq!((first.seq, first.invocation_id.as_str()), (1, "inv-000001"));
    assert_eq!(
        (second.seq, second.invocation_id.as_str()),
        (2, "inv-000002")
    );
    assert_eq!(second.status, InvocationStatus::Failed);
    assert_eq!(second.reason.as_deref(), Some("EACCES"));
    assert_eq!(second.duration_ms, 12);
    assert_eq!(second.ts, failed.ts);
    assert_eq!(second.versions, failed.versions);

    assert_eq!(
        store.invocation("inv-000002").unwrap().as_ref(),
        Some(&second)
    );
    assert_eq!(store.invocation("inv-999999").unwrap(), None);
    assert_eq!(
        store.invocations_for("triage", "task-1").unwrap(),
        std::slice::from_ref(&first)
    );
    assert_eq!(
        store.invocations_for("triage", "task-2").unwrap(),
        std::slice::from_ref(&second)
    );
    assert_eq!(
        store.all_invocations().unwrap(),
        [first.clone(), second.clone()]
    );
    let mut streamed = Vec::new();
    store
        .for_each_invocation(|r| {
            streamed.push(r);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert_eq!(streamed, [first, second]);
}

#[test]
fn a_cached_answer_is_logged_and_names_the_original() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let args = json!({ "path": "/" }).to_string();
    let mut failed = invocation(b"");
    failed.status = InvocationStatus::Failed;
    store.record_invocation(&failed).unwrap();
    assert_eq!(
        store
            .cache_candidates("src-usb", "list_dir", &args)
            .unwrap(),
        []
    );

    let original = store
        .record_invocation(&invocation(b"Documents\n"))
        .unwrap();
    assert_eq!(
        store
            .cache_candidates("src-usb", "list_dir", &args)
            .unwrap(),
        std::slice::from_ref(&original)
    );
    // The cache key includes the source.
    assert_eq!(
        store
            .cache_candidates("src-phone", "list_dir", &args)
            .unwrap(),
        []
    );

    let mut cached = invocation(b"Documents\n");
    cached.status = InvocationStatus::Cached;
    cached.cached_from = Some(original.invocation_id.clone());
    cached.agent = "timeline".to_owned();
    let record = store.record_invocation(&cached).unwrap();
    assert_eq!(record.cached_from.as_deref(), Some("inv-000002"));
    assert_eq!(
        store.invocations_for("timeline", "task-1").unwrap(),
        std::slice::from_ref(&record)
    );
    assert_eq!(
        store.invocation_output(&record.invocation_id).unwrap(),
        b"Documents\n"
    );
    // Lookups still name the original, not the cached copy.
    assert_eq!(
        store
            .cache_candidates("src-usb", "list_dir", &args)
            .unwrap(),
        [original]
    );
}

#[test]
fn cached_from_must_match_the_status_and_name_a_real_invocation() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let mut cached_without_origin = invocation(b"x");
    cached_without_origin.status = InvocationStatus::Cached;
    let mut origin_without_cached = invocation(b"x");
    origin_without_cached.cached_from = Some("inv-000001".to_owned());
    let mut unknown_origin = invocation(b"x");
    unknown_origin.status = InvocationStatus::Cached;
    unknown_origin.cached_from = Some("inv-000099".to_owned());
    for bad in [cached_without_origin, origin_without_cached, unknown_origin] {
        let err = store.record_invocation(&bad).unwrap_err();
        assert!(matches!(err, StoreError::Sqlite(_)), "{err}");
    }
    assert!(store.all_invocations().unwrap().is_empty());
}

#[test]
fn a_repeated_idempotency_key_returns_the_first_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let mut inv = invocation(b"out");
    inv.idempotency_key = Some("task-1/call-1".to_owned());
    let first = store.record_invocation(&inv).unwrap();
    inv.duration_ms = 99;
    assert_eq!(store.record_invocation(&inv).unwrap(), first);
    inv.output = b"different".to_vec();
    let err = store.record_invocation(&inv).unwrap_err();
    assert!(
        matches!(&err, StoreError::IdempotencyConflict { key } if key == "task-1/call-1"),
        "{err}"
    );
    assert_eq!(store.all_invocations().unwrap().len(), 1);
}

#[test]
fn the_same_large_output_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let output = vec![b'z'; INLINE_OUTPUT_MAX * 4];
    let a = store.record_invocation(&invocation(&output)).unwrap();
    let b = store.record_invocation(&invocation(&output)).unwrap();
    assert_eq!(a.output_sha256, b.output_sha256);
    assert_eq!(object_files(dir.path()), 1);
    assert_eq!(store.invocation_output(&b.invocation_id).unwrap(), output);
}

#[test]
fn an_altered_object_is_reported_with_its_invocation() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    store.record_invocation(&invocation(b"small")).unwrap();
    let output = vec![b'a'; INLINE_OUTPUT_MAX + 100];
    let record = store.record_invocation(&invocation(&output)).unwrap();
    let path = store.object_path(&record.output_sha256);

    let mut tampered = output.clone();
    tampered[5] = b'b';
    let mut perms = fs::metadata(&path).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    fs::set_permissions(&path, perms).unwrap();
    fs::write(&path, &tampered).unwrap();

    match store.invocation_output("inv-000002").unwrap_err() {
        StoreError::OutputMismatch {
            invocation_id,
            expected,
            actual,
            path: reported,
        } => {
            assert_eq!(invocation_id, "inv-000002");
            assert_eq!(expected, sha(&output));
            assert_eq!(actual, sha(&tampered));
            assert_eq!(reported, path);
        }
        other => panic!("expected OutputMismatch, got {other}"),
    }
    // The other output is untouched.
    assert_eq!(store.invocation_output("inv-000001").unwrap(), b"small");

    fs::remove_file(&path).unwrap();
    let err = store.invocation_output("inv-000002").unwrap_err();
    assert!(
        matches!(&err, StoreError::Io { path: p, .. } if *p == path),
        "{err}"
    );
}

#[test]
fn an_unknown_invocation_has_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let err = store.invocation_output("inv-000001").unwrap_err();
    assert!(
        matches!(&err, StoreError::NotFound { invocation_id } if invocation_id == "inv-000001"),
        "{err}"
    );
}
