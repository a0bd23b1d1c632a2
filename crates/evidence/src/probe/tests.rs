//! Unit tests of probing.
