#![no_main]
//! Fuzz the ext2/3/4 reader: open, then walk and read everything it offers.
//! Seed corpus: the images of tests/fixtures/ext4/mutated/ (decompressed), e.g. base.img.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("ext4", data);
});
