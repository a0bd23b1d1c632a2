//! ZIP archives, read in place.
//!
//! The end record, the ZIP64 end record and the central directory are parsed here (the format is
//! small and fixed; APPNOTE 6.3.10 §4.3) instead of through the `zip` crate, for three reasons:
//!
//! 1. The `zip` crate keeps members in a map keyed by name: when an archive holds a name twice,
//!    the second member silently replaces the first. Forensically both must stay visible (see
//!    [`super::tree`] for how duplicates are listed).
//! 2. Reading members in parallel: with the `zip` crate every read needs `&mut` access to a
//!    `Read + Seek` reader. Here the directory is parsed once into plain records; opening a
//!    member is one positioned read of its local header and compressed bytes (usually a single
//!    `pread`) and an inflate with `flate2` (zlib-rs), on any thread, with no shared state.
//! 3. Every error can name the offset where the archive went wrong.
//!
//! What is read: the last end-of-central-directory record whose central directory checks out
//! (a stray signature in a comment is skipped), ZIP64 end records, prepended data (self
//! extracting archives: the archive offset is found as `unzip` finds it), every central header
//! (names: UTF-8 when flagged or valid, else CP437; the Info-ZIP Unicode path field when its
//! CRC matches; backslashes are separators for archives made on DOS/Windows), ZIP64 extra fields,
//! times (DOS date/time as [`RawTime::FatLocal`]; the extended timestamp field `0x5455` as
//! [`RawTime::Unix`]; the NTFS field `0x000a` as [`RawTime::FileTime`]), Unix modes (host Unix
//! or macOS), owners (the Info-ZIP `ux` field `0x7875`), symbolic links (their target is the
//! member's content).
//!
//! Members: stored members are a [`Slice`] of the archive (CRC-checked when opened if at most
//! [`CRC_CHECKED_STORED`] bytes; larger ones are served unchecked rather than read twice);
//! deflated members are inflated into [`Memory`] after checking the declared size against
//! [`Limits`] (size, expansion ratio, deflate's own ceiling), never inflating past the declared
//! size, and checking the CRC-32. Encrypted members give [`Error::Encrypted`]; other compression
//! methods (bzip2, LZMA, zstd, deflate64, …) give [`Error::Unsupported`] (listed all the same).
//! Split (multi-disk) archives are unsupported. The member index in the central directory is
//! each entry's id.

use crate::endian::{le16, le32, le64};
use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

use flate2::{Crc, Decompress, FlushDecompress, Status};

use super::Limits;
use super::tree::{Meta, Tree, TreeBuilder};
use crate::Error;
use crate::bytes::{ByteSource, Bytes, Memory, Slice};
use crate::fs::{Entry, EntryKind, FileSystem, RawTime, Time, TimeRole};

const EOCD_SIG: &[u8; 4] = b"PK\x05\x06";
const EOCD64_LOCATOR_SIG: u32 = 0x0706_4b50;
const EOCD64_SIG: u32 = 0x0606_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const LOCAL_SIG: u32 = 0x0403_4b50;

/// Stored members of at most this many bytes are CRC-checked when opened.
pub const CRC_CHECKED_STORED: u64 = 16 << 20;
/// Members whose compressed size is at most this are read with their header in one read.
const ONE_READ: u64 = 4 << 20;
/// Chunk of compressed input for larger members.
const CHUNK: usize = 1 << 20;
/// Symbolic link targets longer than this are not read.
const MAX_LINK: u64 = 4096;
/// deflate cannot expand more than ~1032:1 (a 258-byte match per bit pair).
const DEFLATE_CEILING: u64 = 1032;

/// CP437, bytes 0x80–0xFF (the code page of ZIP names not flagged as UTF-8).
const CP437_HIGH: &str = "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐\
└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{a0}";

/// One member as the central directory describes it: where its bytes are and how to read them.
#[derive(Debug, Clone)]
struct Member {
    header_offset: u64,
    method: u16,
    flags: u16,
    crc: u32,
    compressed: u64,
    size: u64,
    /// Name and extra lengths of the central header: the local header usually has the same,
    /// which lets one read fetch the local header and the data together.
    central_name_extra: u64,
}

/// Where the central directory is.
struct End {
    cd_start: u64,
    cd_size: u64,
    entries: u64,
    archive_offset: u64,
    notes: Vec<String>,
}

