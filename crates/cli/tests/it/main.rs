//! Integration tests of the `masf` binary: each test runs the real executable.

mod demo;
mod hash;
mod intake;
mod support;
