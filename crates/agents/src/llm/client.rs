//! The blocking OpenAI-compatible client: per-request timeouts, bounded retries with
//! exponential back-off and seeded jitter, `Retry-After` honoured up to a cap, the completion
//! limit, and the API key read once from the environment variable named in `llm.api_key_env`
//! (held only in memory, as a header value marked sensitive; never logged, stored or shown by
//! `Debug`). `provider: none` builds nothing: [`LlmClient::from_config`] returns `Ok(None)`
//! before any HTTP machinery exists.

use std::fmt;
use std::io::Read;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use masf_case::{LlmConfig, LlmProvider};
use reqwest::blocking::Client;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue, RETRY_AFTER};

use super::wire::{ChatRequest, ChatResponse, parse_completion, request_body};

/// Why a chat call failed. Retryable kinds are retried within the policy; what is left after the
/// last attempt is wrapped in [`LlmError::RetriesExhausted`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// `llm.provider` is `none`: no model, no connection.
    #[error("no language model is configured (llm.provider is none)")]
    Offline,
    /// The environment variable named by `llm.api_key_env` is unset or empty.
    #[error("the API key environment variable {var} is not set (or is empty)")]
    MissingKey {
        /// The variable's name (never its value).
        var: String,
    },
    /// The configuration cannot make a client (missing base URL or model, bad URL).
    #[error("invalid llm configuration: {reason}")]
    Config {
        /// What is wrong.
        reason: String,
    },
    /// No complete response within the per-request timeout.
    #[error("the model server did not answer within {after_ms} ms")]
    Timeout {
        /// The timeout.
        after_ms: u64,
    },
    /// HTTP 429.
    #[error("rate limited by the model server (HTTP 429{})",
        .retry_after_s.map(|s| format!(", Retry-After {s} s")).unwrap_or_default())]
    RateLimited {
        /// The server's `Retry-After`, seconds.
        retry_after_s: Option<u64>,
    },
    /// HTTP 5xx (or 408).
    #[error("model server error: HTTP {status}: {excerpt}")]
    Server {
        /// Status code.
        status: u16,
        /// The start of the body.
        excerpt: String,
    },
    /// Another non-success status (401, 400, 404, a redirect, …): not retried.
    #[error("the model server refused the request: HTTP {status}: {excerpt}")]
    Refused {
        /// Status code.
        status: u16,
        /// The start of the body.
        excerpt: String,
    },
    /// A success status whose body is not a usable chat completion.
    #[error("malformed completion: {reason}")]
    Malformed {
        /// What is wrong.
        reason: String,
    },
    /// The response ended before its declared length (connection closed mid-body).
    #[error("truncated response: {reason}")]
    Truncated {
        /// Detail.
        reason: String,
    },
    /// Connecting or sending failed, or the connection closed before any response.
    #[error("transport error: {reason}")]
    Transport {
        /// Detail.
        reason: String,
    },
    /// Every attempt failed; `last` is the final failure.
    #[error("gave up after {attempts} attempts: {last}")]
    RetriesExhausted {
        /// The last failure.
        last: Box<LlmError>,
        /// Attempts made.
        attempts: u32,
    },
}

impl LlmError {
    /// Whether another attempt may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::Timeout { .. }
                | Self::RateLimited { .. }
                | Self::Server { .. }
                | Self::Malformed { .. }
                | Self::Truncated { .. }
                | Self::Transport { .. }
        )
    }

    /// A stable short name of the kind (for events and tallies).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Offline => "offline",
            Self::MissingKey { .. } => "missing_key",
            Self::Config { .. } => "config",
            Self::Timeout { .. } => "timeout",
            Self::RateLimited { .. } => "rate_limited",
            Self::Server { .. } => "server",
            Self::Refused { .. } => "refused",
            Self::Malformed { .. } => "malformed",
            Self::Truncated { .. } => "truncated",
            Self::Transport { .. } => "transport",
            Self::RetriesExhausted { .. } => "retries_exhausted",
        }
    }

    /// The underlying failure (the last one for [`LlmError::RetriesExhausted`]).
    pub fn root(&self) -> &LlmError {
        match self {
            Self::RetriesExhausted { last, .. } => last.root(),
            other => other,
        }
    }
}

