//! Accounting of model calls on a real case store, through the real client and a loopback
//! OpenAI-wire server: tokens, calls, latency and cost per agent and per round; every call an
//! `LlmCall` event; the token cap halts the run (`halted_budget`) before the next call, a grant
//! and a resumed session continue from the tokens already spent; a provider failure is the
//! caller's to handle while the run goes on.

use masf_agents::llm::{
    Accounting, CallSite, ChatMessage, ChatRequest, LLM_CALL, LlmCall, LlmError, Prices,
    UsageReport, calls_in_store, metered_chat,
};
use masf_agents::{Caps, Counter, Halt, RunState, RuntimeError};
use masf_testkit::{OpenAiServer, Turn, text_reply};

use super::llm_client::{client_with, policy};

fn site(agent: &str, round: u32) -> CallSite {
    CallSite {
        agent: agent.into(),
        task_id: format!("{agent}/task"),
        round,
        prompt_version: "agent-test@1".into(),
    }
}

fn ask() -> ChatRequest {
    ChatRequest {
        messages: vec![ChatMessage::user("read this")],
        ..ChatRequest::default()
    }
}

fn token_caps(tokens: u64) -> Caps {
    Caps {
        tool_calls: 0,
        rounds: 0,
        wall_clock_s: 0,
        tokens,
        warn_at: vec![0.5, 0.9],
    }
}

fn grant_tokens(dir: &std::path::Path, amount: u64) {
    let mut store = masf_store::Store::open(dir).expect("store");
    store
        .append(&masf_store::NewEvent {
            kind: "BudgetGranted".into(),
            payload: serde_json::to_value(masf_agents::BudgetGranted {
                counter: Counter::Tokens,
                amount,
                by: "examiner".into(),
                reason: "more tokens".into(),
            })
            .expect("json"),
            actor_kind: masf_store::ActorKind::Examiner,
            actor_id: "examiner".into(),
            idempotency_key: format!("grant-tokens-{amount}"),
            causation_seq: None,
            ts: jiff::Timestamp::from_second(1_764_000_100).expect("time"),
            versions: Default::default(),
        })
        .expect("grant");
}

