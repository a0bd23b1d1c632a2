//! The run lifecycle (issue 7): a run is a sequence of segments, each opened by a `RunState`
//! event `active` and closed by one of `paused | halted_budget | completed | failed`. Another
//! process asks a running one to pause by appending a `RunControl` event; the runner sees it at
//! its next tool call and stops at that safe point. Each segment runs under the case's run lease
//! (`masf_store::Lease`), recorded as a `RunLeased` event. State is the projection of these
//! events.

use masf_store::Store;
use serde::{Deserialize, Serialize};

use crate::budget::{BUDGET_GRANTED, BUDGET_WARNING, BudgetGranted, BudgetWarning};

/// The event kind of a run state change.
pub const RUN_STATE: &str = "RunState";
/// The event kind of a request to a running process.
pub const RUN_CONTROL: &str = "RunControl";
/// The event kind of a run lease taken (issue 24): who ran the case, from where, since when.
/// Its payload is the [`masf_store::Holder`].
pub const RUN_LEASED: &str = "RunLeased";

/// Where a run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    /// Running (or killed while running: the next `masf run` resumes it).
    Active,
    /// Stopped at the examiner's request; `masf resume` continues.
    Paused,
    /// Stopped at a budget cap; `masf resume --grant` continues.
    HaltedBudget,
    /// Finished: the report is written.
    Completed,
    /// Stopped by an error of the runtime itself (the store); the reason says which.
    Failed,
}

impl RunState {
    /// The stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Paused => "paused",
            Self::HaltedBudget => "halted_budget",
            Self::Completed => "completed",
            Self::Failed => "failed",
        }
    }
}

/// A state change of the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct RunStateChanged {
    /// The new state.
    pub state: RunState,
    /// The segment (1 for the first `masf run`, +1 for each resume).
    pub segment: u32,
    /// The phase the run was in.
    pub phase: String,
    /// Why.
    pub reason: String,
    /// Seconds the segment ran (on closing states).
    pub wall_seconds: u64,
    /// Invocations logged before the segment opened (on `active`), so that a run's tool-call
    /// usage survives a kill.
    #[serde(default)]
    pub invocations_before: u64,
}

/// What another process asks of a running one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlAction {
    /// Stop at the next safe point.
    Pause,
}

/// A request to a running process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunControl {
    /// What.
    pub action: ControlAction,
    /// Who asked.
    pub by: String,
    /// Why.
    pub reason: String,
}

/// Asks a running segment of the case (this process or another) to pause at its next safe
/// point: a `RunControl` event by the examiner `by`, keyed after the log's last event (a
/// retried append of the same request is one event).
pub fn request_pause(
    store: &mut Store,
    by: &str,
    reason: &str,
    now: jiff::Timestamp,
) -> Result<(), masf_store::StoreError> {
    let seq = store.last_seq()?;
    store.append(&masf_store::NewEvent {
        kind: RUN_CONTROL.to_string(),
        payload: serde_json::json!(RunControl {
            action: ControlAction::Pause,
            by: by.to_string(),
            reason: reason.to_string(),
        }),
        actor_kind: masf_store::ActorKind::Examiner,
        actor_id: by.to_string(),
        idempotency_key: format!("run-control/pause/after-{seq}"),
        causation_seq: None,
        ts: now,
        versions: Default::default(),
    })?;
    Ok(())
}

/// Records the examiner's grants of more budget (before a resumed run), one `BudgetGranted`
/// event each, keyed after the log's last event.
pub fn record_grants(
    store: &mut Store,
    grants: &[(crate::budget::Counter, u64)],
    by: &str,
    reason: &str,
    now: jiff::Timestamp,
) -> Result<(), masf_store::StoreError> {
    for (counter, amount) in grants {
        let seq = store.last_seq()?;
        let g = BudgetGranted {
            counter: *counter,
            amount: *amount,
            by: by.to_string(),
            reason: reason.to_string(),
        };
        store.append(&masf_store::NewEvent {
            kind: BUDGET_GRANTED.to_string(),
            payload: serde_json::json!(g),
            actor_kind: masf_store::ActorKind::Examiner,
            actor_id: by.to_string(),
            idempotency_key: format!("budget-granted/{}/after-{seq}", counter.as_str()),
            causation_seq: None,
            ts: now,
            versions: Default::default(),
        })?;
    }
    Ok(())
}

/// Whether a pause was asked for after event `after_seq` (reads only the `RunControl`
/// events: this is polled while a run goes).
pub fn pause_requested_after(
    store: &Store,
    after_seq: i64,
) -> Result<bool, masf_store::StoreError> {
    Ok(store.events_of_kind(RUN_CONTROL)?.iter().any(|e| {
        e.seq > after_seq
            && serde_json::from_value::<RunControl>(e.payload.clone())
                .is_ok_and(|c| c.action == ControlAction::Pause)
    }))
}

