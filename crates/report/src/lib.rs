//! The report side of MASForensics (DESIGN §2, §12, §13): it renders from the graph and the
//! case store and computes no findings.
//!
//! - [`graph`]: the graph folded read-only from the store's events.
//! - [`timeline`]: the cross-source timeline — raw times converted to UTC instants with the
//!   zone they were read in, merged, sorted, filtered, and exported as JSON, JSONL and CSV with
//!   the plaso/Timesketch columns.

pub mod graph;
pub mod timeline;

pub use graph::{LoadError, load_graph};
