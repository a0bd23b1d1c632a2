//! `masf verify` and `masf rerun` on a case whose store holds real tool invocations: every one
//! re-derives; altering a stored output on disk is caught and named.

use std::sync::Arc;

use masf_tools::{Call, Catalog, Invoker, Limits, SourceCtx};

use crate::support::{masf, masf_ok, repo};

#[test]
fn verify_re_derives_every_invocation_and_names_an_altered_output() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path().to_str().unwrap();
    let case = repo().join("case.yaml");
    let case = case.to_str().unwrap();
    masf_ok(&["run", case, "--work", w]);

    // Three real calls through the invocation wrapper, as an agent makes them.
    let big_sha = {
        let mut store = masf_store::Store::open(work.path()).unwrap();
        let invoker = Invoker::new(Arc::new(Catalog::standard()), Limits::default());
        let usb = Arc::new(
            SourceCtx::open(
                "src-usb",
                &repo().join("tests/fixtures/demo/evidence/usb.E01"),
            )
            .unwrap(),
        );
        let ts = jiff::Timestamp::from_second(1_740_000_000).unwrap();
        let mut call = |tool: &str, args: serde_json::Value| {
            invoker
                .invoke(
                    &mut store,
                    &usb,
                    Call {
                        tool,
                        args: &args,
                        agent: "test",
                        task_id: "t1",
                        ts,
                    },
                )
                .unwrap()
                .record
        };
        call("list_dir", serde_json::json!({"path": "/"}));
        call("read_text", serde_json::json!({"path": "/notes.txt"}));
        let big = call(
            "hexdump",
            serde_json::json!({"path": "/DCIM/IMG_0412.JPG", "offset": 0, "length": 65536}),
        );
        assert!(!big.output_inline, "a large output lives in objects/");
        big.output_sha256
    };

    let report: serde_json::Value =
        serde_json::from_str(&masf_ok(&["verify", case, "--work", w, "--json"])).unwrap();
    assert_eq!(report["invocations"], 3);
    assert_eq!(report["matched"], 3);
    let rerun = masf_ok(&["rerun", case, "--work", w, "inv-000002"]);
    assert!(
        rerun.contains("read_text") && rerun.contains(": match"),
        "{rerun}"
    );

    // Alter the content-addressed output on disk (the store itself refuses in-place edits).
    let object = work
        .path()
        .join("objects")
        .join(&big_sha[..2])
        .join(&big_sha);
    let mut perms = std::fs::metadata(&object).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&object, perms).unwrap();
    let mut bytes = std::fs::read(&object).unwrap();
    bytes[10] ^= 1;
    std::fs::write(&object, bytes).unwrap();

    let out = masf(&["verify", case, "--work", w]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("inv-000003") && text.contains("STORED OUTPUT ALTERED"),
        "{text}"
    );
    assert_eq!(
        masf(&["rerun", case, "--work", w, "inv-000003"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        masf(&["rerun", case, "--work", w, "inv-999999"])
            .status
            .code(),
        Some(1)
    );
}
