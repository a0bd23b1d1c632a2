//! Integration tests of the `masf` binary: each test runs the real executable.

mod hash;
mod intake;
mod support;