/// A chat model: the real client, or anything else speaking the same contract.
pub trait ChatModel: Send + Sync {
    /// The configured model id (recorded on every event the model causes).
    fn model_id(&self) -> &str;
    /// One chat completion, retried within the model's policy.
    fn chat(&self, req: &ChatRequest) -> Result<ChatResponse, LlmError>;
    /// The most completion tokens the model sends for one request whatever the request asks
    /// (`llm.max_tokens` for the client), when it has such a limit: what a token budget sets
    /// aside for a call that names no limit of its own.
    fn max_completion_tokens(&self) -> Option<u64> {
        None
    }
}

/// Timeouts and retry behaviour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (`llm.max_retries`).
    pub max_retries: u32,
    /// Whole-request timeout of one attempt (`llm.timeout_s`).
    pub timeout: Duration,
    /// TCP connect timeout (at most `timeout`).
    pub connect_timeout: Duration,
    /// First back-off; doubles each retry.
    pub base_delay: Duration,
    /// Largest back-off.
    pub max_delay: Duration,
    /// Longest wait granted to a server's `Retry-After`.
    pub retry_after_cap: Duration,
    /// Seed of the jitter (a run passes its own, so a replay waits the same).
    pub seed: u64,
}

impl RetryPolicy {
    /// The policy of `cfg`: its timeout and retries, 500 ms first back-off doubling to 30 s,
    /// `Retry-After` honoured up to 60 s, seed 0.
    pub fn from_config(cfg: &LlmConfig) -> Self {
        let timeout = Duration::from_secs(cfg.timeout_s.max(1));
        Self {
            max_retries: cfg.max_retries,
            timeout,
            connect_timeout: timeout.min(Duration::from_secs(10)),
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            retry_after_cap: Duration::from_secs(60),
            seed: 0,
        }
    }

    /// The back-off before retry number `retry` (1-based): `base · 2^(retry-1)` capped at
    /// `max_delay`, of which the upper half is jittered by `jitter` ("equal jitter": the wait
    /// lies in `[d/2, d]`).
    pub fn backoff(&self, retry: u32, jitter: &mut Jitter) -> Duration {
        let exp = retry.saturating_sub(1).min(30);
        let full = self
            .base_delay
            .saturating_mul(1u32 << exp)
            .min(self.max_delay);
        let ms = full.as_millis() as u64;
        let half = ms / 2;
        Duration::from_millis(half + jitter.next_u64() % (ms - half + 1))
    }

    /// The wait before the next attempt after `err` on retry number `retry`.
    pub fn wait_after(&self, err: &LlmError, retry: u32, jitter: &mut Jitter) -> Duration {
        match err {
            LlmError::RateLimited {
                retry_after_s: Some(s),
            } => Duration::from_secs(*s).min(self.retry_after_cap),
            _ => self.backoff(retry, jitter),
        }
    }
}

/// A small seeded generator (SplitMix64) for back-off jitter: deterministic per seed.
#[derive(Debug, Clone)]
pub struct Jitter(u64);

impl Jitter {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The largest response body read by default.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 16 * 1024 * 1024;

/// The OpenAI-compatible client. `Debug` shows no key.
pub struct LlmClient {
    http: Client,
    endpoint: String,
    model: String,
    auth: HeaderValue,
    max_tokens: u32,
    max_response_bytes: u64,
    policy: RetryPolicy,
    jitter: Mutex<Jitter>,
}

impl fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmClient")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &"<redacted>")
            .field("max_tokens", &self.max_tokens)
            .field("policy", &self.policy)
            .finish()
    }
}

