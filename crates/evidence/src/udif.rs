//! Apple UDIF disk images (`.dmg`) as a [`ByteSource`] of the disk they hold.
//!
//! # Layout
//!
//! A UDIF image ends with a 512-byte `koly` trailer (big-endian). It points at an XML property
//! list (the "resource fork") whose `resource-fork` → `blkx` array holds one `mish` block table
//! per partition of the disk, base64-encoded in a `Data` value. Each table maps a run of 512-byte
//! sectors onto chunks: zero-filled or ignored (read as zeros), raw, or compressed with ADC,
//! zlib, bzip2, LZFSE or LZMA (an xz stream). The disk is the concatenation of the tables'
//! sectors; `koly` gives its sector count.
//!
//! # Why a hand-written reader
//!
//! No crate reads UDIF over another layer with typed errors (the `dmg` and `apple-dmg` crates
//! read a whole `std::fs::File` and decode into memory), so the container is read here; the
//! property list goes through [`crate::plist`] (bounded), and the codecs are maintained crates:
//! `flate2` (zlib), `bzip2` (its pure-Rust `libbz2-rs-sys` backend), `lzma-rs` (xz) and
//! `lzfse_rust`. ADC (Apple Data Compression, type `0x80000004`) has no maintained crate: its
//! decoder is thirty lines ([`adc_decode`]) and written here.
//!
//! # Untrusted input
//!
//! Every chunk is checked against the file (`compressed offset + length` within the data fork)
//! and the disk (`sector + count` within `koly`'s sector count, no overlaps); a chunk's
//! decompressed size is bounded ([`MAX_CHUNK_BYTES`], [`Error::TooLarge`]) and a codec that
//! yields fewer or more bytes than the chunk holds is a [`Error::Corrupt`] naming the chunk's
//! file offset (every decoder writes through a bounded sink or reader, so a crafted stream never
//! inflates past the chunk). The number of chunks is bounded ([`MAX_CHUNKS`]). Decoded chunks are cached (a
//! bounded LRU). The tables' CRC-32 checksums cover a whole partition's decoded bytes; they are
//! verified by [`UdifImage::verify`] (which reads everything), not on every read.

use std::io::Read;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;

use crate::bytes::{ByteSource, Bytes, Reader};
use crate::endian::{be32, be64, field};
use crate::{Error, Result};

const LAYER: &str = "udif";
/// `koly`.
pub const MAGIC: &[u8; 4] = b"koly";
const SECTOR: u64 = 512;
/// Largest decoded chunk accepted (`hdiutil` writes 1 MiB chunks; 64 MiB leaves room).
pub const MAX_CHUNK_BYTES: u64 = 64 << 20;
/// Most chunks accepted over all block tables.
pub const MAX_CHUNKS: usize = 4 << 20;
/// Largest XML property list accepted.
pub const MAX_XML_BYTES: u64 = 64 << 20;
/// Decoded chunks kept.
const CACHE_CHUNKS: usize = 16;

/// How a run of sectors is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkKind {
    Zero,
    /// Sectors the image does not hold ("ignore", type 2): read as zeros, left out of the
    /// table's checksum.
    Ignore,
    Raw,
    Adc,
    Zlib,
    Bzip2,
    Lzfse,
    Lzma,
}

impl ChunkKind {
    fn from_type(t: u32) -> Option<Option<ChunkKind>> {
        Some(match t {
            0x0000_0000 => Some(ChunkKind::Zero),
            0x0000_0002 => Some(ChunkKind::Ignore),
            0x0000_0001 => Some(ChunkKind::Raw),
            0x8000_0004 => Some(ChunkKind::Adc),
            0x8000_0005 => Some(ChunkKind::Zlib),
            0x8000_0006 => Some(ChunkKind::Bzip2),
            0x8000_0007 => Some(ChunkKind::Lzfse),
            0x8000_0008 => Some(ChunkKind::Lzma),
            // comment and terminator: no sectors
            0x7fff_fffe | 0xffff_ffff => None,
            _ => return None,
        })
    }

    /// Name as in `hdiutil` formats.
    pub fn name(self) -> &'static str {
        match self {
            ChunkKind::Zero => "zero",
            ChunkKind::Ignore => "ignore",
            ChunkKind::Raw => "raw",
            ChunkKind::Adc => "adc",
            ChunkKind::Zlib => "zlib",
            ChunkKind::Bzip2 => "bzip2",
            ChunkKind::Lzfse => "lzfse",
            ChunkKind::Lzma => "lzma",
        }
    }
}

