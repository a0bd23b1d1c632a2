//! LevelDB files read one at a time, every record version kept: write-ahead logs (`*.log`) and
//! sorted tables (`*.ldb`, `*.sst`), as Chromium keeps extension storage, Local Storage and
//! IndexedDB, and as Electron apps and browser wallet extensions do.
//!
//! Written by hand: the maintained Rust LevelDB (`rusty-leveldb`) opens a *database* — it takes
//! the directory's `LOCK`, replays and rewrites the log, and gives the newest value of each key.
//! Evidence is never written, and an examiner needs each file's own records (an overwritten or
//! deleted value in an older log or table is often the finding), so this reads the two file
//! formats directly (google/leveldb `doc/log_format.md`, `doc/table_format.md`) with `snap` for
//! Snappy blocks and `ruzstd` for zstd ones.
//!
//! - **Log**: 32 KiB blocks of physical records (`crc32c`, length, type FULL/FIRST/MIDDLE/LAST);
//!   the fragments of one logical record are joined into a write batch (sequence, count, then
//!   `Put key value` / `Delete key`), each operation one [`Record`] with `sequence + i`. A
//!   record whose checksum or framing is wrong is skipped and named in [`FileRead::problems`]
//!   with its offset; reading resumes at the next block.
//! - **Table**: the 48-byte footer (magic `0xdb4775248b80fb57`), the index block, then every
//!   data block (checksum checked, decompressed within [`MAX_BLOCK`]); each entry's internal key
//!   ends with the 8-byte `sequence << 8 | type`. A block that cannot be read is a problem; the
//!   other blocks are still read.
//!
//! Every structural error is a typed [`Error`] naming the layer and the offset; nothing panics
//! on crafted input (every length is checked before it is used).

use crate::{Error, Result};

/// Largest decompressed table block or assembled log record read.
pub const MAX_BLOCK: u64 = 64 << 20;

/// Most records returned from one file (a crafted batch may claim billions).
pub const MAX_RECORDS: usize = 2_000_000;

const LOG_BLOCK: usize = 32 * 1024;
const LOG_HEADER: usize = 7;
const TABLE_MAGIC: u64 = 0xdb47_7524_8b80_fb57;
const FOOTER: usize = 48;
const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// Which of the two file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A write-ahead log.
    Log,
    /// A sorted table.
    Table,
}

impl FileKind {
    /// `log` or `table`.
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Log => "log",
            FileKind::Table => "table",
        }
    }
}

/// Whether a record stores a value or deletes its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// `Put`: the key holds the value.
    Live,
    /// `Delete`: a tombstone (no value).
    Deleted,
}

/// One operation of a log batch or one entry of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The sequence number LevelDB gave it (higher is newer).
    pub seq: u64,
    pub state: State,
    /// The user key (a table entry's internal key without its 8-byte trailer).
    pub key: Vec<u8>,
    /// The value (empty for a deletion).
    pub value: Vec<u8>,
    /// Log: the offset of the batch's first physical record; table: the data block's offset.
    pub offset: u64,
}

/// Something in a file that could not be read, the rest being read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub offset: u64,
    pub detail: String,
}

/// The records of one file and what could not be read of it.
#[derive(Debug, Clone)]
pub struct FileRead {
    pub kind: FileKind,
    pub records: Vec<Record>,
    pub problems: Vec<Problem>,
}

/// The format of a file: a table by its footer's magic, else a log by its name (`*.log`).
pub fn kind_of(name: &str, data: &[u8]) -> Option<FileKind> {
    if data.len() >= FOOTER && u64::from_le_bytes(tail8(data)) == TABLE_MAGIC {
        return Some(FileKind::Table);
    }
    name.to_ascii_lowercase()
        .ends_with(".log")
        .then_some(FileKind::Log)
}

fn tail8(data: &[u8]) -> [u8; 8] {
    let mut m = [0u8; 8];
    m.copy_from_slice(&data[data.len() - 8..]);
    m
}