impl LlmClient {
    /// The client `cfg` describes, its key read through `env` (e.g.
    /// `&|k| std::env::var(k).ok()`). `Ok(None)` for `provider: none`: nothing is built, no
    /// socket is opened, the key is not read.
    pub fn from_config(
        cfg: &LlmConfig,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<LlmClient>, LlmError> {
        if cfg.provider == LlmProvider::None {
            return Ok(None);
        }
        let missing = |what: &str| LlmError::Config {
            reason: format!("llm.{what} is required when llm.provider is openai_compatible"),
        };
        let base = cfg
            .base_url
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| missing("base_url"))?;
        let model = cfg
            .model
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| missing("model"))?;
        let var = cfg
            .api_key_env
            .as_deref()
            .filter(|s| !s.is_empty())
            .ok_or_else(|| missing("api_key_env"))?;
        let key = env(var)
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty())
            .ok_or_else(|| LlmError::MissingKey { var: var.into() })?;
        let mut auth =
            HeaderValue::from_str(&format!("Bearer {key}")).map_err(|_| LlmError::Config {
                reason: format!("the value of {var} is not a valid header value"),
            })?;
        auth.set_sensitive(true);
        drop(key);

        let url = reqwest::Url::parse(base).map_err(|e| LlmError::Config {
            reason: format!("llm.base_url {base:?}: {e}"),
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(LlmError::Config {
                reason: format!("llm.base_url {base:?} must be http or https"),
            });
        }
        let loopback = matches!(
            url.host_str(),
            Some("127.0.0.1" | "localhost" | "[::1]" | "::1")
        );
        let policy = RetryPolicy::from_config(cfg);
        // reqwest is built without a crypto provider of its own (workspace Cargo.toml): ring is
        // installed as the process default once; a later call finds it there and changes nothing.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut builder = Client::builder()
            .connect_timeout(policy.connect_timeout)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("masforensics/", env!("CARGO_PKG_VERSION")));
        if loopback {
            // A local model server is never reached through a proxy.
            builder = builder.no_proxy();
        }
        let http = builder.build().map_err(|e| LlmError::Config {
            reason: format!("cannot build the HTTP client: {}", chain(&e)),
        })?;
        Ok(Some(LlmClient {
            http,
            endpoint: format!("{}/chat/completions", base.trim_end_matches('/')),
            model: model.to_string(),
            auth,
            max_tokens: cfg.max_tokens.max(1),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            jitter: Mutex::new(Jitter::new(policy.seed)),
            policy,
        }))
    }

    /// The same client under `policy` (tests shorten the waits; a run passes its jitter seed).
    pub fn with_policy(mut self, policy: RetryPolicy) -> Self {
        self.jitter = Mutex::new(Jitter::new(policy.seed));
        self.policy = policy;
        self
    }

    /// The same client refusing responses larger than `bytes` (default 16 MiB) as malformed,
    /// without reading past the limit.
    pub fn with_max_response_bytes(mut self, bytes: u64) -> Self {
        self.max_response_bytes = bytes;
        self
    }

    /// The same client with its back-off jitter seeded by `seed` (a run passes its own).
    pub fn with_seed(self, seed: u64) -> Self {
        let policy = RetryPolicy {
            seed,
            ..self.policy.clone()
        };
        self.with_policy(policy)
    }

    /// The retry policy.
    pub fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    /// The URL posted to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// `text` with the key blanked out (a server that echoes the request back must not put
    /// the key into an error, a log line or an event).
    fn redacted(&self, text: String) -> String {
        let key = self
            .auth
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer "))
            .filter(|k| k.len() >= 4);
        match key {
            Some(k) if text.contains(k) => text.replace(k, "<redacted>"),
            _ => text,
        }
    }

    /// One attempt.
    fn attempt(&self, body: &[u8]) -> Result<super::wire::Completion, LlmError> {
        let timeout = self.policy.timeout;
        let timeout_err = || LlmError::Timeout {
            after_ms: timeout.as_millis() as u64,
        };
        let response = self
            .http
            .post(&self.endpoint)
            .timeout(timeout)
            .header(AUTHORIZATION, self.auth.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_vec())
            .send()
            .map_err(|e| {
                if e.is_timeout() {
                    timeout_err()
                } else {
                    LlmError::Transport { reason: chain(&e) }
                }
            })?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after_seconds(v, jiff::Timestamp::now()));
        let limit = self.max_response_bytes;
        let too_large = || LlmError::Malformed {
            reason: format!("the response is larger than {limit} bytes"),
        };
        if response.content_length().is_some_and(|n| n > limit) {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        response
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| {
                let timed_out = matches!(
                    e.kind(),
                    std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
                ) || e
                    .get_ref()
                    .and_then(|inner| inner.downcast_ref::<reqwest::Error>())
                    .is_some_and(reqwest::Error::is_timeout);
                if timed_out {
                    timeout_err()
                } else {
                    LlmError::Truncated { reason: chain(&e) }
                }
            })?;
        if bytes.len() as u64 > limit {
            return Err(too_large());
        }
        match status {
            200..=299 => parse_completion(&bytes, body.len())
                .map_err(|reason| LlmError::Malformed { reason }),
            429 => Err(LlmError::RateLimited {
                retry_after_s: retry_after,
            }),
            408 | 500..=599 => Err(LlmError::Server {
                status,
                excerpt: excerpt(&self.redacted(String::from_utf8_lossy(&bytes).into_owned())),
            }),
            _ => Err(LlmError::Refused {
                status,
                excerpt: excerpt(&self.redacted(String::from_utf8_lossy(&bytes).into_owned())),
            }),
        }
    }
}

