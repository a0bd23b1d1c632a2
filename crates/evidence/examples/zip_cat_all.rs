//! Reads every member of a ZIP archive through the evidence layer, on all cores, and discards
//! (or, with `--sha256`, hashes) the bytes. The benchmark `bench/zip.sh` times it against
//! `unzip -p ZIP > /dev/null`.
//!
//!     cargo run --release -p masf-evidence --example zip_cat_all -- ARCHIVE.zip [--sha256]

use std::sync::Arc;

use masf_evidence::archive::{Limits, ZipArchive};
use masf_evidence::bytes::FileBytes;
use masf_evidence::fs::{EntryKind, FileSystem};
use rayon::prelude::*;
use sha2::Digest;

fn files(fs: &dyn FileSystem) -> Result<Vec<String>, masf_evidence::Error> {
    let mut out = Vec::new();
    let mut dirs = vec!["/".to_string()];
    while let Some(dir) = dirs.pop() {
        for e in fs.list_dir(&dir)? {
            match e.kind {
                EntryKind::Dir => dirs.push(e.path),
                EntryKind::File => out.push(e.path),
                _ => {}
            }
        }
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: zip_cat_all ARCHIVE.zip [--sha256]")?;
    let hash = args.next().as_deref() == Some("--sha256");
    let zip = ZipArchive::open(Arc::new(FileBytes::open(path.as_ref())?), Limits::default())?;
    let paths = files(&zip)?;
    let (bytes, errors) = paths
        .par_iter()
        .map_init(
            || vec![0u8; 256 << 10],
            |buf, p| -> (u64, u64) {
                let Ok(member) = zip.open(p) else {
                    return (0, 1);
                };
                let mut sha = hash.then(sha2::Sha256::new);
                let mut at = 0;
                while at < member.len() {
                    match member.read_at(at, buf) {
                        Ok(0) | Err(_) => return (at, 1),
                        Ok(n) => {
                            if let Some(s) = sha.as_mut() {
                                s.update(&buf[..n]);
                            }
                            at += n as u64;
                        }
                    }
                }
                if let Some(s) = sha {
                    std::hint::black_box(s.finalize());
                }
                (at, 0)
            },
        )
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!(
        "{} members, {bytes} bytes read, {errors} errors",
        paths.len()
    );
    Ok(())
}