/// Reads a file of either format ([`kind_of`]); `layer` names it in errors.
pub fn read(name: &str, data: &[u8], layer: &str) -> Result<FileRead> {
    match kind_of(name, data) {
        Some(FileKind::Table) => read_table(data, layer),
        Some(FileKind::Log) => read_log(data, layer),
        None => Err(Error::Corrupt {
            layer: layer.to_string(),
            offset: data.len().saturating_sub(8) as u64,
            detail: "neither a LevelDB table (no footer magic) nor a log (*.log)".into(),
        }),
    }
}

/// The masked CRC-32C LevelDB stores.
fn masked_crc(parts: &[&[u8]]) -> u32 {
    let mut d = CRC.digest();
    for p in parts {
        d.update(p);
    }
    let c = d.finalize();
    (c.rotate_right(15)).wrapping_add(0xa282_ead8)
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// A varint at `*pos` (at most 10 bytes), advancing `*pos`; `None` when it runs off the end.
fn varint(b: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..70).step_by(7) {
        let byte = *b.get(*pos)?;
        *pos += 1;
        v |= u64::from(byte & 0x7f).checked_shl(shift).unwrap_or(0);
        if byte & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// `len` bytes at `*pos`, advancing; `None` when they run off the end.
fn take<'a>(b: &'a [u8], pos: &mut usize, len: u64) -> Option<&'a [u8]> {
    let end = pos.checked_add(usize::try_from(len).ok()?)?;
    let s = b.get(*pos..end)?;
    *pos = end;
    Some(s)
}

/// Reads a write-ahead log (see the module documentation).
pub fn read_log(data: &[u8], layer: &str) -> Result<FileRead> {
    let mut out = FileRead {
        kind: FileKind::Log,
        records: Vec::new(),
        problems: Vec::new(),
    };
    // the logical record being assembled: its first fragment's offset and bytes
    let mut pending: Option<(u64, Vec<u8>)> = None;
    let mut block = 0usize;
    while block < data.len() {
        let end = (block + LOG_BLOCK).min(data.len());
        let mut at = block;
        while at + LOG_HEADER <= end {
            let h = &data[at..at + LOG_HEADER];
            let crc = le32(h);
            let len = usize::from(u16::from_le_bytes([h[4], h[5]]));
            let kind = h[6];
            if kind == 0 && len == 0 && crc == 0 {
                // preallocated zeros: the rest of the block is padding
                break;
            }
            let body = at + LOG_HEADER;
            if body + len > end {
                out.problems.push(Problem {
                    offset: at as u64,
                    detail: format!(
                        "record of {len} bytes runs past its block (ends at {end}); the rest of the block is skipped"
                    ),
                });
                pending = None;
                break;
            }
            let payload = &data[body..body + len];
            if masked_crc(&[&[kind], payload]) != crc {
                out.problems.push(Problem {
                    offset: at as u64,
                    detail: "checksum mismatch; the record is skipped".into(),
                });
                pending = None;
                at = body + len;
                continue;
            }
            match kind {
                1 => {
                    if pending.take().is_some() {
                        out.problems.push(Problem {
                            offset: at as u64,
                            detail: "a fragmented record was not completed".into(),
                        });
                    }
                    batch(payload, at as u64, layer, &mut out)?;
                }
                2 => {
                    if pending.is_some() {
                        out.problems.push(Problem {
                            offset: at as u64,
                            detail: "a fragmented record was not completed".into(),
                        });
                    }
                    pending = Some((at as u64, payload.to_vec()));
                }
                3 | 4 => match pending.as_mut() {
                    Some((_, buf)) => {
                        if (buf.len() + payload.len()) as u64 > MAX_BLOCK {
                            return Err(Error::TooLarge {
                                layer: layer.to_string(),
                                offset: at as u64,
                                what: "log record".into(),
                                claimed: (buf.len() + payload.len()) as u64,
                                limit: MAX_BLOCK,
                            });
                        }
                        buf.extend_from_slice(payload);
                        if kind == 4 {
                            let (start, buf) = pending.take().unwrap_or_default();
                            batch(&buf, start, layer, &mut out)?;
                        }
                    }
                    None => out.problems.push(Problem {
                        offset: at as u64,
                        detail: "a record fragment without its first part is skipped".into(),
                    }),
                },
                other => out.problems.push(Problem {
                    offset: at as u64,
                    detail: format!("unknown record type {other}; skipped"),
                }),
            }
            at = body + len;
        }
        block += LOG_BLOCK;
    }
    if let Some((start, _)) = pending {
        out.problems.push(Problem {
            offset: start,
            detail: "the log ends inside a fragmented record (truncated)".into(),
        });
    }
    Ok(out)
}

