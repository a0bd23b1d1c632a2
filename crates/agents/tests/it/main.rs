//! The runtime on a real case store and the demo iPhone extraction, with a small plugin defined
//! here that uses only catalog tools.

use std::path::PathBuf;
use std::sync::Arc;

use masf_agents::{
    AgentCtx, Detection, PhenomenonDraft, Plugin, Plugins, RuntimeError, Session, SourceInfo,
    triage_all,
};
use masf_graph::views::ExpectedArtefact;
use masf_graph::{FactClaim, FactType, Scoring, Verdict};
use masf_tools::{Invoker, Limits, SourceCtx};
use serde_json::json;

fn demo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/demo/evidence")
        .join(path)
}

/// Finds sms.db and records its path; tries one ungrounded fact; notes one unparsed artefact.
struct FindSms;

impl Plugin for FindSms {
    fn name(&self) -> &'static str {
        "find-sms"
    }
    fn detect(&self, source: &SourceCtx) -> Option<Detection> {
        (source.scan.evidence_type.as_str() == "ios_extraction").then(|| Detection {
            score: 100,
            reasons: vec!["ios".into()],
        })
    }
    fn expected_artefacts(&self) -> Vec<ExpectedArtefact> {
        Vec::new()
    }
    fn categorise(&self, _path: &str) -> Option<&'static str> {
        None
    }
    fn triage(&self, ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
        let found = ctx.call("find_files", json!({"name_glob": "sms.db"}))?;
        let path = found
            .output
            .text
            .lines()
            .find_map(|l| l.rsplit('\t').next().filter(|p| p.ends_with("/sms.db")))
            .expect("the demo iPhone has sms.db")
            .to_string();
        let cite = |value: &str, t| FactClaim {
            fact_type: t,
            value: value.into(),
            invocation_id: found.record.invocation_id.clone(),
        };
        let v = ctx.record(PhenomenonDraft {
            category: "messages".into(),
            title: "sms.db present".into(),
            facts: vec![cite(&path, FactType::Path)],
            interpretation: "The message database exists.".into(),
            times: vec![],
        })?;
        assert!(v.is_accepted(), "{v:?}");
        let v = ctx.record(PhenomenonDraft {
            category: "messages".into(),
            title: "invented".into(),
            facts: vec![cite("/private/var/mobile/invented.db", FactType::Path)],
            interpretation: String::new(),
            times: vec![],
        })?;
        assert!(matches!(v, Verdict::Rejected { .. }), "{v:?}");
        let bad = ctx.call(
            "sqlite_query",
            json!({"path": "/no/such.db", "sql": "SELECT 1"}),
        )?;
        ctx.unparsed(
            "/no/such.db",
            bad.record.reason.as_deref().unwrap_or("failed"),
            Some(&bad.record.invocation_id),
        )?;
        Ok(())
    }
}

fn session(dir: &std::path::Path) -> Session {
    let plugins = Plugins::new(vec![Arc::new(FindSms)]);
    Session::open(
        dir,
        Scoring::default(),
        Invoker::new(Arc::new(plugins.catalog()), Limits::default()),
        vec![
            SourceInfo {
                id: "src-iphone".into(),
                label: "iPhone".into(),
                path: demo("iphone_ffs.zip"),
                owner: None,
                timezone: "Asia/Hong_Kong".into(),
            },
            SourceInfo {
                id: "src-screens".into(),
                label: "screens".into(),
                path: demo("screenshots"),
                owner: None,
                timezone: "Asia/Hong_Kong".into(),
            },
        ],
        Arc::new(|| jiff::Timestamp::from_second(1_764_000_000).expect("time")),
    )
    .expect("session opens")
}

#[test]
fn triage_records_through_the_gateway_and_reruns_add_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plugins = Plugins::new(vec![Arc::new(FindSms)]);
    let s = session(dir.path());
    let reports = triage_all(&s, &plugins, 2).expect("triage");
    assert_eq!(reports.len(), 2);
    let iphone = &reports[0];
    assert_eq!(iphone.plugin.as_deref(), Some("find-sms"));
    assert_eq!(iphone.task_id, "triage/src-iphone");
    assert_eq!(iphone.tally.phenomena, 1);
    assert_eq!(iphone.tally.rejections, 1);
    assert_eq!(iphone.tally.unparsed, 1);
    assert_eq!(iphone.tally.tool_calls, 2);
    assert_eq!(iphone.tally.tool_failures, 1);
    assert_eq!(reports[1].plugin, None);
    assert_eq!(reports[1].error, None);
    assert_eq!(
        reports[1].reasons,
        ["no plugin fits a source sniffed as media_collection"]
    );
    let phenomena = s.state().expect("state").phenomena().clone();
    assert_eq!(phenomena.len(), 1);
    let unparsed = s.unparsed().expect("unparsed");
    assert_eq!(unparsed.len(), 1);
    assert_eq!(unparsed[0].artefact, "/no/such.db");
    drop(s);

    // A new session folds the same graph from the store; running again records nothing new.
    let again = session(dir.path());
    assert_eq!(again.state().expect("state").phenomena(), &phenomena);
    let reports = triage_all(&again, &plugins, 1).expect("triage again");
    assert_eq!(reports[0].tally.phenomena, 0);
    assert_eq!(reports[0].tally.duplicates, 1);
    assert_eq!(again.state().expect("state").phenomena(), &phenomena);
    assert_eq!(again.unparsed().expect("unparsed").len(), 1);
}
