//! SEGB files, the record containers of Apple's Biome streams
//! (`Library/Biome/streams/{restricted,public}/<stream>/local/<n>` on iOS 15+ and macOS): each
//! record a state, its times and an opaque payload (a Protocol Buffers message of the stream).
//!
//! Written by hand: no Rust crate reads SEGB. Two versions, after CCL Solutions' published
//! research (`ccl_segb`):
//!
//! - **v1** (iOS 15–16): a 56-byte header whose last four bytes are `SEGB` and whose first
//!   four are the end of the data (little-endian); then records, each a 32-byte header —
//!   length, state, two Cocoa times (`f64` seconds since 2001), the CRC-32 of the data, a
//!   value of unknown meaning — and its data, the next record aligned to 8 bytes.
//! - **v2** (iOS 17+): a 32-byte header (`SEGB`, the number of entries, the file's Cocoa
//!   creation time), the records from offset 32, and at the end of the file a trailer of one
//!   16-byte entry per record — the end of its data relative to offset 32, its state, its
//!   Cocoa time. Each record is the CRC-32 of its data, a value of unknown meaning, the data;
//!   the next aligned to 4 bytes. Two trailer entries may end at the same offset (a record
//!   written, then marked deleted): both are returned with the same data.
//!
//! States: 1 written, 3 deleted, 4 empty (no data; v2 returns none for it). Every length is
//! checked against the file before it is used; a record that runs past the data or the file is
//! a [`Problem`] naming its offset, and reading stops there (v1) or skips it (v2). Nothing
//! panics on crafted input; at most [`MAX_RECORDS`] records are returned.

use crate::{Error, Result};

/// Most records returned from one file.
pub const MAX_RECORDS: usize = 1_000_000;

/// The SEGB signature.
pub const MAGIC: &[u8; 4] = b"SEGB";

const V1_HEADER: usize = 56;
const V1_RECORD_HEADER: usize = 32;
const V2_HEADER: usize = 32;
const V2_TRAILER_ENTRY: usize = 16;
const V2_RECORD_HEADER: usize = 8;
const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// Which of the two versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

/// A record's state as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Written,
    Deleted,
    Empty,
    /// Another value, as stored.
    Other(i32),
}

impl State {
    fn of(v: i32) -> State {
        match v {
            1 => State::Written,
            3 => State::Deleted,
            4 => State::Empty,
            v => State::Other(v),
        }
    }

    /// `written`, `deleted`, `empty` or `state <n>`.
    pub fn name(self) -> String {
        match self {
            State::Written => "written".into(),
            State::Deleted => "deleted".into(),
            State::Empty => "empty".into(),
            State::Other(v) => format!("state {v}"),
        }
    }
}

/// One record.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The offset of its data in the file.
    pub offset: u64,
    pub state: State,
    /// Its first time (v1) or its trailer's time (v2): Cocoa seconds (since 2001-01-01 UTC).
    pub time: f64,
    /// v1's second time.
    pub time2: Option<f64>,
    /// The stored CRC-32 of the data, and whether the data matches it.
    pub crc: u32,
    pub crc_ok: bool,
    pub data: Vec<u8>,
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
    pub version: Version,
    /// v2's creation time (Cocoa seconds).
    pub created: Option<f64>,
    pub records: Vec<Record>,
    pub problems: Vec<Problem>,
}

/// The version of a file by its signature: v2's at offset 0, v1's at offset 52.
pub fn version_of(data: &[u8]) -> Option<Version> {
    if data.len() >= V2_HEADER && &data[..4] == MAGIC {
        Some(Version::V2)
    } else if data.len() >= V1_HEADER && &data[52..56] == MAGIC {
        Some(Version::V1)
    } else {
        None
    }
}

fn corrupt(layer: &str, offset: usize, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: layer.to_string(),
        offset: offset as u64,
        detail: detail.into(),
    }
}

fn u32_at(d: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])
}

fn i32_at(d: &[u8], at: usize) -> i32 {
    u32_at(d, at) as i32
}

fn f64_at(d: &[u8], at: usize) -> f64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[at..at + 8]);
    f64::from_le_bytes(b)
}

/// Reads a SEGB file of either version; `layer` names it in errors.
pub fn read(data: &[u8], layer: &str) -> Result<FileRead> {
    match version_of(data) {
        Some(Version::V1) => read_v1(data, layer),
        Some(Version::V2) => read_v2(data, layer),
        None => Err(corrupt(
            layer,
            0,
            format!(
                "not a SEGB file: no SEGB signature at offset 0 (v2) or 52 (v1) in its {} bytes",
                data.len()
            ),
        )),
    }
}

fn read_v1(data: &[u8], layer: &str) -> Result<FileRead> {
    let mut problems = Vec::new();
    let mut end = u32_at(data, 0) as usize;
    if end > data.len() {
        problems.push(Problem {
            offset: 0,
            detail: format!(
                "the header's end of data ({end}) is past the file's {} bytes (truncated): read to the end of the file",
                data.len()
            ),
        });
        end = data.len();
    }
    if end < V1_HEADER {
        return Err(corrupt(
            layer,
            0,
            format!("the header's end of data ({end}) is inside the 56-byte header"),
        ));
    }
    let mut records = Vec::new();
    let mut pos = V1_HEADER;
    while pos + V1_RECORD_HEADER <= end {
        if records.len() == MAX_RECORDS {
            problems.push(Problem {
                offset: pos as u64,
                detail: format!("more than {MAX_RECORDS} records: the rest not read"),
            });
            break;
        }
        let len = i32_at(data, pos);
        let state = i32_at(data, pos + 4);
        let start = pos + V1_RECORD_HEADER;
        if len < 0 || start + len as usize > end {
            problems.push(Problem {
                offset: pos as u64,
                detail: format!(
                    "a record of {len} bytes runs past the end of the data ({end}): the rest not read"
                ),
            });
            break;
        }
        let body = &data[start..start + len as usize];
        let crc = u32_at(data, pos + 24);
        records.push(Record {
            offset: start as u64,
            state: State::of(state),
            time: f64_at(data, pos + 8),
            time2: Some(f64_at(data, pos + 16)),
            crc,
            crc_ok: CRC.checksum(body) == crc,
            data: body.to_vec(),
        });
        pos = (start + len as usize).next_multiple_of(8);
    }
    Ok(FileRead {
        version: Version::V1,
        created: None,
        records,
        problems,
    })
}

