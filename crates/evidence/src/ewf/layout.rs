//! The structure of an EWF version 1 segment set: file headers, the section chain of every
//! segment file, and what the sections hold (geometry, header values, chunk tables, stored
//! digests, acquisition errors).
//!
//! Everything here is read from evidence and checked before use: every section descriptor and
//! every fixed-size section body carries an Adler-32, which is verified; every offset is checked
//! against the file length; the section chain must move forward (so a walk ends within
//! `file length / 76` steps); no allocation is sized by a field that the file does not back with
//! bytes. The first structural fault stops the chunk mapping: chunks mapped before it stay
//! readable, the rest are reported (by [`super::EwfImage`]) with the fault as the reason.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::bytes::{ByteSource, FileBytes};

/// Size of a section descriptor.
pub(super) const DESCRIPTOR_SIZE: u64 = 76;
/// Size of a segment file header.
pub(super) const FILE_HEADER_SIZE: u64 = 13;
/// Size of a table header.
const TABLE_HEADER_SIZE: u64 = 24;
/// Largest header/header2 text accepted once decompressed.
const HEADER_TEXT_LIMIT: u64 = 1 << 20;

pub(super) const EVF_SIGNATURE: &[u8; 8] = b"EVF\x09\x0d\x0a\xff\x00";
pub(super) const LVF_SIGNATURE: &[u8; 8] = b"LVF\x09\x0d\x0a\xff\x00";
pub(super) const EVF2_SIGNATURE: &[u8; 8] = b"EVF2\x0d\x0a\x81\x00";
pub(super) const LEF2_SIGNATURE: &[u8; 8] = b"LEF2\x0d\x0a\x81\x00";

