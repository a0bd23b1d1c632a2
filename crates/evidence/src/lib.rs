//! Read-only access to forensic evidence.
//!
//! This crate knows nothing about cases, agents or graphs. For now it provides the pieces every
//! intake needs: discovering every file that makes up one evidence item ([`files`]) and hashing
//! them with SHA-256 and MD5 in one streaming pass ([`hash`]). Evidence files are always opened
//! read-only, and without updating their access time where the platform allows ([`open`]).

pub mod files;
pub mod hash;
pub mod open;

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
    /// A multi-segment image is missing a segment in the middle of its sequence.
    #[error("{path}: segment {missing} of the set is missing (found {found} segment(s) after it)")]
    MissingSegment {
        path: PathBuf,
        missing: String,
        found: usize,
    },
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
