//! Re-derivation: every recorded output can be reproduced by running its call again.
//!
//! `masf rerun` and `masf verify` rest on this module. For one logged invocation it checks two
//! things: the output kept in the store still has the hash recorded with it (nobody altered the
//! stored bytes), and running the same tool with the same canonical arguments on the same
//! evidence gives an output with that same hash (the call is reproducible). Neither check writes
//! anything: a re-run is not a new invocation of any agent.

use serde::Serialize;
use sha2::{Digest, Sha256};

use masf_store::{InvocationRecord, InvocationStatus, Store};

use crate::{Catalog, SourceCtx};

/// The outcome of re-deriving one invocation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// The stored output is intact and the re-run reproduces its hash.
    Match,
    /// The stored output no longer has its recorded hash.
    StoredOutputAltered { detail: String },
    /// The re-run gives different bytes.
    RerunDiffers { rerun_sha256: String },
    /// The re-run differs only in times that reading the evidence changes (the accessed and
    /// changed times of a folder source's files, when something else read them): the recorded
    /// output still stands, and the change itself is said (`detail`: "evidence metadata changed:
    /// accessed time of 3 entries").
    MetadataChanged {
        rerun_sha256: String,
        detail: String,
    },
    /// The re-run could not run (unknown tool, evidence unreadable, tool error).
    RerunFailed { reason: String },
    /// Nothing to reproduce: the call had no output (failed, timed out, too large).
    NotReproducible { status: String },
}

/// One re-derivation.
#[derive(Debug, Clone, Serialize)]
pub struct Rederivation {
    pub invocation_id: String,
    pub source_id: String,
    pub tool: String,
    pub args: String,
    pub recorded_sha256: String,
    #[serde(flatten)]
    pub verdict: Verdict,
}

impl Rederivation {
    /// Whether this invocation passed (or had nothing to reproduce).
    pub fn ok(&self) -> bool {
        matches!(
            self.verdict,
            Verdict::Match | Verdict::NotReproducible { .. } | Verdict::MetadataChanged { .. }
        )
    }
}

/// Re-derives one recorded invocation against its source.
pub fn rederive(
    store: &Store,
    catalog: &Catalog,
    source: &SourceCtx,
    rec: &InvocationRecord,
) -> Rederivation {
    let verdict = check(store, catalog, source, rec);
    Rederivation {
        invocation_id: rec.invocation_id.clone(),
        source_id: rec.source_id.clone(),
        tool: rec.tool.clone(),
        args: rec.args.clone(),
        recorded_sha256: rec.output_sha256.clone(),
        verdict,
    }
}

fn check(store: &Store, catalog: &Catalog, source: &SourceCtx, rec: &InvocationRecord) -> Verdict {
    if !matches!(rec.status, InvocationStatus::Ok | InvocationStatus::Cached) {
        return Verdict::NotReproducible {
            status: rec.status.as_str().to_string(),
        };
    }
    // Read (and re-hashed) once: kept for comparing with a re-run that differs.
    let recorded = match store.invocation_output(&rec.invocation_id) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Verdict::StoredOutputAltered {
                detail: e.to_string(),
            };
        }
    };
    let Some(tool) = catalog.get(&rec.tool) else {
        return Verdict::RerunFailed {
            reason: format!("no tool named {} in this build", rec.tool),
        };
    };
    let args: serde_json::Value = match serde_json::from_str(&rec.args) {
        Ok(a) => a,
        Err(e) => {
            return Verdict::RerunFailed {
                reason: format!("recorded arguments are not JSON: {e}"),
            };
        }
    };
    match tool.run(source, &args) {
        Ok(out) => {
            let sha = hex::encode(Sha256::digest(out.text.as_bytes()));
            if sha == rec.output_sha256 {
                return Verdict::Match;
            }
            match volatile_only(&String::from_utf8_lossy(&recorded), &out.text) {
                Some(detail) => Verdict::MetadataChanged {
                    rerun_sha256: sha,
                    detail,
                },
                None => Verdict::RerunDiffers { rerun_sha256: sha },
            }
        }
        Err(e) => Verdict::RerunFailed {
            reason: source.scrub(&e.to_string()),
        },
    }
}