/// A ZIP archive presented as a tree.
pub struct ZipArchive {
    src: Source,
    tree: Tree<Member>,
    members: usize,
    diagnostics: Vec<String>,
}

/// What reading a member needs: the archive's bytes, its name for errors, the limits.
struct Source {
    bytes: Bytes,
    layer: String,
    limits: Limits,
}

/// Opens a ZIP archive with the default [`Limits`].
pub fn open_zip(bytes: Bytes) -> Result<Arc<dyn FileSystem>, Error> {
    Ok(Arc::new(ZipArchive::open(bytes, Limits::default())?))
}

thread_local! {
    /// One inflater per thread, reset between members (saves its allocation per member).
    static INFLATER: RefCell<Option<Decompress>> = const { RefCell::new(None) };
}

impl ZipArchive {
    /// Parses the central directory of the ZIP archive in `bytes` and builds its tree.
    pub fn open(bytes: Bytes, limits: Limits) -> Result<ZipArchive, Error> {
        let layer = format!("zip in {}", bytes.layer_name());
        let end = find_end(bytes.as_ref(), &layer, &limits)?;
        let mut diagnostics = end.notes.clone();
        let mut cd = vec![0u8; usize::try_from(end.cd_size).unwrap_or(usize::MAX)];
        bytes.read_exact_at(end.cd_start, &mut cd)?;
        let src = Source {
            bytes,
            layer,
            limits,
        };
        let mut builder = TreeBuilder::with_capacity((cd.len() / 96).min(1 << 20), cd.len());
        let walked = parse_central(&cd, &end, &src, &mut builder, &mut diagnostics)?;
        if walked != end.entries {
            let wrapped = end.entries < 0xFFFF && walked % 0x1_0000 == end.entries;
            diagnostics.push(format!(
                "the end record declares {} member(s), the central directory holds {walked}{}; \
                 all {walked} are listed",
                end.entries,
                if wrapped {
                    " (a 16-bit count that wrapped)"
                } else {
                    ""
                }
            ));
        }
        drop(cd);
        let members = builder.len();
        let (tree, _) = builder.finish(&src.layer);
        Ok(ZipArchive {
            src,
            tree,
            members,
            diagnostics,
        })
    }

    /// Number of members in the central directory (directories included).
    pub fn member_count(&self) -> usize {
        self.members
    }
}

impl Source {
    /// The bytes of one member.
    fn read_member(&self, m: &Member, path: &str) -> Result<Bytes, Error> {
        let layer = &self.layer;
        let corrupt = |offset: u64, detail: String| Error::Corrupt {
            layer: layer.clone(),
            offset,
            detail,
        };
        if m.flags & 1 != 0 || m.method == 99 {
            return Err(Error::Encrypted {
                layer: layer.clone(),
                detail: format!("member {path} is encrypted and no password is available"),
            });
        }
        let len = self.bytes.len();
        if m.header_offset >= len {
            return Err(corrupt(
                m.header_offset,
                format!("local header of {path} lies beyond the end of the archive ({len} bytes)"),
            ));
        }
        let header_guess = 30u64.saturating_add(m.central_name_extra);
        let want = if m.compressed <= ONE_READ {
            header_guess
                .saturating_add(m.compressed)
                .saturating_add(256)
        } else {
            header_guess.saturating_add(256)
        }
        .min(len - m.header_offset);
        let mut buf = vec![0u8; usize::try_from(want).unwrap_or(0)];
        self.bytes.read_exact_at(m.header_offset, &mut buf)?;
        if le32(&buf, 0) != Some(LOCAL_SIG) {
            return Err(corrupt(
                m.header_offset,
                format!("no local header signature for {path}"),
            ));
        }
        let (Some(n), Some(e)) = (le16(&buf, 26), le16(&buf, 28)) else {
            return Err(Error::Truncated {
                layer: layer.clone(),
                offset: m.header_offset,
                wanted: 30,
            });
        };
        let local_len = 30 + u64::from(n) + u64::from(e);
        let data_start = m.header_offset + local_len;
        let in_buf = usize::try_from(local_len)
            .ok()
            .and_then(|s| Some((s, s.checked_add(usize::try_from(m.compressed).ok()?)?)))
            .and_then(|(s, t)| buf.get(s..t));
        if data_start
            .checked_add(m.compressed)
            .is_none_or(|end| end > len)
        {
            return Err(Error::Truncated {
                layer: layer.clone(),
                offset: data_start,
                wanted: m.compressed,
            });
        }
        let name = format!("{layer} member {path}");
        match m.method {
            0 => {
                if m.size != m.compressed {
                    return Err(corrupt(
                        m.header_offset,
                        format!(
                            "stored member {path}: size {} differs from its stored size {}",
                            m.size, m.compressed
                        ),
                    ));
                }
                let slice: Bytes =
                    Arc::new(Slice::new(self.bytes.clone(), data_start, m.size, name));
                if m.size <= CRC_CHECKED_STORED {
                    let crc = match in_buf {
                        Some(data) => crc32(data),
                        None => crc32(&read_all(slice.as_ref())?),
                    };
                    if crc != m.crc {
                        return Err(corrupt(
                            data_start,
                            format!(
                                "CRC-32 of {path} is {crc:08x}, the directory records {:08x}",
                                m.crc
                            ),
                        ));
                    }
                }
                Ok(slice)
            }
            8 => {
                self.check_expansion(m, path)?;
                let out = self.inflate(m, path, data_start, in_buf)?;
                let crc = crc32(&out);
                if crc != m.crc {
                    return Err(corrupt(
                        data_start,
                        format!(
                            "CRC-32 of {path} is {crc:08x}, the directory records {:08x}",
                            m.crc
                        ),
                    ));
                }
                Ok(Arc::new(Memory::new(out, name)))
            }
            other => Err(Error::Unsupported {
                layer: layer.clone(),
                detail: format!(
                    "member {path}: compression method {other} ({})",
                    method_name(other)
                ),
            }),
        }
    }