/// The operations of one write batch.
fn batch(b: &[u8], offset: u64, layer: &str, out: &mut FileRead) -> Result<()> {
    if b.len() < 12 {
        out.problems.push(Problem {
            offset,
            detail: format!("write batch of {} bytes has no header", b.len()),
        });
        return Ok(());
    }
    let seq = u64::from_le_bytes(b[..8].try_into().unwrap_or_default());
    let count = le32(&b[8..12]);
    let mut pos = 12usize;
    for i in 0..u64::from(count) {
        if out.records.len() >= MAX_RECORDS {
            return Err(Error::TooLarge {
                layer: layer.to_string(),
                offset,
                what: "records".into(),
                claimed: out.records.len() as u64 + u64::from(count) - i,
                limit: MAX_RECORDS as u64,
            });
        }
        if pos >= b.len() {
            out.problems.push(Problem {
                offset,
                detail: format!("write batch claims {count} operations, holds {i}"),
            });
            return Ok(());
        }
        let tag = b[pos];
        let op = (|| {
            let mut at = pos + 1;
            let klen = varint(b, &mut at)?;
            let key = take(b, &mut at, klen)?.to_vec();
            let op = match tag {
                1 => {
                    let vlen = varint(b, &mut at)?;
                    let value = take(b, &mut at, vlen)?.to_vec();
                    (State::Live, key, value)
                }
                0 => (State::Deleted, key, Vec::new()),
                _ => return None,
            };
            pos = at;
            Some(op)
        })();
        let Some((state, key, value)) = op else {
            out.problems.push(Problem {
                offset,
                detail: format!("write batch operation {i} (tag {tag}) is malformed; the rest of the batch is skipped"),
            });
            return Ok(());
        };
        out.records.push(Record {
            seq: seq.wrapping_add(i),
            state,
            key,
            value,
            offset,
        });
    }
    Ok(())
}

/// A block handle at `*pos`: `(offset, size)`.
fn handle(b: &[u8], pos: &mut usize) -> Option<(u64, u64)> {
    Some((varint(b, pos)?, varint(b, pos)?))
}

/// Reads a sorted table (see the module documentation).
pub fn read_table(data: &[u8], layer: &str) -> Result<FileRead> {
    let corrupt = |offset: u64, detail: String| Error::Corrupt {
        layer: layer.to_string(),
        offset,
        detail,
    };
    if data.len() < FOOTER {
        return Err(Error::Truncated {
            layer: layer.to_string(),
            offset: 0,
            wanted: FOOTER as u64,
        });
    }
    let foot_at = data.len() - FOOTER;
    if u64::from_le_bytes(tail8(data)) != TABLE_MAGIC {
        return Err(corrupt(
            (data.len() - 8) as u64,
            "no LevelDB table magic in the footer".into(),
        ));
    }
    let footer = &data[foot_at..];
    let mut pos = 0;
    let (_meta, index) = handle(footer, &mut pos)
        .and_then(|m| Some((m, handle(footer, &mut pos)?)))
        .ok_or_else(|| corrupt(foot_at as u64, "footer block handles are malformed".into()))?;
    let index_block = block(data, index, layer)?;
    let mut out = FileRead {
        kind: FileKind::Table,
        records: Vec::new(),
        problems: Vec::new(),
    };
    let index_entries = entries(&index_block, index.0, layer)?;
    for (_, value) in index_entries {
        let mut p = 0;
        let Some(h) = handle(&value, &mut p) else {
            out.problems.push(Problem {
                offset: index.0,
                detail: "an index entry's block handle is malformed".into(),
            });
            continue;
        };
        let read = block(data, h, layer).and_then(|b| entries(&b, h.0, layer));
        match read {
            Ok(items) => {
                for (ikey, value) in items {
                    if out.records.len() >= MAX_RECORDS {
                        return Err(Error::TooLarge {
                            layer: layer.to_string(),
                            offset: h.0,
                            what: "records".into(),
                            claimed: out.records.len() as u64 + 1,
                            limit: MAX_RECORDS as u64,
                        });
                    }
                    if ikey.len() < 8 {
                        out.problems.push(Problem {
                            offset: h.0,
                            detail: format!(
                                "an entry's key of {} bytes has no sequence",
                                ikey.len()
                            ),
                        });
                        continue;
                    }
                    let (user, trailer) = ikey.split_at(ikey.len() - 8);
                    let t = u64::from_le_bytes(trailer.try_into().unwrap_or_default());
                    let state = if t & 0xff == 0 {
                        State::Deleted
                    } else {
                        State::Live
                    };
                    out.records.push(Record {
                        seq: t >> 8,
                        state,
                        key: user.to_vec(),
                        value: if state == State::Live {
                            value
                        } else {
                            Vec::new()
                        },
                        offset: h.0,
                    });
                }
            }
            Err(e) => out.problems.push(Problem {
                offset: h.0,
                detail: e.to_string(),
            }),
        }
    }
    Ok(out)
}

