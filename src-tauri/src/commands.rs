//! The IPC commands: each one call into `masf_api::desktop`, run on a blocking worker thread so
//! the window's thread never waits on evidence, the store or a run. Errors cross as
//! `ApiError {code, message}`.

use std::path::PathBuf;
use std::sync::Arc;

use masf_api::desktop::{
    CaseDraft, CaseSummary, Desktop, DesktopSink, DraftProblem, EventPage, Exported, FactQuery,
    IntakeProgress, InvocationView, LinksAndActors, ReportFormat, RerunView, RunFinished,
    SourceDraft, TagsView, TimelineRequest, WireCursor,
};
use masf_api::{ApiError, Indexed, SearchRequest, SearchResult};
use tauri::{AppHandle, State};

use crate::events;

pub(crate) type Shared<'a> = State<'a, Arc<Desktop>>;

/// Runs `f` on the blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| {
            Err(ApiError::new(
                masf_api::ErrorCode::Io,
                format!("the command's worker failed: {e}"),
            ))
        })
}

/// Forwards the app's events to the window.
struct Forward(AppHandle);

impl DesktopSink for Forward {
    fn run_events(&self, items: &[masf_api::StreamItem]) {
        events::emit::<events::RunEvents>(&self.0, items);
    }
    fn run_finished(&self, finished: &RunFinished) {
        events::emit::<events::RunFinishedEvent>(&self.0, finished);
    }
    fn intake_progress(&self, progress: &IntakeProgress) {
        events::emit::<events::IntakeProgressEvent>(&self.0, progress);
    }
}

#[tauri::command]
pub async fn intake_paths(paths: Vec<PathBuf>) -> Result<Vec<SourceDraft>, ApiError> {
    blocking(move || Ok(masf_api::desktop::draft_sources(&paths))).await
}

#[tauri::command]
pub async fn hash_sources(
    app: AppHandle,
    state: Shared<'_>,
    paths: Vec<PathBuf>,
) -> Result<Vec<masf_api::FileHash>, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.hash(&paths, &Forward(app))).await
}

/// Every reason the draft could not be saved, by the case loader's own rules.
#[tauri::command]
pub async fn check_case_draft(draft: CaseDraft) -> Result<Vec<DraftProblem>, ApiError> {
    blocking(move || Ok(masf_api::desktop::check_case_draft(&draft))).await
}

#[tauri::command]
pub async fn save_case(draft: CaseDraft) -> Result<PathBuf, ApiError> {
    blocking(move || masf_api::desktop::save_case(&draft)).await
}

#[tauri::command]
pub async fn open_case(state: Shared<'_>, path: PathBuf) -> Result<CaseSummary, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.open(&path)).await
}

#[tauri::command]
pub async fn case_status(state: Shared<'_>) -> Result<masf_api::desktop::StatusView, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.status()).await
}

#[tauri::command]
pub async fn start_run(app: AppHandle, state: Shared<'_>) -> Result<(), ApiError> {
    let d = state.inner().clone();
    blocking(move || d.start_run(Arc::new(Forward(app)))).await
}

#[tauri::command]
pub async fn pause_run(state: Shared<'_>, reason: String) -> Result<(), ApiError> {
    let d = state.inner().clone();
    blocking(move || d.pause(&reason)).await
}

/// The password of a source's encrypted backup, typed by the examiner: checked, then held in
/// memory only (see [`Desktop::give_backup_password`]).
#[tauri::command]
pub async fn give_backup_password(
    state: Shared<'_>,
    source: String,
    password: String,
) -> Result<(), ApiError> {
    let d = state.inner().clone();
    blocking(move || d.give_backup_password(&source, &password)).await
}

#[tauri::command]
pub async fn resume_run(
    app: AppHandle,
    state: Shared<'_>,
    grants: std::collections::BTreeMap<String, u64>,
) -> Result<(), ApiError> {
    let d = state.inner().clone();
    let grants: Vec<(String, u64)> = grants.into_iter().collect();
    blocking(move || d.resume(&grants, Arc::new(Forward(app)))).await
}

#[tauri::command]
pub async fn events_since(
    state: Shared<'_>,
    cursor: WireCursor,
    limit: Option<usize>,
) -> Result<EventPage, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.events_since(cursor, limit.unwrap_or(masf_api::desktop::PAGE_MAX))).await
}

#[tauri::command]
pub async fn report_model(state: Shared<'_>) -> Result<masf_api::Report, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.report_model()).await
}

#[tauri::command]
pub async fn invocation(
    state: Shared<'_>,
    id: String,
    fact: Option<FactQuery>,
) -> Result<InvocationView, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.invocation(&id, fact.as_ref())).await
}

