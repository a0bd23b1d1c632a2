//! gzip streams (RFC 1952), inflated into memory with a size limit.
//!
//! The member header and trailer are parsed here (ten fixed bytes, four optional fields, eight
//! trailer bytes) and the deflate data is inflated with `flate2` (zlib-rs): this keeps exact
//! control of the output size (never past the limit) and lets every error name the compressed
//! offset where the stream went wrong, which `flate2`'s buffered gzip readers hide. Several
//! members one after another (as `cat a.gz b.gz` makes) are one stream; zero bytes after the last
//! member (tape padding) are accepted; anything else after it is corrupt.

use std::sync::Arc;

use flate2::{Crc, Decompress, FlushDecompress, Status};

use crate::Error;
use crate::bytes::{ByteSource, Bytes, Memory};

/// Compressed input is read in chunks of this size.
const CHUNK: usize = 256 << 10;
/// Output grows by at most this much at a time (the final size is unknown in advance).
const GROW: usize = 4 << 20;
/// Longest file name or comment field accepted in a member header.
const MAX_FIELD: u64 = 64 << 10;

/// Inflates the gzip stream in `bytes` into memory. More than `limit` bytes of output give
/// [`Error::TooLarge`] (without producing them); a damaged or truncated stream gives
/// [`Error::Corrupt`] naming the compressed offset where it went wrong.
pub fn gunzip(bytes: Bytes, limit: u64) -> Result<Bytes, Error> {
    let layer = format!("gzip in {}", bytes.layer_name());
    let out = Inflate {
        src: bytes.as_ref(),
        layer: &layer,
        limit,
    }
    .run()?;
    Ok(Arc::new(Memory::new(out, format!("{layer} (inflated)"))))
}

struct Inflate<'a> {
    src: &'a dyn ByteSource,
    layer: &'a str,
    limit: u64,
}

