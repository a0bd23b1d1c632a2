//! Intake: register every source of a case with the digests of all its files.

use std::path::{Path, PathBuf};

use masf_case::events::{
    FileDigest, MediaIntegrity, SOURCE_ADDED, SOURCE_AMENDED, SOURCE_UNREADABLE, SourceAdded,
    SourceAmended, SourceRegistry, SourceUnreadable,
};
use masf_evidence::{Digests, EvidenceFiles};
use masf_store::NewEvent;
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
            let digests = hash_one(p, progress)?;
            Ok(FileHash {
                path: p.clone(),
                digests,
            })
        })
        .collect()
}

fn hash_one(path: &Path, progress: &dyn Progress) -> Result<Digests, ApiError> {
    let size = masf_evidence::host::lstat(path)
        .map(|m| m.size)
        .unwrap_or(0);
    progress.begin(&path.display().to_string(), size);
    masf_evidence::hash_file(path, &mut |done| progress.advance(done)).map_err(ApiError::evidence)
}

/// Options of `masf run`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Where the report goes (used by later phases); default `<case dir>/masf-report/`.
    pub out: Option<PathBuf>,
}

/// What intake did for one source.
#[derive(Debug, Clone, Serialize)]
pub struct SourceIntake {
    pub source_id: String,
    /// `true` when this run registered the source; `false` when it was registered before.
    pub newly_added: bool,
    pub files_kind: String,
    /// The evidence type sniffed from the content, and why.
    pub detected_type: Option<String>,
    pub detection_reasons: Vec<String>,
    /// EWF images: the media hashes against the stored ones.
    pub media: Option<MediaIntegrity>,
    pub size: u64,
    pub files: Vec<FileDigest>,
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

/// Registers every declared source not yet in the log (see [`run`]).
fn intake(
    ctx: &mut CaseCtx,
    opts: &RunOptions,
    clock: &dyn Clock,
    progress: &dyn Progress,
) -> Result<IntakeReport, ApiError> {
    let (registry, _) = registry(ctx)?;
    let mut report = IntakeReport {
        case_id: ctx.case.meta.id.clone(),
        store: crate::store_file(&ctx.work_dir),
        out: opts
            .out
            .clone()
            .unwrap_or_else(|| ctx.case.dir.join("masf-report")),
        events_added: 0,
        sources: Vec::new(),
        problems: Vec::new(),
        not_examined: Vec::new(),
        triage: Vec::new(),
        run: None,
        report: None,
        resolution: None,
    };
    let declared = ctx.case.sources.clone();
    for spec in &declared {
        if let Some(existing) = registry.sources.get(&spec.id) {
            check_unchanged(ctx, existing, &mut report.problems);
            let amended = SourceAmended {
                source_id: spec.id.clone(),
                label: spec.label.clone(),
                owner: spec.owner.clone(),
                timezone: spec.timezone.clone(),
            };
            if !amended.matches(existing) {
                let key = format!(
                    "source-amended/{}/{}",
                    spec.id,
                    short_hash(&serde_json::to_vec(&amended).unwrap_or_default())
                );
                append(ctx, clock, SOURCE_AMENDED, &amended, key, &mut report)?;
            }
            report.sources.push(SourceIntake {
                source_id: spec.id.clone(),
                newly_added: false,
                files_kind: existing.files_kind.clone(),
                detected_type: existing.detected_type.clone(),
                detection_reasons: existing.detection_reasons.clone(),
                media: existing.media.clone(),
                size: existing.files.iter().map(|f| f.size).sum(),
                files: existing.files.clone(),
            });
            continue;
        }
        // A source whose files cannot be found, listed or hashed is not registered: the log
        // says why (SourceUnreadable), the run goes on with the others, the next run retries.
        let hashed = EvidenceFiles::discover(&spec.path)
            .map_err(ApiError::evidence)
            .and_then(|found| {
                let mut files = Vec::with_capacity(found.files.len());
                let base = canonical(&ctx.case.dir);
                // A folder's files are its root joined with names, never through a link: the
                // root is made canonical once, not every file.
                let root = canonical(&found.root);
                for file in &found.files {
                    let d = hash_one(file, progress)?;
                    let file = match file.strip_prefix(&found.root) {
                        Ok(rel) if found.kind == masf_evidence::FilesKind::Folder => root.join(rel),
                        _ => canonical(file),
                    };
                    files.push(FileDigest {
                        path: display_path(&base, &file),
                        size: d.size,
                        sha256: d.sha256,
                        md5: d.md5,
                    });
                }
                Ok((found, files))
            });
        let (found, files) = match hashed {
            Ok(ok) => ok,
            Err(e) => {
                let reason = e.message;
                report
                    .problems
                    .push(format!("{}: not registered: {reason}", spec.id));
                let unreadable = SourceUnreadable {
                    source_id: spec.id.clone(),
                    path: spec.path_as_written.clone(),
                    reason: reason.clone(),
                };
                let key = format!(
                    "source-unreadable/{}/{}",
                    spec.id,
                    short_hash(reason.as_bytes())
                );
                append(ctx, clock, SOURCE_UNREADABLE, &unreadable, key, &mut report)?;
                continue;
            }
        };
        let scanned = ctx
            .scans
            .get(&spec.id, &spec.path, spec.password_env.as_deref());
        let (detected_type, detection_reasons) = match scanned {
            Ok(scan) => {
                let typed = crate::compose::plugins().typing(&scan);
                (Some(typed.evidence_type), typed.reasons)
            }
            Err(e) => (None, vec![e.to_string()]),
        };
        let media = if found.kind == masf_evidence::FilesKind::EwfSegments {
            match crate::evidence::verify_media(&spec.path, progress) {
                Ok(v) => {
                    if !v.is_verified() {
                        report.problems.push(format!(
                            "{}: the media does not verify against the hashes the image stores \
                             (md5 {:?}, sha1 {:?}, {} bad chunk(s))",
                            spec.id, v.md5_check, v.sha1_check, v.bad_chunk_count
                        ));
                    }
                    Some(media_integrity(&v))
                }
                // A truncated or damaged image: its files are hashed and registered, the media
                // could not be read; triage and the report say what could not be read.
                Err(e) => {
                    report.problems.push(format!(
                        "{}: the EWF media could not be read to verify it: {}",
                        spec.id, e.message
                    ));
                    None
                }
            }
        } else {
            None
        };
        let added = SourceAdded {
            source_id: spec.id.clone(),
            label: spec.label.clone(),
            path: spec.path_as_written.clone(),
            declared_type: spec.declared_type.map(|t| t.as_str().to_string()),
            owner: spec.owner.clone(),
            timezone: spec.timezone.clone(),
            files_kind: files_kind_name(&found),
            files,
            detected_type,
            detection_reasons,
            media,
        };
        append(
            ctx,
            clock,
            SOURCE_ADDED,
            &added,
            format!("source-added/{}", spec.id),
            &mut report,
        )?;
        report.sources.push(SourceIntake {
            source_id: spec.id.clone(),
            newly_added: true,
            files_kind: added.files_kind.clone(),
            detected_type: added.detected_type.clone(),
            detection_reasons: added.detection_reasons.clone(),
            media: added.media.clone(),
            size: added.files.iter().map(|f| f.size).sum(),
            files: added.files,
        });
    }
    Ok(report)
}

fn append<T: Serialize>(
    ctx: &mut CaseCtx,
    clock: &dyn Clock,
    kind: &str,
    payload: &T,
    idempotency_key: String,
    report: &mut IntakeReport,
) -> Result<(), ApiError> {
    let payload = serde_json::to_value(payload)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("encoding {kind}: {e}")))?;
    let appended = ctx
        .store
        .append(&NewEvent {
            kind: kind.to_string(),
            payload,
            actor_kind: masf_store::ActorKind::System,
            actor_id: "intake".to_string(),
            idempotency_key,
            causation_seq: None,
            ts: clock.now(),
            versions: [("masf".to_string(), env!("CARGO_PKG_VERSION").to_string())].into(),
        })
        .map_err(ApiError::store)?;
    if appended.inserted {
        report.events_added += 1;
    }
    Ok(())
}

