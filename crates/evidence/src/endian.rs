//! Fixed-offset little- and big-endian fields of untrusted bytes: `None` when the field lies
//! beyond the bytes, never a panic. Shared by the parsers of this crate.

pub(crate) fn field(b: &[u8], at: usize, len: usize) -> Option<&[u8]> {
    b.get(at..at.checked_add(len)?)
}

pub(crate) fn le16(b: &[u8], at: usize) -> Option<u16> {
    field(b, at, 2)
        .and_then(|s| s.try_into().ok())
        .map(u16::from_le_bytes)
}

pub(crate) fn le32(b: &[u8], at: usize) -> Option<u32> {
    field(b, at, 4)
        .and_then(|s| s.try_into().ok())
        .map(u32::from_le_bytes)
}

pub(crate) fn le64(b: &[u8], at: usize) -> Option<u64> {
    field(b, at, 8)
        .and_then(|s| s.try_into().ok())
        .map(u64::from_le_bytes)
}

pub(crate) fn be16(b: &[u8], at: usize) -> Option<u16> {
    field(b, at, 2)
        .and_then(|s| s.try_into().ok())
        .map(u16::from_be_bytes)
}

pub(crate) fn be32(b: &[u8], at: usize) -> Option<u32> {
    field(b, at, 4)
        .and_then(|s| s.try_into().ok())
        .map(u32::from_be_bytes)
}

pub(crate) fn be64(b: &[u8], at: usize) -> Option<u64> {
    field(b, at, 8)
        .and_then(|s| s.try_into().ok())
        .map(u64::from_be_bytes)
}

/// A fixed-size text field: up to the first NUL, trailing spaces removed, lossy UTF-8;
/// `None` when empty.
pub(crate) fn text(b: &[u8]) -> Option<String> {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    let s = String::from_utf8_lossy(b.get(..end).unwrap_or(&[]));
    let s = s.trim_end_matches([' ', '\0']).trim_start();
    (!s.is_empty()).then(|| s.to_string())
}
