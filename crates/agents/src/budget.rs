//! Run budgets (DESIGN §10, issue 7): caps on tool calls, rounds, wall-clock seconds and tokens,
//! enforced by the runtime — never by a prompt. Usage survives a resumed run: tool calls are
//! counted from the store, wall-clock time from the recorded run segments, and the examiner's
//! grants (`masf resume --grant`) raise the caps as events.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

use masf_graph::views::{BudgetCounter, BudgetStatus, budget_status};
use serde::{Deserialize, Serialize};

/// The event kind of a budget warning.
pub const BUDGET_WARNING: &str = "BudgetWarning";
/// The event kind of an examiner's grant of more budget.
pub const BUDGET_GRANTED: &str = "BudgetGranted";

/// The budgeted counters.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ts_rs::TS,
)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
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

/// A cap was reached, or the next unit of work would not fit under it: the run halts
/// (`halted_budget`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("budget exhausted: {counter:?} used {used} of {cap}{}", self.detail())]
pub struct Exhausted {
    /// Which counter.
    pub counter: Counter,
    /// Used.
    pub used: u64,
    /// The cap.
    pub cap: u64,
    /// Set when a unit was refused below the cap: the least it needed
    /// ([`Budget::reserve`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needed: Option<u64>,
    /// Set when a model call was charged more than it was allowed (its provider ignored
    /// `max_tokens`, or the prompt bound was low): `(allowed, charged)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrun: Option<(u64, u64)>,
}

impl Exhausted {
    /// `counter` at its cap.
    pub fn at_cap(counter: Counter, used: u64, cap: u64) -> Self {
        Self {
            counter,
            used,
            cap,
            needed: None,
            overrun: None,
        }
    }

    fn detail(&self) -> String {
        let mut out = String::new();
        if let Some(n) = self.needed {
            out.push_str(&format!("; the next unit needs at least {n}"));
        }
        if let Some((allowed, charged)) = self.overrun {
            out.push_str(&format!(
                "; a model call was allowed {allowed} and charged {charged}"
            ));
        }
        out
    }
}

/// Usage set aside by [`Budget::reserve`] until [`Budget::settle`] replaces it with what was
/// spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a reservation stays counted until it is settled"]
pub struct Reservation {
    counter: Counter,
    /// Set aside (0 under no cap: nothing is set aside).
    reserved: u64,
    /// What the holder may spend: `reserved`, or the most asked for under no cap.
    pub granted: u64,
}