/// A block's contents, its checksum checked and decompressed.
fn block(data: &[u8], (offset, size): (u64, u64), layer: &str) -> Result<Vec<u8>> {
    let trailer_end = offset
        .checked_add(size)
        .and_then(|e| e.checked_add(5))
        .filter(|&e| e <= data.len() as u64)
        .ok_or_else(|| Error::Truncated {
            layer: layer.to_string(),
            offset,
            wanted: size.saturating_add(5),
        })?;
    let (start, end) = (offset as usize, (offset + size) as usize);
    let contents = &data[start..end];
    let kind = data[end];
    let crc = le32(&data[end + 1..trailer_end as usize]);
    if masked_crc(&[contents, &[kind]]) != crc {
        return Err(Error::Corrupt {
            layer: layer.to_string(),
            offset,
            detail: "block checksum mismatch".into(),
        });
    }
    let too_large = |claimed: u64| Error::TooLarge {
        layer: layer.to_string(),
        offset,
        what: "decompressed block".into(),
        claimed,
        limit: MAX_BLOCK,
    };
    match kind {
        0 => Ok(contents.to_vec()),
        1 => {
            let n = snap::raw::decompress_len(contents).map_err(|e| Error::Corrupt {
                layer: layer.to_string(),
                offset,
                detail: format!("snappy block: {e}"),
            })? as u64;
            if n > MAX_BLOCK {
                return Err(too_large(n));
            }
            snap::raw::Decoder::new()
                .decompress_vec(contents)
                .map_err(|e| Error::Corrupt {
                    layer: layer.to_string(),
                    offset,
                    detail: format!("snappy block: {e}"),
                })
        }
        2 => {
            use std::io::Read;
            let mut dec =
                ruzstd::decoding::StreamingDecoder::new(contents).map_err(|e| Error::Corrupt {
                    layer: layer.to_string(),
                    offset,
                    detail: format!("zstd block: {e}"),
                })?;
            let mut out = Vec::new();
            (&mut dec)
                .take(MAX_BLOCK + 1)
                .read_to_end(&mut out)
                .map_err(|e| Error::Corrupt {
                    layer: layer.to_string(),
                    offset,
                    detail: format!("zstd block: {e}"),
                })?;
            if out.len() as u64 > MAX_BLOCK {
                return Err(too_large(out.len() as u64));
            }
            Ok(out)
        }
        other => Err(Error::Unsupported {
            layer: layer.to_string(),
            detail: format!("block at offset {offset}: compression type {other}"),
        }),
    }
}

