#![no_main]
//! Fuzz the partition-table readers and the probe: sniff, open GPT/MBR/APM, probe every partition.
//! The driver is `masf_evidence::fuzzing::run_target`, which the regression replay uses too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::run_target("volume", data);
});
