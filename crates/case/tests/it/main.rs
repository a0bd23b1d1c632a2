//! Integration tests of `masf-case`: real files in temporary directories.

mod case_errors;
mod case_load;
mod config;
mod util;
mod writer;
