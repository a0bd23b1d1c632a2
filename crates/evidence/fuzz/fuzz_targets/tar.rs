#![no_main]
//! Fuzz the TAR reader (plain, or gzip-compressed when the input starts with 1f 8b): open, then
//! walk and read everything it offers.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::exercise_fs(data, masf_evidence::archive::open_tar);
});
