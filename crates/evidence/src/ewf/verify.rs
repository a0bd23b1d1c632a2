//! Whole-media verification: MD5, SHA-1 and SHA-256 of the media in one pass, compared with
//! the digests the image stores (the `ewfverify` equivalent).
//!
//! The media is cut into batches of about 256 KiB. There are two kinds of work: decoding a batch
//! (reading and inflating its chunks; batches decode independently) and feeding the next batch
//! to one of the three digests (each digest is one sequential chain that must see the batches in
//! media order). A fixed set of workers, one per CPU, shares that work through one small
//! scheduler: a worker hashes whenever a digest is free and its next batch is decoded (MD5
//! first: it is the slowest chain and sets the pace), and otherwise decodes the next batch. No
//! thread ever waits while work it could do exists, and there are never more threads than
//! cores, so nothing is lost to time-slicing between a decoder pool and hashing threads (an
//! earlier design with three hashing threads beside a rayon pool left a tenth of the machine
//! idle and spent it in 10,000 context switches). Batches wait for the slowest digest within a
//! bounded budget of buffers, so memory stays within about 16 MiB.
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

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use md5::Md5;
use serde::{Deserialize, Serialize};
use sha1::Sha1;
use sha2::{Digest, Sha256};

use super::{EwfImage, Scratch};

/// Bytes of media decoded per batch (at least one chunk). 128 KiB to 2 MiB measured alike
/// (within 3 %) on a 1 GiB image; a smaller batch stays in the cache of the core that hashes it.
const BATCH_BYTES: usize = 256 << 10;
/// Memory for batch buffers in circulation (at least two buffers).
const BUFFER_BUDGET: usize = 16 << 20;
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
    /// Computed digests, lower-case hex; SHA-1 and SHA-256 are empty when the verification was
    /// asked not to compute them ([`DigestSet`]).
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

/// The three digests, each a chain fed the batches in media order. The order is the
/// scheduler's priority: the slowest chain first.
const CHAINS: usize = 3;

enum Chain {
    Md5(Md5),
    Sha256(Sha256),
    Sha1(Sha1),
}

impl Chain {
    fn update(&mut self, data: &[u8]) {
        match self {
            Chain::Md5(d) => d.update(data),
            Chain::Sha256(d) => d.update(data),
            Chain::Sha1(d) => d.update(data),
        }
    }

    fn hex(self) -> String {
        match self {
            Chain::Md5(d) => hex::encode(d.finalize()),
            Chain::Sha256(d) => hex::encode(d.finalize()),
            Chain::Sha1(d) => hex::encode(d.finalize()),
        }
    }
}

/// A decoded batch waiting for the chains that have not hashed it yet.
struct Slot {
    data: Arc<Vec<u8>>,
    /// Chains still to hash it.
    pending: usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the workers share, under one lock.
struct Shared {
    /// Next batch to decode.
    next_decode: u64,
    /// Batches decoded or being decoded whose buffer is not free again.
    in_flight: usize,
    /// Decoded batches from the oldest one some chain still needs: `window[i]` is batch
    /// `base + i`, `None` while it is being decoded.
    base: u64,
    window: VecDeque<Option<Slot>>,
    /// Next batch each chain hashes, and whether a worker is hashing for it right now.
    position: [u64; CHAINS],
    busy: [bool; CHAINS],
    free: Vec<Vec<u8>>,
    faults: Vec<(u64, crate::Error)>,
}

/// One unit of work a worker took under the lock.
enum Work {
    Hash(usize, Arc<Vec<u8>>),
    Decode(u64, Vec<u8>),
}

/// Which digests a verification computes besides MD5 (always: every EWF writer stores it, and
/// it is the one `ewfverify` computes by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DigestSet {
    pub sha1: bool,
    pub sha256: bool,
}

impl DigestSet {
    /// MD5, SHA-1 and SHA-256 (intake records all three).
    pub const ALL: DigestSet = DigestSet {
        sha1: true,
        sha256: true,
    };

    /// What checking the image needs: MD5, SHA-1 when the image stores one, and SHA-256 only
    /// when asked (no EWF version 1 image stores it).
    pub fn stored(image: &EwfImage, sha256: bool) -> DigestSet {
        DigestSet {
            sha1: image.metadata().stored_sha1.is_some(),
            sha256,
        }
    }
}

