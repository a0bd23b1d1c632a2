//! QCOW2 images (QEMU copy-on-write, versions 2 and 3) as a [`ByteSource`] of the virtual disk.
//!
//! # Why a hand-written reader
//!
//! The crates that read QCOW2 were looked at (their documentation on docs.rs; the crates.io
//! search was unreachable from here): `qcow2` (vasi, 0.1.2, last released 2016) reads version 3
//! only and no compressed clusters; `qcow2-core` documents "uncompressed, no backing file, no
//! encryption", so the compressed images `qemu-img convert -c` makes would be unreadable;
//! `qcow2-rs` is an asynchronous read-write image library (for a userspace block device), not a
//! positioned reader over another layer. None reads over our [`ByteSource`] (so that an image
//! inside a partition or an archive stacks) with typed errors naming the offset, so the reader
//! is written here against QEMU's `docs/interop/qcow2.txt`: header, L1 and L2 tables, zero
//! clusters, and deflate-compressed clusters (raw deflate, through `flate2`, already used by the
//! EWF layer).
//!
//! # What is refused
//!
//! Encrypted images (`crypt_method` ≠ 0, [`Error::Encrypted`]); an image with a backing file
//! opened with no folder to find it in (inside a partition or an archive: [`Error::Unsupported`]
//! naming the file), or whose backing file is not beside it ([`Error::MissingFile`]); an
//! external data file, extended L2 entries (subclusters), zstd compression and any
//! unknown incompatible feature bit ([`Error::Unsupported`]). Internal snapshots are not read:
//! the stream is the image's active state.
//!
//! # Backing files
//!
//! An overlay (`qemu-img create -b base.qcow2`, a libvirt snapshot) stores only the clusters
//! written since; an unallocated cluster is read from its backing file, found beside the image
//! by [`crate::beside::Beside`] (a QCOW2 backing file with its own backing file in turn, a VMDK,
//! or raw bytes: as the backing format header extension declares, else by content). A zero
//! cluster (version 3) reads as zeros, never from the backing file; the backing file's bytes
//! past its end read as zeros, as QEMU reads them.
//!
//! # Untrusted input
//!
//! Every offset read from the image is checked against the image's length before it is used;
//! the L1 table is bounded ([`MAX_L1_BYTES`], [`Error::TooLarge`]), and so is every cache (L2
//! tables and decompressed clusters, in bytes). A compressed cluster inflates to at most one
//! cluster.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use flate2::{Decompress, FlushDecompress, Status};
use lru::LruCache;
use serde::Serialize;

use crate::beside::Beside;
use crate::bytes::{ByteSource, Bytes};
use crate::endian::{be32, be64, field};
use crate::{Error, Result};

const LAYER: &str = "qcow2";
/// `QFI\xfb`.
pub const MAGIC: &[u8; 4] = b"QFI\xfb";
/// Largest L1 table accepted (QEMU's own limit, `QCOW_MAX_L1_SIZE`).
pub const MAX_L1_BYTES: u64 = 32 << 20;
/// Memory budget of the L2-table cache.
const L2_CACHE_BYTES: usize = 8 << 20;
/// Memory budget of the decompressed-cluster cache.
const CLUSTER_CACHE_BYTES: usize = 8 << 20;
/// Bits 9–55 of L1 and standard L2 entries: a host offset.
const OFFSET_MASK: u64 = 0x00ff_ffff_ffff_fe00;
const L2_COMPRESSED: u64 = 1 << 62;
const L2_ZERO: u64 = 1;

/// Incompatible feature bits.
const INCOMPAT_DIRTY: u64 = 1;
const INCOMPAT_CORRUPT: u64 = 1 << 1;
const INCOMPAT_DATA_FILE: u64 = 1 << 2;
const INCOMPAT_COMPRESSION: u64 = 1 << 3;
const INCOMPAT_EXTL2: u64 = 1 << 4;

/// What the header says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Qcow2Header {
    pub version: u32,
    pub cluster_bits: u32,
    /// Virtual disk size in bytes.
    pub size: u64,
    pub l1_size: u32,
    pub l1_table_offset: u64,
    pub refcount_table_offset: u64,
    pub snapshots: u32,
    pub incompatible_features: u64,
    /// Notes on readable oddities (the dirty or corrupt bit set).
    pub warnings: Vec<String>,
}

