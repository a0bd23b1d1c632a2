//! The desktop app's facade: the state of one app window (its current case and its run) and the
//! UI-facing shapes of intake, invocations, links and report export. The Tauri shell
//! (`src-tauri`) only wires its commands to the functions here and forwards what a
//! [`DesktopSink`] receives as window events; everything that decides anything lives here, where
//! it is tested without a window.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{
    ApiError, CaseCtx, CaseStatus, Clock, Cursor, ErrorCode, LayerView, OpenCase, Progress,
    ReportWritten, StreamItem, SystemClock,
};

/// How often the run's event stream is polled while a run goes. The stream reads the store
/// through its own read-only connection; 40 ms keeps the backend-to-screen delay low without
/// competing with the run for the store.
pub const FOLLOW_EVERY: Duration = Duration::from_millis(40);

/// Largest invocation output sent to the UI as text; longer outputs are cut and say so.
pub const OUTPUT_TEXT_CAP: usize = 512 * 1024;

/// Largest page of [`Desktop::events_since`].
pub const PAGE_MAX: usize = 5_000;

// ---------------------------------------------------------------------------------------------
// Intake

/// One dropped or picked path, sniffed by content: what the case editor shows before saving.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SourceDraft {
    pub path: PathBuf,
    /// The evidence type sniffed from the content (`disk_image`, `android_disk` …), if readable.
    pub detected_type: Option<String>,
    /// Why the type was chosen.
    pub reasons: Vec<String>,
    /// `single`, `segments`, `folder` …
    pub files_kind: Option<String>,
    pub files: Vec<String>,
    pub size: u64,
    pub layers: Vec<LayerView>,
    /// A source id derived from the file name (`usb.E01` → `src-usb-e01`), unique in this batch.
    pub suggested_id: String,
    /// The file name.
    pub suggested_label: String,
    /// Why the path could not be sniffed (it is still listed, so the examiner sees it).
    pub error: Option<ApiError>,
}

/// Sniffs every path (content, not extension). A path that cannot be read is returned with its
/// error rather than failing the batch. Suggested ids are unique within the batch.
pub fn draft_sources(paths: &[PathBuf]) -> Vec<SourceDraft> {
    let mut taken = std::collections::HashSet::new();
    paths
        .iter()
        .map(|path| {
            let label = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            let stem = masf_case::id_from_text(&label);
            let base = if stem.is_empty() {
                "src".to_string()
            } else {
                format!("src-{stem}")
            };
            let mut id = base.clone();
            let mut n = 2;
            while !taken.insert(id.clone()) {
                id = format!("{base}-{n}");
                n += 1;
            }
            match crate::inspect(path, false, None) {
                Ok(i) => SourceDraft {
                    path: path.clone(),
                    detected_type: Some(i.evidence_type),
                    reasons: i.reasons,
                    files_kind: Some(i.files_kind),
                    files: i.files,
                    size: i.size,
                    layers: i.layers,
                    suggested_id: id,
                    suggested_label: label,
                    error: None,
                },
                Err(e) => SourceDraft {
                    path: path.clone(),
                    detected_type: None,
                    reasons: Vec::new(),
                    files_kind: None,
                    files: Vec::new(),
                    size: std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
                    layers: Vec::new(),
                    suggested_id: id,
                    suggested_label: label,
                    error: Some(e),
                },
            }
        })
        .collect()
}

/// A person of the case as the editor holds it.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct PersonDraft {
    pub id: String,
    pub name: String,
    #[serde(default)]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub aliases: Vec<String>,
}

/// A source of the case as the editor holds it.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct SourceEntryDraft {
    pub id: String,
    pub label: String,
    /// Absolute, or relative to `dir`; written relative to `dir` when it lies below it.
    pub path: PathBuf,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub owner: Option<String>,
    /// IANA zone; none or the case's zone writes no `timezone:` line.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub timezone: Option<String>,
    /// Phone-numbering region (ISO 3166-1 alpha-2) for this source; none or the case's writes
    /// no `region:` line.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub region: Option<String>,
    /// The environment variable that holds an encrypted backup's password (`password_env:`):
    /// its name, never the password; none or blank writes no line.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub password_env: Option<String>,
}

/// The whole case as the editor holds it, to be written as `dir/case.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct CaseDraft {
    pub dir: PathBuf,
    pub id: String,
    pub title: String,
    pub examiner: String,
    pub timezone: String,
    /// The examiner's phone-numbering region (ISO 3166-1 alpha-2) for sources whose evidence
    /// gives none; none writes no `region:` line.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub region: Option<String>,
    #[serde(default)]
    #[ts(as = "Option<Vec<PersonDraft>>", optional)]
    pub persons: Vec<PersonDraft>,
    pub sources: Vec<SourceEntryDraft>,
    /// Replace an existing case.yaml.
    #[serde(default)]
    #[ts(as = "Option<bool>", optional)]
    pub overwrite: bool,
}

/// Writes `draft.dir/case.yaml` and loads it back: a draft that would not load (bad id,
/// unknown zone, unknown owner, missing evidence) is refused with the loader's message, and
/// nothing is left behind.
pub fn save_case(draft: &CaseDraft) -> Result<PathBuf, ApiError> {
    let file = draft.dir.join("case.yaml");
    if file.exists() && !draft.overwrite {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("{} exists", file.display()),
        ));
    }
    if draft.sources.is_empty() {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "a case needs at least one source",
        ));
    }
    std::fs::create_dir_all(&draft.dir)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", draft.dir.display())))?;
    let dir = draft
        .dir
        .canonicalize()
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", draft.dir.display())))?;
    let case_file = case_file_of(draft, &dir)?;
    let text = case_file.to_yaml();
    // Validate before replacing anything: the loader reads the text as if it were the file.
    masf_case::Case::parse(&text, &file).map_err(crate::ApiError::case)?;
    let tmp = dir.join(".case.yaml.tmp");
    std::fs::write(&tmp, &text)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, &file)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", file.display())))?;
    Ok(dir.join("case.yaml"))
}

