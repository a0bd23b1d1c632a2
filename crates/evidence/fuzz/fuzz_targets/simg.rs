#![no_main]
//! Fuzz the Android sparse image reader: open the input, read the expanded image, probe it.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("simg", data);
});