/// Where a guest cluster's bytes are.
enum Mapping {
    /// A zero cluster, or an unallocated one of an image without a backing file.
    Zero,
    /// Unallocated in an image with a backing file: its bytes are the backing file's.
    Backing,
    /// Stored as is at `host`; `entry_at` is its L2 entry's file offset.
    Data { host: u64, entry_at: u64 },
    /// Deflate-compressed, as the L2 entry (at `entry_at`) describes.
    Compressed { entry: u64, entry_at: u64 },
}

thread_local! {
    /// One libdeflate decompressor per thread (it holds its tables; made once).
    static INFLATER: std::cell::RefCell<libdeflater::Decompressor> =
        std::cell::RefCell::new(libdeflater::Decompressor::new());
}

/// Most bytes of adjacent clusters read with one positioned read.
const MAX_RUN: u64 = 8 << 20;

/// A QCOW2 image read through the layer below it.
pub struct Qcow2Image {
    file: Bytes,
    header: Qcow2Header,
    cluster_size: u64,
    /// log2 of the entries per L2 table.
    l2_bits: u32,
    l1: Vec<u64>,
    l2_cache: Mutex<LruCache<u64, Arc<Vec<u64>>>>,
    cluster_cache: Mutex<LruCache<u64, Arc<Vec<u8>>>>,
    /// The backing file, as its name is written in the header and as opened.
    backing: Option<(String, Bytes)>,
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

/// Whether `head` starts with a QCOW2 header; its version if so.
pub fn sniff(head: &[u8]) -> Option<u32> {
    head.starts_with(MAGIC).then(|| be32(head, 4).unwrap_or(0))
}

impl Qcow2Image {
    /// Opens the QCOW2 image that `file` holds; an image with a backing file is refused (no
    /// folder to find it in: see [`Qcow2Image::open_beside`]).
    pub fn open(file: Bytes) -> Result<Qcow2Image> {
        Self::open_beside(file, None)
    }

