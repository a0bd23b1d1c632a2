//! Lists every volume of an APFS container image and reads every regular file of each
//! (through the scanner's layer stack), printing the number of files and bytes and a SHA-256
//! over all contents in path order: what `bench/apfs.sh` times against The Sleuth Kit
//! (`fls` + an `icat` per file).
//!
//!     cargo run --release -p masf-evidence --example apfs_read_all -- IMAGE

use masf_evidence::fs::{EntryKind, FileSystem};
use sha2::Digest;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: apfs_read_all IMAGE")?;
    let scan = masf_evidence::scan::scan(std::path::Path::new(&path))?;
    let (mut files, mut bytes) = (0u64, 0u64);
    let mut h = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    for f in scan.file_systems() {
        let fs: &dyn FileSystem = f.fs.as_ref();
        let mut stack = vec!["/".to_string()];
        while let Some(dir) = stack.pop() {
            for e in fs.list_dir(&dir)? {
                match e.kind {
                    EntryKind::Dir => stack.push(e.path),
                    EntryKind::File => {
                        let data = fs.open(&e.path)?;
                        let mut pos = 0u64;
                        while pos < data.len() {
                            let n = data.read_at(pos, &mut buf)?;
                            if n == 0 {
                                break;
                            }
                            h.update(&buf[..n]);
                            pos += n as u64;
                        }
                        files += 1;
                        bytes += pos;
                    }
                    _ => {}
                }
            }
        }
    }
    println!(
        "{files} files, {bytes} bytes, sha256 {}",
        hex::encode(h.finalize())
    );
    Ok(())
}
