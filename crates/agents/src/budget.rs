//! Run budgets (DESIGN §10, issue 7): caps on tool calls, rounds, wall-clock seconds and tokens,
//! enforced by the runtime — never by a prompt. Usage survives a resumed run: tool calls are
//! counted from the store, wall-clock time from the recorded run segments, and the examiner's
//! grants (`masf resume --grant`) raise the caps as events.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use masf_graph::views::{BudgetCounter, BudgetStatus, budget_status};
use serde::{Deserialize, Serialize};

/// The event kind of a budget warning.
pub const BUDGET_WARNING: &str = "BudgetWarning";
/// The event kind of an examiner's grant of more budget.
pub const BUDGET_GRANTED: &str = "BudgetGranted";

/// The budgeted counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counter {
    /// Tool calls (every logged invocation, whatever its status).
    ToolCalls,
    /// Strategist rounds.
    Rounds,
    /// Wall-clock seconds of running (paused time does not count).
    WallClockS,
    /// LLM tokens.
    Tokens,
}

impl Counter {
    /// Every counter.
    pub const ALL: [Counter; 4] = [
        Self::ToolCalls,
        Self::Rounds,
        Self::WallClockS,
        Self::Tokens,
    ];

    /// The stable name (as in `config.yaml` `budgets:`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ToolCalls => "tool_calls",
            Self::Rounds => "rounds",
            Self::WallClockS => "wall_clock_s",
            Self::Tokens => "tokens",
        }
    }

    /// The counter of a name.
    pub fn parse(name: &str) -> Option<Counter> {
        Self::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

/// Caps (0 = no cap) and warning levels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Caps {
    /// Tool calls.
    pub tool_calls: u64,
    /// Rounds.
    pub rounds: u64,
    /// Wall-clock seconds.
    pub wall_clock_s: u64,
    /// Tokens.
    pub tokens: u64,
    /// Fractions at which to warn, ascending.
    pub warn_at: Vec<f64>,
}

impl Caps {
    fn get(&self, c: Counter) -> u64 {
        match c {
            Counter::ToolCalls => self.tool_calls,
            Counter::Rounds => self.rounds,
            Counter::WallClockS => self.wall_clock_s,
            Counter::Tokens => self.tokens,
        }
    }

    fn slot(&mut self, c: Counter) -> &mut u64 {
        match c {
            Counter::ToolCalls => &mut self.tool_calls,
            Counter::Rounds => &mut self.rounds,
            Counter::WallClockS => &mut self.wall_clock_s,
            Counter::Tokens => &mut self.tokens,
        }
    }

    /// Raises a cap by a grant.
    pub fn grant(&mut self, g: &BudgetGranted) {
        let slot = self.slot(g.counter);
        *slot = slot.saturating_add(g.amount);
    }
}

/// An examiner's grant of more budget (`masf resume --grant tool_calls=500`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetGranted {
    /// Which counter.
    pub counter: Counter,
    /// How much more.
    pub amount: u64,
    /// Who granted it.
    pub by: String,
    /// Why.
    pub reason: String,
}

/// A counter crossed a warning level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BudgetWarning {
    /// Which counter.
    pub counter: Counter,
    /// The level crossed (e.g. 0.7).
    pub level: f64,
    /// Used at that moment.
    pub used: u64,
    /// The cap then.
    pub cap: u64,
}

/// A cap was reached: the run halts (`halted_budget`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("budget exhausted: {counter:?} used {used} of {cap}")]
pub struct Exhausted {
    /// Which counter.
    pub counter: Counter,
    /// Used.
    pub used: u64,
    /// The cap.
    pub cap: u64,
}

/// Live budget accounting for one session.
pub struct Budget {
    caps: Caps,
    tool_calls: AtomicU64,
    rounds: AtomicU64,
    tokens: AtomicU64,
    wall_before: u64,
    started: Instant,
    warned: Mutex<BTreeSet<(Counter, u64, u64)>>,
}

impl Budget {
    /// A budget with `caps`, starting from earlier usage (`tool_calls` logged so far,
    /// `wall_before` seconds of earlier run segments, `tokens` used).
    pub fn new(caps: Caps, tool_calls: u64, rounds: u64, wall_before: u64, tokens: u64) -> Self {
        Self {
            caps,
            tool_calls: AtomicU64::new(tool_calls),
            rounds: AtomicU64::new(rounds),
            tokens: AtomicU64::new(tokens),
            wall_before,
            started: Instant::now(),
            warned: Mutex::new(BTreeSet::new()),
        }
    }

