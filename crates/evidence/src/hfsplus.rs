//! HFS+ and HFSX volumes, read-only.
//!
//! # Why a hand-written reader
//!
//! No maintained Rust crate reads HFS+ over a positioned byte source with typed errors (the
//! `hfsplus` crate reads a `Read + Seek` whole-volume handle, panics on malformed B-trees and is
//! unmaintained), so the volume is read here, against Apple's Technical Note TN1150: the volume
//! header (directly at byte 1024, or inside a classic HFS wrapper), the catalog B-tree (folder,
//! file and thread records), the extents overflow B-tree, and data and resource forks.
//!
//! # What is shown
//!
//! - Entries are named as stored (UTF-16, decoded; an unpaired surrogate becomes U+FFFD) with
//!   `/` shown as `:` (as macOS' POSIX layer and The Sleuth Kit do). HFSX volumes are
//!   case-sensitive; on HFS+ a lookup that finds no exact name falls back to a case-insensitive
//!   one. `id` is the catalog node id (CNID).
//! - Hard links (`hlnk`/`hfs+` files) show the size, times, id and bytes of the `iNode<n>` file in
//!   the private metadata folder (`\0\0\0\0HFS+ Private Data`), as TSK does; the private folders
//!   are listed like any folder.
//! - A non-empty resource fork is listed as an extra entry `name:rsrc` (kind `File`, same `id`,
//!   as NTFS alternate data streams are) and opened by that path or by
//!   `name/..namedfork/rsrc`.
//! - Times are the catalog's: created, content modified, attributes modified (as `Changed`),
//!   accessed. HFS+ stores seconds since 1904-01-01 UTC; they are given as Unix seconds (the
//!   stored value minus 2,082,844,800), and a zero (unset) time is left out.
//! - Symbolic links: the data fork is the target.
//!
//! # Not read (yet)
//!
//! decmpfs-compressed files (`UF_COMPRESSED`) open as their (empty) data fork and are named in
//! [`FileSystem::diagnostics`]; extended attributes are not listed; the journal is not replayed.
//!
//! # Untrusted input
//!
//! The B-trees are walked along their leaf chain, each node visited once (a loop is
//! [`Error::Corrupt`]), with node size and record offsets checked; the catalog is bounded
//! ([`MAX_RECORDS`]); a fork whose extents do not cover its size, or point past the volume, is
//! refused when opened, naming the file. A bad leaf node ends the walk with a diagnostic: the
//! entries read before it stay readable.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::bytes::{Bytes, Concat, Slice};
use crate::endian::{be16, be32, be64, field};
use crate::fs::{Entry, EntryKind, FileSystem, RawTime, Time, TimeRole};
use crate::{Error, Result};

const LAYER: &str = "hfsplus";
/// Catalog records read at most.
pub const MAX_RECORDS: usize = 20_000_000;
/// Largest symbolic link target read.
const MAX_LINK: u64 = 4096;
/// Seconds from 1904-01-01 to 1970-01-01.
const HFS_EPOCH: i64 = 2_082_844_800;
const ROOT: u32 = 2;

fn corrupt(offset: u64, detail: impl Into<String>) -> Error {
    Error::Corrupt {
        layer: LAYER.to_string(),
        offset,
        detail: detail.into(),
    }
}

/// A fork: logical size and extents (start block, block count).
#[derive(Debug, Clone, Default)]
struct Fork {
    size: u64,
    extents: Vec<(u32, u32)>,
}

fn fork_data(b: &[u8], at: usize) -> Fork {
    let size = be64(b, at).unwrap_or(0);
    let mut extents = Vec::new();
    for i in 0..8 {
        let start = be32(b, at + 16 + 8 * i).unwrap_or(0);
        let count = be32(b, at + 20 + 8 * i).unwrap_or(0);
        if count != 0 {
            extents.push((start, count));
        }
    }
    Fork { size, extents }
}

/// An overflow extent: (first file block it maps, start block, block count).
type StartedExtent = (u32, u32, u32);

#[derive(Debug, Clone)]
struct Record {
    parent: u32,
    name: String,
    cnid: u32,
    dir: bool,
    /// create, content modify, attribute modify, access.
    times: [u32; 4],
    mode: u16,
    /// `ownerID` and `groupID` of the BSD info.
    owner: (u32, u32),
    flags: u8,
    /// `special` of the BSD info: iNode number of a hard link.
    special: u32,
    file_type: [u8; 4],
    creator: [u8; 4],
    data: Fork,
    rsrc: Fork,
}

