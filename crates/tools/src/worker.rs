//! Tools run in worker processes, so that one that crashes, overflows its stack, runs away in
//! memory or never ends costs that call, never the run (DESIGN §5; issue 24, part 2).
//!
//! A thread cannot survive an abort (a stack overflow, a failed allocation, a C library's
//! `abort()`), and Rust cannot stop a thread that does not check its deadline. A process can be
//! given a memory limit and be killed. So the [`crate::Invoker`], when given a
//! [`WorkerCommand`], hands each call to a worker process that has the same source open:
//!
//! - **The program** is the app itself (`masf tool-worker`, the desktop app with the same
//!   argument): whoever builds the catalog says how to start a process that serves it
//!   ([`serve`]). Worker and caller hold the same catalog.
//! - **The protocol** is one JSON object per line on the worker's stdin and stdout: first
//!   `{"open": {"source_id", "path"}}` (answered `{"opened": null}` or `{"error": why}`), then
//!   per call `{"call": {"tool", "args", "timeout_ms", "max_output_bytes"}}`, answered
//!   `{"ok": {"text", "structured"}}`, `{"error": why}` or `{"too_large": bytes}`. The worker's
//!   stderr is kept by the caller (its last 4 KiB) and quoted when the worker dies; it never
//!   reaches the examiner's terminal raw.
//! - **Limits**: the worker limits its own address space (`RLIMIT_AS`, `tools.max_memory_mb`)
//!   before it opens anything, so a runaway allocation fails inside it; the caller waits at
//!   most the call's timeout and then kills the worker (`SIGKILL`), which frees every thread
//!   and byte it held. Either way the call is recorded (`failed` with the exit status and the
//!   worker's last words, or `timed_out`) and the next call on that source starts a new worker.
//! - **Pool**: idle workers are kept per source and reused; a call that finds none starts one,
//!   so parallel agents on one source each get their own. Dropping the pool ends them all.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Catalog, SourceCtx, ToolOutput};

/// How to start a worker process: `program args…` must call [`serve`] with the caller's
/// catalog on its stdin and stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerCommand {
    /// The executable (the app's own, usually `std::env::current_exe()`).
    pub program: PathBuf,
    /// The arguments that make it a worker (`["tool-worker"]`).
    pub args: Vec<OsString>,
    /// The worker's address-space limit in bytes (0: none).
    pub max_memory_bytes: u64,
}

/// How much of a worker's stderr is kept to quote when it dies.
const LAST_WORDS_BYTES: usize = 4096;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Request {
    /// Opens the source; an encrypted backup's password is read by the worker from the
    /// environment variable `password_env` names (it inherits the caller's environment), so
    /// the password itself never crosses the pipe.
    Open {
        source_id: String,
        path: PathBuf,
        #[serde(default)]
        password_env: Option<String>,
        /// The source's full-text index (read by `search_index`).
        #[serde(default)]
        index: Option<crate::index_tools::IndexRef>,
    },
    Call(CallRequest),
}

#[derive(Serialize, Deserialize)]
struct CallRequest {
    tool: String,
    args: Value,
    timeout_ms: u64,
    max_output_bytes: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    Opened(()),
    Ok {
        text: String,
        structured: Option<Value>,
    },
    Error(String),
    TooLarge(usize),
}

/// What a worker made of one call.
#[derive(Debug)]
pub enum WorkerOutcome {
    /// The tool's answer.
    Ok(ToolOutput),
    /// The tool's own error (or the worker could not open the source).
    ToolError(String),
    /// Its text was longer than the call's limit (its length).
    TooLarge(usize),
    /// No answer within the timeout: the worker was killed.
    TimedOut,
    /// The worker died during the call (how, with its last words).
    Died(String),
    /// No worker could be started (why).
    NotStarted(String),
}

/// The worker processes of one [`crate::Invoker`], idle ones kept per source.
pub struct Workers {
    command: WorkerCommand,
    idle: Mutex<HashMap<(String, PathBuf), Vec<Worker>>>,
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workers")
            .field("command", &self.command)
            .finish_non_exhaustive()
    }
}

impl Workers {
    /// A pool that starts its workers with `command`.
    pub fn new(command: WorkerCommand) -> Self {
        Self {
            command,
            idle: Mutex::new(HashMap::new()),
        }
    }

    /// The command workers are started with.
    pub fn command(&self) -> &WorkerCommand {
        &self.command
    }

