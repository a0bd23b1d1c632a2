//! ext2, ext3 and ext4 file systems, read-only, as a [`FileSystem`].
//!
//! # Why a hand-written reader and not `ext4-view`
//! `ext4-view` 1.0 was the plan, and it is kept as an independent second reader in the tests
//! (its content must equal ours wherever it can read), but it cannot be the reader here:
//! - its public API exposes neither inode numbers (the `id` every entry needs, and what `fls`
//!   and `istat` cite) nor the inode change time;
//! - it refuses `casefold`, `inline_data`, `large_dir`, `meta_bg`, `mmp`, `ea_inode` and file
//!   systems without `filetype`, and patching `casefold` out of its superblock would not be
//!   enough: it resolves every path through the htree with a hash of the raw name, while a
//!   casefold folder's htree is keyed by the case-folded name, so names with upper-case letters
//!   would not be found;
//! - it fails on ext2/ext3 block-mapped files with holes ("invalid read … from block 0");
//! - its `Ext4` handle is `Rc`-based, neither `Send` nor `Sync`, while a [`FileSystem`] is shared
//!   across threads;
//! - it replays the journal, whereas examiners compare with The Sleuth Kit, which shows the
//!   file system as it is on disk.
//!
//! The subset of ext needed to list and read is small and well documented (the kernel's
//! `Documentation/filesystems/ext4/`), so it is written here, bounded against hostile input.
//!
//! # What is read
//! - Superblock (magic, geometry, feature words; its crc32c checked under `metadata_csum`), the
//!   group descriptor table (classic and `meta_bg` layouts, 32- and 64-byte descriptors).
//! - Inodes with their times in raw form: modification, access, change and, where the inode is
//!   large enough, creation, with the extra-precision nanoseconds and epoch bits.
//! - Data through extent trees (ext4) or direct/indirect block maps (ext2/ext3), holes and
//!   uninitialised extents as zeros; inline data (`inline_data`: `i_block` + `system.data`).
//! - Folders linearly, record by record, htree index blocks skipped (see [`dir`]): this reads
//!   `dir_index`, `large_dir` and `casefold` folders alike. Paths are matched byte-exact, i.e.
//!   case-sensitively even in casefold folders: an examiner names entries as stored.
//!
//! # What is not, and how it is reported
//! - Folders and files with an fscrypt policy (`encrypt`): [`Error::Encrypted`] naming the path
//!   and inode; the rest of the tree is listed.
//! - Inline data held in an extended-attribute inode (`ea_inode`): [`Error::Unsupported`] naming
//!   the inode.
//! - `compression` (an abandoned ext2 patch set), unknown incompatible features, and external
//!   journal devices: [`Error::Unsupported`] at open.
//! - The journal is not replayed (`needs_recovery` is reported in [`FileSystem::diagnostics`]).
//! - Deleted entries are not recovered (`deleted` is always false), and metadata checksums other
//!   than the superblock's are not verified.
//!
//! # Bounds
//! Every loop is bounded by the structure it walks (see [`map`] and [`dir`]); folders larger
//! than [`MAX_DIR_BYTES`] and files larger than their addressing allows are [`Error::TooLarge`];
//! a folder that is its own ancestor is [`Error::Corrupt`] when listed through that path.

mod crc32c;
mod dir;
mod inode;
mod map;
pub(crate) mod superblock;

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;

use crate::Error;
use crate::bytes::{ByteSource, Bytes, Memory};
use crate::fs::{Entry, EntryKind, FileSystem, file_name, join, normalize_path};
use dir::{Layout, RawEntry, display_name, parse_region};
use inode::{FLAG_ENCRYPT, FLAG_EXTENTS, FLAG_INLINE_DATA, InlineTail, Inode};
use superblock::{
    INCOMPAT_CASEFOLD, INCOMPAT_DIRDATA, INCOMPAT_ENCRYPT, INCOMPAT_FILETYPE, INCOMPAT_INLINE_DATA,
    INCOMPAT_MMP, INCOMPAT_RECOVER, SUPERBLOCK_OFFSET, Superblock,
};