impl Reservation {
    /// Whether anything was set aside (a cap applies).
    pub fn is_set_aside(&self) -> bool {
        self.reserved > 0
    }
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
    /// Set aside by [`Budget::reserve`] and not yet settled, per counter.
    reserved: Mutex<BTreeMap<Counter, u64>>,
    /// Signalled when a reservation is settled.
    settled: Condvar,
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
            reserved: Mutex::new(BTreeMap::new()),
            settled: Condvar::new(),
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
        match self.atomic(c) {
            Some(atomic) => atomic.load(Ordering::SeqCst),
            None => self.wall_before + self.started.elapsed().as_secs(),
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
                return Err(Exhausted::at_cap(counter, used, cap));
            }
        }
        Ok(())
    }

    /// Counts one unit of `c` (atomically refusing past the cap) and returns the warnings
    /// newly crossed.
    pub fn charge(&self, c: Counter, amount: u64) -> Result<Vec<BudgetWarning>, Exhausted> {
        self.check(c)?;
        let Some(atomic) = self.atomic(c) else {
            return Ok(self.warnings());
        };
        let cap = self.caps.get(c);
        let charged = atomic.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
            (cap == 0 || used < cap).then(|| used.saturating_add(amount))
        });
        if let Err(used) = charged {
            return Err(Exhausted::at_cap(c, used, cap));
        }
        Ok(self.warnings())
    }

    /// Sets aside up to `at_most` of `c` for a unit of work whose cost is only known after
    /// it is done (a model call), refusing when not even `at_least` fits under the cap beside
    /// what was spent: units done at once (agents on several threads) cannot together pass
    /// the cap. When `at_least` would fit but for what other units hold, waits for them to
    /// settle rather than refuse. Under no cap nothing is set aside and `at_most` is granted.
    /// What is set aside is not usage (the status and the warnings show what was spent) until
    /// [`Budget::settle`] replaces it by what was.
    pub fn reserve(
        &self,
        c: Counter,
        at_least: u64,
        at_most: u64,
    ) -> Result<Reservation, Exhausted> {
        self.check(c)?;
        let cap = self.caps.get(c);
        if cap == 0 || self.atomic(c).is_none() {
            return Ok(Reservation {
                counter: c,
                reserved: 0,
                granted: at_most,
            });
        }
        let mut held = self.reserved.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            let others = held.get(&c).copied().unwrap_or(0);
            let used = self.used(c);
            let unspent = cap.saturating_sub(used);
            let granted = unspent.saturating_sub(others).min(at_most.max(at_least));
            if granted >= at_least {
                *held.entry(c).or_default() += granted;
                return Ok(Reservation {
                    counter: c,
                    reserved: granted,
                    granted,
                });
            }
            if others == 0 || unspent < at_least {
                return Err(Exhausted {
                    needed: Some(at_least),
                    ..Exhausted::at_cap(c, used, cap)
                });
            }
            held = self.settled.wait(held).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Replaces a reservation by the usage actually `spent` (which may exceed it: usage
    /// reported is what counts) and returns the warnings newly crossed.
    pub fn settle(&self, r: Reservation, spent: u64) -> Vec<BudgetWarning> {
        {
            let mut held = self.reserved.lock().unwrap_or_else(|p| p.into_inner());
            let slot = held.entry(r.counter).or_default();
            *slot = slot.saturating_sub(r.reserved);
            if let Some(atomic) = self.atomic(r.counter) {
                let _ = atomic.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                    Some(used.saturating_add(spent))
                });
            }
        }
        self.settled.notify_all();
        self.warnings()
    }

    /// The counter kept in this session (the wall clock is derived from the segments).
    fn atomic(&self, c: Counter) -> Option<&AtomicU64> {
        match c {
            Counter::ToolCalls => Some(&self.tool_calls),
            Counter::Rounds => Some(&self.rounds),
            Counter::Tokens => Some(&self.tokens),
            Counter::WallClockS => None,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(cap: u64) -> Budget {
        let mut b = Budget::unlimited();
        b.caps.tokens = cap;
        b
    }

    #[test]
    fn a_reservation_grants_what_is_left_refuses_below_the_least_and_settles_to_what_was_spent() {
        let b = tokens(1000);
        let r = b.reserve(Counter::Tokens, 100, 700).expect("fits");
        assert_eq!((r.granted, r.is_set_aside()), (700, true));
        // Held, not used: the status shows what was spent.
        assert_eq!(b.used(Counter::Tokens), 0);
        assert!(b.settle(r, 250).is_empty());
        assert_eq!(b.used(Counter::Tokens), 250);
        // 750 left: granted all of it, not the 900 asked.
        let r = b.reserve(Counter::Tokens, 100, 900).expect("fits");
        assert_eq!(r.granted, 750);
        let _ = b.settle(r, 700);
        let e = b.reserve(Counter::Tokens, 100, 900).expect_err("50 left");
        assert_eq!(
            (e.used, e.cap, e.needed, e.overrun),
            (950, 1000, Some(100), None)
        );
        assert!(e.to_string().contains("needs at least 100"), "{e}");
        // Usage reported past a reservation counts in full.
        let b = tokens(1000);
        let r = b.reserve(Counter::Tokens, 10, 100).expect("fits");
        let _ = b.settle(r, 1200);
        assert!(b.reserve(Counter::Tokens, 0, 0).is_err(), "at the cap");
    }

    #[test]
    fn no_cap_sets_nothing_aside() {
        let b = tokens(0);
        let r = b.reserve(Counter::Tokens, 10, 5000).expect("uncapped");
        assert_eq!((r.granted, r.is_set_aside()), (5000, false));
        let _ = b.settle(r, 40);
        assert_eq!(b.used(Counter::Tokens), 40);
    }

    #[test]
    fn a_unit_that_meets_only_another_hold_waits_for_it() {
        let b = tokens(1000);
        let first = b.reserve(Counter::Tokens, 100, 900).expect("fits");
        std::thread::scope(|s| {
            let waiter = s.spawn(|| b.reserve(Counter::Tokens, 300, 300));
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(!waiter.is_finished(), "waits while the hold stands");
            let _ = b.settle(first, 200);
            let r = waiter
                .join()
                .expect("joins")
                .expect("fits after the settle");
            assert_eq!(r.granted, 300);
        });
    }
}