/// An HFS+ or HFSX volume.
pub struct HfsPlus {
    vol: Bytes,
    block: u64,
    hfsx: bool,
    records: HashMap<u32, Record>,
    children: HashMap<u32, Vec<u32>>,
    overflow: HashMap<(u32, u8), Vec<(u32, u32)>>,
    diagnostics: Vec<String>,
}

/// Opens the HFS+ or HFSX volume in `bytes` (header at 1024, or wrapped in classic HFS).
pub fn open(bytes: Bytes) -> Result<Arc<dyn FileSystem>> {
    Ok(Arc::new(HfsPlus::open(bytes)?))
}

impl HfsPlus {
    pub fn open(bytes: Bytes) -> Result<HfsPlus> {
        let mut vh = [0u8; 512];
        bytes.read_exact_at(1024, &mut vh)?;
        let mut vol = bytes.clone();
        if &vh[..2] == b"BD" {
            // Classic HFS wrapper: the embedded volume starts at drAlBlSt sectors plus
            // drEmbedExtent.startBlock allocation blocks.
            if be16(&vh, 0x7C) != Some(0x482B) {
                return Err(Error::Unsupported {
                    layer: LAYER.to_string(),
                    detail: "classic HFS volume (no embedded HFS+)".into(),
                });
            }
            let al_blk = u64::from(be32(&vh, 0x14).unwrap_or(0));
            let al_st = u64::from(be16(&vh, 0x1C).unwrap_or(0));
            let start = u64::from(be16(&vh, 0x7E).unwrap_or(0));
            let count = u64::from(be16(&vh, 0x80).unwrap_or(0));
            let off = al_st * 512 + start * al_blk;
            let len = (count * al_blk).min(bytes.len().saturating_sub(off));
            if al_blk == 0 || off >= bytes.len() {
                return Err(corrupt(1024 + 0x7E, "embedded volume outside the wrapper"));
            }
            vol = Arc::new(Slice::new(bytes, off, len, "hfs+ embedded"));
            vol.read_exact_at(1024, &mut vh)?;
        }
        let hfsx = match (&vh[..2], be16(&vh, 2)) {
            (b"H+", Some(4)) => false,
            (b"HX", Some(5)) => true,
            _ => return Err(corrupt(1024, "no HFS+ (`H+`) or HFSX (`HX`) volume header")),
        };
        let block = u64::from(be32(&vh, 40).unwrap_or(0));
        if block < 512 || !block.is_power_of_two() {
            return Err(corrupt(1064, format!("block size {block}")));
        }
        let mut fs = HfsPlus {
            vol,
            block,
            hfsx,
            records: HashMap::new(),
            children: HashMap::new(),
            overflow: HashMap::new(),
            diagnostics: Vec::new(),
        };
        // Extents overflow file (CNID 3): its own extents are all in the header.
        let ext_fork = fork_data(&vh, 192);
        let ext = fs.fork_bytes(3, 0, &ext_fork, "extents overflow file")?;
        let mut overflow: HashMap<(u32, u8), Vec<StartedExtent>> = HashMap::new();
        if !ext.is_empty() {
            fs.walk_leaves(&ext, "extents overflow", |key, rec| {
                let fork_type = *key.get(2)?;
                let file = be32(key, 4)?;
                let start = be32(key, 8)?;
                let mut list = Vec::new();
                for i in 0..8 {
                    let s = be32(rec, 8 * i)?;
                    let c = be32(rec, 8 * i + 4)?;
                    if c != 0 {
                        list.push((start, s, c));
                    }
                }
                overflow.entry((file, fork_type)).or_default().extend(list);
                Some(())
            })?;
        }
        for ((file, ft), mut list) in overflow {
            list.sort_by_key(|e| e.0);
            fs.overflow
                .insert((file, ft), list.into_iter().map(|e| (e.1, e.2)).collect());
        }
        let cat_fork = fork_data(&vh, 272);
        let cat = fs.fork_bytes(4, 0, &cat_fork, "catalog file")?;
        let mut records = Vec::new();
        fs.walk_leaves(&cat, "catalog", |key, rec| {
            let parent = be32(key, 2)?;
            let n = usize::from(be16(key, 6)?);
            let name = field(key, 8, 2 * n)?;
            let units: Vec<u16> = name
                .chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            let name: String = char::decode_utf16(units)
                .map(|c| match c {
                    Ok('/') => ':',
                    Ok(c) => c,
                    Err(_) => '\u{fffd}',
                })
                .collect();
            let kind = be16(rec, 0)?;
            if kind != 1 && kind != 2 {
                return Some(()); // threads
            }
            let dir = kind == 1;
            let times = [
                be32(rec, 12)?,
                be32(rec, 16)?,
                be32(rec, 20)?,
                be32(rec, 24)?,
            ];
            let (data, rsrc) = if dir {
                (Fork::default(), Fork::default())
            } else {
                (fork_data(rec, 88), fork_data(rec, 168))
            };
            let t = field(rec, 48, 8)?;
            records.push(Record {
                parent,
                name,
                cnid: be32(rec, 8)?,
                dir,
                times,
                mode: be16(rec, 42)?,
                owner: (be32(rec, 32)?, be32(rec, 36)?),
                flags: *rec.get(41)?,
                special: be32(rec, 44)?,
                file_type: t[..4].try_into().ok()?,
                creator: t[4..].try_into().ok()?,
                data,
                rsrc,
            });
            Some(())
        })?;
        let mut compressed = 0usize;
        for r in records {
            if r.flags & 0x20 != 0 && !r.dir {
                compressed += 1;
            }
            fs.children.entry(r.parent).or_default().push(r.cnid);
            fs.records.insert(r.cnid, r);
        }
        if compressed > 0 {
            fs.diagnostics.push(format!(
                "{compressed} decmpfs-compressed file(s): their bytes are not decompressed (not supported yet)"
            ));
        }
        if !fs.records.contains_key(&ROOT) {
            return Err(corrupt(
                1024 + 272,
                "the catalog has no root folder (CNID 2)",
            ));
        }
        Ok(fs)
    }