/// The root folder's inode.
const ROOT_INO: u32 = 2;
/// Largest folder read (256 MiB of records, several million entries).
pub const MAX_DIR_BYTES: u64 = 256 << 20;
/// Folders whose inode chain is remembered, so deep walks do not re-read every ancestor.
const DIR_CACHE: usize = 16384;
/// Folders whose parsed records are kept for path lookups (a run of `open`s in one big
/// folder then parses it once), and the largest folder kept (in records).
const RECORD_CACHE: usize = 16;
const RECORD_CACHE_MAX_ENTRIES: usize = 1 << 16;
/// How many of a path's deepest folders [`ExtFs::resolve`] looks up in, and adds to, the folder
/// cache.
const RESOLVE_PROBE: usize = 4;
/// Most diagnostics kept from reading (the first ones tell the story).
const MAX_NOTES: usize = 1000;

/// Whether `src` starts like an ext2/3/4 file system (the superblock magic).
pub fn is_ext(src: &dyn ByteSource) -> bool {
    let mut magic = [0u8; 2];
    src.read_exact_at(SUPERBLOCK_OFFSET + 0x38, &mut magic)
        .is_ok()
        && magic == [0x53, 0xEF]
}

/// Opens an ext2/3/4 file system stored in `bytes` (an image, a partition).
pub fn open(bytes: Bytes) -> Result<Arc<dyn FileSystem>, Error> {
    Ok(Arc::new(ExtFs::open(bytes)?))
}

/// Facts about an opened ext file system, for probes and reports.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ExtInfo {
    /// `ext2`, `ext3` or `ext4`.
    pub format: String,
    pub label: String,
    /// The file system UUID, in its usual text form.
    pub uuid: String,
    pub block_size: u32,
    pub blocks_count: u64,
    pub inodes_count: u32,
    pub groups: u32,
    /// Feature flags by their e2fsprogs names.
    pub features: Vec<String>,
}

/// The reading state shared by a file system and the files opened from it.
pub(crate) struct Volume {
    bytes: Bytes,
    sb: Superblock,
    /// First block of each group's inode table.
    inode_tables: Vec<u64>,
    /// The layer name in errors: the format name.
    layer: String,
}

impl Volume {
    fn corrupt(&self, offset: u64, detail: String) -> Error {
        Error::Corrupt {
            layer: self.layer.clone(),
            offset,
            detail,
        }
    }

    /// Byte offset of inode `ino`; `referenced_at` is where the number was read, for errors.
    fn inode_offset(&self, ino: u32, referenced_at: u64) -> Result<u64, Error> {
        let sb = &self.sb;
        let limit =
            u64::from(sb.inodes_count).min(u64::from(sb.groups) * u64::from(sb.inodes_per_group));
        if ino == 0 || u64::from(ino) > limit {
            return Err(self.corrupt(
                referenced_at,
                format!("inode number {ino} outside 1..={limit}"),
            ));
        }
        let index = ino - 1;
        let group = index / sb.inodes_per_group;
        let within = u64::from(index % sb.inodes_per_group) * u64::from(sb.inode_size);
        let bs = u64::from(sb.block_size);
        let table = self.inode_tables.get(group as usize).copied().unwrap_or(0);
        let block = table + within / bs;
        if table == 0 || block >= sb.blocks_count {
            return Err(self.corrupt(
                referenced_at,
                format!("inode {ino}: inode table of group {group} at block {table} is outside the file system"),
            ));
        }
        Ok(table * bs + within)
    }

    fn read_inode(&self, ino: u32, referenced_at: u64) -> Result<Inode, Error> {
        let offset = self.inode_offset(ino, referenced_at)?;
        let mut raw = vec![0u8; self.sb.inode_size as usize];
        self.bytes.read_exact_at(offset, &mut raw)?;
        Ok(Inode::parse(ino, offset, &raw, &self.sb))
    }

    fn layout(&self) -> Layout {
        Layout {
            file_type: self.sb.incompat & INCOMPAT_FILETYPE != 0,
            big_blocks: self.sb.block_size >= 65536,
            inodes: self.sb.inodes_count,
        }
    }

    #[cfg(test)]
    fn for_tests(bytes: Bytes, block_size: u32, blocks: u64) -> Volume {
        Volume {
            bytes,
            sb: Superblock::for_tests(block_size, blocks),
            inode_tables: Vec::new(),
            layer: "ext4".to_string(),
        }
    }
}

/// Reads the inodes of one folder's entries, keeping the last inode-table block read (the
/// inodes of one folder are usually neighbours).
struct InodeReader<'a> {
    vol: &'a Volume,
    block: u64,
    buf: Vec<u8>,
}

