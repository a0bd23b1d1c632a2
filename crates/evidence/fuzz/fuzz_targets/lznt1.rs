#![no_main]
//! Fuzz the LZNT1 decoder of NTFS-compressed streams: any input decodes or is an error, into a
//! buffer of one compression unit (16 clusters of 4 KiB), never a panic.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut out = vec![0u8; 65536];
    let _ = masf_evidence::lznt1::decompress(data, &mut out);
});
