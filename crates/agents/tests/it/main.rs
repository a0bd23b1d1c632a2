//! The runtime on a real case store and the demo iPhone extraction, with a small plugin defined
//! here that uses only catalog tools.

mod llm;
mod llm_client;
mod llm_usage;

use std::path::PathBuf;
use std::sync::Arc;

use masf_agents::{
    AgentCtx, Detection, DeviceType, PhenomenonDraft, Plugin, Plugins, RuntimeError, Session,
    SourceInfo, Typing, triage_all,
};
use masf_evidence::scan::Scan;
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
    fn typing(&self, scan: &Scan) -> Option<DeviceType> {
        scan.file_systems()
            .iter()
            .any(|f| f.fs.stat("/private/var/mobile/Library/SMS/sms.db").is_ok())
            .then(|| DeviceType {
                name: "ios_extraction",
                reasons: vec!["holds sms.db".into()],
            })
    }
    fn detect(&self, _source: &SourceCtx, typed: &Typing) -> Option<Detection> {
        (typed.evidence_type == "ios_extraction").then(|| Detection {
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
                region: None,
                password_env: None,
            },
            SourceInfo {
                id: "src-screens".into(),
                label: "screens".into(),
                path: demo("screenshots"),
                owner: None,
                timezone: "Asia/Hong_Kong".into(),
                region: None,
                password_env: None,
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
    // without a media plugin nothing recognises the screenshots: they are the folder they are
    assert_eq!(
        reports[1].reasons,
        ["no plugin fits a source sniffed as folder"]
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

fn caps(tool_calls: u64) -> masf_agents::Caps {
    masf_agents::Caps {
        tool_calls,
        rounds: 0,
        wall_clock_s: 0,
        tokens: 0,
        warn_at: vec![0.5, 0.9],
    }
}

#[test]
fn a_tool_call_cap_halts_triage_and_a_grant_lets_it_finish() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plugins = Plugins::new(vec![Arc::new(FindSms)]);
    let mut s = session(dir.path());
    s.set_caps(caps(1)).expect("caps");
    s.begin_segment("triage").expect("segment");
    let reports = triage_all(&s, &plugins, 1).expect("triage");
    let halt = s.halted().expect("halted at the cap");
    assert!(
        matches!(&halt, masf_agents::Halt::Budget(e) if e.counter == masf_agents::Counter::ToolCalls && e.cap == 1),
        "{halt:?}"
    );
    assert_eq!(reports[0].halted.as_ref(), Some(&halt));
    // The one allowed call was made and its phenomenon recorded; the second call was refused.
    assert_eq!(reports[0].tally.tool_calls, 1);
    assert_eq!(reports[0].tally.phenomena, 1);
    s.end_segment(
        masf_agents::RunState::HaltedBudget,
        "triage",
        &halt.reason(),
    )
    .expect("end");
    drop(s);

    // The one call crossed both warning levels: one event each, recorded once.
    let store = masf_store::Store::open(dir.path()).expect("store");
    let levels: Vec<f64> = store
        .events_of_kind("BudgetWarning")
        .expect("events")
        .iter()
        .map(|e| e.payload["level"].as_f64().expect("level"))
        .collect();
    assert_eq!(levels, [0.5, 0.9]);
    drop(store);

    // The examiner grants 10 more calls; the resumed run finishes without repeating work.
    {
        let mut store = masf_store::Store::open(dir.path()).expect("store");
        masf_agents::run::record_grants(
            &mut store,
            &[(masf_agents::Counter::ToolCalls, 10)],
            "examiner",
            "test",
            jiff::Timestamp::from_second(1_764_000_100).expect("time"),
        )
        .expect("grant");
    }
    let mut s = session(dir.path());
    s.set_caps(caps(1)).expect("caps");
    assert_eq!(s.budget().used(masf_agents::Counter::ToolCalls), 1);
    assert_eq!(s.begin_segment("triage").expect("segment"), 2);
    let reports = triage_all(&s, &plugins, 1).expect("triage");
    assert!(s.halted().is_none());
    assert_eq!(
        reports[0].tally.phenomena, 0,
        "recorded in the first segment"
    );
    assert_eq!(reports[0].tally.duplicates, 1);
    assert_eq!(reports[0].tally.rejections, 1);
    assert_eq!(s.state().expect("state").phenomena().len(), 1);
}

#[test]
fn a_pause_asked_by_another_process_stops_the_run_at_the_next_call() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = session(dir.path());
    s.begin_segment("triage").expect("segment");
    s.check_running().expect("running");
    // Another process (its own connection) asks for a pause.
    let mut other = masf_store::Store::open(dir.path()).expect("store");
    let at = jiff::Timestamp::from_second(1_764_000_100).expect("time");
    masf_agents::run::request_pause(&mut other, "examiner", "lunch", at).expect("pause");
    let asked = other.events_of_kind("RunControl").expect("events");
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].actor_id, "examiner");
    assert_eq!(asked[0].payload["reason"], "lunch");
    std::thread::sleep(std::time::Duration::from_millis(250));
    let plugins = Plugins::new(vec![Arc::new(FindSms)]);
    let reports = triage_all(&s, &plugins, 1).expect("triage");
    assert_eq!(s.halted(), Some(masf_agents::Halt::Paused));
    assert_eq!(reports[0].tally.tool_calls, 0);
    assert_eq!(reports[0].halted, Some(masf_agents::Halt::Paused));
    s.end_segment(masf_agents::RunState::Paused, "triage", "paused")
        .expect("end");
    let run = masf_agents::RunProjection::load(&other).expect("projection");
    assert_eq!(run.state, Some(masf_agents::RunState::Paused));
    assert!(!run.pause_pending());
}

