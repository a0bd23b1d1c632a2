//! Integration tests of the grounded evidence graph.

mod conformance;
mod identity;
mod persist;
mod properties;
mod support;
mod views;
