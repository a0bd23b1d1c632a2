//! Whole-media verification: MD5, SHA-1 and SHA-256 of the media in one pass, compared with
//! the digests the image stores (the `ewfverify` equivalent).
//!
//! Chunks decompress in parallel, in batches of about 1 MiB decoded straight into one buffer by a
//! rayon pool; each finished batch goes, in media order, to three hashing threads (MD5, SHA-1,
//! SHA-256), so hashing overlaps the decoding of the next batch and the three digests run side by
//! side. MD5 cannot be split, so its thread sets the pace; the other work fills the remaining
//! cores. A bounded set of batch buffers circulates (a buffer returns to the decoder once the
//! three hashers are done with it), so memory stays within about 12 MiB (two chunks at least).
//!
//! Bad data does not stop verification:
//! - a chunk whose data is present but fails verification (zlib error, Adler-32 mismatch, wrong
//!   length, unreadable table entry, I/O error) is listed in [`MediaVerification::bad_chunks`]
//!   and **hashed as zeros**, as libewf does when it zero-fills unreadable chunks — the digests
//!   then equal those of the media with that chunk zeroed;
//! - chunks that no table maps (a missing or truncated segment file, a set damaged before them)
//!   are always a tail of the media; they are listed as one range and **not hashed**: the digests
//!   cover the readable prefix only ([`MediaVerification::bytes_hashed`]).
//!
//! In both cases the stored digests are reported as [`HashCheck::Mismatch`] (when present),
//! whatever the computed values.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use md5::Md5;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha1::Sha1;
use sha2::{Digest, Sha256};

use super::{EwfImage, GROUP_CHUNKS, Scratch};

/// Bytes of media decoded per batch (at least one chunk).
const BATCH_BYTES: usize = 1 << 20;
/// Memory for batch buffers in circulation (at least two buffers).
const BUFFER_BUDGET: usize = 12 << 20;
/// Bad chunks listed at most (all are counted).
const MAX_LISTED: usize = 10_000;

/// Comparison of a computed digest with the one the image stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HashCheck {
    /// The image stores this digest, the media was read whole and reproduces it.
    Verified,
    /// The image stores this digest, and the media does not reproduce it or could not be read
    /// whole.
    Mismatch,
    /// The image stores no such digest.
    Absent,
}

/// A chunk (or a range of chunks) that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BadChunk {
    /// Number of the (first) chunk.
    pub chunk: u64,
    /// Media offset of the chunk.
    pub media_offset: u64,
    /// Media bytes concerned: one chunk, or the whole unmapped tail.
    pub length: u64,
    /// What failed.
    pub detail: String,
    /// Whether these bytes were hashed as zeros (present but corrupt) or left out of the
    /// digests (not available at all).
    pub hashed_as_zeros: bool,
}

/// Result of [`verify_media`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MediaVerification {
    /// Media size declared by the image.
    pub media_size: u64,
    /// Bytes that went into the digests (less than `media_size` when a tail is unreadable).
    pub bytes_hashed: u64,
    /// Computed digests, lower-case hex.
    pub md5: String,
    pub sha1: String,
    pub sha256: String,
    /// Digests stored in the image, lower-case hex.
    pub stored_md5: Option<String>,
    pub stored_sha1: Option<String>,
    pub md5_check: HashCheck,
    pub sha1_check: HashCheck,
    /// Bad chunks in media order (the first 10 000).
    pub bad_chunks: Vec<BadChunk>,
    /// How many chunks could not be read (all of them, listed or not).
    pub bad_chunk_count: u64,
    /// Structural problems of the image found at open ([`super::EwfMetadata::warnings`]): a
    /// stored digest whose section was damaged shows up here, its check then being `Absent`.
    pub warnings: Vec<String>,
}

impl MediaVerification {
    /// Whether the media was read whole and reproduces every digest the image stores (and it
    /// stores at least one).
    pub fn is_verified(&self) -> bool {
        let checks = [self.md5_check, self.sha1_check];
        self.bad_chunk_count == 0
            && checks.contains(&HashCheck::Verified)
            && !checks.contains(&HashCheck::Mismatch)
    }
}

/// A decoded batch on its way through the hashers; its buffer goes back to the decoder when
/// the last hasher drops it.
struct Batch {
    data: Vec<u8>,
    home: mpsc::Sender<Vec<u8>>,
}

impl Drop for Batch {
    fn drop(&mut self) {
        // The decoder may already be gone (end of the run): then the buffer is simply freed.
        let _ = self.home.send(std::mem::take(&mut self.data));
    }
}

fn hasher_thread<D: Digest>(rx: mpsc::Receiver<Arc<Batch>>) -> String {
    let mut d = D::new();
    for batch in rx {
        d.update(&batch.data);
    }
    hex::encode(d.finalize())
}