/// Records the iPhone's mention of an e-mail address, found with search_text.
struct FindAddress;

impl Plugin for FindAddress {
    fn name(&self) -> &'static str {
        "find-address"
    }
    fn typing(&self, scan: &Scan) -> Option<DeviceType> {
        FindSms.typing(scan)
    }
    fn detect(&self, source: &SourceCtx, typed: &Typing) -> Option<Detection> {
        FindSms.detect(source, typed)
    }
    fn expected_artefacts(&self) -> Vec<ExpectedArtefact> {
        Vec::new()
    }
    fn categorise(&self, _path: &str) -> Option<&'static str> {
        None
    }
    fn triage(&self, ctx: &AgentCtx<'_>) -> Result<(), RuntimeError> {
        let found = ctx.call(
            "search_text",
            json!({"patterns": ["yl.leung@example.com"], "path": "/private/var/mobile/Library/SMS"}),
        )?;
        let path = found
            .output
            .text
            .lines()
            .next()
            .and_then(|l| l.split('\t').next());
        let path = path
            .expect("the iPhone's messages mention the address")
            .to_string();
        let cite = |t, v: &str| FactClaim {
            fact_type: t,
            value: v.into(),
            invocation_id: found.record.invocation_id.clone(),
        };
        ctx.record(PhenomenonDraft {
            category: "messages".into(),
            title: "messages with yl.leung@example.com".into(),
            facts: vec![
                cite(FactType::Path, &path),
                cite(FactType::Email, "yl.leung@example.com"),
            ],
            interpretation: String::new(),
            times: vec![],
        })?;
        Ok(())
    }
}

/// Hypothesises a contact from every `messages` phenomenon and links it (prior 0.1, so one
/// `supports` edge leaves it active).
struct ContactPlanner;