impl Inflate<'_> {
    fn corrupt(&self, offset: u64, detail: impl Into<String>) -> Error {
        Error::Corrupt {
            layer: self.layer.to_string(),
            offset,
            detail: detail.into(),
        }
    }

    fn run(&self) -> Result<Vec<u8>, Error> {
        let len = self.src.len();
        let mut out = Vec::new();
        let mut pos = 0u64;
        let mut members = 0u32;
        let mut inflater = Decompress::new(false);
        loop {
            if pos >= len {
                break;
            }
            if members > 0 && self.rest_is_zero(pos)? {
                break;
            }
            let data_start = self.header(pos, members)?;
            let member_start = out.len();
            inflater.reset(false);
            let data_len = self.inflate(&mut inflater, data_start, &mut out)?;
            let trailer_at = data_start + data_len;
            let mut trailer = [0u8; 8];
            if self.src.read_at(trailer_at, &mut trailer)? < 8 {
                return Err(self.corrupt(trailer_at, "gzip member ends before its trailer"));
            }
            let [c0, c1, c2, c3, s0, s1, s2, s3] = trailer;
            let stored_crc = u32::from_le_bytes([c0, c1, c2, c3]);
            let stored_size = u32::from_le_bytes([s0, s1, s2, s3]);
            let member = out.get(member_start..).unwrap_or(&[]);
            let mut crc = Crc::new();
            crc.update(member);
            if crc.sum() != stored_crc {
                return Err(self.corrupt(
                    trailer_at,
                    format!(
                        "CRC-32 of member {} is {:08x}, its trailer records {stored_crc:08x}",
                        members + 1,
                        crc.sum()
                    ),
                ));
            }
            if member.len() as u32 != stored_size {
                return Err(self.corrupt(
                    trailer_at + 4,
                    format!(
                        "member {} inflates to {} bytes, its trailer records {stored_size} (mod 2^32)",
                        members + 1,
                        member.len()
                    ),
                ));
            }
            members += 1;
            pos = trailer_at + 8;
        }
        if members == 0 {
            return Err(self.corrupt(0, "empty: no gzip member"));
        }
        Ok(out)
    }

    fn rest_is_zero(&self, mut pos: u64) -> Result<bool, Error> {
        let mut buf = vec![0u8; CHUNK];
        while pos < self.src.len() {
            let n = self.src.read_at(pos, &mut buf)?;
            if n == 0 {
                break;
            }
            if buf.get(..n).is_some_and(|b| b.iter().any(|&x| x != 0)) {
                return Ok(false);
            }
            pos += n as u64;
        }
        Ok(true)
    }

    /// Parses a member header at `pos`; returns where its deflate data starts.
    fn header(&self, pos: u64, members: u32) -> Result<u64, Error> {
        let mut h = [0u8; 10];
        if self.src.read_at(pos, &mut h)? < 10 || h[0] != 0x1f || h[1] != 0x8b {
            return Err(self.corrupt(
                pos,
                if members == 0 {
                    "no gzip signature (1f 8b)".to_string()
                } else {
                    format!("data after gzip member {members} is neither a member nor zero padding")
                },
            ));
        }
        if h[2] != 8 {
            return Err(Error::Unsupported {
                layer: self.layer.to_string(),
                detail: format!("gzip compression method {} at offset {pos}", h[2]),
            });
        }
        let flags = h[3];
        if flags & 0xe0 != 0 {
            return Err(self.corrupt(
                pos + 3,
                format!("reserved gzip flag bits set ({flags:#04x})"),
            ));
        }
        let mut at = pos + 10;
        if flags & 4 != 0 {
            let mut x = [0u8; 2];
            if self.src.read_at(at, &mut x)? < 2 {
                return Err(self.corrupt(at, "gzip extra field cut short"));
            }
            at += 2 + u64::from(u16::from_le_bytes(x));
        }
        for bit in [8u8, 16] {
            if flags & bit != 0 {
                at = self.skip_zero_terminated(at)?;
            }
        }
        if flags & 2 != 0 {
            at += 2;
        }
        if at > self.src.len() {
            return Err(self.corrupt(pos, "gzip header runs past the end of the stream"));
        }
        Ok(at)
    }

    fn skip_zero_terminated(&self, start: u64) -> Result<u64, Error> {
        let mut buf = [0u8; 512];
        let mut at = start;
        while at - start < MAX_FIELD {
            let n = self.src.read_at(at, &mut buf)?;
            let Some(chunk) = buf.get(..n).filter(|c| !c.is_empty()) else {
                break;
            };
            if let Some(i) = memchr::memchr(0, chunk) {
                return Ok(at + i as u64 + 1);
            }
            at += n as u64;
        }
        Err(self.corrupt(start, "gzip name or comment field is not terminated"))
    }

    /// Inflates one member's deflate data into `out`; returns the compressed length.
    fn inflate(&self, d: &mut Decompress, start: u64, out: &mut Vec<u8>) -> Result<u64, Error> {
        let mut chunk = vec![0u8; CHUNK];
        let mut filled = 0usize;
        let mut chunk_at = 0usize;
        let mut read = start;
        let mut consumed = 0u64;
        loop {
            if chunk_at >= filled {
                filled = self.src.read_at(read, &mut chunk)?;
                read += filled as u64;
                chunk_at = 0;
            }
            let input = chunk.get(chunk_at..filled).unwrap_or(&[]);
            if out.len() == out.capacity() {
                // Grow geometrically, but never past the limit (plus the one byte that detects
                // an overflow).
                let room = self
                    .limit
                    .saturating_add(1)
                    .saturating_sub(out.len() as u64);
                let step = (GROW as u64).max(out.len() as u64 / 2).min(room);
                out.reserve_exact(usize::try_from(step).unwrap_or(GROW));
            }
            let (in_before, out_before) = (d.total_in(), out.len());
            let status = d
                .decompress_vec(input, out, FlushDecompress::None)
                .map_err(|e| {
                    self.corrupt(start + consumed, format!("invalid deflate data: {e}"))
                })?;
            let used = d.total_in().saturating_sub(in_before);
            consumed += used;
            chunk_at = chunk_at.saturating_add(usize::try_from(used).unwrap_or(usize::MAX));
            if out.len() as u64 > self.limit {
                return Err(Error::TooLarge {
                    layer: self.layer.to_string(),
                    offset: start + consumed,
                    what: "inflated gzip stream".to_string(),
                    claimed: out.len() as u64,
                    limit: self.limit,
                });
            }
            if status == Status::StreamEnd {
                return Ok(consumed);
            }
            if used == 0 && out.len() == out_before && out.len() < out.capacity() {
                return Err(self.corrupt(
                    start + consumed,
                    "deflate data ends before the end of its stream (truncated or damaged)",
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn run(data: Vec<u8>, limit: u64) -> Result<Vec<u8>, Error> {
        let src: Bytes = Arc::new(Memory::new(data, "t"));
        let out = gunzip(src, limit)?;
        let mut v = vec![0u8; out.len() as usize];
        out.read_exact_at(0, &mut v)?;
        Ok(v)
    }

    #[test]
    fn members_concatenate_and_padding_is_accepted() {
        let mut data = gz(b"hello ");
        data.extend(gz(b"world"));
        data.extend([0u8; 100]);
        assert_eq!(run(data, 100).unwrap(), b"hello world");
    }

    #[test]
    fn limits_truncation_and_garbage_are_typed_errors() {
        let big = gz(&vec![0u8; 1 << 20]);
        assert!(matches!(
            run(big.clone(), 1000),
            Err(Error::TooLarge { limit: 1000, .. })
        ));
        let cut = big[..big.len() / 2].to_vec();
        assert!(matches!(run(cut, 1 << 30), Err(Error::Corrupt { .. })));
        let mut junk = gz(b"x");
        junk.extend(b"junk");
        assert!(matches!(run(junk, 10), Err(Error::Corrupt { .. })));
        let mut bad_crc = gz(b"abc");
        let n = bad_crc.len();
        bad_crc[n - 8] ^= 1;
        assert!(matches!(run(bad_crc, 10), Err(Error::Corrupt { .. })));
        assert!(matches!(
            run(b"plain".to_vec(), 10),
            Err(Error::Corrupt { offset: 0, .. })
        ));
    }
}