    /// Runs `tool` with `args` on `source` in a worker, waiting at most `timeout`.
    pub fn call(
        &self,
        source: &SourceCtx,
        tool: &str,
        args: &Value,
        timeout: Duration,
        max_output_bytes: usize,
    ) -> WorkerOutcome {
        let key = (source.source_id.clone(), source.scan.path.clone());
        let started = Instant::now();
        let idle = self
            .idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(&key)
            .and_then(Vec::pop);
        let mut worker = match idle {
            Some(w) => w,
            None => match Worker::start(
                &self.command,
                &key.0,
                &key.1,
                source.password_env(),
                source.index(),
                timeout,
            ) {
                Ok(w) => w,
                Err(outcome) => return outcome,
            },
        };
        let left = timeout.saturating_sub(started.elapsed());
        let request = Request::Call(CallRequest {
            tool: tool.to_string(),
            args: args.clone(),
            timeout_ms: u64::try_from(left.as_millis()).unwrap_or(u64::MAX),
            max_output_bytes,
        });
        let outcome = match worker.ask(&request, left) {
            Ok(Reply::Ok { text, structured }) => {
                WorkerOutcome::Ok(ToolOutput { text, structured })
            }
            Ok(Reply::Error(why)) => WorkerOutcome::ToolError(why),
            Ok(Reply::TooLarge(n)) => WorkerOutcome::TooLarge(n),
            // A worker that broke the protocol is ended, not pooled again.
            Ok(Reply::Opened(())) => {
                return worker.end_with("answered a call as if it were an open");
            }
            Err(outcome) => return outcome,
        };
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_default()
            .push(worker);
        outcome
    }
}

/// One worker process with its source open.
struct Worker {
    child: Child,
    /// The worker's stdin: a socket, written with `MSG_NOSIGNAL`, so that writing to a worker
    /// that has died is an error here, never a `SIGPIPE` that ends the caller (the CLI keeps
    /// SIGPIPE's default action, for `masf … | head`).
    requests: UnixStream,
    lines: mpsc::Receiver<String>,
    last_words: Arc<Mutex<Vec<u8>>>,
    /// The thread copying stderr into `last_words`; it ends when the worker does.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    max_memory_bytes: u64,
}

impl Worker {
    fn start(
        command: &WorkerCommand,
        source_id: &str,
        path: &Path,
        password_env: Option<&str>,
        index: Option<&crate::index_tools::IndexRef>,
        timeout: Duration,
    ) -> Result<Worker, WorkerOutcome> {
        let not_started = |e: std::io::Error| {
            WorkerOutcome::NotStarted(format!(
                "could not start a worker process ({}): {e}",
                command.program.display()
            ))
        };
        let (requests, theirs) = UnixStream::pair().map_err(not_started)?;
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .env(
                "MASF_WORKER_MAX_MEMORY",
                command.max_memory_bytes.to_string(),
            )
            // Its last words are quoted in one line of the log: a backtrace would bury them.
            .env("RUST_BACKTRACE", "0")
            // A password given in this process (not in its environment) reaches the worker the
            // way an exported one does: in its environment, never through the request pipe.
            .envs(password_env.and_then(|var| {
                use std::os::unix::ffi::OsStringExt;
                crate::backup_password(var).map(|p| {
                    (
                        var.to_string(),
                        std::ffi::OsString::from_vec(p.bytes().to_vec()),
                    )
                })
            }))
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(not_started)?;
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(WorkerOutcome::NotStarted(
                "a worker process started without its pipes".to_string(),
            ));
        };
        let (tx, lines) = mpsc::channel();
        // A reader thread per pipe: the caller waits on a channel with a timeout, which a
        // blocking read cannot give. Each ends at the worker's end (EOF).
        let _ = std::thread::Builder::new()
            .name("masf-worker-out".to_string())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        let last_words = Arc::new(Mutex::new(Vec::new()));
        let kept = last_words.clone();
        let stderr_reader = std::thread::Builder::new()
            .name("masf-worker-err".to_string())
            .spawn(move || {
                let mut stderr = stderr;
                let mut buf = [0u8; 4096];
                while let Ok(n) = stderr.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut words = kept.lock().unwrap_or_else(|e| e.into_inner());
                    words.extend_from_slice(&buf[..n]);
                    let excess = words.len().saturating_sub(LAST_WORDS_BYTES);
                    words.drain(..excess);
                }
            })
            .ok();
        let mut worker = Worker {
            child,
            requests,
            lines,
            last_words,
            stderr_reader,
            max_memory_bytes: command.max_memory_bytes,
        };
        let open = Request::Open {
            source_id: source_id.to_string(),
            path: path.to_path_buf(),
            password_env: password_env.map(str::to_string),
            index: index.cloned(),
        };
        match worker.ask(&open, timeout)? {
            Reply::Opened(()) => Ok(worker),
            Reply::Error(why) => Err(WorkerOutcome::ToolError(why)),
            _ => Err(worker.end_with("answered an open with something else")),
        }
    }

    /// Sends `request` and waits at most `timeout` for its reply; on no reply the worker is
    /// ended and what happened is the `Err`.
    fn ask(&mut self, request: &Request, timeout: Duration) -> Result<Reply, WorkerOutcome> {
        let mut line = serde_json::to_string(request).map_err(|e| {
            WorkerOutcome::ToolError(format!("the call could not be serialised: {e}"))
        })?;
        line.push('\n');
        if send_all(&self.requests, line.as_bytes()).is_err() {
            return Err(self.died());
        }
        match self.lines.recv_timeout(timeout) {
            Ok(reply) => serde_json::from_str(&reply).map_err(|e| {
                self.end_with(&format!("answered something that is not a reply ({e})"))
            }),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                Err(WorkerOutcome::TimedOut)
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(self.died()),
        }
    }

    /// The worker's end, said: its exit status and last words.
    fn died(&mut self) -> WorkerOutcome {
        let status = self.child.wait();
        // The stderr reader ends at the pipe's end, which the worker's exit closed: once
        // joined, the last words are all there.
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        let words = self.last_words();
        let how = match status {
            Ok(s) => describe(s),
            Err(e) => format!("ended (its status could not be read: {e})"),
        };
        let limit = if self.max_memory_bytes > 0 {
            format!(
                " (its memory limit is {} MiB)",
                self.max_memory_bytes / (1024 * 1024)
            )
        } else {
            String::new()
        };
        WorkerOutcome::Died(if words.is_empty() {
            format!("its worker process {how}{limit}")
        } else {
            format!("its worker process {how}{limit}; it last said: {words}")
        })
    }

    /// Ends a worker that broke the protocol.
    fn end_with(&mut self, what: &str) -> WorkerOutcome {
        let _ = self.child.kill();
        let _ = self.child.wait();
        WorkerOutcome::Died(format!("its worker process {what}"))
    }

    fn last_words(&self) -> String {
        let words = self.last_words.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&words);
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("note: run with `RUST_BACKTRACE"))
            .collect();
        masf_evidence::fs::visible(&lines.join(" / ")).into_owned()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes all of `bytes` to `socket` without ever raising `SIGPIPE`.
