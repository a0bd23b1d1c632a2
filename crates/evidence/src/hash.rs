//! Streaming SHA-256 + MD5 in one pass.
//!
//! Intake hashes every evidence file with both digests (MD5 because EWF images store it and
//! examiners compare against it). MD5 is the slower of the two, so the file is read once, on one
//! thread that also computes SHA-256, while a second thread computes MD5 over the same buffers.
//! Buffers of 128 KiB circulate between the two threads (read → SHA-256 → MD5 → back), so
//! nothing is copied and memory stays bounded. Measured on the project machine, 64–128 KiB reads
//! beat larger ones (kernel time).

use std::io::Read;
use std::path::Path;
use std::sync::mpsc;

use md5::Md5;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{Error, Result};

/// Size of one read.
pub const BUF_SIZE: usize = 128 * 1024;
/// Buffers in flight between the reader and the MD5 thread.
const BUFFERS: usize = 8;

/// The digests and size of one byte stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Digests {
    /// Bytes hashed.
    pub size: u64,
    /// Lower-case hex SHA-256.
    pub sha256: String,
    /// Lower-case hex MD5.
    pub md5: String,
}

/// Hashes a file, opened read-only. `progress` is called with the bytes hashed so far.
pub fn hash_file(path: &Path, progress: &mut dyn FnMut(u64)) -> Result<Digests> {
    let file = crate::open::open_read_only(path)?;
    hash_reader(file, progress).map_err(|e| Error::io(path, e))
}

/// Hashes everything a reader yields with SHA-256 and MD5 in parallel. A stream that fits in
/// one buffer (most files of a folder) is hashed on the calling thread: starting the MD5
/// thread would cost more than hashing it.
pub fn hash_reader<R: Read>(
    mut reader: R,
    progress: &mut dyn FnMut(u64),
) -> std::io::Result<Digests> {
    let mut first = vec![0u8; BUF_SIZE];
    let len = read_full(&mut reader, &mut first)?;
    if len < BUF_SIZE {
        let data = &first[..len];
        if len > 0 {
            progress(len as u64);
        }
        return Ok(Digests {
            size: len as u64,
            sha256: hex::encode(Sha256::digest(data)),
            md5: hex::encode(Md5::digest(data)),
        });
    }
    let mut first = Some((first, len));
    let (to_md5, md5_rx) = mpsc::sync_channel::<(Vec<u8>, usize)>(BUFFERS);
    let (back, free) = mpsc::sync_channel::<Vec<u8>>(BUFFERS);
    std::thread::scope(|scope| {
        let md5_thread = scope.spawn(move || {
            let mut md5 = Md5::new();
            for (buf, len) in md5_rx {
                md5.update(&buf[..len]);
                // The reader may have finished and dropped its receiver: then the buffer is freed.
                let _ = back.send(buf);
            }
            md5.finalize()
        });

        let mut sha = Sha256::new();
        let mut size = 0u64;
        let mut allocated = 0usize;
        let result = (|| {
            loop {
                let (buf, len) = if let Some(read) = first.take() {
                    allocated += 1;
                    read
                } else {
                    let mut buf = if allocated < BUFFERS {
                        allocated += 1;
                        vec![0u8; BUF_SIZE]
                    } else {
                        match free.recv() {
                            Ok(buf) => buf,
                            Err(_) => return Err(std::io::Error::other("md5 thread stopped")),
                        }
                    };
                    let len = read_full(&mut reader, &mut buf)?;
                    (buf, len)
                };
                if len == 0 {
                    return Ok(());
                }
                sha.update(&buf[..len]);
                size += len as u64;
                progress(size);
                if to_md5.send((buf, len)).is_err() {
                    return Err(std::io::Error::other("md5 thread stopped"));
                }
                if len < BUF_SIZE {
                    return Ok(());
                }
            }
        })();
        drop(to_md5);
        let md5 = md5_thread
            .join()
            .map_err(|_| std::io::Error::other("md5 thread panicked"))?;
        result?;
        Ok(Digests {
            size,
            sha256: hex::encode(sha.finalize()),
            md5: hex::encode(md5),
        })
    })
}

/// Fills `buf` as far as the reader allows; returns fewer bytes only at the end of the stream.
fn read_full<R: Read>(reader: &mut R, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &[u8], sha256: &str, md5: &str) {
        let d = hash_reader(input, &mut |_| {}).unwrap();
        assert_eq!(d.size, input.len() as u64);
        assert_eq!(d.sha256, sha256);
        assert_eq!(d.md5, md5);
    }

    #[test]
    fn known_vectors() {
        // FIPS 180-2 and RFC 1321 test vectors.
        check(
            b"",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "d41d8cd98f00b204e9800998ecf8427e",
        );
        check(
            b"abc",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "900150983cd24fb0d6963f7d28e17f72",
        );
    }

    #[test]
    fn buffer_boundaries_do_not_change_the_digest() {
        // A reader that returns odd-sized pieces, over more than BUFFERS * BUF_SIZE bytes.
        struct Dribble(Vec<u8>, usize);
        impl Read for Dribble {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = out.len().min(7919).min(self.0.len() - self.1);
                out[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 += n;
                Ok(n)
            }
        }
        let data: Vec<u8> = (0..(BUF_SIZE * BUFFERS * 2 + 12345))
            .map(|i| (i * 31 % 251) as u8)
            .collect();
        let whole = hash_reader(&data[..], &mut |_| {}).unwrap();
        let mut seen = 0;
        let pieces = hash_reader(Dribble(data.clone(), 0), &mut |n| seen = n).unwrap();
        assert_eq!(whole, pieces);
        assert_eq!(seen, data.len() as u64);
        assert_eq!(whole.sha256, hex::encode(Sha256::digest(&data)));
        assert_eq!(whole.md5, hex::encode(Md5::digest(&data)));
    }
}
