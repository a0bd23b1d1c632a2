//! The LLM client against a real HTTP/1.1 server on loopback (masf-testkit) speaking the OpenAI
//! wire format: the request it sends, and every provider failure — timeouts, 429 with
//! Retry-After, 5xx, refusals, malformed JSON, truncated bodies, dropped connections — retried
//! within bounds and then reported as a typed error. The key is sent and never shown.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use masf_agents::llm::{
    ChatMessage, ChatModel, ChatRequest, Jitter, LlmClient, LlmError, RetryPolicy, ToolChoice,
    ToolSpec,
};
use masf_case::LlmProvider;
use masf_testkit::{OpenAiServer, Turn, text_reply, tool_calls_reply};
use serde_json::json;

pub const KEY: &str = "sk-masf-test-3f9a1c77e2b54d0c";
pub const KEY_VAR: &str = "MASF_TEST_LLM_KEY";

/// A time limit that no answer over loopback comes near, even on a machine busy with builds:
/// the tests whose server answers never see it fire.
pub const PATIENT_MS: u64 = 10 * 60_000;
/// The limit of the tests whose server never answers, so that it fires every time whatever the
/// machine's speed; long enough for each request to reach the server, which they count.
const NEVER_ANSWERED_MS: u64 = 1_000;
/// The limit of the tests where one attempt times out (its request is never answered) and the
/// next must answer within it: far above a loopback answer on a loaded machine.
const RESCUED_MS: u64 = 10_000;
/// How long the server holds a request it never answers: until it stops at the test's end.
const NEVER_MS: u64 = 60 * 60_000;

pub fn policy(max_retries: u32, timeout_ms: u64) -> RetryPolicy {
    RetryPolicy {
        max_retries,
        timeout: Duration::from_millis(timeout_ms),
        connect_timeout: Duration::from_millis(timeout_ms),
        base_delay: Duration::from_millis(40),
        max_delay: Duration::from_millis(160),
        retry_after_cap: Duration::from_millis(1500),
        seed: 42,
    }
}

pub fn llm_config(base_url: &str) -> masf_case::LlmConfig {
    let mut cfg = masf_case::Config::default().llm;
    cfg.provider = LlmProvider::OpenaiCompatible;
    cfg.base_url = Some(base_url.to_string());
    cfg.model = Some("test-model".into());
    cfg.api_key_env = Some(KEY_VAR.into());
    cfg.max_tokens = 256;
    cfg
}

pub fn client_with(server: &OpenAiServer, policy: RetryPolicy) -> LlmClient {
    let env = |k: &str| (k == KEY_VAR).then(|| KEY.to_string());
    LlmClient::from_config(&llm_config(&server.base_url()), &env)
        .expect("valid config")
        .expect("a client for openai_compatible")
        .with_policy(policy)
}

fn hello() -> ChatRequest {
    ChatRequest {
        messages: vec![
            ChatMessage::system("You are a test."),
            ChatMessage::user("hi"),
        ],
        ..ChatRequest::default()
    }
}

/// Waits until the server has recorded `n` requests (its thread may read a request after the
/// client gave up on it), with a ceiling of minutes; then how many it has.
fn requests_once_in(server: &OpenAiServer, n: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(600);
    while server.requests().len() < n && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    server.requests().len()
}

/// The failure at the end of the retries, and how many attempts were made.
fn exhausted(r: Result<masf_agents::llm::ChatResponse, LlmError>) -> (LlmError, u32) {
    match r {
        Err(LlmError::RetriesExhausted { last, attempts }) => (*last, attempts),
        other => panic!("expected exhausted retries, got {other:?}"),
    }
}