/// One run of disk bytes.
#[derive(Debug, Clone, Copy)]
struct Chunk {
    /// Disk byte offset.
    start: u64,
    /// Disk bytes.
    len: u64,
    kind: ChunkKind,
    /// File offset and length of the stored bytes.
    at: u64,
    stored: u64,
    /// Index of its block table.
    table: usize,
}

/// A partition's block table: its name and checksum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockTable {
    pub name: String,
    pub first_sector: u64,
    pub sectors: u64,
    /// CRC-32 of the decoded sectors (checksum type 2), when the table carries one.
    pub crc32: Option<u32>,
}

/// A UDIF image: the disk it holds.
pub struct UdifImage {
    file: Bytes,
    size: u64,
    chunks: Vec<Chunk>,
    tables: Vec<BlockTable>,
    cache: Mutex<LruCache<usize, Arc<Vec<u8>>>>,
}

fn corrupt(offset: u64, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset,
        detail: detail.into(),
    }
}

/// Whether the last 512 bytes of `bytes` are a `koly` trailer.
pub fn sniff(bytes: &dyn ByteSource) -> bool {
    let len = bytes.len();
    if len < 512 {
        return false;
    }
    let mut magic = [0u8; 8];
    bytes.read_exact_at(len - 512, &mut magic).is_ok()
        && &magic[..4] == MAGIC
        && be32(&magic, 4) == Some(4)
}

impl UdifImage {
    /// Reads the trailer and the block tables.
    pub fn open(file: Bytes) -> Result<UdifImage> {
        let len = file.len();
        if len < 512 {
            return Err(Error::Truncated {
                layer: LAYER.to_string(),
                offset: 0,
                wanted: 512,
            });
        }
        let koly_at = len - 512;
        let mut koly = [0u8; 512];
        file.read_exact_at(koly_at, &mut koly)?;
        if &koly[..4] != MAGIC {
            return Err(corrupt(koly_at, "no `koly` trailer in the last 512 bytes"));
        }
        let num = |o: usize| be64(&koly, o).unwrap_or(0);
        let data_fork = num(24);
        let data_len = num(32);
        let xml_at = num(216);
        let xml_len = num(224);
        let sectors = num(492);
        let segments = be32(&koly, 60).unwrap_or(0);
        if segments > 1 {
            return Err(Error::Unsupported {
                layer: LAYER.to_string(),
                detail: format!("segmented image ({segments} segments)"),
            });
        }
        if data_fork.checked_add(data_len).is_none_or(|e| e > koly_at) {
            return Err(corrupt(koly_at + 24, "data fork beyond the trailer"));
        }
        if xml_len == 0 {
            return Err(Error::Unsupported {
                layer: LAYER.to_string(),
                detail: "no XML property list (an old image with a resource fork only)".into(),
            });
        }
        if xml_len > MAX_XML_BYTES {
            return Err(Error::TooLarge {
                layer: LAYER.to_string(),
                offset: koly_at + 224,
                what: "XML property list".into(),
                claimed: xml_len,
                limit: MAX_XML_BYTES,
            });
        }
        if xml_at.checked_add(xml_len).is_none_or(|e| e > len) {
            return Err(Error::Truncated {
                layer: LAYER.to_string(),
                offset: xml_at,
                wanted: xml_len,
            });
        }
        let size = sectors
            .checked_mul(SECTOR)
            .ok_or_else(|| corrupt(koly_at + 492, format!("sector count {sectors} overflows")))?;
        let xml = Reader::new(Arc::new(crate::bytes::Slice::new(
            file.clone(),
            xml_at,
            xml_len,
            "udif plist",
        )));
        let plist = crate::plist::read(xml, "udif plist")?;
        let blkx = plist
            .as_dictionary()
            .and_then(|d| d.get("resource-fork"))
            .and_then(|r| r.as_dictionary())
            .and_then(|r| r.get("blkx"))
            .and_then(|b| b.as_array())
            .ok_or_else(|| corrupt(xml_at, "property list has no resource-fork/blkx array"))?;
        let mut chunks = Vec::new();
        let mut tables = Vec::new();
        for (i, entry) in blkx.iter().enumerate() {
            let dict = entry
                .as_dictionary()
                .ok_or_else(|| corrupt(xml_at, format!("blkx entry {i} is not a dictionary")))?;
            let data = dict
                .get("Data")
                .and_then(|d| d.as_data())
                .ok_or_else(|| corrupt(xml_at, format!("blkx entry {i} has no Data")))?;
            let name = dict
                .get("CFName")
                .or_else(|| dict.get("Name"))
                .and_then(|n| n.as_string())
                .unwrap_or("")
                .to_string();
            let table = parse_mish(data, i, xml_at, data_fork, data_len, size, &mut chunks)?;
            tables.push(BlockTable { name, ..table });
        }
        chunks.sort_by_key(|c| c.start);
        for pair in chunks.windows(2) {
            if pair[0].start + pair[0].len > pair[1].start {
                return Err(corrupt(
                    pair[1].at,
                    format!("chunks overlap at disk byte {}", pair[1].start),
                ));
            }
        }
        Ok(UdifImage {
            file,
            size,
            chunks,
            tables,
            cache: Mutex::new(LruCache::new(
                NonZeroUsize::new(CACHE_CHUNKS).expect("non-zero"),
            )),
        })
    }

