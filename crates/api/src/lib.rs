//! The application facade of MASForensics.
//!
//! Plain functions over a context, used alike by the `masf` CLI and the desktop shell. This crate
//! composes the library crates and owns the UI-facing types, including [`ApiError`] — a stable
//! `code` the UI can switch on plus a readable message. It holds no domain logic of its own:
//! parsing belongs to `masf-case` and `masf-evidence`, persistence to `masf-store`.
//!
//! Everything a face (CLI, desktop) may call is here: `open_case`, `take_lease`, `run`,
//! `status`, `status_checked`, `check`, `repair`, `for_each_event`, `hash_files`, `init_case`,
//! `inspect`, `list`, `cat`, `verify_media`, `rerun`, `verify`, `publish_outputs`,
//! `write_report`, `timeline`, `links`, `why`, `actors`, `approve`, `retract`, `mark`,
//! `withdraw_note`, `tagged`, `tag_names`, `pause`, `grant`, `index`, `search`. They are plain
//! functions over a [`CaseCtx`] (case, config, work folder, store) returning UI-facing types
//! and [`ApiError`] `{code, message}`. Time comes in through a [`Clock`] (logic never reads the
//! clock; the store takes `ts` from the caller), progress goes out through a [`Progress`] sink.
//!
//! # Modules
//!
//! - `compose` is the composition root, the one place that names the plugins crate: the plugins,
//!   their catalog, the graph's scoring from `config.yaml`, the graph of a case, an agent session
//!   on a case, the tool worker's loop. `triage` runs the agent phases with the planners of
//!   `masf_agents` (resolver, ownership); `resolve` serves links, decisions and actors and
//!   imports only `compose`: no module of the api imports one that
//!   imports it back. `tests/module_loops.rs` reads every crate's `crate::` imports and fails
//!   naming each loop; none is left in any crate.
//! - `intake` runs `masf_intake::register`, which registers each source on its own: a
//!   failure to list or hash it is a `SourceUnreadable` event and a problem, a truncated E01 is
//!   registered with its media unread, and a `SourceAdded` event is keyed `source-added/<id>`. One unreadable source never stops
//!   the others (`crates/cli/tests/it/hostile.rs` runs cases with paths beyond `PATH_MAX`, a
//!   5,000-level tree, a truncated E01 and a FIFO beside ordinary sources).
//! - `coverage` (`masf coverage`, the report's "Artefact coverage" section and the desktop Report
//!   view's "What was looked at"): for each source, each plugin whose triage finished on it
//!   (`TriageFinished`, recorded by `masf_agents::triage`) or whose agent called a tool on it, the
//!   plugin's catalogue through `masf_graph::views::artefact_coverage`; nothing is read from
//!   evidence.
//! - `stream` follows a case store through its own read-only connection and delivers every event
//!   and invocation appended after a cursor, in order (`masf run --events jsonl`, and the desktop
//!   app's live view through [`desktop`]).
//! - `lease`: `take_lease` and `RunLease` (an OS lock on `run.lock` through `masf_store::Lease`,
//!   plus a `RunLeased` event). `run` and `repair` take a `&RunLease`, so a face cannot run a case
//!   without it; the CLI's `run`, `resume`, `repair` and the desktop's run take one. A second
//!   runner is refused (`ErrorCode::CaseBusy`, the CLI's exit 4) or waits
//!   (`crates/cli/tests/it/lease.rs` starts two runs together ten times, refuses, waits, and
//!   `kill -9`s the holder).
//! - `check` and `repair` (docs/case-integrity.md): `check` runs
//!   `masf_tools::consistency::check`; `repair` appends `GraphRebuilt` with the examiner's
//!   decisions in effect, runs the phases again under the lease (tool calls served from the
//!   cache), makes the decisions again on the edges between the same entities, and writes the
//!   report. `write_report` and `run` refuse an inconsistent store
//!   (`ErrorCode::StoreInconsistent`; `crates/cli/tests/it/consistency.rs`).
//! - `rederive` (`masf verify`): re-runs every invocation through `masf_tools::rederive` and
//!   re-grounds every verified fact in the output it cites (`check_facts`); the CLI test alters a
//!   stored object and sees the call and the fact named. `masf outputs` (`publish_outputs`)
//!   publishes the bytes with `SHA256SUMS`. The chain heads printed in every report are checked by
//!   `masf verify --against` (`crates/cli/tests/it/tamper.rs`).
//! - `search`: `masf index` logs each source's build as an `index_text` invocation whose output
//!   is the manifest (every file's SHA-256); every search is a `search_index` call of the catalog
//!   through the `Invoker` (CLI, agents and LLM agents alike), re-derived by `masf rerun` and
//!   `verify` (`crates/cli/tests/it/search.rs`).
//! - `timeline`: `query_timeline` serves both `masf timeline` and the desktop Timeline, with one
//!   actor rule (`masf_graph::resolution::actor_scope`).
//! - `marks`: `mark`, `withdraw_note`, `tagged`, `tag_names` over `masf_tools::marks`
//!   (`crates/cli/tests/it/tags.rs` marks during a held run, `kill -9`s it, runs again, reruns and
//!   finds every mark in `masf tags` and the report).
//!
//! # The desktop facade
//!
//! [`desktop`] is the desktop app's facade, tested without a window (`tests/desktop.rs`).
//! `Desktop` holds the window's current case and its run: a background thread running [`run`]
//! under the lease taken before it starts (`case_busy` when another process runs the case), with
//! a follower thread that polls the stream every 40 ms (`desktop::FOLLOW_EVERY`) and hands each
//! poll's items to a `DesktopSink` as one batch, then `run_finished`. It also offers pause and
//! resume-with-grants; `draft_sources` (paths sniffed by content, unreadable ones kept with their
//! error, ids unique per batch); `save_case` (an editor draft written as case.yaml only after it
//! parses and validates); case / case-folder / work-folder resolution; the status view (the case,
//! the budget as the next segment counts it, per-source tallies); invocation views with the
//! output as capped text; re-run verdicts; links and actors after a decision (a retraction needs
//! a reason); paged events; and export of chosen report formats ([`build_report`] builds the
//! model without writing). `examples/load_events.rs` appends N `load_test` events (ignored by the
//! graph fold) for the e2e measurement at 100,000 events. The shell and the UI on top of it:
//! docs/desktop-app.md.

