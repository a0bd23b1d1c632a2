//! Microsoft Virtual Hard Disk (VHD, the `conectix` footer of Virtual PC and Hyper-V) images as
//! a [`ByteSource`] of the virtual disk: fixed images (the disk, then the footer) and dynamic
//! images (a footer copy, the `cxsparse` dynamic header, the block allocation table, and blocks
//! of a sector bitmap followed by data).
//!
//! # Why a hand-written reader
//!
//! No maintained Rust crate reading VHD over a positioned byte source with typed errors was
//! found (the crates.io search was unreachable from here; the documentation index had none);
//! the format is a footer, a header and one table, so it is read here against Microsoft's
//! "Virtual Hard Disk Image Format Specification" (October 2006).
//!
//! # Reading
//!
//! Fixed: the first `current_size` bytes of the file. Dynamic: a block absent from the BAT
//! reads as zeros, and so does a sector whose bit in its block's sector bitmap is clear
//! (nothing was written there). A differencing image reads those from its parent instead: the
//! parent is found beside it ([`crate::beside::Beside`]) by its parent locators (relative, then
//! absolute Windows path, then a Mac file URL) or its Unicode parent name, and must carry the
//! unique id the child records (a different disk of the same name is refused, not read).
//! Without a folder to look in (inside another layer) a differencing image is refused with
//! [`Error::Unsupported`] naming its parent.
//!
//! # Untrusted input
//!
//! The footer and dynamic header checksums are verified (a dynamic image's footer copy at byte
//! 0 stands in for a damaged trailing one); the BAT is bounded ([`MAX_BAT_ENTRIES`],
//! [`Error::TooLarge`]) and must map the whole disk; every block offset is checked against the
//! file's length before it is read; block sizes are bounded; bitmaps are cached in a bounded
//! LRU.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;
use serde::Serialize;

use crate::beside::Beside;
use crate::bytes::{ByteSource, Bytes};
use crate::endian::{be32, be64, field};
use crate::{Error, Result};

const LAYER: &str = "vhd";
pub const FOOTER_COOKIE: &[u8; 8] = b"conectix";
const DYNAMIC_COOKIE: &[u8; 8] = b"cxsparse";
const SECTOR: u64 = 512;
/// Most BAT entries accepted (64 MiB of table; 2 PiB of disk at the default 2 MiB blocks).
pub const MAX_BAT_ENTRIES: u64 = 16 << 20;
/// Largest block accepted (the specification's default is 2 MiB).
const MAX_BLOCK_SIZE: u64 = 256 << 20;
/// Sector bitmaps kept in memory.
const BITMAP_CACHE: usize = 256;
const UNALLOCATED: u32 = 0xFFFF_FFFF;

/// Disk types of the footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiskType {
    Fixed,
    Dynamic,
    Differencing,
}

impl DiskType {
    pub fn name(self) -> &'static str {
        match self {
            DiskType::Fixed => "fixed",
            DiskType::Dynamic => "dynamic",
            DiskType::Differencing => "differencing",
        }
    }
}

/// A parsed, checksum-verified footer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Footer {
    pub disk_type: DiskType,
    /// Virtual disk size in bytes.
    pub current_size: u64,
    /// Offset of the dynamic header (dynamic and differencing images).
    pub data_offset: u64,
    /// Creator application (`qemu`, `vpc `, `win `, …).
    pub creator: String,
    /// The disk's unique id (a differencing child records its parent's).
    pub unique_id: String,
}

