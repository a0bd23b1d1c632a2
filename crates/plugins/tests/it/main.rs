//! Integration tests of the plugins on real artefacts.

mod media;
mod util;