/// The case file `draft` describes, with evidence paths written relative to `dir` where they
/// lie below it.
fn case_file_of(draft: &CaseDraft, dir: &Path) -> Result<masf_case::CaseFile, ApiError> {
    // Regions as written in case.yaml (upper case); the loader below validates them.
    let region_of = |r: &Option<String>| {
        r.as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_uppercase)
    };
    let case_region = region_of(&draft.region);
    let mut sources = Vec::with_capacity(draft.sources.len());
    for s in &draft.sources {
        let abs = if s.path.is_absolute() {
            s.path.clone()
        } else {
            dir.join(&s.path)
        };
        let written = abs.strip_prefix(dir).unwrap_or(&abs);
        let Some(text) = written.to_str() else {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!("{} is not valid UTF-8", s.path.display()),
            ));
        };
        let zone = s
            .timezone
            .as_ref()
            .filter(|z| !z.is_empty() && **z != draft.timezone);
        sources.push(masf_case::SourceEntry {
            id: s.id.clone(),
            label: s.label.clone(),
            path: text.replace(std::path::MAIN_SEPARATOR, "/"),
            owner: s.owner.clone().filter(|o| !o.is_empty()),
            source_type: None,
            timezone: zone.cloned(),
            region: region_of(&s.region).filter(|r| Some(r) != case_region.as_ref()),
            password_env: s
                .password_env
                .as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_string),
            notes: None,
        });
    }
    Ok(masf_case::CaseFile {
        case: masf_case::CaseFileMeta {
            id: draft.id.clone(),
            title: draft.title.clone(),
            examiner: draft.examiner.clone(),
            timezone: draft.timezone.clone(),
            region: case_region.clone(),
            persons: draft
                .persons
                .iter()
                .map(|p| masf_case::Person {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    aliases: p.aliases.clone(),
                })
                .collect(),
        },
        sources,
    })
}

/// What a case draft's problem is about, named as the case editor's messages are
/// (`intake.p.<kind>` in the UI's dictionaries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub enum DraftProblemKind {
    /// The case has no source.
    NoSources,
    /// No case folder is chosen.
    Dir,
    /// The case id is not `[a-z0-9][a-z0-9_-]*`.
    CaseId,
    /// No examiner is named.
    Examiner,
    /// The case has no title.
    Title,
    /// A time zone that is not an IANA name.
    Zone,
    /// A region libphonenumber's metadata does not know.
    Region,
    /// `password_env` is not an environment variable's name.
    PasswordEnv,
    /// A source id is not `[a-z0-9][a-z0-9_-]*`.
    SourceId,
    /// Two sources share an id.
    DupId,
    /// A person id is invalid or repeated.
    PersonId,
    /// A source's owner is not one of the case's persons.
    Owner,
    /// A source's evidence cannot be found or read.
    Unreadable,
    /// Anything else the case loader refuses; `message` says what.
    Other,
}

impl DraftProblemKind {
    /// Every kind but `Other`: each has a message of its own in the UI's dictionaries.
    pub const NAMED: [DraftProblemKind; 13] = [
        Self::NoSources,
        Self::Dir,
        Self::CaseId,
        Self::Examiner,
        Self::Title,
        Self::Zone,
        Self::Region,
        Self::PasswordEnv,
        Self::SourceId,
        Self::DupId,
        Self::PersonId,
        Self::Owner,
        Self::Unreadable,
    ];
}

/// One reason a case draft cannot be saved, as the case loader finds it: what it is about
/// (`kind`, with `params` for the message), where (`at`, e.g. `sources[1].timezone`), and the
/// loader's own English message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct DraftProblem {
    pub kind: DraftProblemKind,
    /// Values the message names (`id`, `zone`, `region`, `path`, `owner`, `suggestion`).
    pub params: std::collections::BTreeMap<String, String>,
    /// The key path of the field in case.yaml, e.g. `case.id` or `sources[1].region`.
    pub at: String,
    pub message: String,
}

/// Every reason `draft` could not be saved, found by the same loader `save_case` and `masf run`
/// use, so the editor accepts exactly what the loader accepts. Nothing is written; an existing
/// case.yaml is not a problem here (`save_case` asks before replacing it).
pub fn check_case_draft(draft: &CaseDraft) -> Vec<DraftProblem> {
    let mut out = Vec::new();
    let problem = |kind, at: &str, message: String, params: &[(&str, &str)]| DraftProblem {
        kind,
        params: params
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect(),
        at: at.to_string(),
        message,
    };
    if draft.sources.is_empty() {
        out.push(problem(
            DraftProblemKind::NoSources,
            "sources",
            "a case needs at least one source".into(),
            &[],
        ));
    }
    let blank_dir =
        draft.dir.as_os_str().is_empty() || draft.dir.to_string_lossy().trim().is_empty();
    if blank_dir {
        out.push(problem(
            DraftProblemKind::Dir,
            "",
            "choose the folder the case is saved in".into(),
            &[],
        ));
    }
    // The folder need not exist yet (saving creates it); evidence paths below it are still
    // written relative to it, as saving would.
    let dir = if blank_dir {
        std::env::current_dir().unwrap_or_default()
    } else {
        draft.dir.canonicalize().unwrap_or_else(|_| {
            std::path::absolute(&draft.dir).unwrap_or_else(|_| draft.dir.clone())
        })
    };
    let case_file = match case_file_of(draft, &dir) {
        Ok(f) => f,
        Err(e) => {
            out.push(problem(DraftProblemKind::Other, "sources", e.message, &[]));
            return out;
        }
    };
    let yaml = dir.join("case.yaml");
    if let Err(masf_case::CaseError::Invalid { issues, .. }) =
        masf_case::Case::parse(&case_file.to_yaml(), &yaml)
    {
        for issue in issues {
            out.push(draft_problem(&issue));
        }
    }
    out
}

