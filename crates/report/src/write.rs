//! Writing a report folder: `report.json`, `report.html`, `report.md`, and `outputs/` (each
//! invocation's exact output bytes, written by the caller through [`OutputSink`]).

use std::path::{Path, PathBuf};

use crate::model::Report;
use crate::render::{html, markdown};

/// Why the report could not be written.
#[derive(Debug, thiserror::Error)]
#[error("writing {path}: {source}")]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// The I/O error.
    pub source: std::io::Error,
}

/// The files written.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Written {
    pub json: PathBuf,
    pub html: PathBuf,
    pub markdown: PathBuf,
}

/// Writes the three renderings of `report` into `dir` (created if needed). Files are written
/// to a temporary name and renamed, so a report is never half-written.
pub fn write_report(report: &Report, dir: &Path) -> Result<Written, WriteError> {
    let err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WriteError { path, source }
    };
    std::fs::create_dir_all(dir).map_err(err(dir))?;
    let put = |name: &str, bytes: &[u8]| -> Result<PathBuf, WriteError> {
        let path = dir.join(name);
        let tmp = dir.join(format!(".{name}.tmp"));
        std::fs::write(&tmp, bytes).map_err(err(&tmp))?;
        std::fs::rename(&tmp, &path).map_err(err(&path))?;
        Ok(path)
    };
    let json = serde_json::to_vec_pretty(report).unwrap_or_default();
    Ok(Written {
        json: put("report.json", &json)?,
        html: put("report.html", html::render(report).as_bytes())?,
        markdown: put("report.md", markdown::render(report).as_bytes())?,
    })
}
