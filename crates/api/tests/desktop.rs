//! The desktop facade against the real demo evidence and a real case store: intake drafts,
//! case.yaml from an editor draft, a background run followed through the sink, paging, the
//! invocation view and its re-run, retract/approve with the actors recomputed, export.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use masf_api::desktop::{
    CaseDraft, Desktop, DesktopSink, DraftProblemKind, FactQuery, IntakeProgress, PersonDraft,
    ReportFormat, RunFinished, SourceEntryDraft, WireCursor, check_case_draft, draft_sources,
    save_case,
};
use masf_api::{ErrorCode, StreamItem};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn evidence(name: &str) -> PathBuf {
    repo()
        .join("tests/fixtures/demo/evidence")
        .join(name)
        .canonicalize()
        .unwrap()
}

#[derive(Default)]
struct Recorder {
    batches: Mutex<Vec<Vec<StreamItem>>>,
    /// For each streamed event: ms from its `ts` (set by the backend when it was made) to its
    /// delivery to the sink.
    delays: Mutex<Vec<i64>>,
    finished: Mutex<Vec<RunFinished>>,
    progress: Mutex<Vec<IntakeProgress>>,
}

impl DesktopSink for Recorder {
    fn run_events(&self, items: &[StreamItem]) {
        let now = jiff::Timestamp::now().as_millisecond();
        for i in items {
            if let StreamItem::Event(e) = i {
                self.delays
                    .lock()
                    .unwrap()
                    .push(now - e.ts.as_millisecond());
            }
        }
        self.batches.lock().unwrap().push(items.to_vec());
    }
    fn run_finished(&self, finished: &RunFinished) {
        self.finished.lock().unwrap().push(finished.clone());
    }
    fn intake_progress(&self, progress: &IntakeProgress) {
        self.progress.lock().unwrap().push(progress.clone());
    }
}

fn seq_of(item: &StreamItem) -> (bool, i64) {
    match item {
        StreamItem::Event(e) => (true, e.seq),
        StreamItem::Invocation(i) => (false, i.seq),
    }
}

fn demo_draft(dir: &Path) -> CaseDraft {
    let person = |id: &str, name: &str| PersonDraft {
        id: id.into(),
        name: name.into(),
        aliases: Vec::new(),
    };
    let source = |id: &str, file: &str, owner: Option<&str>| SourceEntryDraft {
        id: id.into(),
        label: format!("{file} (中文標籤)"),
        path: evidence(file),
        owner: owner.map(String::from),
        timezone: Some("Asia/Hong_Kong".into()),
        region: None,
        password_env: None,
    };
    CaseDraft {
        dir: dir.to_path_buf(),
        id: "desk-demo".into(),
        title: "Desktop facade test".into(),
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
    }
}

#[test]
fn drafts_sniff_by_content_and_keep_unreadable_paths() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = dir.path().join("<img src=x onerror=alert(1)>.txt");
    std::fs::write(&hostile, "not evidence\n").unwrap();
    let missing = dir.path().join("gone.bin");
    let drafts = draft_sources(&[
        evidence("usb.E01"),
        evidence("iphone_ffs.zip"),
        hostile.clone(),
        missing.clone(),
        evidence("usb.E01"),
    ]);
    assert_eq!(drafts.len(), 5);
    assert_eq!(drafts[0].detected_type.as_deref(), Some("disk_image"));
    assert!(
        drafts[0].reasons.iter().any(|r| r.contains("ewf")),
        "{:?}",
        drafts[0].reasons
    );
    assert!(!drafts[0].layers.is_empty());
    assert!(drafts[0].size > 1_000_000);
    assert_eq!(drafts[0].suggested_id, "src-usb-e01");
    assert_eq!(drafts[1].detected_type.as_deref(), Some("ios_extraction"));
    // the hostile name is kept verbatim as data
    assert_eq!(
        drafts[2].suggested_label,
        "<img src=x onerror=alert(1)>.txt"
    );
    assert_eq!(drafts[2].path, hostile);
    let gone = &drafts[3];
    assert!(gone.detected_type.is_none());
    assert!(gone.error.is_some());
    // ids are unique within the batch
    assert_eq!(drafts[4].suggested_id, "src-usb-e01-2");
}