/// A loader issue in the editor's terms.
fn draft_problem(issue: &masf_case::Issue) -> DraftProblem {
    use masf_case::IssueKind as K;
    let loc = &issue.location;
    let field = loc.field.as_deref().unwrap_or("");
    let in_source = loc.item.starts_with("sources");
    let in_person = loc.item.contains("persons");
    let id = loc.id.clone().unwrap_or_default();
    let mut params: Vec<(&str, String)> = Vec::new();
    let kind = match (&issue.kind, field) {
        (K::InvalidId { value, suggestion }, _) if in_person => {
            params.push(("id", value.clone()));
            params.extend(suggestion.clone().map(|s| ("suggestion", s)));
            DraftProblemKind::PersonId
        }
        (K::DuplicatePersonId { id, .. }, _) => {
            params.push(("id", id.clone()));
            DraftProblemKind::PersonId
        }
        (K::InvalidId { value, suggestion }, _) => {
            params.push(("id", value.clone()));
            params.extend(suggestion.clone().map(|s| ("suggestion", s)));
            if in_source {
                DraftProblemKind::SourceId
            } else {
                DraftProblemKind::CaseId
            }
        }
        (K::MissingField | K::EmptyValue, "id") if !in_source && !in_person => {
            params.push(("id", String::new()));
            DraftProblemKind::CaseId
        }
        (K::MissingField | K::EmptyValue, "id") if in_source => {
            params.push(("id", String::new()));
            DraftProblemKind::SourceId
        }
        (K::MissingField | K::EmptyValue, "examiner") => DraftProblemKind::Examiner,
        (K::MissingField | K::EmptyValue, "title") => DraftProblemKind::Title,
        (K::MissingField | K::EmptyValue, "timezone") => {
            params.push(("zone", String::new()));
            DraftProblemKind::Zone
        }
        (K::UnknownTimeZone { name, suggestion }, _) => {
            params.push(("zone", name.clone()));
            params.extend(suggestion.clone().map(|s| ("suggestion", s)));
            DraftProblemKind::Zone
        }
        (K::UnknownRegion { value }, _) => {
            params.push(("region", value.clone()));
            DraftProblemKind::Region
        }
        (_, "password_env") => {
            // What was typed may be the password itself: never echoed, only the source named.
            params.push(("id", id.clone()));
            DraftProblemKind::PasswordEnv
        }
        (K::DuplicateSourceId { id, .. }, _) => {
            params.push(("id", id.clone()));
            DraftProblemKind::DupId
        }
        (K::UnknownOwner { owner, .. }, _) => {
            params.push(("owner", owner.clone()));
            params.push(("id", id.clone()));
            DraftProblemKind::Owner
        }
        (K::EvidenceNotFound { path } | K::EvidenceUnreadable { path, .. }, _) => {
            params.push(("path", path.display().to_string()));
            DraftProblemKind::Unreadable
        }
        _ => DraftProblemKind::Other,
    };
    // The loader never echoes a password_env value, so its message is safe to show as is.
    let at = loc.to_string();
    let message = if at.is_empty() {
        issue.kind.to_string()
    } else {
        format!("{at}: {}", issue.kind)
    };
    DraftProblem {
        kind,
        params: params
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        at: loc.key_path(),
        message,
    }
}

/// The case file meant by `path`: a case.yaml itself, a case folder holding one, or a case's
/// work folder (`.masf/`, holding `case.sqlite`) beside one.
pub fn resolve_case_path(path: &Path) -> Result<(PathBuf, Option<PathBuf>), ApiError> {
    if path.is_file() {
        return Ok((path.to_path_buf(), None));
    }
    if path.is_dir() {
        let inside = path.join("case.yaml");
        if inside.is_file() {
            return Ok((inside, None));
        }
        if path.join("case.sqlite").is_file()
            && let Some(parent) = path.parent()
        {
            let beside = parent.join("case.yaml");
            if beside.is_file() {
                return Ok((beside, Some(path.to_path_buf())));
            }
        }
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!(
                "{} holds no case.yaml and is not a case work folder",
                path.display()
            ),
        ));
    }
    Err(ApiError::new(
        ErrorCode::BadRequest,
        format!("{} does not exist", path.display()),
    ))
}

// ---------------------------------------------------------------------------------------------
// Views

/// What opening a case returns.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct CaseSummary {
    pub case_file: PathBuf,
    pub work_dir: PathBuf,
    pub status: CaseStatus,
    /// Whether a run of this case is going in this app.
    pub running: bool,
}

/// The case's status as the app shows it: the case and its sources, the run, the budget now,
/// and what was found per source.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct StatusView {
    #[serde(flatten)]
    pub status: CaseStatus,
    pub case_file: PathBuf,
    pub work_dir: PathBuf,
    /// Usage against the caps (raised by grants), with the 70 / 90 % warning levels reached.
    #[ts(as = "masf_report::ts_shapes::BudgetStatus")]
    pub budget: masf_graph::views::BudgetStatus,
    pub tallies: Vec<SourceTally>,
    /// Whether a run is going in this app.
    pub running: bool,
}

/// What the agents recorded for one source.
#[derive(Debug, Clone, Default, Serialize, ts_rs::TS)]
pub struct SourceTally {
    pub source_id: String,
    pub phenomena: u64,
    pub invocations: u64,
    pub failed_invocations: u64,
}

/// The status view of a case.
pub fn status_view(ctx: &CaseCtx, running: bool) -> Result<StatusView, ApiError> {
    let status = crate::status(ctx)?;
    let state = crate::graph(ctx)?;
    // The budget as the next run segment would count it (see `Session::set_caps`): the one
    // usage count, LLM tokens included.
    let rounds = state.rounds().len() as u64;
    let used = masf_agents::run::RunUsage::resumed(&ctx.store, &status.run, rounds)?;
    let budget = used.status(crate::caps(ctx), &status.run.grants);
    let mut tallies: std::collections::BTreeMap<String, SourceTally> = status
        .sources
        .iter()
        .map(|s| {
            (
                s.id.clone(),
                SourceTally {
                    source_id: s.id.clone(),
                    ..SourceTally::default()
                },
            )
        })
        .collect();
    for p in state.phenomena().values() {
        if let Some(t) = tallies.get_mut(&p.source_id) {
            t.phenomena += 1;
        }
    }
    ctx.store.for_each_invocation(|i| {
        if let Some(t) = tallies.get_mut(&i.source_id) {
            t.invocations += 1;
            if !matches!(
                i.status,
                masf_store::InvocationStatus::Ok | masf_store::InvocationStatus::Cached
            ) {
                t.failed_invocations += 1;
            }
        }
        Ok::<(), ApiError>(())
    })?;
    Ok(StatusView {
        status,
        case_file: ctx.case.file.clone(),
        work_dir: ctx.work_dir.clone(),
        budget,
        tallies: tallies.into_values().collect(),
        running,
    })
}

