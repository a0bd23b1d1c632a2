//! The structure of an EWF version 2 segment set (Ex01, EnCase 7 and libewf's
//! `ewfacquire -f encase7-v2`): file headers, the section chain of every segment file read from
//! its end, and what the sections hold (device information, case data, sector tables, stored
//! digests, acquisition errors).
//!
//! Written from the format description of libewf ("Expert Witness Compression Format 2") and
//! checked against files written by libewf's `ewfacquire` 20260924 and read back by its
//! `pyewf` (see `tests/fixtures/ewf/make-ewf2.sh`). What differs from version 1:
//! - a 32-byte file header: signature, version 2.x, compression method (1 deflate, 2 bzip2),
//!   a 32-bit segment number and the set identifier;
//! - a 64-byte section descriptor *after* each section's data, holding the offset of the
//!   previous descriptor, so a segment file is read from its last 64 bytes backwards;
//! - sector tables of 16-byte entries: a 64-bit file offset, a 32-bit stored size and flags
//!   (compressed; uncompressed with an Adler-32 after the data; or an 8-byte pattern, stored in
//!   the offset field, that fills the chunk);
//! - device information and case data as zlib-compressed UTF-16 tables in place of `volume`,
//!   `header` and `header2`.
//!
//! Every descriptor, table header, table entry list and digest is checked against its
//! Adler-32 before use; every offset against the file length; the backwards walk must strictly
//! decrease (so it ends within `file length / 64` steps); no allocation is sized by a field the
//! file does not back with bytes. Encrypted sections and bzip2 compression are refused with
//! [`crate::Error::Unsupported`]: no writer available here makes them, so no reader is tested.

use std::collections::BTreeMap;
use std::path::Path;

use super::layout::{
    Fault, Geometry, Layout, Segment, adler32, header_values, le_u32, le_u64, read_bytes, walk_set,
};

/// Size of a version 2 segment file header.
pub(super) const FILE_HEADER_SIZE: u64 = 32;
/// Size of a version 2 section descriptor.
const DESCRIPTOR_SIZE: u64 = 64;
/// Size of a sector table header, and of its footer (entries checksum and padding).
const TABLE_HEADER_SIZE: u64 = 32;
const TABLE_FOOTER_SIZE: u64 = 16;
const TABLE_ENTRY_SIZE: u64 = 16;

const SECTION_DEVICE_INFORMATION: u32 = 0x01;
const SECTION_CASE_DATA: u32 = 0x02;
const SECTION_SECTOR_DATA: u32 = 0x03;
const SECTION_SECTOR_TABLE: u32 = 0x04;
const SECTION_ERROR_TABLE: u32 = 0x05;
const SECTION_MD5_HASH: u32 = 0x08;
const SECTION_SHA1_HASH: u32 = 0x09;
const SECTION_ENCRYPTION_KEYS: u32 = 0x0b;
const SECTION_NEXT: u32 = 0x0d;
const SECTION_DONE: u32 = 0x0f;

/// Section data flag: the section's data is encrypted.
const DATA_ENCRYPTED: u32 = 0x02;

/// Chunk flags of a table entry (0x02, "has checksum", marks an uncompressed chunk).
pub(super) const CHUNK_COMPRESSED: u16 = 0x01;
pub(super) const CHUNK_PATTERN: u16 = 0x04;
/// Set by the reader on an entry that points outside every sector data section before its
/// table: that chunk cannot be read, the others can.
pub(super) const CHUNK_OUTSIDE: u16 = 0x8000;

/// Compression method 1 of the file header.
const METHOD_DEFLATE: u16 = 1;

/// Where one chunk of a version 2 set is stored: 16 bytes per chunk.
#[derive(Debug, Clone, Copy)]
pub(super) struct V2Chunk {
    /// File offset of the stored chunk, or the 8-byte fill pattern (little-endian) when
    /// `flags` has [`CHUNK_PATTERN`].
    pub(super) offset: u64,
    /// Stored bytes (compressed stream, or data and its 4-byte Adler-32).
    pub(super) size: u32,
    /// The entry's flags (1 compressed, 2 uncompressed with checksum, 5 pattern fill; any other
    /// value, saturated to 16 bits, is reported when the chunk is read), and [`CHUNK_OUTSIDE`].
    pub(super) flags: u16,
    /// Index of the segment file.
    pub(super) segment: u16,
}

/// The version 2 file header of a segment: compression method and set identifier (the
/// segment number is read with the version 1 header's, by `layout::read_file_header`).
pub(super) struct FileHeader {
    pub(super) method: u16,
    pub(super) set_identifier: [u8; 16],
}