#[test]
fn a_draft_that_would_not_load_is_refused_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut draft = demo_draft(dir.path());
    draft.timezone = "Mars/Olympus_Mons".into();
    let err = save_case(&draft).unwrap_err();
    assert_eq!(err.code, ErrorCode::CaseInvalid, "{}", err.message);
    assert!(!dir.path().join("case.yaml").exists());

    let mut draft = demo_draft(dir.path());
    draft.sources[0].owner = Some("nobody".into());
    assert_eq!(save_case(&draft).unwrap_err().code, ErrorCode::CaseInvalid);

    let draft = demo_draft(dir.path());
    let file = save_case(&draft).unwrap();
    assert!(file.ends_with("case.yaml"));
    let case = masf_case::Case::load(&file).unwrap();
    assert_eq!(case.sources.len(), 4);
    assert_eq!(
        case.source("src-usb").unwrap().owner.as_deref(),
        Some("leung")
    );
    assert_eq!(case.source("src-usb").unwrap().label, "usb.E01 (中文標籤)");
    // a second save without overwrite is refused
    assert_eq!(save_case(&draft).unwrap_err().code, ErrorCode::BadRequest);
}

#[test]
fn the_editor_checks_a_draft_with_the_loaders_own_rules() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("not-yet-made");
    let good = demo_draft(&folder);
    assert_eq!(check_case_draft(&good), vec![]);
    // checking writes nothing, not even the folder
    assert!(!folder.exists());

    let mut draft = demo_draft(&folder);
    // accepted by the old TypeScript rule, refused by the loader: upper case and '.'
    draft.id = "Case.2026".into();
    draft.examiner = " ".into();
    draft.timezone = "Asia/Hong_Kongg".into();
    draft.region = Some("zz".into());
    draft.sources[0].id = "SRC.usb".into();
    draft.sources[1].id = "src-iphone".into(); // the same as sources[2]
    draft.sources[1].owner = Some("nobody".into());
    draft.sources[2].password_env = Some("s3cret pass!".into());
    draft.sources[3].path = folder.join("gone.bin");
    let problems = check_case_draft(&draft);
    let kinds: Vec<(DraftProblemKind, &str)> =
        problems.iter().map(|p| (p.kind, p.at.as_str())).collect();
    for want in [
        (DraftProblemKind::CaseId, "case.id"),
        (DraftProblemKind::Examiner, "case.examiner"),
        (DraftProblemKind::Zone, "case.timezone"),
        (DraftProblemKind::Region, "case.region"),
        (DraftProblemKind::SourceId, "sources[0].id"),
        (DraftProblemKind::DupId, "sources[2].id"),
        (DraftProblemKind::Owner, "sources[1].owner"),
        (DraftProblemKind::PasswordEnv, "sources[2].password_env"),
        (DraftProblemKind::Unreadable, "sources[3].path"),
    ] {
        assert!(kinds.contains(&want), "{want:?} not in {problems:#?}");
    }
    let param = |kind, key: &str| {
        problems
            .iter()
            .find(|p| p.kind == kind)
            .and_then(|p| p.params.get(key).cloned())
    };
    // the loader's suggestions reach the editor
    assert_eq!(
        param(DraftProblemKind::CaseId, "suggestion").as_deref(),
        Some("case-2026")
    );
    assert_eq!(
        param(DraftProblemKind::Zone, "suggestion").as_deref(),
        Some("Asia/Hong_Kong")
    );
    assert_eq!(
        param(DraftProblemKind::Region, "region").as_deref(),
        Some("ZZ")
    );
    // a password typed where its variable's name belongs is never echoed
    for p in &problems {
        assert!(!p.message.contains("s3cret"), "{p:?}");
        assert!(p.params.values().all(|v| !v.contains("s3cret")), "{p:?}");
    }
    // what the check refuses, saving refuses too
    assert_eq!(save_case(&draft).unwrap_err().code, ErrorCode::CaseInvalid);

    let mut empty = demo_draft(Path::new(""));
    empty.sources.clear();
    let kinds: Vec<_> = check_case_draft(&empty).iter().map(|p| p.kind).collect();
    assert!(kinds.contains(&DraftProblemKind::NoSources), "{kinds:?}");
    assert!(kinds.contains(&DraftProblemKind::Dir), "{kinds:?}");
}

