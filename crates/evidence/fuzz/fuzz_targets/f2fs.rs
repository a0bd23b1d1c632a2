#![no_main]
//! Fuzz the F2FS reader: the input is a sparse image (`masf_evidence::fuzzing::sparse_blocks`:
//! a block count, then block index + 4 KiB records), opened, then walked and read.
//! Seed corpus: regressions/f2fs/seed-* (mkfs.f2fs + sload.f2fs, packed by seeds.sh).
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("f2fs", data);
});
