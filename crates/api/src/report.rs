//! `masf report` and the last phase of `masf run`: the case report (DESIGN §13) assembled from
//! the case, the store and the graph, written as report.json / report.html / report.md with
//! every invocation's output published beside it.

use std::path::Path;

use masf_report::model::{CaseInfo, FileCheck, Integrity, NotRead, Person, SourceSection};
use serde::Serialize;
use serde_json::{Value, json};

use crate::{ApiError, CaseCtx, Clock, ErrorCode, Progress};

/// What [`write_report`] wrote.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct ReportWritten {
    pub dir: std::path::PathBuf,
    pub files: masf_report::Written,
    pub outputs: crate::PublishedOutputs,
    pub phenomena: usize,
    pub hypotheses: usize,
    pub actors: usize,
    pub timeline: usize,
    pub not_read: usize,
}

/// The layers of a source's evidence (as `masf inspect` shows them) and what in them could
/// not be read, with why (an encrypted backup opened with the password the variable
/// `password_env` names, when this process has it), from the run's scan of the source.
pub(crate) fn layers(
    ctx: &CaseCtx,
    spec: &masf_case::SourceSpec,
) -> (Vec<Value>, Vec<(String, String)>) {
    let inspected = ctx
        .scans
        .get(&spec.id, &spec.path, spec.password_env.as_deref())
        .map_err(|e| match e {
            crate::ScanFailure::Options(e) => ApiError::new(ErrorCode::BadRequest, e),
            crate::ScanFailure::Content(e) => ApiError::new(ErrorCode::Evidence, e),
        })
        // the layers only: the file sizes, EWF header and device typing `inspect` adds are
        // not the report's, and reading them again per source cost a reopen of the image
        .map(|scan| crate::evidence::layer_views(&scan, false));
    match inspected {
        Ok(views) => {
            let mut unreadable = Vec::new();
            let layers = views
                .iter()
                .map(|l| {
                    let what = match l.partition.as_ref().filter(|p| !p.name.is_empty()) {
                        Some(p) => format!("{} {}", l.kind, p.name),
                        None => format!("{} {}", l.kind, l.id),
                    };
                    if let Some(enc) = &l.encryption {
                        unreadable.push((what.clone(), format!("encrypted: {enc}")));
                    } else if l.readable == Some(false) {
                        let why = l.problem.clone().unwrap_or_else(|| {
                            format!(
                                "{} is recognised but not readable",
                                l.format.as_deref().unwrap_or("the content")
                            )
                        });
                        unreadable.push((what.clone(), why));
                    } else if let Some(p) = &l.problem {
                        unreadable.push((what.clone(), p.clone()));
                    }
                    serde_json::to_value(l).unwrap_or(Value::Null)
                })
                .collect();
            (layers, unreadable)
        }
        Err(e) => (
            Vec::new(),
            vec![("the whole source".to_string(), e.message)],
        ),
    }
}

/// Builds the report and writes it into `dir` (report.json, report.html, report.md and
/// `outputs/`). Re-hashes every evidence file to show "intake vs now". Refuses an inconsistent
/// store ([`ErrorCode::StoreInconsistent`]).
pub fn write_report(
    ctx: &CaseCtx,
    dir: &Path,
    clock: &dyn Clock,
    progress: &dyn Progress,
) -> Result<ReportWritten, ApiError> {
    write_report_with(ctx, dir, clock, progress, false)
}

/// [`write_report`], with `tagged_only` restricting the report to the items the examiner
/// tagged, bookmarked or wrote a note on, and what they cite (`masf report --tagged-only`).
pub fn write_report_with(
    ctx: &CaseCtx,
    dir: &Path,
    clock: &dyn Clock,
    progress: &dyn Progress,
    tagged_only: bool,
) -> Result<ReportWritten, ApiError> {
    let (outputs, report) = snapshot(ctx, dir, clock, progress, tagged_only)?;
    let files = masf_report::write_report(&report, dir)
        .map_err(|e| ApiError::new(ErrorCode::Io, e.to_string()))?;
    Ok(written(dir, files, outputs, &report))
}