fn send_all(socket: &UnixStream, mut bytes: &[u8]) -> std::io::Result<()> {
    while !bytes.is_empty() {
        match rustix::net::send(socket, bytes, rustix::net::SendFlags::NOSIGNAL) {
            Ok(n) => bytes = &bytes[n..],
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// "was killed by signal 6 (SIGABRT)", "exited with status 3".
fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => {
            let name = match sig {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                _ => "",
            };
            format!("was killed by signal {sig}{name}")
        }
        (None, None) => "ended".to_string(),
    }
}

/// The worker's side: serves the calls read from `input` with `catalog`, one reply line
/// each on `output`, until `input` ends. Limits the process's address space to
/// `$MASF_WORKER_MAX_MEMORY` bytes first (when set and not 0). Returns the exit status.
pub fn serve(catalog: &Catalog, input: impl BufRead, mut output: impl Write) -> i32 {
    if let Some(bytes) = std::env::var("MASF_WORKER_MAX_MEMORY")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|b| *b > 0)
    {
        let limit = rustix::process::Rlimit {
            current: Some(bytes),
            maximum: Some(bytes),
        };
        if let Err(e) = rustix::process::setrlimit(rustix::process::Resource::As, limit) {
            eprintln!("tool worker: the memory limit could not be set: {e}");
            return 2;
        }
    }
    // A panicking tool is answered as an error; the default hook would print it raw.
    std::panic::set_hook(Box::new(|_| {}));
    let mut source: Option<SourceCtx> = None;
    for line in input.lines() {
        let Ok(line) = line else { return 0 };
        let reply = match serde_json::from_str::<Request>(&line) {
            Err(e) => Reply::Error(format!("not a worker request: {e}")),
            Ok(Request::Open {
                source_id,
                path,
                password_env,
                index,
            }) => match SourceCtx::open_with(&source_id, &path, password_env.as_deref()) {
                Ok(ctx) => {
                    source = Some(match index {
                        Some(index) => ctx.with_index(index),
                        None => ctx,
                    });
                    Reply::Opened(())
                }
                Err(e) => Reply::Error(e.to_string()),
            },
            Ok(Request::Call(call)) => match &source {
                None => Reply::Error("no source is open in this worker".to_string()),
                Some(ctx) => run_call(catalog, ctx, call),
            },
        };
        let Ok(mut text) = serde_json::to_string(&reply) else {
            return 3;
        };
        text.push('\n');
        if output
            .write_all(text.as_bytes())
            .and_then(|()| output.flush())
            .is_err()
        {
            return 0;
        }
    }
    0
}

fn run_call(catalog: &Catalog, ctx: &SourceCtx, call: CallRequest) -> Reply {
    let Some(tool) = catalog.get(&call.tool) else {
        return Reply::Error(crate::ToolError::UnknownTool(call.tool).to_string());
    };
    crate::deadline::set(Instant::now().checked_add(Duration::from_millis(call.timeout_ms)));
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tool.run(ctx, &call.args)));
    crate::deadline::set(None);
    match ran {
        Ok(Ok(out)) if out.text.len() > call.max_output_bytes => Reply::TooLarge(out.text.len()),
        Ok(Ok(out)) => Reply::Ok {
            text: out.text,
            structured: out.structured,
        },
        Ok(Err(e)) => Reply::Error(e.to_string()),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned());
            Reply::Error(match what {
                Some(w) => format!("the tool {} panicked: {w}", call.tool),
                None => format!("the tool {} panicked", call.tool),
            })
        }
    }
}