    fn check_expansion(&self, m: &Member, path: &str) -> Result<(), Error> {
        let l = &self.limits;
        let too_large = |what: String, limit: u64| Error::TooLarge {
            layer: self.layer.clone(),
            offset: m.header_offset,
            what,
            claimed: m.size,
            limit,
        };
        if m.size > l.max_inflated {
            return Err(too_large(
                format!("declared size of member {path}"),
                l.max_inflated,
            ));
        }
        let ratio_limit = m.compressed.saturating_mul(l.max_ratio);
        if m.size > l.ratio_floor && m.size > ratio_limit {
            return Err(too_large(
                format!(
                    "declared size of member {path} ({} compressed bytes, expansion above {}:1)",
                    m.compressed, l.max_ratio
                ),
                ratio_limit.max(l.ratio_floor),
            ));
        }
        let ceiling = m
            .compressed
            .saturating_mul(DEFLATE_CEILING)
            .saturating_add(DEFLATE_CEILING);
        if m.size > ceiling {
            return Err(Error::Corrupt {
                layer: self.layer.clone(),
                offset: m.header_offset,
                detail: format!(
                    "member {path} declares {} bytes, more than {} compressed bytes can inflate to",
                    m.size, m.compressed
                ),
            });
        }
        Ok(())
    }