/// One tool invocation as the Findings view shows it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct InvocationView {
    pub id: String,
    pub source_id: String,
    pub tool: String,
    /// The canonical args, parsed (the raw text when not JSON).
    pub args: serde_json::Value,
    pub status: String,
    pub reason: Option<String>,
    pub agent: String,
    pub task_id: String,
    pub ts: String,
    pub duration_ms: u64,
    pub output_sha256: String,
    pub output_size: u64,
    /// The output as text (invalid UTF-8 replaced), at most [`OUTPUT_TEXT_CAP`] bytes.
    pub output_text: String,
    pub output_truncated: bool,
    /// The command that re-runs it from a shell.
    pub rerun_command: String,
    /// Where the fact asked about stands in the output, as the gateway finds it; none when no
    /// fact was asked about.
    #[ts(optional = nullable)]
    pub highlight: Option<HighlightView>,
}

/// A fact whose value the invocation view marks in the output.
#[derive(Debug, Clone, Serialize, Deserialize, ts_rs::TS)]
pub struct FactQuery {
    /// The fact's type as the report names it (`phone`, `wallet`, `imei` …).
    pub fact_type: String,
    pub value: String,
}

/// Where a fact's value is in an invocation's output: found by the grounding gateway's own
/// methods (`masf_graph::occurrences`), so the view marks exactly what verified the fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct HighlightView {
    /// `verbatim`, `structured_field`, a normalisation (`phone_e164`, `digit_separators`,
    /// `whitespace_collapse`, `hex_case`, `email_case`, `look_alike_repair`), or `none`.
    pub how: String,
    /// The JSON pointer of the structured field that holds the value, for `structured_field`
    /// and normalised field matches.
    #[ts(optional = nullable)]
    pub field: Option<String>,
    /// Every occurrence in `output_text`, as UTF-16 code unit offsets (JavaScript string
    /// indices), in order, disjoint; those past the shown text are left out.
    pub spans: Vec<TextSpan>,
}

/// A range of `output_text` in UTF-16 code units, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct TextSpan {
    pub start: u32,
    pub end: u32,
}

/// A re-run's outcome: `match` or not, with both hashes.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct RerunView {
    pub invocation_id: String,
    /// `match`, `rerun_differs`, `stored_output_altered`, `rerun_failed`, `not_reproducible`.
    pub verdict: String,
    pub matched: bool,
    pub expected_sha256: String,
    pub actual_sha256: Option<String>,
    pub detail: Option<String>,
}

/// The links and actors after a decision (or now), as the report's rows
/// (`masf_report::model::same_as_rows` / `actor_rows`): the Entities view draws the report's
/// model, and a decision answers in the same shape, never converted in the UI.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct LinksAndActors {
    pub same_as: Vec<masf_report::model::SameAsRow>,
    pub actors: Vec<masf_report::model::ActorRow>,
}

/// The examiner's marks: the tags to offer and every marked item (after a mark, or now).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct TagsView {
    /// The defaults, then every other tag used in the case.
    pub offered: Vec<String>,
    /// Every item tagged, bookmarked or noted, with who and when.
    pub items: Vec<crate::TaggedRow>,
}

/// A page of the event stream.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct EventPage {
    pub items: Vec<StreamItem>,
    pub cursor: WireCursor,
    /// More items follow the cursor.
    pub more: bool,
}

/// A stream cursor as it crosses the IPC (the same fields as [`Cursor`]).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, ts_rs::TS)]
pub struct WireCursor {
    pub event_seq: i64,
    pub invocation_seq: i64,
}

impl From<WireCursor> for Cursor {
    fn from(c: WireCursor) -> Cursor {
        Cursor {
            event_seq: c.event_seq,
            invocation_seq: c.invocation_seq,
        }
    }
}

impl From<Cursor> for WireCursor {
    fn from(c: Cursor) -> WireCursor {
        WireCursor {
            event_seq: c.event_seq,
            invocation_seq: c.invocation_seq,
        }
    }
}

/// Report formats the export writes (the report crate's renderings).
pub use masf_report::Format as ReportFormat;

/// What the export wrote.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct Exported {
    pub dir: PathBuf,
    /// The files written, in the order asked.
    pub files: Vec<PathBuf>,
    pub outputs: crate::PublishedOutputs,
    pub phenomena: usize,
    pub hypotheses: usize,
    pub actors: usize,
}

/// How a run ended, sent as `run-finished`.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct RunFinished {
    /// `completed`, `paused`, `halted_budget`, `failed` …
    pub state: String,
    pub error: Option<ApiError>,
    pub problems: Vec<String>,
    pub report: Option<ReportWritten>,
}

/// Hashing progress, sent as `intake-progress`.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct IntakeProgress {
    pub path: String,
    pub done: u64,
    pub total: u64,
}

/// Where the app's events go (the shell emits them to the window).
pub trait DesktopSink: Send + Sync {
    /// Items appended to the case store, in order, as the run's follower saw them.
    fn run_events(&self, items: &[StreamItem]);
    /// The run's thread ended.
    fn run_finished(&self, finished: &RunFinished);
    /// Hashing progress.
    fn intake_progress(&self, progress: &IntakeProgress);
}

// ---------------------------------------------------------------------------------------------
// The app's state

/// The state of one app window: its current case and the run going in the background.
#[derive(Default)]
pub struct Desktop {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    case: Option<OpenCase>,
    run: Option<JoinHandle<()>>,
}