mod check;
mod compose;
mod coverage;
pub mod desktop;
mod error;
mod evidence;
mod intake;
mod lease;
mod marks;
mod rederive;
mod repair;
mod report;
mod resolve;
mod search;
mod stream;
mod timeline;
mod triage;
mod worker;

pub use check::check;
pub use compose::{catalog, plugins, serve_tool_worker, session};
pub use coverage::{SourceCoverage, coverage};
pub use error::{ApiError, ErrorCode};
pub use evidence::{Inspection, LayerView, cat, inspect, list, verify_media};
pub use intake::{
    FileHash, InitCase, IntakeReport, RunOptions, SourceIntake, hash_files, init_case, run,
};
pub use lease::{RunLease, take_lease};
pub use marks::{
    DEFAULT_TAGS, MarkAct, MarkOutcome, mark, parse_target, tag_names, tagged, withdraw_note,
};
pub use masf_agents::{Halt, RunState};
pub use masf_agents::{TaskTally, TriageReport};
pub use masf_evidence::ewf::MediaVerification;
pub use masf_evidence::fs::{Entry, EntryKind, RawTime};
pub use masf_graph::resolution::{Actor, ActorIdentifier, EntityRef, EvidenceView, LinkView};
pub use masf_graph::{Decision, EntityKind, Relation, SameAsDecision, SameAsState};
pub use masf_index::Mode as SearchMode;
pub use masf_report::Report;
pub use masf_report::tagged::TaggedRow;
pub use masf_report::timeline::bodyfile as timeline_bodyfile;
pub use masf_report::timeline::export as timeline_export;
pub use masf_report::timeline::{
    ActorFilter, ContextFact, Entry as TimelineEntry, Filter as TimelineFilter,
    Flag as TimelineFlag, Timeline,
};
pub use masf_store::Holder;
pub use masf_tools::CarriedDecision;
pub use masf_tools::consistency::{Consistency, Problem, ProblemKind};
pub use masf_tools::index_tools::{IndexProgress, render_hit as render_search_hit};
pub use masf_tools::rederive::{Rederivation, Verdict as RederiveVerdict};
pub use rederive::{FactFailure, PublishedOutputs, VerifyReport, publish_outputs, rerun, verify};
pub use repair::{CarriedOver, Repaired, repair};
pub use report::{ReportWritten, build_report, write_report, write_report_with};
pub use resolve::{
    Decided, ResolveReport, Why, WhyInvocation, actors, approve, graph, links, links_and_actors,
    resolve, resolve_in, retract, why,
};
pub use search::{
    Indexed, NotSearched, SearchHit, SearchRequest, SearchResult, Searched, index, search,
};
pub use stream::{Cursor, StreamItem, follow, poll};
pub use timeline::{TimelineQuery, query_timeline, timeline, timeline_filter};
pub use triage::{RunOutcome, caps, grant, pause};
pub use worker::run_tools_in_workers;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use masf_case::{Case, Config};
use masf_store::Store;
pub use masf_store::StoredEvent;
use serde::Serialize;