/// Reads the whole media of `image` once, computing MD5, SHA-1 and SHA-256, and compares them
/// with the stored digests. `threads` decompression threads are used (0: one per CPU), plus
/// three hashing threads. `progress` is called with the number of media bytes processed so far.
/// See the module documentation for how bad chunks are treated.
pub fn verify_media(
    image: &EwfImage,
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> MediaVerification {
    let cs = usize::try_from(image.chunk_size)
        .unwrap_or(usize::MAX)
        .max(1);
    let batch_chunks = (BATCH_BYTES / cs).max(1);
    let buffers = (BUFFER_BUDGET / batch_chunks.saturating_mul(cs)).clamp(2, 16);
    let group_bytes = cs.saturating_mul(GROUP_CHUNKS);
    let mapped = image.readable_chunks();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ewf-inflate-{i}"))
        .build()
        .ok();

    let mut bad: Vec<BadChunk> = Vec::new();
    let mut bad_count = 0u64;
    let mut note = |chunk: u64, err: &crate::Error, bad: &mut Vec<BadChunk>| {
        bad_count += 1;
        if bad.len() < MAX_LISTED {
            bad.push(BadChunk {
                chunk,
                media_offset: chunk.saturating_mul(image.chunk_size),
                length: image.chunk_len(chunk) as u64,
                detail: err.to_string(),
                hashed_as_zeros: true,
            });
        }
    };

    let mut hashed = 0u64;
    let (md5, sha1, sha256) = std::thread::scope(|scope| {
        let (md5_tx, md5_rx) = mpsc::sync_channel::<Arc<Batch>>(buffers);
        let (sha1_tx, sha1_rx) = mpsc::sync_channel::<Arc<Batch>>(buffers);
        let (sha256_tx, sha256_rx) = mpsc::sync_channel::<Arc<Batch>>(buffers);
        let md5_thread = scope.spawn(move || hasher_thread::<Md5>(md5_rx));
        let sha1_thread = scope.spawn(move || hasher_thread::<Sha1>(sha1_rx));
        let sha256_thread = scope.spawn(move || hasher_thread::<Sha256>(sha256_rx));
        let (home, free) = mpsc::channel::<Vec<u8>>();
        let mut allocated = 0usize;

        let mut start = 0u64;
        while start < mapped {
            let count = (mapped - start).min(batch_chunks as u64);
            let end_offset = (start + count)
                .saturating_mul(image.chunk_size)
                .min(image.media_size);
            let bytes = usize::try_from(end_offset - start * image.chunk_size).unwrap_or(0);
            let mut buf = match free.try_recv() {
                Ok(b) => b,
                Err(_) if allocated < buffers => {
                    allocated += 1;
                    Vec::new()
                }
                Err(_) => match free.recv() {
                    Ok(b) => b,
                    Err(_) => break,
                },
            };
            // Every byte is overwritten by the decoder (or zero-filled for a bad chunk).
            buf.resize(bytes, 0);
            let faults = Mutex::new(Vec::new());
            let decode = |buf: &mut Vec<u8>| {
                buf.par_chunks_mut(group_bytes).enumerate().for_each_init(
                    Scratch::new,
                    |scratch, (g, out)| {
                        let first = start + (g * GROUP_CHUNKS) as u64;
                        let f = image.decode_chunks(first, out, scratch);
                        if !f.is_empty() {
                            faults
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .extend(f);
                        }
                    },
                );
            };
            match &pool {
                Some(pool) => pool.install(|| decode(&mut buf)),
                None => {
                    let mut scratch = Scratch::new();
                    let f = image.decode_chunks(start, &mut buf, &mut scratch);
                    faults
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .extend(f);
                }
            }
            let mut faults = faults
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            faults.sort_by_key(|(c, _)| *c);
            for (chunk, err) in &faults {
                note(*chunk, err, &mut bad);
            }
            let batch = Arc::new(Batch {
                data: buf,
                home: home.clone(),
            });
            let sent = md5_tx.send(batch.clone()).is_ok()
                && sha1_tx.send(batch.clone()).is_ok()
                && sha256_tx.send(batch).is_ok();
            if !sent {
                break;
            }
            hashed += bytes as u64;
            progress(hashed);
            start += count;
        }
        drop((md5_tx, sha1_tx, sha256_tx));
        let join = |h: std::thread::ScopedJoinHandle<'_, String>| {
            h.join().unwrap_or_else(|_| "hasher thread panicked".into())
        };
        (join(md5_thread), join(sha1_thread), join(sha256_thread))
    });

    if mapped < image.chunk_count {
        let err = image.gap_error(mapped);
        bad_count += image.chunk_count - mapped;
        if bad.len() < MAX_LISTED {
            let offset = mapped.saturating_mul(image.chunk_size);
            bad.push(BadChunk {
                chunk: mapped,
                media_offset: offset,
                length: image.media_size.saturating_sub(offset),
                detail: format!(
                    "chunks {mapped} to {} cannot be read: {err}",
                    image.chunk_count - 1
                ),
                hashed_as_zeros: false,
            });
        }
    }

    let meta = image.metadata();
    let check = |stored: &Option<String>, computed: &str| match stored {
        None => HashCheck::Absent,
        Some(s) if bad_count == 0 && s == computed => HashCheck::Verified,
        Some(_) => HashCheck::Mismatch,
    };
    MediaVerification {
        media_size: image.media_size,
        bytes_hashed: hashed,
        md5_check: check(&meta.stored_md5, &md5),
        sha1_check: check(&meta.stored_sha1, &sha1),
        md5,
        sha1,
        sha256,
        stored_md5: meta.stored_md5.clone(),
        stored_sha1: meta.stored_sha1.clone(),
        bad_chunks: bad,
        bad_chunk_count: bad_count,
        warnings: meta.warnings.clone(),
    }
}