    /// Opens the QCOW2 image that `file` holds, reading its backing file (and theirs) from
    /// `beside` when it has one.
    pub fn open_beside(file: Bytes, beside: Option<&Beside>) -> Result<Qcow2Image> {
        let file_len = file.len();
        let mut head = [0u8; 112];
        let n = file.read_at(0, &mut head)?;
        let head = head.get(..n).unwrap_or(&[]);
        if !head.starts_with(MAGIC) {
            return Err(corrupt(0, "no QCOW2 magic `QFI\\xfb` at byte 0"));
        }
        let short = |at: u64| Error::Truncated {
            layer: LAYER.to_string(),
            offset: at,
            wanted: 72,
        };
        let version = be32(head, 4).ok_or_else(|| short(4))?;
        if version != 2 && version != 3 {
            return Err(unsupported(format!(
                "QCOW version {version} (versions 2 and 3 are read)"
            )));
        }
        if head.len() < 72 {
            return Err(short(head.len() as u64));
        }
        let get64 = |at: usize| be64(head, at).ok_or_else(|| short(at as u64));
        let get32 = |at: usize| be32(head, at).ok_or_else(|| short(at as u64));
        let backing_offset = get64(8)?;
        let backing_size = get32(16)?;
        let cluster_bits = get32(20)?;
        let size = get64(24)?;
        let crypt_method = get32(32)?;
        let l1_size = get32(36)?;
        let l1_table_offset = get64(40)?;
        let refcount_table_offset = get64(48)?;
        let snapshots = get32(60)?;
        let (incompat, compression_type) = if version >= 3 {
            if head.len() < 104 {
                return Err(Error::Truncated {
                    layer: LAYER.to_string(),
                    offset: head.len() as u64,
                    wanted: 104,
                });
            }
            let header_length = get32(100)?;
            let compression_type = if header_length > 104 {
                head.get(104).copied().unwrap_or(0)
            } else {
                0
            };
            (get64(72)?, compression_type)
        } else {
            (0, 0)
        };
        if !(9..=21).contains(&cluster_bits) {
            return Err(corrupt(
                20,
                format!("cluster_bits {cluster_bits} outside 9..=21"),
            ));
        }
        if crypt_method != 0 {
            let how = match crypt_method {
                1 => "AES-CBC",
                2 => "LUKS",
                _ => "unknown method",
            };
            return Err(Error::Encrypted {
                layer: LAYER.to_string(),
                detail: format!("crypt_method {crypt_method} ({how}); no key"),
            });
        }
        let backing = if backing_offset != 0 {
            let name = backing_name(&file, backing_offset, backing_size)?;
            let beside = crate::beside::required(
                beside,
                LAYER,
                &format!("image has a backing file `{name}`, where its unallocated clusters live"),
            )?;
            let header_length = if version >= 3 { get32(100)? } else { 72 };
            let format = backing_format(&file, header_length, cluster_bits)?;
            let (bytes, next) = beside.open(&name, LAYER, "backing file")?;
            Some((name, open_backing(bytes, format.as_deref(), &next)?))
        } else {
            None
        };
        let mut warnings = Vec::new();
        if incompat & INCOMPAT_DATA_FILE != 0 {
            return Err(unsupported(
                "external data file (incompatible feature bit 2): the guest data is not in this file",
            ));
        }
        if incompat & INCOMPAT_EXTL2 != 0 {
            return Err(unsupported(
                "extended L2 entries (subclusters, incompatible feature bit 4)",
            ));
        }
        if incompat & INCOMPAT_COMPRESSION != 0 && compression_type != 0 {
            return Err(unsupported(format!(
                "compression type {compression_type} ({}); deflate is read",
                if compression_type == 1 {
                    "zstd"
                } else {
                    "unknown"
                }
            )));
        }
        let unknown = incompat
            & !(INCOMPAT_DIRTY | INCOMPAT_CORRUPT | INCOMPAT_COMPRESSION | INCOMPAT_DATA_FILE);
        if unknown != 0 {
            return Err(unsupported(format!(
                "unknown incompatible feature bits {unknown:#x}"
            )));
        }
        if incompat & INCOMPAT_DIRTY != 0 {
            warnings
                .push("dirty bit set: refcounts may be stale (not used for reading)".to_string());
        }
        if incompat & INCOMPAT_CORRUPT != 0 {
            warnings.push("corrupt bit set by QEMU: metadata may be inconsistent".to_string());
        }

        let cluster_size = 1u64 << cluster_bits;
        let l2_bits = cluster_bits - 3;
        // Bytes one L1 entry covers: cluster_size * entries per L2 table (at most 2^39).
        let per_l1 = 1u64 << (cluster_bits + l2_bits);
        let needed = size.div_ceil(per_l1);
        let l1_bytes = u64::from(l1_size) * 8;
        if l1_bytes > MAX_L1_BYTES {
            return Err(Error::TooLarge {
                layer: LAYER.to_string(),
                offset: 36,
                what: "L1 table".to_string(),
                claimed: l1_bytes,
                limit: MAX_L1_BYTES,
            });
        }
        if needed > u64::from(l1_size) {
            return Err(corrupt(
                36,
                format!(
                    "L1 table of {l1_size} entries cannot map a virtual size of {size} bytes ({needed} needed)"
                ),
            ));
        }
        if l1_size > 0 {
            if !l1_table_offset.is_multiple_of(cluster_size) {
                return Err(corrupt(
                    40,
                    format!("L1 table offset {l1_table_offset} is not cluster-aligned"),
                ));
            }
            if l1_table_offset.saturating_add(l1_bytes) > file_len {
                return Err(corrupt(
                    40,
                    format!(
                        "L1 table at {l1_table_offset} ({l1_bytes} bytes) beyond the end of the image file ({file_len} bytes)"
                    ),
                ));
            }
        }
        let mut raw = vec![0u8; usize::try_from(l1_bytes).unwrap_or(0)];
        file.read_exact_at(l1_table_offset, &mut raw)?;
        let l1 = raw
            .chunks_exact(8)
            .map(|c| be64(c, 0).unwrap_or(0))
            .collect();
        let cap = |budget: usize| {
            NonZeroUsize::new((budget / usize::try_from(cluster_size).unwrap_or(1)).max(1))
                .unwrap_or(NonZeroUsize::MIN)
        };
        Ok(Qcow2Image {
            file,
            header: Qcow2Header {
                version,
                cluster_bits,
                size,
                l1_size,
                l1_table_offset,
                refcount_table_offset,
                snapshots,
                incompatible_features: incompat,
                warnings,
            },
            cluster_size,
            l2_bits,
            l1,
            l2_cache: Mutex::new(LruCache::new(cap(L2_CACHE_BYTES))),
            cluster_cache: Mutex::new(LruCache::new(cap(CLUSTER_CACHE_BYTES))),
            backing,
        })
    }