impl<'a> InodeReader<'a> {
    fn new(vol: &'a Volume) -> InodeReader<'a> {
        InodeReader {
            vol,
            block: u64::MAX,
            buf: vec![0u8; vol.sb.block_size as usize],
        }
    }

    fn read(&mut self, ino: u32, referenced_at: u64) -> Result<Inode, Error> {
        let offset = self.vol.inode_offset(ino, referenced_at)?;
        let bs = u64::from(self.vol.sb.block_size);
        let block = offset / bs;
        if block != self.block {
            self.block = u64::MAX;
            // The last block of a truncated image may be partial: fall back to one inode.
            if self
                .vol
                .bytes
                .read_exact_at(block * bs, &mut self.buf)
                .is_err()
            {
                return self.vol.read_inode(ino, referenced_at);
            }
            self.block = block;
        }
        let start = (offset % bs) as usize;
        let end = start + self.vol.sb.inode_size as usize;
        match self.buf.get(start..end) {
            Some(raw) => Ok(Inode::parse(ino, offset, raw, &self.vol.sb)),
            None => self.vol.read_inode(ino, referenced_at),
        }
    }
}

/// An ext2/3/4 file system.
pub struct ExtFs {
    vol: Arc<Volume>,
    info: ExtInfo,
    notes: Vec<String>,
    reading_notes: Mutex<Vec<String>>,
    /// Path of a folder → the inodes of the folders from the root down to it.
    dirs: Mutex<LruCache<String, Arc<[u32]>>>,
    /// Folder inode → its records, for path lookups.
    records: Mutex<LruCache<u32, Arc<Vec<RawEntry>>>>,
}

impl ExtFs {
    /// Opens the file system: reads and checks the superblock and the group descriptors.
    pub fn open(bytes: Bytes) -> Result<ExtFs, Error> {
        let sb = Superblock::read(bytes.as_ref())?;
        let inode_tables = sb.read_inode_tables(bytes.as_ref()).map_err(|e| match e {
            Error::Corrupt { offset, detail, .. } => Error::Corrupt {
                layer: sb.format_name().to_string(),
                offset,
                detail,
            },
            other => other,
        })?;
        let format = sb.format_name().to_string();
        let info = ExtInfo {
            format: format.clone(),
            label: String::from_utf8_lossy(&sb.label)
                .trim_end_matches('\0')
                .to_string(),
            uuid: format_uuid(&sb.uuid),
            block_size: sb.block_size,
            blocks_count: sb.blocks_count,
            inodes_count: sb.inodes_count,
            groups: sb.groups,
            features: sb.feature_names(),
        };
        let mut notes = Vec::new();
        if sb.incompat & INCOMPAT_RECOVER != 0 {
            notes.push("needs_recovery: the journal holds changes not yet written to the file system; like fls, this shows the file system as it is on disk, without replaying the journal".to_string());
        }
        if sb.incompat & INCOMPAT_CASEFOLD != 0 {
            notes.push(format!("casefold (encoding {}): folders are read linearly, never through their case-folded htree hash; names are shown as stored and matched byte-exact (case-sensitive)", sb.encoding));
        }
        if sb.incompat & INCOMPAT_INLINE_DATA != 0 {
            notes.push("inline_data: small files and folders are read from their inode (i_block and the system.data attribute)".to_string());
        }
        if sb.incompat & INCOMPAT_ENCRYPT != 0 {
            notes.push("encrypt: folders and files with an fscrypt policy cannot be read without their keys and are reported as encrypted".to_string());
        }
        if sb.incompat & INCOMPAT_MMP != 0 {
            notes.push(
                "mmp: the multi-mount protection block is ignored (read-only access)".to_string(),
            );
        }
        if sb.incompat & INCOMPAT_DIRDATA != 0 {
            notes.push("dirdata: extra data after names in folder records is ignored".to_string());
        }
        let cap = NonZeroUsize::new(DIR_CACHE).unwrap_or(NonZeroUsize::MIN);
        Ok(ExtFs {
            vol: Arc::new(Volume {
                bytes,
                sb,
                inode_tables,
                layer: format,
            }),
            info,
            notes,
            reading_notes: Mutex::new(Vec::new()),
            dirs: Mutex::new(LruCache::new(cap)),
            records: Mutex::new(LruCache::new(
                NonZeroUsize::new(RECORD_CACHE).unwrap_or(NonZeroUsize::MIN),
            )),
        })
    }

