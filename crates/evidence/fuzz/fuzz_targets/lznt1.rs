#![no_main]
//! Fuzz the LZNT1 decoder of NTFS-compressed streams: any input decodes or is an error, into a
//! buffer of one compression unit (16 clusters of 4 KiB), never a panic.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("lznt1", data);
});
