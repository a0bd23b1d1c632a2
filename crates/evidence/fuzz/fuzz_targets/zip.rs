#![no_main]
//! Fuzz the ZIP reader: open, then walk and read everything it offers.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::exercise_fs(data, masf_evidence::archive::open_zip);
});