/// Parses a 512-byte footer at `at` (for errors); `Err` says why it is not a usable one.
fn parse_footer(b: &[u8], at: u64) -> Result<Footer> {
    if !b.starts_with(FOOTER_COOKIE) {
        return Err(corrupt(at, "no `conectix` footer cookie"));
    }
    let stored = be32(b, 64).unwrap_or(0);
    if checksum(b, 64) != stored {
        return Err(corrupt(
            at + 64,
            format!("footer checksum {stored:#010x} does not match its bytes"),
        ));
    }
    let disk_type = match be32(b, 60).unwrap_or(0) {
        2 => DiskType::Fixed,
        3 => DiskType::Dynamic,
        4 => DiskType::Differencing,
        other => return Err(unsupported(format!("disk type {other} (2, 3 and 4 exist)"))),
    };
    Ok(Footer {
        disk_type,
        current_size: be64(b, 48).unwrap_or(0),
        data_offset: be64(b, 16).unwrap_or(u64::MAX),
        creator: String::from_utf8_lossy(field(b, 28, 4).unwrap_or(&[])).into_owned(),
        unique_id: hex::encode(field(b, 68, 16).unwrap_or(&[])),
    })
}

/// One's complement of the byte sum, the checksum field (4 bytes at `skip`) counted as zero.
fn checksum(b: &[u8], skip: usize) -> u32 {
    let sum = b
        .iter()
        .enumerate()
        .filter(|(i, _)| !(skip..skip + 4).contains(i))
        .fold(0u32, |s, (_, &x)| s.wrapping_add(u32::from(x)));
    !sum
}

fn corrupt(offset: u64, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset,
        detail: detail.into(),
    }
}

fn unsupported(detail: impl Into<String>) -> Error {
    Error::Unsupported {
        layer: LAYER.to_string(),
        detail: detail.into(),
    }
}

/// The footer of the image in `file` (at least 512 bytes long): the trailing one, which is
/// authoritative, or a dynamic image's copy at byte 0 standing in for a damaged one.
fn read_footer(file: &Bytes) -> Result<Footer> {
    let len = file.len();
    let mut tail = [0u8; 512];
    file.read_exact_at(len - SECTOR, &mut tail)?;
    let mut head = [0u8; 512];
    let head_ok = file.read_at(0, &mut head)? == 512;
    match parse_footer(&tail, len - SECTOR) {
        Ok(f) => Ok(f),
        Err(tail_err) => match head_ok.then(|| parse_footer(&head, 0)) {
            Some(Ok(f)) if f.disk_type != DiskType::Fixed => Ok(f),
            _ => Err(tail_err),
        },
    }
}

/// Where a VHD footer was found by [`sniff`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FooterAt {
    /// A copy at byte 0 (dynamic and differencing images).
    Start,
    /// The last 512 bytes (every image; the only one of a fixed image).
    End,
}

/// Whether `bytes` is a VHD: a `conectix` cookie at byte 0, or a footer with a valid checksum
/// in the last 512 bytes.
pub fn sniff(bytes: &dyn ByteSource) -> Option<(FooterAt, DiskType)> {
    let mut b = [0u8; 512];
    if bytes.read_at(0, &mut b).ok() == Some(512)
        && let Ok(f) = parse_footer(&b, 0)
    {
        return Some((FooterAt::Start, f.disk_type));
    }
    let len = bytes.len();
    if len >= 1024 && bytes.read_at(len - 512, &mut b).ok() == Some(512) {
        return parse_footer(&b, len - 512)
            .ok()
            .map(|f| (FooterAt::End, f.disk_type));
    }
    None
}

enum Layout {
    Fixed,
    Dynamic {
        block_size: u64,
        /// Bytes of each block's sector bitmap, padded to a sector.
        bitmap_bytes: u64,
        /// Sector offset of each block, `UNALLOCATED` when absent.
        bat: Vec<u32>,
        bitmaps: Mutex<LruCache<u64, Arc<Vec<u8>>>>,
    },
}

/// A VHD image read through the layer below it.
pub struct VhdImage {
    file: Bytes,
    footer: Footer,
    layout: Layout,
    /// A differencing image's parent: the name it was found by, and its disk.
    parent: Option<(String, Bytes)>,
}

impl VhdImage {
    /// Opens the VHD image that `file` holds; a differencing image is refused naming its
    /// parent (see [`VhdImage::open_beside`]).
    pub fn open(file: Bytes) -> Result<VhdImage> {
        Self::open_beside(file, None)
    }

