//! Unit tests of the volume layer.
