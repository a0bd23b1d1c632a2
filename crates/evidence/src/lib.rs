//! Read-only access to forensic evidence: finding every file of an evidence item, hashing it,
//! and reading it as a stack of layers (image → volume system → partition → file system or
//! archive → files). This crate knows nothing about cases, agents or graphs.
//!
//! # Intake
//!
//! - [`files`] resolves an evidence path to the complete ordered list of its files: EWF segments
//!   found by signature, then by the libewf naming scheme, and checked by segment number; split
//!   raw `.000`/`.001`; folders walked without following links.
//! - [`host`] reads the examiner's own file system relative to open directory handles (`openat`,
//!   `statx`, `getdents` through `rustix`): paths of any length, trees of any depth with a
//!   bounded number of open handles, links never followed below the root. [`open`], [`files`]
//!   and the [`folder`] tree all go through it.
//! - [`hash`] computes SHA-256 and MD5 in one streaming pass: the reading thread hashes SHA-256
//!   while a second thread hashes MD5 over the same 128 KiB buffers, which circulate between the
//!   two threads.
//! - [`open`] opens evidence read-only (with `O_NOATIME` where allowed); `open::open_read_only`
//!   is the only way evidence files are opened.
//!
//! # The layer stack
//!
//! - [`bytes`]: `ByteSource`, positioned reads through `&self`, so layers are shared across
//!   threads; `Slice`, `Concat`, `Memory`, `FileBytes`, and `Reader`, a `Read + Seek` whose
//!   writes fail, for crates that ask for `Write`.
//! - [`fs`]: `FileSystem` (`list_dir` sorted by name, `stat`, `open` → `ByteSource`); `Entry`
//!   with its id, mode, deleted flag and `RawTime`s kept in their stored encoding, and an
//!   archive member's `stored_name` when making it a path changed it. `fs::visible` writes
//!   control characters and bidi overrides as `\u{..}` escapes (`masf ls`).
//! - [`scan`] stacks the layers by content and names the source's form (disk image, archive,
//!   folder, iTunes backup, file) with its reasons; which device a source comes from is the
//!   plugins' call, not this crate's;
//!   `scan::Spec` parses `EVIDENCE[#PARTITION]:/path`.
//!
//! # Formats, one module each
//!
//! - [`ewf`]: a hand-written EWF reader (v1 E01 and v2 Ex01) that checks every chunk (zlib with its Adler-32, or
//!   the stored Adler-32 of uncompressed chunks) and names the bad chunk instead of serving
//!   altered bytes; `table2` fallback; LRU chunk cache. `verify_media` checks against the stored
//!   MD5/SHA-1 with one worker per CPU, each hashing whenever a digest chain is free and its next
//!   batch is decoded (MD5 first) and decoding otherwise, so no core idles while work exists.
//! - [`qcow2`], [`vhd`], [`vhdx`], [`vmdk`]: hand-written virtual disk readers, recognised by
//!   content at any layer. QCOW2 v2/v3 L1/L2 lookups with zero, unallocated and
//!   deflate-compressed clusters; VHD fixed and dynamic with BAT and sector bitmaps; VHDX with
//!   CRC-32C-checked headers and region tables (a damaged copy falls back to the other),
//!   metadata items and the interleaved BAT, a log holding a valid entry refused rather than
//!   replayed; VMDK sparse extents (monolithicSparse, and streamOptimized with zlib grains and
//!   the footer's GD offset) through the grain directory and tables, split/flat descriptor files
//!   refused naming their extents. Every image offset is checked against the file, tables are
//!   bounded, caches are bounded; backing files, differencing parents and encryption are refused
//!   by name.
//! - [`simg`]: Android sparse images read in place through a table of their raw, fill and
//!   don't-care chunks; CRC32 chunks verified at open, a mismatch refused naming the chunk, since
//!   it cannot say which byte changed.
//! - [`udif`]: a hand-written `.dmg` reader: the `koly` trailer, the bounded XML plist's `blkx`
//!   `mish` tables, zero/ignore/raw chunks and ADC (hand-written), zlib, bzip2, LZFSE and LZMA
//!   (crates), decoded one chunk at a time into a bounded LRU; every chunk checked against file
//!   and disk, table CRC-32s checked by `verify`.
//! - [`volume`]: GPT through the `gpt` crate after validating every header field; MBR with a
//!   hand-walked, loop-safe EBR chain; the Apple Partition Map read by hand with a bounded entry
//!   count.
//! - [`probe`]: signatures and superblocks of about 40 formats, Android FBE/FDE verdicts; ISO
//!   9660 recognised as not yet readable. Its answer types are `format`'s, and volume boot
//!   sectors (FAT, NTFS, exFAT, BitLocker) are `bootsect`'s, which the volume layer asks too.
//! - [`hfsplus`]: hand-written HFS+/HFSX after TN1150: volume header or HFS wrapper, catalog and
//!   extents overflow B-trees walked along their leaf chains with loop detection (a bad node ends
//!   the walk with a diagnostic), hard links resolved to their `iNode` file as TSK does, resource
//!   forks listed as `name:rsrc`; decmpfs not decompressed yet.
//! - [`apfs`]: hand-written: the latest valid checkpoint, Fletcher-64 on every object, object
//!   maps, every volume its own layer with name and role, fs-tree records, extents with holes,
//!   xattrs, decmpfs zlib/LZVN/LZFSE, snapshots listed, encryption reported; B-tree levels
//!   checked so no node loop is followed.
//! - [`f2fs`]: hand-written (no crate reads F2FS): superblock copy and checkpoint pack chosen by
//!   CRC and version, NAT through the checkpoint's journal and version bitmap, inline data and
//!   dentries, node-block footers checked against the NAT; unlinked names recovered from freed
//!   dentry slots whose stored hash matches; fscrypt and compressed files refused by name.
//! - [`ext4`]: hand-written, for what `ext4-view` cannot give: inode numbers, ctime, casefold,
//!   inline_data, meta_bg and holes; deleted names recovered from directory slack, listed
//!   `deleted` with their freed inode's size and deletion time, never resolved as paths.
//! - [`fat`]: hand-written, with deleted entries and TSK-compatible ids.
//! - [`ntfs`]: hand-written, fixups and runs checked, ADS, deleted records, LZNT1-compressed
//!   streams decoded per compression unit by [`lznt1`].
//! - [`archive`]: ZIP read in place with bomb limits (inflated sizes and CRCs checked), TAR,
//!   gzip.
//! - [`folder`]; [`itunes`]: `Manifest.db` opened on a copy, the real iOS tree; encrypted
//!   backups through `itunes::keybag` (docs/adding-a-format.md, "Encrypted formats").
//! - [`plist`]: property lists built from the `plist` crate's event readers on an explicit
//!   stack: nesting past `plist::MAX_DEPTH` (100) is `Error::TooDeep` with the offset, shared
//!   references are bounded by what they expand to.
//! - [`leveldb`]: one LevelDB file at a time, every record version: logs with their 32 KiB block
//!   framing and CRC-32C, tables with footer, index and Snappy/zstd blocks. Hand-written because
//!   the maintained Rust LevelDB opens a database, writes its `LOCK` and log, and keeps only
//!   newest values; a bad record or block is a `Problem` with its offset and the rest is read.
//!
//! # Hostile input
//!
//! Every parser returns `Error::{Corrupt, Truncated, TooLarge, TooDeep, Unsupported, Encrypted,
//! …}` naming layer and offset. Nesting is walked on explicit stacks and bounded: walks inside
//! images at `fs::MAX_DIR_DEPTH` (512 levels), the walking tools of `masf-tools` at 64 levels,
//! saying where they stopped; layers at 6; host folders at any depth through [`host`]. Mutated
//! fixtures, inputs 10,000 levels deep (`tests/fixtures/deep/`) and the fuzz targets hold it to
//! that: `crates/evidence/fuzz/` has twenty targets and one driver, `fuzzing::run_target`, a seed
//! corpus made by real tools, and every kept input is replayed by the suite.
//!
//! Adding a format: docs/adding-a-format.md.
//!
//! # Invariants kept here
//!
//! - Evidence is never modified: `open::open_read_only` is the only way evidence files are
//!   opened; `bytes::Reader` refuses writes; SQLite inside evidence is opened on a copy
//!   ([`itunes`]); intake and layer tests check content and mtime before and after.
//! - Bytes served are the stored bytes or an error, never silently altered: [`ewf`] verifies
//!   every chunk before serving it, [`archive`] checks inflated sizes and CRCs; tests compare
//!   every demo file with `icat` / `unzip -p`.
//! - An examiner's backup password never lands anywhere: `itunes::keybag::Password` and the keys
//!   derived from it are zeroed on drop and print as `<hidden>`, and no error, layer or
//!   diagnostic holds them. An encrypted iTunes backup's keybag is unlocked, its `Manifest.db`
//!   decrypted into the private temp folder and its files decrypted in memory
//!   (`tests/it/itunes_encrypted.rs`). Only the name of the environment variable holding the
//!   password travels: `password_env:` in case.yaml, read by `masf_tools::scan_options` where a
//!   source is opened, carried by name in the tool worker's `Open` requests; a whole run leaves
//!   no file holding it (`crates/cli/tests/it/backup_password.rs`).

