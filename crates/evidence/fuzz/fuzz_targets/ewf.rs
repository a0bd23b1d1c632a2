#![no_main]
//! Fuzz the EWF reader: write the input as a one-segment image, open it, read every chunk.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("ewf", data);
});
