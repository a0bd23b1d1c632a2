//! Android sparse images (`simg`, magic 0xED26FF3A: what `img2simg` writes and `fastboot`
//! flashes) as a [`ByteSource`] of the image they expand to, read in place.
//!
//! # Why a hand-written reader
//!
//! The format is a 28-byte file header and a list of chunks (AOSP `libsparse/sparse_format.h`):
//! raw (`0xCAC1`, blocks stored), fill (`0xCAC2`, one 32-bit value repeated), don't care
//! (`0xCAC3`, nothing stored: reads as zeros, as `simg2img` writes it) and CRC32 (`0xCAC4`,
//! the CRC-32 of all output up to that point). The Rust crates for it (`android-sparse`,
//! `android-sparse-image`) convert whole files through `Read`/`Write`; none serves positioned
//! reads over another layer (a sparse image inside an archive or a partition) with typed errors
//! naming offsets, so the chunk list is read here into a table and every read is a lookup in it.
//!
//! # CRC32 chunks: checked at open, a mismatch is an error
//!
//! A CRC32 chunk covers every output byte before it, so a mismatch says that some byte of that
//! prefix is altered without saying which. Serving those bytes would hand altered evidence on
//! unmarked (the EWF layer names a bad chunk rather than serve it), so [`SparseImage::open`]
//! verifies every CRC32 chunk in one pass over the bytes it covers and fails with
//! [`Error::Corrupt`] naming the chunk's offset and both values. Images without CRC32 chunks
//! (the usual output of `img2simg`) cost nothing more to open than their chunk headers.
//! [`SparseImage::crc_checked`] says how many were verified. The header's `image_checksum` is
//! not written by AOSP's tools (always 0) and is ignored.
//!
//! # Untrusted input
//!
//! Header and chunk sizes are checked against the format's rules; each chunk's stored size
//! must match its type and block count, and its data must lie inside the file; the chunks must
//! expand to exactly the header's block count. The chunk table grows with the chunks actually
//! read (at most one per 12 bytes of file, and at most [`MAX_CHUNKS`]), never with a count the
//! header claims.

use serde::Serialize;

use crate::bytes::{ByteSource, Bytes};
use crate::endian::{le16, le32};
use crate::{Error, Result};

const LAYER: &str = "android_sparse";
pub const MAGIC: u32 = 0xED26_FF3A;
const CHUNK_RAW: u16 = 0xCAC1;
const CHUNK_FILL: u16 = 0xCAC2;
const CHUNK_DONT_CARE: u16 = 0xCAC3;
const CHUNK_CRC32: u16 = 0xCAC4;
/// Most chunks accepted (a table of about 100 MiB).
pub const MAX_CHUNKS: u64 = 4 << 20;
/// Largest block size accepted (AOSP writes 4096).
const MAX_BLOCK_SIZE: u32 = 64 << 20;
const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// What the file header says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SparseHeader {
    pub major: u16,
    pub minor: u16,
    pub file_header_size: u16,
    pub chunk_header_size: u16,
    pub block_size: u32,
    pub total_blocks: u32,
    pub total_chunks: u32,
}

impl SparseHeader {
    /// Bytes of the expanded image.
    pub fn expanded_size(&self) -> u64 {
        u64::from(self.block_size) * u64::from(self.total_blocks)
    }
}

/// Whether `head` starts with the sparse magic; the header it holds, unchecked.
pub fn sniff(head: &[u8]) -> Option<SparseHeader> {
    (le32(head, 0)? == MAGIC).then(|| SparseHeader {
        major: le16(head, 4).unwrap_or(0),
        minor: le16(head, 6).unwrap_or(0),
        file_header_size: le16(head, 8).unwrap_or(0),
        chunk_header_size: le16(head, 10).unwrap_or(0),
        block_size: le32(head, 12).unwrap_or(0),
        total_blocks: le32(head, 16).unwrap_or(0),
        total_chunks: le32(head, 20).unwrap_or(0),
    })
}

/// Why a header cannot be read, with the offset of the offending field; `None` when it can.
pub fn header_problem(h: &SparseHeader) -> Option<(u64, String)> {
    if h.major != 1 {
        return Some((4, format!("major version {} (1 expected)", h.major)));
    }
    if h.file_header_size < 28 {
        return Some((
            8,
            format!("file header of {} bytes (28 expected)", h.file_header_size),
        ));
    }
    if h.chunk_header_size < 12 {
        return Some((
            10,
            format!(
                "chunk header of {} bytes (12 expected)",
                h.chunk_header_size
            ),
        ));
    }
    if h.block_size == 0 || !h.block_size.is_multiple_of(4) || h.block_size > MAX_BLOCK_SIZE {
        return Some((
            12,
            format!(
                "block size {} (a non-zero multiple of 4 up to 64 MiB expected)",
                h.block_size
            ),
        ));
    }
    None
}

/// What one chunk expands to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    /// Stored at this offset of the file.
    Raw(u64),
    /// This 32-bit value (little-endian) repeated.
    Fill([u8; 4]),
    /// Nothing stored: zeros.
    DontCare,
}

