//! Intake (DESIGN §10, phase 0): every source a case declares is registered in its event log
//! with the digests (SHA-256 and MD5, one streaming pass) of all its files, its type and why,
//! and for an EWF image the whole media read and checked against the hashes the image stores.
//! A source registered before is checked for changed sizes and amended when the examiner
//! edited its label, owner or time zone; a source whose files cannot be found, listed or hashed
//! is recorded as unreadable and the others go on. Running it again adds nothing (every event
//! has an idempotency key).
//!
//! What a source *is* is not this crate's call: the caller answers it (`masf_api` asks the
//! plugins, from the run's one scan of the source). The evidence is only read.

use std::path::{Path, PathBuf};

use masf_case::events::{
    FileDigest, MediaIntegrity, SOURCE_ADDED, SOURCE_AMENDED, SOURCE_UNREADABLE, SourceAdded,
    SourceAmended, SourceRegistry, SourceUnreadable,
};
use masf_case::{Case, SourceSpec};
use masf_evidence::{Digests, EvidenceFiles};
use masf_store::{NewEvent, Store, StoreError};
use serde::Serialize;

/// Progress of a long operation, reported in bytes. The CLI draws a bar; the desktop app
/// forwards it as events.
pub trait Progress: Sync {
    /// A new stage starts (`label` names the file or source) with this many bytes to process.
    fn begin(&self, label: &str, total_bytes: u64);
    /// Bytes processed so far in the current stage.
    fn advance(&self, done_bytes: u64);
}

/// A progress sink that shows nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn begin(&self, _label: &str, _total_bytes: u64) {}
    fn advance(&self, _done_bytes: u64) {}
}

/// Why intake could not go on (evidence that cannot be read is recorded, never an error).
#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An event could not be encoded.
    #[error("encoding {kind}: {message}")]
    Encode { kind: String, message: String },
    /// The log holds a source event the registry cannot apply.
    #[error("{0}")]
    Registry(String),
}

/// Hashes one file with SHA-256 and MD5 in one streaming pass, reporting progress.
pub fn hash_file(path: &Path, progress: &dyn Progress) -> Result<Digests, masf_evidence::Error> {
    let size = masf_evidence::host::lstat(path)
        .map(|m| m.size)
        .unwrap_or(0);
    progress.begin(&path.display().to_string(), size);
    masf_evidence::hash_file(path, &mut |done| progress.advance(done))
}

/// Reads the whole media of the EWF image at `path` and checks it against the hashes the
/// image stores (on every core), reporting progress; MD5, SHA-1 and SHA-256 are all computed
/// (intake records them).
pub fn verify_media(
    path: &Path,
    progress: &dyn Progress,
) -> Result<masf_evidence::ewf::MediaVerification, masf_evidence::Error> {
    verify_with(path, |_| masf_evidence::ewf::DigestSet::ALL, progress)
}

/// Checks the EWF image at `path` against the digests it stores, computing only those (and
/// SHA-256 when `sha256`): what `masf verify-media` does, as `ewfverify` does.
pub fn verify_stored(
    path: &Path,
    sha256: bool,
    progress: &dyn Progress,
) -> Result<masf_evidence::ewf::MediaVerification, masf_evidence::Error> {
    verify_with(
        path,
        |image| masf_evidence::ewf::DigestSet::stored(image, sha256),
        progress,
    )
}

/// Opens the image and verifies its whole media on every core, computing the digests `pick`
/// chooses for it.
fn verify_with(
    path: &Path,
    pick: impl FnOnce(&masf_evidence::ewf::EwfImage) -> masf_evidence::ewf::DigestSet,
    progress: &dyn Progress,
) -> Result<masf_evidence::ewf::MediaVerification, masf_evidence::Error> {
    let image = masf_evidence::ewf::EwfImage::open(path)?;
    use masf_evidence::bytes::ByteSource;
    progress.begin(&path.display().to_string(), image.len());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let set = pick(&image);
    Ok(masf_evidence::ewf::verify_media_with(
        &image,
        threads,
        set,
        &mut |done| progress.advance(done),
    ))
}

