#![no_main]
//! Fuzz the APFS reader: the input is a sparse image (`masf_evidence::fuzzing::sparse_blocks`:
//! a block count, then block index + 4 KiB records), opened as a container whose volumes are
//! each walked and read.
//! Seed corpus: regressions/apfs/seed-* (the corpus image dfvfs-apfs.raw, packed by seeds.sh).
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("apfs", data);
});
