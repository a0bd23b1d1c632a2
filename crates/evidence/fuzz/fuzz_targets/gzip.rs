#![no_main]
//! Fuzz the gzip inflater, under a small output limit.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("gzip", data);
});
