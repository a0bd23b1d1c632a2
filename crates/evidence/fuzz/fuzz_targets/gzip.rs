#![no_main]
//! Fuzz the gzip inflater, under a small output limit.
use std::sync::Arc;

use masf_evidence::bytes::{Bytes, Memory};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let bytes: Bytes = Arc::new(Memory::new(data.to_vec(), "fuzz input"));
    let _ = masf_evidence::archive::gunzip(bytes, 16 << 20);
});