impl masf_agents::Planner for ContactPlanner {
    fn name(&self) -> &'static str {
        "test-planner"
    }
    fn plan(&self, state: &masf_graph::GraphState, _: &[SourceInfo]) -> Vec<masf_graph::Call> {
        let statement = "The iPhone's user was in contact with yl.leung@example.com";
        let Some(h) = state
            .hypotheses()
            .values()
            .find(|h| h.statement == statement)
        else {
            return vec![masf_graph::Call::AddHypothesis(masf_graph::NewHypothesis {
                proposed_by: "test-planner".into(),
                statement: statement.into(),
                kind: masf_graph::HypothesisKind::Activity,
                prior: Some(0.1),
                subjects: Vec::new(),
            })];
        };
        state
            .phenomena()
            .values()
            .filter(|p| p.category == "messages")
            .filter(|p| !h.edges.iter().any(|e| e.phenomenon_id == p.id))
            .map(|p| {
                masf_graph::Call::Link(masf_graph::LinkRequest {
                    agent: "test-planner".into(),
                    task_id: None,
                    phenomenon_id: p.id.clone(),
                    hypothesis_id: h.id.clone(),
                    edge_type: masf_graph::EdgeType::Supports,
                })
            })
            .collect()
    }
}

fn usb_session(dir: &std::path::Path) -> Session {
    let plugins = Plugins::new(vec![Arc::new(FindAddress)]);
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
                region: None,
                password_env: None,
            },
            SourceInfo {
                id: "src-usb".into(),
                label: "USB".into(),
                path: demo("usb.E01"),
                owner: None,
                timezone: "Asia/Hong_Kong".into(),
                region: None,
                password_env: None,
            },
        ],
        Arc::new(|| jiff::Timestamp::from_second(1_764_000_000).expect("time")),
    )
    .expect("session opens")
}

#[test]
fn the_strategist_corroborates_a_single_source_hypothesis_then_declares_completion() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plugins = Plugins::new(vec![Arc::new(FindAddress)]);
    let s = usb_session(dir.path());
    let orchestrator = masf_agents::Orchestrator {
        session: &s,
        plugins: &plugins,
        planners: vec![Box::new(ContactPlanner)],
        limits: masf_agents::strategist::Limits {
            max_rounds: 5,
            max_leads: 3,
            zero_yield_rounds_to_stop: 2,
        },
        parallelism: 2,
        llm: None,
    };
    let mut summary = masf_agents::RunSummary {
        triage: Vec::new(),
        planned: 0,
        rounds: Vec::new(),
        completion: String::new(),
        llm_tasks: Vec::new(),
        strategist_reports: Vec::new(),
    };
    orchestrator.run(&mut summary).expect("run");
    assert_eq!(summary.planned, 2, "one hypothesis, one link");
    assert_eq!(summary.rounds.len(), 1, "{summary:?}");
    let round = &summary.rounds[0];
    assert_eq!(round.leads.len(), 1);
    assert_eq!(round.leads[0].1, "corroborator");
    assert_eq!(round.leads[0].2, "1 file(s) with its identifiers recorded");
    assert_eq!(
        summary.completion,
        "no hypothesis needs more evidence that a lead could bring"
    );

    let state = s.state().expect("state");
    let found = state
        .phenomena()
        .values()
        .find(|p| p.category == "corroboration")
        .expect("a corroboration phenomenon");
    assert_eq!(found.source_id, "src-usb");
    assert_eq!(found.title, "yl.leung@example.com found in /notes.txt");
    let r = &state.rounds()[&1];
    assert!(!r.is_open());
    assert_eq!(r.new_phenomena, 1);
    assert!(
        state
            .leads()
            .values()
            .all(|l| l.status == masf_graph::LeadStatus::Done)
    );
    drop(state);

    // What the strategist read is in the invocation log, on the case pseudo-source.
    let store = masf_store::Store::open(dir.path()).expect("store");
    let views: Vec<String> = store
        .all_invocations()
        .expect("invocations")
        .into_iter()
        .filter(|i| i.source_id == "(case)")
        .map(|i| format!("{} {}", i.task_id, i.tool))
        .collect();
    assert_eq!(
        views,
        [
            "round-1 graph_overview",
            "round-1 source_coverage",
            "round-1 marginal_yield",
            "round-1 budget_status",
            "round-2 graph_overview",
            "round-2 source_coverage",
            "round-2 marginal_yield",
            "round-2 budget_status",
        ]
    );
    drop(store);

    // Run again on the same store: nothing new, no new round.
    let again = usb_session(dir.path());
    let orchestrator = masf_agents::Orchestrator {
        session: &again,
        plugins: &plugins,
        planners: vec![Box::new(ContactPlanner)],
        limits: masf_agents::strategist::Limits {
            max_rounds: 5,
            max_leads: 3,
            zero_yield_rounds_to_stop: 2,
        },
        parallelism: 1,
        llm: None,
    };
    let mut second = masf_agents::RunSummary {
        triage: Vec::new(),
        planned: 0,
        rounds: Vec::new(),
        completion: String::new(),
        llm_tasks: Vec::new(),
        strategist_reports: Vec::new(),
    };
    orchestrator.run(&mut second).expect("second run");
    assert_eq!(second.planned, 0);
    assert!(second.rounds.is_empty());
    assert_eq!(again.state().expect("state").phenomena().len(), 2);
}

