#![no_main]
//! Fuzz the UDIF (.dmg) reader: koly trailer, plist, mish tables, chunk codecs; the input is
//! opened as an image and its disk read and probed.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("udif", data);
});
