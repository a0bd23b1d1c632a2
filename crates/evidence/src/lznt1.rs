//! LZNT1, the compression of NTFS-compressed streams ([MS-XCA] §2.5).
//!
//! Hand-written: no maintained crate decodes LZNT1 from a buffer without pulling in a Windows
//! API or a whole NTFS implementation, and the format is small. A compressed buffer is a series
//! of chunks, each with a 16-bit header (bits 0–11: chunk length − 3, bit 15: compressed), each
//! standing for one 4 KiB block of output. A compressed chunk is groups of one flag byte and
//! eight tokens: a literal byte (flag bit 0) or a 16-bit back-reference (flag bit 1) whose split
//! between offset and length bits depends on how far into the 4 KiB block the output is.
//!
//! Evidence is hostile: every length and offset is checked, a back-reference before the start
//! of its block or output past the block is an error naming the byte offset in the input, and
//! nothing here can panic or loop (each step consumes input).

/// Uncompressed size of one chunk.
pub const CHUNK: usize = 4096;

/// Why a buffer does not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lznt1Error {
    /// Byte offset in the compressed input.
    pub offset: usize,
    pub detail: String,
}

/// Decompresses `input` into `out`, chunk `i` landing at `out[i * 4096..]`. Returns the number
/// of bytes of `out` that chunks covered (the rest of `out` is left as it was: zeros for the
/// callers, which is what NTFS means by a compression unit that decompresses short). Stops at a
/// zero chunk header, at the end of the input or when `out` is full.
pub fn decompress(input: &[u8], out: &mut [u8]) -> Result<usize, Lznt1Error> {
    let mut pos = 0usize;
    let mut block = 0usize;
    let mut covered = 0usize;
    while pos + 2 <= input.len() && block < out.len() {
        let header = u16::from_le_bytes([input[pos], input[pos + 1]]);
        if header == 0 {
            break;
        }
        let len = usize::from(header & 0x0FFF) + 1;
        let data_at = pos + 2;
        let Some(data) = input.get(data_at..data_at + len) else {
            return Err(Lznt1Error {
                offset: pos,
                detail: format!(
                    "chunk of {len} bytes runs past the end of the {}-byte unit",
                    input.len()
                ),
            });
        };
        let end = (block + CHUNK).min(out.len());
        let dst = &mut out[block..end];
        let n = if header & 0x8000 == 0 {
            // Stored: the chunk is the block, verbatim.
            let n = len.min(dst.len());
            dst[..n].copy_from_slice(&data[..n]);
            n
        } else {
            chunk(data, dst).map_err(|(at, detail)| Lznt1Error {
                offset: data_at + at,
                detail,
            })?
        };
        covered = block + n;
        block += CHUNK;
        pos = data_at + len;
    }
    Ok(covered)
}

/// Decodes one compressed chunk into `dst` (at most 4 KiB); returns the bytes written.
fn chunk(data: &[u8], dst: &mut [u8]) -> Result<usize, (usize, String)> {
    let mut i = 0usize;
    let mut o = 0usize;
    while i < data.len() {
        let flags = data[i];
        i += 1;
        for bit in 0..8 {
            if i >= data.len() {
                return Ok(o);
            }
            if flags & (1 << bit) == 0 {
                if o >= dst.len() {
                    return Err((i, format!("literal past the {}-byte block", dst.len())));
                }
                dst[o] = data[i];
                o += 1;
                i += 1;
                continue;
            }
            let Some(token) = data.get(i..i + 2) else {
                return Err((i, "back-reference cut off".to_string()));
            };
            let token = usize::from(u16::from_le_bytes([token[0], token[1]]));
            if o == 0 {
                return Err((i, "back-reference before any output".to_string()));
            }
            // The further into the block, the more bits the offset takes: 4 at the start,
            // one more each time the position passes a power of two from 16 on.
            let mut offset_bits = 4u32;
            let mut p = o - 1;
            while p >= 0x10 {
                offset_bits += 1;
                p >>= 1;
            }
            let length_bits = 16 - offset_bits;
            let back = (token >> length_bits) + 1;
            let length = (token & ((1 << length_bits) - 1)) + 3;
            if back > o {
                return Err((
                    i,
                    format!("back-reference {back} bytes back at block position {o}"),
                ));
            }
            if o + length > dst.len() {
                return Err((
                    i,
                    format!(
                        "back-reference of {length} bytes at block position {o} runs past the {}-byte block",
                        dst.len()
                    ),
                ));
            }
            // Byte by byte: a reference may overlap the bytes it produces (runs).
            for k in 0..length {
                dst[o + k] = dst[o + k - back];
            }
            o += length;
            i += 2;
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &[u8], want: &[u8]) {
        let mut out = vec![0u8; 2 * CHUNK];
        let n = decompress(input, &mut out).unwrap();
        assert_eq!(&out[..n], want);
    }

    #[test]
    fn literals_back_references_and_stored_chunks() {
        // "abcabcabc": 3 literals, then a reference 3 back, 6 long (offset bits 4 at position 3:
        // token = (3-1) << 12 | (6-3)).
        let token = ((3u16 - 1) << 12) | 3;
        let mut c = vec![0b0000_1000, b'a', b'b', b'c'];
        c.extend_from_slice(&token.to_le_bytes());
        let header = (0x8000 | (c.len() as u16 - 1)).to_le_bytes();
        let mut input = header.to_vec();
        input.extend(&c);
        check(&input, b"abcabcabc");

        // A stored chunk: 4096 bytes verbatim, then a second (compressed) one lands at 4096.
        let mut input = (0x0FFFu16).to_le_bytes().to_vec();
        input.extend(std::iter::repeat_n(b'x', CHUNK));
        input.extend_from_slice(&header);
        input.extend(&c);
        let mut want = vec![b'x'; CHUNK];
        want.extend_from_slice(b"abcabcabc");
        check(&input, &want);
    }

    #[test]
    fn hostile_input_is_an_error_with_its_offset_never_a_panic() {
        let bad = |input: &[u8]| {
            let mut out = vec![0u8; CHUNK];
            decompress(input, &mut out).unwrap_err()
        };
        // A reference before any output.
        let e = bad(&[0x02, 0x80, 0x01, 0x00, 0x10]);
        assert_eq!(e.offset, 3);
        // A reference further back than the output.
        let e = bad(&[0x03, 0x80, 0x02, b'a', 0x00, 0x70]);
        assert!(e.detail.contains("bytes back"), "{e:?}");
        // A chunk longer than the input.
        let e = bad(&[0xFF, 0x8F, 0x00]);
        assert_eq!(e.offset, 0);
        // Random bytes: errors or output, never a panic.
        let mut seed = 0x2545F491u32;
        for _ in 0..2000 {
            let input: Vec<u8> = (0..64)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    seed as u8
                })
                .collect();
            let mut out = vec![0u8; CHUNK];
            let _ = decompress(&input, &mut out);
        }
    }
}
