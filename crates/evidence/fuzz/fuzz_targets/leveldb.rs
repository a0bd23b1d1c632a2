#![no_main]
//! Fuzz the LevelDB file readers: any input read as a log and as a table gives records,
//! problems or a typed error, never a panic.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = masf_evidence::leveldb::read_log(data, "fuzz");
    let _ = masf_evidence::leveldb::read_table(data, "fuzz");
});