impl Desktop {
    pub fn new() -> Desktop {
        Desktop::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves only plain data behind: keep going.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn request(&self) -> Result<OpenCase, ApiError> {
        self.lock()
            .case
            .clone()
            .ok_or_else(|| ApiError::new(ErrorCode::BadRequest, "no case is open"))
    }

    /// Opens the current case afresh (each command gets its own store connection).
    pub fn ctx(&self) -> Result<CaseCtx, ApiError> {
        crate::open_case(&self.request()?)
    }

    /// Whether a run is going.
    pub fn running(&self) -> bool {
        self.lock().run.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Makes `path` (case.yaml, case folder, or work folder) the current case.
    pub fn open(&self, path: &Path) -> Result<CaseSummary, ApiError> {
        if self.running() {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "a run is going; pause it before opening another case",
            ));
        }
        let (case_file, work) = resolve_case_path(path)?;
        let req = OpenCase {
            case_file,
            work,
            config: None,
        };
        let ctx = crate::open_case(&req)?;
        let status = crate::status(&ctx)?;
        let summary = CaseSummary {
            case_file: ctx.case.file.clone(),
            work_dir: ctx.work_dir.clone(),
            status,
            running: false,
        };
        self.lock().case = Some(req);
        Ok(summary)
    }

    /// Gives the open case's source `source_id` the password of its encrypted backup, typed
    /// by the examiner: checked against the backup's keybag at once (a wrong one is refused with
    /// "the password does not open this backup's keybag", to be typed again), then held in this
    /// process's memory under the source's `password_env:` name for the run and its tool
    /// workers. Never written: not to case.yaml, the store, a log or an event.
    pub fn give_backup_password(&self, source_id: &str, password: &str) -> Result<(), ApiError> {
        let ctx = self.ctx()?;
        let spec = ctx.case.source(source_id).ok_or_else(|| {
            ApiError::new(
                ErrorCode::BadRequest,
                format!("the case has no source {source_id}"),
            )
        })?;
        let Some(var) = spec.password_env.as_deref() else {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!(
                    "source {source_id} names no password variable: set `password_env:` on it \
                     in the case editor first"
                ),
            ));
        };
        if password.is_empty() {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "the password is empty",
            ));
        }
        let password = masf_evidence::itunes::keybag::Password::new(password.as_bytes().to_vec());
        let options = masf_evidence::scan::ScanOptions {
            backup_password: Some(password.clone()),
        };
        let scan = masf_evidence::scan::scan_with(&spec.path, &options)
            .map_err(|e| ApiError::new(ErrorCode::Evidence, e.to_string()))?;
        let mut backups = 0;
        let mut stack = vec![&scan.root];
        while let Some(node) = stack.pop() {
            if node.layer.kind == "itunes_backup" {
                backups += 1;
                if let Some(problem) = &node.problem {
                    return Err(ApiError::new(ErrorCode::Evidence, problem.clone()));
                }
            }
            stack.extend(node.children.iter());
        }
        if backups == 0 {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!("source {source_id} holds no iTunes/Finder backup"),
            ));
        }
        masf_tools::give_backup_password(var, password);
        Ok(())
    }

    /// The current case's status, budget and tallies.
    pub fn status(&self) -> Result<StatusView, ApiError> {
        let running = self.running();
        status_view(&self.ctx()?, running)
    }

    /// Starts the case's run in a background thread, under the case's run lease: refused with
    /// [`ErrorCode::CaseBusy`] when another process (a `masf run`, another window) runs it. A
    /// follower thread forwards everything the run appends to the store, from where the store
    /// stands now, to `sink`; `run_finished` comes after the last item, once the lease is let go.
    pub fn start_run(&self, sink: Arc<dyn DesktopSink>) -> Result<(), ApiError> {
        self.start_run_then(sink, |_| Ok(()))
    }

    /// [`Desktop::start_run`], doing `first` under the lease before the run starts.
    fn start_run_then(
        &self,
        sink: Arc<dyn DesktopSink>,
        first: impl FnOnce(&mut CaseCtx) -> Result<(), ApiError>,
    ) -> Result<(), ApiError> {
        let mut inner = self.lock();
        if inner.run.as_ref().is_some_and(|h| !h.is_finished()) {
            return Err(ApiError::new(ErrorCode::BadRequest, "a run is going"));
        }
        let req = inner
            .case
            .clone()
            .ok_or_else(|| ApiError::new(ErrorCode::BadRequest, "no case is open"))?;
        let mut ctx = crate::open_case(&req)?;
        let lease = crate::take_lease(&mut ctx, None, &SystemClock)?;
        first(&mut ctx)?;
        let start = Cursor {
            // From the lease's event on: who runs is the run's first record.
            event_seq: lease.seq() - 1,
            invocation_seq: i64::try_from(ctx.store.invocation_count()?).unwrap_or(i64::MAX),
        };
        let handle = std::thread::Builder::new()
            .name("masf-run".into())
            .spawn(move || {
                let stop = Arc::new(AtomicBool::new(false));
                let follower = {
                    let (work, stop, sink) = (ctx.work_dir.clone(), stop.clone(), sink.clone());
                    std::thread::Builder::new()
                        .name("masf-follow".into())
                        .spawn(move || follow_batched(&work, start, &stop, sink.as_ref()))
                };
                let result = crate::run(
                    &mut ctx,
                    &lease,
                    &crate::RunOptions::default(),
                    Arc::new(SystemClock),
                    &crate::NoProgress,
                );
                drop(lease);
                stop.store(true, Ordering::SeqCst);
                let follow_error = match follower {
                    Ok(f) => match f.join() {
                        Ok(r) => r.err(),
                        Err(_) => Some(ApiError::new(ErrorCode::Io, "the follower panicked")),
                    },
                    Err(e) => Some(ApiError::new(ErrorCode::Io, e.to_string())),
                };
                let finished = match result {
                    Ok(report) => RunFinished {
                        state: report
                            .run
                            .as_ref()
                            .map_or("not_started", |r| r.state.as_str())
                            .to_string(),
                        error: follow_error,
                        problems: report.problems,
                        report: report.report,
                    },
                    Err(e) => RunFinished {
                        state: "failed".into(),
                        error: Some(e),
                        problems: Vec::new(),
                        report: None,
                    },
                };
                sink.run_finished(&finished);
            })
            .map_err(|e| ApiError::new(ErrorCode::Io, e.to_string()))?;
        inner.run = Some(handle);
        Ok(())
    }

    /// Asks the running run to stop at its next safe point, as the case's examiner.
    pub fn pause(&self, reason: &str) -> Result<(), ApiError> {
        let mut ctx = self.ctx()?;
        let by = ctx.case.meta.examiner.clone();
        crate::pause(&mut ctx, &by, reason, &SystemClock)
    }

    /// Records budget grants (as the case's examiner), then starts the run again (refused,
    /// granting nothing, while a run goes here or elsewhere).
    pub fn resume(
        &self,
        grants: &[(String, u64)],
        sink: Arc<dyn DesktopSink>,
    ) -> Result<(), ApiError> {
        // The grants are recorded under the lease: a refused resume grants nothing.
        self.start_run_then(sink, |ctx| {
            let by = ctx.case.meta.examiner.clone();
            crate::grant(ctx, grants, &by, "granted in the app", &SystemClock)
        })
    }

    /// Waits for the background run, if any, to end (tests; app exit).
    pub fn join_run(&self) {
        let handle = self.lock().run.take();
        if let Some(h) = handle {
            let _ = h.join();
        }
    }

    /// Up to `limit` (at most [`PAGE_MAX`]) stream items after `cursor`: events first, then
    /// invocations, as the live follower delivers them.
    pub fn events_since(&self, cursor: WireCursor, limit: usize) -> Result<EventPage, ApiError> {
        let req = self.request()?;
        let work = req.work.clone().unwrap_or_else(|| {
            req.case_file
                .parent()
                .unwrap_or(Path::new("."))
                .join(".masf")
        });
        events_page(&work, cursor, limit)
    }

    /// The report model of the current case, built now from the store (the evidence is not
    /// re-hashed, so that rebuilding it after each decision stays fast; the export re-hashes).
    pub fn report_model(&self) -> Result<masf_report::Report, ApiError> {
        crate::report::build_report_with(
            &self.ctx()?,
            &SystemClock,
            &crate::NoProgress,
            false,
            false,
        )
    }

    /// One invocation with its output text.
    pub fn invocation(
        &self,
        id: &str,
        fact: Option<&FactQuery>,
    ) -> Result<InvocationView, ApiError> {
        invocation_view(&self.ctx()?, id, fact)
    }

    /// Re-runs one invocation.
    pub fn rerun(&self, id: &str) -> Result<RerunView, ApiError> {
        let r = crate::rerun(&self.ctx()?, id)?;
        Ok(rerun_view(r))
    }

    pub fn links_and_actors(&self) -> Result<LinksAndActors, ApiError> {
        let state = crate::compose::graph_state(&self.ctx()?)?;
        Ok(LinksAndActors {
            same_as: masf_report::model::same_as_rows(&state),
            actors: masf_report::model::actor_rows(&state),
        })
    }

    /// The graph's link views and actors, every actor included (`masf links` / `masf actors`;
    /// the `same_as_links` and `actors` commands).
    pub fn graph_links_and_actors(
        &self,
    ) -> Result<(Vec<crate::LinkView>, Vec<crate::Actor>), ApiError> {
        crate::links_and_actors(&self.ctx()?)
    }

    /// Why a same_as edge (or candidate pair) exists: its hypothesis, every evidence edge with
    /// the phenomenon it cites (the identifier or the attribution pattern and cue), the verified
    /// facts and the logged invocations they were verified in (`masf links --why EDGE`).
    pub fn why(&self, edge: &str) -> Result<crate::Why, ApiError> {
        crate::why(&self.ctx()?, edge)
    }

    /// Approves (or, with `approve` false, retracts) a same_as edge as the case's examiner. A
    /// retraction needs a reason.
    pub fn decide(
        &self,
        edge: &str,
        reason: Option<&str>,
        approve: bool,
    ) -> Result<LinksAndActors, ApiError> {
        let ctx = self.ctx()?;
        let reason = reason.map(str::trim).unwrap_or_default();
        if !approve && reason.is_empty() {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "a retraction needs a reason",
            ));
        }
        let reason = if reason.is_empty() {
            "approved in the app"
        } else {
            reason
        };
        let examiner = ctx.case.meta.examiner.clone();
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        if approve {
            crate::approve(&ctx, edge, reason, &examiner, clock)?;
        } else {
            crate::retract(&ctx, edge, reason, &examiner, clock)?;
        }
        drop(ctx);
        self.links_and_actors()
    }

    /// The examiner's marks now ([`crate::tagged`], as `masf tags` lists them).
    pub fn tags(&self) -> Result<TagsView, ApiError> {
        let ctx = self.ctx()?;
        Ok(TagsView {
            offered: crate::tag_names(&ctx)?,
            items: crate::tagged(&ctx, None)?,
        })
    }

    /// Tags, untags, bookmarks, unbookmarks or notes `target` as the case's examiner
    /// ([`crate::mark`], as `masf tag` and the others do); the marks after it.
    pub fn mark(
        &self,
        target: &str,
        act: &crate::MarkAct,
        reason: Option<&str>,
    ) -> Result<TagsView, ApiError> {
        let ctx = self.ctx()?;
        let examiner = ctx.case.meta.examiner.clone();
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        crate::mark(
            &ctx,
            target,
            act,
            reason.unwrap_or_default(),
            &examiner,
            clock,
        )?;
        drop(ctx);
        self.tags()
    }

    /// Withdraws a note as the case's examiner; the marks after it.
    pub fn withdraw_note(&self, note_id: &str, reason: Option<&str>) -> Result<TagsView, ApiError> {
        let ctx = self.ctx()?;
        let examiner = ctx.case.meta.examiner.clone();
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        crate::withdraw_note(&ctx, note_id, reason.unwrap_or_default(), &examiner, clock)?;
        drop(ctx);
        self.tags()
    }

    /// Builds the full-text index of every source that has none of this version (all with
    /// `rebuild`), as `masf index` does; each build a logged `index_text` invocation.
    pub fn index_sources(&self, rebuild: bool) -> Result<Vec<crate::Indexed>, ApiError> {
        let mut ctx = self.ctx()?;
        let cancel = std::sync::atomic::AtomicBool::new(false);
        crate::index(
            &mut ctx,
            &[],
            rebuild,
            &SystemClock,
            &cancel,
            &mut |_, _| {},
        )
    }

    /// Searches the sources' indexes, as `masf search` does: one logged `search_index` call
    /// a source, hits merged by score.
    pub fn search(&self, request: &crate::SearchRequest) -> Result<crate::SearchResult, ApiError> {
        let mut ctx = self.ctx()?;
        crate::search(&mut ctx, request, &SystemClock)
    }

    /// The timeline for a query ([`crate::query_timeline`], as `masf timeline` prints it).
    pub fn timeline(&self, query: &crate::TimelineQuery) -> Result<crate::Timeline, ApiError> {
        crate::query_timeline(&self.ctx()?, query)
    }

    /// Writes the report in the asked formats, with `outputs/`, into `dir`.
    pub fn export_report(
        &self,
        dir: &Path,
        formats: &[ReportFormat],
    ) -> Result<Exported, ApiError> {
        export_report(&self.ctx()?, dir, formats, &SystemClock)
    }

    /// Hashes files, reporting progress to `sink`.
    pub fn hash(
        &self,
        paths: &[PathBuf],
        sink: &dyn DesktopSink,
    ) -> Result<Vec<crate::FileHash>, ApiError> {
        let progress = SinkProgress {
            sink,
            current: Mutex::new((String::new(), 0, 0)),
        };
        crate::hash_files(paths, &progress)
    }
}