/// The editor shows each kind of problem in the examiner's language: every kind Rust names has
/// a message in each of the UI's dictionaries (`intake.p.<kind>`).
#[test]
fn every_draft_problem_kind_has_a_message_in_each_language() {
    for dict in ["en.json", "zh-CN.json"] {
        let text = std::fs::read_to_string(repo().join("ui/src/i18n").join(dict)).unwrap();
        let messages: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).unwrap();
        for kind in DraftProblemKind::NAMED {
            let name = serde_json::to_value(kind).unwrap();
            let key = format!("intake.p.{}", name.as_str().unwrap());
            assert!(messages.contains_key(&key), "{dict} has no {key}");
        }
    }
}

#[test]
fn the_editor_writes_the_examiners_regions_and_refuses_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut draft = demo_draft(dir.path());
    draft.region = Some("zz".into());
    let err = save_case(&draft).unwrap_err();
    assert_eq!(err.code, ErrorCode::CaseInvalid, "{}", err.message);
    assert!(err.message.contains("ZZ"), "{}", err.message);
    assert!(!dir.path().join("case.yaml").exists());

    let mut draft = demo_draft(dir.path());
    draft.region = Some(" hk ".into());
    draft.sources[0].region = Some("GB".into());
    draft.sources[1].region = Some("HK".into()); // the case's: no line of its own
    let file = save_case(&draft).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("region:").count(), 2, "{text}");
    let case = masf_case::Case::load(&file).unwrap();
    assert_eq!(
        case.meta.region.map(|r| r.to_string()).as_deref(),
        Some("HK")
    );
    let region_of = |id: &str| case.source(id).unwrap().region.map(|r| r.to_string());
    assert_eq!(region_of(&draft.sources[0].id).as_deref(), Some("GB"));
    assert_eq!(region_of(&draft.sources[1].id).as_deref(), Some("HK"));
}

#[test]
fn the_editor_writes_a_backup_password_variable_never_a_password() {
    let dir = tempfile::tempdir().unwrap();
    let mut draft = demo_draft(dir.path());
    draft.sources[2].password_env = Some("s3cret pass!".into());
    let err = save_case(&draft).unwrap_err();
    assert_eq!(err.code, ErrorCode::CaseInvalid, "{}", err.message);
    assert!(err.message.contains("password_env"), "{}", err.message);
    assert!(!err.message.contains("s3cret"), "{}", err.message);
    assert!(!dir.path().join("case.yaml").exists());

    draft.sources[2].password_env = Some(" IPHONE_BACKUP_PW ".into());
    draft.sources[1].password_env = Some("  ".into()); // blank: no line
    let file = save_case(&draft).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("password_env:").count(), 1, "{text}");
    let case = masf_case::Case::load(&file).unwrap();
    let var = |i: usize| {
        case.source(&draft.sources[i].id)
            .unwrap()
            .password_env
            .clone()
    };
    assert_eq!(var(2).as_deref(), Some("IPHONE_BACKUP_PW"));
    assert_eq!(var(1), None);
    // a case loaded and written again keeps it
    let again = masf_case::CaseFile::from(&case).to_yaml();
    assert!(again.contains("password_env: IPHONE_BACKUP_PW"), "{again}");
}

