#![no_main]
//! Fuzz the EWF reader: write the input as a one-segment image, open it, read every chunk.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    masf_evidence::fuzzing::exercise_image_file(data, "fuzz.E01", |path| {
        masf_evidence::ewf::EwfImage::open(path)
            .map(|i| std::sync::Arc::new(i) as masf_evidence::bytes::Bytes)
    });
});
