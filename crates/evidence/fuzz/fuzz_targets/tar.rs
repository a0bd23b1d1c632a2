#![no_main]
//! Fuzz the TAR reader (plain, or gzip-compressed when the input starts with 1f 8b): open, then
//! walk and read everything it offers.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("tar", data);
});