/// Adler-32 (RFC 1950), the checksum EWF puts on descriptors, section bodies and uncompressed
/// chunks.
pub(crate) fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    // The largest n such that 255 n (n + 1) / 2 + (n + 1) (MOD - 1) fits in a u32 (zlib's NMAX).
    const NMAX: usize = 5552;
    let (mut a, mut b) = (1u32, 0u32);
    for block in data.chunks(NMAX) {
        for &x in block {
            a += u32::from(x);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

pub(super) fn le_u32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        data.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

pub(super) fn le_u64(data: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        data.get(at..at.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// Whether `data[..at]` has the Adler-32 stored at `data[at..at + 4]`.
fn checksum_ok(data: &[u8], at: usize) -> bool {
    match (data.get(..at), le_u32(data, at)) {
        (Some(body), Some(stored)) => adler32(body) == stored,
        _ => false,
    }
}

/// One segment file, opened read-only.
pub(super) struct Segment {
    pub(super) path: PathBuf,
    /// The file name, for messages.
    pub(super) name: String,
    pub(super) file: FileBytes,
    pub(super) len: u64,
    /// Segment number from the file header.
    pub(super) number: u16,
}

/// A problem found in the structure: where, and what.
#[derive(Debug, Clone)]
pub(super) struct Fault {
    /// Segment file name.
    pub(super) segment: String,
    /// Offset in the segment file.
    pub(super) offset: u64,
    pub(super) detail: String,
    /// Set when the file simply ended early: the bytes wanted at `offset`.
    pub(super) truncated: Option<u64>,
    /// Set when the structure is sound but holds what is not read (encryption).
    pub(super) unsupported: bool,
}

impl Fault {
    pub(super) fn corrupt(seg: &Segment, offset: u64, detail: impl Into<String>) -> Fault {
        Fault {
            segment: seg.name.clone(),
            offset,
            detail: detail.into(),
            truncated: None,
            unsupported: false,
        }
    }

    pub(super) fn truncated(
        seg: &Segment,
        offset: u64,
        wanted: u64,
        detail: impl Into<String>,
    ) -> Fault {
        Fault {
            segment: seg.name.clone(),
            offset,
            detail: detail.into(),
            truncated: Some(wanted),
            unsupported: false,
        }
    }

    pub(super) fn unsupported(seg: &Segment, offset: u64, detail: impl Into<String>) -> Fault {
        Fault {
            unsupported: true,
            ..Fault::corrupt(seg, offset, detail)
        }
    }

    /// One line for messages: `segment file X, file offset Y: detail`.
    pub(super) fn describe(&self) -> String {
        format!(
            "segment file {}, file offset {}: {}",
            self.segment, self.offset, self.detail
        )
    }

    pub(super) fn into_error(self) -> crate::Error {
        if self.unsupported {
            return crate::Error::Unsupported {
                layer: "ewf".to_string(),
                detail: self.describe(),
            };
        }
        match self.truncated {
            Some(wanted) => crate::Error::Truncated {
                layer: format!("ewf (segment file {}: {})", self.segment, self.detail),
                offset: self.offset,
                wanted,
            },
            None => crate::Error::Corrupt {
                layer: "ewf".to_string(),
                offset: self.offset,
                detail: format!("segment file {}: {}", self.segment, self.detail),
            },
        }
    }
}

/// Media geometry from a `volume`, `disk` or `data` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Geometry {
    pub(super) media_type: u8,
    pub(super) chunk_count: u32,
    pub(super) sectors_per_chunk: u32,
    pub(super) bytes_per_sector: u32,
    pub(super) sector_count: u64,
    pub(super) media_flags: Option<u8>,
    pub(super) compression_level: Option<u8>,
    pub(super) error_granularity: Option<u32>,
    pub(super) set_identifier: Option<[u8; 16]>,
}

/// Parses a volume (or disk, or data) section body: the 1052-byte EnCase/FTK/linen layout, or
/// the 94-byte layout of the original EWF specification and SMART.
pub(super) fn parse_volume(body: &[u8]) -> Result<Geometry, String> {
    let u32_at = |at| le_u32(body, at).ok_or_else(|| "volume body too short".to_string());
    if body.len() >= 1052 {
        if !checksum_ok(body, 1048) {
            return Err("volume data fails its Adler-32 checksum".into());
        }
        let mut guid = [0u8; 16];
        guid.copy_from_slice(body.get(64..80).ok_or("volume body too short")?);
        Ok(Geometry {
            media_type: *body.first().ok_or("volume body too short")?,
            chunk_count: u32_at(4)?,
            sectors_per_chunk: u32_at(8)?,
            bytes_per_sector: u32_at(12)?,
            sector_count: le_u64(body, 16).ok_or("volume body too short")?,
            media_flags: body.get(36).copied(),
            compression_level: body.get(52).copied(),
            error_granularity: Some(u32_at(56)?),
            set_identifier: (guid != [0u8; 16]).then_some(guid),
        })
    } else if body.len() >= 94 {
        if !checksum_ok(body, 90) {
            return Err("volume data fails its Adler-32 checksum".into());
        }
        Ok(Geometry {
            media_type: 1,
            chunk_count: u32_at(4)?,
            sectors_per_chunk: u32_at(8)?,
            bytes_per_sector: u32_at(12)?,
            sector_count: u64::from(u32_at(16)?),
            media_flags: None,
            compression_level: None,
            error_granularity: None,
            set_identifier: None,
        })
    } else {
        Err(format!(
            "volume section holds {} bytes, fewer than the 94 of the smallest layout",
            body.len()
        ))
    }
}

/// A table (or table2) section, parsed and checked.
#[derive(Debug, Clone)]
struct Table {
    /// File offset of the section descriptor.
    at: u64,
    base: u64,
    entries: Vec<u32>,
    /// `Some(false)` when the entries fail their Adler-32; `None` when the section has no room
    /// for one (EnCase 1 and SMART keep chunk data in the table section instead).
    entries_ok: Option<bool>,
    /// End of the entries (and their checksum): chunk data of EnCase 1/SMART tables follows.
    entries_end: u64,
    /// End of the section.
    section_end: u64,
}

/// A run of consecutive chunks described by one table section.
#[derive(Debug, Clone)]
pub(super) struct Run {
    /// Number of the run's first chunk in the media.
    pub(super) first_chunk: u64,
    /// Index of the segment file.
    pub(super) segment: usize,
    /// Table base offset: entry offsets are relative to it (0 = relative to the file start).
    pub(super) base: u64,
    /// File range where this run's chunk data must lie.
    pub(super) data_start: u64,
    pub(super) data_end: u64,
}

/// How the reading of the segment set ended.
#[derive(Debug, Clone)]
pub(super) enum Stop {
    /// A `done` section closed the set.
    Done,
    /// The last segment file found ends with a `next` section: the following one is missing.
    MissingSegment {
        path: PathBuf,
        missing: String,
        found: usize,
    },
    /// A structural fault stopped the walk; nothing after it is trusted.
    Fault(Fault),
}

/// A range of sectors the acquisition tool could not read (error2 section).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectorRange {
    /// First sector of the range.
    pub first_sector: u64,
    /// Number of sectors.
    pub count: u64,
}

/// Everything the section chain told.
pub(super) struct Layout {
    pub(super) geometry: Option<Geometry>,
    /// Where the geometry was read: segment file name and file offset of the section.
    pub(super) geometry_at: (String, u64),
    /// Table entries of every mapped chunk, in media order.
    pub(super) entries: Vec<u32>,
    pub(super) runs: Vec<Run>,
    pub(super) stop: Stop,
    /// Values of the `header2` section (preferred) and of the `header` section.
    pub(super) header2: Option<BTreeMap<String, String>>,
    pub(super) header: Option<BTreeMap<String, String>>,
    pub(super) stored_md5: Option<[u8; 16]>,
    pub(super) stored_sha1: Option<[u8; 20]>,
    pub(super) acquisition_errors: Vec<SectorRange>,
    pub(super) warnings: Vec<String>,
    /// Every mapped chunk of a version 2 set (version 1 uses `entries` and `runs`).
    pub(super) v2: Option<Vec<super::layout2::V2Chunk>>,
}

impl Layout {
    pub(super) fn empty() -> Layout {
        Layout {
            geometry: None,
            geometry_at: (String::new(), 0),
            entries: Vec::new(),
            runs: Vec::new(),
            stop: Stop::Done,
            header2: None,
            header: None,
            stored_md5: None,
            stored_sha1: None,
            acquisition_errors: Vec::new(),
            warnings: Vec::new(),
            v2: None,
        }
    }
}

/// Reads `len` bytes at `offset` of a segment, or reports a truncation.
pub(super) fn read_bytes(
    seg: &Segment,
    offset: u64,
    len: u64,
    what: &str,
) -> Result<Vec<u8>, Fault> {
    let end = offset.checked_add(len).ok_or_else(|| {
        Fault::corrupt(seg, offset, format!("{what}: offset arithmetic overflows"))
    })?;
    if end > seg.len {
        return Err(Fault::truncated(
            seg,
            offset,
            len,
            format!(
                "{what} ends at {end}, past the end of the file ({} bytes)",
                seg.len
            ),
        ));
    }
    // `end <= seg.len`, a length the file system reported: this allocation is backed by bytes.
    let mut buf = vec![
        0u8;
        usize::try_from(len).map_err(|_| {
            Fault::corrupt(
                seg,
                offset,
                format!("{what}: {len} bytes do not fit in memory"),
            )
        })?
    ];
    match seg.file.read_at(offset, &mut buf) {
        Ok(n) if n == buf.len() => Ok(buf),
        Ok(n) => Err(Fault::truncated(
            seg,
            offset,
            len,
            format!("{what}: the file ended after {n} of {len} bytes"),
        )),
        Err(e) => Err(Fault::corrupt(seg, offset, format!("{what}: {e}"))),
    }
}

/// Reads the file header of a segment: its signature and segment number (the 13-byte version
/// 1 header, or the 32-byte version 2 header with its 32-bit number, saturated).
pub(super) fn read_file_header(file: &FileBytes) -> Result<([u8; 8], u16), crate::Error> {
    let mut head = [0u8; 16];
    let n = file.read_at(0, &mut head)?;
    let mut sig = [0u8; 8];
    sig.copy_from_slice(&head[..8]);
    if &sig == EVF2_SIGNATURE || &sig == LEF2_SIGNATURE {
        if n < 16 {
            return Ok((sig, 0));
        }
        let number = u32::from_le_bytes([head[12], head[13], head[14], head[15]]);
        return Ok((sig, u16::try_from(number).unwrap_or(u16::MAX)));
    }
    if n < FILE_HEADER_SIZE as usize {
        return Ok((sig, 0));
    }
    Ok((sig, u16::from_le_bytes([head[9], head[10]])))
}

/// Table being read: a `table` waits for its `table2` mirror before it is committed.
enum Pending {
    None,
    Good(Table),
    /// The `table` failed a check; `table2` must replace it.
    Bad(Fault),
}

/// State of the walk over all segments.
struct Walker {
    layout: Layout,
    /// Data range of the most recent `sectors` section of the current segment.
    sectors: Option<(u64, u64)>,
    pending: Pending,
    /// Why the first volume section could not be used, until a valid copy replaces it.
    geometry_from: Option<String>,
}

/// Reads the section chains of all segment files, in order.
pub(super) fn read_layout(
    segments: &[Segment],
    first_ext: &str,
    first: &std::path::Path,
) -> Layout {
    let mut w = Walker {
        layout: Layout::empty(),
        sectors: None,
        pending: Pending::None,
        geometry_from: None,
    };
    let (stop, warning) = walk_set(segments, first, first_ext, |idx, seg| {
        w.sectors = None;
        w.walk_segment(idx, seg)
    });
    w.layout.warnings.extend(warning);
    if w.layout.geometry.is_none()
        && let Some(problem) = w.geometry_from.take()
    {
        w.layout.warnings.push(problem);
    }
    w.layout.stop = stop;
    w.layout
}

/// Walks the segment files of the set of `first` in order with `walk` (`Ok(true)`: the file
/// ends the set with `done`; `Ok(false)`: with `next`), until one ends the set or fails; when
/// every file ends with `next`, the following one is missing. How the walk stopped, and a
/// warning when files after the one that ended the set were ignored.
pub(super) fn walk_set(
    segments: &[Segment],
    first: &std::path::Path,
    first_ext: &str,
    mut walk: impl FnMut(usize, &Segment) -> Result<bool, Fault>,
) -> (Stop, Option<String>) {
    for (idx, seg) in segments.iter().enumerate() {
        match walk(idx, seg) {
            Ok(true) => {
                let warning = (idx + 1 < segments.len()).then(|| {
                    format!(
                        "segment file {} ends the set with a done section; {} later segment file(s) ignored",
                        seg.name,
                        segments.len() - idx - 1
                    )
                });
                return (Stop::Done, warning);
            }
            Ok(false) => {}
            Err(fault) => return (Stop::Fault(fault), None),
        }
    }
    let last = segments.last().map_or(0, |s| u32::from(s.number));
    (
        missing_segment(first, first_ext, last.saturating_add(1)),
        None,
    )
}

/// Describes the missing segment `number` of the set of `first`, and counts the segment files
/// present after it.
fn missing_segment(first: &std::path::Path, first_ext: &str, number: u32) -> Stop {
    let name_of = |n: u32| crate::files::ewf_extension(first_ext, n);
    let Some(missing) = name_of(number) else {
        return Stop::MissingSegment {
            path: first.to_path_buf(),
            missing: format!("number {number}"),
            found: 0,
        };
    };
    let path = first.with_extension(&missing);
    let mut found = 0;
    let mut n = number;
    // Bounded by the naming scheme (at most ZZZ, about 14 000 names).
    loop {
        n = n.saturating_add(1);
        match name_of(n) {
            Some(ext) if first.with_extension(&ext).is_file() => found += 1,
            _ => break,
        }
    }
    Stop::MissingSegment {
        path,
        missing,
        found,
    }
}

impl Walker {
    /// Walks one segment's section chain. `Ok(true)` when it ends with `done`, `Ok(false)` with
    /// `next`.
    fn walk_segment(&mut self, idx: usize, seg: &Segment) -> Result<bool, Fault> {
        let mut off = FILE_HEADER_SIZE;
        // Each step moves `off` forward by at least one descriptor, so this ends.
        loop {
            let desc = read_bytes(seg, off, DESCRIPTOR_SIZE, "section descriptor")?;
            if !checksum_ok(&desc, 72) {
                return Err(Fault::corrupt(
                    seg,
                    off,
                    "section descriptor fails its Adler-32 checksum",
                ));
            }
            let kind_raw = desc.get(..16).unwrap_or_default();
            let kind_len = kind_raw.iter().position(|&b| b == 0).unwrap_or(16);
            let kind_bytes = kind_raw.get(..kind_len).unwrap_or_default();
            if !kind_bytes.iter().all(|b| b.is_ascii_graphic()) {
                return Err(Fault::corrupt(seg, off, "section type is not ASCII text"));
            }
            let kind = String::from_utf8_lossy(kind_bytes).into_owned();
            let next = le_u64(&desc, 16).unwrap_or(0);
            let size = le_u64(&desc, 24).unwrap_or(0);
            let body_start = off + DESCRIPTOR_SIZE;
            if kind == "done" || kind == "next" {
                self.flush_pending(idx, seg)?;
                return Ok(kind == "done");
            }
            if next <= off {
                return Err(Fault::corrupt(
                    seg,
                    off,
                    format!(
                        "section '{kind}' points to a next section at {next}, not after itself"
                    ),
                ));
            }
            // The body ends where the next section starts, or earlier if the size says so.
            let mut end = next;
            if size >= DESCRIPTOR_SIZE
                && let Some(e) = off.checked_add(size)
            {
                end = end.min(e);
            }
            if end < body_start {
                return Err(Fault::corrupt(
                    seg,
                    off,
                    format!("section '{kind}' is smaller than its descriptor"),
                ));
            }
            if next > seg.len {
                return Err(Fault::truncated(
                    seg,
                    off,
                    next - off,
                    format!(
                        "section '{kind}' ends at {next}, past the end of the file ({} bytes)",
                        seg.len
                    ),
                ));
            }
            if kind != "table2" && !matches!(self.pending, Pending::None) {
                self.flush_pending(idx, seg)?;
            }
            self.section(idx, seg, &kind, off, body_start, end)?;
            off = next;
        }
    }

    /// Interprets one section.
    fn section(
        &mut self,
        idx: usize,
        seg: &Segment,
        kind: &str,
        at: u64,
        start: u64,
        end: u64,
    ) -> Result<(), Fault> {
        let len = end - start;
        match kind {
            "header" | "header2" => {
                let body = read_bytes(seg, start, len, kind)?;
                let slot_taken = if kind == "header" {
                    self.layout.header.is_some()
                } else {
                    self.layout.header2.is_some()
                };
                if slot_taken {
                    return Ok(());
                }
                match header_values(&body, kind == "header2") {
                    Ok(values) => {
                        if kind == "header" {
                            self.layout.header = Some(values);
                        } else {
                            self.layout.header2 = Some(values);
                        }
                    }
                    Err(e) => self.layout.warnings.push(format!(
                        "segment file {}, file offset {at}: {kind} section unreadable: {e}",
                        seg.name
                    )),
                }
            }
            "volume" | "disk" | "data" => {
                let body = read_bytes(seg, start, len.min(4096), kind)?;
                match parse_volume(&body) {
                    Ok(g) => match &self.layout.geometry {
                        None => {
                            if let Some(bad) = self.geometry_from.take() {
                                self.layout.warnings.push(format!(
                                    "{bad}; geometry taken from the {kind} section of segment file {} instead",
                                    seg.name
                                ));
                            }
                            self.layout.geometry = Some(g);
                            self.layout.geometry_at = (seg.name.clone(), at);
                        }
                        Some(known) if *known != g => {
                            self.layout.warnings.push(format!(
                                "segment file {}, file offset {at}: {kind} section disagrees with the geometry already read; ignored",
                                seg.name
                            ));
                        }
                        Some(_) => {}
                    },
                    Err(e) => {
                        let msg = format!(
                            "segment file {}, file offset {at}: {kind} section: {e}",
                            seg.name
                        );
                        if self.layout.geometry.is_none() {
                            // Remember it: a later copy (the data section) may stand in.
                            self.geometry_from = Some(msg);
                        } else {
                            self.layout.warnings.push(msg);
                        }
                    }
                }
            }
            "sectors" => self.sectors = Some((start, end)),
            "table" => {
                self.pending = match self.read_table(seg, at, start, end) {
                    Ok(t) => Pending::Good(t),
                    Err(f) => Pending::Bad(f),
                };
            }
            "table2" => {
                let mirror = self.read_table(seg, at, start, end);
                let pending = std::mem::replace(&mut self.pending, Pending::None);
                let chosen = match (pending, mirror) {
                    (Pending::Good(t), Ok(m)) => {
                        if t.entries_ok == Some(false) && m.entries_ok == Some(true) {
                            self.layout.warnings.push(format!(
                                "segment file {}: table at file offset {} fails its entry checksum; its table2 mirror at {} was used",
                                seg.name, t.at, m.at
                            ));
                            m
                        } else {
                            t
                        }
                    }
                    (Pending::Good(t), Err(_)) => t,
                    (Pending::Bad(f), Ok(m)) => {
                        self.layout.warnings.push(format!(
                            "{}; its table2 mirror at file offset {} was used",
                            f.describe(),
                            m.at
                        ));
                        m
                    }
                    (Pending::Bad(f), Err(_)) => return Err(f),
                    (Pending::None, Ok(m)) => m,
                    (Pending::None, Err(f)) => return Err(f),
                };
                self.commit(idx, seg, chosen)?;
            }
            "hash" => {
                let body = read_bytes(seg, start, len.min(4096), kind)?;
                if body.len() >= 36 && checksum_ok(&body, 32) {
                    let md5 = digest_array::<16>(&body, 0);
                    self.set_md5(md5, "hash", seg);
                } else {
                    self.layout.warnings.push(format!(
                        "segment file {}, file offset {at}: hash section fails its checksum; its MD5 is not used",
                        seg.name
                    ));
                }
            }
            "digest" => {
                let body = read_bytes(seg, start, len.min(4096), kind)?;
                if body.len() >= 80 && checksum_ok(&body, 76) {
                    let md5 = digest_array::<16>(&body, 0);
                    self.set_md5(md5, "digest", seg);
                    if let Some(sha1) = digest_array::<20>(&body, 16) {
                        self.layout.stored_sha1 = Some(sha1);
                    }
                } else {
                    self.layout.warnings.push(format!(
                        "segment file {}, file offset {at}: digest section fails its checksum; its digests are not used",
                        seg.name
                    ));
                }
            }
            "error2" => {
                // The entries array is bounded by the section, which is bounded by the file.
                let body = read_bytes(seg, start, len, kind)?;
                match parse_error2(&body) {
                    Ok(ranges) => self.layout.acquisition_errors = ranges,
                    Err(e) => self.layout.warnings.push(format!(
                        "segment file {}, file offset {at}: error2 section: {e}",
                        seg.name
                    )),
                }
            }
            // Sections that do not concern the media bytes.
            "session" | "ltree" | "ltypes" | "map" | "xheader" | "xhash" | "incomplete" => {}
            other => self.layout.warnings.push(format!(
                "segment file {}, file offset {at}: unknown section type '{other}' skipped",
                seg.name
            )),
        }
        Ok(())
    }

    fn set_md5(&mut self, md5: Option<[u8; 16]>, from: &str, seg: &Segment) {
        let Some(md5) = md5 else { return };
        if let Some(known) = self.layout.stored_md5
            && known != md5
        {
            self.layout.warnings.push(format!(
                "segment file {}: the {from} section's MD5 differs from the one read before; the later one is used",
                seg.name
            ));
        }
        self.layout.stored_md5 = Some(md5);
    }

    /// Parses and checks a table or table2 section.
    fn read_table(&self, seg: &Segment, at: u64, start: u64, end: u64) -> Result<Table, Fault> {
        let head = read_bytes(seg, start, TABLE_HEADER_SIZE, "table header")?;
        if !checksum_ok(&head, 20) {
            return Err(Fault::corrupt(
                seg,
                at,
                "table header fails its Adler-32 checksum",
            ));
        }
        let count = u64::from(le_u32(&head, 0).unwrap_or(0));
        let base = le_u64(&head, 8).unwrap_or(0);
        let room = (end - start).saturating_sub(TABLE_HEADER_SIZE) / 4;
        if count > room {
            return Err(Fault::corrupt(
                seg,
                at,
                format!("table declares {count} entries but its section holds at most {room}"),
            ));
        }
        let entries_at = start + TABLE_HEADER_SIZE;
        let raw = read_bytes(seg, entries_at, count * 4, "table entries")?;
        let entries: Vec<u32> = raw
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let entries_end = entries_at + count * 4;
        let footer = if end - entries_end >= 4 {
            let foot = read_bytes(seg, entries_end, 4, "table footer")?;
            Some(le_u32(&foot, 0).unwrap_or(0) == adler32(&raw))
        } else {
            None
        };
        let (entries_ok, after) = match footer {
            Some(ok) if self.sectors.is_some() => (Some(ok), entries_end + 4),
            // Chunk data inside the table section (EWF, SMART, EnCase 1): EnCase 1 puts a
            // checksum after the entries, EWF and SMART start the first chunk right there.
            Some(true) => (Some(true), entries_end + 4),
            Some(false) | None => (None, entries_end),
        };
        Ok(Table {
            at,
            base,
            entries,
            entries_ok,
            entries_end: after,
            section_end: end,
        })
    }

    /// Commits a table left pending when the next section is not its mirror.
    fn flush_pending(&mut self, idx: usize, seg: &Segment) -> Result<(), Fault> {
        match std::mem::replace(&mut self.pending, Pending::None) {
            Pending::None => Ok(()),
            Pending::Good(t) => self.commit(idx, seg, t),
            Pending::Bad(f) => Err(f),
        }
    }

    /// Appends a table's chunks to the media map.
    fn commit(&mut self, idx: usize, seg: &Segment, table: Table) -> Result<(), Fault> {
        if table.entries_ok == Some(false) {
            self.layout.warnings.push(format!(
                "segment file {}: table at file offset {} fails its entry checksum and has no valid mirror; entries used as stored (each chunk is still verified when read)",
                seg.name, table.at
            ));
        }
        // Chunk data lies in the preceding sectors section, or (EnCase 1, SMART) in the table
        // section itself, after the entries.
        let (data_start, data_end) = self
            .sectors
            .unwrap_or((table.entries_end, table.section_end));
        let first_chunk = self.layout.entries.len() as u64;
        if table.entries.is_empty() {
            return Ok(());
        }
        self.layout.runs.push(Run {
            first_chunk,
            segment: idx,
            base: table.base,
            data_start,
            data_end,
        });
        self.layout.entries.extend_from_slice(&table.entries);
        Ok(())
    }
}

fn digest_array<const N: usize>(body: &[u8], at: usize) -> Option<[u8; N]> {
    let bytes: [u8; N] = body.get(at..at + N)?.try_into().ok()?;
    // All zeros means "not computed".
    (bytes != [0u8; N]).then_some(bytes)
}

/// Parses an error2 section body: a 520-byte header (count, checksum at 516), then 8-byte
/// entries and their checksum.
fn parse_error2(body: &[u8]) -> Result<Vec<SectorRange>, String> {
    if body.len() < 520 || !checksum_ok(body, 516) {
        return Err("header fails its Adler-32 checksum".into());
    }
    let count = le_u32(body, 0).unwrap_or(0) as usize;
    let room = (body.len() - 520) / 8;
    if count > room {
        return Err(format!("declares {count} entries but holds at most {room}"));
    }
    let entries = body.get(520..520 + count * 8).unwrap_or_default();
    if let Some(stored) = le_u32(body, 520 + count * 8)
        && adler32(entries) != stored
    {
        return Err("entries fail their Adler-32 checksum".into());
    }
    Ok(entries
        .chunks_exact(8)
        .map(|e| SectorRange {
            first_sector: u64::from(le_u32(e, 0).unwrap_or(0)),
            count: u64::from(le_u32(e, 4).unwrap_or(0)),
        })
        .collect())
}

/// Decompresses a header or header2 section and returns its `main` category as a map from
/// identifier (`c`, `n`, `a`, `e`, `t`, `av`, `ov`, `m`, `u`, …) to value.
pub(super) fn header_values(body: &[u8], utf16: bool) -> Result<BTreeMap<String, String>, String> {
    let mut text = Vec::new();
    flate2::read::ZlibDecoder::new(body)
        .take(HEADER_TEXT_LIMIT + 1)
        .read_to_end(&mut text)
        .map_err(|e| format!("zlib: {e}"))?;
    if text.len() as u64 > HEADER_TEXT_LIMIT {
        return Err(format!(
            "decompresses to more than {HEADER_TEXT_LIMIT} bytes"
        ));
    }
    let text = if utf16 {
        decode_utf16(&text)
    } else {
        String::from_utf8_lossy(&text).into_owned()
    };
    Ok(parse_header_text(&text))
}

/// UTF-16 text with an optional byte-order mark (little-endian without one).
fn decode_utf16(bytes: &[u8]) -> String {
    let (big, body) = match bytes {
        [0xff, 0xfe, rest @ ..] => (false, rest),
        [0xfe, 0xff, rest @ ..] => (true, rest),
        _ => (false, bytes),
    };
    let units = body.chunks_exact(2).map(|p| {
        if big {
            u16::from_be_bytes([p[0], p[1]])
        } else {
            u16::from_le_bytes([p[0], p[1]])
        }
    });
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// The `main` category of header text: the line after `main` names the values (tab-separated),
/// the line after that holds them.
pub(super) fn parse_header_text(text: &str) -> BTreeMap<String, String> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut out = BTreeMap::new();
    let Some(main) = lines.iter().position(|l| *l == "main") else {
        return out;
    };
    let (Some(keys), Some(values)) = (lines.get(main + 1), lines.get(main + 2)) else {
        return out;
    };
    for (k, v) in keys.split('\t').zip(values.split('\t')) {
        if !k.is_empty() {
            out.entry(k.to_string()).or_insert_with(|| v.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adler32_known_values() {
        assert_eq!(adler32(b""), 1);
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
        // Long input crosses the NMAX blocking.
        let data = vec![0xffu8; 100_000];
        let (mut a, mut b) = (1u64, 0u64);
        for &x in &data {
            a = (a + u64::from(x)) % 65521;
            b = (b + a) % 65521;
        }
        assert_eq!(adler32(&data), ((b << 16) | a) as u32);
    }

    #[test]
    fn header_text_main_category() {
        let check = |text: &str, key: &str, want: Option<&str>| {
            assert_eq!(
                parse_header_text(text).get(key).map(String::as_str),
                want,
                "{key}"
            );
        };
        let ftk = "1\nmain\nc\tn\ta\te\tt\tav\tov\tm\tu\tp\tr\n \t \tuntitled\t \t \tADI4.7.1.2\tWin 201x\t2023 6 20 10 45 24\t2023 6 20 10 45 24\t0\tf\n";
        check(ftk, "a", Some("untitled"));
        check(ftk, "av", Some("ADI4.7.1.2"));
        check(ftk, "r", Some("f"));
        let encase = "1\r\nmain\r\nc\tn\ta\te\tt\tav\tov\tm\tu\tp\r\ncase\tevidence\tdescription\texaminer\tnotes\t20140812\tLinux\t2021 7 22 17 33 18\t2021 7 22 17 33 18\t0\r\n\r\n";
        check(encase, "c", Some("case"));
        check(encase, "m", Some("2021 7 22 17 33 18"));
        check(encase, "zz", None);
        check("garbage", "c", None);
        check("main\n", "c", None);
    }

    #[test]
    fn utf16_with_and_without_bom() {
        assert_eq!(decode_utf16(&[0xff, 0xfe, b'a', 0, b'b', 0]), "ab");
        assert_eq!(decode_utf16(&[0xfe, 0xff, 0, b'a', 0, b'b']), "ab");
        assert_eq!(decode_utf16(&[b'a', 0, b'b']), "a");
    }

    #[test]
    fn volume_layouts_and_checksums() {
        let mut body = vec![0u8; 1052];
        body[0] = 1;
        body[4..8].copy_from_slice(&3u32.to_le_bytes());
        body[8..12].copy_from_slice(&64u32.to_le_bytes());
        body[12..16].copy_from_slice(&512u32.to_le_bytes());
        body[16..24].copy_from_slice(&150u64.to_le_bytes());
        body[52] = 2;
        let sum = adler32(&body[..1048]);
        body[1048..1052].copy_from_slice(&sum.to_le_bytes());
        let g = parse_volume(&body).unwrap();
        assert_eq!(
            (
                g.chunk_count,
                g.sectors_per_chunk,
                g.bytes_per_sector,
                g.sector_count
            ),
            (3, 64, 512, 150)
        );
        assert_eq!(g.compression_level, Some(2));
        body[5] ^= 1;
        assert!(parse_volume(&body).is_err());

        let mut small = vec![0u8; 94];
        small[4..8].copy_from_slice(&1u32.to_le_bytes());
        small[8..12].copy_from_slice(&64u32.to_le_bytes());
        small[12..16].copy_from_slice(&512u32.to_le_bytes());
        small[16..20].copy_from_slice(&64u32.to_le_bytes());
        let sum = adler32(&small[..90]);
        small[90..94].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(parse_volume(&small).unwrap().sector_count, 64);
        assert!(parse_volume(&small[..50]).is_err());
    }

    #[test]
    fn error2_entries() {
        let mut body = vec![0u8; 520];
        body[0..4].copy_from_slice(&2u32.to_le_bytes());
        let sum = adler32(&body[..516]);
        body[516..520].copy_from_slice(&sum.to_le_bytes());
        let entries = [10u32, 4, 100, 8];
        let raw: Vec<u8> = entries.iter().flat_map(|v| v.to_le_bytes()).collect();
        body.extend_from_slice(&raw);
        body.extend_from_slice(&adler32(&raw).to_le_bytes());
        let ranges = parse_error2(&body).unwrap();
        assert_eq!(
            ranges,
            vec![
                SectorRange {
                    first_sector: 10,
                    count: 4
                },
                SectorRange {
                    first_sector: 100,
                    count: 8
                }
            ]
        );
        body[0] = 200;
        assert!(parse_error2(&body).is_err());
    }
}