impl ChatModel for LlmClient {
    fn model_id(&self) -> &str {
        &self.model
    }

    fn max_completion_tokens(&self) -> Option<u64> {
        Some(u64::from(self.max_tokens))
    }

    fn chat(&self, req: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let started = Instant::now();
        let body = request_body(&self.model, req, self.max_tokens);
        let body = serde_json::to_vec(&body).map_err(|e| LlmError::Config {
            reason: format!("cannot encode the request: {e}"),
        })?;
        let attempts_allowed = self.policy.max_retries.saturating_add(1);
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            match self.attempt(&body) {
                Ok(c) => {
                    return Ok(ChatResponse {
                        message: c.message,
                        finish_reason: c.finish_reason,
                        usage: c.usage,
                        model: c.model.unwrap_or_else(|| self.model.clone()),
                        latency_ms: started.elapsed().as_millis() as u64,
                        attempts: attempt,
                    });
                }
                Err(e) if !e.is_retryable() => return Err(e),
                Err(e) if attempt >= attempts_allowed => {
                    tracing::warn!(model = %self.model, attempts = attempt, error = %e,
                        "model call failed; no retries left");
                    return Err(LlmError::RetriesExhausted {
                        last: Box::new(e),
                        attempts: attempt,
                    });
                }
                Err(e) => {
                    let wait = match self.jitter.lock() {
                        Ok(mut j) => self.policy.wait_after(&e, attempt, &mut j),
                        Err(_) => self.policy.base_delay,
                    };
                    tracing::warn!(model = %self.model, attempt, error = %e,
                        wait_ms = wait.as_millis() as u64, "model call failed; retrying");
                    std::thread::sleep(wait);
                }
            }
        }
    }
}

/// A `Retry-After` value in seconds from `now`: delta-seconds, or an HTTP date (RFC 2822 /
/// IMF-fixdate; a date in the past is 0).
fn retry_after_seconds(value: &str, now: jiff::Timestamp) -> Option<u64> {
    let value = value.trim();
    if let Ok(s) = value.parse::<u64>() {
        return Some(s);
    }
    let at = jiff::fmt::rfc2822::DateTimeParser::new()
        .parse_timestamp(value)
        .ok()?;
    Some(u64::try_from(at.as_second().saturating_sub(now.as_second())).unwrap_or(0))
}

