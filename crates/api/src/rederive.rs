//! `masf rerun` and `masf verify`: re-derive logged invocations against the evidence.

use std::collections::BTreeMap;

use masf_tools::SourceCtx;
pub use masf_tools::rederive::FactFailure;
use masf_tools::rederive::{Rederivation, rederive};
use serde::Serialize;

use crate::{ApiError, CaseCtx, ErrorCode};

/// What `masf verify` found.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyReport {
    pub invocations: u64,
    pub matched: u64,
    /// Of those, views of the graph read by the strategist (hash-checked, not re-run).
    pub views: u64,
    /// Calls with no output to reproduce (failed, timed out, too large).
    pub not_reproducible: u64,
    /// Every invocation that did not re-derive, with why.
    pub failures: Vec<Rederivation>,
    /// Invocations whose re-run differs only in times that reading the evidence changes
    /// (accessed, changed): their content re-derives; the change is said, not failed.
    pub metadata_changed: Vec<Rederivation>,
    /// Verified facts of the graph re-checked against the stored output they cite.
    pub facts: u64,
    /// Facts whose value is still found in that output, the same way.
    pub facts_matched: u64,
    /// Every fact that no longer checks, with why.
    pub fact_failures: Vec<FactFailure>,
    /// The store's consistency check (the hash chains of both logs included).
    pub consistency: masf_tools::consistency::Consistency,
    /// The head of each log's hash chain now.
    pub chain: Vec<masf_store::ChainHead>,
    /// The chain heads printed in earlier reports, checked against the store.
    pub printed: Vec<PrintedHead>,
}

/// A chain head printed in a report, checked against the store: the row it names must still be
/// there with the same hash, which (the chain holding) fixes every row before it too.
#[derive(Debug, Clone, Serialize)]
pub struct PrintedHead {
    /// The report.json it was read from.
    pub report: std::path::PathBuf,
    /// `events` or `invocations`.
    pub table: String,
    /// The seq and hash it printed.
    pub seq: i64,
    pub hash: String,
    /// What the store holds at that seq now (`None`: no such row).
    pub now: Option<String>,
}

impl PrintedHead {
    /// True when the store still holds the printed row unchanged.
    pub fn holds(&self) -> bool {
        self.seq == 0 || self.now.as_deref() == Some(self.hash.as_str())
    }
}

impl std::fmt::Display for PrintedHead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let short = |h: &str| h.chars().take(16).collect::<String>();
        write!(
            f,
            "{} printed {} head seq {} ({}…): ",
            self.report.display(),
            self.table,
            self.seq,
            short(&self.hash)
        )?;
        match &self.now {
            _ if self.holds() => f.write_str("still in the store, unchanged"),
            None => write!(
                f,
                "{} seq {} is no longer in the store: rows were removed since that report",
                self.table, self.seq
            ),
            Some(now) => write!(
                f,
                "the store's {} seq {} now hashes to {}…: the log was rewritten since that report",
                self.table,
                self.seq,
                short(now)
            ),
        }
    }
}

/// Reads the chain heads a report.json printed (`generated.log_chain`) and checks each against
/// the store.
pub fn check_printed_heads(
    ctx: &CaseCtx,
    report: &std::path::Path,
) -> Result<Vec<PrintedHead>, ApiError> {
    let text = std::fs::read_to_string(report).map_err(|e| {
        ApiError::new(
            ErrorCode::Io,
            format!("reading the report {}: {e}", report.display()),
        )
    })?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("{} is not a report.json: {e}", report.display()),
        )
    })?;
    let heads: Vec<masf_store::ChainHead> = json
        .pointer("/generated/log_chain")
        .cloned()
        .map(serde_json::from_value)
        .transpose()
        .map_err(|e| {
            ApiError::new(
                ErrorCode::BadRequest,
                format!(
                    "{}: generated.log_chain does not parse: {e}",
                    report.display()
                ),
            )
        })?
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::BadRequest,
                format!(
                    "{} prints no log chain (generated.log_chain): it was written by a \
                     masf without the chain",
                    report.display()
                ),
            )
        })?;
    heads
        .into_iter()
        .map(|h| {
            Ok(PrintedHead {
                report: report.to_path_buf(),
                now: ctx.store.row_hash_at(&h.table, h.seq)?,
                table: h.table,
                seq: h.seq,
                hash: h.hash,
            })
        })
        .collect()
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
            && self.fact_failures.is_empty()
            && self.consistency.ok()
            && self.printed.iter().all(PrintedHead::holds)
    }
}

/// Re-grounds every verified fact of the graph against the stored output it cites
/// (`masf_tools::rederive::reground_facts`), each with the region its source's numbers were
/// grounded with: the source's recorded one, else the examiner's.
fn check_facts(ctx: &CaseCtx, report: &mut VerifyReport) -> Result<(), ApiError> {
    let state = crate::compose::graph_state(ctx)?;
    let region_of = |source_id: &str| {
        masf_agents::region::recorded(&state, source_id)
            .or_else(|| ctx.case.source(source_id).and_then(|s| s.region))
    };
    let checked = masf_tools::rederive::reground_facts(&ctx.store, &state, &region_of);
    report.facts += checked.facts;
    report.facts_matched += checked.matched;
    report.fact_failures.extend(checked.failures);
    Ok(())
}