/// Issue 24's second line of defence: two sessions on one store (two processes, or a run and
/// an examiner's decision) each fold the graph, then record. The second to write judged its
/// request on a graph that lacks the first one's record: its batch is refused inside the write
/// transaction, it catches up and is judged again, so no id ever names two records.
#[test]
fn two_sessions_on_one_store_never_give_one_id_to_two_records() {
    let dir = tempfile::tempdir().expect("tempdir");
    let first = session(dir.path());
    let second = session(dir.path());
    let record = |s: &Session, agent: &str, title: &str| {
        let ctx = AgentCtx::new(s, agent, &format!("task/{agent}"), "src-iphone").expect("ctx");
        let found = ctx
            .call("find_files", json!({"name_glob": "sms.db"}))
            .expect("find_files");
        let path = found
            .output
            .text
            .lines()
            .find_map(|l| l.rsplit('\t').next().filter(|p| p.ends_with("/sms.db")))
            .expect("the demo iPhone has sms.db")
            .to_string();
        ctx.record(PhenomenonDraft {
            category: "messages".into(),
            title: title.into(),
            facts: vec![FactClaim {
                fact_type: FactType::Path,
                value: path,
                invocation_id: found.record.invocation_id.clone(),
            }],
            interpretation: String::new(),
            times: vec![],
        })
        .expect("record")
    };
    // Both sessions folded the empty graph before either recorded anything.
    let one = record(&first, "agent-one", "sms.db seen by one");
    let two = record(&second, "agent-two", "sms.db seen by two");
    let id = |v: &Verdict| match v {
        Verdict::Accepted { id, .. } => id.clone(),
        other => panic!("expected an accepted phenomenon, got {other:?}"),
    };
    assert_eq!(id(&one), "ph-000001");
    assert_eq!(id(&two), "ph-000002", "the second writer caught up");
    // The second session's graph holds both records; the first learns of the second's at its
    // next write.
    assert_eq!(second.state().expect("state").phenomena().len(), 2);
    assert_eq!(first.state().expect("state").phenomena().len(), 1);
    let three = record(&first, "agent-one", "sms.db seen by one again");
    assert_eq!(id(&three), "ph-000003");
    assert_eq!(first.state().expect("state").phenomena().len(), 3);

    let store = masf_store::Store::open(dir.path()).expect("store");
    let check = masf_tools::consistency::check(&store, Scoring::default()).expect("check");
    assert!(check.ok(), "{:?}", check.problems);
    let recorded = store.events_of_kind("PhenomenonRecorded").expect("events");
    let ids: Vec<&str> = recorded
        .iter()
        .filter_map(|e| e.payload["phenomenon"]["id"].as_str())
        .collect();
    assert_eq!(ids, ["ph-000001", "ph-000002", "ph-000003"]);
}
