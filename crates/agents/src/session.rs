//! A run's session: the case store, the tool invoker and the folded graph, shared by the agents
//! of a run (threads), with one write path into the graph.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};

use jiff::Timestamp;
use masf_graph::{Call, Gateway, GraphState, Region, Scoring, Verdict};
use masf_store::{ActorKind, Guarded, NewEvent, Store, StoreError, Versions, Watch};
use masf_tools::{Catalog, FoldCursor, Invoked, Invoker, SourceCtx, StoreLog};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::budget::{BUDGET_WARNING, Budget, BudgetWarning, Caps, Counter, Exhausted, Reservation};
use crate::llm_call::LlmCall;
use crate::run::{RUN_STATE, RunProjection, RunState, RunStateChanged};

/// How often a running session looks for a pause request in the store.
const CONTROL_POLL: Duration = Duration::from_millis(200);

/// Why a session stopped working before its work was done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "halt", rename_all = "snake_case")]
pub enum Halt {
    /// The examiner asked for a pause.
    Paused,
    /// A budget cap was reached.
    Budget(Exhausted),
}

impl Halt {
    /// The run state it leads to.
    pub fn state(&self) -> RunState {
        match self {
            Self::Paused => RunState::Paused,
            Self::Budget(_) => RunState::HaltedBudget,
        }
    }

    /// In words.
    pub fn reason(&self) -> String {
        match self {
            Self::Paused => "paused at the examiner's request".to_string(),
            Self::Budget(e) => e.to_string(),
        }
    }
}

/// The pseudo-source id of invocations that read the case's graph rather than evidence (the
/// strategist's views).
pub const CASE_SOURCE: &str = "(case)";

/// The event kind of an artefact an agent found but could not parse.
pub const ARTEFACT_UNPARSED: &str = "ArtefactUnparsed";

/// The event kind of a plugin's triage that ran to its end on a source.
pub const TRIAGE_FINISHED: &str = "TriageFinished";

/// A plugin's rule-based triage ran to its end on a source (not halted, not failed): every
/// artefact of the plugin's catalogue was looked for, so coverage can say "not present" of
/// one that was not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TriageFinished {
    /// The source.
    pub source_id: String,
    /// The plugin.
    pub plugin: String,
    /// Its agent.
    pub agent: String,
    /// The task.
    pub task_id: String,
}

/// "Could not parse X because Y": an artefact an agent met and could not read, with no
/// phenomenon recorded from it. The report's "what could not be read" section lists these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArtefactUnparsed {
    /// The source.
    pub source_id: String,
    /// The agent that met it.
    pub agent: String,
    /// Its task.
    pub task_id: String,
    /// What it is (a path in the source, or an artefact name).
    pub artefact: String,
    /// Why it could not be parsed.
    pub reason: String,
    /// The invocation that showed the problem, if a tool call did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invocation_id: Option<String>,
}

/// A source as agents see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceInfo {
    /// The case's source id.
    pub id: String,
    /// Its label.
    pub label: String,
    /// The evidence path.
    pub path: PathBuf,
    /// The case person who owns the device, if declared.
    pub owner: Option<String>,
    /// The IANA zone naive times of this source are read in.
    pub timezone: String,
    /// The phone-numbering region the examiner set (`region:` of the source or the case),
    /// used when the source's evidence gives none ([`crate::region::of_source`]).
    pub region: Option<Region>,
    /// The environment variable holding the password of an encrypted backup at `path`
    /// (case.yaml `password_env:`); the name only.
    pub password_env: Option<String>,
}

