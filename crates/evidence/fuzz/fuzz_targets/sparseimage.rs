#![no_main]
//! Fuzz the Mac OS sparse image reader: open the input, read the disk it holds, probe it.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("sparseimage", data);
});