    /// An unlimited budget (tests, tools that are not runs).
    pub fn unlimited() -> Self {
        Self::new(
            Caps {
                tool_calls: 0,
                rounds: 0,
                wall_clock_s: 0,
                tokens: 0,
                warn_at: Vec::new(),
            },
            0,
            0,
            0,
            0,
        )
    }

    /// Used so far.
    pub fn used(&self, c: Counter) -> u64 {
        match c {
            Counter::ToolCalls => self.tool_calls.load(Ordering::SeqCst),
            Counter::Rounds => self.rounds.load(Ordering::SeqCst),
            Counter::WallClockS => self.wall_before + self.started.elapsed().as_secs(),
            Counter::Tokens => self.tokens.load(Ordering::SeqCst),
        }
    }

    /// Seconds run in this segment.
    pub fn segment_seconds(&self) -> u64 {
        self.started.elapsed().as_secs()
    }

    /// The caps.
    pub fn caps(&self) -> &Caps {
        &self.caps
    }

    /// Fails when `c` (or the wall clock) is at its cap: checked before each unit of work.
    pub fn check(&self, c: Counter) -> Result<(), Exhausted> {
        for counter in [c, Counter::WallClockS] {
            let (used, cap) = (self.used(counter), self.caps.get(counter));
            if cap > 0 && used >= cap {
                return Err(Exhausted { counter, used, cap });
            }
        }
        Ok(())
    }

    /// Counts one unit of `c` (atomically refusing past the cap) and returns the warnings
    /// newly crossed.
    pub fn charge(&self, c: Counter, amount: u64) -> Result<Vec<BudgetWarning>, Exhausted> {
        self.check(c)?;
        let atomic = match c {
            Counter::ToolCalls => &self.tool_calls,
            Counter::Rounds => &self.rounds,
            Counter::Tokens => &self.tokens,
            Counter::WallClockS => return Ok(self.warnings()),
        };
        let cap = self.caps.get(c);
        let charged = atomic.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
            (cap == 0 || used < cap).then(|| used.saturating_add(amount))
        });
        if let Err(used) = charged {
            return Err(Exhausted {
                counter: c,
                used,
                cap,
            });
        }
        Ok(self.warnings())
    }

    /// Adds `amount` already spent (tokens of a call that was made: they count even past the
    /// cap, which [`Budget::check`] then refuses the next call against) and returns the
    /// warnings newly crossed.
    pub fn spend(&self, c: Counter, amount: u64) -> Vec<BudgetWarning> {
        let atomic = match c {
            Counter::ToolCalls => &self.tool_calls,
            Counter::Rounds => &self.rounds,
            Counter::Tokens => &self.tokens,
            Counter::WallClockS => return self.warnings(),
        };
        let _ = atomic.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
            Some(used.saturating_add(amount))
        });
        self.warnings()
    }

    /// Warnings crossed and not yet given (each level once per cap).
    pub fn warnings(&self) -> Vec<BudgetWarning> {
        let status = self.status();
        let mut out = Vec::new();
        let Ok(mut warned) = self.warned.lock() else {
            return out;
        };
        for (line, counter) in status.lines.iter().zip(Counter::ALL) {
            for &level in &self.caps.warn_at {
                if line.cap > 0 && line.fraction >= level {
                    let key = (counter, (level * 1000.0).round() as u64, line.cap);
                    if warned.insert(key) {
                        out.push(BudgetWarning {
                            counter,
                            level,
                            used: line.used,
                            cap: line.cap,
                        });
                    }
                }
            }
        }
        out
    }

    /// Marks warnings as already given (from earlier runs' events).
    pub fn already_warned(&self, w: &BudgetWarning) {
        if let Ok(mut warned) = self.warned.lock() {
            warned.insert((w.counter, (w.level * 1000.0).round() as u64, w.cap));
        }
    }

    /// The strategist's `budget_status` view.
    pub fn status(&self) -> BudgetStatus {
        let counters: Vec<BudgetCounter> = Counter::ALL
            .iter()
            .map(|&c| BudgetCounter {
                name: c.as_str().to_string(),
                used: self.used(c),
                cap: self.caps.get(c),
            })
            .collect();
        budget_status(&counters, &self.caps.warn_at)
    }
}
