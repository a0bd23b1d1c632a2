#![no_main]
//! Fuzz the VHDX reader: open the input as an image, read the virtual disk, probe it.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("vhdx", data);
});