/// The outputs published into `dir/outputs` and the report model, from one snapshot of the
/// store: a decision committed while the report is being written (examiners may decide during
/// a run) is either wholly in it or wholly after it. Refuses an inconsistent store.
pub(crate) fn snapshot(
    ctx: &CaseCtx,
    dir: &Path,
    clock: &dyn Clock,
    progress: &dyn Progress,
    tagged_only: bool,
) -> Result<(crate::PublishedOutputs, masf_report::Report), ApiError> {
    ctx.store.read_snapshot(|_| {
        // A report folded from contradicting events would show a graph that is not the case's.
        crate::check::refuse_inconsistent(ctx)?;
        let outputs = crate::publish_outputs(ctx, &dir.join("outputs"))?;
        Ok::<_, ApiError>((
            outputs,
            build_report_with(ctx, clock, progress, true, tagged_only)?,
        ))
    })
}

/// What was written, counted from the report.
pub(crate) fn written(
    dir: &Path,
    files: masf_report::Written,
    outputs: crate::PublishedOutputs,
    report: &masf_report::Report,
) -> ReportWritten {
    ReportWritten {
        dir: dir.to_path_buf(),
        files,
        outputs,
        phenomena: report.phenomena.len(),
        hypotheses: report.hypotheses.len(),
        actors: report.actors.len(),
        timeline: report.timeline.len(),
        not_read: report.not_read.len(),
    }
}

/// Builds the report model (schema `masforensics.report/1`) from what is recorded, without
/// writing anything. Re-hashes every evidence file to show "intake vs now".
pub fn build_report(
    ctx: &CaseCtx,
    clock: &dyn Clock,
    progress: &dyn Progress,
) -> Result<masf_report::Report, ApiError> {
    build_report_with(ctx, clock, progress, true, false)
}

/// [`build_report`], optionally without re-hashing the evidence (the desktop app's views
/// rebuild the model after every decision; hashing a case's images each time would take
/// minutes). Without it, each file row says so in `note` and has no `sha256_now`.
pub(crate) fn build_report_with(
    ctx: &CaseCtx,
    clock: &dyn Clock,
    progress: &dyn Progress,
    rehash: bool,
    tagged_only: bool,
) -> Result<masf_report::Report, ApiError> {
    // Everything below reads one snapshot: the graph shown, the decisions listed and the chain
    // heads printed describe the same events.
    ctx.store
        .read_snapshot(|_| build_from_snapshot(ctx, clock, progress, rehash, tagged_only))
}

