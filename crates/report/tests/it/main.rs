//! The timeline on real gateway-recorded phenomena: conversions against independent oracles,
//! merging and ordering across sources, filters, and the export columns.

mod convert;
mod export;
mod merge;
mod support;