/// Why the runtime could not go on (a tool's or a request's failure is not one: those are
/// logged outcomes).
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The case store failed.
    #[error("case store: {0}")]
    Store(#[from] StoreError),
    /// A stored graph event does not parse.
    #[error("stored event {seq} ({kind}) is not a graph event: {reason}")]
    BadEvent {
        /// Its seq.
        seq: i64,
        /// Its kind.
        kind: String,
        /// The parse error.
        reason: String,
    },
    /// The source is not part of the session.
    #[error("unknown source {0:?}")]
    UnknownSource(String),
    /// The evidence of a source could not be opened.
    #[error("source {source_id}: {reason}")]
    Source {
        /// The source.
        source_id: String,
        /// Why.
        reason: String,
    },
    /// A lock was poisoned by a panicking agent thread.
    #[error("an agent thread panicked while holding the {0}")]
    Poisoned(&'static str),
    /// The run stopped (pause or budget); work already recorded stands.
    #[error("run halted: {}", .0.reason())]
    Halted(Halt),
    /// The artefact being read used up its time ([`Session::with_artefact_limit`]); the
    /// artefact scope that set the limit ends the artefact and the triage goes on.
    #[error("{artefact}: stopped by the per-artefact time limit of {seconds} s")]
    ArtefactTimeLimit {
        /// The artefact.
        artefact: String,
        /// The limit, seconds.
        seconds: u64,
    },
}

type Clock = Arc<dyn Fn() -> Timestamp + Send + Sync>;

fn fold_error(e: masf_tools::FoldError) -> RuntimeError {
    match e {
        masf_tools::FoldError::Store(e) => RuntimeError::Store(e),
        masf_tools::FoldError::BadEvent { seq, kind, reason } => {
            RuntimeError::BadEvent { seq, kind, reason }
        }
    }
}

/// Scans a source's evidence for the session (see [`Session::with_scanner`]).
pub type Scanner =
    Arc<dyn Fn(&SourceInfo) -> Result<Arc<masf_evidence::scan::Scan>, String> + Send + Sync>;

struct SourceSlot {
    info: SourceInfo,
    ctx: OnceLock<Result<Arc<SourceCtx>, String>>,
}

/// One run's shared state: see the crate documentation.
pub struct Session {
    work_dir: PathBuf,
    /// The connection graph writes go through (one writer keeps the state and the log in step).
    graph_store: Mutex<Store>,
    /// Connections tool calls go through, so that agents on several threads call tools at once.
    pool: Mutex<Vec<Store>>,
    state: RwLock<GraphState>,
    /// Where the folded state stands in the log (its epoch, the last seq folded); changed only
    /// while holding `graph_store`.
    cursor: Mutex<FoldCursor>,
    invoker: Invoker,
    sources: BTreeMap<String, SourceSlot>,
    clock: Clock,
    budget: Budget,
    halt: Mutex<Option<Halt>>,
    /// Seq of the event that opened the current run segment, and when the store was last
    /// asked for a pause request.
    control: Mutex<(i64, Instant)>,
    segment: Mutex<u32>,
    /// Nanoseconds spent in the gateway's judgement (grounding included), for measurements.
    gateway_ns: std::sync::atomic::AtomicU64,
    /// The wall-clock time one artefact of a triage may take ([`crate::AgentCtx::artefact`]).
    artefact_limit: Option<std::time::Duration>,
    /// Where the sources' scans come from; none scans each source itself on first use.
    scanner: Option<Scanner>,
}

impl Session {
    /// Opens a session on the store in `work_dir`, folding the graph events already there.
    pub fn open(
        work_dir: &Path,
        scoring: Scoring,
        invoker: Invoker,
        sources: Vec<SourceInfo>,
        clock: Clock,
    ) -> Result<Self, RuntimeError> {
        let store = Store::open(work_dir)?;
        let (state, cursor) = masf_tools::fold_graph_at(&store, scoring).map_err(fold_error)?;
        Ok(Self {
            work_dir: work_dir.to_path_buf(),
            graph_store: Mutex::new(store),
            pool: Mutex::new(Vec::new()),
            state: RwLock::new(state),
            cursor: Mutex::new(cursor),
            invoker,
            sources: sources
                .into_iter()
                .map(|info| {
                    (
                        info.id.clone(),
                        SourceSlot {
                            info,
                            ctx: OnceLock::new(),
                        },
                    )
                })
                .collect(),
            clock,
            budget: Budget::unlimited(),
            halt: Mutex::new(None),
            control: Mutex::new((i64::MAX, Instant::now())),
            segment: Mutex::new(0),
            gateway_ns: std::sync::atomic::AtomicU64::new(0),
            artefact_limit: None,
            scanner: None,
        })
    }

    /// Takes each source's scan from `scanner` instead of scanning it here, so that a run
    /// whose intake already scanned a source does not scan it again.
    pub fn with_scanner(mut self, scanner: Scanner) -> Self {
        self.scanner = Some(scanner);
        self
    }

    /// Gives each artefact a triage reads at most `limit` of wall-clock time (config
    /// `tools.artefact_timeout_s`): past it, the artefact's next tool call stops it, it is
    /// noted as not parsed ("stopped by the per-artefact time limit") and the triage goes on
    /// with the next one, so one artefact never stalls a source.
    pub fn with_artefact_limit(mut self, limit: std::time::Duration) -> Self {
        self.artefact_limit = Some(limit);
        self
    }

    /// The per-artefact time limit, if any.
    pub fn artefact_limit(&self) -> Option<std::time::Duration> {
        self.artefact_limit
    }

    /// Puts the session under `caps`, raised by the examiner's grants, counting usage from
    /// earlier run segments (tool calls logged, rounds recorded, wall-clock seconds).
    pub fn set_caps(&mut self, mut caps: Caps) -> Result<(), RuntimeError> {
        let store = self.store()?;
        let run = RunProjection::load(&store)?;
        for g in &run.grants {
            caps.grant(g);
        }
        let rounds = self.state()?.rounds().len() as u64;
        // A run killed while active continues its budget; after `completed` a new run starts
        // afresh (the next begin_segment records where).
        let used = crate::run::RunUsage::resumed(&store, &run, rounds)?;
        let budget = Budget::new(
            caps,
            used.tool_calls,
            rounds,
            used.wall_seconds,
            used.tokens,
        );
        for w in &run.warnings {
            budget.already_warned(w);
        }
        drop(store);
        self.budget = budget;
        Ok(())
    }

    /// The budget.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Why the session halted, if it did.
    pub fn halted(&self) -> Option<Halt> {
        self.halt.lock().ok().and_then(|h| h.clone())
    }

    fn halt_with(&self, halt: Halt) -> RuntimeError {
        if let Ok(mut h) = self.halt.lock() {
            h.get_or_insert(halt.clone());
        }
        RuntimeError::Halted(halt)
    }

    /// The connection graph writes go through, locked.
    fn store(&self) -> Result<MutexGuard<'_, Store>, RuntimeError> {
        self.graph_store
            .lock()
            .map_err(|_| RuntimeError::Poisoned("graph store"))
    }

    /// An event of the session's making (`ts` from its clock, no causation): the one place
    /// where the runtime's own events, the agents' notes and the model calls are built.
    fn new_event<T: Serialize>(
        &self,
        kind: &str,
        payload: &T,
        (actor_kind, actor_id): (ActorKind, &str),
        idempotency_key: String,
        versions: Versions,
    ) -> NewEvent {
        NewEvent {
            kind: kind.to_string(),
            payload: serde_json::to_value(payload).unwrap_or(Value::Null),
            actor_kind,
            actor_id: actor_id.to_string(),
            idempotency_key,
            causation_seq: None,
            ts: self.now(),
            versions,
        }
    }

    /// Fails with [`RuntimeError::Halted`] when the run must stop: halted before, a pause was
    /// asked for (looked up in the store at most every 200 ms), or the wall clock is spent.
    pub fn check_running(&self) -> Result<(), RuntimeError> {
        if let Some(h) = self.halted() {
            return Err(RuntimeError::Halted(h));
        }
        let due = {
            let mut c = self
                .control
                .lock()
                .map_err(|_| RuntimeError::Poisoned("run control"))?;
            let due = c.0 != i64::MAX && c.1.elapsed() >= CONTROL_POLL;
            if due {
                c.1 = Instant::now();
            }
            due.then_some(c.0)
        };
        if let Some(segment_seq) = due {
            let store = self.store()?;
            let paused = crate::run::pause_requested_after(&store, segment_seq)?;
            drop(store);
            if paused {
                return Err(self.halt_with(Halt::Paused));
            }
        }
        self.budget
            .check(Counter::WallClockS)
            .map_err(|e| self.halt_budget(e))
    }

    /// Charges the budget (refusing at a cap) and records the warnings newly crossed.
    pub fn charge(&self, counter: Counter, amount: u64) -> Result<(), RuntimeError> {
        let warnings = self
            .budget
            .charge(counter, amount)
            .map_err(|e| self.halt_budget(e))?;
        for w in warnings {
            self.record_warning(&w)?;
        }
        Ok(())
    }

    fn record_warning(&self, w: &BudgetWarning) -> Result<(), RuntimeError> {
        let key = format!(
            "budget-warning/{}/{}/{}",
            w.counter.as_str(),
            (w.level * 1000.0).round() as u64,
            w.cap
        );
        tracing::warn!(
            counter = w.counter.as_str(),
            level = w.level,
            used = w.used,
            cap = w.cap,
            "budget warning"
        );
        self.append_system(BUDGET_WARNING, w, key)?;
        Ok(())
    }

    /// Sets aside between `at_least` and `at_most` of `counter` for a unit whose cost is known
    /// only after it is done (a model call's tokens); refusing, when not even `at_least` fits
    /// under the cap beside what was spent, halts the run (a unit that meets only what others
    /// hold waits for them). See [`Budget::reserve`].
    pub fn reserve(
        &self,
        counter: Counter,
        at_least: u64,
        at_most: u64,
    ) -> Result<Reservation, RuntimeError> {
        self.budget
            .reserve(counter, at_least, at_most)
            .map_err(|e| self.halt_budget(e))
    }

    /// Records budget warnings newly crossed (those [`Budget::settle`] returns).
    pub fn record_warnings(&self, warnings: &[BudgetWarning]) -> Result<(), RuntimeError> {
        for w in warnings {
            self.record_warning(w)?;
        }
        Ok(())
    }

    /// Halts the run on a budget (a model call that overran its allowance).
    pub(crate) fn halt_budget(&self, e: Exhausted) -> RuntimeError {
        self.halt_with(Halt::Budget(e))
    }

    /// Persists one model call as an [`crate::llm::LLM_CALL`] event (its agent, task, round,
    /// model, prompt version, tokens, latency, outcome): the audit of what a model cost, and
    /// the token usage a resumed run continues from.
    pub fn record_llm_call(&self, call: &LlmCall) -> Result<(), RuntimeError> {
        let mut store = self.store()?;
        let mut versions = Versions::new();
        versions.insert("model".to_string(), call.model.clone());
        versions.insert("prompt".to_string(), call.site.prompt_version.clone());
        // Each call is its own event: keyed by the seq it is about to take.
        let key = format!("llm-call/{}", store.last_seq()? + 1);
        store.append(&self.new_event(
            crate::llm_call::LLM_CALL,
            call,
            (ActorKind::Agent, &call.site.agent),
            key,
            versions,
        ))?;
        Ok(())
    }

    fn append_system<T: Serialize>(
        &self,
        kind: &str,
        payload: &T,
        key: String,
    ) -> Result<i64, RuntimeError> {
        let mut store = self.store()?;
        let appended = store.append(&self.new_event(
            kind,
            payload,
            (ActorKind::System, "runtime"),
            key,
            Versions::new(),
        ))?;
        Ok(appended.seq)
    }

    /// Opens a run segment: records `active` (segment number one past the last) and starts
    /// watching for pause requests made after it.
    pub fn begin_segment(&self, phase: &str) -> Result<u32, RuntimeError> {
        let run = {
            let store = self.store()?;
            RunProjection::load(&store)?
        };
        let segment = run.segments + 1;
        let invocations_before = self.store()?.invocation_count()?;
        let seq = self.append_system(
            RUN_STATE,
            &RunStateChanged {
                state: RunState::Active,
                segment,
                phase: phase.to_string(),
                reason: if segment == 1 {
                    "run started".to_string()
                } else {
                    format!(
                        "resumed from {}",
                        run.state.map_or("an interrupted run", RunState::as_str)
                    )
                },
                wall_seconds: 0,
                invocations_before,
            },
            format!("run-state/{segment}/active"),
        )?;
        *self
            .control
            .lock()
            .map_err(|_| RuntimeError::Poisoned("run control"))? = (seq, Instant::now());
        *self
            .segment
            .lock()
            .map_err(|_| RuntimeError::Poisoned("run segment"))? = segment;
        Ok(segment)
    }

    /// Closes the current run segment with `state`.
    pub fn end_segment(
        &self,
        state: RunState,
        phase: &str,
        reason: &str,
    ) -> Result<(), RuntimeError> {
        let segment = *self
            .segment
            .lock()
            .map_err(|_| RuntimeError::Poisoned("run segment"))?;
        self.append_system(
            RUN_STATE,
            &RunStateChanged {
                state,
                segment,
                phase: phase.to_string(),
                reason: reason.to_string(),
                wall_seconds: self.budget.segment_seconds(),
                invocations_before: 0,
            },
            format!("run-state/{segment}/{}", state.as_str()),
        )?;
        Ok(())
    }

    /// The tool catalog.
    pub fn catalog(&self) -> &Catalog {
        self.invoker.catalog()
    }

    /// The current time, from the session's clock.
    pub fn now(&self) -> Timestamp {
        (self.clock)()
    }

    /// The sources, by id.
    pub fn sources(&self) -> impl Iterator<Item = &SourceInfo> {
        self.sources.values().map(|s| &s.info)
    }

    /// One source's description.
    pub fn source_info(&self, source_id: &str) -> Result<&SourceInfo, RuntimeError> {
        self.sources
            .get(source_id)
            .map(|s| &s.info)
            .ok_or_else(|| RuntimeError::UnknownSource(source_id.to_string()))
    }

    /// The source's scanned layers, opened on first use and shared afterwards.
    pub fn source(&self, source_id: &str) -> Result<Arc<SourceCtx>, RuntimeError> {
        let slot = self
            .sources
            .get(source_id)
            .ok_or_else(|| RuntimeError::UnknownSource(source_id.to_string()))?;
        slot.ctx
            .get_or_init(|| {
                let opened = match &self.scanner {
                    Some(scanner) => scanner(&slot.info).map(|scan| {
                        SourceCtx::from_scan(source_id, scan, slot.info.password_env.as_deref())
                    }),
                    None => SourceCtx::open_with(
                        source_id,
                        &slot.info.path,
                        slot.info.password_env.as_deref(),
                    )
                    .map_err(|e| e.to_string()),
                };
                opened
                    .map(|ctx| {
                        // The case's full-text index of this source (`masf index`), which the
                        // `search_index` tool reads where it has been built.
                        ctx.with_index(masf_tools::index_tools::IndexRef {
                            dir: masf_tools::index_tools::index_dir(&self.work_dir, source_id),
                            region: slot.info.region.map(|r| r.code().to_string()),
                        })
                    })
                    .map(Arc::new)
            })
            .clone()
            .map_err(|reason| RuntimeError::Source {
                source_id: source_id.to_string(),
                reason,
            })
    }

    /// The folded graph (read lock; do not hold it across calls to [`Session::submit`]).
    pub fn state(&self) -> Result<RwLockReadGuard<'_, GraphState>, RuntimeError> {
        self.state
            .read()
            .map_err(|_| RuntimeError::Poisoned("graph state"))
    }

    /// Calls a tool on a source as `agent` in `task_id`; the call is logged whatever its
    /// outcome (`ok`, `cached`, `failed`, `timed_out`, `too_large`).
    pub fn invoke(
        &self,
        agent: &str,
        task_id: &str,
        source_id: &str,
        tool: &str,
        args: &Value,
    ) -> Result<Invoked, RuntimeError> {
        self.invoke_with(agent, task_id, source_id, tool, args, &Versions::new())
    }

    /// [`Session::invoke`], with `extra` added to the invocation's `versions` (an LLM agent's
    /// model and prompt).
    pub fn invoke_with(
        &self,
        agent: &str,
        task_id: &str,
        source_id: &str,
        tool: &str,
        args: &Value,
        extra: &Versions,
    ) -> Result<Invoked, RuntimeError> {
        self.check_running()?;
        let source = self.source(source_id)?;
        self.charge(Counter::ToolCalls, 1)?;
        let mut store = self.take_connection()?;
        let result = self.invoker.invoke_with(
            &mut store,
            &source,
            masf_tools::Call {
                tool,
                args,
                agent,
                task_id,
                ts: self.now(),
            },
            extra,
        );
        self.pool
            .lock()
            .map_err(|_| RuntimeError::Poisoned("connection pool"))?
            .push(store);
        result.map_err(|masf_tools::InvokeError::Store(e)| RuntimeError::Store(e))
    }

    fn take_connection(&self) -> Result<Store, RuntimeError> {
        let pooled = self
            .pool
            .lock()
            .map_err(|_| RuntimeError::Poisoned("connection pool"))?
            .pop();
        match pooled {
            Some(store) => Ok(store),
            None => Ok(Store::open(&self.work_dir)?),
        }
    }

    /// Submits a gateway request: the gateway judges it on the current state and the logged
    /// invocations, its events (acceptance or rejection) are appended to the store under their
    /// idempotency keys and then applied to the state. Returns the verdict.
    pub fn submit(
        &self,
        actor_kind: ActorKind,
        actor_id: &str,
        call: &Call,
    ) -> Result<Verdict, RuntimeError> {
        self.submit_with(actor_kind, actor_id, call, &Versions::new())
    }

    /// [`Session::submit`], with `extra` added to the `versions` of every event written (an
    /// LLM's model id and prompt version: [`crate::llm::Provenance`]).
    pub fn submit_with(
        &self,
        actor_kind: ActorKind,
        actor_id: &str,
        call: &Call,
        extra: &Versions,
    ) -> Result<Verdict, RuntimeError> {
        let mut store = self.store()?;
        let mut versions = Versions::new();
        versions.insert(
            "masf_graph".to_string(),
            env!("CARGO_PKG_VERSION").to_string(),
        );
        versions.extend(extra.iter().map(|(k, v)| (k.clone(), v.clone())));
        let kinds = masf_tools::graph_kinds();
        loop {
            let ts = self.now();
            // An examiner's decision is dated now, on the graph folded so far, and names the
            // last event of that fold as what it was decided on (its causation): the store
            // refuses a cause dated after it, and the consistency check a decision whose
            // cause is not the graph it was written on.
            let dated = call.dated(&ts.to_string());
            let call = dated.as_ref().unwrap_or(call);
            let verdict = {
                let state = self.state()?;
                let started = Instant::now();
                let verdict = Gateway::new(&state, &StoreLog::new(&store)).handle(call);
                self.gateway_ns.fetch_add(
                    u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX),
                    std::sync::atomic::Ordering::Relaxed,
                );
                verdict
            };
            if verdict.events().is_empty() {
                return Ok(verdict);
            }
            let mut cursor = self
                .cursor
                .lock()
                .map_err(|_| RuntimeError::Poisoned("fold cursor"))?;
            let causation_seq = (dated.is_some() && cursor.seq > 0).then_some(cursor.seq);
            let batch: Vec<NewEvent> = verdict
                .events()
                .iter()
                .map(|event| NewEvent {
                    kind: event.kind().to_string(),
                    payload: event.to_payload(),
                    actor_kind,
                    actor_id: actor_id.to_string(),
                    idempotency_key: cursor.key(event),
                    causation_seq,
                    ts,
                    versions: versions.clone(),
                })
                .collect();
            // The verdict's ids and numbers come from the state folded up to `cursor.seq`: the
            // batch is stored only if no other writer (another process, another session) added
            // a graph event since, in the same write transaction. Otherwise the state catches
            // up with what they wrote and the request is judged again.
            let watch = Watch {
                after_seq: cursor.seq,
                kinds: &kinds,
            };
            let appended = match store.append_batch_unless_newer(&batch, &watch) {
                Ok(Guarded::Appended(appended)) => appended,
                Ok(Guarded::Newer(newer)) => {
                    let mut state = self
                        .state
                        .write()
                        .map_err(|_| RuntimeError::Poisoned("graph state"))?;
                    for stored in &newer {
                        masf_tools::feed(&mut state, &mut cursor, stored).map_err(fold_error)?;
                    }
                    continue;
                }
                // The same request refused again, seen differently (an LLM repeating itself):
                // the first rejection stands in the log.
                Err(StoreError::IdempotencyConflict { .. }) if !verdict.is_accepted() => {
                    return Ok(verdict);
                }
                Err(e) => return Err(e.into()),
            };
            let mut state = self
                .state
                .write()
                .map_err(|_| RuntimeError::Poisoned("graph state"))?;
            for event in verdict.events() {
                state.apply(event);
            }
            cursor.seq = appended.iter().map(|a| a.seq).fold(cursor.seq, i64::max);
            return Ok(verdict);
        }
    }

    /// Time spent so far in the gateway's judgement of requests (grounding, lint, rescue),
    /// excluding the store writes that follow.
    pub fn gateway_time(&self) -> Duration {
        Duration::from_nanos(self.gateway_ns.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Records that an artefact could not be parsed (no phenomenon comes from it). Idempotent
    /// per (source, agent, task, artefact).
    pub fn note_unparsed(&self, note: &ArtefactUnparsed) -> Result<(), RuntimeError> {
        // A re-run meets the same artefact again (through a new, uncached failed call): the
        // first note stands.
        self.note_once(
            ARTEFACT_UNPARSED,
            &note.agent,
            note,
            format!(
                "unparsed/{}/{}/{}/{}",
                note.source_id, note.agent, note.task_id, note.artefact
            ),
            Versions::new(),
        )
    }

    /// Records that a plugin's triage finished on a source. Idempotent per (source, plugin).
    pub fn note_triage_finished(&self, done: &TriageFinished) -> Result<(), RuntimeError> {
        self.note_once(
            TRIAGE_FINISHED,
            &done.agent,
            done,
            format!("triage-finished/{}/{}", done.source_id, done.plugin),
            Versions::new(),
        )
    }

    /// The plugins whose triage finished on each source: (source, plugin) pairs.
    pub fn triages_finished(&self) -> Result<Vec<TriageFinished>, RuntimeError> {
        Ok(self
            .event_payloads(TRIAGE_FINISHED)?
            .into_iter()
            .filter_map(|p| serde_json::from_value(p).ok())
            .collect())
    }

    /// Records a read-only view of the graph (`graph_overview`, `source_coverage`, …) that
    /// `agent` consulted, as an invocation on the pseudo-source [`CASE_SOURCE`]: what a
    /// strategist saw when it decided is part of the audit. Views are not re-derivable from
    /// evidence; `masf verify` checks their stored hash only.
    pub fn log_view(
        &self,
        agent: &str,
        task_id: &str,
        view: &str,
        args: &Value,
        output: &str,
    ) -> Result<masf_store::InvocationRecord, RuntimeError> {
        let mut store = self.store()?;
        let mut versions = Versions::new();
        versions.insert(
            "masf_graph".to_string(),
            env!("CARGO_PKG_VERSION").to_string(),
        );
        Ok(store.record_invocation(&masf_store::NewInvocation {
            source_id: CASE_SOURCE.to_string(),
            tool: view.to_string(),
            args: masf_tools::canonical_json(args),
            status: masf_store::InvocationStatus::Ok,
            reason: None,
            cached_from: None,
            output: output.as_bytes().to_vec(),
            agent: agent.to_string(),
            task_id: task_id.to_string(),
            ts: self.now(),
            duration_ms: 0,
            versions,
            idempotency_key: None,
        })?)
    }

    /// Every logged invocation as the coverage view sees it.
    pub fn invocation_summaries(
        &self,
    ) -> Result<Vec<masf_graph::views::InvocationSummary>, RuntimeError> {
        let store = self.store()?;
        let mut out = Vec::new();
        store.for_each_invocation(|r| {
            out.push(masf_graph::views::InvocationSummary {
                id: r.invocation_id,
                source_id: r.source_id,
                tool: r.tool,
                args: r.args,
            });
            Ok::<(), StoreError>(())
        })?;
        Ok(out)
    }

    /// Appends an agent's own audit event (not a graph change) once: a second append under the
    /// same `key` leaves the first standing.
    pub fn note_once<T: Serialize>(
        &self,
        kind: &str,
        actor_id: &str,
        payload: &T,
        key: String,
        versions: Versions,
    ) -> Result<(), RuntimeError> {
        let mut store = self.store()?;
        let appended = store.append(&self.new_event(
            kind,
            payload,
            (ActorKind::Agent, actor_id),
            key,
            versions,
        ));
        match appended {
            Ok(_) | Err(StoreError::IdempotencyConflict { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// The payloads of every event of `kind` in the store.
    pub fn event_payloads(&self, kind: &str) -> Result<Vec<Value>, RuntimeError> {
        let store = self.store()?;
        Ok(store
            .events_of_kind(kind)?
            .into_iter()
            .map(|e| e.payload)
            .collect())
    }

    /// Every `ArtefactUnparsed` note in the store.
    pub fn unparsed(&self) -> Result<Vec<ArtefactUnparsed>, RuntimeError> {
        let store = self.store()?;
        Ok(store
            .events_of_kind(ARTEFACT_UNPARSED)?
            .iter()
            .filter_map(|e| serde_json::from_value(e.payload.clone()).ok())
            .collect())
    }
}