#[tauri::command]
pub async fn rerun_invocation(state: Shared<'_>, id: String) -> Result<RerunView, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.rerun(&id)).await
}

#[tauri::command]
pub async fn same_as_links(state: Shared<'_>) -> Result<Vec<masf_api::LinkView>, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.graph_links_and_actors().map(|l| l.0)).await
}

#[tauri::command]
pub async fn actors(state: Shared<'_>) -> Result<Vec<masf_api::Actor>, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.graph_links_and_actors().map(|l| l.1)).await
}

#[tauri::command]
pub async fn why_link(state: Shared<'_>, id: String) -> Result<masf_api::Why, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.why(&id)).await
}

#[tauri::command]
pub async fn approve_link(
    state: Shared<'_>,
    id: String,
    reason: Option<String>,
) -> Result<LinksAndActors, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.decide(&id, reason.as_deref(), true)).await
}

#[tauri::command]
pub async fn retract_link(
    state: Shared<'_>,
    id: String,
    reason: String,
) -> Result<LinksAndActors, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.decide(&id, Some(&reason), false)).await
}

#[tauri::command]
pub async fn tags(state: Shared<'_>) -> Result<TagsView, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.tags()).await
}

#[tauri::command]
pub async fn mark_item(
    state: Shared<'_>,
    target: String,
    act: masf_api::MarkAct,
    reason: Option<String>,
) -> Result<TagsView, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.mark(&target, &act, reason.as_deref())).await
}

#[tauri::command]
pub async fn withdraw_note(
    state: Shared<'_>,
    id: String,
    reason: Option<String>,
) -> Result<TagsView, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.withdraw_note(&id, reason.as_deref())).await
}

#[tauri::command]
pub async fn build_index(state: Shared<'_>, rebuild: bool) -> Result<Vec<Indexed>, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.index_sources(rebuild)).await
}

#[tauri::command]
pub async fn search(state: Shared<'_>, request: SearchRequest) -> Result<SearchResult, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.search(&request)).await
}

#[tauri::command]
pub async fn timeline(
    state: Shared<'_>,
    query: TimelineRequest,
) -> Result<masf_api::Timeline, ApiError> {
    let d = state.inner().clone();
    blocking(move || timeline_of(&d, query)).await
}

/// What the `timeline` command serves: [`masf_api::query_timeline`] on the open case, the
/// function `masf timeline` prints from.
pub(crate) fn timeline_of(
    d: &Desktop,
    query: TimelineRequest,
) -> Result<masf_api::Timeline, ApiError> {
    d.timeline(&query.into())
}

#[tauri::command]
pub async fn export_report(
    state: Shared<'_>,
    dir: PathBuf,
    formats: Vec<ReportFormat>,
) -> Result<Exported, ApiError> {
    let d = state.inner().clone();
    blocking(move || d.export_report(&dir, &formats)).await
}

/// Shows a native dialog on the main (GTK) thread and waits for it off that thread.
async fn on_main<T: Send + 'static>(
    app: AppHandle,
    dialog: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let (tx, rx) = std::sync::mpsc::channel();
    app.run_on_main_thread(move || {
        let _ = tx.send(dialog());
    })
    .map_err(|e| ApiError::new(masf_api::ErrorCode::Io, e.to_string()))?;
    blocking(move || {
        rx.recv()
            .map_err(|e| ApiError::new(masf_api::ErrorCode::Io, e.to_string()))
    })
    .await
}

/// The native file picker (modal): evidence files. Empty when cancelled.
#[tauri::command]
pub async fn pick_files(app: AppHandle) -> Result<Vec<PathBuf>, ApiError> {
    on_main(app, || {
        rfd::FileDialog::new()
            .set_title("Add evidence")
            .pick_files()
            .unwrap_or_default()
    })
    .await
}