    /// Inflates a deflated member into exactly its declared size, failing if the stream ends
    /// early or would produce more.
    fn inflate(
        &self,
        m: &Member,
        path: &str,
        data_start: u64,
        in_buf: Option<&[u8]>,
    ) -> Result<Vec<u8>, Error> {
        let capacity = usize::try_from(m.size.saturating_add(1)).map_err(|_| Error::TooLarge {
            layer: self.layer.clone(),
            offset: m.header_offset,
            what: format!("declared size of member {path}"),
            claimed: m.size,
            limit: usize::MAX as u64,
        })?;
        let mut out = Vec::with_capacity(capacity);
        let layer = &self.layer;
        let corrupt = |offset: u64, detail: String| Error::Corrupt {
            layer: layer.clone(),
            offset,
            detail,
        };
        INFLATER.with(|cell| {
            let mut slot = cell.borrow_mut();
            let d = match slot.as_mut() {
                Some(d) => {
                    d.reset(false);
                    d
                }
                None => slot.insert(Decompress::new(false)),
            };
            let mut consumed = 0u64; // compressed bytes the inflater has taken
            let mut chunk = Vec::new();
            let mut chunk_at = 0usize;
            let mut read = 0u64; // compressed bytes read into chunks
            loop {
                let input: &[u8] = match in_buf {
                    Some(all) => all
                        .get(usize::try_from(consumed).unwrap_or(usize::MAX)..)
                        .unwrap_or(&[]),
                    None => {
                        if chunk_at >= chunk.len() && read < m.compressed {
                            let n = (m.compressed - read).min(CHUNK as u64) as usize;
                            chunk.resize(n, 0);
                            self.bytes.read_exact_at(data_start + read, &mut chunk)?;
                            read += n as u64;
                            chunk_at = 0;
                        }
                        chunk.get(chunk_at..).unwrap_or(&[])
                    }
                };
                let (in_before, out_before) = (d.total_in(), out.len());
                let status = d
                    .decompress_vec(input, &mut out, FlushDecompress::None)
                    .map_err(|e| {
                        corrupt(
                            data_start + consumed,
                            format!("invalid deflate data in {path}: {e}"),
                        )
                    })?;
                let used = d.total_in().saturating_sub(in_before);
                consumed += used;
                chunk_at = chunk_at.saturating_add(usize::try_from(used).unwrap_or(usize::MAX));
                if out.len() as u64 > m.size {
                    return Err(Error::TooLarge {
                        layer: layer.clone(),
                        offset: data_start,
                        what: format!("inflated size of member {path} (beyond its declared size)"),
                        claimed: out.len() as u64,
                        limit: m.size,
                    });
                }
                if status == Status::StreamEnd {
                    return Ok(());
                }
                if used == 0 && out.len() == out_before {
                    return Err(corrupt(
                        data_start + consumed,
                        format!("deflate data of {path} ends before the end of its stream"),
                    ));
                }
            }
        })?;
        if out.len() as u64 != m.size {
            return Err(Error::Corrupt {
                layer: self.layer.clone(),
                offset: data_start,
                detail: format!(
                    "member {path} inflates to {} bytes, the directory declares {}",
                    out.len(),
                    m.size
                ),
            });
        }
        Ok(out)
    }
}

impl FileSystem for ZipArchive {
    fn format(&self) -> &str {
        "zip"
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        self.tree.list_dir(path)
    }

    fn stat(&self, path: &str) -> Result<Entry, Error> {
        self.tree.stat(path)
    }

    fn open(&self, path: &str) -> Result<Bytes, Error> {
        let (entry, member) = self.tree.file(path)?;
        self.src.read_member(member, &entry.path)
    }

    fn diagnostics(&self) -> Vec<String> {
        let mut all = self.diagnostics.clone();
        all.extend(self.tree.diagnostics().iter().cloned());
        all
    }
}

/// Members whose local data overlap another member's (the "overlapping files" zip bomb,
/// or a crafted archive that shows different content to different readers).
fn note_overlaps(mut spans: Vec<(u64, u64)>, diagnostics: &mut Vec<String>) {
    spans.sort_unstable();
    let overlapping = spans
        .windows(2)
        .filter(|w| matches!(w, [a, b] if b.0 < a.1))
        .count();
    if overlapping > 0 {
        diagnostics.push(format!(
            "{overlapping} member(s) start inside another member's data (overlapping \
             members: a crafted archive or a zip bomb)"
        ));
    }
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = Crc::new();
    crc.update(data);
    crc.sum()
}

fn read_all(src: &dyn ByteSource) -> Result<Vec<u8>, Error> {
    let mut buf = vec![0u8; usize::try_from(src.len()).unwrap_or(0)];
    src.read_exact_at(0, &mut buf)?;
    Ok(buf)
}

fn method_name(method: u16) -> &'static str {
    match method {
        1 => "shrink",
        2..=5 => "reduce",
        6 => "implode",
        9 => "deflate64",
        10 => "PKWARE DCL implode",
        12 => "bzip2",
        14 => "LZMA",
        18 => "IBM TERSE",
        19 => "IBM LZ77",
        93 => "zstd",
        94 => "MP3",
        95 => "xz",
        96 => "JPEG variant",
        97 => "WavPack",
        98 => "PPMd",
        _ => "unknown",
    }
}