    /// A fork's bytes: its extents (header ones, then overflow ones) over the volume.
    fn fork_bytes(&self, cnid: u32, fork_type: u8, fork: &Fork, what: &str) -> Result<Bytes> {
        let mut extents = fork.extents.clone();
        if let Some(more) = self.overflow.get(&(cnid, fork_type)) {
            extents.extend(more.iter().copied());
        }
        let mut parts: Vec<Bytes> = Vec::new();
        let mut have = 0u64;
        for (start, count) in extents {
            if have >= fork.size {
                break;
            }
            let off = u64::from(start) * self.block;
            let len = u64::from(count) * self.block;
            if off.checked_add(len).is_none_or(|e| e > self.vol.len()) {
                return Err(corrupt(
                    off,
                    format!(
                        "{what} (CNID {cnid}): extent of {count} blocks at block {start} beyond the volume"
                    ),
                ));
            }
            parts.push(Arc::new(Slice::new(self.vol.clone(), off, len, LAYER)));
            have += len;
        }
        if have < fork.size {
            return Err(corrupt(
                0,
                format!(
                    "{what} (CNID {cnid}): extents cover {have} of {} bytes",
                    fork.size
                ),
            ));
        }
        let all: Bytes = Arc::new(Concat::new(parts));
        Ok(Arc::new(Slice::new(all, 0, fork.size, LAYER)))
    }

    /// Walks a B-tree's leaf chain, calling `each(key, record)`; a record `each` cannot parse
    /// (it returns `None`) is counted in the diagnostics. A bad node ends the walk with a
    /// diagnostic; a node met twice is a loop.
    fn walk_leaves(
        &mut self,
        tree: &Bytes,
        what: &str,
        mut each: impl FnMut(&[u8], &[u8]) -> Option<()>,
    ) -> Result<()> {
        let mut head = [0u8; 106];
        tree.read_exact_at(0, &mut head)?;
        let node_size = u64::from(be16(&head, 32).unwrap_or(0));
        if !(512..=32768).contains(&node_size) || !node_size.is_power_of_two() {
            return Err(corrupt(32, format!("{what} B-tree: node size {node_size}")));
        }
        let total = tree.len() / node_size;
        let mut node = be32(&head, 24).unwrap_or(0);
        let mut seen = HashSet::new();
        let mut buf = vec![0u8; node_size as usize];
        let mut records = 0usize;
        let mut skipped = 0usize;
        while node != 0 {
            let at = u64::from(node) * node_size;
            if u64::from(node) >= total {
                self.diagnostics.push(format!(
                    "{what} B-tree: leaf link to node {node} beyond the tree ({total} nodes); entries after it not read"
                ));
                break;
            }
            if !seen.insert(node) {
                self.diagnostics.push(format!(
                    "{what} B-tree: leaf chain loops back to node {node}; walk stopped"
                ));
                break;
            }
            tree.read_exact_at(at, &mut buf)?;
            let next = be32(&buf, 0).unwrap_or(0);
            let kind = buf[8] as i8;
            let n = usize::from(be16(&buf, 10).unwrap_or(0));
            if kind != -1 || 2 * n + 14 > buf.len() {
                self.diagnostics.push(format!(
                    "{what} B-tree: node {node} (byte {at} of the tree) is not a leaf node (kind {kind}, {n} records); entries after it not read"
                ));
                break;
            }
            let offsets: Vec<usize> = (0..=n)
                .map(|i| usize::from(be16(&buf, buf.len() - 2 * (i + 1)).unwrap_or(0)))
                .collect();
            for i in 0..n {
                let (s, e) = (offsets[i], offsets[i + 1]);
                if s < 14 || e <= s || e > buf.len() - 2 * (n + 1) {
                    skipped += 1;
                    continue;
                }
                let rec = &buf[s..e];
                let Some(klen) = be16(rec, 0).map(usize::from) else {
                    skipped += 1;
                    continue;
                };
                let body = 2 + klen + (klen & 1);
                if body > rec.len() {
                    skipped += 1;
                    continue;
                }
                records += 1;
                if records > MAX_RECORDS {
                    return Err(Error::TooLarge {
                        layer: LAYER.to_string(),
                        offset: at,
                        what: format!("{what} records"),
                        claimed: records as u64,
                        limit: MAX_RECORDS as u64,
                    });
                }
                if each(&rec[..2 + klen], &rec[body..]).is_none() {
                    skipped += 1;
                }
            }
            node = next;
        }
        if skipped > 0 {
            self.diagnostics.push(format!(
                "{what} B-tree: {skipped} malformed record(s) skipped"
            ));
        }
        Ok(())
    }

