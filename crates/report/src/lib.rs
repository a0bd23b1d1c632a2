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

pub mod answer;
mod answer_of;
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
pub use write::{WriteError, Written, write_html, write_json, write_markdown, write_report};

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