/// Finds the end record (the last one whose central directory checks out).
fn find_end(bytes: &dyn ByteSource, layer: &str, limits: &Limits) -> Result<End, Error> {
    let len = bytes.len();
    if len < 22 {
        return Err(Error::Corrupt {
            layer: layer.to_string(),
            offset: 0,
            detail: format!("{len} bytes: too short to hold a zip end record"),
        });
    }
    let tail_len = len.min(22 + 0xFFFF);
    let tail_start = len - tail_len;
    let mut tail = vec![0u8; usize::try_from(tail_len).unwrap_or(0)];
    bytes.read_exact_at(tail_start, &mut tail)?;
    // Candidates: first the records whose comment ends exactly at the end of the archive, the
    // earliest first (an end signature inside the real record's comment also "ends at the end",
    // and must lose to the record that owns the comment); then the others, latest first.
    let found: Vec<usize> = memchr::memmem::rfind_iter(&tail, EOCD_SIG)
        .take(1000)
        .collect();
    let ends_at_end =
        |i: usize| le16(&tail, i + 20).is_some_and(|c| i + 22 + usize::from(c) == tail.len());
    let mut order: Vec<usize> = found
        .iter()
        .rev()
        .copied()
        .filter(|&i| ends_at_end(i))
        .collect();
    order.extend(found.iter().copied().filter(|&i| !ends_at_end(i)));
    let mut first_error = None;
    for i in order {
        match end_candidate(bytes, &tail, tail_start, i, layer, limits) {
            Ok(mut end) => {
                if found.iter().any(|&j| j > i && ends_at_end(i)) {
                    end.notes.push(
                        "the archive comment holds another end-of-central-directory signature \
                         (ignored; some tools would read it)"
                            .to_string(),
                    );
                }
                return Ok(end);
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| Error::Corrupt {
        layer: layer.to_string(),
        offset: tail_start,
        detail: "no end of central directory record (not a zip archive, or truncated)".into(),
    }))
}

fn end_candidate(
    bytes: &dyn ByteSource,
    tail: &[u8],
    tail_start: u64,
    i: usize,
    layer: &str,
    limits: &Limits,
) -> Result<End, Error> {
    let pos = tail_start + i as u64;
    let corrupt = |offset: u64, detail: String| Error::Corrupt {
        layer: layer.to_string(),
        offset,
        detail,
    };
    let rec = tail.get(i..).unwrap_or(&[]);
    let (Some(disk), Some(disk_cd), Some(entries), Some(cd_size), Some(cd_offset), Some(comment)) = (
        le16(rec, 4),
        le16(rec, 6),
        le16(rec, 10),
        le32(rec, 12),
        le32(rec, 16),
        le16(rec, 20),
    ) else {
        return Err(Error::Truncated {
            layer: layer.to_string(),
            offset: pos,
            wanted: 22,
        });
    };
    if 22 + usize::from(comment) > rec.len() {
        return Err(corrupt(
            pos,
            "end record's comment runs past the end of the archive".into(),
        ));
    }
    let (mut disk, mut disk_cd) = (u32::from(disk), u32::from(disk_cd));
    let (mut entries, mut cd_size, mut cd_offset) =
        (u64::from(entries), u64::from(cd_size), u64::from(cd_offset));
    let mut cd_end = pos;
    let mut notes = Vec::new();
    if pos >= 20 {
        let mut loc = [0u8; 20];
        bytes.read_exact_at(pos - 20, &mut loc)?;
        if le32(&loc, 0) == Some(EOCD64_LOCATOR_SIG) {
            let declared = le64(&loc, 8).unwrap_or(u64::MAX);
            let before = (pos - 20).checked_sub(56);
            let mut found = None;
            for at in [Some(declared), before].into_iter().flatten() {
                let mut r = [0u8; 56];
                if at.checked_add(56).is_some_and(|e| e <= pos - 20)
                    && bytes.read_exact_at(at, &mut r).is_ok()
                    && le32(&r, 0) == Some(EOCD64_SIG)
                {
                    found = Some((at, r));
                    break;
                }
            }
            let Some((at, r)) = found else {
                return Err(corrupt(
                    pos - 20,
                    format!(
                        "zip64 locator points to offset {declared}, where no zip64 end record is"
                    ),
                ));
            };
            disk = le32(&r, 16).unwrap_or(0);
            disk_cd = le32(&r, 20).unwrap_or(0);
            entries = le64(&r, 32).unwrap_or(0);
            cd_size = le64(&r, 40).unwrap_or(0);
            cd_offset = le64(&r, 48).unwrap_or(0);
            cd_end = at;
        }
    }
    if disk != 0 || disk_cd != 0 {
        return Err(Error::Unsupported {
            layer: layer.to_string(),
            detail: format!(
                "split (multi-disk) zip archive: this is disk {disk}, the directory is on disk {disk_cd}"
            ),
        });
    }
    let Some(actual) = cd_end.checked_sub(cd_size) else {
        return Err(corrupt(
            pos,
            format!(
                "central directory of {cd_size} bytes does not fit before its end record at {cd_end}"
            ),
        ));
    };
    if cd_size > limits.max_metadata {
        return Err(Error::TooLarge {
            layer: layer.to_string(),
            offset: pos,
            what: "central directory".into(),
            claimed: cd_size,
            limit: limits.max_metadata,
        });
    }
    let sig_at = |at: u64| -> bool {
        let mut s = [0u8; 4];
        at.checked_add(4).is_some_and(|e| e <= cd_end)
            && bytes.read_exact_at(at, &mut s).is_ok()
            && u32::from_le_bytes(s) == CENTRAL_SIG
    };
    let empty = cd_size == 0;
    let (cd_start, archive_offset) = if actual == cd_offset && (empty || sig_at(actual)) {
        (actual, 0)
    } else if actual > cd_offset && !empty && sig_at(actual) {
        notes.push(format!(
            "{} bytes precede the archive (self-extracting or prepended data); offsets adjusted",
            actual - cd_offset
        ));
        (actual, actual - cd_offset)
    } else if cd_offset < actual && sig_at(cd_offset) {
        notes.push(format!(
            "{} unexplained bytes between the central directory and its end record",
            actual - cd_offset
        ));
        (cd_offset, 0)
    } else {
        return Err(corrupt(
            pos,
            format!(
                "end record places the central directory at offset {cd_offset} ({cd_size} bytes), \
                 where there is none"
            ),
        ));
    };
    Ok(End {
        cd_start,
        cd_size,
        entries,
        archive_offset,
        notes,
    })
}

/// Parses every central header. Returns the items and how many headers there were.
fn parse_central(
    cd: &[u8],
    end: &End,
    src: &Source,
    builder: &mut TreeBuilder<Member>,
    diagnostics: &mut Vec<String>,
) -> Result<u64, Error> {
    let layer = &src.layer;
    let archive_len = src.bytes.len();
    let corrupt = |at: usize, detail: String| Error::Corrupt {
        layer: layer.to_string(),
        offset: end.cd_start + at as u64,
        detail,
    };
    let mut spans = Vec::new();
    let mut times = Vec::with_capacity(8);
    let mut at = 0usize;
    let mut index = 0u64;
    let mut bad_offsets = 0u64;
    while le32(cd, at) == Some(CENTRAL_SIG) {
        let h = cd.get(at..).unwrap_or(&[]);
        let fixed = (|| {
            Some((
                le16(h, 4)?,
                le16(h, 8)?,
                le16(h, 10)?,
                le16(h, 12)?,
                le16(h, 14)?,
                le32(h, 16)?,
                le32(h, 20)?,
                le32(h, 24)?,
                usize::from(le16(h, 28)?),
                usize::from(le16(h, 30)?),
                usize::from(le16(h, 32)?),
                le16(h, 34)?,
                le32(h, 38)?,
                le32(h, 42)?,
            ))
        })();
        let Some((
            made_by,
            flags,
            method,
            time,
            date,
            crc,
            csize,
            usize_,
            n,
            e,
            c,
            disk,
            ext_attr,
            lho,
        )) = fixed
        else {
            return Err(corrupt(at, "central header cut short".into()));
        };
        let total = 46 + n + e + c;
        let (Some(name_raw), Some(extra)) = (h.get(46..46 + n), h.get(46 + n..46 + n + e)) else {
            return Err(corrupt(
                at,
                "central header's name or extra field runs past the directory".into(),
            ));
        };
        if h.len() < total {
            return Err(corrupt(
                at,
                "central header's comment runs past the directory".into(),
            ));
        }
        let mut size = u64::from(usize_);
        let mut compressed = u64::from(csize);
        let mut header_offset = u64::from(lho);
        times.clear();
        times.push(Time {
            role: TimeRole::Modified,
            raw: RawTime::FatLocal {
                date,
                time,
                centis: 0,
            },
        });
        let mut unicode_name = None;
        let mut owner = None;
        for (id, data) in extra_fields(extra) {
            match id {
                0x0001 => {
                    // ZIP64: only the fields whose 32-bit value is saturated are present.
                    let mut p = 0;
                    let mut take = |v: &mut u64| -> bool {
                        match le64(data, p) {
                            Some(x) => {
                                *v = x;
                                p += 8;
                                true
                            }
                            None => false,
                        }
                    };
                    let ok = (usize_ != u32::MAX || take(&mut size))
                        && (csize != u32::MAX || take(&mut compressed))
                        && (lho != u32::MAX || take(&mut header_offset));
                    if !ok {
                        return Err(corrupt(
                            at,
                            "zip64 extra field lacks a saturated size or offset".into(),
                        ));
                    }
                }
                0x7875 => {
                    // Info-ZIP Unix owner ("ux", central and local alike): version 1, then
                    // the uid's byte count and little-endian bytes, then the gid's.
                    owner = unix_owner(data);
                }
                0x5455 => {
                    // Extended timestamp: flags, then mtime, atime, ctime (creation) as present.
                    let flags = data.first().copied().unwrap_or(0);
                    let mut p = 1;
                    for (bit, role) in [
                        (1u8, TimeRole::Modified),
                        (2, TimeRole::Accessed),
                        (4, TimeRole::Created),
                    ] {
                        if flags & bit != 0 {
                            let Some(secs) = le32(data, p) else { break };
                            p += 4;
                            times.push(Time {
                                role,
                                raw: RawTime::Unix {
                                    secs: i64::from(secs as i32),
                                    nanos: 0,
                                },
                            });
                        }
                    }
                }
                0x5855 => {
                    // Info-ZIP Unix (old): atime, mtime.
                    if let (Some(a), Some(m)) = (le32(data, 0), le32(data, 4)) {
                        for (role, secs) in [(TimeRole::Modified, m), (TimeRole::Accessed, a)] {
                            times.push(Time {
                                role,
                                raw: RawTime::Unix {
                                    secs: i64::from(secs as i32),
                                    nanos: 0,
                                },
                            });
                        }
                    }
                }
                // NTFS: reserved, then tag 1 of 24 bytes: mtime, atime, creation FILETIMEs.
                0x000a if le16(data, 4) == Some(1) && le16(data, 6) == Some(24) => {
                    let roles = [TimeRole::Modified, TimeRole::Accessed, TimeRole::Created];
                    for (k, role) in roles.into_iter().enumerate() {
                        if let Some(ticks) = le64(data, 8 + 8 * k) {
                            times.push(Time {
                                role,
                                raw: RawTime::FileTime { ticks },
                            });
                        }
                    }
                }
                0x7075 => {
                    // Info-ZIP Unicode path: version 1, CRC-32 of the raw name, UTF-8 name.
                    if data.first() == Some(&1)
                        && le32(data, 1) == Some(crc32(name_raw))
                        && let Some(Ok(s)) = data.get(5..).map(std::str::from_utf8)
                    {
                        unicode_name = Some(s.to_string());
                    }
                }
                _ => {}
            }
        }
        times.sort_by_key(|t| t.role);
        if disk != 0 && disk != 0xFFFF {
            diagnostics.push(format!("member {index} claims to start on disk {disk}"));
        }
        let host = made_by >> 8;
        let dos_host = matches!(host, 0 | 11 | 14);
        let mut name = match unicode_name {
            Some(u) => Cow::Owned(u),
            None => decode_name(name_raw, flags),
        };
        let mut stored_name = None;
        if dos_host && name.contains('\\') {
            stored_name = Some(name.to_string());
            name = Cow::Owned(name.replace('\\', "/"));
        }
        let mode = match host {
            3 | 19 if ext_attr >> 16 != 0 => Some(ext_attr >> 16),
            _ => None,
        };
        let kind = if name.ends_with('/') {
            EntryKind::Dir
        } else {
            match mode.map(|m| m & 0o170_000) {
                Some(0o040_000) => EntryKind::Dir,
                Some(0o120_000) => EntryKind::Symlink,
                Some(0o100_000 | 0) => EntryKind::File,
                Some(_) => EntryKind::Other,
                None if ext_attr & 0x10 != 0 && size == 0 => EntryKind::Dir,
                None => EntryKind::File,
            }
        };
        let header_offset = header_offset.saturating_add(end.archive_offset);
        if header_offset >= archive_len {
            bad_offsets += 1;
        }
        let member = Member {
            header_offset,
            method,
            flags,
            crc,
            compressed,
            size,
            central_name_extra: (n + e) as u64,
        };
        if kind != EntryKind::Dir {
            let span_end = header_offset.saturating_add(30).saturating_add(compressed);
            spans.push((header_offset, span_end));
        }
        // Symbolic links: the target is the member's content.
        let mut link_target = None;
        if kind == EntryKind::Symlink {
            if size > MAX_LINK {
                diagnostics.push(format!(
                    "symbolic link {name} holds {size} bytes; target not read"
                ));
            } else {
                match src
                    .read_member(&member, &name)
                    .and_then(|b| read_all(b.as_ref()))
                {
                    Ok(t) => link_target = Some(String::from_utf8_lossy(&t).into_owned()),
                    Err(e) => {
                        diagnostics.push(format!("symbolic link {name}: target unreadable: {e}"))
                    }
                }
            }
        }
        let meta = Meta {
            kind,
            size: if kind == EntryKind::Dir { 0 } else { size },
            id: Some(index),
            mode,
            owner,
            times: &times,
            link_target,
            stored_name,
        };
        builder.add(&name, meta, member);
        index += 1;
        at += total;
    }
    if at < cd.len() {
        diagnostics.push(format!(
            "{} bytes of the central directory after its last header are not headers",
            cd.len() - at
        ));
    }
    if bad_offsets > 0 {
        diagnostics.push(format!(
            "{bad_offsets} member(s) place their data beyond the end of the archive (truncated?)"
        ));
    }
    note_overlaps(spans, diagnostics);
    Ok(index)
}

/// The `(uid, gid)` of an Info-ZIP `ux` field (version 1; ids of 1 to 4 bytes, or 8 with
/// the high half zero); none when malformed.
fn unix_owner(data: &[u8]) -> Option<(u32, u32)> {
    if data.first() != Some(&1) {
        return None;
    }
    let id = |at: usize| -> Option<(u32, usize)> {
        let n = usize::from(*data.get(at)?);
        let bytes = data.get(at + 1..at + 1 + n)?;
        if n == 0 || n > 8 || bytes.iter().skip(4).any(|&b| b != 0) {
            return None;
        }
        let v = bytes
            .iter()
            .take(4)
            .rev()
            .fold(0u32, |v, &b| (v << 8) | u32::from(b));
        Some((v, at + 1 + n))
    };
    let (uid, next) = id(1)?;
    let (gid, _) = id(next)?;
    Some((uid, gid))
}

/// The extra fields of a header: `(id, data)` pairs; a malformed tail is ignored.
fn extra_fields(mut extra: &[u8]) -> impl Iterator<Item = (u16, &[u8])> {
    std::iter::from_fn(move || {
        let id = le16(extra, 0)?;
        let size = usize::from(le16(extra, 2)?);
        let data = extra.get(4..4 + size)?;
        extra = extra.get(4 + size..)?;
        Some((id, data))
    })
}

/// A member name as text: UTF-8 when flagged (bit 11) or when the bytes are valid UTF-8 (many
/// Unix tools store UTF-8 without the flag), CP437 otherwise.
fn decode_name(raw: &[u8], flags: u16) -> Cow<'_, str> {
    if flags & 0x800 != 0 {
        return String::from_utf8_lossy(raw);
    }
    if let Ok(s) = std::str::from_utf8(raw) {
        return Cow::Borrowed(s);
    }
    raw.iter()
        .map(|&b| {
            if b < 0x80 {
                char::from(b)
            } else {
                CP437_HIGH
                    .chars()
                    .nth(usize::from(b - 0x80))
                    .unwrap_or('\u{fffd}')
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp437_names_decode() {
        assert_eq!(CP437_HIGH.chars().count(), 128);
        assert_eq!(decode_name(b"caf\x82.txt", 0), "café.txt");
        assert_eq!(decode_name("café".as_bytes(), 0), "café");
        assert_eq!(decode_name(b"\xff", 0x800), "\u{fffd}");
    }

    #[test]
    fn extra_fields_stop_at_a_malformed_tail() {
        let extra = [0x55, 0x54, 5, 0, 1, 1, 2, 3, 4, 0xff, 0xff, 9];
        let fields: Vec<_> = extra_fields(&extra).collect();
        assert_eq!(fields, vec![(0x5455, &[1u8, 1, 2, 3, 4][..])]);
    }
}
