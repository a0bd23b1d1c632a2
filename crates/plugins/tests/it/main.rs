//! Integration tests of the plugins on real artefacts.

mod ios;
mod ios_support;
mod util;