/// Follows the store and hands the sink one batch per poll (not one call per item: a run can
/// append thousands of items between two polls).
fn follow_batched(
    work: &Path,
    start: Cursor,
    stop: &AtomicBool,
    sink: &dyn DesktopSink,
) -> Result<Cursor, ApiError> {
    let mut cursor = start;
    let mut batch = Vec::new();
    loop {
        let stopping = stop.load(Ordering::SeqCst);
        match crate::poll(work, cursor, &mut |item| batch.push(item)) {
            Ok(next) => cursor = next,
            Err(e) if stopping => return Err(e),
            Err(_) => {}
        }
        if !batch.is_empty() {
            sink.run_events(&batch);
            batch.clear();
        }
        if stopping {
            return Ok(cursor);
        }
        std::thread::sleep(FOLLOW_EVERY);
    }
}

/// A page of the stream of `work` after `cursor`.
pub fn events_page(work: &Path, cursor: WireCursor, limit: usize) -> Result<EventPage, ApiError> {
    let limit = limit.clamp(1, PAGE_MAX);
    let mut items = Vec::new();
    let mut more = false;
    let mut next = cursor;
    if work.join("case.sqlite").is_file() {
        let store = masf_store::Store::open_read_only(work)?;
        for e in store.events(cursor.event_seq)? {
            if items.len() == limit {
                more = true;
                break;
            }
            next.event_seq = e.seq;
            items.push(StreamItem::Event(e));
        }
        if !more {
            for i in store.invocations_after(cursor.invocation_seq)? {
                if items.len() == limit {
                    more = true;
                    break;
                }
                next.invocation_seq = i.seq;
                items.push(StreamItem::Invocation(i));
            }
        }
    }
    Ok(EventPage {
        items,
        cursor: next,
        more,
    })
}

