//! Integration tests of the grounded evidence graph.

mod conformance;
mod generated;
mod identity;
mod persist;
mod properties;
mod resolution;
mod support;
mod synthetic;
mod tags;
mod views;
