//! `masf run`: intake (`masf_intake`, with the plugins' typing of each source), triage,
//! resolution, then the report; and `masf init`.

use std::path::PathBuf;

use masf_evidence::Digests;
pub use masf_intake::SourceIntake;
use serde::Serialize;

use crate::{ApiError, CaseCtx, Clock, ErrorCode, Progress};

/// The digests of one file.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(as = "FileHashShape")]
pub struct FileHash {
    pub path: PathBuf,
    #[serde(flatten)]
    pub digests: Digests,
}

/// The TypeScript shape of [`FileHash`] as serde writes it (the digests flattened).
#[derive(ts_rs::TS)]
#[ts(rename = "FileHash")]
#[allow(dead_code)]
pub struct FileHashShape {
    path: String,
    size: u64,
    sha256: String,
    md5: String,
}

impl FileHashShape {
    /// Compile-time check: [`FileHash`] and its digests have exactly these fields and types.
    #[allow(dead_code)]
    fn mirrors(h: FileHash) -> (PathBuf, u64, String, String) {
        let FileHash { path, digests } = h;
        let Digests { size, sha256, md5 } = digests;
        (path, size, sha256, md5)
    }
}

/// Hashes files with SHA-256 and MD5 through the intake's code path.
pub fn hash_files(paths: &[PathBuf], progress: &dyn Progress) -> Result<Vec<FileHash>, ApiError> {
    paths
        .iter()
        .map(|p| {
            let digests = masf_intake::hash_file(p, progress).map_err(ApiError::evidence)?;
            Ok(FileHash {
                path: p.clone(),
                digests,
            })
        })
        .collect()
}

/// Options of `masf run`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Where the report goes (used by later phases); default `<case dir>/masf-report/`.
    pub out: Option<PathBuf>,
}

/// The outcome of a run.
#[derive(Debug, Clone, Serialize)]
pub struct IntakeReport {
    pub case_id: String,
    pub store: PathBuf,
    pub out: PathBuf,
    pub events_added: u64,
    pub sources: Vec<SourceIntake>,
    /// Problems found (for example, evidence whose size changed since intake). Non-empty means
    /// the run did not complete cleanly.
    pub problems: Vec<String>,
    /// Sources no agent could examine because their content could not be read, with why.
    pub not_examined: Vec<String>,
    /// Phase 1: what each source's triage agent did.
    pub triage: Vec<masf_agents::TriageReport>,
    /// Where the run stands after this segment (`completed`, or `paused` / `halted_budget`).
    pub run: Option<crate::triage::RunOutcome>,
    /// The report written at the end of the run.
    pub report: Option<crate::report::ReportWritten>,
    /// After triage: the resolver's coreference hypotheses, `same_as` edges and actors.
    pub resolution: Option<crate::ResolveReport>,
}

/// Runs the case. Intake: every source declared in case.yaml and not yet in the log is hashed
/// (all its files, one streaming pass each) and recorded as a `SourceAdded` event; a source
/// whose label, owner or time zone was edited gets one `SourceAmended` event. Then triage: each
/// source is examined by the triage agent of the plugin that fits it (phase 1 of DESIGN §10).
/// Then resolution: the resolver proposes coreference hypotheses between the entities the
/// agents observed and links their evidence (DESIGN §8).
/// Running it again adds nothing: tool calls are served from the cache and gateway requests
/// answer as duplicates.
///
/// It needs the case's run lease ([`crate::take_lease`]), and refuses an inconsistent store
/// ([`ErrorCode::StoreInconsistent`]: `masf repair` first) rather than add to it.
pub fn run(
    ctx: &mut CaseCtx,
    lease: &crate::RunLease,
    opts: &RunOptions,
    clock: std::sync::Arc<dyn Clock>,
    progress: &dyn Progress,
) -> Result<IntakeReport, ApiError> {
    lease.check_for(ctx)?;
    crate::check::refuse_inconsistent(ctx)?;
    let mut report = run_phases(ctx, opts, clock.clone(), progress)?;
    finish(ctx, &mut report, clock.as_ref(), progress)?;
    Ok(report)
}

/// Intake and the agent phases of [`run`], under a lease the caller holds.
pub(crate) fn run_phases(
    ctx: &mut CaseCtx,
    opts: &RunOptions,
    clock: std::sync::Arc<dyn Clock>,
    progress: &dyn Progress,
) -> Result<IntakeReport, ApiError> {
    let mut report = intake(ctx, opts, clock.as_ref(), progress)?;
    let (triage, outcome) = crate::triage::triage(ctx, clock)?;
    report.triage = triage;
    report.resolution = Some(outcome.resolution.clone());
    report.run = Some(outcome);
    Ok(report)
}