/// An error and its sources, one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}

/// The first 200 characters of a body, on one line.
fn excerpt(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(200)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > 200 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(seed: u64) -> RetryPolicy {
        RetryPolicy {
            seed,
            ..RetryPolicy::from_config(&masf_case::Config::default().llm)
        }
    }

    #[test]
    fn backoff_doubles_is_capped_and_its_jitter_is_seeded() {
        let p = policy(7);
        let schedule = |seed| {
            let mut j = Jitter::new(seed);
            (1..=8).map(|r| p.backoff(r, &mut j)).collect::<Vec<_>>()
        };
        let a = schedule(7);
        assert_eq!(a, schedule(7), "same seed, same waits");
        assert_ne!(a, schedule(8), "another seed, other waits");
        for (i, d) in a.iter().enumerate() {
            let full = (p.base_delay * (1 << i)).min(p.max_delay);
            assert!(
                *d >= full / 2 && *d <= full,
                "retry {}: {d:?} vs {full:?}",
                i + 1
            );
        }
        assert!(a[7] >= p.max_delay / 2);
        let mut j = Jitter::new(1);
        let capped = p.wait_after(
            &LlmError::RateLimited {
                retry_after_s: Some(3600),
            },
            1,
            &mut j,
        );
        assert_eq!(capped, p.retry_after_cap);
        let honoured = p.wait_after(
            &LlmError::RateLimited {
                retry_after_s: Some(2),
            },
            1,
            &mut j,
        );
        assert_eq!(honoured, Duration::from_secs(2));
    }

    #[test]
    fn retry_after_is_seconds_or_an_http_date() {
        let now = jiff::Timestamp::from_second(1_445_412_480).unwrap_or_default(); // 07:28:00
        assert_eq!(retry_after_seconds(" 120 ", now), Some(120));
        assert_eq!(
            retry_after_seconds("Wed, 21 Oct 2015 07:28:30 GMT", now),
            Some(30)
        );
        assert_eq!(
            retry_after_seconds("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(0)
        );
        assert_eq!(retry_after_seconds("soon", now), None);
        assert_eq!(retry_after_seconds("-5", now), None);
    }

    #[test]
    fn provider_none_builds_nothing_and_reads_no_key() {
        let cfg = masf_case::Config::default().llm;
        let read = std::cell::Cell::new(false);
        let env = |_: &str| {
            read.set(true);
            Some("k".to_string())
        };
        assert!(matches!(LlmClient::from_config(&cfg, &env), Ok(None)));
        assert!(!read.get());
    }

    #[test]
    fn the_key_comes_from_the_named_variable_and_never_shows() {
        let mut cfg = masf_case::Config::default().llm;
        cfg.provider = LlmProvider::OpenaiCompatible;
        cfg.base_url = Some("http://127.0.0.1:9/v1/".into());
        cfg.model = Some("m".into());
        cfg.api_key_env = Some("MY_KEY".into());
        let none = LlmClient::from_config(&cfg, &|_| None);
        assert_eq!(
            none.err(),
            Some(LlmError::MissingKey {
                var: "MY_KEY".into()
            })
        );
        let secret = "sk-test-0123456789-SECRET";
        let env = |k: &str| (k == "MY_KEY").then(|| secret.to_string());
        match LlmClient::from_config(&cfg, &env) {
            Ok(Some(c)) => {
                assert_eq!(c.endpoint(), "http://127.0.0.1:9/v1/chat/completions");
                let debug = format!("{c:?}");
                assert!(
                    !debug.contains(secret) && !debug.contains("SECRET"),
                    "{debug}"
                );
                assert!(debug.contains("<redacted>"));
            }
            other => panic!("expected a client, got {other:?}"),
        }
    }
}