/// One invocation with its output as text, capped.
pub fn invocation_view(
    ctx: &CaseCtx,
    id: &str,
    fact: Option<&FactQuery>,
) -> Result<InvocationView, ApiError> {
    let rec = ctx.store.invocation(id)?.ok_or_else(|| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("no invocation {id} in this case"),
        )
    })?;
    let output = ctx.store.invocation_output(id)?;
    let truncated = output.len() > OUTPUT_TEXT_CAP;
    let shown = &output[..output.len().min(OUTPUT_TEXT_CAP)];
    let mut text = String::from_utf8_lossy(shown).into_owned();
    if truncated && text.ends_with('\u{FFFD}') {
        // a character cut at the cap, not a bad byte of the output
        text.pop();
    }
    let highlight = match fact {
        Some(fact) => Some(highlight_view(
            ctx,
            &rec.source_id,
            &output,
            shown,
            &text,
            fact,
        )?),
        None => None,
    };
    Ok(InvocationView {
        rerun_command: format!(
            "masf rerun {} {}",
            ctx.case.file.display(),
            rec.invocation_id
        ),
        args: serde_json::from_str(&rec.args).unwrap_or(serde_json::Value::String(rec.args)),
        id: rec.invocation_id,
        source_id: rec.source_id,
        tool: rec.tool,
        status: rec.status.as_str().to_string(),
        reason: rec.reason,
        agent: rec.agent,
        task_id: rec.task_id,
        ts: rec.ts.to_string(),
        duration_ms: rec.duration_ms,
        output_sha256: rec.output_sha256,
        output_size: rec.output_size,
        output_text: text,
        output_truncated: truncated,
        highlight,
    })
}