    /// The header's values.
    pub fn header(&self) -> &Qcow2Header {
        &self.header
    }

    /// The backing file's name as the header writes it, when the image has one.
    pub fn backing_name(&self) -> Option<&str> {
        self.backing.as_ref().map(|(n, _)| n.as_str())
    }

    /// The L2 table at `offset` (of the L1 entry `index`), from the cache or the file.
    fn l2_table(&self, index: u64, offset: u64) -> Result<Arc<Vec<u64>>> {
        if let Some(t) = self
            .l2_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&offset)
        {
            return Ok(t.clone());
        }
        let file_len = self.file.len();
        if !offset.is_multiple_of(self.cluster_size) {
            return Err(corrupt(
                self.header.l1_table_offset + index * 8,
                format!("L1 entry {index}: L2 table offset {offset} is not cluster-aligned"),
            ));
        }
        if offset.saturating_add(self.cluster_size) > file_len {
            return Err(corrupt(
                self.header.l1_table_offset + index * 8,
                format!(
                    "L1 entry {index}: L2 table at {offset} beyond the end of the image file ({file_len} bytes)"
                ),
            ));
        }
        let mut raw = vec![0u8; usize::try_from(self.cluster_size).unwrap_or(0)];
        self.file.read_exact_at(offset, &mut raw)?;
        let table: Arc<Vec<u64>> = Arc::new(
            raw.chunks_exact(8)
                .map(|c| be64(c, 0).unwrap_or(0))
                .collect(),
        );
        self.l2_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .put(offset, table.clone());
        Ok(table)
    }

    /// Where guest cluster `cluster` lives.
    fn map(&self, cluster: u64) -> Result<Mapping> {
        let guest = cluster << self.header.cluster_bits;
        let l1_index = cluster >> self.l2_bits;
        let l2_index = cluster & ((1 << self.l2_bits) - 1);
        let l1_entry = usize::try_from(l1_index)
            .ok()
            .and_then(|i| self.l1.get(i).copied())
            .ok_or_else(|| {
                corrupt(
                    guest,
                    format!(
                        "L1 index {l1_index} beyond the L1 table ({} entries)",
                        self.l1.len()
                    ),
                )
            })?;
        let l2_offset = l1_entry & OFFSET_MASK;
        let unallocated = if self.backing.is_some() {
            Mapping::Backing
        } else {
            Mapping::Zero
        };
        if l2_offset == 0 {
            return Ok(unallocated);
        }
        let table = self.l2_table(l1_index, l2_offset)?;
        let entry = usize::try_from(l2_index)
            .ok()
            .and_then(|i| table.get(i).copied())
            .unwrap_or(0);
        let entry_at = l2_offset + l2_index * 8;
        if entry & L2_COMPRESSED != 0 {
            return Ok(Mapping::Compressed { entry, entry_at });
        }
        let host = entry & OFFSET_MASK;
        if entry & L2_ZERO != 0 {
            // A zero cluster reads as zeros, whatever the backing file holds.
            return Ok(Mapping::Zero);
        }
        if host == 0 {
            return Ok(unallocated);
        }
        if !host.is_multiple_of(self.cluster_size) {
            return Err(corrupt(
                entry_at,
                format!(
                    "L2 entry of guest offset {guest}: data offset {host} is not cluster-aligned"
                ),
            ));
        }
        Ok(Mapping::Data { host, entry_at })
    }

    /// Whether `len` bytes at `at` lie inside the image file; the error names the L2 entry.
    fn check_data(&self, guest: u64, host: u64, entry_at: u64, at: u64, len: u64) -> Result<()> {
        let file_len = self.file.len();
        if at.saturating_add(len) > file_len {
            return Err(corrupt(
                entry_at,
                format!(
                    "L2 entry of guest offset {guest}: data at {host} beyond the end of the image file ({file_len} bytes)"
                ),
            ));
        }
        Ok(())
    }