    /// The block tables (one per partition of the disk).
    pub fn tables(&self) -> &[BlockTable] {
        &self.tables
    }

    /// Chunk kinds used, in order of first use.
    pub fn kinds(&self) -> Vec<ChunkKind> {
        let mut out = Vec::new();
        for c in &self.chunks {
            if !matches!(c.kind, ChunkKind::Zero | ChunkKind::Ignore) && !out.contains(&c.kind) {
                out.push(c.kind);
            }
        }
        out
    }

    /// Decodes every table and checks its CRC-32 where it has one (over the table's sectors
    /// in order, "ignore" chunks left out, as `hdiutil` computes it): the tables whose checksum
    /// differs, by name.
    pub fn verify(&self) -> Result<Vec<String>> {
        let mut bad = Vec::new();
        let mut buf = vec![0u8; 1 << 20];
        for (i, t) in self.tables.iter().enumerate() {
            let Some(want) = t.crc32 else { continue };
            let mut crc = crc32::Hasher::default();
            for c in self
                .chunks
                .iter()
                .filter(|c| c.table == i && c.kind != ChunkKind::Ignore)
            {
                let mut at = c.start;
                while at < c.start + c.len {
                    let n = ((c.start + c.len - at) as usize).min(buf.len());
                    self.read_exact_at(at, &mut buf[..n])?;
                    crc.update(&buf[..n]);
                    at += n as u64;
                }
            }
            if crc.finish() != want {
                bad.push(t.name.clone());
            }
        }
        Ok(bad)
    }

    fn decoded(&self, index: usize) -> Result<Arc<Vec<u8>>> {
        if let Some(hit) = self
            .cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&index)
        {
            return Ok(hit.clone());
        }
        let c = self.chunks[index];
        let mut stored = vec![0u8; c.stored as usize];
        self.file.read_exact_at(c.at, &mut stored)?;
        let out_len = c.len as usize;
        let bad = |what: String| corrupt(c.at, format!("{} chunk: {what}", c.kind.name()));
        let out = match c.kind {
            ChunkKind::Zero | ChunkKind::Ignore | ChunkKind::Raw => {
                unreachable!("not decoded")
            }
            ChunkKind::Adc => adc_decode(&stored, out_len).map_err(bad)?,
            ChunkKind::Zlib => {
                read_bounded(flate2::read::ZlibDecoder::new(&stored[..]), out_len).map_err(bad)?
            }
            ChunkKind::Bzip2 => {
                read_bounded(bzip2::read::BzDecoder::new(&stored[..]), out_len).map_err(bad)?
            }
            ChunkKind::Lzma => {
                let mut out = BoundedSink(Vec::with_capacity(out_len), out_len + 1);
                let mut input = std::io::BufReader::new(&stored[..]);
                lzma_rs::xz_decompress(&mut input, &mut out).map_err(|e| bad(e.to_string()))?;
                out.0
            }
            ChunkKind::Lzfse => {
                // The ring decoder writes through a bounded sink: a crafted block claiming
                // gigabytes stops at the chunk size.
                let mut out = BoundedSink(Vec::with_capacity(out_len), out_len + 1);
                lzfse_rust::LzfseRingDecoder::default()
                    .decode(&mut &stored[..], &mut out)
                    .map_err(|e| bad(e.to_string()))?;
                out.0
            }
        };
        if out.len() != out_len {
            return Err(bad(format!(
                "decoded {} bytes, the table says {out_len}",
                out.len()
            )));
        }
        let out = Arc::new(out);
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .put(index, out.clone());
        Ok(out)
    }
}