fn build_from_snapshot(
    ctx: &CaseCtx,
    clock: &dyn Clock,
    progress: &dyn Progress,
    rehash: bool,
    tagged_only: bool,
) -> Result<masf_report::Report, ApiError> {
    let status = crate::status(ctx)?;
    let state = crate::compose::graph_state(ctx)?;
    let case_file = ctx.case.dir.join("case.yaml");
    let case_arg = case_file.display().to_string();

    let mut not_read = Vec::new();
    let mut sources = Vec::new();
    let mut coverage: std::collections::BTreeMap<
        String,
        Vec<masf_report::model::ArtefactCoverage>,
    > = std::collections::BTreeMap::new();
    for c in crate::coverage::coverage_with(ctx, &state)? {
        coverage
            .entry(c.source_id)
            .or_default()
            .push(masf_report::model::ArtefactCoverage {
                plugin: c.plugin,
                searched: c.searched,
                items: c.items,
            });
    }
    for s in &status.sources {
        if let Some(reason) = &s.intake_error {
            not_read.push(NotRead {
                source_id: s.id.clone(),
                what: "the whole source (not registered at intake)".to_string(),
                reason: reason.clone(),
                invocation_id: None,
            });
        }
        let spec = ctx.case.source(&s.id);
        let (layer_rows, unreadable) = spec.map(|spec| layers(ctx, spec)).unwrap_or_default();
        for (what, reason) in unreadable {
            not_read.push(NotRead {
                source_id: s.id.clone(),
                what,
                reason,
                invocation_id: None,
            });
        }
        // Intake vs now: every file hashed again.
        let mut files = Vec::with_capacity(s.files.len());
        for f in &s.files {
            let mut row = FileCheck {
                path: f.path.clone(),
                size: f.size,
                sha256: f.sha256.clone(),
                md5: f.md5.clone(),
                sha256_now: None,
                unchanged: None,
                note: None,
            };
            if !rehash {
                row.note =
                    Some("not re-hashed in this view (the exported report re-hashes)".into());
                files.push(row);
                continue;
            }
            let path = ctx.case.dir.join(&f.path);
            match crate::hash_files(std::slice::from_ref(&path), progress) {
                Ok(h) if !h.is_empty() => {
                    row.unchanged =
                        Some(h[0].digests.sha256 == f.sha256 && h[0].digests.md5 == f.md5);
                    row.sha256_now = Some(h[0].digests.sha256.clone());
                }
                Ok(_) => row.note = Some("no file".into()),
                Err(e) => row.note = Some(format!("could not re-hash: {}", e.message)),
            }
            files.push(row);
        }
        let single = (s.files.len() == 1).then(|| &s.files[0]);
        let agents: std::collections::BTreeSet<&str> = state
            .phenomena()
            .values()
            .filter(|p| p.source_id == s.id)
            .map(|p| p.agent.as_str())
            .collect();
        let triaged_by =
            (!agents.is_empty()).then(|| agents.into_iter().collect::<Vec<_>>().join(", "));
        sources.push(SourceSection {
            id: s.id.clone(),
            label: s.label.clone(),
            path: s.path.clone(),
            owner: s.owner.clone(),
            timezone: s.timezone.clone(),
            detected_type: s.detected_type.clone(),
            detection_reasons: s.detection_reasons.clone(),
            size: s.files.iter().map(|f| f.size).sum(),
            sha256: single.map(|f| f.sha256.clone()),
            md5: single.map(|f| f.md5.clone()),
            layers: layer_rows,
            integrity: Integrity {
                files,
                media: serde_json::to_value(&s.media).unwrap_or(Value::Null),
            },
            triaged_by,
            coverage: coverage.remove(&s.id).unwrap_or_default(),
        });
    }
    for e in ctx.store.events_of_kind(masf_agents::ARTEFACT_UNPARSED)? {
        if let Ok(n) = serde_json::from_value::<masf_agents::ArtefactUnparsed>(e.payload) {
            not_read.push(NotRead {
                source_id: n.source_id,
                what: n.artefact,
                reason: n.reason,
                invocation_id: n.invocation_id,
            });
        }
    }

    let invocations = masf_report::model::invocation_rows(&ctx.store, &case_arg)?;
    let timeline =
        crate::timeline::timeline_of(ctx, &state, &masf_report::timeline::Filter::default());
    let run = &status.run;
    // What the run used of its budgets (the one count: `RunUsage`, LLM tokens included).
    let budgets = masf_agents::run::RunUsage::of(&ctx.store, run, state.rounds().len() as u64)?
        .status(crate::caps(ctx), &run.grants)
        .lines;
    // Which phenomena an LLM agent recorded, with its model and prompt version.
    let mut llm_provenance = std::collections::BTreeMap::new();
    // Ids are assigned afresh after a rebuild: only the records of the current graph count.
    let rebuilt_at = ctx
        .store
        .events_of_kind(masf_tools::GRAPH_REBUILT)?
        .last()
        .map_or(0, |e| e.seq);
    for e in ctx.store.events_of_kind("PhenomenonRecorded")? {
        if e.seq < rebuilt_at {
            continue;
        }
        if let (Some(id), Some(p)) = (
            e.payload["phenomenon"]["id"].as_str(),
            masf_agents::llm::Provenance::from_versions(&e.versions),
        ) {
            llm_provenance.insert(id.to_string(), (p.model, p.prompt));
        }
    }
    Ok(masf_report::build(masf_report::ReportInput {
        case: CaseInfo {
            id: ctx.case.meta.id.clone(),
            title: ctx.case.meta.title.clone(),
            timezone: ctx.case.meta.timezone.clone(),
            examiner: ctx.case.meta.examiner.clone(),
            persons: ctx
                .case
                .meta
                .persons
                .iter()
                .map(|p| Person {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    aliases: p.aliases.clone(),
                })
                .collect(),
        },
        sources,
        not_read,
        invocations,
        state: &state,
        timeline: &timeline,
        generated: json!({
            "tool": format!("masf {}", env!("CARGO_PKG_VERSION")),
            "generated_at": clock.now().to_string(),
            "run_state": run.state.map(|s| s.as_str()),
            "run_reason": run.last.as_ref().map(|l| l.reason.clone()),
            "run_segments": run.segments,
            // Each budget counter: used, cap (0 = none), fraction, warning level, exhausted.
            "budgets": budgets,
            // The hash chains' heads: `masf verify --against report.json` checks them later.
            "log_chain": ctx.store.chain_heads()?,
        }),
        llm_provenance,
        tagged: masf_report::tagged::rows(&state, &crate::marks::marks_of(ctx)?, None),
        tagged_only,
    }))
}
