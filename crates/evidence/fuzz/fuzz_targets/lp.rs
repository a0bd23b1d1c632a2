#![no_main]
//! Fuzz the Android super (liblp metadata) reader: open the input as sparse block records,
//! read every logical partition. The driver is `masf_evidence::fuzzing::run_target`, which the
//! regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("lp", data);
});
