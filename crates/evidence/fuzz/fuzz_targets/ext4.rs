#![no_main]
//! Fuzz the ext2/3/4 reader: open, then walk and read everything it offers.
//! Seed corpus: the images of tests/fixtures/ext4/mutated/ (decompressed), e.g. base.img.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::exercise_fs(data, masf_evidence::ext4::open);
});