/// Reads the 32-byte file header of a version 2 segment file.
pub(super) fn read_file_header(seg_name: &str, head: &[u8]) -> Result<FileHeader, crate::Error> {
    let truncated = || crate::Error::Truncated {
        layer: format!("ewf (segment file {seg_name}: EWF2 file header)"),
        offset: 0,
        wanted: FILE_HEADER_SIZE,
    };
    let h = head
        .get(..FILE_HEADER_SIZE as usize)
        .ok_or_else(truncated)?;
    if h[8] != 2 {
        return Err(crate::Error::Unsupported {
            layer: "ewf".into(),
            detail: format!(
                "segment file {seg_name}: EWF2 format version {}.{} (only 2.x is read)",
                h[8], h[9]
            ),
        });
    }
    let method = u16::from_le_bytes([h[10], h[11]]);
    let mut set_identifier = [0u8; 16];
    set_identifier.copy_from_slice(&h[16..32]);
    Ok(FileHeader {
        method,
        set_identifier,
    })
}

/// Refuses what this reader cannot decode: bzip2 chunks (method 2) and unknown methods.
pub(super) fn check_method(seg_name: &str, method: u16) -> Result<(), crate::Error> {
    match method {
        METHOD_DEFLATE => Ok(()),
        2 => Err(crate::Error::Unsupported {
            layer: "ewf".into(),
            detail: format!(
                "segment file {seg_name}: EWF2 chunks compressed with bzip2 are not read yet"
            ),
        }),
        other => Err(crate::Error::Corrupt {
            layer: "ewf".into(),
            offset: 10,
            detail: format!("segment file {seg_name}: unknown EWF2 compression method {other}"),
        }),
    }
}

/// One section descriptor, checked.
#[derive(Debug, Clone)]
struct Section {
    kind: u32,
    /// File offset of the descriptor (the section's data lies before it).
    at: u64,
    /// File offset where the section's data starts.
    start: u64,
    data_size: u64,
}

impl Section {
    fn name(&self) -> String {
        let known = match self.kind {
            SECTION_DEVICE_INFORMATION => "device information",
            SECTION_CASE_DATA => "case data",
            SECTION_SECTOR_DATA => "sector data",
            SECTION_SECTOR_TABLE => "sector table",
            SECTION_ERROR_TABLE => "error table",
            SECTION_MD5_HASH => "MD5 hash",
            SECTION_SHA1_HASH => "SHA-1 hash",
            SECTION_ENCRYPTION_KEYS => "encryption keys",
            SECTION_NEXT => "next",
            SECTION_DONE => "done",
            _ => return format!("section type {:#x}", self.kind),
        };
        format!("{known} section")
    }
}

/// Reads the descriptor chain of one segment file from its end, and returns its sections in
/// file order.
fn sections(seg: &Segment) -> Result<Vec<Section>, Fault> {
    if seg.len < FILE_HEADER_SIZE + DESCRIPTOR_SIZE {
        return Err(Fault::truncated(
            seg,
            0,
            FILE_HEADER_SIZE + DESCRIPTOR_SIZE,
            format!("{} bytes hold no EWF2 section", seg.len),
        ));
    }
    let mut out: Vec<Section> = Vec::new();
    let mut at = seg.len - DESCRIPTOR_SIZE;
    loop {
        let d = read_bytes(seg, at, DESCRIPTOR_SIZE, "section descriptor")?;
        let stored = le_u32(&d, 60).unwrap_or(0);
        let computed = adler32(&d[..60]);
        if stored != computed {
            let detail = if out.is_empty() {
                format!(
                    "the last 64 bytes are not a valid section descriptor (Adler-32 stored {stored:08x}, computed {computed:08x}): the file is truncated or damaged at its end"
                )
            } else {
                format!(
                    "section descriptor fails its Adler-32 (stored {stored:08x}, computed {computed:08x})"
                )
            };
            return Err(Fault::corrupt(seg, at, detail));
        }
        let kind = le_u32(&d, 0).unwrap_or(0);
        let data_flags = le_u32(&d, 4).unwrap_or(0);
        let previous = le_u64(&d, 8).unwrap_or(0);
        let data_size = le_u64(&d, 16).unwrap_or(0);
        let descriptor_size = le_u32(&d, 24).unwrap_or(0);
        if u64::from(descriptor_size) != DESCRIPTOR_SIZE {
            return Err(Fault::corrupt(
                seg,
                at,
                format!("section descriptor declares {descriptor_size} bytes, not 64"),
            ));
        }
        let start = if previous == 0 {
            FILE_HEADER_SIZE
        } else {
            // The walk must move strictly backwards: a descriptor can only point to one
            // before it, so the walk ends.
            if previous >= at || previous < FILE_HEADER_SIZE {
                return Err(Fault::corrupt(
                    seg,
                    at,
                    format!(
                        "section descriptor points back to offset {previous}, not between the file header and itself"
                    ),
                ));
            }
            previous + DESCRIPTOR_SIZE
        };
        if start > at || data_size > at - start {
            return Err(Fault::corrupt(
                seg,
                at,
                format!(
                    "section data of {data_size} bytes does not fit between offset {start} and its descriptor"
                ),
            ));
        }
        let section = Section {
            kind,
            at,
            start,
            data_size,
        };
        if data_flags & DATA_ENCRYPTED != 0 || kind == SECTION_ENCRYPTION_KEYS {
            return Err(Fault::unsupported(
                seg,
                at,
                format!(
                    "the {} is encrypted (EnCase encrypted evidence): not readable without its key",
                    section.name()
                ),
            ));
        }
        out.push(section);
        if previous == 0 {
            break;
        }
        at = previous;
    }
    out.reverse();
    Ok(out)
}