    /// The inflated bytes of a compressed cluster, from the cache or the file.
    fn compressed_cluster(&self, entry: u64, entry_at: u64, guest: u64) -> Result<Arc<Vec<u8>>> {
        let x = 62 - (self.header.cluster_bits - 8);
        let host = entry & ((1u64 << x) - 1);
        let sectors = ((entry & !L2_COMPRESSED & !(1 << 63)) >> x) + 1;
        if let Some(c) = self
            .cluster_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&host)
        {
            return Ok(c.clone());
        }
        let file_len = self.file.len();
        if host >= file_len {
            return Err(corrupt(
                entry_at,
                format!(
                    "L2 entry of guest offset {guest}: compressed data at {host} beyond the end of the image file ({file_len} bytes)"
                ),
            ));
        }
        // The stored size runs to the end of the last 512-byte sector; the file may end sooner.
        let stored = (sectors * 512 - (host & 511)).min(file_len - host);
        let mut input = vec![0u8; usize::try_from(stored).unwrap_or(0)];
        self.file.read_exact_at(host, &mut input)?;
        let mut output = vec![0u8; usize::try_from(self.cluster_size).unwrap_or(0)];
        // libdeflate first (about twice zlib's speed); a stream it refuses goes through flate2,
        // which decides and says what is wrong.
        let fast = INFLATER.with(|d| d.borrow_mut().deflate_decompress(&input, &mut output));
        if fast.ok() == Some(output.len()) {
            let data = Arc::new(output);
            self.cluster_cache
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .put(host, data.clone());
            return Ok(data);
        }
        let mut inflate = Decompress::new(false);
        let status = inflate.decompress(&input, &mut output, FlushDecompress::Finish);
        let produced = inflate.total_out();
        match status {
            Ok(Status::StreamEnd) | Ok(Status::Ok) | Ok(Status::BufError)
                if produced == self.cluster_size => {}
            Ok(_) => {
                return Err(corrupt(
                    host,
                    format!(
                        "compressed cluster of guest offset {guest} inflates to {produced} bytes, not {}",
                        self.cluster_size
                    ),
                ));
            }
            Err(e) => {
                return Err(corrupt(
                    host,
                    format!("compressed cluster of guest offset {guest}: {e}"),
                ));
            }
        }
        let data = Arc::new(output);
        self.cluster_cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .put(host, data.clone());
        Ok(data)
    }
}

/// Header extension type of the backing file's format name (`qcow2`, `raw`, …).
const EXT_BACKING_FORMAT: u32 = 0xE279_2ACA;

/// The backing format the header extensions declare, if any. Extensions follow the header
/// (`header_length` bytes) inside the first cluster: type, length, data padded to 8 bytes, until
/// type 0.
fn backing_format(file: &Bytes, header_length: u32, cluster_bits: u32) -> Result<Option<String>> {
    let end = (1u64 << cluster_bits).min(file.len());
    let mut at = u64::from(header_length);
    while at + 8 <= end {
        let mut head = [0u8; 8];
        file.read_exact_at(at, &mut head)?;
        let kind = be32(&head, 0).unwrap_or(0);
        let len = u64::from(be32(&head, 4).unwrap_or(0));
        if kind == 0 {
            break;
        }
        if at + 8 + len > end {
            return Err(corrupt(
                at + 4,
                format!("header extension {kind:#x} of {len} bytes runs past the first cluster"),
            ));
        }
        if kind == EXT_BACKING_FORMAT {
            let mut name = vec![0u8; len as usize];
            file.read_exact_at(at + 8, &mut name)?;
            return Ok(Some(String::from_utf8_lossy(&name).into_owned()));
        }
        at += 8 + len.div_ceil(8) * 8;
    }
    Ok(None)
}

/// The disk a backing file holds: a QCOW2 (with its own backing file in turn) or VMDK image,
/// or raw bytes. A declared format is followed; without one, the content decides.
fn open_backing(bytes: Bytes, format: Option<&str>, beside: &Beside) -> Result<Bytes> {
    let mut head = [0u8; 32];
    let n = bytes.read_at(0, &mut head)?;
    let head = &head[..n];
    let looks_qcow2 = sniff(head).is_some();
    let looks_vmdk = crate::vmdk::sniff(head).is_some();
    match format {
        Some("raw") => Ok(bytes),
        Some("qcow2") | None if looks_qcow2 => {
            Ok(Arc::new(Qcow2Image::open_beside(bytes, Some(beside))?))
        }
        Some("vmdk") | None if looks_vmdk => {
            Ok(Arc::new(crate::vmdk::VmdkDisk::open(bytes, Some(beside))?))
        }
        None => Ok(bytes),
        Some(other) => Err(unsupported(format!(
            "backing file of format `{other}`{} (qcow2, vmdk and raw backing files are read)",
            if looks_qcow2 || looks_vmdk {
                ", which its content contradicts"
            } else {
                ""
            }
        ))),
    }
}

