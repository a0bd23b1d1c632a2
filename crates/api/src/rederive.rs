//! `masf rerun` and `masf verify`: re-derive logged invocations against the evidence.

use std::collections::BTreeMap;

use masf_tools::SourceCtx;
use masf_tools::rederive::{Rederivation, rederive};
use serde::Serialize;

use crate::{ApiError, CaseCtx, ErrorCode};

/// What `masf verify` found.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyReport {
    pub invocations: u64,
    pub matched: u64,
    /// Calls with no output to reproduce (failed, timed out, too large).
    pub not_reproducible: u64,
    /// Every invocation that did not re-derive, with why.
    pub failures: Vec<Rederivation>,
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
}

fn source_ctx(ctx: &CaseCtx, source_id: &str) -> Result<SourceCtx, ApiError> {
    let spec = ctx.case.source(source_id).ok_or_else(|| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("invocation names source {source_id}, which case.yaml no longer declares"),
        )
    })?;
    SourceCtx::open(source_id, &spec.path)
        .map_err(|e| ApiError::new(ErrorCode::Evidence, e.to_string()))
}

/// Re-executes one logged invocation and compares its output hash with the recorded one.
pub fn rerun(ctx: &CaseCtx, invocation_id: &str) -> Result<Rederivation, ApiError> {
    let rec = ctx.store.invocation(invocation_id)?.ok_or_else(|| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("no invocation {invocation_id} in this case"),
        )
    })?;
    let source = source_ctx(ctx, &rec.source_id)?;
    Ok(rederive(
        &ctx.store,
        &crate::triage::catalog(),
        &source,
        &rec,
    ))
}

/// Re-runs every logged invocation of the case (each source scanned once) and checks every
/// stored output against its recorded hash.
pub fn verify(ctx: &CaseCtx) -> Result<VerifyReport, ApiError> {
    let catalog = crate::triage::catalog();
    let mut sources: BTreeMap<String, Result<SourceCtx, ApiError>> = BTreeMap::new();
    let mut report = VerifyReport {
        invocations: 0,
        matched: 0,
        not_reproducible: 0,
        failures: Vec::new(),
    };
    for rec in ctx.store.all_invocations()? {
        report.invocations += 1;
        let source = sources
            .entry(rec.source_id.clone())
            .or_insert_with(|| source_ctx(ctx, &rec.source_id));
        let r = match source {
            Ok(source) => rederive(&ctx.store, &catalog, source, &rec),
            Err(e) => Rederivation {
                invocation_id: rec.invocation_id.clone(),
                source_id: rec.source_id.clone(),
                tool: rec.tool.clone(),
                args: rec.args.clone(),
                recorded_sha256: rec.output_sha256.clone(),
                verdict: masf_tools::rederive::Verdict::RerunFailed {
                    reason: e.message.clone(),
                },
            },
        };
        match r.verdict {
            masf_tools::rederive::Verdict::Match => report.matched += 1,
            masf_tools::rederive::Verdict::NotReproducible { .. } => report.not_reproducible += 1,
            _ => report.failures.push(r),
        }
    }
    Ok(report)
}
