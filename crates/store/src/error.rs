//! The one error type of the store.

use std::path::PathBuf;

/// Everything that can go wrong in the case store; callers match on the variants.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused a statement (constraint, append-only trigger, I/O inside SQLite, a stored
    /// value that does not decode).
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),

    /// A file or folder of the work folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder concerned.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// A schema migration failed; it was rolled back and the store keeps its previous version.
    #[error("migration to schema version {version} failed: {source}")]
    Migration {
        /// The version the migration would have produced.
        version: u32,
        /// What SQLite said.
        #[source]
        source: rusqlite::Error,
    },

    /// The store was written by a newer build; this one refuses to touch it.
    #[error("store schema version {found} is newer than version {known} known to this build")]
    NewerSchema {
        /// The version found in the store.
        found: u32,
        /// The latest version this build knows.
        known: u32,
    },

    /// A read-only open found a store that still needs migrations (open it writable once).
    #[error(
        "store schema version {found} is older than version {known}; open it writable to upgrade"
    )]
    OlderSchema {
        /// The version found in the store.
        found: u32,
        /// The latest version this build knows.
        known: u32,
    },

    /// An idempotency key was reused for a record with different content.
    #[error("idempotency key {key:?} is already used by a different record")]
    IdempotencyConflict {
        /// The reused key.
        key: String,
    },

    /// An event names a cause it cannot have: an event that does not exist, or one later than
    /// itself (a decision backdated before what it decides on).
    #[error("event {key:?} cannot be caused by event {causation_seq}: {problem}")]
    Causation {
        /// The refused event's idempotency key.
        key: String,
        /// The cause it named.
        causation_seq: i64,
        /// What is wrong.
        problem: String,
    },

    /// The stored output of an invocation no longer hashes to its recorded sha256.
    #[error(
        "output of {invocation_id} ({}) hashes to {actual}, recorded {expected}",
        path.display()
    )]
    OutputMismatch {
        /// The invocation whose output changed.
        invocation_id: String,
        /// The sha256 recorded with the invocation.
        expected: String,
        /// The sha256 of the bytes found now.
        actual: String,
        /// Where the bytes were read: the object file, or the SQLite file for inline outputs.
        path: PathBuf,
    },

    /// No invocation has this id.
    #[error("no invocation {invocation_id}")]
    NotFound {
        /// The id asked for.
        invocation_id: String,
    },

    /// Another process (or another open lease in this one) holds the case's run lease.
    #[error("the case is being run by {holder}")]
    Busy {
        /// Who holds it.
        holder: crate::lease::Holder,
    },

    /// A value could not be encoded as JSON.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
}

impl StoreError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { path, source }
    }
}