pub mod apfs;
pub mod archive;
pub mod beside;
mod bootsect;
pub mod bytes;
mod endian;
pub mod ewf;
pub mod ext4;
pub mod f2fs;
pub mod fat;
pub mod files;
pub mod folder;
mod format;
pub mod fs;
pub mod fuzzing;
pub mod hash;
pub mod hfsplus;
pub mod host;
pub mod itunes;
pub mod leveldb;
pub mod lp;
pub mod lznt1;
pub mod ntfs;
pub mod open;
pub mod plist;
pub mod probe;
pub mod qcow2;
pub mod scan;
pub mod segb;
pub mod simg;
pub mod sparsebundle;
pub mod sparseimage;
pub mod sqlcipher;
pub mod udif;
pub mod vhd;
pub mod vhdx;
pub mod vmdk;
pub mod volume;

pub use files::{EvidenceFiles, FilesKind};
pub use hash::{Digests, hash_file, hash_reader};

use std::path::PathBuf;

/// Errors of the evidence layer. Every variant names the file it concerns.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The operating system refused or failed an operation on an evidence file.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The evidence path does not exist.
    #[error("{path}: evidence not found")]
    NotFound { path: PathBuf },
    /// Reading a layer failed at an offset.
    #[error("{layer}: read failed at offset {offset}: {source}")]
    Read {
        layer: String,
        offset: u64,
        #[source]
        source: std::io::Error,
    },
    /// A layer ended before a structure it must hold.
    #[error("{layer}: truncated at offset {offset} (wanted {wanted} bytes)")]
    Truncated {
        layer: String,
        offset: u64,
        wanted: u64,
    },
    /// A layer's bytes violate its format.
    #[error("{layer}: corrupt at offset {offset}: {detail}")]
    Corrupt {
        layer: String,
        offset: u64,
        detail: String,
    },
    /// The format (or a feature of it) is recognised but cannot be read yet.
    #[error("{layer}: not supported: {detail}")]
    Unsupported { layer: String, detail: String },
    /// The data is encrypted and no key is available.
    #[error("{layer}: encrypted: {detail}")]
    Encrypted { layer: String, detail: String },
    /// A path inside a file system does not exist.
    #[error("{layer}: no such entry: {path}")]
    NoEntry { layer: String, path: String },
    /// A path names the wrong kind of entry (a file where a directory is needed, or the reverse).
    #[error("{layer}: {path}: {detail}")]
    WrongKind {
        layer: String,
        path: String,
        detail: String,
    },
    /// A structure claims a size beyond the configured limits (crafted input).
    #[error("{layer}: at offset {offset}: {what} of {claimed} exceeds the limit of {limit}")]
    TooLarge {
        layer: String,
        offset: u64,
        what: String,
        claimed: u64,
        limit: u64,
    },
    /// Structures nest deeper than the configured limit (crafted input: a plist of thousands of
    /// nested arrays, a folder thousands of directories deep). Recursive walks never go past it.
    /// `path` names the entry where a tree walk stopped (then `offset` is 0).
    #[error("{layer}: {what} nested deeper than {limit} levels {}", at(*.offset, .path.as_deref()))]
    TooDeep {
        layer: String,
        offset: u64,
        path: Option<String>,
        what: String,
        limit: u64,
    },
    /// An encrypted iTunes/Finder backup was opened without a password.
    #[error(
        "{layer}: encrypted backup and no password given: name the environment variable that \
         holds it with `password_env: VAR` on the source in case.yaml (or \
         `--backup-password-env VAR` for masf inspect, ls and cat)"
    )]
    PasswordNeeded { layer: String },
    /// The password given does not unlock an encrypted backup.
    #[error("{layer}: the password does not open this backup's keybag")]
    WrongPassword { layer: String },
    /// An encrypted backup's keybag (`Manifest.plist` `BackupKeyBag`) is damaged.
    #[error("{layer}: keybag corrupt at offset {offset} (tag {tag}): {detail}")]
    Keybag {
        layer: String,
        tag: String,
        offset: u64,
        detail: String,
    },
    /// A file of an encrypted backup whose own key cannot be unwrapped.
    #[error("{layer}: {path}: its file key does not unwrap: {detail}")]
    FileKey {
        layer: String,
        path: String,
        detail: String,
    },
    /// A backup folder without `Manifest.db`, the list of its files.
    #[error(
        "{path}: missing: a backup's Manifest.db lists its files; without it none can be named"
    )]
    MissingManifest { path: PathBuf },
    /// A virtual disk names a file (an extent, a backing file, a parent) that is not beside it.
    #[error("{layer}: needs {needs}, not found in {folder}: give it beside the image")]
    MissingFile {
        layer: String,
        needs: String,
        folder: PathBuf,
    },
    /// A multi-segment image is missing a segment in the middle of its sequence.
    #[error("{path}: segment {missing} of the set is missing (found {found} segment(s) after it)")]
    MissingSegment {
        path: PathBuf,
        missing: String,
        found: usize,
    },
}

/// Where a [`Error::TooDeep`] was found: a path inside a tree, or a byte offset.
fn at(offset: u64, path: Option<&str>) -> String {
    match path {
        Some(p) => format!("at {p}"),
        None => format!("at offset {offset}"),
    }
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