/// The run's lifecycle, folded from the events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
pub struct RunProjection {
    /// The last state, `None` before the first run.
    pub state: Option<RunState>,
    /// Segments opened so far.
    pub segments: u32,
    /// Seconds of the closed segments of the current run (a run ends at `completed`; a later
    /// `masf run` starts a new one with fresh budgets).
    pub wall_seconds: u64,
    /// Invocations logged before the current run began.
    pub run_base_invocations: u64,
    /// The seq of the event that began the current run (its first segment).
    pub run_start_seq: i64,
    /// The seq of the event that opened the current segment.
    pub segment_seq: i64,
    /// Seq of the last pause request.
    pub pause_seq: Option<i64>,
    /// The examiner's grants.
    pub grants: Vec<BudgetGranted>,
    /// Budget warnings already given.
    pub warnings: Vec<BudgetWarning>,
    /// The last state change.
    pub last: Option<RunStateChanged>,
    /// The last run lease taken: who ran (or runs) the case.
    pub lease: Option<masf_store::Holder>,
}

impl RunProjection {
    /// Folds the lifecycle events of the store.
    pub fn load(store: &Store) -> Result<Self, masf_store::StoreError> {
        let mut p = RunProjection::default();
        for kind in [
            RUN_STATE,
            RUN_CONTROL,
            BUDGET_GRANTED,
            BUDGET_WARNING,
            RUN_LEASED,
        ] {
            for e in store.events_of_kind(kind)? {
                p.apply(e.seq, &e.kind, &e.payload);
            }
        }
        Ok(p)
    }

    fn apply(&mut self, seq: i64, kind: &str, payload: &serde_json::Value) {
        match kind {
            RUN_STATE => {
                if let Ok(c) = serde_json::from_value::<RunStateChanged>(payload.clone()) {
                    if c.state == RunState::Active {
                        if matches!(self.state, None | Some(RunState::Completed)) {
                            self.run_base_invocations = c.invocations_before;
                            self.run_start_seq = seq;
                            self.wall_seconds = 0;
                        }
                        self.segments = self.segments.max(c.segment);
                        self.segment_seq = seq;
                    } else {
                        self.wall_seconds += c.wall_seconds;
                    }
                    self.state = Some(c.state);
                    self.last = Some(c);
                }
            }
            RUN_CONTROL => {
                if let Ok(c) = serde_json::from_value::<RunControl>(payload.clone())
                    && c.action == ControlAction::Pause
                {
                    self.pause_seq = Some(seq);
                }
            }
            BUDGET_GRANTED => {
                if let Ok(g) = serde_json::from_value(payload.clone()) {
                    self.grants.push(g);
                }
            }
            BUDGET_WARNING => {
                if let Ok(w) = serde_json::from_value(payload.clone()) {
                    self.warnings.push(w);
                }
            }
            RUN_LEASED => {
                if let Ok(h) = serde_json::from_value(payload.clone()) {
                    self.lease = Some(h);
                }
            }
            _ => {}
        }
    }

    /// Whether a pause was asked for after the current segment opened and not yet honoured.
    pub fn pause_pending(&self) -> bool {
        self.state == Some(RunState::Active) && self.pause_seq.is_some_and(|p| p > self.segment_seq)
    }
}

/// What the current run (the last one, once completed) has used, from the case log: tool calls
/// logged since it began, wall-clock seconds of its closed segments, LLM tokens of the
/// `llm_call` events since it began, rounds in the graph. The one count of usage: the session
/// resumes its budget from it, the desktop's status and the report show it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunUsage {
    pub tool_calls: u64,
    pub rounds: u64,
    pub wall_seconds: u64,
    pub tokens: u64,
}

impl RunUsage {
    /// Usage of the run `run` (folded from `store`), with `rounds` from the graph.
    pub fn of(
        store: &masf_store::Store,
        run: &RunProjection,
        rounds: u64,
    ) -> Result<RunUsage, masf_store::StoreError> {
        let tokens = store
            .events_of_kind(crate::llm_call::LLM_CALL)?
            .iter()
            .filter(|e| e.seq > run.run_start_seq)
            .filter_map(|e| {
                serde_json::from_value::<crate::llm_call::LlmCall>(e.payload.clone()).ok()
            })
            .map(|c| c.tokens())
            .fold(0u64, u64::saturating_add);
        Ok(RunUsage {
            tool_calls: store
                .invocation_count()?
                .saturating_sub(run.run_base_invocations),
            rounds,
            wall_seconds: run.wall_seconds,
            tokens,
        })
    }

    /// What the next run segment counts from: the current run's usage while it is not
    /// completed; after `completed` (or before any run) a new run starts afresh.
    pub fn resumed(
        store: &masf_store::Store,
        run: &RunProjection,
        rounds: u64,
    ) -> Result<RunUsage, masf_store::StoreError> {
        match run.state {
            Some(RunState::Completed) | None => Ok(RunUsage {
                rounds,
                ..RunUsage::default()
            }),
            Some(_) => RunUsage::of(store, run, rounds),
        }
    }

    /// The budget status of this usage under `caps` raised by `grants` (the report's and the
    /// desktop's view; the run itself holds a live [`crate::budget::Budget`]).
    pub fn status(
        &self,
        mut caps: crate::budget::Caps,
        grants: &[BudgetGranted],
    ) -> masf_graph::views::BudgetStatus {
        for g in grants {
            caps.grant(g);
        }
        crate::budget::Budget::new(
            caps,
            self.tool_calls,
            self.rounds,
            self.wall_seconds,
            self.tokens,
        )
        .status()
    }
}