fn read_v2(data: &[u8], layer: &str) -> Result<FileRead> {
    let count = i32_at(data, 4);
    let created = f64_at(data, 8);
    let room = (data.len() - V2_HEADER) / V2_TRAILER_ENTRY;
    if count < 0 || count as usize > room {
        return Err(corrupt(
            layer,
            4,
            format!(
                "{count} entries claimed, but the file's {} bytes hold a trailer of at most {room}",
                data.len()
            ),
        ));
    }
    let count = count as usize;
    let trailer_at = data.len() - count * V2_TRAILER_ENTRY;
    let mut problems = Vec::new();
    // (end offset relative to the records, state, time, the entry's offset)
    let mut entries: Vec<(usize, i32, f64, usize)> = Vec::with_capacity(count);
    for i in 0..count {
        let at = trailer_at + i * V2_TRAILER_ENTRY;
        let end = i32_at(data, at);
        let state = i32_at(data, at + 4);
        let time = f64_at(data, at + 8);
        if end <= 0 && state == 0 {
            // a zeroed, unused trailer slot
            continue;
        }
        if end < 0 || V2_HEADER + end as usize > trailer_at {
            problems.push(Problem {
                offset: at as u64,
                detail: format!(
                    "trailer entry {i} ends its record at {end}, past the records (which end at {}): not read",
                    trailer_at - V2_HEADER
                ),
            });
            continue;
        }
        entries.push((end as usize, state, time, at));
    }
    entries.sort_by_key(|e| e.0);
    let mut records: Vec<Record> = Vec::new();
    let mut pos = V2_HEADER;
    let mut last_end: Option<usize> = None;
    for (end, state, time, at) in entries {
        if records.len() == MAX_RECORDS {
            problems.push(Problem {
                offset: at as u64,
                detail: format!("more than {MAX_RECORDS} records: the rest not read"),
            });
            break;
        }
        let state = State::of(state);
        if state == State::Empty {
            continue;
        }
        if last_end == Some(end) {
            // a second entry for the same record (written, then deleted)
            if let Some(prev) = records.last().cloned() {
                records.push(Record {
                    state,
                    time,
                    ..prev
                });
            }
            continue;
        }
        let stop = V2_HEADER + end;
        if stop < pos + V2_RECORD_HEADER {
            problems.push(Problem {
                offset: at as u64,
                detail: format!(
                    "trailer entry at {at} ends its record at {end}, inside a record already read (its data overwritten): not read"
                ),
            });
            continue;
        }
        let crc = u32_at(data, pos);
        let body = &data[pos + V2_RECORD_HEADER..stop];
        records.push(Record {
            offset: (pos + V2_RECORD_HEADER) as u64,
            state,
            time,
            time2: None,
            crc,
            crc_ok: CRC.checksum(body) == crc,
            data: body.to_vec(),
        });
        last_end = Some(end);
        pos = stop.next_multiple_of(4);
    }
    Ok(FileRead {
        version: Version::V2,
        created: Some(created),
        records,
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v2(records: &[(&[u8], i32, f64)]) -> Vec<u8> {
        let mut d = Vec::new();
        d.extend(MAGIC);
        d.extend((records.len() as i32).to_le_bytes());
        d.extend(700_000_000f64.to_le_bytes());
        d.extend([0u8; 16]);
        let mut trailer = Vec::new();
        for (data, state, time) in records {
            d.extend(CRC.checksum(data).to_le_bytes());
            d.extend(0i32.to_le_bytes());
            d.extend(*data);
            trailer.extend(((d.len() - V2_HEADER) as i32).to_le_bytes());
            trailer.extend(state.to_le_bytes());
            trailer.extend(time.to_le_bytes());
            while d.len() % 4 != 0 {
                d.push(0);
            }
        }
        d.extend(trailer);
        d
    }

    #[test]
    fn every_truncation_and_bit_flip_is_an_error_or_records() {
        let f = v2(&[(b"\x0a\x03abc", 1, 1.5), (b"\x08\x01", 3, 2.5)]);
        let r = read(&f, "t").unwrap();
        assert_eq!(r.records.len(), 2);
        assert!(r.records.iter().all(|r| r.crc_ok));
        assert_eq!(r.records[1].state, State::Deleted);
        for n in 0..f.len() {
            let _ = read(&f[..n], "t");
        }
        for i in 0..f.len() * 8 {
            let mut c = f.clone();
            c[i / 8] ^= 1 << (i % 8);
            let _ = read(&c, "t");
        }
        let e = read(
            b"not segb at all, not at all, not at all, not at all, ok",
            "x",
        )
        .unwrap_err();
        assert!(e.to_string().contains("not a SEGB file"), "{e}");
    }

    #[test]
    fn a_count_larger_than_the_file_is_refused() {
        let mut f = v2(&[(b"\x08\x01", 1, 1.0)]);
        f[4..8].copy_from_slice(&1_000_000i32.to_le_bytes());
        let e = read(&f, "t").unwrap_err();
        assert!(e.to_string().contains("entries claimed"), "{e}");
    }
}