/// The data of a section, read whole (bounded by the file, see `read_bytes`).
fn data(seg: &Segment, s: &Section) -> Result<Vec<u8>, Fault> {
    read_bytes(seg, s.start, s.data_size, &s.name())
}

/// Values of the device information and case data sections.
#[derive(Default)]
struct Values {
    device: Option<BTreeMap<String, String>>,
    case: Option<BTreeMap<String, String>>,
}

/// Reads the section chains of all segment files of a version 2 set, in order.
pub(super) fn read_layout(
    segments: &[Segment],
    first_ext: &str,
    first: &Path,
    set_identifier: [u8; 16],
) -> Layout {
    let mut layout = Layout::empty();
    let mut values = Values::default();
    let mut chunks: Vec<V2Chunk> = Vec::new();
    let (stop, warning) = walk_set(segments, first, first_ext, |idx, seg| {
        walk_segment(idx, seg, &mut layout, &mut values, &mut chunks)
    });
    layout.warnings.extend(warning);
    layout.stop = stop;
    match geometry(&values, set_identifier) {
        Ok(g) => layout.geometry = Some(g),
        Err(problem) => layout.warnings.push(problem),
    }
    layout.header2 = Some(header_map(&values));
    layout.v2 = Some(chunks);
    layout
}

/// Walks one segment file. `Ok(true)` when it ends with `done`, `Ok(false)` with `next`.
fn walk_segment(
    idx: usize,
    seg: &Segment,
    layout: &mut Layout,
    values: &mut Values,
    chunks: &mut Vec<V2Chunk>,
) -> Result<bool, Fault> {
    let list = sections(seg)?;
    let last = list.last().map_or(0, |s| s.kind);
    if last != SECTION_NEXT && last != SECTION_DONE {
        let at = list.last().map_or(0, |s| s.at);
        return Err(Fault::corrupt(
            seg,
            at,
            "the segment file does not end with a next or done section".to_string(),
        ));
    }
    // Data ranges of the sector data sections seen so far in this file.
    let mut sector_data: Vec<(u64, u64)> = Vec::new();
    for s in &list {
        match s.kind {
            SECTION_DEVICE_INFORMATION | SECTION_CASE_DATA => {
                let body = data(seg, s)?;
                match header_values(&body, true) {
                    Ok(map) => {
                        let slot = if s.kind == SECTION_DEVICE_INFORMATION {
                            &mut values.device
                        } else {
                            &mut values.case
                        };
                        if slot.is_none() {
                            *slot = Some(map);
                            if layout.geometry_at.0.is_empty() && s.kind == SECTION_CASE_DATA {
                                layout.geometry_at = (seg.name.clone(), s.start);
                            }
                        }
                    }
                    Err(e) => layout.warnings.push(format!(
                        "segment file {}, file offset {}: {}: {e}",
                        seg.name,
                        s.start,
                        s.name()
                    )),
                }
            }
            SECTION_SECTOR_DATA => sector_data.push((s.start, s.start + s.data_size)),
            SECTION_SECTOR_TABLE => read_table(idx, seg, s, &sector_data, chunks)?,
            SECTION_MD5_HASH | SECTION_SHA1_HASH => {
                let body = data(seg, s)?;
                let n = if s.kind == SECTION_MD5_HASH { 16 } else { 20 };
                let ok = body.len() >= n + 4 && le_u32(&body, n) == Some(adler32(&body[..n]));
                if !ok {
                    layout.warnings.push(format!(
                        "segment file {}, file offset {}: {} fails its Adler-32; the stored digest is not used",
                        seg.name,
                        s.start,
                        s.name()
                    ));
                } else if n == 16 {
                    let mut d = [0u8; 16];
                    d.copy_from_slice(&body[..16]);
                    layout.stored_md5 = Some(d);
                } else {
                    let mut d = [0u8; 20];
                    d.copy_from_slice(&body[..20]);
                    layout.stored_sha1 = Some(d);
                }
            }
            SECTION_ERROR_TABLE => {
                let body = data(seg, s)?;
                match parse_error_table(&body) {
                    Ok(ranges) => layout.acquisition_errors.extend(ranges),
                    Err(e) => layout.warnings.push(format!(
                        "segment file {}, file offset {}: error table: {e}",
                        seg.name, s.start
                    )),
                }
            }
            _ => {}
        }
    }
    Ok(last == SECTION_DONE)
}

