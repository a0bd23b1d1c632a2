//! Test-only helpers. [`corpus`] finds the public test corpus outside the checkout and checks
//! each file against its manifest before use. [`OpenAiServer`] is a real HTTP/1.1 server on `127.0.0.1:0` (std threads,
//! keep-alive, `Content-Length` and chunked request bodies) that answers `POST
//! …/chat/completions` as the OpenAI wire format does, each answer chosen by a script over the
//! request it received. Fault turns make it time out, rate-limit, fail, send malformed JSON,
//! truncate a body or drop the connection, so that clients are tested over real sockets rather
//! than against mocked objects.
//!
//! `OpenAiServer` answers each request with the [`Turn`] a test's script returns for it
//! (`Reply`, `Status` with `Retry-After`, `Delay`, `MalformedBody`, `Truncate`, `Stall`,
//! `Close`), over keep-alive connections with chunked or sized bodies. It records every request
//! (headers, parsed body) and counts connections, so tests assert on prompts, the Authorization
//! header and "no connection at all".
//!
//! [`corpus`] is the public test corpus: `$MASF_CORPUS`, else `../shared/corpus` beside the
//! repository, never committed here. Every accessor checks the file's sha256 against the corpus
//! `MANIFEST.md` first, and fails the test naming the folder and the variable when the corpus is
//! missing. `scripts/corpus.sh` and `tests/fixtures/corpus.py` do the same for scripts, and
//! `tests/fixtures/check-no-corpus-copies.py` (run by `check-fixtures.sh`) fails the suite on any
//! tracked file equal to corpus bytes, as is or (de)compressed.
//!
//! ```no_run
//! use masf_testkit::{OpenAiServer, Turn, text_reply};
//! let server = OpenAiServer::start(|req| {
//!     if req.index == 0 { Turn::Status { code: 429, retry_after: Some(1), body: String::new() } }
//!     else { Turn::Reply(text_reply("hello", 12, 3)) }
//! });
//! let base = server.base_url(); // http://127.0.0.1:PORT/v1
//! # let _ = base;
//! ```

pub mod corpus;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

/// One request the server received.
#[derive(Debug, Clone, PartialEq)]
pub struct ServedRequest {
    /// 0-based position among every request the server received.
    pub index: usize,
    /// 0-based number of the TCP connection it came on.
    pub connection: usize,
    /// `POST`, `GET`, …
    pub method: String,
    /// The request target, e.g. `/v1/chat/completions`.
    pub path: String,
    /// Headers in order, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON (`Null` when it is not JSON).
    pub body: Value,
    /// The raw body.
    pub raw_body: Vec<u8>,
}