/// What intake did for one source.
#[derive(Debug, Clone, Serialize)]
pub struct SourceIntake {
    pub source_id: String,
    /// `true` when this run registered the source; `false` when it was registered before.
    pub newly_added: bool,
    pub files_kind: String,
    /// The evidence type (a device a plugin recognised, else the form), and why.
    pub detected_type: Option<String>,
    pub detection_reasons: Vec<String>,
    /// EWF images: the media hashes against the stored ones.
    pub media: Option<MediaIntegrity>,
    pub size: u64,
    pub files: Vec<FileDigest>,
}

/// What one intake did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Intake {
    pub events_added: u64,
    pub sources: Vec<SourceIntake>,
    /// Problems found (evidence whose size changed since intake, media that does not verify,
    /// a source not registered and why).
    pub problems: Vec<String>,
}

/// What a source is, answered by the caller for a source being registered: its type
/// (`None` when its evidence could not be scanned) and why.
pub type TypeOf<'a> = dyn Fn(&SourceSpec) -> (Option<String>, Vec<String>) + 'a;

/// Registers every source `case` declares that `store`'s log does not hold yet, checks and
/// amends those it holds (see the crate docs). `now` stamps each event.
pub fn register(
    case: &Case,
    store: &mut Store,
    now: &dyn Fn() -> jiff::Timestamp,
    progress: &dyn Progress,
    type_of: &TypeOf<'_>,
) -> Result<Intake, IntakeError> {
    let (registry, _) = registry(store)?;
    let mut report = Intake::default();
    for spec in &case.sources {
        if let Some(existing) = registry.sources.get(&spec.id) {
            check_unchanged(case, existing, &mut report.problems);
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
                append(store, now, SOURCE_AMENDED, &amended, key, &mut report)?;
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
        let hashed = EvidenceFiles::discover(&spec.path).and_then(|found| {
            let mut files = Vec::with_capacity(found.files.len());
            let base = canonical(&case.dir);
            // A folder's files are its root joined with names, never through a link: the
            // root is made canonical once, not every file.
            let root = canonical(&found.root);
            for file in &found.files {
                let d = hash_file(file, progress)?;
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
                let reason = e.to_string();
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
                append(store, now, SOURCE_UNREADABLE, &unreadable, key, &mut report)?;
                continue;
            }
        };
        let (detected_type, detection_reasons) = type_of(spec);
        let media = if found.kind == masf_evidence::FilesKind::EwfSegments {
            match verify_media(&spec.path, progress) {
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
                        spec.id, e
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
            store,
            now,
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
    store: &mut Store,
    now: &dyn Fn() -> jiff::Timestamp,
    kind: &str,
    payload: &T,
    idempotency_key: String,
    report: &mut Intake,
) -> Result<(), IntakeError> {
    let payload = serde_json::to_value(payload).map_err(|e| IntakeError::Encode {
        kind: kind.to_string(),
        message: e.to_string(),
    })?;
    let appended = store.append(&NewEvent {
        kind: kind.to_string(),
        payload,
        actor_kind: masf_store::ActorKind::System,
        actor_id: "intake".to_string(),
        idempotency_key,
        causation_seq: None,
        ts: now(),
        versions: [("masf".to_string(), env!("CARGO_PKG_VERSION").to_string())].into(),
    })?;
    if appended.inserted {
        report.events_added += 1;
    }
    Ok(())
}

/// The source registry projected from the event log, and the number of events read.
pub fn registry(store: &Store) -> Result<(SourceRegistry, u64), IntakeError> {
    let mut registry = SourceRegistry::default();
    let mut count = 0u64;
    store.for_each_event(0, |e| {
        count += 1;
        registry
            .apply(e.seq, &e.kind, &e.payload)
            .map_err(|err| IntakeError::Registry(err.to_string()))
    })?;
    Ok((registry, count))
}

/// A registered source whose files changed size since intake is reported (re-hashing every
/// file on every run would make a re-run cost a full read; the report re-checks hashes).
fn check_unchanged(case: &Case, existing: &SourceAdded, problems: &mut Vec<String>) {
    for f in &existing.files {
        let path = case.dir.join(&f.path);
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