    /// Opens the VHD image that `file` holds, reading a differencing image over its parent
    /// found in `beside`.
    pub fn open_beside(file: Bytes, beside: Option<&Beside>) -> Result<VhdImage> {
        let len = file.len();
        if len < SECTOR {
            return Err(Error::Truncated {
                layer: LAYER.to_string(),
                offset: len,
                wanted: SECTOR,
            });
        }
        let footer = read_footer(&file)?;
        let layout = match footer.disk_type {
            DiskType::Fixed => {
                if footer.current_size > len - SECTOR {
                    return Err(corrupt(
                        len - SECTOR + 48,
                        format!(
                            "fixed disk of {} bytes does not fit before the footer ({} bytes of data)",
                            footer.current_size,
                            len - SECTOR
                        ),
                    ));
                }
                Layout::Fixed
            }
            DiskType::Dynamic | DiskType::Differencing => open_dynamic(&file, &footer)?,
        };
        let parent = if footer.disk_type == DiskType::Differencing {
            Some(open_parent(&file, &footer, beside)?)
        } else {
            None
        };
        Ok(VhdImage {
            file,
            footer,
            layout,
            parent,
        })
    }

    pub fn footer(&self) -> &Footer {
        &self.footer
    }

    /// The parent a differencing image was read over, by the name it was found under.
    pub fn parent_name(&self) -> Option<&str> {
        self.parent.as_ref().map(|(n, _)| n.as_str())
    }

    /// Fills `out` from the parent at `pos` (zeros when there is none).
    fn read_parent(&self, pos: u64, out: &mut [u8]) -> Result<()> {
        crate::beside::read_or_zeros(self.parent.as_ref().map(|(_, p)| p), pos, out)
    }

    /// The sector bitmap of block `block` stored at file offset `at`.
    fn bitmap(&self, block: u64, at: u64, bytes: u64) -> Result<Arc<Vec<u8>>> {
        let Layout::Dynamic { bitmaps, .. } = &self.layout else {
            return Ok(Arc::new(Vec::new()));
        };
        if let Some(b) = bitmaps
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&block)
        {
            return Ok(b.clone());
        }
        let mut b = vec![0u8; usize::try_from(bytes).unwrap_or(0)];
        self.file.read_exact_at(at, &mut b)?;
        let b = Arc::new(b);
        bitmaps
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .put(block, b.clone());
        Ok(b)
    }

    /// Fills `out` from disk offset `pos`, all within one block of a dynamic image.
    fn read_block(&self, pos: u64, out: &mut [u8]) -> Result<()> {
        let Layout::Dynamic {
            block_size,
            bitmap_bytes,
            bat,
            ..
        } = &self.layout
        else {
            return Ok(());
        };
        let block = pos / block_size;
        let within = pos % block_size;
        let entry = usize::try_from(block)
            .ok()
            .and_then(|i| bat.get(i).copied())
            .unwrap_or(UNALLOCATED);
        if entry == UNALLOCATED {
            return self.read_parent(pos, out);
        }
        let start = u64::from(entry) * SECTOR;
        let file_len = self.file.len();
        let end = start + bitmap_bytes + block_size;
        // The last block of a disk whose size is not a whole number of blocks may be short.
        let needed = start + bitmap_bytes + within + out.len() as u64;
        if end.min(needed) > file_len.saturating_sub(SECTOR) {
            return Err(corrupt(
                pos,
                format!(
                    "BAT entry {block}: block at {start} beyond the end of the image file ({file_len} bytes)"
                ),
            ));
        }
        let bitmap = self.bitmap(block, start, *bitmap_bytes)?;
        let data = start + bitmap_bytes;
        // Runs of sectors that are all present or all absent, read or zeroed together.
        let mut done = 0usize;
        while done < out.len() {
            let at = within + done as u64;
            let sector = at / SECTOR;
            let present = |s: u64| {
                let byte = usize::try_from(s / 8).unwrap_or(usize::MAX);
                bitmap.get(byte).is_some_and(|b| b & (0x80 >> (s % 8)) != 0)
            };
            let state = present(sector);
            let mut run_end = (sector + 1) * SECTOR;
            while run_end < within + out.len() as u64 && present(run_end / SECTOR) == state {
                run_end += SECTOR;
            }
            let n = ((run_end - at) as usize).min(out.len() - done);
            let Some(dst) = out.get_mut(done..done + n) else {
                break;
            };
            if state {
                self.file.read_exact_at(data + at, dst)?;
            } else {
                self.read_parent(pos + done as u64, dst)?;
            }
            done += n;
        }
        Ok(())
    }
}

