//! `verify_media IMAGE.E01 [THREADS]`: reads the whole media of an EWF image once, prints its
//! MD5, SHA-1 and SHA-256 and compares them with the digests the image stores (what
//! `masf verify-media` does; used by `bench/ewf.sh`). Exit status 0 when verified, 1 when not,
//! 2 when the image cannot be opened.

use std::path::PathBuf;
use std::process::ExitCode;

use masf_evidence::ewf::{EwfImage, verify_media};

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(path) = args.next().map(PathBuf::from) else {
        eprintln!("usage: verify_media IMAGE.E01 [THREADS]");
        return ExitCode::from(2);
    };
    let threads = args
        .next()
        .and_then(|t| t.to_str().and_then(|t| t.parse().ok()))
        .unwrap_or(0);
    let image = match EwfImage::open(&path) {
        Ok(image) => image,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let v = verify_media(&image, threads, &mut |_| {});
    println!(
        "media size:  {} bytes ({} hashed)",
        v.media_size, v.bytes_hashed
    );
    println!(
        "md5:         {} (stored {}: {:?})",
        v.md5,
        v.stored_md5.as_deref().unwrap_or("-"),
        v.md5_check
    );
    println!(
        "sha1:        {} (stored {}: {:?})",
        v.sha1,
        v.stored_sha1.as_deref().unwrap_or("-"),
        v.sha1_check
    );
    println!("sha256:      {}", v.sha256);
    for b in &v.bad_chunks {
        println!(
            "bad chunk {} at media offset {}: {}",
            b.chunk, b.media_offset, b.detail
        );
    }
    if v.is_verified() {
        println!("verified");
        ExitCode::SUCCESS
    } else {
        println!("NOT verified");
        ExitCode::from(1)
    }
}
