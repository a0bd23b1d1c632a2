//! Archives as trees: ZIP, TAR and gzip-compressed TAR, read in place.
//!
//! An archive is opened over any [`Bytes`] (a file, a member of another archive, a file inside a
//! disk image) and presented as a [`FileSystem`]. Nothing is ever extracted to disk: a member is
//! served as a [`Slice`](crate::bytes::Slice) of the archive when it is stored as is, or inflated
//! into memory, within [`Limits`], when it is compressed.
//!
//! Member names are untrusted: they are normalised so that absolute names and `..` never leave
//! the root, missing parent directories are synthesised, and duplicate names stay visible as
//! `name~2`, `name~3`, … (see [`tree`] for the exact rules; every rename is in the diagnostics).
//!
//! * [`zip`]: the central directory is parsed here rather than by the `zip` crate, because that
//!   crate files members in a map keyed by name, so a second member of the same name silently
//!   replaces the first (an archive can hide content that way), and because reading members in
//!   parallel needs no shared reader: each member's compressed bytes are read with one
//!   positioned read and inflated with `flate2` (zlib-rs) on whichever thread asks.
//! * [`tar`]: headers are indexed once with the `tar` crate; a member's content is a `Slice` of
//!   the (decompressed) stream.
//! * [`gzip`]: a gzip stream inflated into memory with a size limit, members and trailers
//!   checked; errors name the compressed offset.

pub mod gzip;
pub mod tar;
pub(crate) mod tree;
pub mod zip;

pub use gzip::gunzip;
pub use tar::{TarArchive, open_tar};
pub use zip::{ZipArchive, open_zip};

#[allow(unused_imports)] // for the doc links above
use crate::{bytes::Bytes, fs::FileSystem};

/// Limits that keep a crafted archive from exhausting memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest member (or gzip stream) inflated into memory, in bytes. Default 4 GiB.
    pub max_inflated: u64,
    /// The largest expansion ratio (inflated / compressed) accepted for a member that inflates
    /// to more than [`Limits::ratio_floor`] bytes. Default 200 (deflate's ceiling is ~1032; real
    /// files beyond 200 are rare, bombs are all there).
    pub max_ratio: u64,
    /// Members that inflate to at most this many bytes are not ratio-checked. Default 64 MiB.
    pub ratio_floor: u64,
    /// The largest metadata structure read into memory: a ZIP central directory, a TAR long
    /// name or PAX header. Default 256 MiB.
    pub max_metadata: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_inflated: 4 << 30,
            max_ratio: 200,
            ratio_floor: 64 << 20,
            max_metadata: 256 << 20,
        }
    }
}
