//! Integration tests of the grounded evidence graph.

mod conformance;