/// The registry projected from the event log, and the number of events read.
pub(crate) fn registry(ctx: &CaseCtx) -> Result<(SourceRegistry, u64), ApiError> {
    let mut registry = SourceRegistry::default();
    let mut count = 0u64;
    ctx.store.for_each_event(0, |e| {
        count += 1;
        registry
            .apply(e.seq, &e.kind, &e.payload)
            .map_err(|err| ApiError::new(ErrorCode::Store, err.to_string()))
    })?;
    Ok((registry, count))
}

/// A registered source whose files changed size since intake is reported (re-hashing every
/// file on every run would make a re-run cost a full read; the report re-checks hashes).
fn check_unchanged(ctx: &CaseCtx, existing: &SourceAdded, problems: &mut Vec<String>) {
    for f in &existing.files {
        let path = ctx.case.dir.join(&f.path);
        // Evidence paths may be longer than the kernel takes whole (host::lstat walks them).
        match masf_evidence::host::lstat(&path) {
            Ok(m) if m.size == f.size => {}
            Ok(m) => problems.push(format!(
                "{}: {} is {} bytes now but was {} bytes at intake",
                existing.source_id, f.path, m.size, f.size
            )),
            Err(e) => problems.push(format!("{}: {}: {e}", existing.source_id, f.path)),
        }
    }
}

fn media_integrity(v: &masf_evidence::ewf::MediaVerification) -> MediaIntegrity {
    let check = |c: &masf_evidence::ewf::HashCheck| {
        serde_json::to_value(c)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    };
    MediaIntegrity {
        size: v.media_size,
        md5: v.md5.clone(),
        sha1: v.sha1.clone(),
        sha256: v.sha256.clone(),
        stored_md5: v.stored_md5.clone(),
        stored_sha1: v.stored_sha1.clone(),
        md5_check: check(&v.md5_check),
        sha1_check: check(&v.sha1_check),
        bad_chunks: v
            .bad_chunks
            .iter()
            .map(|b| {
                format!(
                    "chunk {} at media offset {}: {}",
                    b.chunk, b.media_offset, b.detail
                )
            })
            .collect(),
    }
}

fn files_kind_name(found: &EvidenceFiles) -> String {
    serde_json::to_value(&found.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `file` relative to `base` when below it (with `/` separators), else absolute; both canonical.
fn display_path(base: &Path, file: &Path) -> String {
    match file.strip_prefix(base) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => file.to_string_lossy().into_owned(),
    }
}

fn short_hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(&sha2::Sha256::digest(bytes)[..8])
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