impl ServedRequest {
    /// The first header called `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The `messages` array of a chat request (empty when absent).
    pub fn messages(&self) -> &[Value] {
        self.body
            .get("messages")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// The `content` strings of every message, in order, joined by newlines: what the model was
    /// shown.
    pub fn prompt_text(&self) -> String {
        self.messages()
            .iter()
            .filter_map(|m| m.get("content").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The names of the tools offered.
    pub fn tool_names(&self) -> Vec<String> {
        self.body
            .get("tools")
            .and_then(Value::as_array)
            .map(|tools| {
                tools
                    .iter()
                    .filter_map(|t| t.pointer("/function/name").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// How the server answers one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Turn {
    /// `200 OK` with this JSON body (see [`text_reply`], [`tool_calls_reply`]).
    Reply(Value),
    /// Another status, with an optional `Retry-After` (seconds) and a text body.
    Status {
        /// Status code.
        code: u16,
        /// `Retry-After` header, seconds.
        retry_after: Option<u64>,
        /// Body.
        body: String,
    },
    /// Wait, then answer with `then` (a client whose timeout is shorter gives up).
    Delay {
        /// Milliseconds to wait before answering.
        ms: u64,
        /// The answer after the wait.
        then: Box<Turn>,
    },
    /// `200 OK`, `application/json`, with this (broken) text as the body.
    MalformedBody(String),
    /// `200 OK` declaring the full length of `body` but sending only its first `keep` bytes,
    /// then closing the connection.
    Truncate {
        /// The complete body.
        body: Value,
        /// Bytes actually sent.
        keep: usize,
    },
    /// `200 OK` declaring the full length of `body`, sending its first `keep` bytes, then
    /// holding the connection open without sending more (a stalled stream: the client's
    /// timeout must fire) until the server stops or `ms` pass.
    Stall {
        /// The complete body.
        body: Value,
        /// Bytes actually sent.
        keep: usize,
        /// How long to hold the connection, milliseconds.
        ms: u64,
    },
    /// Read the request and close the connection without answering.
    Close,
}

type Script = dyn Fn(&ServedRequest) -> Turn + Send + Sync;

struct Shared {
    script: Box<Script>,
    requests: Mutex<Vec<ServedRequest>>,
    connections: AtomicUsize,
    stop: AtomicBool,
}

/// The server; stops when dropped.
pub struct OpenAiServer {
    addr: std::net::SocketAddr,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for OpenAiServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiServer")
            .field("addr", &self.addr)
            .field("connections", &self.connections())
            .finish()
    }
}

impl OpenAiServer {
    /// Binds `127.0.0.1:0` and serves every request by `script`. Panics only if the loopback
    /// interface cannot be bound (a broken test machine).
    pub fn start(script: impl Fn(&ServedRequest) -> Turn + Send + Sync + 'static) -> OpenAiServer {
        #[allow(clippy::expect_used)]
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        #[allow(clippy::expect_used)]
        let addr = listener.local_addr().expect("local address");
        let shared = Arc::new(Shared {
            script: Box::new(script),
            requests: Mutex::new(Vec::new()),
            connections: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let accept_shared = Arc::clone(&shared);
        let acceptor = std::thread::Builder::new()
            .name("openai-server".into())
            .spawn(move || accept_loop(&listener, &accept_shared))
            .ok();
        OpenAiServer {
            addr,
            shared,
            acceptor,
        }
    }

    /// `http://127.0.0.1:PORT/v1`: the value for `llm.base_url`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The bound address.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<ServedRequest> {
        self.shared
            .requests
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default()
    }

    /// TCP connections accepted so far (whether or not a request followed).
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }
}

impl Drop for OpenAiServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
        if let Some(h) = self.acceptor.take() {
            let _ = h.join();
        }
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let connection = shared.connections.fetch_add(1, Ordering::SeqCst);
        let shared = Arc::clone(shared);
        let _ = std::thread::Builder::new()
            .name(format!("openai-conn-{connection}"))
            .spawn(move || serve_connection(stream, connection, &shared));
    }
}

/// Serves requests on one connection until it closes, the script closes it, or the server stops.
fn serve_connection(stream: TcpStream, connection: usize, shared: &Shared) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(250)));
    let _ = stream.set_nodelay(true);
    let Ok(write_half) = stream.try_clone() else {
        return;
    };
    let mut out = write_half;
    let mut reader = BufReader::new(stream);
    loop {
        let request = match read_request(&mut reader, shared) {
            Ok(Some(parts)) => parts,
            Ok(None) | Err(_) => return,
        };
        let served = {
            let Ok(mut all) = shared.requests.lock() else {
                return;
            };
            let served = ServedRequest {
                index: all.len(),
                connection,
                method: request.method,
                path: request.path,
                headers: request.headers,
                body: serde_json::from_slice(&request.body).unwrap_or(Value::Null),
                raw_body: request.body,
            };
            all.push(served.clone());
            served
        };
        let turn = (shared.script)(&served);
        match answer(&mut out, turn, shared) {
            Ok(true) => {}
            Ok(false) | Err(_) => {
                let _ = out.shutdown(Shutdown::Both);
                return;
            }
        }
    }
}

struct RawRequest {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// Reads one request; `None` when the peer closed the connection (or the server stopped) before
/// a request began.
fn read_request(
    reader: &mut BufReader<TcpStream>,
    shared: &Shared,
) -> std::io::Result<Option<RawRequest>> {
    let mut head_lines: Vec<String> = Vec::new();
    let mut line = Vec::new();
    let mut head_bytes = 0usize;
    loop {
        line.clear();
        match read_line(reader, &mut line, shared)? {
            0 if head_lines.is_empty() => return Ok(None),
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => head_bytes += n,
        }
        if head_bytes > 64 * 1024 {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
        let text = String::from_utf8_lossy(&line)
            .trim_end_matches(['\r', '\n'])
            .to_string();
        if text.is_empty() {
            if head_lines.is_empty() {
                continue; // stray CRLF between requests
            }
            break;
        }
        head_lines.push(text);
    }
    let mut request_line = head_lines[0].split_whitespace();
    let method = request_line.next().unwrap_or("").to_string();
    let path = request_line.next().unwrap_or("").to_string();
    let headers: Vec<(String, String)> = head_lines[1..]
        .iter()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let find = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let body = if find("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        read_chunked(reader, shared)?
    } else {
        let len: usize = find("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0u8; len];
        read_exact(reader, &mut body, shared)?;
        body
    };
    Ok(Some(RawRequest {
        method,
        path,
        headers,
        body,
    }))
}

fn retry_io<T>(shared: &Shared, mut f: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    loop {
        match f() {
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                if shared.stop.load(Ordering::SeqCst) {
                    return Err(e);
                }
            }
            other => return other,
        }
    }
}

fn read_line(
    reader: &mut BufReader<TcpStream>,
    line: &mut Vec<u8>,
    shared: &Shared,
) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let n = retry_io(shared, || reader.read_until(b'\n', line))?;
        total += n;
        if n == 0 || line.ends_with(b"\n") {
            return Ok(total);
        }
    }
}

fn read_exact(
    reader: &mut BufReader<TcpStream>,
    buf: &mut [u8],
    shared: &Shared,
) -> std::io::Result<()> {
    let mut filled = 0;
    while filled < buf.len() {
        let n = retry_io(shared, || reader.read(&mut buf[filled..]))?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        filled += n;
    }
    Ok(())
}

fn read_chunked(reader: &mut BufReader<TcpStream>, shared: &Shared) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        read_line(reader, &mut line, shared)?;
        let text = String::from_utf8_lossy(&line);
        let size_text = text.trim().split(';').next().unwrap_or("");
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidData))?;
        if size == 0 {
            // Trailers until the empty line.
            loop {
                line.clear();
                if read_line(reader, &mut line, shared)? == 0 || line.trim_ascii().is_empty() {
                    return Ok(body);
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        read_exact(reader, &mut body[start..], shared)?;
        line.clear();
        read_line(reader, &mut line, shared)?; // CRLF after the chunk
    }
}

fn reason(code: u16) -> &'static str {
    match code {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        408 => "Request Timeout",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

/// Writes the answer; `Ok(false)` when the connection must close afterwards.
fn answer(out: &mut TcpStream, turn: Turn, shared: &Shared) -> std::io::Result<bool> {
    let write = |out: &mut TcpStream, code: u16, extra: &str, body: &[u8], declared: usize| {
        let head = format!(
            "HTTP/1.1 {code} {}\r\nContent-Type: application/json\r\nContent-Length: \
             {declared}\r\n{extra}\r\n",
            reason(code)
        );
        // One write: a head and a body in separate segments would meet Nagle's algorithm and
        // the client's delayed ACK (~40 ms a response).
        let mut message = head.into_bytes();
        message.extend_from_slice(body);
        out.write_all(&message)?;
        out.flush()
    };
    match turn {
        Turn::Reply(v) => {
            let body = v.to_string().into_bytes();
            write(out, 200, "", &body, body.len())?;
            Ok(true)
        }
        Turn::Status {
            code,
            retry_after,
            body,
        } => {
            let extra = retry_after.map_or(String::new(), |s| format!("Retry-After: {s}\r\n"));
            write(out, code, &extra, body.as_bytes(), body.len())?;
            Ok(true)
        }
        Turn::Delay { ms, then } => {
            if !wait(ms, shared) {
                return Ok(false);
            }
            answer(out, *then, shared)
        }
        Turn::Stall { body, keep, ms } => {
            let body = body.to_string().into_bytes();
            let sent = &body[..keep.min(body.len().saturating_sub(1))];
            write(out, 200, "", sent, body.len())?;
            wait(ms, shared);
            Ok(false)
        }
        Turn::MalformedBody(text) => {
            write(out, 200, "", text.as_bytes(), text.len())?;
            Ok(true)
        }
        Turn::Truncate { body, keep } => {
            let body = body.to_string().into_bytes();
            let sent = &body[..keep.min(body.len().saturating_sub(1))];
            write(out, 200, "", sent, body.len())?;
            Ok(false)
        }
        Turn::Close => Ok(false),
    }
}

/// Sleeps `ms` in small steps; false when the server stopped meanwhile.
fn wait(ms: u64, shared: &Shared) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_millis(ms);
    while std::time::Instant::now() < deadline {
        if shared.stop.load(Ordering::SeqCst) {
            return false;
        }
        std::thread::sleep(
            Duration::from_millis(10)
                .min(deadline.saturating_duration_since(std::time::Instant::now())),
        );
    }
    true
}

/// A chat completion whose assistant message is `content`, with the given usage.
pub fn text_reply(content: &str, prompt_tokens: u64, completion_tokens: u64) -> Value {
    completion(
        json!({"role": "assistant", "content": content}),
        "stop",
        prompt_tokens,
        completion_tokens,
    )
}

/// A chat completion that calls tools: `(id, name, arguments)`, the arguments sent as the JSON
/// text of the value (a string value is sent as is, so invalid JSON can be scripted).
pub fn tool_calls_reply(
    calls: &[(&str, &str, Value)],
    prompt_tokens: u64,
    completion_tokens: u64,
) -> Value {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| {
            let arguments = match args {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    completion(
        json!({"role": "assistant", "content": null, "tool_calls": calls}),
        "tool_calls",
        prompt_tokens,
        completion_tokens,
    )
}

/// A chat completion around `message`.
pub fn completion(
    message: Value,
    finish_reason: &str,
    prompt_tokens: u64,
    completion_tokens: u64,
) -> Value {
    json!({
        "id": "chatcmpl-testkit",
        "object": "chat.completion",
        "created": 0,
        "model": "testkit-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A raw HTTP/1.1 exchange over a plain socket: the server's framing, keep-alive and
    /// fault turns, independent of any client library.
    fn exchange(stream: &mut TcpStream, body: &str) -> String {
        let req = format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(req.as_bytes());
        let mut reader = BufReader::new(stream.try_clone().unwrap_or_else(|_| unreachable!()));
        let mut head = String::new();
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap_or(0);
            }
            head.push_str(&line);
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0u8; len];
        let got = reader.read(&mut body).unwrap_or(0);
        let mut rest = got;
        while rest < len {
            match reader.read(&mut body[rest..]) {
                Ok(0) | Err(_) => break,
                Ok(n) => rest += n,
            }
        }
        format!("{head}{}", String::from_utf8_lossy(&body[..rest]))
    }

    #[test]
    fn serves_scripted_turns_over_one_kept_alive_connection() {
        let server = OpenAiServer::start(|req| match req.index {
            0 => Turn::Reply(text_reply(&format!("echo {}", req.prompt_text()), 5, 2)),
            1 => Turn::Status {
                code: 429,
                retry_after: Some(7),
                body: "slow down".into(),
            },
            _ => Turn::Truncate {
                body: text_reply("abcdefghij", 1, 1),
                keep: 10,
            },
        });
        let mut s = TcpStream::connect(server.addr()).unwrap_or_else(|_| unreachable!());
        let first = exchange(&mut s, r#"{"messages":[{"role":"user","content":"hi"}]}"#);
        assert!(first.starts_with("HTTP/1.1 200 OK"), "{first}");
        assert!(first.contains("echo hi"), "{first}");
        let second = exchange(&mut s, "{}");
        assert!(second.starts_with("HTTP/1.1 429"), "{second}");
        assert!(second.contains("Retry-After: 7"), "{second}");
        let third = exchange(&mut s, "{}");
        assert!(
            third.ends_with("\r\n\r\n{\"id\":\"cha"),
            "ten bytes only: {third}"
        );
        let reqs = server.requests();
        assert_eq!(reqs.len(), 3);
        assert_eq!(server.connections(), 1);
        assert_eq!(reqs[0].header("authorization"), Some("Bearer k"));
        assert_eq!(reqs[0].path, "/v1/chat/completions");
        assert_eq!(reqs[0].messages().len(), 1);
        assert_eq!(reqs[1].body, json!({}));
    }
}