/// Reads at most `want + 1` bytes from a decoder (so an over-long stream is seen, never
/// buffered whole).
fn read_bounded(r: impl Read, want: usize) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(want);
    r.take(want as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// A writer that refuses to grow past its limit (a decoder's output is bounded).
struct BoundedSink(Vec<u8>, usize);

impl std::io::Write for BoundedSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len() + buf.len() > self.1 {
            return Err(std::io::Error::other("decoded past the chunk size"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Parses one `mish` block table, appending its chunks.
fn parse_mish(
    data: &[u8],
    index: usize,
    xml_at: u64,
    data_fork: u64,
    data_len: u64,
    size: u64,
    chunks: &mut Vec<Chunk>,
) -> Result<BlockTable> {
    let bad = |d: String| corrupt(xml_at, format!("blkx entry {index}: {d}"));
    if data.get(..4) != Some(b"mish") {
        return Err(bad("no `mish` signature".into()));
    }
    let first_sector = be64(data, 8).ok_or_else(|| bad("short table".into()))?;
    let sectors = be64(data, 16).ok_or_else(|| bad("short table".into()))?;
    let crc32 = match (be32(data, 64), be32(data, 68), be32(data, 72)) {
        (Some(2), Some(32), Some(v)) => Some(v),
        _ => None,
    };
    let count = be32(data, 200).ok_or_else(|| bad("short table".into()))? as usize;
    if chunks.len() + count > MAX_CHUNKS {
        return Err(Error::TooLarge {
            layer: LAYER.to_string(),
            offset: xml_at,
            what: "chunk count".into(),
            claimed: (chunks.len() + count) as u64,
            limit: MAX_CHUNKS as u64,
        });
    }
    for i in 0..count {
        let rec = field(data, 204 + 40 * i, 40)
            .ok_or_else(|| bad(format!("chunk {i} beyond the table")))?;
        let t = be32(rec, 0).unwrap_or(0);
        let kind = ChunkKind::from_type(t).ok_or_else(|| Error::Unsupported {
            layer: LAYER.to_string(),
            detail: format!("blkx entry {index} chunk {i}: chunk type {t:#010x}"),
        })?;
        let Some(kind) = kind else { continue };
        let (sector, nsect) = (be64(rec, 8).unwrap_or(0), be64(rec, 16).unwrap_or(0));
        let (at, stored) = (be64(rec, 24).unwrap_or(0), be64(rec, 32).unwrap_or(0));
        if nsect == 0 {
            continue;
        }
        let start = first_sector
            .checked_add(sector)
            .and_then(|s| s.checked_mul(SECTOR))
            .filter(|s| {
                s.checked_add(nsect.saturating_mul(SECTOR))
                    .is_some_and(|e| e <= size)
            })
            .ok_or_else(|| {
                bad(format!(
                    "chunk {i} (sector {sector} + {nsect}) beyond the disk"
                ))
            })?;
        let len = nsect * SECTOR;
        if len > MAX_CHUNK_BYTES {
            return Err(Error::TooLarge {
                layer: LAYER.to_string(),
                offset: xml_at,
                what: format!("blkx entry {index} chunk {i}"),
                claimed: len,
                limit: MAX_CHUNK_BYTES,
            });
        }
        let at = data_fork.saturating_add(at);
        if !matches!(kind, ChunkKind::Zero | ChunkKind::Ignore) {
            if at
                .checked_add(stored)
                .is_none_or(|e| e > data_fork + data_len)
            {
                return Err(bad(format!(
                    "chunk {i} data ({stored} bytes at {at}) beyond the data fork"
                )));
            }
            if stored > MAX_CHUNK_BYTES || (kind == ChunkKind::Raw && stored < len) {
                return Err(bad(format!("chunk {i}: {stored} stored bytes for {len}")));
            }
        }
        chunks.push(Chunk {
            start,
            len,
            kind,
            at,
            stored,
            table: index,
        });
    }
    Ok(BlockTable {
        name: String::new(),
        first_sector,
        sectors,
        crc32,
    })
}

/// Apple Data Compression: a byte-oriented LZ77. A code byte with the top bit set starts a
/// literal run of `(b & 0x7f) + 1` bytes; `0x40` set: a 3-byte code, length `(b & 0x3f) + 4`,
/// 16-bit distance; otherwise a 2-byte code, length `((b >> 2) & 0xf) + 3`, 10-bit distance.
/// A copy reads `distance + 1` bytes back. Output is bounded by `want`.
pub fn adc_decode(input: &[u8], want: usize) -> std::result::Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::with_capacity(want);
    let mut i = 0;
    while i < input.len() && out.len() < want {
        let b = input[i];
        if b & 0x80 != 0 {
            let n = usize::from(b & 0x7f) + 1;
            let lit = input
                .get(i + 1..i + 1 + n)
                .ok_or_else(|| format!("literal run past the end at {i}"))?;
            out.extend_from_slice(lit);
            i += 1 + n;
            continue;
        }
        let (len, dist, used) = if b & 0x40 != 0 {
            let d = input
                .get(i + 1..i + 3)
                .ok_or_else(|| format!("code past the end at {i}"))?;
            (
                usize::from(b & 0x3f) + 4,
                usize::from(u16::from_be_bytes([d[0], d[1]])),
                3,
            )
        } else {
            let d = *input
                .get(i + 1)
                .ok_or_else(|| format!("code past the end at {i}"))?;
            (
                usize::from((b >> 2) & 0x0f) + 3,
                (usize::from(b & 3) << 8) | usize::from(d),
                2,
            )
        };
        if dist >= out.len() {
            return Err(format!(
                "copy distance {} before the start at {i}",
                dist + 1
            ));
        }
        let from = out.len() - dist - 1;
        for k in 0..len {
            let byte = out[from + k];
            out.push(byte);
        }
        i += used;
    }
    if out.len() > want {
        out.truncate(want + 1);
    }
    Ok(out)
}

/// CRC-32 (IEEE, as UDIF's checksum type 2).
mod crc32 {
    use crc::{CRC_32_ISO_HDLC, Crc, Digest};
    static CRC: Crc<u32> = Crc::<u32>::new(&CRC_32_ISO_HDLC);
    pub struct Hasher(Digest<'static, u32>);
    impl Default for Hasher {
        fn default() -> Self {
            Hasher(CRC.digest())
        }
    }
    impl Hasher {
        pub fn update(&mut self, b: &[u8]) {
            self.0.update(b);
        }
        pub fn finish(self) -> u32 {
            self.0.finalize()
        }
    }
}

impl ByteSource for UdifImage {
    fn len(&self) -> u64 {
        self.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        if offset >= self.size || buf.is_empty() {
            return Ok(0);
        }
        let want = ((self.size - offset) as usize).min(buf.len());
        let mut done = 0;
        while done < want {
            let pos = offset + done as u64;
            let idx = self.chunks.partition_point(|c| c.start + c.len <= pos);
            let chunk = self.chunks.get(idx).filter(|c| c.start <= pos).copied();
            let Some(c) = chunk else {
                // A gap no table covers reads as zeros, up to the next chunk.
                let next = self.chunks.get(idx).map_or(self.size, |c| c.start);
                let n = ((next - pos) as usize).min(want - done);
                buf[done..done + n].fill(0);
                done += n;
                continue;
            };
            let within = pos - c.start;
            let n = ((c.len - within) as usize).min(want - done);
            let dst = &mut buf[done..done + n];
            match c.kind {
                ChunkKind::Zero | ChunkKind::Ignore => dst.fill(0),
                ChunkKind::Raw => self.file.read_exact_at(c.at + within, dst)?,
                _ => {
                    let data = self.decoded(idx)?;
                    dst.copy_from_slice(&data[within as usize..within as usize + n]);
                }
            }
            done += n;
        }
        Ok(want)
    }

    fn layer_name(&self) -> String {
        LAYER.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::adc_decode;

    #[test]
    fn adc_literals_and_both_copy_codes() {
        // "abc" literal, then 2-byte copy of 3 from distance 3 ("abc"), then 3-byte copy of 4
        // from distance 1 ("bcbc").
        let input = [0x82, b'a', b'b', b'c', 0x00, 0x02, 0x40, 0x00, 0x01];
        assert_eq!(adc_decode(&input, 100).unwrap(), b"abcabcbcbc");
        assert!(adc_decode(&[0x00, 0x05], 10).is_err());
        assert!(adc_decode(&[0x85, b'a'], 10).is_err());
    }
}