/// Progress of a long operation, reported in bytes (intake's trait: hashing and media
/// verification report through it), and the sink that shows nothing.
pub use masf_intake::{NoProgress, Progress};

/// The source of "now". Logic never reads the clock itself, so runs can be replayed with a
/// fixed clock in tests.
pub trait Clock: Send + Sync {
    fn now(&self) -> jiff::Timestamp;
}

/// The system's clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> jiff::Timestamp {
        jiff::Timestamp::now()
    }
}

/// What is needed to open a case.
#[derive(Debug, Clone)]
pub struct OpenCase {
    /// The case file.
    pub case_file: PathBuf,
    /// Work folder; default `<case dir>/.masf/`.
    pub work: Option<PathBuf>,
    /// Configuration file; default `config.yaml` beside the case file if present, else built-ins.
    pub config: Option<PathBuf>,
}

/// An open case: its validated model, configuration and store.
pub struct CaseCtx {
    pub case: Case,
    pub config: Config,
    pub work_dir: PathBuf,
    pub store: Store,
    /// The sources' scans made while this case is open: a run scans each source once, and
    /// intake, the agents' session and the report share that scan.
    pub scans: Arc<Scans>,
}

/// Why a source could not be scanned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScanFailure {
    /// The scan's options could not be made (the backup password's variable).
    Options(String),
    /// The evidence's content could not be scanned.
    Content(String),
}

impl std::fmt::Display for ScanFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Options(e) => f.write_str(e),
            Self::Content(e) => write!(f, "content not recognised: {e}"),
        }
    }
}

/// Scanned layer stacks by source id (see [`CaseCtx::scans`]). Only successful scans are
/// kept: a source that could not be scanned is tried again by its next user.
#[derive(Default)]
pub struct Scans {
    by_source: std::sync::Mutex<std::collections::HashMap<String, Arc<masf_evidence::scan::Scan>>>,
    /// How many scans were made (a source scanned twice at once by two users counts twice).
    made: std::sync::atomic::AtomicUsize,
}

impl Scans {
    /// The scan of source `id`, whose evidence is at `path`, made now if not yet made (with
    /// the backup password the variable `password_env` names, as `masf_tools::scan_options`
    /// reads it).
    pub fn get(
        &self,
        id: &str,
        path: &Path,
        password_env: Option<&str>,
    ) -> Result<Arc<masf_evidence::scan::Scan>, ScanFailure> {
        if let Some(scan) = self.lock().get(id) {
            return Ok(scan.clone());
        }
        // Scanned without holding the lock: sources are scanned side by side.
        let options = masf_tools::scan_options(password_env)
            .map_err(|e| ScanFailure::Options(e.to_string()))?;
        self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let scan = Arc::new(
            masf_evidence::scan::scan_with(path, &options)
                .map_err(|e| ScanFailure::Content(e.to_string()))?,
        );
        Ok(self.lock().entry(id.to_string()).or_insert(scan).clone())
    }

