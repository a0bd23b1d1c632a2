//! Read-only access to forensic evidence.
//!
//! This crate knows nothing about cases, agents or graphs. For now it provides the pieces every
//! intake needs: discovering every file that makes up one evidence item ([`files`]) and hashing
//! them with SHA-256 and MD5 in one streaming pass ([`hash`]). Evidence files are always opened
//! read-only, and without updating their access time where the platform allows ([`open`]).

pub mod apfs;
pub mod archive;
pub mod bytes;
mod endian;
pub mod ewf;
pub mod ext4;
pub mod f2fs;
pub mod fat;
pub mod files;
pub mod folder;
pub mod fs;
pub mod fuzzing;
pub mod hash;
pub mod hfsplus;
pub mod host;
pub mod itunes;
pub mod leveldb;
pub mod lznt1;
pub mod ntfs;
pub mod open;
pub mod plist;
pub mod probe;
pub mod qcow2;
pub mod scan;
pub mod simg;
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