/// The names of the files the QCOW2 image in `file` reads beside itself: its backing file.
pub fn names_beside(file: &Bytes) -> Vec<String> {
    let mut head = [0u8; 20];
    if file.read_at(0, &mut head).ok() != Some(20) || sniff(&head).is_none() {
        return Vec::new();
    }
    let (offset, size) = (be64(&head, 8).unwrap_or(0), be32(&head, 16).unwrap_or(0));
    if offset == 0 {
        return Vec::new();
    }
    backing_name(file, offset, size).map_or_else(|_| Vec::new(), |n| vec![n])
}

/// The backing file name the header points to (at most 1023 bytes, as QEMU allows).
fn backing_name(file: &Bytes, offset: u64, size: u32) -> Result<String> {
    if size > 1023 {
        return Err(Error::TooLarge {
            layer: LAYER.to_string(),
            offset: 16,
            what: "backing file name".to_string(),
            claimed: u64::from(size),
            limit: 1023,
        });
    }
    let mut buf = vec![0u8; size as usize];
    let n = file.read_at(offset, &mut buf)?;
    let name = String::from_utf8_lossy(field(&buf, 0, n).unwrap_or(&[])).into_owned();
    Ok(name)
}

/// Reads at least this long are split into pieces decoded in parallel (compressed clusters
/// inflate on every core).
const PARALLEL_READ: usize = 2 << 20;

