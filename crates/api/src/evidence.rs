//! Evidence inspection for examiners: `inspect`, `list`, `cat`, `verify_media`.

use std::io::Write;
use std::path::Path;

use masf_evidence::fs::{Entry, EntryKind, FileSystem, MAX_DIR_DEPTH};
use masf_evidence::probe::Encryption;
use masf_evidence::scan::{self, Node, Scan, Spec};
use serde::Serialize;

use crate::{ApiError, ErrorCode, Progress};

/// One layer of an inspected source, flattened depth-first.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct LayerView {
    pub depth: usize,
    pub id: String,
    pub kind: String,
    pub params: std::collections::BTreeMap<String, String>,
    pub size: Option<u64>,
    #[ts(as = "Option<masf_report::ts_shapes::PartitionInfo>")]
    pub partition: Option<scan::PartitionInfo>,
    /// What the content was recognised as (`ext4`, `fat32`, `apfs` …) and whether it is readable.
    pub format: Option<String>,
    pub readable: Option<bool>,
    pub label: Option<String>,
    pub uuid: Option<String>,
    pub features: Vec<String>,
    pub encryption: Option<String>,
    /// Files and directories in the file system of this layer (when counted).
    pub files: Option<u64>,
    pub dirs: Option<u64>,
    pub problem: Option<String>,
    pub diagnostics: Vec<String>,
}

/// What `masf inspect` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Inspection {
    pub path: String,
    /// What the source is: the device type a plugin recognised it as (`android_disk`, …) or,
    /// when none did, its form.
    pub evidence_type: String,
    /// The content that decided `evidence_type`.
    pub reasons: Vec<String>,
    /// The evidence layer's format verdict (`disk_image`, `archive`, `folder`,
    /// `itunes_backup`, `file`) and why.
    pub form: String,
    pub form_reasons: Vec<String>,
    pub files_kind: String,
    pub files: Vec<String>,
    pub size: u64,
    pub layers: Vec<LayerView>,
    /// Header values, geometry and stored hashes of an EWF image.
    pub ewf: Option<masf_evidence::ewf::EwfMetadata>,
}

fn scan_err(e: masf_evidence::Error) -> ApiError {
    ApiError::new(ErrorCode::Evidence, e.to_string())
}

/// Scans `path`, an encrypted backup with the password held by the environment variable
/// `password_env` names (only the name is ever passed around; see `masf_tools::scan_options`).
fn scan_at(path: &Path, password_env: Option<&str>) -> Result<Scan, ApiError> {
    let options = masf_tools::scan_options(password_env)
        .map_err(|e| ApiError::new(ErrorCode::BadRequest, e.to_string()))?;
    scan::scan_with(path, &options).map_err(scan_err)
}

/// Scans an evidence path and describes everything found in it. With `count`, every file
/// system is walked to count its files and directories. `password_env` names the environment
/// variable holding an encrypted backup's password.
pub fn inspect(
    path: &Path,
    count: bool,
    password_env: Option<&str>,
) -> Result<Inspection, ApiError> {
    inspect_scan(&scan_at(path, password_env)?, path, count)
}

/// The layers of a scan as `masf inspect` shows them, depth first (file systems walked to
/// count their entries with `count`).
pub(crate) fn layer_views(scan: &Scan, count: bool) -> Vec<LayerView> {
    let mut layers = Vec::new();
    flatten(&scan.root, 0, count, &mut layers);
    layers
}