    fn find_child(&self, dir: u32, name: &str) -> Option<u32> {
        let kids = self.children.get(&dir)?;
        let exact = kids
            .iter()
            .find(|c| self.records.get(c).is_some_and(|r| r.name == name));
        if exact.is_some() || self.hfsx {
            return exact.copied();
        }
        let low = name.to_lowercase();
        kids.iter()
            .find(|c| {
                self.records
                    .get(c)
                    .is_some_and(|r| r.name.to_lowercase() == low)
            })
            .copied()
    }

    /// Resolves a path to a record and whether the resource fork is meant.
    fn resolve(&self, path: &str) -> Result<(&Record, bool)> {
        let norm = crate::fs::normalize_path(path);
        let mut cur = ROOT;
        let parts: Vec<&str> = norm.split('/').filter(|p| !p.is_empty()).collect();
        let mut i = 0;
        let no = || Error::NoEntry {
            layer: LAYER.to_string(),
            path: norm.clone(),
        };
        while i < parts.len() {
            let part = parts[i];
            let rec = self.records.get(&cur).ok_or_else(no)?;
            if !rec.dir {
                if parts[i..] == ["..namedfork", "rsrc"] {
                    return Ok((self.target(rec), true));
                }
                return Err(Error::WrongKind {
                    layer: LAYER.to_string(),
                    path: norm.clone(),
                    detail: "not a directory".into(),
                });
            }
            match self.find_child(cur, part) {
                Some(c) => cur = c,
                None => {
                    let last = i + 1 == parts.len();
                    if let (true, Some(base)) = (last, part.strip_suffix(":rsrc"))
                        && let Some(c) = self.find_child(cur, base)
                        && let Some(r) = self.records.get(&c)
                        && !r.dir
                    {
                        return Ok((self.target(r), true));
                    }
                    return Err(no());
                }
            }
            cur = self.dir_link(cur).unwrap_or(cur);
            i += 1;
        }
        let rec = self.records.get(&cur).ok_or_else(no)?;
        Ok((self.target(rec), false))
    }

    /// The `iNode<n>` record a file hard link points at (or the record itself).
    fn target<'a>(&'a self, rec: &'a Record) -> &'a Record {
        if !rec.dir && &rec.file_type == b"hlnk" && &rec.creator == b"hfs+" {
            let name = format!("iNode{}", rec.special);
            if let Some(r) = self
                .private_dir("\0\0\0\0HFS+ Private Data")
                .and_then(|p| self.find_child(p, &name))
                .and_then(|c| self.records.get(&c))
            {
                return r;
            }
        }
        rec
    }

    /// The folder a directory hard link (`fdrp`/`MACS`) points at.
    fn dir_link(&self, cnid: u32) -> Option<u32> {
        let rec = self.records.get(&cnid)?;
        if rec.dir || &rec.file_type != b"fdrp" || &rec.creator != b"MACS" {
            return None;
        }
        let p = self.private_dir(".HFS+ Private Directory Data\r")?;
        self.find_child(p, &format!("dir_{}", rec.special))
    }