fn source_ctx(ctx: &CaseCtx, source_id: &str) -> Result<SourceCtx, ApiError> {
    let spec = ctx.case.source(source_id).ok_or_else(|| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("invocation names source {source_id}, which case.yaml no longer declares"),
        )
    })?;
    SourceCtx::open_with(source_id, &spec.path, spec.password_env.as_deref())
        .map(|s| s.with_index(crate::search::index_ref(ctx, source_id)))
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
        &crate::compose::catalog(),
        &source,
        &rec,
    ))
}

/// Re-runs every logged invocation of the case (each source scanned once), checks every stored
/// output against its recorded hash, re-checks every verified fact of the graph against the
/// stored output it cites, checks the store's consistency ([`crate::check`]: the hash chains
/// included), and checks the chain heads printed in `reports` (report.json files) against the
/// store.
pub fn verify(ctx: &CaseCtx, reports: &[std::path::PathBuf]) -> Result<VerifyReport, ApiError> {
    let mut printed = Vec::new();
    for r in reports {
        printed.extend(check_printed_heads(ctx, r)?);
    }
    let catalog = crate::compose::catalog();
    let mut sources: BTreeMap<String, Result<SourceCtx, ApiError>> = BTreeMap::new();
    let mut report = VerifyReport {
        invocations: 0,
        matched: 0,
        views: 0,
        not_reproducible: 0,
        failures: Vec::new(),
        metadata_changed: Vec::new(),
        facts: 0,
        facts_matched: 0,
        fact_failures: Vec::new(),
        consistency: crate::check(ctx)?,
        chain: ctx.store.chain_heads()?,
        printed,
    };
    for rec in ctx.store.all_invocations()? {
        report.invocations += 1;
        if rec.source_id == masf_agents::session::CASE_SOURCE {
            // A view of the graph (the strategist's): not re-derivable from evidence; its
            // stored output must still have its recorded hash.
            report.views += 1;
            match ctx.store.invocation_output(&rec.invocation_id) {
                Ok(_) => report.matched += 1,
                Err(e) => report.failures.push(Rederivation {
                    invocation_id: rec.invocation_id.clone(),
                    source_id: rec.source_id.clone(),
                    tool: rec.tool.clone(),
                    args: rec.args.clone(),
                    recorded_sha256: rec.output_sha256.clone(),
                    verdict: masf_tools::rederive::Verdict::StoredOutputAltered {
                        detail: e.to_string(),
                    },
                }),
            }
            continue;
        }
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
            masf_tools::rederive::Verdict::MetadataChanged { .. } => {
                report.metadata_changed.push(r)
            }
            _ => report.failures.push(r),
        }
    }
    check_facts(ctx, &mut report)?;
    Ok(report)
}

/// What [`publish_outputs`] wrote.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct PublishedOutputs {
    pub dir: std::path::PathBuf,
    pub invocations: u64,
    pub bytes: u64,
}

/// Writes every invocation's exact output bytes to `dir` as `<invocation_id>.out`, with
/// `index.jsonl` (one line per call: id, source, tool, canonical args, status, agent, task,
/// sha256, file) and `SHA256SUMS` in `sha256sum -c` format, so that anyone can check that each
/// file is the output the case recorded, and grep a verified fact's value in it, without
/// MASForensics. Outputs are read through the store, which re-hashes them: an altered stored
/// output is an error, not a published file.
pub fn publish_outputs(ctx: &CaseCtx, dir: &std::path::Path) -> Result<PublishedOutputs, ApiError> {
    use std::io::Write as _;
    let io = |what: &str, e: std::io::Error| {
        ApiError::new(ErrorCode::Io, format!("{what} in {}: {e}", dir.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| io("creating the folder", e))?;
    let mut index = Vec::new();
    let mut sums = String::new();
    let mut report = PublishedOutputs {
        dir: dir.to_path_buf(),
        invocations: 0,
        bytes: 0,
    };
    for rec in ctx.store.all_invocations()? {
        let output = ctx.store.invocation_output(&rec.invocation_id)?;
        let file = format!("{}.out", rec.invocation_id);
        std::fs::write(dir.join(&file), &output).map_err(|e| io(&file, e))?;
        let line = serde_json::json!({
            "invocation_id": rec.invocation_id,
            "source_id": rec.source_id,
            "tool": rec.tool,
            "args": rec.args,
            "status": rec.status.as_str(),
            "agent": rec.agent,
            "task_id": rec.task_id,
            "output_sha256": rec.output_sha256,
            "file": file,
        });
        writeln!(index, "{line}").map_err(|e| io("index.jsonl", e))?;
        sums.push_str(&format!("{}  {file}\n", rec.output_sha256));
        report.invocations += 1;
        report.bytes += output.len() as u64;
    }
    std::fs::write(dir.join("index.jsonl"), index).map_err(|e| io("index.jsonl", e))?;
    std::fs::write(dir.join("SHA256SUMS"), sums).map_err(|e| io("SHA256SUMS", e))?;
    Ok(report)
}