/// [`inspect`] of a scan already made of the evidence at `path`.
fn inspect_scan(scan: &Scan, path: &Path, count: bool) -> Result<Inspection, ApiError> {
    let layers = layer_views(scan, count);
    let typed = crate::compose::plugins().typing(scan);
    Ok(Inspection {
        path: path.display().to_string(),
        evidence_type: typed.evidence_type,
        reasons: typed.reasons,
        form: scan.form.as_str().to_string(),
        form_reasons: scan.reasons.clone(),
        files_kind: serde_json::to_value(&scan.files.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        files: scan
            .files
            .files
            .iter()
            .map(|f| f.display().to_string())
            .collect(),
        size: scan.files.total_size().map_err(scan_err)?,
        layers,
        ewf: match scan.files.kind {
            masf_evidence::FilesKind::EwfSegments => Some(ewf_metadata(path)?),
            _ => None,
        },
    })
}

fn flatten(node: &Node, depth: usize, count: bool, out: &mut Vec<LayerView>) {
    let probe = node.probe.as_ref();
    let (files, dirs) = match (&node.fs, count) {
        (Some(fs), true) => {
            let mut files = 0u64;
            let mut dirs = 0u64;
            let _ = walk(fs.as_ref(), "/", &mut |e| {
                match e.kind {
                    EntryKind::Dir => dirs += 1,
                    _ => files += 1,
                }
                Ok(())
            });
            (Some(files), Some(dirs))
        }
        _ => (None, None),
    };
    out.push(LayerView {
        depth,
        id: node.layer.id(),
        kind: node.layer.kind.clone(),
        params: node.layer.params.clone(),
        size: node.bytes.as_ref().map(|b| b.len()),
        partition: node.partition.clone(),
        format: probe.map(|p| p.format.name().to_string()),
        readable: probe.map(|p| p.readable),
        label: probe.and_then(|p| p.label.clone()),
        uuid: probe.and_then(|p| p.uuid.clone()),
        features: probe.map(|p| p.features.clone()).unwrap_or_default(),
        encryption: probe.and_then(|p| match &p.encryption {
            Encryption::None => None,
            Encryption::Fbe { evidence } => Some(format!("file-based encryption: {evidence}")),
            Encryption::Fde { evidence } => Some(format!("full-disk encryption: {evidence}")),
            Encryption::Luks => Some("LUKS container".to_string()),
            Encryption::Unknown { evidence } => Some(format!("likely encrypted: {evidence}")),
        }),
        files,
        dirs,
        problem: node.problem.clone(),
        diagnostics: node
            .fs
            .as_ref()
            .map(|f| f.diagnostics())
            .unwrap_or_default(),
    });
    for c in &node.children {
        flatten(c, depth + 1, count, out);
    }
}

/// Depth-first walk below `dir`, children in name order, on an explicit stack of directory
/// listings (never recursion: a tree thousands of levels deep cannot exhaust the stack).
/// Errors reading one directory, and directories deeper than
/// [`masf_evidence::fs::MAX_DIR_DEPTH`] below `dir`, are logged and do not stop the walk of
/// the others.
fn walk(
    fs: &dyn FileSystem,
    dir: &str,
    f: &mut dyn FnMut(&Entry) -> Result<(), String>,
) -> Result<(), String> {
    let first = fs.list_dir(dir).map_err(|e| e.to_string())?;
    let mut stack: Vec<(std::vec::IntoIter<Entry>, usize)> = vec![(first.into_iter(), 0)];
    while let Some((entries, depth)) = stack.last_mut() {
        let depth = *depth;
        let Some(e) = entries.next() else {
            stack.pop();
            continue;
        };
        f(&e)?;
        if e.kind != EntryKind::Dir {
            continue;
        }
        if depth + 1 > MAX_DIR_DEPTH {
            tracing::warn!(
                "{}: directories nested deeper than {MAX_DIR_DEPTH} levels; not listed",
                masf_evidence::fs::shorten(&e.path)
            );
            continue;
        }
        // A corrupt subdirectory is reported, not fatal for the rest of the listing.
        // A deleted folder is listed where its format can still read it (NTFS); where it
        // cannot (ext4 names recovered from slack), that is expected, not a problem.
        match fs.list_dir(&e.path) {
            Ok(children) => stack.push((children.into_iter(), depth + 1)),
            Err(err) if !e.deleted => tracing::warn!("{err}"),
            Err(_) => {}
        }
    }
    Ok(())
}

fn open_spec(spec: &str, password_env: Option<&str>) -> Result<(Spec, Scan), ApiError> {
    let spec = Spec::parse(spec);
    let scan = scan_at(&spec.evidence, password_env)?;
    Ok((spec, scan))
}

/// Lists a directory (or one file) inside any layer, calling `f` for each entry; with
/// `recursive`, the whole tree below it in depth-first name order (`password_env` as for
/// [`inspect`]).
pub fn list(
    spec: &str,
    recursive: bool,
    password_env: Option<&str>,
    f: &mut dyn FnMut(&Entry) -> Result<(), String>,
) -> Result<(), ApiError> {
    let (spec, scan) = open_spec(spec, password_env)?;
    let fs = scan
        .file_system(spec.partition.as_deref())
        .map_err(scan_err)?;
    let top = fs.stat(&spec.path).map_err(scan_err)?;
    if top.kind != EntryKind::Dir {
        return f(&top).map_err(|m| ApiError::new(ErrorCode::Io, m));
    }
    if recursive {
        walk(fs.as_ref(), &spec.path, f).map_err(|m| ApiError::new(ErrorCode::Evidence, m))
    } else {
        for e in fs.list_dir(&spec.path).map_err(scan_err)? {
            f(&e).map_err(|m| ApiError::new(ErrorCode::Io, m))?;
        }
        Ok(())
    }
}

/// Writes the exact bytes of a file inside any layer to `out`; returns the byte count
/// (`password_env` as for [`inspect`]).
pub fn cat(spec: &str, password_env: Option<&str>, out: &mut dyn Write) -> Result<u64, ApiError> {
    let (spec, scan) = open_spec(spec, password_env)?;
    let fs = scan
        .file_system(spec.partition.as_deref())
        .map_err(scan_err)?;
    let bytes = fs.open(&spec.path).map_err(scan_err)?;
    let mut buf = vec![0u8; 256 * 1024];
    // First every byte is read (each EWF chunk checked, every layer's checks run) and nothing
    // is written; only a file that reads back whole is then written. A bad chunk fails the
    // command with its offset and leaves the output empty, never a plausible-looking prefix.
    let mut offset = 0u64;
    while offset < bytes.len() {
        let n = bytes.read_at(offset, &mut buf).map_err(scan_err)?;
        if n == 0 {
            break;
        }
        offset += n as u64;
    }
    let readable = offset;
    offset = 0;
    while offset < readable {
        let n = bytes.read_at(offset, &mut buf).map_err(scan_err)?;
        if n == 0 {
            break;
        }
        let n = n.min(usize::try_from(readable - offset).unwrap_or(usize::MAX));
        out.write_all(&buf[..n])
            .map_err(|e| ApiError::new(ErrorCode::Io, e.to_string()))?;
        offset += n as u64;
    }
    Ok(offset)
}

/// Reads the whole media of an image and compares its hashes with those the image stores
/// (computing those, and SHA-256 when `sha256`).
pub fn verify_media(
    path: &Path,
    sha256: bool,
    progress: &dyn Progress,
) -> Result<masf_evidence::ewf::MediaVerification, ApiError> {
    masf_intake::verify_stored(path, sha256, progress).map_err(scan_err)
}

/// The EWF metadata of an image (header values, stored hashes, geometry), for `inspect`.
fn ewf_metadata(path: &Path) -> Result<masf_evidence::ewf::EwfMetadata, ApiError> {
    let image = masf_evidence::ewf::EwfImage::open(path).map_err(scan_err)?;
    Ok(image.metadata().clone())
}