/// Where `fact` stands in `output` (the whole stored output; `shown` is its first bytes, as
/// `text`), by the gateway's own matching and with the region the source's facts were grounded
/// with.
fn highlight_view(
    ctx: &CaseCtx,
    source_id: &str,
    output: &[u8],
    shown: &[u8],
    text: &str,
    fact: &FactQuery,
) -> Result<HighlightView, ApiError> {
    let fact_type: masf_graph::FactType = serde_json::from_value(serde_json::Value::String(
        fact.fact_type.clone(),
    ))
    .map_err(|_| {
        ApiError::new(
            ErrorCode::BadRequest,
            format!("unknown fact type {:?}", fact.fact_type),
        )
    })?;
    // Only phone numbers depend on the region, and finding the recorded one folds the graph.
    let region = if fact_type == masf_graph::FactType::Phone {
        let state = crate::compose::graph_state(ctx)?;
        masf_agents::region::recorded(&state, source_id)
            .or_else(|| ctx.case.source(source_id).and_then(|s| s.region))
    } else {
        None
    };
    let structured: Option<serde_json::Value> = serde_json::from_slice(output).ok();
    let found = masf_graph::occurrences(
        output,
        structured.as_ref(),
        fact_type,
        &fact.value,
        region.as_ref(),
    );
    let Some(matched) = found.matched else {
        return Ok(HighlightView {
            how: "none".into(),
            field: None,
            spans: Vec::new(),
        });
    };
    let how = match (matched.method, matched.normalisation) {
        (_, Some(n)) => n.as_str().to_string(),
        (masf_graph::MatchMethod::StructuredField, None) => "structured_field".into(),
        _ => "verbatim".into(),
    };
    let units = utf16_offsets(shown, text);
    let shown_units = units.last().copied().unwrap_or(0);
    let spans = found
        .spans
        .iter()
        .filter(|s| s.start < shown.len())
        .map(|s| TextSpan {
            start: units[s.start].min(shown_units),
            end: units[s.end.min(shown.len())].min(shown_units),
        })
        .filter(|s| s.end > s.start)
        .collect();
    Ok(HighlightView {
        how,
        field: matched.field,
        spans,
    })
}

/// For each byte offset of `bytes` (and one past the end), the UTF-16 offset of the same place
/// in `text`, which is `String::from_utf8_lossy(bytes)` (perhaps with a cut last character
/// removed): each invalid sequence stands as one U+FFFD there.
fn utf16_offsets(bytes: &[u8], text: &str) -> Vec<u32> {
    let limit = u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(bytes.len() + 1);
    let mut unit: u32 = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            for _ in 0..c.len_utf8() {
                out.push(unit.min(limit));
            }
            unit += c.len_utf16() as u32;
        }
        if !chunk.invalid().is_empty() {
            for _ in chunk.invalid() {
                out.push(unit.min(limit));
            }
            unit += 1;
        }
    }
    out.push(unit.min(limit));
    out
}

/// The UI shape of a re-derivation.
pub fn rerun_view(r: crate::Rederivation) -> RerunView {
    use crate::RederiveVerdict as V;
    let (verdict, actual, detail) = match r.verdict {
        V::Match => ("match", Some(r.recorded_sha256.clone()), None),
        V::RerunDiffers { rerun_sha256 } => ("rerun_differs", Some(rerun_sha256), None),
        V::MetadataChanged {
            rerun_sha256,
            detail,
        } => ("metadata_changed", Some(rerun_sha256), Some(detail)),
        V::StoredOutputAltered { detail } => ("stored_output_altered", None, Some(detail)),
        V::RerunFailed { reason } => ("rerun_failed", None, Some(reason)),
        V::NotReproducible { status } => ("not_reproducible", None, Some(status)),
    };
    RerunView {
        invocation_id: r.invocation_id,
        matched: matches!(verdict, "match" | "metadata_changed"),
        verdict: verdict.to_string(),
        expected_sha256: r.recorded_sha256,
        actual_sha256: actual,
        detail,
    }
}

/// Writes the asked formats of the report and every output into `dir`.
pub fn export_report(
    ctx: &CaseCtx,
    dir: &Path,
    formats: &[ReportFormat],
    clock: &dyn Clock,
) -> Result<Exported, ApiError> {
    if formats.is_empty() {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            "choose at least one format",
        ));
    }
    let (outputs, report) = crate::report::snapshot(ctx, dir, clock, &crate::NoProgress, false)?;
    let files = masf_report::write_formats(&report, dir, formats)
        .map_err(|e| ApiError::new(ErrorCode::Io, e.to_string()))?;
    Ok(Exported {
        dir: dir.to_path_buf(),
        files,
        outputs,
        phenomena: report.phenomena.len(),
        hypotheses: report.hypotheses.len(),
        actors: report.actors.len(),
    })
}

struct SinkProgress<'a> {
    sink: &'a dyn DesktopSink,
    /// path, total, last bytes reported
    current: Mutex<(String, u64, u64)>,
}

impl Progress for SinkProgress<'_> {
    fn begin(&self, label: &str, total_bytes: u64) {
        let mut c = self.current.lock().unwrap_or_else(|p| p.into_inner());
        *c = (label.to_string(), total_bytes, 0);
        self.sink.intake_progress(&IntakeProgress {
            path: label.to_string(),
            done: 0,
            total: total_bytes,
        });
    }

    fn advance(&self, done_bytes: u64) {
        let mut c = self.current.lock().unwrap_or_else(|p| p.into_inner());
        // Report every 1 % (and the end), not every buffer.
        let step = (c.1 / 100).max(1 << 20);
        if done_bytes >= c.1 || done_bytes.saturating_sub(c.2) >= step {
            c.2 = done_bytes;
            self.sink.intake_progress(&IntakeProgress {
                path: c.0.clone(),
                done: done_bytes,
                total: c.1,
            });
        }
    }
}

/// A timeline request as the UI sends it (see [`crate::TimelineQuery`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ts_rs::TS)]
pub struct TimelineRequest {
    #[serde(default)]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub sources: Vec<String>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub from: Option<String>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub to: Option<String>,
    #[serde(default)]
    #[ts(optional = nullable)]
    pub actor: Option<String>,
    /// Only entries the examiner's tag selects.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub tag: Option<String>,
}

impl From<TimelineRequest> for crate::TimelineQuery {
    fn from(r: TimelineRequest) -> crate::TimelineQuery {
        let set = |s: Option<String>| s.filter(|s| !s.trim().is_empty());
        crate::TimelineQuery {
            sources: r.sources,
            from: set(r.from),
            to: set(r.to),
            actor: set(r.actor),
            tag: set(r.tag),
        }
    }
}
