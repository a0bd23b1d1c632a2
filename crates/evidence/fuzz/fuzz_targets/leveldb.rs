#![no_main]
//! Fuzz the LevelDB file readers: any input read as a log and as a table gives records,
//! problems or a typed error, never a panic.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("leveldb", data);
});
