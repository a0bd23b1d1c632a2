//! Accounting of model calls on a real case store, through the real client and a loopback
//! OpenAI-wire server: tokens, calls, latency and cost per agent and per round; every call an
//! `LlmCall` event; the token cap halts the run (`halted_budget`) before the next call, a grant
//! and a resumed session continue from the tokens already spent; a provider failure is the
//! caller's to handle while the run goes on.

use masf_agents::llm::{
    Accounting, CallSite, ChatMessage, ChatRequest, LLM_CALL, LlmCall, LlmError,
    MIN_COMPLETION_TOKENS, Prices, UsageReport, calls_in_store, metered_chat, prompt_token_bound,
};
use masf_agents::{Caps, Counter, Halt, RunState, RuntimeError};
use masf_testkit::{OpenAiServer, ServedRequest, Turn, text_reply};

use super::llm_client::{PATIENT_MS, client_with, policy};

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

/// The bounded `max_tokens` a request carried.
fn sent_max_tokens(req: &ServedRequest) -> u64 {
    req.body["max_tokens"].as_u64().expect("max_tokens sent")
}

/// A server whose usage honours the request: `prompt` tokens (no more than the body's bytes)
/// and `completion` tokens, or the request's `max_tokens` when that is lower.
fn honest(prompt: u64, completion: u64) -> OpenAiServer {
    OpenAiServer::start(move |req| {
        let completion = completion.min(sent_max_tokens(req));
        Turn::Reply(text_reply("noted", prompt, completion))
    })
}

fn halt_of<T: std::fmt::Debug>(r: Result<T, RuntimeError>) -> masf_agents::Exhausted {
    match r {
        Err(RuntimeError::Halted(Halt::Budget(e))) => e,
        other => panic!("expected a budget halt, got {other:?}"),
    }
}