/// Reads a sector table and appends its chunks, checking them against the sector data
/// sections before it.
fn read_table(
    idx: usize,
    seg: &Segment,
    s: &Section,
    sector_data: &[(u64, u64)],
    chunks: &mut Vec<V2Chunk>,
) -> Result<(), Fault> {
    if s.data_size < TABLE_HEADER_SIZE + TABLE_FOOTER_SIZE {
        return Err(Fault::corrupt(
            seg,
            s.start,
            format!(
                "sector table of {} bytes is smaller than its header and footer",
                s.data_size
            ),
        ));
    }
    let head = read_bytes(seg, s.start, TABLE_HEADER_SIZE, "sector table header")?;
    if le_u32(&head, 16) != Some(adler32(&head[..16])) {
        return Err(Fault::corrupt(
            seg,
            s.start,
            "sector table header fails its Adler-32",
        ));
    }
    let first_chunk = le_u64(&head, 0).unwrap_or(0);
    let count = u64::from(le_u32(&head, 8).unwrap_or(0));
    let room = (s.data_size - TABLE_HEADER_SIZE - TABLE_FOOTER_SIZE) / TABLE_ENTRY_SIZE;
    if count > room {
        return Err(Fault::corrupt(
            seg,
            s.start,
            format!("sector table declares {count} entries, its section holds at most {room}"),
        ));
    }
    if first_chunk != chunks.len() as u64 {
        return Err(Fault::corrupt(
            seg,
            s.start,
            format!(
                "sector table starts at chunk {first_chunk}, but {} chunks are mapped before it",
                chunks.len()
            ),
        ));
    }
    let entries_at = s.start + TABLE_HEADER_SIZE;
    let body = read_bytes(
        seg,
        entries_at,
        count * TABLE_ENTRY_SIZE + 4,
        "sector table entries",
    )?;
    let n = usize::try_from(count * TABLE_ENTRY_SIZE).unwrap_or(usize::MAX);
    let (stored, computed) = (le_u32(&body, n).unwrap_or(0), adler32(&body[..n]));
    if stored != computed {
        return Err(Fault::corrupt(
            seg,
            entries_at,
            format!(
                "sector table entries fail their Adler-32 (stored {stored:08x}, computed {computed:08x})"
            ),
        ));
    }
    let segment = u16::try_from(idx).unwrap_or(u16::MAX);
    for e in body[..n].chunks_exact(16) {
        let offset = le_u64(e, 0).unwrap_or(0);
        let size = le_u32(e, 8).unwrap_or(0);
        let flags = le_u32(e, 12).unwrap_or(0);
        let mut flags = match u16::try_from(flags) {
            Ok(f) if f & CHUNK_OUTSIDE == 0 => f,
            // Unknown either way; kept clear of the reader's own mark.
            _ => 0x7fff,
        };
        if flags & CHUNK_PATTERN == 0 {
            let end = offset.checked_add(u64::from(size));
            let inside = end.is_some_and(|end| {
                sector_data
                    .iter()
                    .any(|&(from, to)| offset >= from && end <= to)
            });
            if size == 0 || !inside {
                flags |= CHUNK_OUTSIDE;
            }
        }
        chunks.push(V2Chunk {
            offset,
            size,
            flags,
            segment,
        });
    }
    Ok(())
}