#[test]
fn tokens_are_accounted_per_agent_and_round_and_the_cap_halts_then_resume_continues() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Every completion costs 60 prompt + 10 completion tokens.
    let server = OpenAiServer::start(|_| Turn::Reply(text_reply("noted", 60, 10)));
    let client = client_with(&server, policy(0, 2000));
    let accounting = Accounting::new(Some(Prices {
        per_mtok_prompt: 1.0,
        per_mtok_completion: 4.0,
    }));

    let mut s = super::session(dir.path());
    s.set_caps(token_caps(100)).expect("caps");
    s.begin_segment("run").expect("segment");
    let first = metered_chat(&s, &accounting, &client, &site("llm-chat", 1), &ask())
        .expect("running")
        .expect("reply");
    assert_eq!(first.usage.total(), 70);
    // 70 of 100: under the cap, so the next call is made (and spends past it).
    metered_chat(&s, &accounting, &client, &site("llm-docs", 2), &ask())
        .expect("running")
        .expect("reply");
    assert_eq!(s.budget().used(Counter::Tokens), 140);
    // At the cap: refused before any request, and the run halts on the token budget.
    let refused = metered_chat(&s, &accounting, &client, &site("llm-docs", 2), &ask());
    let halt = match refused {
        Err(RuntimeError::Halted(h)) => h,
        other => panic!("expected a budget halt, got {other:?}"),
    };
    assert!(
        matches!(&halt, Halt::Budget(e) if e.counter == Counter::Tokens && e.used == 140 && e.cap == 100),
        "{halt:?}"
    );
    assert_eq!(halt.state(), RunState::HaltedBudget);
    assert_eq!(server.requests().len(), 2, "no request past the cap");

    let report = accounting.report();
    assert_eq!(report.total.calls, 2);
    assert_eq!(report.total.tokens(), 140);
    assert_eq!(report.by_agent["llm-chat"].prompt_tokens, 60);
    assert_eq!(report.by_agent["llm-docs"].completion_tokens, 10);
    assert_eq!(report.by_round[&2].calls, 1);
    let cost = report.total.cost.expect("priced");
    assert!((cost - 2.0 * (60.0 + 40.0) / 1e6).abs() < 1e-12, "{cost}");
    assert!(report.total.latency_ms <= 2 * 2000);
    s.end_segment(RunState::HaltedBudget, "run", &halt.reason())
        .expect("end");
    drop(s);

    // The store holds one LlmCall per call (model and prompt version on the event) and the
    // token warnings at 50 % and 90 %.
    let store = masf_store::Store::open(dir.path()).expect("store");
    let calls = store.events_of_kind(LLM_CALL).expect("events");
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].actor_id, "llm-chat");
    assert_eq!(
        calls[0].versions.get("model").map(String::as_str),
        Some("test-model")
    );
    assert_eq!(
        calls[0].versions.get("prompt").map(String::as_str),
        Some("agent-test@1")
    );
    let call: LlmCall = serde_json::from_value(calls[1].payload.clone()).expect("payload");
    // The accounting folded back from the store equals the live one.
    let stored = calls_in_store(&store).expect("calls");
    assert_eq!(UsageReport::from_calls(&stored), report);
    assert_eq!((call.site.round, call.tokens(), call.attempts), (2, 70, 1));
    let warned: Vec<(String, f64)> = store
        .events_of_kind("BudgetWarning")
        .expect("events")
        .iter()
        .map(|e| {
            (
                e.payload["counter"].as_str().unwrap_or("").to_string(),
                e.payload["level"].as_f64().unwrap_or(0.0),
            )
        })
        .collect();
    assert_eq!(
        warned,
        [("tokens".to_string(), 0.5), ("tokens".to_string(), 0.9)]
    );
    drop(store);

    // Resume: the examiner grants 100 tokens; the new session continues from 140 used.
    grant_tokens(dir.path(), 100);
    let mut s = super::session(dir.path());
    s.set_caps(token_caps(100)).expect("caps");
    assert_eq!(
        s.budget().used(Counter::Tokens),
        140,
        "usage survives the resume"
    );
    s.begin_segment("run").expect("segment");
    metered_chat(&s, &accounting, &client, &site("llm-chat", 3), &ask())
        .expect("running")
        .expect("reply");
    assert_eq!(s.budget().used(Counter::Tokens), 210);
    assert!(matches!(
        metered_chat(&s, &accounting, &client, &site("llm-chat", 3), &ask()),
        Err(RuntimeError::Halted(Halt::Budget(_)))
    ));
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn a_provider_failure_is_recorded_and_left_to_the_caller_while_the_run_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = OpenAiServer::start(|req| {
        if req.index < 2 {
            Turn::Status {
                code: 502,
                retry_after: None,
                body: "bad gateway".into(),
            }
        } else {
            Turn::Reply(text_reply("ok", 5, 5))
        }
    });
    let client = client_with(&server, policy(1, 2000));
    let accounting = Accounting::new(None);
    let mut s = super::session(dir.path());
    s.set_caps(token_caps(1000)).expect("caps");
    s.begin_segment("run").expect("segment");
    let failed = metered_chat(&s, &accounting, &client, &site("llm-chat", 1), &ask())
        .expect("the run is not halted by a provider failure");
    assert!(
        matches!(&failed, Err(LlmError::RetriesExhausted { attempts: 2, last })
            if matches!(**last, LlmError::Server { status: 502, .. })),
        "{failed:?}"
    );
    assert!(s.halted().is_none());
    // The next agent's call goes through.
    let ok = metered_chat(&s, &accounting, &client, &site("llm-docs", 1), &ask())
        .expect("running")
        .expect("reply");
    assert_eq!(ok.usage.total(), 10);
    let report = accounting.report();
    assert_eq!((report.total.calls, report.total.failed), (2, 1));
    assert_eq!(report.total.attempts, 3);
    assert_eq!(report.by_agent["llm-chat"].failed, 1);
    assert_eq!(report.total.cost, None, "no prices configured");
    drop(s);
    let store = masf_store::Store::open(dir.path()).expect("store");
    let calls: Vec<LlmCall> = store
        .events_of_kind(LLM_CALL)
        .expect("events")
        .iter()
        .filter_map(|e| serde_json::from_value(e.payload.clone()).ok())
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].error.as_deref(), Some("server"));
    assert_eq!((calls[0].tokens(), calls[0].attempts), (0, 2));
    assert_eq!(calls[1].error, None);
}
