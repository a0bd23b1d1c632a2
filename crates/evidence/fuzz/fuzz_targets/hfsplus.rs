#![no_main]
//! Fuzz the HFS+ reader (catalog and extents overflow B-trees, forks): the input is sparse block
//! records (`masf_evidence::fuzzing::sparse_blocks`), opened as a volume and walked.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("hfsplus", data);
});