    /// Facts about the file system (format, label, UUID, geometry, features).
    pub fn info(&self) -> &ExtInfo {
        &self.info
    }

    fn layer(&self) -> String {
        self.vol.layer.clone()
    }

    fn note(&self, note: String) {
        let mut notes = self
            .reading_notes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if notes.len() < MAX_NOTES && !notes.contains(&note) {
            notes.push(note);
        }
    }

    fn encrypted(&self, path: &str, inode: &Inode, what: &str) -> Error {
        Error::Encrypted {
            layer: self.layer(),
            detail: format!(
                "{path}: {what} (inode {}) has an fscrypt policy and no key is available",
                inode.ino
            ),
        }
    }

    /// The bytes of an inline inode: `i_block`, then the `system.data` attribute.
    fn inline_bytes(&self, inode: &Inode, path: &str) -> Result<Vec<u8>, Error> {
        let mut data = inode.block.to_vec();
        match &inode.inline_tail {
            None => {}
            Some(InlineTail::Bytes(tail)) => data.extend_from_slice(tail),
            Some(InlineTail::EaInode { inode: ea, size }) => {
                return Err(Error::Unsupported {
                    layer: self.layer(),
                    detail: format!(
                        "{path}: inode {} keeps {size} bytes of inline data in extended-attribute inode {ea} (ea_inode), which is not read",
                        inode.ino
                    ),
                });
            }
        }
        let size = usize::try_from(inode.size).unwrap_or(usize::MAX);
        if size > data.len() {
            return Err(self.vol.corrupt(
                inode.at,
                format!(
                    "inode {}: inline data of {} bytes, but the inode holds {}",
                    inode.ino,
                    inode.size,
                    data.len()
                ),
            ));
        }
        data.truncate(size);
        Ok(data)
    }

    /// The live records of a folder.
    fn read_dir(&self, dir: &Inode, path: &str) -> Result<Vec<RawEntry>, Error> {
        if dir.has(FLAG_ENCRYPT) {
            return Err(self.encrypted(path, dir, "folder"));
        }
        let layout = self.vol.layout();
        let mut out = Vec::new();
        if dir.has(FLAG_INLINE_DATA) {
            // The first 4 bytes are the parent's inode number; records follow, in i_block and
            // then in the system.data attribute, each area on its own.
            let data = self.inline_bytes(dir, path)?;
            let first = data
                .get(4..data.len().min(inode::I_BLOCK_LEN))
                .unwrap_or(&[]);
            parse_region(first, dir.at + 0x2C, layout, &self.vol.layer, &mut out)?;
            if let Some(rest) = data.get(inode::I_BLOCK_LEN..) {
                parse_region(rest, dir.at, layout, &self.vol.layer, &mut out)?;
            }
            return Ok(out);
        }
        if dir.size > MAX_DIR_BYTES {
            return Err(Error::TooLarge {
                layer: self.layer(),
                offset: dir.at,
                what: format!("folder {path} (inode {})", dir.ino),
                claimed: dir.size,
                limit: MAX_DIR_BYTES,
            });
        }
        let runs = map::map(&self.vol, dir, dir.size)?;
        let bs = u64::from(self.vol.sb.block_size);
        // Read runs in chunks of up to 64 blocks, then parse block by block.
        let chunk_blocks = 64u64;
        let mut buf = Vec::new();
        for run in runs.iter().filter(|r| !r.zero) {
            let mut done = 0u64;
            while done < run.len {
                let n = (run.len - done).min(chunk_blocks);
                let at = (run.physical + done) * bs;
                buf.resize((n * bs) as usize, 0);
                self.vol.bytes.read_exact_at(at, &mut buf)?;
                for (i, block) in buf.chunks_exact(bs as usize).enumerate() {
                    parse_region(block, at + i as u64 * bs, layout, &self.vol.layer, &mut out)?;
                }
                done += n;
            }
        }
        Ok(out)
    }

    /// The records of a folder for a lookup, from the cache when recently read.
    fn lookup_records(&self, dir: &Inode, path: &str) -> Result<Arc<Vec<RawEntry>>, Error> {
        if let Some(hit) = self
            .records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&dir.ino)
        {
            return Ok(hit.clone());
        }
        let records = Arc::new(self.read_dir(dir, path)?);
        if records.len() <= RECORD_CACHE_MAX_ENTRIES {
            self.records
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .put(dir.ino, records.clone());
        }
        Ok(records)
    }