#[test]
fn a_background_run_streams_everything_in_order_and_the_views_follow_decisions() {
    let dir = tempfile::tempdir().unwrap();
    let file = save_case(&demo_draft(dir.path())).unwrap();
    let desktop = Desktop::new();
    assert_eq!(desktop.status().unwrap_err().code, ErrorCode::BadRequest);
    // a case folder opens its case.yaml
    let summary = desktop.open(dir.path()).unwrap();
    assert_eq!(summary.case_file, file);
    assert_eq!(summary.status.case_id, "desk-demo");

    let sink = Arc::new(Recorder::default());
    desktop.start_run(sink.clone()).unwrap();
    assert_eq!(
        desktop.start_run(sink.clone()).unwrap_err().code,
        ErrorCode::BadRequest,
        "a second run while one goes"
    );
    desktop.join_run();

    let finished = sink.finished.lock().unwrap().clone();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0].state, "completed", "{:?}", finished[0]);
    assert!(finished[0].error.is_none());
    // delivered while the run goes, not at its end: many batches (the follower polls every
    // 40 ms; a slower machine makes the run longer, so more of them)
    assert!(sink.batches.lock().unwrap().len() >= 5);
    // How soon after it was made each event reached the sink: a figure, printed, not bounded
    // (README, Benchmarks: `--release -- --nocapture`); a loaded machine may take longer.
    let mut delays = sink.delays.lock().unwrap().clone();
    delays.sort_unstable();
    println!(
        "event made -> delivered to the sink, {} events: median {} ms, p90 {} ms, max {} ms",
        delays.len(),
        delays[delays.len() / 2],
        delays[delays.len() * 9 / 10],
        delays[delays.len() - 1]
    );
    let streamed: Vec<StreamItem> = sink.batches.lock().unwrap().concat();
    // in order within each kind, no duplicates
    let (mut last_event, mut last_inv) = (0, 0);
    for item in &streamed {
        let (is_event, seq) = seq_of(item);
        let last = if is_event {
            &mut last_event
        } else {
            &mut last_inv
        };
        assert!(seq > *last, "seq {seq} after {last}");
        *last = seq;
    }
    let kinds: std::collections::BTreeSet<&str> = streamed
        .iter()
        .filter_map(|i| match i {
            StreamItem::Event(e) => Some(e.kind.as_str()),
            StreamItem::Invocation(_) => None,
        })
        .collect();
    assert!(kinds.len() >= 5, "{kinds:?}");

    // paging from the start sees the same items as the live stream
    let mut cursor = WireCursor::default();
    let mut paged = Vec::new();
    loop {
        let page = desktop.events_since(cursor, 50).unwrap();
        assert!(page.items.len() <= 50);
        paged.extend(page.items);
        cursor = page.cursor;
        if !page.more {
            break;
        }
    }
    assert_eq!(cursor.event_seq, last_event);
    assert_eq!(cursor.invocation_seq, last_inv);
    assert_eq!(paged.len(), streamed.len());

    // status: sources registered, budget lines, tallies per source
    let status = desktop.status().unwrap();
    assert!(status.status.sources.iter().all(|s| s.registered));
    assert!(
        status
            .budget
            .lines
            .iter()
            .any(|l| l.name == "tool_calls" && l.cap > 0)
    );
    assert!(
        status.tallies.iter().all(|t| t.phenomena > 0),
        "{:?}",
        status.tallies
    );
    assert!(!status.running);

    // an invocation, its output text hashes to its sha256, its re-run matches
    let report = desktop.report_model().unwrap();
    // the interactive model does not re-hash the evidence; the export below does
    let rows = &report.sources[0].integrity.files;
    assert!(rows[0].sha256_now.is_none());
    assert!(rows[0].note.as_deref().unwrap().contains("not re-hashed"));
    let fact_inv = report
        .phenomena
        .iter()
        .flat_map(|p| p.verified_facts.iter())
        .map(|f| f.invocation_id.clone())
        .next()
        .unwrap();
    let view = desktop.invocation(&fact_inv, None).unwrap();
    assert!(view.highlight.is_none());
    assert!(!view.output_truncated);
    {
        use sha2::Digest;
        assert_eq!(
            hex::encode(sha2::Sha256::digest(view.output_text.as_bytes())),
            view.output_sha256
        );
    }
    assert!(view.rerun_command.ends_with(&fact_inv));
    let rerun = desktop.rerun(&fact_inv).unwrap();
    assert!(rerun.matched, "{rerun:?}");
    assert_eq!(
        rerun.actual_sha256.as_deref(),
        Some(view.output_sha256.as_str())
    );
    assert_eq!(
        desktop.invocation("inv-999999", None).unwrap_err().code,
        ErrorCode::BadRequest
    );

    // Every verified fact of the demo is marked in its invocation's output by the gateway's
    // own method: the one the fact records, at places that read as the value.
    let mut marked = 0;
    for f in report
        .phenomena
        .iter()
        .flat_map(|p| p.verified_facts.iter())
    {
        let query = FactQuery {
            fact_type: f.fact_type.clone(),
            value: f.value.clone(),
        };
        let view = desktop.invocation(&f.invocation_id, Some(&query)).unwrap();
        let hl = view
            .highlight
            .expect("a highlight for the fact asked about");
        let recorded = f
            .normalisation
            .clone()
            .unwrap_or_else(|| f.match_method.clone());
        assert_eq!(hl.how, recorded, "{f:?}");
        if f.match_method == "structured_field" {
            assert!(hl.field.is_some(), "{f:?}");
            continue;
        }
        assert!(!hl.spans.is_empty(), "{f:?}");
        let units: Vec<u16> = view.output_text.encode_utf16().collect();
        for span in &hl.spans {
            let text = String::from_utf16(&units[span.start as usize..span.end as usize]).unwrap();
            if hl.how == "verbatim" {
                assert_eq!(text, f.value, "{f:?}");
            } else if hl.how == "phone_e164" || hl.how == "digit_separators" {
                let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
                assert!(
                    digits(&f.value).ends_with(&digits(&text)),
                    "{text:?} for {f:?}"
                );
            }
        }
        marked += 1;
    }
    assert!(marked > 20, "only {marked} facts marked");
    let unknown = FactQuery {
        fact_type: "colour".into(),
        value: "red".into(),
    };
    let err = desktop.invocation(&fact_inv, Some(&unknown)).unwrap_err();
    assert_eq!(err.code, ErrorCode::BadRequest);
    assert!(err.message.contains("colour"), "{}", err.message);

    // retract needs a reason; a retraction splits an actor; approving joins it again
    let before = desktop.links_and_actors().unwrap();
    let joined = |l: &masf_api::desktop::LinksAndActors| {
        l.actors.iter().filter(|a| a.entity_ids.len() > 1).count()
    };
    // An edge that is an entity's only live link: retracting it must split its actor.
    let live_links_of = |entity: &str| {
        before
            .same_as
            .iter()
            .filter(|l| l.state == "live" || l.state == "approved")
            .filter(|l| l.a == entity || l.b == entity)
            .count()
    };
    let (edge, leaf) = before
        .actors
        .iter()
        .flat_map(|a| a.edges.iter())
        .find_map(|id| {
            let l = before.same_as.iter().find(|l| &l.id == id)?;
            [&l.a, &l.b]
                .into_iter()
                .find(|e| live_links_of(e) == 1)
                .map(|e| (id.clone(), e.clone()))
        })
        .expect("an edge that is an entity's only live link");
    // the report's rows list actors of two entities or more: an entity on its own is in none
    let alone = |l: &masf_api::desktop::LinksAndActors| {
        !l.actors.iter().any(|a| a.entity_ids.contains(&leaf))
    };
    assert!(!alone(&before));
    let err = desktop.decide(&edge, Some("  "), false).unwrap_err();
    assert_eq!(err.code, ErrorCode::BadRequest);
    let after = desktop
        .decide(&edge, Some("different people"), false)
        .unwrap();
    let link = after.same_as.iter().find(|l| l.id == edge).unwrap();
    assert_eq!(link.state, "retracted");
    assert_eq!(link.decisions.last().unwrap()["reason"], "different people");
    assert!(alone(&after), "the entity it joined is on its own");
    assert!(joined(&after) <= joined(&before));
    let again = desktop.decide(&edge, None, true).unwrap();
    assert_eq!(
        again.same_as.iter().find(|l| l.id == edge).unwrap().state,
        "approved"
    );
    // the rows equal the report's after the same decisions
    let report = desktop.report_model().unwrap();
    assert_eq!(
        serde_json::to_value(&again.actors).unwrap(),
        serde_json::to_value(&report.actors).unwrap()
    );
    assert_eq!(
        serde_json::to_value(&again.same_as).unwrap(),
        serde_json::to_value(&report.same_as).unwrap()
    );
    assert_eq!(again.actors.len(), before.actors.len());

    // timeline filtered by a source, and a bad source refused
    let tl = desktop
        .timeline(&masf_api::TimelineQuery {
            sources: vec!["src-iphone".into()],
            ..Default::default()
        })
        .unwrap();
    assert!(!tl.entries.is_empty());
    assert!(tl.entries.iter().all(|e| &*e.source_id == "src-iphone"));
    assert_eq!(
        desktop
            .timeline(&masf_api::TimelineQuery {
                sources: vec!["nope".into()],
                ..Default::default()
            })
            .unwrap_err()
            .code,
        ErrorCode::BadRequest
    );

    // export: only the asked formats, plus outputs/
    let out = dir.path().join("export");
    let exported = desktop
        .export_report(&out, &[ReportFormat::Html, ReportFormat::Json])
        .unwrap();
    assert_eq!(exported.files.len(), 2);
    assert!(out.join("report.html").is_file());
    assert!(out.join("report.json").is_file());
    assert!(!out.join("report.md").exists());
    assert!(out.join("outputs/SHA256SUMS").is_file());
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["schema"], "masforensics.report/1");
    for source in json["sources"].as_array().unwrap() {
        for row in source["integrity"]["files"].as_array().unwrap() {
            assert_eq!(row["unchanged"], true, "{row}");
        }
    }
    assert!(desktop.export_report(&out, &[]).is_err());

    // hashing reports progress for each file
    let sink = Recorder::default();
    let hashes = desktop.hash(&[evidence("usb.E01")], &sink).unwrap();
    assert_eq!(hashes.len(), 1);
    let progress = sink.progress.lock().unwrap();
    assert!(progress.first().is_some_and(|p| p.done == 0));
    assert!(
        progress
            .last()
            .is_some_and(|p| p.done == p.total && p.total > 0)
    );
}