#[test]
fn tokens_are_accounted_per_agent_and_round_and_the_cap_halts_then_resume_continues() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Every completion costs 60 prompt + 190 completion tokens.
    let server = honest(60, 190);
    let client = client_with(&server, policy(0, PATIENT_MS));
    let accounting = Accounting::new(Some(Prices {
        per_mtok_prompt: 1.0,
        per_mtok_completion: 4.0,
    }));
    let bound = prompt_token_bound("test-model", &ask());
    let needed = bound + MIN_COMPLETION_TOKENS;
    // Room for two calls, and for a third's prompt bound but not its least completion.
    let cap = 2 * 250 + needed - 1;

    let mut s = super::session(dir.path());
    let mut caps = token_caps(cap);
    caps.warn_at = vec![0.25, 0.5];
    s.set_caps(caps.clone()).expect("caps");
    s.begin_segment("run").expect("segment");
    let first = metered_chat(&s, &accounting, &client, &site("llm-chat", 1), &ask())
        .expect("running")
        .expect("reply");
    assert_eq!(first.usage.total(), 250);
    metered_chat(&s, &accounting, &client, &site("llm-docs", 2), &ask())
        .expect("running")
        .expect("reply");
    assert_eq!(s.budget().used(Counter::Tokens), 500);
    // The third call cannot be granted its least completion: refused before any request,
    // and the run halts on the token budget, under its cap.
    let halt = halt_of(metered_chat(
        &s,
        &accounting,
        &client,
        &site("llm-docs", 2),
        &ask(),
    ));
    assert_eq!(
        (halt.counter, halt.used, halt.cap, halt.needed),
        (Counter::Tokens, 500, cap, Some(needed))
    );
    assert_eq!(s.halted().map(|h| h.state()), Some(RunState::HaltedBudget));
    assert_eq!(server.requests().len(), 2, "no request past the cap");
    assert_eq!(
        s.budget().used(Counter::Tokens),
        500,
        "nothing stays set aside"
    );

    let report = accounting.report();
    assert_eq!(report.total.calls, 2);
    assert_eq!(report.total.tokens(), 500);
    assert_eq!(report.by_agent["llm-chat"].prompt_tokens, 60);
    assert_eq!(report.by_agent["llm-docs"].completion_tokens, 190);
    assert_eq!(report.by_round[&2].calls, 1);
    let cost = report.total.cost.expect("priced");
    assert!((cost - 2.0 * (60.0 + 760.0) / 1e6).abs() < 1e-12, "{cost}");
    // Each call's latency is within its time limit (milliseconds, not another unit).
    assert!(report.total.latency_ms <= 2 * PATIENT_MS);
    s.end_segment(RunState::HaltedBudget, "run", &Halt::Budget(halt).reason())
        .expect("end");
    drop(s);

    // The store holds one LlmCall per call (model and prompt version on the event, the
    // allowance it had) and the token warnings at 25 % and 50 %.
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
    assert_eq!((call.site.round, call.tokens(), call.attempts), (2, 250, 1));
    assert_eq!(call.allowed_tokens, Some(bound + 256));
    assert!(!call.over_allowance);
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
        [("tokens".to_string(), 0.25), ("tokens".to_string(), 0.5)]
    );
    drop(store);

    // Resume: the examiner grants 250 tokens; the new session continues from 500 used and
    // makes exactly one more call.
    grant_tokens(dir.path(), 250);
    let mut s = super::session(dir.path());
    s.set_caps(caps).expect("caps");
    assert_eq!(
        s.budget().used(Counter::Tokens),
        500,
        "usage survives the resume"
    );
    s.begin_segment("run").expect("segment");
    metered_chat(&s, &accounting, &client, &site("llm-chat", 3), &ask())
        .expect("running")
        .expect("reply");
    assert_eq!(s.budget().used(Counter::Tokens), 750);
    assert!(matches!(
        metered_chat(&s, &accounting, &client, &site("llm-chat", 3), &ask()),
        Err(RuntimeError::Halted(Halt::Budget(_)))
    ));
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn a_small_token_cap_is_never_passed_and_each_request_carries_its_bounded_max_tokens() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The server answers as long as it may: everything `max_tokens` allows (up to the client's
    // 256), for a prompt of a quarter of the body's bytes.
    let server = OpenAiServer::start(|req| {
        let prompt = req.raw_body.len() as u64 / 4;
        Turn::Reply(text_reply("long answer", prompt, sent_max_tokens(req)))
    });
    let client = client_with(&server, policy(0, PATIENT_MS));
    let accounting = Accounting::new(None);
    let bound = prompt_token_bound("test-model", &ask());
    let cap = 3 * bound + 500;
    let mut s = super::session(dir.path());
    s.set_caps(token_caps(cap)).expect("caps");
    s.begin_segment("run").expect("segment");
    let mut expected_max = Vec::new();
    let halt = loop {
        let used = s.budget().used(Counter::Tokens);
        let left = cap.checked_sub(used).expect("never above the cap");
        match metered_chat(&s, &accounting, &client, &site("llm-chat", 1), &ask()) {
            Ok(reply) => {
                reply.expect("reply");
                expected_max.push((left - bound).min(256));
            }
            Err(e) => break halt_of::<()>(Err(e)),
        }
        assert!(expected_max.len() < 20, "the cap never bound");
    };
    assert_eq!(halt.counter, Counter::Tokens);
    // A call was bounded below the client's own limit before the halt.
    assert!(expected_max.iter().any(|&m| m < 256), "{expected_max:?}");
    let sent: Vec<u64> = server.requests().iter().map(sent_max_tokens).collect();
    assert_eq!(
        sent, expected_max,
        "each request carries its bounded max_tokens"
    );

    let calls =
        calls_in_store(&masf_store::Store::open(dir.path()).expect("store")).expect("calls");
    assert_eq!(calls.len(), sent.len());
    for c in &calls {
        let allowed = c.allowed_tokens.expect("under a cap");
        assert!(c.tokens() <= allowed && !c.over_allowance, "{c:?}");
    }
    let total: u64 = calls.iter().map(LlmCall::tokens).sum();
    assert!(total <= cap, "{total} > {cap}");
    assert_eq!(s.budget().used(Counter::Tokens), total);
    let line = &s.budget().status().lines[3];
    assert_eq!(
        (line.name.as_str(), line.used, line.cap),
        ("tokens", total, cap)
    );
}