/// The native folder picker (modal): an evidence folder, a case folder or an export target.
/// `null` when cancelled.
#[tauri::command]
pub async fn pick_folder(app: AppHandle) -> Result<Option<PathBuf>, ApiError> {
    on_main(app, || rfd::FileDialog::new().pick_folder()).await
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use masf_api::desktop::{
        CaseDraft, Desktop, DesktopSink, IntakeProgress, PersonDraft, RunFinished,
        SourceEntryDraft, TimelineRequest, save_case,
    };

    /// A sink that keeps nothing: the test reads the case afterwards.
    struct Quiet;

    impl DesktopSink for Quiet {
        fn run_events(&self, _: &[masf_api::StreamItem]) {}
        fn run_finished(&self, _: &RunFinished) {}
        fn intake_progress(&self, _: &IntakeProgress) {}
    }

    fn evidence(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/demo/evidence")
            .join(name)
            .canonicalize()
            .unwrap()
    }

    /// The demo case (case.yaml's sources, owners and zone) written into `dir`.
    fn demo_case(dir: &Path) -> PathBuf {
        let person = |id: &str, name: &str| PersonDraft {
            id: id.into(),
            name: name.into(),
            aliases: Vec::new(),
        };
        let source = |id: &str, file: &str, owner: Option<&str>| SourceEntryDraft {
            id: id.into(),
            label: file.into(),
            path: evidence(file),
            owner: owner.map(String::from),
            timezone: Some("Asia/Hong_Kong".into()),
            region: None,
            password_env: None,
        };
        save_case(&CaseDraft {
            dir: dir.to_path_buf(),
            id: "timeline-demo".into(),
            title: "One actor rule".into(),
            examiner: "E. Xaminer".into(),
            timezone: "Asia/Hong_Kong".into(),
            region: None,
            persons: vec![
                person("leung", "LEUNG YL"),
                person("chan", "CHAN MH"),
                person("fung", "FUNG CC"),
            ],
            sources: vec![
                source("src-usb", "usb.E01", Some("leung")),
                source("src-android", "blk0_sda.bin", Some("chan")),
                source("src-iphone", "iphone_ffs.zip", Some("fung")),
                source("src-screens", "screenshots", None),
            ],
            overwrite: false,
        })
        .unwrap()
    }

    fn json(t: &masf_api::Timeline) -> String {
        let mut out = Vec::new();
        masf_api::timeline_export::write_json(&mut out, t).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The desktop's Timeline for an actor is what `masf timeline --actor` prints: the
    /// command's function and the CLI's, on the demo case after a real run, give the same
    /// JSON for every actor (and for the whole case, a source and a range).
    #[test]
    fn desktop_timeline_equals_masf_timeline_for_every_actor() {
        let dir = tempfile::tempdir().unwrap();
        let case_file = demo_case(dir.path());
        let desktop = Desktop::new();
        desktop.open(&case_file).unwrap();
        desktop.start_run(std::sync::Arc::new(Quiet)).unwrap();
        desktop.join_run();
        // what `masf timeline case.yaml [--actor …]` opens and prints from
        let cli = |query: masf_api::TimelineQuery| {
            let ctx = masf_api::open_case(&masf_api::OpenCase {
                case_file: case_file.clone(),
                work: None,
                config: None,
            })
            .unwrap();
            masf_api::query_timeline(&ctx, &query)
        };
        let all = cli(masf_api::TimelineQuery::default()).unwrap();
        assert!(all.entries.len() > 20, "{}", all.entries.len());
        assert_eq!(
            json(&super::timeline_of(&desktop, TimelineRequest::default()).unwrap()),
            json(&all)
        );
        let actors = desktop.graph_links_and_actors().unwrap().1;
        let mut narrowed = 0;
        for actor in actors.iter().filter(|a| a.entities.len() > 1) {
            let request = TimelineRequest {
                actor: Some(actor.id.clone()),
                ..TimelineRequest::default()
            };
            let served = super::timeline_of(&desktop, request).unwrap();
            let printed = cli(masf_api::TimelineQuery {
                actor: Some(actor.id.clone()),
                ..masf_api::TimelineQuery::default()
            })
            .unwrap();
            assert_eq!(json(&served), json(&printed), "actor {}", actor.id);
            if !served.entries.is_empty() && served.entries.len() < all.entries.len() {
                narrowed += 1;
            }
        }
        assert!(narrowed >= 2, "actors that narrow the timeline: {narrowed}");
        // a source and a range cross the same way
        let request = TimelineRequest {
            sources: vec!["src-iphone".into()],
            from: Some("2024-01-01".into()),
            to: Some("2026-01-01T00:00:00Z".into()),
            actor: None,
            tag: None,
        };
        let query = masf_api::TimelineQuery::from(request.clone());
        assert_eq!(
            json(&super::timeline_of(&desktop, request).unwrap()),
            json(&cli(query).unwrap())
        );
        // an unknown actor is refused by both, with the same words
        let request = TimelineRequest {
            actor: Some("actor-nope".into()),
            ..TimelineRequest::default()
        };
        let served = super::timeline_of(&desktop, request).unwrap_err();
        let printed = cli(masf_api::TimelineQuery {
            actor: Some("actor-nope".into()),
            ..masf_api::TimelineQuery::default()
        })
        .unwrap_err();
        assert_eq!(served.code, masf_api::ErrorCode::BadRequest);
        assert_eq!(served.message, printed.message);
        assert!(served.message.contains("no actor or entity"), "{served:?}");
    }
}