/// The times that reading or re-linking evidence changes without changing its content.
const VOLATILE: [&str; 2] = ["accessed", "changed"];

/// When `recorded` and `rerun` differ only in [`VOLATILE`] times — in the `times` field of
/// entry lines (`role=value,…`) or in `role: value` lines of `stat` — says which, counted by
/// entry; `None` when anything else differs.
fn volatile_only(recorded: &str, rerun: &str) -> Option<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (recorded.lines().collect(), rerun.lines().collect());
    if a.len() != b.len() {
        return None;
    }
    let mut counts = [0usize; VOLATILE.len()];
    // The column of the times in a table (the listing's and the inventory's headers both name
    // it `times`), from the last header line above the entry.
    let mut times_at = None;
    for (x, y) in a.iter().zip(&b) {
        if x == y {
            if let Some(i) = x.split('\t').position(|cell| cell == "times") {
                times_at = Some(i);
            }
            continue;
        }
        let changed = line_volatile_diff(x, y, times_at)?;
        for (i, c) in changed.iter().enumerate() {
            counts[i] += usize::from(*c);
        }
    }
    let parts: Vec<String> = VOLATILE
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(role, n)| {
            format!(
                "{role} time of {n} {}",
                if n == 1 { "entry" } else { "entries" }
            )
        })
        .collect();
    (!parts.is_empty()).then(|| format!("evidence metadata changed: {}", parts.join(", ")))
}