impl ByteSource for Qcow2Image {
    fn len(&self) -> u64 {
        self.header.size
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        if offset >= self.header.size {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(self.header.size - offset) as usize;
        let piece = usize::try_from(self.cluster_size)
            .unwrap_or(PARALLEL_READ)
            .max(PARALLEL_READ / 2);
        if want >= PARALLEL_READ && offset.is_multiple_of(self.cluster_size) {
            use rayon::prelude::*;
            let buf = &mut buf[..want];
            let counts = buf
                .par_chunks_mut(piece)
                .enumerate()
                .map(|(i, part)| self.read_serial(offset + (i * piece) as u64, part))
                .collect::<Result<Vec<usize>>>()?;
            return Ok(counts.iter().sum());
        }
        self.read_serial(offset, buf)
    }

    fn layer_name(&self) -> String {
        LAYER.to_string()
    }
}

impl Qcow2Image {
    /// [`ByteSource::read_at`] on one thread.
    fn read_serial(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        if offset >= self.header.size {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(self.header.size - offset) as usize;
        let cs = self.cluster_size;
        let mut done = 0usize;
        while done < want {
            let pos = offset + done as u64;
            let cluster = pos >> self.header.cluster_bits;
            let within = pos & (cs - 1);
            let n = ((cs - within) as usize).min(want - done);
            match self.map(cluster)? {
                Mapping::Zero => {
                    if let Some(out) = buf.get_mut(done..done + n) {
                        out.fill(0);
                    }
                    done += n;
                }
                Mapping::Backing => {
                    if let Some(out) = buf.get_mut(done..done + n) {
                        let backing = self.backing.as_ref().map(|(_, b)| b);
                        crate::beside::read_or_zeros(backing, pos, out)?;
                    }
                    done += n;
                }
                Mapping::Compressed { entry, entry_at } => {
                    let data = self.compressed_cluster(entry, entry_at, cluster * cs)?;
                    let start = within as usize;
                    let src = data
                        .get(start..start + n)
                        .ok_or_else(|| corrupt(pos, "read beyond a decompressed cluster"))?;
                    if let Some(out) = buf.get_mut(done..done + n) {
                        out.copy_from_slice(src);
                    }
                    done += n;
                }
                Mapping::Data { host, entry_at } => {
                    self.check_data(cluster * cs, host, entry_at, host + within, n as u64)?;
                    // Following clusters stored right after this one join a single read.
                    let mut run = n;
                    let mut next = cluster + 1;
                    while done + run < want && (run as u64) < MAX_RUN {
                        let Ok(Mapping::Data { host: h, entry_at }) = self.map(next) else {
                            break;
                        };
                        let add = (cs as usize).min(want - done - run);
                        if h != host + (next - cluster) * cs
                            || self
                                .check_data(next * cs, h, entry_at, h, add as u64)
                                .is_err()
                        {
                            break;
                        }
                        run += add;
                        next += 1;
                    }
                    let Some(out) = buf.get_mut(done..done + run) else {
                        break;
                    };
                    self.file.read_exact_at(host + within, out)?;
                    done += run;
                }
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::Memory;

    /// A version 2 header with 512-byte clusters, `size` bytes, L1 at cluster 1.
    fn image(size: u64, l1: &[u64], clusters: &[(u64, Vec<u8>)]) -> Bytes {
        let mut b = vec![0u8; 512 * 8];
        b[..4].copy_from_slice(MAGIC);
        b[4..8].copy_from_slice(&2u32.to_be_bytes());
        b[20..24].copy_from_slice(&9u32.to_be_bytes());
        b[24..32].copy_from_slice(&size.to_be_bytes());
        b[36..40].copy_from_slice(&(l1.len() as u32).to_be_bytes());
        b[40..48].copy_from_slice(&512u64.to_be_bytes());
        for (i, e) in l1.iter().enumerate() {
            b[512 + i * 8..520 + i * 8].copy_from_slice(&e.to_be_bytes());
        }
        for (at, data) in clusters {
            let at = *at as usize;
            if b.len() < at + data.len() {
                b.resize(at + data.len(), 0);
            }
            b[at..at + data.len()].copy_from_slice(data);
        }
        Arc::new(Memory::new(b, "test"))
    }

    fn l2(entries: &[u64]) -> Vec<u8> {
        entries.iter().flat_map(|e| e.to_be_bytes()).collect()
    }

    #[test]
    fn clusters_read_as_mapped_zero_or_unallocated() {
        // Guest cluster 0 at host 1536, cluster 1 zero flag, cluster 2 unallocated.
        let img = image(
            3 * 512,
            &[1024 | (1 << 63)],
            &[
                (1024, l2(&[1536, L2_ZERO | 2048, 0])),
                (1536, vec![7u8; 512]),
                (2048, vec![9u8; 512]),
            ],
        );
        let q = Qcow2Image::open(img).unwrap();
        let mut buf = vec![1u8; 3 * 512];
        assert_eq!(q.read_at(0, &mut buf).unwrap(), 1536);
        assert!(buf[..512].iter().all(|&b| b == 7));
        assert!(buf[512..].iter().all(|&b| b == 0));
    }

    #[test]
    fn compressed_clusters_inflate() {
        let plain: Vec<u8> = (0..512u32).map(|i| (i % 7) as u8).collect();
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut enc, &plain).unwrap();
        let packed = enc.finish().unwrap();
        // cluster_bits 9: x = 61, so the sector count is bit 61 only (0 here: one sector).
        let host = 1536 + 100;
        let img = image(
            512,
            &[1024],
            &[(1024, l2(&[L2_COMPRESSED | host])), (host, packed)],
        );
        let q = Qcow2Image::open(img).unwrap();
        let mut buf = vec![0u8; 512];
        q.read_exact_at(0, &mut buf).unwrap();
        assert_eq!(buf, plain);
    }

    #[test]
    fn offsets_beyond_the_file_are_typed_errors() {
        let img = image(512, &[1 << 40], &[]);
        let q = Qcow2Image::open(img).unwrap();
        let err = q.read_exact_at(0, &mut [0u8; 16]).unwrap_err();
        assert!(
            matches!(err, Error::Corrupt { ref detail, .. } if detail.contains("L2 table")),
            "{err}"
        );
        let img = image(512, &[1024], &[(1024, l2(&[1 << 40]))]);
        let q = Qcow2Image::open(img).unwrap();
        let err = q.read_exact_at(0, &mut [0u8; 16]).unwrap_err();
        assert!(
            matches!(err, Error::Corrupt { ref detail, .. } if detail.contains("beyond the end")),
            "{err}"
        );
        // An L1 table too small for the size.
        let err = Qcow2Image::open(image(1 << 30, &[0], &[])).err().unwrap();
        assert!(matches!(err, Error::Corrupt { offset: 36, .. }), "{err}");
    }
}