/// The end of [`run`]: the timeline and the report (phases 4 and 5; partial, and saying so,
/// when the run stopped early), and what could not be examined.
pub(crate) fn finish(
    ctx: &CaseCtx,
    report: &mut IntakeReport,
    clock: &dyn Clock,
    progress: &dyn Progress,
) -> Result<(), ApiError> {
    report.report = Some(crate::report::write_report(
        ctx,
        &report.out,
        clock,
        progress,
    )?);
    for t in &report.triage {
        if let Some(e) = &t.error {
            report
                .problems
                .push(format!("{}: not triaged: {e}", t.source_id));
        } else if t.plugin.is_none() && t.halted.is_none() {
            // No plugin examined this source. When its layers could not be read (a damaged
            // archive, an encrypted or unreadable volume) the run says so; the report's "what
            // could not be read" has the detail. The other sources were examined, so the run
            // itself did not fail.
            let unreadable = ctx
                .case
                .source(&t.source_id)
                .map(|spec| crate::report::layers(ctx, spec).1)
                .unwrap_or_default();
            for (what, why) in unreadable {
                report
                    .not_examined
                    .push(format!("{}: not examined: {what}: {why}", t.source_id));
            }
        }
    }
    Ok(())
}

/// Registers every declared source not yet in the log (see [`run`] and `masf_intake`); a
/// source's type is the plugins' answer from the run's one scan of it.
fn intake(
    ctx: &mut CaseCtx,
    opts: &RunOptions,
    clock: &dyn Clock,
    progress: &dyn Progress,
) -> Result<IntakeReport, ApiError> {
    let plugins = crate::compose::plugins();
    let scans = ctx.scans.clone();
    let type_of = |spec: &masf_case::SourceSpec| match scans.get(
        &spec.id,
        &spec.path,
        spec.password_env.as_deref(),
    ) {
        Ok(scan) => {
            let typed = plugins.typing(&scan);
            (Some(typed.evidence_type), typed.reasons)
        }
        Err(e) => (None, vec![e.to_string()]),
    };
    let done = masf_intake::register(
        &ctx.case,
        &mut ctx.store,
        &|| clock.now(),
        progress,
        &type_of,
    )
    .map_err(intake_err)?;
    Ok(IntakeReport {
        case_id: ctx.case.meta.id.clone(),
        store: crate::store_file(&ctx.work_dir),
        out: opts
            .out
            .clone()
            .unwrap_or_else(|| ctx.case.dir.join("masf-report")),
        events_added: done.events_added,
        sources: done.sources,
        problems: done.problems,
        not_examined: Vec::new(),
        triage: Vec::new(),
        run: None,
        report: None,
        resolution: None,
    })
}

fn intake_err(e: masf_intake::IntakeError) -> ApiError {
    match e {
        masf_intake::IntakeError::Store(e) => ApiError::store(e),
        masf_intake::IntakeError::Encode { .. } => ApiError::new(ErrorCode::Io, e.to_string()),
        masf_intake::IntakeError::Registry(m) => ApiError::new(ErrorCode::Store, m),
    }
}

/// The registry projected from the event log, and the number of events read.
pub(crate) fn registry(
    ctx: &CaseCtx,
) -> Result<(masf_case::events::SourceRegistry, u64), ApiError> {
    masf_intake::registry(&ctx.store).map_err(intake_err)
}

/// What `masf init` needs.
#[derive(Debug, Clone)]
pub struct InitCase {
    pub dir: PathBuf,
    pub evidence: Vec<PathBuf>,
    pub case_id: Option<String>,
    pub overwrite: bool,
}

/// Writes `DIR/case.yaml` declaring the given evidence (types left for sniffing) and returns its
/// path. The written file is loaded back and validated before this returns.
pub fn init_case(req: &InitCase) -> Result<PathBuf, ApiError> {
    let file = req.dir.join("case.yaml");
    if file.exists() && !req.overwrite {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("{} exists; use --force to overwrite it", file.display()),
        ));
    }
    std::fs::create_dir_all(&req.dir)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", req.dir.display())))?;
    let case_file =
        masf_case::CaseFile::new_for_evidence(&req.dir, &req.evidence, req.case_id.as_deref())
            .map_err(ApiError::case)?;
    std::fs::write(&file, case_file.to_yaml())
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", file.display())))?;
    masf_case::Case::load(&file).map_err(ApiError::case)?;
    Ok(file)
}
