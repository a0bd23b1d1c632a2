//! Integration tests of the plugins on real artefacts.

mod util;
mod ios;
mod ios_support;
