#![no_main]
//! Fuzz the partition-table readers and the probe: sniff, open GPT/MBR, probe every partition.
use std::sync::Arc;

use masf_evidence::bytes::{Bytes, Memory};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::exercise_volume(data);
    let bytes: Bytes = Arc::new(Memory::new(data.to_vec(), "fuzz input"));
    let _ = masf_evidence::probe::probe(bytes.as_ref());
});
