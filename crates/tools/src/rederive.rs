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
            Verdict::Match | Verdict::NotReproducible { .. }
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
    if let Err(e) = store.invocation_output(&rec.invocation_id) {
        return Verdict::StoredOutputAltered {
            detail: e.to_string(),
        };
    }
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
                Verdict::Match
            } else {
                Verdict::RerunDiffers { rerun_sha256: sha }
            }
        }
        Err(e) => Verdict::RerunFailed {
            reason: source.scrub(&e.to_string()),
        },
    }
}