    /// The target of a symbolic link, as stored.
    fn link_target(&self, inode: &Inode, path: &str) -> Result<Option<String>, Error> {
        if inode.has(FLAG_ENCRYPT) {
            return Ok(None); // ciphertext: not a usable target
        }
        let bs = u64::from(self.vol.sb.block_size);
        let bytes = if inode.has(FLAG_INLINE_DATA) {
            self.inline_bytes(inode, path)?
        } else if inode.is_fast_symlink(&self.vol.sb) {
            inode.block[..inode.size as usize].to_vec()
        } else {
            if inode.size > bs {
                return Err(Error::TooLarge {
                    layer: self.layer(),
                    offset: inode.at,
                    what: format!("symbolic link target of {path} (inode {})", inode.ino),
                    claimed: inode.size,
                    limit: bs,
                });
            }
            let runs = map::map(&self.vol, inode, inode.size)?;
            let data = map::FileData::new(self.vol.clone(), runs, inode.size, self.layer());
            let mut buf = vec![0u8; inode.size as usize];
            data.read_exact_at(0, &mut buf)?;
            buf
        };
        Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn entry(&self, path: String, name: String, inode: &Inode) -> Entry {
        let kind = if inode.is_file() {
            EntryKind::File
        } else if inode.is_dir() {
            EntryKind::Dir
        } else if inode.is_symlink() {
            EntryKind::Symlink
        } else {
            EntryKind::Other
        };
        let link_target = if kind == EntryKind::Symlink {
            match self.link_target(inode, &path) {
                Ok(t) => t,
                Err(e) => {
                    self.note(format!("{path}: symbolic link target unreadable: {e}"));
                    None
                }
            }
        } else {
            None
        };
        Entry {
            path,
            name,
            kind,
            size: inode.size,
            id: Some(u64::from(inode.ino)),
            mode: Some(u32::from(inode.mode)),
            deleted: false,
            times: inode.times.clone(),
            link_target,
            stored_name: None,
            owner: Some((inode.uid, inode.gid)),
        }
    }

    /// A deleted record as an entry. Its inode's metadata is shown only while the inode is
    /// still free (no links): once reused it describes another file, and the entry keeps only
    /// what the record itself says (name, inode number, file type).
    fn deleted_entry(
        &self,
        dir: &str,
        name: String,
        rec: &RawEntry,
        reader: &mut InodeReader<'_>,
    ) -> Entry {
        let from_type = match rec.file_type {
            1 => EntryKind::File,
            2 => EntryKind::Dir,
            7 => EntryKind::Symlink,
            _ => EntryKind::Other,
        };
        let freed = (rec.ino != 0)
            .then(|| reader.read(rec.ino, rec.at).ok())
            .flatten()
            .filter(|i| i.links == 0 && i.mode != 0);
        let mut e = Entry {
            path: join(dir, &name),
            name,
            kind: from_type,
            size: 0,
            id: (rec.ino != 0).then_some(u64::from(rec.ino)),
            mode: None,
            deleted: true,
            times: Vec::new(),
            link_target: None,
            stored_name: None,
            owner: None,
        };
        if let Some(inode) = freed {
            e.size = inode.size;
            e.mode = Some(u32::from(inode.mode));
            e.owner = Some((inode.uid, inode.gid));
            e.times = inode.times.clone();
        }
        e
    }

    /// Finds the inode a path names, walking down from the nearest folder already known. The
    /// chain returned holds the inodes from the root down to it. A folder met again among its
    /// own ancestors is a loop: an error, unless it is the last component and `final_may_loop`
    /// (stat and open may name it; listing it would never end).
    ///
    /// Linear in the path's depth: prefixes are slices of `norm`, ancestors are checked in a
    /// set, only the last [`RESOLVE_PROBE`] prefixes are looked up in the folder cache and only
    /// the last folders of the path are added to it (a crafted path 10,000 folders deep must not
    /// cost a quadratic walk, or a quadratic cache).
    fn resolve(&self, norm: &str, final_may_loop: bool) -> Result<(Vec<u32>, Inode), Error> {
        let comps: Vec<&str> = norm.split('/').filter(|c| !c.is_empty()).collect();
        // prefix(k): the path of the first k components ("/" for none), a slice of `norm`.
        let mut ends = Vec::with_capacity(comps.len());
        let mut at = 0;
        for c in &comps {
            at += 1 + c.len();
            ends.push(at);
        }
        let prefix = |k: usize| -> &str {
            match k {
                0 => "/",
                k => norm.get(..ends[k - 1]).unwrap_or(norm),
            }
        };
        let mut start = 0;
        let mut chain: Vec<u32> = vec![ROOT_INO];
        {
            let mut cache = self.dirs.lock().unwrap_or_else(|p| p.into_inner());
            let shallowest = comps.len().saturating_sub(RESOLVE_PROBE).max(1);
            for k in (shallowest..=comps.len()).rev() {
                if let Some(known) = cache.get(prefix(k)) {
                    chain = known.to_vec();
                    start = k;
                    break;
                }
            }
        }
        let mut ancestors: std::collections::HashSet<u32> = chain.iter().copied().collect();
        let last = chain.last().copied().unwrap_or(ROOT_INO);
        let mut current = self.vol.read_inode(last, SUPERBLOCK_OFFSET)?;
        let mut learned = Vec::new();
        for k in start..comps.len() {
            let here = prefix(k);
            if !current.is_dir() {
                return Err(Error::WrongKind {
                    layer: self.layer(),
                    path: here.to_string(),
                    detail: "not a folder".to_string(),
                });
            }
            let want = comps[k];
            let records = self.lookup_records(&current, here)?;
            let live = || records.iter().filter(|e| !e.deleted);
            let found = live()
                .find(|e| e.name == want.as_bytes())
                .or_else(|| live().find(|e| display_name(&e.name) == want))
                .ok_or_else(|| Error::NoEntry {
                    layer: self.layer(),
                    path: norm.to_string(),
                })?;
            let child = self.vol.read_inode(found.ino, found.at)?;
            let is_last = k + 1 == comps.len();
            if ancestors.contains(&child.ino) && !(is_last && final_may_loop) {
                return Err(self.vol.corrupt(
                    found.at,
                    format!(
                        "folder loop: {} is inode {}, which is also one of its own ancestors",
                        join(here, want),
                        child.ino
                    ),
                ));
            }
            chain.push(child.ino);
            ancestors.insert(child.ino);
            if child.is_dir() && !is_last && k + RESOLVE_PROBE >= comps.len() {
                learned.push((prefix(k + 1).to_string(), Arc::from(&chain[..])));
            }
            current = child;
        }
        if !learned.is_empty() {
            let mut cache = self.dirs.lock().unwrap_or_else(|p| p.into_inner());
            for (path, known) in learned {
                cache.put(path, known);
            }
        }
        Ok((chain, current))
    }
}

fn format_uuid(u: &[u8; 16]) -> String {
    let h = hex::encode(u);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

impl FileSystem for ExtFs {
    fn format(&self) -> &str {
        &self.info.format
    }

    fn list_dir(&self, path: &str) -> Result<Vec<Entry>, Error> {
        let norm = normalize_path(path);
        let (chain, dir) = self.resolve(&norm, false)?;
        if !dir.is_dir() {
            return Err(Error::WrongKind {
                layer: self.layer(),
                path: norm,
                detail: "not a folder".to_string(),
            });
        }
        let records = self.read_dir(&dir, &norm)?;
        let mut reader = InodeReader::new(&self.vol);
        let mut out = Vec::with_capacity(records.len());
        let mut learned = Vec::new();
        let live: std::collections::HashSet<(&[u8], u32)> = records
            .iter()
            .filter(|r| !r.deleted)
            .map(|r| (r.name.as_slice(), r.ino))
            .collect();
        let live_names: std::collections::HashSet<&[u8]> = live.iter().map(|(n, _)| *n).collect();
        let mut deleted_names = std::collections::HashSet::new();
        for rec in &records {
            if rec.deleted {
                // A stale copy of a record that still links the same inode under the same
                // name (left behind when an htree leaf was split, or a record moved) is no
                // deletion.
                if live.contains(&(rec.name.as_slice(), rec.ino)) {
                    continue;
                }
                // A deleted name that is also a live one (or met twice) is shown as
                // `name (deleted #inode)`, as the NTFS reader does, so every path is unique.
                let mut name = display_name(&rec.name);
                if live_names.contains(rec.name.as_slice())
                    || !deleted_names.insert(rec.name.clone())
                {
                    name = format!("{name} (deleted #{})", rec.ino);
                }
                out.push(self.deleted_entry(&norm, name, rec, &mut reader));
                continue;
            }
            let name = display_name(&rec.name);
            let path = join(&norm, &name);
            match reader.read(rec.ino, rec.at) {
                Ok(inode) => {
                    if inode.is_dir() && !chain.contains(&inode.ino) {
                        let mut c = Vec::with_capacity(chain.len() + 1);
                        c.extend_from_slice(&chain);
                        c.push(inode.ino);
                        learned.push((path.clone(), Arc::<[u32]>::from(c)));
                    }
                    out.push(self.entry(path, name, &inode));
                }
                Err(e) => {
                    // Keep the entry (the folder says it exists) with what the record tells.
                    self.note(format!("{path}: inode {} unreadable: {e}", rec.ino));
                    let kind = match rec.file_type {
                        1 => EntryKind::File,
                        2 => EntryKind::Dir,
                        7 => EntryKind::Symlink,
                        _ => EntryKind::Other,
                    };
                    out.push(Entry {
                        path,
                        name,
                        kind,
                        size: 0,
                        id: Some(u64::from(rec.ino)),
                        mode: None,
                        deleted: false,
                        times: Vec::new(),
                        link_target: None,
                        stored_name: None,
                        owner: None,
                    });
                }
            }
        }
        if !learned.is_empty() {
            let mut cache = self.dirs.lock().unwrap_or_else(|p| p.into_inner());
            for (path, c) in learned {
                cache.put(path, c);
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
        Ok(out)
    }

    fn stat(&self, path: &str) -> Result<Entry, Error> {
        let norm = normalize_path(path);
        let (_, inode) = self.resolve(&norm, true)?;
        let name = file_name(&norm).to_string();
        Ok(self.entry(norm, name, &inode))
    }

    fn open(&self, path: &str) -> Result<Bytes, Error> {
        let norm = normalize_path(path);
        let (_, inode) = self.resolve(&norm, true)?;
        if !inode.is_file() {
            return Err(Error::WrongKind {
                layer: self.layer(),
                path: norm,
                detail: if inode.is_dir() {
                    "is a folder".to_string()
                } else {
                    "not a regular file".to_string()
                },
            });
        }
        if inode.has(FLAG_ENCRYPT) {
            return Err(self.encrypted(&norm, &inode, "file"));
        }
        let name = format!("{} {norm}", self.vol.layer);
        if inode.has(FLAG_INLINE_DATA) {
            let data = self.inline_bytes(&inode, &norm)?;
            return Ok(Arc::new(Memory::new(data, name)));
        }
        let bs = u64::from(self.vol.sb.block_size);
        let max_blocks = if inode.has(FLAG_EXTENTS) {
            1u64 << 32
        } else {
            let p = bs / 4;
            12 + p + p * p + p * p * p
        };
        let limit = max_blocks.saturating_mul(bs);
        if inode.size > limit {
            return Err(Error::TooLarge {
                layer: self.layer(),
                offset: inode.at,
                what: format!("size of {norm} (inode {})", inode.ino),
                claimed: inode.size,
                limit,
            });
        }
        let runs = map::map(&self.vol, &inode, inode.size)?;
        Ok(Arc::new(map::FileData::new(
            self.vol.clone(),
            runs,
            inode.size,
            name,
        )))
    }

    fn diagnostics(&self) -> Vec<String> {
        let mut all = self.notes.clone();
        all.extend(
            self.reading_notes
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .cloned(),
        );
        all
    }
}

/// Little-endian u16 at `off`, 0 where `b` is too short (callers bound their fields first).
fn le16(b: &[u8], off: usize) -> u16 {
    off.checked_add(2)
        .and_then(|end| b.get(off..end))
        .and_then(|s| <[u8; 2]>::try_from(s).ok())
        .map_or(0, u16::from_le_bytes)
}

/// Little-endian u32 at `off`, 0 where `b` is too short.
fn le32(b: &[u8], off: usize) -> u32 {
    off.checked_add(4)
        .and_then(|end| b.get(off..end))
        .and_then(|s| <[u8; 4]>::try_from(s).ok())
        .map_or(0, u32::from_le_bytes)
}
