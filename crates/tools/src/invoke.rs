//! The invocation wrapper: the one path every tool call goes through (DESIGN §5).
//!
//! [`Invoker::invoke`] canonicalises the arguments, validates them against the tool's schema,
//! optionally answers from the cache, runs the tool under a time limit and an output-size limit,
//! and records the call in the store, whatever its outcome:
//!
//! | outcome | status | output recorded |
//! |---|---|---|
//! | the tool returned within the limits | `ok` | its text |
//! | an earlier `ok` call with the same source, tool (and tool version) and canonical args | `cached` (`cached_from` names it) | the earlier output |
//! | unknown tool, invalid arguments (or nested deeper than [`MAX_ARGS_DEPTH`]), tool error or panic | `failed` (reason) | empty |
//! | the tool ran past [`Limits::timeout`] | `timed_out` (reason) | empty |
//! | its text exceeded [`Limits::max_output_bytes`] | `too_large` (reason) | empty |
//!
//! Only a store failure is an `Err`: a bad call is a logged call, and the case goes on.
//!
//! **Worker processes.** Given a [`crate::worker::WorkerCommand`] ([`Invoker::with_workers`]),
//! the tool runs in a worker process instead (see [`crate::worker`]): an abort, a stack
//! overflow or an exhausted memory limit is a `failed` call naming the worker's end, and a
//! call past its timeout kills the worker (`timed_out`). What follows is the thread mode.
//!
//! **Timeouts.** The tool runs on its own thread; the wrapper waits for it at most
//! `timeout`. A tool that overruns is recorded as `timed_out` and its thread is left running,
//! detached (Rust cannot kill a thread): it holds an `Arc` of its source and its result is
//! dropped when it finishes. The thread's [`crate::deadline`] is set to the limit, and the
//! long-running executors check it (`find_files` between directories, `hash_file` between reads,
//! the SQLite tools through a watcher that interrupts the query), so they stop soon after being
//! abandoned. A tool that never checks and never ends costs one thread and its memory until the
//! process ends; the next calls are not delayed by it.
//!
//! Durations are measured with a monotonic clock ([`std::time::Instant`]); the call's `ts` is
//! the caller's, as everywhere in the store.

use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use jiff::Timestamp;
use masf_store::{InvocationRecord, InvocationStatus, NewInvocation, Store, StoreError, Versions};
use serde_json::Value;

use crate::catalog::validate;
use crate::worker::{WorkerCommand, WorkerOutcome, Workers};
use crate::{
    Catalog, SourceCtx, ToolError, ToolOutput, canonical_json, canonical_value, json_depth,
};

/// Deepest arguments a call may have: every tool's arguments are a flat object of scalars and
/// short lists; deeper ones are refused (`failed`) before they are serialised.
pub const MAX_ARGS_DEPTH: usize = 32;

/// Limits every call runs under (the app maps `config.yaml`'s `tools:` section to these).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest a tool may run.
    pub timeout: Duration,
    /// Largest text output, in bytes.
    pub max_output_bytes: usize,
}

impl Default for Limits {
    /// The defaults of `config.yaml`'s `tools:` section.
    fn default() -> Self {
        Self::from(&masf_case::Config::default().tools)
    }
}

impl From<&masf_case::ToolsConfig> for Limits {
    /// `tools: {timeout_s, max_output_bytes}` of `config.yaml`.
    fn from(c: &masf_case::ToolsConfig) -> Self {
        Self {
            timeout: Duration::from_secs(c.timeout_s),
            max_output_bytes: usize::try_from(c.max_output_bytes).unwrap_or(usize::MAX),
        }
    }
}

/// One call to make.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The tool's name.
    pub tool: &'a str,
    /// Its arguments (a JSON object; `null` is read as `{}`).
    pub args: &'a Value,
    /// The agent making the call.
    pub agent: &'a str,
    /// The task it works on.
    pub task_id: &'a str,
    /// When the call is made (the caller's clock).
    pub ts: Timestamp,
}

/// A recorded call and what it returned.
#[derive(Debug, Clone)]
pub struct Invoked {
    /// The store's record of the call.
    pub record: InvocationRecord,
    /// The output: the tool's text and structured form for `ok`; the earlier text (and no
    /// structured form) for `cached`; empty otherwise.
    pub output: ToolOutput,
}

/// Why a call could not be recorded.
#[derive(Debug, thiserror::Error)]
pub enum InvokeError {
    /// The store refused or failed.
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

/// The wrapper every tool call goes through.
#[derive(Clone)]
pub struct Invoker {
    catalog: Arc<Catalog>,
    limits: Limits,
    cache: bool,
    workers: Option<Arc<Workers>>,
}

enum Outcome {
    Ok(ToolOutput),
    Cached(String, Vec<u8>),
    Failed(String),
    TimedOut(String),
    TooLarge(String),
}

impl Invoker {
    /// A wrapper over `catalog` with `limits`; the cache is on.
    pub fn new(catalog: Arc<Catalog>, limits: Limits) -> Self {
        Self {
            catalog,
            limits,
            cache: true,
            workers: None,
        }
    }