/// Which volatile roles differ between two lines that are otherwise equal; `None` when
/// anything else differs. `times_at` is the column of a table's `times` cell, if a header
/// named it.
fn line_volatile_diff(x: &str, y: &str, times_at: Option<usize>) -> Option<[bool; VOLATILE.len()]> {
    let mut changed = [false; VOLATILE.len()];
    // `stat`: "accessed: 2026-…".
    for (i, role) in VOLATILE.iter().enumerate() {
        let prefix = format!("{role}: ");
        if x.starts_with(&prefix) && y.starts_with(&prefix) {
            changed[i] = true;
            return Some(changed);
        }
    }
    // Entry lines: the same fields but the times, whose volatile roles alone may differ.
    let times_at = times_at?;
    let (fx, fy): (Vec<&str>, Vec<&str>) = (x.split('\t').collect(), y.split('\t').collect());
    if fx.len() != fy.len() || fx.len() <= times_at {
        return None;
    }
    for (i, (p, q)) in fx.iter().zip(&fy).enumerate() {
        if i != times_at && p != q {
            return None;
        }
    }
    let (tx, ty): (Vec<&str>, Vec<&str>) = (
        fx[times_at].split(',').collect(),
        fy[times_at].split(',').collect(),
    );
    if tx.len() != ty.len() {
        return None;
    }
    for (p, q) in tx.iter().zip(&ty) {
        if p == q {
            continue;
        }
        let (rp, rq) = (p.split_once('=')?.0, q.split_once('=')?.0);
        let i = VOLATILE.iter().position(|r| *r == rp && rp == rq)?;
        changed[i] = true;
    }
    Some(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "kind\tsize\tid\tmode\tdeleted\ttimes\tpath";

    fn line(size: u64, accessed: &str, changed: &str) -> String {
        format!(
            "file\t{size}\t12\t100644\t-\tmodified=2026-01-01T00:00:00Z,accessed={accessed},changed={changed}\t/a.txt"
        )
    }

    #[test]
    fn only_accessed_and_changed_times_are_volatile() {
        let rec = format!("{HEAD}\n{}\n{}\n", line(3, "1", "1"), line(4, "1", "1"));
        let read = format!("{HEAD}\n{}\n{}\n", line(3, "2", "1"), line(4, "2", "2"));
        assert_eq!(
            volatile_only(&rec, &read).as_deref(),
            Some("evidence metadata changed: accessed time of 2 entries, changed time of 1 entry")
        );
        // A size, a modified time or a name that differs is a real difference.
        let grown = format!("{HEAD}\n{}\n{}\n", line(5, "2", "1"), line(4, "1", "1"));
        assert_eq!(volatile_only(&rec, &grown), None);
        let touched = rec.replace(
            "modified=2026-01-01T00:00:00Z",
            "modified=2026-02-01T00:00:00Z",
        );
        assert_eq!(volatile_only(&rec, &touched), None);
        assert_eq!(volatile_only(&rec, &format!("{rec}extra\n")), None);
        // Without a header naming the times column, nothing is read as a time.
        let headless = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(volatile_only(&headless(&rec), &headless(&read)), None);
        // The inventory's table, whose times are the fifth column.
        let inv = |accessed: &str| {
            format!(
                "# inventory of /: 1 files, 0 deleted\n{}\n3\tab12\t7\t-\tmodified=1,accessed={accessed}\t/a\\tb\n# 1 files listed; end of the inventory\n",
                crate::inventory::INVENTORY_HEADER
            )
        };
        assert_eq!(
            volatile_only(&inv("1"), &inv("2")).as_deref(),
            Some("evidence metadata changed: accessed time of 1 entry")
        );
        assert_eq!(
            volatile_only(&inv("1"), &inv("2").replace("ab12", "ab13")),
            None
        );
        // stat's "role: value" lines.
        let stat = "path: /a.txt\nsize: 3\nmodified: 1\naccessed: 1\nchanged: 1\n";
        assert_eq!(
            volatile_only(stat, &stat.replace("accessed: 1", "accessed: 9")).as_deref(),
            Some("evidence metadata changed: accessed time of 1 entry")
        );
        assert_eq!(
            volatile_only(stat, &stat.replace("modified: 1", "modified: 9")),
            None
        );
    }
}

/// A verified fact that no longer checks against its invocation's stored output.
#[derive(Debug, Clone, Serialize)]
pub struct FactFailure {
    pub phenomenon_id: String,
    pub fact_index: usize,
    pub invocation_id: String,
    pub value: String,
    pub reason: String,
}

/// What [`reground_facts`] found.
#[derive(Debug, Clone, Default)]
pub struct FactsRegrounded {
    /// Verified facts checked.
    pub facts: u64,
    /// Of them, found again in the invocation they cite, by the recorded method.
    pub matched: u64,
    /// Every fact that no longer checks, with why.
    pub failures: Vec<FactFailure>,
}

/// Re-grounds every verified fact of `state` against the stored output of the invocation it
/// cites (read through the store, which re-hashes outputs): the value must still be found in
/// that very invocation, by the same method, as the gateway grounded it — with the region
/// `region_of` gives the fact's source.
pub fn reground_facts(
    store: &Store,
    state: &masf_graph::GraphState,
    region_of: &dyn Fn(&str) -> Option<masf_graph::Region>,
) -> FactsRegrounded {
    let log = crate::StoreLog::new(store);
    let mut out = FactsRegrounded::default();
    for ph in state.phenomena().values() {
        let region = region_of(&ph.source_id);
        let asker = masf_graph::Asker {
            agent: &ph.agent,
            task_id: &ph.task_id,
            region: region.as_ref(),
        };
        for (i, fact) in ph.verified_facts.iter().enumerate() {
            out.facts += 1;
            let claim = masf_graph::FactClaim {
                fact_type: fact.fact_type,
                value: fact.value.clone(),
                invocation_id: fact.invocation_id.clone(),
            };
            let reason = match masf_graph::ground_fact(&log, &asker, i, &claim) {
                Ok(again)
                    if again.invocation_id == fact.invocation_id
                        && again.matched.method == fact.matched.method =>
                {
                    out.matched += 1;
                    continue;
                }
                Ok(again) => format!(
                    "found only as {:?} in {} (recorded: {:?} in {})",
                    again.matched.method,
                    again.invocation_id,
                    fact.matched.method,
                    fact.invocation_id
                ),
                Err(failing) => format!(
                    "{} (tried {})",
                    failing.problem.describe(),
                    failing.tried.join(", ")
                ),
            };
            out.failures.push(FactFailure {
                phenomenon_id: ph.id.clone(),
                fact_index: i,
                invocation_id: fact.invocation_id.clone(),
                value: fact.value.clone(),
                reason,
            });
        }
    }
    out
}
