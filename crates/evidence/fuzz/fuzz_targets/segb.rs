#![no_main]
//! Fuzz the SEGB reader (Apple Biome streams, v1 and v2): any input gives records, problems or
//! a typed error, never a panic.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("segb", data);
});