/// The `(key, value)` entries of a block (prefix-compressed keys, restart array at its end).
fn entries(b: &[u8], offset: u64, layer: &str) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
    let corrupt = |detail: String| Error::Corrupt {
        layer: layer.to_string(),
        offset,
        detail,
    };
    if b.len() < 4 {
        return Err(corrupt("block too short for its restart count".into()));
    }
    let restarts = u64::from(le32(&b[b.len() - 4..]));
    let array = restarts
        .checked_mul(4)
        .and_then(|n| n.checked_add(4))
        .filter(|&n| n <= b.len() as u64)
        .ok_or_else(|| corrupt(format!("{restarts} restart points do not fit the block")))?;
    let limit = b.len() - array as usize;
    let mut out = Vec::new();
    let mut key: Vec<u8> = Vec::new();
    let mut pos = 0usize;
    while pos < limit {
        let at = pos;
        let entry = (|| {
            let shared = varint(b, &mut pos)?;
            let unshared = varint(b, &mut pos)?;
            let vlen = varint(b, &mut pos)?;
            if shared > key.len() as u64 || pos > limit {
                return None;
            }
            let delta = take(&b[..limit], &mut pos, unshared)?;
            let value = take(&b[..limit], &mut pos, vlen)?;
            Some((shared as usize, delta, value))
        })();
        let Some((shared, delta, value)) = entry else {
            return Err(corrupt(format!("entry at block byte {at} is malformed")));
        };
        key.truncate(shared);
        key.extend_from_slice(delta);
        out.push((key.clone(), value.to_vec()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log made here only to check framing edge cases; the real logs of the corpus are read
    /// in the integration tests.
    fn physical(kind: u8, payload: &[u8]) -> Vec<u8> {
        let mut v = masked_crc(&[&[kind], payload]).to_le_bytes().to_vec();
        v.extend_from_slice(&(payload.len() as u16).to_le_bytes());
        v.push(kind);
        v.extend_from_slice(payload);
        v
    }

    fn put_batch(seq: u64, ops: &[(&[u8], Option<&[u8]>)]) -> Vec<u8> {
        let mut b = seq.to_le_bytes().to_vec();
        b.extend_from_slice(&(ops.len() as u32).to_le_bytes());
        for (k, v) in ops {
            b.push(u8::from(v.is_some()));
            b.push(k.len() as u8);
            b.extend_from_slice(k);
            if let Some(v) = v {
                b.push(v.len() as u8);
                b.extend_from_slice(v);
            }
        }
        b
    }

    #[test]
    fn fragments_join_and_bad_records_are_named() {
        let batch = put_batch(7, &[(b"k", Some(b"v1")), (b"k", None)]);
        let mut log = physical(2, &batch[..5]);
        log.extend(physical(3, &batch[5..9]));
        log.extend(physical(4, &batch[9..]));
        let mut bad = physical(1, &put_batch(9, &[(b"x", Some(b"y"))]));
        bad[0] ^= 1; // checksum
        log.extend(bad);
        let r = read_log(&log, "t").unwrap();
        assert_eq!(r.records.len(), 2);
        assert_eq!((r.records[0].seq, r.records[0].state), (7, State::Live));
        assert_eq!(r.records[0].value, b"v1");
        assert_eq!((r.records[1].seq, r.records[1].state), (8, State::Deleted));
        assert_eq!(r.problems.len(), 1);
        assert!(
            r.problems[0].detail.contains("checksum"),
            "{:?}",
            r.problems
        );
        // truncated inside a fragmented record
        let r = read_log(&log[..20], "t").unwrap();
        assert!(r.records.is_empty());
        assert!(!r.problems.is_empty());
    }

    #[test]
    fn crafted_batches_never_panic_or_overclaim() {
        // a batch claiming 4 billion operations holding none
        let mut b = 1u64.to_le_bytes().to_vec();
        b.extend_from_slice(&u32::MAX.to_le_bytes());
        let r = read_log(&physical(1, &b), "t").unwrap();
        assert!(r.records.is_empty());
        assert!(r.problems[0].detail.contains("claims"));
        // a key length past the end
        let mut b = 1u64.to_le_bytes().to_vec();
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&[1, 0xff, 0xff, 0x03, b'a']);
        let r = read_log(&physical(1, &b), "t").unwrap();
        assert!(r.records.is_empty());
        assert!(r.problems[0].detail.contains("malformed"));
    }
}
