//! Reads every file of an HFS+ volume (the data fork of every regular file, hashed with
//! SHA-256) and prints the file count and bytes: the "read every file" side of `bench/hfs_dmg.sh`,
//! timed against The Sleuth Kit's `fls` + `icat` loop. OFFSET is the volume's byte offset in the
//! image (an xorriso-made HFS+ volume lies in an Apple Partition Map partition).
//!
//!     cargo run --release -p masf-evidence --example hfs_read_all -- IMAGE [OFFSET]

use std::sync::Arc;

use masf_evidence::bytes::{Bytes, FileBytes, Slice};
use masf_evidence::fs::EntryKind;
use sha2::Digest;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: hfs_read_all IMAGE [OFFSET]")?;
    let offset: u64 = args.next().map(|o| o.parse()).transpose()?.unwrap_or(0);
    let file: Bytes = Arc::new(FileBytes::open(std::path::Path::new(&path))?);
    let len = file.len().saturating_sub(offset);
    let vol: Bytes = Arc::new(Slice::new(file, offset, len, "volume"));
    let started = std::time::Instant::now();
    let fs = masf_evidence::hfsplus::open(vol)?;
    let (mut files, mut bytes) = (0u64, 0u64);
    let mut buf = vec![0u8; 1 << 20];
    let mut stack = vec!["/".to_string()];
    while let Some(dir) = stack.pop() {
        for e in fs.list_dir(&dir)? {
            match e.kind {
                EntryKind::Dir => stack.push(e.path),
                EntryKind::File if !e.name.ends_with(":rsrc") => {
                    let data = fs.open(&e.path)?;
                    let mut h = sha2::Sha256::new();
                    let mut at = 0;
                    while at < data.len() {
                        let n = ((data.len() - at) as usize).min(buf.len());
                        data.read_exact_at(at, &mut buf[..n])?;
                        h.update(&buf[..n]);
                        at += n as u64;
                    }
                    let _ = h.finalize();
                    files += 1;
                    bytes += at;
                }
                _ => {}
            }
        }
    }
    eprintln!(
        "{files} files, {bytes} bytes in {:.3} s",
        started.elapsed().as_secs_f64()
    );
    println!("{files} {bytes}");
    Ok(())
}