#[derive(Debug, Clone, Copy)]
struct Chunk {
    /// First output byte.
    start: u64,
    /// Output bytes.
    len: u64,
    content: Content,
}

/// An Android sparse image read through the layer below it.
pub struct SparseImage {
    file: Bytes,
    header: SparseHeader,
    chunks: Vec<Chunk>,
    crc_checked: usize,
}

fn corrupt(offset: u64, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset,
        detail: detail.into(),
    }
}

impl SparseImage {
    /// Reads the header and the chunk list of the sparse image `file` holds, and verifies its
    /// CRC32 chunks.
    pub fn open(file: Bytes) -> Result<SparseImage> {
        let file_len = file.len();
        let mut head = [0u8; 28];
        if file.read_at(0, &mut head)? < 28 {
            return Err(Error::Truncated {
                layer: LAYER.to_string(),
                offset: 0,
                wanted: 28,
            });
        }
        let header = sniff(&head).ok_or_else(|| corrupt(0, "no sparse magic 0xED26FF3A"))?;
        if let Some((at, why)) = header_problem(&header) {
            return Err(Error::Unsupported {
                layer: LAYER.to_string(),
                detail: format!("header field at offset {at}: {why}"),
            });
        }
        let block = u64::from(header.block_size);
        let chunk_header = u64::from(header.chunk_header_size);
        let declared = u64::from(header.total_chunks);
        if declared > MAX_CHUNKS {
            return Err(Error::TooLarge {
                layer: LAYER.to_string(),
                offset: 20,
                what: "chunk list".to_string(),
                claimed: declared,
                limit: MAX_CHUNKS,
            });
        }
        let room = file_len / chunk_header;
        let mut chunks = Vec::with_capacity(usize::try_from(declared.min(room)).unwrap_or(0));
        let mut crcs = Vec::new();
        let mut at = u64::from(header.file_header_size);
        let mut out = 0u64;
        let expanded = header.expanded_size();
        for index in 0..declared {
            let mut h = [0u8; 12];
            if at.saturating_add(chunk_header) > file_len {
                return Err(Error::Truncated {
                    layer: LAYER.to_string(),
                    offset: at,
                    wanted: chunk_header,
                });
            }
            file.read_exact_at(at, &mut h)?;
            let kind = le16(&h, 0).unwrap_or(0);
            let blocks = u64::from(le32(&h, 4).unwrap_or(0));
            let total = u64::from(le32(&h, 8).unwrap_or(0));
            let data = at + chunk_header;
            let len = blocks * block;
            let expect = |stored: u64| -> Result<()> {
                if total != chunk_header + stored {
                    return Err(corrupt(
                        at + 8,
                        format!(
                            "chunk {index} (type {kind:#06x}, {blocks} blocks) claims {total} bytes, {} expected",
                            chunk_header + stored
                        ),
                    ));
                }
                if data.saturating_add(stored) > file_len {
                    return Err(Error::Truncated {
                        layer: LAYER.to_string(),
                        offset: data,
                        wanted: stored,
                    });
                }
                Ok(())
            };
            let content = match kind {
                CHUNK_RAW => {
                    expect(len)?;
                    Some(Content::Raw(data))
                }
                CHUNK_FILL => {
                    expect(4)?;
                    let mut v = [0u8; 4];
                    file.read_exact_at(data, &mut v)?;
                    Some(Content::Fill(v))
                }
                CHUNK_DONT_CARE => {
                    expect(0)?;
                    Some(Content::DontCare)
                }
                CHUNK_CRC32 => {
                    expect(4)?;
                    let mut v = [0u8; 4];
                    file.read_exact_at(data, &mut v)?;
                    crcs.push((at, out, u32::from_le_bytes(v)));
                    None
                }
                other => {
                    return Err(corrupt(
                        at,
                        format!(
                            "chunk {index}: unknown chunk type {other:#06x} (0xcac1 to 0xcac4 exist)"
                        ),
                    ));
                }
            };
            if let Some(content) = content {
                if out.saturating_add(len) > expanded {
                    return Err(corrupt(
                        at + 4,
                        format!(
                            "chunk {index} ends past the {} blocks the header declares",
                            header.total_blocks
                        ),
                    ));
                }
                if len > 0 {
                    chunks.push(Chunk {
                        start: out,
                        len,
                        content,
                    });
                }
                out += len;
            }
            at = data + (total - chunk_header);
        }
        if out != expanded {
            return Err(corrupt(
                16,
                format!(
                    "the chunks expand to {} blocks, the header declares {}",
                    out / block,
                    header.total_blocks
                ),
            ));
        }
        let mut image = SparseImage {
            file,
            header,
            chunks,
            crc_checked: 0,
        };
        image.verify_crcs(&crcs)?;
        Ok(image)
    }