    /// Runs every call in a worker process started with `command` (see [`crate::worker`]):
    /// a tool that aborts, overflows its stack, exhausts the worker's memory limit or never
    /// ends is then a `failed` or `timed_out` call, and the process goes on. Without it, tools
    /// run on threads of this process.
    pub fn with_workers(mut self, command: WorkerCommand) -> Self {
        self.workers = Some(Arc::new(Workers::new(command)));
        self
    }

    /// The worker command, if calls run in worker processes.
    pub fn worker_command(&self) -> Option<&WorkerCommand> {
        self.workers.as_deref().map(Workers::command)
    }

    /// Turns serving repeated calls from the cache on or off.
    pub fn with_cache(mut self, cache: bool) -> Self {
        self.cache = cache;
        self
    }

    /// The catalog.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Makes one call on `source` and records it in `store` (see the module documentation).
    pub fn invoke(
        &self,
        store: &mut Store,
        source: &Arc<SourceCtx>,
        call: Call<'_>,
    ) -> Result<Invoked, InvokeError> {
        self.invoke_with(store, source, call, &Versions::new())
    }

    /// [`Invoker::invoke`], recording `extra` in the invocation's `versions` too (the model and
    /// prompt of an LLM agent that made the call).
    pub fn invoke_with(
        &self,
        store: &mut Store,
        source: &Arc<SourceCtx>,
        call: Call<'_>,
        extra: &Versions,
    ) -> Result<Invoked, InvokeError> {
        let started = Instant::now();
        // Arguments nested past the bound are refused before anything serialises them
        // (serialisation recurses); what is recorded then is the refusal, not the arguments.
        let too_deep = json_depth(call.args) > MAX_ARGS_DEPTH;
        let args = match call.args {
            _ if too_deep => {
                serde_json::json!({"$unrecorded": format!("arguments nested deeper than {MAX_ARGS_DEPTH} levels")})
            }
            Value::Null => Value::Object(serde_json::Map::new()),
            other => canonical_value(other),
        };
        let args_text = canonical_json(&args);
        let tool = self.catalog.get(call.tool).cloned();
        let mut versions = Versions::new();
        versions.insert(
            "masf_tools".to_string(),
            env!("CARGO_PKG_VERSION").to_string(),
        );
        if let Some(t) = &tool {
            versions.insert("tool".to_string(), t.version().to_string());
        }
        versions.extend(extra.iter().map(|(k, v)| (k.clone(), v.clone())));

        let refusal = |t: &Arc<dyn crate::Tool>| {
            validate(&t.args_schema(), &args)
                .map_err(|e| e.to_string())
                .and_then(|()| match source.refusal(t.name(), t.applicability()) {
                    None => Ok(()),
                    Some(why) => Err(ToolError::NotApplicable(format!(
                        "{why}; tools for this source: {}",
                        self.catalog.applicable_to(source).join(", ")
                    ))
                    .to_string()),
                })
        };
        let outcome = match &tool {
            _ if too_deep => Outcome::Failed(
                ToolError::InvalidArgs(format!(
                    "arguments nested deeper than {MAX_ARGS_DEPTH} levels"
                ))
                .to_string(),
            ),
            None => Outcome::Failed(ToolError::UnknownTool(call.tool.to_string()).to_string()),
            Some(t) => match refusal(t) {
                Err(why) => Outcome::Failed(why),
                Ok(()) => {
                    let cached = if self.cache {
                        self.cache_hit(
                            store,
                            &source.source_id,
                            call.tool,
                            &args_text,
                            t.version(),
                        )?
                    } else {
                        None
                    };
                    match cached {
                        Some((id, bytes)) => Outcome::Cached(id, bytes),
                        None => self.run(t.clone(), source, args.clone()),
                    }
                }
            },
        };

        let (status, reason, cached_from, output) = match outcome {
            Outcome::Ok(out) => (InvocationStatus::Ok, None, None, out),
            Outcome::Cached(id, bytes) => (
                InvocationStatus::Cached,
                None,
                Some(id),
                ToolOutput::text(String::from_utf8_lossy(&bytes).into_owned()),
            ),
            Outcome::Failed(r) => (InvocationStatus::Failed, Some(r), None, empty()),
            Outcome::TimedOut(r) => (InvocationStatus::TimedOut, Some(r), None, empty()),
            Outcome::TooLarge(r) => (InvocationStatus::TooLarge, Some(r), None, empty()),
        };
        let reason = reason.map(|r| source.scrub(&r));
        let record = store.record_invocation(&NewInvocation {
            source_id: source.source_id.clone(),
            tool: call.tool.to_string(),
            args: args_text,
            status,
            reason,
            cached_from,
            output: output.text.as_bytes().to_vec(),
            agent: call.agent.to_string(),
            task_id: call.task_id.to_string(),
            ts: call.ts,
            duration_ms: started.elapsed().as_millis() as u64,
            versions,
            idempotency_key: None,
        })?;
        Ok(Invoked { record, output })
    }

