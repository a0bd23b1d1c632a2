//! The graph as the report reads it: folded, read-only, from the case store's graph events
//! (the one fold of `masf_tools::fold_graph`).

pub use masf_tools::{FoldError as LoadError, fold_graph as load_graph};