/// A run scans each source's evidence once: intake, the agents' session and the report share
/// the scan (they were three scans per source per run).
#[test]
fn a_run_scans_each_source_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = save_case(&demo_draft(dir.path())).unwrap();
    for round in ["first run", "second run"] {
        let mut ctx = masf_api::open_case(&masf_api::OpenCase {
            case_file: file.clone(),
            work: None,
            config: None,
        })
        .unwrap();
        let lease = masf_api::take_lease(&mut ctx, None, &masf_api::SystemClock).unwrap();
        let opts = masf_api::RunOptions {
            out: Some(dir.path().join("out")),
        };
        let report = masf_api::run(
            &mut ctx,
            &lease,
            &opts,
            Arc::new(masf_api::SystemClock),
            &masf_api::NoProgress,
        )
        .unwrap();
        assert!(report.report.is_some(), "{round}: no report written");
        assert_eq!(ctx.scans.made(), ctx.case.sources.len(), "{round}");
    }
}

#[test]
fn a_work_folder_opens_its_case_and_unknown_paths_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut draft = demo_draft(dir.path());
    draft.sources.truncate(1);
    let file = save_case(&draft).unwrap();
    let desktop = Desktop::new();
    desktop.open(&file).unwrap();
    let work = dir.path().join(".masf");
    assert!(work.join("case.sqlite").is_file());
    let summary = desktop.open(&work).unwrap();
    assert_eq!(summary.case_file, file);
    assert_eq!(
        desktop.open(&dir.path().join("nothing")).unwrap_err().code,
        ErrorCode::BadRequest
    );
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert_eq!(
        desktop.open(&empty).unwrap_err().code,
        ErrorCode::BadRequest
    );
}