    fn cache_hit(
        &self,
        store: &Store,
        source_id: &str,
        tool: &str,
        args: &str,
        version: &str,
    ) -> Result<Option<(String, Vec<u8>)>, InvokeError> {
        for hit in store.cache_candidates(source_id, tool, args)? {
            // An answer of another version of the tool is not reused.
            if hit.versions.get("tool").map(String::as_str) != Some(version) {
                continue;
            }
            // An output that no longer matches its hash is not served.
            match store.invocation_output(&hit.invocation_id) {
                Ok(bytes) => return Ok(Some((hit.invocation_id, bytes))),
                Err(StoreError::OutputMismatch { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Ok(None)
    }

    fn run(&self, tool: Arc<dyn crate::Tool>, source: &Arc<SourceCtx>, args: Value) -> Outcome {
        let Some(workers) = &self.workers else {
            return self.run_on_thread(tool, source, args);
        };
        let name = tool.name();
        let limit_ms = self.limits.timeout.as_millis();
        let started = Instant::now();
        match workers.call(
            source,
            name,
            &args,
            self.limits.timeout,
            self.limits.max_output_bytes,
        ) {
            WorkerOutcome::Ok(out) => Outcome::Ok(out),
            WorkerOutcome::TooLarge(n) => Outcome::TooLarge(format!(
                "output of {n} bytes exceeds the limit of {} bytes",
                self.limits.max_output_bytes
            )),
            // A tool that stopped itself at the deadline ran out of time.
            WorkerOutcome::ToolError(e) if started.elapsed() >= self.limits.timeout => {
                Outcome::TimedOut(format!("stopped at the limit of {limit_ms} ms: {e}"))
            }
            WorkerOutcome::ToolError(e) => Outcome::Failed(e),
            WorkerOutcome::TimedOut => Outcome::TimedOut(format!(
                "no answer within the limit of {limit_ms} ms; its worker process was stopped"
            )),
            WorkerOutcome::Died(how) => Outcome::Failed(format!("the tool {name} crashed: {how}")),
            WorkerOutcome::NotStarted(why) => {
                Outcome::Failed(format!("the tool {name} could not run: {why}"))
            }
        }
    }

    fn run_on_thread(
        &self,
        tool: Arc<dyn crate::Tool>,
        source: &Arc<SourceCtx>,
        args: Value,
    ) -> Outcome {
        let (tx, rx) = mpsc::sync_channel(1);
        let source = source.clone();
        let name = tool.name().to_string();
        let deadline = Instant::now().checked_add(self.limits.timeout);
        let spawned = std::thread::Builder::new()
            .name(format!("masf-tool-{name}"))
            .spawn(move || {
                crate::deadline::set(deadline);
                // The receiver may be gone (timed out): the result is then dropped.
                let _ = tx.send(tool.run(&source, &args));
            });
        if let Err(e) = spawned {
            return Outcome::Failed(format!("could not start the tool's thread: {e}"));
        }
        match rx.recv_timeout(self.limits.timeout) {
            Ok(Ok(out)) => {
                if out.text.len() > self.limits.max_output_bytes {
                    Outcome::TooLarge(format!(
                        "output of {} bytes exceeds the limit of {} bytes",
                        out.text.len(),
                        self.limits.max_output_bytes
                    ))
                } else {
                    Outcome::Ok(out)
                }
            }
            // A tool that stopped itself at the deadline (an interrupted SQLite query, an
            // abandoned walk) ran out of time: the same outcome as not answering at all.
            Ok(Err(e)) if deadline.is_some_and(|at| Instant::now() >= at) => {
                Outcome::TimedOut(format!(
                    "stopped at the limit of {} ms: {e}",
                    self.limits.timeout.as_millis()
                ))
            }
            Ok(Err(e)) => Outcome::Failed(e.to_string()),
            Err(mpsc::RecvTimeoutError::Timeout) => Outcome::TimedOut(format!(
                "no answer within the limit of {} ms; abandoned",
                self.limits.timeout.as_millis()
            )),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Outcome::Failed(format!("the tool {name} panicked"))
            }
        }
    }
}

fn empty() -> ToolOutput {
    ToolOutput::text(String::new())
}
