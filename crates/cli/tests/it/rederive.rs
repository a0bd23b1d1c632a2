//! `masf verify` and `masf rerun` on a case whose store holds real tool invocations and a
//! phenomenon grounded in one of them: every call re-derives and the fact re-checks; altering a
//! stored output on disk is caught and named, for the call and for the fact that cites it.

use std::sync::Arc;

use masf_tools::{Call, Catalog, Invoker, Limits, SourceCtx};

use crate::support::{masf, masf_ok, repo};

#[test]
fn verify_re_derives_every_invocation_and_names_an_altered_output() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path().to_str().unwrap();
    let case = repo().join("case.yaml");
    let case = case.to_str().unwrap();
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

        // A phenomenon grounded in the big output, recorded through the gateway and persisted.
        let first_line = store
            .invocation_output(&big.invocation_id)
            .map(|b| {
                String::from_utf8_lossy(&b)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .unwrap();
        let state = masf_graph::GraphState::new(masf_graph::Scoring::default());
        let verdict = masf_graph::Gateway::new(&state, &masf_tools::StoreLog::new(&store))
            .record_phenomenon(&masf_graph::NewPhenomenon {
                source_id: "src-usb".into(),
                agent: "test".into(),
                task_id: "t1".into(),
                category: "media".into(),
                title: "JPEG header".into(),
                facts: vec![masf_graph::FactClaim {
                    fact_type: masf_graph::FactType::Text,
                    value: first_line,
                    invocation_id: big.invocation_id.clone(),
                }],
                interpretation: String::new(),
                phone_region: None,
                times: Vec::new(),
            });
        assert!(verdict.is_accepted(), "{verdict:?}");
        for e in verdict.events() {
            store
                .append(&masf_store::NewEvent {
                    kind: e.kind().into(),
                    payload: e.to_payload(),
                    actor_kind: masf_store::ActorKind::Agent,
                    actor_id: "test".into(),
                    idempotency_key: e.idempotency_key(),
                    causation_seq: None,
                    ts,
                    versions: Default::default(),
                })
                .unwrap();
        }
        big.output_sha256
    };

    let report: serde_json::Value =
        serde_json::from_str(&masf_ok(&["verify", case, "--work", w, "--json"])).unwrap();
    assert_eq!(report["invocations"], 3);
    assert_eq!(report["matched"], 3);
    assert_eq!(report["facts"], 1);
    assert_eq!(report["facts_matched"], 1);
    // Published outputs check with sha256sum alone, and hold the fact's value.
    let published = work.path().join("published");
    masf_ok(&[
        "outputs",
        case,
        "--work",
        w,
        "--out",
        published.to_str().unwrap(),
    ]);
    let check = std::process::Command::new("sha256sum")
        .args(["-c", "--strict", "SHA256SUMS"])
        .current_dir(&published)
        .output()
        .unwrap();
    assert!(check.status.success(), "{check:?}");
    assert_eq!(
        String::from_utf8_lossy(&check.stdout)
            .matches(": OK")
            .count(),
        3
    );
    let index = std::fs::read_to_string(published.join("index.jsonl")).unwrap();
    assert_eq!(index.lines().count(), 3);
    assert!(index.contains("\"tool\":\"read_text\""), "{index}");
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
    assert!(
        text.contains("1 verified fact(s): 0 still found") && text.contains("fact ph-000001 #0"),
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