#[test]
fn calls_made_at_once_on_several_threads_cannot_together_pass_the_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = OpenAiServer::start(|req| {
        // Slow enough that the threads' calls overlap.
        std::thread::sleep(std::time::Duration::from_millis(30));
        Turn::Reply(text_reply("ok", 100, sent_max_tokens(req)))
    });
    let client = client_with(&server, policy(0, PATIENT_MS));
    let accounting = Accounting::new(None);
    let bound = prompt_token_bound("test-model", &ask());
    let cap = 4 * (bound + 256);
    let mut s = super::session(dir.path());
    s.set_caps(token_caps(cap)).expect("caps");
    s.begin_segment("run").expect("segment");
    std::thread::scope(|scope| {
        for t in 0..6 {
            let (s, accounting, client) = (&s, &accounting, &client);
            scope.spawn(move || {
                for _ in 0..4 {
                    let agent = format!("llm-{t}");
                    if metered_chat(s, accounting, client, &site(&agent, 1), &ask()).is_err() {
                        break;
                    }
                }
            });
        }
    });
    assert!(s.halted().is_some());
    let total = s.budget().used(Counter::Tokens);
    assert!(total <= cap, "{total} > {cap}");
    // The halt is genuine: what was spent leaves no room for another call (a call that only
    // met another's hold waited for it instead of halting the run).
    assert!(
        total + bound + MIN_COMPLETION_TOKENS > cap,
        "{total} of {cap}"
    );
    assert_eq!(accounting.report().total.tokens(), total);
    assert!(server.requests().len() >= 4, "{}", server.requests().len());
}

#[test]
fn a_call_whose_prompt_alone_does_not_fit_is_refused_without_contacting_the_server() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = honest(10, 10);
    let client = client_with(&server, policy(0, PATIENT_MS));
    let accounting = Accounting::new(None);
    let bound = prompt_token_bound("test-model", &ask());
    let cap = bound + MIN_COMPLETION_TOKENS - 1;
    let mut s = super::session(dir.path());
    s.set_caps(token_caps(cap)).expect("caps");
    s.begin_segment("run").expect("segment");
    let halt = halt_of(metered_chat(
        &s,
        &accounting,
        &client,
        &site("llm-chat", 1),
        &ask(),
    ));
    assert_eq!(
        (halt.counter, halt.used, halt.cap, halt.needed),
        (Counter::Tokens, 0, cap, Some(bound + MIN_COMPLETION_TOKENS))
    );
    assert!(
        Halt::Budget(halt.clone())
            .reason()
            .contains("needs at least")
    );
    assert_eq!(s.halted().map(|h| h.state()), Some(RunState::HaltedBudget));
    assert!(server.requests().is_empty(), "the server was not contacted");
    assert_eq!(server.connections(), 0);
    assert_eq!(s.budget().used(Counter::Tokens), 0);
    assert_eq!(accounting.report().total.calls, 0);
    let store = masf_store::Store::open(dir.path()).expect("store");
    assert!(store.events_of_kind(LLM_CALL).expect("events").is_empty());
}

#[test]
fn a_provider_reporting_more_than_max_tokens_allowed_is_recorded_and_halts_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A provider that ignores max_tokens: 50 completion tokens more than allowed.
    let server = OpenAiServer::start(|req| {
        Turn::Reply(text_reply(
            "ignored the limit",
            20,
            sent_max_tokens(req) + 50,
        ))
    });
    let client = client_with(&server, policy(0, PATIENT_MS));
    let accounting = Accounting::new(None);
    let bound = prompt_token_bound("test-model", &ask());
    let cap = 10 * (bound + 256);
    let mut s = super::session(dir.path());
    s.set_caps(token_caps(cap)).expect("caps");
    s.begin_segment("run").expect("segment");
    let halt = halt_of(metered_chat(
        &s,
        &accounting,
        &client,
        &site("llm-chat", 1),
        &ask(),
    ));
    let allowed = bound + 256;
    assert_eq!(halt.counter, Counter::Tokens);
    assert_eq!(halt.overrun, Some((allowed, 20 + 256 + 50)));
    assert_eq!(halt.used, 20 + 256 + 50, "what was reported is charged");
    assert!(Halt::Budget(halt).reason().contains("charged"));
    assert_eq!(s.halted().map(|h| h.state()), Some(RunState::HaltedBudget));
    // The next call is refused without a request.
    assert!(matches!(
        metered_chat(&s, &accounting, &client, &site("llm-chat", 1), &ask()),
        Err(RuntimeError::Halted(Halt::Budget(_)))
    ));
    assert_eq!(server.requests().len(), 1);
    drop(s);
    let calls =
        calls_in_store(&masf_store::Store::open(dir.path()).expect("store")).expect("calls");
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].allowed_tokens, Some(allowed));
    assert!(calls[0].over_allowance, "{:?}", calls[0]);
    assert_eq!(calls[0].tokens(), 20 + 256 + 50);
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
    let client = client_with(&server, policy(1, PATIENT_MS));
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