#[test]
fn a_reply_arrives_with_usage_and_the_request_is_openai_shaped() {
    let server = OpenAiServer::start(|_| {
        Turn::Reply(tool_calls_reply(
            &[("call_7", "find_files", json!({"name_glob": "sms.db"}))],
            120,
            17,
        ))
    });
    let client = client_with(&server, policy(0, PATIENT_MS));
    let req = ChatRequest {
        messages: vec![
            ChatMessage::system("sys"),
            ChatMessage::user("find the message database"),
        ],
        tools: vec![ToolSpec {
            name: "find_files".into(),
            description: "Find files by glob".into(),
            parameters: json!({"type": "object", "properties": {"name_glob": {"type": "string"}}}),
        }],
        tool_choice: ToolChoice::Required,
        max_tokens: Some(1000),
    };
    let r = client.chat(&req).expect("reply");
    assert_eq!(r.attempts, 1);
    assert_eq!(r.model, "testkit-model");
    assert_eq!(r.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(
        (r.usage.prompt_tokens, r.usage.completion_tokens),
        (120, 17)
    );
    assert!(!r.usage.estimated);
    assert_eq!(r.message.tool_calls.len(), 1);
    assert_eq!(r.message.tool_calls[0].id, "call_7");
    assert_eq!(
        r.message.tool_calls[0].arguments,
        r#"{"name_glob":"sms.db"}"#
    );

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let sent = &reqs[0];
    assert_eq!(
        (sent.method.as_str(), sent.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(
        sent.header("authorization"),
        Some(&*format!("Bearer {KEY}"))
    );
    assert_eq!(sent.body["model"], "test-model");
    assert_eq!(sent.body["max_tokens"], 256, "capped at llm.max_tokens");
    assert_eq!(sent.body["tool_choice"], "required");
    assert_eq!(sent.tool_names(), ["find_files"]);
    assert_eq!(sent.messages()[1]["content"], "find the message database");
    assert_eq!(client.model_id(), "test-model");
}

#[test]
fn timeouts_are_retried_a_bounded_number_of_times_then_reported() {
    // A server that never answers: every attempt times out, however fast the machine is.
    let server = OpenAiServer::start(|_| Turn::Delay {
        ms: NEVER_MS,
        then: Box::new(Turn::Reply(text_reply("late", 1, 1))),
    });
    let client = client_with(&server, policy(2, NEVER_ANSWERED_MS));
    let started = Instant::now();
    let (last, attempts) = exhausted(client.chat(&hello()));
    let elapsed = started.elapsed();
    assert_eq!(
        last,
        LlmError::Timeout {
            after_ms: NEVER_ANSWERED_MS
        }
    );
    assert_eq!(attempts, 3);
    assert_eq!(requests_once_in(&server, 3), 3, "one request per attempt");
    // Each attempt waited out its whole limit (a lower bound: a slow machine only adds to it).
    assert!(
        elapsed >= Duration::from_millis(3 * NEVER_ANSWERED_MS),
        "{elapsed:?}"
    );
}

#[test]
fn a_slow_answer_is_abandoned_and_the_retry_succeeds() {
    let server = OpenAiServer::start(|req| {
        if req.index == 0 {
            Turn::Delay {
                ms: NEVER_MS,
                then: Box::new(Turn::Reply(text_reply("late", 1, 1))),
            }
        } else {
            Turn::Reply(text_reply("on time", 9, 2))
        }
    });
    let r = client_with(&server, policy(2, RESCUED_MS))
        .chat(&hello())
        .expect("second attempt");
    assert_eq!(r.attempts, 2);
    assert_eq!(r.message.text(), "on time");
}

#[test]
fn a_429_waits_for_retry_after_and_then_succeeds() {
    let server = OpenAiServer::start(|req| {
        if req.index == 0 {
            Turn::Status {
                code: 429,
                retry_after: Some(1),
                body: r#"{"error":{"message":"rate limit"}}"#.into(),
            }
        } else {
            Turn::Reply(text_reply("ok", 3, 1))
        }
    });
    let started = Instant::now();
    let r = client_with(&server, policy(3, PATIENT_MS))
        .chat(&hello())
        .expect("after the wait");
    let elapsed = started.elapsed();
    assert_eq!(r.attempts, 2);
    // A lower bound: a slow machine only adds to it.
    assert!(
        elapsed >= Duration::from_secs(1),
        "Retry-After honoured: {elapsed:?}"
    );
}

#[test]
fn a_long_retry_after_is_capped_and_persistent_429s_are_reported() {
    let server = OpenAiServer::start(|_| Turn::Status {
        code: 429,
        retry_after: Some(3600),
        body: String::new(),
    });
    let mut p = policy(2, PATIENT_MS);
    p.retry_after_cap = Duration::from_millis(100);
    let started = Instant::now();
    let ((last, attempts), log) = logged(|| exhausted(client_with(&server, p).chat(&hello())));
    let elapsed = started.elapsed();
    assert_eq!(
        last,
        LlmError::RateLimited {
            retry_after_s: Some(3600)
        }
    );
    assert_eq!(attempts, 3);
    // Two waits, each the cap, not the hour the server asked for (as the client logged them).
    let waits: Vec<&str> = log.lines().filter(|l| l.contains("retrying")).collect();
    assert_eq!(waits.len(), 2, "{log}");
    assert!(waits.iter().all(|l| l.contains("wait_ms=100")), "{log}");
    assert!(
        elapsed >= Duration::from_millis(200),
        "two capped waits: {elapsed:?}"
    );
}

#[test]
fn server_errors_back_off_on_the_seeded_schedule_and_are_bounded() {
    let arrivals = Arc::new(Mutex::new(Vec::<Instant>::new()));
    let seen = Arc::clone(&arrivals);
    let server = OpenAiServer::start(move |_| {
        if let Ok(mut a) = seen.lock() {
            a.push(Instant::now());
        }
        Turn::Status {
            code: 500,
            retry_after: None,
            body: "boom: upstream overloaded".into(),
        }
    });
    let p = policy(3, PATIENT_MS);
    let (last, attempts) = exhausted(client_with(&server, p.clone()).chat(&hello()));
    assert_eq!(attempts, 4);
    match &last {
        LlmError::Server { status, excerpt } => {
            assert_eq!(*status, 500);
            assert!(excerpt.contains("boom"), "{excerpt}");
        }
        other => panic!("expected a server error, got {other:?}"),
    }
    let arrivals = arrivals.lock().expect("arrivals").clone();
    assert_eq!(arrivals.len(), 4);
    // The waits between attempts follow the policy's schedule for its seed (base 40 ms doubling,
    // capped at 160 ms, equal jitter): never shorter (a lower bound: a slow machine only adds to
    // each gap; the schedule itself is checked exactly by the client's unit tests).
    let mut jitter = Jitter::new(p.seed);
    for (i, pair) in arrivals.windows(2).enumerate() {
        let expected = p.backoff(i as u32 + 1, &mut jitter);
        let gap = pair[1] - pair[0];
        assert!(
            gap >= expected,
            "retry {}: waited {gap:?} < {expected:?}",
            i + 1
        );
    }
}

#[test]
fn a_refusal_is_not_retried() {
    let server = OpenAiServer::start(|_| Turn::Status {
        code: 401,
        retry_after: None,
        body: r#"{"error":{"message":"invalid api key"}}"#.into(),
    });
    let r = client_with(&server, policy(3, PATIENT_MS)).chat(&hello());
    assert!(
        matches!(&r, Err(LlmError::Refused { status: 401, excerpt }) if excerpt.contains("invalid api key")),
        "{r:?}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn malformed_completions_are_retried_then_reported() {
    let server = OpenAiServer::start(|req| match req.index {
        0 => Turn::MalformedBody("{\"choices\": [".into()),
        1 => Turn::MalformedBody(r#"{"choices": []}"#.into()),
        _ => Turn::Reply(text_reply("fine", 2, 1)),
    });
    let r = client_with(&server, policy(2, PATIENT_MS))
        .chat(&hello())
        .expect("third attempt");
    assert_eq!(r.attempts, 3);

    let server = OpenAiServer::start(|_| Turn::MalformedBody("<html>gateway</html>".into()));
    let (last, attempts) = exhausted(client_with(&server, policy(1, PATIENT_MS)).chat(&hello()));
    assert_eq!(attempts, 2);
    assert!(
        matches!(&last, LlmError::Malformed { reason } if reason.contains("not a chat completion")),
        "{last:?}"
    );
}

#[test]
fn truncated_bodies_are_retried_then_reported() {
    let server = OpenAiServer::start(|req| {
        if req.index == 0 {
            Turn::Truncate {
                body: text_reply("a complete answer", 5, 5),
                keep: 40,
            }
        } else {
            Turn::Reply(text_reply("a complete answer", 5, 5))
        }
    });
    let r = client_with(&server, policy(2, PATIENT_MS))
        .chat(&hello())
        .expect("second attempt");
    assert_eq!((r.attempts, r.message.text()), (2, "a complete answer"));
    assert_eq!(server.connections(), 2, "the cut connection is not reused");

    let server = OpenAiServer::start(|_| Turn::Truncate {
        body: text_reply("never whole", 5, 5),
        keep: 10,
    });
    let (last, attempts) = exhausted(client_with(&server, policy(2, PATIENT_MS)).chat(&hello()));
    assert_eq!(attempts, 3);
    assert!(matches!(last, LlmError::Truncated { .. }), "{last:?}");
}

#[test]
fn dropped_connections_are_retried_then_reported() {
    let server = OpenAiServer::start(|req| {
        if req.index < 2 {
            Turn::Close
        } else {
            Turn::Reply(text_reply("back", 1, 1))
        }
    });
    let r = client_with(&server, policy(2, PATIENT_MS))
        .chat(&hello())
        .expect("third attempt");
    assert_eq!(r.attempts, 3);

    let server = OpenAiServer::start(|_| Turn::Close);
    let (last, attempts) = exhausted(client_with(&server, policy(1, PATIENT_MS)).chat(&hello()));
    assert_eq!(attempts, 2);
    assert!(last.is_retryable(), "{last:?}");
    assert!(matches!(last, LlmError::Transport { .. }), "{last:?}");
}

#[test]
fn no_retries_means_one_attempt() {
    // A Retry-After of ten minutes, honoured in full, that the client must not wait out after
    // its last attempt.
    let server = OpenAiServer::start(|_| Turn::Status {
        code: 503,
        retry_after: Some(600),
        body: String::new(),
    });
    let mut p = policy(0, PATIENT_MS);
    p.retry_after_cap = Duration::from_secs(600);
    let ((last, attempts), log) = logged(|| exhausted(client_with(&server, p).chat(&hello())));
    assert_eq!(attempts, 1);
    assert!(matches!(last, LlmError::Server { status: 503, .. }));
    assert_eq!(server.requests().len(), 1);
    // No wait after the last attempt: the client gave up without scheduling a retry.
    assert!(log.contains("no retries left"), "{log}");
    assert!(!log.contains("retrying"), "{log}");
}

#[test]
fn a_missing_usage_is_estimated_so_budgets_still_bind() {
    let server = OpenAiServer::start(|_| {
        Turn::Reply(json!({"choices": [{"message": {"role": "assistant",
            "content": "twelve bytes"}, "finish_reason": "stop"}]}))
    });
    let r = client_with(&server, policy(0, PATIENT_MS))
        .chat(&hello())
        .expect("reply");
    assert!(r.usage.estimated);
    assert_eq!(r.usage.completion_tokens, 3);
    assert!(r.usage.prompt_tokens > 10, "{:?}", r.usage);
    assert_eq!(
        r.model, "test-model",
        "the configured id when the server names none"
    );
}

/// What `f` logs on this thread (WARN and above, no colours), with its result.
fn logged<T>(f: impl FnOnce() -> T) -> (T, String) {
    let buf = Captured::default();
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    // Callsites first hit on another test's thread, before this scoped subscriber existed,
    // may have cached "no interest": rebuilt with it in place, every event here reaches it.
    let out = tracing::subscriber::with_default(subscriber, || {
        tracing::callsite::rebuild_interest_cache();
        f()
    });
    let text = buf
        .0
        .lock()
        .map(|b| String::from_utf8_lossy(&b).into_owned());
    (out, text.unwrap_or_default())
}

/// A writer into a shared buffer, for capturing every log line of the process.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut b) = self.0.lock() {
            b.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_key_is_sent_but_never_logged_shown_or_echoed_into_errors() {
    let logs = Captured::default();
    let writer = logs.clone();
    // Every log line of the process at TRACE (reqwest and hyper included) goes to the buffer.
    let _ = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .try_init();
    // A hostile server that echoes the Authorization header into its error bodies.
    let server = OpenAiServer::start(|req| {
        let auth = req.header("authorization").unwrap_or("").to_string();
        match req.index {
            0 => Turn::Status {
                code: 500,
                retry_after: None,
                body: format!("upstream failed for {auth}"),
            },
            1 => Turn::Status {
                code: 403,
                retry_after: None,
                body: format!("{{\"error\": \"key {auth} is not allowed\"}}"),
            },
            _ => Turn::Reply(text_reply("ok", 1, 1)),
        }
    });
    let client = client_with(&server, policy(2, PATIENT_MS));
    let err = client.chat(&hello()).expect_err("500 then 403");
    let ok = client.chat(&hello()).expect("then fine");
    let shown = [
        format!("{client:?}"),
        format!("{err}"),
        format!("{err:?}"),
        format!("{ok:?}"),
    ];
    for text in &shown {
        assert!(!text.contains(KEY), "key shown: {text}");
    }
    assert!(shown[1].contains("<redacted>"), "{}", shown[1]);
    // The key did go to the server, on every request.
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    for r in &reqs {
        assert_eq!(r.header("authorization"), Some(&*format!("Bearer {KEY}")));
    }
    let logged = String::from_utf8_lossy(&logs.0.lock().expect("logs")).into_owned();
    assert!(
        logged.contains("model call failed"),
        "the capture works: {logged}"
    );
    assert!(!logged.contains(KEY), "key logged");
}

#[test]
fn a_missing_key_variable_is_named_without_a_connection() {
    let server = OpenAiServer::start(|_| Turn::Reply(text_reply("x", 1, 1)));
    let r = LlmClient::from_config(&llm_config(&server.base_url()), &|_| None);
    assert_eq!(
        r.err(),
        Some(LlmError::MissingKey {
            var: KEY_VAR.into()
        })
    );
    assert_eq!(server.connections(), 0);
}

#[test]
fn provider_none_opens_no_connection_even_with_a_base_url() {
    let server = OpenAiServer::start(|_| Turn::Reply(text_reply("x", 1, 1)));
    let mut cfg = llm_config(&server.base_url());
    cfg.provider = LlmProvider::None;
    let env = |k: &str| (k == KEY_VAR).then(|| KEY.to_string());
    assert!(matches!(LlmClient::from_config(&cfg, &env), Ok(None)));
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(server.connections(), 0);
    // The listener does count connections: the same config with a provider connects.
    cfg.provider = LlmProvider::OpenaiCompatible;
    let client = LlmClient::from_config(&cfg, &env)
        .expect("config")
        .expect("client");
    client.chat(&hello()).expect("reply");
    assert_eq!(server.connections(), 1);
}

#[test]
fn an_oversized_response_is_refused_without_reading_it_all() {
    let big = "x".repeat(64 * 1024);
    let server = OpenAiServer::start(move |req| {
        if req.index == 0 {
            Turn::Reply(text_reply(&big, 1, 1))
        } else {
            Turn::Reply(text_reply("small", 1, 1))
        }
    });
    let client = client_with(&server, policy(0, PATIENT_MS)).with_max_response_bytes(4096);
    let r = client.chat(&hello());
    let (last, _) = exhausted(r);
    assert!(
        matches!(&last, LlmError::Malformed { reason } if reason.contains("larger than 4096")),
        "{last:?}"
    );
    assert_eq!(
        client.chat(&hello()).expect("small").message.text(),
        "small"
    );
}

#[test]
fn one_client_serves_many_threads_at_once() {
    let server = OpenAiServer::start(|req| {
        let asked = req
            .messages()
            .last()
            .and_then(|m| m["content"].as_str())
            .unwrap_or("");
        Turn::Delay {
            ms: 20,
            then: Box::new(Turn::Reply(text_reply(&format!("re: {asked}"), 4, 2))),
        }
    });
    let client = client_with(&server, policy(1, PATIENT_MS));
    std::thread::scope(|scope| {
        for t in 0..6 {
            let client = &client;
            scope.spawn(move || {
                for i in 0..5 {
                    let q = format!("thread {t} question {i}");
                    let req = ChatRequest {
                        messages: vec![ChatMessage::user(q.clone())],
                        ..ChatRequest::default()
                    };
                    let r = client.chat(&req).expect("reply");
                    assert_eq!(r.message.text(), format!("re: {q}"));
                }
            });
        }
    });
    assert_eq!(server.requests().len(), 30);
    assert!(
        server.connections() <= 6,
        "connections are kept alive and reused"
    );
}

#[test]
fn a_body_that_stalls_midway_times_out_and_is_retried() {
    let server = OpenAiServer::start(|req| {
        if req.index == 0 {
            Turn::Stall {
                body: text_reply("eventually", 3, 3),
                keep: 30,
                ms: NEVER_MS,
            }
        } else {
            Turn::Reply(text_reply("whole", 3, 3))
        }
    });
    let r = client_with(&server, policy(1, RESCUED_MS))
        .chat(&hello())
        .expect("second attempt");
    assert_eq!((r.attempts, r.message.text()), (2, "whole"));

    let server = OpenAiServer::start(|_| Turn::Stall {
        body: text_reply("never", 3, 3),
        keep: 30,
        ms: NEVER_MS,
    });
    let (last, attempts) =
        exhausted(client_with(&server, policy(1, NEVER_ANSWERED_MS)).chat(&hello()));
    assert_eq!(attempts, 2);
    assert_eq!(
        last,
        LlmError::Timeout {
            after_ms: NEVER_ANSWERED_MS
        }
    );
}

/// 200 calls in a row go over one kept-alive connection. What the client itself costs per call
/// (encode, HTTP over loopback, parse) with a server that answers at once is printed, not
/// bounded: a benchmark's figure (README, Benchmarks; meaningful with `--release`).
#[test]
fn calls_in_a_row_reuse_one_connection_and_their_cost_is_printed() {
    let server = OpenAiServer::start(|_| {
        Turn::Reply(tool_calls_reply(
            &[(
                "c1",
                "sqlite_query",
                json!({"path": "/a/sms.db", "sql": "SELECT 1"}),
            )],
            900,
            40,
        ))
    });
    let client = client_with(&server, policy(0, PATIENT_MS));
    let evidence = "row\tvalue\n".repeat(400); // ~4 KB of tool output in the prompt
    let req = ChatRequest {
        messages: vec![
            ChatMessage::system("You are a forensic reader."),
            ChatMessage::user(format!("<evidence>\n{evidence}</evidence>")),
        ],
        ..ChatRequest::default()
    };
    let mut micros: Vec<u128> = (0..200)
        .map(|_| {
            let t = Instant::now();
            client.chat(&req).expect("reply");
            t.elapsed().as_micros()
        })
        .collect();
    micros.sort_unstable();
    let (median, p95) = (micros[100], micros[190]);
    eprintln!(
        "llm client on loopback, 200 calls with a 4 KB prompt: median {median} µs, p95 {p95} µs, \
         {} connection(s)",
        server.connections()
    );
    assert_eq!(server.connections(), 1, "one kept-alive connection");
}