    /// Verifies each CRC32 chunk `(chunk offset, output bytes before it, stored value)` in one
    /// pass over the output.
    fn verify_crcs(&mut self, crcs: &[(u64, u64, u32)]) -> Result<()> {
        if crcs.is_empty() {
            return Ok(());
        }
        let mut digest = CRC.digest();
        let mut buf = vec![0u8; 1 << 20];
        let mut pos = 0u64;
        for &(at, covered, stored) in crcs {
            while pos < covered {
                let n = ((covered - pos).min(buf.len() as u64)) as usize;
                let piece = buf.get_mut(..n).unwrap_or(&mut []);
                self.read_exact_at(pos, piece)?;
                digest.update(piece);
                pos += n as u64;
            }
            let computed = digest.clone().finalize();
            if computed != stored {
                return Err(corrupt(
                    at + u64::from(self.header.chunk_header_size),
                    format!(
                        "CRC32 chunk holds {stored:#010x}, but the {covered} output bytes before it give {computed:#010x}: the image was altered"
                    ),
                ));
            }
            self.crc_checked += 1;
        }
        Ok(())
    }

    pub fn header(&self) -> &SparseHeader {
        &self.header
    }

    /// Chunks that expand to output (raw, fill, don't care).
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// CRC32 chunks verified at open.
    pub fn crc_checked(&self) -> usize {
        self.crc_checked
    }
}

impl ByteSource for SparseImage {
    fn len(&self) -> u64 {
        self.header.expanded_size()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        let size = self.len();
        if offset >= size {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(size - offset) as usize;
        let mut i = self.chunks.partition_point(|c| c.start + c.len <= offset);
        let mut done = 0usize;
        while done < want {
            let pos = offset + done as u64;
            let Some(c) = self.chunks.get(i) else {
                return Err(corrupt(pos, "no chunk maps this output offset"));
            };
            let within = pos - c.start;
            let n = ((c.len - within) as usize).min(want - done);
            let Some(out) = buf.get_mut(done..done + n) else {
                break;
            };
            match c.content {
                Content::Raw(at) => self.file.read_exact_at(at + within, out)?,
                Content::DontCare => out.fill(0),
                Content::Fill(v) => {
                    for (k, b) in out.iter_mut().enumerate() {
                        *b = v[((within as usize).wrapping_add(k)) % 4];
                    }
                }
            }
            done += n;
            i += 1;
        }
        Ok(want)
    }

    fn layer_name(&self) -> String {
        LAYER.to_string()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::bytes::Memory;

    fn header(blocks: u32, chunks: u32) -> Vec<u8> {
        let mut h = Vec::new();
        h.extend_from_slice(&MAGIC.to_le_bytes());
        h.extend_from_slice(&1u16.to_le_bytes());
        h.extend_from_slice(&0u16.to_le_bytes());
        h.extend_from_slice(&28u16.to_le_bytes());
        h.extend_from_slice(&12u16.to_le_bytes());
        h.extend_from_slice(&8u32.to_le_bytes());
        h.extend_from_slice(&blocks.to_le_bytes());
        h.extend_from_slice(&chunks.to_le_bytes());
        h.extend_from_slice(&0u32.to_le_bytes());
        h
    }

    fn chunk(kind: u16, blocks: u32, data: &[u8]) -> Vec<u8> {
        let mut c = Vec::new();
        c.extend_from_slice(&kind.to_le_bytes());
        c.extend_from_slice(&0u16.to_le_bytes());
        c.extend_from_slice(&blocks.to_le_bytes());
        c.extend_from_slice(&(12 + data.len() as u32).to_le_bytes());
        c.extend_from_slice(data);
        c
    }

    #[test]
    fn fill_values_keep_their_phase_across_unaligned_reads() {
        // 8-byte blocks: raw 1, fill 2 of 0x04030201, don't care 1.
        let mut b = header(4, 3);
        b.extend(chunk(CHUNK_RAW, 1, b"abcdefgh"));
        b.extend(chunk(CHUNK_FILL, 2, &0x0403_0201u32.to_le_bytes()));
        b.extend(chunk(CHUNK_DONT_CARE, 1, &[]));
        let s = SparseImage::open(Arc::new(Memory::new(b, "t"))).unwrap();
        assert_eq!(s.len(), 32);
        let mut buf = [9u8; 30];
        assert_eq!(s.read_at(5, &mut buf).unwrap(), 27);
        assert_eq!(&buf[..3], b"fgh");
        assert_eq!(
            &buf[3..19],
            &[1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]
        );
        assert_eq!(&buf[19..27], &[0; 8]);
        let mut two = [0u8; 2];
        s.read_exact_at(10, &mut two).unwrap();
        assert_eq!(two, [3, 4]);
    }

    #[test]
    fn a_chunk_claiming_the_wrong_size_is_corrupt_at_its_size_field() {
        let mut b = header(1, 1);
        let mut c = chunk(CHUNK_RAW, 1, b"abcdefgh");
        c[8] = 99;
        b.extend(c);
        let err = SparseImage::open(Arc::new(Memory::new(b, "t")))
            .err()
            .unwrap();
        assert!(matches!(err, Error::Corrupt { offset: 36, .. }), "{err}");
    }
}
