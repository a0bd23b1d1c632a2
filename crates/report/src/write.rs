//! Writing a report folder: `report.json`, `report.html` (with the pages of its long tables in
//! `report-pages/`) and `report.md`; the caller publishes `outputs/` (each invocation's exact
//! output bytes) beside them.
//!
//! `report.json` is serialised straight into a buffered file, never into one string or JSON
//! value: a report of a large case is written in bounded memory.

use std::io::Write as _;
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
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct Written {
    pub json: PathBuf,
    pub html: PathBuf,
    pub markdown: PathBuf,
    /// `report.case.jsonld`: the report as CASE 1.5 JSON-LD (`case_uco`).
    pub case_jsonld: PathBuf,
    /// How many pages of report.html's long tables were written (in `report-pages/`).
    pub html_pages: usize,
}

fn err(path: &Path) -> impl FnOnce(std::io::Error) -> WriteError {
    let path = path.to_path_buf();
    move |source| WriteError { path, source }
}

/// Writes `name` in `dir` through a temporary name and a rename, so it is never half-written;
/// `fill` writes the content into a buffered file.
fn put(
    dir: &Path,
    name: &str,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<PathBuf, WriteError> {
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    let file = std::fs::File::create(&tmp).map_err(err(&tmp))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    fill(&mut out)
        .and_then(|()| out.flush())
        .map_err(err(&tmp))?;
    drop(out);
    std::fs::rename(&tmp, &path).map_err(err(&path))?;
    Ok(path)
}

/// Writes `report.json` into `dir`, serialised as it is written.
pub fn write_json(report: &Report, dir: &Path) -> Result<PathBuf, WriteError> {
    std::fs::create_dir_all(dir).map_err(err(dir))?;
    put(dir, "report.json", |out| {
        serde_json::to_writer_pretty(&mut *out, report).map_err(std::io::Error::other)?;
        out.write_all(b"\n")
    })
}

/// Writes `report.html` and its pages into `dir`; returns report.html and the number of pages.
pub fn write_html(report: &Report, dir: &Path) -> Result<(PathBuf, usize), WriteError> {
    std::fs::create_dir_all(dir).map_err(err(dir))?;
    let pages = html::write(report, dir).map_err(err(&dir.join("report.html")))?;
    Ok((dir.join("report.html"), pages.len()))
}

/// Writes `report.md` into `dir`, rendered straight into the file.
pub fn write_markdown(report: &Report, dir: &Path) -> Result<PathBuf, WriteError> {
    std::fs::create_dir_all(dir).map_err(err(dir))?;
    put(dir, "report.md", |out| {
        let mut sink = FmtIo { out, error: None };
        markdown::render_to(report, &mut sink);
        sink.error.map_or(Ok(()), Err)
    })
}

/// `fmt::Write` over an `io::Write`, keeping the first I/O error (the renderer writes with
/// `fmt`; a failed write stops the output and is returned by the caller).
struct FmtIo<'a, W: std::io::Write> {
    out: &'a mut W,
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> std::fmt::Write for FmtIo<'_, W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.error.is_some() {
            return Err(std::fmt::Error);
        }
        self.out.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }
}

/// Writes `report.case.jsonld` (CASE 1.5 JSON-LD) into `dir`.
pub fn write_case_jsonld(report: &Report, dir: &Path) -> Result<PathBuf, WriteError> {
    std::fs::create_dir_all(dir).map_err(err(dir))?;
    put(dir, "report.case.jsonld", |out| {
        serde_json::to_writer_pretty(&mut *out, &crate::case_uco::case_jsonld(report))
            .map_err(std::io::Error::other)?;
        out.write_all(b"\n")
    })
}

/// Writes the renderings of `report` into `dir` (created if needed): report.json, report.html,
/// report.md and report.case.jsonld.
pub fn write_report(report: &Report, dir: &Path) -> Result<Written, WriteError> {
    let json = write_json(report, dir)?;
    let (html, html_pages) = write_html(report, dir)?;
    Ok(Written {
        json,
        html,
        markdown: write_markdown(report, dir)?,
        case_jsonld: write_case_jsonld(report, dir)?,
        html_pages,
    })
}

/// One rendering of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "ReportFormat")]
pub enum Format {
    Html,
    Md,
    Json,
    /// `report.case.jsonld`: CASE 1.5 / UCO JSON-LD.
    CaseJsonld,
}

/// Writes the renderings asked of `report` into `dir`; returns their files in the order asked
/// (report.html for the HTML, whose pages go to `report-pages/`).
pub fn write_formats(
    report: &Report,
    dir: &Path,
    formats: &[Format],
) -> Result<Vec<PathBuf>, WriteError> {
    formats
        .iter()
        .map(|f| match f {
            Format::Json => write_json(report, dir),
            Format::Html => write_html(report, dir).map(|(html, _)| html),
            Format::Md => write_markdown(report, dir),
            Format::CaseJsonld => write_case_jsonld(report, dir),
        })
        .collect()
}