/// The acquisition errors of an error table: a header (entry count, padding, Adler-32 of the
/// header, padding), 16-byte entries (first sector, sector count, padding), then an Adler-32
/// of the entries and padding.
fn parse_error_table(body: &[u8]) -> Result<Vec<super::SectorRange>, String> {
    let head = body.get(..32).ok_or("shorter than its header")?;
    if le_u32(head, 16) != Some(adler32(&head[..16])) {
        return Err("header fails its Adler-32".into());
    }
    let count = usize::try_from(le_u32(head, 0).unwrap_or(0)).unwrap_or(usize::MAX);
    let n = count.checked_mul(16).ok_or("entry count overflows")?;
    let entries = body
        .get(32..32usize.saturating_add(n))
        .ok_or_else(|| format!("declares {count} entries, the section holds fewer"))?;
    if le_u32(body, 32 + n) != Some(adler32(entries)) {
        return Err("entries fail their Adler-32".into());
    }
    Ok(entries
        .chunks_exact(16)
        .map(|e| super::SectorRange {
            first_sector: le_u64(e, 0).unwrap_or(0),
            count: u64::from(le_u32(e, 8).unwrap_or(0)),
        })
        .collect())
}

/// The media geometry from the device information (`ts` sectors, `bp` bytes per sector, `dt`
/// drive type) and the case data (`sb` sectors per chunk, `tb` chunks).
fn geometry(values: &Values, set_identifier: [u8; 16]) -> Result<Geometry, String> {
    let device = values
        .device
        .as_ref()
        .ok_or("no readable device information section in the set")?;
    let case = values
        .case
        .as_ref()
        .ok_or("no readable case data section in the set")?;
    let number = |map: &BTreeMap<String, String>, key: &str, what: &str| -> Result<u64, String> {
        let v = map.get(key).map(|v| v.trim()).unwrap_or_default();
        v.parse::<u64>()
            .map_err(|_| format!("{what} ({key}) is {v:?}, not a number"))
    };
    let sector_count = number(device, "ts", "device information: sector count")?;
    let bytes_per_sector = number(device, "bp", "device information: bytes per sector")?;
    let sectors_per_chunk = number(case, "sb", "case data: sectors per chunk")?;
    let chunk_count = number(case, "tb", "case data: chunk count")?;
    let small =
        |v: u64, what: &str| u32::try_from(v).map_err(|_| format!("{what} {v} is out of range"));
    let media_type = match device.get("dt").map(|s| s.trim()) {
        Some("r") => 0x00,
        Some("c") => 0x03,
        Some("l") => 0x0e,
        Some("m") => 0x10,
        _ => 0x01,
    };
    Ok(Geometry {
        media_type,
        chunk_count: small(chunk_count, "chunk count")?,
        sectors_per_chunk: small(sectors_per_chunk, "sectors per chunk")?,
        bytes_per_sector: small(bytes_per_sector, "bytes per sector")?,
        sector_count,
        media_flags: None,
        compression_level: None,
        error_granularity: case.get("gr").and_then(|v| v.trim().parse().ok()),
        set_identifier: (set_identifier != [0u8; 16]).then_some(set_identifier),
    })
}

/// The case data and device information as the version 1 header keys [`super::HeaderValues`]
/// reads (`c` case number, `n` evidence number, `a` description, …).
fn header_map(values: &Values) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    type Map = Option<BTreeMap<String, String>>;
    let pairs: [(&Map, &str, &str); 12] = [
        (&values.case, "cn", "c"),
        (&values.case, "en", "n"),
        (&values.case, "nm", "a"),
        (&values.case, "ex", "e"),
        (&values.case, "nt", "t"),
        (&values.case, "at", "m"),
        (&values.case, "tt", "u"),
        (&values.case, "av", "av"),
        (&values.case, "os", "ov"),
        (&values.case, "cp", "r"),
        (&values.device, "md", "md"),
        (&values.device, "sn", "sn"),
    ];
    for (map, from, to) in pairs {
        if let Some(v) = map.as_ref().and_then(|m| m.get(from)) {
            out.insert(to.to_string(), v.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_table_entries_are_checked() {
        let mut body = vec![0u8; 32];
        body[0] = 1;
        let ck = adler32(&body[..16]);
        body[16..20].copy_from_slice(&ck.to_le_bytes());
        let mut entry = vec![0u8; 16];
        entry[0..8].copy_from_slice(&100u64.to_le_bytes());
        entry[8..12].copy_from_slice(&7u32.to_le_bytes());
        body.extend_from_slice(&entry);
        body.extend_from_slice(&adler32(&entry).to_le_bytes());
        body.extend_from_slice(&[0u8; 12]);
        let ranges = parse_error_table(&body).expect("valid table");
        assert_eq!(
            ranges,
            vec![super::super::SectorRange {
                first_sector: 100,
                count: 7
            }]
        );
        body[32] ^= 1;
        assert!(parse_error_table(&body).is_err());
    }
}
