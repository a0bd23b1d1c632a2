//! The report side of MASForensics (DESIGN §2, §12, §13): it renders from the graph and the
//! case store and computes no findings.
//!
//! - [`answer`]: the sections that open the report — case summary, people, transactions and
//!   communications, hypotheses in words, limitations — regrouped from the report's rows.
//! - [`graph`]: the graph folded read-only from the store's events.
//! - [`timeline`]: the cross-source timeline — raw times converted to UTC instants with the
//!   zone they were read in, merged, sorted, filtered, and exported as JSON, JSONL and CSV with
//!   the plaso/Timesketch columns.
//! - [`model`]: the report (DESIGN §13) assembled from the graph, the store and the case;
//!   [`render`] turns it into self-contained HTML and Markdown; [`write`] writes
//!   `report.json`, `report.html` and `report.md`.
//! - [`tagged`]: the examiner's tagged, bookmarked and noted items as rows and the timeline
//!   entries a tag selects; `tagged_only` the report restricted to them (`--tagged-only`).
//! - [`ts_shapes`]: the TypeScript shapes of the graph's types that the report model and the
//!   desktop app's IPC carry (checked against them at compile time).
//!
//! # Details
//!
//! - [`timeline`] (docs/timeline.md): every `TimeMark` converted to UTC with exact decimals in
//!   the source's zone, DST gaps and folds flagged, unconvertible values kept; merged, sorted,
//!   filtered; JSON, JSONL, and CSV with plaso/Timesketch columns, plaso l2tcsv; and
//!   `timeline::bodyfile`, The Sleuth Kit body file of file-system entries (`masf ls -r --body`).
//! - [`model`] follows `schemas/report.schema.json`.
//! - [`case_uco`] writes the report as CASE 1.5 JSON-LD (`report.case.jsonld`).
//! - [`answer`] holds the types of the opening sections; `answer_of` regroups the model's rows
//!   into them. [`build`] sets the answer on the rows `model::rows` makes, so neither module
//!   imports the other; `render::answer` turns the answer into blocks both renderers write.
//! - [`render`]: self-contained HTML with a CSP that forbids everything but inline style, and
//!   Markdown. Every evidence string is escaped (`render::html::esc`, `render::markdown::cell`:
//!   control characters and bidi overrides written as `\u{..}` escapes, as
//!   `masf_evidence::fs::visible` does for `masf ls`); the CLI test renders an evidence file
//!   named `<img src=x onerror=alert(1)>.txt`. In report.html a list longer than a page
//!   (`PAGE_ROWS`, 500 rows; `PAGE_PHENOMENA`, 200 phenomena per source) is folded with its first
//!   page shown, and every page is written as its own file in `report-pages/`, linked, with links
//!   relative to report.html.
//! - [`tagged`]: the marks as `TaggedRow`s (what each item is in words, its tags, bookmark and
//!   notes with who and when) for the report's "Tagged items", `masf tags` and the desktop;
//!   `tagged::timeline_scope` is what `masf timeline --tag` keeps. `tagged_only` is the report
//!   cut to the tagged items and what they cite (`--tagged-only`).
//! - `write`: report.json serialised straight into a buffered file, never one string;
//!   report.html, its pages and report.md; each file written atomically.

pub mod answer;
mod answer_of;
pub mod case_uco;
pub mod graph;
pub mod model;
pub mod render;
pub mod tagged;
mod tagged_only;
pub mod timeline;
pub mod ts_shapes;
pub mod write;

pub use graph::{LoadError, load_graph};
pub use model::{Report, ReportInput, SCHEMA};
pub use write::{
    Format, WriteError, Written, write_case_jsonld, write_formats, write_html, write_json,
    write_markdown, write_report,
};

/// The report of a case: its rows ([`model::rows`]), then the answer assembled from them.
pub fn build(input: ReportInput<'_>) -> Report {
    let tagged_only = input.tagged_only;
    let mut report = model::rows(input);
    if tagged_only {
        report = tagged_only::restrict(report);
    }
    report.answer = answer_of::of(&report);
    report
}