/// [`verify_media_with`] computing MD5, SHA-1 and SHA-256.
pub fn verify_media(
    image: &EwfImage,
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> MediaVerification {
    verify_media_with(image, threads, DigestSet::ALL, progress)
}

/// Reads the whole media of `image` once, computing MD5 and the digests `set` asks for, and
/// compares them with the stored digests. `threads` workers share the decoding and hashing (0: one per CPU);
/// the calling thread is one of them. `progress` is called, on the calling thread, with the
/// number of media bytes all three digests have taken in so far. See the module documentation
/// for how bad chunks are treated.
pub fn verify_media_with(
    image: &EwfImage,
    threads: usize,
    set: DigestSet,
    progress: &mut dyn FnMut(u64),
) -> MediaVerification {
    let cs = usize::try_from(image.chunk_size)
        .unwrap_or(usize::MAX)
        .max(1);
    let batch_chunks = (BATCH_BYTES / cs).max(1) as u64;
    let max_buffers = (BUFFER_BUDGET / (batch_chunks as usize).saturating_mul(cs)).clamp(2, 64);
    let mapped = image.readable_chunks();
    let batches = mapped.div_ceil(batch_chunks);
    let workers = match threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    // Media bytes of batch `k`.
    let batch_range = |k: u64| {
        let first = k * batch_chunks;
        let count = (mapped - first).min(batch_chunks);
        let start = first.saturating_mul(image.chunk_size);
        let end = (first + count)
            .saturating_mul(image.chunk_size)
            .min(image.media_size);
        (first, usize::try_from(end - start).unwrap_or(0))
    };

    // A chain not asked for starts through every batch, so it never takes one.
    let wanted = [true, set.sha256, set.sha1];
    let active = wanted.iter().filter(|w| **w).count();
    let shared = Mutex::new(Shared {
        next_decode: 0,
        in_flight: 0,
        base: 0,
        window: VecDeque::new(),
        position: wanted.map(|w| if w { 0 } else { batches }),
        busy: [false; CHAINS],
        free: Vec::new(),
        faults: Vec::new(),
    });
    let chains = [
        Mutex::new(Some(Chain::Md5(Md5::new()))),
        Mutex::new(set.sha256.then(|| Chain::Sha256(Sha256::new()))),
        Mutex::new(set.sha1.then(|| Chain::Sha1(Sha1::new()))),
    ];
    let wake = Condvar::new();

    // Media bytes every chain has hashed once `done` batches are through all of them.
    let bytes_through = |done: u64| {
        done.saturating_mul(batch_chunks)
            .min(mapped)
            .saturating_mul(image.chunk_size)
            .min(image.media_size)
    };

    // The worker loop, run by every worker until everything is hashed. `report` is called
    // (without the lock) after each unit of work with the batches all chains are through.
    let work = |report: &mut dyn FnMut(u64)| {
        let mut scratch = Scratch::new();
        let mut st = lock(&shared);
        loop {
            if st.position.iter().all(|&p| p == batches) {
                wake.notify_all();
                return;
            }
            // Hash first (the slowest free chain whose next batch is decoded), else decode.
            let ready = (0..CHAINS).find_map(|c| {
                let i = usize::try_from(st.position[c] - st.base).ok()?;
                match st.window.get(i) {
                    Some(Some(slot)) if !st.busy[c] => Some((c, slot.data.clone())),
                    _ => None,
                }
            });
            let job = if let Some((c, data)) = ready {
                st.busy[c] = true;
                Some(Work::Hash(c, data))
            } else if st.next_decode < batches && st.in_flight < max_buffers {
                let k = st.next_decode;
                st.next_decode += 1;
                st.in_flight += 1;
                st.window.push_back(None);
                let buf = st.free.pop().unwrap_or_default();
                Some(Work::Decode(k, buf))
            } else {
                None
            };
            let Some(job) = job else {
                st = wake.wait(st).unwrap_or_else(PoisonError::into_inner);
                continue;
            };
            drop(st);
            match job {
                Work::Hash(c, data) => {
                    {
                        let mut chain = lock(&chains[c]);
                        if let Some(chain) = chain.as_mut() {
                            chain.update(&data);
                        }
                    }
                    drop(data);
                    st = lock(&shared);
                    let i = (st.position[c] - st.base) as usize;
                    st.busy[c] = false;
                    st.position[c] += 1;
                    if let Some(Some(slot)) = st.window.get_mut(i) {
                        slot.pending -= 1;
                    }
                    // Recycle the buffers every chain is done with.
                    while let Some(Some(slot)) = st.window.front() {
                        if slot.pending > 0 {
                            break;
                        }
                        if let Some(Some(slot)) = st.window.pop_front() {
                            st.base += 1;
                            st.in_flight -= 1;
                            if let Ok(buf) = Arc::try_unwrap(slot.data) {
                                st.free.push(buf);
                            }
                        }
                    }
                }
                Work::Decode(k, mut buf) => {
                    let (first, bytes) = batch_range(k);
                    // Every byte is overwritten by the decoder (or zero-filled for a bad chunk).
                    buf.resize(bytes, 0);
                    let faults = image.decode_chunks(first, &mut buf, &mut scratch);
                    st = lock(&shared);
                    st.faults.extend(faults);
                    let i = (k - st.base) as usize;
                    st.window[i] = Some(Slot {
                        data: Arc::new(buf),
                        pending: active,
                    });
                }
            }
            wake.notify_all();
            let done = st.position.iter().copied().min().unwrap_or(0);
            drop(st);
            report(done);
            st = lock(&shared);
        }
    };

    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(|| work(&mut |_| {}));
        }
        // This thread works too, and is the one that reports progress.
        let mut reported = 0;
        work(&mut |done| {
            if done > reported {
                reported = done;
                progress(bytes_through(done));
            }
        });
        // Another worker may have finished the last batch.
        if reported < batches {
            progress(bytes_through(batches));
        }
    });
    let hashed = bytes_through(batches);
    let [md5, sha256, sha1] = chains.map(|c| {
        c.into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .map_or_else(String::new, Chain::hex)
    });
    let mut faults = shared
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .faults;
    faults.sort_by_key(|(c, _)| *c);
    let mut bad: Vec<BadChunk> = Vec::new();
    let mut bad_count = 0u64;
    for (chunk, err) in &faults {
        bad_count += 1;
        if bad.len() < MAX_LISTED {
            bad.push(BadChunk {
                chunk: *chunk,
                media_offset: chunk.saturating_mul(image.chunk_size),
                length: image.chunk_len(*chunk) as u64,
                detail: err.to_string(),
                hashed_as_zeros: true,
            });
        }
    }

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
        // Not computed (DigestSet::stored computes every stored digest).
        Some(_) if computed.is_empty() => HashCheck::Absent,
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
