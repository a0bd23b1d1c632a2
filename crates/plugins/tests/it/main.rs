//! Integration tests of the plugins on real artefacts.

mod util;
