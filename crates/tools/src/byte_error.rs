//! The error of the schema-less cell decoders that walk bytes (`postbox`, `twserial`,
//! `derplist`): where a value stopped decoding and why, printed `at byte <offset>: <reason>`.

/// Why bytes do not decode, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteError {
    /// Byte offset in the decoded bytes.
    pub offset: usize,
    /// What was wrong there.
    pub reason: String,
}

impl std::fmt::Display for ByteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.reason)
    }
}
