//! Integration tests of the plugins on real artefacts.

mod boundaries;
mod util;