/// UTF-16 text up to its first NUL.
fn utf16(b: &[u8], big_endian: bool) -> String {
    let units: Vec<u16> = b
        .chunks_exact(2)
        .map(|c| {
            if big_endian {
                u16::from_be_bytes([c[0], c[1]])
            } else {
                u16::from_le_bytes([c[0], c[1]])
            }
        })
        .take_while(|&u| u != 0)
        .collect();
    String::from_utf16_lossy(&units)
}

/// Platform codes of the parent locators, in the order they are tried.
const LOCATORS: [(&[u8; 4], &str); 3] = [
    (b"W2ru", "relative"),
    (b"W2ku", "absolute"),
    (b"MacX", "url"),
];

/// The names a differencing image gives its parent: its parent locators' paths (relative,
/// absolute, Mac URL), then the Unicode parent name of its dynamic header; and the parent's
/// unique id it records.
fn parent_names(file: &Bytes, footer: &Footer) -> Result<(Vec<String>, [u8; 16])> {
    let at = footer.data_offset;
    let mut h = vec![0u8; 1024];
    file.read_exact_at(at, &mut h)?;
    let mut uid = [0u8; 16];
    uid.copy_from_slice(field(&h, 40, 16).unwrap_or(&[0u8; 16]));
    let mut names = Vec::new();
    let file_len = file.len();
    for (code, kind) in LOCATORS {
        for i in 0..8 {
            let e = 576 + 24 * i;
            if field(&h, e, 4) != Some(&code[..]) {
                continue;
            }
            let len = u64::from(be32(&h, e + 8).unwrap_or(0)).min(4096);
            let off = be64(&h, e + 16).unwrap_or(0);
            if len == 0 || off.saturating_add(len) > file_len {
                continue;
            }
            let mut raw = vec![0u8; len as usize];
            file.read_exact_at(off, &mut raw)?;
            let name = if kind == "url" {
                let text = String::from_utf8_lossy(&raw)
                    .trim_end_matches('\0')
                    .to_string();
                text.strip_prefix("file://").unwrap_or(&text).to_string()
            } else {
                utf16(&raw, false)
            };
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let unicode = utf16(field(&h, 64, 512).unwrap_or(&[]), true);
    if !unicode.is_empty() && !names.contains(&unicode) {
        names.push(unicode);
    }
    Ok((names, uid))
}

/// The parent disk of a differencing image, found beside it and checked by unique id.
fn open_parent(file: &Bytes, footer: &Footer, beside: Option<&Beside>) -> Result<(String, Bytes)> {
    let (names, uid) = parent_names(file, footer)?;
    let first = names
        .first()
        .cloned()
        .unwrap_or_else(|| "(unnamed)".to_string());
    let beside = crate::beside::required(
        beside,
        LAYER,
        &format!("differencing image: needs its parent `{first}`"),
    )?;
    let Some(name) = names.iter().find(|n| beside.resolve(n).is_some()) else {
        return Err(Error::MissingFile {
            layer: LAYER.to_string(),
            needs: format!("parent `{first}`"),
            folder: beside.folder().to_path_buf(),
        });
    };
    let (bytes, next) = beside.open(name, LAYER, "parent")?;
    let parent = VhdImage::open_beside(bytes, Some(&next))?;
    if parent.footer.unique_id != hex::encode(uid) {
        return Err(corrupt(
            footer.data_offset + 40,
            format!(
                "the parent `{name}` found beside it has unique id {}, but this differencing image was made over {}: not its parent",
                parent.footer.unique_id,
                hex::encode(uid)
            ),
        ));
    }
    if parent.len() != footer.current_size {
        return Err(corrupt(
            48,
            format!(
                "the parent `{name}` is {} bytes, this differencing image {}",
                parent.len(),
                footer.current_size
            ),
        ));
    }
    Ok((name.clone(), Arc::new(parent)))
}

/// The names of the files the VHD in `file` reads beside itself: a differencing image's parent.
pub fn names_beside(file: &Bytes) -> Vec<String> {
    match sniff(file.as_ref()) {
        Some((_, DiskType::Differencing)) => {}
        _ => return Vec::new(),
    }
    read_footer(file)
        .and_then(|f| parent_names(file, &f))
        .map(|(names, _)| names)
        .unwrap_or_default()
}

fn open_dynamic(file: &Bytes, footer: &Footer) -> Result<Layout> {
    let file_len = file.len();
    let at = footer.data_offset;
    if at.saturating_add(1024) > file_len {
        return Err(corrupt(
            16,
            format!("dynamic header at {at} beyond the end of the image file ({file_len} bytes)"),
        ));
    }
    let mut h = vec![0u8; 1024];
    file.read_exact_at(at, &mut h)?;
    if !h.starts_with(DYNAMIC_COOKIE) {
        return Err(corrupt(at, "no `cxsparse` dynamic header cookie"));
    }
    let stored = be32(&h, 36).unwrap_or(0);
    if checksum(&h, 36) != stored {
        return Err(corrupt(
            at + 36,
            format!("dynamic header checksum {stored:#010x} does not match its bytes"),
        ));
    }
    let bat_offset = be64(&h, 16).unwrap_or(0);
    let entries = u64::from(be32(&h, 28).unwrap_or(0));
    let block_size = u64::from(be32(&h, 32).unwrap_or(0));
    if !block_size.is_power_of_two() || !(SECTOR..=MAX_BLOCK_SIZE).contains(&block_size) {
        return Err(corrupt(
            at + 32,
            format!("block size {block_size} (a power of two from 512 to 256 MiB expected)"),
        ));
    }
    if entries > MAX_BAT_ENTRIES {
        return Err(Error::TooLarge {
            layer: LAYER.to_string(),
            offset: at + 28,
            what: "block allocation table".to_string(),
            claimed: entries,
            limit: MAX_BAT_ENTRIES,
        });
    }
    let needed = footer.current_size.div_ceil(block_size);
    if needed > entries {
        return Err(corrupt(
            at + 28,
            format!(
                "BAT of {entries} entries cannot map a disk of {} bytes ({needed} needed)",
                footer.current_size
            ),
        ));
    }
    let bat_bytes = entries * 4;
    if bat_offset.saturating_add(bat_bytes) > file_len {
        return Err(corrupt(
            at + 16,
            format!(
                "BAT at {bat_offset} ({bat_bytes} bytes) beyond the end of the image file ({file_len} bytes)"
            ),
        ));
    }
    let mut raw = vec![0u8; usize::try_from(bat_bytes).unwrap_or(0)];
    file.read_exact_at(bat_offset, &mut raw)?;
    let bat = raw
        .chunks_exact(4)
        .map(|c| be32(c, 0).unwrap_or(UNALLOCATED))
        .collect();
    let bitmap_bytes = (block_size / SECTOR).div_ceil(8).next_multiple_of(SECTOR);
    Ok(Layout::Dynamic {
        block_size,
        bitmap_bytes,
        bat,
        bitmaps: Mutex::new(LruCache::new(
            NonZeroUsize::new(BITMAP_CACHE).unwrap_or(NonZeroUsize::MIN),
        )),
    })
}

impl ByteSource for VhdImage {
    fn len(&self) -> u64 {
        self.footer.current_size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        let size = self.footer.current_size;
        if offset >= size {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(size - offset) as usize;
        match &self.layout {
            Layout::Fixed => {
                let out = buf.get_mut(..want).unwrap_or(&mut []);
                self.file.read_exact_at(offset, out)?;
            }
            Layout::Dynamic { block_size, .. } => {
                let mut done = 0usize;
                while done < want {
                    let pos = offset + done as u64;
                    let n = ((block_size - pos % block_size) as usize).min(want - done);
                    let Some(out) = buf.get_mut(done..done + n) else {
                        break;
                    };
                    self.read_block(pos, out)?;
                    done += n;
                }
            }
        }
        Ok(want)
    }

    fn layer_name(&self) -> String {
        format!("{LAYER} ({})", self.footer.disk_type.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::Memory;

    fn footer(disk_type: u32, size: u64, data_offset: u64) -> [u8; 512] {
        let mut f = [0u8; 512];
        f[..8].copy_from_slice(FOOTER_COOKIE);
        f[16..24].copy_from_slice(&data_offset.to_be_bytes());
        f[48..56].copy_from_slice(&size.to_be_bytes());
        f[60..64].copy_from_slice(&disk_type.to_be_bytes());
        let c = checksum(&f, 64);
        f[64..68].copy_from_slice(&c.to_be_bytes());
        f
    }

    #[test]
    fn a_fixed_image_is_its_data_and_a_bad_checksum_is_corrupt() {
        let mut b = vec![5u8; 1024];
        b.extend_from_slice(&footer(2, 1024, u64::MAX));
        let v = VhdImage::open(Arc::new(Memory::new(b.clone(), "t"))).unwrap();
        assert_eq!(v.len(), 1024);
        let mut buf = vec![0u8; 2000];
        assert_eq!(v.read_at(0, &mut buf).unwrap(), 1024);
        assert!(buf[..1024].iter().all(|&x| x == 5));
        let n = b.len();
        b[n - 512 + 50] ^= 1;
        let err = VhdImage::open(Arc::new(Memory::new(b, "t"))).err().unwrap();
        assert!(
            matches!(err, Error::Corrupt { ref detail, .. } if detail.contains("checksum")),
            "{err}"
        );
    }

    #[test]
    fn a_dynamic_image_honours_bat_and_bitmap() {
        // Blocks of 1024 bytes (2 sectors, bitmap padded to 512); 2 blocks; block 0 at sector 4.
        let mut b = Vec::new();
        b.extend_from_slice(&footer(3, 2048, 512));
        let mut h = vec![0u8; 1024];
        h[..8].copy_from_slice(DYNAMIC_COOKIE);
        h[16..24].copy_from_slice(&1536u64.to_be_bytes());
        h[28..32].copy_from_slice(&2u32.to_be_bytes());
        h[32..36].copy_from_slice(&1024u32.to_be_bytes());
        let c = checksum(&h, 36);
        h[36..40].copy_from_slice(&c.to_be_bytes());
        b.extend_from_slice(&h);
        let mut bat = vec![0u8; 512];
        bat[..4].copy_from_slice(&4u32.to_be_bytes());
        bat[4..8].copy_from_slice(&UNALLOCATED.to_be_bytes());
        b.extend_from_slice(&bat);
        let mut bitmap = vec![0u8; 512];
        bitmap[0] = 0x40; // sector 1 only
        b.extend_from_slice(&bitmap);
        b.extend_from_slice(&[3u8; 1024]);
        b.extend_from_slice(&footer(3, 2048, 512));
        let v = VhdImage::open(Arc::new(Memory::new(b, "t"))).unwrap();
        let mut buf = vec![9u8; 2048];
        v.read_exact_at(0, &mut buf).unwrap();
        assert!(buf[..512].iter().all(|&x| x == 0));
        assert!(buf[512..1024].iter().all(|&x| x == 3));
        assert!(buf[1024..].iter().all(|&x| x == 0));
    }
}