    fn private_dir(&self, name: &str) -> Option<u32> {
        self.children
            .get(&ROOT)?
            .iter()
            .find(|c| self.records.get(c).is_some_and(|r| r.name == name))
            .copied()
    }

    fn entry(&self, path: &str, listed: &Record) -> Entry {
        let dir_target = self.dir_link(listed.cnid);
        let rec = match dir_target.and_then(|c| self.records.get(&c)) {
            Some(d) => d,
            None => self.target(listed),
        };
        let mode = u32::from(rec.mode);
        let kind = if rec.dir {
            EntryKind::Dir
        } else {
            match mode & 0o170000 {
                0o120000 => EntryKind::Symlink,
                0 | 0o100000 => EntryKind::File,
                _ => EntryKind::Other,
            }
        };
        let roles = [
            TimeRole::Created,
            TimeRole::Modified,
            TimeRole::Changed,
            TimeRole::Accessed,
        ];
        let times = roles
            .iter()
            .zip(rec.times)
            .filter(|(_, t)| *t != 0)
            .map(|(role, t)| Time {
                role: *role,
                raw: RawTime::Unix {
                    secs: i64::from(t) - HFS_EPOCH,
                    nanos: 0,
                },
            })
            .collect();
        let link_target = (kind == EntryKind::Symlink)
            .then(|| self.read_link(rec).ok())
            .flatten();
        Entry {
            path: path.to_string(),
            name: crate::fs::file_name(path).to_string(),
            kind,
            size: if rec.dir { 0 } else { rec.data.size },
            id: Some(u64::from(rec.cnid)),
            mode: (mode != 0).then_some(mode),
            deleted: false,
            times,
            link_target,
            stored_name: None,
            // a record without BSD info (mode 0, as classic Mac OS wrote) has no owner either
            owner: (mode != 0).then_some(rec.owner),
        }
    }

    fn read_link(&self, rec: &Record) -> Result<String> {
        let b = self.fork_bytes(rec.cnid, 0, &rec.data, "symbolic link")?;
        let n = b.len().min(MAX_LINK) as usize;
        let mut buf = vec![0u8; n];
        b.read_exact_at(0, &mut buf)?;
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }
}

impl FileSystem for HfsPlus {
    fn format(&self) -> &str {
        if self.hfsx { "hfsx" } else { "hfsplus" }
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>> {
        let norm = crate::fs::normalize_path(path);
        let (rec, rsrc) = self.resolve(&norm)?;
        let cnid = self.dir_link(rec.cnid).unwrap_or(rec.cnid);
        let is_dir = self.records.get(&cnid).is_some_and(|r| r.dir);
        if !is_dir || rsrc {
            return Err(Error::WrongKind {
                layer: LAYER.to_string(),
                path: norm,
                detail: "not a directory".into(),
            });
        }
        let mut out = Vec::new();
        for c in self.children.get(&cnid).into_iter().flatten() {
            let Some(r) = self.records.get(c) else {
                continue;
            };
            let p = crate::fs::join(&norm, &r.name);
            let e = self.entry(&p, r);
            let t = self.target(r);
            if !t.dir && t.rsrc.size > 0 {
                let mut fork = e.clone();
                fork.path = format!("{p}:rsrc");
                fork.name = format!("{}:rsrc", r.name);
                fork.size = t.rsrc.size;
                fork.kind = EntryKind::File;
                fork.link_target = None;
                out.push(fork);
            }
            out.push(e);
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    fn stat(&self, path: &str) -> Result<Entry> {
        let norm = crate::fs::normalize_path(path);
        if norm == "/" {
            let root = self.records.get(&ROOT).expect("checked on open");
            return Ok(self.entry("/", root));
        }
        let (rec, rsrc) = self.resolve(&norm)?;
        let mut e = self.entry(&norm, rec);
        if rsrc {
            e.size = rec.rsrc.size;
            e.kind = EntryKind::File;
            e.link_target = None;
        }
        Ok(e)
    }

    fn open(&self, path: &str) -> Result<Bytes> {
        let norm = crate::fs::normalize_path(path);
        let (rec, rsrc) = self.resolve(&norm)?;
        if rec.dir {
            return Err(Error::WrongKind {
                layer: LAYER.to_string(),
                path: norm,
                detail: "is a directory".into(),
            });
        }
        if rsrc {
            self.fork_bytes(rec.cnid, 0xFF, &rec.rsrc, "resource fork")
        } else {
            self.fork_bytes(rec.cnid, 0, &rec.data, "data fork")
        }
    }

    fn diagnostics(&self) -> Vec<String> {
        self.diagnostics.clone()
    }
}