#[test]
fn a_paused_run_stops_at_a_tool_call_and_resumes_to_completion() {
    let dir = tempfile::tempdir().unwrap();
    save_case(&demo_draft(dir.path())).unwrap();
    let desktop = Desktop::new();
    desktop.open(dir.path()).unwrap();
    let sink = Arc::new(Recorder::default());
    desktop.start_run(sink.clone()).unwrap();
    // pause once tool calls are being made (a request before the segment opens is not for it)
    // a ceiling for a hang, not a speed requirement
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    while !sink
        .batches
        .lock()
        .unwrap()
        .iter()
        .flatten()
        .any(|i| matches!(i, StreamItem::Invocation(_)))
    {
        assert!(
            std::time::Instant::now() < deadline,
            "no tool call streamed"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    desktop.pause("coffee").unwrap();
    desktop.join_run();
    let first = sink.finished.lock().unwrap().clone();
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].state, "paused", "{:?}", first[0]);
    let status = desktop.status().unwrap();
    assert_eq!(status.status.run.state.map(|s| s.as_str()), Some("paused"));
    // unknown budgets are refused before anything runs
    assert_eq!(
        desktop
            .resume(&[("gold".into(), 5)], sink.clone())
            .unwrap_err()
            .code,
        ErrorCode::BadRequest
    );
    desktop
        .resume(&[("tool_calls".into(), 100)], sink.clone())
        .unwrap();
    desktop.join_run();
    let finished = sink.finished.lock().unwrap().clone();
    assert_eq!(finished.len(), 2);
    assert_eq!(finished[1].state, "completed", "{:?}", finished[1]);
    let status = desktop.status().unwrap();
    assert_eq!(status.status.run.grants.len(), 1);
    // who granted is the case's examiner, not the account the app runs under
    assert_eq!(status.status.run.grants[0].by, "E. Xaminer");
    assert_eq!(status.status.run.segments, 2);
}