    /// How many scans have been made.
    pub fn made(&self) -> usize {
        self.made.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Arc<masf_evidence::scan::Scan>>>
    {
        self.by_source
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Loads and validates the case and its configuration, then opens (or creates) its store.
pub fn open_case(req: &OpenCase) -> Result<CaseCtx, ApiError> {
    let case = Case::load(&req.case_file).map_err(ApiError::case)?;
    let config_path = match &req.config {
        Some(p) => Some(p.clone()),
        None => {
            let beside = case.dir.join("config.yaml");
            beside.is_file().then_some(beside)
        }
    };
    let config = Config::load(config_path.as_deref()).map_err(ApiError::config)?;
    let work_dir = req.work.clone().unwrap_or_else(|| case.dir.join(".masf"));
    let store = Store::open(&work_dir).map_err(ApiError::store)?;
    Ok(CaseCtx {
        case,
        config,
        work_dir,
        store,
        scans: Arc::default(),
    })
}

/// A summary of a case and its store.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct CaseStatus {
    pub case_id: String,
    pub title: String,
    pub examiner: String,
    pub timezone: String,
    pub store: PathBuf,
    pub events: u64,
    pub sources: Vec<SourceStatus>,
    /// The run lifecycle: last state, segments, grants, budget warnings, the last lease.
    pub run: masf_agents::RunProjection,
    /// The store's consistency check ([`status_checked`]; absent from [`status`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub consistency: Option<Consistency>,
}

/// One source of the case: as declared, and as registered by intake.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SourceStatus {
    pub id: String,
    pub label: String,
    pub path: String,
    pub owner: Option<String>,
    pub timezone: String,
    pub registered: bool,
    /// Why intake could not register it (the last attempt), when it is not registered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub intake_error: Option<String>,
    /// The evidence type sniffed at intake, and why.
    pub detected_type: Option<String>,
    pub detection_reasons: Vec<String>,
    /// EWF images: media hashes at intake against the stored ones.
    pub media: Option<masf_case::events::MediaIntegrity>,
    pub files: Vec<masf_case::events::FileDigest>,
    /// The environment variable named to hold an encrypted backup's password
    /// (`password_env:`), and whether this process has a password for it (exported, or typed
    /// in the desktop app); the password itself is never part of any view.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub password_env: Option<String>,
    pub password_available: bool,
}

/// Summarises the case: what case.yaml declares and what the event log says was registered.
pub fn status(ctx: &CaseCtx) -> Result<CaseStatus, ApiError> {
    let (mut registry, events) = intake::registry(ctx)?;
    let sources = ctx
        .case
        .sources
        .iter()
        .map(|s| {
            // Taken, not copied: a folder source lists every one of its files.
            let taken = registry.sources.remove(&s.id);
            let reg = taken.as_ref();
            let mut status = SourceStatus {
                id: s.id.clone(),
                label: reg.map_or_else(|| s.label.clone(), |r| r.label.clone()),
                path: s.path_as_written.clone(),
                owner: s.owner.clone(),
                timezone: s.timezone.clone(),
                registered: reg.is_some(),
                intake_error: registry.unreadable.get(&s.id).cloned(),
                detected_type: reg.and_then(|r| r.detected_type.clone()),
                detection_reasons: reg.map(|r| r.detection_reasons.clone()).unwrap_or_default(),
                media: reg.and_then(|r| r.media.clone()),
                files: Vec::new(),
                password_env: s.password_env.clone(),
                password_available: s
                    .password_env
                    .as_deref()
                    .is_some_and(|var| masf_tools::backup_password(var).is_some()),
            };
            if let Some(r) = taken {
                status.files = r.files;
            }
            status
        })
        .collect();
    Ok(CaseStatus {
        case_id: ctx.case.meta.id.clone(),
        title: ctx.case.meta.title.clone(),
        examiner: ctx.case.meta.examiner.clone(),
        timezone: ctx.case.meta.timezone.clone(),
        store: store_file(&ctx.work_dir),
        events,
        sources,
        run: masf_agents::RunProjection::load(&ctx.store)?,
        consistency: None,
    })
}

/// [`status`] with the store's consistency check ([`check`]).
pub fn status_checked(ctx: &CaseCtx) -> Result<CaseStatus, ApiError> {
    let mut status = status(ctx)?;
    status.consistency = Some(check(ctx)?);
    Ok(status)
}

/// Calls `f` for every event of the case log, in order. `f` may stop the walk with an error.
pub fn for_each_event(
    ctx: &CaseCtx,
    f: &mut dyn FnMut(&StoredEvent) -> Result<(), String>,
) -> Result<(), ApiError> {
    ctx.store.for_each_event(0, |e| {
        f(&e).map_err(|msg| ApiError::new(ErrorCode::Io, msg))
    })
}

fn store_file(work_dir: &Path) -> PathBuf {
    work_dir.join("case.sqlite")
}