#[test]
fn a_case_run_elsewhere_is_refused_as_busy_and_a_refused_resume_grants_nothing() {
    let dir = tempfile::tempdir().unwrap();
    save_case(&demo_draft(dir.path())).unwrap();
    let desktop = Desktop::new();
    desktop.open(dir.path()).unwrap();
    let sink = Arc::new(Recorder::default());
    // Another runner (a `masf run` in a terminal) holds the case.
    let mut elsewhere = desktop.ctx().unwrap();
    let lease = masf_api::take_lease(&mut elsewhere, None, &masf_api::SystemClock).unwrap();
    let busy = desktop.start_run(sink.clone()).unwrap_err();
    assert_eq!(busy.code, ErrorCode::CaseBusy);
    let holder = lease.holder();
    assert_eq!(
        busy.message,
        format!(
            "case desk-demo is being run by pid {} on {} since {}",
            holder.pid, holder.host, holder.since
        )
    );
    let refused = desktop
        .resume(&[("tool_calls".into(), 100)], sink.clone())
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::CaseBusy);
    assert!(!desktop.running());
    assert!(desktop.status().unwrap().status.run.grants.is_empty());
    assert!(sink.finished.lock().unwrap().is_empty());

    // Let go, the window runs the case; the first thing it streams is its own lease.
    drop(lease);
    desktop.start_run(sink.clone()).unwrap();
    desktop.join_run();
    let finished = sink.finished.lock().unwrap().clone();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0].state, "completed", "{:?}", finished[0]);
    let first = sink.batches.lock().unwrap()[0][0].clone();
    match first {
        StreamItem::Event(e) => {
            assert_eq!(e.kind, "RunLeased");
            assert_eq!(e.payload["pid"], std::process::id());
        }
        other => panic!("expected the lease first, got {other:?}"),
    }
    let status = desktop.status().unwrap();
    assert_eq!(status.status.run.lease.unwrap().pid, std::process::id());
    let ctx = desktop.ctx().unwrap();
    assert!(masf_api::check(&ctx).unwrap().ok());
}

/// The Run view's password field: the password of an encrypted backup is checked against its
/// keybag when given (a wrong one refused with the keybag's error), then held in this process's
/// memory under the source's `password_env:` name; the status says it is available, and the
/// case folder never holds it.
#[test]
fn a_typed_backup_password_is_checked_then_held_in_memory_only() {
    const VAR: &str = "MASF_DESKTOP_TEST_BACKUP_PW";
    const PASSWORD: &str = "masf-test-Passw0rd";
    let dir = tempfile::tempdir().unwrap();
    let backup = repo()
        .join("tests/fixtures/ios-backup-enc/backup/00008030-001A2B3C4D5E802E")
        .canonicalize()
        .unwrap();
    let draft = CaseDraft {
        dir: dir.path().to_path_buf(),
        id: "enc-backup".into(),
        title: "Encrypted backup".into(),
        examiner: "E. Xaminer".into(),
        timezone: "Asia/Hong_Kong".into(),
        region: None,
        persons: Vec::new(),
        sources: vec![SourceEntryDraft {
            id: "src-backup".into(),
            label: "backup".into(),
            path: backup,
            owner: None,
            timezone: None,
            region: None,
            password_env: Some(VAR.into()),
        }],
        overwrite: false,
    };
    save_case(&draft).unwrap();
    let desktop = Desktop::new();
    desktop.open(dir.path()).unwrap();
    let available = |d: &Desktop| d.status().unwrap().status.sources[0].password_available;
    assert!(!available(&desktop));
    assert_eq!(
        desktop.status().unwrap().status.sources[0]
            .password_env
            .as_deref(),
        Some(VAR)
    );

    let err = desktop
        .give_backup_password("src-backup", "not-it")
        .unwrap_err();
    assert!(err.message.contains("does not open"), "{}", err.message);
    assert!(!err.message.contains("not-it"));
    assert!(!available(&desktop));
    let err = desktop
        .give_backup_password("src-nope", PASSWORD)
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::BadRequest);

    desktop
        .give_backup_password("src-backup", PASSWORD)
        .unwrap();
    assert!(available(&desktop));
    // the scan the run makes now reads the backup
    let options = masf_tools::scan_options(Some(VAR)).unwrap();
    assert!(options.backup_password.is_some());
    let mut stack = vec![dir.path().to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                assert!(
                    !bytes
                        .windows(PASSWORD.len())
                        .any(|w| w == PASSWORD.as_bytes()),
                    "{p:?} holds the password"
                );
            }
        }
    }
}
